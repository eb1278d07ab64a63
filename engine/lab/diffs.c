/* diffs.c - the family of tests of a comparison (rate rows x ruleset
 * pairs, plus first-mover tests), Holm's correction over it, and its
 * text, table marks and report sentences. */
#include "diffs.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "htest.h"

/* The fixed rate rows, labelled as in the comparison table (report.c). */
enum { DR_WIN0, DR_WIN1, DR_FIRST, DR_FIRST_DECISIVE, DR_DRAW, DR_DECISIVE, DR_CUT,
       DR_REPLAY, DR_FIXED };
static const char *const diffs_labels[DR_FIXED] = {
    "side 0 wins", "side 1 wins", "first mover wins", "first mover wins (decisive)",
    "draws", "decisive", "cut at max plies", "replayed (repetition)",
};
#define DIFFS_FIRST_LABEL "first mover wins (decisive)"

static const struct stats_rate *diffs_fixed(const struct stats *s, int row)
{
    switch (row) {
    case DR_WIN0: return &s->win[0];
    case DR_WIN1: return &s->win[1];
    case DR_FIRST: return &s->first;
    case DR_FIRST_DECISIVE: return &s->first_decisive;
    case DR_DRAW: return &s->draw;
    case DR_DECISIVE: return &s->decisive_rate;
    case DR_CUT: return &s->cut_rate;
    default: return &s->replay_rate;
    }
}

/* Ending x's count in s: 0 when s never ended so. */
static int64_t diffs_ending_count(const struct stats *s, const struct stats_ending *x)
{
    for (int e = 0; e < s->nendings; e++)
        if (s->endings[e].setup == x->setup && !strcmp(s->endings[e].reason, x->reason))
            return s->endings[e].rate.k;
    return 0;
}

/* The rows of the family: the fixed ones (the replay row only when the
 * table shows it) and one per ending over all rulesets.  Each row is
 * (label, k and n of every ruleset). */
struct diffs_row {
    char label[64];
    int64_t *k, *n;
};

static int diffs_add_row(struct diffs_row **rows, int *count, int *cap, int nv)
{
    if (*count == *cap) {
        int c = *cap ? 2 * *cap : 16;
        struct diffs_row *r = realloc(*rows, (size_t)c * sizeof *r);
        if (!r)
            return -1;
        *rows = r;
        *cap = c;
    }
    struct diffs_row *r = &(*rows)[*count];
    r->k = calloc((size_t)nv, sizeof *r->k);
    r->n = calloc((size_t)nv, sizeof *r->n);
    if (!r->k || !r->n) {
        free(r->k);
        free(r->n);
        return -1;
    }
    (*count)++;
    return 0;
}

static void diffs_rows_free(struct diffs_row *rows, int count)
{
    for (int i = 0; i < count; i++) {
        free(rows[i].k);
        free(rows[i].n);
    }
    free(rows);
}

static int diffs_collect_rows(const struct playout_variant *v, int n, struct diffs_row **out)
{
    struct diffs_row *rows = NULL;
    int count = 0, cap = 0, any_replayed = 0;
    for (int i = 0; i < n; i++)
        any_replayed |= v[i].have_stats && v[i].stats.replayed > 0;
    for (int row = 0; row < DR_FIXED; row++) {
        if (row == DR_REPLAY && !any_replayed)
            continue;
        if (diffs_add_row(&rows, &count, &cap, n) != 0)
            goto fail;
        struct diffs_row *r = &rows[count - 1];
        snprintf(r->label, sizeof r->label, "%s", diffs_labels[row]);
        for (int i = 0; i < n; i++)
            if (v[i].have_stats) {
                r->k[i] = diffs_fixed(&v[i].stats, row)->k;
                r->n[i] = diffs_fixed(&v[i].stats, row)->n;
            }
    }
    /* endings, in order of first appearance */
    for (int i = 0; i < n; i++)
        for (int e = 0; v[i].have_stats && e < v[i].stats.nendings; e++) {
            const struct stats_ending *x = &v[i].stats.endings[e];
            char label[64];
            snprintf(label, sizeof label, "ended: %s%s", x->reason,
                     x->setup ? " (setup)" : "");
            int seen = 0;
            for (int r = 0; r < count; r++)
                seen |= !strcmp(rows[r].label, label);
            if (seen)
                continue;
            if (diffs_add_row(&rows, &count, &cap, n) != 0)
                goto fail;
            struct diffs_row *r = &rows[count - 1];
            snprintf(r->label, sizeof r->label, "%s", label);
            for (int j = 0; j < n; j++)
                if (v[j].have_stats) {
                    r->k[j] = diffs_ending_count(&v[j].stats, x);
                    r->n[j] = v[j].stats.games;
                }
        }
    *out = rows;
    return count;
fail:
    diffs_rows_free(rows, count);
    return -1;
}

