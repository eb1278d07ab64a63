/* test_htest.c - the hypothesis tests of `tiers compare`
 * (engine/lab/htest.c) against values worked out by hand from the
 * textbook formulas: each expected value's derivation is in the comment
 * above it.  Exact p-values are ratios of binomial coefficients, summed
 * over the tables at most as likely as the observed one. */
#include <math.h>

#include "testutil.h"

#include "htest.h"

/* Fisher's exact test, two-sided by minimum likelihood. */
static void test_fisher_small(void **state)
{
    (void)state;
    /* 3/4 against 1/4: margins 4, 4, 4 successes of 8; P(x successes in
       group 1) = C(4,x) C(4,4-x) / C(8,4) = 1, 16, 36, 16, 1 over 70.
       Observed x = 3 (16/70): 1 + 16 + 16 + 1 = 34 -> 34/70. */
    assert_float_equal(htest_fisher(3, 4, 1, 4), 34.0 / 70.0, 1e-12);
    /* the same table seen from the other group */
    assert_float_equal(htest_fisher(1, 4, 3, 4), 34.0 / 70.0, 1e-12);
    /* 0/5 against 5/10: 5 successes of 15; P(x) = C(5,x) C(10,5-x) /
       C(15,5) = 252, 1050, 1200, 450, 50, 1 over 3003.  Observed x = 0
       (252): 252 + 50 + 1 = 303 -> 303/3003.  (Doubling the lower tail
       would give 504/3003: this case fails if the two-sided rule is
       wrong.) */
    assert_float_equal(htest_fisher(0, 5, 5, 10), 303.0 / 3003.0, 1e-12);
    /* 2/3 against 0/6: 2 successes of 9; P(x) = C(3,x) C(6,2-x) / C(9,2)
       = 15, 18, 3 over 36; observed x = 2 -> 3/36. */
    assert_float_equal(htest_fisher(2, 3, 0, 6), 3.0 / 36.0, 1e-12);
    /* 1/10 against 11/14: 12 successes of 24; P(x) = C(10,x) C(14,12-x)
       / C(24,12), x = 0..10, C(24,12) = 2704156.  The terms: x = 0: 1 *
       91 = 91, 1: 10 * 364 = 3640, 2: 45 * 1001 = 45045, ... and by the
       symmetry of these margins x = 9: 3640, x = 10: 91.  At most as
       likely as x = 1: 91 + 3640 + 3640 + 91 = 7462 -> 7462 / 2704156 =
       0.0027595 (the classic textbook example's 0.00276). */
    assert_float_equal(htest_fisher(1, 10, 11, 14), 7462.0 / 2704156.0, 1e-12);
    /* equal proportions: every table counts, p = 1 */
    assert_float_equal(htest_fisher(5, 10, 5, 10), 1.0, 1e-12);
    /* an empty group: no test */
    assert_float_equal(htest_fisher(0, 0, 5, 10), 1.0, 0);
}

/* Large samples: the walk from the mode must reach the tails. */
static void test_fisher_large(void **state)
{
    (void)state;
    /* 5200/10000 against 5000/10000.  Large-sample check: pooled p =
       0.51, se = sqrt(0.51 * 0.49 * 2 / 10000) = 0.0070697, z = 0.02 /
       0.0070697 = 2.8290, two-sided normal p = 0.00467; the exact test is
       a little above (0.0048788 summing the hypergeometric terms exactly
       with big integers).  Required to 1e-6 absolute. */
    double p = htest_fisher(5200, 10000, 5000, 10000);
    assert_true(fabs(p - 0.0048788) < 1e-6);
    /* 30/100 against 45/100: z = 0.15 / sqrt(0.375 * 0.625 / 50) =
       2.1909, normal p = 0.0285; exact (summed with big integers)
       0.040534 */
    assert_true(fabs(htest_fisher(30, 100, 45, 100) - 0.040534) < 1e-6);
    /* an overwhelming difference: 0 of 10^6 against 10^6 of 10^6 is far
       below 1e-300, reported as 0 */
    assert_true(htest_fisher(0, 1000000, 1000000, 1000000) < 1e-300);
}

/* The exact binomial test against 1/2: symmetric, so the two-sided p is
 * twice the smaller tail. */
