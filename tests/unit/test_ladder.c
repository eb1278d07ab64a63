/* test_ladder.c - Bradley-Terry ratings (engine/lab/ladder.c) against
 * values worked out by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ladder.h"
#include "testutil.h"

/* Two players, B scoring 75 of 100: r_B = 400 log10(75/25) = 190.85 Elo;
 * the information is n p (1 - p) = 18.75 per unit of log-strength, so
 * sd = (400 / ln 10) / sqrt(18.75) = 40.12 Elo. */
static void test_two_players(void **state)
{
    (void)state;
    double score[4] = {0, 25, 75, 0}, games[4] = {0, 100, 100, 0};
    struct ladder_table t = {score, games, 2};
    struct ladder_fit f;
    char err[200];
    assert_int_equal(ladder_fit(&t, &f, err, sizeof err), 0);
    assert_true(f.elo[0] == 0 && f.sd[0] == 0);
    assert_true(fabs(f.elo[1] - 190.85) < 0.01);
    assert_true(fabs(f.sd[1] - 40.12) < 0.01);
}

/* Strengths 1, 1.5 and 2.25: B beats A 3/5 of the time, C beats B 3/5
 * and C beats A 9/13.  With those exact scores (60 of 100, 60 of 100, 900
 * of 1300) the maximum-likelihood fit is the truth: r_B = 400 log10 1.5 =
 * 70.44, r_C = 400 log10 2.25 = 140.87. */
static void test_three_players_exact(void **state)
{
    (void)state;
    double score[9] = {0, 40, 400, 60, 0, 40, 900, 60, 0};
    double games[9] = {0, 100, 1300, 100, 0, 100, 1300, 100, 0};
    struct ladder_table t = {score, games, 3};
    struct ladder_fit f;
    char err[200];
    assert_int_equal(ladder_fit(&t, &f, err, sizeof err), 0);
    assert_true(fabs(f.elo[1] - 70.44) < 0.01);
    assert_true(fabs(f.elo[2] - 140.87) < 0.01);
    /* C met A in 13 times the games: its rating is the surer */
    assert_true(f.sd[2] < f.sd[1]);
}

/* Draws count half: 50 wins and 50 draws of 100 is a score of 75. */
static void test_draws_half(void **state)
{
    (void)state;
    double score[4] = {0, 25, 50 + 0.5 * 50, 0}, games[4] = {0, 100, 100, 0};
    struct ladder_table t = {score, games, 2};
    struct ladder_fit f;
    char err[200];
    assert_int_equal(ladder_fit(&t, &f, err, sizeof err), 0);
    assert_true(fabs(f.elo[1] - 190.85) < 0.01);
}

/* A player linked to nobody, or one that won everything, has no finite
 * rating: refused with a reason. */
static void test_refusals(void **state)
{
    (void)state;
    double score[9] = {0, 40, 0, 60, 0, 0, 0, 0, 0};
    double games[9] = {0, 100, 0, 100, 0, 0, 0, 0, 0};
    struct ladder_table t = {score, games, 3};
    struct ladder_fit f;
    char err[200];
    assert_int_equal(ladder_fit(&t, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "not linked"));
    double s2[4] = {0, 0, 100, 0}, g2[4] = {0, 100, 100, 0};
    struct ladder_table t2 = {s2, g2, 2};
    assert_int_equal(ladder_fit(&t2, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "every game"));
}

/* The report of the two-player table above: both ratings with their
 * intervals (400 log10 3 = 190.848, +- 1.96 * 40.118 = [112.2, 269.5]), the pair's score
 * 25.0% with its Wilson interval, one point per player and per pair, and
 * names written as text, not markup. */
static void test_report(void **state)
{
    (void)state;
    double score[4] = {0, 25, 75, 0}, games[4] = {0, 100, 100, 0};
    struct ladder_table t = {score, games, 2};
    struct ladder_fit fit;
    char err[200];
    assert_int_equal(ladder_fit(&t, &fit, err, sizeof err), 0);
    const char *names[] = {"random", "x<y&z"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(ladder_report(f, "duel", names, &t, &fit, 100), 0);
    fclose(f);
    assert_non_null(strstr(buf, "<title>190.8 [112.2, 269.5]</title>"));
    assert_non_null(strstr(buf, "<td>100</td><td>25.0%</td>"));
    double lo, hi;
    ladder_wilson(25, 100, &lo, &hi);
    char want[64];
    snprintf(want, sizeof want, "[%.1f%%, %.1f%%]", 100 * lo, 100 * hi);
    assert_non_null(strstr(buf, want));
    assert_non_null(strstr(buf, "x&lt;y&amp;z"));
    assert_null(strstr(buf, "x<y"));
    int circles = 0;
    for (const char *p = buf; (p = strstr(p, "<circle")); p++)
        circles++;
    assert_int_equal(circles, 3);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_players),
        cmocka_unit_test(test_three_players_exact),
        cmocka_unit_test(test_draws_half),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_report),
    };
    return tu_run_tests(tests, NULL, NULL);
}
