/* test_gungi_io.c - the gungi-io variant against the reference engine
 * (gungi.js 1.0.20): its 300 positions with complete move lists, its 30
 * games and its perft counts (tests/data/oracle, see tests/data/README.md),
 * and tiers_pos_make refusing a hand-built illegal move.  The
 * pawn_drop_mate option: tests/rules/gungi-io/ (test_rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GJ "gungijs"

static tiers_variant *variant;

static int setup(void **state)
{
    (void)state;
    variant = tu_variant("gungi-io");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tiers_variant_free(variant);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Removes one occurrence of s from list[0..*n). */
static int remove_one(char **list, int *n, const char *s)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp(list[i], s)) {
            free(list[i]);
            list[i] = list[--*n];
            return 1;
        }
    return 0;
}

/* The number of moves a record's quirk field (an array) lists. */
static int quirks(const char *line, const char *key)
{
    char **moves;
    int n = tu_json_strings(line, key, &moves);
    tu_free_strings(moves, n);
    return n;
}

/* The oracle's list corrected by the record's quirk fields, sorted and
 * joined like tu_moves. */
static char *expected_moves(const char *line, int *count)
{
    char **moves, **bad, **missing;
    int n = tu_json_strings(line, "moves", &moves);
    int nb = tu_json_strings(line, "quirk_false_legal", &bad);
    int nm = tu_json_strings(line, "quirk_false_illegal", &missing);
    for (int i = 0; i < nb; i++)
        assert_true(remove_one(moves, &n, bad[i]));
    moves = realloc(moves, (size_t)(n + nm + 1) * sizeof *moves);
    for (int i = 0; i < nm; i++)
        moves[n++] = strdup(missing[i]);
    qsort(moves, (size_t)n, sizeof *moves, cmp_str);
    size_t total = 1;
    for (int i = 0; i < n; i++)
        total += strlen(moves[i]) + 1;
    char *out = calloc(total, 1);
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, moves[i]);
    }
    *count = n;
    tu_free_strings(moves, n);
    tu_free_strings(bad, nb);
    tu_free_strings(missing, nm);
    return out;
}

/* One record: 1 if tiers agrees with the corrected reference. */
static int check_record(const char *line)
{
    char *fen = tu_json_string(line, "position");
    int marshal_captured = tu_json_bool(line, "marshal_captured") == 1;
    int n_expected;
    char *want = expected_moves(line, &n_expected);
    tiers_pos *p = tu_pos(variant, fen, GJ);
    char *got = tu_moves(p, GJ);
    tiers_status st = tiers_pos_status(p);
    int ok;
    if (marshal_captured) {
        ok = st.game_over && got[0] == 0;
    } else {
        int in_check = tu_json_bool(line, "in_check");
        int mate = in_check && n_expected == 0;
        int corrected = quirks(line, "quirk_false_legal") || quirks(line, "quirk_false_illegal");
        int over = corrected ? n_expected == 0 : tu_json_bool(line, "game_over") == 1;
        ok = !strcmp(want, got) && st.in_check == in_check &&
             (st.game_over && !strcmp(st.reason, "checkmate")) == mate && st.game_over == over;
    }
    if (!ok)
        printf("record disagrees: %s\n  want: %s\n  got:  %s\n  status: check %d over %d %s\n",
               fen, want, got, st.in_check, st.game_over, st.reason);
    free(got);
    free(want);
    free(fen);
    tiers_pos_free(p);
    return ok;
}

static void test_oracle_positions(void **state)
{
    (void)state;
    char **lines;
    int n = tu_lines(tu_path("data/oracle/gungi-io/positions.jsonl"), &lines), agree = 0;
    assert_int_equal(n, 300);
    for (int i = 0; i < n; i++)
        agree += check_record(lines[i]);
    printf("gungi-io oracle positions: %d of %d agree\n", agree, n);
    tu_free_strings(lines, n);
    assert_int_equal(agree, 300);
}

/* Is the move the reference's defect: a capture on a tower of height >= 2
 * that exposes the mover's own Marshal? */
static int is_defect_capture(tiers_pos *p, const char *text)
{
    tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        char s[64];
        tiers_move_format(p, &buf[i], GJ, s, sizeof s);
        if (strcmp(s, text) || buf[i].kind != TIERS_MV_CAPTURE)
            continue;
        int file = buf[i].to & 15, rank = buf[i].to >> 4;
        int tall = tiers_pos_height(p, file, rank) >= 2;
        int mover = tiers_pos_status(p).side_to_move;
        assert_int_equal(tiers_pos_make_unchecked(p, &buf[i], NULL), 0); /* pseudo-legal */
        int exposed = tiers_side_in_check(p, mover);
        tiers_unmake(p);
        return tall && exposed;
    }
    return 0;
}