static void test_binom(void **state)
{
    (void)state;
    /* 9 of 10: P(X <= 1) = (1 + 10) / 1024; p = 22/1024 */
    assert_float_equal(htest_binom_half(9, 10), 22.0 / 1024.0, 1e-12);
    assert_float_equal(htest_binom_half(1, 10), 22.0 / 1024.0, 1e-12);
    /* 8 of 10: P(X <= 2) = (1 + 10 + 45) / 1024; p = 112/1024 */
    assert_float_equal(htest_binom_half(8, 10), 112.0 / 1024.0, 1e-12);
    /* 5 of 10: the most likely outcome, p = 1 */
    assert_float_equal(htest_binom_half(5, 10), 1.0, 1e-12);
    /* 0 of 5 (odd n): 2 * 1/32 */
    assert_float_equal(htest_binom_half(0, 5), 2.0 / 32.0, 1e-12);
    /* 3 of 5 and 2 of 5: every outcome is at most as likely, p = 1 */
    assert_float_equal(htest_binom_half(3, 5), 1.0, 1e-12);
    /* 10 of 10: 2/1024 */
    assert_float_equal(htest_binom_half(10, 10), 2.0 / 1024.0, 1e-12);
    assert_float_equal(htest_binom_half(0, 0), 1.0, 0);
    /* 5200 of 10000: normal approximation z = 200 / 50 = 4, p = 6.33e-5
       (with continuity correction z = 199.5 / 50 = 3.99, p = 6.61e-5);
       the exact sum of C(10000, x) / 2^10000 over x <= 4800, doubled,
       is 6.5935e-5 */
    assert_true(fabs(htest_binom_half(5200, 10000) - 6.5935e-5) < 1e-8);
    assert_true(fabs(htest_binom_half(4800, 10000) - 6.5935e-5) < 1e-8);
}

/* Holm's step-down correction. */
static void test_holm(void **state)
{
    (void)state;
    /* p = 0.01, 0.04, 0.03, 0.005 (m = 4).  Sorted: 0.005 * 4 = 0.02,
       0.01 * 3 = 0.03, 0.03 * 2 = 0.06, 0.04 * 1 = 0.04 raised to the
       running maximum 0.06.  At alpha = 0.05 the first two hold.
       Bonferroni would give 0.04 for 0.01 (not 0.03); Hochberg's step-up
       would accept 0.04 (0.04 <= 0.05 / 1): both fail here. */
    double p[4] = {0.01, 0.04, 0.03, 0.005}, adj[4];
    assert_int_equal(htest_holm(p, 4, adj), 0);
    assert_float_equal(adj[0], 0.03, 1e-12);
    assert_float_equal(adj[1], 0.06, 1e-12);
    assert_float_equal(adj[2], 0.06, 1e-12);
    assert_float_equal(adj[3], 0.02, 1e-12);
    assert_true(adj[0] <= 0.05 && adj[3] <= 0.05);
    assert_true(adj[1] > 0.05 && adj[2] > 0.05);
    /* capped at 1, and ties: p = 0.5, 0.5, 0.001 -> 0.003, then 0.5 * 2 =
       1, 0.5 * 1 raised to 1 */
    double q[3] = {0.5, 0.5, 0.001}, qa[3];
    assert_int_equal(htest_holm(q, 3, qa), 0);
    assert_float_equal(qa[2], 0.003, 1e-12);
    assert_float_equal(qa[0], 1.0, 1e-12);
    assert_float_equal(qa[1], 1.0, 1e-12);
    /* a family of one is not corrected */
    double r = 0.049, ra;
    assert_int_equal(htest_holm(&r, 1, &ra), 0);
    assert_float_equal(ra, 0.049, 1e-15);
}

/* Newcombe's hybrid score interval of a difference. */
static void test_diff_interval(void **state)
{
    (void)state;
    double lo, hi;
    /* Newcombe (1998), "Interval estimation for the difference between
       independent proportions", example (a): 56/70 - 48/80 = 0.2, method
       10 gives 0.0524 to 0.3339. */
    htest_diff_interval(56, 70, 48, 80, &lo, &hi);
    assert_true(fabs(lo - 0.0524) < 5e-5);
    assert_true(fabs(hi - 0.3339) < 5e-5);
    /* swapped groups: the interval is mirrored */
    htest_diff_interval(48, 80, 56, 70, &lo, &hi);
    assert_true(fabs(lo + 0.3339) < 5e-5);
    assert_true(fabs(hi + 0.0524) < 5e-5);
    /* 0/10 - 0/20: d = 0; the Wilson upper ends are z^2 / (n + z^2):
       3.8415 / 13.8415 = 0.27753 and 3.8415 / 23.8415 = 0.16112, so the
       interval is [-0.16112, 0.27753] */
    htest_diff_interval(0, 10, 0, 20, &lo, &hi);
    assert_true(fabs(lo + 0.16112) < 5e-5);
    assert_true(fabs(hi - 0.27753) < 5e-5);
}

