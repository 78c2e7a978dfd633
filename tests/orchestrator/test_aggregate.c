/* Aggregation from fixture oltp results (results/fixtures/run): per-drive
 * sums, merged-histogram p99 and the mean of per-VM p99s, exact values.
 * Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run.h"
#include "testlib.h"

/* summary.csv's drive I/O columns (results_drive_io.c), empty without I/O */
#include "../unit/csv_io_head.h"
#define CSV_IO_EMPTY ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
/* summary.csv's database size columns (none recorded in these fixtures) */
#define CSV_DB_HEAD ",database_loaded_data_bytes,database_loaded_log_bytes," \
    "database_end_data_bytes,database_end_log_bytes"
#define CSV_DB_EMPTY ",,,,"

#define RUN_DIR "results/fixtures/run"
#define VM(x) "vm/drivebench-fixture-20261130-000000--" x ".r1.json"

static const char *const drives[] = { "a<b ' & .. x", "second" };

static const orch_vm_result fixture_vms[] = {
    { "vm1", "a<b ' & .. x", 1, VM("a-b-x-vm1"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 2 },
    { "vm2", "a<b ' & .. x", 1, VM("a-b-x-vm2"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
    { "vm3", "second", 1, VM("second-vm1"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
};

/* The summary of the fixture run's drives; partial: the run stopped early. */
static res_summary *build_run(const orch_vm_result *vms, int nvms, int reps, int partial,
                              char *err, size_t len)
{
    orch_summary_input in;
    memset(&in, 0, sizeof in);
    in.run_id = "fixture-20261130-000000";
    in.run_dir = RUN_DIR;
    in.drives = drives;
    in.ndrives = 2;
    in.vms = vms;
    in.nvms = nvms;
    in.repetitions = reps;
    in.partial = partial;
    return orch_summary_build(&in, err, len);
}

static res_summary *build_summary(const orch_vm_result *vms, int nvms, int reps, char *err,
                                  size_t len)
{
    return build_run(vms, nvms, reps, 0, err, len);
}

/* The summary as summary.json holds it (caller puts), NULL on failure. */
static json_object *build(const orch_vm_result *vms, int nvms, int reps, char *err, size_t len)
{
    res_summary *s = build_summary(vms, nvms, reps, err, len);
    json_object *j = s ? res_summary_to_json(s) : NULL;
    orch_summary_free(s);
    return j;
}

static json_object *at(json_object *o, const char *path)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", path);
    for (char *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save)) {
        if (k[0] >= '0' && k[0] <= '9')
            o = json_object_array_get_idx(o, (size_t)atoi(k));
        else if (!json_object_object_get_ex(o, k, &o))
            return NULL;
    }
    return o;
}

/* The number's text as written to summary.json. */
static const char *num(json_object *o, const char *path)
{
    json_object *v = at(o, path);
    return v ? json_object_to_json_string(v) : "(missing)";
}

static void test_drive_figures(void **state)
{
    char err[512] = "";
    json_object *s = build(fixture_vms, 3, 1, err, sizeof err);
    (void)state;
    assert_non_null(s);
    assert_string_equal(json_object_get_string(at(s, "schema")), "drivebench.summary/2.3");
    assert_string_equal(json_object_get_string(at(s, "drives.0.name")), "a<b ' & .. x");
    assert_string_equal(num(s, "drives.0.vms"), "2");
    /* tps is the sum of the VMs': 10 + 12.5 */
    assert_string_equal(num(s, "drives.0.tps"), "22.5");
    assert_string_equal(num(s, "drives.0.transactions"), "200");
    /* merged: 50x500, 98x1000, 50x1500, 1x3000, 1x5000 us -> mean 1030 us; rank
     * (int)(0.99*200+0.5)=198 falls in the 1500 us bucket */
    assert_string_equal(num(s, "drives.0.latency_ms.avg"), "1.03");
    assert_string_equal(num(s, "drives.0.latency_ms.p99"), "1.5");
    /* per-VM p99s: 3.001 ms (top of the 3000 us bucket) and 1.5 ms */
    assert_string_equal(num(s, "drives.0.latency_ms.p99_mean_of_vms"), "2.2505");
    assert_string_equal(num(s, "drives.1.tps"), "8");
    assert_string_equal(num(s, "drives.1.latency_ms.avg"), "2.08");
    assert_string_equal(num(s, "drives.1.latency_ms.p99"), "2");
    assert_string_equal(num(s, "drives.1.latency_ms.p99_mean_of_vms"), "2");
    assert_string_equal(num(s, "drives.0.repetitions.0.tps"), "22.5");
    /* a sysbench run has no TPC-C figures */
    assert_null(at(s, "drives.0.tpcc"));
    assert_null(at(s, "run.tpcc"));
    json_object_put(s);
}

static void test_vm_and_run_figures(void **state)
{
    char err[512] = "";
    json_object *s = build(fixture_vms, 3, 1, err, sizeof err);
    (void)state;
    assert_non_null(s);
    assert_string_equal(num(s, "vms.0.latency_ms.p99"), "3.001");
    assert_string_equal(num(s, "vms.0.latency_ms.avg"), "1.06");
    assert_string_equal(num(s, "vms.1.tps"), "12.5");
    assert_string_equal(json_object_get_string(at(s, "vms.2.server_version")),
                        "10.11.6-MariaDB-0+deb12u1");
    /* vm1 rebooted twice while booting (tolerated, counted); the others
     * did not: no field */
    assert_string_equal(num(s, "vms.0.boot_reboots"), "2");
    assert_null(at(s, "vms.1.boot_reboots"));
    /* the interval samples ride along for TPS-over-time charts */
    /* the interval samples ride along for TPS-over-time charts, a pair a line */
    assert_string_equal(num(s, "vms.0.tps_series.0"), "[1,9]");
    /* run: 300 samples, rank 297 lands on 2000 us; mean 414000/300 us */
    assert_string_equal(num(s, "run.tps"), "30.5");
    assert_string_equal(num(s, "run.vms"), "3");
    assert_string_equal(num(s, "run.latency_ms.p99"), "2");
    assert_string_equal(num(s, "run.latency_ms.avg"), "1.38");
    assert_string_equal(num(s, "run.latency_ms.p99_mean_of_vms"), "2.167");
    json_object_put(s);
}

/* Two repetitions of the same VM: a drive's tps is the mean over
 * repetitions, latencies pool all samples. */
static void test_repetitions(void **state)
{
    const orch_vm_result vms[] = {
        { "vm1", "second", 1, VM("second-vm1"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
        { "vm1", "second", 2, VM("a-b-x-vm2"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
    };
    char err[512] = "";
    json_object *s = build(vms, 2, 2, err, sizeof err);
    (void)state;
    assert_non_null(s);
    assert_string_equal(num(s, "drives.1.tps"), "10.25");
    assert_string_equal(num(s, "drives.1.vms"), "1");
    assert_int_equal(json_object_array_length(at(s, "drives.1.repetitions")), 2);
    assert_string_equal(num(s, "drives.1.repetitions.1.tps"), "12.5");
    assert_string_equal(num(s, "drives.1.repetitions.1.repetition"), "2");
    /* 99x2000, 1x10000, 50x500, 50x1500: rank 198 -> 2000 us */
    assert_string_equal(num(s, "drives.1.latency_ms.p99"), "2");
    assert_string_equal(num(s, "drives.1.latency_ms.p99_mean_of_vms"), "1.75");
    assert_int_equal(json_object_array_length(at(s, "drives.0.repetitions")), 0);
    json_object_put(s);
}

/* 4 VMs of drive "second" at 8 TPS each (all read second-vm1's result),
 * 3 repetitions, vm2 failed in the second: repetitions 32, 24, 32 TPS.
 * The drive's TPS is a mean of repetitions at one load (issue 29): the
 * two that measured 4 VMs, 32, with vms 4 (before: 88 / 3 = 29.333333 of
 * "vms" 11 / 3 = 3); repetition 2 (3 VMs) is listed, in no figure, and
 * its failure counted. 8 healthy VM runs, 8 TPS per VM. The drive is
 * incomplete; the run's figures are the same. Drive 0 measured nothing. */
static void test_failed_vm_in_one_repetition(void **state)
{
    orch_vm_result vms[12];
    char err[512] = "";
    res_summary *s;
    (void)state;
    for (int r = 1; r <= 3; r++)
        for (int v = 0; v < 4; v++) {
            static const char *const names[] = { "vm1", "vm2", "vm3", "vm4" };
            int failed = r == 2 && v == 1;
            vms[(r - 1) * 4 + v] = (orch_vm_result){
                .vm = names[v], .drive = "second", .repetition = r,
                .result = failed ? "vm/missing.json" : VM("second-vm1"),
                .failed_in = failed ? "measure" : NULL,
                .health = { .fault = ORCH_FAULT_STOPPED } };
        }
    s = build_summary(vms, 12, 3, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(s->drives[1].nreps, 3);
    assert_true(s->drives[1].reps[0].f.tps == 32 && s->drives[1].reps[1].f.tps == 24
                && s->drives[1].reps[2].f.tps == 32);
    assert_int_equal(s->drives[1].reps[1].f.vm_runs, 3);
    assert_int_equal(s->drives[1].reps[1].f.vms, 3);
    assert_int_equal(s->drives[1].reps[1].f.failed_vms, 1);
    assert_true(s->drives[1].reps[1].f.tps_per_vm == 8);
    assert_true(s->drives[1].f.tps == 32);
    assert_int_equal(s->drives[1].f.vm_runs, 8);
    assert_int_equal(s->drives[1].f.repetitions, 2);
    assert_int_equal(s->drives[1].f.vms, 4);
    assert_int_equal(s->drives[1].f.failed_vms, 1);
    assert_int_equal(s->drives[1].nother_reps, 1);
    assert_int_equal(s->drives[1].other_reps[0].repetition, 2);
    assert_int_equal(s->drives[1].other_reps[0].vms, 3);
    assert_true(s->drives[1].f.tps_per_vm == 8);
    assert_int_equal(s->drives[0].f.vm_runs, 0);
    assert_int_equal(s->drives[0].f.repetitions, 0);
    assert_true(s->drives[0].f.tps == 0 && s->drives[0].f.tps_per_vm == 0);
    assert_true(isnan(s->drives[0].f.lat_p99_ms));
    assert_int_equal(s->run.vm_runs, 8);
    assert_int_equal(s->run.repetitions, 3);
    assert_int_equal(s->run.vms, 4);
    assert_true(s->run.tps_per_vm == 8);
    assert_int_equal(s->status, RES_RUN_DEGRADED);
    json_object *j = res_summary_to_json(s);
    assert_string_equal(num(j, "drives.1.tps_per_vm"), "8");
    assert_string_equal(num(j, "drives.1.vm_runs"), "8");
    assert_string_equal(num(j, "drives.1.measured_repetitions"), "2");
    assert_string_equal(num(j, "drives.1.tps"), "32");
    assert_string_equal(num(j, "drives.1.vms"), "4");
    assert_string_equal(json_object_to_json_string_ext(at(j, "drives.1.repetitions_other_vms"),
                                                       JSON_C_TO_STRING_PLAIN),
                        "[{\"repetition\":2,\"vms\":3}]");
    assert_null(at(j, "drives.0.repetitions_other_vms"));
    /* drive 0 measured no transaction: no latency, not 0 */
    assert_null(at(j, "drives.0.latency_ms.p99"));
    assert_string_equal(num(j, "run.vms"), "4");
    json_object_put(j);
    orch_summary_free(s);
}

/* second-vm1's result with a measured phase of no transaction (an empty
 * histogram) at dir/name. */
static void write_empty(const char *dir, const char *name)
{
    char path[300];
    json_object *doc = json_object_from_file(RUN_DIR "/" VM("second-vm1")), *ph, *h;
    assert_non_null(doc);
    assert_true(json_object_object_get_ex(doc, "phases", &ph));
    for (size_t i = 0; i < json_object_array_length(ph); i++) {
        json_object *p = json_object_array_get_idx(ph, i), *n;
        if (!json_object_object_get_ex(p, "name", &n)
            || strcmp(json_object_get_string(n), "measure") != 0)
            continue;
        json_object_object_add(p, "transactions", json_object_new_int(0));
        json_object_object_add(p, "tps", json_object_new_double(0));
        assert_true(json_object_object_get_ex(p, "histogram", &h));
        json_object_object_add(h, "count", json_object_new_int(0));
        json_object_object_add(h, "min", json_object_new_int(0));
        json_object_object_add(h, "max", json_object_new_int(0));
        json_object_object_add(h, "sum", json_object_new_double(0));
        json_object_object_add(h, "buckets", json_object_new_array());
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(json_object_to_file(path, doc), 0);
    json_object_put(doc);
}

/* A VM whose complete result holds no transaction is a failed VM run
 * ("no-transactions"), in no figure (before issue 29: "complete", TPS 0,
 * p99 0.000); its drive, measured by no other VM, has no latency. */
static void test_zero_transactions(void **state)
{
    char dir[] = "/tmp/orch-agg-empty-XXXXXX", err[512] = "", path[300];
    orch_vm_result vms[] = {
        { "vm1", "a<b ' & .. x", 1, VM("a-b-x-vm1"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
        { "vm3", "second", 1, "empty.json", NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
    };
    orch_summary_input in;
    res_summary *s;
    json_object *j;
    (void)state;
    assert_non_null(mkdtemp(dir));
    write_empty(dir, "empty.json");
    vms[0].result = "a1.json";
    snprintf(path, sizeof path, "%s/a1.json", dir);
    {
        json_object *a = json_object_from_file(RUN_DIR "/" VM("a-b-x-vm1"));
        assert_non_null(a);
        assert_int_equal(json_object_to_file(path, a), 0);
        json_object_put(a);
    }
    memset(&in, 0, sizeof in);
    in.run_id = "empty";
    in.run_dir = dir;
    in.drives = drives;
    in.ndrives = 2;
    in.vms = vms;
    in.nvms = 2;
    in.repetitions = 1;
    s = orch_summary_build(&in, err, sizeof err);
    assert_non_null(s);
    j = res_summary_to_json(s);
    assert_string_equal(num(j, "vms.1.status"), "\"failed\"");
    assert_string_equal(num(j, "vms.1.fault"), "\"no-transactions\"");
    assert_string_equal(num(j, "vms.1.reason"),
                        "\"no transactions: its measured phase completed without one\"");
    assert_null(at(j, "vms.1.latency_ms.p99"));
    assert_string_equal(num(j, "drives.1.failed_vms"), "1");
    assert_string_equal(num(j, "drives.1.measured_repetitions"), "0");
    assert_string_equal(num(j, "drives.1.tps"), "0");
    assert_null(at(j, "drives.1.latency_ms.p99"));
    assert_string_equal(num(j, "drives.0.tps"), "10");
    assert_int_equal(s->status, RES_RUN_DEGRADED);
    json_object_put(j);
    orch_summary_free(s);
    unlink(path);
    snprintf(path, sizeof path, "%s/empty.json", dir);
    unlink(path);
    rmdir(dir);
}

/* A partial run: 3 repetitions planned, stopped after the first. Its 3
 * VMs were measured in 1 repetition: run.vms 3 (3 / 3 planned would say
 * 1), per VM (10 + 12.5 + 8) / 3; drive a 2 VMs, 22.5 TPS, 11.25 per VM. */
static void test_partial_run(void **state)
{
    char err[512] = "";
    res_summary *s;
    (void)state;
    s = build_run(fixture_vms, 3, 3, 1, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(s->status, RES_RUN_PARTIAL);
    assert_int_equal(s->repetitions, 3);
    assert_int_equal(s->run.vms, 3);
    assert_int_equal(s->run.vm_runs, 3);
    assert_int_equal(s->run.repetitions, 1);
    assert_true(s->run.tps == 30.5);
    assert_true(fabs(s->run.tps_per_vm - 30.5 / 3) < 1e-12);
    assert_int_equal(s->drives[0].nreps, 1);
    assert_int_equal(s->drives[0].f.vms, 2);
    assert_int_equal(s->drives[0].f.repetitions, 1);
    assert_true(s->drives[0].f.tps == 22.5 && s->drives[0].f.tps_per_vm == 11.25);
    assert_int_equal(s->drives[1].f.vms, 1);
    assert_true(s->drives[1].f.tps == 8);
    orch_summary_free(s);
}

/* An oltp result at dir/name with one measure phase of n intervals: t[i]
 * their ends, d[i] their lengths (0: not written, as oltp before issue
 * 21), tps[i]; interval_s w (0: not written). */
static void write_series(const char *dir, const char *name, int n, const double *t,
                         const double *d, const double *tps, double w)
{
    res_oltp r;
    res_phase *p;
    char path[300], err[512] = "";
    memset(&r, 0, sizeof r);
    p = res_oltp_add_phase(&r);
    p->phase = RES_PHASE_MEASURE;
    p->duration_s = t[n - 1];
    p->transactions = 100;
    p->tps = 100 / t[n - 1];
    p->interval_s = w;
    p->start_s = w > 0 ? 0.5 : 0;
    p->histogram = hist_new(HIST_DEFAULT_HIGHEST, 3);
    hist_record_n(p->histogram, 1000, 100);
    p->iv_pct = 99;
    p->intervals = calloc((size_t)n, sizeof *p->intervals);
    p->nintervals = n;
    for (int i = 0; i < n; i++)
        p->intervals[i] = (res_interval){ .t = t[i], .duration_s = d[i], .tps = tps[i] };
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(res_oltp_write_file(&r, path, err, sizeof err), 0);
    res_oltp_clear(&r);
}

/* Series by time, not index (issue 21): a VM's TPS series in the summary
 * is on 1-s bins of its phase, each bin the overlap-weighted TPS of the
 * intervals in it. Hand-computed:
 *   x1: 5 intervals of 1 s, 10 20 30 40 50            -> the same 5 bins
 *   x2: 7 intervals of 1, 1, 3 (a stalled tick), 1, 1, 1 and 0.5 s
 *       (t 1 2 5 6 7 8 8.5), TPS 6 6 2 6 6 6 4        -> 9 bins
 *       6 6 2 2 2 6 6 6 4 (the stalled interval lends its rate to the 3
 *       bins it covers; the last half bin is its own)
 *   x3: an older oltp's unaligned intervals, t 1.158 2.158, no duration_s,
 *       TPS 10 and 20 -> bins [0,1]: 10; [1,2]: 0.158*10 + 0.842*20 =
 *       18.42; [2,2.158]: 20 */
static void test_time_bins(void **state)
{
    static const double t1[] = { 1, 2, 3, 4, 5 }, d1[] = { 1, 1, 1, 1, 1 },
                        p1[] = { 10, 20, 30, 40, 50 };
    static const double t2[] = { 1, 2, 5, 6, 7, 8, 8.5 }, d2[] = { 1, 1, 3, 1, 1, 1, 0.5 },
                        p2[] = { 6, 6, 2, 6, 6, 6, 4 }, want2[] = { 6, 6, 2, 2, 2, 6, 6, 6, 4 };
    static const double t3[] = { 1.158, 2.158 }, d3[] = { 0, 0 }, p3[] = { 10, 20 };
    char dir[] = "/tmp/orch-agg-bins-XXXXXX", err[512] = "", path[300];
    static const char *const names[] = { "x1.json", "x2.json", "x3.json" };
    orch_vm_result vms[] = {
        { "x1", "a<b ' & .. x", 1, "x1.json", NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
        { "x2", "a<b ' & .. x", 1, "x2.json", NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
        { "x3", "second", 1, "x3.json", NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
    };
    orch_summary_input in;
    res_summary *s;
    (void)state;
    assert_non_null(mkdtemp(dir));
    write_series(dir, names[0], 5, t1, d1, p1, 1);
    write_series(dir, names[1], 7, t2, d2, p2, 1);
    write_series(dir, names[2], 2, t3, d3, p3, 0);
    memset(&in, 0, sizeof in);
    in.run_id = "bins";
    in.run_dir = dir;
    in.drives = drives;
    in.ndrives = 2;
    in.vms = vms;
    in.nvms = 3;
    in.repetitions = 1;
    s = orch_summary_build(&in, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(s->vms[0].npoints, 5);
    assert_true(s->vms[0].interval_s == 1);
    for (int k = 0; k < 5; k++)
        assert_true(s->vms[0].series[k].t == k + 1 && s->vms[0].series[k].tps == p1[k]);
    assert_int_equal(s->vms[1].npoints, 9);
    for (int k = 0; k < 9; k++) {
        assert_true(s->vms[1].series[k].t == k + 1);
        assert_true(fabs(s->vms[1].series[k].tps - want2[k]) < 1e-12);
    }
    assert_int_equal(s->vms[2].npoints, 3);
    assert_true(s->vms[2].interval_s == 1);      /* no interval_s: the report interval */
    assert_true(fabs(s->vms[2].series[0].tps - 10) < 1e-12);
    assert_true(fabs(s->vms[2].series[1].tps - 18.42) < 1e-12);
    assert_true(fabs(s->vms[2].series[2].tps - 20) < 1e-12);
    assert_true(s->vms[2].series[2].t == 3);
    orch_summary_free(s);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* Write s with orch_summary_write into a scratch folder; returns the CSV
 * text (caller frees) and, in *back, summary.json read back (caller puts). */
static char *write_summary(const res_summary *s, json_object **back)
{
    char dir[] = "/tmp/orch-agg-XXXXXX", path[256], err[512] = "", *csv;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(orch_summary_write(dir, s, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    csv = orch_slurp(path);
    unlink(path);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    *back = json_object_from_file(path);
    unlink(path);
    rmdir(dir);
    return csv;
}

static void test_summary_files(void **state)
{
    char err[512] = "";
    res_summary *s = build_summary(fixture_vms, 3, 1, err, sizeof err);
    json_object *back;
    char *csv = write_summary(s, &back);
    (void)state;
    assert_string_equal(csv,
        "run_id,drive,repetition,vms,tps,transactions,latency_avg_ms,latency_p99_ms,"
        "latency_p99_mean_of_vms_ms,failed_vms,status,failures,tpmC,NOPM" CSV_IO_HEAD CSV_DB_HEAD "\n"
        "fixture-20261130-000000,a<b ' & .. x,1,2,22.5,200,1.03,1.5,2.2505,0,complete,,," CSV_IO_EMPTY CSV_DB_EMPTY "\n"
        "fixture-20261130-000000,second,1,1,8,100,2.08,2,2,0,complete,,," CSV_IO_EMPTY CSV_DB_EMPTY "\n");
    assert_non_null(back);
    assert_string_equal(num(back, "drives.0.latency_ms.p99_mean_of_vms"), "2.2505");
    json_object_put(back);
    orch_summary_free(s);
    free(csv);
}

static void test_csv_quoting(void **state)
{
    static const char *const odd[] = { "a,\"b\"", "second" };
    orch_summary_input in;
    const orch_vm_result vms[] = { { "vm1", "a,\"b\"", 1, VM("a-b-x-vm1"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 } };
    char err[512] = "", *csv;
    res_summary *s;
    json_object *back;
    (void)state;
    memset(&in, 0, sizeof in);
    in.run_id = "r-1";
    in.run_dir = RUN_DIR;
    in.drives = odd;
    in.ndrives = 2;
    in.vms = vms;
    in.nvms = 1;
    in.repetitions = 1;
    s = orch_summary_build(&in, err, sizeof err);
    assert_non_null(s);
    csv = write_summary(s, &back);
    assert_non_null(strstr(csv, "\nr-1,\"a,\"\"b\"\"\",1,1,10,100,1.06,3.001,3.001,0,complete,,," CSV_IO_EMPTY CSV_DB_EMPTY "\n"));
    /* a drive without results has no row */
    assert_null(strstr(csv, "second"));
    json_object_put(back);
    orch_summary_free(s);
    free(csv);
}

static void test_bad_results(void **state)
{
    char dir[] = "/tmp/orch-agg-XXXXXX", path[300], err[512] = "";
    const orch_vm_result missing[] = { { "vm1", "second", 1, "vm/nope.json", NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 } };
    const orch_vm_result unknown_drive[] = { { "vm1", "third", 1, VM("second-vm1"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 } };
    orch_summary_input in;
    orch_vm_result bad[1] = { { "vm1", "second", 1, "bad.json", NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 } };
    struct { const char *json, *msg; } cases[] = {
        { "{\"schema\":\"drivebench.oltp/3\",\"phases\":[]}", "not a drivebench.oltp/2 result" },
        { "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":\"warmup\",\"tps\":1}]}",
          "no \"measure\" phase" },
        { "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":\"measure\",\"tps\":1,"
          "\"histogram\":{\"significant_digits\":3,\"highest_trackable\":1000000,\"count\":2,"
          "\"min\":1,\"max\":1,\"sum\":1,\"buckets\":[[1,1]]}}]}",
          "measure: histogram: histogram count 2 does not match its buckets (1)" },
        /* issue 42: its transactions not its histogram's count */
        { "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":\"measure\",\"tps\":1,"
          "\"duration_s\":1,\"transactions\":3,\"histogram\":{\"significant_digits\":3,"
          "\"highest_trackable\":1000000,\"count\":2,\"min\":1,\"max\":1,\"sum\":2,"
          "\"buckets\":[[1,2]]}}]}",
          "measure: transactions is 3, its histogram holds 2 (count): they must agree" },
    };
    res_summary *s;
    (void)state;
    /* a result missing or refused: a failed VM run, fault "result", the
     * reader's line its reason (issue 42; it failed the whole summary) */
    s = build_summary(missing, 1, 1, err, sizeof err);
    assert_non_null(s);
    assert_true(s->vms[0].failed);
    assert_string_equal(s->vms[0].fault, "result");
    assert_non_null(strstr(s->vms[0].reason, "vm/nope.json: cannot read result JSON"));
    assert_int_equal(s->drives[1].f.failed_vms, 1);
    orch_summary_free(s);
    assert_null(build(unknown_drive, 1, 1, err, sizeof err));
    assert_non_null(strstr(err, "has no drive or repetition in the plan"));
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/bad.json", dir);
    memset(&in, 0, sizeof in);
    in.run_id = "r-1";
    in.run_dir = dir;
    in.drives = drives;
    in.ndrives = 2;
    in.vms = bad;
    in.nvms = 1;
    in.repetitions = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(path, "w");
        char want[600];
        assert_non_null(f);
        fputs(cases[i].json, f);
        fclose(f);
        s = orch_summary_build(&in, err, sizeof err);
        assert_non_null(s);
        snprintf(want, sizeof want, "its result was refused: %s: %s", path, cases[i].msg);
        assert_string_equal(s->vms[0].fault, "result");
        assert_string_equal(s->vms[0].reason, want);
        assert_string_equal(s->vms[0].failed_in, "measure");
        assert_false(s->vms[0].measured);
        assert_int_equal(s->drives[1].f.vms, 0);
        assert_int_equal(s->drives[1].f.failed_vms, 1);
        assert_int_equal(s->status, RES_RUN_DEGRADED);
        orch_summary_free(s);
    }
    unlink(path);
    rmdir(dir);
}

/* TPC-C: real `oltp tpcc run --json` results against MariaDB
 * (results/fixtures/tpcc, made by tests/report/make-tpcc-fixtures.sh), two
 * VMs on nvme-a and one on sata-b. The expected figures were computed
 * independently of hist.c, from the fixtures' JSON, by this script (run
 * from the repository root; HdrHistogram's rules with 3 significant
 * digits: values below 2048 us are exact, a percentile is the top of the
 * bucket holding rank (int)(p/100*N+0.5), never above the max seen):
 *
 *   import json
 *   D = "results/fixtures/tpcc/vm/drivebench-tpcc-20261201-000000--"
 *   def hi_eq(v):
 *       b = max((v | 2047).bit_length() - 11, 0)
 *       return ((v >> b) << b) + (1 << b) - 1
 *   def pct(buckets, total, mx, p):
 *       want, seen = max(int(p / 100 * total + 0.5), 1), 0
 *       for v, c in sorted(buckets.items()):
 *           seen += c
 *           if seen >= want:
 *               return min(hi_eq(v), mx)
 *   def merge(vms):
 *       ms = [json.load(open(D + v + ".r1.json"))["phases"][-1] for v in vms]
 *       print(sum(m["tpcc"]["tpmC"] for m in ms), sum(m["tpcc"]["NOPM"] for m in ms))
 *       for t in range(5):
 *           ts, b = [m["transaction_types"][t] for m in ms], {}
 *           for x in ts:
 *               for v, c in x["histogram"]["buckets"]:
 *                   b[v] = b.get(v, 0) + c
 *           n = sum(x["histogram"]["count"] for x in ts)
 *           mx = max(x["histogram"]["max"] for x in ts)
 *           s = sum(x["histogram"]["sum"] for x in ts)
 *           print(ts[0]["name"], sum(x["count"] for x in ts),
 *                 sum(x["rollbacks"] for x in ts), s / n / 1000,
 *                 pct(b, n, mx, 90) / 1000, pct(b, n, mx, 99) / 1000)
 *   merge(["nvme-a-vm1", "nvme-a-vm2"]); merge(["sata-b-vm1"])
 *   merge(["nvme-a-vm1", "nvme-a-vm2", "sata-b-vm1"])
 */
#define TPCC_VM(x) "vm/drivebench-tpcc-20261201-000000--" x ".r1.json"

static void test_tpcc_figures(void **state)
{
    static const char *const tdrives[] = { "nvme-a", "sata-b" };
    static const orch_vm_result vms[] = {
        { "vm1", "nvme-a", 1, TPCC_VM("nvme-a-vm1"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
        { "vm2", "nvme-a", 1, TPCC_VM("nvme-a-vm2"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
        { "vm3", "sata-b", 1, TPCC_VM("sata-b-vm1"), NULL, NULL, { 0 }, NULL, NULL, NULL, NULL, NULL, -1, 0 },
    };
    /* name, count, rollbacks, avg, p90, p99 (ms) per type, per drive */
    static const struct { const char *path, *name, *count, *rollbacks, *avg, *p90, *p99; } want[] = {
        { "drives.0.tpcc", "New-Order", "4548", "52", "3.396108", "5.299", "10.143" },
        { "drives.0.tpcc", "Payment", "4543", "0", "0.819631", "1.164", "2.321" },
        { "drives.0.tpcc", "Order-Status", "454", "0", "0.650526", "0.911", "1.493" },
        { "drives.0.tpcc", "Delivery", "455", "0", "8.559213", "11.327", "25.679" },
        { "drives.0.tpcc", "Stock-Level", "456", "0", "1.391406", "2.014", "3.117" },
        { "drives.1.tpcc", "New-Order", "2208", "25", "3.440223", "6.827", "14.679" },
        { "drives.1.tpcc", "Payment", "2208", "0", "0.89218", "1.007", "5.531" },
        { "drives.1.tpcc", "Order-Status", "220", "0", "0.838705", "1.243", "5.443" },
        { "drives.1.tpcc", "Delivery", "220", "0", "8.4637", "13.527", "28.463" },
        { "drives.1.tpcc", "Stock-Level", "221", "0", "1.726389", "2.529", "5.527" },
        { "run.tpcc", "New-Order", "6756", "77", "3.410525", "5.515", "12.327" },
        { "run.tpcc", "Payment", "6751", "0", "0.843359", "1.148", "4.519" },
        { "run.tpcc", "Order-Status", "674", "0", "0.71195", "0.951", "2.591" },
        { "run.tpcc", "Delivery", "675", "0", "8.528083", "11.775", "28.463" },
        { "run.tpcc", "Stock-Level", "677", "0", "1.500758", "2.044", "5.163" },
    };
    orch_summary_input in;
    char err[512] = "", key[128], dir[] = "/tmp/orch-agg-tpcc-XXXXXX", *csv;
    res_summary *sum, back;
    json_object *s;
    (void)state;
    memset(&in, 0, sizeof in);
    in.run_id = "tpcc-20261201-000000";
    in.run_dir = "results/fixtures/tpcc";
    in.drives = tdrives;
    in.ndrives = 2;
    in.vms = vms;
    in.nvms = 3;
    in.repetitions = 1;
    sum = orch_summary_build(&in, err, sizeof err);
    assert_non_null(sum);
    s = res_summary_to_json(sum);
    assert_string_equal(num(s, "drives.0.tpcc.tpmC"), "45480.448493");
    assert_string_equal(num(s, "drives.0.tpcc.NOPM"), "44960.442833");
    assert_string_equal(num(s, "drives.0.tpcc.rollbacks"), "52");
    assert_string_equal(num(s, "drives.0.tpcc.p90_limits_met"), "true");
    assert_string_equal(num(s, "drives.0.repetitions.0.tpcc.tpmC"), "45480.448493");
    assert_string_equal(num(s, "drives.1.tpcc.tpmC"), "22079.849673");
    assert_string_equal(num(s, "drives.1.tpcc.NOPM"), "21829.851375");
    assert_string_equal(num(s, "run.tpcc.tpmC"), "67560.298166");
    assert_string_equal(num(s, "run.tpcc.NOPM"), "66790.294208");
    assert_string_equal(num(s, "run.tpcc.rollbacks"), "77");
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *p = want[i].path;
        int t = (int)(i % 5);
        snprintf(key, sizeof key, "%s.transaction_types.%d.name", p, t);
        assert_string_equal(json_object_get_string(at(s, key)), want[i].name);
        snprintf(key, sizeof key, "%s.transaction_types.%d.count", p, t);
        assert_string_equal(num(s, key), want[i].count);
        snprintf(key, sizeof key, "%s.transaction_types.%d.rollbacks", p, t);
        assert_string_equal(num(s, key), want[i].rollbacks);
        snprintf(key, sizeof key, "%s.transaction_types.%d.latency_ms.avg", p, t);
        assert_string_equal(num(s, key), want[i].avg);
        snprintf(key, sizeof key, "%s.transaction_types.%d.latency_ms.p90", p, t);
        assert_string_equal(num(s, key), want[i].p90);
        snprintf(key, sizeof key, "%s.transaction_types.%d.latency_ms.p99", p, t);
        assert_string_equal(num(s, key), want[i].p99);
        snprintf(key, sizeof key, "%s.transaction_types.%d.p90_limit_ms", p, t);
        assert_string_equal(num(s, key), t == 4 ? "20000" : "5000");
        snprintf(key, sizeof key, "%s.transaction_types.%d.p90_met", p, t);
        assert_string_equal(num(s, key), "true");
    }
    json_object_put(s);
    /* summary.csv: tpmC and NOPM after the existing columns; summary.json
     * reads back with the same figures */
    assert_non_null(mkdtemp(dir));
    assert_int_equal(orch_summary_write(dir, sum, err, sizeof err), 0);
    snprintf(key, sizeof key, "%s/summary.csv", dir);
    csv = orch_slurp(key);
    assert_non_null(csv);
    assert_non_null(strstr(csv, ",failures,tpmC,NOPM" CSV_IO_HEAD CSV_DB_HEAD "\n"));
    assert_non_null(strstr(csv, "\ntpcc-20261201-000000,nvme-a,1,2,"));
    assert_non_null(strstr(csv, ",0,complete,,45480.448493,44960.442833" CSV_IO_EMPTY CSV_DB_EMPTY "\n"));
    assert_non_null(strstr(csv, ",0,complete,,22079.849673,21829.851375" CSV_IO_EMPTY CSV_DB_EMPTY "\n"));
    free(csv);
    snprintf(key, sizeof key, "%s/summary.json", dir);
    assert_int_equal(res_summary_read_file(key, &back, err, sizeof err), 0);
    assert_non_null(back.drives[0].f.tpcc);
    assert_true(back.drives[0].f.tpcc->has_nopm);
    assert_int_equal(back.drives[0].f.tpcc->ntypes, 5);
    assert_string_equal(back.drives[0].f.tpcc->types[3].name, "Delivery");
    assert_true(back.drives[0].f.tpcc->types[3].lat_p99_ms == 25.679);
    assert_int_equal(back.run.tpcc->rollbacks, 77);
    assert_non_null(back.drives[0].reps[0].f.tpcc);
    res_summary_clear(&back);
    snprintf(key, sizeof key, "rm -rf %s", dir);
    assert_int_equal(system(key), 0);
    orch_summary_free(sum);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drive_figures),
        cmocka_unit_test(test_vm_and_run_figures),
        cmocka_unit_test(test_repetitions),
        cmocka_unit_test(test_failed_vm_in_one_repetition),
        cmocka_unit_test(test_zero_transactions),
        cmocka_unit_test(test_partial_run),
        cmocka_unit_test(test_summary_files),
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_bad_results),
        cmocka_unit_test(test_tpcc_figures),
        cmocka_unit_test(test_time_bins),
    };
    return cmocka_run_group_tests_name("orchestrator aggregate", tests, NULL, NULL);
}
