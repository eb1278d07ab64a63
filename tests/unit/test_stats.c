/* test_stats.c - the metrics of `tiers compare` (engine/lab/stats.c) and
 * the database layer (engine/lab/db.c) against a small fixed database,
 * tests/data/stats/small.sql, whose expected figures are worked out by
 * hand below. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "testutil.h"

#include "db.h"
#include "dbcheck.h"
#include "game.h"
#include "gamerec.h"
#include "stats.h"

static char db_path[256];

/* Builds the fixture database in a temporary file. */
static int setup(void **state)
{
    (void)state;
    snprintf(db_path, sizeof db_path, "/tmp/tiers-test-stats-%d.db", (int)getpid());
    unlink(db_path);
    size_t len;
    char *sql = tu_read_file(tu_path("data/stats/small.sql"), &len);
    assert_non_null(sql);
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(db_path, &h), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("small.sql: %s", msg);
    sqlite3_close(h);
    free(sql);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char p[300];
    unlink(db_path);
    snprintf(p, sizeof p, "%s-wal", db_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", db_path);
    unlink(p);
    return 0;
}

static db *open_fixture(void)
{
    char err[512];
    db *d = db_open(db_path, 0, err, sizeof err);
    if (!d)
        fail_msg("%s", err);
    return d;
}

#define assert_near(x, y) assert_true(fabs((double)(x) - (double)(y)) < 1e-5)

static void test_wilson(void **state)
{
    (void)state;
    /* p = k/n, z = 1.96: centre (p + z^2/2n) / (1 + z^2/n), half-width
       z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n).  For 5 of 10: centre
       0.5, half-width 1.96 * sqrt(0.025 + 0.0096) / 1.38415 = 0.26341. */
    struct stats_rate r;
    stats_wilson(5, 10, &r);
    assert_near(r.rate, 0.5);
    assert_near(r.lo, 0.236593);
    assert_near(r.hi, 0.763407);
    /* 0 of 10: [0, z^2/n / (1 + z^2/n)] = [0, 0.384146/1.384146] */
    stats_wilson(0, 10, &r);
    assert_near(r.lo, 0.0);
    assert_near(r.hi, 0.277533);
    stats_wilson(10, 10, &r);
    assert_near(r.lo, 0.722467);
    assert_near(r.hi, 1.0);
    stats_wilson(0, 0, &r);
    assert_near(r.rate, 0);
    assert_near(r.hi, 0);
}

static void test_run(void **state)
{
    (void)state;
    db *d = open_fixture();
    struct db_run run;
    char err[512];
    assert_int_equal(db_get_run(d, "00000000000000a1", &run, err, sizeof err), 0);
    assert_string_equal(run.variant, "test");
    assert_string_equal(run.side[0], "white");
    assert_int_equal(run.neffects, 2);
    assert_string_equal(run.effect[0], "a");
    assert_string_equal(run.effect[1], "b");
    assert_int_equal(run.max_plies, 22);
    assert_int_equal(db_get_run(d, "nope", &run, err, sizeof err), 1);

    uint8_t done[12] = {0};
    assert_int_equal(db_done(d, "00000000000000a1", 12, done, err, sizeof err), 11);
    for (int i = 0; i < 12; i++)
        assert_int_equal(done[i], i < 11);
    db_close(d);
}

static void test_metrics(void **state)
{
    (void)state;
    db *d = open_fixture();
    struct db_run run;
    char err[512];
    assert_int_equal(db_get_run(d, "00000000000000a1", &run, err, sizeof err), 0);
    struct stats s;
    if (stats_collect(d, &run, 10, &s, err, sizeof err) != 0)
        fail_msg("%s", err);

    /* games 0-9 only (game 10 is past the limit, r2 another run) */
    assert_int_equal(s.games, 10);
    /* wins: side 0 in games 0 1 4 7 9, side 1 in 2 5 8; game 3 drawn,
       game 6 cut */
    assert_int_equal(s.wins[0], 5);
    assert_int_equal(s.wins[1], 3);
    assert_int_equal(s.draws, 1);
    assert_int_equal(s.cut, 1);
    assert_int_equal(s.decisive, 8);
    assert_near(s.win[0].rate, 0.5);
    assert_near(s.win[0].lo, 0.236593);
    assert_near(s.win[1].rate, 0.3);
    assert_near(s.win[1].lo, 0.107791);
    assert_near(s.win[1].hi, 0.603222);
    assert_near(s.draw.rate, 0.1);
    assert_near(s.draw.lo, 0.017876);
    assert_near(s.draw.hi, 0.404150);
    assert_near(s.decisive_rate.rate, 0.8);
    assert_near(s.decisive_rate.lo, 0.490162);
    assert_near(s.decisive_rate.hi, 0.943318);
    assert_near(s.cut_rate.rate, 0.1);
    /* side 0 moved first in nine games and won four of them (0 1 4 7);
       in game 9 side 1 moved first and lost: 4 of 10 */
    assert_int_equal(s.first_side, 0);
    assert_int_equal(s.first.k, 4);
    assert_int_equal(s.first.n, 10);
    assert_near(s.first.lo, 0.168180);
    assert_near(s.first.hi, 0.687326);
    /* lengths 10 8 12 20 6 14 18 9 11 7: sum 115; sorted 6 7 8 9 10 11
       12 14 18 20, median (10 + 11) / 2 */
    assert_near(s.length_mean, 11.5);
    assert_near(s.length_median, 10.5);
    assert_int_equal(s.length_min, 6);
    assert_int_equal(s.length_max, 20);
    assert_near(s.setup_mean, 2.0);
    /* captures 4+2+5+0+1+3+2+1+0+2 = 20, drops 1+0+2+0+0+1+0+1+0+0 = 5,
       stacks 0+1+2+0+0+1+3+0+0+0 = 7, placements 2 a game */
    assert_near(s.captures, 2.0);
    assert_near(s.drops, 0.5);
    assert_near(s.stacks, 0.7);
    assert_near(s.placements, 2.0);
    assert_near(s.seconds_mean, 0.5);
    /* branching: sum over g of (g+1) * length = 10+16+36+80+30+84+126+72
       +99+70 = 623 legal moves over 115 play plies */
    assert_near(s.branching, 623.0 / 115.0);
    /* effect a: 1+0+2+0+1+0+3+0+0+1 = 8 firings, in games 0 2 4 6 9;
       b: 0+2+0+0+1+0+0+0+1+0 = 4, in games 1 4 8 */
    assert_near(s.effect_rate[0], 0.8);
    assert_int_equal(s.effect_games[0].k, 5);
    assert_near(s.effect_rate[1], 0.4);
    assert_int_equal(s.effect_games[1].k, 3);
    /* profile (setup plies left out): every game reaches play ply 0, mean
       of 1..10 = 5.5; ply 15 is reached by games 3 and 6 only (4 and 7
       legal moves), ply 19 by game 3 only, ply 20 by none */
    assert_near(stats_profile_mean(&s, 0, 1), 5.5);
    assert_int_equal(s.profile_n[0], 10);
    assert_near(stats_profile_mean(&s, 15, 16), 5.5);
    assert_near(stats_profile_mean(&s, 19, 20), 4.0);
    assert_near(stats_profile_mean(&s, 20, 21), -1);
    /* play ply 7 is reached by the games longer than 7: all but 4 and 9 */
    assert_int_equal(s.profile_n[7], 8);
    stats_free(&s);

    /* a larger limit takes game 10 in too */
    assert_int_equal(stats_collect(d, &run, 1000, &s, err, sizeof err), 0);
    assert_int_equal(s.games, 11);
    assert_int_equal(s.wins[1], 4);
    stats_free(&s);
    db_close(d);
}

/* The figures of metrics.md's "Endings, lengths and balance" and
 * "Choices" tables on the same ten games. */
static void test_metrics_more(void **state)
{
    (void)state;
    db *d = open_fixture();
    struct db_run run;
    char err[512];
    assert_int_equal(db_get_run(d, "00000000000000a1", &run, err, sizeof err), 0);
    struct stats s;
    if (stats_collect(d, &run, 10, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    /* endings: checkmate in 0 1 2 4 5 7 8 9, stalemate in 3, cut in 6,
       all in the play phase; most frequent first, ties by reason */
    assert_int_equal(s.nendings, 3);
    assert_string_equal(s.endings[0].reason, "checkmate");
    assert_int_equal(s.endings[0].setup, 0);
    assert_int_equal(s.endings[0].rate.k, 8);
    assert_int_equal(s.endings[0].rate.n, 10);
    assert_string_equal(s.endings[1].reason, "cut");
    assert_int_equal(s.endings[1].rate.k, 1);
    assert_string_equal(s.endings[2].reason, "stalemate");
    assert_int_equal(s.endings[2].rate.k, 1);
    /* decisive games 0 1 2 4 5 7 8 9: lengths 10 8 12 6 14 9 11 7, sum
       77, mean 9.625; sorted 6 7 8 9 10 11 12 14, median (9 + 10) / 2 */
    assert_near(s.decisive_length_mean, 9.625);
    assert_near(s.decisive_length_median, 9.5);
    /* all ten lengths, mean 11.5: squared deviations 2.25 12.25 0.25
       72.25 30.25 6.25 42.25 6.25 0.25 20.25 = 192.5; sqrt(19.25) */
    assert_near(s.length_sd, 4.387482);
    /* 5 wins against 3: 1 - 2/8 */
    assert_near(s.balance, 0.75);
    /* decisive games with a play phase: 8; the first mover (side 0 in
       all but game 9) won 0 1 4 7: 4 of 8 */
    assert_int_equal(s.first_decisive.k, 4);
    assert_int_equal(s.first_decisive.n, 8);
    /* decision moves: game 0's play plies have 1 legal move each (its
       10 plies), every other play ply has 2 or more: 105 of 115 */
    assert_int_equal(s.decision.k, 105);
    assert_int_equal(s.decision.n, 115);
    /* openings: every game plays m3 m4 m5 m6 after its two setup plies */
    for (int k = 0; k < STATS_OPENING_KS; k++) {
        assert_int_equal(s.openings[k].games, 10);
        assert_int_equal(s.openings[k].distinct, 1);
        assert_near(s.openings[k].entropy, 0);
    }
    assert_int_equal(s.openings[2].k, 4);
    stats_free(&s);
    db_close(d);
}

/* Opening diversity on the fixture with other openings: games 0-2 play
 * a b c d, 3-4 a b x y, 5 a z c d, 6-9 still m3 m4 m5 m6.  Game 3 ends
 * in the setup phase instead (no play move: reason "checkmate" there). */
static void test_openings(void **state)
{
    (void)state;
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(db_path, &h), SQLITE_OK);
    const char *sql =
        "BEGIN;"
        "UPDATE games SET moves = 's1 s2 a b c d' || substr(moves, instr(moves, ' m7')) "
        "WHERE run = '00000000000000a1' AND game IN (0, 1, 2);"
        "UPDATE games SET moves = 's1 s2 a b x y' || substr(moves, instr(moves, ' m7')) "
        "WHERE run = '00000000000000a1' AND game IN (3, 4);"
        "UPDATE games SET moves = 's1 s2 a z c d' || substr(moves, instr(moves, ' m7')) "
        "WHERE run = '00000000000000a1' AND game = 5;"
        "COMMIT;";
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s", msg);
    sqlite3_close(h);
    db *d = open_fixture();
    struct db_run run;
    char err[512];
    assert_int_equal(db_get_run(d, "00000000000000a1", &run, err, sizeof err), 0);
    struct stats s;
    if (stats_collect(d, &run, 10, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    /* k = 1: a 6 times, m3 4: -(0.6 log2 0.6 + 0.4 log2 0.4) */
    assert_int_equal(s.openings[0].distinct, 2);
    assert_near(s.openings[0].entropy, 0.970951);
    /* k = 2: a b 5, a z 1, m3 m4 4: 0.5 + 0.1 log2 10 + 0.4 log2 2.5 */
    assert_int_equal(s.openings[1].distinct, 3);
    assert_near(s.openings[1].entropy, 1.360964);
    /* k = 4: a b c d 3, a b x y 2, a z c d 1, m3.. 4 */
    assert_int_equal(s.openings[2].distinct, 4);
    assert_near(s.openings[2].entropy, 1.846439);
    stats_free(&s);
    db_close(d);

    /* game 3 (stalemate) made all its 22 plies in the setup: a stalemate
       of the setup phase, apart from the play phase's; and it has no
       opening (k = 1: a 5 times, m3 4 among 9 games) */
    assert_int_equal(sqlite3_open(db_path, &h), SQLITE_OK);
    if (sqlite3_exec(h, "UPDATE games SET setup_plies = 22, legal_plies = 0, legal_sum = 0, "
                        "first_side = NULL, captures = 0, drops = 0, stacks = 0 "
                        "WHERE run = '00000000000000a1' AND game = 3",
                     NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s", msg);
    sqlite3_close(h);
    d = open_fixture();
    if (stats_collect(d, &run, 10, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(s.nendings, 3);
    assert_string_equal(s.endings[2].reason, "stalemate");
    assert_int_equal(s.endings[2].setup, 1);
    assert_int_equal(s.endings[2].rate.k, 1);
    assert_int_equal(s.endings[1].setup, 0);
    assert_int_equal(s.openings[0].games, 9);
    assert_int_equal(s.openings[0].distinct, 2);
    /* -(5/9 log2 5/9 + 4/9 log2 4/9) */
    assert_near(s.openings[0].entropy, 0.991076);
    stats_free(&s);
    db_close(d);
    /* the fixture as it was, for the tests after this one */
    teardown(NULL);
    setup(NULL);
}

static void test_merge(void **state)
{
    (void)state;
    char out[300], err[512];
    snprintf(out, sizeof out, "%s.merged", db_path);
    unlink(out);
    db *d = db_open(out, 1, err, sizeof err);
    assert_non_null(d);
    int64_t added, skipped, differ;
    assert_int_equal(db_merge(d, db_path, &added, &skipped, &differ, err, sizeof err), 0);
    assert_int_equal(added, 12);
    assert_int_equal(skipped, 0);
    assert_int_equal(differ, 0);
    /* again: nothing new */
    assert_int_equal(db_merge(d, db_path, &added, &skipped, &differ, err, sizeof err), 0);
    assert_int_equal(added, 0);
    assert_int_equal(skipped, 12);
    struct db_run run;
    assert_int_equal(db_get_run(d, "00000000000000a1", &run, err, sizeof err), 0);
    struct stats s;
    assert_int_equal(stats_collect(d, &run, 10, &s, err, sizeof err), 0);
    assert_int_equal(s.games, 10);
    assert_near(s.effect_rate[0], 0.8);
    stats_free(&s);
    /* not a database */
    assert_int_equal(db_merge(d, tu_path("data/stats/small.sql"), &added, &skipped, &differ,
                              err, sizeof err), DB_BAD);
    assert_non_null(strstr(err, "is not a tiers playout database"));
    db_close(d);
    char p[320];
    unlink(out);
    snprintf(p, sizeof p, "%s-wal", out);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", out);
    unlink(p);
}

/* A game written by db_put_game reads back with the same figures. */
static void test_round_trip(void **state)
{
    (void)state;
    char path[300], err[512];
    snprintf(path, sizeof path, "%s.rt", db_path);
    unlink(path);
    db *d = db_open(path, 1, err, sizeof err);
    assert_non_null(d);
    struct db_run run;
    memset(&run, 0, sizeof run);
    strcpy(run.variant, "duel");
    strcpy(run.hash, "0123456789abcdef");
    strcpy(run.agent[0], "random");
    strcpy(run.agent[1], "greedy");
    strcpy(run.side[0], "white");
    strcpy(run.side[1], "black");
    run.seed = 7;
    run.max_plies = 50;
    run.neffects = 1;
    strcpy(run.effect[0], "promote");
    db_run_key(&run);
    assert_int_equal(strlen(run.key), 16);
    assert_int_equal(db_put_run(d, &run, err, sizeof err), 0);
    char moves[] = "b2-b3 c4-c3", legal[] = "12 11";
    struct game_record g;
    memset(&g, 0, sizeof g);
    g.index = 3;
    g.result = TIERS_WIN_1;
    strcpy(g.reason, "checkmate");
    g.plies = 2;
    g.first_side = 0;
    g.captures = 1;
    g.legal_sum = 23;
    g.legal_plies = 2;
    g.moves = moves;
    g.moves_len = strlen(moves);
    g.legal = legal;
    g.legal_len = strlen(legal);
    g.neffects = 1;
    g.effects[0] = 2;
    assert_int_equal(db_put_game(d, &run, &g, err, sizeof err), 0);
    struct stats s;
    assert_int_equal(stats_collect(d, &run, 10, &s, err, sizeof err), 0);
    assert_int_equal(s.games, 1);
    assert_int_equal(s.wins[1], 1);
    assert_near(s.branching, 11.5);
    assert_near(s.effect_rate[0], 2.0);
    assert_near(stats_profile_mean(&s, 1, 2), 11.0);
    stats_free(&s);
    db_close(d);
    unlink(path);
    char p[320];
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
}


/* A valid game row as cells (a hand-made game: 10 plies, 2 of setup, a
 * 1-0 checkmate), for the checks below. */
static void game_cells(struct dbcheck_cell *c)
{
    static const char *const text[DBCHECK_GAME_COLUMNS] = {
        [0] = "0123456789abcdef", [2] = "duel", [3] = "fedcba9876543210", [4] = "",
        [5] = "random", [6] = "random", [8] = "00000000000000aa", [9] = "1-0",
        [11] = "checkmate", [23] = "a1 a2 a3 a4 a5 a6 a7 a8 a9 b1",
        [24] = "3 3 5 5 5 5 5 5 5 5", [25] = "2026-01-01 00:00:00"};
    static const int64_t num[DBCHECK_GAME_COLUMNS] = {
        [1] = 7, [7] = 1, [10] = 0, [12] = 0, [13] = 10, [14] = 2, [15] = 0,
        [16] = 1, [17] = 1, [18] = 2, [19] = 1, [20] = 40, [21] = 8};
    memset(c, 0, DBCHECK_GAME_COLUMNS * sizeof *c);
    for (int k = 0; k < DBCHECK_GAME_COLUMNS; k++) {
        if (text[k]) {
            c[k].type = DBCHECK_TEXT;
            c[k].t = text[k];
            c[k].len = strlen(text[k]);
        } else {
            c[k].type = DBCHECK_INT;
            c[k].i = num[k];
        }
    }
    c[22].type = DBCHECK_REAL;
    c[22].r = 0.5;
}

/* Each check of a game row, and the valid row passing them. */
static void test_dbcheck_game(void **state)
{
    (void)state;
    struct dbcheck_cell c[DBCHECK_GAME_COLUMNS];
    char why[256];
    game_cells(c);
    assert_int_equal(dbcheck_game(c, 40, why, sizeof why), 0);
    struct {
        int col;
        int64_t value;
        const char *want;
    } bad[] = {
        {14, 11, "setup_plies"},           /* over plies */
        {14, 2000000000, "setup_plies"},   /* the repro */
        {13, 41, "max_plies"},             /* over the run's limit */
        {21, 7, "legal_plies"},            /* not plies - setup_plies */
        {10, 1, "winner"},                 /* against 1-0 */
        {12, 1, "cut"},                    /* cut with a result */
        {20, 7, "legal_sum"},              /* under one per play ply */
        {20, 8 * 4096 + 1, "legal_sum"},   /* over the move limit */
        {18, 3, "placements"},             /* over setup_plies */
        {16, 8, "captures"},               /* with drops and stacks over play */
        {1, -1, "game"},
        {13, INT64_MAX, "plies"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        game_cells(c);
        c[bad[k].col].i = bad[k].value;
        assert_int_equal(dbcheck_game(c, 40, why, sizeof why), -1);
        assert_non_null(strstr(why, bad[k].want));
    }
    /* types: NULL where NOT NULL, a blob, text in a number column */
    for (int col = 0; col < DBCHECK_GAME_COLUMNS; col++) {
        game_cells(c);
        c[col].type = DBCHECK_BLOB;
        assert_int_equal(dbcheck_game(c, 40, why, sizeof why), -1);
        assert_non_null(strstr(why, dbcheck_game_names[col]));
    }
    game_cells(c);
    c[23].t = "a1 a2\n a3 a4 a5 a6 a7 a8 a9 b1";
    c[23].len = strlen(c[23].t);
    assert_int_equal(dbcheck_game(c, 40, why, sizeof why), -1);
    game_cells(c);
    c[23].t = "a1 a2 a3 a4 a5 a6 a7 a8 a9"; /* a move short */
    c[23].len = strlen(c[23].t);
    assert_int_equal(dbcheck_game(c, 40, why, sizeof why), -1);
    assert_non_null(strstr(why, "moves"));
    game_cells(c);
    c[24].t = "3 3 5 5 5 5 5 5 5 4097";
    c[24].len = strlen(c[24].t);
    assert_int_equal(dbcheck_game(c, 40, why, sizeof why), -1);
    game_cells(c);
    c[15].type = DBCHECK_NULL; /* first_side NULL with play plies */
    assert_int_equal(dbcheck_game(c, 40, why, sizeof why), -1);
    game_cells(c);
    c[22].r = INFINITY;
    assert_int_equal(dbcheck_game(c, 40, why, sizeof why), -1);
}

/* Move texts a record reads back as one move, and tags on one line. */
static void test_gamerec_readable(void **state)
{
    (void)state;
    const char *good[] = {"a1-a2", "P*b1", "b2^c1", "f6^f5=1", "12a3", "\xe8\xac\x80(5-5-2)"};
    const char *bad[] = {"", "1-0", "0-1", "1/2-1/2", "*", "{x", "x}", "[Foo", "1.",
                         "12.a3", "a b", "a\tb", "a\nb", "a\xc2\xa0" "b"};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++)
        assert_true(gamerec_move_readable(good[k]));
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        assert_false(gamerec_move_readable(bad[k]));
    char buf[128] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    gamerec_tag(f, "Reason", "line\none \"q\"");
    fclose(f);
    assert_string_equal(buf, "[Reason \"line one \\\"q\\\"\"]\n");
}


/* game_figures on a series worked out by hand (docs/metrics.md):
 * v = 0, 0.2, -0.1, -0.3, 0.4, 0.5 (n = 6).
 * lead change: leaders 0 (none), +, -, -, +, +: two changes over n - 1 = 5
 *   steps, 0.4.
 * stability: mean 0.7 / 6 = 0.116667, mean square 0.55 / 6 = 0.091667,
 *   variance 0.091667 - 0.013611 = 0.078056.
 * side 0 wins: it trails at 0.1 and 0.3, drama (0.1 + 0.3) / 2 = 0.2; the
 *   loser's best is 0.3 (at position 3); from position 4 (0.4, 0.5) side 0
 *   stays above it: decision point 4 / 5 = 0.8.
 * side 1 wins: it trails where v > 0 (0.2, 0.4, 0.5): drama 1.1 / 3; the
 *   loser's best 0.5 is never exceeded to the end: decision point 1.
 * no winner: drama and decision point undefined (-1). */
static void test_game_figures(void **state)
{
    (void)state;
    const float v[] = {0, 0.2f, -0.1f, -0.3f, 0.4f, 0.5f};
    double lead, drama, dp, stab;
    game_figures(v, 6, 0, &lead, &drama, &dp, &stab);
    assert_near(lead, 0.4);
    assert_near(stab, 0.0780556);
    assert_near(drama, 0.2);
    assert_near(dp, 0.8);
    game_figures(v, 6, 1, &lead, &drama, &dp, &stab);
    assert_near(drama, 1.1 / 3);
    assert_near(dp, 1.0);
    game_figures(v, 6, -1, &lead, &drama, &dp, &stab);
    assert_near(lead, 0.4);
    assert_true(drama < 0 && dp < 0);
    /* one position: no step to change the lead over; variance 0 */
    game_figures(v + 4, 1, 0, &lead, &drama, &dp, &stab);
    assert_true(lead < 0);
    assert_near(stab, 0);
    assert_near(dp, 1.0);
    /* the winner always ahead: decided from the start, no drama */
    const float up[] = {0.1f, 0.2f, 0.3f};
    game_figures(up, 3, 0, &lead, &drama, &dp, &stab);
    assert_near(drama, 0);
    assert_near(dp, 0);
    assert_near(lead, 0);
}

/* Collects the figures of run a1, games 0-9. */
static void collect_a1(db *d, struct stats *s)
{
    struct db_run run;
    char err[512];
    assert_int_equal(db_get_run(d, "00000000000000a1", &run, err, sizeof err), 0);
    if (stats_collect(d, &run, 10, s, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* A schema-1 file read as it is: figures of schema 2 unknown. */
static void test_schema1_read(void **state)
{
    (void)state;
    char path[300], err[512];
    snprintf(path, sizeof path, "%s.v1", db_path);
    unlink(path);
    size_t len;
    char *sql = tu_read_file(tu_path("data/stats/small.sql"), &len);
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    free(sql);
    db *d = db_open_read(path, err, sizeof err);
    if (!d)
        fail_msg("%s", err);
    assert_int_equal(db_schema(d), 1);
    struct stats s;
    collect_a1(d, &s);
    for (int k = 0; k < STATS_FIGS; k++)
        assert_true(s.fig[k] < 0 && s.fig_n[k] == 0);
    assert_int_equal(s.nfaces, -1);
    assert_int_equal(s.effect_kinds, 0);
    assert_near(s.effect_rate[0], 0.8); /* a: 1+2+1+3+1 = 8 over 10 games */
    assert_int_equal(s.hook_ended.n, 0);
    stats_free(&s);
    db_close(d);
    /* opened for writing, it becomes schema 2, its old rows unknown */
    d = db_open(path, 0, err, sizeof err);
    assert_non_null(d);
    assert_int_equal(db_schema(d), 2);
    collect_a1(d, &s);
    assert_true(s.fig[0] < 0);
    assert_int_equal(s.nfaces, 0);
    stats_free(&s);
    db_close(d);
    unlink(path);
}

/* The schema-2 figures, effect kinds and faces on the fixture, changed
 * here (after test_metrics and the others read it as it was):
 *   games 0, 1: coverage .5, repetition .1, lead .2, drama .3, decision .4,
 *               stability .05, not ended by a hook;
 *   game 3 (a draw): coverage .7, repetition .3, lead .4, stability .15,
 *               ended by a hook, no drama or decision point;
 *   game 10 (past --games 10): coverage 1, left out.
 * Means over the games that have each: coverage (.5+.5+.7)/3 = .566667,
 * repetition (.1+.1+.3)/3 = .166667, lead (.2+.2+.4)/3 = .266667, drama
 * .3 (2 games), decision point .4, stability (.05+.05+.15)/3 = .083333;
 * ended by a hook 1 of 3 known.
 * Effects: a fired 1,0,2,0,1,0,3,0,0,1 (8), prevented game % 3 (9), b
 * fired 0,2,0,0,1,0,0,0,1,0 (4), ended in game 4: per game a .8 fired,
 * .9 prevented; b .4 fired, .1 ended; a in 9 of 10 games (game 3 none).
 * Faces: pawn 3+2 moves, 1 capture, 1 taken, 1 drop; king 1 move, 1 mate
 * (game 10's and run a2's rows left out). */
static void test_schema2_figures(void **state)
{
    (void)state;
    db *d = open_fixture(); /* migrates the file */
    db_close(d);
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(db_path, &h), SQLITE_OK);
    const char *sql =
        "UPDATE games SET coverage = .5, repetition = .1, lead_change = .2, drama = .3, "
        "  decision_point = .4, stability = .05, hook_ended = 0 "
        "  WHERE run = '00000000000000a1' AND game IN (0, 1);"
        "UPDATE games SET coverage = .7, repetition = .3, lead_change = .4, stability = .15, "
        "  hook_ended = 1 WHERE run = '00000000000000a1' AND game = 3;"
        "UPDATE games SET coverage = 1 WHERE run = '00000000000000a1' AND game = 10;"
        "UPDATE effects SET prevented = game % 3, ended = 0 WHERE name = 'a';"
        "UPDATE effects SET prevented = 0, ended = (game = 4) WHERE name = 'b';"
        "INSERT INTO faces VALUES('00000000000000a1', 0, 'pawn', 3, 1, 0, 1, 0),"
        "  ('00000000000000a1', 1, 'pawn', 2, 0, 1, 0, 0),"
        "  ('00000000000000a1', 1, 'king', 1, 0, 0, 0, 1),"
        "  ('00000000000000a1', 10, 'pawn', 50, 0, 0, 0, 0),"
        "  ('00000000000000a2', 0, 'king', 9, 0, 0, 0, 0);";
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s", msg);
    sqlite3_close(h);
    d = open_fixture();
    struct stats s;
    collect_a1(d, &s);
    const double want[STATS_FIGS] = {0.566667, 0.166667, 0.266667, 0.3, 0.4, 0.083333};
    const int64_t want_n[STATS_FIGS] = {3, 3, 3, 2, 2, 3};
    for (int k = 0; k < STATS_FIGS; k++) {
        assert_true(fabs(s.fig[k] - want[k]) < 1e-5);
        assert_int_equal(s.fig_n[k], want_n[k]);
    }
    assert_int_equal(s.hook_ended.k, 1);
    assert_int_equal(s.hook_ended.n, 3);
    assert_int_equal(s.effect_kinds, 1);
    assert_near(s.effect_rate[0], 0.8);
    assert_near(s.prevented_rate[0], 0.9);
    assert_near(s.ended_rate[0], 0);
    assert_near(s.effect_rate[1], 0.4);
    assert_near(s.prevented_rate[1], 0);
    assert_near(s.ended_rate[1], 0.1);
    assert_int_equal(s.effect_games[0].k, 9);
    assert_int_equal(s.nfaces, 2);
    assert_string_equal(s.face[0].name, "pawn");
    assert_int_equal(s.face[0].moves, 5);
    assert_int_equal(s.face[0].captures, 1);
    assert_int_equal(s.face[0].captured, 1);
    assert_int_equal(s.face[0].drops, 1);
    assert_int_equal(s.face[0].mates, 0);
    assert_string_equal(s.face[1].name, "king");
    assert_int_equal(s.face[1].moves, 1);
    assert_int_equal(s.face[1].mates, 1);
    stats_free(&s);
    db_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson),
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_metrics_more),
        cmocka_unit_test(test_openings),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_dbcheck_game),
        cmocka_unit_test(test_gamerec_readable),
        cmocka_unit_test(test_game_figures),
        cmocka_unit_test(test_schema1_read),
        cmocka_unit_test(test_schema2_figures),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
