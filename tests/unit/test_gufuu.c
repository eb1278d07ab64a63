/* test_gufuu.c - the gufuu variant (docs/rules/gufuu.md) and the engine's
 * `check` hook: what scenario files cannot say (perft with a check of
 * every move, every pattern and placement, options that fail to load).
 * The scenarios of its rules and its dialect are tests/rules/gufuu/ (run
 * by test_rules).
 *
 * Positions are tiers notation: ranks 3 (top, the spec's rank a) down to
 * 1, files a (the spec's file 2) and b; K = Black's King (Black moves
 * first, from the bottom), k = White's, *Z = the shared Kaze, *A = the
 * shared Arashi, @n/@e/@s/@w = the facing (n = toward rank 3).  Most
 * positions are taken at ply 10, after the forced opening. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static tiers_variant *variant;

static int setup(void **state)
{
    (void)state;
    variant = tu_variant("gufuu");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tiers_variant_free(variant);
    return 0;
}

static tiers_variant *load_with(const char *spec, const char *rule)
{
    const char *rules[2] = {rule, NULL};
    tiers_error err;
    char msg[1024];
    tiers_variant *v =
        tiers_variant_load(spec, TIERS_TEST_DIR "/data/variants", rule ? rules : NULL, &err);
    if (!v)
        fail_msg("loading %s with %s: %s", spec, rule ? rule : "-",
                 tiers_error_text(&err, msg, sizeof msg));
    return v;
}

/* ------------------------------------------------------------ perft */

/* Counts the legal move tree like tiers_perft and checks every move on
 * the way: no capture ever lands on a King. */
static int64_t perft_checked(tiers_pos *p, int depth)
{
    tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++)
        if (buf[i].kind == TIERS_MV_CAPTURE) {
            char tok[32];
            int f = buf[i].to & 15, r = buf[i].to >> 4;
            assert_true(tiers_pos_piece(p, f, r, 1, tok, sizeof tok) >= 0);
            assert_true(tok[0] == '*'); /* only shared pieces are taken */
        }
    if (depth == 1)
        return n;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(tiers_make(p, &buf[i]), 0);
        total += perft_checked(p, depth - 1);
        assert_int_equal(tiers_unmake(p), 0);
    }
    return total;
}

/* The spec's perft from the empty start, with no capture of a King. */
static void test_perft(void **state)
{
    (void)state;
    static const int64_t expected[] = {24, 466, 7264, 65920, 526032};
    /* depth 5 takes a few seconds; not in the sanitizer build */
    const char *quick = getenv("TIERS_QUICK");
    int last = quick && *quick && strcmp(quick, "0") ? 4 : 5;
    tiers_pos *p = tu_pos(variant, NULL, NULL);
    for (int d = 1; d < last; d++)
        assert_int_equal(tiers_perft(p, d), expected[d - 1]);
    assert_int_equal(perft_checked(p, last), expected[last - 1]);
    tiers_pos_free(p);
}

/* Perft under each option (values of this implementation, kept against
 * silent changes): from the start, where only the face-to-face readings
 * touch the opening drops, and from the position after an opening. */
