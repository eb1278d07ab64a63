/* test_official.c - the `official` variant (25-piece Gungi, 2022 rules)
 * against the reference engine gungi.js 3.4.11: its 300 + 938 positions
 * with complete SAN move lists, its 30 games and perft counts
 * (tests/data/oracle/official, see tests/data/README.md), the movement
 * table of every piece and tier, the start positions read back, and bad
 * position texts.  The dialect's position text and SAN shapes, and one
 * positive and one negative position per rule of docs/rules/official.md
 * (betrayal, reach, stacking, leaps, captures, drops, the draft, game
 * ends and the fourfold repetition) are scenarios: tests/rules/official/,
 * and seed-25's in tests/rules/seed-25/ (test_rules).
 *
 * Positions and moves are in the library's own notation (the `gungijs3`
 * dialect): squares (rank-file-tier), White = uppercase = side 0, moving
 * toward rank 1.  Set TIERS_SLOW_TESTS=1 to run the depth-3 perft of the
 * intro and beginner starts in builds with sanitizers or assertions (they
 * always run in optimised builds). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GJ3 "gungijs3"
#define SAN_MAX 128

static tiers_variant *variant;

static int setup(void **state)
{
    (void)state;
    variant = tu_variant("official");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tiers_variant_free(variant);
    return 0;
}

/* ------------------------------------------------------------ helpers */

/* A placement from "r-f:PIECES ..." (pieces bottom to top) and the rest of
 * the FEN; static buffer. */
static const char *fen(const char *squares, const char *tail)
{
    static char out[512];
    char grid[9][9][4] = {{{0}}};
    const char *c = squares;
    while (*c) {
        int r, f, n;
        char pcs[4];
        if (sscanf(c, " %d-%d:%3[A-Za-z]%n", &r, &f, pcs, &n) != 3)
            fail_msg("bad square list at '%s'", c);
        strcpy(grid[r - 1][f - 1], pcs);
        c += n;
        while (*c == ' ')
            c++;
    }
    size_t len = 0;
    for (int r = 0; r < 9; r++) {
        int empty = 0;
        if (r)
            out[len++] = '/';
        for (int f = 8; f >= 0; f--) {
            const char *t = grid[r][f];
            if (!t[0]) {
                empty++;
                continue;
            }
            if (empty)
                len += (size_t)sprintf(out + len, "%d", empty);
            empty = 0;
            if (strlen(t) == 1) {
                out[len++] = t[0];
                continue;
            }
            out[len++] = '|';
            for (size_t i = 0; t[i]; i++) {
                if (i)
                    out[len++] = ':';
                out[len++] = t[i];
            }
            out[len++] = '|';
        }
        if (empty)
            len += (size_t)sprintf(out + len, "%d", empty);
    }
    snprintf(out + len, sizeof out - len, " %s", tail);
    return out;
}

static tiers_pos *pos(const char *text)
{
    return tu_pos(variant, text, GJ3);
}

/* Reads a SAN as the library's readers do: a trailing '#' (mate) or '='
 * (draw) a record may add is ignored unless the move itself ends in '#'. */
static int parse_san(tiers_pos *p, const char *san, tiers_move *m)
{
    tiers_error err;
    if (tiers_move_parse(p, san, GJ3, m, &err) == 0)
        return 0;
    size_t n = strlen(san);
    char tmp[SAN_MAX];
    if (n == 0 || n >= sizeof tmp || (san[n - 1] != '#' && san[n - 1] != '='))
        return -1;
    memcpy(tmp, san, n - 1);
    tmp[n - 1] = 0;
    return tiers_move_parse(p, tmp, GJ3, m, &err);
}

static void play(tiers_pos *p, const char *san)
{
    tiers_move m;
    if (parse_san(p, san, &m) < 0) {
        char *all = tu_moves(p, GJ3);
        fail_msg("move '%s' rejected in %s; legal: %s", san, tu_fen(p, GJ3), all);
    }
    assert_int_equal(tiers_make(p, &m), 0);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join_sorted(char **s, int n)
{
    qsort(s, (size_t)n, sizeof *s, cmp_str);
    size_t total = 1;
    for (int i = 0; i < n; i++)
        total += strlen(s[i]) + 1;
    char *out = calloc(total, 1);
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, s[i]);
    }
    return out;
}

