/* test_stats.c — the t distribution against table values, and paired batch
 * means, the batch length rule, Holm, Welch and the trend rule against
 * worked examples (the paired verdicts' error rates on AR(1) series:
 * tests/stats/stats_sim.sh). Every expected value was computed
 * independently with python3 (statistics for means, variances and the
 * regression; mpmath's betainc + findroot for t quantiles at 30 digits),
 * as the comments show. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "util/util.h"

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

/* 21 intervals in batches of k = 2, so 10 batches; the 21st interval
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
    /* two repetitions of 3 intervals: batches of 2 are [10 12] and [20 22]
     * (a), [9 10] and [18 21] (b); concatenated, [11 20] would straddle */
    const double ra[] = { 10, 12, 11, 20, 22, 21 }, rb[] = { 9, 10, 11, 18, 21, 20 };
    const int seg21[] = { 21 }, seg20[] = { 20 }, seg3[] = { 3 }, seg33[] = { 3, 3 };
    orch_diff d;
    assert_int_equal(orch_stats_paired_k(a, b, seg21, 1, 2, &d), 0);
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
    assert_int_equal(orch_stats_paired_k(b, b, seg20, 1, 2, &d), 0);
    assert_true(d.lo == 0 && d.hi == 0);
    assert_int_equal(d.distinguishable, 0);
    assert_true(isnan(d.p_value));
    /* 3 intervals in batches of 2: one batch, no interval */
    assert_int_equal(orch_stats_paired_k(a, b, seg3, 1, 2, &d), -1);
    /* batches inside their repetition: means 11, 21 and 9.5, 19.5 */
    assert_int_equal(orch_stats_paired_k(ra, rb, seg33, 2, 2, &d), 0);
    assert_int_equal(d.n, 2);
    near(d.mean_a, 16, 1e-12);
    near(d.mean_b, 14.5, 1e-12);
    near(d.diff, 1.5, 1e-12);
    assert_true(d.se == 0);
}

/* The batch length rule on hand-computed series (python3, the rule as
 * stats.h states it, step by step):
 *   rho(0.5, 10) = 0.5 (1 - 0.5^10)^2 / (10 x 0.75 - 1 x (1 - 0.5^10))
 *     = 0.076761377239184317; rho(0.9, 50) = 0.11554224002184182.
 *   the first 50 digits of pi, four times (200 values, one segment):
 *     r1 = 0.031108876234261489; Sokal's window: tau = 0.6476123073368367
 *     at lag 5 (bias tau / 200 = 0.0032380605753846497 on each rho);
 *     the initial positive sequence ends at lag 1 (rho(2) + rho(3) <= 0),
 *     so phi is r1's, (200 r1 + 1) / 197 = 0.036658757598235017,
 *     phi_hi = phi + 1.6449 sqrt((1 - phi^2) / 200) = 0.15288929511464794,
 *     kreq = 9 (rho(phi_hi, 9) <= 0.02 < rho at 8); tau_hi =
 *     1.3609665046915913 asks for 137 intervals, 200 are there; the
 *     longest batch making 20 is 10: k = 10, 20 batches.
 *   the same as two repetitions of 100: r1 = 0.02611723525416642 (each
 *     centred on its own mean), phi = 0.037234263148625171, phi_hi =
 *     0.15346232591216646, kreq 9, k 10, 20 batches.
 *   the 50 digits alone: phi_hi = 0.27088587801686331, kreq 16: 3
 *     batches, too short; needs max(10 x 16, 100 x tau_hi =
 *     100 x 1.7430548108986659) = 175 intervals.
 *   a slow signal under noise, 600 values: 5 x round(sin(2 pi i / 40))
 *     plus the pi digit (7 i) mod 50. lag-1 r = 0.59330 (the old rule's phi_hi
 *     0.63 gave 10 batches of 60, a verdict); the initial positive
 *     sequence runs to lag 9, sum rho(1..8) = 3.4649, sum rho(2..9) =
 *     2.9807: the decay 0.86025 is beyond r1's bound, phi_hi =
 *     0.89449, kreq 233: too short, needs 2,330. */
