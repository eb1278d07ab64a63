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

/* ------------------------------------------------------------- report */

static void ladder_html_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

enum { LADDER_SVG_W = 900, LADDER_LABEL_W = 400, LADDER_ROW_H = 26, LADDER_PAD = 30 };

/* x of value `x` on an axis from lo to hi across the plot area. */
static double ladder_x(double x, double lo, double hi)
{
    double w = LADDER_SVG_W - LADDER_LABEL_W - 2 * LADDER_PAD;
    return LADDER_LABEL_W + LADDER_PAD + (hi > lo ? (x - lo) / (hi - lo) : 0.5) * w;
}

/* One chart of rows: a label, a point at mid[k] and a bar lo[k]..hi[k];
 * a dashed reference line at `ref`; ticks every `step` units. */
static void ladder_svg(FILE *f, const char *title, const char *const *label, const double *mid,
                       const double *lo, const double *hi, int rows, double ref, double step,
                       const char *unit)
{
    double a = ref, b = ref;
    for (int k = 0; k < rows; k++) {
        a = fmin(a, lo[k]);
        b = fmax(b, hi[k]);
    }
    a = floor(a / step) * step;
    b = ceil(b / step) * step;
    if (b - a > 12 * step) /* at most about a dozen ticks */
        step *= ceil((b - a) / (12 * step));
    int h = LADDER_PAD * 2 + rows * LADDER_ROW_H;
    fprintf(f, "<h2>");
    ladder_html_text(f, title);
    fprintf(f, "</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n", LADDER_SVG_W, h);
    for (double t = a; t <= b + step / 2; t += step) {
        double x = ladder_x(t, a, b);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g%s</text>\n",
                x, LADDER_PAD - 4, x, h - LADDER_PAD, x, h - LADDER_PAD + 16, t, unit);
    }
    double xr = ladder_x(ref, a, b);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\" "
               "stroke-dasharray=\"4 3\"/>\n", xr, LADDER_PAD - 4, xr, h - LADDER_PAD);
    for (int k = 0; k < rows; k++) {
        int y = LADDER_PAD + k * LADDER_ROW_H + LADDER_ROW_H / 2;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LADDER_LABEL_W, y + 4);
        ladder_html_text(f, label[k]);
        fprintf(f, "</text><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#36c\" "
                   "stroke-width=\"3\"/><circle cx=\"%.1f\" cy=\"%d\" r=\"5\" fill=\"#036\">"
                   "<title>%.1f [%.1f, %.1f]</title></circle>\n",
                ladder_x(lo[k], a, b), y, ladder_x(hi[k], a, b), y, ladder_x(mid[k], a, b), y,
                mid[k], lo[k], hi[k]);
    }
    fprintf(f, "</svg>\n");
}

int ladder_report(FILE *f, const char *variant, const char *const *names,
                  const struct ladder_table *t, const struct ladder_fit *fit,
                  long games_per_pair)
{
    int n = t->n, rows = 0;
    enum { PAIRS = LADDER_MAX_PLAYERS * (LADDER_MAX_PLAYERS - 1) / 2 };
    const char *label[PAIRS] = {0};
    char text[PAIRS][96];
    double mid[PAIRS] = {0}, lo[PAIRS] = {0}, hi[PAIRS] = {0};
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tiers ladder: ");
    ladder_html_text(f, variant);
    fprintf(f, "</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:"
               "collapse}td,th{padding:2px 10px;text-align:right}td:first-child,td:nth-child(2),"
               "th:first-child,th:nth-child(2){text-align:left}td{white-space:nowrap}</style></head><body>\n<h1>Strength ladder: ");
    ladder_html_text(f, variant);
    fprintf(f, "</h1>\n<p>%ld games per pair, half with each colour; a draw or a cut game is "
               "half a point each. Bradley-Terry ratings by maximum likelihood on the Elo scale, "
               "", games_per_pair);
    ladder_html_text(f, names[0]);
    fprintf(f, " at 0, with 95%% intervals from the observed information.</p>\n");
    for (int i = 0; i < n; i++) {
        label[i] = names[i];
        mid[i] = fit->elo[i];
        lo[i] = fit->elo[i] - 1.96 * fit->sd[i];
        hi[i] = fit->elo[i] + 1.96 * fit->sd[i];
    }
    ladder_svg(f, "Ratings (Elo)", label, mid, lo, hi, n, 0, 100, "");
    fprintf(f, "<h2>Scores</h2>\n<table><tr><th>a</th><th>b</th><th>games</th>"
               "<th>a's score</th><th>95%% interval</th></tr>\n");
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double g = t->games[i * n + j];
            if (g <= 0)
                continue;
            double s = t->score[i * n + j], l, h;
            ladder_wilson(s, g, &l, &h);
            fprintf(f, "<tr><td>");
            ladder_html_text(f, names[i]);
            fprintf(f, "</td><td>");
            ladder_html_text(f, names[j]);
            fprintf(f, "</td><td>%.0f</td><td>%.1f%%</td><td>[%.1f%%, %.1f%%]</td></tr>\n", g,
                    100 * s / g, 100 * l, 100 * h);
            snprintf(text[rows], sizeof text[rows], "%.44s vs %.44s", names[i], names[j]);
            label[rows] = text[rows];
            mid[rows] = 100 * s / g;
            lo[rows] = 100 * l;
            hi[rows] = 100 * h;
            rows++;
        }
    fprintf(f, "</table>\n");
    ladder_svg(f, "Scores of the first agent of each pair (%)", label, mid, lo, hi, rows, 50,
               20, "%");
    fprintf(f, "</body></html>\n");
    return ferror(f) ? -1 : 0;
}
