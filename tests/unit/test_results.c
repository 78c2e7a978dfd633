/* The result formats (common/results.c): documents written and read back
 * with exact values, the reader's refusals with their messages, CSV
 * quoting and number text. Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results_server.h"
#include "results_summary.h"
#include "results_json.h"
#include "results_io.h"

/* summary.csv's drive I/O columns (results_drive_io.c), empty without I/O */
#include "csv_io_head.h"
#define CSV_IO_EMPTY ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"

#define REAL_RESULT "results/fixtures/report-4vm/vm/drivebench-report-4vm--nvme-a-vm1.r1.json"

static char scratch[] = "/tmp/test-results-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf %s", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

static char *path_in(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", scratch, name);
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static hist *hist_of(const int64_t *values, int n)
{
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS);
    assert_non_null(h);
    for (int i = 0; i < n; i++)
        hist_record(h, values[i]);
    return h;
}

static void assert_hist_equal(const hist *a, const hist *b)
{
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->highest, b->highest);
    assert_int_equal(a->sig_digits, b->sig_digits);
    assert_int_equal(a->total, b->total);
    assert_int_equal(a->min, b->min);
    assert_int_equal(a->max, b->max);
    assert_true(a->sum == b->sum);
    assert_int_equal(a->counts_len, b->counts_len);
    assert_memory_equal(a->counts, b->counts, sizeof *a->counts * (size_t)a->counts_len);
}

static void assert_latency_equal(const res_latency *a, const res_latency *b)
{
    assert_true(a->avg == b->avg);
    assert_true(a->min == b->min);
    assert_true(a->max == b->max);
    assert_int_equal(a->npct, b->npct);
    for (int i = 0; i < a->npct; i++) {
        assert_true(a->pct[i].pct == b->pct[i].pct);
        assert_true(a->pct[i].ms == b->pct[i].ms);
    }
}

/* A TPC-C-like document with every section: two phases, --rate queue
 * figures, intervals, histograms, transaction types and the tpcc
 * figures. Values with no short decimal form (1/3) test exactness. */
static void make_doc(res_oltp *r)
{
    static const int64_t lat[] = { 812, 815, 815, 815, 40211, 1999, 2001, 123456 };
    static const int64_t no[] = { 5000, 5001, 9999 }, pay[] = { 100, 200 };
    res_phase *p;
    memset(r, 0, sizeof *r);
    r->tool_name = strdup("oltp");
    r->tool_version = strdup("0.9.0");
    r->workload = strdup("tpcc");
    r->driver = strdup("mysql");
    r->started_at = strdup("2026-11-30T04:31:13Z");
    r->server_version = strdup("10.11.6-MariaDB");
    r->options = json_tokener_parse("{\"threads\":4,\"percentiles\":[99.9],\"rate\":50}");
    p = res_oltp_add_phase(r);
    p->phase = RES_PHASE_WARMUP;
    p->duration_s = 2;
    p->histogram = hist_of(lat, 2);
    p = res_oltp_add_phase(r);
    p->phase = RES_PHASE_MEASURE;
    p->duration_s = 10.000123;
    p->transactions = 1234;
    p->reads = 10;
    p->writes = 20;
    p->others = 30;
    p->total = 60;
    p->tps = 1.0 / 3.0;
    p->qps = 2.0 / 3.0;
    p->errors = 3;
    p->reconnects = 1;
    p->rollbacks = 2;
    p->latency = (res_latency){ .avg = 0.1, .min = 0.812, .max = 123.456 };
    res_latency_add_pct(&p->latency, 50, 0.815);
    res_latency_add_pct(&p->latency, 99.9, 123.456);
    p->has_queue = true;
    p->queue = (res_latency){ .avg = 0.25, .min = 0, .max = 7 };
    res_latency_add_pct(&p->queue, 99, 6.5);
    p->iv_pct = 99.9;
    p->nintervals = 2;
    p->intervals = calloc(2, sizeof *p->intervals);
    p->intervals[0] = (res_interval){ 1, 9, 27, 0, 0, 1.5, 3.25, 4, 1, NULL };
    /* a stalled tick: 3 s long, with its sparse histogram */
    p->intervals[1] = (res_interval){ 4, 1.0 / 7.0, 3, 0.5, 1, 2.5, 9.125, 0, 3, NULL };
    {
        hist *h = hist_of(lat, 8);
        p->intervals[1].histogram = hist_sparse_of(h, RES_IV_HIST_DIGITS);
        hist_free(h);
    }
    p->unserved = 17;
    p->has_after_end = true;
    p->after_end = (res_after_end){ .committed = 4, .rolled_back = 1, .errors = 2, .abandoned = 3 };
    p->interval_s = 1;
    p->start_s = 0.25;
    p->histogram = hist_of(lat, 8);
    p->ntypes = 2;
    p->types = calloc(2, sizeof *p->types);
    p->types[0] = (res_txn_type){ .name = strdup("New-Order"), .count = 3, .share = 0.6,
                                  .rollbacks = 1, .retries = 2, .histogram = hist_of(no, 3) };
    res_latency_add_pct(&p->types[0].latency, 90, 9.999);
    p->types[1] = (res_txn_type){ .name = strdup("Payment"), .count = 2, .share = 0.4,
                                  .histogram = hist_of(pay, 2) };
    p->tpcc = calloc(1, sizeof *p->tpcc);
    p->tpcc->tpm_name = strdup("tpmC");
    p->tpcc->tpm = 18.000001;
    p->tpcc->tps = 0.5;
    p->tpcc->nlimits = 1;
    p->tpcc->limits = calloc(1, sizeof *p->tpcc->limits);
    p->tpcc->limits[0] = (res_tpcc_limit){ strdup("New-Order"), 9.999, 5000, true, 0.6, 0,
                                           true };
    p->tpcc->all_limits_met = false;
}

