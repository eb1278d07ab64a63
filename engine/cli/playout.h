/* playout.h - what `tiers playout` and `tiers compare` share
 * (cmd_playout.c): option defaults, agents per side, and running the games
 * of one variant into the database. */
#ifndef PLAYOUT_H
#define PLAYOUT_H

#include "cli.h"
#include "db.h"
#include "game.h"
#include "run.h"
#include "stats.h"

#define PLAYOUT_DEFAULT_AGENT "greedy"
#define PLAYOUT_DEFAULT_DB "tiers.db"
enum {
    PLAYOUT_DEFAULT_GAMES = 100,
    PLAYOUT_DEFAULT_MAX_PLIES = 400,
    PLAYOUT_DEFAULT_SEED = 1
};

/* Fills the options not given with their defaults. */
void playout_defaults(struct cli *c);

/* One variant's part of a command: its run, what the run did, and its
 * metrics over games 0..games-1. */
struct playout_variant {
    const char *spec;
    struct db_run run;
    struct run_result result;
    struct stats stats;
    int have_stats;
};

/* Loads the variant `spec`, resolves the agents for its sides, plays the
 * missing games of the shard into d, then (with_stats) reads the metrics.
 * Returns an exit code; errors are printed. */
int playout_variant(const struct cli *c, db *d, const char *spec, int with_stats,
                    struct playout_variant *out);

/* Opens the --db file (created if missing); NULL after printing. */
db *playout_open_db(const struct cli *c, int *code);

/* Game records of stored games (cmd_export.c), for `tiers export` and
 * `tiers playout --records`. */

/* Creates the records folder dir if missing and checks that it can be
 * written.  Returns an exit code (after a message). */
int export_prepare_dir(const struct cli *c, const char *dir);
/* Checks --notation for records of v: a notation v offers, whose moves a
 * record can hold (ASCII).  Returns an exit code (after a message). */
int export_check_notation(const struct cli *c, const tiers_variant *v);
/* Writes the stored games i < limit of the run with i mod shard_n =
 * shard_k - 1 as game records, one file per game in dir
 * (VARIANT-RUN-INDEX.txt), in index order.  The variant is loaded from
 * spec with rules (and --variants); moves are written in --notation.
 * *written counts the files.  Returns an exit code (after a message). */
int export_run(const struct cli *c, db *d, const struct db_run *run, const char *spec,
               const char *const *rules, const char *dir, int64_t limit, int shard_k,
               int shard_n, int64_t *written);

#endif
