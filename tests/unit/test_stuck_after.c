/* test_stuck_after.c - movegen_stuck_after (engine/src/movegen.c), which
 * lets an expand hook with expand_reach (blog's Forced Recovery) skip
 * making a move: it tells before the move whether its piece will reach no
 * square after it.
 *
 * At every position of random games, for every plain move, stack and
 * capture: when it answers 1 the piece must reach no square once the move
 * is made (movegen_reach, the test the make would have run), when it
 * answers 0 some square.  blog has what can make the answer wrong: regions
 * that raise a tier (projected by pieces that move), the Gold rule's
 * over-enemy face, captures; gufuu turns a moved piece, features-facing
 * has facings, gounki moves stacks.  Both answers must come often enough
 * in blog for the test to mean something. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Engine internals, named by path (TIERS_WHITEBOX_TESTS). */
#include "filter.h"
#include "make.h"
#include "variant.h"
#include "movegen.h"
#include "rng.h"
#include "status.h"

enum { GAMES = 12, PLIES = 160 };

#define LAMP TIERS_TEST_DIR "/data/stuck-lamp.yaml"
#define STACK TIERS_TEST_DIR "/data/stuck-stack.yaml"
#define MANY TIERS_TEST_DIR "/data/stuck-many.yaml"

typedef struct tally {
    int stuck, free, checked, near;
} tally;

static int has_square(const uint64_t *set, int sq)
{
    return set[sq >> 6] >> (sq & 63) & 1;
}

/* A move whose piece may be stuck where it lands (filter_stuck_landing,
 * the test the expand pre-pass makes) must land on a square of its
 * stuck_any table and, where the top piece moves by its own tables (not a
 * stack, not a shared piece), start from one of its stuck_near table: the
 * generator notes only such moves for the pre-pass (EXPAND_STUCK). */
static void check_tables(const tiers_pos *p, const tiers_move *m, piece_t a, tally *t)
{
    if (!filter_stuck_landing(p, m, a, p->board[m->to].h))
        return;
    int face = p->v->face_of[a], facing = pc_facing(a);
    t->near++;
    int own_tables = p->v->unit == UNIT_TOP && pc_owner(a) != OWNER_SHARED;
    if (!has_square(p->v->stuck_any[face][facing], m->to) ||
        (own_tables && !has_square(p->v->stuck_near[face][facing], m->from)))
        fail_msg("a %s may be stuck after %d-%d, not in the tables", p->v->faces[face].name,
                 m->from, m->to);
}

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
        check_tables(p, m, from->p[from->h - 1], t);
        int known = movegen_stuck_after(p, m, from->p[from->h - 1], p->board[m->to].h);
        if (known < 0)
            continue;
        *(known ? &t->stuck : &t->free) += 1;
        assert_int_equal(make_move(p, m), 0);
        int reach = movegen_reach(p, m->to, mark);
        if ((reach == 0) != known) {
            char text[1024];
            unmake_move(p);
            tiers_pos_format(p, NULL, text, sizeof text);
            fail_msg("told %s, but it reaches %d squares after move %d at %s",
                     known ? "stuck" : "not stuck", reach, k, text);
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
    variant_stuck_tables(v); /* as a reach test asks for them */
    tiers_move *list = malloc(TIERS_MAX_MOVES * sizeof *list);
    assert_non_null(list);
    uint64_t rng = 0x2545f4914f6cdd1dull;
    tally t = {0, 0, 0, 0};
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
    assert_true(t.stuck > 100); /* pieces that end on the far ranks */
    assert_true(t.free > 1000);
    assert_true(t.near > 100);
}

/* blog's tables for a Pawn and a Spy facing north (Black's), by hand: a
 * Pawn steps forward at tier 1 and also leaps two files aside at tier 2,
 * a Spy jumps two ranks forward at tier 1 and also steps diagonally
 * forward at tier 2, and on an enemy both move as the Gold, which is
 * never stuck.  So the Pawn may be stuck on rank 9 only, reached from
 * ranks 8 and 9; the Spy on ranks 8 and 9, reached from ranks 6 to 9 (the
 * Gold steps one square). */
static void blog_tables(void **state)
{
    (void)state;
    tiers_error err;
    tiers_variant *v = tiers_variant_load("blog", TIERS_TEST_DIR "/data/variants", NULL, &err);
    assert_non_null(v);
    variant_stuck_tables(v);
    int north = v->forward[0], pawn = -1, spy = -1;
    for (int f = 0; f < v->nfaces; f++) {
        pawn = strcmp(v->faces[f].name, "pawn") ? pawn : f;
        spy = strcmp(v->faces[f].name, "spy") ? spy : f;
    }
    for (int r = 0; r < 9; r++)
        for (int x = 0; x < 9; x++) {
            int sq = sq_make(x, r);
            assert_int_equal(has_square(v->stuck_any[pawn][north], sq), r == 8);
            assert_int_equal(has_square(v->stuck_near[pawn][north], sq), r >= 7);
            assert_int_equal(has_square(v->stuck_any[spy][north], sq), r >= 7);
            assert_int_equal(has_square(v->stuck_near[spy][north], sq), r >= 5);
        }
    tiers_variant_free(v);
}

