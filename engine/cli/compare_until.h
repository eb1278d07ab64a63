/* compare_until.h - `tiers compare --until RATE=W --round R`: each ruleset
 * plays rounds of R games until the 95% Wilson half-width of RATE is at
 * most W, --games being the cap (compare_until.c). */
#ifndef COMPARE_UNTIL_H
#define COMPARE_UNTIL_H

#include "jsonw.h"
#include "playout.h"

/* The rates --until can watch (struct cli's until). */
enum { UNTIL_NONE, UNTIL_FIRST_MOVER, UNTIL_SIDE0, UNTIL_DRAWS };
enum { UNTIL_DEFAULT_ROUND = 100, UNTIL_DEFAULT_CAP = 100000 };

/* The most games a ruleset may play: --games, or UNTIL_DEFAULT_CAP when
 * --games is not given. */
long compare_until_cap(const struct cli *c);

/* The watched rate of s. */
const struct stats_rate *compare_until_rate(const struct stats *s, int until);

/* Whether a ruleset with figures s, after `games` of at most `cap`, is
 * done: its rate's half-width is at most the target, or the cap is
 * reached. */
int compare_until_done(const struct stats *s, int until, double width, long games, long cap);

/* Plays `spec` as playout_variant does, in rounds, until done.  An exit
 * code; out as playout_variant leaves it (played_now summed). */
int compare_until_variant(const struct cli *c, db *d, const char *spec,
                          struct playout_variant *out);

/* The line under the table: where each ruleset stopped and why. */
void compare_until_print(const struct cli *c, const struct playout_variant *v, int n);

/* The "until" object of --json (nothing without --until). */
void compare_until_json(jsonw *w, const struct cli *c, const struct playout_variant *v, int n);

#endif
