/* ladder.c - Bradley-Terry ratings by maximum likelihood (ladder.h). */
#include "ladder.h"

#include "linalg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { LADDER_MAX_ITER = 100 };
#define LADDER_ELO (400 / 2.302585092994046) /* Elo points per unit of log-strength */

/* Gradient and information of the log-likelihood in the log-strengths
 * theta[1..n-1] (theta[0] = 0), over the free players 1..n-1. */
static void ladder_terms(const struct ladder_table *t, const double *theta, double *grad,
                         double *info)
{
    int n = t->n, m = n - 1;
    memset(grad, 0, sizeof *grad * (size_t)m);
    memset(info, 0, sizeof *info * (size_t)m * (size_t)m);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double g = t->games[i * n + j];
            if (g <= 0)
                continue;
            double p = 1 / (1 + exp(theta[j] - theta[i])); /* i beats j */
            double resid = t->score[i * n + j] - g * p, w = g * p * (1 - p);
            if (i > 0) {
                grad[i - 1] += resid;
                info[(i - 1) * m + i - 1] += w;
            }
            if (j > 0) {
                grad[j - 1] -= resid;
                info[(j - 1) * m + j - 1] += w;
            }
            if (i > 0 && j > 0) {
                info[(i - 1) * m + j - 1] -= w;
                info[(j - 1) * m + i - 1] -= w;
            }
        }
}

/* Whether every player is reached from player 0 through games played. */
static int ladder_connected(const struct ladder_table *t)
{
    int n = t->n, seen[LADDER_MAX_PLAYERS] = {1}, grew = 1;
    while (grew) {
        grew = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (seen[i] && !seen[j] && t->games[i * n + j] > 0)
                    seen[j] = grew = 1;
    }
    for (int i = 0; i < n; i++)
        if (!seen[i])
            return 0;
    return 1;
}

int ladder_fit(const struct ladder_table *t, struct ladder_fit *out, char *err,
               size_t errsize)
{
    int n = t->n, m = n - 1;
    memset(out, 0, sizeof *out);
    if (n < 2 || n > LADDER_MAX_PLAYERS) {
        snprintf(err, errsize, "a ladder needs 2 to %d players", LADDER_MAX_PLAYERS);
        return -1;
    }
    if (!ladder_connected(t)) {
        snprintf(err, errsize, "some players are not linked to the first by any game");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        double pts = 0, games = 0;
        for (int j = 0; j < n; j++) {
            pts += t->score[i * n + j];
            games += t->games[i * n + j];
        }
        if (pts <= 0 || pts >= games) {
            snprintf(err, errsize, "player %d %s every game: its rating has no finite "
                     "estimate (play more games, or put an agent between)",
                     i + 1, pts <= 0 ? "lost" : "won");
            return -1;
        }
    }
    double theta[LADDER_MAX_PLAYERS] = {0}, grad[LADDER_MAX_PLAYERS];
    double info[LADDER_MAX_PLAYERS * LADDER_MAX_PLAYERS], work[LADDER_MAX_PLAYERS * LADDER_MAX_PLAYERS];
    double inv[LADDER_MAX_PLAYERS * LADDER_MAX_PLAYERS];
    for (int it = 0; it < LADDER_MAX_ITER; it++) {
        ladder_terms(t, theta, grad, info);
        memcpy(work, info, sizeof *work * (size_t)m * (size_t)m);
        if (linalg_invert(work, inv, m) < 0) {
            snprintf(err, errsize, "the information matrix is singular");
            return -1;
        }
        double step = 0;
        for (int a = 0; a < m; a++) {
            double d = 0;
            for (int b = 0; b < m; b++)
                d += inv[a * m + b] * grad[b];
            theta[a + 1] += d;
            step = fmax(step, fabs(d));
        }
        out->iterations = it + 1;
        if (step < 1e-12)
            break;
    }
    ladder_terms(t, theta, grad, info);
    memcpy(work, info, sizeof *work * (size_t)m * (size_t)m);
    if (linalg_invert(work, inv, m) < 0) {
        snprintf(err, errsize, "the information matrix is singular");
        return -1;
    }
    for (int i = 1; i < n; i++) {
        out->elo[i] = LADDER_ELO * theta[i];
        out->sd[i] = LADDER_ELO * sqrt(inv[(i - 1) * m + i - 1]);
    }
    return 0;
}

void ladder_wilson(double s, double n, double *lo, double *hi)
{
    const double z = 1.959963984540054;
    if (n <= 0) {
        *lo = *hi = 0;
        return;
    }
    double p = s / n, d = 1 + z * z / n, mid = (p + z * z / (2 * n)) / d;
    double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *lo = fmax(0, mid - half);
    *hi = fmin(1, mid + half);
}
