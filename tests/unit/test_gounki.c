/* test_gounki.c - the gounki variant (docs/rules/gounki.md): each rule
 * with positions where it applies and where it does not, exact move
 * lists in the gounki dialect, game ends and options, perft from the
 * start, the 2004 example game in every record form, and malformed
 * records with their exact errors.
 *
 * Positions are tiers notation: ranks 8 down to 1, uppercase = White
 * (moving north), lowercase = Black, [a:b:c] = a stack bottom to top,
 * R = round, S = square.  A lone black square sits on a8 (or a1) in most
 * of them so that Black still has material. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GK "gounki"

static tiers_variant *variant;

static int setup(void **state)
{
    (void)state;
    variant = tu_variant("gounki");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tiers_variant_free(variant);
    return 0;
}

static tiers_variant *load_with(const char *const *rules)
{
    tiers_error err;
    char msg[1024];
    tiers_variant *v = tiers_variant_load("gounki", NULL, rules, &err);
    if (!v)
        fail_msg("loading gounki: %s", tiers_error_text(&err, msg, sizeof msg));
    return v;
}

/* The sorted legal moves of `pos` (White or Black to move) in v. */
static void expect_moves_in(const tiers_variant *v, const char *pos, const char *expected)
{
    tiers_pos *p = tu_pos(v, pos, NULL);
    char *got = tu_moves(p, GK);
    assert_string_equal(got, expected);
    free(got);
    tiers_pos_free(p);
}

static void expect_moves(const char *pos, const char *expected)
{
    expect_moves_in(variant, pos, expected);
}

/* Plays `moves` (gounki notation, space separated) from `pos` and checks
 * the resulting position. */
static void expect_after(const char *pos, const char *moves, const char *expected)
{
    tiers_pos *p = tu_pos(variant, pos, NULL);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *save = NULL, *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save))
        tu_play(p, m, GK);
    assert_string_equal(tu_fen(p, NULL), expected);
    tiers_pos_free(p);
}

static void expect_status(tiers_pos *p, int over, tiers_result result, const char *reason)
{
    tiers_status st = tiers_pos_status(p);
    assert_int_equal(st.game_over, over);
    assert_int_equal(st.result, result);
    assert_string_equal(st.reason, reason);
}

/* ------------------------------------------------------------ movement */

/* Two rounds reach one or two diagonal steps, one direction per move;
 * a single round reaches one.  The stack may also deploy (one round per
 * square, both the same way). */
static void test_two_rounds_one_and_two_steps(void **state)
{
    (void)state;
    expect_moves("s7/8/8/8/3[R:R]4/8/8/8 - w - 0 0",
                 "d4*c5,b6 d4*e5,f6 d4-b6 d4-c5 d4-e5 d4-f6");
    expect_moves("s7/8/8/8/3R4/8/8/8 - w - 0 0", "d4-c5 d4-e5");
    /* the whole stack goes: nothing stays on d4 */
    expect_after("s7/8/8/8/3[R:R]4/8/8/8 - w - 0 0", "d4-b6",
                 "s7/8/1[R:R]6/8/8/8/8/8 - b - 1 1");
}

/* An own piece on c5 stops the north-west line there (merge, 2+1 <= 3),
 * an enemy on e5 stops the north-east one (capture); nothing passes. */
static void test_blocked_paths(void **state)
{
    (void)state;
    expect_moves("s7/8/8/2R1s3/3[R:R]4/8/8/8 - w - 0 0",
                 "c5-b6 c5-d6 d4*c5+,b6 d4-c5+ d4xe5");
    /* a square stack: the own stack on c4 blocks c3-c5, the enemy on b3
     * blocks the west side for a deployment */
    expect_moves("s7/8/8/8/2[R:R]5/1s[S:S]5/8/8 - w - 0 0",
                 "c3*c4+,c5 c3*d3,e3 c3-d3 c3-e3 c3xb3 "
                 "c4*b5,a6 c4*d5,e6 c4-a6 c4-b5 c4-d5 c4-e6");
}

/* Black rounds on b7 heading south-west reflect off the a-file: b7, a6,
 * then b5. */