/* Turned, facing or moving stacks: never answered wrongly (gufuu and
 * gounki are never answered: the turn or the stack changes the table). */
static void others(void **state)
{
    (void)state;
    tally t = check_variant("gufuu");
    assert_int_equal(t.stuck + t.free, 0);
    t = check_variant("gounki");
    assert_int_equal(t.stuck + t.free, 0);
    check_variant("features-facing");
    check_variant("official");
}

/* A piece that projects its own region: where it lands is in no region
 * before it moves, in one after (tests/data/stuck-lamp.yaml says why).  The answer
 * must not come from the regions before the move. */
static void moving_region(void **state)
{
    (void)state;
    tiers_error err;
    tiers_variant *v = tiers_variant_load(LAMP, NULL, NULL, &err);
    assert_non_null(v);
    variant_stuck_tables(v);
    tiers_pos *p = tu_pos(v, "2k2/L4/5/4l/2K2 - w - 0 1", NULL);
    tiers_move m;
    assert_int_equal(tiers_move_parse(p, "a4-a5", NULL, &m, NULL), 0);
    assert_int_equal(movegen_stuck_after(p, &m, p->board[m.from].p[0], 0), -1);
    uint8_t mark[TIERS_MAX_SQUARES];
    assert_int_equal(make_move(p, &m), 0);
    assert_int_equal(movegen_reach(p, m.to, mark), 1); /* back to a4, at tier 2 */
    tiers_pos_free(p);
    check_variant(LAMP); /* and in random games */
    tiers_variant_free(v);
}

/* The generator's noting for the expand pre-pass (EXPAND_STUCK: only the
 * moves that may end stuck) against the pre-pass looking at every move of
 * those faces (their role made EXPAND_ACTOR): the same move lists, in the
 * same order, at every position of random games. */
static void same_lists(const char *name, int games, int plies)
{
    tiers_error err;
    char msg[1024];
    tiers_variant *v = tiers_variant_load(name, TIERS_TEST_DIR "/data/variants", NULL, &err);
    if (!v)
        fail_msg("loading %s: %s", name, tiers_error_text(&err, msg, sizeof msg));
    uint8_t roles[MAX_FACES], all[MAX_FACES];
    int stuck_faces = 0;
    memcpy(roles, v->expand_role, sizeof roles);
    for (int f = 0; f < MAX_FACES; f++) {
        stuck_faces += (roles[f] & EXPAND_STUCK) != 0;
        all[f] = roles[f] & EXPAND_STUCK ? (roles[f] & ~EXPAND_STUCK) | EXPAND_ACTOR : roles[f];
    }
    tiers_move *a = malloc(2 * TIERS_MAX_MOVES * sizeof *a), *b = a + TIERS_MAX_MOVES;
    assert_non_null(a);
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (int g = 0; g < games; g++) {
        tiers_pos *p = tiers_pos_new(v, plies + 8, &err);
        assert_non_null(p);
        for (int ply = 0; ply < plies && !status_terminal(p, NULL, NULL); ply++) {
            int na = movegen_pseudo(p, a, TIERS_MAX_MOVES);
            memcpy(v->expand_role, all, sizeof all);
            int nb = movegen_pseudo(p, b, TIERS_MAX_MOVES);
            memcpy(v->expand_role, roles, sizeof roles);
            if (na != nb || (na > 0 && memcmp(a, b, (size_t)na * sizeof *a))) {
                tiers_pos_format(p, NULL, msg, sizeof msg);
                fail_msg("%s: %d moves noted by stuck landings, %d looking at all, at %s", name,
                         na, nb, msg);
            }
            int n = movegen_legal(p, a, TIERS_MAX_MOVES);
            if (n <= 0)
                break;
            assert_int_equal(make_move(p, &a[rng_next(&rng) % (uint64_t)n]), 0);
        }
        tiers_pos_free(p);
    }
    free(a);
    tiers_variant_free(v);
    if (!strcmp(name, STACK))
        assert_int_equal(stuck_faces, 0); /* a stack moves by all its lines */
    else
        assert_true(stuck_faces > 0);
}

static void noting(void **state)
{
    (void)state;
    same_lists("blog", 8, 200);
    same_lists(STACK, 8, 120);
    same_lists(MANY, 2, 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blog),
        cmocka_unit_test(blog_tables),
        cmocka_unit_test(others),
        cmocka_unit_test(moving_region),
        cmocka_unit_test(noting),
    };
    return tu_run_tests(tests, NULL, NULL);
}
