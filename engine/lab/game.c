/* game.c - one game between two agents, recorded for the database. */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* splitmix64's finaliser: a good 64-bit mixing function. */
static uint64_t game_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t game_seed(uint64_t seed, int64_t index)
{
    return game_mix(seed ^ game_mix((uint64_t)index));
}

uint64_t game_script_seed(uint64_t game_seed)
{
    return game_mix(game_seed ^ 2);
}

const char *game_result_text(tiers_result r)
{
    switch (r) {
    case TIERS_WIN_0: return "1-0";
    case TIERS_WIN_1: return "0-1";
    case TIERS_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

static double game_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int game_worker_init(struct game_worker *w, const struct game_config *cfg,
                     tiers_error *err)
{
    memset(w, 0, sizeof *w);
    w->v = tiers_variant_load(cfg->variant, cfg->search, cfg->rules, err);
    if (!w->v)
        return TIERS_EINPUT;
    /* room for the game and for the deepest search or rollout below it */
    w->p = tiers_pos_new(w->v, cfg->max_plies + 1024, err);
    if (!w->p) {
        game_worker_free(w);
        return TIERS_ENOMEM;
    }
    for (int s = 0; s < 2 && cfg->agents[s]; s++) { /* none for a replay */
        w->agent[s] = tiers_agent_new(cfg->agents[s], err);
        if (!w->agent[s]) {
            game_worker_free(w);
            return TIERS_EUSAGE;
        }
    }
    /* a move is at most a few dozen characters; grown if ever needed */
    w->g.moves_cap = (size_t)cfg->max_plies * 24 + 64;
    w->g.legal_cap = (size_t)cfg->max_plies * 6 + 64;
    w->g.moves = malloc(w->g.moves_cap);
    w->g.legal = malloc(w->g.legal_cap);
    if (!w->g.moves || !w->g.legal) {
        game_worker_free(w);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return TIERS_ENOMEM;
    }
    struct game_track *t = &w->track;
    uint32_t slots = 64;
    while (slots < 2u * (uint32_t)cfg->max_plies + 4)
        slots *= 2;
    t->key_mask = slots - 1;
    t->keys = calloc(slots, sizeof *t->keys);
    t->used = malloc(((size_t)cfg->max_plies + 2) * sizeof *t->used);
    t->v = malloc(((size_t)cfg->max_plies + 2) * sizeof *t->v);
    t->squares = tiers_variant_files(w->v) * tiers_variant_ranks(w->v);
    if (!t->keys || !t->used || !t->v) {
        game_worker_free(w);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return TIERS_ENOMEM;
    }
    w->g.nfaces = tiers_variant_face_count(w->v);
    if (w->g.nfaces > GAME_MAX_FACES)
        w->g.nfaces = GAME_MAX_FACES;
    w->g.neffects = tiers_variant_effects(w->v);
    if (w->g.neffects > GAME_MAX_EFFECTS)
        w->g.neffects = GAME_MAX_EFFECTS;
    return 0;
}

void game_worker_free(struct game_worker *w)
{
    for (int s = 0; s < 2; s++)
        tiers_agent_free(w->agent[s]);
    if (w->p)
        tiers_pos_free(w->p);
    if (w->v)
        tiers_variant_free(w->v);
    free(w->g.moves);
    free(w->g.legal);
    free(w->track.keys);
    free(w->track.used);
    free(w->track.v);
    free(w->list);
    memset(w, 0, sizeof *w);
}

/* Appends text and a separating space to a growing buffer. */
static int game_append(char **buf, size_t *len, size_t *cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 2 > *cap) {
        size_t cap2 = (*cap + n + 2) * 2;
        char *b = realloc(*buf, cap2);
        if (!b)
            return TIERS_ENOMEM;
        *buf = b;
        *cap = cap2;
    }
    if (*len)
        (*buf)[(*len)++] = ' ';
    memcpy(*buf + *len, text, n + 1);
    *len += n;
    return 0;
}

/* Makes the chosen move m and counts the effects that fired in this ply:
 * those the move fired (its own, after, apply and drop_ok hooks), the
 * fouls whose veto refused one of the position's legal moves (`vetoed`,
 * from the list the agent chose from), and the check hooks that find the
 * opponent in check after it.  The counts live in a tiers_stats of this
 * ply, so the moves an agent's search tries do not count. */
static int game_count_effects(struct game_worker *w, const tiers_move *m, uint32_t vetoed)
{
    struct game_record *g = &w->g;
    tiers_stats st = {.vetoed = 0};
    int rc = tiers_pos_make_unchecked(w->p, m, &st); /* m is from the agent's list */
    if (rc < 0)
        return rc;
    uint32_t checks = tiers_pos_check_effects(w->p);
    for (int i = 0; i < g->neffects; i++) {
        g->effects[i] += st.fired[i] + (checks >> i & 1);
        g->prevented[i] += vetoed >> i & 1;
    }
    return 0;
}

/* Whether position key k was seen before in this game; adds it. */
static int game_seen_key(struct game_track *t, uint64_t k)
{
    k = k ? k : 1; /* 0 marks a free slot */
    uint32_t i = (uint32_t)(k ^ k >> 32) & t->key_mask;
    while (t->keys[i]) {
        if (t->keys[i] == k)
            return 1;
        i = (i + 1) & t->key_mask;
    }
    t->keys[i] = k;
    t->used[t->nused++] = i;
    return 0;
}

/* The evaluation of p for the figures: side 0's material lead plus its
 * evaluate hook, over the material at the start of play, in [-1, 1]. */
static float game_eval(struct game_track *t, tiers_pos *p)
{
    double x = (double)(t->balance + tiers_pos_evaluate_hook(p, 0)) / t->total;
    return (float)(x > 1 ? 1 : x < -1 ? -1 : x);
}

/* Notes what the ply just made at p changed: squares now occupied, the
 * material balance, a repeated position, the evaluation in play. */
static void game_track_ply(struct game_worker *w, int play)
{
    struct game_track *t = &w->track;
    tiers_square sq[32];
    int delta, n = tiers_pos_last_change(w->p, &delta, sq, 32);
    t->balance += delta;
    for (int i = 0; i < n; i++)
        if (sq[i] < 256 && !t->seen[sq[i]] && tiers_pos_height(w->p, sq[i] & 15, sq[i] >> 4)) {
            t->seen[sq[i]] = 1;
            t->nseen++;
        }
    w->g.repetition += game_seen_key(t, tiers_pos_hash(w->p));
    if (play && t->total > 0)
        t->v[t->nv++] = game_eval(t, w->p);
}

/* Starts tracking at the start position. */
static void game_track_start(struct game_worker *w)
{
    struct game_track *t = &w->track;
    for (int i = 0; i < t->nused; i++)
        t->keys[t->used[i]] = 0;
    t->nused = t->nv = t->nseen = 0;
    memset(t->seen, 0, sizeof t->seen);
    t->balance = tiers_pos_material(w->p, 0) - tiers_pos_material(w->p, 1);
    t->total = 0;
    int files = tiers_variant_files(w->v), ranks = tiers_variant_ranks(w->v);
    for (int r = 0; r < ranks; r++)
        for (int f = 0; f < files; f++)
            if (tiers_pos_height(w->p, f, r)) {
                t->seen[r * 16 + f] = 1;
                t->nseen++;
            }
    game_seen_key(t, tiers_pos_hash(w->p));
}

void game_figures(const float *v, int n, int winner, double *lead_change, double *drama,
                  double *decision_point, double *stability)
{
    *lead_change = *drama = *decision_point = *stability = -1;
    if (n <= 0)
        return;
    double sum = 0, sq = 0;
    int leader = 0, changes = 0;
    for (int i = 0; i < n; i++) {
        sum += v[i];
        sq += (double)v[i] * v[i];
        int now = v[i] > 0 ? 1 : v[i] < 0 ? -1 : 0;
        if (now && leader && now != leader)
            changes++;
        if (now)
            leader = now;
    }
    double mean = sum / n, var = sq / n - mean * mean;
    *stability = var < 0 ? 0 : var;
    if (n >= 2)
        *lead_change = (double)changes / (n - 1);
    if (winner != 0 && winner != 1)
        return;
    /* w: the winner's view; the loser's best is the most it ever led by */
    double behind = 0, loser_best = -2;
    int trailing = 0;
    for (int i = 0; i < n; i++) {
        double w = winner == 0 ? v[i] : -v[i];
        if (w < 0) {
            behind += -w;
            trailing++;
        }
        if (-w > loser_best)
            loser_best = -w;
    }
    *drama = trailing ? behind / trailing : 0;
    int from = n; /* the first position after which the winner stays above */
    while (from > 0 && (winner == 0 ? v[from - 1] : -v[from - 1]) > loser_best)
        from--;
    *decision_point = n >= 2 ? (double)(from < n - 1 ? from : n - 1) / (n - 1) : 1;
}

/* Counts the play-phase move m (not yet made) for the faces it concerns;
 * *last gets the face that moves. */
static void game_count_faces(struct game_worker *w, const tiers_move *m, int *last)
{
    struct game_record *g = &w->g;
    int mover, victim;
    tiers_move_faces(w->p, m, &mover, &victim);
    *last = mover;
    if (mover >= 0 && mover < g->nfaces) {
        g->face[mover].moves++;
        g->face[mover].drops += m->kind == TIERS_MV_DROP;
        g->face[mover].captures += victim >= 0;
    }
    if (victim >= 0 && victim < g->nfaces)
        g->face[victim].captured++;
}

/* The figures of the finished game (st: its status). */
static void game_finish(struct game_worker *w, tiers_status st, int last_face)
{
    struct game_record *g = &w->g;
    struct game_track *t = &w->track;
    int winner = !st.game_over ? -1 : st.result == TIERS_WIN_0 ? 0
                 : st.result == TIERS_WIN_1 ? 1 : -1;
    if (st.game_over && !strcmp(g->reason, "checkmate") && last_face >= 0 &&
        last_face < g->nfaces && g->plies > g->setup_plies)
        g->face[last_face].mates++;
    /* the effect whose result hook ended it, whatever reason it gave */
    int by = st.game_over ? tiers_pos_hook_ended(w->p) : 0;
    g->hook_ended = by > 0;
    if (by > 0 && by - 1 < g->neffects)
        g->ended[by - 1] = 1;
    g->coverage = t->squares > 0 ? (double)t->nseen / t->squares : -1;
    g->repetition = g->plies ? g->repetition / g->plies : -1;
    game_figures(t->v, t->nv, winner, &g->lead_change, &g->drama, &g->decision_point,
                 &g->stability);
}

/* Starts game `index` (own seed `seed`) at the start position: the record
 * emptied, the tracking started, the scripts' random numbers seeded. */
static int game_begin(struct game_worker *w, int64_t index, uint64_t seed)
{
    struct game_record *g = &w->g;
    w->pending[0] = '\0';
    g->index = index;
    g->seed = seed;
    g->result = TIERS_ONGOING;
    g->reason[0] = '\0';
    g->cut = 0;
    g->plies = g->setup_plies = 0;
    g->first_side = -1;
    g->captures = g->drops = g->placements = g->stacks = 0;
    g->legal_sum = 0;
    g->legal_plies = 0;
    g->moves_len = g->legal_len = 0;
    g->moves[0] = g->legal[0] = '\0';
    memset(g->effects, 0, sizeof g->effects);
    memset(g->prevented, 0, sizeof g->prevented);
    memset(g->ended, 0, sizeof g->ended);
    memset(g->face, 0, sizeof g->face);
    g->hook_ended = 0;
    g->repetition = 0;
    w->last_face = -1;
    int rc = tiers_pos_reset(w->p);
    if (rc < 0)
        return rc;
    game_track_start(w);
    tiers_pos_seed(w->p, game_script_seed(g->seed));
    return 0;
}

/* Makes m, chosen from the position's n legal moves (vetoed: the effects
 * whose veto narrowed that list), and records it: the move and legal
 * count texts, the effects, faces, tracking and counters.  The one ply
 * of both game_run and game_replay. */
static int game_ply(struct game_worker *w, const tiers_move *m, int n, uint32_t vetoed)
{
    struct game_record *g = &w->g;
    tiers_pos *p = w->p;
    char text[256];
    int setup = tiers_pos_in_setup(p);
    int side = tiers_pos_side_to_move(p);
    snprintf(text, sizeof text, "%d", n);
    if (game_append(&g->legal, &g->legal_len, &g->legal_cap, text) < 0)
        return TIERS_ENOMEM;
    int rc = tiers_move_format(p, m, NULL, text, sizeof text);
    if (rc < 0)
        return rc;
    if (game_append(&g->moves, &g->moves_len, &g->moves_cap, text) < 0)
        return TIERS_ENOMEM;
    snprintf(w->pending, sizeof w->pending, "%s", text);
    if (!setup) {
        if (!w->track.total) { /* the start of play */
            w->track.total = tiers_pos_material(p, 0) + tiers_pos_material(p, 1);
            if (w->track.total > 0)
                w->track.v[w->track.nv++] = game_eval(&w->track, p);
        }
        game_count_faces(w, m, &w->last_face);
    }
    rc = game_count_effects(w, m, vetoed);
    if (rc < 0)
        return rc;
    g->plies++;
    game_track_ply(w, !setup);
    if (setup) {
        g->setup_plies++;
        g->placements += m->kind == TIERS_MV_DROP;
        return 0;
    }
    if (g->first_side < 0)
        g->first_side = side;
    g->legal_sum += n;
    g->legal_plies++;
    g->captures += m->kind == TIERS_MV_CAPTURE || m->kind == TIERS_MV_STRIKE;
    g->drops += m->kind == TIERS_MV_DROP;
    g->stacks += m->kind == TIERS_MV_STACK;
    return 0;
}

/* The result, reason and figures of the game now stopped. */
static void game_end(struct game_worker *w)
{
    struct game_record *g = &w->g;
    tiers_status st = tiers_pos_status(w->p);
    if (st.game_over) {
        g->result = st.result;
        snprintf(g->reason, sizeof g->reason, "%s", st.reason ? st.reason : "");
    } else {
        g->cut = 1;
        snprintf(g->reason, sizeof g->reason, "cut");
    }
    game_finish(w, st, w->last_face);
}

static int game_run(struct game_worker *w, const struct game_config *cfg, int64_t index)
{
    struct game_record *g = &w->g;
    tiers_pos *p = w->p;
    double t0 = game_now();
    int rc = game_begin(w, index, game_seed(cfg->seed, index));
    if (rc < 0)
        return rc;
    uint64_t rng = game_mix(g->seed ^ 1);
    if (!rng)
        rng = 1;
    while (g->plies < cfg->max_plies) {
        int side = tiers_pos_side_to_move(p);
        tiers_move m;
        tiers_stats chosen = {.vetoed = 0};
        w->pending[0] = '\0';
        int n = tiers_agent_choose_stats(w->agent[side], p, &rng, &m, &chosen);
        if (n < 0)
            return n;
        if (n == 0)
            break;
        rc = game_ply(w, &m, n, chosen.vetoed);
        if (rc < 0)
            return rc;
    }
    game_end(w);
    g->seconds = game_now() - t0;
    return 0;
}

int game_replay(struct game_worker *w, int64_t index, uint64_t seed, const char *moves)
{
    struct game_record *g = &w->g;
    if (!w->list) {
        w->list = malloc(TIERS_MAX_MOVES * sizeof *w->list);
        if (!w->list)
            return TIERS_ENOMEM;
    }
    int rc = game_begin(w, index, seed);
    char token[256];
    const char *s = moves;
    while (rc == 0 && *(s += strspn(s, " "))) {
        size_t len = strcspn(s, " ");
        if (len >= sizeof token)
            return TIERS_EILLEGAL;
        memcpy(token, s, len);
        token[len] = '\0';
        s += len;
        tiers_stats stats = {.vetoed = 0};
        int n = tiers_pos_legal_moves_stats(w->p, w->list, TIERS_MAX_MOVES, &stats);
        if (n <= 0) /* a script failed, or a move after the end */
            return n < 0 ? n : TIERS_EILLEGAL;
        tiers_move m;
        tiers_error err;
        rc = tiers_move_find(w->p, token, NULL, w->list, n, &m, &err);
        if (rc == 0)
            rc = game_ply(w, &m, n, stats.vetoed);
    }
    if (rc < 0)
        return rc;
    game_end(w);
    g->seconds = 0;
    return 0;
}

int game_play(struct game_worker *w, const struct game_config *cfg, int64_t index)
{
    int rc = game_run(w, cfg, index);
    if (rc < 0) /* the context, for the message and the failed game's record */
        failrec_note(&w->fail, w->p, rc, index, w->g.seed, game_script_seed(w->g.seed),
                     w->g.moves, w->g.plies, w->pending);
    return rc;
}
