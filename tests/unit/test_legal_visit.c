/* test_legal_visit.c - movegen_legal_visit (engine/src/movegen.c), which
 * shows the solver the position of each legal move while the legality
 * filter has the move made, instead of the solver making it again.
 *
 * At every position of random games it must give movegen_legal's list,
 * visit each of its moves exactly once, in list order, with the index of
 * the move in the list and the very position make_move gives (its full
 * text, keys included), and leave the position as it was; a visit that
 * fails ends the generation with its error.  The variants cover each path
 * of the filter: vetoes and check hooks (gufuu, with its options), the
 * royal watch without scripts (features-royal, official with legal
 * checks), pseudo legality with its escape test (official,
 * features-pseudo, duel-effects and its veto), setup phases, and no filter at all (gounki,
 * features). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Engine internals, named by path: this program is not one of the
 * white-box tests of tests/CMakeLists.txt. */
#include "make.h"
#include "movegen.h"
#include "rng.h"
#include "status.h"

enum { GAMES = 6, PLIES = 80, TEXT_MAX = 1024 };

/* What a visit saw. */
typedef struct sight {
    int index;
    tiers_move m;
    uint64_t hash;
    char text[TEXT_MAX];
} sight;

typedef struct watcher {
    sight *s;
    int n;
    int fail_at; /* the visit that returns an error (-1: none) */
} watcher;

enum { VISIT_ERROR = TIERS_EINPUT };

static int watch(tiers_pos *p, const tiers_move *m, int index, void *ctx)
{
    watcher *w = ctx;
    if (w->n == w->fail_at)
        return VISIT_ERROR;
    if (w->n >= TIERS_MAX_MOVES)
        fail_msg("more visits than moves");
    sight *s = &w->s[w->n++];
    s->index = index;
    s->m = *m;
    s->hash = tiers_pos_hash(p);
    if (tiers_pos_format(p, NULL, s->text, sizeof s->text) < 0)
        fail_msg("formatting a visited position");
    return 0;
}

static void text_of(const tiers_pos *p, char *buf)
{
    if (tiers_pos_format(p, NULL, buf, TEXT_MAX) < 0)
        fail_msg("formatting a position");
}

/* The position after each move of list, by make_move, against what the
 * visits saw. */
static void check_sights(tiers_pos *p, const tiers_move *list, int n, const watcher *w)
{
    char after[TEXT_MAX];
    assert_int_equal(w->n, n);
    for (int k = 0; k < n; k++) {
        assert_int_equal(w->s[k].index, k);
        assert_memory_equal(&w->s[k].m, &list[k], sizeof list[k]);
        assert_int_equal(make_move(p, &list[k]), 0);
        text_of(p, after);
        assert_string_equal(w->s[k].text, after);
        assert_true(w->s[k].hash == tiers_pos_hash(p));
        unmake_move(p);
    }
}

/* Both generations at p, and a visit that fails part way. */
static void check_position(tiers_pos *p, tiers_move *plain, tiers_move *seen, watcher *w,
                           uint64_t *rng)
{
    char before[TEXT_MAX], now[TEXT_MAX];
    text_of(p, before);
    uint64_t hash = tiers_pos_hash(p);
    int n = movegen_legal(p, plain, TIERS_MAX_MOVES);
    w->n = 0;
    w->fail_at = -1;
    int nv = movegen_legal_visit(p, seen, TIERS_MAX_MOVES, watch, w);
    assert_int_equal(nv, n);
    text_of(p, now);
    assert_string_equal(now, before);
    assert_true(tiers_pos_hash(p) == hash);
    if (n < 0)
        return;
    assert_memory_equal(plain, seen, (size_t)n * sizeof *plain);
    check_sights(p, seen, n, w);
    if (!n)
        return;
    w->n = 0;
    w->fail_at = (int)(rng_next(rng) % (uint64_t)n);
    assert_int_equal(movegen_legal_visit(p, seen, TIERS_MAX_MOVES, watch, w), VISIT_ERROR);
    assert_int_equal(w->n, w->fail_at);
    text_of(p, now);
    assert_string_equal(now, before);
}

/* Random games of the variant (with up to two rules), every position
 * checked. */
