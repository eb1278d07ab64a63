/* test_surely_stuck.c - filter_surely_stuck (engine/src/filter.c), which
 * lets an expand hook with expand_reach {0, ...} (blog's Forced Recovery)
 * skip making a move whose piece is sure to reach no square after it.
 *
 * At every position of random games, for every plain move, stack and
 * capture: when it answers "surely stuck", the piece must reach no square
 * once the move is made (movegen_reach, the test the make would have run).
 * blog has what can make the answer wrong: regions that raise a tier, the
 * Gold rule's over-enemy face, captures; gufuu turns a moved piece,
 * features-facing has facings, gounki moves stacks.  The answer must also
 * be "yes" often enough in blog for the test to mean something. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Engine internals, named by path (TIERS_WHITEBOX_TESTS). */
#include "filter.h"
#include "make.h"
#include "movegen.h"
#include "rng.h"
#include "status.h"

enum { GAMES = 12, PLIES = 160 };

typedef struct tally {
    int surely, checked;
} tally;

static int plain_board_move(const tiers_move *m)
{
    return (m->kind == TIERS_MV_MOVE || m->kind == TIERS_MV_STACK ||
            m->kind == TIERS_MV_CAPTURE) &&
           m->from != TIERS_NO_SQUARE && m->to != TIERS_NO_SQUARE && m->from != m->to;
}

static void check_moves(tiers_pos *p, const tiers_move *list, int n, tally *t)
{
    uint8_t mark[TIERS_MAX_SQUARES];
    for (int k = 0; k < n; k++) {
        const tiers_move *m = &list[k];
        if (!plain_board_move(m))
            continue;
        const tower *from = &p->board[m->from];
        assert_true(from->h > 0);
        t->checked++;
        if (!filter_surely_stuck(p, m, from->p[from->h - 1], p->board[m->to].h))
            continue;
        t->surely++;
        assert_int_equal(make_move(p, m), 0);
        if (movegen_reach(p, m->to, mark) != 0) {
            char text[1024];
            unmake_move(p);
            tiers_pos_format(p, NULL, text, sizeof text);
            fail_msg("surely stuck, but it reaches squares after move %d at %s", k, text);
        }
        unmake_move(p);
    }
}

static tally check_variant(const char *name)
{
    tiers_error err;
    char msg[1024];
    tiers_variant *v = tiers_variant_load(name, TIERS_TEST_DIR "/data/variants", NULL, &err);
    if (!v)
        fail_msg("loading %s: %s", name, tiers_error_text(&err, msg, sizeof msg));
    tiers_move *list = malloc(TIERS_MAX_MOVES * sizeof *list);
    assert_non_null(list);
    uint64_t rng = 0x2545f4914f6cdd1dull;
    tally t = {0, 0};
    for (int g = 0; g < GAMES; g++) {
        tiers_pos *p = tiers_pos_new(v, PLIES + 8, &err);
        assert_non_null(p);
        for (int ply = 0; ply < PLIES && !status_terminal(p, NULL, NULL); ply++) {
            int n = movegen_pseudo(p, list, TIERS_MAX_MOVES);
            assert_true(n >= 0);
            check_moves(p, list, n, &t);
            n = movegen_legal(p, list, TIERS_MAX_MOVES);
            if (n <= 0)
                break;
            assert_int_equal(make_move(p, &list[rng_next(&rng) % (uint64_t)n]), 0);
        }
        tiers_pos_free(p);
    }
    free(list);
    tiers_variant_free(v);
    return t;
}

static void blog(void **state)
{
    (void)state;
    tally t = check_variant("blog");
    assert_true(t.checked > 10000);
    assert_true(t.surely > 100); /* pieces that end on the far ranks */
}

/* Turned, facing or moving stacks: never answered wrongly (gufuu and
 * gounki are never "surely stuck": the turn or the stack changes the
 * table). */
static void others(void **state)
{
    (void)state;
    assert_int_equal(check_variant("gufuu").surely, 0);
    assert_int_equal(check_variant("gounki").surely, 0);
    check_variant("features-facing");
    check_variant("official");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blog),
        cmocka_unit_test(others),
    };
    return tu_run_tests(tests, NULL, NULL);
}