int diffs_build(const struct playout_variant *v, int n, struct diffs *d)
{
    memset(d, 0, sizeof *d);
    d->alpha = DIFFS_ALPHA;
    struct diffs_row *rows = NULL;
    int nrows = diffs_collect_rows(v, n, &rows);
    if (nrows < 0)
        return -1;
    int cap = nrows * (n * (n - 1) / 2) + n;
    d->t = calloc((size_t)(cap > 0 ? cap : 1), sizeof *d->t);
    double *p = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *p);
    double *adj = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *adj);
    if (!d->t || !p || !adj)
        goto fail;
    d->rows = nrows;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            if (!v[a].have_stats || !v[b].have_stats)
                continue;
            d->pairs++;
            for (int r = 0; r < nrows; r++) {
                if (rows[r].n[a] <= 0 || rows[r].n[b] <= 0)
                    continue; /* no rate to compare */
                struct diffs_test *t = &d->t[d->m++];
                snprintf(t->row, sizeof t->row, "%s", rows[r].label);
                t->a = a;
                t->b = b;
                t->ka = rows[r].k[a];
                t->na = rows[r].n[a];
                t->kb = rows[r].k[b];
                t->nb = rows[r].n[b];
                t->p = htest_fisher(t->ka, t->na, t->kb, t->nb);
                htest_diff_interval(t->ka, t->na, t->kb, t->nb, &t->lo, &t->hi);
            }
        }
    for (int a = 0; a < n; a++) {
        const struct stats_rate *f = &v[a].stats.first_decisive;
        if (!v[a].have_stats || f->n <= 0)
            continue;
        struct diffs_test *t = &d->t[d->m++];
        snprintf(t->row, sizeof t->row, "%s", DIFFS_FIRST_LABEL);
        t->a = a;
        t->b = -1;
        t->ka = f->k;
        t->na = f->n;
        t->p = htest_binom_half(f->k, f->n);
        d->firsts++;
    }
    for (int i = 0; i < d->m; i++)
        p[i] = d->t[i].p;
    if (htest_holm(p, d->m, adj) != 0)
        goto fail;
    /* the games an undecided question needs: at Holm's strictest level,
       alpha / m, which any test of the family passing it surely passes */
    double level = d->m > 0 ? d->alpha / d->m : d->alpha;
    for (int i = 0; i < d->m; i++) {
        struct diffs_test *t = &d->t[i];
        t->p_adj = adj[i];
        t->significant = adj[i] <= d->alpha;
        double pa = (double)t->ka / (double)t->na;
        t->needs = t->b < 0 ? htest_n_one(pa, 0.5, level, DIFFS_POWER)
                            : htest_n_two(pa, (double)t->kb / (double)t->nb, level,
                                          DIFFS_POWER);
    }
    free(p);
    free(adj);
    diffs_rows_free(rows, nrows);
    return 0;
fail:
    free(p);
    free(adj);
    diffs_rows_free(rows, nrows);
    diffs_free(d);
    return -1;
}

void diffs_free(struct diffs *d)
{
    free(d->t);
    memset(d, 0, sizeof *d);
}

int diffs_mark(struct report_row *rows, int nrows, const struct diffs *d)
{
    for (int i = 0; i < d->m; i++) {
        const struct diffs_test *t = &d->t[i];
        if (!t->significant || t->a != 0 || t->b < 0)
            continue;
        for (int r = 0; r < nrows; r++) {
            if (strcmp(rows[r].label, t->row))
                continue;
            char *cell = rows[r].cells[t->b];
            size_t len = strlen(cell);
            char *marked = realloc(cell, len + 3);
            if (!marked)
                return -1;
            memcpy(marked + len, " *", 3);
            rows[r].cells[t->b] = marked;
        }
    }
    return 0;
}