static void test_bounce_b7_a6_b5(void **state)
{
    (void)state;
    expect_moves("8/1[r:r]6/8/8/8/8/8/7S - b - 0 0",
                 "b7*a6,b5 b7*c6,d5 b7-a6 b7-b5 b7-c6 b7-d5");
    expect_after("8/1[r:r]6/8/8/8/8/8/7S - b - 0 0", "b7-b5",
                 "8/8/8/1[r:r]6/8/8/8/7S - w - 1 1 move=1");
    /* the seed's examples: round-round-square on b2 moves b2-b4 (a bounce
     * on a3) or deploys b2*a3,b4,c4 */
    expect_moves("8/8/8/8/8/8/1[R:R:S]6/s7 - w - 0 0",
                 "b2*a2,b3,c4 b2*a3,b4,a4 b2*a3,b4,b5 b2*a3,b4,c4 b2*b3,a4,b5 "
                 "b2*b3,c4,d5 b2*c2,b3,a4 b2*c2,d3,e4 b2*c3,d4,c4 b2*c3,d4,d5 "
                 "b2*c3,d4,e4 b2-a2 b2-a3 b2-b3 b2-b4 b2-c2 b2-c3 b2-d4");
}

/* A first step never bounces: a single piece on the edge only has its
 * on-board steps, and a stack's line toward the edge it stands on does
 * not exist (the mirrored line is the other diagonal anyway). */
static void test_no_bounce_as_first_step(void **state)
{
    (void)state;
    expect_moves("8/r7/8/8/8/8/8/7S - b - 0 0", "a7-b6");
    expect_moves("8/8/8/s7/8/8/8/7S - b - 0 0", "a5-a4 a5-b5");
    expect_moves("8/[r:r]7/8/8/8/8/8/7S - b - 0 0", "a7*b6,c5 a7-b6 a7-c5");
}

/* Two squares on b3: west to a3, then the bounce brings them back to b3,
 * their own start square: the tempo move b3-b3.  `null_bounce: forbid`
 * removes that movement only; the deployment b3*a3,b3 (second piece left
 * on the start square) stays. */
static void test_null_bounce(void **state)
{
    (void)state;
    const char *pos = "s7/8/8/8/8/1[S:S]6/8/8 - w - 0 0";
    expect_moves(pos, "b3*a3,b3 b3*b4,b5 b3*c3,d3 b3-a3 b3-b3 b3-b4 b3-b5 b3-c3 b3-d3");
    expect_after(pos, "b3-b3", "s7/8/8/8/8/1[S:S]6/8/8 - b - 1 1");
    static const char *const forbid[] = {"null_bounce=forbid", NULL};
    tiers_variant *v = load_with(forbid);
    expect_moves_in(v, pos, "b3*a3,b3 b3*b4,b5 b3*c3,d3 b3-a3 b3-b4 b3-b5 b3-c3 b3-d3");
    tiers_variant_free(v);
}

/* ------------------------------------------------------------ deployments */

/* One round and one square on d4: round first (c5 or e5, then one
 * square step) or square first (c4, d5 or e4, then one diagonal). */
static void test_deployment_orders(void **state)
{
    (void)state;
    expect_moves("s7/8/8/8/3[R:S]4/8/8/8 - w - 0 0",
                 "d4*c4,b5 d4*c4,d5 d4*c5,b5 d4*c5,c6 d4*c5,d5 d4*d5,c6 d4*d5,e6 "
                 "d4*e4,d5 d4*e4,f5 d4*e5,d5 d4*e5,e6 d4*e5,f5 "
                 "d4-c4 d4-c5 d4-d5 d4-e4 d4-e5");
    /* two rounds and a square: R,R,S or S,R,R, both rounds one way */
    expect_moves("s7/8/8/8/3[R:S:R]4/8/8/8 - w - 0 0",
                 "d4*c4,b5,a6 d4*c4,d5,e6 d4*c5,b6,a6 d4*c5,b6,b7 d4*c5,b6,c6 "
                 "d4*d5,c6,b7 d4*d5,e6,f7 d4*e4,d5,c6 d4*e4,f5,g6 d4*e5,f6,e6 "
                 "d4*e5,f6,f7 d4*e5,f6,g6 "
                 "d4-b6 d4-c4 d4-c5 d4-d5 d4-e4 d4-e5 d4-f6");
    /* never R,S,R: c5 (round), c6 (square), b7 (round) */
    tiers_pos *p = tu_pos(variant, "s7/8/8/8/3[R:S:R]4/8/8/8 - w - 0 0", NULL);
    assert_false(tu_has_move(p, "d4*c5,c6,b7", GK));
    assert_true(tu_has_move(p, "d4*c5,b6,b7", GK));
    assert_true(tu_has_move(p, "d4*d5,c6,b7", GK));
    tiers_pos_free(p);
    /* the pieces are left in the order of the deployment */
    expect_after("s7/8/8/8/3[R:S:R]4/8/8/8 - w - 0 0", "d4*d5,c6,b7",
                 "s7/1R6/2R5/3S4/8/8/8/8 - b - 1 1");
}