/* ------------------------------------------------------------ oracle */

/* One record of positions.jsonl or modes.jsonl: 1 if tiers agrees on the
 * list (as a multiset), the flags and the FEN written back. */
static int check_record(const char *line)
{
    char *text = tu_json_string(line, "position");
    char **moves;
    int n = tu_json_strings(line, "moves", &moves);
    char *want = join_sorted(moves, n);
    tiers_pos *p = pos(text);
    char *got = tu_moves(p, GJ3);
    tiers_status st = tiers_pos_status(p);
    /* The library reports an attacked Marshal during the draft too, where
       tiers' status leaves in_check 0 (no check is played there). */
    int in_check = tiers_side_in_check(p, st.side_to_move);
    const struct {
        const char *key;
        int got;
    } flags[] = {
        {"in_check", in_check},
        {"game_over", st.game_over},
        {"checkmate", st.game_over && !strcmp(st.reason, "checkmate")},
        {"stalemate", st.game_over && !strcmp(st.reason, "stalemate")},
        {"insufficient", st.game_over && !strcmp(st.reason, "insufficient material")},
        {"fourfold", st.game_over && !strcmp(st.reason, "repetition")},
    };
    int ok = !strcmp(want, got) && !strcmp(tu_fen(p, GJ3), text);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        int w = tu_json_bool(line, flags[i].key);
        if (w >= 0 && w != flags[i].got) {
            printf("  flag %s: want %d got %d\n", flags[i].key, w, flags[i].got);
            ok = 0;
        }
    }
    if (!ok)
        printf("record disagrees: %s\n  written: %s\n  want: %s\n  got:  %s\n", text,
               tu_fen(p, GJ3), want, got);
    free(got);
    free(want);
    free(text);
    tu_free_strings(moves, n);
    tiers_pos_free(p);
    return ok;
}

static int check_file(const char *rel, int expect)
{
    char **lines;
    int n = tu_lines(tu_path(rel), &lines), agree = 0;
    assert_int_equal(n, expect);
    for (int i = 0; i < n; i++)
        agree += check_record(lines[i]);
    printf("%s: %d of %d agree\n", rel, agree, n);
    tu_free_strings(lines, n);
    return agree;
}

static void test_oracle_positions(void **state)
{
    (void)state;
    assert_int_equal(check_file("data/oracle/official/positions.jsonl", 300), 300);
}

static void test_oracle_modes(void **state)
{
    (void)state;
    assert_int_equal(check_file("data/oracle/official/modes.jsonl", 938), 938);
}

/* The 30 games from the advanced start: every move reads and is legal, the
 * game goes on until the last one, which ends it as the reference said. */
static void test_oracle_games(void **state)
{
    (void)state;
    char **lines;
    int n = tu_lines(tu_path("data/oracle/official/games.jsonl"), &lines);
    int captured = 0, mated = 0;
    assert_int_equal(n, 30);
    for (int g = 0; g < n; g++) {
        char **moves;
        int nm = tu_json_strings(lines[g], "moves", &moves);
        char *result = tu_json_string(lines[g], "result");
        tiers_pos *p = tu_pos(variant, NULL, NULL);
        int mover = 0;
        for (int i = 0; i < nm; i++) {
            tiers_status st = tiers_pos_status(p);
            if (st.game_over)
                fail_msg("game %d: over (%s) before move %d", g, st.reason, i + 1);
            mover = st.side_to_move;
            play(p, moves[i]);
        }
        tiers_status st = tiers_pos_status(p);
        assert_true(st.game_over);
        assert_int_equal(st.result, mover == 0 ? TIERS_WIN_0 : TIERS_WIN_1);
        if (!strcmp(result, "checkmate")) {
            assert_string_equal(st.reason, "checkmate");
            mated++;
        } else {
            assert_string_equal(result, "game_over");
            assert_string_equal(st.reason, "royal captured");
            captured++;
        }
        free(result);
        tiers_pos_free(p);
        tu_free_strings(moves, nm);
    }
    printf("official oracle games: %d end by Marshal capture, %d by checkmate\n", captured,
           mated);
    assert_int_equal(captured, 29);
    assert_int_equal(mated, 1);
    tu_free_strings(lines, n);
}

