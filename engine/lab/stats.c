/* stats.c - metrics of a run: win rates with Wilson intervals, lengths,
 * branching, move kinds and effects per game. */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stats_wilson(int64_t k, int64_t n, struct stats_rate *r)
{
    const double z = 1.959963984540054; /* 97.5th normal percentile */
    r->k = k;
    r->n = n;
    if (n <= 0) {
        r->rate = r->lo = r->hi = 0;
        return;
    }
    double p = (double)k / (double)n, nn = (double)n, z2 = z * z;
    double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
    r->rate = p;
    r->lo = centre - half < 0 ? 0 : centre - half;
    r->hi = centre + half > 1 ? 1 : centre + half;
}

struct stats_acc {
    struct stats *s;
    int64_t cap;
    int64_t first_by[2];
    int64_t first_games, first_wins;
    int64_t legal_sum, legal_plies;
    int64_t setup, captures, drops, stacks, placements;
    int64_t effects[GAME_MAX_EFFECTS], effect_games[GAME_MAX_EFFECTS];
    int64_t fired[GAME_MAX_EFFECTS], prevented[GAME_MAX_EFFECTS], ended[GAME_MAX_EFFECTS];
    int64_t unsplit;               /* games whose effect counts have no kinds */
    int64_t hook_ended, hook_known;
    double fig_sum[STATS_FIGS];
    double seconds;
    int failed;
    int *dlen;                     /* lengths of the decisive games */
    int64_t ndlen, dcap;
    int64_t first_dec_games, first_dec_wins;
    int64_t decision_k, decision_n;
    uint64_t *opening[STATS_OPENING_KS]; /* hash of each game's first k
                                            play moves */
    int64_t nopening[STATS_OPENING_KS], ocap;
    int64_t ending_count[STATS_MAX_ENDINGS];
};

static const int stats_opening_k[STATS_OPENING_KS] = {1, 2, 4};

const char *const stats_fig_names[STATS_FIGS] = {
    "coverage", "repetition", "lead_change", "drama", "decision_point", "stability"};

/* Grows an array of `size`-byte items to hold one more than *n. */
static int stats_grow(void **a, int64_t n, int64_t *cap, size_t size)
{
    if (n < *cap)
        return 0;
    int64_t c = *cap ? 2 * *cap : 256;
    void *b = realloc(*a, (size_t)c * size);
    if (!b)
        return -1;
    *a = b;
    *cap = c;
    return 0;
}

/* Counts the game's ending under its reason and phase. */
static void stats_ending(struct stats_acc *a, const struct db_game *g, int length)
{
    struct stats *s = a->s;
    char reason[STATS_REASON];
    snprintf(reason, sizeof reason, "%s", g->reason && g->reason[0] ? g->reason : "-");
    /* a game none of whose plies was a play move ended in the setup */
    int setup = length == 0 && g->setup_plies > 0;
    for (int i = 0; i < s->nendings; i++)
        if (s->endings[i].setup == setup && !strcmp(s->endings[i].reason, reason)) {
            a->ending_count[i]++;
            return;
        }
    if (s->nendings == STATS_MAX_ENDINGS) {
        s->endings_other++;
        return;
    }
    struct stats_ending *e = &s->endings[s->nendings];
    snprintf(e->reason, sizeof e->reason, "%s", reason);
    e->setup = setup;
    a->ending_count[s->nendings++] = 1;
}

/* FNV-1a hashes of the first 1, 2 and 4 play-phase moves of g (the
 * words of its move record after its setup plies). */
static void stats_openings(struct stats_acc *a, const struct db_game *g)
{
    const char *t = g->moves ? g->moves : "";
    uint64_t h = 0xcbf29ce484222325ull;
    int word = 0, k = 0;
    while (*t && k < STATS_OPENING_KS) {
        while (*t == ' ')
            t++;
        if (!*t)
            break;
        size_t n = strcspn(t, " ");
        if (word++ >= g->setup_plies) {
            for (size_t i = 0; i < n; i++)
                h = (h ^ (unsigned char)t[i]) * 0x100000001b3ull;
            h = (h ^ ' ') * 0x100000001b3ull;
            if (word - g->setup_plies == stats_opening_k[k])
                a->opening[k][a->nopening[k]++] = h, k++;
        }
        t += n;
    }
}