/* Own pieces may be landed on up to 3 (also a piece left earlier in the
 * same deployment: the seed's a3*b4,a4,b4+), enemy ones never. */
static void test_deployment_onto_own_pieces(void **state)
{
    (void)state;
    expect_after("s7/8/8/8/2[R:R]5/1s[S:S]5/8/8 - w - 0 0", "c3*c4+,c5",
                 "s7/8/8/2S5/2[R:R:S]5/1s6/8/8 - b - 1 1");
    /* c4 already holds 3: no deployment (and no movement) through it */
    expect_moves("s7/8/8/8/2[R:R:S]5/1s[S:S]5/8/8 - w - 0 0",
                 "c3*d3,e3 c3-d3 c3-e3 c3xb3 c4*b4,a5,b6 c4*b4,c5,d6 c4*b5,a6,a7 "
                 "c4*b5,a6,b6 c4*c5,b6,a7 c4*c5,d6,e7 c4*d4,c5,b6 c4*d4,e5,f6 "
                 "c4*d5,e6,d6 c4*d5,e6,e7 c4*d5,e6,f6 c4-a6 c4-b4 c4-b5 c4-c5 "
                 "c4-d4 c4-d5 c4-e6");
    expect_moves("s7/8/8/8/8/[R:S:S]7/8/8 - w - 0 0",
                 "a3*a4,a5,b6 a3*b3,c3,b4 a3*b3,c3,d4 a3*b4,a4,b4+ a3*b4,b5,b6 "
                 "a3*b4,c4,d4 a3-a4 a3-a5 a3-b3 a3-b4 a3-c3");
    expect_after("s7/8/8/8/8/[R:S:S]7/8/8 - w - 0 0", "a3*b4,a4,b4+",
                 "s7/8/8/8/S[R:S]6/8/8/8 - b - 1 1");
}

/* A deployment may leave the board with its last pieces: the game ends
 * at once (pieces not yet deployed do not matter). */
static void test_exit_during_deployment(void **state)
{
    (void)state;
    const char *pos = "s7/3[R:S]4/8/8/8/8/8/8 - w - 0 0";
    expect_moves(pos, "d7*c7,b8 d7*c7,d8 d7*c8,Out d7*c8,b8 d7*c8,d8 d7*d8,Out d7*e7,d8 "
                      "d7*e7,f8 d7*e8,Out d7*e8,d8 d7*e8,f8 d7-c7 d7-c8 d7-d8 d7-e7 d7-e8");
    tiers_pos *p = tu_pos(variant, pos, NULL);
    tu_play(p, "d7*c8,Out", GK);
    expect_status(p, 1, TIERS_WIN_0, "exit");
    tiers_pos_free(p);
    /* a stack on the last rank: every exit is the one move d8-Out (a
     * deployment whose first step exits is that move) */
    expect_moves("3[S:R]4/8/8/8/8/8/8/s7 - w - 0 0", "d8*c8,Out d8*e8,Out d8-Out d8-c8 d8-e8");
}

/* ------------------------------------------------------------ merging, captures */

static void test_merging_over_three_rejected(void **state)
{
    (void)state;
    expect_after("s7/8/8/2R5/3[R:R]4/8/8/8 - w - 0 0", "d4-c5+",
                 "s7/8/8/2[R:R:R]5/8/8/8/8 - b - 1 1");
    tiers_pos *p = tu_pos(variant, "s7/8/8/2[R:S]5/3[R:R]4/8/8/8 - w - 0 0", NULL);
    assert_false(tu_has_move(p, "d4-c5+", GK)); /* 2 + 2 = 4 */
    assert_true(tu_has_move(p, "d4*c5+,b6", GK)); /* 2 + 1 = 3 */
    tiers_pos_free(p);
}

/* A capture removes the whole enemy stack, whatever its height. */
static void test_whole_stack_capture(void **state)
{
    (void)state;
    expect_after("s7/8/8/4[s:r:s]3/3R4/8/8/8 - w - 0 0", "d4xe5", "s7/8/8/4R3/8/8/8/8 - b - 0 1");
    /* a deployment never captures: no d4*e5,... */
    expect_moves("s7/8/8/4s3/3[R:R]4/8/8/8 - w - 0 0", "d4*c5,b6 d4-b6 d4-c5 d4xe5");
}

static void test_capture_all_wins(void **state)
{
    (void)state;
    tiers_pos *p = tu_pos(variant, "8/8/8/4[s:r:s]3/3R4/8/8/8 - w - 0 0", NULL);
    expect_status(p, 0, TIERS_ONGOING, "");
    tu_play(p, "d4xe5", GK);
    expect_status(p, 1, TIERS_WIN_0, "all captured");
    tiers_pos_free(p);
}

