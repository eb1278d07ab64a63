/* db.c - the playout database over SQLite.
 *
 * WAL journal with synchronous=NORMAL: a committed game survives the
 * process being killed (kill -9 loses only the games in flight); each game
 * is one transaction.  Several processes may write one file (SQLite locks
 * it; writers wait up to a minute), though shards usually write a file
 * each and `tiers merge` joins them. */
#include "db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "dbcheck.h"
#include "gamerec.h"

enum { DB_SCHEMA_VERSION = 2 };

static const char db_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);\n"
    "CREATE TABLE IF NOT EXISTS runs(\n"
    "  run TEXT PRIMARY KEY,      -- hash of the configuration below\n"
    "  variant TEXT NOT NULL, variant_hash TEXT NOT NULL, options TEXT NOT NULL,\n"
    "  agent0 TEXT NOT NULL, agent1 TEXT NOT NULL,\n"
    "  side0 TEXT NOT NULL, side1 TEXT NOT NULL,\n"
    "  seed INTEGER NOT NULL, max_plies INTEGER NOT NULL,\n"
    "  effects TEXT NOT NULL,     -- effect names, ',' between\n"
    "  tiers_version TEXT NOT NULL, created TEXT NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS games(\n"
    "  run TEXT NOT NULL, game INTEGER NOT NULL,\n"
    "  variant TEXT NOT NULL, variant_hash TEXT NOT NULL, options TEXT NOT NULL,\n"
    "  agent0 TEXT NOT NULL, agent1 TEXT NOT NULL,\n"
    "  seed INTEGER NOT NULL, game_seed TEXT NOT NULL,\n"
    "  result TEXT NOT NULL,      -- 1-0, 0-1, 1/2-1/2, * (cut)\n"
    "  winner INTEGER,            -- 0, 1, NULL\n"
    "  reason TEXT NOT NULL, cut INTEGER NOT NULL,\n"
    "  plies INTEGER NOT NULL, setup_plies INTEGER NOT NULL,\n"
    "  first_side INTEGER,        -- side of the first play-phase move\n"
    "  captures INTEGER NOT NULL, drops INTEGER NOT NULL,\n"
    "  placements INTEGER NOT NULL, stacks INTEGER NOT NULL,\n"
    "  legal_sum INTEGER NOT NULL, legal_plies INTEGER NOT NULL,\n"
    "  seconds REAL NOT NULL,\n"
    "  moves TEXT NOT NULL,       -- tiers notation, ' ' between\n"
    "  legal TEXT NOT NULL,       -- legal moves at each ply, ' ' between\n"
    "  finished TEXT NOT NULL,\n"
    "  coverage REAL, repetition REAL, lead_change REAL, drama REAL,\n" /* schema 2: */
    "  decision_point REAL, stability REAL, hook_ended INTEGER,\n"     /* NULL = unknown */
    "  PRIMARY KEY(run, game));\n"
    "CREATE TABLE IF NOT EXISTS effects(\n"
    "  run TEXT NOT NULL, game INTEGER NOT NULL, name TEXT NOT NULL,\n"
    "  count INTEGER NOT NULL,    -- fired (schema 1: fired or prevented)\n"
    "  prevented INTEGER, ended INTEGER, -- schema 2; NULL in schema 1 rows\n"
    "  PRIMARY KEY(run, game, name));\n"
    "CREATE TABLE IF NOT EXISTS faces(\n"
    "  run TEXT NOT NULL, game INTEGER NOT NULL, face TEXT NOT NULL,\n"
    "  moves INTEGER NOT NULL, captures INTEGER NOT NULL, captured INTEGER NOT NULL,\n"
    "  drops INTEGER NOT NULL, mates INTEGER NOT NULL,\n"
    "  PRIMARY KEY(run, game, face));\n"
    "INSERT OR IGNORE INTO meta VALUES('schema', '2');\n";

/* A schema-1 database opened for writing gains the schema-2 columns and
 * table, then every game is replayed to fill them (db_fill); a game that
 * cannot be replayed keeps NULL there: figures unknown, shown as '-'. */
static const char db_migrate_1[] =
    "ALTER TABLE games ADD COLUMN coverage REAL;\n"
    "ALTER TABLE games ADD COLUMN repetition REAL;\n"
    "ALTER TABLE games ADD COLUMN lead_change REAL;\n"
    "ALTER TABLE games ADD COLUMN drama REAL;\n"
    "ALTER TABLE games ADD COLUMN decision_point REAL;\n"
    "ALTER TABLE games ADD COLUMN stability REAL;\n"
    "ALTER TABLE games ADD COLUMN hook_ended INTEGER;\n"
    "ALTER TABLE effects ADD COLUMN prevented INTEGER;\n"
    "ALTER TABLE effects ADD COLUMN ended INTEGER;\n"
    "UPDATE meta SET value = '2' WHERE key = 'schema';\n";

struct db {
    sqlite3 *h;
    sqlite3_stmt *put_game, *put_effect, *put_face;
    int schema;                /* 1 or 2 (a schema-1 file opened read-only) */
    char *path;                /* for messages */
};

/* The longest value SQLite hands back (a game's moves are at most
 * 60,000 plies of 256 bytes): a larger one is an error, not an
 * allocation. */
enum { DB_MAX_VALUE = 32 << 20 };

/* Reads through a memory map of the file (as much of it as SQLite maps:
 * 2 GB in a default build; the rest is read as before): a read call per
 * 4 KB page was about half of compare's CPU time on a large database
 * (docs/performance.md).  The mapped pages are the page cache's, shared
 * and clean, though they count in the process's resident size. */
static void db_map(sqlite3 *h)
{
    sqlite3_exec(h, "PRAGMA mmap_size=68719476736", NULL, NULL, NULL);
}

/* A foreign database may hold views, triggers or functions in its
 * schema: none of them runs, and SQLite's own defensive mode is on. */
static void db_harden(sqlite3 *h)
{
    sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)NULL);
    sqlite3_limit(h, SQLITE_LIMIT_LENGTH, DB_MAX_VALUE);
    sqlite3_limit(h, SQLITE_LIMIT_ATTACHED, 1);
}

/* The current row's columns [first, first + n) as cells. */
static void db_cells(sqlite3_stmt *st, int first, int n, struct dbcheck_cell *c)
{
    for (int k = 0; k < n; k++, c++) {
        int col = first + k;
        memset(c, 0, sizeof *c);
        switch (sqlite3_column_type(st, col)) {
        case SQLITE_INTEGER:
            c->type = DBCHECK_INT;
            c->i = sqlite3_column_int64(st, col);
            break;
        case SQLITE_FLOAT:
            c->type = DBCHECK_REAL;
            c->r = sqlite3_column_double(st, col);
            break;
        case SQLITE_TEXT:
            c->type = DBCHECK_TEXT;
            c->t = (const char *)sqlite3_column_text(st, col);
            c->len = (size_t)sqlite3_column_bytes(st, col);
            if (!c->t) { /* out of memory */
                c->type = DBCHECK_NULL;
                c->len = 0;
            }
            break;
        case SQLITE_BLOB:
            c->type = DBCHECK_BLOB;
            c->len = (size_t)sqlite3_column_bytes(st, col);
            break;
        default:
            c->type = DBCHECK_NULL;
            break;
        }
    }
}

