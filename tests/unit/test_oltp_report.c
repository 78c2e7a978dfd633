/* Unit tests of oltp's text report (oltp/engine/report.c) for fixed
 * inputs: sysbench 1.0.20's text as `sysbench` (the personality) and as
 * `oltp` (its additions after it), the header's seed line, --verbosity,
 * --percentile=0, sysbench's histogram layout, --report-checkpoints, and
 * the counting: the transactions in flight at the end (the phase's tail)
 * are counted once, so `total number of events` and the per-connection
 * events agree; sysbench's cpu test (its work, its report). The expected texts were checked line by line against
 * Debian's sysbench 1.0.20 (`--mysql-dry-run`). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cpu.h"
#include "engine/engine.h"
#include "engine/report.h"
#include "options/options.h"
#include "oltp_parse.h"
#include "workload_list.h"
#include "version.h"

/* What a report function printed: call it on a memory stream. */
typedef struct capture {
    char  *text;
    size_t len;
    FILE  *f;
} capture;

static FILE *cap_open(capture *c)
{
    memset(c, 0, sizeof *c);
    c->f = open_memstream(&c->text, &c->len);
    assert_non_null(c->f);
    return c->f;
}

static const char *cap_close(capture *c)
{
    fclose(c->f);
    return c->text;
}

/* A run of oltp_read_write with fixed counts: 2 connections; the phase
 * (2 s) holds 3 transactions of 1, 1 and 2 ms, the tail 1 more of 4 ms
 * that ended 0.5 s after the cut; each connection did 2. */
typedef struct fixture {
    oltp_opts  o;
    run_result r;
    conn_fairness conns[2];
    const workload *wl;
} fixture;

static void fixture_init(fixture *x, bool sysbench)
{
    char err[256];
    phase_result *p;

    assert_int_equal(parse(&x->o, "--threads=2 oltp_read_write run", err, sizeof err), 0);
    x->o.sysbench_personality = sysbench;
    x->wl = workload_find("oltp_read_write");
    assert_non_null(x->wl);
    memset(&x->r, 0, sizeof x->r);
    x->r.nphases = 1;
    p = &x->r.phases[0];
    p->phase = RES_PHASE_MEASURE;
    assert_int_equal(stats_init(&p->st, 1), 0);
    assert_int_equal(stats_init(&p->tail, 1), 0);
    p->duration_s = 2.0;
    p->tail_s = 0.5;
    p->has_after_end = true;
    p->after_end.committed = 1;
    p->st.trx = 3;
    p->st.reads = 42;
    p->st.writes = 10;
    p->st.others = 8;
    p->st.errors = 1;
    hist_record(p->st.lat, 1000);
    hist_record(p->st.lat, 1000);
    hist_record(p->st.lat, 2000);
    p->tail.trx = 1;
    p->tail.reads = 14;
    p->tail.writes = 3;
    p->tail.others = 3;
    hist_record(p->tail.lat, 4000);
    x->conns[0] = (conn_fairness){ .trx = 2, .busy_s = 1.5 };
    x->conns[1] = (conn_fairness){ .trx = 2, .busy_s = 2.5 };
    x->r.conns = x->conns;
    x->r.nconns = 2;
}

static void fixture_free(fixture *x)
{
    x->r.conns = NULL;          /* the fixture's own */
    run_result_clear(&x->r);
}

/* sysbench 1.0.20's report for these counts, as `sysbench` prints it */
#define SB_REPORT \
    "SQL statistics:\n" \
    "    queries performed:\n" \
    "        read:                            56\n" \
    "        write:                           13\n" \
    "        other:                           11\n" \
    "        total:                           80\n" \
    "    transactions:                        4      (1.60 per sec.)\n" \
    "    queries:                             80     (32.00 per sec.)\n" \
    "    ignored errors:                      1      (0.40 per sec.)\n" \
    "    reconnects:                          0      (0.00 per sec.)\n" \
    "\n" \
    "General statistics:\n" \
    "    total time:                          2.5000s\n" \
    "    total number of events:              4\n" \
    "\n" \
    "Latency (ms):\n" \
    "         min:                                    1.00\n" \
    "         avg:                                    2.00\n" \
    "         max:                                    4.00\n" \
    "         95th percentile:                        4.00\n" \
    "         sum:                                    8.00\n" \
    "\n"
