/* test_blog.c - the reference variant `blog` (variants/blog, spec in
 * shared/rules/blog.md): movement of every face and tier against a table
 * written by hand from the spec (tests/rules/blog/movement.txt), scenario
 * files for every effect, foul, option and the arrangement
 * (tests/rules/blog/, format in its README.md), perft
 * from the start and from play positions, and a random-playout soak with
 * make/unmake invariants (1000 games; 100 when TIERS_QUICK is set, as
 * scripts/test does for the sanitizer build). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "testutil.h"

/* The variant blog with rule overrides ("" = as shipped), loaded once. */
static tiers_variant *blog_with(const char *rules)
{
    return scen_variant("blog", rules);
}

/* ------------------------------------------------------------ movement */

/* Target squares (as a 81-char map) of the piece on e5 of p. */
static void targets_from(tiers_pos *p, const char *from, char *map)
{
    tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
    assert_true(n >= 0);
    memset(map, '.', 81);
    map[81] = 0;
    for (int i = 0; i < n; i++) {
        char text[64], sq[8];
        tiers_move_format(p, &buf[i], NULL, text, sizeof text);
        size_t fl = strlen(from);
        if (strncmp(text, from, fl) || (text[fl] != '-' && text[fl] != 'x' && text[fl] != '^'))
            continue;
        snprintf(sq, sizeof sq, "%s", text + fl + 1);
        sq[strspn(sq, "abcdefghi0123456789")] = 0;
        int file = sq[0] - 'a', rank = atoi(sq + 1) - 1;
        assert_true(file >= 0 && file < 9 && rank >= 0 && rank < 9);
        map[rank * 9 + file] = '*';
    }
}

/* The expected map of one line of movement.txt: offsets "dx,dy" or
 * slides "*dx,dy" in the mover's frame, from e5, for side 0 (facing
 * north) or side 1 (facing south: both offsets turn). */
static void expected_map(const char *spec, int side, char *map)
{
    memset(map, '.', 81);
    map[81] = 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", spec);
    for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t;
         t = strtok_r(NULL, " \t", &save)) {
        int slide = *t == '*', dx, dy;
        if (sscanf(t + slide, "%d,%d", &dx, &dy) != 2)
            fail_msg("movement.txt: bad offset '%s'", t);
        if (side)
            dx = -dx, dy = -dy;
        for (int f = 4 + dx, r = 4 + dy; f >= 0 && f < 9 && r >= 0 && r < 9;
             f += dx, r += dy) {
            map[r * 9 + f] = '*';
            if (!slide)
                break;
        }
    }
}

/* Fillers under the piece at tiers 2 and 3: own pieces of other faces
 * that project no region. */
static const char *filler(const char *sym, int i, int side)
{
    static const char *const a[] = {"I", "E"}, *const b[] = {"V", "O"};
    static char buf[8];
    const char *f = sym[0] == 'I' || sym[0] == 'E' ? b[i] : a[i];
    snprintf(buf, sizeof buf, "%s", f);
    if (side)
        buf[0] = (char)(buf[0] - 'A' + 'a');
    return buf;
}

static void test_movement(void **state)
{
    (void)state;
    tiers_variant *v = blog_with("");
    char **lines;
    int n = tu_lines(tu_path("rules/blog/movement.txt"), &lines), checked = 0;
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        char face[32], sym[8];
        int tier, off;
        if (lines[i][0] == '#' ||
            sscanf(lines[i], "%31s %7s %d :%n", face, sym, &tier, &off) != 3)
            continue;
        for (int side = 0; side < 2; side++) {
            /* Black's Commander on a2, White's on i8: on no line of e5. */
            char tower[64] = "", fen[256], piece[8];
            snprintf(piece, sizeof piece, "%s", sym);
            if (side)
                piece[0] = (char)(piece[0] - 'A' + 'a');
            for (int k = 0; k < tier - 1; k++) {
                strcat(tower, filler(sym, k, side));
                strcat(tower, ":");
            }
            strcat(tower, piece);
            snprintf(fen, sizeof fen, "9/8k/9/9/4%s%s%s4/9/9/K8/9 - %c - 0 40",
                     tier > 1 ? "[" : "", tower, tier > 1 ? "]" : "", side ? 'w' : 'b');
            tiers_pos *p = tu_pos(v, fen, NULL);
            char got[82], want[82];
            targets_from(p, "e5", got);
            expected_map(lines[i] + off, side, want);
            if (strcmp(got, want)) {
                printf("%s tier %d (%s): %s\n  want %s\n  got  %s\n", face, tier,
                       side ? "white" : "black", fen, want, got);
                fail();
            }
            tiers_pos_free(p);
            checked++;
        }
    }
    tu_free_strings(lines, n);
    assert_int_equal(checked, 2 * 20 * 3); /* 20 faces, 3 tiers, 2 sides */
}