void diffs_needs_text(double needs, char *buf, size_t size)
{
    if (!(needs <= DIFFS_NEEDS_MAX)) {
        snprintf(buf, size, "> 1,000,000");
        return;
    }
    long x = (long)needs;
    if (x >= 1000000)
        snprintf(buf, size, "%ld,%03ld,%03ld", x / 1000000, x / 1000 % 1000, x % 1000);
    else if (x >= 1000)
        snprintf(buf, size, "%ld,%03ld", x / 1000, x % 1000);
    else
        snprintf(buf, size, "%ld", x);
}

/* A p-value for people: two significant digits, "< 1e-300" for 0. */
static void diffs_p_text(double p, char *buf, size_t size)
{
    if (p <= 0)
        snprintf(buf, size, "< 1e-300");
    else
        snprintf(buf, size, "%.2g", p);
}

/* What the games a test needs count: the rate's denominator. */
static const char *diffs_unit(const struct diffs_test *t)
{
    return t->b < 0 || !strcmp(t->row, DIFFS_FIRST_LABEL) ? "decisive games" : "games";
}

static double diffs_rate_a(const struct diffs_test *t)
{
    return (double)t->ka / (double)t->na;
}

static double diffs_rate_b(const struct diffs_test *t)
{
    return (double)t->kb / (double)t->nb;
}

void diffs_text(FILE *f, const struct diffs *d, const struct playout_variant *v)
{
    fprintf(f, "\nDifferences (Holm, alpha = %.2f): a family of %d tests (rate rows x pairs "
               "of rulesets: %d x %d, less rates empty in either; first-mover tests: %d)\n",
            d->alpha, d->m, d->rows, d->pairs, d->firsts);
    int shown = 0;
    char p[32], q[32], needs[32];
    for (int i = 0; i < d->m; i++) {
        const struct diffs_test *t = &d->t[i];
        if (!t->significant)
            continue;
        diffs_p_text(t->p, p, sizeof p);
        diffs_p_text(t->p_adj, q, sizeof q);
        if (t->b < 0)
            fprintf(f, "  %s, %s: %.1f%% of %lld against 50%%, p = %s, adjusted p = %s\n",
                    t->row, v[t->a].label, 100 * diffs_rate_a(t), (long long)t->na, p, q);
        else
            fprintf(f, "  %s: %s %.1f%% vs %s %.1f%%, difference %+.1f points [%+.1f, %+.1f], "
                       "p = %s, adjusted p = %s\n",
                    t->row, v[t->a].label, 100 * diffs_rate_a(t), v[t->b].label,
                    100 * diffs_rate_b(t), 100 * (diffs_rate_a(t) - diffs_rate_b(t)),
                    100 * t->lo, 100 * t->hi, p, q);
        shown++;
    }
    if (!shown)
        fprintf(f, "  none holds at this sample\n");
    if (shown == d->m)
        return;
    fprintf(f, "Not significant (games per ruleset for 80%% power at alpha = %.2g / %d):\n",
            d->alpha, d->m);
    for (int i = 0; i < d->m; i++) {
        const struct diffs_test *t = &d->t[i];
        if (t->significant)
            continue;
        diffs_needs_text(t->needs, needs, sizeof needs);
        diffs_p_text(t->p_adj, q, sizeof q);
        if (t->b < 0)
            fprintf(f, "  %s, %s (%.1f%% of %lld, adjusted p = %s): needs %s %s\n", t->row,
                    v[t->a].label, 100 * diffs_rate_a(t), (long long)t->na, q, needs,
                    diffs_unit(t));
        else
            fprintf(f, "  %s, %s vs %s (%.1f%% vs %.1f%%, adjusted p = %s): needs %s %s\n",
                    t->row, v[t->a].label, v[t->b].label, 100 * diffs_rate_a(t),
                    100 * diffs_rate_b(t), q, needs, diffs_unit(t));
    }
}

static void diffs_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* How sure, in words, from the adjusted p-value. */
static const char *diffs_confidence(double p_adj)
{
    if (p_adj <= 0.001)
        return "beyond reasonable doubt";
    if (p_adj <= 0.01)
        return "with high confidence";
    return "with moderate confidence";
}

/* The undecided tests, those needing the fewest games first (the
 * questions more games can answer). */
static int diffs_cmp_needs(const void *x, const void *y)
{
    const struct diffs_test *a = *(const struct diffs_test *const *)x;
    const struct diffs_test *b = *(const struct diffs_test *const *)y;
    if (a->needs != b->needs)
        return a->needs < b->needs ? -1 : 1;
    return 0;
}

enum { DIFFS_HTML_UNDECIDED = 8 };