#define SB_FAIRNESS \
    "Threads fairness:\n" \
    "    events (avg/stddev):           2.0000/0.00\n" \
    "    execution time (avg/stddev):   2.0000/0.50\n" \
    "\n"

static void test_final_sysbench(void **state)
{
    fixture x;
    capture c;
    (void)state;

    fixture_init(&x, true);
    report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL);
    assert_string_equal(cap_close(&c), SB_REPORT SB_FAIRNESS);
    free(c.text);
    fixture_free(&x);
}

/* As `oltp`: the same lines, oltp's additions (queue time) after them */
static void test_final_oltp(void **state)
{
    fixture x;
    capture c;
    (void)state;

    fixture_init(&x, false);
    x.o.rate = 10;
    hist_record(x.r.phases[0].st.queue, 500);
    report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL);
    assert_string_equal(cap_close(&c), SB_REPORT
                        "Queue time (ms), intended start to actual start:\n"
                        "         avg:                                    0.50\n"
                        "         max:                                    0.50\n"
                        "         95th percentile:                        0.50\n"
                        "\n" SB_FAIRNESS);
    free(c.text);
    fixture_free(&x);
}

/* The tail is counted once: events = the phase's + the tail's, and the
 * connections' events (2 + 2) agree with them; the time runs to the end
 * of the last one. Without it (the report before): 3 events beside an
 * average of 2 per connection. */
static void test_final_counts_tail(void **state)
{
    fixture x;
    capture c;
    const char *t;
    (void)state;

    fixture_init(&x, true);
    t = cap_close((report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL), &c));
    assert_non_null(strstr(t, "    total number of events:              4\n"));
    assert_non_null(strstr(t, "    events (avg/stddev):           2.0000/0.00\n"));
    assert_non_null(strstr(t, "    total time:                          2.5000s\n"));
    free(c.text);
    fixture_free(&x);
}

/* sysbench's cpu test: one event's work (the primes up to N) */
static void test_cpu_primes(void **state)
{
    (void)state;
    assert_int_equal(cpu_primes(0), 0);
    assert_int_equal(cpu_primes(1), 0);
    assert_int_equal(cpu_primes(2), 1);
    assert_int_equal(cpu_primes(3), 2);
    assert_int_equal(cpu_primes(4), 2);
    assert_int_equal(cpu_primes(100), 25);
    assert_int_equal(cpu_primes(10000), 1229);
}

/* The cpu test's report for the fixture's events: "CPU speed" where the
 * OLTP workloads say what their statements did, the same general
 * statistics, latency and fairness; its interval line; its header's
 * "Prime numbers limit" (sysbench 1.0.20's `sysbench cpu run`). */
static void test_cpu_report(void **state)
{
    fixture x;
    capture c;
    interval_sample s = { .t = 1, .duration_s = 2, .lat_pct_ms = 1.5 };
    char err[256];
    const char *t;
    (void)state;

    fixture_init(&x, true);
    assert_int_equal(parse_as(&x.o, "sysbench", "--threads=2 --cpu-max-prime=500 cpu run", err, sizeof err), 0);
    assert_int_equal(x.o.cpu_max_prime, 500);
    t = cap_close((report_final(cap_open(&c), &x.o, NULL, &x.r, NULL), &c));
    assert_string_equal(t, "CPU speed:\n"
                           "    events per second:     1.60\n"
                           "\n"
                           "General statistics:\n"
                           "    total time:                          2.5000s\n"
                           "    total number of events:              4\n"
                           "\n"
                           "Latency (ms):\n"
                           "         min:                                    1.00\n"
                           "         avg:                                    2.00\n"
                           "         max:                                    4.00\n"
                           "         95th percentile:                        4.00\n"
                           "         sum:                                    8.00\n"
                           "\n" SB_FAIRNESS);
    free(c.text);
    t = cap_close((report_interval_line(cap_open(&c), &x.o, &x.r.phases[0].st, &s, 1), &c));
    assert_string_equal(t, "[ 1s ] thds: 2 eps: 1.50 lat (ms,95%): 1.50\n");
    free(c.text);
    t = cap_close((report_header(cap_open(&c), &x.o, false), &c));
    assert_string_equal(t, "Running the test with following options:\n"
                           "Number of threads: 2\n"
                           "Initializing random number generator from current time\n\n\n"
                           "Prime numbers limit: 500\n\n"
                           "Initializing worker threads...\n\n");
    free(c.text);
    /* the default, and a limit below 1 refused */
    assert_int_equal(parse_as(&x.o, "sysbench", "cpu run", err, sizeof err), 0);
    assert_int_equal(x.o.cpu_max_prime, 10000);
    assert_int_equal(parse_as(&x.o, "sysbench", "--cpu-max-prime=0 cpu run", err, sizeof err), -1);
    assert_string_equal(err, "FATAL: --cpu-max-prime=0: out of range [1, 2.14748e+09]\n");
    fixture_free(&x);
}