/* Is the position an oracle record whose list lacked a legal move? */
static int reference_missed_a_move(const tiers_pos *p)
{
    char **lines, fen[2048];
    int n = tu_lines(tu_path("data/oracle/gungi-io/positions.jsonl"), &lines), found = 0;
    tiers_pos_format(p, GJ, fen, sizeof fen);
    for (int i = 0; i < n && !found; i++) {
        char *pos = tu_json_string(lines[i], "position");
        found = !strcmp(pos, fen) && quirks(lines[i], "quirk_false_illegal");
        free(pos);
    }
    tu_free_strings(lines, n);
    return found;
}

static void test_oracle_games(void **state)
{
    (void)state;
    char **lines;
    int n = tu_lines(tu_path("data/oracle/gungi-io/games.jsonl"), &lines);
    int complete = 0, stopped = 0;
    assert_int_equal(n, 30);
    for (int g = 0; g < n; g++) {
        char **moves;
        int nm = tu_json_strings(lines[g], "moves", &moves), i;
        tiers_pos *p = tu_pos(variant, NULL, NULL);
        for (i = 0; i < nm; i++) {
            tiers_move m;
            tiers_error err;
            if (tiers_move_parse(p, moves[i], GJ, &m, &err) < 0)
                break;
            assert_int_equal(tiers_make(p, &m), 0);
        }
        if (i == nm) {
            /* The reference's verdict on a game it ended legally. */
            char *result = tu_json_string(lines[g], "result");
            tiers_status st = tiers_pos_status(p);
            if (!strcmp(result, "maxply")) {
                assert_false(st.game_over);
            } else {
                int white_lost = !strcmp(result, "checkmate:w-lost");
                assert_true(white_lost || !strcmp(result, "checkmate:b-lost"));
                if (!st.game_over) {
                    /* Only where the reference's defect hid a legal move. */
                    assert_true(reference_missed_a_move(p));
                    printf("game %d: the reference's checkmate is not one (its defect)\n", g);
                    free(result);
                    complete++;
                    tiers_pos_free(p);
                    tu_free_strings(moves, nm);
                    continue;
                }
                assert_string_equal(st.reason, "checkmate");
                assert_int_equal(st.result, white_lost ? TIERS_WIN_1 : TIERS_WIN_0);
            }
            free(result);
            complete++;
        } else {
            if (!is_defect_capture(p, moves[i]))
                fail_msg("game %d: move %d '%s' rejected and not the known defect", g, i + 1,
                         moves[i]);
            stopped++;
        }
        tiers_pos_free(p);
        tu_free_strings(moves, nm);
    }
    printf("gungi-io oracle games: %d complete, %d stopped at a defect capture\n", complete,
           stopped);
    assert_int_equal(stopped, 18);
    assert_int_equal(complete, 12);
    tu_free_strings(lines, n);
}

static void test_perft_start(void **state)
{
    (void)state;
    tiers_pos *p = tu_pos(variant, NULL, NULL);
    assert_int_equal(tiers_perft(p, 1), 27);
    assert_int_equal(tiers_perft(p, 2), 729);
    assert_int_equal(tiers_perft(p, 3), 228177);
    tiers_pos_free(p);
}