static void test_oltp_round_trip(void **state)
{
    res_oltp a, b;
    char err[512] = "";
    const res_phase *pa, *pb;
    (void)state;
    make_doc(&a);
    assert_int_equal(res_oltp_write_file(&a, path_in("r.json"), err, sizeof err), 0);
    assert_int_equal(res_oltp_read_file(path_in("r.json"), &b, err, sizeof err), 0);
    assert_string_equal(b.tool_name, "oltp");
    assert_string_equal(b.tool_version, "0.9.0");
    assert_string_equal(b.workload, "tpcc");
    assert_string_equal(b.driver, "mysql");
    assert_string_equal(b.started_at, "2026-11-30T04:31:13Z");
    assert_string_equal(b.server_version, "10.11.6-MariaDB");
    assert_true(json_object_equal(a.options, b.options));
    assert_int_equal(b.nphases, 2);
    assert_int_equal(b.phases[0].phase, RES_PHASE_WARMUP);
    assert_string_equal(res_phase_name(b.phases[0].phase), "warmup");
    assert_hist_equal(a.phases[0].histogram, b.phases[0].histogram);
    pa = res_oltp_measure(&a);
    pb = res_oltp_measure(&b);
    assert_ptr_equal(pb, &b.phases[1]);
    assert_true(pa->duration_s == pb->duration_s);
    assert_int_equal(pb->transactions, 1234);
    assert_int_equal(pb->reads, 10);
    assert_int_equal(pb->writes, 20);
    assert_int_equal(pb->others, 30);
    assert_int_equal(pb->total, 60);
    assert_true(pb->tps == 1.0 / 3.0);
    assert_true(pb->qps == 2.0 / 3.0);
    assert_int_equal(pb->errors, 3);
    assert_int_equal(pb->reconnects, 1);
    assert_int_equal(pb->rollbacks, 2);
    assert_latency_equal(&pa->latency, &pb->latency);
    assert_true(res_latency_pct(&pb->latency, 99.9) == 123.456);
    assert_true(pb->has_queue);
    assert_latency_equal(&pa->queue, &pb->queue);
    assert_true(pb->iv_pct == 99.9);
    assert_int_equal(pb->nintervals, 2);
    for (int i = 0; i < 2; i++) {
        const res_interval *x = &pa->intervals[i], *y = &pb->intervals[i];
        assert_true(x->t == y->t && x->tps == y->tps && x->qps == y->qps);
        assert_true(x->errors_ps == y->errors_ps && x->reconnects_ps == y->reconnects_ps);
        assert_true(x->lat_avg_ms == y->lat_avg_ms && x->lat_pct_ms == y->lat_pct_ms);
        assert_int_equal(x->queue_length, y->queue_length);
        assert_true(x->duration_s == y->duration_s);
    }
    assert_null(pb->intervals[0].histogram);
    /* 812 815 815 815 1999 2001 40211 123456 at 2 digits (256
     * sub-buckets): width 4 in 512..1023 (812, 815 -> 812), 8 in
     * 1024..2047 (1999 -> 1992, 2001 -> 2000), 256 in 32768..65535
     * (40211 -> 40192), 512 in 65536..131071 (123456 -> 123392) */
    {
        const hist_sparse *s = pb->intervals[1].histogram;
        static const int64_t v[] = { 812, 1992, 2000, 40192, 123392 }, c[] = { 4, 1, 1, 1, 1 };
        assert_non_null(s);
        assert_int_equal(s->sig_digits, 2);
        assert_int_equal(s->total, 8);
        assert_int_equal(s->min, 812);
        assert_int_equal(s->max, 123456);
        assert_int_equal(s->n, 5);
        assert_memory_equal(s->value, v, sizeof v);
        assert_memory_equal(s->count, c, sizeof c);
    }
    assert_true(res_interval_start(pb, 1) == 1);
    assert_int_equal(pb->unserved, 17);
    assert_true(pb->has_after_end);
    assert_int_equal(pb->after_end.committed, 4);
    assert_int_equal(pb->after_end.rolled_back, 1);
    assert_int_equal(pb->after_end.errors, 2);
    assert_int_equal(pb->after_end.abandoned, 3);
    assert_false(b.phases[0].has_after_end);
    assert_true(pb->interval_s == 1 && pb->start_s == 0.25);
    assert_hist_equal(pa->histogram, pb->histogram);
    assert_int_equal(pb->ntypes, 2);
    for (int t = 0; t < 2; t++) {
        assert_string_equal(pa->types[t].name, pb->types[t].name);
        assert_int_equal(pa->types[t].count, pb->types[t].count);
        assert_true(pa->types[t].share == pb->types[t].share);
        assert_int_equal(pa->types[t].rollbacks, pb->types[t].rollbacks);
        assert_int_equal(pa->types[t].retries, pb->types[t].retries);
        assert_latency_equal(&pa->types[t].latency, &pb->types[t].latency);
        assert_hist_equal(pa->types[t].histogram, pb->types[t].histogram);
    }
    assert_non_null(pb->tpcc);
    assert_string_equal(pb->tpcc->tpm_name, "tpmC");
    assert_true(pb->tpcc->tpm == 18.000001);
    assert_true(pb->tpcc->tps == 0.5);
    assert_int_equal(pb->tpcc->nlimits, 1);
    assert_string_equal(pb->tpcc->limits[0].name, "New-Order");
    assert_true(pb->tpcc->limits[0].p90_ms == 9.999);
    assert_true(pb->tpcc->limits[0].p90_limit_ms == 5000);
    assert_true(pb->tpcc->limits[0].p90_met);
    assert_true(pb->tpcc->limits[0].share == 0.6);
    assert_true(pb->tpcc->limits[0].min_share == 0);
    assert_true(pb->tpcc->limits[0].share_met);
    assert_false(pb->tpcc->all_limits_met);
    res_oltp_clear(&a);
    res_oltp_clear(&b);
    res_oltp_clear(NULL);
}

/* A real oltp result read and written again is the same JSON: the model
 * keeps every key of drivebench.oltp/1. It was written before "ended":
 * read as complete, it is written back with "ended": "complete" and no
 * "ended_reason", and as drivebench.oltp/2.1 (its interval histograms, had
 * it any, with their buckets as one string). */
static void test_oltp_real_result_unchanged(void **state)
{
    res_oltp r;
    char err[512] = "";
    json_object *orig, *again;
    (void)state;
    assert_int_equal(res_oltp_read_file(REAL_RESULT, &r, err, sizeof err), 0);
    assert_int_equal(res_oltp_write_file(&r, path_in("again.json"), err, sizeof err), 0);
    orig = json_object_from_file(REAL_RESULT);
    again = json_object_from_file(path_in("again.json"));
    assert_non_null(orig);
    assert_non_null(again);
    assert_int_equal(r.ended, RES_END_COMPLETE);
    assert_null(r.end_reason);
    assert_false(json_object_object_get_ex(orig, "ended", NULL));
    assert_false(json_object_object_get_ex(again, "ended_reason", NULL));
    json_object_object_add(orig, "ended", json_object_new_string("complete"));
    assert_string_equal(json_object_get_string(json_object_object_get(orig, "schema")),
                        "drivebench.oltp/1");
    json_object_object_add(orig, "schema", json_object_new_string("drivebench.oltp/2.1"));
    assert_true(json_object_equal(orig, again));
    json_object_put(orig);
    json_object_put(again);
    res_oltp_clear(&r);
}

/* "ended": a stopped run's result says so and why, read back the same; a
 * name this reader does not know reads as an error (never complete, so
 * never a measurement). */
static void test_oltp_ended(void **state)
{
    res_oltp r, back;
    char err[512] = "";
    json_object *doc;
    (void)state;
    assert_int_equal(res_oltp_read_file(REAL_RESULT, &r, err, sizeof err), 0);
    r.ended = RES_END_SIGNAL;
    r.end_reason = strdup("SIGTERM");
    assert_int_equal(res_oltp_write_file(&r, path_in("ended.json"), err, sizeof err), 0);
    doc = json_object_from_file(path_in("ended.json"));
    assert_string_equal(json_object_get_string(json_object_object_get(doc, "ended")), "signal");
    assert_string_equal(json_object_get_string(json_object_object_get(doc, "ended_reason")),
                        "SIGTERM");
    assert_int_equal(res_oltp_read_file(path_in("ended.json"), &back, err, sizeof err), 0);
    assert_int_equal(back.ended, RES_END_SIGNAL);
    assert_string_equal(back.end_reason, "SIGTERM");
    res_oltp_clear(&back);
    json_object_object_add(doc, "ended", json_object_new_string("paused"));
    assert_int_equal(json_object_to_file(path_in("ended.json"), doc), 0);
    assert_int_equal(res_oltp_read_file(path_in("ended.json"), &back, err, sizeof err), 0);
    assert_int_equal(back.ended, RES_END_ERROR);
    assert_string_equal(res_end_name(back.ended), "error");
    res_oltp_clear(&back);
    json_object_put(doc);
    res_oltp_clear(&r);
}

static void test_oltp_refusals(void **state)
{
    static const struct { const char *json, *msg; } cases[] = {
        { "{\"schema\":\"drivebench.oltp/3\",\"phases\":[]}", "not a drivebench.oltp/2 result" },
        { "{\"schema\":\"drivebench.oltp/10\",\"phases\":[]}", "not a drivebench.oltp/2 result" },
        { "{\"schema\":\"drivebench.summary/1\"}", "not a drivebench.oltp/2 result" },
        { "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":\"warmup\",\"tps\":1}]}",
          "no \"measure\" phase" },
        { "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":\"measure\",\"tps\":\"x\"}]}",
          "measure phase has no numeric tps" },
        { "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":\"measure\",\"tps\":1}]}",
          "measure phase has no histogram" },
    };
    char err[512], want[600];
    res_oltp r;
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text(path_in("bad.json"), cases[i].json);
        assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s: %s", path_in("bad.json"), cases[i].msg);
        assert_string_equal(err, want);
        assert_int_equal(r.nphases, 0);
    }
    /* a newer minor of the same major is read */
    write_text(path_in("minor.json"), "{\"schema\":\"drivebench.oltp/1.3\",\"new_key\":[1],"
               "\"phases\":[{\"name\":\"measure\",\"duration_s\":1,\"tps\":2.5,\"histogram\":{"
               "\"significant_digits\":3,\"highest_trackable\":1000000,\"count\":1,"
               "\"min\":7,\"max\":7,\"sum\":7,\"buckets\":[[7,1]]}}]}");
    assert_int_equal(res_oltp_read_file(path_in("minor.json"), &r, err, sizeof err), 0);
    assert_true(res_oltp_measure(&r)->tps == 2.5);
    assert_int_equal(res_oltp_measure(&r)->histogram->max, 7);
    res_oltp_clear(&r);
    /* malformed JSON: one line with json-c's reason */
    write_text(path_in("bad.json"), "{\"schema\":");
    assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: cannot read result JSON: ", path_in("bad.json"));
    assert_memory_equal(err, want, strlen(want));
    assert_null(strchr(err, '\n'));
}

/* A measure phase around `extra` (members put before its histogram) and
 * `hist` (the histogram's members), as a document in bad.json. */
