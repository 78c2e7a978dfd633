/* test_capacity.c — the latency target's parser, a percentile's 95 %
 * interval from order statistics (exact ranks on histograms of exactly
 * recorded values), each probe verdict with its words, and the capacity
 * search against a stand-in drive whose p99 rises with the rate: the
 * probes it asks for, in order, each verdict, and the capacity's interval
 * around the stand-in's known capacity. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "hist.h"
#include "util/util.h"

static void test_target_parse(void **state)
{
    orch_cap_target t;
    char err[256], buf[64];

    (void)state;
    assert_int_equal(orch_cap_target_parse("p99 <= 10ms", &t, err, sizeof err), 0);
    assert_true(t.pct == 99.0 && t.bound_us == 10000.0 && t.inclusive == 1);
    orch_cap_target_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "p99 <= 10 ms");
    assert_int_equal(orch_cap_target_parse("  P99.9<2.5 ms ", &t, err, sizeof err), 0);
    assert_true(t.pct == 99.9 && t.bound_us == 2500.0 && t.inclusive == 0);
    orch_cap_target_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "p99.9 < 2.5 ms");
    assert_int_equal(orch_cap_target_parse("p50 <= 800us", &t, err, sizeof err), 0);
    orch_cap_target_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "p50 <= 800 us");
    assert_int_equal(orch_cap_target_parse("p95 <= 1.5s", &t, err, sizeof err), 0);
    assert_true(t.bound_us == 1500000.0);
    orch_cap_target_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "p95 <= 1.5 s");

    assert_int_equal(orch_cap_target_parse("p100 <= 10ms", &t, err, sizeof err), -1);
    assert_string_equal(err, "target 'p100 <= 10ms': the percentile must be above 0 and "
                             "below 100 (p50, p99, p99.9)");
    assert_int_equal(orch_cap_target_parse("p99 <= 10", &t, err, sizeof err), -1);
    assert_string_equal(err, "target 'p99 <= 10': the bound needs a unit: us, ms or s");
    assert_int_equal(orch_cap_target_parse("p99 >= 10ms", &t, err, sizeof err), -1);
    assert_string_equal(err, "target 'p99 >= 10ms': expected a percentile, <= or <, and a "
                             "bound with its unit, e.g. 'p99 <= 10ms'");
    assert_int_equal(orch_cap_target_parse("avg <= 10ms", &t, err, sizeof err), -1);
    assert_int_equal(orch_cap_target_parse("p99 <= -1ms", &t, err, sizeof err), -1);
    assert_int_equal(orch_cap_target_parse("p99 <= 10ms and more", &t, err, sizeof err), -1);
}

/* 1..n µs, each once: all recorded exactly (3 digits: below 2048). */
static hist *ramp(int n)
{
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS);
    for (int v = 1; v <= n; v++)
        hist_record(h, v);
    return h;
}

static void test_quantile_ci(void **state)
{
    orch_cap_quantile q;
    hist *h = ramp(1000);

    (void)state;
    /* n q = 990, s = sqrt(990 * 0.01) = 3.1464, z s = 6.1668:
     * l = floor(983.83) = 983, u = ceil(996.17) + 1 = 998 */
    assert_int_equal(orch_cap_quantile_ci(h, 99.0, &q), 0);
    assert_int_equal(q.n, 1000);
    assert_true(q.value_us == 990.0);
    assert_true(q.lo_us == 983.0);
    assert_true(q.hi_us == 998.0);
    /* the median: n q = 500, s = 15.811, z s = 30.990: l = 469, u = 532 */
    assert_int_equal(orch_cap_quantile_ci(h, 50.0, &q), 0);
    assert_true(q.value_us == 500.0 && q.lo_us == 469.0 && q.hi_us == 532.0);
    /* p99.9 of 1000: n q = 999, s = 0.99950, z s = 1.9590: u = 1001 + 1 > n */
    assert_int_equal(orch_cap_quantile_ci(h, 99.9, &q), 0);
    assert_true(q.lo_us == 997.0 && isinf(q.hi_us));
    assert_int_equal(orch_cap_quantile_ci(h, 100.0, &q), -1);
    hist_free(h);

    h = ramp(10);   /* p50 of 10: n q = 5, z s = 3.099: l = 1, u = 10 */
    assert_int_equal(orch_cap_quantile_ci(h, 50.0, &q), 0);
    assert_true(q.value_us == 5.0 && q.lo_us == 1.0 && q.hi_us == 10.0);
    hist_reset(h);
    assert_int_equal(orch_cap_quantile_ci(h, 50.0, &q), -1);
    hist_free(h);
}