/* The tables must be tables (a view, even a recursive one, is refused)
 * and the schema must hold no view or trigger at all. */
static int db_check_objects(sqlite3 *h, const char *schema, const char *path, char *err,
                            size_t size)
{
    static const char *const tables[] = {"meta", "runs", "games", "effects"};
    char sql[256];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "SELECT type, name FROM \"%s\".sqlite_master", schema);
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
        if (sqlite3_errcode(h) == SQLITE_NOTADB)
            snprintf(err, size, "'%s' is not a tiers playout database (%s)", path,
                     sqlite3_errmsg(h));
        else
            snprintf(err, size, "cannot read database '%s': %s", path, sqlite3_errmsg(h));
        return -1;
    }
    int found = 0, rc, bad = 0;
    while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        type = type ? type : "?";
        name = name ? name : "?";
        int table = !strcmp(type, "table");
        for (int k = 0; k < 4; k++)
            if (!strcmp(name, tables[k]) && table)
                found |= 1 << k;
        if (strcmp(type, "table") && strcmp(type, "index")) {
            snprintf(err, size, "database '%s': holds the %s '%.64s' (a playout database has "
                     "tables and indexes only)", path, type, name);
            bad = 1;
        }
    }
    if (!bad && rc != SQLITE_DONE) {
        snprintf(err, size, "database '%s': %s", path, sqlite3_errmsg(h));
        bad = 1;
    }
    sqlite3_finalize(st);
    for (int k = 0; !bad && k < 4; k++)
        if (!(found & (1 << k))) {
            snprintf(err, size, "'%s' is not a tiers playout database (no table '%s')", path,
                     tables[k]);
            bad = 1;
        }
    return bad ? -1 : 0;
}

/* The schema version stored in meta (1..DB_SCHEMA_VERSION), or -1. */
static int db_check_version(sqlite3 *h, const char *schema, const char *path, char *err,
                            size_t size)
{
    char sql[128], why[256];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "SELECT value FROM \"%s\".meta WHERE key = 'schema'", schema);
    int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        if (rc == SQLITE_DONE)
            snprintf(err, size, "'%s' is not a tiers playout database (no schema version in "
                     "table meta)", path);
        else
            snprintf(err, size, "'%s' is not a tiers playout database (%s)", path,
                     sqlite3_errmsg(h));
        sqlite3_finalize(st);
        return -1;
    }
    struct dbcheck_cell cell;
    db_cells(st, 0, 1, &cell);
    int version = dbcheck_schema(&cell, DB_SCHEMA_VERSION, why, sizeof why);
    sqlite3_finalize(st);
    if (version < 0)
        snprintf(err, size, "database '%s': %s", path, why);
    return version;
}

/* "file:" URI of path (percent-encoded) opening it read-only; with
 * immutable=1 when its folder cannot be written (SQLite could not make
 * the lock and WAL index files there).  NULL when out of memory. */
static char *db_ro_uri(const char *path)
{
    size_t n = strlen(path);
    char *uri = malloc(3 * n + 64);
    if (!uri)
        return NULL;
    /* "file:///abs" or "file:rel": a path starting "//" is no host */
    char *o = uri + sprintf(uri, path[0] == '/' ? "file://" : "file:");
    for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
        if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
            strchr("/-._~", *s))
            *o++ = (char)*s;
        else
            o += sprintf(o, "%%%02X", *s);
    }
    char *dir = strdup(path);
    int writable = 1;
    if (dir) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            writable = access(".", W_OK) == 0;
        else {
            slash[slash == dir] = '\0';
            writable = access(dir, W_OK) == 0;
        }
        free(dir);
    }
    sprintf(o, "?mode=ro%s", writable ? "" : "&immutable=1");
    return uri;
}

static void db_msg(char *err, size_t size, const char *what, sqlite3 *h)
{
    snprintf(err, size, "%s: %s", what, h ? sqlite3_errmsg(h) : "out of memory");
}

/* FNV-1a, 64 bits. */
static uint64_t db_fnv(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    h ^= 0x1f; /* field separator */
    h *= 0x100000001b3ull;
    return h;
}

void db_run_key(struct db_run *run)
{
    char num[64];
    uint64_t h = 0xcbf29ce484222325ull;
    h = db_fnv(h, run->variant);
    h = db_fnv(h, run->hash);
    h = db_fnv(h, run->options);
    h = db_fnv(h, run->agent[0]);
    h = db_fnv(h, run->agent[1]);
    snprintf(num, sizeof num, "%llu/%d", (unsigned long long)run->seed, run->max_plies);
    h = db_fnv(h, num);
    h = db_fnv(h, TIERS_VERSION); /* agents may play differently in another version */
    snprintf(run->key, sizeof run->key, "%016llx", (unsigned long long)h);
}

static int db_exec(db *d, const char *sql, char *err, size_t size)
{
    char *msg = NULL;
    if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, size, "%s", msg ? msg : sqlite3_errmsg(d->h));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

db *db_open(const char *path, int create, char *err, size_t size)
{
    int foreign;
    return db_open_checked(path, create, &foreign, err, size);
}

db *db_open_checked(const char *path, int create, int *foreign, char *err, size_t size)
{
    return db_open_migrating(path, create, NULL, NULL, foreign, err, size);
}

/* The statements that store games (the schema-2 tables must exist). */
static int db_prepare(db *d)
{
    return sqlite3_prepare_v2(d->h,
                              "INSERT OR IGNORE INTO games VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                              "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
                              "?21, ?22, ?23, ?24, ?25, datetime('now'), ?26, ?27, ?28, ?29, "
                              "?30, ?31, ?32)",
                              -1, &d->put_game, NULL) != SQLITE_OK ||
                   sqlite3_prepare_v2(d->h,
                                      "INSERT OR IGNORE INTO effects VALUES(?1, ?2, ?3, ?4, "
                                      "?5, ?6)", -1, &d->put_effect, NULL) != SQLITE_OK ||
                   sqlite3_prepare_v2(d->h, "INSERT OR IGNORE INTO faces VALUES(?1, ?2, ?3, "
                                      "?4, ?5, ?6, ?7, ?8)", -1, &d->put_face, NULL) != SQLITE_OK
               ? -1
               : 0;
}

static int db_fill(db *d, const char *search, struct db_migration *m, char *err, size_t size);

