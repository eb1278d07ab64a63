/* test_agent.c - the agents (engine/src/agent.c): spec parsing, forced
 * wins found by alphabeta (and by greedy and mcts where one move wins),
 * mcts against random, and that every agent plays only legal moves and
 * leaves the position as it found it.
 *
 * Most positions are from tests/data/variants/duel (5x5, king, rook,
 * three pawns, drops); mates in two and three and forced defences worked
 * out by hand are in gungi-io and blog.  A brute-force solver below
 * checks that each test position really is a win in exactly the stated
 * number of moves, so the tests do not rest on the search they test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------ solver */

enum { SOLVE_DEPTH = 8 };
static tiers_move solve_stack[SOLVE_DEPTH][TIERS_MAX_MOVES];

static int side_wins(tiers_pos *p, int side)
{
    tiers_status st = tiers_pos_status(p);
    return st.game_over && st.result == (side ? TIERS_WIN_1 : TIERS_WIN_0);
}

static int all_replies_lose_within(tiers_pos *p, int me, int k, int d);

/* Whether the side to move wins by force within k of its own moves. */
static int forced_win(tiers_pos *p, int k, int d)
{
    int me = tiers_pos_side_to_move(p);
    int n = tiers_legal_moves(p, solve_stack[d], TIERS_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        assert_int_equal(tiers_make(p, &solve_stack[d][i]), 0);
        int ok = all_replies_lose_within(p, me, k, d);
        tiers_unmake(p);
        if (ok)
            return 1;
    }
    return 0;
}

/* After a move by `me`: the game is won, or (k > 1) every reply leaves
 * `me` a forced win within k - 1. */
static int all_replies_lose_within(tiers_pos *p, int me, int k, int d)
{
    tiers_status st = tiers_pos_status(p);
    if (st.game_over)
        return st.result == (me ? TIERS_WIN_1 : TIERS_WIN_0);
    if (k <= 1)
        return 0;
    int m = tiers_legal_moves(p, solve_stack[d + 1], TIERS_MAX_MOVES);
    for (int j = 0; j < m; j++) {
        assert_int_equal(tiers_make(p, &solve_stack[d + 1][j]), 0);
        int ok = !tiers_pos_status(p).game_over && forced_win(p, k - 1, d + 2);
        tiers_unmake(p);
        if (!ok)
            return 0;
    }
    return 1;
}

static tiers_agent *agent(const char *spec)
{
    tiers_error err;
    tiers_agent *a = tiers_agent_new(spec, &err);
    if (!a)
        fail_msg("agent %s: %s", spec, err.msg);
    return a;
}

/* ------------------------------------------------------------- specs */