static void test_judge(void **state)
{
    orch_cap_target t;
    orch_cap_probe p;
    char err[128];

    (void)state;
    assert_int_equal(orch_cap_target_parse("p99 <= 1ms", &t, err, sizeof err), 0);
    memset(&p, 0, sizeof p);
    p.offered = 100.0;
    p.achieved = 99.0;
    p.q = (orch_cap_quantile){ .value_us = 900.0, .lo_us = 850.0, .hi_us = 1000.0, .n = 6000 };
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_WITHIN);
    assert_string_equal(p.why, "p99 <= 1 ms held: p99 0.900 ms, 95 % interval up to 1.000 ms");
    t.inclusive = 0;   /* p99 < 1 ms: the interval's end on the bound no longer holds */
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_UNDECIDED);
    assert_string_equal(p.why, "p99 < 1 ms undecided: p99 0.900 ms, 95 % interval "
                               "0.850-1.000 ms spans the bound; measure longer");
    t.inclusive = 1;
    p.q.lo_us = 1001.0;
    p.q.value_us = 1100.0;
    p.q.hi_us = 1200.0;
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_BROKEN);
    assert_string_equal(p.why, "p99 <= 1 ms broken: p99 1.100 ms, 95 % interval from 1.001 ms");
    p.q = (orch_cap_quantile){ .value_us = 500.0, .lo_us = 400.0, .hi_us = INFINITY, .n = 50 };
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_UNDECIDED);
    assert_string_equal(p.why, "p99 <= 1 ms undecided: 50 transactions are too few to bound "
                               "p99 from above; measure longer");
    p.q.hi_us = 600.0;
    p.achieved = 94.9;   /* a low latency, but the arrivals outran the service */
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_BROKEN);
    assert_string_equal(p.why, "the queue grows: 94.90 of 100.00 offered per second committed "
                               "(under 95 %)");
    assert_string_equal(orch_cap_side_name(ORCH_CAP_UNDECIDED), "undecided");
}

/* A short probe's committed count is Poisson (oltp's --rate arrivals): a
 * drive that kept up is not short for it. The figures of a real tiny VM
 * under TCG (tests/e2e/capacity-1vm.sh's first run): 45 transactions in
 * 15 s at 4/s, 3.00 TPS, under 95 % of 4 but over the floor 95 % x 4 x 15
 * = 57 less 1.96 sqrt(57): 42.20 transactions, 2.81/s; the same 3.00 of
 * 4.00 over 600 s is short (floor 2280 - 1.96 sqrt(2280) = 2186.41 in
 * 600 s, 3.64/s). */
static void test_judge_poisson(void **state)
{
    orch_cap_target t;
    orch_cap_probe p;
    char err[128];

    (void)state;
    assert_int_equal(orch_cap_target_parse("p90 <= 3s", &t, err, sizeof err), 0);
    memset(&p, 0, sizeof p);
    p.offered = 4.0;
    p.achieved = 3.0;
    p.seconds = 15.0;
    p.q = (orch_cap_quantile){ .value_us = 400e3, .lo_us = 300e3, .hi_us = 1007e3, .n = 45 };
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_WITHIN);
    assert_string_equal(p.why, "p90 <= 3 s held: p90 400.000 ms, 95 % interval up to "
                               "1007.000 ms");
    p.seconds = 600.0;
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_BROKEN);
    assert_string_equal(p.why, "the queue grows: 3.00 of 4.00 offered per second committed "
                               "over 600 s, under 3.64 (95 % less the arrivals' spread)");
    /* on the floor is not short; just under it is */
    p.seconds = 15.0;
    p.achieved = (57.0 - 1.959963984540054 * sqrt(57.0)) / 15.0;
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_WITHIN);
    p.achieved = 42.0 / 15.0;
    orch_cap_judge(&t, &p);
    assert_int_equal(p.side, ORCH_CAP_BROKEN);
    assert_string_equal(p.why, "the queue grows: 2.80 of 4.00 offered per second committed "
                               "over 15 s, under 2.81 (95 % less the arrivals' spread)");
}

/* The stand-in drive: at rate r a measured minute of exponential
 * latencies (the n = 60 r quantiles of mean m(r)), m(r) = 1 ms (1 +
 * (r / 800)^4): its p99 is m(r) ln 100 = 4.605 ms (1 + (r/800)^4), 10 ms
 * at r = 800 (10 / 4.60517 - 1)^(1/4) = 832.4. Above 2,000/s it commits
 * 1,800/s: its queue grows. */
static void stand_in(double rate, orch_cap_probe *p)
{
    int64_t n = (int64_t)(60.0 * rate);
    double m = 1000.0 * (1.0 + pow(rate / 800.0, 4.0));
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS);

    for (int64_t i = 0; i < n; i++)
        hist_record(h, (int64_t)llround(-m * log(1.0 - ((double)i + 0.5) / (double)n)));
    memset(p, 0, sizeof *p);
    p->offered = rate;
    p->achieved = rate > 2000.0 ? 1800.0 : rate;
    assert_int_equal(orch_cap_quantile_ci(h, 99.0, &p->q), 0);
    hist_free(h);
}

static void run_search(orch_cap_search *s)
{
    double r;
    orch_cap_probe p;

    while ((r = orch_cap_next(s)) > 0.0) {
        stand_in(r, &p);
        orch_cap_record(s, &p);
    }
}

