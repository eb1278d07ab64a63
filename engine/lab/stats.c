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
    double seconds;
    int failed;
};

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
    s->lengths[s->games++] = length;
    if (g->winner == 0 || g->winner == 1) {
        s->wins[g->winner]++;
        s->decisive++;
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
        a->effects[i] += g->effects[i];
        a->effect_games[i] += g->effects[i] > 0;
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
        if (k < 0 || k >= s->profile_len)
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
    if (a.failed) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
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
    for (int i = 0; i < run->neffects; i++) {
        s->effect_rate[i] = (double)a.effects[i] / dn;
        stats_wilson(a.effect_games[i], n, &s->effect_games[i]);
    }
    return 0;
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