static void write_phase(const char *extra, const char *hist_members)
{
    char *doc = NULL;
    assert_true(asprintf(&doc, "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":"
                         "\"measure\",\"duration_s\":1,\"tps\":2.5,%s\"histogram\":{%s}}]}",
                         extra, hist_members) > 0);
    write_text(path_in("bad.json"), doc);
    free(doc);
}

#define HIST_OK "\"significant_digits\":3,\"highest_trackable\":1000000,\"count\":1," \
                "\"min\":7,\"max\":7,\"sum\":7,\"buckets\":[[7,1]]"

#define IV_HIST_ONE "\"significant_digits\":2,\"highest_trackable\":1000000,\"count\":1," \
                    "\"min\":7,\"max\":7,\"sum\":7,\"buckets\":[[7,1]]"

/* `n` copies of `item` joined by commas (caller frees). */
static char *repeat(const char *item, int n)
{
    size_t len = strlen(item) + 1;
    char *s = malloc(len * (size_t)n + 1), *p = s;
    assert_non_null(s);
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s%s", i ? "," : "", item);
    return s;
}

/* issue 42: a measured phase's transactions against its histograms'
 * counts (res_phase_counts_agree), exact messages. */
static void test_phase_counts_agree(void **state)
{
    static const struct { const char *extra, *msg; } cases[] = {
        { "\"transactions\":1,", NULL },
        { "\"transactions\":2,",
          "measure: transactions is 2, its histogram holds 1 (count): they must agree" },
        { "\"transactions\":1,\"intervals\":[{\"t\":1,\"histogram\":{" IV_HIST_ONE "}},"
          "{\"t\":2,\"histogram\":{" IV_HIST_ONE "}}],",
          "measure: transactions is 1, its intervals' histograms hold 2: they must agree" },
        { "\"transactions\":1,\"intervals\":[{\"t\":1,\"histogram\":{" IV_HIST_ONE "}},"
          "{\"t\":2}],", NULL },
    };
    char err[512];
    res_oltp r;
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_phase(cases[i].extra, HIST_OK);
        assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), 0);
        *err = '\0';
        assert_int_equal(res_phase_counts_agree(res_oltp_measure(&r), err, sizeof err),
                         cases[i].msg ? -1 : 0);
        assert_string_equal(err, cases[i].msg ? cases[i].msg : "");
        res_oltp_clear(&r);
    }
}

/* Results from a guest are untrusted: every hostile or broken document is
 * refused with one line naming the file, the phase and the key. */
static void test_oltp_untrusted(void **state)
{
    static const struct { const char *extra, *hist, *msg; } cases[] = {
        { "\"transactions\":-5,", HIST_OK,
          "measure: transactions: -5 (a count cannot be negative)" },
        { "\"errors\":-1,", HIST_OK, "measure: errors: -1 (a count cannot be negative)" },
        { "\"after_end\":{\"committed\":2,\"abandoned\":-1},", HIST_OK,
          "measure: after_end.abandoned: -1 (a count cannot be negative)" },
        { "\"qps\":1e999,", HIST_OK, "measure: qps: inf (not a finite number >= 0)" },
        { "\"latency_ms\":{\"p99\":-1e999},", HIST_OK,
          "measure: latency_ms.p99: -inf (not a finite number >= 0)" },
        { "\"duration_s\":0,", HIST_OK,
          "measure: duration_s is 0; a measured phase lasts more than 0 s" },
        { "\"intervals\":[{\"t\":1},{\"t\":2},{\"t\":1.5}],", HIST_OK,
          "measure: intervals[2].t is 1.5, before intervals[1].t (2)" },
        /* issue 42: a refused interval by its index */
        { "\"intervals\":[{\"t\":1,\"tps\":2},{\"t\":2,\"tps\":1e999}],", HIST_OK,
          "measure: intervals[1].tps: inf (not a finite number >= 0)" },
        { "\"transaction_types\":[{\"name\":\"New-Order\",\"count\":-3}],", HIST_OK,
          "measure: transaction_types[0].count: -3 (a count cannot be negative)" },
        { "", "\"significant_digits\":3,\"highest_trackable\":1000000,\"count\":2,"
              "\"min\":7,\"max\":7,\"sum\":7,\"buckets\":[[7,1]]",
          "measure: histogram: histogram count 2 does not match its buckets (1)" },
        { "", "\"significant_digits\":3,\"highest_trackable\":1000000,\"count\":1,"
              "\"min\":7,\"max\":7,\"sum\":7,\"buckets\":[[2000000,1]]",
          "measure: histogram: histogram bucket 0 out of range or order" },
        { "", "\"significant_digits\":3,\"highest_trackable\":1000000,\"count\":1,"
              "\"min\":7,\"max\":2000000,\"sum\":7,\"buckets\":[[7,1]]",
          "measure: histogram: min 7, max 2000000 or sum 7 outside 0..highest_trackable" },
        { "", "\"significant_digits\":3,\"highest_trackable\":1000000,\"count\":-2,"
              "\"min\":7,\"max\":7,\"sum\":7,\"buckets\":[[7,9223372036854775807],"
              "[8,9223372036854775807]]",
          "measure: histogram: bucket counts overflow" },
        { "", "\"significant_digits\":5,\"highest_trackable\":9223372036854775807,"
              "\"count\":1,\"min\":7,\"max\":7,\"sum\":7,\"buckets\":[[7,1]]",
          "measure: histogram: significant_digits 5 or highest_trackable 9223372036854775807 "
          "above the bounds (4, 86400000000)" },
    };
    char err[512], want[700], *list, *members;
    res_oltp r;
    FILE *f;
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_phase(cases[i].extra, cases[i].hist);
        assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s: %s", path_in("bad.json"), cases[i].msg);
        assert_string_equal(err, want);
        assert_int_equal(r.nphases, 0);
    }
    /* arrays above their bounds */
    list = repeat("{\"t\":1}", RES_MAX_INTERVALS + 1);
    assert_true(asprintf(&members, "\"intervals\":[%s],", list) > 0);
    write_phase(members, HIST_OK);
    free(list);
    free(members);
    assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: measure: 604801 intervals, more than 604800",
             path_in("bad.json"));
    assert_string_equal(err, want);
    list = repeat("{}", RES_MAX_TYPES + 1);
    assert_true(asprintf(&members, "\"transaction_types\":[%s],", list) > 0);
    write_phase(members, HIST_OK);
    free(list);
    free(members);
    assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: measure: 17 transaction_types, more than 16",
             path_in("bad.json"));
    assert_string_equal(err, want);
    list = repeat("[7,1]", RES_MAX_BUCKETS + 1);
    assert_true(asprintf(&members, "\"significant_digits\":3,\"highest_trackable\":1000000,"
                         "\"count\":100001,\"min\":7,\"max\":7,\"sum\":700007,"
                         "\"buckets\":[%s]", list) > 0);
    write_phase("", members);
    free(list);
    free(members);
    assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: measure: histogram: 100001 buckets, more than 100000",
             path_in("bad.json"));
    assert_string_equal(err, want);
    /* the file: too big (refused before reading), truncated, trailing text;
     * NaN, which json-c reads even when strict */
    f = fopen(path_in("big.json"), "w");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), RES_MAX_FILE_BYTES + 1), 0);
    fclose(f);
    assert_int_equal(res_oltp_read_file(path_in("big.json"), &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: cannot read result JSON: file is 67108865 bytes, above "
             "the 64 MiB a result may hold", path_in("big.json"));
    assert_string_equal(err, want);
    write_text(path_in("bad.json"), "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{");
    assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: cannot read result JSON: truncated JSON (ends inside a "
             "value after 41 bytes)", path_in("bad.json"));
    assert_string_equal(err, want);
    write_text(path_in("bad.json"), "{\"schema\":\"drivebench.oltp/1\"} {}");
    assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: cannot read result JSON: not JSON: unexpected "
             "character at byte 31", path_in("bad.json"));
    assert_string_equal(err, want);
    write_phase("\"qps\":NaN,", HIST_OK);
    assert_int_equal(res_oltp_read_file(path_in("bad.json"), &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: measure: qps: nan (not a finite number >= 0)",
             path_in("bad.json"));
    assert_string_equal(err, want);
}