static void test_search(void **state)
{
    orch_cap_target t;
    orch_cap_search s;
    char err[256];
    /* up by 2 from 100 until 1,600 breaks; then geometric midpoints:
     * sqrt(800 * 1600) = 1131 (p99 23.0 ms), sqrt(800 * 1131) = 951
     * (13.8), 872 (11.1), 835 (p99 10.07 ms, its interval 9.89-10.28 ms:
     * undecided, so not held); 835 - 800 = 35 <= 5 % of 800: done. The
     * true 832.4 lies in [800, 835]. */
    static const double want_rate[] = { 100, 200, 400, 800, 1600, 1131, 951, 872, 835 };
    static const orch_cap_side want_side[] = {
        ORCH_CAP_WITHIN, ORCH_CAP_WITHIN, ORCH_CAP_WITHIN, ORCH_CAP_WITHIN, ORCH_CAP_BROKEN,
        ORCH_CAP_BROKEN, ORCH_CAP_BROKEN, ORCH_CAP_BROKEN, ORCH_CAP_UNDECIDED,
    };

    (void)state;
    assert_int_equal(orch_cap_target_parse("p99 <= 10ms", &t, err, sizeof err), 0);
    assert_int_equal(orch_cap_init(&s, &t, 100.0, 100000.0, 32, err, sizeof err), 0);
    run_search(&s);
    assert_int_equal(s.nprobes, 9);
    for (int i = 0; i < s.nprobes; i++) {
        assert_true(s.probes[i].offered == want_rate[i]);
        assert_int_equal(s.probes[i].side, want_side[i]);
    }
    assert_int_equal(s.state, ORCH_CAP_DONE);
    assert_true(s.held == 800.0 && s.failed == 835.0);
    assert_string_equal(s.probes[3].why, "p99 <= 10 ms held: p99 9.215 ms, 95 % interval up "
                                         "to 9.407 ms");
    assert_string_equal(s.probes[8].why, "p99 <= 10 ms undecided: p99 10.071 ms, 95 % interval "
                                         "9.887-10.279 ms spans the bound; measure longer");
    assert_true(s.held <= 832.4 && 832.4 <= s.failed);
    assert_int_equal(s.breaking, 8);
    assert_string_equal(s.end, "the rate that held and the one that did not are within the "
                               "resolution");

    /* from above: 3,200 breaks by its queue (1,800 of 3,200), then down */
    assert_int_equal(orch_cap_init(&s, &t, 3200.0, 100000.0, 32, err, sizeof err), 0);
    run_search(&s);
    assert_true(s.probes[0].offered == 3200.0 && s.probes[0].side == ORCH_CAP_BROKEN);
    assert_string_equal(s.probes[0].why, "the queue grows: 1800.00 of 3200.00 offered per "
                                         "second committed (under 95 %)");
    assert_true(s.probes[1].offered == 1600.0 && s.probes[2].offered == 800.0);
    assert_int_equal(s.probes[2].side, ORCH_CAP_WITHIN);
    assert_true(s.held <= 832.4 && 832.4 <= s.failed);
    assert_true(s.failed - s.held <= 0.05 * s.held);

    /* the ceiling holds: done at max_rate, the capacity at least that */
    assert_int_equal(orch_cap_init(&s, &t, 100.0, 300.0, 32, err, sizeof err), 0);
    run_search(&s);
    assert_int_equal(s.nprobes, 3);
    assert_true(s.probes[2].offered == 300.0 && s.held == 300.0 && s.failed == 0.0);
    assert_string_equal(s.end, "the highest rate allowed held: the capacity is at least that");

    /* a target nothing meets: down to 1/s, then done without capacity */
    assert_int_equal(orch_cap_target_parse("p99 <= 1ms", &t, err, sizeof err), 0);
    assert_int_equal(orch_cap_init(&s, &t, 4.0, 100.0, 32, err, sizeof err), 0);
    run_search(&s);
    assert_int_equal(s.nprobes, 3);
    assert_true(s.probes[2].offered == 1.0 && s.held == 0.0 && s.failed == 1.0);
    assert_string_equal(s.end, "the lowest rate did not hold: no capacity within the target");

    /* the probe limit */
    assert_int_equal(orch_cap_target_parse("p99 <= 10ms", &t, err, sizeof err), 0);
    assert_int_equal(orch_cap_init(&s, &t, 100.0, 100000.0, 5, err, sizeof err), 0);
    run_search(&s);
    assert_int_equal(s.nprobes, 5);
    assert_true(s.held == 800.0 && s.failed == 1600.0);
    assert_string_equal(s.end, "the probe limit was reached");

    assert_int_equal(orch_cap_init(&s, &t, 0.5, 100.0, 5, err, sizeof err), -1);
    assert_string_equal(err, "capacity search: the start rate must be at least 1, the highest "
                             "rate at least the start, and 1 to 64 probes");
    assert_int_equal(orch_cap_init(&s, &t, 10.0, 100.0, 65, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_target_parse),
        cmocka_unit_test(test_quantile_ci),
        cmocka_unit_test(test_judge),
        cmocka_unit_test(test_judge_poisson),
        cmocka_unit_test(test_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
