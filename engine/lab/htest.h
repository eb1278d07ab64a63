/* htest.h - hypothesis tests on proportions for `tiers compare`: Fisher's
 * exact test of two proportions, the exact binomial test against 1/2,
 * Holm's step-down correction, the interval of a difference, the games a
 * test needs, and the interval-width stopping rule.  Formulas:
 * docs/metrics.md, "Differences that hold". */
#ifndef HTEST_H
#define HTEST_H

#include <stdint.h>

/* The upper-tail normal quantile: z with P(Z > z) = a, 0 < a < 1. */
double htest_z_upper(double a);

/* Two-sided p-value of Fisher's exact test that k1/n1 and k2/n2 come from
 * one proportion (tables at most as likely as the observed one, given the
 * margins).  1 when either group is empty. */
double htest_fisher(int64_t k1, int64_t n1, int64_t k2, int64_t n2);

/* Two-sided p-value of the exact binomial test of k successes in n trials
 * against a success probability of 1/2.  1 when n = 0. */
double htest_binom_half(int64_t k, int64_t n);

/* Holm's step-down adjusted p-values adj[0..m-1] of p[0..m-1]: test i is
 * significant at level alpha exactly when adj[i] <= alpha.  0, or -1 when
 * out of memory. */
int htest_holm(const double *p, int m, double *adj);

/* The 95% interval [*lo, *hi] of k1/n1 - k2/n2 (Newcombe's hybrid score
 * interval from the two Wilson intervals); both groups non-empty. */
void htest_diff_interval(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double *lo,
                         double *hi);

/* Trials per group for a two-sided test at level alpha with the given
 * power to tell proportion p1 from p2 (two groups of equal size), and
 * trials for one group against a known p0; rounded up.  HUGE_VAL when the
 * proportions are equal. */
double htest_n_two(double p1, double p2, double alpha, double power);
double htest_n_one(double p, double p0, double alpha, double power);

/* Half the width of the 95% Wilson interval of k/n (1 when n = 0), and the
 * stopping rule of `compare --until`: 1 when it is at most target. */
double htest_wilson_half(int64_t k, int64_t n);
int htest_stop(int64_t k, int64_t n, double target);

#endif
