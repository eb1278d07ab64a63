/* compare_diffs.h - the tests of a comparison in `tiers compare --json`
 * (compare_diffs.c); the family itself is engine/lab/diffs.h's. */
#ifndef COMPARE_DIFFS_H
#define COMPARE_DIFFS_H

#include "diffs.h"
#include "jsonw.h"

/* Writes the key "tests" and its object into the open object of w. */
void compare_diffs_json(jsonw *w, const struct diffs *d, const struct playout_variant *v);

#endif