/* A summary with two drives, one of them without results. */
static void make_summary(res_summary *s)
{
    memset(s, 0, sizeof *s);
    res_plan_init(&s->plan);
    res_env_init(&s->env);
    s->run_id = strdup("r-1");
    s->started_at = strdup("2026-11-30T04:31:13Z");
    s->plan_file = strdup("plan.ini");
    s->plan.name = strdup("quick");
    s->plan.vms_per_drive = 2;
    s->plan.client_path = strdup(RES_PATH_USER_HOSTFWD);
    s->plan.cv_threshold = 7.5;
    s->plan.workload = strdup("oltp_read_write");
    s->plan.table_size = 10000;
    s->env.hostname = strdup("host");
    s->env.memory_bytes = 25276510208;
    s->env.nhypervisors = 1;
    s->env.hypervisors = calloc(1, sizeof *s->env.hypervisors);
    s->env.hypervisors[0].uri = strdup("test:///default");
    s->repetitions = 1;
    s->ndrives = 2;
    s->drives = calloc(2, sizeof *s->drives);
    s->drives[0].name = strdup("a,\"b\"");
    s->drives[0].f = (res_figures){ 2, 22.5, 200, 1.03, 1.5, 2.2505, 0, NULL, 2, 1, 11.25, { RES_UNSET, RES_UNSET }, { RES_UNSET, RES_UNSET } };
    s->drives[0].nreps = 1;
    s->drives[0].reps = calloc(1, sizeof *s->drives[0].reps);
    s->drives[0].reps[0] = (res_repetition){ 1, { 2, 22.5, 200, 1.03, 1.5, 2.2505, 0, NULL, 2, 1, 11.25, { RES_UNSET, RES_UNSET }, { RES_UNSET, RES_UNSET } } };
    /* database sizes: both after load, the data only at the end */
    s->drives[0].f.db_loaded = s->drives[0].reps[0].f.db_loaded = (res_db_size){ 123456789, 67108864 };
    s->drives[0].f.db_end = s->drives[0].reps[0].f.db_end = (res_db_size){ 123999999, RES_UNSET };
    s->plan.expect_database_bytes = 100000000;
    s->drives[1].name = strdup("empty");
    s->drives[0].restore = (res_restore){ 4294967296, 2.5 };
    s->nvms = 1;
    s->vms = calloc(1, sizeof *s->vms);
    s->vms[0] = (res_vm){ .name = strdup("vm1"), .drive = strdup("a,\"b\""), .repetition = 1,
                          .result = strdup("vm/vm1.r1.json"), .measured = true, .tps = 10.0000004,
                          .transactions = 100, .lat_avg_ms = 1.06, .lat_p99_ms = 3.001,
                          .server_version = strdup("10.11.6"), .errors = 4, .reconnects = 0,
                          .npoints = 2, .db_loaded = { 123456789, 67108864 },
                          .db_end = { 123999999, RES_UNSET }, .db_deviation_pct = 23.456789,
                          .db_size_warning = true };
    s->vms[0].series = calloc(2, sizeof *s->vms[0].series);
    s->vms[0].series[0] = (res_point){ 1, 9 };
    s->vms[0].series[1] = (res_point){ 2, 11.25 };
    s->run = (res_figures){ 2, 22.5, 200, 1.03, 1.5, 2.2505, 0, NULL, 2, 1, 11.25, { RES_UNSET, RES_UNSET }, { RES_UNSET, RES_UNSET } };
    s->run_drives = 2;
}

/* A VM's (or drive's) I/O with n rows of every series: database disk
 * rates (t = i + 1, rd_iops = 10 i), boot disk, per transaction (tps =
 * 100 + i) and p-latency (ms = 2 + i). */
static res_io *make_io(int n)
{
    res_io *io = res_io_new();
    assert_non_null(io);
    io->db = res_io_rates_new(false, n);
    io->boot = res_io_rates_new(false, n);
    io->txn = calloc(1, sizeof *io->txn);
    io->p_series = calloc((size_t)n, sizeof *io->p_series);
    assert_true(io->db && io->boot && io->txn && io->p_series);
    io->db->total.t = n;
    io->db->total.v[RES_IOV_rd_iops] = 55;
    io->txn->txns = 1234;
    io->txn->new_orders = RES_UNSET;
    io->txn->series = calloc((size_t)n, sizeof *io->txn->series);
    assert_non_null(io->txn->series);
    io->txn->nseries = n;
    io->p_pct = 99;
    io->np = n;
    io->cpu_s_per_1000_txn = 0.5;
    for (int i = 0; i < n; i++) {
        io->db->series[i].t = io->boot->series[i].t = i + 1;
        io->db->series[i].v[RES_IOV_rd_iops] = 10.0 * i;
        io->boot->series[i].v[RES_IOV_wr_iops] = 1;
        io->txn->series[i] = (res_io_txn_row){ .t = i + 1, .tps = 100 + i };
        io->p_series[i] = (res_point){ i + 1, 2 + i };
    }
    return io;
}

/* The report's read (issue 33): a VM's 1-s rows left out, its figures,
 * its tps_series and the drives' rows as the whole read has them. */
