/* stats.h - the metrics of `tiers compare`, computed from the games of
 * one run in the database.  Definitions: docs/metrics.md. */
#ifndef STATS_H
#define STATS_H

#include <stdint.h>

#include "db.h"

/* A proportion k/n with its 95% Wilson score interval. */
struct stats_rate {
    int64_t k, n;
    double rate, lo, hi;   /* 0 when n = 0 */
};

void stats_wilson(int64_t k, int64_t n, struct stats_rate *r);

/* How games ended: one reason in one phase. */
enum { STATS_MAX_ENDINGS = 32, STATS_REASON = 40, STATS_OPENING_KS = 3 };
struct stats_ending {
    char reason[STATS_REASON];     /* the status reason, "cut", ... */
    int setup;                     /* 1: no play-phase move was made */
    struct stats_rate rate;        /* games / n */
};

/* Opening diversity at one depth k (docs/metrics.md). */
struct stats_opening {
    int k;                         /* first k play-phase moves */
    int64_t games;                 /* games with at least k of them */
    int64_t distinct;              /* distinct sequences among them */
    double entropy;                /* bits */
};

/* The positional figures, in the order of struct db_game's. */
enum { STATS_COVERAGE, STATS_REPETITION, STATS_LEAD_CHANGE, STATS_DRAMA,
       STATS_DECISION_POINT, STATS_STABILITY, STATS_FIGS };
extern const char *const stats_fig_names[STATS_FIGS]; /* JSON names */

struct stats {
    struct db_run run;
    int64_t games;
    int64_t wins[2], draws, cut, decisive;
    int64_t replayed;              /* over, to be replayed (no result) */
    struct stats_rate win[2];      /* each side's wins / games */
    int first_side;                /* side making the first play move in
                                      most games, -1 if no game got there */
    struct stats_rate first;       /* games won by the side that made the
                                      first play move / games with one */
    struct stats_rate draw, decisive_rate, cut_rate, replay_rate;
    double length_mean, length_median; /* play-phase plies */
    int length_min, length_max;
    int *lengths;                  /* sorted, `games` entries */
    double setup_mean;             /* setup plies per game */
    double branching;              /* mean legal moves per play ply */
    double captures, drops, stacks, placements; /* per game */
    double seconds_mean;
    double effect_rate[GAME_MAX_EFFECTS];  /* firings per game (effect_kinds 0:
                                              fired or prevented) */
    int effect_kinds;              /* every game's counts are split by kind */
    double prevented_rate[GAME_MAX_EFFECTS]; /* plies a veto narrowed, per game */
    double ended_rate[GAME_MAX_EFFECTS];     /* games its result hook ended, per game */
    struct stats_rate hook_ended;  /* games a result hook ended / games known */
    /* The positional figures (docs/metrics.md): the mean over the games
       that have one, -1 when none does; fig_n counts those games. */
    double fig[STATS_FIGS];
    int64_t fig_n[STATS_FIGS];
    int nfaces;                    /* -1: unknown (a schema-1 file) */
    struct db_face face[GAME_MAX_FACES]; /* sums over the games */
    struct stats_rate effect_games[GAME_MAX_EFFECTS]; /* games with one */
    /* endings by reason and phase, most frequent first (ties by phase,
       then reason); endings_other counts games past STATS_MAX_ENDINGS
       kinds */
    int nendings;
    struct stats_ending endings[STATS_MAX_ENDINGS];
    int64_t endings_other;
    double decisive_length_mean, decisive_length_median; /* -1: none */
    double length_sd;              /* population standard deviation */
    double balance;                /* 1 - |w0 - w1| / (w0 + w1), -1: none */
    struct stats_rate first_decisive; /* first-mover wins / decisive games
                                         that reached the play phase */
    struct stats_rate decision;    /* play plies with > 1 legal move /
                                      play plies */
    struct stats_opening openings[STATS_OPENING_KS]; /* k = 1, 2, 4 */
    /* branching over the course of a game: mean legal moves at play ply
       k among the games that reach it, k < profile_len */
    int profile_len;
    double *profile_sum;
    int64_t *profile_n;
};

/* Reads the games i < limit of the run and computes every metric.  0, or
 * -1 with err (s is then empty but may be freed); DB_BAD when a stored
 * row fails its check.  The checked ranges (dbcheck.c) keep every sum
 * here far from overflowing: at most 10^8 games of 60,000 plies. */
int stats_collect(db *d, const struct db_run *run, int64_t limit, struct stats *s,
                  char *err, size_t errsize);
void stats_free(struct stats *s);

/* Mean legal moves at play plies [from, to) of the profile, or -1 when no
 * game reaches them. */
double stats_profile_mean(const struct stats *s, int from, int to);

#endif
