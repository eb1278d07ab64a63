/* htest.c - hypothesis tests on proportions: exact tests by walking a
 * unimodal distribution from its mode, Holm's correction, Newcombe's
 * interval of a difference, normal-approximation sample sizes. */
#include "htest.h"

#include <math.h>
#include <stdlib.h>

#define HTEST_Z95 1.959963984540054 /* 97.5th normal percentile */

/* P(Z > z) for a standard normal Z. */
static double htest_upper(double z)
{
    return 0.5 * erfc(z / sqrt(2.0));
}

double htest_z_upper(double a)
{
    /* bisection: htest_upper falls from 1 to 0; 200 halvings of [-40, 40]
       reach the spacing of doubles */
    double lo = -40, hi = 40;
    for (int i = 0; i < 200 && hi - lo > 0; i++) {
        double mid = (lo + hi) / 2;
        if (mid == lo || mid == hi)
            break;
        if (htest_upper(mid) > a)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* A distribution on the integers lo..hi given by the ratio
 * P(x + 1) / P(x), unimodal with a mode at `mode`. */
struct htest_dist {
    int64_t lo, hi, mode;
    double (*ratio)(const struct htest_dist *d, int64_t x);
    double n, n1, n2, m;   /* parameters of the ratio */
};

static double htest_ratio_binom(const struct htest_dist *d, int64_t x)
{
    /* C(n, x+1) / C(n, x) */
    return (d->n - (double)x) / ((double)x + 1);
}

static double htest_ratio_hyper(const struct htest_dist *d, int64_t x)
{
    /* C(n1, x+1) C(n2, m-x-1) / (C(n1, x) C(n2, m-x)) */
    double xx = (double)x;
    return (d->n1 - xx) * (d->m - xx) / ((xx + 1) * (d->n2 - d->m + xx + 1));
}

/* Two-sided p-value by minimum likelihood: the probability of every
 * outcome at most as likely as `obs` (with R's relative tolerance 1e-7
 * for ties computed through different products).  The terms are taken
 * relative to the mode's, so no factorial is ever formed; each direction
 * stops once its terms are far below the observed one (past the mode of a
 * log-concave distribution they fall at least geometrically). */
static double htest_minlike(const struct htest_dist *d, int64_t obs)
{
    /* log(P(obs) / P(mode)), walking out from the mode: the terms only
       fall, so the walk ends as soon as the observed one is out of
       reach of a double (p below 1e-300, shown as 0) */
    double log_obs = 0;
    for (int64_t x = d->mode; x < obs; x++)
        if ((log_obs += log(d->ratio(d, x))) < -700)
            return 0;
    for (int64_t x = d->mode - 1; x >= obs; x--)
        if ((log_obs -= log(d->ratio(d, x))) < -700)
            return 0;
    double t_obs = exp(log_obs) * (1 + 1e-7), stop = t_obs * 1e-17;
    double total = 1, tail = 1 <= t_obs ? 1 : 0, t = 1;
    for (int64_t x = d->mode; x < d->hi; x++) {
        t *= d->ratio(d, x);
        total += t;
        if (t <= t_obs)
            tail += t;
        if (t < stop)
            break;
    }
    t = 1;
    for (int64_t x = d->mode; x > d->lo; x--) {
        t /= d->ratio(d, x - 1);
        total += t;
        if (t <= t_obs)
            tail += t;
        if (t < stop)
            break;
    }
    double p = tail / total;
    return p > 1 ? 1 : p;
}

double htest_fisher(int64_t k1, int64_t n1, int64_t k2, int64_t n2)
{
    if (n1 <= 0 || n2 <= 0)
        return 1;
    struct htest_dist d = {0};
    d.n1 = (double)n1;
    d.n2 = (double)n2;
    d.m = (double)(k1 + k2);
    int64_t m = k1 + k2;
    d.lo = m - n2 > 0 ? m - n2 : 0;
    d.hi = m < n1 ? m : n1;
    d.mode = (int64_t)floor(((double)n1 + 1) * ((double)m + 1) / ((double)(n1 + n2) + 2));
    if (d.mode < d.lo)
        d.mode = d.lo;
    if (d.mode > d.hi)
        d.mode = d.hi;
    d.ratio = htest_ratio_hyper;
    return htest_minlike(&d, k1);
}

double htest_binom_half(int64_t k, int64_t n)
{
    if (n <= 0)
        return 1;
    struct htest_dist d = {0};
    d.n = (double)n;
    d.lo = 0;
    d.hi = n;
    d.mode = n / 2;
    d.ratio = htest_ratio_binom;
    return htest_minlike(&d, k);
}

struct htest_ranked {
    double p;
    int i;
};

static int htest_cmp_ranked(const void *x, const void *y)
{
    const struct htest_ranked *a = x, *b = y;
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i); /* ties keep their order */
}

int htest_holm(const double *p, int m, double *adj)
{
    if (m <= 0)
        return 0;
    struct htest_ranked *order = malloc((size_t)m * sizeof *order);
    if (!order)
        return -1;
    for (int i = 0; i < m; i++)
        order[i] = (struct htest_ranked){p[i], i};
    qsort(order, (size_t)m, sizeof *order, htest_cmp_ranked);
    /* the i-th smallest p is multiplied by m - i; an adjusted value never
       falls below the one before it (the step-down stops at the first
       failure, so nothing after it can be significant) */
    double running = 0;
    for (int i = 0; i < m; i++) {
        double a = (double)(m - i) * order[i].p;
        if (a > 1)
            a = 1;
        if (a > running)
            running = a;
        adj[order[i].i] = running;
    }
    free(order);
    return 0;
}

/* The 95% Wilson interval of k/n. */
static void htest_wilson(int64_t k, int64_t n, double *lo, double *hi)
{
    double nn = (double)n, p = (double)k / nn, z = HTEST_Z95, z2 = z * z;
    double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double half = htest_wilson_half(k, n);
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
}

void htest_diff_interval(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double *lo,
                         double *hi)
{
    double p1 = (double)k1 / (double)n1, p2 = (double)k2 / (double)n2, l1, u1, l2, u2;
    htest_wilson(k1, n1, &l1, &u1);
    htest_wilson(k2, n2, &l2, &u2);
    double d = p1 - p2;
    *lo = d - sqrt((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2));
    *hi = d + sqrt((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2));
}

double htest_n_two(double p1, double p2, double alpha, double power)
{
    if (p1 == p2)
        return HUGE_VAL;
    double za = htest_z_upper(alpha / 2), zb = htest_z_upper(1 - power);
    double pbar = (p1 + p2) / 2;
    double root = za * sqrt(2 * pbar * (1 - pbar)) + zb * sqrt(p1 * (1 - p1) + p2 * (1 - p2));
    return ceil(root * root / ((p1 - p2) * (p1 - p2)));
}

double htest_n_one(double p, double p0, double alpha, double power)
{
    if (p == p0)
        return HUGE_VAL;
    double za = htest_z_upper(alpha / 2), zb = htest_z_upper(1 - power);
    double root = za * sqrt(p0 * (1 - p0)) + zb * sqrt(p * (1 - p));
    return ceil(root * root / ((p - p0) * (p - p0)));
}

double htest_wilson_half(int64_t k, int64_t n)
{
    if (n <= 0)
        return 1;
    double nn = (double)n, p = (double)k / nn, z = HTEST_Z95, z2 = z * z;
    return z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
}

int htest_stop(int64_t k, int64_t n, double target)
{
    return n > 0 && htest_wilson_half(k, n) <= target;
}