static void test_summary_figures(void **state)
{
    res_summary a, w, f;
    char err[512] = "", path[300];
    (void)state;
    make_summary(&a);
    a.vms[0].io = make_io(3);
    a.drives[0].io = make_io(4);
    assert_int_equal(res_summary_write_files(&a, scratch, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/summary.json", scratch);
    assert_int_equal(res_summary_read_file(path, &w, err, sizeof err), 0);
    assert_int_equal(res_summary_read_figures(path, &f, err, sizeof err), 0);
    /* the whole read: every row */
    assert_int_equal(w.vms[0].io->db->nseries, 3);
    assert_int_equal(w.vms[0].io->boot->nseries, 3);
    assert_int_equal(w.vms[0].io->txn->nseries, 3);
    assert_int_equal(w.vms[0].io->np, 3);
    assert_true(w.vms[0].io->db->series[2].v[RES_IOV_rd_iops] == 20);
    /* the report's: the VM's rows none, its figures the same */
    assert_int_equal(f.nvms, 1);
    assert_non_null(f.vms[0].io);
    assert_int_equal(f.vms[0].io->db->nseries, 0);
    assert_null(f.vms[0].io->db->series);
    assert_int_equal(f.vms[0].io->boot->nseries, 0);
    assert_int_equal(f.vms[0].io->txn->nseries, 0);
    assert_int_equal(f.vms[0].io->np, 0);
    assert_null(f.vms[0].io->guest);
    assert_true(f.vms[0].io->db->total.t == 3);
    assert_true(f.vms[0].io->db->total.v[RES_IOV_rd_iops] == 55);
    assert_int_equal(f.vms[0].io->txn->txns, 1234);
    assert_true(f.vms[0].io->p_pct == 99);
    assert_true(f.vms[0].io->cpu_s_per_1000_txn == 0.5);
    assert_int_equal(f.vms[0].npoints, 2);
    assert_true(f.vms[0].series[1].t == 2 && f.vms[0].series[1].tps == 11.25);
    assert_true(f.vms[0].tps == w.vms[0].tps && f.vms[0].transactions == 100);
    /* a drive's rows are all there */
    assert_int_equal(f.drives[0].io->db->nseries, 4);
    assert_int_equal(f.drives[0].io->boot->nseries, 4);
    assert_int_equal(f.drives[0].io->txn->nseries, 4);
    assert_int_equal(f.drives[0].io->np, 4);
    for (int i = 0; i < 4; i++) {
        assert_true(f.drives[0].io->db->series[i].t == i + 1);
        assert_true(f.drives[0].io->db->series[i].v[RES_IOV_rd_iops] == 10.0 * i);
        assert_true(f.drives[0].io->txn->series[i].tps == 100 + i);
        assert_true(f.drives[0].io->p_series[i].tps == 2 + i);
    }
    assert_memory_equal(&f.drives[0].f, &w.drives[0].f, sizeof f.drives[0].f);
    assert_memory_equal(&f.run, &w.run, sizeof f.run);
    res_summary_clear(&a);
    res_summary_clear(&w);
    res_summary_clear(&f);
}

/* A summary that is no regular file (a pipe: read, not mapped) is read
 * as one that is. */
static void test_summary_from_pipe(void **state)
{
    res_summary a, b;
    char err[512] = "", path[300], cmd[700];
    (void)state;
    snprintf(path, sizeof path, "%s/fifo.json", scratch);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(cmd, sizeof cmd, "cat results/fixtures/report-8vm/summary.json > %s &", path);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(res_summary_read_file(path, &b, err, sizeof err), 0);
    assert_int_equal(res_summary_read_file("results/fixtures/report-8vm/summary.json", &a, err,
                                           sizeof err), 0);
    assert_int_equal(b.nvms, 8);
    assert_int_equal(b.ndrives, a.ndrives);
    assert_string_equal(b.vms[7].name, a.vms[7].name);
    assert_int_equal(b.vms[7].npoints, a.vms[7].npoints);
    assert_memory_equal(&b.run, &a.run, sizeof a.run);
    res_summary_clear(&a);
    res_summary_clear(&b);
    unlink(path);
}

static void test_summary_round_trip(void **state)
{
    res_summary a, b;
    char err[512] = "", path[300], csv[4096];
    FILE *f;
    size_t n;
    (void)state;
    make_summary(&a);
    assert_int_equal(res_summary_write_files(&a, scratch, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/summary.csv", scratch);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(csv, 1, sizeof csv - 1, f);
    csv[n] = '\0';
    fclose(f);
    assert_string_equal(csv,
        "run_id,drive,repetition,vms,tps,transactions,latency_avg_ms,latency_p99_ms,"
        "latency_p99_mean_of_vms_ms,failed_vms,status,failures,tpmC,NOPM" CSV_IO_HEAD
        ",database_loaded_data_bytes,database_loaded_log_bytes,database_end_data_bytes,"
        "database_end_log_bytes\n"
        "r-1,\"a,\"\"b\"\"\",1,2,22.5,200,1.03,1.5,2.2505,0,complete,,," CSV_IO_EMPTY
        ",123456789,67108864,123999999,\n");
    snprintf(path, sizeof path, "%s/summary.json", scratch);
    assert_int_equal(res_summary_read_file(path, &b, err, sizeof err), 0);
    assert_string_equal(b.run_id, "r-1");
    assert_string_equal(b.started_at, "2026-11-30T04:31:13Z");
    assert_null(b.finished_at);
    assert_string_equal(b.plan.name, "quick");
    assert_null(b.plan.profile);
    assert_int_equal(b.plan.vms_per_drive, 2);
    assert_string_equal(b.plan.client_path, "qemu-user-hostfwd");
    assert_null(b.plan.client);
    assert_int_equal(b.plan.repetitions, RES_UNSET);
    assert_true(b.plan.cv_threshold == 7.5);
    assert_int_equal(b.plan.table_size, 10000);
    assert_int_equal(b.plan.warehouses, RES_UNSET);
    assert_string_equal(b.env.hostname, "host");
    assert_int_equal(b.env.memory_bytes, 25276510208);
    assert_int_equal(b.env.cpus, RES_UNSET);
    assert_int_equal(b.env.nhypervisors, 1);
    assert_string_equal(b.env.hypervisors[0].uri, "test:///default");
    assert_null(b.env.hypervisors[0].domain_type);
    assert_int_equal(b.ndrives, 2);
    assert_string_equal(b.drives[0].name, "a,\"b\"");
    assert_memory_equal(&b.drives[0].f, &a.drives[0].f, sizeof a.drives[0].f);
    assert_int_equal(b.drives[0].restore.bytes, 4294967296);
    assert_true(b.drives[0].restore.seconds == 2.5);
    assert_int_equal(b.drives[1].restore.bytes, 0);     /* not recorded: no key */
    assert_int_equal(b.drives[0].nreps, 1);
    assert_int_equal(b.drives[0].reps[0].repetition, 1);
    assert_memory_equal(&b.drives[0].reps[0].f, &a.drives[0].reps[0].f, sizeof a.run);
    assert_int_equal(b.drives[1].nreps, 0);
    assert_int_equal(b.nvms, 1);
    assert_string_equal(b.vms[0].result, "vm/vm1.r1.json");
    assert_null(b.vms[0].precondition_result);
    /* numbers are rounded to 6 decimals on the way out */
    assert_true(b.vms[0].tps == 10.0);
    assert_int_equal(b.vms[0].transactions, 100);
    assert_true(b.vms[0].lat_p99_ms == 3.001);
    assert_string_equal(b.vms[0].server_version, "10.11.6");
    assert_int_equal(b.vms[0].errors, 4);
    assert_int_equal(b.vms[0].reconnects, 0);
    assert_int_equal(b.vms[0].npoints, 2);
    assert_true(b.vms[0].series[1].t == 2 && b.vms[0].series[1].tps == 11.25);
    assert_int_equal(b.plan.expect_database_bytes, 100000000);
    assert_int_equal(b.vms[0].db_loaded.data_bytes, 123456789);
    assert_int_equal(b.vms[0].db_loaded.log_bytes, 67108864);
    assert_int_equal(b.vms[0].db_end.data_bytes, 123999999);
    assert_int_equal(b.vms[0].db_end.log_bytes, RES_UNSET);
    assert_true(b.vms[0].db_deviation_pct == 23.456789);
    assert_true(b.vms[0].db_size_warning);
    assert_memory_equal(&b.run, &a.run, sizeof a.run);
    assert_int_equal(b.run_drives, 2);
    res_summary_clear(&a);
    res_summary_clear(&b);
}

/* A file's whole text (malloc'd). */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *t;
    long len;
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    len = ftell(f);
    rewind(f);
    t = malloc((size_t)len + 1);
    assert_non_null(t);
    assert_int_equal(fread(t, 1, (size_t)len, f), (size_t)len);
    t[len] = '\0';
    fclose(f);
    *n = (size_t)len;
    return t;
}

/* s's summary.json as res_summary_write_files streams it is byte for
 * byte the pretty text of its whole json-c tree. */
static void assert_streamed_as_tree(const res_summary *s)
{
    char err[512] = "", *a, *b, tree[300];
    size_t na, nb;
    json_object *doc = res_summary_to_json(s);
    snprintf(tree, sizeof tree, "%s/tree.json", scratch);
    assert_int_equal(rj_write_json(doc, tree, err, sizeof err), 0);
    json_object_put(doc);
    assert_int_equal(res_summary_write_files(s, scratch, err, sizeof err), 0);
    a = slurp(path_in("summary.json"), &na);
    b = slurp(tree, &nb);
    if (na != nb || memcmp(a, b, na) != 0) {
        size_t i = 0;
        while (i < na && i < nb && a[i] == b[i])
            i++;
        fprintf(stderr, "streamed differs at byte %zu:\n%.80s\n--- tree:\n%.80s\n", i,
                a + (i > 40 ? i - 40 : 0), b + (i > 40 ? i - 40 : 0));
        fail();
    }
    free(a);
    free(b);
}

/* Streamed against the tree: the made summary, one without VMs or drives
 * and every summary fixture (the report's, real orchestrator runs). */
static void test_summary_streamed(void **state)
{
    static const char *const fixtures[] = {
        "report-4vm", "report-8vm", "report-8vm-pg", "report-failed", "report-reps", "tpcc",
    };
    res_summary a, b;
    char err[512] = "", path[300];
    int nvms, ndrives;
    (void)state;
    make_summary(&a);
    assert_streamed_as_tree(&a);
    nvms = a.nvms, ndrives = a.ndrives;
    a.nvms = 0, a.ndrives = 0;
    assert_streamed_as_tree(&a);
    a.nvms = nvms, a.ndrives = ndrives;
    res_summary_clear(&a);
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
        snprintf(path, sizeof path, "results/fixtures/%s/summary.json", fixtures[i]);
        assert_int_equal(res_summary_read_file(path, &b, err, sizeof err), 0);
        assert_true(b.nvms > 0 && b.ndrives > 0);
        assert_streamed_as_tree(&b);
        res_summary_clear(&b);
    }
}

/* The lazy reader against the whole one: path's members the same, each
 * lazy array's elements the same, one by one. */
static void assert_lazy_as_whole(const char *path)
{
    static const char *const lazy[] = { "drives", "vms", NULL };
    char err[512] = "", err2[512] = "";
    json_object *whole = rj_read_json(path, err, sizeof err);
    json_object *skel = rj_read_json_lazy(path, lazy, err2, sizeof err2);
    assert_non_null(whole);
    assert_non_null(skel);
    assert_int_equal(json_object_object_length(whole), json_object_object_length(skel));
    json_object_object_foreach(whole, key, val) {
        json_object *l = rj_get(skel, key);
        if (strcmp(key, "drives") == 0 || strcmp(key, "vms") == 0) {
            size_t n = json_object_array_length(val);
            assert_int_equal(json_object_array_length(l), 0);
            assert_int_equal(rj_lazy_len(l), n);
            for (size_t i = 0; i < n; i++) {
                json_object *e = rj_lazy_get(l, i);
                assert_true(json_object_equal(e, json_object_array_get_idx(val, i)));
                json_object_put(e);
            }
            assert_null(rj_lazy_get(l, n));
        } else {
            assert_int_equal(rj_lazy_len(l), 0);
            assert_true(json_object_equal(l, val));
        }
    }
    json_object_put(whole);
    json_object_put(skel);
}

/* text read lazily with lazy as rj_read_json reads it whole */
static void assert_lazy_reads_text(const char *text, const char *const *lazy)
{
    char e1[512] = "";
    json_object *a, *b;
    write_text(path_in("lazy.json"), text);
    a = rj_read_json(path_in("lazy.json"), e1, sizeof e1);
    b = rj_read_json_lazy(path_in("lazy.json"), lazy, e1, sizeof e1);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(json_object_equal(a, b));
    json_object_put(a);
    json_object_put(b);
}

/* An oltp result read with "phases/intervals" lazy (res_oltp_read_file:
 * one interval's tree at a time): its phases a real array of objects,
 * each phase's members as read whole, its intervals lazy and equal to
 * the whole read's one by one; a malformed interval refused word for
 * word as rj_read_json refuses it. */
static void test_oltp_lazy(void **state)
{
    static const char *const lazy[] = { "phases/intervals", NULL };
    char err[512] = "", err2[512] = "";
    json_object *whole = rj_read_json(REAL_RESULT, err, sizeof err);
    json_object *skel = rj_read_json_lazy(REAL_RESULT, lazy, err2, sizeof err2);
    json_object *wp = rj_get(whole, "phases"), *sp = rj_get(skel, "phases");
    size_t checked = 0;
    (void)state;
    assert_non_null(skel);
    assert_int_equal(json_object_object_length(whole), json_object_object_length(skel));
    assert_int_equal(rj_lazy_len(sp), 0);
    assert_int_equal(json_object_array_length(sp), 1);
    for (size_t p = 0; p < json_object_array_length(wp); p++) {
        json_object *w = rj_idx(wp, p), *k = rj_idx(sp, p);
        assert_int_equal(json_object_object_length(w), json_object_object_length(k));
        json_object_object_foreach(w, key, val) {
            json_object *l = rj_get(k, key);
            if (strcmp(key, "intervals") != 0) {
                assert_true(json_object_equal(l, val));
                continue;
            }
            assert_int_equal(json_object_array_length(l), 0);
            assert_int_equal(rj_lazy_len(l), 5);
            for (size_t i = 0; i < 5; i++, checked++) {
                json_object *e = rj_lazy_get(l, i);
                assert_true(json_object_equal(e, json_object_array_get_idx(val, i)));
                json_object_put(e);
            }
        }
    }
    assert_int_equal(checked, 5);
    json_object_put(whole);
    json_object_put(skel);
    /* a malformed interval, and a phase that is not an object */
    write_text(path_in("bad.json"), "{\"phases\":[{\"intervals\":[{\"t\":1},{\"t\":]}]}");
    assert_null(rj_read_json(path_in("bad.json"), err, sizeof err));
    assert_null(rj_read_json_lazy(path_in("bad.json"), lazy, err2, sizeof err2));
    assert_string_equal(err, err2);
    assert_lazy_reads_text("{\"phases\":[1,null,{\"intervals\":[]}],\"x\":2}", lazy);
}

/* Nine "KEY/INNER" names under one key: every one is lazy (the reader
 * once kept the first seven and read the others whole, silently). */
static void test_many_nested_lazy(void **state)
{
    static const char *const lazy[] = { "p/a1", "p/a2", "p/a3", "p/a4", "p/a5", "p/a6",
                                        "p/a7", "p/a8", "p/a9", NULL };
    char err[512] = "";
    json_object *skel, *ph;
    (void)state;
    write_text(path_in("nine.json"), "{\"p\":[{\"a1\":[1],\"a2\":[2],\"a3\":[3],\"a4\":[4],"
               "\"a5\":[5],\"a6\":[6],\"a7\":[7],\"a8\":[8,8],\"a9\":[9,9,9],\"b\":[0]}]}");
    skel = rj_read_json_lazy(path_in("nine.json"), lazy, err, sizeof err);
    assert_non_null(skel);
    ph = rj_idx(rj_get(skel, "p"), 0);
    for (int k = 1; k <= 9; k++) {
        char name[4];
        json_object *a, *e;
        snprintf(name, sizeof name, "a%d", k);
        a = rj_get(ph, name);
        assert_int_equal(json_object_array_length(a), 0);
        assert_int_equal(rj_lazy_len(a), k < 8 ? 1 : (size_t)(k - 6));
        e = rj_lazy_get(a, 0);
        assert_int_equal(json_object_get_int(e), k);
        json_object_put(e);
    }
    /* a member not named stays whole */
    assert_int_equal(json_object_array_length(rj_get(ph, "b")), 1);
    assert_int_equal(rj_lazy_len(rj_get(ph, "b")), 0);
    json_object_put(skel);
}

/* What each_hook saw of res_oltp_read_file_each's calls: phase index,
 * phase, interval, its t and its histogram's count (-1: none). It takes
 * the measured phase's histograms; call fail_at (from 1; 0: none) fails. */
typedef struct each_seen {
    int     n, fail_at, pi[8], phase[8], i[8];
    double  t[8];
    int64_t count[8];
} each_seen;

static int each_hook(void *ctx, res_phase *p, int pi, int i)
{
    each_seen *s = ctx;
    res_interval *x = &p->intervals[i];
    if (s->n == 8 || s->n + 1 == s->fail_at)
        return -1;
    s->pi[s->n] = pi;
    s->phase[s->n] = p->phase;
    s->i[s->n] = i;
    s->t[s->n] = x->t;
    s->count[s->n++] = x->histogram ? x->histogram->total : -1;
    if (p->phase == RES_PHASE_MEASURE) {
        hist_sparse_free(x->histogram);
        x->histogram = NULL;
    }
    return 0;
}

/* res_oltp_read_file_each: its hook sees each interval as it is read, in
 * order, with its phase and histogram, and what it takes the result no
 * longer has; a failing hook stops the read ("out of memory", nothing
 * kept); a document refused after its intervals were read has shown
 * them to the hook first. */
static void test_oltp_read_each(void **state)
{
    static const int64_t lat[] = { 700, 900, 1100 };
    res_oltp a, b;
    char err[512] = "", want[600];
    each_seen s;
    hist *h = hist_of(lat, 3);
    (void)state;
    make_doc(&a);
    a.phases[0].nintervals = 1;
    a.phases[0].intervals = calloc(1, sizeof *a.phases[0].intervals);
    a.phases[0].intervals[0] = (res_interval){ .t = 2, .tps = 5,
                                               .histogram = hist_sparse_of(h, 2) };
    assert_int_equal(res_oltp_write_file(&a, path_in("each.json"), err, sizeof err), 0);
    memset(&s, 0, sizeof s);
    assert_int_equal(res_oltp_read_file_each(path_in("each.json"), &b, each_hook, &s, err,
                                             sizeof err), 0);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.pi[0], 0);
    assert_int_equal(s.phase[0], RES_PHASE_WARMUP);
    assert_int_equal(s.i[0], 0);
    assert_true(s.t[0] == 2);
    assert_int_equal(s.count[0], 3);
    assert_int_equal(s.pi[1], 1);
    assert_int_equal(s.phase[1], RES_PHASE_MEASURE);
    assert_int_equal(s.i[1], 0);
    assert_true(s.t[1] == 1);
    assert_int_equal(s.count[1], -1);
    assert_int_equal(s.pi[2], 1);
    assert_int_equal(s.i[2], 1);
    assert_true(s.t[2] == 4);
    assert_int_equal(s.count[2], 8);
    /* the rest of the result as res_oltp_read_file reads it */
    assert_int_equal(b.nphases, 2);
    assert_non_null(b.phases[0].intervals[0].histogram);
    assert_int_equal(b.phases[0].intervals[0].histogram->total, 3);
    assert_int_equal(b.phases[1].nintervals, 2);
    assert_null(b.phases[1].intervals[1].histogram);
    assert_true(b.phases[1].intervals[1].tps == 1.0 / 7.0);
    assert_int_equal(b.phases[1].histogram->total, 8);
    res_oltp_clear(&b);
    /* the hook fails at its second call */
    memset(&s, 0, sizeof s);
    s.fail_at = 2;
    assert_int_equal(res_oltp_read_file_each(path_in("each.json"), &b, each_hook, &s, err,
                                             sizeof err), -1);
    snprintf(want, sizeof want, "%s: out of memory", path_in("each.json"));
    assert_string_equal(err, want);
    assert_int_equal(s.n, 1);
    assert_int_equal(b.nphases, 0);
    /* t going backwards: refused once the phase is read, after the hook */
    a.phases[1].intervals[1].t = 0.5;
    a.phases[1].intervals[1].duration_s = 0;
    assert_int_equal(res_oltp_write_file(&a, path_in("each.json"), err, sizeof err), 0);
    memset(&s, 0, sizeof s);
    assert_int_equal(res_oltp_read_file_each(path_in("each.json"), &b, each_hook, &s, err,
                                             sizeof err), -1);
    snprintf(want, sizeof want, "%s: measure: intervals[1].t is 0.5, before intervals[0].t "
             "(1)", path_in("each.json"));
    assert_string_equal(err, want);
    assert_int_equal(s.n, 3);
    assert_int_equal(b.nphases, 0);
    hist_free(h);
    res_oltp_clear(&a);
}

/* A summary's drives and VMs read one element at a time (a long run's
 * summary as one tree is several times the file): every fixture the
 * same as read whole; a malformed document refused word for word as
 * rj_read_json refuses it. */
static void test_summary_lazy(void **state)
{
    static const char *const fixtures[] = {
        "report-4vm", "report-8vm", "report-8vm-pg", "report-failed", "report-reps", "tpcc",
    };
    static const char *const bad[] = {
        "", "null", "{", "{\"vms\":[{\"a\":1},", "{\"vms\":[{\"a\":1}]} x",
        "{\"vms\":[{\"a\":1} {\"b\":2}]}", "{\"vms\":[{\"a\":1},]}", "{\"vms\":[{\"a\":nope}]}",
        "{\"vms\" [1]}", "{\"vms\":[1],}", "{1:2}", "{\"a\":1 \"b\":2}", "   ",
    };
    static const char *const lazy[] = { "drives", "vms", NULL };
    char path[300];
    (void)state;
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
        snprintf(path, sizeof path, "results/fixtures/%s/summary.json", fixtures[i]);
        assert_lazy_as_whole(path);
    }
    /* odd but valid: spaces everywhere, an empty array, null elements,
     * a lazy key that is not an array, a duplicate key */
    write_text(path_in("odd.json"), " { \"vms\" : [ ] , \"drives\" :\n[ null ,{\"x\":[1,{}]}\t] ,"
               "\"n\":1, \"s\":\"a]}\\\"\",\"o\":{\"vms\":[1]} } \n");
    assert_lazy_as_whole(path_in("odd.json"));
    /* a document that is not an object: read whole, as rj_read_json does */
    assert_lazy_reads_text("[1,2]", lazy);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char e1[512] = "", e2[512] = "";
        json_object *a, *b;
        write_text(path_in("bad.json"), bad[i]);
        a = rj_read_json(path_in("bad.json"), e1, sizeof e1);
        b = rj_read_json_lazy(path_in("bad.json"), lazy, e2, sizeof e2);
        assert_null(a);
        assert_null(b);
        assert_true(e1[0] != '\0');
        assert_string_equal(e1, e2);
    }
}

