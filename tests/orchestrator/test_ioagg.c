/* test_ioagg.c — a drive's I/O from two VMs' database disks: sums per TPS
 * interval, request-weighted latencies (not means of means), a VM without
 * flush counters, a VM restart, a missing sample, the phase totals, host
 * series matching, the flush ratio and repetitions pooled. Expected
 * values by hand and checked with python3 (see each comment). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "telemetry/telemetry.h"

static void near(double a, double b)
{
    assert_true(fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1));
}

#define ALL 0xffu
#define NO_FL 0x3fu     /* rd.* and wr.* only */

static orch_blk_delta mk(double t, double dt, unsigned have, unsigned long long rr,
                         unsigned long long rb, unsigned long long rt, unsigned long long wr,
                         unsigned long long wb, unsigned long long wt, unsigned long long fr,
                         unsigned long long ft)
{
    orch_blk_delta d = { .t = t, .dt = dt, .have = have };
    const unsigned long long v[] = { rr, rb, rt, wr, wb, wt, fr, ft };
    memcpy(d.d, v, sizeof v);
    return d;
}

/* Phase started at t0 = 100, 10 s TPS intervals.
 * VM1 (all counters), intervals ending 110, 120, 130:
 *   rd 1000 req / 4,096,000 B / 1e9 ns; wr 500 / 2,048,000 / 2e9; fl 50 / 5e8
 *   rd 2000 / 8,192,000 / 3e9; nothing else
 *   rd 1000 / 4,096,000 / 1e9; wr 1000 / 4,096,000 / 2e9; fl 100 / 1e9
 * VM2 (no flush counters), ending 110.4, 119.8 (restarted), 130.2, 10.4 s each:
 *   rd 10 / 1,040,000 / 1e8; wr 52 / 520,000 / 5.2e8
 *   reset
 *   rd 104 / 1,040,000 / 2.08e8
 * Interval 1 (t = 10): rd 100 + 10/10.4 = 100.96153846153847 IOPS,
 *   0.4096 + 0.1 = 0.5096 MB/s, (1e9 + 1e8) / 1010 = 1.0891089108910892 ms
 *   (the mean of the VMs' 1 and 10 ms would say 5.5); wr 55 IOPS,
 *   0.2548 MB/s, 2.52e9 / 552 = 4.565217391304348 ms; fl absent (VM2).
 * Interval 2 (t = 20): VM2 missing; VM1 alone: rd 200 IOPS, 1.5 ms; wr 0
 *   IOPS and no latency; fl 0 IOPS, no latency.
 * Interval 3 (t = 30): rd 110 IOPS, 1.208e9 / 1104 = 1.0942028985507246 ms;
 *   wr 100 IOPS, 2 ms.
 * Interval 4 (t = 40): nobody. */

