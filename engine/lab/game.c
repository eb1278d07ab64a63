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
    for (int s = 0; s < 2; s++) {
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
    for (int i = 0; i < g->neffects; i++)
        g->effects[i] += st.fired[i] + ((vetoed | checks) >> i & 1);
    return 0;
}

static int game_run(struct game_worker *w, const struct game_config *cfg, int64_t index)
{
    struct game_record *g = &w->g;
    tiers_pos *p = w->p;
    double t0 = game_now();

    w->pending[0] = '\0';
    g->index = index;
    g->seed = game_seed(cfg->seed, index);
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

    int rc = tiers_pos_reset(p);
    if (rc < 0)
        return rc;
    tiers_pos_seed(p, game_script_seed(g->seed));
    uint64_t rng = game_mix(g->seed ^ 1);
    if (!rng)
        rng = 1;

    char text[256];
    while (g->plies < cfg->max_plies) {
        int setup = tiers_pos_in_setup(p);
        int side = tiers_pos_side_to_move(p);
        tiers_move m;
        tiers_stats chosen = {.vetoed = 0};
        w->pending[0] = '\0';
        int n = tiers_agent_choose_stats(w->agent[side], p, &rng, &m, &chosen);
        if (n < 0)
            return n;
        if (n == 0)
            break;
        snprintf(text, sizeof text, "%d", n);
        if (game_append(&g->legal, &g->legal_len, &g->legal_cap, text) < 0)
            return TIERS_ENOMEM;
        rc = tiers_move_format(p, &m, NULL, text, sizeof text);
        if (rc < 0)
            return rc;
        if (game_append(&g->moves, &g->moves_len, &g->moves_cap, text) < 0)
            return TIERS_ENOMEM;
        snprintf(w->pending, sizeof w->pending, "%s", text);
        rc = game_count_effects(w, &m, chosen.vetoed);
        if (rc < 0)
            return rc;
        g->plies++;
        if (setup) {
            g->setup_plies++;
            g->placements += m.kind == TIERS_MV_DROP;
            continue;
        }
        if (g->first_side < 0)
            g->first_side = side;
        g->legal_sum += n;
        g->legal_plies++;
        g->captures += m.kind == TIERS_MV_CAPTURE || m.kind == TIERS_MV_STRIKE;
        g->drops += m.kind == TIERS_MV_DROP;
        g->stacks += m.kind == TIERS_MV_STACK;
    }
    tiers_status st = tiers_pos_status(p);
    if (st.game_over) {
        g->result = st.result;
        snprintf(g->reason, sizeof g->reason, "%s", st.reason ? st.reason : "");
    } else {
        g->cut = 1;
        snprintf(g->reason, sizeof g->reason, "cut");
    }
    g->seconds = game_now() - t0;
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
