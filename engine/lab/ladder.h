/* ladder.h - strength on the Elo scale from a table of pairwise scores:
 * the Bradley-Terry model fitted by maximum likelihood (`tiers ladder`,
 * docs/metrics.md "The strength ladder"). */
#ifndef LADDER_H
#define LADDER_H

#include <stddef.h>
#include <stdio.h>

enum { LADDER_MAX_PLAYERS = 32 };

/* score[i*n+j]: points player i took from its games against j (a win 1,
 * a draw or cut game 1/2); games[i*n+j] = games[j*n+i]: games played
 * between them. */
struct ladder_table {
    const double *score;
    const double *games;
    int n;
};

/* Ratings with player 0 anchored at 0: P(i beats j) =
 * 1 / (1 + 10^((r_j - r_i) / 400)); sd from the inverse of the observed
 * information matrix (player 0 left out). */
struct ladder_fit {
    double elo[LADDER_MAX_PLAYERS];
    double sd[LADDER_MAX_PLAYERS];
    int iterations;
};

/* Fits by Newton's method.  0, or -1 with a message in err: players not
 * connected by games, or a player that won or lost every game (its
 * rating is then infinite). */
int ladder_fit(const struct ladder_table *t, struct ladder_fit *out, char *err,
               size_t errsize);

/* Writes the ladder as one HTML page with no scripts or external assets:
 * a chart of the ratings with their 95% intervals, then the pairwise
 * scores as a table and as a chart against the 50% line.  names[i] is
 * player i's label; a pair with no games is left out.  0, or -1 when
 * writing failed. */
int ladder_report(FILE *f, const char *variant, const char *const *names,
                  const struct ladder_table *t, const struct ladder_fit *fit,
                  long games_per_pair);

/* The 95% Wilson score interval of a score fraction s / n, where s may
 * hold halves (draws and cut games). */
void ladder_wilson(double s, double n, double *lo, double *hi);

#endif
