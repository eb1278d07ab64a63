/* fuzz_db.c - libFuzzer target: the playout database as untrusted input
 * (engine/lab/db.c, dbcheck.c, stats.c, report.c).
 *
 * A valid database of two runs (made once, through the lab's own writer)
 * is copied for each input and changed column by column as the input
 * says; then everything that reads a database runs on it: the runs and
 * records (export's reading), the statistics and the HTML report
 * (compare --report), and a merge into a fresh database.  Each must
 * accept the file or refuse it with a message; whatever it accepts must
 * hold together (setup plies within plies within the run's limit, ...).
 *
 * Input: a list of changes, each
 *   table (byte: meta, runs, games, effects), row (byte), column (byte),
 *   kind (byte: NULL, integer, real, text, blob), then for an integer or
 *   a real 8 bytes, for text or a blob a length byte and that many bytes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "fuzz.h"
#include "report.h"
#include "stats.h"

static char dir[64], base[96], work[96], out[96], html[96];
static struct db_run runs[2];

static const char *const tables[4] = {"meta", "runs", "games", "effects"};
static const char *const meta_cols[2] = {"key", "value"};

static void make_game(struct game_record *g, const struct db_run *run, int64_t index)
{
    static char moves[4096], legal[1024];
    memset(g, 0, sizeof *g);
    g->index = index;
    g->seed = (uint64_t)index * 7919u;
    g->plies = (int)(index % 5) + 3;
    g->setup_plies = (int)(index % 3);
    g->legal_plies = g->plies - g->setup_plies;
    g->first_side = g->legal_plies ? (int)(index & 1) : -1;
    g->legal_sum = 0;
    moves[0] = legal[0] = '\0';
    for (int k = 0; k < g->plies; k++) {
        int n = 1 + (k * 7 + (int)index) % 40;
        if (k >= g->setup_plies)
            g->legal_sum += n;
        snprintf(moves + strlen(moves), 32, "%sa%d-b%d", k ? " " : "", k + 1, k + 2);
        snprintf(legal + strlen(legal), 16, "%s%d", k ? " " : "", n);
    }
    g->captures = g->legal_plies > 0;
    g->placements = g->setup_plies;
    g->result = index % 3 == 0 ? TIERS_WIN_0 : index % 3 == 1 ? TIERS_DRAW : TIERS_ONGOING;
    g->cut = g->result == TIERS_ONGOING;
    snprintf(g->reason, sizeof g->reason, "%s", g->cut ? "cut" : "checkmate");
    g->seconds = 0.001 * (double)index;
    g->moves = moves;
    g->moves_len = strlen(moves);
    g->legal = legal;
    g->legal_len = strlen(legal);
    g->neffects = run->neffects;
    for (int i = 0; i < run->neffects; i++)
        g->effects[i] = (uint32_t)(index + i);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "%s/fuzz_db.XXXXXX", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
    FUZZ_CHECK(mkdtemp(dir), "mkdtemp");
    snprintf(base, sizeof base, "%s/base.db", dir);
    snprintf(work, sizeof work, "%s/work.db", dir);
    snprintf(out, sizeof out, "%s/out.db", dir);
    snprintf(html, sizeof html, "%s/r.html", dir);
    char err[512];
    db *d = db_open(base, 1, err, sizeof err);
    FUZZ_CHECK(d, "%s", err);
    for (int r = 0; r < 2; r++) {
        struct db_run *run = &runs[r];
        snprintf(run->variant, sizeof run->variant, "v%d", r);
        snprintf(run->hash, sizeof run->hash, "%016x", 0xabc + r);
        snprintf(run->agent[0], sizeof run->agent[0], "random");
        snprintf(run->agent[1], sizeof run->agent[1], "random");
        snprintf(run->side[0], sizeof run->side[0], "white");
        snprintf(run->side[1], sizeof run->side[1], "black");
        run->seed = 42 + (uint64_t)r;
        run->max_plies = 10;
        run->neffects = r;
        snprintf(run->effect[0], DB_NAME, "dice");
        db_run_key(run);
        FUZZ_CHECK(db_put_run(d, run, err, sizeof err) == 0, "%s", err);
        for (int64_t i = 0; i < 4; i++) {
            struct game_record g;
            make_game(&g, run, i);
            FUZZ_CHECK(db_put_game(d, run, &g, err, sizeof err) == 0, "%s", err);
        }
    }
    db_close(d);
    return 0;
}

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    char buf[65536];
    size_t n;
    int ok = a && b;
    while (ok && (n = fread(buf, 1, sizeof buf, a)) > 0)
        ok = fwrite(buf, 1, n, b) == n;
    if (a)
        fclose(a);
    if (b)
        ok &= fclose(b) == 0;
    return ok ? 0 : -1;
}

/* Applies the input's changes to the file at path. */
static void mutate(const char *path, const uint8_t *p, size_t size)
{
    sqlite3 *h = NULL;
    FUZZ_CHECK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    size_t at = 0;
    while (at + 4 <= size) {
        int t = p[at] % 4, row = p[at + 1] % 10 + 1, col = p[at + 2], kind = p[at + 3] % 5;
        at += 4;
        char sql[256], names[64][32];
        int ncol = 0;
        if (t == 0) {
            for (; ncol < 2; ncol++)
                snprintf(names[ncol], sizeof names[ncol], "%s", meta_cols[ncol]);
        } else {
            sqlite3_stmt *info = NULL;
            snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info('%s')", tables[t]);
            if (sqlite3_prepare_v2(h, sql, -1, &info, NULL) == SQLITE_OK)
                while (ncol < 64 && sqlite3_step(info) == SQLITE_ROW)
                    snprintf(names[ncol++], sizeof names[0], "%s",
                             (const char *)sqlite3_column_text(info, 0));
            sqlite3_finalize(info);
        }
        if (!ncol)
            break;
        snprintf(sql, sizeof sql, "UPDATE %s SET %s = ?1 WHERE rowid = ?2", tables[t],
                 names[col % ncol]);
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
            break;
        if (kind == 1 || kind == 2) {
            uint64_t bits = 0;
            for (int k = 0; k < 8; k++)
                bits = bits << 8 | (at < size ? p[at++] : 0);
            if (kind == 1) {
                sqlite3_bind_int64(st, 1, (sqlite3_int64)bits);
            } else {
                double r;
                memcpy(&r, &bits, sizeof r);
                sqlite3_bind_double(st, 1, r);
            }
        } else if (kind >= 3) {
            size_t len = at < size ? p[at++] : 0;
            if (len > size - at)
                len = size - at;
            if (kind == 3)
                sqlite3_bind_text(st, 1, (const char *)p + at, (int)len, SQLITE_TRANSIENT);
            else
                sqlite3_bind_blob(st, 1, p + at, (int)len, SQLITE_TRANSIENT);
            at += len;
        }
        sqlite3_bind_int(st, 2, row);
        sqlite3_step(st); /* a constraint may refuse it */
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
}

struct seen {
    const struct db_run *run;
    int64_t games;
};

static int on_game(const struct db_game *g, void *ud)
{
    struct seen *s = ud;
    FUZZ_CHECK(g->setup_plies >= 0 && g->setup_plies <= g->plies &&
                   g->plies <= s->run->max_plies,
               "game %lld: setup %d, plies %d, max %d", (long long)g->index, g->setup_plies,
               g->plies, s->run->max_plies);
    FUZZ_CHECK(g->legal && g->first_side >= -1 && g->first_side <= 1 && g->winner >= -1 &&
                   g->winner <= 1 && g->legal_sum >= 0 && isfinite(g->seconds),
               "game %lld holds an unchecked value", (long long)g->index);
    s->games++;
    return 0;
}

static int on_record(const struct db_record *g, void *ud)
{
    struct seen *s = ud;
    FUZZ_CHECK(g->game_seed && g->result && g->reason && g->moves && g->finished &&
                   g->plies >= 0 && g->plies <= s->run->max_plies,
               "record %lld holds an unchecked value", (long long)g->index);
    for (const char *c = g->reason; *c; c++)
        FUZZ_CHECK((unsigned char)*c >= 0x20, "a control character in a reason");
    return 0;
}

static int on_run(const struct db_run *run, void *ud)
{
    db *d = ud;
    char err[1024];
    struct seen s = {run, 0};
    FUZZ_CHECK(run->max_plies >= 1 && run->neffects >= 0 && run->neffects <= GAME_MAX_EFFECTS,
               "run %s holds an unchecked value", run->key);
    if (db_records(d, run, 100, 1, 1, on_record, &s, err, sizeof err) < 0)
        FUZZ_CHECK(err[0], "a refused record without a message");
    struct playout_variant v;
    memset(&v, 0, sizeof v);
    v.run = *run;
    v.spec = run->variant;
    int rc = stats_collect(d, run, 100, &v.stats, err, sizeof err);
    if (rc == 0) {
        v.have_stats = 1;
        struct report_meta m = {100, run->seed, run->max_plies, work, NULL, NULL};
        FUZZ_CHECK(report_write(html, &m, &v, 1, err, sizeof err) == 0, "report: %s", err);
        FUZZ_CHECK(db_games(d, run, 100, on_game, &s, err, sizeof err) == 0,
                   "second read differs: %s", err);
    } else {
        FUZZ_CHECK(err[0], "refused statistics without a message");
    }
    stats_free(&v.stats);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024], side[128];
    /* a fresh copy: no WAL or index file left by the previous input */
    for (int k = 0; k < 2; k++) {
        const char *f = k ? work : out;
        unlink(f);
        snprintf(side, sizeof side, "%s-wal", f);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", f);
        unlink(side);
    }
    FUZZ_CHECK(copy_file(base, work) == 0, "copying the base database");
    mutate(work, data, size);
    db *d = db_open_read(work, err, sizeof err);
    if (d) {
        if (db_runs(d, on_run, d, err, sizeof err) < 0)
            FUZZ_CHECK(err[0], "refused runs without a message");
        db_close(d);
    } else {
        FUZZ_CHECK(err[0], "refused database without a message");
    }
    db *m = db_open(out, 1, err, sizeof err);
    FUZZ_CHECK(m, "%s", err);
    int64_t added, skipped, differ;
    if (db_merge(m, work, &added, &skipped, &differ, err, sizeof err) != 0)
        FUZZ_CHECK(err[0], "refused merge without a message");
    db_close(m);
    return 0;
}