static void test_exit_by_movement_wins(void **state)
{
    (void)state;
    tiers_pos *p = tu_pos(variant, "s7/8/8/8/8/8/8/3[S:R]4 - b - 0 0", NULL);
    /* Black's square on a8 steps past rank 1 */
    assert_true(tu_has_move(p, "a8-a7", GK));
    tiers_pos_free(p);
    p = tu_pos(variant, "8/8/8/8/8/8/8/s2[S:R]4 - b - 0 0", NULL);
    tu_play(p, "a1-Out", GK);
    expect_status(p, 1, TIERS_WIN_1, "exit");
    tiers_pos_free(p);
}

/* ------------------------------------------------------------ options */

/* With the standard rules a side always has a move (its most advanced
 * piece can step forward, capture, or leave the board), so the no_moves
 * option is shown with exits switched off: a lone round on rank 8. */
static void test_no_moves_option(void **state)
{
    (void)state;
    const char *pos = "3R4/8/8/8/8/8/8/s7 - w - 0 0";
    static const char *const loss[] = {"exit=false", NULL};
    static const char *const draw[] = {"exit=false", "no_moves=draw", NULL};
    tiers_variant *v = load_with(loss);
    expect_moves_in(v, pos, "");
    tiers_pos *p = tu_pos(v, pos, NULL);
    expect_status(p, 1, TIERS_WIN_1, "stalemate");
    tiers_pos_free(p);
    tiers_variant_free(v);
    v = load_with(draw);
    p = tu_pos(v, pos, NULL);
    expect_status(p, 1, TIERS_DRAW, "stalemate");
    tiers_pos_free(p);
    tiers_variant_free(v);
    /* with exits on, the same round simply leaves */
    expect_moves(pos, "d8-Out");
}

/* White d3-c3-d3, Black e6-f6-e6, twice: the start position then stands
 * for the third time (plies 0, 4, 8). */
static void test_repetition_draw(void **state)
{
    (void)state;
    static const char *const shuffle[] = {"d3-c3", "e6-f6", "c3-d3", "f6-e6"};
    tiers_pos *p = tu_pos(variant, "8/8/4s3/8/8/3S4/8/8 - w - 0 0", NULL);
    for (int i = 0; i < 8; i++) {
        expect_status(p, 0, TIERS_ONGOING, "");
        tu_play(p, shuffle[i % 4], GK);
    }
    expect_status(p, 1, TIERS_DRAW, "repetition");
    tiers_pos_free(p);
    static const char *const off[] = {"repetition=0", NULL};
    tiers_variant *v = load_with(off);
    p = tu_pos(v, "8/8/4s3/8/8/3S4/8/8 - w - 0 0", NULL);
    for (int i = 0; i < 8; i++)
        tu_play(p, shuffle[i % 4], GK);
    expect_status(p, 0, TIERS_ONGOING, "");
    tiers_pos_free(p);
    tiers_variant_free(v);
}