/* The intro and beginner depth-3 counts take a few seconds under the
 * sanitizers: there they run only when TIERS_SLOW_TESTS is set. */
static int slow_ok(void)
{
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
    return 1;
#else
    return getenv("TIERS_SLOW_TESTS") != NULL;
#endif
}

static void perft_mode(const char *mode, int64_t d1, int64_t d2, int64_t d3, int d3_slow)
{
    char rule[64];
    snprintf(rule, sizeof rule, "mode=%s", mode);
    const char *rules[] = {rule, NULL};
    tiers_error err;
    tiers_variant *v = tiers_variant_load("official", NULL, rules, &err);
    assert_non_null(v);
    tiers_pos *p = tu_pos(v, NULL, NULL);
    assert_int_equal(tiers_perft(p, 1), d1);
    assert_int_equal(tiers_perft(p, 2), d2);
    if (!d3_slow || slow_ok())
        assert_int_equal(tiers_perft(p, 3), d3);
    else
        printf("perft 3 of %s skipped (slow build; set TIERS_SLOW_TESTS=1)\n", mode);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

static void test_perft_starts(void **state)
{
    (void)state;
    perft_mode("intro", 154, 23716, 3614062, 1);
    perft_mode("beginner", 187, 34969, 6268315, 1);
    perft_mode("intermediate", 54, 2916, 1317168, 0);
    perft_mode("advanced", 54, 2916, 1317168, 0);
}

/* The start FENs of the four modes, as the library writes them. */
static void test_start_positions(void **state)
{
    (void)state;
    static const struct {
        const char *mode, *fen;
    } starts[] = {
        {"intro", "3img3/1s2n2s1/d1fwdwf1d/9/9/9/D1FWDWF1D/1S2N2S1/3GMI3 "
                  "J2N2R2D1/j2n2r2d1 w 0 - 1"},
        {"beginner", "3img3/1ra1n1as1/d1fwdwf1d/9/9/9/D1FWDWF1D/1SA1N1AR1/3GMI3 "
                     "J2N2S1R1D1/j2n2s1r1d1 w 1 - 1"},
        {"intermediate", "9/9/9/9/9/9/9/9/9 M1G1I1J2W2N3R2S2F2D4C1A2K1T1/"
                         "m1g1i1j2w2n3r2s2f2d4c1a2k1t1 w 2 wb 1"},
        {"advanced", "9/9/9/9/9/9/9/9/9 M1G1I1J2W2N3R2S2F2D4C1A2K1T1/"
                     "m1g1i1j2w2n3r2s2f2d4c1a2k1t1 w 3 wb 1"},
    };
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        char rule[64];
        snprintf(rule, sizeof rule, "mode=%s", starts[i].mode);
        const char *rules[] = {rule, NULL};
        tiers_error err;
        tiers_variant *v = tiers_variant_load("official", NULL, rules, &err);
        assert_non_null(v);
        tiers_pos *p = tu_pos(v, NULL, NULL);
        assert_string_equal(tu_fen(p, GJ3), starts[i].fen);
        tiers_pos *q = tu_pos(v, starts[i].fen, GJ3);
        assert_true(tiers_pos_hash(p) == tiers_pos_hash(q));
        tiers_pos_free(p);
        tiers_pos_free(q);
        tiers_variant_free(v);
    }
    /* The option's default is the full game. */
    tiers_pos *p = tu_pos(variant, NULL, NULL);
    assert_string_equal(tu_fen(p, GJ3), starts[3].fen);
    tiers_pos_free(p);
}

/* ------------------------------------------------------------ movement */

