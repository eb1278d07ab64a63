/* db.h - the playout database (SQLite): runs, one row per game, the
 * effects that fired in each game.  The only lab file that includes
 * sqlite3.h.  Schema in db.c and docs/cli.md ("The database").
 *
 * A *run* is every game played with one configuration: variant (name and
 * content hash), options, agents, seed and max plies.  Its key is a hash
 * of that configuration, so a re-run of the same command, another shard
 * of it or a larger --games find the games already played; game i of a
 * run is the same game wherever and whenever it is played. */
#ifndef DB_H
#define DB_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

typedef struct db db;

/* What the readers below return for a row that fails its check (a value
 * of the wrong type, out of range or disagreeing with its row: dbcheck.h);
 * -1 is a failure of SQLite itself. */
enum { DB_BAD = -2 };

enum { DB_TEXT = 256, DB_SPEC = 160, DB_NAME = 32 };

/* A run's configuration (the columns of `runs`). */
struct db_run {
    char key[17];              /* 16 hex digits */
    char variant[DB_NAME + 32];
    char hash[17];             /* tiers_variant_hash */
    char options[1024];        /* the --rule values joined by ' ' */
    char agent[2][DB_SPEC];    /* canonical specs, side 0 and 1 */
    char side[2][DB_NAME];     /* the variant's side names */
    uint64_t seed;
    int max_plies;
    int neffects;
    char effect[GAME_MAX_EFFECTS][DB_NAME];
    int nfaces;                /* the variant's faces (not stored in runs) */
    char face[GAME_MAX_FACES][DB_NAME];
};

/* Fills run->key from the other fields. */
void db_run_key(struct db_run *run);

/* Opens (create: or creates) the database at path, in WAL mode.  NULL
 * with a message in err. */
db *db_open(const char *path, int create, char *err, size_t errsize);
/* The same, telling why it failed: *foreign = 1 for bad input (the file
 * is not a playout database of this schema, or cannot be opened at that
 * path: no such folder, a link), 0 when it could not be written (a full
 * disk) or memory ran out. */
db *db_open_checked(const char *path, int create, int *foreign, char *err, size_t errsize);
/* What opening a schema-1 file for writing did: every game replayed once
 * (game_replay) to fill the schema-2 figures, effect kinds and faces. */
enum { DB_UNKNOWN_VARIANT, DB_UNKNOWN_CHANGED, DB_UNKNOWN_REPLAY, DB_UNKNOWN_KINDS };
struct db_migration {
    int migrated;              /* 1 when this open migrated the file */
    int64_t games, filled;     /* games stored; games replayed and filled */
    int64_t unknown[DB_UNKNOWN_KINDS]; /* games left NULL, by reason: the
                                  variant did not load, its content hash
                                  differs, the moves no longer replay */
    char detail[DB_UNKNOWN_KINDS][256]; /* the first case of each reason */
};
/* db_open_checked, and a schema-1 file is migrated in the same
 * transaction (an interrupted migration leaves it schema 1): its runs'
 * variants are loaded by name on the search path `search` (NULL: the
 * default) with their stored options, and each game replayed.  m (may
 * be NULL) says what was done. */
db *db_open_migrating(const char *path, int create, const char *search,
                      struct db_migration *m, int *foreign, char *err, size_t errsize);
/* One line for m: games replayed, games left unknown and why. */
void db_migration_summary(const struct db_migration *m, const char *path, char *buf,
                          size_t size);
/* Opens an existing playout database read-only (nothing is created or
 * changed; for reading games back).  NULL with a message in err: a missing
 * file, a file that is not a playout database, another schema. */
db *db_open_read(const char *path, char *err, size_t errsize);
void db_close(db *d);
/* Moves every committed transaction from the write-ahead log into the
 * database file itself (so the file alone holds them, as before a rename
 * or a copy).  0, or -1 with err (a full disk: the log keeps them). */
int db_checkpoint(db *d, char *err, size_t errsize);

/* Records the run (nothing if it is there).  0, or -1 with err. */
int db_put_run(db *d, const struct db_run *run, char *err, size_t errsize);

/* Marks done[i] = 1 for every game i < limit of the run already stored.
 * Returns the number found, or -1 with err. */
int64_t db_done(db *d, const char *run, int64_t limit, uint8_t *done, char *err,
                size_t errsize);

/* Stores one game and its effect counts in one transaction. */
int db_put_game(db *d, const struct db_run *run, const struct game_record *g,
                char *err, size_t errsize);