static void test_max_plies(void **state)
{
    (void)state;
    static const char *const cap[] = {"max_plies=3", NULL};
    tiers_variant *v = load_with(cap);
    tiers_pos *p = tu_pos(v, NULL, NULL);
    tu_play(p, "b2-b3", GK);
    tu_play(p, "c7-c6", GK);
    expect_status(p, 0, TIERS_ONGOING, "");
    tu_play(p, "b3-b4", GK);
    expect_status(p, 1, TIERS_DRAW, "max plies");
    char *none = tu_moves(p, GK);
    assert_string_equal(none, "");
    free(none);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* ------------------------------------------------------------ perft */

/* Depth 1, by hand.  At the start no piece is stacked, so nothing deploys
 * and every piece makes one step; the rank-1 pieces can only step onto
 * rank-2 (or rank-1) neighbours, merging into 2-stacks:
 *   rank-1 squares a1 c1 e1 g1: forward + left + right, a1 has no left:
 *     2 + 3 + 3 + 3 = 11
 *   rank-1 rounds b1 d1 f1 h1: two forward diagonals, h1 one: 2+2+2+1 = 7
 *   rank-2 squares b2 d2 f2 h2: forward to rank 3 plus merges sideways,
 *     h2 has no right: 3 + 3 + 3 + 2 = 11
 *   rank-2 rounds a2 c2 e2 g2: diagonals to rank 3, a2 one: 1+2+2+2 = 7
 *   36 = 11 + 7 + 11 + 7.
 * Depth 2.  After any of White's 36 moves every white piece is still on
 * ranks 1-3 and moved one step; Black's pieces (ranks 7-8, all single)
 * reach ranks 6-8 only.  So White's first move neither blocks nor offers
 * a capture to any black move: Black has the mirror image of White's 36
 * moves after each of them, and 36 * 36 = 1296.
 * Depths 3 and 4: the figures of the rules' spec (53892, 2241009), with
 * move identity as the spec defines it (a movement = origin and
 * destination, every exit of a stack one move, a deployment = origin and
 * ordered squares). */
static void test_perft_start(void **state)
{
    (void)state;
    static const int64_t expected[] = {1, 36, 1296, 53892, 2241009};
    tiers_pos *p = tu_pos(variant, NULL, NULL);
    for (int d = 0; d <= 4; d++)
        assert_int_equal(tiers_perft(p, d), expected[d]);
    char *first = tu_moves(p, GK);
    assert_string_equal(first,
                        "a1-a2+ a1-b1+ a2-b3 b1-a2+ b1-c2+ b2-a2+ b2-b3 b2-c2+ c1-b1+ "
                        "c1-c2+ c1-d1+ c2-b3 c2-d3 d1-c2+ d1-e2+ d2-c2+ d2-d3 d2-e2+ "
                        "e1-d1+ e1-e2+ e1-f1+ e2-d3 e2-f3 f1-e2+ f1-g2+ f2-e2+ f2-f3 "
                        "f2-g2+ g1-f1+ g1-g2+ g1-h1+ g2-f3 g2-h3 h1-g2+ h2-g2+ h2-h3");
    free(first);
    /* the mirror: Black's reply count is 36 after every White move */
    tiers_move moves[TIERS_MAX_MOVES];
    int n = tiers_legal_moves(p, moves, TIERS_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        assert_int_equal(tiers_make(p, &moves[i]), 0);
        assert_int_equal(tiers_perft(p, 1), 36);
        tiers_unmake(p);
    }
    tiers_pos_free(p);
}

/* ------------------------------------------------------------ notation */

static void test_dialect_writes_compact(void **state)
{
    (void)state;
    /* every kind of move in one list: -, +, x, *, Out, a deployment
     * ending in Out */
    expect_moves("s7/3[R:S]4/4r3/8/8/8/8/8 - w - 0 0",
                 "d7*c7,b8 d7*c7,d8 d7*c8,Out d7*c8,b8 d7*c8,d8 d7*d8,Out d7*e7,d8 "
                 "d7*e7,f8 d7*e8,Out d7*e8,d8 d7*e8,f8 d7-c7 d7-c8 d7-d8 d7-e7 d7-e8");
    expect_moves("3[S:R]4/8/8/8/8/8/8/s7 - w - 0 0", "d8*c8,Out d8*e8,Out d8-Out d8-c8 d8-e8");
    /* and the tiers notation of the same moves */
    tiers_pos *p = tu_pos(variant, "s7/8/8/2R1s3/3[R:R]4/8/8/8 - w - 0 0", NULL);
    char *tiers = tu_moves(p, NULL);
    assert_string_equal(tiers, "c5-b6 c5-d6 d4*c5,b6 d4^c5 d4xe5");
    free(tiers);
    tiers_pos_free(p);
}

/* ------------------------------------------------------------ records */

static char *read_data(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "data/games/gounki/%s", name);
    char *text = tu_read_file(tu_path(rel), NULL);
    if (!text)
        fail_msg("cannot read %s", rel);
    return text;
}

typedef struct trail {
    int n;
    uint64_t hash[64];
    char text[64][32];
} trail;

static int keep_ply(tiers_pos *p, const tiers_record_ply *ply, void *ud)
{
    trail *t = ud;
    assert_int_equal(ply->index, t->n);
    assert_true(t->n < 64);
    t->hash[t->n] = tiers_pos_hash(p);
    snprintf(t->text[t->n++], sizeof t->text[0], "%s", ply->text);
    return 0;
}

/* Replays a record file; checks it ends 0-1 by exit after 24 plies. */
static void replay_file(const char *name, const char *notation, trail *t)
{
    char *text = read_data(name), msg[1024];
    tiers_error err;
    tiers_record *r = tiers_record_read(text, &err);
    if (!r)
        fail_msg("%s: %s", name, tiers_error_text(&err, msg, sizeof msg));
    tiers_pos *p = tu_pos(variant, NULL, NULL);
    tiers_replay out;
    memset(t, 0, sizeof *t);
    if (tiers_record_replay(r, p, NULL, keep_ply, t, &out, &err) < 0)
        fail_msg("%s: %s", name, tiers_error_text(&err, msg, sizeof msg));
    assert_string_equal(out.notation, notation);
    assert_int_equal(out.plies, 24);
    assert_int_equal(t->n, 24);
    assert_true(out.game_over);
    assert_int_equal(out.result, TIERS_WIN_1);
    assert_string_equal(out.reason, "exit");
    assert_string_equal(tiers_record_result(r), "0-1");
    tiers_pos_free(p);
    tiers_record_free(r);
    free(text);
}