/* The spec's movement table: lines (first, dir, length = tier + grow, or
 * a slide), in the piece's frame (+dy = forward). */
typedef struct spec_line {
    int fx, fy, dx, dy, grow; /* grow < 0: slide */
} spec_line;

typedef struct spec_piece {
    char letter;
    const char *kanji;
    int n;
    spec_line l[12];
} spec_piece;

#define STEP(x, y, g) {x, y, x, y, g}
static const spec_piece spec_pieces[] = {
    {'m', "帥", 8, {STEP(0, 1, 0), STEP(1, 1, 0), STEP(1, 0, 0), STEP(1, -1, 0),
                   STEP(0, -1, 0), STEP(-1, -1, 0), STEP(-1, 0, 0), STEP(-1, 1, 0)}},
    {'g', "大", 8, {STEP(0, 1, -1), STEP(1, 0, -1), STEP(0, -1, -1), STEP(-1, 0, -1),
                   STEP(1, 1, 0), STEP(1, -1, 0), STEP(-1, -1, 0), STEP(-1, 1, 0)}},
    {'i', "中", 8, {STEP(1, 1, -1), STEP(1, -1, -1), STEP(-1, -1, -1), STEP(-1, 1, -1),
                   STEP(0, 1, 0), STEP(1, 0, 0), STEP(0, -1, 0), STEP(-1, 0, 0)}},
    {'j', "小", 6, {STEP(0, 1, 0), STEP(1, 1, 0), STEP(-1, 1, 0), STEP(1, 0, 0),
                   STEP(-1, 0, 0), STEP(0, -1, 0)}},
    {'w', "侍", 4, {STEP(0, 1, 0), STEP(1, 1, 0), STEP(-1, 1, 0), STEP(0, -1, 0)}},
    {'n', "槍", 4, {STEP(0, 1, 1), STEP(1, 1, 0), STEP(-1, 1, 0), STEP(0, -1, 0)}},
    {'r', "馬", 4, {STEP(0, 1, 1), STEP(0, -1, 1), STEP(1, 0, 0), STEP(-1, 0, 0)}},
    {'s', "忍", 4, {STEP(1, 1, 1), STEP(1, -1, 1), STEP(-1, -1, 1), STEP(-1, 1, 1)}},
    {'f', "砦", 5, {STEP(0, 1, 0), STEP(1, 0, 0), STEP(-1, 0, 0), STEP(1, -1, 0),
                   STEP(-1, -1, 0)}},
    {'d', "兵", 2, {STEP(0, 1, 0), STEP(0, -1, 0)}},
    {'c', "砲", 4, {{0, 3, 0, 1, 0}, STEP(1, 0, 0), STEP(-1, 0, 0), STEP(0, -1, 0)}},
    {'a', "弓", 4, {{0, 2, 0, 1, 0}, {1, 2, 1, 1, 0}, {-1, 2, -1, 1, 0}, STEP(0, -1, 0)}},
    {'k', "筒", 3, {{0, 2, 0, 1, 0}, STEP(1, -1, 0), STEP(-1, -1, 0)}},
    {'t', "謀", 3, {STEP(1, 1, 0), STEP(-1, 1, 0), STEP(0, -1, 0)}},
};

/* On an empty board (the two Marshals out of every line), the piece on
 * tier T of an own tower at 5-5 reaches exactly the squares of the table:
 * each line grows by one square per tier, for both colours. */