static void fill(orch_blk_delta *a, orch_blk_delta *b)
{
    a[0] = mk(110, 10, ALL, 1000, 4096000, 1000000000, 500, 2048000, 2000000000, 50, 500000000);
    a[1] = mk(120, 10, ALL, 2000, 8192000, 3000000000, 0, 0, 0, 0, 0);
    a[2] = mk(130, 10, ALL, 1000, 4096000, 1000000000, 1000, 4096000, 2000000000, 100,
              1000000000);
    b[0] = mk(110.4, 10.4, NO_FL, 10, 1040000, 100000000, 52, 520000, 520000000, 0, 0);
    b[1] = mk(119.8, 9.4, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    b[1].reset = 1;
    b[2] = mk(130.2, 10.4, NO_FL, 104, 1040000, 208000000, 0, 0, 0, 0, 0);
}

static void test_series(void **state)
{
    (void)state;
    orch_blk_delta a[3], b[3];
    fill(a, b);
    orch_io_vm vms[2] = { { a, 3 }, { b, 3 } };
    orch_io_sum s[4];
    orch_io_drive_series(vms, 2, 100, 10, 4, 0, s);

    assert_true(s[0].t == 10);
    assert_int_equal(s[0].vms, 2);
    assert_int_equal(s[0].missing, 0);
    assert_int_equal(s[0].have, NO_FL);
    assert_true(s[0].d[ORCH_BLK_RD_REQS] == 1010);
    near(s[0].rd_iops, 100.96153846153847);
    near(s[0].rd_mbps, 0.5096);
    near(s[0].rd_lat_ms, 1.0891089108910892);
    near(s[0].wr_iops, 55);
    near(s[0].wr_mbps, 0.2548);
    near(s[0].wr_lat_ms, 4.565217391304348);
    assert_true(isnan(s[0].fl_iops) && isnan(s[0].fl_lat_ms));

    assert_true(s[1].t == 20);
    assert_int_equal(s[1].vms, 1);
    assert_int_equal(s[1].missing, 1);
    assert_int_equal(s[1].have, ALL);
    near(s[1].rd_iops, 200);
    near(s[1].rd_lat_ms, 1.5);
    assert_true(s[1].wr_iops == 0 && isnan(s[1].wr_lat_ms));
    assert_true(s[1].fl_iops == 0 && isnan(s[1].fl_lat_ms));

    near(s[2].rd_iops, 110);
    near(s[2].rd_lat_ms, 1.0942028985507246);
    near(s[2].wr_iops, 100);
    near(s[2].wr_lat_ms, 2);

    assert_true(s[3].t == 40);
    assert_int_equal(s[3].vms, 0);
    assert_int_equal(s[3].missing, 2);
    assert_int_equal(s[3].have, 0);
    assert_true(isnan(s[3].rd_iops) && isnan(s[3].wr_mbps) && isnan(s[3].rd_lat_ms));

    /* a tighter tolerance drops VM2's 110.4 from interval 1 */
    orch_io_drive_series(vms, 2, 100, 10, 1, 0.3, s);
    assert_int_equal(s[0].vms, 1);
    assert_int_equal(s[0].missing, 1);
    assert_int_equal(orch_io_match(b, 3, 120, 5), 1);
    assert_int_equal(orch_io_match(b, 3, 126, 5), 2);
    assert_int_equal(orch_io_match(b, 3, 140, 5), -1);
}

/* The phase: VM1 30 s, VM2 20.8 s (its reset interval left out).
 *   rd 4000/30 + 114/20.8 = 138.81410256410257 IOPS,
 *      (16,384,000/30 + 2,080,000/20.8) / 1e6 = 0.6461333333333333 MB/s,
 *      (5e9 + 3.08e8) / 4114 = 1.2902284880894506 ms
 *   wr 1500/30 + 52/20.8 = 52.5 IOPS, 4.52e9 / 1552 = 2.9123711340206184 ms
 *   fl absent (VM2 has none) */
static void test_total(void **state)
{
    (void)state;
    orch_blk_delta a[3], b[3];
    fill(a, b);
    orch_io_vm vms[3] = { { a, 3 }, { b, 3 }, { NULL, 0 } };
    orch_io_sum t;
    orch_io_drive_total(vms, 3, &t);
    assert_int_equal(t.vms, 2);
    assert_int_equal(t.missing, 1);         /* the third VM has no interval */
    assert_true(t.t == 30);
    assert_int_equal(t.have, NO_FL);
    near(t.rd_iops, 138.81410256410257);
    near(t.rd_mbps, 0.6461333333333333);
    near(t.rd_lat_ms, 1.2902284880894506);
    near(t.wr_iops, 52.5);
    near(t.wr_lat_ms, 2.9123711340206184);
    assert_true(isnan(t.fl_iops) && isnan(t.fl_lat_ms));

    /* VM1 alone has flushes: 150 / 30 s = 5/s, 1.5e9 / 150 = 10 ms */
    orch_io_drive_total(vms, 1, &t);
    near(t.fl_iops, 5);
    near(t.fl_lat_ms, 10);
    orch_io_drive_total(vms + 2, 1, &t);
    assert_int_equal(t.vms, 0);
    assert_true(isnan(t.rd_iops));
}

/* Three repetitions pooled: VM1 alone (every counter), VM2 alone (no
 * flush counters), then nobody (every sample failed). Rates: the mean of
 * the first two, rd (4000 / 30 + 114 / 20.8) / 2 = 69.40705128205128,
 * 0.32306666666666667 MB/s, wr (50 + 2.5) / 2 = 26.25; latencies over
 * every request: rd 5.308e9 / 4114 = 1.2902284880894506 ms (the mean of
 * the repetitions' 1.25 and 2.70 ms would say 1.98), wr 4.52e9 / 1552 =
 * 2.9123711340206184 ms; flushes absent, as repetition 2 lacks them. */
static void test_pool(void **state)
{
    (void)state;
    orch_blk_delta a[3], b[3];
    fill(a, b);
    orch_io_vm one = { a, 3 }, two = { b, 3 }, none = { NULL, 0 };
    orch_io_sum reps[3], p;
    orch_io_drive_total(&one, 1, &reps[0]);
    orch_io_drive_total(&two, 1, &reps[1]);
    orch_io_drive_total(&none, 1, &reps[2]);
    orch_io_drive_pool(reps, 3, &p);
    assert_int_equal(p.vms, 2);
    assert_int_equal(p.missing, 1);
    assert_int_equal(p.have, NO_FL);
    near(p.t, 50.8);
    near(p.rd_iops, 69.40705128205128);
    near(p.rd_mbps, 0.32306666666666667);
    near(p.rd_lat_ms, 1.2902284880894506);
    near(p.wr_iops, 26.25);
    near(p.wr_lat_ms, 2.9123711340206184);
    assert_true(isnan(p.fl_iops) && isnan(p.fl_lat_ms));
    assert_true(p.d[ORCH_BLK_RD_REQS] == 4114);

    /* one repetition is itself */
    orch_io_drive_pool(reps, 1, &p);
    near(p.fl_iops, 5);
    near(p.fl_lat_ms, 10);
    near(p.rd_lat_ms, 1.25);
    /* only the failed one: nothing is known */
    orch_io_drive_pool(reps + 2, 1, &p);
    assert_int_equal(p.vms, 0);
    assert_int_equal(p.missing, 1);
    assert_true(isnan(p.rd_iops) && isnan(p.wr_lat_ms));
}

static void test_flush_ratio_and_host(void **state)
{
    (void)state;
    /* 150 guest flushes, 180 device flushes: the host fs added 30 */
    near(orch_io_flush_ratio(150, 1, 180, 1), 1.2);
    assert_true(orch_io_flush_ratio(150, 1, 0, 1) == 0);   /* write-through drive */
    assert_true(isnan(orch_io_flush_ratio(0, 1, 5, 1)));
    assert_true(isnan(orch_io_flush_ratio(150, 0, 180, 1)));
    assert_true(isnan(orch_io_flush_ratio(150, 1, 180, 0)));

    orch_diskstat_delta h[2] = { { .t = 110.1 }, { .t = 120.2 } };
    assert_int_equal(orch_io_match_host(h, 2, 110, 5), 0);
    assert_int_equal(orch_io_match_host(h, 2, 120, 5), 1);
    assert_int_equal(orch_io_match_host(h, 2, 130, 5), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series),
        cmocka_unit_test(test_total),
        cmocka_unit_test(test_pool),
        cmocka_unit_test(test_flush_ratio_and_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