/* Normal quantiles and the games a test needs. */
static void test_sample_size(void **state)
{
    (void)state;
    /* tabulated: z(0.025) = 1.959964, z(0.2) = 0.841621 */
    assert_true(fabs(htest_z_upper(0.025) - 1.959964) < 1e-6);
    assert_true(fabs(htest_z_upper(0.2) - 0.841621) < 1e-6);
    assert_true(fabs(htest_z_upper(0.5)) < 1e-9);
    /* one group against 1/2 (the first-mover test): n = ((z_a sqrt(p0
       q0) + z_b sqrt(p q)) / (p - p0))^2.  52% against 50%: (1.959964 *
       0.5 + 0.841621 * sqrt(0.2496)) / 0.02 = (0.979982 + 0.420472) /
       0.02 = 70.0227; squared 4903.2 -> 4904 ("about 4,900"). */
    assert_float_equal(htest_n_one(0.52, 0.5, 0.05, 0.8), 4904, 0);
    assert_float_equal(htest_n_one(0.48, 0.5, 0.05, 0.8), 4904, 0);
    /* two groups, per group: n = ((z_a sqrt(2 pbar qbar) + z_b sqrt(p1 q1
       + p2 q2)) / (p1 - p2))^2.  52% against 50%: pbar = 0.51,
       sqrt(0.4998) = 0.706965, sqrt(0.4996) = 0.706824; (1.385626 +
       0.594875) / 0.02 = 99.02505; squared 9805.96 -> 9806. */
    assert_float_equal(htest_n_two(0.52, 0.50, 0.05, 0.8), 9806, 0);
    assert_float_equal(htest_n_two(0.50, 0.52, 0.05, 0.8), 9806, 0);
    /* a Holm-adjusted alpha, 0.05 / 10: z(0.0025) = 2.807034;
       (2.807034 * 0.706965 + 0.594875) / 0.02 = (1.984475 + 0.594875) /
       0.02 = 128.9675; squared 16632.6 -> 16633 */
    assert_float_equal(htest_n_two(0.52, 0.50, 0.005, 0.8), 16633, 0);
    /* 30% against 40%: pbar = 0.35, sqrt(2 * 0.35 * 0.65) = 0.674537,
       sqrt(0.21 + 0.24) = 0.670820; (1.322068 + 0.564574) / 0.1 =
       18.86642; squared 355.94 -> 356 */
    assert_float_equal(htest_n_two(0.3, 0.4, 0.05, 0.8), 356, 0);
    /* no difference: no sample is enough */
    assert_true(isinf(htest_n_two(0.5, 0.5, 0.05, 0.8)));
    assert_true(isinf(htest_n_one(0.5, 0.5, 0.05, 0.8)));
}

/* The stopping rule of --until: the half-width of the Wilson interval. */
static void test_stop(void **state)
{
    (void)state;
    /* 50 of 100: z^2 = 3.841459; sqrt(0.25 / 100 + 3.841459 / 40000) =
       sqrt(0.00259604) = 0.0509513; * z = 0.0998627; / (1 + 0.0384146)
       = 0.0961685 */
    assert_true(fabs(htest_wilson_half(50, 100) - 0.0961685) < 1e-6);
    assert_int_equal(htest_stop(50, 100, 0.1), 1);
    assert_int_equal(htest_stop(50, 100, 0.09), 0);
    /* 100 of 100: z sqrt(z^2 / 4n^2) / (1 + z^2 / n) = z^2 / (2n + 2z^2)
       = 3.841459 / 207.682918 = 0.0184967 */
    assert_true(fabs(htest_wilson_half(100, 100) - 0.0184967) < 1e-6);
    assert_int_equal(htest_stop(100, 100, 0.02), 1);
    assert_int_equal(htest_stop(100, 100, 0.018), 0);
    /* 200 of 400 stops at 0.05 (0.0487655), 150 of 300 does not
       (0.0562204) */
    assert_int_equal(htest_stop(200, 400, 0.05), 1);
    assert_int_equal(htest_stop(150, 300, 0.05), 0);
    /* nothing played: never done */
    assert_int_equal(htest_stop(0, 0, 1.0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fisher_small), cmocka_unit_test(test_fisher_large),
        cmocka_unit_test(test_binom),        cmocka_unit_test(test_holm),
        cmocka_unit_test(test_diff_interval), cmocka_unit_test(test_sample_size),
        cmocka_unit_test(test_stop),
    };
    return tu_run_tests(tests, NULL, NULL);
}