db *db_open_migrating(const char *path, int create, const char *search,
                      struct db_migration *m, int *foreign, char *err, size_t size)
{
    struct db_migration ignored;
    if (!m)
        m = &ignored;
    memset(m, 0, sizeof *m);
    *foreign = 0;
    db *d = calloc(1, sizeof *d);
    if (!d || !(d->path = strdup(path))) {
        free(d);
        snprintf(err, size, "out of memory");
        return NULL;
    }
    /* a link at the database's name is not followed (it may be planted) */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &d->h, flags, NULL) != SQLITE_OK) {
        snprintf(err, size, "cannot open database '%s': %s", path,
                 d->h ? sqlite3_errmsg(d->h) : "out of memory");
        *foreign = d->h != NULL; /* no such folder, a link, ... */
        db_close(d);
        return NULL;
    }
    db_harden(d->h);
    sqlite3_busy_timeout(d->h, 60000);
    db_map(d->h);
    char e[512];
    if (db_exec(d, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", e, sizeof e) ||
        db_exec(d, "BEGIN IMMEDIATE", e, sizeof e) ||
        db_exec(d, db_schema_sql, e, sizeof e)) {
        snprintf(err, size, "database '%s': %s", path, e);
        /* a file that is no database at all */
        *foreign = sqlite3_errcode(d->h) == SQLITE_NOTADB;
        db_close(d);
        return NULL;
    }
    int bad = db_check_objects(d->h, "main", path, err, size);
    d->schema = bad ? -1 : db_check_version(d->h, "main", path, err, size);
    bad = bad || d->schema < 0;
    *foreign = bad;
    int old = d->schema == 1;
    if (!bad && old) {
        /* all in this one transaction: an interrupted migration leaves the
           schema-1 file as it was */
        if (db_exec(d, db_migrate_1, e, sizeof e)) {
            snprintf(err, size, "database '%s': migrating to schema 2: %s", path, e);
            bad = 1;
        }
        d->schema = 2;
        m->migrated = 1;
    }
    if (!bad && db_prepare(d)) {
        db_msg(err, size, path, d->h);
        bad = 1;
    }
    if (!bad && old) {
        int rc = db_fill(d, search, m, err, size);
        *foreign = rc == DB_BAD;
        bad = rc != 0;
    }
    if (db_exec(d, bad ? "ROLLBACK" : "COMMIT", e, sizeof e) && !bad) {
        snprintf(err, size, "database '%s': %s", path, e);
        bad = 1;
    }
    if (bad) {
        db_close(d);
        return NULL;
    }
    return d;
}

/* Opens the file at path read-only (never creating or changing it) and
 * checks that it is a playout database of this schema.  NULL with a
 * message in err. */
static sqlite3 *db_open_probe(const char *path, int *schema, char *err, size_t size)
{
    sqlite3 *h = NULL;
    char *uri = db_ro_uri(path);
    if (!uri) {
        snprintf(err, size, "out of memory");
        return NULL;
    }
    int rc = sqlite3_open_v2(uri, &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (rc != SQLITE_OK) {
        snprintf(err, size, "cannot open database '%s': %s", path,
                 h ? sqlite3_errmsg(h) : "out of memory");
        sqlite3_close(h);
        return NULL;
    }
    db_harden(h);
    if (db_check_objects(h, "main", path, err, size) ||
        (*schema = db_check_version(h, "main", path, err, size)) < 0) {
        sqlite3_close(h);
        return NULL;
    }
    return h;
}

db *db_open_read(const char *path, char *err, size_t size)
{
    db *d = calloc(1, sizeof *d);
    if (!d || !(d->path = strdup(path))) {
        free(d);
        snprintf(err, size, "out of memory");
        return NULL;
    }
    d->h = db_open_probe(path, &d->schema, err, size);
    if (!d->h) {
        db_close(d);
        return NULL;
    }
    sqlite3_busy_timeout(d->h, 60000);
    db_map(d->h);
    return d;
}

int db_checkpoint(db *d, char *err, size_t size)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(d->h, "PRAGMA wal_checkpoint(TRUNCATE)", -1, &st, NULL);
    int ok = rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
             sqlite3_column_int(st, 0) == 0 &&
             sqlite3_column_int(st, 1) == sqlite3_column_int(st, 2);
    if (!ok)
        snprintf(err, size, "database '%s': cannot complete the file: %s", d->path,
                 sqlite3_errmsg(d->h));
    sqlite3_finalize(st);
    return ok ? 0 : -1;
}

void db_close(db *d)
{
    if (!d)
        return;
    sqlite3_finalize(d->put_game);
    sqlite3_finalize(d->put_effect);
    sqlite3_finalize(d->put_face);
    sqlite3_close(d->h);
    free(d->path);
    free(d);
}

static void db_effect_list(const struct db_run *run, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < run->neffects && len + 1 < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "", run->effect[i]);
}