static void test_batching(void **state)
{
    (void)state;
    static const double pi[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4,
                                 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7,
                                 1, 6, 9, 3, 9, 9, 3, 7, 5, 1 };
    double s[600], flat[30];
    const int seg200[] = { 200 }, seg100[] = { 100, 100 }, seg50[] = { 50 }, seg600[] = { 600 };
    orch_batching bt;

    near(orch_stats_batch_rho(0.5, 10), 0.076761377239184317, 1e-15);
    near(orch_stats_batch_rho(0.9, 50), 0.11554224002184182, 1e-15);
    assert_true(orch_stats_batch_rho(0, 3) == 0 && orch_stats_batch_rho(-0.4, 3) == 0);
    assert_true(orch_stats_batch_rho(1, 3) == 1);

    for (int i = 0; i < 200; i++)
        s[i] = pi[i % 50];
    assert_int_equal(orch_stats_batching(s, seg200, 1, &bt), 0);
    near(bt.r1, 0.036658757598235017, 1e-14);
    near(bt.tau, 0.6476123073368367, 1e-13);
    assert_int_equal(bt.lags, 5);
    near(bt.phi_hi, 0.15288929511464794, 1e-14);
    near(bt.tau_hi, 1.3609665046915913, 1e-13);
    assert_int_equal(bt.kreq, 9);
    assert_int_equal(bt.k, 10);
    assert_int_equal(bt.batches, 20);
    assert_int_equal(bt.needs, 0);

    assert_int_equal(orch_stats_batching(s, seg100, 2, &bt), 0);
    near(bt.r1, 0.037234263148625171, 1e-14);
    near(bt.phi_hi, 0.15346232591216646, 1e-14);
    assert_int_equal(bt.k, 10);
    assert_int_equal(bt.batches, 20);

    assert_int_equal(orch_stats_batching(pi, seg50, 1, &bt), -1);
    near(bt.phi_hi, 0.27088587801686331, 1e-14);
    near(bt.tau_hi, 1.7430548108986659, 1e-13);
    assert_int_equal(bt.kreq, 16);
    assert_int_equal(bt.k, 0);
    assert_int_equal(bt.needs, 175);

    /* signal plus noise: r1 alone (0.5933) would have given a verdict */
    for (int i = 0; i < 600; i++)
        s[i] = round(5.0 * sin(2.0 * M_PI * i / 40.0)) + pi[(7 * i) % 50];
    assert_int_equal(orch_stats_batching(s, seg600, 1, &bt), -1);
    near(bt.r1, 0.8603, 5e-5);
    near(bt.phi_hi, 0.8945, 5e-5);
    assert_int_equal(bt.kreq, 233);
    assert_int_equal(bt.needs, 2330);
    assert_true(orch_stats_batch_rho(0.5933 + 1.6448536269514722 * sqrt((1 - 0.5933 * 0.5933)
                                                                         / 600), 60) < 0.02);

    /* no autocorrelation: a series that does not vary, segments of one
     * interval, a value that is not a number */
    for (int i = 0; i < 30; i++)
        flat[i] = 7;
    assert_int_equal(orch_stats_batching(flat, (const int[]){ 30 }, 1, &bt), -2);
    assert_true(isnan(bt.r1));
    assert_int_equal(orch_stats_batching(pi, (const int[]){ 1, 1, 1 }, 3, &bt), -2);
    flat[4] = NAN;
    assert_int_equal(orch_stats_batching(flat, (const int[]){ 30 }, 1, &bt), -2);
}

/* orch_stats_paired: the rule's k from a + b, the refusals. a = pi's
 * first 10 digits repeated + 1 on odd intervals, b the same + 1 on even
 * ones: the differences alternate -1, +1 and every batch of 10 has a
 * difference of 0, so the interval is the point 0 (se 0, no p). A
 * constant difference of 2 is a point difference with se 0 (batches of
 * 1) whatever the length; a NAN value refuses (-3). */
static void test_paired_rule(void **state)
{
    static const double pi[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 };
    double a[200], b[200];
    const int seg200[] = { 200 }, seg3[] = { 3 };
    orch_diff d;
    orch_batching bt;
    (void)state;
    for (int i = 0; i < 200; i++) {
        a[i] = pi[i % 10] + (i % 2);
        b[i] = pi[i % 10] + ((i + 1) % 2);
    }
    assert_int_equal(orch_stats_paired(a, b, seg200, 1, &d, &bt), 0);
    assert_int_equal(bt.k, 10);
    assert_int_equal(d.n, 20);
    assert_true(d.diff == 0 && d.se == 0 && isnan(d.p_value));
    assert_int_equal(d.distinguishable, 0);

    for (int i = 0; i < 3; i++)
        b[i] = a[i] - 2;
    assert_int_equal(orch_stats_paired(a, b, seg3, 1, &d, &bt), 0);
    assert_int_equal(d.n, 3);
    assert_true(d.diff == 2 && d.se == 0);
    assert_int_equal(d.distinguishable, 0);

    a[1] = NAN;
    assert_int_equal(orch_stats_paired(a, b, seg200, 1, &d, &bt), -3);
}

/* Holm: p = 0.01 0.04 0.03 and one without a test. Sorted 0.01 0.03 0.04:
 * 3 x 0.01 = 0.03, max(0.03, 2 x 0.03) = 0.06, max(0.06, 1 x 0.04) = 0.06. */
