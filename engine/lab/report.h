/* report.h - the HTML report of `tiers compare --report FILE`: one
 * self-contained file (inline CSS and SVG, no scripts, no external
 * assets) with the comparison table and charts. */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "run.h"
#include "stats.h"

/* One variant's part of a comparison: its run, what the run did, and its
 * metrics over games 0..games-1. */
struct playout_variant {
    const char *spec;          /* the ruleset as given */
    char label[96];            /* its column's name (LABEL=, or the
                                  variant and its run options) */
    char failure[1024];        /* why its games or figures failed, "" */
    struct db_run run;
    struct run_result result;
    struct stats stats;
    int have_stats;
};

/* What the comparison was asked for, for the report's header line. */
struct report_meta {
    long games;             /* games per variant; 0: each its own (--until) */
    uint64_t seed;
    int max_plies;
    const char *db;         /* the database file */
    /* issue 23: a section written before the end of the page, or NULL */
    void (*extra)(FILE *f, const void *ctx);
    const void *extra_ctx;
};

/* Writes the report for variants v[0..n-1] (each with stats).  Returns 0,
 * or -1 with err. */
int report_write(const char *path, const struct report_meta *m,
                 const struct playout_variant *v, int n, char *err, size_t errsize);

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
