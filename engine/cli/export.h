/* export.h - game records of stored games (cmd_export.c), for `tiers
 * export` and `tiers playout --records`. */
#ifndef EXPORT_H
#define EXPORT_H

#include <stdint.h>

#include "cli.h"
#include "lab.h"

/* Creates the records folder dir if missing and checks that it can be
 * written.  Returns an exit code (after a message). */
int export_prepare_dir(const struct cli *c, const char *dir);
/* Checks that records can hold the moves --notation writes (ASCII, or a
 * notation of UTF-8 moves), by p's moves; cli_open has checked that p's
 * variant offers it.  Returns an exit code (after a message). */
int export_check_notation(const struct cli *c, tiers_pos *p);
/* Writes the stored games i < limit of the run with i mod shard_n =
 * shard_k - 1 as game records, one file per game in dir
 * (VARIANT-RUN-INDEX.txt), in index order.  The variant is loaded from
 * spec with rules (and --variants); moves are written in --notation.
 * *written counts the files.  Returns an exit code (after a message). */
int export_run(const struct cli *c, db *d, const struct db_run *run, const char *spec,
               const char *const *rules, const char *dir, int64_t limit, int shard_k,
               int shard_n, int64_t *written);

#endif
