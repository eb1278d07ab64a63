/* test_gounki.c - the gounki variant (docs/rules/gounki.md): perft from
 * the start, the 2004 example game in every record form, and malformed
 * records with their exact errors.  Each rule with positions where it
 * applies and where it does not, exact move lists, the dialect, game ends
 * and options are scenarios: tests/rules/gounki/ (run by test_rules).
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
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_record_walraet_2004),
        cmocka_unit_test(test_record_reading),
        cmocka_unit_test(test_record_spaced_deploy_out),
        cmocka_unit_test(test_bad_records),
        cmocka_unit_test(test_record_termination),
        cmocka_unit_test(test_record_stops_before_bad_move),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
