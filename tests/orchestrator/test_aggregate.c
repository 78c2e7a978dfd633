/* Aggregation from fixture oltp results (results/fixtures/run): per-drive
 * sums, merged-histogram p99 and the mean of per-VM p99s, exact values.
 * Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggregate.h"
#include "testlib.h"

#define RUN_DIR "results/fixtures/run"
#define VM(x) "vm/drivebench-fixture-20261130-000000--" x ".r1.json"

static const char *const drives[] = { "a<b ' & .. x", "second" };

static const orch_vm_result fixture_vms[] = {
    { "vm1", "a<b ' & .. x", 1, VM("a-b-x-vm1"), NULL, NULL, { 0 }, NULL, NULL },
    { "vm2", "a<b ' & .. x", 1, VM("a-b-x-vm2"), NULL, NULL, { 0 }, NULL, NULL },
    { "vm3", "second", 1, VM("second-vm1"), NULL, NULL, { 0 }, NULL, NULL },
};

static res_summary *build_summary(const orch_vm_result *vms, int nvms, int reps, char *err,
                                  size_t len)
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
    return orch_summary_build(&in, err, len);
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
    assert_string_equal(json_object_get_string(at(s, "schema")), "drivebench.summary/2");
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
    /* the interval samples ride along for TPS-over-time charts */
    assert_int_equal(json_object_array_length(at(s, "vms.0.tps_series")), 10);
    assert_string_equal(num(s, "vms.0.tps_series.0"), "[ 1, 9 ]");
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
        { "vm1", "second", 1, VM("second-vm1"), NULL, NULL, { 0 }, NULL, NULL },
        { "vm1", "second", 2, VM("a-b-x-vm2"), NULL, NULL, { 0 }, NULL, NULL },
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
        "latency_p99_mean_of_vms_ms,failed_vms,status,failures\n"
        "fixture-20261130-000000,a<b ' & .. x,1,2,22.5,200,1.03,1.5,2.2505,0,complete,\n"
        "fixture-20261130-000000,second,1,1,8,100,2.08,2,2,0,complete,\n");
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
    const orch_vm_result vms[] = { { "vm1", "a,\"b\"", 1, VM("a-b-x-vm1"), NULL, NULL, { 0 }, NULL, NULL } };
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
    assert_non_null(strstr(csv, "\nr-1,\"a,\"\"b\"\"\",1,1,10,100,1.06,3.001,3.001,0,complete,\n"));
    /* a drive without results has no row */
    assert_null(strstr(csv, "second"));
    json_object_put(back);
    orch_summary_free(s);
    free(csv);
}

static void test_bad_results(void **state)
{
    char dir[] = "/tmp/orch-agg-XXXXXX", path[300], err[512] = "";
    const orch_vm_result missing[] = { { "vm1", "second", 1, "vm/nope.json", NULL, NULL, { 0 }, NULL, NULL } };
    const orch_vm_result unknown_drive[] = { { "vm1", "third", 1, VM("second-vm1"), NULL, NULL, { 0 }, NULL, NULL } };
    orch_summary_input in;
    orch_vm_result bad[1] = { { "vm1", "second", 1, "bad.json", NULL, NULL, { 0 }, NULL, NULL } };
    struct { const char *json, *msg; } cases[] = {
        { "{\"schema\":\"drivebench.oltp/2\",\"phases\":[]}", "not a drivebench.oltp/1 result" },
        { "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":\"warmup\",\"tps\":1}]}",
          "no \"measure\" phase" },
        { "{\"schema\":\"drivebench.oltp/1\",\"phases\":[{\"name\":\"measure\",\"tps\":1,"
          "\"histogram\":{\"significant_digits\":3,\"highest_trackable\":1000000,\"count\":2,"
          "\"min\":1,\"max\":1,\"sum\":1,\"buckets\":[[1,1]]}}]}",
          "histogram: histogram count 2 does not match its buckets (1)" },
    };
    (void)state;
    assert_null(build(missing, 1, 1, err, sizeof err));
    assert_non_null(strstr(err, "vm/nope.json: cannot read result JSON"));
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
        assert_null(orch_summary_build(&in, err, sizeof err));
        snprintf(want, sizeof want, "%s: %s", path, cases[i].msg);
        assert_string_equal(err, want);
    }
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drive_figures),
        cmocka_unit_test(test_vm_and_run_figures),
        cmocka_unit_test(test_repetitions),
        cmocka_unit_test(test_summary_files),
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_bad_results),
    };
    return cmocka_run_group_tests_name("orchestrator aggregate", tests, NULL, NULL);
}
