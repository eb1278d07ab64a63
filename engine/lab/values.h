/* values.h - piece values from play: a logistic regression of the game
 * result on the per-face material differences of sampled positions
 * (`tiers values`, docs/metrics.md "Piece values from play"). */
#ifndef VALUES_H
#define VALUES_H

#include <stddef.h>

enum { VALUES_MAX_TERMS = 64 };

/* The samples: row i has the k differences x[i*k .. i*k+k-1] (side 0's
 * count of a face minus side 1's), the result y[i] for side 0 (1 a win,
 * 0.5 a draw, 0 a loss) and the game it came from, group[i] (samples of
 * one game are not independent: the errors are clustered by game). */
struct values_data {
    const double *x;
    const double *y;
    const long *group;
    int n, k;
};

/* The fit: coef[0] the intercept (side 0's edge at equal material), then
 * one coefficient per column; se[] their cluster-robust standard errors
 * (sandwich estimator, clusters = games).  A column that is 0 in every
 * row cannot be estimated: its used[j] is 0 (coef and se 0). */
struct values_fit {
    double coef[VALUES_MAX_TERMS + 1];
    double se[VALUES_MAX_TERMS + 1];
    int used[VALUES_MAX_TERMS];
    int iterations;
};

/* Fits P(side 0 wins) = 1 / (1 + exp(-(b0 + sum_j b_j x_j))) by Newton's
 * method (iteratively reweighted least squares) with a small ridge
 * penalty (VALUES_RIDGE) that keeps separable data finite.  0, or -1
 * with a message in err (too few samples, a singular system). */
int values_fit(const struct values_data *d, struct values_fit *out, char *err, size_t errsize);

#define VALUES_RIDGE 1e-4

#endif