static void test_specs(void **state)
{
    (void)state;
    static const char *const good[][2] = {
        {"random", "random"},
        {"greedy", "greedy:mate=yes,setup=random"},
        {"greedy:mate=yes", "greedy:mate=yes,setup=random"},
        {"greedy:mate=no", "greedy:mate=no,setup=random"},
        {"alphabeta", "alphabeta:depth=3,nodes=100000,tt=16,setup=random"},
        {"alphabeta:4", "alphabeta:depth=4,nodes=100000,tt=16,setup=random"},
        {"alphabeta:depth=3,nodes=5000", "alphabeta:depth=3,nodes=5000,tt=16,setup=random"},
        {"alphabeta:time=50", "alphabeta:depth=3,nodes=100000,tt=16,setup=random,time=50"},
        {"mcts:2000", "mcts:iterations=2000,rollout=random,plies=20,c=1.4,setup=random"},
        {"mcts:iterations=50,rollout=greedy,plies=0,c=0.7,setup=search",
         "mcts:iterations=50,rollout=greedy,plies=0,c=0.7,setup=search"},
        {"mcts:rollout=capture,time=20",
         "mcts:iterations=1000,rollout=capture,plies=20,c=1.4,setup=random,time=20"},
        {"greedy:progress=no", "greedy:mate=yes,progress=no,setup=random"},
        {"alphabeta:vary=50,contempt=0",
         "alphabeta:depth=3,nodes=100000,tt=16,setup=random,vary=50,contempt=0"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        tiers_agent *a = agent(good[i][0]);
        assert_string_equal(tiers_agent_spec(a), good[i][1]);
        /* the canonical spec reads back as itself */
        tiers_agent *b = agent(tiers_agent_spec(a));
        assert_string_equal(tiers_agent_spec(b), good[i][1]);
        assert_int_equal(tiers_agent_reproducible(a), strstr(good[i][0], "time=") == NULL);
        tiers_agent_free(a);
        tiers_agent_free(b);
    }
    static const char *const bad[][2] = {
        {"", "agent '': unknown agent (known: random, greedy, alphabeta, mcts)"},
        {"minimax", "agent 'minimax': unknown agent (known: random, greedy, alphabeta, mcts)"},
        {"mcts:x", "agent 'mcts:x': bad value 'x' for 'iterations'"},
        {"mcts:iterations=0", "agent 'mcts:iterations=0': bad value '0' for 'iterations'"},
        {"alphabeta:dept=3", "agent 'alphabeta:dept=3': unknown parameter 'dept' (known: depth, "
                             "nodes, time, tt, vary, contempt, setup)"},
        {"alphabeta:depth=33", "agent 'alphabeta:depth=33': bad value '33' for 'depth'"},
        {"random:3", "agent 'random:3': expected KEY=VALUE, not '3'"},
        {"greedy:mate=maybe", "agent 'greedy:mate=maybe': bad value 'maybe' for 'mate'"},
        {"mcts:", "agent 'mcts:': nothing after ':'"},
        {"mcts:100,", "agent 'mcts:100,': empty parameter after ','"},
        {"mcts:rollout=smart", "agent 'mcts:rollout=smart': bad value 'smart' for 'rollout'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tiers_error err;
        memset(&err, 0, sizeof err);
        assert_null(tiers_agent_new(bad[i][0], &err));
        assert_string_equal(err.msg, bad[i][1]);
    }
}

/* ----------------------------------------------------------- forced wins */

/* The first by hand (White: Kb3, Rc3; Black: Ka5; Rc5 mates: a4 and b4
 * are the white king's squares, b5 the rook's), the others found by random
 * play; forced_win checks each. */
static const char *const win_in_1[] = {
    "k4/5/1KR2/5/5 - w - 0 0",
    "[r:k]4/2P2/P4/2p1K/P2R1 Pp w - 0 14",
    "kP1r1/3R1/3[p:p]1/5/[p:p]p1K1 - b - 9 59",
};
/* Found by random play and checked by forced_win below: no win in one, a
 * win in two (hands let the defender drop blockers). */
static const char *const win_in_2[] = {
    "k2[P:r]1/2PP1/[p:K]2p1/5/3gR - w - 0 28",
    "r1G2/5/kP3/5/pg[g:R]K1 g b - 7 45",
    "5/2G1k/2[p:p]2/2P2/2R1K RPp b - 0 17",
};

static void check_win_in_1(const char *spec)
{
    tiers_variant *v = tu_variant("duel");
    for (size_t i = 0; i < sizeof win_in_1 / sizeof win_in_1[0]; i++) {
        tiers_pos *p = tu_pos(v, win_in_1[i], NULL);
        assert_true(forced_win(p, 1, 0));
        int me = tiers_pos_side_to_move(p);
        tiers_agent *a = agent(spec);
        uint64_t rng = 12345;
        tiers_move m;
        assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
        assert_int_equal(tiers_make(p, &m), 0);
        if (!side_wins(p, me))
            fail_msg("%s: %s does not win at once from %s", spec,
                     tu_fen(p, NULL), win_in_1[i]);
        tiers_agent_free(a);
        tiers_pos_free(p);
    }
    tiers_variant_free(v);
}

static void test_win_in_1(void **state)
{
    (void)state;
    check_win_in_1("alphabeta:depth=1");
    check_win_in_1("alphabeta:depth=3");
    check_win_in_1("greedy");
    check_win_in_1("mcts:500");
}

/* The Lua evaluate hook adds to material: a quiet position where the only
 * gain is the hook's (a rook on the c-file), found by every searching
 * agent; an error in the hook fails the choice with its message. */
static void test_evaluate_hook(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("duel-eval");
    /* White Rook a1 (tier 1: two squares orthogonally) may reach c1 */
    const char *quiet = "k4/5/5/5/R3K - w - 0 1";
    static const char *const specs[] = {"greedy:mate=no", "greedy", "alphabeta:depth=1",
                                        "alphabeta:depth=2"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        tiers_pos *p = tu_pos(v, quiet, NULL);
        tiers_agent *a = agent(specs[i]);
        uint64_t rng = 99;
        tiers_move m;
        assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
        char text[64];
        assert_true(tiers_move_format(p, &m, NULL, text, sizeof text) >= 0);
        if (strcmp(text, "a1-c1"))
            fail_msg("%s chose %s, not a1-c1", specs[i], text);
        tiers_agent_free(a);
        tiers_pos_free(p);
    }
    /* the same position in duel, without the hook: every move scores 0,
       so greedy does not always find a1-c1 (seeds 1..20) */
    tiers_variant *plain = tu_variant("duel");
    int found = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        tiers_pos *p = tu_pos(plain, quiet, NULL);
        tiers_agent *a = agent("greedy:mate=no");
        tiers_move m;
        char text[64];
        assert_true(tiers_agent_choose(a, p, &seed, &m) > 0);
        assert_true(tiers_move_format(p, &m, NULL, text, sizeof text) >= 0);
        found += !strcmp(text, "a1-c1");
        tiers_agent_free(a);
        tiers_pos_free(p);
    }
    assert_true(found < 20);
    tiers_variant_free(plain);
    /* a wrong answer: the choice fails and names the hook */
    tiers_pos *p = tu_pos(v, "k4/5/5/5/R3K - w - 0 1 vars=1", NULL);
    tiers_agent *a = agent("alphabeta:depth=2");
    uint64_t rng = 1;
    tiers_move m;
    assert_int_equal(tiers_agent_choose(a, p, &rng, &m), TIERS_ESCRIPT);
    const char *msg = tiers_variant_script_error(v);
    if (!strstr(msg, "must return a finite number, not string") ||
        !strstr(msg, "(in hook evaluate of effect centre-rook)"))
        fail_msg("message: %s", msg);
    assert_string_equal(tu_fen(p, NULL), "k4/5/5/5/R3K - w - 0 1 vars=1");
    tiers_agent_free(a);
    tiers_pos_free(p);
    /* a huge score stays below a won game: the win in one is still taken */
    char text[128];
    snprintf(text, sizeof text, "%s vars=2", win_in_1[0]);
    p = tu_pos(v, text, NULL);
    a = agent("alphabeta:depth=2");
    assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
    assert_int_equal(tiers_make(p, &m), 0);
    assert_true(side_wins(p, 0));
    tiers_agent_free(a);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

static void test_win_in_2(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("duel");
    for (size_t i = 0; i < sizeof win_in_2 / sizeof win_in_2[0]; i++) {
        tiers_pos *p = tu_pos(v, win_in_2[i], NULL);
        assert_false(forced_win(p, 1, 0));
        assert_true(forced_win(p, 2, 0));
        int me = tiers_pos_side_to_move(p);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            tiers_agent *a = agent("alphabeta:depth=3,nodes=0");
            uint64_t rng = seed;
            tiers_move m;
            assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
            assert_int_equal(tiers_make(p, &m), 0);
            /* every reply leaves a win in one */
            if (!all_replies_lose_within(p, me, 2, 0))
                fail_msg("alphabeta's move from %s does not force a win", win_in_2[i]);
            tiers_unmake(p);
            tiers_agent_free(a);
        }
        tiers_pos_free(p);
    }
    tiers_variant_free(v);
}

/* ---------------------------------------- known best moves, several variants */

/* A win in three (five plies) in duel, found by random play and checked
 * by forced_win: no win in one or two, a win in three. */
static const char *const win_in_3 = "1r3/2pk1/1p1P1/4p/p1K2 Pr b - 0 19";

static void test_win_in_3(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("duel");
    tiers_pos *p = tu_pos(v, win_in_3, NULL);
    assert_false(forced_win(p, 2, 0));
    assert_true(forced_win(p, 3, 0));
    int me = tiers_pos_side_to_move(p);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        tiers_agent *a = agent("alphabeta:depth=5,nodes=400000");
        uint64_t rng = seed;
        tiers_move m;
        assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
        assert_true(tiers_agent_work(a) > 0 && tiers_agent_work(a) <= 400000);
        assert_int_equal(tiers_make(p, &m), 0);
        if (!all_replies_lose_within(p, me, 3, 0))
            fail_msg("alphabeta's move from %s does not keep a win in three", win_in_3);
        tiers_unmake(p);
        tiers_agent_free(a);
    }
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Positions with one best move by hand, in several variants. */
static const struct known {
    const char *variant, *position, *best, *why;
} known_best[] = {
    /* White Ra1, Ke1; Black Ra2, Ke5.  Rook takes rook (tier 1, range 2):
       +5, and no black piece can reach a2 (the king is three files
       away); any other move leaves the white rook to be taken by a2xa1. */
    {"duel", "4k/5/5/r4/R3K - w - 0 1", "a1xa2", "wins the undefended rook"},
    /* The same with the colours swapped and Black to move. */
    {"duel", "4K/5/5/R4/r3k - b - 0 1", "a1xa2", "wins the undefended rook"},
    /* official, advanced mode, pseudo-legal check rule with royal capture:
       the black marshal stands on g3 (rank 3 from the bottom) under the
       white archer on g5, whose line g4-g3 is open; taking the marshal
       ends the game, the only move that does (checked below). */
    {"official",
     "3T1[J:R:F]1[J:R]1/5M1F1/3W5/3D5/6A2/4r3d/6m2/fk1c3[r:n]1/a3i1s1d - w - 0 115 "
     "mode=advanced",
     "g5xg3", "takes the marshal"},
    /* gounki: the black stack on b3 (square, round, square) moves off
       the far edge through b2 and b1: reaching past White's home rank
       wins, the only such move (checked below). */
    {"gounki",
     "5s2/3s1[r:r]2/1s1ssr[R:R]1/r4S2/8/R[s:r:s]5R/S1[S:R]4S/3S2SR - b - 2 53", "b3*b2,b1,out",
     "leaves the board: a win"},
};

static void test_known_best(void **state)
{
    (void)state;
    static const char *const specs[] = {"alphabeta:depth=1,nodes=5000",
                                        "alphabeta:depth=3,nodes=50000", "greedy"};
    for (size_t i = 0; i < sizeof known_best / sizeof known_best[0]; i++) {
        const struct known *k = &known_best[i];
        tiers_variant *v = tu_variant(k->variant);
        tiers_pos *p = tu_pos(v, k->position, NULL);
        assert_true(tu_has_move(p, k->best, NULL));
        for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
            tiers_agent *a = agent(specs[s]);
            uint64_t rng = 42;
            tiers_move m;
            char text[64];
            assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
            assert_true(tiers_move_format(p, &m, NULL, text, sizeof text) >= 0);
            if (strcmp(text, k->best))
                fail_msg("%s in %s at %s chose %s, not %s (%s)", specs[s], k->variant,
                         k->position, text, k->best, k->why);
            tiers_agent_free(a);
        }
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
}

/* Positions worked out by hand from the rules (/work/shared/rules/):
 * `wins` lists every move that ends the game in the mover's favour (the
 * engine's count must agree, so a derivation that missed one fails), or,
 * with wins = 0, `best` is the one move that gains the most material. */
static const struct by_hand {
    const char *variant, *position, *best;
    int wins;
} by_hand[] = {
    /* gungi-io: Black Marshal a9 alone; White General a7 (tier 1 steps:
       the three forward squares, sideways, back), Fortress b7 (all 8),
       Marshal e1.  Mates: G a7-a8 (checks a9; a8 guarded by F, b8 by G
       and F, b9 by G), G a7-b8 (checks a9 by the forward diagonal; b8
       guarded by F, a8 by G and F, b9 by G), F b7-a8 (guarded by G; b8
       by G and F, b9 by F), F b7-b8 (guarded by G; a8 by G and F, b9 by
       F).  The Marshal may stack on the checker only to stand on the same
       guarded square.  F b7-c8 stalemates instead: a draw here. */
    {"gungi-io", "m8/9/GF7/9/9/9/9/9/4M4 - w - 0 100", "a7-a8 a7-b8 b7-a8 b7-b8", 1},
    /* blog: White Commander a9 alone; Black Samurai a7 (tier 1: forward,
       forward diagonals, sideways), Pistol b7 (tier 1: the diagonals),
       Commander i1.  S a7-a8 mates (a8 guarded by the Pistol, b8 and b9
       by the Samurai; stacking on a8 leaves the Samurai below it, which
       checks).  I b7-a8 and I b7-c8 leave White no legal move and no
       check: a stalemate, which loses in blog by default. */
    {"blog", "k8/9/SI7/9/9/9/9/9/8K - b - 0 100", "a7-a8 b7-a8 b7-c8", 1},
    /* gungi-io: White General e4, Black Lt General e5 (worth 4; its
       tier-1 steps attack d4, e4, f4); only e4xe5 wins material, and
       every move but e4xe5 and the stack e4^e5 loses the General. */
    {"gungi-io", "m8/9/9/9/4i4/4G4/9/9/8M - w - 0 100", "e4xe5", 0},
    /* blog: Black Samurai e4, White Captain e5 (worth 4, attacking d4,
       e4, f4); e4xe5 takes it (+4, and +3 more as the Pistol it becomes
       in Black's hand), the only capture. */
    {"blog", "k8/9/9/9/4a4/4S4/9/9/8K - b - 0 100", "e4xe5", 0},
};

/* Whether `text` is one of the space-separated moves of `list`. */
static int in_list(const char *list, const char *text)
{
    size_t n = strlen(text);
    for (const char *s = list; (s = strstr(s, text)); s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
            return 1;
    return 0;
}

static void test_known_best_by_hand(void **state)
{
    (void)state;
    static const char *const specs[] = {"alphabeta:depth=1,nodes=5000",
                                        "alphabeta:depth=3,nodes=50000", "greedy",
                                        "mcts:1000"};
    tiers_move *moves = malloc(TIERS_MAX_MOVES * sizeof *moves);
    for (size_t i = 0; i < sizeof by_hand / sizeof by_hand[0]; i++) {
        const struct by_hand *k = &by_hand[i];
        tiers_variant *v = tu_variant(k->variant);
        tiers_pos *p = tu_pos(v, k->position, NULL);
        int me = tiers_pos_side_to_move(p);
        int n = tiers_legal_moves(p, moves, TIERS_MAX_MOVES), wins = 0, listed = 0;
        for (int j = 0; j < n; j++) {
            char text[64];
            assert_true(tiers_move_format(p, &moves[j], NULL, text, sizeof text) >= 0);
            assert_int_equal(tiers_make(p, &moves[j]), 0);
            int won = side_wins(p, me);
            tiers_unmake(p);
            wins += won;
            listed += in_list(k->best, text);
            if (k->wins && won != in_list(k->best, text))
                fail_msg("%s at %s: %s %s the game, the derivation says otherwise",
                         k->variant, k->position, text, won ? "wins" : "does not win");
        }
        /* every listed move is legal; with wins, they are all the wins */
        assert_int_equal(listed, k->wins ? wins : 1);
        assert_true(n > listed);
        for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
            if (!k->wins && !strncmp(specs[s], "mcts", 4))
                continue; /* a material gain is not what MCTS reliably sees */
            for (uint64_t seed = 1; seed <= 3; seed++) {
                tiers_agent *a = agent(specs[s]);
                uint64_t rng = seed;
                tiers_move m;
                char text[64];
                assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
                assert_true(tiers_move_format(p, &m, NULL, text, sizeof text) >= 0);
                if (!in_list(k->best, text))
                    fail_msg("%s in %s at %s chose %s, not one of %s", specs[s], k->variant,
                             k->position, text, k->best);
                tiers_agent_free(a);
            }
        }
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
    free(moves);
}

/* Wins in one and two (found by random play) that forced_win confirms. */
static const struct known_win {
    const char *variant, *position;
    int moves;
} known_wins[] = {
    {"official",
     "3T1[J:R:F]1[J:R]1/5M1F1/3W5/3D5/6A2/4r3d/6m2/fk1c3[r:n]1/a3i1s1d - w - 0 115 "
     "mode=advanced", 1},
    {"gounki", "4Rs2/3s1R2/8/rs2sS1R/1R1s1r2/1S6/S5SS/4S3 - w - 3 78", 1},
    {"gounki",
     "r2s1s2/1[r:s:r]s1r3/2s1R1r1/3Rsrr[R:S:S]/4r1s1/1[S:R]4S1/2[R:R:R]1S2S/S1S4R - w - 13 34",
     2},
    {"gounki", "r2s1s2/2s1r3/r1s1R1r1/SrsRsrr[R:S:S]/R3r1s1/6S1/2[R:R:R]1S2S/S1S4R - w - 15 36",
     2},
};

static void test_known_wins(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof known_wins / sizeof known_wins[0]; i++) {
        const struct known_win *k = &known_wins[i];
        tiers_variant *v = tu_variant(k->variant);
        tiers_pos *p = tu_pos(v, k->position, NULL);
        if (k->moves > 1)
            assert_false(forced_win(p, k->moves - 1, 0));
        assert_true(forced_win(p, k->moves, 0));
        int me = tiers_pos_side_to_move(p);
        tiers_agent *a = agent("alphabeta:depth=4,nodes=300000");
        uint64_t rng = 7;
        tiers_move m;
        assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
        assert_int_equal(tiers_make(p, &m), 0);
        if (!all_replies_lose_within(p, me, k->moves, 0))
            fail_msg("%s: alphabeta's move from %s does not keep a win in %d", k->variant,
                     k->position, k->moves);
        tiers_agent_free(a);
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
}

/* Forced defences: the opponent threatens a win in one, most moves allow
 * it (counted below, so the test can fail), and the search must find a
 * move that does not.  Found by random play; forced_win decides. */
static const struct known_defence {
    const char *variant, *position;
} known_defences[] = {
    {"duel", "2k2/1R1p1/2P2/1R3/2K2 P2p2 b - 0 19"},
    {"duel", "2PR1/2kP1/2rpp/5/3K1 Pp w - 0 46"},
    {"duel", "1r3/2pk1/1p3/4p/p1K2 P2r w - 0 18"},
    {"gounki",
     "4r3/1[r:r:r]1[r:s]srr[r:s]/s[R:R:S]s5/7s/3S2Rs/1[S:R]3S1R/4R1S1/2SRS1SR - b - 6 25"},
    {"gounki", "5s2/3s1[r:r]2/2sssr[R:R]1/r4S2/8/R[s:r:s]5R/S1[S:R]4S/3S2SR - w - 3 54"},
    {"official",
     "I4[J:R:F]1[J:R]1/3T1M1F1/3W3A1/3D5/N8/d3m3d/3S1nA2/d[k:f]1c3r1/a3[i:r]1[s:n:s]1d - b - "
     "0 92 mode=advanced"},
};

static void test_forced_defence(void **state)
{
    (void)state;
    tiers_move *moves = malloc(TIERS_MAX_MOVES * sizeof *moves);
    for (size_t i = 0; i < sizeof known_defences / sizeof known_defences[0]; i++) {
        const struct known_defence *k = &known_defences[i];
        tiers_variant *v = tu_variant(k->variant);
        tiers_pos *p = tu_pos(v, k->position, NULL);
        int n = tiers_legal_moves(p, moves, TIERS_MAX_MOVES), losing = 0;
        for (int j = 0; j < n; j++) {
            assert_int_equal(tiers_make(p, &moves[j]), 0);
            losing += !tiers_pos_status(p).game_over && forced_win(p, 1, 0);
            tiers_unmake(p);
        }
        assert_false(forced_win(p, 1, 0));
        assert_true(losing * 2 > n); /* most moves lose at once */
        static const char *const specs[] = {"alphabeta:depth=2,nodes=100000",
                                            "alphabeta:depth=3,nodes=100000"};
        for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                tiers_agent *a = agent(specs[s]);
                uint64_t rng = seed;
                tiers_move m;
                assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
                assert_int_equal(tiers_make(p, &m), 0);
                if (!tiers_pos_status(p).game_over && forced_win(p, 1, 0))
                    fail_msg("%s in %s at %s lets the opponent win at once", specs[s],
                             k->variant, k->position);
                tiers_unmake(p);
                tiers_agent_free(a);
            }
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
    free(moves);
}

/* --------------------------------- mates and defences derived by hand */

/* Mates in two and three worked out by hand from the rules
 * (/work/shared/rules/), not from the search: `key` is a first move of
 * the derivation, `replies` every legal answer to it (sorted), and the
 * brute-force solver above confirms that no shorter mate exists and that
 * the key forces the mate.  The shallow agent, which cannot see that far,
 * must miss the mate for some seed: so the test fails if the depth were
 * not what finds it.
 *
 * gungi-io, mate in two: Black Marshal a9 alone; White Cannon on tier 3
 * of the tower h8 (slides orthogonally: all of rank 8 from g8 to a8, and
 * the h-file), General c6 (tier 1: the three forward squares, sideways,
 * straight back), Marshal e1.  The black Marshal's squares a8 and b8 are
 * on the Cannon's line, so it has only b9.  No mate in one: the General
 * needs two moves to reach a square next to rank 9, and a Cannon that
 * leaves its tower lands on tier 1 (one orthogonal step), never checking
 * a9 while a8 or b8 stays free.  1. c6-c7 (covers b8 too) leaves a9-b9 the
 * only reply; 2. c7-b8 checks b9 (straight ahead) and covers a9, c9
 * (forward diagonals), a8, c8 (sideways); the Marshal cannot take b8 nor
 * stack on it, the Cannon guarding it along rank 8: mate.
 *
 * gungi-io, mate in three: the same with the General on c5.  1. c5-c6
 * a9-b9 (forced as above); 2. c6-c7, and the Marshal on b9 goes to a9 or
 * c9 (rank 8 is the Cannon's); 3. c7-b8 mates on a9 (as in the mate in
 * two), c7-c8 mates on c9 (c8 checks c9 and covers b9, d9, b8, d8; the
 * Cannon guards c8).  No mate in two: the General needs three moves.
 *
 * blog, the same pattern with Black (uppercase) mating: White Commander
 * a9 alone, Black Hidden Dragon h8 (tier 1: slides orthogonally, so it
 * cuts rank 8), Gold c6 (every tier: the three forward squares,
 * sideways, back), Commander i1, hands empty (no drop can block).  The
 * Gold moves as gungi-io's tier-1 General, so the lines are the same: 1.
 * c6-c7 a9-b9 2. c7-b8 mate (the Commander may not stack on b8: the Gold
 * beneath would check it), and with the Gold on c5 a mate in three. */
static const struct hand_mate {
    const char *variant, *position, *key, *replies;
    int moves;
    const char *deep, *shallow;
} hand_mates[] = {
    {"gungi-io", "m8/7[D:D:C]1/9/2G6/9/9/9/9/4M4 - w - 0 100", "c6-c7", "a9-b9", 2,
     "alphabeta:depth=3,nodes=0", "alphabeta:depth=2,nodes=0"},
    {"gungi-io", "m8/7[D:D:C]1/9/9/2G6/9/9/9/4M4 - w - 0 100", "c5-c6", "a9-b9", 3,
     "alphabeta:depth=5,nodes=0", "alphabeta:depth=3,nodes=0"},
    {"blog", "k8/7H1/9/2G6/9/9/9/9/8K - b - 0 100", "c6-c7", "a9-b9", 2,
     "alphabeta:depth=3,nodes=0", "alphabeta:depth=2,nodes=0"},
    {"blog", "k8/7H1/9/9/2G6/9/9/9/8K - b - 0 100", "c5-c6", "a9-b9", 3,
     "alphabeta:depth=5,nodes=0", "alphabeta:depth=3,nodes=0"},
};

/* Whether `spec` (seed `seed`) plays a move from p that keeps a forced
 * win within `moves` of the mover's moves. */
static int agent_keeps_mate(tiers_pos *p, const char *spec, uint64_t seed, int moves)
{
    int me = tiers_pos_side_to_move(p);
    tiers_agent *a = agent(spec);
    uint64_t rng = seed;
    tiers_move m;
    assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
    tiers_agent_free(a);
    assert_int_equal(tiers_make(p, &m), 0);
    int ok = all_replies_lose_within(p, me, moves, 0);
    tiers_unmake(p);
    return ok;
}

static void test_mates_by_hand(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof hand_mates / sizeof hand_mates[0]; i++) {
        const struct hand_mate *k = &hand_mates[i];
        tiers_variant *v = tu_variant(k->variant);
        tiers_pos *p = tu_pos(v, k->position, NULL);
        int me = tiers_pos_side_to_move(p);
        /* the derivation: no shorter mate, the key forces it, and the
           replies to the key are the ones listed */
        assert_false(forced_win(p, k->moves - 1, 0));
        assert_true(forced_win(p, k->moves, 0));
        tu_play(p, k->key, NULL);
        char *replies = tu_moves(p, NULL);
        assert_string_equal(replies, k->replies);
        free(replies);
        assert_true(all_replies_lose_within(p, me, k->moves, 0));
        tiers_unmake(p);
        /* the search finds a mate as short, whatever the seed */
        for (uint64_t seed = 1; seed <= 3; seed++)
            if (!agent_keeps_mate(p, k->deep, seed, k->moves))
                fail_msg("%s in %s at %s misses the mate in %d", k->deep, k->variant,
                         k->position, k->moves);
        /* one iteration less does not see it: some seed misses it */
        int kept = 0;
        for (uint64_t seed = 1; seed <= 10; seed++)
            kept += agent_keeps_mate(p, k->shallow, seed, k->moves);
        if (kept == 10)
            fail_msg("%s in %s at %s always finds the mate in %d: the test does not tell "
                     "depths apart", k->shallow, k->variant, k->position, k->moves);
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
}

/* Forced defences worked out by hand: the opponent threatens a mate in
 * one, `saves` lists every move that stops it, and every other legal move
 * loses at once (the solver checks each move, so a derivation that missed
 * a defence or a loss fails).
 *
 * gungi-io, Black to move: Black Marshal a9, Pawn h9; White Samurai b9
 * (tier 1: the four diagonal steps, so not a9), General c7, Spy on tier 3
 * of h8 (slides in all 8 directions: rank 8 to a8), Marshal e1.  White
 * threatens c7-b8 mate.  Black's moves: a9xb9 (takes the Samurai, worth
 * 5), a9^b9 (stacks on it), h9xh8 (the Pawn, forward being down, takes
 * the Spy, worth 4).  After either Marshal move, c7-b8 checks b9 and
 * covers a9, c9, a8, c8, and the Spy guards b8 along rank 8: mate.  After
 * h9xh8 nothing guards b8: c7-b8+ is answered by a9xb8, and no other
 * White move checks.  So h9xh8 is the only defence; greedy, which counts
 * material one move ahead, takes the Samurai (5 > 4) and is mated.
 *
 * blog, White to move: White Commander a9, Pawn h9 (a Bronze tile);
 * Black Hidden Dragon h8, Gold c7, Commander i1.  Black threatens c7-b8
 * mate.  White's moves: a9-b9 (a8 and b8 are the Dragon's), after which
 * c7-b8 mates; h9xh8 (takes the Dragon) and h9^h8 (stacks on it, burying
 * it): either way nothing guards b8, so c7-b8+ is answered by b9xb8 or
 * a9xb8, and no other Black move checks. */
static const struct hand_defence {
    const char *variant, *position, *saves;
    int greedy_fails;
} hand_defences[] = {
    {"gungi-io", "mW5d1/7[D:D:S]1/2G6/9/9/9/9/9/4M4 - b - 0 100", "h9xh8", 1},
    {"blog", "k6p~B1/7H1/2G6/9/9/9/9/9/8K - w - 0 100", "h9xh8 h9^h8", 0},
};

static void test_defences_by_hand(void **state)
{
    (void)state;
    tiers_move *moves = malloc(TIERS_MAX_MOVES * sizeof *moves);
    for (size_t i = 0; i < sizeof hand_defences / sizeof hand_defences[0]; i++) {
        const struct hand_defence *k = &hand_defences[i];
        tiers_variant *v = tu_variant(k->variant);
        tiers_pos *p = tu_pos(v, k->position, NULL);
        int n = tiers_legal_moves(p, moves, TIERS_MAX_MOVES), saves = 0;
        for (int j = 0; j < n; j++) {
            char text[64];
            assert_true(tiers_move_format(p, &moves[j], NULL, text, sizeof text) >= 0);
            assert_int_equal(tiers_make(p, &moves[j]), 0);
            int lost = !tiers_pos_status(p).game_over && forced_win(p, 1, 0);
            tiers_unmake(p);
            if (lost == in_list(k->saves, text))
                fail_msg("%s at %s: %s %s, the derivation says otherwise", k->variant,
                         k->position, text, lost ? "loses at once" : "holds");
            saves += !lost;
        }
        assert_true(saves >= 1 && saves < n);
        static const char *const specs[] = {"alphabeta:depth=2,nodes=0",
                                            "alphabeta:depth=3,nodes=100000", "mcts:1000"};
        for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                tiers_agent *a = agent(specs[s]);
                uint64_t rng = seed;
                tiers_move m;
                char text[64];
                assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
                assert_true(tiers_move_format(p, &m, NULL, text, sizeof text) >= 0);
                if (!in_list(k->saves, text))
                    fail_msg("%s in %s at %s plays %s, which loses (defences: %s)", specs[s],
                             k->variant, k->position, text, k->saves);
                tiers_agent_free(a);
            }
        if (k->greedy_fails)
            for (uint64_t seed = 1; seed <= 5; seed++) {
                tiers_agent *a = agent("greedy");
                uint64_t rng = seed;
                tiers_move m;
                char text[64];
                assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
                assert_true(tiers_move_format(p, &m, NULL, text, sizeof text) >= 0);
                if (in_list(k->saves, text))
                    fail_msg("greedy found %s in %s: the bait is not what the derivation "
                             "says", text, k->variant);
                tiers_agent_free(a);
            }
        tiers_pos_free(p);
        tiers_variant_free(v);
    }
    free(moves);
}

/* ------------------------------------------------------------ variety */

/* FNV-1a over the moves of one game of `spec` against itself from the
 * start, seed `seed`, at most max_plies. */
static uint64_t game_key(tiers_pos *p, tiers_agent *a, uint64_t seed, int max_plies)
{
    uint64_t h = 0xcbf29ce484222325ull, rng = seed;
    assert_int_equal(tiers_pos_reset(p), 0);
    for (int ply = 0; ply < max_plies; ply++) {
        tiers_move m;
        int n = tiers_agent_choose(a, p, &rng, &m);
        assert_true(n >= 0);
        if (n == 0)
            break;
        const unsigned char *b = (const unsigned char *)&m;
        for (size_t i = 0; i < sizeof m; i++)
            h = (h ^ b[i]) * 0x100000001b3ull;
        assert_int_equal(tiers_make(p, &m), 0);
    }
    return h;
}

/* 100 games of alphabeta against itself on gounki, seeds 1..100: 100
 * different games (the random order and the draw among equal moves),
 * and a seed played again gives its game again. */
static void test_variety(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("gounki");
    tiers_pos *p = tu_pos(v, NULL, NULL);
    tiers_agent *a = agent("alphabeta:depth=2,nodes=300");
    enum { GAMES = 100 };
    uint64_t keys[GAMES];
    for (int g = 0; g < GAMES; g++) {
        keys[g] = game_key(p, a, (uint64_t)g + 1, 400);
        for (int k = 0; k < g; k++)
            if (keys[k] == keys[g])
                fail_msg("gounki games of seeds %d and %d are the same", k + 1, g + 1);
    }
    assert_true(game_key(p, a, 17, 400) == keys[16]);
    tiers_agent_free(a);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* A side ahead does not return to a position: White, a rook up, never
 * repeats one over 40 plies of alphabeta against itself (the search
 * before repetitions counted as draws repeated at ply 28 here). */
static void test_no_repeat_when_ahead(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("duel");
    tiers_pos *p = tu_pos(v, "k4/5/5/5/R3K - w - 0 1", NULL);
    tiers_agent *a = agent("alphabeta:depth=2,nodes=20000");
    uint64_t seen[48], rng = 3;
    int n = 0;
    seen[n++] = tiers_pos_hash(p);
    for (int ply = 0; ply < 40; ply++) {
        tiers_move m;
        if (tiers_agent_choose(a, p, &rng, &m) <= 0)
            break;
        assert_int_equal(tiers_make(p, &m), 0);
        uint64_t h = tiers_pos_hash(p);
        if (tiers_pos_side_to_move(p) == 0)
            for (int k = 0; k < n; k++)
                if (seen[k] == h)
                    fail_msg("white, a rook up, repeated a position at ply %d: %s", ply + 1,
                             tu_fen(p, NULL));
        seen[n++] = h;
        if (tiers_pos_status(p).game_over)
            break;
    }
    tiers_agent_free(a);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* From `start` (duel), after e1-d1 a5-b5 d1-e1, how many of seeds 1..n
 * make the agent `spec` play b5-a5, back to the start position. */
static int count_returns(const tiers_variant *v, const char *start, const char *spec, int n)
{
    int returns = 0;
    for (uint64_t seed = 1; seed <= (uint64_t)n; seed++) {
        tiers_pos *p = tu_pos(v, start, NULL);
        tu_play(p, "e1-d1", NULL);
        tu_play(p, "a5-b5", NULL);
        tu_play(p, "d1-e1", NULL);
        tiers_agent *a = agent(spec);
        uint64_t rng = seed;
        tiers_move m;
        char text[64];
        assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
        assert_true(tiers_move_format(p, &m, NULL, text, sizeof text) >= 0);
        returns += !strcmp(text, "b5-a5");
        tiers_agent_free(a);
        tiers_pos_free(p);
    }
    return returns;
}

/* Greedy and repetitions (duel, kings worth 0, rook 5).  From each start
 * White plays e1-d1, Black a5-b5, White d1-e1; Black's b5-a5 then returns
 * to the start position, and no Black move changes the material, so the
 * tie-break alone decides.  A side ahead, or level while the game still
 * moves, never returns; a side with nothing but its king (it cannot win),
 * or level after AGENT_STALE_PLIES (30) quiet plies, always does: a draw
 * it can reach instead of wandering until the cut (seed-25's lone
 * Marshals, docs/metrics.md). */
static void test_greedy_repetition(void **state)
{
    (void)state;
    static const struct {
        const char *start;
        int returns; /* of 20 seeds */
    } cases[] = {
        {"k4/5/5/5/4K - w - 0 1", 20},         /* lone kings: seeks the draw */
        {"k4/5/r4/5/4K - w - 0 1", 0},         /* Black a rook up: avoids it */
        {"k4/5/r3R/5/4K - w - 0 1", 0},        /* level, 3 quiet plies: avoids */
        {"k4/5/r3R/5/4K - w - 40 1", 20},      /* level, 43 quiet plies: seeks */
        {"k4/5/r4/5/4K - w - 40 1", 0},        /* a rook up, 43 plies: not sought */
    };
    tiers_variant *v = tu_variant("duel");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int returns = count_returns(v, cases[i].start, "greedy", 20);
        if (returns != cases[i].returns)
            fail_msg("greedy at %s returned to it %d times of 20, not %d", cases[i].start,
                     returns, cases[i].returns);
    }
    tiers_variant_free(v);
}

/* Alpha-beta and repetitions, the same starts as test_greedy_repetition
 * (duel): Black's b5-a5 returns to the start position, which the search
 * scores as a draw.  No other Black move wins or loses material within
 * the search's reach (the kings are far apart, the rooks four files
 * apart with a range of two), so the draw's score alone decides: a side
 * behind (a pawn against a rook) prefers the draw to its loss; a side
 * ahead never takes it; a level side avoids it while the game moves
 * (contempt) and seeks it once AGENT_STALE_PLIES (30) quiet plies have
 * passed, or with nothing but its king (two level searches otherwise trade
 * on until the cut: gungi-io, docs/metrics.md). */
static void test_alphabeta_repetition(void **state)
{
    (void)state;
    static const struct {
        const char *start;
        int returns; /* of 8 seeds */
    } cases[] = {
        {"k3p/5/5/5/R3K - w - 0 1", 8},        /* Black behind: seeks the draw */
        {"k4/5/5/5/4K - w - 0 1", 8},          /* lone kings: seeks the draw */
        {"k4/5/r4/5/4K - w - 0 1", 0},         /* Black a rook up: avoids it */
        {"k4/5/r3R/5/4K - w - 0 1", 0},        /* level, 3 quiet plies: avoids */
        {"k4/5/r3R/5/4K - w - 40 1", 8},       /* level, 43 quiet plies: seeks */
        {"k4/5/r4/5/4K - w - 40 1", 0},        /* a rook up, 43 plies: avoids */
    };
    tiers_variant *v = tu_variant("duel");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int returns = count_returns(v, cases[i].start, "alphabeta:depth=3,nodes=20000", 8);
        if (returns != cases[i].returns)
            fail_msg("alphabeta at %s returned to it %d times of 8, not %d", cases[i].start,
                     returns, cases[i].returns);
    }
    tiers_variant_free(v);
}

/* ------------------------------------------------------ mcts vs random */

/* Plays one game; returns the winner (0, 1), or -1 for a draw. */
static int play(tiers_pos *p, tiers_agent *a0, tiers_agent *a1, uint64_t seed, int max_plies)
{
    tiers_agent *side[2] = {a0, a1};
    uint64_t rng = seed;
    assert_int_equal(tiers_pos_reset(p), 0);
    for (int ply = 0; ply < max_plies; ply++) {
        tiers_move m;
        int n = tiers_agent_choose(side[tiers_pos_side_to_move(p)], p, &rng, &m);
        assert_true(n >= 0);
        if (n == 0)
            break;
        assert_int_equal(tiers_make(p, &m), 0);
    }
    tiers_status st = tiers_pos_status(p);
    return st.result == TIERS_WIN_0 ? 0 : st.result == TIERS_WIN_1 ? 1 : -1;
}

static void test_mcts_beats_random(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("duel");
    tiers_pos *p = tu_pos(v, NULL, NULL);
    tiers_agent *mcts = agent("mcts:iterations=100,plies=8");
    tiers_agent *rnd = agent("random");
    int wins = 0;
    for (int g = 0; g < 50; g++) {
        int mcts_side = g & 1;
        int w = mcts_side == 0 ? play(p, mcts, rnd, 1000 + (uint64_t)g, 400)
                               : play(p, rnd, mcts, 1000 + (uint64_t)g, 400);
        wins += w == mcts_side;
    }
    printf("mcts:iterations=100,plies=8 beat random in %d of 50 duel games\n", wins);
    assert_true(wins >= 45);
    tiers_agent_free(mcts);
    tiers_agent_free(rnd);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* -------------------------------------------------------- legal moves */

/* Plays games where each agent's every choice must be in the legal list
 * and leave the position (text, hash, ply) unchanged. */
static void check_legal_only(const char *variant, const char *spec, int games, int max_plies)
{
    tiers_variant *v = tu_variant(variant);
    tiers_pos *p = tu_pos(v, NULL, NULL);
    tiers_agent *a = agent(spec);
    tiers_move *legal = malloc(TIERS_MAX_MOVES * sizeof *legal);
    char before[2048], after[2048];
    uint64_t rng = 99;
    int setup_moves = 0;
    for (int g = 0; g < games; g++) {
        assert_int_equal(tiers_pos_reset(p), 0);
        for (int ply = 0; ply < max_plies; ply++) {
            int n = tiers_legal_moves(p, legal, TIERS_MAX_MOVES);
            assert_true(n >= 0);
            tiers_pos_format(p, NULL, before, sizeof before);
            uint64_t hash = tiers_pos_hash(p);
            int plies = tiers_pos_ply(p);
            tiers_move m;
            int got = tiers_agent_choose(a, p, &rng, &m);
            assert_int_equal(got, n);
            tiers_pos_format(p, NULL, after, sizeof after);
            assert_string_equal(before, after);
            assert_true(hash == tiers_pos_hash(p));
            assert_int_equal(plies, tiers_pos_ply(p));
            if (n == 0)
                break;
            int found = 0;
            for (int i = 0; i < n && !found; i++)
                found = memcmp(&legal[i], &m, sizeof m) == 0;
            if (!found)
                fail_msg("%s in %s played a move not in the legal list at %s", spec, variant,
                         before);
            setup_moves += tiers_pos_in_setup(p);
            assert_int_equal(tiers_make(p, &m), 0);
        }
    }
    if (!strcmp(variant, "duel-setup"))
        assert_true(setup_moves > 0);
    free(legal);
    tiers_agent_free(a);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

static void test_legal_only(void **state)
{
    (void)state;
    /* TIERS_QUICK (the sanitizer build of scripts/test): one game each */
    int quick = getenv("TIERS_QUICK") != NULL;
    static const char *const specs[] = {
        "random", "greedy", "greedy:mate=no,setup=search",
        "alphabeta:depth=2,nodes=2000", "alphabeta:depth=2,nodes=500,setup=search",
        "mcts:iterations=40,plies=6", "mcts:iterations=30,rollout=greedy,plies=4,setup=search",
        "mcts:iterations=40,rollout=capture,plies=6",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        check_legal_only("duel", specs[i], quick ? 1 : 3, 150);
        check_legal_only("duel-setup", specs[i], quick ? 1 : 2, 150);
        check_legal_only("duel-promote", specs[i], 1, 60);
        check_legal_only("gounki", specs[i], 1, 60);
    }
    check_legal_only("gungi-io", "random", quick ? 1 : 2, 200);
    check_legal_only("gungi-io", "greedy", 1, 80);
    check_legal_only("gungi-io", "alphabeta:depth=2,nodes=300", 1, 60);
    check_legal_only("gungi-io", "mcts:iterations=20,plies=4", 1, 60);
}

/* A choice is a function of the position and the random state only. */
static void test_reproducible(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("duel");
    tiers_pos *p = tu_pos(v, NULL, NULL);
    static const char *const specs[] = {"random", "greedy", "alphabeta:depth=3,nodes=3000",
                                        "mcts:iterations=100,plies=10"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        tiers_agent *a = agent(specs[i]), *b = agent(specs[i]);
        char first[4096] = "", second[4096] = "";
        for (int round = 0; round < 2; round++) {
            tiers_agent *x = round ? b : a;
            char *out = round ? second : first;
            uint64_t rng = 777;
            assert_int_equal(tiers_pos_reset(p), 0);
            /* a warm-up choice elsewhere must not change later ones */
            if (round) {
                tiers_move m;
                uint64_t other = 5;
                tiers_agent_choose(x, p, &other, &m);
            }
            for (int ply = 0; ply < 24; ply++) {
                tiers_move m;
                if (tiers_agent_choose(x, p, &rng, &m) <= 0)
                    break;
                char t[64];
                tiers_move_format(p, &m, NULL, t, sizeof t);
                strcat(out, t);
                strcat(out, " ");
                assert_int_equal(tiers_make(p, &m), 0);
            }
        }
        assert_string_equal(first, second);
        tiers_agent_free(a);
        tiers_agent_free(b);
    }
    tiers_pos_free(p);
    tiers_variant_free(v);
}

static void test_material(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("duel");
    /* rook 5 + 3 pawns = 8 each; then white has three pawns (one tower
       of two) and black a gold (the back of a pawn tile, 3) and a pawn
       (1) in hand besides its rook and pawn */
    tiers_pos *p = tu_pos(v, NULL, NULL);
    assert_int_equal(tiers_pos_material(p, 0), 8);
    assert_int_equal(tiers_pos_material(p, 1), 8);
    assert_int_equal(tiers_pos_material(p, 2), 0);
    tiers_pos_free(p);
    p = tu_pos(v, "1rk2/1p3/5/1P[P:P]2/2K2 gp w - 0 10", NULL);
    assert_int_equal(tiers_pos_material(p, 0), 3);
    assert_int_equal(tiers_pos_material(p, 1), 5 + 1 + 3 + 1);
    assert_int_equal(tiers_pos_side_to_move(p), 0);
    assert_false(tiers_pos_in_setup(p));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Per-tier values (duel-tiers: a pawn is worth 1 on tier 1, 6 on tier 2;
 * in hand, tier 1's value). */
static const char *const tier_gain = "k4/5/5/1P3/1P2K - w - 0 1";
static const char *const tier_capture = "4k/5/p4/5/R1[p:p]1K - w - 0 1";

/* How many of seeds 1..20 make `spec` choose `want` at `position`. */
static int chosen(tiers_variant *v, const char *position, const char *spec, const char *want)
{
    int found = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        tiers_pos *p = tu_pos(v, position, NULL);
        tiers_agent *a = agent(spec);
        uint64_t rng = seed;
        tiers_move m;
        char text[64];
        assert_true(tiers_agent_choose(a, p, &rng, &m) > 0);
        assert_true(tiers_move_format(p, &m, NULL, text, sizeof text) >= 0);
        found += !strcmp(text, want);
        tiers_agent_free(a);
        tiers_pos_free(p);
    }
    return found;
}

static void test_tier_values(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("duel-tiers"), *plain = tu_variant("duel");
    /* white: pawns b2 (tier 1), d2 tier 1 and 2 = 1 + 1 + 6; black: rook 5,
       pawn 1, gold 3 and pawn 1 in hand (tier 1 values) */
    tiers_pos *p = tu_pos(v, "1rk2/1p3/5/1P[P:P]2/2K2 gp w - 0 10", NULL);
    assert_int_equal(tiers_pos_material(p, 0), 8);
    assert_int_equal(tiers_pos_material(p, 1), 10);
    tiers_pos_free(p);
    /* a black pawn on a white one: 6 for black, 1 for white */
    p = tu_pos(v, "2k2/5/5/2[P:p]2/2K2 - w - 0 10", NULL);
    assert_int_equal(tiers_pos_material(p, 0), 1);
    assert_int_equal(tiers_pos_material(p, 1), 6);
    tiers_pos_free(p);
    /* the only gain is a pawn stacked on a pawn (b1^b2: +5), seen by
       greedy and by alphabeta at depth 1 and 2 (at depth 3 a king move
       first then the stack is as good); in duel every move is level, and
       the same agents do not always stack */
    static const char *const specs[] = {"greedy:mate=no", "greedy", "alphabeta:depth=1",
                                        "alphabeta:depth=2"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        if (chosen(v, tier_gain, specs[i], "b1^b2") != 20)
            fail_msg("%s does not always stack b1^b2 in duel-tiers", specs[i]);
        if (chosen(plain, tier_gain, specs[i], "b1^b2") == 20)
            fail_msg("%s always stacks b1^b2 in duel too: the tier's value is not what "
                     "decides", specs[i]);
    }
    /* two captures of a pawn: a3 (tier 1) or the top of c1 (tier 2);
       either pawn goes to white's hand at 1, so a1xc1 gains 7 and a1xa3
       2 in duel-tiers, 2 and 2 in duel */
    static const char *const capture_specs[] = {"greedy:mate=no", "alphabeta:depth=1",
                                                "alphabeta:depth=3,nodes=20000"};
    for (size_t i = 0; i < sizeof capture_specs / sizeof capture_specs[0]; i++) {
        if (chosen(v, tier_capture, capture_specs[i], "a1xc1") != 20)
            fail_msg("%s does not always take the tier-2 pawn", capture_specs[i]);
        if (chosen(plain, tier_capture, capture_specs[i], "a1xc1") == 20)
            fail_msg("%s always takes c1 in duel too", capture_specs[i]);
    }
    tiers_variant_free(plain);
    tiers_variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_tier_values),
        cmocka_unit_test(test_win_in_1),
        cmocka_unit_test(test_win_in_2),
        cmocka_unit_test(test_win_in_3),
        cmocka_unit_test(test_known_best),
        cmocka_unit_test(test_known_best_by_hand),
        cmocka_unit_test(test_known_wins),
        cmocka_unit_test(test_forced_defence),
        cmocka_unit_test(test_mates_by_hand),
        cmocka_unit_test(test_defences_by_hand),
        cmocka_unit_test(test_variety),
        cmocka_unit_test(test_no_repeat_when_ahead),
        cmocka_unit_test(test_greedy_repetition),
        cmocka_unit_test(test_alphabeta_repetition),
        cmocka_unit_test(test_evaluate_hook),
        cmocka_unit_test(test_mcts_beats_random),
        cmocka_unit_test(test_legal_only),
        cmocka_unit_test(test_reproducible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