#define SCENARIO_TEST(fn, file, min)                                                    \
    static void fn(void **state)                                                        \
    {                                                                                   \
        (void)state;                                                                    \
        int checks = 0, n = scen_run("rules/blog/" file, &checks);                       \
        printf("%s: %d scenarios, %d checks\n", file, n, checks);                       \
        assert_true(n >= (min));                                                        \
    }

SCENARIO_TEST(test_board, "board.txt", 4)
SCENARIO_TEST(test_regions, "regions.txt", 8)
SCENARIO_TEST(test_landlink, "landlink.txt", 4)
SCENARIO_TEST(test_exchange, "exchange.txt", 4)
SCENARIO_TEST(test_substitution, "substitution.txt", 4)
SCENARIO_TEST(test_betrayal, "betrayal.txt", 4)
SCENARIO_TEST(test_recovery, "recovery.txt", 4)
SCENARIO_TEST(test_rearrangement, "rearrangement.txt", 4)
SCENARIO_TEST(test_check, "check.txt", 4)
SCENARIO_TEST(test_fouls, "fouls.txt", 14)
SCENARIO_TEST(test_arrangement, "arrangement.txt", 6)
SCENARIO_TEST(test_options, "options.txt", 8)
SCENARIO_TEST(test_captured, "captured.txt", 9)
SCENARIO_TEST(test_repetition, "repetition.txt", 2)

/* ------------------------------------------------------------ perft */

static void test_perft_start(void **state)
{
    (void)state;
    tiers_pos *p = tu_pos(blog_with(""), NULL, NULL);
    assert_int_equal(tiers_perft(p, 1), 324);
    /* 324 * 324 less the 135 White Commander placements attacked by
       Black's first piece (a Hidden Dragon's file, a Prodigy's diagonals) */
    assert_int_equal(tiers_perft(p, 2), 104841);
    tiers_pos_free(p);
}

/* tests/rules/blog/perft.txt: "name | position | d1 d2 ..." */
static void test_perft_positions(void **state)
{
    (void)state;
    char **lines;
    int n = tu_lines(tu_path("rules/blog/perft.txt"), &lines), checked = 0;
    int quick = getenv("TIERS_QUICK") != NULL;
    for (int i = 0; i < n; i++) {
        if (lines[i][0] == '#')
            continue;
        char *name = strtok(lines[i], "|"), *fen = strtok(NULL, "|"), *counts = strtok(NULL, "|");
        assert_non_null(counts);
        while (*fen == ' ')
            fen++;
        fen[strcspn(fen, "|")] = 0;
        for (size_t k = strlen(fen); k && fen[k - 1] == ' '; k--)
            fen[k - 1] = 0;
        tiers_pos *p = tu_pos(blog_with(""), fen, NULL);
        int depth = 1;
        for (char *save = NULL, *t = strtok_r(counts, " ", &save); t;
             t = strtok_r(NULL, " ", &save), depth++) {
            if (quick && depth > 2)
                break;
            long long want = atoll(t), got = tiers_perft(p, depth);
            if (got != want) {
                printf("perft %s depth %d: got %lld, want %lld\n", name, depth, got, want);
                fail();
            }
            checked++;
        }
        tiers_pos_free(p);
    }
    tu_free_strings(lines, n);
    assert_true(checked >= 10);
}

/* ------------------------------------------------------------ soak */

static uint64_t next_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Random complete games from the empty start (arrangement included,
 * capped at 400 plies), games first..last-1 of the soak's 1000 (100 with
 * TIERS_QUICK).  Every ply: unmake restores the position's text and hash
 * exactly, and making the move again gives the same position.  Every 8th
 * ply also: the incremental hash equals the hash of the position read
 * afresh from its text, and the move's text reads back as the same move
 * (reading runs the whole generator).  Each game has its own seeds, so
 * that the soak runs as three tests (in three parts of test_blog) and any
 * game can be played again alone. */
