/* db.c - the playout database over SQLite.
 *
 * WAL journal with synchronous=NORMAL: a committed game survives the
 * process being killed (kill -9 loses only the games in flight); each game
 * is one transaction.  Several processes may write one file (SQLite locks
 * it; writers wait up to a minute), though shards usually write a file
 * each and `tiers merge` joins them. */
#include "db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

enum { DB_SCHEMA_VERSION = 1 };

static const char db_schema[] =
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
    "  PRIMARY KEY(run, game));\n"
    "CREATE TABLE IF NOT EXISTS effects(\n"
    "  run TEXT NOT NULL, game INTEGER NOT NULL, name TEXT NOT NULL,\n"
    "  count INTEGER NOT NULL,\n"
    "  PRIMARY KEY(run, game, name));\n"
    "INSERT OR IGNORE INTO meta VALUES('schema', '1');\n";

struct db {
    sqlite3 *h;
    sqlite3_stmt *put_game, *put_effect;
};

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
    db *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, size, "out of memory");
        return NULL;
    }
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &d->h, flags, NULL) != SQLITE_OK) {
        snprintf(err, size, "cannot open database '%s': %s", path,
                 d->h ? sqlite3_errmsg(d->h) : "out of memory");
        db_close(d);
        return NULL;
    }
    sqlite3_busy_timeout(d->h, 60000);
    char e[512];
    sqlite3_stmt *st = NULL;
    int version = -1;
    if (db_exec(d, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", e, sizeof e) ||
        db_exec(d, "BEGIN IMMEDIATE", e, sizeof e) ||
        db_exec(d, db_schema, e, sizeof e)) {
        snprintf(err, size, "database '%s': %s", path, e);
        db_close(d);
        return NULL;
    }
    if (sqlite3_prepare_v2(d->h, "SELECT value FROM meta WHERE key = 'schema'", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = atoi((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (db_exec(d, "COMMIT", e, sizeof e)) {
        snprintf(err, size, "database '%s': %s", path, e);
        db_close(d);
        return NULL;
    }
    if (version != DB_SCHEMA_VERSION) {
        snprintf(err, size, "database '%s': schema version %d, expected %d", path, version,
                 DB_SCHEMA_VERSION);
        db_close(d);
        return NULL;
    }
    if (sqlite3_prepare_v2(d->h,
                           "INSERT OR IGNORE INTO games VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                           "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
                           "?21, ?22, ?23, ?24, ?25, datetime('now'))",
                           -1, &d->put_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->h, "INSERT OR IGNORE INTO effects VALUES(?1, ?2, ?3, ?4)", -1,
                           &d->put_effect, NULL) != SQLITE_OK) {
        db_msg(err, size, path, d->h);
        db_close(d);
        return NULL;
    }
    return d;
}

/* Opens the file at path read-only and checks that it is a playout
 * database of this schema.  NULL with a message in err. */
static sqlite3 *db_open_probe(const char *path, char *err, size_t size)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    int version = -1;
    int opened = sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK;
    if (opened &&
        sqlite3_prepare_v2(h, "SELECT value FROM meta WHERE key = 'schema'", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = atoi((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (version == DB_SCHEMA_VERSION)
        return h;
    if (!opened)
        snprintf(err, size, "cannot open database '%s': %s", path,
                 h ? sqlite3_errmsg(h) : "out of memory");
    else if (version < 0)
        snprintf(err, size, "'%s' is not a tiers playout database (%s)", path,
                 h ? sqlite3_errmsg(h) : "out of memory");
    else
        snprintf(err, size, "'%s': schema version %d, expected %d", path, version,
                 DB_SCHEMA_VERSION);
    sqlite3_close(h);
    return NULL;
}

db *db_open_read(const char *path, char *err, size_t size)
{
    db *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, size, "out of memory");
        return NULL;
    }
    d->h = db_open_probe(path, err, size);
    if (!d->h) {
        free(d);
        return NULL;
    }
    sqlite3_busy_timeout(d->h, 60000);
    return d;
}

void db_close(db *d)
{
    if (!d)
        return;
    sqlite3_finalize(d->put_game);
    sqlite3_finalize(d->put_effect);
    sqlite3_close(d->h);
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

static void db_copy(char *dst, size_t size, const unsigned char *src)
{
    snprintf(dst, size, "%s", src ? (const char *)src : "");
}

static const char db_run_columns[] =
    "SELECT run, variant, variant_hash, options, agent0, agent1, side0, side1, seed, "
    "max_plies, effects FROM runs";

/* The run in the current row of a query on db_run_columns. */
static void db_run_row(sqlite3_stmt *st, struct db_run *run)
{
    memset(run, 0, sizeof *run);
    db_copy(run->key, sizeof run->key, sqlite3_column_text(st, 0));
    db_copy(run->variant, sizeof run->variant, sqlite3_column_text(st, 1));
    db_copy(run->hash, sizeof run->hash, sqlite3_column_text(st, 2));
    db_copy(run->options, sizeof run->options, sqlite3_column_text(st, 3));
    db_copy(run->agent[0], sizeof run->agent[0], sqlite3_column_text(st, 4));
    db_copy(run->agent[1], sizeof run->agent[1], sqlite3_column_text(st, 5));
    db_copy(run->side[0], sizeof run->side[0], sqlite3_column_text(st, 6));
    db_copy(run->side[1], sizeof run->side[1], sqlite3_column_text(st, 7));
    run->seed = (uint64_t)sqlite3_column_int64(st, 8);
    run->max_plies = sqlite3_column_int(st, 9);
    const char *e = (const char *)sqlite3_column_text(st, 10);
    while (e && *e && run->neffects < GAME_MAX_EFFECTS) {
        size_t n = strcspn(e, ",");
        snprintf(run->effect[run->neffects++], DB_NAME, "%.*s", (int)n, e);
        e += n + (e[n] == ',');
    }
}

int db_get_run(db *d, const char *key, struct db_run *run, char *err, size_t size)
{
    sqlite3_stmt *st = NULL;
    char sql[sizeof db_run_columns + 32];
    snprintf(sql, sizeof sql, "%s WHERE run = ?1", db_run_columns);
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading the run", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        db_run_row(st, run);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 0;
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
    snprintf(sql, sizeof sql, "%s ORDER BY variant, run", db_run_columns);
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading the runs", d->h);
        return -1;
    }
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct db_run run;
        db_run_row(st, &run);
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
    if (sqlite3_prepare_v2(d->h, "SELECT game FROM games WHERE run = ?1 AND game < ?2", -1,
                           &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading the games played", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, limit);
    int64_t found = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
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
    int ok = sqlite3_step(st) == SQLITE_DONE;
    for (int i = 0; ok && i < run->neffects && i < g->neffects; i++) {
        sqlite3_stmt *fx = d->put_effect;
        sqlite3_reset(fx);
        sqlite3_bind_text(fx, 1, run->key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(fx, 2, g->index);
        sqlite3_bind_text(fx, 3, run->effect[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(fx, 4, g->effects[i]);
        ok = sqlite3_step(fx) == SQLITE_DONE;
    }
    if (!ok) {
        db_msg(err, size, "storing a game", d->h);
        return -1;
    }
    return 0;
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

int db_merge(db *d, const char *src, int64_t *added, int64_t *skipped, int64_t *differ,
             char *err, size_t size)
{
    char e[512] = "cannot count the games";
    sqlite3_stmt *st = NULL;
    *added = *skipped = *differ = 0;
    /* the source must be a playout database: open it on its own first
       (read-only) so a missing or foreign file gets a clear message */
    sqlite3 *probe = db_open_probe(src, err, size);
    if (!probe)
        return -1;
    sqlite3_close(probe);

    if (sqlite3_prepare_v2(d->h, "ATTACH DATABASE ?1 AS src", -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "merge", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, src, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        snprintf(err, size, "cannot attach '%s': %s", src, sqlite3_errmsg(d->h));
        return -1;
    }
    int fail = db_exec(d, "BEGIN IMMEDIATE", e, sizeof e);
    int64_t total = 0;
    if (!fail) {
        total = db_count(d, "SELECT count(*) FROM src.games");
        *differ = db_count(d, "SELECT count(*) FROM src.games s JOIN main.games g "
                              "ON s.run = g.run AND s.game = g.game WHERE s.moves <> g.moves");
        fail = total < 0 || *differ < 0 ||
               db_exec(d, "INSERT OR IGNORE INTO main.runs SELECT * FROM src.runs", e, sizeof e);
    }
    if (!fail) {
        fail = db_exec(d, "INSERT OR IGNORE INTO main.games SELECT * FROM src.games", e,
                       sizeof e);
        *added = sqlite3_changes(d->h);
    }
    if (!fail)
        fail = db_exec(d, "INSERT OR IGNORE INTO main.effects SELECT * FROM src.effects", e,
                       sizeof e) ||
               db_exec(d, "COMMIT", e, sizeof e);
    if (fail) {
        snprintf(err, size, "merging '%s': %s", src, e);
        db_exec(d, "ROLLBACK", e, sizeof e);
    }
    db_exec(d, "DETACH DATABASE src", e, sizeof e);
    *skipped = total - *added;
    return fail ? -1 : 0;
}

int db_games(db *d, const struct db_run *run, int64_t limit,
             int (*fn)(const struct db_game *g, void *ud), void *ud, char *err, size_t size)
{
    sqlite3_stmt *st = NULL, *fx = NULL;
    if (sqlite3_prepare_v2(d->h,
                           "SELECT game, winner, cut, result, plies, setup_plies, first_side, "
                           "captures, drops, placements, stacks, legal_sum, legal_plies, "
                           "seconds, legal FROM games WHERE run = ?1 AND game < ?2 "
                           "ORDER BY game",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->h, "SELECT name, count FROM effects WHERE run = ?1 AND game = ?2",
                           -1, &fx, NULL) != SQLITE_OK) {
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
        memset(&g, 0, sizeof g);
        g.index = sqlite3_column_int64(st, 0);
        g.winner = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 1);
        g.cut = sqlite3_column_int(st, 2);
        const char *result = (const char *)sqlite3_column_text(st, 3);
        g.draw = result && !strcmp(result, "1/2-1/2");
        g.replayed = !g.cut && result && !strcmp(result, "*");
        g.plies = sqlite3_column_int(st, 4);
        g.setup_plies = sqlite3_column_int(st, 5);
        g.first_side = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 6);
        g.captures = sqlite3_column_int(st, 7);
        g.drops = sqlite3_column_int(st, 8);
        g.placements = sqlite3_column_int(st, 9);
        g.stacks = sqlite3_column_int(st, 10);
        g.legal_sum = sqlite3_column_int64(st, 11);
        g.legal_plies = sqlite3_column_int(st, 12);
        g.seconds = sqlite3_column_double(st, 13);
        g.legal = (const char *)sqlite3_column_text(st, 14);
        if (!g.legal)
            g.legal = "";
        g.neffects = run->neffects;
        sqlite3_reset(fx);
        sqlite3_bind_int64(fx, 2, g.index);
        while (sqlite3_step(fx) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(fx, 0);
            for (int i = 0; name && i < run->neffects; i++)
                if (!strcmp(name, run->effect[i]))
                    g.effects[i] = (uint32_t)sqlite3_column_int64(fx, 1);
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

/* A text column, "" for NULL. */
static const char *db_text(sqlite3_stmt *st, int col)
{
    const char *t = (const char *)sqlite3_column_text(st, col);
    return t ? t : "";
}

int db_records(db *d, const char *run, int64_t limit, int shard_k, int shard_n,
               int (*fn)(const struct db_record *g, void *ud), void *ud, char *err,
               size_t size)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(d->h,
                           "SELECT game, game_seed, result, reason, cut, plies, moves, "
                           "finished FROM games WHERE run = ?1 AND game < ?2 AND "
                           "game % ?3 = ?4 ORDER BY game",
                           -1, &st, NULL) != SQLITE_OK) {
        db_msg(err, size, "reading games", d->h);
        return -1;
    }
    sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, limit);
    sqlite3_bind_int(st, 3, shard_n);
    sqlite3_bind_int(st, 4, shard_k - 1);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct db_record g;
        g.index = sqlite3_column_int64(st, 0);
        g.game_seed = db_text(st, 1);
        g.result = db_text(st, 2);
        g.reason = db_text(st, 3);
        g.cut = sqlite3_column_int(st, 4);
        g.plies = sqlite3_column_int(st, 5);
        g.moves = db_text(st, 6);
        g.finished = db_text(st, 7);
        stop = fn(&g, ud);
    }
    if (!stop && rc != SQLITE_DONE)
        db_msg(err, size, "reading games", d->h);
    sqlite3_finalize(st);
    return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}