static void diffs_html_undecided(FILE *f, const struct diffs *d,
                                 const struct playout_variant *v)
{
    const struct diffs_test **u = malloc((size_t)(d->m > 0 ? d->m : 1) * sizeof *u);
    if (!u)
        return;
    int nu = 0;
    for (int i = 0; i < d->m; i++)
        if (!d->t[i].significant)
            u[nu++] = &d->t[i];
    if (nu == 0) {
        free(u);
        return;
    }
    qsort(u, (size_t)nu, sizeof *u, diffs_cmp_needs);
    fprintf(f, "<p>%d of the %d questions cannot be told apart at this sample. The games "
               "that would tell (per ruleset, for an 80%% chance of showing the difference "
               "seen here at the corrected level):</p>\n<ul class=\"undecided\">\n",
            nu, d->m);
    char needs[32];
    for (int i = 0; i < nu && i < DIFFS_HTML_UNDECIDED; i++) {
        const struct diffs_test *t = u[i];
        diffs_needs_text(t->needs, needs, sizeof needs);
        fputs("<li>", f);
        diffs_esc(f, t->row);
        fputs(": ", f);
        diffs_esc(f, v[t->a].label);
        if (t->b < 0) {
            fprintf(f, " at %.1f%% against even: about %s %s", 100 * diffs_rate_a(t), needs,
                    diffs_unit(t));
        } else {
            fprintf(f, " %.1f%% against ", 100 * diffs_rate_a(t));
            diffs_esc(f, v[t->b].label);
            fprintf(f, " %.1f%%: about %s %s", 100 * diffs_rate_b(t), needs, diffs_unit(t));
        }
        fputs(needs[0] == '>' ? " (too small a difference to chase)</li>\n" : "</li>\n", f);
    }
    if (nu > DIFFS_HTML_UNDECIDED)
        fprintf(f, "<li>and %d more (tiers compare prints them all)</li>\n",
                nu - DIFFS_HTML_UNDECIDED);
    fputs("</ul>\n", f);
    free(u);
}

void diffs_html(FILE *f, const struct diffs *d, const struct playout_variant *v)
{
    fprintf(f, "<h2>What the games show</h2>\n<p>Each rate was compared between every two "
               "rulesets (Fisher's exact test), and each ruleset's first-mover wins among "
               "decisive games against even (exact binomial test): %d tests in all, corrected "
               "together by Holm's method so that the chance of any false claim below is at "
               "most %.0f%%.</p>\n",
            d->m, 100 * d->alpha);
    int shown = 0;
    for (int i = 0; i < d->m; i++) {
        const struct diffs_test *t = &d->t[i];
        if (!t->significant)
            continue;
        if (!shown++)
            fputs("<ul class=\"differences\">\n", f);
        fputs("<li>", f);
        if (t->b < 0) {
            fputs("In ", f);
            diffs_esc(f, v[t->a].label);
            fprintf(f, " the first mover wins %.1f%% of %lld decisive games: %s than half, "
                       "%s (adjusted p = %.2g).",
                    100 * diffs_rate_a(t), (long long)t->na,
                    diffs_rate_a(t) > 0.5 ? "more" : "fewer", diffs_confidence(t->p_adj),
                    t->p_adj);
        } else {
            double da = diffs_rate_a(t), db = diffs_rate_b(t);
            /* "Draws: higher in A ...": the row's name as a heading, so
               "side 1 wins" or "ended: checkmate" need no verb of their own */
            fprintf(f, "<b>%c", toupper((unsigned char)t->row[0]));
            diffs_esc(f, t->row + 1);
            fputs(":</b> ", f);
            fputs(da > db ? "higher" : "lower", f);
            fputs(" in ", f);
            diffs_esc(f, v[t->a].label);
            fprintf(f, " (%.1f%%) than in ", 100 * da);
            diffs_esc(f, v[t->b].label);
            fprintf(f, " (%.1f%%), a difference of %+.1f points (95%% interval %+.1f to "
                       "%+.1f), %s (adjusted p = %.2g).",
                    100 * db, 100 * (da - db), 100 * t->lo, 100 * t->hi,
                    diffs_confidence(t->p_adj), t->p_adj);
        }
        fputs("</li>\n", f);
    }
    if (shown)
        fputs("</ul>\n", f);
    else
        fputs("<p>No difference between the rulesets holds at this sample.</p>\n", f);
    diffs_html_undecided(f, d, v);
}