static void soak(int part, int parts)
{
    const char *q = getenv("TIERS_QUICK");
    int all = q && *q && strcmp(q, "0") ? 100 : 1000;
    int first = all * part / parts, games = all * (part + 1) / parts - first;
    tiers_variant *v = blog_with("");
    tiers_pos *p = tu_pos(v, NULL, NULL), *fresh = tu_pos(v, NULL, NULL);
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    uint64_t rng;
    long long plies = 0, setup_plies = 0, ended = 0, reasons[4] = {0};
    const char *reason_names[4] = {"checkmate", "stalemate", "repetition", "royal captured"};
    tiers_stats stats = {.vetoed = 0};
    int ne = tiers_variant_effects(v);
    for (int g = first; g < first + games; g++) {
        tiers_pos_reset(p);
        tiers_pos_seed(p, 7 + (uint64_t)g);
        rng = 0x2545f4914f6cdd1dull + (uint64_t)g * 0x9e3779b97f4a7c15ull;
        rng += !rng; /* xorshift stays at 0 */
        int ply = 0;
        for (; ply < 400; ply++) {
            int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
            if (n < 0)
                fail_msg("game %d ply %d: generation failed: %s", g, ply,
                         tiers_variant_script_error(v));
            if (n == 0) {
                tiers_status st = tiers_pos_status(p);
                assert_true(st.game_over);
                ended++;
                for (int r = 0; r < 4; r++)
                    reasons[r] += !strcmp(st.reason, reason_names[r]);
                break;
            }
            const tiers_move *m = &buf[next_rand(&rng) % (uint64_t)n];
            char before[2048], after[2048], text[128];
            uint64_t h0 = tiers_pos_hash(p);
            snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
            setup_plies += strstr(before, " - ") == NULL; /* setup field "-": play */
            tiers_move_format(p, m, NULL, text, sizeof text);
            if (ply % 8 == 0) {
                tiers_move back;
                tiers_error err;
                if (tiers_move_parse(p, text, NULL, &back, &err) < 0 ||
                    memcmp(&back, m, sizeof back))
                    fail_msg("game %d ply %d: '%s' does not read back (%s)", g, ply, text,
                             before);
            }
            assert_int_equal(tiers_pos_make_unchecked(p, m, &stats), 0);
            uint64_t h1 = tiers_pos_hash(p);
            snprintf(after, sizeof after, "%s", tu_fen(p, NULL));
            assert_int_equal(tiers_unmake(p), 0);
            if (tiers_pos_hash(p) != h0 || strcmp(before, tu_fen(p, NULL)))
                fail_msg("game %d ply %d: unmake of %s from %s gave %s", g, ply, text, before,
                         tu_fen(p, NULL));
            assert_int_equal(tiers_pos_make_unchecked(p, m, &stats), 0);
            if (tiers_pos_hash(p) != h1)
                fail_msg("game %d ply %d: %s made twice differs: %s", g, ply, text, after);
            if (ply % 8 == 0) {
                tiers_error err;
                if (tiers_pos_parse(fresh, after, NULL, &err) < 0)
                    fail_msg("game %d ply %d: text does not read back: %s", g, ply, after);
                if (tiers_pos_hash(fresh) != h1)
                    fail_msg("game %d ply %d: incremental hash differs after %s: %s", g, ply,
                             text, after);
            }
        }
        plies += ply;
    }
    printf("blog soak %d/%d: games %d-%d, %lld plies (%lld in the arrangement), %lld ended "
           "(checkmate %lld, stalemate %lld, repetition %lld, royal captured %lld)\n",
           part + 1, parts, first, first + games - 1, plies, setup_plies, ended, reasons[0],
           reasons[1], reasons[2], reasons[3]);
    printf("  effects that fired (each move is made twice):");
    for (int e = 0; e < ne && e < 32; e++)
        printf(" %s %u", tiers_variant_effect_name(v, e), stats.fired[e]);
    printf("\n");
    assert_true(plies > (long long)games * 46); /* the arrangement alone is 46 plies */
    free(buf);
    tiers_pos_free(fresh);
    tiers_pos_free(p);
}

static void test_soak_1(void **state)
{
    (void)state;
    soak(0, 3);
}

static void test_soak_2(void **state)
{
    (void)state;
    soak(1, 3);
}

static void test_soak_3(void **state)
{
    (void)state;
    soak(2, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_movement),
        cmocka_unit_test(test_board),
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_landlink),
        cmocka_unit_test(test_exchange),
        cmocka_unit_test(test_substitution),
        cmocka_unit_test(test_betrayal),
        cmocka_unit_test(test_recovery),
        cmocka_unit_test(test_rearrangement),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_fouls),
        cmocka_unit_test(test_arrangement),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_captured),
        cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_perft_positions),
        /* at 17, 18, 19: one in each part of the three (i mod 3) */
        cmocka_unit_test(test_soak_1),
        cmocka_unit_test(test_soak_2),
        cmocka_unit_test(test_soak_3),
    };
    /* TIERS_TEST_FILTER=test_fouls runs one while working (testutil.h) */
    return tu_run_tests(tests, NULL, scen_teardown);
}
