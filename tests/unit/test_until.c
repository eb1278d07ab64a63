/* test_until.c - the stopping rule of `tiers compare --until`
 * (engine/cli/compare_until.c): which rate it watches, the half-width
 * test and the cap.  Half-widths worked out by hand: for k = n/2,
 * z sqrt(1/(4n) + z^2/(4n^2)) / (1 + z^2/n) with z^2 = 3.841459; for
 * k = 0, z^2 / (2n + 2z^2). */
#include <string.h>

#include "testutil.h"

#include "compare_until.h"
#include "stats.h"

static void test_until_rule(void **state)
{
    (void)state;
    struct stats s;
    memset(&s, 0, sizeof s);
    stats_wilson(50, 100, &s.first_decisive); /* half-width 0.0962 */
    stats_wilson(0, 100, &s.win[0]);          /* 3.841459 / 207.68 = 0.0185 */
    stats_wilson(50, 100, &s.draw);
    stats_wilson(0, 100, &s.first);           /* not watched: all games */
    /* first-mover watches the decisive-game rate, not `first` */
    assert_int_equal(compare_until_done(&s, UNTIL_FIRST_MOVER, 0.1, 100, 1000), 1);
    assert_int_equal(compare_until_done(&s, UNTIL_FIRST_MOVER, 0.09, 100, 1000), 0);
    assert_ptr_equal(compare_until_rate(&s, UNTIL_FIRST_MOVER), &s.first_decisive);
    /* side0 watches side 0's wins */
    assert_int_equal(compare_until_done(&s, UNTIL_SIDE0, 0.019, 100, 1000), 1);
    assert_int_equal(compare_until_done(&s, UNTIL_SIDE0, 0.018, 100, 1000), 0);
    /* draws */
    assert_int_equal(compare_until_done(&s, UNTIL_DRAWS, 0.097, 100, 1000), 1);
    assert_int_equal(compare_until_done(&s, UNTIL_DRAWS, 0.096, 100, 1000), 0);
    /* the cap stops it whatever the width */
    assert_int_equal(compare_until_done(&s, UNTIL_DRAWS, 0.001, 1000, 1000), 1);
    assert_int_equal(compare_until_done(&s, UNTIL_DRAWS, 0.001, 999, 1000), 0);
    /* nothing to measure (no decisive game): only the cap stops it */
    stats_wilson(0, 0, &s.first_decisive);
    assert_int_equal(compare_until_done(&s, UNTIL_FIRST_MOVER, 0.5, 100, 1000), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_until_rule),
    };
    return tu_run_tests(tests, NULL, NULL);
}