/* --percentile=0: sysbench's "no percentile", in the report and in the
 * interval line; with --histogram it is refused, as sysbench does */
static void test_percentile_zero(void **state)
{
    fixture x;
    capture c;
    interval_sample s = { .t = 1, .duration_s = 1, .lat_pct_ms = 7 };
    char err[256];
    const char *t;
    (void)state;

    fixture_init(&x, true);
    assert_int_equal(parse(&x.o, "--threads=2 --percentile=0 oltp_read_write run", err, sizeof err), 0);
    assert_int_equal(x.o.npercentiles, 0);
    x.o.sysbench_personality = true;
    t = cap_close((report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL), &c));
    assert_non_null(strstr(t, "         max:                                    4.00\n"
                              "         percentile stats:               disabled\n"
                              "         sum:                                    8.00\n"));
    free(c.text);
    t = cap_close((report_interval_line(cap_open(&c), &x.o, &x.r.phases[0].st, &s, 1), &c));
    assert_string_equal(t, "[ 1s ] thds: 2 tps: 3.00 qps: 60.00 (r/w/o: 42.00/10.00/8.00) "
                           "lat (ms,0%): 0.00 err/s: 1.00 reconn/s: 0.00\n");
    free(c.text);
    assert_int_equal(parse(&x.o, "--percentile=0 --histogram=on oltp_read_write run", err, sizeof err), -1);
    assert_string_equal(err, "oltp: --histogram cannot be used with --percentile=0\n");
    fixture_free(&x);
}

/* The lines before the run: oltp's banner says what it is; the seed line
 * says "current time" unless --rand-seed was given */
static void test_header(void **state)
{
    oltp_opts o;
    capture c;
    char err[256], want[512];
    (void)state;

    assert_int_equal(parse(&o, "--threads=4 --report-interval=2 --report-checkpoints=5,10 "
                               "oltp_point_select run", err, sizeof err), 0);
    o.sysbench_personality = true;      /* its banner is main's, printed first */
    assert_string_equal(cap_close((report_header(cap_open(&c), &o, false), &c)),
                        "Running the test with following options:\n"
                        "Number of threads: 4\n"
                        "Report intermediate results every 2 second(s)\n"
                        "Report checkpoint(s) at 5, 10 seconds\n"
                        "Initializing random number generator from current time\n\n\n"
                        "Initializing worker threads...\n\n");
    free(c.text);
    o.sysbench_personality = false;
    o.seed = 42;
    o.ncheckpoints = 0;
    o.report_interval = 0;
    snprintf(want, sizeof want,
             "oltp (drivebench) %s, sysbench-compatible\n\n"
             "Running the test with following options:\n"
             "Number of threads: 4\n"
             "Initializing random number generator from seed (42).\n\n\n"
             "Initializing worker threads...\n\n", DRIVEBENCH_VERSION);
    assert_string_equal(cap_close((report_header(cap_open(&c), &o, true), &c)), want);
    free(c.text);
    o.verbosity = 2;
    assert_string_equal(cap_close((report_header(cap_open(&c), &o, true), &c)), "");
    free(c.text);
}

