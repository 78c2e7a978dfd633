/* test_stats.c — the t distribution against table values, and paired batch
 * means, Welch and the trend rule against worked examples. Every expected
 * value was computed independently with python3 (statistics for means,
 * variances and the regression; mpmath's betainc + findroot for t
 * quantiles at 30 digits), as the comments show. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "telemetry/stats.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/* Printed t tables (3 decimals), then mpmath to 1e-9. */
static void test_t_quantile(void **state)
{
    (void)state;
    near(orch_t_quantile(0.975, 1), 12.706, 0.0005);
    near(orch_t_quantile(0.975, 4), 2.776, 0.0005);
    near(orch_t_quantile(0.975, 9), 2.262, 0.0005);
    near(orch_t_quantile(0.975, 30), 2.042, 0.0005);
    near(orch_t_quantile(0.975, INFINITY), 1.960, 0.0005);

    near(orch_t_quantile(0.975, 1), 12.7062047361747, 1e-9);
    near(orch_t_quantile(0.975, 2), 4.30265272974946, 1e-9);
    near(orch_t_quantile(0.975, 4), 2.77644510519779, 1e-9);
    near(orch_t_quantile(0.975, 9), 2.2621571627982, 1e-9);
    near(orch_t_quantile(0.975, 30), 2.04227245630124, 1e-9);
    near(orch_t_quantile(0.975, 1000), 1.96233908082641, 1e-9);
    near(orch_t_quantile(0.975, INFINITY), 1.95996398454005, 1e-9);
    near(orch_t_quantile(0.995, 5), 4.03214298355523, 1e-9);
    near(orch_t_quantile(0.9, 3.5), 1.57657660513641, 1e-9);   /* non-integer df (Welch) */
    near(orch_t_quantile(0.025, 9), -2.2621571627982, 1e-9);  /* symmetry */
    assert_true(orch_t_quantile(0.5, 7) == 0.0);
    near(orch_t_cdf(2.2621571627982, 9), 0.975, 1e-12);
    near(orch_t_cdf(0, 3), 0.5, 1e-15);
    assert_true(isnan(orch_t_quantile(0, 5)));
    assert_true(isnan(orch_t_quantile(1, 5)));
    assert_true(isnan(orch_t_quantile(0.9, 0)));
    assert_true(isnan(orch_betai(1, 1, 1.5)));
    near(orch_betai(1, 1, 0.3), 0.3, 1e-15);           /* uniform */
    near(orch_betai(2, 3, 0.4), 0.5248, 1e-12);        /* 1-(1-x)^4-4x(1-x)^3 */
}

/* 21 intervals, default k = 21/10 = 2, so 10 batches; the 21st interval
 * (77 vs 50, which would move the mean a lot) is left out.
 *   batch means a: 100 100 101 101 98 100 100 100.5 101 100 -> 100.1
 *   batch means b: 97.5 97.5 98.5 99 96 99 97.5 99 99 98 -> 97.95
 *   differences d: mean 2.15, stdev/sqrt(10) = 0.106718737290547
 *   t(0.975, 9) = 2.2621571627982
 *   CI [1.90858544403341, 2.39141455596659], p = 8.51371934691178e-9 */
static void test_paired(void **state)
{
    (void)state;
    const double a[] = { 101, 99, 103, 97, 100, 102, 98, 104, 96, 100, 105, 95, 99, 101, 103,
                         99, 100, 102, 98, 100, 77 };
    const double b[] = { 98, 97, 100, 96, 99, 98, 97, 101, 95, 97, 101, 94, 96, 99, 100, 98,
                         99, 99, 97, 98, 50 };
    orch_diff d;
    assert_int_equal(orch_stats_batch_size(21), 2);
    assert_int_equal(orch_stats_batch_size(5), 1);
    assert_int_equal(orch_stats_paired(a, b, 21, 0, &d), 0);
    assert_int_equal(d.n, 10);
    assert_true(d.df == 9);
    near(d.mean_a, 100.1, 1e-12);
    near(d.mean_b, 97.95, 1e-12);
    near(d.diff, 2.15, 1e-12);
    near(d.diff_pct, 2.15 / 97.95 * 100, 1e-12);
    near(d.se, 0.106718737290547, 1e-12);
    near(d.t_crit, 2.2621571627982, 1e-9);
    near(d.lo, 1.90858544403341, 1e-9);
    near(d.hi, 2.39141455596659, 1e-9);
    near(d.p_value, 8.51371934691178e-9, 1e-13);
    assert_int_equal(d.distinguishable, 1);

    /* b against itself: identical batches, se 0, a zero-width interval at
     * 0, not distinguishable */
    assert_int_equal(orch_stats_paired(b, b, 20, 2, &d), 0);
    assert_true(d.lo == 0 && d.hi == 0);
    assert_int_equal(d.distinguishable, 0);
    assert_true(isnan(d.p_value));
    /* 3 intervals in batches of 2: one batch, no interval */
    assert_int_equal(orch_stats_paired(a, b, 3, 2, &d), -1);
}

