/* values.c - logistic regression by Newton's method with cluster-robust
 * standard errors, for piece values from play (values.h). */
#include "values.h"

#include "linalg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VALUES_MAX_ITER = 50 };
#define VALUES_TOL 1e-9

/* Row i of the design: 1, then the used columns. */
static void values_row(const struct values_data *d, const int *cols, int m, int i, double *z)
{
    z[0] = 1;
    for (int j = 1; j < m; j++)
        z[j] = d->x[(size_t)i * (size_t)d->k + (size_t)cols[j - 1]];
}

static double values_prob(const double *beta, const double *z, int m)
{
    double eta = 0;
    for (int j = 0; j < m; j++)
        eta += beta[j] * z[j];
    return 1 / (1 + exp(-eta));
}

/* The penalised information matrix X'WX + ridge at beta, and the score
 * X'(y - p) - ridge * beta (the intercept is not penalised). */
static void values_newton_terms(const struct values_data *d, const int *cols, int m,
                                const double *beta, double *info, double *score)
{
    double z[VALUES_MAX_TERMS + 1];
    memset(info, 0, sizeof *info * (size_t)m * (size_t)m);
    memset(score, 0, sizeof *score * (size_t)m);
    for (int i = 0; i < d->n; i++) {
        values_row(d, cols, m, i, z);
        double p = values_prob(beta, z, m), w = p * (1 - p);
        for (int a = 0; a < m; a++) {
            score[a] += z[a] * (d->y[i] - p);
            for (int b = 0; b < m; b++)
                info[a * m + b] += w * z[a] * z[b];
        }
    }
    for (int a = 1; a < m; a++) {
        info[a * m + a] += VALUES_RIDGE;
        score[a] -= VALUES_RIDGE * beta[a];
    }
}

/* Sandwich covariance H^-1 (sum over games of s_g s_g') H^-1, where s_g
 * sums the score contributions of one game's samples (rows of a game are
 * contiguous in practice, but any order works: s_g is kept per group). */
static int values_sandwich(const struct values_data *d, const int *cols, int m,
                           const double *beta, const double *hinv, double *cov)
{
    double *meat = calloc((size_t)m * (size_t)m, sizeof *meat);
    double *s = calloc((size_t)m, sizeof *s);
    double z[VALUES_MAX_TERMS + 1];
    if (!meat || !s) {
        free(meat);
        free(s);
        return -1;
    }
    for (int i = 0; i < d->n; i++) {
        values_row(d, cols, m, i, z);
        double r = d->y[i] - values_prob(beta, z, m);
        for (int a = 0; a < m; a++)
            s[a] += z[a] * r;
        if (i + 1 == d->n || d->group[i + 1] != d->group[i]) {
            for (int a = 0; a < m; a++)
                for (int b = 0; b < m; b++)
                    meat[a * m + b] += s[a] * s[b];
            memset(s, 0, sizeof *s * (size_t)m);
        }
    }
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            double t = 0;
            for (int u = 0; u < m; u++)
                for (int v = 0; v < m; v++)
                    t += hinv[a * m + u] * meat[u * m + v] * hinv[v * m + b];
            cov[a * m + b] = t;
        }
    free(meat);
    free(s);
    return 0;
}

int values_fit(const struct values_data *d, struct values_fit *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    if (d->k > VALUES_MAX_TERMS) {
        snprintf(err, errsize, "more than %d faces", VALUES_MAX_TERMS);
        return -1;
    }
    int cols[VALUES_MAX_TERMS], m = 1;
    for (int j = 0; j < d->k; j++)
        for (int i = 0; i < d->n; i++)
            if (d->x[(size_t)i * (size_t)d->k + (size_t)j] != 0) {
                out->used[j] = 1;
                cols[m - 1] = j;
                m++;
                break;
            }
    if (d->n < 2 * m) {
        snprintf(err, errsize, "%d samples are too few for %d terms: play more games", d->n, m);
        return -1;
    }
    size_t mm = (size_t)m * (size_t)m;
    double *info = malloc(mm * sizeof *info), *work = malloc(mm * sizeof *work);
    double *hinv = malloc(mm * sizeof *hinv), *cov = malloc(mm * sizeof *cov);
    double beta[VALUES_MAX_TERMS + 1] = {0}, score[VALUES_MAX_TERMS + 1];
    int rc = info && work && hinv && cov ? 0 : -1;
    if (rc)
        snprintf(err, errsize, "out of memory");
    for (int it = 0; !rc && it < VALUES_MAX_ITER; it++) {
        values_newton_terms(d, cols, m, beta, info, score);
        memcpy(work, info, mm * sizeof *work);
        if (linalg_invert(work, hinv, m) < 0) {
            snprintf(err, errsize, "the material differences are collinear: no fit");
            rc = -1;
            break;
        }
        double step = 0;
        for (int a = 0; a < m; a++) {
            double delta = 0;
            for (int b = 0; b < m; b++)
                delta += hinv[a * m + b] * score[b];
            beta[a] += delta;
            step = fmax(step, fabs(delta));
        }
        out->iterations = it + 1;
        if (step < VALUES_TOL)
            break;
    }
    if (!rc) {
        values_newton_terms(d, cols, m, beta, info, score);
        memcpy(work, info, mm * sizeof *work);
        rc = linalg_invert(work, hinv, m) < 0 || values_sandwich(d, cols, m, beta, hinv, cov)
                 ? -1
                 : 0;
        if (rc)
            snprintf(err, errsize, "no covariance for the fit");
    }
    if (!rc) {
        out->coef[0] = beta[0];
        out->se[0] = sqrt(cov[0]);
        for (int a = 1; a < m; a++) {
            out->coef[cols[a - 1] + 1] = beta[a];
            out->se[cols[a - 1] + 1] = sqrt(cov[a * m + a]);
        }
    }
    free(info);
    free(work);
    free(hinv);
    free(cov);
    return rc;
}