static void test_record_walraet_2004(void **state)
{
    (void)state;
    trail compact;
    replay_file("walraet-2004.txt", "gounki", &compact);
    assert_string_equal(compact.text[8], "c5*d5,e5,f6");
    assert_string_equal(compact.text[17], "b4*a3,b2,a2"); /* the bounce off a3 */
    assert_string_equal(compact.text[23], "a1-Out");
    static const char *const others[][2] = {
        {"walraet-2004-spaced.txt", "gounki"},
        {"walraet-2004-tiers.txt", "tiers"},
        {"walraet-2004-cyrillic.txt", "gounki"},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        trail t;
        replay_file(others[i][0], others[i][1], &t);
        for (int k = 0; k < 24; k++)
            assert_true(t.hash[k] == compact.hash[k]);
    }
}

static void test_record_reading(void **state)
{
    (void)state;
    tiers_error err;
    tiers_record *r = tiers_record_read("\xef\xbb\xbf[Event \"A \\\"quoted\\\" one\"]\n"
                                        "[Result \"*\"]\n"
                                        "1. a1-a2+ {x} a8-b7+ 2. b2 * c3 c4 5... h7-h6 *\n",
                                        &err);
    assert_non_null(r);
    assert_int_equal(tiers_record_tag_count(r), 2);
    assert_string_equal(tiers_record_tag_name(r, 0), "Event");
    assert_string_equal(tiers_record_tag_value(r, 0), "A \"quoted\" one");
    assert_string_equal(tiers_record_tag(r, "Result"), "*");
    assert_null(tiers_record_tag(r, "Variant"));
    assert_int_equal(tiers_record_word_count(r), 7);
    static const char *const words[] = {"a1-a2+", "a8-b7+", "b2", "*", "c3", "c4", "h7-h6"};
    for (int i = 0; i < 7; i++)
        assert_string_equal(tiers_record_word(r, i), words[i]);
    assert_string_equal(tiers_record_result(r), "*");
    assert_string_equal(tiers_record_notation(r, variant, &err), "gounki");
    tiers_record_free(r);
    /* nothing tells: the tiers notation */
    r = tiers_record_read("1. b2-b3 b7-b6", &err);
    assert_string_equal(tiers_record_notation(r, variant, &err), "tiers");
    assert_null(tiers_record_result(r));
    tiers_record_free(r);
}

/* A spaced record with markers left out, a deployment ending in OUT and
 * a Position tag. */
static void test_record_spaced_deploy_out(void **state)
{
    (void)state;
    const char *text = "[Position \"s7/3[R:S]4/8/8/8/8/8/8 - w - 0 0\"]\n"
                       "[Result \"1-0\"]\n1. d7 * c8 OUT 1-0\n";
    tiers_error err;
    tiers_record *r = tiers_record_read(text, &err);
    assert_non_null(r);
    tiers_pos *p = tu_pos(variant, NULL, NULL);
    trail t = {0};
    tiers_replay out;
    assert_int_equal(tiers_record_replay(r, p, "gounki", keep_ply, &t, &out, &err), 0);
    assert_string_equal(t.text[0], "d7*c8,Out");
    assert_int_equal(out.result, TIERS_WIN_0);
    tiers_record_free(r);
    /* the exit as a deployment's first step reads as the exit move */
    r = tiers_record_read("[Position \"3[S:R]4/8/8/8/8/8/8/s7 - w - 0 0\"] 1. d8 * OUT 1-0",
                          &err);
    memset(&t, 0, sizeof t);
    assert_int_equal(tiers_record_replay(r, p, NULL, keep_ply, &t, &out, &err), 0);
    assert_string_equal(t.text[0], "d8-Out");
    tiers_record_free(r);
    tiers_pos_free(p);
}

/* Records read in the notation their words or tags show, except that
 * a move written like `a1-a9` fits the tiers notation too: lines starting
 * with '!' are replayed in the gounki notation (the '!' skipped). */
typedef struct bad_record {
    const char *text;
    int line, col;
    const char *msg;
} bad_record;