/* --verbosity: below 3 nothing at all; 4 says why the run ended */
static void test_verbosity(void **state)
{
    fixture x;
    capture c;
    (void)state;

    fixture_init(&x, true);
    x.o.verbosity = 1;
    assert_string_equal(cap_close((report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL), &c)), "");
    free(c.text);
    x.o.verbosity = 4;
    assert_string_equal(cap_close((report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL), &c)),
                        "Time limit exceeded, exiting...\n(last message repeated 1 times)\nDone.\n\n"
                        SB_REPORT SB_FAIRNESS);
    free(c.text);
    x.o.events = 4;
    assert_string_equal(cap_close((report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL), &c)),
                        "Event limit exceeded, exiting...\n(last message repeated 1 times)\nDone.\n\n"
                        SB_REPORT SB_FAIRNESS);
    free(c.text);
    fixture_free(&x);
}

/* sysbench's layout: 1024 buckets, logarithmic from 0.001 to 100000 ms */
static void test_histogram_layout(void **state)
{
    (void)state;
    assert_int_equal(report_sb_bucket(0.001), 0);
    assert_int_equal(report_sb_bucket(0.0001), 0);
    assert_int_equal(report_sb_bucket(100000), 1023);
    assert_int_equal(report_sb_bucket(1e9), 1023);
    assert_int_equal(report_sb_bucket(1.0), 384);
    assert_int_equal(report_sb_bucket(2.0), 422);
    assert_int_equal(report_sb_bucket(0.010), 128);
    assert_true(report_sb_bucket_ms(0) > 0.000999 && report_sb_bucket_ms(0) < 0.001001);
    assert_true(report_sb_bucket_ms(1023) > 99999 && report_sb_bucket_ms(1023) < 100001);
    /* neighbours are 1.8 % apart */
    assert_true(report_sb_bucket_ms(385) / report_sb_bucket_ms(384) > 1.0181);
    assert_true(report_sb_bucket_ms(385) / report_sb_bucket_ms(384) < 1.0182);
}

/* --histogram: the rows of the non-empty buckets, a bar of 40 for the
 * fullest, the others in proportion (rounded); title and closing line
 * are notices, the rows are printed at every --verbosity */
static void test_histogram_rows(void **state)
{
    fixture x;
    capture c;
    hist *h;
    const char *t;
    (void)state;

    fixture_init(&x, true);
    x.o.histogram = true;
    h = x.r.phases[0].st.lat;
    hist_reset(h);
    hist_record_n(h, 1000, 40);
    hist_record_n(h, 2000, 20);
    hist_record_n(h, 10, 1);
    hist_reset(x.r.phases[0].tail.lat);
    x.r.phases[0].tail.trx = 0;
    x.o.verbosity = 0;
    t = cap_close((report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL), &c));
    assert_string_equal(t,
        "       value  ------------- distribution ------------- count\n"
        "       0.010 |*                                        1\n"
        "       1.007 |**************************************** 40\n"
        "       1.996 |********************                     20\n");
    free(c.text);
    x.o.verbosity = 3;
    t = cap_close((report_final(cap_open(&c), &x.o, x.wl, &x.r, NULL), &c));
    {
        const char *top = "Latency histogram (values are in milliseconds)\n"
                          "       value  ------------- distribution ------------- count\n";
        assert_true(strncmp(t, top, strlen(top)) == 0);
    }
    assert_non_null(strstr(t, "       1.996 |********************                     20\n \nSQL statistics:\n"));
    free(c.text);
    fixture_free(&x);
}

/* --report-checkpoints: at the first interval's end at or past each, a
 * full report of the span since the previous one (its rates over the
 * span, the time since the start); the final report holds the rest */