static int stats_game(const struct db_game *g, void *ud)
{
    struct stats_acc *a = ud;
    struct stats *s = a->s;
    if (s->games == a->cap) {
        int64_t cap = a->cap ? 2 * a->cap : 256;
        int *l = realloc(s->lengths, (size_t)cap * sizeof *l);
        if (!l) {
            a->failed = 1;
            return 1;
        }
        s->lengths = l;
        a->cap = cap;
    }
    int length = g->plies - g->setup_plies;
    if (stats_grow((void **)&a->dlen, a->ndlen, &a->dcap, sizeof *a->dlen) != 0) {
        a->failed = 1;
        return 1;
    }
    if (s->games == a->ocap) {
        int64_t cap = a->ocap;
        for (int k = 0; k < STATS_OPENING_KS; k++) {
            cap = a->ocap;
            if (stats_grow((void **)&a->opening[k], s->games, &cap, sizeof *a->opening[k])) {
                a->failed = 1;
                return 1;
            }
        }
        a->ocap = cap;
    }
    s->lengths[s->games++] = length;
    stats_ending(a, g, length);
    stats_openings(a, g);
    if (g->winner == 0 || g->winner == 1) {
        s->wins[g->winner]++;
        s->decisive++;
        a->dlen[a->ndlen++] = length;
        if (g->first_side == 0 || g->first_side == 1) {
            a->first_dec_games++;
            a->first_dec_wins += g->winner == g->first_side;
        }
    }
    s->draws += g->draw;
    s->cut += g->cut;
    s->replayed += g->replayed;
    if (g->first_side == 0 || g->first_side == 1) {
        a->first_by[g->first_side]++;
        a->first_games++;
        a->first_wins += g->winner == g->first_side;
    }
    a->legal_sum += g->legal_sum;
    a->legal_plies += g->legal_plies;
    a->setup += g->setup_plies;
    a->captures += g->captures;
    a->drops += g->drops;
    a->stacks += g->stacks;
    a->placements += g->placements;
    a->seconds += g->seconds;
    for (int i = 0; i < g->neffects && i < GAME_MAX_EFFECTS; i++) {
        a->effects[i] += g->effects[i] + g->prevented[i];
        a->effect_games[i] += g->effects[i] + g->prevented[i] > 0;
        a->fired[i] += g->effects[i];
        a->prevented[i] += g->prevented[i];
        a->ended[i] += g->ended[i];
    }
    a->unsplit += g->neffects > 0 && !g->kinds;
    if (g->hook_ended >= 0) {
        a->hook_known++;
        a->hook_ended += g->hook_ended;
    }
    const double fig[STATS_FIGS] = {g->coverage, g->repetition, g->lead_change, g->drama,
                                    g->decision_point, g->stability};
    for (int k = 0; k < STATS_FIGS; k++)
        if (fig[k] >= 0) {
            a->fig_sum[k] += fig[k];
            s->fig_n[k]++;
        }
    /* the legal counts of the play phase, ply by ply */
    const char *t = g->legal;
    int ply = 0;
    while (*t) {
        char *end;
        long n = strtol(t, &end, 10);
        if (end == t)
            break;
        t = end;
        while (*t == ' ')
            t++;
        int k = ply++ - g->setup_plies;
        if (k < 0)
            continue;
        a->decision_n++;
        a->decision_k += n > 1;
        if (k >= s->profile_len)
            continue;
        s->profile_sum[k] += (double)n;
        s->profile_n[k]++;
    }
    return 0;
}

static int stats_cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

static int stats_cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Distinct values among h[0..n-1] (sorted here) and the entropy, in
 * bits, of their frequencies. */
static void stats_diversity(uint64_t *h, int64_t n, struct stats_opening *o)
{
    o->games = n;
    o->distinct = 0;
    o->entropy = 0;
    if (n <= 0)
        return;
    qsort(h, (size_t)n, sizeof *h, stats_cmp_u64);
    for (int64_t i = 0; i < n;) {
        int64_t j = i;
        while (j < n && h[j] == h[i])
            j++;
        double p = (double)(j - i) / (double)n;
        o->distinct++;
        o->entropy -= p * log2(p);
        i = j;
    }
}

static int stats_cmp_ending(const void *x, const void *y)
{
    const struct stats_ending *a = x, *b = y;
    if (a->rate.k != b->rate.k)
        return a->rate.k > b->rate.k ? -1 : 1;
    if (a->setup != b->setup)
        return a->setup - b->setup;
    return strcmp(a->reason, b->reason);
}

/* The figures of docs/metrics.md's second table, from the accumulator. */
static void stats_finish_new(struct stats *s, struct stats_acc *a)
{
    int64_t n = s->games;
    for (int i = 0; i < s->nendings; i++)
        stats_wilson(a->ending_count[i], n, &s->endings[i].rate);
    qsort(s->endings, (size_t)s->nendings, sizeof s->endings[0], stats_cmp_ending);
    s->decisive_length_mean = s->decisive_length_median = -1;
    if (a->ndlen > 0) {
        qsort(a->dlen, (size_t)a->ndlen, sizeof *a->dlen, stats_cmp_int);
        int64_t sum = 0, m = a->ndlen;
        for (int64_t i = 0; i < m; i++)
            sum += a->dlen[i];
        s->decisive_length_mean = (double)sum / (double)m;
        s->decisive_length_median =
            m % 2 ? a->dlen[m / 2] : (a->dlen[m / 2 - 1] + a->dlen[m / 2]) / 2.0;
    }
    if (n > 0) {
        double mean = 0, sq = 0;
        for (int64_t i = 0; i < n; i++)
            mean += s->lengths[i];
        mean /= (double)n;
        for (int64_t i = 0; i < n; i++)
            sq += (s->lengths[i] - mean) * (s->lengths[i] - mean);
        s->length_sd = sqrt(sq / (double)n);
    }
    int64_t w = s->wins[0] + s->wins[1];
    s->balance = w ? 1.0 - (double)llabs(s->wins[0] - s->wins[1]) / (double)w : -1;
    stats_wilson(a->first_dec_wins, a->first_dec_games, &s->first_decisive);
    stats_wilson(a->decision_k, a->decision_n, &s->decision);
    for (int k = 0; k < STATS_OPENING_KS; k++) {
        stats_diversity(a->opening[k], a->nopening[k], &s->openings[k]);
        s->openings[k].k = stats_opening_k[k];
    }
}