/* The same for several games in one transaction: db_begin, db_add_game
 * for each, then db_commit(ok) (ok = 0 rolls back).  0, or -1 with err. */
int db_begin(db *d, char *err, size_t errsize);
int db_add_game(db *d, const struct db_run *run, const struct game_record *g,
                char *err, size_t errsize);
int db_commit(db *d, int ok, char *err, size_t errsize);

/* Copies every run, game and effect row of the database at src into d
 * (rows d already has are kept), in one transaction, after checking
 * every row of src (a foreign file is untrusted input: dbcheck.h); src is
 * opened read-only and may not be d's own file.  *added and *skipped count games;
 * *differ counts games present in both whose move records differ (a sign
 * that the two were not played by the same engine). */
/* Returns 0, DB_BAD when src is refused (missing, foreign, a bad row, d's
 * own file), or -1 when d could not be written. */
int db_merge(db *d, const char *src, int64_t *added, int64_t *skipped,
             int64_t *differ, char *err, size_t errsize);

/* One stored game, as the statistics read it. */
struct db_game {
    int64_t index;
    int winner;                /* 0, 1, or -1 for a draw or a cut game */
    int cut, draw;
    int replayed;              /* over without a result (repetition-replay) */
    int plies, setup_plies, first_side;
    int captures, drops, placements, stacks;
    int64_t legal_sum;
    int legal_plies;
    double seconds;
    const char *legal;         /* legal move counts per ply, ' ' */
    const char *moves;         /* the moves, tiers notation, ' ' */
    const char *reason;        /* "checkmate", ..., "cut" */
    int neffects;              /* counts in the run's effect order */
    uint32_t effects[GAME_MAX_EFFECTS];   /* fired (schema 1: fired or prevented) */
    uint32_t prevented[GAME_MAX_EFFECTS], ended[GAME_MAX_EFFECTS];
    int kinds;                 /* the counts are split by kind (schema 2) */
    /* The positional figures (docs/metrics.md); -1 when unknown. */
    double coverage, repetition, lead_change, drama, decision_point, stability;
    int hook_ended;            /* 0, 1, -1 unknown */
};

/* The schema of the open file: 2, or 1 for a schema-1 file opened
 * read-only (opening one for writing migrates it). */
int db_schema(const db *d);

/* One face's counts summed over a run's games. */
struct db_face {
    char name[DB_NAME];
    uint64_t moves, captures, captured, drops, mates;
};

/* Sums table faces over the run's games i < limit into out[0..*n), in
 * order of first appearance (*n = -1 for a schema-1 file: unknown).  0,
 * DB_BAD for a bad row, or -1 with err. */
int db_faces(db *d, const struct db_run *run, int64_t limit, struct db_face *out, int cap,
             int *n, char *err, size_t errsize);

/* Reads the run's configuration; 0, 1 if there is no such run, or -1. */
int db_get_run(db *d, const char *key, struct db_run *run, char *err, size_t errsize);

/* Calls fn for every run, ordered by variant name then key.  A non-zero
 * return from fn stops with that value.  Returns 0, or -1 with err. */
int db_runs(db *d, int (*fn)(const struct db_run *run, void *ud), void *ud, char *err,
            size_t errsize);

/* Calls fn for each stored game i < limit of the run, in index order.
 * A non-zero return from fn stops with that value.  Returns 0, or -1 with
 * err. */
int db_games(db *d, const struct db_run *run, int64_t limit,
             int (*fn)(const struct db_game *g, void *ud), void *ud,
             char *err, size_t errsize);

/* One stored game as a game record needs it.  Strings are valid during
 * the callback only. */
struct db_record {
    int64_t index;
    const char *game_seed;     /* hex */
    const char *result;        /* "1-0", "0-1", "1/2-1/2", "*" (cut) */
    const char *reason;        /* "checkmate", ..., "cut" */
    int cut, plies;
    const char *moves;         /* tiers notation, ' ' between */
    const char *finished;      /* "YYYY-MM-DD HH:MM:SS", UTC */
};

/* Calls fn for each stored game i < limit of the run with
 * i mod shard_n = shard_k - 1, in index order.  A non-zero return from fn
 * stops with that value.  Returns 0, or -1 with err. */
int db_records(db *d, const struct db_run *run, int64_t limit, int shard_k, int shard_n,
               int (*fn)(const struct db_record *g, void *ud), void *ud, char *err,
               size_t errsize);

#endif