static const bad_record bad_records[] = {
    /* tags */
    {"[Event Example]\n1. a1-a2+ *", 1, 8, "bad tag: expected [Name \"value\"]"},
    {"[Event \"x\"\n1. a1-a2+ *", 1, 11, "bad tag: expected [Name \"value\"]"},
    {"[Event \"x]\n", 1, 8, "bad tag: expected [Name \"value\"]"},
    {"[Result \"0-1\"]\n[Result \"0-1\"]\n", 2, 1, "tag 'Result' given twice"},
    {"[Result \"2-0\"]\n", 1, 1, "bad Result tag '2-0': expected 1-0, 0-1, 1/2-1/2 or *"},
    {"1. a1-a2+ [Event \"late\"]", 1, 11, "tag after the moves"},
    {"[Variant \"gungi-io\"]\n1. a1-a2+ *", 1, 1,
     "the record is for variant 'gungi-io', not 'gounki'"},
    {"[Notation \"gungijs\"]\n1. a1-a2+ *", 1, 1,
     "variant gounki has no notation 'gungijs' (Notation tag)"},
    {"[Position \"8/8 - w - 0 0\"]\n*", 1, 1,
     "bad Position tag: expected '/' after rank 7"},
    /* comments, numbers, result placement */
    {"1. a1-a2+ {unclosed\n", 1, 11, "comment not closed: '{' without '}'"},
    {"1. a1-a2+ } *", 1, 11, "'}' without '{'"},
    {"1. a1-a2+ 2. 3. b2-b3", 1, 14, "move number '3.' right after move number 2: a move is missing"},
    {"1. a1-a2+ a8-b7+ 2.", 1, 18, "move number 2. without a move"},
    {"1. a1-a2+ 1-0 a8-b7+", 1, 11, "result '1-0' before the end of the moves"},
    {"1. a1-a2+ 2. a8-b7+", 1, 14, "move 1 (black) 'a8-b7+': numbered 2., but it is move 1..."},
    /* unknown tokens */
    {"[Notation \"gounki\"]\n1. zz *", 2, 4, "move 1 (white) 'zz': expected a square to start the move, not 'zz'"},
    {"1. a1-a2+ a8-q7+ *", 1, 11, "move 1 (black) 'a8-q7+': expected a square or Out, not 'q7+'"},
    {"!1. a1-a9 *", 1, 4, "move 1 (white) 'a1-a9': 'a9' is not a square of the board"},
    {"1. a1-a2+! *", 1, 4, "move 1 (white) 'a1-a2+!': unexpected '!' after the move"},
    {"!1. a2-a3 *", 1, 4, "move 1 (white) 'a2-a3': not a legal move"},
    /* markers: optional, but true when present */
    {"!1. a1xa2 *", 1, 4, "move 1 (white) 'a1xa2': marker 'x' is false: a2 holds own pieces"},
    {"1. b2-b3+ *", 1, 4, "move 1 (white) 'b2-b3+': marker '+' is false: b3 is empty"},
    {"1. b2 b3 b7 x b6 *", 1, 15,
     "move 1 (black) 'b7 x b6': marker 'x' is false: b6 is empty"},
    {"!1. a2*b3 *", 1, 4, "move 1 (white) 'a2*b3': marker '*' is false: a2 holds no stack"},
    {"![Position \"s7/8/8/4s3/3R4/8/8/8 - w - 0 0\"]\n1. d4-e5 *", 2, 4,
     "move 1 (white) 'd4-e5': marker '-' is false: e5 holds enemy pieces (a capture is 'x')"},
    {"![Position \"s7/8/8/8/8/[R:S:S]7/8/8 - w - 0 0\"]\n1. a3*b4,a4 *", 2, 4,
     "move 1 (white) 'a3*b4,a4': the deployment from a3 leaves 2 pieces, the stack there holds 3"},
    {"[Position \"s7/8/8/8/8/[R:S:S]7/8/8 - w - 0 0\"]\n1. a3*b4+,a4,b4 *", 2, 4,
     "move 1 (white) 'a3*b4+,a4,b4': marker '+' is false: b4 is empty"},
    /* look-alikes: Cyrillic а е с read as Latin; a letter with none is an error */
    {"1. \xd0\xb0" "2-\xd0\xb1" "3 *", 1, 7, /* U+0430 reads as a, U+0431 has no twin */
     "move 1: '\xd0\xb0" "2-\xd0\xb1" "3': '\xd0\xb1' (U+0431) is not a Latin letter and "
     "looks like none"},
    {"1. a1-a2\xff *", 1, 9, "move 1: 'a1-a2\xff': invalid UTF-8"},
    /* results */
    {"[Result \"1-0\"]\n1. a1-a2+ 0-1", 2, 11, "the Result tag says 1-0 but the moves end with 0-1"},
    {"1. a1-a2+ 1-0", 1, 11,
     "the record says 1-0 but the game is not over after the last move (a Termination tag "
     "would say why)"},
    {"[Position \"3[S:R]4/8/8/8/8/8/8/s7 - w - 0 0\"]\n1. d8-Out 0-1", 2, 11,
     "the record says 0-1 but the game ended 1-0 (exit)"},
    {"[Position \"3[S:R]4/8/8/8/8/8/8/s7 - w - 0 0\"]\n1. d8-Out *", 2, 11,
     "the record says * but the game ended 1-0 (exit)"},
    {"[Position \"3[S:R]4/8/8/8/8/8/8/s7 - w - 0 0\"]\n1. d8-Out a1-a2", 2, 11,
     "move 1 (black) 'a1-a2': the game is already over (exit)"},
    /* notations */
    {"1. a1^a2 a8-b7+", 0, 0,
     "the moves mix notations ('a1^a2' is tiers, 'a8-b7+' is gounki): name one with a "
     "Notation tag or --notation"},
};

