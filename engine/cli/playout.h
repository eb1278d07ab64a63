/* playout.h - what `tiers playout` and `tiers compare` share
 * (cmd_playout.c): option defaults, agents per side, and running the games
 * of one variant into the database. */
#ifndef PLAYOUT_H
#define PLAYOUT_H

#include "cli.h"
#include "lab.h"

#define PLAYOUT_DEFAULT_AGENT "greedy"
#define PLAYOUT_DEFAULT_DB "tiers.db"
enum {
    PLAYOUT_DEFAULT_GAMES = 100,
    PLAYOUT_DEFAULT_MAX_PLIES = 400,
    PLAYOUT_DEFAULT_SEED = 1
};

/* Fills the options not given with their defaults. */
void playout_defaults(struct cli *c);

/* Loads the variant `spec`, resolves the agents for its sides, plays the
 * missing games of the shard into d, then (with_stats) reads the metrics.
 * Returns an exit code; errors are printed. */
int playout_variant(const struct cli *c, db *d, const char *spec, int with_stats,
                    struct playout_variant *out);

/* The run of `spec` with c's options (agents, rules, seed, max plies),
 * without playing: as cli_playout_check, and *run filled.  An exit code. */
int cli_playout_describe(const struct cli *c, const char *spec, struct db_run *run);

/* Opens the --db file (created if missing); NULL after printing. */
db *playout_open_db(const struct cli *c, int *code);

#endif