int db_put_run(db *d, const struct db_run *run, char *err, size_t size)
{
    sqlite3_stmt *st = NULL;
    char effects[GAME_MAX_EFFECTS * (DB_NAME + 1) + 1];
    db_effect_list(run, effects, sizeof effects);
    if (sqlite3_prepare_v2(d->h,
                           "INSERT OR IGNORE INTO runs VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                           "?9, ?10, ?11, ?12, datetime('now'))",
                           -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "storing the run", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, run->key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, run->variant, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, run->hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, run->options, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, run->agent[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, run->agent[1], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, run->side[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, run->side[1], -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 9, (sqlite3_int64)run->seed);
    sqlite3_bind_int(st, 10, run->max_plies);
    sqlite3_bind_text(st, 11, effects, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 12, TIERS_VERSION, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_msg(err, size, "storing the run", d->h);
        return -1;
    }
    return 0;
}

static void db_copy(char *dst, size_t size, const struct dbcheck_cell *c)
{
    snprintf(dst, size, "%.*s", (int)c->len, c->t);
}

static const char db_run_columns[] =
    "SELECT run, variant, variant_hash, options, agent0, agent1, side0, side1, seed, "
    "max_plies, effects, tiers_version, created, rowid FROM ";

#define DB_GAME_COLUMNS_1                                                            \
    "SELECT run, game, variant, variant_hash, options, agent0, agent1, seed, game_seed, " \
    "result, winner, reason, cut, plies, setup_plies, first_side, captures, drops, "     \
    "placements, stacks, legal_sum, legal_plies, seconds, moves, legal, finished, "
static const char db_game_columns[] =
    DB_GAME_COLUMNS_1 "coverage, repetition, lead_change, drama, decision_point, stability, "
                      "hook_ended, rowid ";
/* a schema-1 table: the figures it lacks are NULL */
static const char db_game_columns_1[] =
    DB_GAME_COLUMNS_1 "NULL, NULL, NULL, NULL, NULL, NULL, NULL, rowid ";

static const char *db_game_select(int schema)
{
    return schema >= 2 ? db_game_columns : db_game_columns_1;
}

static const char *db_effect_select(int schema)
{
    return schema >= 2 ? "SELECT run, game, name, count, prevented, ended, rowid FROM "
                       : "SELECT run, game, name, count, NULL, NULL, rowid FROM ";
}

/* The message for a row that failed its check. */
static void db_row_error(char *err, size_t size, const char *path, const char *table,
                         sqlite3_stmt *st, int rowid_col, const char *why)
{
    char game[64] = "";
    if (strcmp(table, "runs") && sqlite3_column_type(st, 1) == SQLITE_INTEGER)
        snprintf(game, sizeof game, " (game %lld)", (long long)sqlite3_column_int64(st, 1));
    snprintf(err, size, "database '%s', table %s, row %lld%s: %s", path, table,
             (long long)sqlite3_column_int64(st, rowid_col), game, why);
}

/* The run in the current row of a query on db_run_columns, checked.  0,
 * or -1 with err. */
static int db_run_row(sqlite3_stmt *st, const char *path, struct db_run *run, char *err,
                      size_t size)
{
    struct dbcheck_cell c[DBCHECK_RUN_COLUMNS];
    char why[512];
    db_cells(st, 0, DBCHECK_RUN_COLUMNS, c);
    if (dbcheck_run(c, why, sizeof why) != 0) {
        db_row_error(err, size, path, "runs", st, DBCHECK_RUN_COLUMNS, why);
        return -1;
    }
    memset(run, 0, sizeof *run);
    db_copy(run->key, sizeof run->key, &c[0]);
    db_copy(run->variant, sizeof run->variant, &c[1]);
    db_copy(run->hash, sizeof run->hash, &c[2]);
    db_copy(run->options, sizeof run->options, &c[3]);
    db_copy(run->agent[0], sizeof run->agent[0], &c[4]);
    db_copy(run->agent[1], sizeof run->agent[1], &c[5]);
    db_copy(run->side[0], sizeof run->side[0], &c[6]);
    db_copy(run->side[1], sizeof run->side[1], &c[7]);
    run->seed = (uint64_t)c[8].i;
    run->max_plies = (int)c[9].i;
    const char *e = c[10].t, *end = e + c[10].len; /* checked: names, ',' between */
    while (e < end && run->neffects < GAME_MAX_EFFECTS) {
        size_t n = strcspn(e, ",");
        snprintf(run->effect[run->neffects++], DB_NAME, "%.*s", (int)n, e);
        e += n + (e[n] == ',');
    }
    return 0;
}

int db_get_run(db *d, const char *key, struct db_run *run, char *err, size_t size)
{
    sqlite3_stmt *st = NULL;
    char sql[sizeof db_run_columns + 32];
    snprintf(sql, sizeof sql, "%sruns WHERE run = ?1", db_run_columns);
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading the run", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), bad = 0;
    if (rc == SQLITE_ROW)
        bad = db_run_row(st, d->path, run, err, size);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return bad ? DB_BAD : 0;
    if (rc == SQLITE_DONE)
        return 1;
    db_msg(err, size, "reading the run", d->h);
    return -1;
}

int db_runs(db *d, int (*fn)(const struct db_run *run, void *ud), void *ud, char *err,
            size_t size)
{
    sqlite3_stmt *st = NULL;
    char sql[sizeof db_run_columns + 32];
    snprintf(sql, sizeof sql, "%sruns ORDER BY variant, run", db_run_columns);
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading the runs", d->h);
        return -1;
    }
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct db_run run;
        if (db_run_row(st, d->path, &run, err, size) != 0) {
            sqlite3_finalize(st);
            return DB_BAD;
        }
        stop = fn(&run, ud);
    }
    if (!stop && rc != SQLITE_DONE)
        db_msg(err, size, "reading the runs", d->h);
    sqlite3_finalize(st);
    return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}

int64_t db_done(db *d, const char *run, int64_t limit, uint8_t *done, char *err, size_t size)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(d->h, "SELECT game, rowid FROM games WHERE run = ?1 AND game < ?2",
                           -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading the games played", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, limit);
    int64_t found = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 0) != SQLITE_INTEGER) {
            db_row_error(err, size, d->path, "games", st, 1,
                         "column game: not an integer");
            sqlite3_finalize(st);
            return DB_BAD;
        }
        int64_t i = sqlite3_column_int64(st, 0);
        if (i >= 0 && i < limit && !done[i]) {
            done[i] = 1;
            found++;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_msg(err, size, "reading the games played", d->h);
        return -1;
    }
    return found;
}

int db_begin(db *d, char *err, size_t size)
{
    char e[512];
    if (db_exec(d, "BEGIN IMMEDIATE", e, sizeof e)) {
        snprintf(err, size, "storing games: %s", e);
        return -1;
    }
    return 0;
}

int db_commit(db *d, int ok, char *err, size_t size)
{
    char e[512];
    if (!ok) {
        db_exec(d, "ROLLBACK", e, sizeof e);
        return -1;
    }
    if (db_exec(d, "COMMIT", e, sizeof e)) {
        snprintf(err, size, "storing games: %s", e);
        db_exec(d, "ROLLBACK", e, sizeof e);
        return -1;
    }
    return 0;
}

static void db_bind_figures(sqlite3_stmt *st, int first, const struct game_record *g);
static int db_add_counts(db *d, sqlite3_stmt *fx, const struct db_run *run,
                         const struct game_record *g);

int db_add_game(db *d, const struct db_run *run, const struct game_record *g, char *err,
                size_t size)
{
    char seed[24];
    snprintf(seed, sizeof seed, "%016llx", (unsigned long long)g->seed);
    sqlite3_stmt *st = d->put_game;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    int winner = g->result == TIERS_WIN_0 ? 0 : g->result == TIERS_WIN_1 ? 1 : -1;
    sqlite3_bind_text(st, 1, run->key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, g->index);
    sqlite3_bind_text(st, 3, run->variant, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, run->hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, run->options, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, run->agent[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, run->agent[1], -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)run->seed);
    sqlite3_bind_text(st, 9, seed, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, game_result_text(g->result), -1, SQLITE_STATIC);
    if (winner >= 0)
        sqlite3_bind_int(st, 11, winner);
    else
        sqlite3_bind_null(st, 11);
    sqlite3_bind_text(st, 12, g->reason, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 13, g->cut);
    sqlite3_bind_int(st, 14, g->plies);
    sqlite3_bind_int(st, 15, g->setup_plies);
    if (g->first_side >= 0)
        sqlite3_bind_int(st, 16, g->first_side);
    else
        sqlite3_bind_null(st, 16);
    sqlite3_bind_int(st, 17, g->captures);
    sqlite3_bind_int(st, 18, g->drops);
    sqlite3_bind_int(st, 19, g->placements);
    sqlite3_bind_int(st, 20, g->stacks);
    sqlite3_bind_int64(st, 21, g->legal_sum);
    sqlite3_bind_int(st, 22, g->legal_plies);
    sqlite3_bind_double(st, 23, g->seconds);
    sqlite3_bind_text(st, 24, g->moves, (int)g->moves_len, SQLITE_STATIC);
    sqlite3_bind_text(st, 25, g->legal, (int)g->legal_len, SQLITE_STATIC);
    db_bind_figures(st, 26, g);
    int ok = sqlite3_step(st) == SQLITE_DONE && db_add_counts(d, d->put_effect, run, g) == 0;
    if (!ok) {
        db_msg(err, size, "storing a game", d->h);
        return -1;
    }
    return 0;
}