static void test_perft_play_positions(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int64_t d1, d2;
    } cases[] = {
        {"MIT1|R:J:G|F|F:G||A:W|1/DW2K2S1/1IDJ1|R:I||I:C||C:S|1/1D7/4A4/8|i:w|/tdf3k2/"
         "1sg|i:c:d|d1|g:g|g1/1g|r:r:g|m2|s:w|i1 G4J2D6/i1j4a2f1c1d6 w - 12 63", 65, 21180},
        {"1R3F3/1|W:S:M|S2I|D:W:R|J1/2DT1I1C1/1J7/9/9/|c:r:G|2d|g:d|s1i1/d1sm1i1dc/"
         "1a|a:k:j|jiw1ri G5I2J2A2K1C1D7/g5j2f2d5 b - 0 65", 214, 87533},
        {"9/5j3/2G6/i1M6/2d2W3/2a6/k2i3r1/|t:c:a|1g|w:j||s:d|1js1/1m1d2|j:c:r|1i "
         "G5I4J4R2T1W1F2C1S2D9/g4i1d6 w - 0 79", 13, 2521},
        {"4M4/9/2G6/i3g4/2dai4/9/k6r1/|t:c|1gw|s:d|1|W:g|s1/1mjd2|j:c:r|1i "
         "G5I4J4R2T1W1F2C1S2D9/g1d6 b - 0 106", 153, 81857},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tiers_pos *p = tu_pos(variant, cases[i].fen, GJ);
        int64_t d1 = tiers_perft(p, 1), d2 = tiers_perft(p, 2);
        if (d1 != cases[i].d1 || d2 != cases[i].d2)
            printf("perft %zu: got %lld %lld want %lld %lld\n", i, (long long)d1,
                   (long long)d2, (long long)cases[i].d1, (long long)cases[i].d2);
        assert_int_equal(d1, cases[i].d1);
        assert_int_equal(d2, cases[i].d2);
        tiers_pos_free(p);
    }
}

/* White's last Pawn in hand and Black's lone Marshal on a7: a check by a
 * drop on a6 (the position of tests/rules/gungi-io/pawn_drop.scen without
 * the General on a9). */
#define PAWN_CHECK "9/2G6/m8/2G6/1G7/9/9/9/8M D w - 0 100"

/* tiers_pos_make checks its move against the legal list: a hand-built
 * move from an empty square (which once left a tower of 255 pieces) is
 * refused and leaves the position as it was; a legal move is made even
 * with junk past its path; tiers_make, the old name, does the same. */
static void test_make_refuses_illegal(void **state)
{
    (void)state;
    tiers_pos *p = tu_pos(variant, PAWN_CHECK, NULL);
    int ply = tiers_pos_ply(p);
    char before[1024];
    snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
    tiers_move bad = {.kind = TIERS_MV_MOVE, .from = 4 * 16 + 4, .to = 5 * 16 + 4};
    assert_int_equal(tiers_pos_height(p, 4, 4), 0); /* e5 is empty */
    assert_int_equal(tiers_pos_make(p, &bad), TIERS_EILLEGAL);
    assert_int_equal(tiers_make(p, &bad), TIERS_EILLEGAL);
    assert_string_equal(tu_fen(p, NULL), before);
    assert_int_equal(tiers_pos_height(p, 4, 5), 0);
    assert_int_equal(tiers_pos_unmake(p), TIERS_EUSAGE); /* nothing was made */

    tiers_move m;
    tiers_error err;
    assert_int_equal(tiers_move_parse(p, "D*a6", NULL, &m, &err), 0);
    tiers_move other = m; /* the same drop of another piece: not legal */
    other.piece ^= 1;
    assert_int_equal(tiers_pos_make(p, &other), TIERS_EILLEGAL);
    m.path[3] = 77; /* past npath: no part of the move */
    assert_int_equal(tiers_pos_make(p, &m), 0);
    assert_int_equal(tiers_pos_ply(p), ply + 1);
    assert_int_equal(tiers_pos_unmake(p), 0);
    assert_string_equal(tu_fen(p, NULL), before);
    assert_int_equal(tiers_pos_make_unchecked(p, &m, NULL), 0); /* the hot-path twin */
    assert_int_equal(tiers_pos_ply(p), ply + 1);
    tiers_pos_free(p);
}

static void test_notation_round_trip(void **state)
{
    (void)state;
    char **lines;
    int n = tu_lines(tu_path("data/oracle/gungi-io/positions.jsonl"), &lines);
    for (int i = 0; i < n; i++) {
        char *fen = tu_json_string(lines[i], "position");
        tiers_pos *p = tu_pos(variant, fen, GJ);
        assert_string_equal(tu_fen(p, GJ), fen);
        char own[4096];
        snprintf(own, sizeof own, "%s", tu_fen(p, NULL));
        tiers_pos *q = tu_pos(variant, own, NULL);
        assert_string_equal(tu_fen(q, NULL), own);
        assert_string_equal(tu_fen(q, GJ), fen);
        assert_true(tiers_pos_hash(p) == tiers_pos_hash(q));
        tiers_pos_free(p);
        tiers_pos_free(q);
        free(fen);
    }
    tu_free_strings(lines, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notation_round_trip),
        cmocka_unit_test(test_make_refuses_illegal),
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_oracle_positions),
        cmocka_unit_test(test_perft_play_positions),
        cmocka_unit_test(test_oracle_games),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