static void check_variant(const char *name, const char *rule1, const char *rule2)
{
    const char *rules[3] = {rule1, rule2, NULL};
    tiers_error err;
    char msg[1024];
    tiers_variant *v = tiers_variant_load(name, TIERS_TEST_DIR "/data/variants",
                                          rule1 ? rules : NULL, &err);
    if (!v)
        fail_msg("loading %s: %s", name, tiers_error_text(&err, msg, sizeof msg));
    tiers_move *plain = malloc(TIERS_MAX_MOVES * sizeof *plain);
    tiers_move *seen = malloc(TIERS_MAX_MOVES * sizeof *seen);
    watcher w = {.s = malloc(TIERS_MAX_MOVES * sizeof *w.s)};
    assert_true(plain && seen && w.s);
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int positions = 0;
    for (int g = 0; g < GAMES; g++) {
        tiers_pos *p = tiers_pos_new(v, PLIES + 8, &err);
        assert_non_null(p);
        for (int ply = 0; ply < PLIES; ply++, positions++) {
            check_position(p, plain, seen, &w, &rng);
            if (status_terminal(p, NULL, NULL))
                break;
            int n = movegen_legal(p, plain, TIERS_MAX_MOVES);
            if (n <= 0)
                break;
            assert_int_equal(make_move(p, &plain[rng_next(&rng) % (uint64_t)n]), 0);
        }
        tiers_pos_free(p);
    }
    assert_true(positions > GAMES);
    free(plain);
    free(seen);
    free(w.s);
    tiers_variant_free(v);
}

static void gufuu(void **state)
{
    (void)state;
    check_variant("gufuu", NULL, NULL);
}

static void gufuu_options(void **state)
{
    (void)state;
    check_variant("gufuu", "face_to_face=line", NULL);
    check_variant("gufuu", "discovered_check=forbid", "own_shared_capture=forbid");
}

static void official_pseudo(void **state)
{
    (void)state;
    check_variant("official", NULL, NULL);
    check_variant("features-pseudo", NULL, NULL);
    /* with a veto: the list is filtered, then the escape is tested */
    check_variant("duel-effects", "legality=pseudo", NULL);
}

/* Checkmates of duel-effects with pseudo legality (found in random
 * games): there are moves, its veto (no drop on a corner) passes them,
 * but none escapes the check, so the list is empty and none may be
 * visited, though the filter made them all. */
static void pseudo_mates(void **state)
{
    (void)state;
    const char *rules[] = {"legality=pseudo", NULL};
    const char *mates[] = {"1GR[p:k]1/5/1[P:p]G1R/g4/3K1 - b - 2 47 move=23",
                           "2kP1/2G2/rP3/1pK1p/4R G b - 2 27 move=13"};
    tiers_error err;
    tiers_variant *v = tiers_variant_load("duel-effects", TIERS_TEST_DIR "/data/variants",
                                          rules, &err);
    assert_non_null(v);
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    watcher w = {.s = malloc(TIERS_MAX_MOVES * sizeof *w.s), .fail_at = -1};
    for (size_t i = 0; i < sizeof mates / sizeof mates[0]; i++) {
        tiers_pos *p = tu_pos(v, mates[i], NULL);
        int pseudo = movegen_pseudo(p, buf, TIERS_MAX_MOVES), kept = 0;
        for (int k = 0; k < pseudo; k++)
            if (movegen_make_checked(p, &buf[k]) == 0) {
                kept++;
                unmake_move(p);
            }
        assert_true(kept > 0);
        assert_true(movegen_in_check(p, tiers_pos_side_to_move(p)));
        w.n = 0;
        assert_int_equal(movegen_legal_visit(p, buf, TIERS_MAX_MOVES, watch, &w), 0);
        assert_int_equal(w.n, 0);
        tiers_pos_free(p);
    }
    free(buf);
    free(w.s);
    tiers_variant_free(v);
}

static void royal_watch(void **state)
{
    (void)state;
    check_variant("official", "check_rule=legal", NULL);
    check_variant("features-royal", NULL, NULL);
    check_variant("features-check", NULL, NULL);
}

static void other_variants(void **state)
{
    (void)state;
    const char *names[] = {"blog", "gungi-io", "gounki", "features", "features-script",
                           "features-setup", "features-marker", "duel-effects"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        check_variant(names[i], NULL, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gufuu),
        cmocka_unit_test(gufuu_options),
        cmocka_unit_test(official_pseudo),
        cmocka_unit_test(pseudo_mates),
        cmocka_unit_test(royal_watch),
        cmocka_unit_test(other_variants),
    };
    return tu_run_tests(tests, NULL, NULL);
}