/* Binds g's positional figures and hook_ended to ?first .. ?first+6 (a
 * figure < 0, undefined, stays NULL). */
static void db_bind_figures(sqlite3_stmt *st, int first, const struct game_record *g)
{
    const double fig[] = {g->coverage, g->repetition, g->lead_change, g->drama,
                          g->decision_point, g->stability};
    for (int k = 0; k < 6; k++)
        if (fig[k] >= 0)
            sqlite3_bind_double(st, first + k, fig[k]);
    sqlite3_bind_int(st, first + 6, g->hook_ended);
}

/* Stores g's effect rows (with fx: an insert of run, game, name, count,
 * prevented, ended) and its face rows.  0, or -1. */
static int db_add_counts(db *d, sqlite3_stmt *fx, const struct db_run *run,
                         const struct game_record *g)
{
    int ok = 1;
    for (int i = 0; ok && i < run->neffects && i < g->neffects; i++) {
        sqlite3_reset(fx);
        sqlite3_bind_text(fx, 1, run->key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(fx, 2, g->index);
        sqlite3_bind_text(fx, 3, run->effect[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(fx, 4, g->effects[i]);
        sqlite3_bind_int64(fx, 5, g->prevented[i]);
        sqlite3_bind_int64(fx, 6, g->ended[i]);
        ok = sqlite3_step(fx) == SQLITE_DONE;
    }
    for (int i = 0; ok && i < run->nfaces && i < g->nfaces; i++) {
        const struct game_face *f = &g->face[i];
        if (!f->moves && !f->captured)
            continue;
        sqlite3_stmt *fc = d->put_face;
        sqlite3_reset(fc);
        sqlite3_bind_text(fc, 1, run->key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(fc, 2, g->index);
        sqlite3_bind_text(fc, 3, run->face[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(fc, 4, f->moves);
        sqlite3_bind_int64(fc, 5, f->captures);
        sqlite3_bind_int64(fc, 6, f->captured);
        sqlite3_bind_int64(fc, 7, f->drops);
        sqlite3_bind_int64(fc, 8, f->mates);
        ok = sqlite3_step(fc) == SQLITE_DONE;
    }
    return ok ? 0 : -1;
}

int db_put_game(db *d, const struct db_run *run, const struct game_record *g, char *err,
                size_t size)
{
    if (db_begin(d, err, size) != 0)
        return -1;
    int ok = db_add_game(d, run, g, err, size) == 0;
    return db_commit(d, ok, err, size);
}

static int64_t db_count(db *d, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t n = -1;
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

/* Runs sql (a query of each row of a table of the attached source) and
 * checks every row it returns with check (which sets err).  0 or -1. */
static int db_check_rows(db *d, const char *sql, const char *src,
                         int (*check)(sqlite3_stmt *st, const char *src, char *err,
                                      size_t size),
                         char *err, size_t size)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, size, "database '%s': %s", src, sqlite3_errmsg(d->h));
        return -1;
    }
    int rc, bad = 0;
    while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW)
        bad = check(st, src, err, size);
    if (!bad && rc != SQLITE_DONE) {
        snprintf(err, size, "database '%s': %s", src, sqlite3_errmsg(d->h));
        bad = 1;
    }
    sqlite3_finalize(st);
    return bad ? -1 : 0;
}

static int db_check_run_row(sqlite3_stmt *st, const char *src, char *err, size_t size)
{
    struct db_run run;
    return db_run_row(st, src, &run, err, size);
}

/* A game row with, after its rowid, the max_plies of its run (NULL when
 * the run is not in table runs). */
static int db_check_game_row(sqlite3_stmt *st, const char *src, char *err, size_t size)
{
    struct dbcheck_cell c[DBCHECK_GAME_COLUMNS];
    char why[512];
    if (sqlite3_column_type(st, DBCHECK_GAME_COLUMNS + 1) != SQLITE_INTEGER) { /* no run */
        db_row_error(err, size, src, "games", st, DBCHECK_GAME_COLUMNS,
                     "column run: not a run of table runs");
        return -1;
    }
    int max_plies = sqlite3_column_int(st, DBCHECK_GAME_COLUMNS + 1);
    db_cells(st, 0, DBCHECK_GAME_COLUMNS, c);
    if (dbcheck_game(c, max_plies, why, sizeof why) != 0) {
        db_row_error(err, size, src, "games", st, DBCHECK_GAME_COLUMNS, why);
        return -1;
    }
    return 0;
}

static int db_check_effect_row(sqlite3_stmt *st, const char *src, char *err, size_t size)
{
    struct dbcheck_cell c[DBCHECK_EFFECT_COLUMNS];
    char why[512];
    db_cells(st, 0, DBCHECK_EFFECT_COLUMNS, c);
    if (dbcheck_effect(c, why, sizeof why) != 0) {
        db_row_error(err, size, src, "effects", st, DBCHECK_EFFECT_COLUMNS, why);
        return -1;
    }
    return 0;
}

/* Checks every row of the attached source before anything is copied
 * (inside the merge's transaction, so the rows cannot change between
 * the check and the copy). */
static int db_check_face_row(sqlite3_stmt *st, const char *src, char *err, size_t size)
{
    struct dbcheck_cell c[DBCHECK_FACE_COLUMNS];
    char why[512];
    db_cells(st, 0, DBCHECK_FACE_COLUMNS, c);
    if (dbcheck_face(c, why, sizeof why) != 0) {
        db_row_error(err, size, src, "faces", st, DBCHECK_FACE_COLUMNS, why);
        return -1;
    }
    return 0;
}

static int db_check_source(db *d, const char *src, int *schema, char *err, size_t size)
{
    char games[sizeof db_game_columns + 128], effects[128];
    if (db_check_objects(d->h, "src", src, err, size) ||
        (*schema = db_check_version(d->h, "src", src, err, size)) < 0)
        return -1;
    snprintf(games, sizeof games,
             "%s, (SELECT max_plies FROM src.runs r WHERE r.run = g.run) FROM src.games g",
             db_game_select(*schema));
    snprintf(effects, sizeof effects, "%ssrc.effects", db_effect_select(*schema));
    char runs[sizeof db_run_columns + 16];
    snprintf(runs, sizeof runs, "%ssrc.runs", db_run_columns);
    return db_check_rows(d, runs, src, db_check_run_row, err, size) ||
                   db_check_rows(d, games, src, db_check_game_row, err, size) ||
                   db_check_rows(d, effects, src, db_check_effect_row, err, size) ||
                   (*schema >= 2 &&
                    db_check_rows(d, "SELECT run, game, face, moves, captures, captured, "
                                     "drops, mates, rowid FROM src.faces",
                                  src, db_check_face_row, err, size))
               ? -1
               : 0;
}

/* Whether the files at a and b are one file (links followed). */
static int db_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

#define DB_RUN_LIST                                                                  \
    "run, variant, variant_hash, options, agent0, agent1, side0, side1, seed, max_plies, " \
    "effects, tiers_version, created"

static const char db_game_list[] =
    "run, game, variant, variant_hash, options, agent0, agent1, seed, game_seed, result, "
    "winner, reason, cut, plies, setup_plies, first_side, captures, drops, placements, "
    "stacks, legal_sum, legal_plies, seconds, moves, legal, finished";
static const char db_game_list_2[] =
    ", coverage, repetition, lead_change, drama, decision_point, stability, hook_ended";

int db_merge(db *d, const char *src, int64_t *added, int64_t *skipped, int64_t *differ,
             char *err, size_t size)
{
    char e[512] = "cannot count the games";
    sqlite3_stmt *st = NULL;
    *added = *skipped = *differ = 0;
    if (db_same_file(src, d->path)) {
        snprintf(err, size, "'%s' is the output database '%s' itself", src, d->path);
        return DB_BAD;
    }
    /* the source must be a playout database: open it on its own first
       (read-only) so a missing or foreign file gets a clear message */
    int schema = 0;
    sqlite3 *probe = db_open_probe(src, &schema, err, size);
    if (!probe)
        return DB_BAD;
    sqlite3_close(probe);
    char *uri = db_ro_uri(src);
    if (!uri || sqlite3_prepare_v2(d->h, "ATTACH DATABASE ?1 AS src", -1, &st, NULL) !=
                    SQLITE_OK) {
        free(uri);
        db_msg(err, size, "merge", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    free(uri);
    if (rc != SQLITE_DONE) {
        snprintf(err, size, "cannot attach '%s': %s", src, sqlite3_errmsg(d->h));
        return DB_BAD;
    }
    int fail = db_exec(d, "BEGIN IMMEDIATE", e, sizeof e), checked = 0;
    if (!fail) {
        checked = fail = db_check_source(d, src, &schema, err, size);
    }
    int64_t total = 0;
    if (!fail) {
        total = db_count(d, "SELECT count(*) FROM src.games");
        *differ = db_count(d, "SELECT count(*) FROM src.games s JOIN main.games g "
                              "ON s.run = g.run AND s.game = g.game WHERE s.moves <> g.moves");
        fail = total < 0 || *differ < 0 ||
               db_exec(d, "INSERT OR IGNORE INTO main.runs(" DB_RUN_LIST ") SELECT " DB_RUN_LIST
                       " FROM src.runs", e, sizeof e);
    }
    if (!fail) { /* a schema-1 source leaves the schema-2 columns NULL */
        char sql[2 * sizeof db_game_list + 2 * sizeof db_game_list_2 + 64];
        const char *more = schema >= 2 ? db_game_list_2 : "";
        snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO main.games(%s%s) SELECT %s%s FROM "
                 "src.games", db_game_list, more, db_game_list, more);
        fail = db_exec(d, sql, e, sizeof e);
        *added = sqlite3_changes(d->h);
    }
    if (!fail)
        fail = db_exec(d, schema >= 2
                              ? "INSERT OR IGNORE INTO main.effects(run, game, name, count, "
                                "prevented, ended) SELECT run, game, name, count, prevented, "
                                "ended FROM src.effects"
                              : "INSERT OR IGNORE INTO main.effects(run, game, name, count) "
                                "SELECT run, game, name, count FROM src.effects",
                       e, sizeof e) ||
               (schema >= 2 &&
                db_exec(d, "INSERT OR IGNORE INTO main.faces SELECT run, game, face, moves, "
                           "captures, captured, drops, mates FROM src.faces", e, sizeof e)) ||
               db_exec(d, "COMMIT", e, sizeof e);
    if (fail) {
        if (!checked)
            snprintf(err, size, "merging '%s': %s", src, e);
        db_exec(d, "ROLLBACK", e, sizeof e);
    }
    db_exec(d, "DETACH DATABASE src", e, sizeof e);
    *skipped = total - *added;
    return !fail ? 0 : checked ? DB_BAD : -1;
}

/* The game in the current row of a query on db_game_columns, checked
 * against the run; fills g and/or r (either may be NULL).  0, or -1 with
 * err. */
static int db_game_row(db *d, sqlite3_stmt *st, const struct db_run *run,
                       struct db_game *g, struct db_record *r, char *err, size_t size)
{
    struct dbcheck_cell c[DBCHECK_GAME_COLUMNS];
    char why[512];
    db_cells(st, 0, DBCHECK_GAME_COLUMNS, c);
    if (dbcheck_game(c, run->max_plies, why, sizeof why) != 0) {
        db_row_error(err, size, d->path, "games", st, DBCHECK_GAME_COLUMNS, why);
        return DB_BAD;
    }
    /* the result is checked: one of 1-0, 0-1, 1/2-1/2, * */
    int draw = c[9].len == 7, unfinished = c[9].t[0] == '*';
    if (g) {
        memset(g, 0, sizeof *g);
        g->index = c[1].i;
        g->winner = c[10].type == DBCHECK_NULL ? -1 : (int)c[10].i;
        g->cut = (int)c[12].i;
        g->draw = draw;
        g->replayed = !g->cut && unfinished;
        g->plies = (int)c[13].i;
        g->setup_plies = (int)c[14].i;
        g->first_side = c[15].type == DBCHECK_NULL ? -1 : (int)c[15].i;
        g->captures = (int)c[16].i;
        g->drops = (int)c[17].i;
        g->placements = (int)c[18].i;
        g->stacks = (int)c[19].i;
        g->legal_sum = c[20].i;
        g->legal_plies = (int)c[21].i;
        g->seconds = c[22].type == DBCHECK_INT ? (double)c[22].i : c[22].r;
        g->legal = c[24].t;
        g->moves = c[23].t;
        g->reason = c[11].t;
        double *fig[] = {&g->coverage, &g->repetition, &g->lead_change, &g->drama,
                         &g->decision_point, &g->stability};
        for (int k = 0; k < 6; k++) /* checked: NULL or a number in [0, 1] */
            *fig[k] = c[26 + k].type == DBCHECK_NULL ? -1
                      : c[26 + k].type == DBCHECK_INT ? (double)c[26 + k].i : c[26 + k].r;
        g->hook_ended = c[32].type == DBCHECK_NULL ? -1 : (int)c[32].i;
    }
    if (r) {
        r->index = c[1].i;
        r->game_seed = c[8].t;
        r->result = c[9].t;
        r->reason = c[11].t;
        r->cut = (int)c[12].i;
        r->plies = (int)c[13].i;
        r->moves = c[23].t;
        r->finished = c[25].t;
    }
    return 0;
}

/* The effect counts of game g, in the run's order; 0 or -1 with err. */
static int db_game_effects(db *d, sqlite3_stmt *fx, const struct db_run *run,
                           struct db_game *g, char *err, size_t size)
{
    sqlite3_reset(fx);
    sqlite3_bind_int64(fx, 2, g->index);
    g->neffects = run->neffects;
    g->kinds = 0;
    int rc;
    while ((rc = sqlite3_step(fx)) == SQLITE_ROW) {
        struct dbcheck_cell c[DBCHECK_EFFECT_COLUMNS];
        char why[512];
        db_cells(fx, 0, DBCHECK_EFFECT_COLUMNS, c);
        if (dbcheck_effect(c, why, sizeof why) != 0) {
            db_row_error(err, size, d->path, "effects", fx, DBCHECK_EFFECT_COLUMNS, why);
            return DB_BAD;
        }
        for (int i = 0; i < run->neffects; i++)
            if (c[2].len == strlen(run->effect[i]) &&
                !memcmp(c[2].t, run->effect[i], c[2].len)) {
                g->effects[i] = (uint32_t)c[3].i;
                g->prevented[i] = c[4].type == DBCHECK_NULL ? 0 : (uint32_t)c[4].i;
                g->ended[i] = c[5].type == DBCHECK_NULL ? 0 : (uint32_t)c[5].i;
                g->kinds |= c[4].type != DBCHECK_NULL;
            }
    }
    if (rc != SQLITE_DONE) {
        db_msg(err, size, "reading effects", d->h);
        return -1;
    }
    return 0;
}

int db_games(db *d, const struct db_run *run, int64_t limit,
             int (*fn)(const struct db_game *g, void *ud), void *ud, char *err, size_t size)
{
    sqlite3_stmt *st = NULL, *fx = NULL;
    char sql[sizeof db_game_columns + 96], fxsql[160];
    snprintf(sql, sizeof sql, "%sFROM games WHERE run = ?1 AND game < ?2 ORDER BY game",
             db_game_select(d->schema));
    snprintf(fxsql, sizeof fxsql, "%seffects WHERE run = ?1 AND game = ?2",
             db_effect_select(d->schema));
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->h, fxsql, -1, &fx, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading games", d->h);
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_bind_text(st, 1, run->key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, limit);
    sqlite3_bind_text(fx, 1, run->key, -1, SQLITE_STATIC);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct db_game g;
        int bad = db_game_row(d, st, run, &g, NULL, err, size);
        if (!bad)
            bad = db_game_effects(d, fx, run, &g, err, size);
        if (bad) {
            stop = bad;
            break;
        }
        stop = fn(&g, ud);
    }
    sqlite3_finalize(st);
    sqlite3_finalize(fx);
    if (stop)
        return stop;
    if (rc != SQLITE_DONE) {
        db_msg(err, size, "reading games", d->h);
        return -1;
    }
    return 0;
}

int db_records(db *d, const struct db_run *run, int64_t limit, int shard_k, int shard_n,
               int (*fn)(const struct db_record *g, void *ud), void *ud, char *err,
               size_t size)
{
    sqlite3_stmt *st = NULL;
    char sql[sizeof db_game_columns + 128];
    snprintf(sql, sizeof sql, "%sFROM games WHERE run = ?1 AND game < ?2 AND "
             "game %% ?3 = ?4 ORDER BY game", db_game_select(d->schema));
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading games", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, run->key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, limit);
    sqlite3_bind_int(st, 3, shard_n);
    sqlite3_bind_int(st, 4, shard_k - 1);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct db_record g;
        if (db_game_row(d, st, run, NULL, &g, err, size) != 0) {
            sqlite3_finalize(st);
            return DB_BAD;
        }
        stop = fn(&g, ud);
    }
    if (!stop && rc != SQLITE_DONE)
        db_msg(err, size, "reading games", d->h);
    sqlite3_finalize(st);
    return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}

int db_schema(const db *d) { return d->schema; }

int db_faces(db *d, const struct db_run *run, int64_t limit, struct db_face *out, int cap,
             int *n, char *err, size_t size)
{
    *n = 0;
    if (d->schema < 2) {
        *n = -1;
        return 0;
    }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(d->h, "SELECT run, game, face, moves, captures, captured, drops, "
                                 "mates, rowid FROM faces WHERE run = ?1 AND game < ?2 "
                                 "ORDER BY game, rowid",
                           -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading faces", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, run->key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, limit);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct dbcheck_cell c[DBCHECK_FACE_COLUMNS];
        char why[512];
        db_cells(st, 0, DBCHECK_FACE_COLUMNS, c);
        if (dbcheck_face(c, why, sizeof why) != 0) {
            db_row_error(err, size, d->path, "faces", st, DBCHECK_FACE_COLUMNS, why);
            sqlite3_finalize(st);
            return DB_BAD;
        }
        int k = 0;
        while (k < *n && (strlen(out[k].name) != c[2].len || memcmp(out[k].name, c[2].t, c[2].len)))
            k++;
        if (k == *n) {
            if (*n == cap)
                continue; /* more faces than a variant has: ignored */
            memset(&out[k], 0, sizeof out[k]);
            db_copy(out[k].name, sizeof out[k].name, &c[2]);
            (*n)++;
        }
        out[k].moves += (uint64_t)c[3].i;
        out[k].captures += (uint64_t)c[4].i;
        out[k].captured += (uint64_t)c[5].i;
        out[k].drops += (uint64_t)c[6].i;
        out[k].mates += (uint64_t)c[7].i;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_msg(err, size, "reading faces", d->h);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------- migrating a schema-1 file
 * Every game of a schema-1 file is replayed once, through the game loop's
 * own ply code (game_replay), to fill the columns and rows schema 2 adds.
 * A game that cannot be replayed keeps NULL (figures unknown). */

struct db_filler {
    db *d;
    const char *search;
    struct db_migration *m;
    sqlite3_stmt *next, *update, *effect;
    char *err;
    size_t size;
};

/* Counts a game left unknown for reason `why`, keeping the first detail. */
static void db_unknown(struct db_migration *m, int why, const char *detail)
{
    m->unknown[why]++;
    if (!m->detail[why][0])
        snprintf(m->detail[why], sizeof m->detail[why], "%s", detail);
}

/* The replayed game w->g against the stored row at f->next: the same
 * moves, result, reason, cut and plies. */
static int db_fill_same(sqlite3_stmt *st, const struct game_record *g)
{
    const char *moves = (const char *)sqlite3_column_text(st, 2);
    const char *result = (const char *)sqlite3_column_text(st, 3);
    const char *reason = (const char *)sqlite3_column_text(st, 4);
    return moves && result && reason && !strcmp(moves, g->moves) &&
           !strcmp(result, game_result_text(g->result)) && !strcmp(reason, g->reason) &&
           sqlite3_column_int(st, 5) == g->cut && sqlite3_column_int(st, 6) == g->plies;
}

/* Replays the game in the current row of f->next and stores its figures;
 * a game that does not replay is counted unknown.  0, or -1 with err. */
static int db_fill_game(struct db_filler *f, struct game_worker *w, struct db_run *run)
{
    sqlite3_stmt *st = f->next;
    int64_t index = sqlite3_column_int64(st, 0);
    const char *hex = (const char *)sqlite3_column_text(st, 1);
    const char *moves = (const char *)sqlite3_column_text(st, 2);
    char *end = NULL;
    uint64_t seed = hex ? strtoull(hex, &end, 16) : 0;
    /* the row's text stays valid until the next step: no copy */
    int rc = moves && end && !*end ? game_replay(w, index, seed, moves) : TIERS_EINPUT;
    if (rc == TIERS_ENOMEM) {
        snprintf(f->err, f->size, "out of memory");
        return -1;
    }
    if (rc < 0 || !db_fill_same(st, &w->g)) {
        char detail[160];
        snprintf(detail, sizeof detail, "%s game %lld", run->variant, (long long)index);
        db_unknown(f->m, DB_UNKNOWN_REPLAY, detail);
        return 0;
    }
    sqlite3_stmt *up = f->update;
    sqlite3_reset(up);
    sqlite3_clear_bindings(up);
    sqlite3_bind_text(up, 1, run->key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(up, 2, index);
    db_bind_figures(up, 3, &w->g);
    if (sqlite3_step(up) != SQLITE_DONE || db_add_counts(f->d, f->effect, run, &w->g) != 0) {
        db_msg(f->err, f->size, "migrating a game", f->d->h);
        return -1;
    }
    f->m->filled++;
    return 0;
}

/* The worker for a stored run: its variant loaded by name with its
 * options, checked against the stored content hash.  0, or 1 + the
 * reason (DB_UNKNOWN_*) its games stay unknown, with a detail. */
static int db_fill_worker(struct db_filler *f, struct game_worker *w, struct db_run *run,
                          char *detail, size_t size)
{
    char opts[sizeof run->options];
    const char *rules[64 + 1];
    snprintf(opts, sizeof opts, "%s", run->options);
    if (gamerec_options_split(opts, rules, 64) < 0) {
        snprintf(detail, size, "%s: too many options", run->variant);
        return 1 + DB_UNKNOWN_VARIANT;
    }
    struct game_config cfg = {.variant = run->variant, .search = f->search, .rules = rules,
                              .seed = run->seed, .max_plies = run->max_plies};
    tiers_error e;
    memset(&e, 0, sizeof e);
    if (game_worker_init(w, &cfg, &e) != 0) {
        snprintf(detail, size, "%s", e.msg);
        return 1 + DB_UNKNOWN_VARIANT;
    }
    if (strcmp(tiers_variant_hash(w->v), run->hash)) {
        snprintf(detail, size, "%s: hash %s now, %s when played", run->variant,
                 tiers_variant_hash(w->v), run->hash);
        game_worker_free(w);
        return 1 + DB_UNKNOWN_CHANGED;
    }
    run->nfaces = w->g.nfaces;
    for (int i = 0; i < run->nfaces; i++)
        snprintf(run->face[i], sizeof run->face[i], "%s", tiers_variant_face_name(w->v, i));
    return 0;
}

/* db_runs' callback: replays every game of one run, one row at a time
 * (the next game after the last, so no read is open while writing). */
static int db_fill_run(const struct db_run *stored, void *ud)
{
    struct db_filler *f = ud;
    struct db_run run = *stored;
    struct game_worker w;
    char detail[sizeof f->m->detail[0]];
    memset(&w, 0, sizeof w);
    int why = db_fill_worker(f, &w, &run, detail, sizeof detail);
    int64_t last = -1;
    int rc = 0;
    for (;;) {
        sqlite3_reset(f->next);
        sqlite3_bind_text(f->next, 1, run.key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(f->next, 2, last);
        int step = sqlite3_step(f->next);
        if (step != SQLITE_ROW) {
            if (step != SQLITE_DONE) {
                db_msg(f->err, f->size, "migrating", f->d->h);
                rc = -1;
            }
            break;
        }
        if (sqlite3_column_type(f->next, 0) != SQLITE_INTEGER) {
            db_row_error(f->err, f->size, f->d->path, "games", f->next, 7,
                         "column game: not an integer");
            rc = DB_BAD;
            break;
        }
        last = sqlite3_column_int64(f->next, 0);
        f->m->games++;
        if (why)
            db_unknown(f->m, why - 1, detail);
        else if ((rc = db_fill_game(f, &w, &run)) != 0)
            break;
    }
    sqlite3_reset(f->next);
    if (!why)
        game_worker_free(&w);
    return rc;
}

static int db_fill(db *d, const char *search, struct db_migration *m, char *err, size_t size)
{
    struct db_filler f = {.d = d, .search = search, .m = m, .err = err, .size = size};
    int rc = -1;
    if (sqlite3_prepare_v2(d->h, "SELECT game, game_seed, moves, result, reason, cut, plies, "
                                 "rowid FROM games WHERE run = ?1 AND game > ?2 ORDER BY game "
                                 "LIMIT 1", -1, &f.next, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(d->h, "UPDATE games SET coverage = ?3, repetition = ?4, "
                                 "lead_change = ?5, drama = ?6, decision_point = ?7, "
                                 "stability = ?8, hook_ended = ?9 WHERE run = ?1 AND game = ?2",
                           -1, &f.update, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(d->h, "INSERT OR REPLACE INTO effects(run, game, name, count, "
                                 "prevented, ended) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
                           -1, &f.effect, NULL) == SQLITE_OK)
        rc = db_runs(d, db_fill_run, &f, err, size);
    else
        db_msg(err, size, "migrating", d->h);
    sqlite3_finalize(f.next);
    sqlite3_finalize(f.update);
    sqlite3_finalize(f.effect);
    return rc;
}

void db_migration_summary(const struct db_migration *m, const char *path, char *buf,
                          size_t size)
{
    static const char *const why[DB_UNKNOWN_KINDS] = {
        "variant not loaded", "variant changed since (content hash differs)",
        "moves no longer replay"};
    int64_t unknown = 0;
    for (int k = 0; k < DB_UNKNOWN_KINDS; k++)
        unknown += m->unknown[k];
    size_t len = (size_t)snprintf(buf, size, "migrated '%s' to schema 2: %lld of %lld games "
                                  "replayed", path, (long long)m->filled, (long long)m->games);
    if (unknown && len < size)
        len += (size_t)snprintf(buf + len, size - len, "; %lld left unknown (",
                                (long long)unknown);
    for (int k = 0, first = 1; unknown && k < DB_UNKNOWN_KINDS && len < size; k++)
        if (m->unknown[k]) {
            len += (size_t)snprintf(buf + len, size - len, "%s%lld %s: %s", first ? "" : "; ",
                                    (long long)m->unknown[k], why[k], m->detail[k]);
            first = 0;
        }
    if (unknown && len < size)
        snprintf(buf + len, size - len, ")");
}