static void test_checkpoints(void **state)
{
    fixture x;
    capture c;
    report_ckpt k;
    stats iv;
    char err[256];
    const char *t;
    (void)state;

    fixture_init(&x, true);
    assert_int_equal(parse(&x.o, "--threads=2 --report-checkpoints=2 oltp_read_write run", err, sizeof err), 0);
    x.o.sysbench_personality = true;
    assert_int_equal(x.o.ncheckpoints, 1);
    assert_int_equal(report_ckpt_init(&k, 1, 2), 0);
    assert_int_equal(stats_init(&iv, 1), 0);
    iv.trx = 5;
    iv.reads = 70;
    hist_record_n(iv.lat, 1000, 5);
    t = cap_close((report_ckpt_interval(cap_open(&c), &x.o, &k, &iv, 1.0), &c));
    assert_string_equal(t, "");
    free(c.text);
    /* the engine's snapshot of the connections (engine_hooks.snap) */
    k.now.conns[0] = (conn_fairness){ .trx = 3, .busy_s = 1.0 };
    k.now.conns[1] = (conn_fairness){ .trx = 7, .busy_s = 1.5 };
    k.now.n = 2;
    t = cap_close((report_ckpt_interval(cap_open(&c), &x.o, &k, &iv, 2.0), &c));
    assert_string_equal(t,
        "[ 2s ] Checkpoint report:\n"
        "SQL statistics:\n"
        "    queries performed:\n"
        "        read:                            140\n"
        "        write:                           0\n"
        "        other:                           0\n"
        "        total:                           140\n"
        "    transactions:                        10     (5.00 per sec.)\n"
        "    queries:                             140    (70.00 per sec.)\n"
        "    ignored errors:                      0      (0.00 per sec.)\n"
        "    reconnects:                          0      (0.00 per sec.)\n"
        "\n"
        "General statistics:\n"
        "    total time:                          2.0000s\n"
        "    total number of events:              10\n"
        "\n"
        "Latency (ms):\n"
        "         min:                                    1.00\n"
        "         avg:                                    1.00\n"
        "         max:                                    1.00\n"
        "         95th percentile:                        1.00\n"
        "         sum:                                   10.00\n"
        "\n"
        "Threads fairness:\n"
        "    events (avg/stddev):           5.0000/2.00\n"
        "    execution time (avg/stddev):   1.2500/0.25\n"
        "\n");
    free(c.text);
    assert_int_equal(k.done, 1);
    /* the last interval (2 s to 3 s, the run's end at 2 s + tail): the
     * final report has it and the tail, its rates over 0.5 s */
    t = cap_close((report_ckpt_interval(cap_open(&c), &x.o, &k, &iv, 3.0), &c));
    assert_string_equal(t, "");
    free(c.text);
    x.conns[0] = (conn_fairness){ .trx = 6, .busy_s = 2.0 };
    x.conns[1] = (conn_fairness){ .trx = 8, .busy_s = 2.5 };
    t = cap_close((report_final(cap_open(&c), &x.o, x.wl, &x.r, &k), &c));
    assert_non_null(strstr(t, "    transactions:                        6      (12.00 per sec.)\n"));
    /* the connections since the checkpoint: 3 and 1 events, 1 s each */
    assert_non_null(strstr(t, "    events (avg/stddev):           2.0000/1.00\n"
                              "    execution time (avg/stddev):   1.0000/0.00\n"));
    assert_non_null(strstr(t, "    total time:                          2.5000s\n"));
    free(c.text);
    stats_clear(&iv);
    report_ckpt_clear(&k);
    fixture_free(&x);
}

static void test_checkpoint_options(void **state)
{
    oltp_opts o;
    char err[256];
    (void)state;

    assert_int_equal(parse(&o, "--report-checkpoints=1,2,10 oltp_read_write run", err, sizeof err), 0);
    assert_int_equal(o.ncheckpoints, 3);
    assert_true(o.checkpoints[0] == 1 && o.checkpoints[1] == 2 && o.checkpoints[2] == 10);
    assert_int_equal(parse(&o, "oltp_read_write run", err, sizeof err), 0);
    assert_int_equal(o.ncheckpoints, 0);
    assert_int_equal(o.verbosity, 3);
    assert_false(o.sysbench_personality);
    assert_int_equal(parse(&o, "--report-checkpoints=2,1 oltp_read_write run", err, sizeof err), -1);
    assert_string_equal(err, "oltp: --report-checkpoints=2,1: expected up to 64 ascending numbers of "
                             "seconds above 0, comma-separated\n");
    assert_int_equal(parse(&o, "--report-checkpoints=x oltp_read_write run", err, sizeof err), -1);
    assert_int_equal(parse(&o, "--report-checkpoints=0 oltp_read_write run", err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_final_sysbench),
        cmocka_unit_test(test_final_oltp),
        cmocka_unit_test(test_final_counts_tail),
        cmocka_unit_test(test_percentile_zero),
        cmocka_unit_test(test_cpu_primes),
        cmocka_unit_test(test_cpu_report),
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_verbosity),
        cmocka_unit_test(test_histogram_layout),
        cmocka_unit_test(test_histogram_rows),
        cmocka_unit_test(test_checkpoints),
        cmocka_unit_test(test_checkpoint_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