static void test_summary_refusals(void **state)
{
    res_summary s;
    char err[512], want[700];
    const char *p = path_in("summary.json");
    (void)state;
    write_text(p, "{\"schema\":\"drivebench.summary/3\",\"drives\":[],\"vms\":[]}");
    assert_int_equal(res_summary_read_file(p, &s, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: not a drivebench.summary/2 document", p);
    assert_string_equal(err, want);
    write_text(p, "{\"schema\":\"drivebench.summary/1\",\"drives\":[],\"vms\":[]}");
    assert_int_equal(res_summary_read_file(p, &s, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: drivebench.summary/1 was written by an older drivebench, "
             "whose summaries lack the per-VM figures this report reads; run the plan again", p);
    assert_string_equal(err, want);
    write_text(p, "{\"schema\":\"drivebench.summary/2.1\",\"drives\":[],\"vms\":[],\"x\":1}");
    assert_int_equal(res_summary_read_file(p, &s, err, sizeof err), 0);
    assert_int_equal(s.ndrives, 0);
    res_summary_clear(&s);
    write_text(p, "[1,");
    assert_int_equal(res_summary_read_file(p, &s, err, sizeof err), RES_E_UNREADABLE);
    assert_null(strchr(err, '\n'));
    {   /* bounded: more VMs than a summary may hold */
        char *list = repeat("{}", RES_MAX_VMS + 1), *doc = NULL;
        assert_true(asprintf(&doc, "{\"schema\":\"drivebench.summary/2\",\"drives\":[],"
                             "\"vms\":[%s]}", list) > 0);
        write_text(p, doc);
        free(list);
        free(doc);
        assert_int_equal(res_summary_read_file(p, &s, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s: 65537 vms, more than 65536", p);
        assert_string_equal(err, want);
    }
}

/* Issue 29: a summary's NaN, inf and negative figures are refused with
 * the file, the key and the value, never read as figures (a NaN mean
 * gave Welch "not distinguishable"; a repetition at -50 TPS, a tps_min
 * of -50 in the report's CSV). */
static void test_summary_untrusted(void **state)
{
    static const struct { const char *drive, *vm, *msg; } cases[] = {
        { "\"repetitions\":[{\"repetition\":1,\"tps\":100},{\"repetition\":2,\"tps\":NaN}]",
          "", "drives[0].repetitions[1].tps: nan (not a finite number >= 0)" },
        { "\"tps\":1e999", "", "drives[0].tps: inf (not a finite number >= 0)" },
        { "\"repetitions\":[{\"repetition\":1,\"tps\":-50}]", "",
          "drives[0].repetitions[0].tps: -50 (not a finite number >= 0)" },
        { "\"latency_ms\":{\"p99\":-Infinity}", "",
          "drives[0].latency_ms.p99: -inf (not a finite number >= 0)" },
        { "\"failed_vms\":-1", "", "drives[0].failed_vms: -1 (a count cannot be negative)" },
        { "\"io\":{\"db\":{\"wr_iops\":NaN}}", "",
          "drives[0].io.db.wr_iops: nan (not a finite number >= 0)" },
        { "\"comparisons\":[{\"a\":\"a\",\"b\":\"b\",\"mean_a\":NaN}]", "",
          "drives[0].comparisons[0].mean_a: nan (not a finite number)" },
        { "", "\"transactions\":-5", "vms[0].transactions: -5 (a count cannot be negative)" },
        { "", "\"tps_series\":[[1,9],[2,-3]]",
          "vms[0].tps_series[1][1]: -3 (not a finite number >= 0)" },
    };
    res_summary s;
    char err[512], want[700], *doc;
    const char *p = path_in("summary.json");
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_true(asprintf(&doc, "{\"schema\":\"drivebench.summary/2.1\",\"drives\":[{"
                             "\"name\":\"a\"%s%s}],\"vms\":[{\"name\":\"v\",\"drive\":\"a\""
                             "%s%s}]}", cases[i].drive[0] ? "," : "", cases[i].drive,
                             cases[i].vm[0] ? "," : "", cases[i].vm) > 0);
        write_text(p, doc);
        free(doc);
        assert_int_equal(res_summary_read_file(p, &s, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s: %s", p, cases[i].msg);
        assert_string_equal(err, want);
        assert_int_equal(s.ndrives, 0);
    }
    /* negative figures where they may be: a drift, a difference */
    write_text(p, "{\"schema\":\"drivebench.summary/2.1\",\"drives\":[{\"name\":\"a\","
               "\"steady_state\":{\"n\":5,\"slope\":-2,\"drift_pct\":-8},\"comparisons\":"
               "[{\"a\":\"a\",\"b\":\"b\",\"diff\":-3,\"lo\":-4}]}],\"vms\":[]}");
    assert_int_equal(res_summary_read_file(p, &s, err, sizeof err), 0);
    assert_true(s.drives[0].io->steady.drift_pct == -8);
    assert_true(s.drives[0].io->cmp[0].lo == -4);
    res_summary_clear(&s);
}

/* Issue 29: plan.workload.rate (summary 2.2) and the closed loop's note:
 * rate 0 writes run.latency_note, an open loop none, and a summary
 * before 2.2 (no rate) reads as "not recorded", with no note. */
static void test_summary_rate(void **state)
{
    res_summary a, b;
    char err[512] = "", path[300];
    json_object *j;
    (void)state;
    make_summary(&a);
    snprintf(path, sizeof path, "%s/summary.json", scratch);
    for (int open = 0; open < 2; open++) {
        a.plan.rate = open ? 50 : 0;
        j = res_summary_to_json(&a);
        assert_string_equal(json_object_get_string(rj_get(j, "schema")),
                            "drivebench.summary/2.3");
        if (open)
            assert_null(rj_get(rj_get(j, "run"), "latency_note"));
        else
            assert_string_equal(json_object_get_string(rj_get(rj_get(j, "run"), "latency_note")),
                                "latency under stalls is understated (closed loop; `rate` gives "
                                "open loop)");
        json_object_put(j);
        assert_int_equal(res_summary_write_files(&a, scratch, err, sizeof err), 0);
        assert_int_equal(res_summary_read_file(path, &b, err, sizeof err), 0);
        assert_true(b.plan.rate == (open ? 50 : 0));
        if (open)
            assert_null(res_latency_note(&b.plan));
        else
            assert_string_equal(res_latency_note(&b.plan), RES_CLOSED_LOOP_NOTE);
        res_summary_clear(&b);
    }
    res_summary_clear(&a);
    assert_int_equal(res_summary_read_file("results/fixtures/report-4vm/summary.json", &b, err,
                                           sizeof err), 0);
    assert_true(isnan(b.plan.rate));
    assert_null(res_latency_note(&b.plan));
    res_summary_clear(&b);
}

/* Text that is not UTF-8 (a server's message in latin1) is written with
 * U+FFFD for each such byte, so that the document stays readable by the
 * readers, which refuse what is not UTF-8; such a document is refused
 * with the reason (issue 43). */
static void test_utf8_text(void **state)
{
    char path[] = "/tmp/test_results_utf8.XXXXXX", err[256];
    json_object *doc = json_object_new_object(), *back;
    int fd = mkstemp(path);
    (void)state;
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(res_utf8_bad_at("caf\xc3\xa9", 5, false), -1);
    assert_int_equal(res_utf8_bad_at("caf\xe9!", 5, false), 3);
    assert_int_equal(res_utf8_bad_at("a\x01", 2, false), -1);
    assert_int_equal(res_utf8_bad_at("a\x01", 2, true), 1);
    assert_int_equal(res_utf8_bad_at("\xed\xa0\x80", 3, false), 0);     /* a surrogate */
    rj_put(doc, "error", rj_str_or_null("Table 'caf\xe9' doesn't exist \xff"));
    assert_int_equal(rj_write_json(doc, path, err, sizeof err), 0);
    json_object_put(doc);
    back = rj_read_json(path, err, sizeof err);
    assert_non_null(back);
    assert_string_equal(json_object_get_string(rj_get(back, "error")),
                        "Table 'caf\xef\xbf\xbd' doesn't exist \xef\xbf\xbd");
    json_object_put(back);
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_int_equal(write(fd, "{\"error\": \"caf\xe9\"}", 15), 15);
    close(fd);
    assert_null(rj_read_json(path, err, sizeof err));
    assert_string_equal(err, "not JSON: invalid utf-8 string at byte 15");
    unlink(path);
}

static void test_csv_field(void **state)
{
    static const struct { const char *in, *needed, *always; } cases[] = {
        { "plain", "plain", "\"plain\"" },
        { "", "", "\"\"" },
        { "a,b", "\"a,b\"", "\"a,b\"" },
        { "say \"hi\"", "\"say \"\"hi\"\"\"", "\"say \"\"hi\"\"\"" },
        { "two\nlines", "\"two\nlines\"", "\"two\nlines\"" },
        { "cr\rhere", "\"cr\rhere\"", "\"cr\rhere\"" },
        { "<script>alert(1)</script>", "<script>alert(1)</script>",
          "\"<script>alert(1)</script>\"" },
        /* what a spreadsheet would run as a formula (issue 43) */
        { "=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"",
          "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"" },
        { "+1", "\"'+1\"", "\"'+1\"" },
        { "-2+3", "\"'-2+3\"", "\"'-2+3\"" },
        { "@SUM(A1)", "\"'@SUM(A1)\"", "\"'@SUM(A1)\"" },
        { "\t=1", "\"'\t=1\"", "\"'\t=1\"" },
        { "\r=1", "\"'\r=1\"", "\"'\r=1\"" },
        { "a=b-c", "a=b-c", "\"a=b-c\"" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int always = 0; always < 2; always++) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            assert_non_null(f);
            res_csv_field(f, cases[i].in, always);
            fclose(f);
            assert_string_equal(buf, always ? cases[i].always : cases[i].needed);
            free(buf);
        }
}

static void test_numbers(void **state)
{
    char buf[64];
    json_object *o;
    (void)state;
    assert_string_equal(res_num(22.5, buf, sizeof buf), "22.5");
    assert_string_equal(res_num(2, buf, sizeof buf), "2");
    assert_string_equal(res_num(50.0 / 3.0, buf, sizeof buf), "16.666667");
    assert_string_equal(res_num(-0.0000001, buf, sizeof buf), "0");
    assert_string_equal(res_num(1.0000004, buf, sizeof buf), "1");
    o = res_json_number(2.2505);
    assert_string_equal(json_object_to_json_string(o), "2.2505");
    json_object_put(o);
}

/* The server read-back (issue 44): what counts as the same value, the
 * first difference of two servers, and the document's round trip with a
 * value Babelfish does not have; a document of another schema refused. */
static void test_server_settings(void **state)
{
    res_server a = { 0 }, b = { 0 }, back;
    const char *va, *vb;
    const char *path = path_in("server.json");
    char err[256];
    FILE *f;
    (void)state;
    assert_true(res_setting_same("24G", "25769803776"));
    assert_true(res_setting_same("256MB", "268435456"));
    assert_true(res_setting_same("8kB", "8192"));
    assert_true(res_setting_same("O_DIRECT", "o_direct"));
    assert_true(res_setting_same("on", "1"));
    assert_true(res_setting_same("off", "FALSE"));
    assert_true(res_setting_same(NULL, NULL));
    assert_false(res_setting_same("24G", "24"));
    assert_false(res_setting_same("1", "2"));
    assert_false(res_setting_same("on", "0"));
    assert_false(res_setting_same("49152", NULL));
    assert_false(res_setting_same("24X", "24"));

    assert_int_equal(res_server_add(&a, "shared_buffers", "8GB", NULL), 0);
    assert_int_equal(res_server_add(&a, "synchronous_commit", "on", NULL), 0);
    assert_int_equal(res_server_add(&b, "shared_buffers", "8192MB", NULL), 0);
    assert_int_equal(res_server_add(&b, "synchronous_commit", "off", NULL), 0);
    assert_string_equal(res_server_differs(&a, &b, &va, &vb), "synchronous_commit");
    assert_string_equal(va, "on");
    assert_string_equal(vb, "off");
    assert_null(res_server_differs(&a, NULL, &va, &vb));
    assert_null(res_server_differs(&a, &a, &va, &vb));

    assert_int_equal(res_server_add(&a, "max server memory (MB)", NULL,
                                    "not available on this server (SQL Server: ...)"), 0);
    a.settings[0].wanted = strdup("8GB");
    a.version = strdup("12.0.2000.8");
    assert_int_equal(res_server_write_file(&a, path, err, sizeof err), 0);
    assert_int_equal(res_server_read_file(path, &back, err, sizeof err), 0);
    assert_string_equal(back.version, "12.0.2000.8");
    assert_null(back.edition);
    assert_int_equal(back.nsettings, 3);
    assert_string_equal(back.settings[0].wanted, "8GB");
    assert_null(back.settings[1].wanted);
    assert_null(back.settings[2].value);
    assert_string_equal(back.settings[2].note, "not available on this server (SQL Server: ...)");
    assert_null(res_server_differs(&a, &back, &va, &vb));
    res_server_clear(&back);

    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"schema\": \"drivebench.summary/2\", \"settings\": []}", f);
    fclose(f);
    assert_int_equal(res_server_read_file(path, &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a drivebench-server-settings/1 document"));
    res_server_clear(&a);
    res_server_clear(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oltp_round_trip),
        cmocka_unit_test(test_oltp_real_result_unchanged),
        cmocka_unit_test(test_oltp_refusals),
        cmocka_unit_test(test_oltp_untrusted),
        cmocka_unit_test(test_phase_counts_agree),
        cmocka_unit_test(test_oltp_ended),
        cmocka_unit_test(test_summary_round_trip),
        cmocka_unit_test(test_summary_streamed),
        cmocka_unit_test(test_summary_lazy),
        cmocka_unit_test(test_oltp_lazy),
        cmocka_unit_test(test_many_nested_lazy),
        cmocka_unit_test(test_oltp_read_each),
        cmocka_unit_test(test_summary_figures),
        cmocka_unit_test(test_summary_from_pipe),
        cmocka_unit_test(test_summary_refusals),
        cmocka_unit_test(test_summary_untrusted),
        cmocka_unit_test(test_summary_rate),
        cmocka_unit_test(test_csv_field),
        cmocka_unit_test(test_utf8_text),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_server_settings),
    };
    return cmocka_run_group_tests_name("results", tests, setup, teardown);
}