/* a = 100 104 98 102 (4 repetitions), b = 95 97 99 (3):
 *   means 101, 97; s_a^2/4 = 6.6667/4, s_b^2/3 = 4/3; se = 1.73205080756888
 *   df = 4.959183673469387, t(0.975, df) = 2.57695844900906
 *   CI [-0.463422962677576, 8.46342296267758]: spans 0, p = 0.0693883372848169
 * a = 100 110 90, b = 101 109 95: se 7.05533682950558,
 *   df 3.5870746354017737, CI [-22.1775990899217, 18.8442657565884] */
static void test_welch(void **state)
{
    (void)state;
    const double a[] = { 100, 104, 98, 102 }, b[] = { 95, 97, 99 };
    orch_diff d;
    assert_int_equal(orch_stats_welch(a, 4, b, 3, &d), 0);
    assert_int_equal(d.n, 7);
    near(d.mean_a, 101, 1e-12);
    near(d.mean_b, 97, 1e-12);
    near(d.diff, 4, 1e-12);
    near(d.se, 1.73205080756888, 1e-12);
    near(d.df, 4.959183673469387, 1e-12);
    near(d.t_crit, 2.57695844900906, 1e-9);
    near(d.lo, -0.463422962677576, 1e-9);
    near(d.hi, 8.46342296267758, 1e-9);
    near(d.p_value, 0.0693883372848169, 1e-10);
    assert_int_equal(d.distinguishable, 0);

    const double c[] = { 100, 110, 90 }, e[] = { 101, 109, 95 };
    assert_int_equal(orch_stats_welch(c, 3, e, 3, &d), 0);
    near(d.df, 3.5870746354017737, 1e-12);
    near(d.se, 7.05533682950558, 1e-12);
    near(d.lo, -22.1775990899217, 1e-9);
    near(d.hi, 18.8442657565884, 1e-9);
    assert_int_equal(d.distinguishable, 0);

    /* constant repetitions: the interval is the point 4 */
    const double f[] = { 5, 5, 5 }, g[] = { 1, 1, 1 };
    assert_int_equal(orch_stats_welch(f, 3, g, 3, &d), 0);
    assert_true(d.df == 4 && d.lo == 4 && d.hi == 4);
    assert_int_equal(d.distinguishable, 1);
    /* two repetitions are not enough */
    assert_int_equal(orch_stats_welch(a, 2, b, 3, &d), -1);
}

/* t = 1..10.
 * Rising: y = 100 103 101 106 108 107 111 112 114 116: slope
 *   1.7575757575757576, mean 107.8, 95 % [1.43704551691912,
 *   2.0781059982324] (t(0.975, 8)), drift 1.7576 * 9 / 107.8 =
 *   14.673638050261427 % -> trending.
 * Flat: y = 100 98 101 99 102 100 99 101 100 100: slope
 *   0.07272727272727272, [-0.23250842744403, 0.377962972898575],
 *   drift 0.6545454545454545 % -> steady. */
static void test_trend(void **state)
{
    (void)state;
    const double t[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    const double up[] = { 100, 103, 101, 106, 108, 107, 111, 112, 114, 116 };
    const double flat[] = { 100, 98, 101, 99, 102, 100, 99, 101, 100, 100 };
    orch_trend r;
    assert_int_equal(orch_stats_trend(t, up, 10, 0, &r), 0);
    assert_int_equal(r.n, 10);
    near(r.mean, 107.8, 1e-12);
    near(r.slope, 1.7575757575757576, 1e-12);
    near(r.slope_lo, 1.43704551691912, 1e-9);
    near(r.slope_hi, 2.0781059982324, 1e-9);
    near(r.drift_pct, 14.673638050261427, 1e-9);
    assert_int_equal(r.trending, 1);
    /* the same slope under a 20 % drift threshold is not a trend */
    assert_int_equal(orch_stats_trend(t, up, 10, 20, &r), 0);
    assert_int_equal(r.trending, 0);

    assert_int_equal(orch_stats_trend(t, flat, 10, 0, &r), 0);
    near(r.slope, 0.07272727272727272, 1e-12);
    near(r.slope_lo, -0.23250842744403, 1e-9);
    near(r.slope_hi, 0.377962972898575, 1e-9);
    near(r.drift_pct, 0.6545454545454545, 1e-9);
    assert_int_equal(r.trending, 0);

    const double same[] = { 3, 3, 3 };
    assert_int_equal(orch_stats_trend(same, flat, 3, 0, &r), -1);
    assert_int_equal(orch_stats_trend(t, flat, 2, 0, &r), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_quantile),
        cmocka_unit_test(test_paired),
        cmocka_unit_test(test_welch),
        cmocka_unit_test(test_trend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