static void test_bad_records(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_records / sizeof bad_records[0]; i++) {
        const bad_record *b = &bad_records[i];
        tiers_error err;
        int gounki = b->text[0] == '!';
        tiers_record *r = tiers_record_read(b->text + gounki, &err);
        if (r) {
            tiers_pos *p = tu_pos(variant, NULL, NULL);
            assert_true(tiers_record_replay(r, p, gounki ? GK : NULL, NULL, NULL, NULL, &err) < 0);
            tiers_pos_free(p);
            tiers_record_free(r);
        }
        if (strcmp(err.msg, b->msg) || err.line != b->line || err.col != b->col)
            fail_msg("record %zu '%s':\n got      %d:%d: %s\n expected %d:%d: %s", i, b->text,
                     err.line, err.col, err.msg, b->line, b->col, b->msg);
    }
}

/* Termination: a decisive result on an unfinished game is accepted when
 * the record says how it ended. */
static void test_record_termination(void **state)
{
    (void)state;
    tiers_error err;
    tiers_record *r = tiers_record_read("[Termination \"resignation\"]\n1. a1-a2+ 1-0", &err);
    tiers_pos *p = tu_pos(variant, NULL, NULL);
    tiers_replay out;
    assert_int_equal(tiers_record_replay(r, p, NULL, NULL, NULL, &out, &err), 0);
    assert_false(out.game_over);
    assert_int_equal(out.result, TIERS_WIN_0);
    assert_string_equal(out.reason, "resignation");
    tiers_record_free(r);
    tiers_pos_free(p);
}

/* After an illegal move the position is the one before it, so that its
 * legal moves can be listed; stopped_at names the ply. */
static void test_record_stops_before_bad_move(void **state)
{
    (void)state;
    tiers_error err;
    tiers_record *r = tiers_record_read("1. b2-b3 c7-c6 2. b3-b5", &err);
    tiers_pos *p = tu_pos(variant, NULL, NULL);
    tiers_replay out;
    assert_int_equal(tiers_record_replay(r, p, NULL, NULL, NULL, &out, &err), TIERS_EILLEGAL);
    assert_int_equal(out.stopped_at, 3);
    assert_int_equal(out.plies, 2);
    assert_string_equal(err.msg, "move 2 (white) 'b3-b5': not a legal move");
    assert_true(tu_has_move(p, "b3-b4", GK));
    tiers_record_free(r);
    tiers_pos_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_rounds_one_and_two_steps),
        cmocka_unit_test(test_blocked_paths),
        cmocka_unit_test(test_bounce_b7_a6_b5),
        cmocka_unit_test(test_no_bounce_as_first_step),
        cmocka_unit_test(test_null_bounce),
        cmocka_unit_test(test_deployment_orders),
        cmocka_unit_test(test_deployment_onto_own_pieces),
        cmocka_unit_test(test_exit_during_deployment),
        cmocka_unit_test(test_merging_over_three_rejected),
        cmocka_unit_test(test_whole_stack_capture),
        cmocka_unit_test(test_capture_all_wins),
        cmocka_unit_test(test_exit_by_movement_wins),
        cmocka_unit_test(test_no_moves_option),
        cmocka_unit_test(test_repetition_draw),
        cmocka_unit_test(test_max_plies),
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_dialect_writes_compact),
        cmocka_unit_test(test_record_walraet_2004),
        cmocka_unit_test(test_record_reading),
        cmocka_unit_test(test_record_spaced_deploy_out),
        cmocka_unit_test(test_bad_records),
        cmocka_unit_test(test_record_termination),
        cmocka_unit_test(test_record_stops_before_bad_move),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