int stats_collect(db *d, const struct db_run *run, int64_t limit, struct stats *s, char *err,
                  size_t errsize)
{
    memset(s, 0, sizeof *s);
    s->run = *run;
    s->first_side = -1;
    s->profile_len = run->max_plies > 0 ? run->max_plies : 1;
    s->profile_sum = calloc((size_t)s->profile_len, sizeof *s->profile_sum);
    s->profile_n = calloc((size_t)s->profile_len, sizeof *s->profile_n);
    struct stats_acc a;
    memset(&a, 0, sizeof a);
    a.s = s;
    if (!s->profile_sum || !s->profile_n) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    int rc = db_games(d, run, limit, stats_game, &a, err, errsize);
    if (a.failed)
        snprintf(err, errsize, "out of memory");
    if (!a.failed && rc == 0)
        stats_finish_new(s, &a);
    free(a.dlen);
    for (int k = 0; k < STATS_OPENING_KS; k++)
        free(a.opening[k]);
    if (a.failed)
        return -1;
    if (rc != 0)
        return rc == DB_BAD ? DB_BAD : -1;
    int64_t n = s->games;
    double dn = n > 0 ? (double)n : 1.0;
    for (int side = 0; side < 2; side++)
        stats_wilson(s->wins[side], n, &s->win[side]);
    stats_wilson(s->draws, n, &s->draw);
    stats_wilson(s->decisive, n, &s->decisive_rate);
    stats_wilson(s->cut, n, &s->cut_rate);
    stats_wilson(s->replayed, n, &s->replay_rate);
    if (a.first_games)
        s->first_side = a.first_by[1] > a.first_by[0];
    stats_wilson(a.first_wins, a.first_games, &s->first);
    if (n > 0) {
        qsort(s->lengths, (size_t)n, sizeof *s->lengths, stats_cmp_int);
        int64_t sum = 0;
        for (int64_t i = 0; i < n; i++)
            sum += s->lengths[i];
        s->length_mean = (double)sum / dn;
        s->length_median = n % 2 ? s->lengths[n / 2]
                                 : (s->lengths[n / 2 - 1] + s->lengths[n / 2]) / 2.0;
        s->length_min = s->lengths[0];
        s->length_max = s->lengths[n - 1];
    }
    s->branching = a.legal_plies ? (double)a.legal_sum / (double)a.legal_plies : 0;
    s->setup_mean = (double)a.setup / dn;
    s->captures = (double)a.captures / dn;
    s->drops = (double)a.drops / dn;
    s->stacks = (double)a.stacks / dn;
    s->placements = (double)a.placements / dn;
    s->seconds_mean = a.seconds / dn;
    s->effect_kinds = a.unsplit == 0;
    for (int i = 0; i < run->neffects; i++) {
        s->effect_rate[i] = (double)(s->effect_kinds ? a.fired[i] : a.effects[i]) / dn;
        s->prevented_rate[i] = s->effect_kinds ? (double)a.prevented[i] / dn : -1;
        s->ended_rate[i] = s->effect_kinds ? (double)a.ended[i] / dn : -1;
        stats_wilson(a.effect_games[i], n, &s->effect_games[i]);
    }
    stats_wilson(a.hook_ended, a.hook_known, &s->hook_ended);
    for (int k = 0; k < STATS_FIGS; k++)
        s->fig[k] = s->fig_n[k] ? a.fig_sum[k] / (double)s->fig_n[k] : -1;
    return db_faces(d, run, limit, s->face, GAME_MAX_FACES, &s->nfaces, err, errsize);
}

void stats_free(struct stats *s)
{
    free(s->lengths);
    free(s->profile_sum);
    free(s->profile_n);
    memset(s, 0, sizeof *s);
}

double stats_profile_mean(const struct stats *s, int from, int to)
{
    double sum = 0;
    int64_t n = 0;
    for (int k = from < 0 ? 0 : from; k < to && k < s->profile_len; k++) {
        sum += s->profile_sum[k];
        n += s->profile_n[k];
    }
    return n ? sum / (double)n : -1;
}
