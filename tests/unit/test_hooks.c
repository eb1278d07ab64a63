/* test_hooks.c - the generic script features that the blog variant uses,
 * on a small variant of their own (tests/data/hooks): the expand hook, the
 * narrowing fields of hooks, and pos:reach, pos:find, pos:has_legal_move,
 * pos:in_check_before (docs/lua-api.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static tiers_variant *load(const char *file)
{
    char rel[256];
    snprintf(rel, sizeof rel, "data/hooks/%s", file);
    return tu_variant(tu_path(rel));
}

/* The legal moves written from square sq (as tu_moves, filtered). */
static char *moves_from(tiers_pos *p, const char *sq)
{
    char *all = tu_moves(p, NULL), *out = calloc(strlen(all) + 1, 1);
    size_t n = strlen(sq);
    for (char *save = NULL, *t = strtok_r(all, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (!strncmp(t, sq, n) && !(t[n] >= '0' && t[n] <= '9')) {
            if (*out)
                strcat(out, " ");
            strcat(out, t);
        }
    free(all);
    return out;
}

static void assert_from(tiers_pos *p, const char *sq, const char *want)
{
    char *got = moves_from(p, sq);
    if (strcmp(got, want))
        fail_msg("moves from %s in %s:\n  got  %s\n  want %s", sq, tu_fen(p, NULL), got, want);
    free(got);
}

static int legal_count(tiers_pos *p)
{
    tiers_move buf[TIERS_MAX_MOVES];
    return tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
}

/* The effects whose veto refused a move of p's legal list. */
static uint32_t vetoed(tiers_pos *p)
{
    tiers_move buf[TIERS_MAX_MOVES];
    tiers_stats st = {.vetoed = 99};
    assert_true(tiers_pos_legal_moves_stats(p, buf, TIERS_MAX_MOVES, &st) >= 0);
    return st.vetoed;
}

/* ------------------------------------------------------------ expand */

static void test_expand(void **state)
{
    (void)state;
    tiers_variant *v = load("expand.yaml");
    /* White Pawn b2; Black Rook a3: b2xa3 is removed, the stack b2^a3 and
       the steps come in three variants each, the King's moves unchanged */
    const char *start = "2k2/5/r4/1P3/2K2 - w - 0 1";
    tiers_pos *p = tu_pos(v, start, NULL);
    assert_from(p, "b2", "b2-b3 b2-b3/b3 b2-b3=G b2-c3 b2-c3/c3 b2-c3=G b2^a3 b2^a3/a3 "
                         "b2^a3=G");
    assert_from(p, "c1", "c1-b1 c1-c2 c1-d1 c1-d2 c1^b2");
    assert_false(tu_has_move(p, "b2xa3", NULL));
    tu_play(p, "b2-c3=G", NULL);
    assert_string_equal(tu_fen(p, NULL), "2k2/5/r1G2/5/2K2 - b - 0 2");
    assert_int_equal(tiers_unmake(p), 0);
    assert_string_equal(tu_fen(p, NULL), start);
    tu_play(p, "b2-b3/b3", NULL);
    assert_string_equal(tu_fen(p, NULL), "2k2/5/rP3/5/2K2 - b - 0 2 vars=7");
    assert_int_equal(tiers_unmake(p), 0);
    tu_play(p, "b2-c3", NULL);
    assert_string_equal(tu_fen(p, NULL), "2k2/5/r1P2/5/2K2 - b - 1 2");
    /* perft counts the variants; the expansion leaves the position as it was */
    assert_int_equal(tiers_unmake(p), 0);
    assert_int_equal(tiers_perft(p, 1), 14);
    assert_string_equal(tu_fen(p, NULL), start);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* expand_before: the hook is asked on the position before the move (no
 * make): the pawn's own square is still taken, so it is not a variant. */
static void test_expand_before(void **state)
{
    (void)state;
    tiers_variant *v = load("before.yaml");
    const char *start = "2k2/5/r4/1P3/2K2 - w - 0 1";
    tiers_pos *p = tu_pos(v, start, NULL);
    assert_from(p, "b2", "b2-b3/a2 b2-b3/c2 b2-b3/d2 b2-b3/e2 b2-c3/a2 b2-c3/c2 b2-c3/d2 "
                         "b2-c3/e2 b2^a3/a2 b2^a3/c2 b2^a3/d2 b2^a3/e2 b2xa3/a2 b2xa3/c2 "
                         "b2xa3/d2 b2xa3/e2");
    assert_false(tu_has_move(p, "b2-b3", NULL)); /* replaced by its variants */
    assert_false(tu_has_move(p, "b2-b3/b2", NULL));
    assert_int_equal(tiers_perft(p, 1), 5 + 16);
    assert_string_equal(tu_fen(p, NULL), start);
    tiers_pos_free(p);
    /* a pawn alone on its rank: four squares of the rank are empty */
    p = tu_pos(v, "2k2/5/5/1PP2/2K2 - w - 0 1", NULL);
    assert_from(p, "b2", "b2-a3/a2 b2-a3/d2 b2-a3/e2 b2-b3/a2 b2-b3/d2 b2-b3/e2 b2-c3/a2 "
                         "b2-c3/d2 b2-c3/e2");
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* More fixed variants than the engine remembers by address, and one made
 * afresh at each call (garbage once the call is over): each variant read
 * is the one returned, however often the list is made (tests/data/hooks/
 * pool.lua gives the args). */
static void test_expand_pool(void **state)
{
    (void)state;
    tiers_variant *v = load("pool.yaml");
    tiers_pos *p = tu_pos(v, "2k2/5/5/1P3/2K2 - w - 0 1", NULL);
    for (int round = 0; round < 40; round++)
        assert_from(p, "b2", "b2-a3/11 b2-a3/210 b2-a3/36 b2-a3/61 b2-a3/86 "
                             "b2-b3/12 b2-b3/211 b2-b3/37 b2-b3/62 b2-b3/87 "
                             "b2-c3/13 b2-c3/212 b2-c3/38 b2-c3/63 b2-c3/88");
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* A stuck test on a piece that turns after its move (turn_after_move):
 * stuck or not by the facing it turns to.  The Lance on e1 steps to e2
 * and faces east, off the board: stuck; the one on c1 faces d2: free. */
static void test_expand_turned(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant(tu_path("data/stuck-turn.yaml"));
    tiers_pos *p = tu_pos(v, "2k@s2/5/5/5/K@n1L@n1L@n - w - 0 1", NULL);
    assert_from(p, "e1", "e1-e2 e1-e2/h");
    assert_from(p, "c1", "c1-c2");
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* expand_taken alone: the captures of a rook are expanded whatever piece
 * makes them, and only those (the generator's layout lets the pre-pass
 * pass over the other pieces' moves). */
static void test_expand_taken(void **state)
{
    (void)state;
    tiers_variant *v = load("taken.yaml");
    /* the King takes the Rook beside it: the capture, not the stack */
    tiers_pos *p = tu_pos(v, "2k2/5/5/1Pr2/2K2 - w - 0 1", NULL);
    assert_from(p, "c1", "c1-b1 c1-d1 c1^c2 c1xc2 c1xc2/t");
    tiers_pos_free(p);
    p = tu_pos(v, "2k2/5/1r3/1P3/2K2 - w - 0 1", NULL); /* the Pawn takes it */
    assert_from(p, "b2", "b2-a3 b2-c3 b2^b3 b2xb3 b2xb3/t");
    tiers_pos_free(p);
    /* a Rook under a Pawn is not taken: no variant anywhere */
    p = tu_pos(v, "2k2/5/1[r:p]3/1P3/2K2 - w - 0 1", NULL);
    assert_false(tu_has_move(p, "b2xb3/t", NULL));
    assert_true(tu_has_move(p, "b2xb3", NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* expand = {{}, {arg = 1}}: the engine adds the variants itself. */
static void test_fixed_expand(void **state)
{
    (void)state;
    tiers_variant *v = load("fixed.yaml");
    /* steps double, the stack and the capture do not (expand_kinds = move) */
    tiers_pos *p = tu_pos(v, "2k2/5/r4/1P3/2K2 - w - 0 1", NULL);
    assert_from(p, "b2", "b2-b3 b2-b3=G b2-c3 b2-c3=G b2^a3 b2xa3");
    tu_play(p, "b2-c3=G", NULL); /* an effect that fired resets the clock */
    assert_string_equal(tu_fen(p, NULL), "2k2/5/r1G2/5/2K2 - b - 0 2");
    tiers_pos_free(p);
    /* moves_tiers = {2}: "lift" only while a White pawn stands at tier 2 */
    p = tu_pos(v, "2k2/5/5/1[R:P]3/2K2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "lift", NULL));
    tiers_pos_free(p);
    p = tu_pos(v, "2k2/5/5/1[P:R]3/2K2 - w - 0 1", NULL);
    assert_false(tu_has_move(p, "lift", NULL));
    tiers_pos_free(p);
    p = tu_pos(v, "2k2/5/5/1[r:p]3/2K2 - w - 0 1", NULL); /* Black's pawn */
    assert_false(tu_has_move(p, "lift", NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);

    v = load("stuck.yaml");
    /* on rank 4 every step of the pawn ends on the last rank: stuck */
    p = tu_pos(v, "4k/1P3/5/5/2K2 - w - 0 1", NULL);
    assert_from(p, "b4", "b4-a5 b4-a5/h b4-b5 b4-b5/h b4-c5 b4-c5/h");
    tu_play(p, "b4-b5/h", NULL);
    assert_string_equal(tu_fen(p, NULL), "4k/5/5/5/2K2 P b - 0 2");
    tiers_pos_free(p);
    /* on rank 3 it can go on: no variant */
    p = tu_pos(v, "4k/5/1P3/5/2K2 - w - 0 1", NULL);
    assert_from(p, "b3", "b3-a4 b3-b4 b3-c4");
    tiers_pos_free(p);
    /* the empty list removes the rook drops, and only those */
    p = tu_pos(v, "4k/5/5/5/2K2 RP w - 0 1", NULL);
    assert_false(tu_has_move(p, "R*a3", NULL));
    assert_true(tu_has_move(p, "P*a3", NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* moves_pure: the answer is remembered by the towers the fields match,
 * the side and the variables; moves_controlled: towers topped by the side. */
static void test_pure_moves(void **state)
{
    (void)state;
    tiers_variant *v = load("pure.yaml");
    /* (the hook's count is read when the moves are written) */
    tiers_pos *p = tu_pos(v, "4k/5/5/1P3/2K2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "Lb2n1", NULL));
    tiers_pos_free(p);
    /* other towers changed, the matching one not: remembered, not asked */
    p = tu_pos(v, "3k1/r4/5/1P3/2K2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "Lb2n1", NULL));
    tiers_pos_free(p);
    /* the matching tower changed: asked again */
    p = tu_pos(v, "4k/5/5/1[P:R]3/2K2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "Lb2n2", NULL));
    tiers_pos_free(p);
    /* a variable changed: asked again */
    p = tu_pos(v, "4k/5/5/1P3/2K2 - w - 0 1 vars=0,0,5", NULL);
    assert_true(tu_has_move(p, "Lb2n3", NULL));
    tiers_pos_free(p);
    /* the pawn under an enemy rook: no tower passes, the hook is not asked */
    p = tu_pos(v, "4k/5/5/1[P:r]3/2K2 - w - 0 1", NULL);
    assert_int_equal(legal_count(p), 2); /* c1xb2 c1-d1 (the Rook guards b1 c2 d2) */
    tiers_pos_free(p);
    /* Black to move in the first position: the side is in the key */
    p = tu_pos(v, "4k/5/5/1P3/2K2 - b - 0 1", NULL);
    assert_int_equal(legal_count(p), 3); /* e5's steps; no pawn of Black's */
    tiers_pos_free(p);
    /* the first position again: remembered, and the two before did not ask */
    p = tu_pos(v, "4k/5/5/1P3/2K2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "Lb2n3", NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);

    /* without tower tests every tower is read: an enemy piece moved is
       a new answer, the same board again is not */
    v = load("pure_all.yaml");
    static const char *const seq[][2] = {{"4k/5/5/5/2K2 - w - 0 1", "A1"},
                                         {"3k1/5/5/5/2K2 - w - 0 1", "A2"},
                                         {"4k/5/5/5/2K2 - w - 0 1", "A2"}};
    for (size_t i = 0; i < 3; i++) {
        p = tu_pos(v, seq[i][0], NULL);
        if (!tu_has_move(p, seq[i][1], NULL))
            fail_msg("%s: no %s in %s", seq[i][0], seq[i][1], tu_moves(p, NULL));
        tiers_pos_free(p);
    }
    tiers_variant_free(v);

    /* two count tests that the same towers pass: the pawn moved is still
       a new answer (each test's towers enter the key apart) */
    v = load("pure_two.yaml");
    p = tu_pos(v, "4k/5/5/1P3/2K2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "Wb2", NULL));
    tiers_pos_free(p);
    p = tu_pos(v, "4k/5/5/3P1/2K2 - w - 0 1", NULL);
    if (!tu_has_move(p, "Wd2", NULL) || tu_has_move(p, "Wb2", NULL))
        fail_msg("pawn on d2: %s", tu_moves(p, NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* How many times v's hook `hook` of effect `effect` ran Lua. */
static long long hook_runs(const tiers_variant *v, const char *effect, const char *hook)
{
    tiers_hook_use u;
    for (int i = 0; tiers_variant_hook_use(v, i, &u); i++)
        if (!strcmp(u.effect, effect) && !strcmp(u.hook, hook))
            return (long long)u.runs;
    fail_msg("no hook %s of effect %s", hook, effect);
    return -1;
}

/* veto_pure: asked once for each position after a move.  From c1 the
 * King has 5 steps; from d2 it has 8, of which d1 and c2 end on positions
 * already asked about (the ply and clock left out): 5 + 6 calls.  The
 * remembered answer still refuses Kd1. */
static void test_pure_veto(void **state)
{
    (void)state;
    tiers_variant *v = load("pure_veto.yaml");
    tiers_pos *p = tu_pos(v, "4k/5/5/5/2K2 - w - 0 1", NULL);
    assert_int_equal(legal_count(p), 4);
    assert_false(tu_has_move(p, "c1-d1", NULL));
    assert_int_equal(hook_runs(v, "off-d1", "veto"), 5);
    tiers_pos_free(p);
    p = tu_pos(v, "4k/5/5/3K1/5 - w - 3 7", NULL);
    assert_int_equal(legal_count(p), 7);
    assert_false(tu_has_move(p, "d2-d1", NULL));
    assert_true(tu_has_move(p, "d2-c2", NULL));
    assert_int_equal(hook_runs(v, "off-d1", "veto"), 11);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* check_pure: the same board at another ply and clock is not asked
 * again; another board, or the other side, is. */
static void test_pure_check(void **state)
{
    (void)state;
    tiers_variant *v = load("pure_check.yaml");
    static const struct { const char *fen; int side, check, asked; } seq[] = {
        {"2k2/5/5/5/2R1K - w - 0 1", 1, 1, 1},  /* Rc1 on Black's King's file */
        {"2k2/5/5/5/2R1K - w - 5 9", 1, 1, 0},  /* same board, later: remembered */
        {"2k2/5/5/5/2R1K - w - 0 1", 0, 0, 1},  /* White asked about: a new key */
        {"2k2/5/5/5/1R2K - w - 0 1", 1, 0, 1},  /* the Rook moved: asked */
    };
    for (size_t i = 0; i < sizeof seq / sizeof *seq; i++) {
        tiers_pos *p = tu_pos(v, seq[i].fen, NULL);
        long long before = hook_runs(v, "rook-file", "check");
        assert_int_equal(tiers_pos_in_check(p, seq[i].side), seq[i].check);
        if (hook_runs(v, "rook-file", "check") - before != seq[i].asked)
            fail_msg("%s side %d: asked %lld times, want %d", seq[i].fen, seq[i].side,
                     hook_runs(v, "rook-file", "check") - before, seq[i].asked);
        tiers_pos_free(p);
    }
    tiers_variant_free(v);
}

/* moves_beside_royal: a tower next to the side's own royal piece, by an
 * orthogonal step; diagonal, enemy-king and tall towers do not count. */
static void test_moves_towers(void **state)
{
    (void)state;
    tiers_variant *v = load("beside.yaml");
    static const struct {
        const char *pos, *mark; /* mark: expected move, or NULL = none */
    } cases[] = {
        {"4k/5/5/1PK2/5 - w - 0 1", "Mb2"},         /* west of the King */
        {"4k/5/2P2/2K2/5 - w - 0 1", "Mc3"},        /* north of it */
        {"4k/5/5/2K2/2P2 - w - 0 1", "Mc1"},        /* south */
        {"4k/5/1P3/2K2/5 - w - 0 1", NULL},         /* diagonal */
        {"4k/5/5/P1K2/5 - w - 0 1", NULL},          /* two files away */
        {"4k/3P1/5/2K2/5 - w - 0 1", NULL},         /* next to Black's king */
        {"4k/5/5/1[R:P]K2/5 - w - 0 1", NULL},      /* a tower of two */
        {"4k/5/5/1pK2/5 - w - 0 1", NULL},          /* Black's pawn */
        {"4k/5/5/1PK2/5 - b - 0 1", NULL},          /* Black to move */
        {"4k/5/5/2K2/1P3 - w - 0 1", NULL},         /* diagonal, below */
        {"4k/5/K4/P4/2K2 - w - 0 1", "Ma2"},        /* two Kings: the board is read */
        {"4k/5/K4/1P3/2K2 - w - 0 1", NULL},        /* two Kings, both diagonal */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tiers_pos *p = tu_pos(v, cases[i].pos, NULL);
        char *all = tu_moves(p, NULL);
        int marked = strstr(all, " M") != NULL || !strncmp(all, "M", 1);
        if (cases[i].mark ? !tu_has_move(p, cases[i].mark, NULL) : marked)
            fail_msg("%s: want %s, moves %s", cases[i].pos,
                     cases[i].mark ? cases[i].mark : "no mark", all);
        free(all);
        tiers_pos_free(p);
    }
    /* moves_heights = {2}: the count of two-high towers follows make and
       unmake (the hook is not asked while there is none) */
    const char *tall = "4k/5/5/1[R:P]3/2K2 - w - 0 1";
    tiers_pos *p = tu_pos(v, tall, NULL);
    assert_true(tu_has_move(p, "Tb2", NULL));
    tu_play(p, "b2-b3", NULL);
    tu_play(p, "e5-e4", NULL);
    assert_false(tu_has_move(p, "Tb3", NULL));
    for (int i = 0; i < 2; i++)
        assert_int_equal(tiers_unmake(p), 0);
    assert_string_equal(tu_fen(p, NULL), tall);
    assert_true(tu_has_move(p, "Tb2", NULL));
    tiers_pos_free(p);
    p = tu_pos(v, "4k/5/5/1P3/1RK2 - w - 0 1", NULL);
    assert_false(tu_has_move(p, "Tb2", NULL));
    tu_play(p, "b1^b2", NULL); /* the Rook onto the pawn: two high */
    tu_play(p, "e5-e4", NULL);
    assert_true(tu_has_move(p, "Tb2", NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Does a two-high tower hold a pawn of the side to move (the "tall"
 * effect's moves_heights test), read from the board itself? */
static int tall_expected(const tiers_pos *p)
{
    int side = tiers_pos_side_to_move(p);
    for (int r = 0; r < 5; r++)
        for (int f = 0; f < 5; f++) {
            if (tiers_pos_height(p, f, r) != 2)
                continue;
            for (int t = 1; t <= 2; t++) {
                tiers_piece_info in;
                if (tiers_pos_piece_info(p, f, r, t, &in) == side && !strcmp(in.face, "pawn"))
                    return 1;
            }
        }
    return 0;
}

/* Did the hook offer its moves (legal or not: the side may be in check)? */
static int tall_offered(tiers_pos *p)
{
    const tiers_variant *v = tiers_pos_variant(p);
    tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++)
        if (buf[i].effect && !strcmp(tiers_variant_effect_name(v, buf[i].effect - 1), "tall"))
            return 1;
    return 0;
}

/* A board count of a moves hook over towers of given heights reads the
 * towers' squares from an index of the board that follows it from one
 * position to the next (filter.c): on random walks of two positions in
 * turn, with unmakes, its answer is the board's at every step. */
static void test_moves_towers_walk(void **state)
{
    (void)state;
    tiers_variant *v = load("beside.yaml");
    tiers_pos *pos[2] = {tu_pos(v, NULL, NULL),
                         tu_pos(v, "1rk2/1p1p1/2[P:p]2/1P1P1/2KR1 - w - 0 1", NULL)};
    uint64_t rng = 12345;
    int seen[2] = {0, 0};
    for (int step = 0; step < 1500; step++) {
        tiers_pos *p = pos[step / 7 % 2]; /* runs of seven steps each */
        int want = tall_expected(p);
        if (tall_offered(p) != want)
            fail_msg("step %d, %s: tall offered %d, want %d", step, tu_fen(p, NULL), !want,
                     want);
        seen[want]++;
        tiers_move buf[TIERS_MAX_MOVES];
        int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        int back = tiers_pos_ply(p) > 40 || n <= 0 || (rng >> 60) < 3;
        if (back && tiers_unmake(p) == 0)
            continue;
        assert_true(n > 0);
        assert_int_equal(tiers_make(p, &buf[(rng >> 33) % (uint64_t)n]), 0);
    }
    assert_true(seen[0] > 100 && seen[1] > 100); /* both answers were asked */
    tiers_pos_free(pos[0]);
    tiers_pos_free(pos[1]);
    tiers_variant_free(v);
}

/* The index follows the board over several moves made while the hook
 * was not asked: asked at the start, then four moves made unchecked
 * (parsed on a twin, so that nothing asks about them); the tower the
 * first made is the one the hook must find, though the last move did not
 * touch it. */
static void test_moves_towers_behind(void **state)
{
    (void)state;
    tiers_variant *v = load("beside.yaml");
    const char *start = "4k/5/5/P[R:P]3/R1K2 - w - 0 1";
    const char *line[4] = {"a1^a2", "e5-e4", "b2-b3", "e4-e5"};
    tiers_move m[4];
    tiers_pos *twin = tu_pos(v, start, NULL);
    for (int i = 0; i < 4; i++) {
        tiers_error err;
        assert_true(tiers_move_parse(twin, line[i], NULL, &m[i], &err) >= 0);
        assert_int_equal(tiers_make(twin, &m[i]), 0);
    }
    tiers_pos *other = tu_pos(v, "1rk2/1p1p1/2[P:p]2/1P1P1/2KR1 - w - 0 1", NULL);
    assert_true(tall_offered(other)); /* the index now on another board */
    tiers_pos *p = tu_pos(v, start, NULL);
    assert_true(tall_offered(p)); /* b2 */
    for (int i = 0; i < 4; i++)
        assert_int_equal(tiers_pos_make_unchecked(p, &m[i], NULL), 0);
    assert_int_equal(tall_expected(p), 1); /* a2 only */
    assert_true(tall_offered(p));
    tiers_pos_free(p);
    tiers_pos_free(other);
    tiers_pos_free(twin);
    tiers_variant_free(v);
}

/* ------------------------------------------------------------ narrowing */

static tiers_pos *narrow_pos(tiers_variant *v, const char *board, int which)
{
    char text[256];
    snprintf(text, sizeof text, "%s - w - 0 1 vars=%d", board, which);
    return tu_pos(v, text, NULL);
}

static void expect(tiers_variant *v, const char *board, int which, const char *has,
                   const char *lacks)
{
    tiers_pos *p = narrow_pos(v, board, which);
    char copy[256];
    snprintf(copy, sizeof copy, "%s", has);
    for (char *s = NULL, *t = strtok_r(copy, " ", &s); t; t = strtok_r(NULL, " ", &s))
        if (!tu_has_move(p, t, NULL))
            fail_msg("filter %d: %s should be legal in %s; legal: %s", which, t, board,
                     tu_moves(p, NULL));
    snprintf(copy, sizeof copy, "%s", lacks);
    for (char *s = NULL, *t = strtok_r(copy, " ", &s); t; t = strtok_r(NULL, " ", &s))
        if (tu_has_move(p, t, NULL))
            fail_msg("filter %d: %s should be refused in %s", which, t, board);
    tiers_pos_free(p);
}

static void test_narrowing(void **state)
{
    (void)state;
    tiers_variant *v = load("narrow.yaml");
    /* White: Rook a1, King c1, Pawn b2; Black: King c4, Pawn a3, Rook d2 */
    const char *b = "5/2k2/p4/1P1r1/R1K2";
    expect(v, b, 0, "a1-a2 a1xa3 a1^a3 a1-b1 b2xa3 b2-b3 b2-c3 c1-b1 c1xd2", "");
    expect(v, b, 1, "b2-b3 c1xd2", "a1-a2 a1xa3 a1^a3 a1-b1");                /* faces */
    expect(v, b, 2, "a1^a3 b2^a3 b2-b3", "a1xa3 b2xa3 c1xd2");                /* kinds */
    expect(v, b, 3, "c1xd2 a1^a3", "a1xa3 b2xa3");                             /* taken */
    expect(v, b, 5, "a1xa3 a1-a2 b2xa3", "a1^a3 b2^a3");                       /* heights */
    expect(v, b, 6, "b2xa3 a1-a2", "b2-b3 b2-c3");                             /* check */
    expect(v, b, 8, "a1-a2 b2-b3", "c1-b1 c1xd2");                             /* both */
    expect(v, b, 11, "a1-a2 a1xa3 b2-b3 c1xd2", "");                           /* never */
    /* ranks: the destination on White's ranks 4 and 5 */
    expect(v, "2k2/5/5/5/R1K2", 4, "a1-a2 a1-a3", "a1-a4 a1-a5");
    /* checked: White's King on d1 in check from the Rook on d2 */
    tiers_pos *p = narrow_pos(v, "2k2/5/5/3r1/R2K1", 0);
    assert_int_equal(legal_count(p), 4); /* d1-c1 d1-e1 d1^d2 d1xd2 */
    tiers_pos_free(p);
    p = narrow_pos(v, "2k2/5/5/3r1/R2K1", 7);
    assert_int_equal(legal_count(p), 0);
    tiers_pos_free(p);
    expect(v, "2k2/5/5/3r1/R1K2", 7, "a1-a2 c1xd2", "");
    /* file_faces, doubled: White Pawns c3 and b2 */
    const char *f = "2k2/5/2P2/1P3/2K2";
    expect(v, f, 9, "b2-b3 c3-c4 c3-d4", "b2^c3 c3-b4");
    expect(v, f, 10, "b2-b3 c3-b4", "b2^c3");
    tiers_variant_free(v);
}

/* <hook>_count, the general count test, on each kind of square set; and
 * file_heights, read as one (hand-derived from the positions). */
static void test_count(void **state)
{
    (void)state;
    tiers_variant *v = load("count.yaml");
    /* White: Rook a1, King c1, Pawn b2; Black: King c4, Pawn a3, Rook d2 */
    const char *b = "5/2k2/p4/1P1r1/R1K2";
    expect(v, b, 0, "a1-a2 a1xa3 a1^a3 b2xa3 b2^a3 b2-b3 b2-c3 c1xd2", "");
    expect(v, b, 1, "a1-a2 a1xa3 b2xa3 c1xd2", "b2-b3 b2-c3 a1^a3");     /* rank */
    expect(v, b, 2, "a1-a2 a1xa3 b2-b3 b2xa3", "a1^a3 b2^a3");           /* top mover */
    expect(v, b, 3, "a1-a2 a1xa3 b2-b3 c1xd2", "a1^a3 b2^a3");           /* tiers */
    expect(v, b, 4, "a1-a2 a1^a3 b2^a3 b2-b3", "");                      /* top opponent */
    /* White: Pawns c3 and b2, King c1 */
    const char *f = "2k2/5/2P2/1P3/2K2";
    expect(v, f, 5, "b2-b3 c3-c4 c3-d4 c1-b1", "b2^c3 c3-b4");           /* each */
    expect(v, f, 6, "b2-b3 c3-d4", "c3-c4 c1-b1 b2^c3 c3-b4");           /* sum */
    expect(v, f, 7, "c1-d1 c1-d2 b2-b3", "c1-c2 c1-b1");                 /* royal */
    /* a White Pawn on a Black one on b3 */
    const char *t = "2k2/5/1[p:P]3/5/R1K2";
    expect(v, t, 8, "a1-a2 c1-c2 b3-b4", "a1-b1 c1-b2 c1-b1");           /* others */
    expect(v, t, 9, "a1-a2 c1-c2 b3-b4", "a1-b1 c1-b2 c1-b1");           /* file_heights */
    tiers_variant_free(v);
}

/* expand_reach = {2, 2}: a second variant where the pawn lands with
 * exactly two squares in reach (an edge file below the last rank). */
static void test_reach(void **state)
{
    (void)state;
    tiers_variant *v = load("reach.yaml");
    tiers_pos *p = tu_pos(v, "4k/5/5/1P3/2K2 - w - 0 1", NULL);
    assert_from(p, "b2", "b2-a3 b2-a3/e b2-b3 b2-c3");
    tiers_pos_free(p);
    p = tu_pos(v, "4k/5/5/P4/2K2 - w - 0 1", NULL);
    assert_from(p, "a2", "a2-a3 a2-a3/e a2-b3");
    tiers_pos_free(p);
    p = tu_pos(v, "4k/P4/5/5/2K2 - w - 0 1", NULL); /* a5 and b5 reach nothing */
    assert_from(p, "a4", "a4-a5 a4-b5");
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* veto = true: the narrowing fields alone are the rule, no Lua call. */
static void test_constant_veto(void **state)
{
    (void)state;
    tiers_variant *v = load("const.yaml");
    const char *b = "5/2k2/p4/1P1r1/R1K2";
    expect(v, b, 0, "a1-a2 a1^a3 b2xa3 c1xd2", "a1xa3"); /* a Rook's capture only */
    tiers_pos *p = narrow_pos(v, b, 0);
    assert_int_equal(legal_count(p), 10); /* 11 (see test_narrowing) - a1xa3 */
    assert_int_equal(vetoed(p), 1u); /* counted as a foul of its effect */
    tiers_pos_free(p);
    p = narrow_pos(v, b, 1);
    assert_int_equal(legal_count(p), 0);
    assert_int_equal(vetoed(p), 3u);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

static void expect_load_error(const char *lua, const char *msg)
{
    char dir[] = "/tmp/tiers-hooks-XXXXXX", path[300];
    if (!mkdtemp(dir))
        fail_msg("mkdtemp failed");
    snprintf(path, sizeof path, "%s/bad.lua", dir);
    FILE *fp = fopen(path, "w");
    fputs(lua, fp);
    fclose(fp);
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    fp = fopen(path, "w");
    fprintf(fp, "name: hooks-bad\ninherits: %s\nscripts: [bad.lua]\n",
            tu_path("data/hooks/base.yaml"));
    fclose(fp);
    tiers_error err;
    char text[1024];
    tiers_variant *v = tiers_variant_load(path, NULL, NULL, &err);
    assert_null(v);
    tiers_error_text(&err, text, sizeof text);
    if (!strstr(text, msg))
        fail_msg("'%s' does not contain '%s'", text, msg);
    remove(path);
    snprintf(path, sizeof path, "%s/bad.lua", dir);
    remove(path);
    rmdir(dir);
}

static void test_narrowing_errors(void **state)
{
    (void)state;
    expect_load_error("effect{name = 'x', veto_faces = {'dragon'}, veto = function() end}",
                      "effect 'x': veto_faces: unknown face 'dragon'");
    expect_load_error("effect{name = 'x', veto_kinds = {'hop'}, veto = function() end}",
                      "effect 'x': veto_kinds: unknown move kind 'hop'");
    expect_load_error("effect{name = 'x', moves_kinds = {'drop'}, moves = function() end}",
                      "effect 'x': hook moves cannot be narrowed by kinds");
    expect_load_error("effect{name = 'x', after_faces = {'pawn'}, veto = function() end}",
                      "effect 'x': narrowing fields for hook after, which it does not define");
    expect_load_error("effect{name = 'x', veto_check = false, veto = function() end}",
                      "effect 'x': veto_check must be true (or left out)");
    expect_load_error("effect{name = 'x', veto_ranks = {3}, veto = function() end}",
                      "effect 'x': veto_ranks must be {first, last}");
    expect_load_error("effect{name = 'x', veto_vars = {9}, veto = function() end}",
                      "effect 'x': veto_vars entries must be integers 1..8");
    expect_load_error("effect{name = 'x', expand = {{path = {'a1'}}}}",
                      "effect 'x': a fixed expand variant takes only 'arg'");
    expect_load_error("effect{name = 'x', veto = false}",
                      "effect 'x': veto must be a function or true, not false");
    expect_load_error("effect{name = 'x', veto = true}",
                      "effect 'x': veto = true needs veto_ fields (it would refuse every "
                      "move)");
    expect_load_error("effect{name = 'x', veto = 1}",
                      "effect 'x': veto must be a function or true, not number");
    expect_load_error("effect{name = 'x', after = true}",
                      "effect 'x': after must be a function, not boolean");
    expect_load_error("effect{name = 'x', expand = {arg = 1}}",
                      "effect 'x': expand must be a function or a list of variants");
    expect_load_error("effect{name = 'x', expand = {{arg = 256}}}",
                      "effect 'x': expand variant 1: arg must be an integer 0..255");
    expect_load_error("effect{name = 'x', expand = {{}, 'a'}}",
                      "effect 'x': expand variant 2 is a string, not a table");
    expect_load_error("effect{name = 'x', expand = {{}, {}, {}, {}, {}, {}, {}, {}, {}}}",
                      "effect 'x': a fixed expand list has at most 8 variants");
    expect_load_error("effect{name = 'x', moves_tiers = {0}, moves = function() end}",
                      "effect 'x': moves_tiers entries must be integers 1..");
    expect_load_error("effect{name = 'x', veto_tiers = {1}, veto = function() end}",
                      "effect 'x': hook veto cannot be narrowed by tiers");
    expect_load_error("effect{name = 'x', veto_controlled = true, veto = function() end}",
                      "effect 'x': hook veto cannot be narrowed by controlled");
    expect_load_error("effect{name = 'x', veto_beside_royal = true, veto = function() end}",
                      "effect 'x': hook veto cannot be narrowed by beside_royal");
    expect_load_error("effect{name = 'x', moves_beside_royal = {}, moves = function() end}",
                      "effect 'x': moves_beside_royal must be a boolean, not table");
    expect_load_error("effect{name = 'x', veto_count = {on = 'diagonal'}, veto = true}",
                      "effect 'x': veto_count.on: 'diagonal' is not one of tower, file, "
                      "rank, board, royal");
    expect_load_error("effect{name = 'x', veto_count = {colour = 1}, veto = true}",
                      "effect 'x': veto_count: unknown field 'colour'");
    expect_load_error("effect{name = 'x', veto_count = 3, veto = true}",
                      "effect 'x': veto_count must be a table, not number");
    expect_load_error("effect{name = 'x', veto_count = {min = 0}, veto = true}",
                      "effect 'x': veto_count.min entries must be integers 1..255");
    expect_load_error("effect{name = 'x', veto_count = {owner = 'me'}, veto = true}",
                      "effect 'x': veto_count.owner: 'me' is not one of any, mover, opponent");
    expect_load_error("effect{name = 'x', veto_count = {each = 1}, veto = true}",
                      "effect 'x': veto_count.each must be a boolean, not number");
    expect_load_error("effect{name = 'x', moves_count = {on = 'file'}, moves = function() end}",
                      "effect 'x': moves_count.on must be board or royal for a moves hook");
    expect_load_error("effect{name = 'x', result_count = {}, result = function() end}",
                      "effect 'x': hook result cannot be narrowed by count");
    expect_load_error("effect{name = 'x', expand_stuck = true, expand_reach = {0, 0},\n"
                      "  expand = {{}}}",
                      "effect 'x': expand_stuck is expand_reach = {0, 0}: give one of them");
    expect_load_error("effect{name = 'x', expand_reach = {0, 0}, expand_before = true,\n"
                      "  expand = {{}}}",
                      "effect 'x': expand_before cannot go with expand_reach or expand_stuck");
    expect_load_error("effect{name = 'x', expand_before = true, expand_stuck = true,\n"
                      "  expand = {{}}}",
                      "effect 'x': expand_before cannot go with expand_reach or expand_stuck");
    expect_load_error("fixed_variant{colour = 1}",
                      "fixed_variant: unknown field 'colour' (path, arg)");
    expect_load_error("fixed_variant{path = {'z9'}}",
                      "fixed_variant: path square 'z9' is not a square name");
    expect_load_error("fixed_variant{arg = 300}", "fixed_variant: arg must be an integer 0..255");
    expect_load_error("fixed_variant{path = {'a1', 'a2', 'a3', 'a4', 'a5'}}",
                      "fixed_variant: path must be a list of at most 4 squares");
    expect_load_error("fixed_variant('a1')", "table expected, got string");
    expect_load_error("effect{name = 'x', expand_before = false, expand = {{}}}",
                      "effect 'x': expand_before must be true (or left out)");
    expect_load_error("effect{name = 'x', expand_before = 1, expand = {{}}}",
                      "effect 'x': expand_before must be a boolean, not number");
    expect_load_error("effect{name = 'x', veto_before = true, veto = function() end}",
                      "effect 'x': hook veto cannot be narrowed by before");
    expect_load_error("effect{name = 'x', expand_reach = {3, 1}, expand = {{}}}",
                      "effect 'x': expand_reach entries must be integers 3..255");
    expect_load_error("effect{name = 'x', expand_reach = {0}, expand = {{}}}",
                      "effect 'x': expand_reach must be {first, last}");
    expect_load_error("effect{name = 'x', moves_pure = 1, moves = function() end}",
                      "effect 'x': moves_pure must be a boolean, not number");
    expect_load_error("effect{name = 'x', veto_pure = 1, veto = function() end}",
                      "effect 'x': veto_pure must be a boolean, not number");
    expect_load_error("effect{name = 'x', after_pure = true, after = function() end}",
                      "effect 'x': hook after cannot be narrowed by pure");
    expect_load_error("effect{name = 'x', expand = function() return 3 end}\n"
                      "effect{name = 'y', veto_setup = 'no', veto = function() end}",
                      "effect 'y': veto_setup must be a boolean, not string");
}

/* An expand hook returning something wrong fails the generation. */
static void test_expand_errors(void **state)
{
    (void)state;
    char dir[] = "/tmp/tiers-hooks-XXXXXX", path[300];
    const char *bodies[] = {
        "return 3", "must return a list of variants or nil, not number",
        "return {{arg = 300}}", "variant 1: arg must be an integer 0..255",
        "return {{path = {'z9'}}}", "variant 1: path square 'z9' is not a square name",
        "return {{colour = 1}}", "variant 1: unknown field 'colour' (path, arg)",
        "return {7}", "variant 1 is a number, not a table",
        "pos:push('a1', 'pawn', 0)", "the position is read-only in hook expand",
        /* before: with expand_before = true */
        "before: pos:in_check_before()", "with expand_before the move is not made",
        "before: pos:push('a1', 'pawn', 0)", "the position is read-only in hook expand",
        "return {fixed_move{kind = 'move', from = 'b2', to = 'b3'}}",
        "variant 1 is a fixed_move, not a variant",
    };
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i += 2) {
        snprintf(path, sizeof path, "%s/bad.lua", dir);
        FILE *fp = fopen(path, "w");
        int before = !strncmp(bodies[i], "before: ", 8);
        fprintf(fp, "effect{name = 'x', expand_faces = {'pawn'}, expand_before = %s,\n"
                    "  expand = function(pos, move) %s end}\n", before ? "true" : "nil",
                bodies[i] + (before ? 8 : 0));
        fclose(fp);
        snprintf(path, sizeof path, "%s/variant.yaml", dir);
        fp = fopen(path, "w");
        fprintf(fp, "name: hooks-bad\ninherits: %s\nscripts: [bad.lua]\n",
                tu_path("data/hooks/base.yaml"));
        fclose(fp);
        tiers_variant *v = tu_variant(path);
        tiers_pos *p = tu_pos(v, "2k2/5/5/1P3/2K2 - w - 0 1", NULL);
        assert_int_equal(legal_count(p), TIERS_ESCRIPT);
        const char *msg = tiers_variant_script_error(v);
        if (!strstr(msg, bodies[i + 1]) || !strstr(msg, "(in hook expand of effect x)"))
            fail_msg("'%s' does not contain '%s'", msg, bodies[i + 1]);
        /* the position is as it was, and without pawns nothing is asked */
        assert_string_equal(tu_fen(p, NULL), "2k2/5/5/1P3/2K2 - w - 0 1");
        tiers_pos_free(p);
        p = tu_pos(v, "2k2/5/5/5/2K2 - w - 0 1", NULL);
        assert_int_equal(legal_count(p), 5);
        tiers_pos_free(p);
        tiers_variant_free(v);
        remove(path);
        snprintf(path, sizeof path, "%s/bad.lua", dir);
        remove(path);
    }
    rmdir(dir);
}

/* ------------------------------------------------------------ moves results */

/* dir/variant.yaml (base.yaml plus `extra`) and dir/m.lua (`lua`). */
/* Writes dir/m.lua and dir/variant.yaml (base.yaml, the script, extra
 * YAML) and leaves the YAML's path in path. */
static void write_moves_variant(const char *dir, const char *extra, const char *lua,
                                char *path, size_t size)
{
    snprintf(path, size, "%s/m.lua", dir);
    FILE *fp = fopen(path, "w");
    fputs(lua, fp);
    fclose(fp);
    snprintf(path, size, "%s/variant.yaml", dir);
    fp = fopen(path, "w");
    fprintf(fp, "name: hooks-moves\ninherits: %s\nscripts: [m.lua]\n%s",
            tu_path("data/hooks/base.yaml"), extra);
    fclose(fp);
}

static tiers_variant *moves_variant(const char *dir, const char *extra, const char *lua)
{
    char path[300];
    write_moves_variant(dir, extra, lua, path, sizeof path);
    return tu_variant(path);
}

static void moves_cleanup(const char *dir)
{
    char path[300];
    snprintf(path, sizeof path, "%s/m.lua", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    remove(path);
    rmdir(dir);
}

/* A moves hook returning one move instead of a list, or a move the engine
 * generates already (the King's c1-c2), fails naming the hook. */
static void test_moves_errors(void **state)
{
    (void)state;
    char dir[] = "/tmp/tiers-moves-XXXXXX";
    const char *cases[] = {
        "return {kind = 'move', from = 'c1', to = 'c3'}",
        "hook moves must return a list of moves, not one move (return {move})",
        "return {{kind = 'move', from = 'c1', to = 'c3'}, {kind = 'move', from = 'c1', to = 'c2'}}",
        "hook moves returned a move the engine already generates (entry 2: move c1-c2)",
    };
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i += 2) {
        char lua[300];
        snprintf(lua, sizeof lua, "effect{name = 'x', moves = function(pos) %s end}\n",
                 cases[i]);
        tiers_variant *v = moves_variant(dir, "", lua);
        tiers_pos *p = tu_pos(v, "2k2/5/5/5/2K2 - w - 0 1", NULL);
        assert_int_equal(legal_count(p), TIERS_ESCRIPT);
        const char *msg = tiers_variant_script_error(v);
        if (!strstr(msg, cases[i + 1]) || !strstr(msg, "m.lua:1:") ||
            !strstr(msg, "(in hook moves of effect x)"))
            fail_msg("'%s' does not contain '%s'", msg, cases[i + 1]);
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
    moves_cleanup(dir);
}

/* fixed_move{...}: a move checked when made.  It is a copy (a later
 * change to the table it was made from changes nothing), read-only, and
 * its fields read as a move table's; returned from moves it is offered as
 * the table would be, the checks that need the position made each time
 * (a piece on 'from', a move of the engine's own). */
static void test_fixed_move(void **state)
{
    (void)state;
    char dir[] = "/tmp/tiers-moves-XXXXXX";
    const char *king = "2k2/5/5/5/2K2 - w - 0 1";
    assert_non_null(mkdtemp(dir));
    tiers_variant *v = moves_variant(dir, "",
        "local t = {kind = 'move', from = 'c1', to = 'c3'}\n"
        "local F, G = fixed_move(t), fixed_move{kind = 'effect', from = 'c1'}\n"
        "t.to = 'c2'\n"
        "effect{name = 'x', moves = function(pos)\n"
        "  assert(F.kind == 'move' and F.from == 'c1' and F.to == 'c3' and #F.path == 0)\n"
        "  assert(G.effect == nil and not pcall(function() F.to = 'c4' end))\n"
        "  return {F, G} end,\n"
        "  apply = function(pos, move) assert(move.effect == 'x') return false end}\n");
    tiers_pos *p = tu_pos(v, king, NULL);
    assert_int_equal(legal_count(p), 7); /* the King's 5 steps, c1-c3, the effect */
    assert_true(tu_has_move(p, "c1-c3", NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);
    static const char *const bad[] = {
        "F = fixed_move{kind = 'move', from = 'a1', to = 'a3'}",
        "move 1 returned by hook moves: 'from' must hold a piece",
        "F = fixed_move{kind = 'move', from = 'c1', to = 'c2'}",
        "hook moves returned a move the engine already generates (entry 1: move c1-c2)",
        "F = fixed_variant{arg = 1}",
        "move 1 returned by hook moves: is a fixed_variant, not a move",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i += 2) {
        char lua[300];
        snprintf(lua, sizeof lua, "%s\neffect{name = 'x', moves = function(pos) return {F} "
                 "end}\n", bad[i]);
        v = moves_variant(dir, "", lua);
        p = tu_pos(v, king, NULL);
        assert_int_equal(legal_count(p), TIERS_ESCRIPT);
        if (!strstr(tiers_variant_script_error(v), bad[i + 1]))
            fail_msg("'%s' does not contain '%s'", tiers_variant_script_error(v), bad[i + 1]);
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
    moves_cleanup(dir);
}

/* A fixed move that is no move, or is written to, fails the load naming
 * the script's line. */
static void test_fixed_move_errors(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "fixed_move{kind = 'move', from = 'c1', to = 'z3'}",
        "fixed_move: to 'z3' is not a square name",
        "fixed_move{kind = 'hop', from = 'c1'}", "fixed_move: kind must be one of",
        "fixed_move{kind = 'deploy', from = 'c1'}",
        "fixed_move: kind 'deploy' cannot be added by a script",
        "fixed_move{kind = 'drop', to = 'c3', piece = {face = 'pawn'}}",
        "piece has no owner",
        "fixed_move{kind = 'effect', effect = 'later'}", "fixed_move: unknown effect 'later'",
        "local F = fixed_move{kind = 'move', from = 'c1', to = 'c3'}\nF.to = 'c4'",
        "move and piece tables are read-only",
        "fixed_move('c1')", "table expected, got string",
    };
    char dir[] = "/tmp/tiers-moves-XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i += 2) {
        char path[300];
        write_moves_variant(dir, "", cases[i], path, sizeof path);
        tiers_error err;
        tiers_variant *v = tiers_variant_load(path, NULL, NULL, &err);
        assert_null(v);
        int line = strchr(cases[i], '\n') ? 2 : 1;
        if (!strstr(err.msg, cases[i + 1]) || !strstr(err.file, "m.lua") || err.line != line)
            fail_msg("%s:%d: '%s' does not contain '%s'", err.file, err.line, err.msg,
                     cases[i + 1]);
    }
    moves_cleanup(dir);
}

/* A board move from a moves hook is not offered during a setup unless the
 * effect says moves_setup = true; in play it is.  The King's c1-c3 is no
 * move of the engine's: the counts differ from the hookless ones by it. */
static void test_moves_setup(void **state)
{
    (void)state;
    char dir[] = "/tmp/tiers-moves-XXXXXX";
    const char *setup = "setup: {enabled: true, zone: {ranks: [1, 2]}, ready: true}\n";
    const char *in_setup = "2k2/5/5/5/2K2 RPPPrppp w wb 0 1", *in_play = "2k2/5/5/5/2K2 - w - 0 1";
    const char *hook = "effect{name = 'x', moves = function(pos)\n"
                       "  return {{kind = 'move', from = 'c1', to = 'c3'}} end}\n";
    const char *hook_setup = "effect{name = 'x', moves_setup = true, moves = function(pos)\n"
                             "  return {{kind = 'move', from = 'c1', to = 'c3'}} end}\n";
    assert_non_null(mkdtemp(dir));
    tiers_variant *v = moves_variant(dir, setup, "effect{name = 'x'}\n");
    tiers_pos *p = tu_pos(v, in_setup, NULL);
    int engine = legal_count(p);
    assert_true(engine > 1);
    tiers_pos_free(p);
    tiers_variant_free(v);

    v = moves_variant(dir, setup, hook);
    p = tu_pos(v, in_setup, NULL);
    assert_int_equal(legal_count(p), engine); /* refused */
    tiers_pos_free(p);
    p = tu_pos(v, in_play, NULL);
    assert_int_equal(legal_count(p), 6);      /* b1 b2 c2 d1 d2 and c3 */
    tiers_pos_free(p);
    tiers_variant_free(v);

    v = moves_variant(dir, setup, hook_setup);
    p = tu_pos(v, in_setup, NULL);
    assert_int_equal(legal_count(p), engine + 1);
    char *all = tu_moves(p, NULL);
    assert_non_null(strstr(all, "c1-c3"));
    free(all);
    tiers_pos_free(p);
    tiers_variant_free(v);
    moves_cleanup(dir);
}

/* ------------------------------------------------------------ pos:... */

/* The api.yaml probe position (White Pawn b2, Kings c1 and c5) with
 * variable 2 = which: its legal moves number n. */
static void expect_api_count(tiers_variant *v, int which, int n)
{
    char text[64];
    snprintf(text, sizeof text, "2k2/5/5/1P3/2K2 - w - 0 1 vars=0,%d", which);
    tiers_pos *p = tu_pos(v, text, NULL);
    if (legal_count(p) != n)
        fail_msg("variable 2 = %d: %d legal moves, want %d", which, legal_count(p), n);
    tiers_pos_free(p);
}

/* ... or generating them fails with an error that contains msg. */
static void expect_api_error(tiers_variant *v, int which, const char *msg)
{
    expect_api_count(v, which, TIERS_ESCRIPT);
    if (!strstr(tiers_variant_script_error(v), msg))
        fail_msg("variable 2 = %d: '%s' lacks '%s'", which, tiers_variant_script_error(v), msg);
}

static void test_pos_functions(void **state)
{
    (void)state;
    tiers_variant *v = load("api.yaml");
    /* reach ignores what stands in the way; find lists every tier */
    tiers_pos *p = tu_pos(v, "2k2/5/5/1P3/R1K2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "reach:b1,c1,d1,e1,a2,a3,a4,a5;pawns:b2/1/0", NULL));
    tiers_pos_free(p);
    p = tu_pos(v, "2k2/5/1[P:p]3/5/1R1K1 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "reach:a1,c1,d1,e1,b2,b3,b4,b5;pawns:b3/1/0,b3/2/1", NULL));
    tiers_pos_free(p);
    /* has_legal_move: c1-c5 leaves Black's King on a5 without a move (the
       White King on b3 covers a4 and b4, the Rook the fifth rank) */
    p = tu_pos(v, "k4/5/1K3/5/2R2 - w - 0 1 vars=0,1", NULL);
    assert_false(tu_has_move(p, "c1-c5", NULL));
    assert_true(tu_has_move(p, "c1-c4", NULL));
    assert_true(tu_has_move(p, "c1-b1", NULL));
    tiers_pos_free(p);
    p = tu_pos(v, "k4/5/1K3/5/2R2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "c1-c5", NULL));
    tiers_pos_free(p);
    /* in_check_before: no King move out of check; the Rook takes the
       checking Rook or buries it */
    p = tu_pos(v, "2k2/5/5/R2r1/3K1 - w - 0 1 vars=0,2", NULL);
    char *all = tu_moves(p, NULL);
    assert_string_equal(all, "a2^d2 a2xd2");
    free(all);
    tiers_pos_free(p);
    /* ... and the answer for one position is not kept for another */
    p = tu_pos(v, "2k2/5/5/R4/3K1 - w - 0 1 vars=0,2", NULL);
    assert_true(tu_has_move(p, "d1-e1", NULL));
    tiers_pos_free(p);
    /* move and piece tables and empty paths are read-only, and pairs
       lists them */
    expect_api_count(v, 5, 8); /* b2: 3 steps; c1: 4 and onto b2 */
    static const int writes[] = {4, 6, 7, 9, 10};
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++)
        expect_api_error(v, writes[i], "move and piece tables are read-only");
    expect_api_error(v, 8, "tiers.pos expected, got table");
    /* pos:occupied: every piece, in square order, as pos:token reads it */
    expect_api_count(v, 14, 8);
    /* pos:token by square index: the same tokens; bad indexes refused */
    expect_api_count(v, 11, 8);
    expect_api_error(v, 12, "square index must be an integer 1..25");
    expect_api_error(v, 13, "square index must be an integer 1..25");
    /* has_legal_move from an after hook is an error */
    expect_api_error(v, 3, "pos:has_legal_move: not available in hook after");
    tiers_variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expand),
        cmocka_unit_test(test_expand_before),
        cmocka_unit_test(test_expand_taken),
        cmocka_unit_test(test_expand_pool),
        cmocka_unit_test(test_expand_turned),
        cmocka_unit_test(test_fixed_expand),
        cmocka_unit_test(test_pure_moves),
        cmocka_unit_test(test_pure_veto),
        cmocka_unit_test(test_pure_check),
        cmocka_unit_test(test_moves_towers),
        cmocka_unit_test(test_moves_towers_walk),
        cmocka_unit_test(test_moves_towers_behind),
        cmocka_unit_test(test_narrowing),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_reach),
        cmocka_unit_test(test_constant_veto),
        cmocka_unit_test(test_narrowing_errors),
        cmocka_unit_test(test_expand_errors),
        cmocka_unit_test(test_moves_errors),
        cmocka_unit_test(test_fixed_move),
        cmocka_unit_test(test_fixed_move_errors),
        cmocka_unit_test(test_moves_setup),
        cmocka_unit_test(test_pos_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
