/* dbcheck.h - validation of the rows read from a playout database.
 *
 * A database is untrusted input: shards come from other machines and any
 * file can be given as --db.  db.c reads each row into cells (without
 * converting types) and these checks decide whether every value has its
 * column's type, is within its range and agrees with the rest of the row,
 * so the code that uses the values (statistics, reports, records) never
 * meets a NULL, a negative length or a sum that overflows. */
#ifndef DBCHECK_H
#define DBCHECK_H

#include <stddef.h>
#include <stdint.h>

/* One value as stored: its SQLite storage class and its content. */
enum { DBCHECK_NULL, DBCHECK_INT, DBCHECK_REAL, DBCHECK_TEXT, DBCHECK_BLOB };

struct dbcheck_cell {
    int type;
    int64_t i;
    double r;
    const char *t;     /* TEXT: the bytes (not always NUL-free) */
    size_t len;        /* TEXT, BLOB: bytes */
};

/* The columns of each table, in schema order (db.c selects them so). */
enum {
    DBCHECK_RUN_COLUMNS = 13,
    DBCHECK_GAME_COLUMNS = 33,   /* 26 in schema 1: the last 7 read as NULL */
    DBCHECK_EFFECT_COLUMNS = 6,  /* 4 in schema 1: prevented, ended NULL */
    DBCHECK_FACE_COLUMNS = 8     /* schema 2 */
};
extern const char *const dbcheck_run_names[DBCHECK_RUN_COLUMNS];
extern const char *const dbcheck_game_names[DBCHECK_GAME_COLUMNS];
extern const char *const dbcheck_effect_names[DBCHECK_EFFECT_COLUMNS];
extern const char *const dbcheck_face_names[DBCHECK_FACE_COLUMNS];

/* Each returns 0 when the row is valid, else -1 with the message in why
 * (starting with the column's name). */
int dbcheck_run(const struct dbcheck_cell *c, char *why, size_t size);
/* max_plies: the run's (already checked). */
int dbcheck_game(const struct dbcheck_cell *c, int max_plies, char *why, size_t size);
int dbcheck_effect(const struct dbcheck_cell *c, char *why, size_t size);
int dbcheck_face(const struct dbcheck_cell *c, char *why, size_t size);

/* The schema version in meta: the version (1..want) the cell holds, else
 * -1 with why. */
int dbcheck_schema(const struct dbcheck_cell *c, int want, char *why, size_t size);

#endif
