/* test_values.c - the logistic regression behind `tiers values`
 * (engine/lab/values.c) on data drawn from a model whose coefficients are
 * known by construction, and on data it must refuse. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "values.h"

/* splitmix64, for draws that do not depend on the C library */
static double unit_draw(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* n samples of k columns, each x in -2..2, y drawn from the logistic
 * model with coefficients truth[0..k] (truth[0] the intercept); games of
 * `per_game` consecutive samples. */
static void draw_data(int n, int k, const double *truth, int per_game, double *x, double *y,
                      long *group, uint64_t seed)
{
    for (int i = 0; i < n; i++) {
        double eta = truth[0];
        for (int j = 0; j < k; j++) {
            x[i * k + j] = (double)((int)(unit_draw(&seed) * 5) - 2);
            eta += truth[j + 1] * x[i * k + j];
        }
        y[i] = unit_draw(&seed) < 1 / (1 + exp(-eta));
        group[i] = i / per_game;
    }
}

/* A model with values 1 and 3 and a first-move edge of 0.2: the fit finds
 * each coefficient within 3 standard errors and 0.1, and the ratio 3. */
static void test_recovers_known_values(void **state)
{
    (void)state;
    enum { N = 20000, K = 2 };
    static double x[N * K], y[N];
    static long group[N];
    const double truth[K + 1] = {0.2, 0.5, 1.5};
    draw_data(N, K, truth, 1, x, y, group, 7);
    struct values_data d = {x, y, group, N, K};
    struct values_fit f;
    char err[200];
    assert_int_equal(values_fit(&d, &f, err, sizeof err), 0);
    for (int j = 0; j <= K; j++) {
        assert_true(f.se[j] > 0 && f.se[j] < 0.1);
        assert_true(fabs(f.coef[j] - truth[j]) < 3 * f.se[j]);
    }
    assert_true(fabs(f.coef[2] / f.coef[1] - 3.0) < 0.3);
    assert_true(f.used[0] && f.used[1]);
}

/* Draws as y = 0.5 pull toward even: a data set of only draws at any
 * material fits coefficients near 0. */
static void test_draws_are_even(void **state)
{
    (void)state;
    enum { N = 400, K = 1 };
    double x[N * K], y[N];
    long group[N];
    for (int i = 0; i < N; i++) {
        x[i] = (i % 5) - 2;
        y[i] = 0.5;
        group[i] = i;
    }
    struct values_data d = {x, y, group, N, K};
    struct values_fit f;
    char err[200];
    assert_int_equal(values_fit(&d, &f, err, sizeof err), 0);
    assert_true(fabs(f.coef[0]) < 1e-6 && fabs(f.coef[1]) < 1e-6);
}

/* Samples of one game are one cluster: each row repeated 10 times within
 * its game adds no information, so the fit gives the same estimate and
 * the same standard error as the rows taken once (an error that took the
 * samples as independent would shrink by sqrt(10)). */
static void test_clustered_errors(void **state)
{
    (void)state;
    enum { G = 2000, R = 10, K = 1 };
    static double x1[G], y1[G], xr[G * R], yr[G * R];
    static long g1[G], gr[G * R];
    const double truth[2] = {0, 1};
    draw_data(G, K, truth, 1, x1, y1, g1, 11);
    for (int i = 0; i < G * R; i++) {
        xr[i] = x1[i / R];
        yr[i] = y1[i / R];
        gr[i] = i / R;
    }
    struct values_data once = {x1, y1, g1, G, K}, rep = {xr, yr, gr, G * R, K};
    struct values_fit a, b;
    char err[200];
    assert_int_equal(values_fit(&once, &a, err, sizeof err), 0);
    assert_int_equal(values_fit(&rep, &b, err, sizeof err), 0);
    assert_true(fabs(a.coef[1] - b.coef[1]) < 1e-3);
    double ratio = b.se[1] / a.se[1];
    assert_true(ratio > 0.95 && ratio < 1.05);
}

/* A column that never differs is not estimated; two identical columns
 * cannot be told apart (the ridge keeps them finite, and equal); too few
 * samples are refused. */
static void test_unusable_data(void **state)
{
    (void)state;
    enum { N = 300, K = 3 };
    double x[N * K], y[N];
    long group[N];
    const double truth[2] = {0, 1};
    double x1[N];
    draw_data(N, 1, truth, 1, x1, y, group, 3);
    for (int i = 0; i < N; i++) {
        x[i * K] = x1[i];
        x[i * K + 1] = 0;
        x[i * K + 2] = x1[i];
    }
    struct values_data d = {x, y, group, N, K};
    struct values_fit f;
    char err[200];
    assert_int_equal(values_fit(&d, &f, err, sizeof err), 0);
    assert_false(f.used[1]);
    assert_true(f.coef[2] == 0 && f.se[2] == 0);
    assert_true(fabs(f.coef[1] - f.coef[3]) < 1e-6);
    struct values_data few = {x, y, group, 3, K};
    assert_int_equal(values_fit(&few, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "too few"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovers_known_values),
        cmocka_unit_test(test_draws_are_even),
        cmocka_unit_test(test_clustered_errors),
        cmocka_unit_test(test_unusable_data),
    };
    return tu_run_tests(tests, NULL, NULL);
}