static void test_perft_options(void **state)
{
    (void)state;
    static const char *after_opening = "1k@s/*Z@e1/K@n*A@w - b - 0 4";
    static const struct {
        const char *rule;
        int64_t from_start, from_play; /* perft 4 */
    } cases[] = {
        {"face_to_face=both", 65920, 10530},   {"face_to_face=either", 54400, 8288},
        {"face_to_face=line", 65336, 10528},   {"discovered_check=forbid", 65920, 10105},
        {"own_shared_capture=forbid", 65920, 1055}, {"stalemate=draw", 65920, 10530},
        {"repetition=3", 65920, 10530},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tiers_variant *v = load_with("gufuu", cases[i].rule);
        tiers_pos *p = tu_pos(v, NULL, NULL);
        assert_int_equal(tiers_perft(p, 4), cases[i].from_start);
        tiers_pos_free(p);
        p = tu_pos(v, after_opening, NULL);
        assert_int_equal(tiers_perft(p, 4), cases[i].from_play);
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
}

/* ------------------------------------------------------------ patterns */

/* The step patterns facing n, [dx, dy] with +dy ahead and +dx to the
 * right (the spec's tables). */
static const struct {
    const char *letter;
    int n;
    int d[8][2];
} patterns[] = {
    {"K", 8, {{-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, 0}, {-1, -1}, {0, -1}, {1, -1}}},
    {"Z", 3, {{0, 1}, {-1, -1}, {1, -1}}},
    {"A", 5, {{-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}},
};

/* Square index 0..5 = file + 2 * rank. */
static int turned_target(int k, int i, int sq, int dir)
{
    int dx = patterns[k].d[i][0], dy = patterns[k].d[i][1], x, y;
    switch (dir) {
    case 0: x = dx, y = dy; break;
    case 1: x = dy, y = -dx; break;
    case 2: x = -dx, y = -dy; break;
    default: x = -dy, y = dx; break;
    }
    int f = sq % 2 + x, r = sq / 2 + y;
    return f >= 0 && f < 2 && r >= 0 && r < 3 ? f + 2 * r : -1;
}

static unsigned pattern_set(int k, int sq, int dir)
{
    unsigned set = 0;
    for (int i = 0; i < patterns[k].n; i++) {
        int t = turned_target(k, i, sq, dir);
        if (t >= 0)
            set |= 1u << t;
    }
    return set;
}

/* A position from six cells (index file + 2 * rank; NULL = empty). */
static void board_text(const char *cell[6], const char *rest, char *out, size_t size)
{
    size_t n = 0;
    for (int r = 2; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 2; f++) {
            const char *c = cell[f + 2 * r];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(out + n, size - n, "%d", empty);
            empty = 0;
            n += (size_t)snprintf(out + n, size - n, "%s", c);
        }
        if (empty)
            n += (size_t)snprintf(out + n, size - n, "%d", empty);
        if (r)
            n += (size_t)snprintf(out + n, size - n, "/");
    }
    snprintf(out + n, size - n, " %s", rest);
}

/* The targets of the moves of kind `kind` from sq among the pseudo-legal
 * moves (before the check and face-to-face rules). */
static unsigned targets(tiers_pos *p, int kind, int sq)
{
    tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES);
    unsigned set = 0;
    assert_true(n >= 0);
    for (int i = 0; i < n; i++)
        if (buf[i].kind == kind && buf[i].from == ((sq / 2) << 4 | (sq % 2)))
            set |= 1u << ((buf[i].to >> 4) * 2 + (buf[i].to & 15));
    return set;
}

/* Every piece, on every square, with every facing: its steps (to the
 * empty squares of its turned pattern) and its captures of a shared piece
 * (on the squares of the same pattern; the capture list comes from the
 * variant's Lua, the steps from the engine's tables), and a turn. */
static void test_patterns_every_facing(void **state)
{
    (void)state;
    static const char dirs[] = "nesw";
    for (int k = 0; k < 3; k++)
        for (int sq = 0; sq < 6; sq++)
            for (int dir = 0; dir < 4; dir++)
                for (int layout = 0; layout < 2; layout++) {
                    /* the piece on sq, and the two Kings (or the other
                       King and a shared target) on the other squares */
                    const char *cell[6] = {0};
                    char me[8], other[8] = "";
                    int shared = k > 0;
                    snprintf(me, sizeof me, "%s%s@%c", shared ? "*" : "", patterns[k].letter,
                             dirs[dir]);
                    cell[sq] = me;
                    int free_sq[5], nf = 0;
                    for (int s = 0; s < 6; s++)
                        if (s != sq)
                            free_sq[nf++] = s;
                    int a = layout ? free_sq[0] : free_sq[4];
                    int b = layout ? free_sq[1] : free_sq[3];
                    cell[a] = shared ? "K@s" : "k@s";
                    snprintf(other, sizeof other, "%s", shared ? "k@w" : "*A@w");
                    cell[b] = other;
                    char text[128];
                    board_text(cell, k == 1 ? "*A b - 0 10" : "*Z b - 0 10", text, sizeof text);
                    tiers_pos *p = tu_pos(variant, text, NULL);
                    unsigned pat = pattern_set(k, sq, dir);
                    unsigned empty = 0x3f & ~(1u << sq | 1u << a | 1u << b);
                    unsigned steps = targets(p, TIERS_MV_MOVE, sq);
                    if (steps != (pat & empty))
                        fail_msg("%s: steps from %d are %#x, expected %#x", text, sq, steps,
                                 pat & empty);
                    unsigned takes = targets(p, TIERS_MV_CAPTURE, sq);
                    /* the King takes the Arashi, unless it gives check */
                    unsigned arashi = pattern_set(2, b, 3);
                    int checking = (arashi >> sq & 1) && (arashi >> a & 1);
                    unsigned shared_at = shared || checking ? 0 : 1u << b;
                    if (takes != (pat & shared_at))
                        fail_msg("%s: captures from %d are %#x, expected %#x", text, sq, takes,
                                 pat & shared_at);
                    assert_int_equal(targets(p, TIERS_MV_ROTATE, sq), 1u << sq);
                    tiers_pos_free(p);
                }
}