static void test_holm(void **state)
{
    const double p[] = { 0.01, 0.04, 0.03, NAN }, one[] = { 0.7 };
    double adj[4];
    (void)state;
    assert_int_equal(orch_stats_holm(p, 4, adj), 0);
    near(adj[0], 0.03, 1e-15);
    near(adj[1], 0.06, 1e-15);
    near(adj[2], 0.06, 1e-15);
    assert_true(isnan(adj[3]));
    assert_int_equal(orch_stats_holm(one, 1, adj), 0);
    near(adj[0], 0.7, 1e-15);
    assert_int_equal(orch_stats_holm((const double[]){ 0.6, 0.5 }, 2, adj), 0);
    assert_true(adj[0] == 1 && adj[1] == 1);        /* capped at 1 */
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
    /* ... but a zero standard error shows no spread to judge by (issue 29) */
    assert_int_equal(d.distinguishable, 0);
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

/* The SNIA window rule against values worked out by hand (W = 5, indexes
 * 0..4 around their mean 2: sxx = 10). */
static void test_steady_window(void **state)
{
    (void)state;
    orch_steady_rule r = { .window = 5, .range_pct = 20, .slope_pct = 10 };
    orch_steady_check c;
    /* mean 100, max - min 8; sxy = -4 + 2 - 4 = -6, slope -0.6,
     * excursion 0.6 x 4 = 2.4 */
    const double calm[] = { 100, 104, 96, 102, 98 };
    assert_int_equal(orch_stats_steady_window(calm, &r, &c), 0);
    near(c.mean, 100, 1e-12);
    near(c.range_pct, 8, 1e-12);
    near(c.slope, -0.6, 1e-12);
    near(c.excursion_pct, 2.4, 1e-12);
    assert_int_equal(c.steady, 1);
    /* range 20 % exactly (within), slope 5: excursion 20 % > 10 */
    const double ramp[] = { 90, 95, 100, 105, 110 };
    assert_int_equal(orch_stats_steady_window(ramp, &r, &c), 0);
    near(c.range_pct, 20, 1e-12);
    near(c.excursion_pct, 20, 1e-12);
    assert_int_equal(c.steady, 0);
    /* flat line (sxy = 40 - 20 + 20 - 40 = 0) but range 40 % */
    const double swing[] = { 80, 120, 100, 120, 80 };
    assert_int_equal(orch_stats_steady_window(swing, &r, &c), 0);
    near(c.excursion_pct, 0, 1e-12);
    near(c.range_pct, 40, 1e-12);
    assert_int_equal(c.steady, 0);
    /* no verdict: a NAN, a mean of 0, a window of 1 */
    const double hole[] = { 100, NAN, 100, 100, 100 }, zero[] = { 0, 0, 0, 0, 0 };
    assert_int_equal(orch_stats_steady_window(hole, &r, &c), -1);
    assert_int_equal(orch_stats_steady_window(zero, &r, &c), -1);
    orch_steady_rule one = { .window = 1, .range_pct = 20, .slope_pct = 10 };
    assert_int_equal(orch_stats_steady_window(calm, &one, &c), -1);

    /* a warm-up ramp, then steady: the window ending at round 8
     * {80,90,100,104,96} has range 24 / 94 = 25.5 %; the one ending at
     * round 9 {90,100,104,96,102}: mean 98.4, range 14 / 98.4 = 14.23 %,
     * sxy = 16.8 - 1.6 - 2.4 + 7.2 = 20, slope 2, excursion 8 / 98.4 =
     * 8.13 %: steady at round 9 */
    const double series[] = { 50, 60, 70, 80, 90, 100, 104, 96, 102, 98 };
    assert_int_equal(orch_stats_steady_first(series, 10, &r), 9);
    assert_int_equal(orch_stats_steady_window(series + 4, &r, &c), 0);
    near(c.range_pct, 14.227642276422763, 1e-9);
    near(c.excursion_pct, 8.130081300813009, 1e-9);
    assert_int_equal(orch_stats_steady_first(series, 8, &r), 0);
    assert_int_equal(orch_stats_steady_first(series, 4, &r), 0);     /* fewer than W */
}

/* sd of {10, 12, 14} = sqrt(8 / 2) = 2, mean 12: 16.67 % */
static void test_cv(void **state)
{
    (void)state;
    const double v[] = { 10, 12, 14 }, z[] = { 0, 0 };
    near(orch_stats_cv(v, 3), 100.0 / 6, 1e-12);
    assert_true(isnan(orch_stats_cv(v, 1)));
    assert_true(isnan(orch_stats_cv(z, 2)));
}

/* A sweep's knee (issue 34): the first step at 95 % of the highest;
 * steps not counted (NAN) are skipped; none without a finite one. */
static void test_knee(void **state)
{
    const double rising[] = { 100, 190, 199, 200 }, early[] = { 100, 189.99, 199, 200 };
    const double gaps[] = { NAN, 5, NAN }, none[] = { NAN, NAN }, peak[] = { 10, 30, 20 };
    (void)state;
    assert_int_equal(orch_stats_knee(rising, 4, 0.95), 1);
    assert_int_equal(orch_stats_knee(early, 4, 0.95), 2);
    assert_int_equal(orch_stats_knee(gaps, 3, 0.95), 1);
    assert_int_equal(orch_stats_knee(none, 2, 0.95), -1);
    assert_int_equal(orch_stats_knee(peak, 3, 0.95), 1);
    assert_int_equal(orch_stats_knee(rising, 0, 0.95), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_quantile),
        cmocka_unit_test(test_paired),
        cmocka_unit_test(test_batching),
        cmocka_unit_test(test_paired_rule),
        cmocka_unit_test(test_holm),
        cmocka_unit_test(test_welch),
        cmocka_unit_test(test_trend),
        cmocka_unit_test(test_steady_window),
        cmocka_unit_test(test_cv),
        cmocka_unit_test(test_knee),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
