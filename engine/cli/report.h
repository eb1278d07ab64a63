/* report.h - the HTML report of `tiers compare --report FILE`: one
 * self-contained file (inline CSS and SVG, no scripts, no external
 * assets) with the comparison table and charts. */
#ifndef REPORT_H
#define REPORT_H

#include "playout.h"

/* Writes the report for variants v[0..n-1] (each with stats).  Returns 0,
 * or -1 with err. */
int report_write(const char *path, const struct cli *c, const struct playout_variant *v,
                 int n, char *err, size_t errsize);

/* One row of the comparison table: a label and a cell per variant. */
struct report_row {
    char label[64];
    char **cells;       /* n strings */
};

/* The table `tiers compare` prints and the report shows.  Returns the row
 * count (rows freed with report_rows_free), or -1 when out of memory. */
int report_rows(const struct playout_variant *v, int n, struct report_row **out);
void report_rows_free(struct report_row *rows, int nrows, int n);

#endif
