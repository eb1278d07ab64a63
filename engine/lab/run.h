/* run.h - playing the missing games of a run on several threads and
 * storing each one as it finishes (`tiers playout`, `tiers compare`). */
#ifndef RUN_H
#define RUN_H

#include <stdint.h>

#include "db.h"
#include "game.h"

enum { RUN_MAX_THREADS = 256 };
#define RUN_MAX_GAMES 100000000LL

struct run_options {
    int64_t games;          /* games 0..games-1 make the run */
    int threads;
    int shard_k, shard_n;   /* play the games i with i % n == k - 1 */
    int progress;           /* progress bar on stderr */
    const char *label;      /* its label */
    const char *failed_dir; /* where a failed game's record goes (failrec.h) */
};

struct run_result {
    int64_t wanted;         /* games of this shard */
    int64_t found;          /* already in the database */
    int64_t played;         /* played now */
    int threads;            /* worker threads started: --threads, or fewer
                               when fewer games were missing */
    double seconds;
};

/* Describes the run of cfg on the loaded variant v: name, hash, options,
 * canonical agent specs, side and effect names, and the key.  0, or -1
 * with err (a bad agent spec, too many rules), or TIERS_ENOMEM. */
int run_describe(const struct game_config *cfg, const tiers_variant *v,
                 struct db_run *run, char *err, size_t errsize);

/* Stores the run, then plays every game of the shard the database lacks.
 * Returns 0, or a negative library code / -1 with err.  Games finished
 * before an error are stored. */
int run_games(db *d, const struct game_config *cfg, const struct db_run *run,
              const struct run_options *o, struct run_result *r, char *err,
              size_t errsize);

#endif