/* Contact check on every placement of one shared piece: the side to move
 * is in check exactly when the piece's pattern holds both Kings. */
static void test_contact_check_everywhere(void **state)
{
    (void)state;
    static const char dirs[] = "nesw";
    int checks = 0, total = 0;
    for (int k = 1; k < 3; k++)
        for (int sq = 0; sq < 6; sq++)
            for (int dir = 0; dir < 4; dir++)
                for (int bk = 0; bk < 6; bk++)
                    for (int wk = 0; wk < 6; wk++) {
                        if (bk == sq || wk == sq || bk == wk)
                            continue;
                        const char *cell[6] = {0};
                        char me[8];
                        snprintf(me, sizeof me, "*%s@%c", patterns[k].letter, dirs[dir]);
                        cell[sq] = me;
                        cell[bk] = "K@w";
                        cell[wk] = "k@e";
                        char text[128];
                        board_text(cell, k == 1 ? "*A w - 0 10" : "*Z w - 0 10", text,
                                   sizeof text);
                        unsigned pat = pattern_set(k, sq, dir);
                        int want = (pat >> bk & 1) && (pat >> wk & 1);
                        tiers_pos *p = tu_pos(variant, text, NULL);
                        if (tiers_pos_status(p).in_check != want)
                            fail_msg("%s: in check should be %d", text, want);
                        assert_int_equal(tiers_side_in_check(p, 1), want); /* to move */
                        assert_int_equal(tiers_side_in_check(p, 0), 0);    /* just moved */
                        tiers_pos_free(p);
                        checks += want;
                        total++;
                    }
    assert_int_equal(total, 2 * 6 * 4 * 5 * 4);
    assert_true(checks > 0 && checks < total);
}

/* ------------------------------------------------------------ options */

/* Options that load and one that does not. */
static void test_options(void **state)
{
    (void)state;
    tiers_variant *v = load_with("gufuu", "stalemate=draw");
    tiers_variant_free(v);
    tiers_error err;
    const char *bad[] = {"face_to_face=never", NULL};
    assert_null(tiers_variant_load("gufuu", NULL, bad, &err));
    assert_non_null(strstr(err.msg, "both|either|line"));
    /* max_plies in play: tests/rules/gufuu/options.scen */
}

/* ------------------------------------------------------------ check hook */

/* The engine's `check` hook on a generic test variant (features-check:
 * a King is in check exactly on c3, whatever attacks it). */
static void test_check_hook(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("features-check");
    /* the rook on b1 attacks a1, but only c3 is check */
    tiers_pos *p = tu_pos(v, "4k/5/5/5/Kr3 - w - 0 0", NULL);
    assert_false(tiers_pos_status(p).in_check);
    tiers_pos_free(p);
    p = tu_pos(v, "4k/5/2K2/5/5 - w - 0 0", NULL);
    assert_true(tiers_pos_status(p).in_check);
    assert_false(tiers_side_in_check(p, 1));
    tiers_pos_free(p);
    /* no move may end on c3 */
    p = tu_pos(v, "4k/5/5/1K3/5 - w - 0 0", NULL);
    assert_false(tu_has_move(p, "b2-c3", NULL));
    assert_true(tu_has_move(p, "b2-c2", NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);
    /* a failing hook makes move generation fail with its message */
    v = load_with("features-check", "check_fails=on");
    p = tu_pos(v, "4k/5/5/1K3/5 - w - 0 0", NULL);
    tiers_move buf[TIERS_MAX_MOVES];
    assert_int_equal(tiers_legal_moves(p, buf, TIERS_MAX_MOVES), TIERS_ESCRIPT);
    assert_non_null(strstr(tiers_variant_script_error(v), "check hook failed"));
    assert_non_null(strstr(tiers_variant_script_error(v), "in hook check"));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_perft_options),
        cmocka_unit_test(test_patterns_every_facing),
        cmocka_unit_test(test_contact_check_everywhere),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_check_hook),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
