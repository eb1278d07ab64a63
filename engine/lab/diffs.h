/* diffs.h - which differences between the rulesets of a comparison hold:
 * the family of tests (every rate row x every pair of rulesets, plus each
 * ruleset's first-mover test against 1/2) under Holm's correction, with
 * the games each undecided question needs.  Formulas: docs/metrics.md,
 * "Differences that hold"; the tests themselves are htest.c's. */
#ifndef DIFFS_H
#define DIFFS_H

#include <stdint.h>
#include <stdio.h>

#include "report.h"

#define DIFFS_ALPHA 0.05
#define DIFFS_POWER 0.8
#define DIFFS_NEEDS_MAX 1000000.0

/* One test of the family. */
struct diffs_test {
    char row[64];          /* the table row's label */
    int a, b;              /* rulesets compared; b = -1: the first-mover
                              test of ruleset a against 1/2 */
    int64_t ka, na, kb, nb;
    double lo, hi;         /* 95% interval of ka/na - kb/nb (pairs) */
    double p, p_adj;       /* raw and Holm-adjusted p-value */
    int significant;       /* p_adj <= alpha */
    double needs;          /* trials per ruleset (decisive games for the
                              first-mover test) for power 0.8 at the
                              level alpha / m; HUGE_VAL: no difference */
};

struct diffs {
    double alpha;
    int m;                 /* family size */
    int rows, pairs, firsts; /* rate rows, ruleset pairs, first-mover tests */
    struct diffs_test *t;
};

/* The family for rulesets v[0..n-1] (those with figures).  0, or -1 when
 * out of memory (d is then empty). */
int diffs_build(const struct playout_variant *v, int n, struct diffs *d);
void diffs_free(struct diffs *d);

/* Appends " *" to the cells of the table rows whose ruleset differs
 * significantly from the first column.  0, or -1 when out of memory. */
int diffs_mark(struct report_row *rows, int nrows, const struct diffs *d);

/* The text section "Differences (Holm, alpha = 0.05)" after the table. */
void diffs_text(FILE *f, const struct diffs *d, const struct playout_variant *v);

/* The report's plain sentences (HTML paragraphs): what differs and how
 * surely, what cannot be told apart, and the games that would tell. */
void diffs_html(FILE *f, const struct diffs *d, const struct playout_variant *v);

/* "4,904", or "> 1,000,000" past DIFFS_NEEDS_MAX. */
void diffs_needs_text(double needs, char *buf, size_t size);

#endif