static void test_reach_by_tier(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof spec_pieces / sizeof spec_pieces[0]; k++) {
        const spec_piece *sp = &spec_pieces[k];
        for (int side = 0; side < 2; side++)
            for (int tier = 1; tier <= 3; tier++) {
                char tower[4] = {0}, squares[64], head[64];
                for (int i = 0; i < tier - 1; i++)
                    tower[i] = side ? 'd' : 'D';
                tower[tier - 1] = (char)(side ? sp->letter : sp->letter - 32);
                int own_m = sp->letter == 'm';
                /* Two Soldiers keep it from being a lone-Marshals draw. */
                snprintf(squares, sizeof squares, "5-5:%s 9-7:D 1-3:d%s%s", tower,
                         own_m && side ? "" : " 1-4:m", own_m && !side ? "" : " 9-6:M");
                tiers_pos *p = pos(fen(squares, side ? "-/- b 3 - 10" : "-/- w 3 - 10"));
                /* Expected SANs: forward is rank -1 for White. */
                char *want[64];
                int nw = 0, fwd = side ? 1 : -1;
                snprintf(head, sizeof head, "%s(5-5-%d)", sp->kanji, tier);
                for (int i = 0; i < sp->n; i++) {
                    const spec_line *l = &sp->l[i];
                    int len = l->grow < 0 ? 9 : tier + l->grow;
                    for (int s = 0; s < len; s++) {
                        int r = 5 + fwd * (l->fy + s * l->dy), f = 5 + l->fx + s * l->dx;
                        if (r < 1 || r > 9 || f < 1 || f > 9)
                            break;
                        char buf[SAN_MAX];
                        snprintf(buf, sizeof buf, "%s(%d-%d-1)", head, r, f);
                        want[nw++] = strdup(buf);
                    }
                }
                char *w = join_sorted(want, nw);
                /* The piece's own moves from the full list. */
                char *all = tu_moves(p, GJ3), *mine[64];
                int ng = 0;
                for (char *save = NULL, *t = strtok_r(all, " ", &save); t;
                     t = strtok_r(NULL, " ", &save))
                    if (!strncmp(t, head, strlen(head)))
                        mine[ng++] = strdup(t);
                char *g = join_sorted(mine, ng);
                if (strcmp(w, g))
                    fail_msg("%s side %d tier %d:\n want %s\n got  %s", sp->kanji, side, tier,
                             w, g);
                free(w);
                free(g);
                free(all);
                for (int i = 0; i < nw; i++)
                    free(want[i]);
                for (int i = 0; i < ng; i++)
                    free(mine[i]);
                tiers_pos_free(p);
            }
    }
}

/* ------------------------------------------------------------ notation */

static void test_notation(void **state)
{
    (void)state;
    /* How positions and SANs are written: tests/rules/official/notation.scen.
       Bad inputs. */
    static const char *const bad[] = {
        "9/9/9/9/9/9/9/9/9 -/- w 3 - 0",       /* fullmove 0 */
        "9/9/9/9/9/9/9/9/9 -/- w 4 - 1",       /* no mode 4 */
        "9/9/9/9/9/9/9/9/8 -/- w 3 - 1",       /* short rank */
        "9/9/9/9/9/9/9/9/9 X1/- w 3 - 1",      /* unknown letter */
        "9/9/9/9/9/9/9/9/9 d1/- w 3 - 1",      /* Black's piece in White's hand */
        "9/9/9/9/9/9/9/9/|d:d:d:d|8 -/- w 3 - 1", /* tower of 4 */
        "9/9/9/9/9/9/9/9/9 -/- x 3 - 1",       /* turn */
        "9/9/9/9/9/9/9/9/9 -/- w 3 ww 1",      /* drafting */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tiers_pos *q = tu_pos(variant, NULL, NULL);
        tiers_error err;
        if (tiers_pos_parse(q, bad[i], GJ3, &err) == 0)
            fail_msg("'%s' was accepted", bad[i]);
        tiers_pos_free(q);
    }
    /* A record's trailing mark is read. */
    tiers_pos *p = pos("8m/6G2/9/9/9/9/9/9/M8 -/- w 3 - 10");
    tiers_move m;
    assert_int_equal(parse_san(p, "帥(9-9-1)(8-9-1)=", &m), 0);
    assert_int_equal(parse_san(p, "大(2-3-1)(2-2-1)#", &m), 0);
    tiers_pos_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_positions),
        cmocka_unit_test(test_perft_starts),
        cmocka_unit_test(test_oracle_positions),
        cmocka_unit_test(test_oracle_modes),
        cmocka_unit_test(test_oracle_games),
        cmocka_unit_test(test_reach_by_tier),
        cmocka_unit_test(test_notation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
