/* Sweeps (issue 34, run/sweep.c): a plan sweeping [workload] rate and
 * one sweeping [run] vms_per_drive run on libvirt's test driver, each
 * step a run of its own with the stand-in oltp's TPS per step; the exact
 * figures per step and drive and the knees in sweep.json, the oltp
 * arguments of each step, the sweep's page checked by XPath (the curves
 * and the knee marks), and a failing step ending the sweep. Runs from
 * the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>

#include "plan/plan.h"
#include "run/run.h"
#include "results_capacity.h"
#include "results_sweep.h"
#include "results_summary.h"
#include <json-c/json.h>
#include "testlib.h"

/* The string value of XPath expr over the page at path ("" when nothing). */
static char *xpath_text(const char *path, const char *expr)
{
    htmlDocPtr doc = htmlReadFile(path, NULL, HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
    xmlXPathContextPtr ctx = doc ? xmlXPathNewContext(doc) : NULL;
    xmlXPathObjectPtr r = ctx ? xmlXPathEvalExpression(BAD_CAST expr, ctx) : NULL;
    xmlChar *s = r ? xmlXPathCastToString(r) : NULL;
    char *out = strdup(s ? (const char *)s : "");
    assert_non_null(doc);
    xmlFree(s);
    xmlXPathFreeObject(r);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return out;
}

static void assert_xpath(const char *path, const char *expr, const char *want)
{
    char *got = xpath_text(path, expr);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "XPath %s: got '%s', want '%s'\n", expr, got, want);
    assert_string_equal(got, want);
    free(got);
}

/* Step s (0-based), drive d of w: its name, completeness and TPS. */
static void assert_step_drive(const res_sweep *w, int s, int d, const char *name, int vms,
                              double tps)
{
    assert_true(s < w->nsteps && d < w->steps[s].ndrives);
    assert_string_equal(w->steps[s].drives[d].name, name);
    assert_true(w->steps[s].drives[d].complete);
    assert_int_equal(w->steps[s].drives[d].vms, vms);
    assert_true(w->steps[s].drives[d].tps == tps);
    assert_true(w->steps[s].drives[d].lat_p99_ms > 0);
}

static void read_sweep(orch_fixture *f, res_sweep *w)
{
    char path[PATH_MAX], err[512];
    snprintf(path, sizeof path, "%s/%s/sweep.json", f->results, RUN_ID);
    assert_int_equal(res_sweep_read_file(path, w, err, sizeof err), 0);
}

/* rate = 10,20,40: three runs, oltp's --rate each step's, the stand-in's
 * TPS per VM 5, 9.5, 9.6: drive a<b (2 VMs) 10, 19, 19.2, drive second
 * 5, 9.5, 9.6; both knees at step 2 (19 >= 0.95 x 19.2). */
static void test_sweep_rate(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan_timed(f, "profile = tiny\n", "measure = 1s\nrate = 10,20,40\n",
                                           "pool = userpool\n");
    orch_run_opts o;
    res_sweep w;
    char page[PATH_MAX], want[256];

    assert_int_equal(p->nsweep, 3);
    assert_true(p->rate == 10);
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    setenv("FAKE_OLTP_STEP_TPS", "5 9.5 9.6", 1);
    assert_int_equal(orch_run_sweep(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_STEP_TPS");
    assert_string_equal(o.run_id_out, RUN_ID);
    snprintf(want, sizeof want, "sweep %s: [workload] rate in 3 steps, results in %s/%s\n", RUN_ID,
             f->results, RUN_ID);
    orch_assert_output(f, want);
    orch_assert_output(f, "sweep step 2 of 3: [workload] rate = 20 on the same VMs (run " RUN_ID
                         "-s2)\n");
    orch_assert_output(f, "sweep: drive a<b ' & .. x: knee at rate = 20 (19.00 TPS, step 2)\n");
    orch_assert_output(f, "sweep: drive second: knee at rate = 20 (9.50 TPS, step 2)\n");
    /* each step's measured phase ran with its own rate, on every VM */
    assert_int_equal(orch_count_lines(f->log, "--rate=10 "), 3);
    assert_int_equal(orch_count_lines(f->log, "--rate=20 "), 3);
    assert_int_equal(orch_count_lines(f->log, "--rate=40 "), 3);
    /* the sweep's folder keeps the plan as given, each step's the plan it ran */
    {
        char top[PATH_MAX], step[PATH_MAX];
        snprintf(top, sizeof top, "%s/%s/plan.ini", f->results, RUN_ID);
        snprintf(step, sizeof step, "%s/%s/%s-s2/plan.ini", f->results, RUN_ID, RUN_ID);
        assert_int_equal(orch_count_lines(top, "rate = 10,20,40"), 1);
        assert_int_equal(orch_count_lines(step, "rate = "), 1);
        assert_int_equal(orch_count_lines(step, "rate = 20"), 1);
        assert_int_equal(orch_count_lines(step, NULL), orch_count_lines(top, NULL));
    }
    read_sweep(f, &w);
    assert_string_equal(w.key, "rate");
    assert_string_equal(w.section, "workload");
    assert_int_equal(w.nsteps, 3);
    for (int s = 0; s < 3; s++) {
        char id[64];
        snprintf(id, sizeof id, "%s-s%d", RUN_ID, s + 1);
        assert_string_equal(w.steps[s].run_id, id);
        assert_string_equal(w.steps[s].status, "complete");
        assert_true(w.steps[s].value == 10 << s);
    }
    assert_step_drive(&w, 0, 0, "a<b ' & .. x", 2, 10);
    assert_step_drive(&w, 1, 0, "a<b ' & .. x", 2, 19);
    assert_step_drive(&w, 2, 0, "a<b ' & .. x", 2, 19.2);
    assert_step_drive(&w, 0, 1, "second", 1, 5);
    assert_step_drive(&w, 1, 1, "second", 1, 9.5);
    assert_step_drive(&w, 2, 1, "second", 1, 9.6);
    assert_int_equal(w.nknees, 2);
    assert_string_equal(w.knees[0].drive, "a<b ' & .. x");
    assert_int_equal(w.knees[0].step, 2);
    assert_true(w.knees[0].value == 20 && w.knees[0].tps == 19);
    assert_string_equal(w.knees[1].drive, "second");
    assert_true(w.knees[1].value == 20 && w.knees[1].tps == 9.5);
    res_sweep_clear(&w);
    /* the page: a TPS and a p99 curve per drive through its three steps,
     * the knee marked on both */
    snprintf(page, sizeof page, "%s/%s/report.html", f->results, RUN_ID);
    assert_xpath(page, "count(//svg[contains(@class,'chart')])", "4");
    assert_xpath(page, "string(//section[@data-drive='second']/svg[1]/@id)", "sweep-tps-1");
    assert_xpath(page, "string(//svg[@id='sweep-tps-0']//polyline[@class='series']/@data-label)",
                 "a<b ' & .. x");
    assert_xpath(page, "count(//svg[@id='sweep-tps-0']//polyline[@class='series'])", "1");
    assert_xpath(page, "string(//svg[@id='sweep-tps-0']//g[@class='mark']/@data-x)", "20");
    assert_xpath(page, "string(//svg[@id='sweep-p99-1']//g[@class='mark']/@data-label)",
                 "knee: rate 20");
    assert_xpath(page, "string(//table[@id='sweep-steps']//tr[@data-step='3']"
                       "[@data-drive=\"a<b ' & .. x\"]/td[@data-key='tps']/@data-value)", "19.2");
    assert_xpath(page, "count(//table[@id='sweep-steps']/tbody/tr)", "6");
    orch_plan_free(p);
}

/* The fixture's plan with [run] vms_per_drive = vms instead of drive
 * a<b's own 2 VMs (a drive's vms would not follow the sweep). Caller
 * frees. */
static orch_plan *vms_plan(orch_fixture *f, const char *vms)
{
    char path[PATH_MAX], *text, *at;
    FILE *pf;
    orch_plan *p = orch_fixture_plan_timed(f, "profile = tiny\nvms_per_drive = 1\n",
                                           "measure = 1s\n", "pool = userpool\n");
    orch_plan_free(p);
    snprintf(path, sizeof path, "%s/plan.ini", f->results);
    text = orch_slurp(path);
    at = strstr(text, "vms = 2\n");
    assert_non_null(at);
    memmove(at, at + strlen("vms = 2\n"), strlen(at + strlen("vms = 2\n")) + 1);
    at = strstr(text, "vms_per_drive = 1\n");
    assert_non_null(at);
    pf = fopen(path, "w");
    assert_non_null(pf);
    fprintf(pf, "%.*svms_per_drive = %s\n%s", (int)(at - text), text, vms,
            at + strlen("vms_per_drive = 1\n"));
    fclose(pf);
    free(text);
    p = orch_plan_load(path, stderr);
    assert_non_null(p);
    return p;
}

/* vms_per_drive = 1,2: step 1 one VM a drive, step 2 two; the drives'
 * TPS the sum of their VMs' (the stand-in's 4, then 3.5 a VM): 4 then 7,
 * the knee at 2 VMs. */
static void test_sweep_vms(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = vms_plan(f, "1,2");
    orch_run_opts o;
    res_sweep w;
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    setenv("FAKE_OLTP_STEP_TPS", "4 3.5", 1);
    assert_int_equal(orch_run_sweep(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_STEP_TPS");
    orch_assert_output(f, "sweep step 1 of 2: [run] vms_per_drive = 1 (run " RUN_ID "-s1)\n");
    /* a key that changes the VMs: each step boots its own (2, then 4) */
    orch_assert_output(f, "waiting for 2 VM(s) to boot");
    orch_assert_output(f, "waiting for 4 VM(s) to boot");
    /* 2 VMs, then 4, each measured once */
    assert_int_equal(orch_count_lines(f->log, " run"), 6);
    read_sweep(f, &w);
    assert_string_equal(w.key, "vms_per_drive");
    assert_step_drive(&w, 0, 0, "a<b ' & .. x", 1, 4);
    assert_step_drive(&w, 1, 0, "a<b ' & .. x", 2, 7);
    assert_step_drive(&w, 0, 1, "second", 1, 4);
    assert_step_drive(&w, 1, 1, "second", 2, 7);
    assert_int_equal(w.nknees, 2);
    assert_true(w.knees[0].value == 2 && w.knees[0].step == 2);
    res_sweep_clear(&w);
    orch_plan_free(p);
}

/* The fixture's plan with [workload] threads = list and the [workload]
 * lines times. Caller frees. */
static orch_plan *threads_plan(orch_fixture *f, const char *list, const char *times)
{
    char path[PATH_MAX], *text, *at;
    FILE *pf;
    orch_plan *p = orch_fixture_plan_timed(f, "profile = tiny\n", times, "pool = userpool\n");
    orch_plan_free(p);
    snprintf(path, sizeof path, "%s/plan.ini", f->results);
    text = orch_slurp(path);
    at = strstr(text, "threads = 2\n");
    assert_non_null(at);
    pf = fopen(path, "w");
    assert_non_null(pf);
    fprintf(pf, "%.*sthreads = %s\n%s", (int)(at - text), text, list, at + strlen("threads = 2\n"));
    fclose(pf);
    free(text);
    p = orch_plan_load(path, stderr);
    assert_non_null(p);
    return p;
}

/* The line numbers (1-based) in path of the first and the last line
 * holding needle (0 when none). */
static void line_span(const char *path, const char *needle, int *first, int *last)
{
    char *text = orch_slurp(path), *line = text, *nl;
    int n = 0;
    *first = *last = 0;
    for (; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        n++;
        if (strstr(line, needle)) {
            *first = *first ? *first : n;
            *last = n;
        }
    }
    free(text);
}

/* The sum of the measured TPS of the VM result files of step s's
 * summary (its oltp result files), and their number into *n. */
static double step_result_tps(orch_fixture *f, int s, int *n)
{
    char dir[PATH_MAX], path[PATH_MAX * 2], err[512];
    json_object *sum, *vms;
    double tps = 0;
    snprintf(dir, sizeof dir, "%s/%s/%s-s%d", f->results, RUN_ID, RUN_ID, s);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    sum = json_object_from_file(path);
    assert_non_null(sum);
    assert_true(json_object_object_get_ex(sum, "vms", &vms));
    *n = (int)json_object_array_length(vms);
    for (int i = 0; i < *n; i++) {
        json_object *r;
        res_oltp o;
        const res_phase *ph;
        assert_true(json_object_object_get_ex(json_object_array_get_idx(vms, i), "result", &r));
        snprintf(path, sizeof path, "%s/%s", dir, json_object_get_string(r));
        assert_int_equal(res_oltp_read_file(path, &o, err, sizeof err), 0);
        ph = res_oltp_measure(&o);
        assert_non_null(ph);
        tps += ph->tps;
        res_oltp_clear(&o);
    }
    json_object_put(sum);
    return tps;
}

/* threads = 1,2,4 on the same VMs (issue 45): the 3 VMs booted once,
 * prepared once and preconditioned once (one round each), then the three
 * steps measured in order on them (3 VMs each), the steps after the first
 * after step_warmup; each step a run folder with its summary, whose
 * drive TPS is the sum of its VMs' result files; one teardown. */
static void test_sweep_same_vms(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = threads_plan(f, "1,2,4", "precondition = 1s\nmeasure = 1s\nprepare = yes\n"
                                           "step_warmup = 2s\n");
    orch_run_opts o;
    res_sweep w;
    int first[3], last[3], n;
    const char *args[3] = { "--threads=1 ", "--threads=2 ", "--threads=4 " };
    char why[256];

    assert_int_equal(orch_plan_sweep_same_vms(p, why, sizeof why), 1);
    assert_string_equal(why, "[workload] threads is a load on the same VMs");
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    setenv("FAKE_OLTP_STEP_TPS", "5 9.5 9.6", 1);
    assert_int_equal(orch_run_sweep(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_STEP_TPS");
    orch_assert_output(f, "sweep step 1 of 3: [workload] threads = 1 (run " RUN_ID "-s1; the VMs "
                          "provisioned, prepared and preconditioned once, for every step)\n");
    orch_assert_output(f, "sweep step 3 of 3: [workload] threads = 4 on the same VMs (run "
                          RUN_ID "-s3)\n");
    /* one boot, one prepare, one precondition round: 3 VMs each */
    {
        const char *out = orch_fixture_output(f);
        int boots = 0;
        for (const char *at = out; (at = strstr(at, "waiting for 3 VM(s) to boot")); at++)
            boots++;
        assert_int_equal(boots, 1);
        assert_null(strstr(out, "-s2--"));
    }
    assert_int_equal(orch_count_lines(f->log, " prepare"), 3);
    assert_int_equal(orch_count_lines(f->log, ".precondition."), 3);
    assert_int_equal(orch_count_lines(f->log, "--warmup-time=2 "), 6);
    /* the measured phases: 3 VMs a step, the steps in order (step 1's
     * folder also has the precondition's and the settings' read-back files) */
    for (int s = 0; s < 3; s++) {
        char json[64];
        snprintf(json, sizeof json, RUN_ID "-s%d/vm/", s + 1);
        assert_int_equal(orch_count_lines(f->log, json), s == 0 ? 9 : 3);
        line_span(f->log, json, &first[s], &last[s]);
        assert_true(first[s] > 0);
        if (s)
            assert_true(first[s] > last[s - 1]);
        assert_int_equal(orch_count_lines(f->log, args[s]), s == 0 ? 9 : 3);
    }
    /* one teardown of the VMs, then of the run's pools: nothing left */
    orch_assert_teardown(f, 3, 6, 0, 1);
    {
        const char *out = orch_fixture_output(f);
        int n_td = 0;
        for (const char *at = out; (at = strstr(at, "teardown: removed")); at++)
            n_td++;
        assert_int_equal(n_td, 2);
    }
    read_sweep(f, &w);
    assert_int_equal(w.nsteps, 3);
    for (int s = 0; s < 3; s++) {
        assert_string_equal(w.steps[s].status, "complete");
        assert_true(w.steps[s].value == 1 << s);
        /* each step's figures are its oltp result files' */
        assert_true(step_result_tps(f, s + 1, &n) == w.steps[s].drives[0].tps
                                                   + w.steps[s].drives[1].tps);
        assert_int_equal(n, 3);
    }
    assert_step_drive(&w, 0, 0, "a<b ' & .. x", 2, 10);
    assert_step_drive(&w, 1, 0, "a<b ' & .. x", 2, 19);
    assert_step_drive(&w, 2, 0, "a<b ' & .. x", 2, 19.2);
    assert_step_drive(&w, 2, 1, "second", 1, 9.6);
    res_sweep_clear(&w);
    orch_plan_free(p);
}

/* restore_between_steps = yes: each step a run of its own, the VMs
 * booted and preconditioned again at every step. */
static void test_sweep_restore_between(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan_timed(f, "profile = tiny\n", "measure = 1s\nprecondition = 1s\n"
                                           "rate = 10,20\nrestore_between_steps = yes\n",
                                           "pool = userpool\n");
    orch_run_opts o;
    const char *out;
    int boots = 0;
    char why[256];
    assert_int_equal(orch_plan_sweep_same_vms(p, why, sizeof why), 0);
    assert_string_equal(why, "restore_between_steps = yes");
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    assert_int_equal(orch_run_sweep(p, &o), ORCH_RUN_OK);
    out = orch_fixture_output(f);
    for (const char *at = out; (at = strstr(at, "waiting for 3 VM(s) to boot")); at++)
        boots++;
    assert_int_equal(boots, 2);
    assert_int_equal(orch_count_lines(f->log, ".precondition."), 6);
    orch_assert_output(f, "sweep step 2 of 2: [workload] rate = 20 (run " RUN_ID "-s2)\n");
    orch_plan_free(p);
}

/* A step whose every VM fails ends the sweep: step 1 complete, step 2
 * partial (its summary written after the failure), step 3 not run; the run fails and
 * still writes sweep.json and its page. */
static void test_sweep_failed_step(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan_timed(f, "profile = tiny\n", "measure = 1s\nrate = 10,20,40\n",
                                           "pool = userpool\n");
    orch_run_opts o;
    res_sweep w;
    char page[PATH_MAX];
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    setenv("FAKE_OLTP_EXIT", "1", 1);
    setenv("FAKE_OLTP_MATCH", "--rate=20 ", 1);
    assert_int_equal(orch_run_sweep(p, &o), ORCH_RUN_FAILED);
    unsetenv("FAKE_OLTP_EXIT");
    unsetenv("FAKE_OLTP_MATCH");
    assert_int_equal(orch_count_lines(f->log, "--rate=40 "), 0);
    /* on the same VMs: the failed step's VMs torn down with the run's */
    orch_assert_teardown(f, 3, 6, 0, 1);
    read_sweep(f, &w);
    assert_int_equal(w.nsteps, 3);
    assert_string_equal(w.steps[0].status, "complete");
    assert_string_equal(w.steps[1].status, "partial");
    assert_false(w.steps[1].drives[0].complete);
    assert_string_equal(w.steps[2].status, "not run");
    assert_int_equal(w.steps[2].ndrives, 0);
    assert_int_equal(w.nknees, 2);
    assert_true(w.knees[0].step == 1);
    res_sweep_clear(&w);
    snprintf(page, sizeof page, "%s/%s/report.html", f->results, RUN_ID);
    assert_xpath(page, "string(//table[@id='sweep-steps']//tr[@data-step='3']/td[3])", "not run");
    orch_plan_free(p);
}

/* sweep.json through the results module: written and read back equal, a
 * figure not measured left out (never 0), another document refused with
 * the file's name. */
static void test_sweep_json(void **state)
{
    orch_fixture *f = *state;
    res_sweep_drive dr[2] = { { .name = (char *)"nvme <a>", .complete = true, .vms = 4,
                                .tps = 1012.75, .lat_avg_ms = 31.6, .lat_p99_ms = 98.4 },
                              { .name = (char *)"sata", .complete = false, .vms = 0,
                                .tps = NAN, .lat_avg_ms = NAN, .lat_p99_ms = NAN } };
    res_sweep_step st = { .value = 32, .run_id = (char *)"s-20261204-000000-s1",
                          .status = (char *)"completed_with_failures", .drives = dr,
                          .ndrives = 2 };
    res_sweep_knee kn = { .drive = (char *)"nvme <a>", .step = 1, .value = 32, .tps = 1012.75 };
    res_sweep w = { .run_id = (char *)"s-20261204-000000", .plan_name = (char *)"s",
                    .section = (char *)"workload", .key = (char *)"threads", .steps = &st,
                    .nsteps = 1, .knees = &kn, .nknees = 1 }, r;
    char path[PATH_MAX], err[512], want[PATH_MAX + 64], *text;
    FILE *o;
    (void)state;
    assert_int_equal(res_sweep_write_file(&w, f->results, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/sweep.json", f->results);
    text = orch_slurp(path);
    /* the drive not measured has no figures, never 0 */
    assert_string_equal(text,
        "{\n  \"schema\":\"drivebench.sweep/1\",\n  \"run_id\":\"s-20261204-000000\",\n"
        "  \"plan\":\"s\",\n  \"section\":\"workload\",\n  \"key\":\"threads\",\n"
        "  \"steps\":[\n    {\n      \"value\":32,\n      \"run_id\":\"s-20261204-000000-s1\",\n"
        "      \"status\":\"completed_with_failures\",\n      \"drives\":[\n        {\n"
        "          \"name\":\"nvme <a>\",\n          \"complete\":true,\n          \"vms\":4,\n"
        "          \"tps\":1012.75,\n          \"lat_avg_ms\":31.6,\n          \"lat_p99_ms\":98.4\n"
        "        },\n        {\n          \"name\":\"sata\",\n          \"complete\":false,\n"
        "          \"vms\":0\n        }\n      ]\n    }\n  ],\n  \"knees\":[\n    {\n"
        "      \"drive\":\"nvme <a>\",\n      \"step\":1,\n      \"value\":32,\n"
        "      \"tps\":1012.75\n    }\n  ]\n}");
    free(text);
    assert_int_equal(res_sweep_read_file(path, &r, err, sizeof err), 0);
    assert_string_equal(r.key, "threads");
    assert_int_equal(r.nsteps, 1);
    assert_int_equal(r.steps[0].ndrives, 2);
    assert_true(r.steps[0].value == 32);
    assert_string_equal(r.steps[0].status, "completed_with_failures");
    assert_string_equal(r.steps[0].drives[0].name, "nvme <a>");
    assert_true(r.steps[0].drives[0].tps == 1012.75 && r.steps[0].drives[0].lat_p99_ms == 98.4);
    assert_false(r.steps[0].drives[1].complete);
    assert_true(isnan(r.steps[0].drives[1].tps));
    assert_int_equal(r.nknees, 1);
    assert_true(r.knees[0].step == 1 && r.knees[0].tps == 1012.75);
    res_sweep_clear(&r);
    o = fopen(path, "w");
    assert_non_null(o);
    fputs("{\"schema\": \"drivebench.summary/2\", \"drives\": [], \"vms\": []}\n", o);
    fclose(o);
    assert_int_equal(res_sweep_read_file(path, &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: not a drivebench.sweep/1 document", path);
    assert_string_equal(err, want);
}

/* A run of the fixture's plan with [workload] times (a target's keys
 * among them) on the stand-in's latency model FAKE_OLTP_LATENCY =
 * latency, whose status must be want; its summary read into *sum. The
 * plan, for the caller to free. */
static orch_plan *capacity_run(orch_fixture *f, const char *times, const char *latency, int want,
                               res_summary *sum)
{
    orch_plan *p = orch_fixture_plan_timed(f, "profile = tiny\n", times, "pool = userpool\n");
    orch_run_opts o;
    char path[PATH_MAX], err[512];
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    setenv("FAKE_OLTP_LATENCY", latency, 1);
    assert_int_equal(orch_run(p, &o), want);
    unsetenv("FAKE_OLTP_LATENCY");
    snprintf(path, sizeof path, "%s/%s/summary.json", f->results, RUN_ID);
    assert_int_equal(res_summary_read_file(path, sum, err, sizeof err), 0);
    return p;
}

/* [workload] target = p99 <= 10ms (issue 45): a capacity search on both
 * drives at once on the same VMs, the stand-in's p99 5 ms while a VM's
 * --rate is at most its capacity (30 a VM on drive a<b, 2 VMs: 60; 25
 * on second), 20 ms above; the exact probes of each drive, the drive
 * done first held at its capacity, the capacities within 5 %. */
static void test_capacity_search(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p;
    static const double a_rates[] = { 10, 20, 40, 80, 57, 68, 62, 59, 60 };
    static const char *const a_sides[] = { "within", "within", "within", "broken", "within",
                                           "broken", "broken", "within", "within" };
    static const double b_rates[] = { 10, 20, 40, 28, 24, 26, 25 };
    static const char *const b_sides[] = { "within", "within", "broken", "broken", "within",
                                           "broken", "within" };
    res_summary sum;
    char path[PATH_MAX], err[512];

    p = capacity_run(f, "measure = 1s\nprepare = yes\ntarget = p99 <= 10ms\ntarget_start = 10\n",
                     "-a-b-x-:30 -second-:25", ORCH_RUN_OK, &sum);
    orch_assert_output(f, "capacity probe 1: drive a<b ' & .. x at 10/s drive second at 10/s "
                          "(run " RUN_ID "-p1)\n");
    orch_assert_output(f, "capacity probe 3: drive second at 40/s: broken, 40.00 TPS: p99 <= "
                          "10 ms broken: p99 20.000 ms, 95 % interval from 20.000 ms\n");
    /* second's search ended at probe 7: held at 25 after it */
    orch_assert_output(f, "capacity probe 8: drive a<b ' & .. x at 59/s drive second at 25/s "
                          "(done, held) (run " RUN_ID "-p8)\n");
    orch_assert_output(f, "capacity: drive a<b ' & .. x: 60 TPS at p99 <= 10 ms (interval "
                          "60-62; 9 probes, broken by probe 7)\n");
    orch_assert_output(f, "capacity: drive second: 25 TPS at p99 <= 10 ms (interval 25-26; "
                          "7 probes, broken by probe 6)\n");
    /* one boot and one prepare, then the run's measure and 9 probes on
     * the same 3 VMs; each VM's rate the drive's divided by its VMs */
    assert_int_equal(orch_count_lines(f->log, " prepare"), 3);
    assert_int_equal(orch_count_lines(f->log, " run"), 30);
    assert_int_equal(orch_count_lines(f->log, "--rate=28.5 "), 2);
    assert_int_equal(orch_count_lines(f->log, "--rate=25 "), 3);
    assert_int_equal(orch_count_lines(f->log, "--rate="), 27);
    orch_assert_teardown(f, 3, 6, 0, 1);
    assert_int_equal(sum.ndrives, 2);
    for (int d = 0; d < 2; d++) {
        const res_capacity *c = sum.drives[d].capacity;
        const double *rates = d ? b_rates : a_rates;
        const char *const *sides = d ? b_sides : a_sides;
        int n = d ? 7 : 9;
        assert_non_null(c);
        assert_string_equal(c->target, "p99 <= 10 ms");
        assert_int_equal(c->nprobes, n);
        assert_true(c->capacity == (d ? 25 : 60) && c->lo == c->capacity);
        assert_true(c->hi == (d ? 26 : 62));
        assert_int_equal(c->breaking, d ? 6 : 7);
        assert_string_equal(c->end, "the rate that held and the one that did not are within "
                                    "the resolution");
        for (int i = 0; i < n; i++) {
            const res_cap_probe *pr = &c->probes[i];
            char id[64];
            snprintf(id, sizeof id, RUN_ID "-p%d", i + 1);
            assert_true(pr->offered == rates[i]);
            assert_true(pr->achieved == rates[i]);
            assert_string_equal(pr->verdict, sides[i]);
            assert_string_equal(pr->run_id, id);
            assert_true(pr->pct_ms == (strcmp(sides[i], "within") == 0 ? 5 : 20));
            assert_true(pr->pct_lo_ms == pr->pct_ms && pr->pct_hi_ms == pr->pct_ms);
            assert_true(isnan(pr->queue_ms));
        }
    }
    assert_int_equal(sum.drives[0].capacity->probes[0].transactions, 2000);
    assert_string_equal(sum.drives[1].capacity->probes[5].why,
                        "p99 <= 10 ms broken: p99 20.000 ms, 95 % interval from 20.000 ms");
    res_summary_clear(&sum);
    /* the page: both drives' curves on one chart through their probes
     * by achieved TPS, the target a level at 10 ms, each capacity marked */
    snprintf(path, sizeof path, "%s/%s/report.html", f->results, RUN_ID);
    assert_xpath(path, "count(//section[@id='capacity']//svg[contains(@class,'chart')])", "1");
    assert_xpath(path, "count(//svg[@id='capacity-0']//polyline[@class='series'])", "2");
    assert_xpath(path, "string(//svg[@id='capacity-0']//polyline[@class='series'][2]/"
                       "@data-label)", "second");
    assert_xpath(path, "string(//svg[@id='capacity-0']//g[@class='level']/@data-y)", "10");
    assert_xpath(path, "string(//svg[@id='capacity-0']//g[@class='level']/@data-label)",
                 "p99 <= 10 ms");
    assert_xpath(path, "string(//svg[@id='capacity-0']//g[@class='mark'][1]/@data-x)", "60");
    assert_xpath(path, "string(//svg[@id='capacity-0']//g[@class='mark'][2]/@data-label)",
                 "second: capacity 25 TPS");
    assert_xpath(path, "count(//table[@id='capacity-probes']/tbody/tr)", "16");
    assert_xpath(path, "string(//table[@id='capacity-probes']//tr[@data-drive='second']"
                       "[@data-probe='4']/td[@data-key='verdict'])", "broken");
    assert_xpath(path, "string(//table[@id='capacity-probes']//tr[@data-drive='second']"
                       "[@data-probe='4']/td[@data-key='offered']/@data-value)", "28");
    assert_xpath(path, "string(//p[@class='capacity'][@data-drive='second'])",
                 "second: 25 TPS at p99 <= 10 ms (interval 25 to 26; the rate that held and "
                 "the one that did not are within the resolution)");
    /* each probe a run folder of its own inside the run's */
    snprintf(path, sizeof path, "%s/%s/probes/%s-p9/summary.json", f->results, RUN_ID, RUN_ID);
    assert_int_equal(res_summary_read_file(path, &sum, err, sizeof err), 0);
    assert_null(sum.drives[0].capacity);
    res_summary_clear(&sum);
    orch_plan_free(p);
}

/* An undecided probe (issue 45): drive second's VM commits 400
 * transactions a second of --time, too few to bound p99 from above (a
 * probe that holds needs 562), so each rate that holds is undecided at
 * 1 s and measured once more at 2 s (800: within); a rate beyond its
 * capacity is broken at once. target_max_probes = 3 ends both searches:
 * drive a<b at 10, 20, 40 (at least 40, held at it after), second at 10,
 * 20, 40 over five probes (capacity 20, interval 20-40). */
static void test_capacity_undecided(void **state)
{
    orch_fixture *f = *state;
    res_summary sum;
    orch_plan *p = capacity_run(f, "measure = 1s\ntarget = p99 <= 10ms\ntarget_max_probes = 3\n",
                                "-a-b-x-:30 -second-:25:400", ORCH_RUN_OK, &sum);
    const res_capacity *a = sum.drives[0].capacity, *b = sum.drives[1].capacity;

    orch_assert_output(f, "capacity probe 1: drive second at 10/s: undecided, 10.00 TPS: p99 <= "
                          "10 ms undecided: 400 transactions are too few to bound p99 from "
                          "above; measure longer\n");
    orch_assert_output(f, "capacity probe 2: drive a<b ' & .. x at 20/s drive second at 10/s "
                          "(again, longer) (run " RUN_ID "-p2)\n");
    orch_assert_output(f, "capacity probe 4: drive a<b ' & .. x at 40/s (done, held) drive "
                          "second at 20/s (again, longer) (run " RUN_ID "-p4)\n");
    orch_assert_output(f, "capacity: drive a<b ' & .. x: at least 40 TPS at p99 <= 10 ms (3 "
                          "probes; the probe limit was reached)\n");
    orch_assert_output(f, "capacity: drive second: 20 TPS at p99 <= 10 ms (interval 20-40; 3 "
                          "probes, broken by probe 3)\n");
    /* the run's measure and 5 probes on 3 VMs; the two again at 2 s */
    assert_int_equal(orch_count_lines(f->log, " run"), 18);
    assert_int_equal(orch_count_lines(f->log, "--time=2 "), 6);
    assert_int_equal(orch_count_lines(f->log, "--time=1 "), 12);
    assert_true(a->capacity == 40 && isnan(a->hi) && a->breaking == 0);
    assert_string_equal(a->probes[2].run_id, RUN_ID "-p3");
    assert_true(b->capacity == 20 && b->hi == 40 && b->breaking == 3);
    assert_string_equal(b->end, "the probe limit was reached");
    assert_int_equal(b->nprobes, 3);
    assert_string_equal(b->probes[0].run_id, RUN_ID "-p2");
    assert_string_equal(b->probes[1].run_id, RUN_ID "-p4");
    assert_string_equal(b->probes[2].run_id, RUN_ID "-p5");
    assert_true(b->probes[0].transactions == 800 && b->probes[2].transactions == 400);
    assert_string_equal(b->probes[1].verdict, "within");
    assert_string_equal(b->probes[2].verdict, "broken");
    res_summary_clear(&sum);
    orch_plan_free(p);
}

/* A VM that fails in a probe (issue 45): drive second's one VM exits in
 * probe 2, so its search stops there with the probe before it (10, at
 * least), none of the failed probe's figures recorded; drive a<b's goes
 * on to its limit of 3 probes; the run completes with that failure. */
static void test_capacity_failed_vm(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p;
    res_summary sum;

    setenv("FAKE_OLTP_EXIT", "1", 1);
    setenv("FAKE_OLTP_MATCH", "-p2/vm/drivebench-" RUN_ID "--second-vm1", 1);
    p = capacity_run(f, "measure = 1s\ntarget = p99 <= 10ms\ntarget_max_probes = 3\n",
                     "-a-b-x-:30 -second-:25", ORCH_RUN_DEGRADED, &sum);
    unsetenv("FAKE_OLTP_EXIT");
    unsetenv("FAKE_OLTP_MATCH");
    orch_assert_output(f, "capacity probe 2: drive second at 20/s: a VM of the drive failed: "
                          "its search stopped there\n");
    orch_assert_output(f, "capacity probe 3: drive a<b ' & .. x at 40/s drive second at 10/s "
                          "(done, held) (run " RUN_ID "-p3)\n");
    orch_assert_output(f, "capacity: drive second: at least 10 TPS at p99 <= 10 ms (1 probe; "
                          "a VM of the drive failed: its search stopped there)\n");
    orch_assert_output(f, "capacity: drive a<b ' & .. x: at least 40 TPS at p99 <= 10 ms (3 "
                          "probes; the probe limit was reached)\n");
    assert_int_equal(sum.drives[1].capacity->nprobes, 1);
    assert_true(sum.drives[1].capacity->capacity == 10);
    assert_int_equal(sum.drives[0].capacity->nprobes, 3);
    res_summary_clear(&sum);
    orch_assert_teardown(f, 3, 6, 0, 1);
    orch_plan_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        ORCH_FIXTURE_TEST(test_sweep_json),
        ORCH_FIXTURE_TEST(test_sweep_rate),
        ORCH_FIXTURE_TEST(test_sweep_vms),
        ORCH_FIXTURE_TEST(test_sweep_failed_step),
        ORCH_FIXTURE_TEST(test_sweep_same_vms),
        ORCH_FIXTURE_TEST(test_sweep_restore_between),
        ORCH_FIXTURE_TEST(test_capacity_search),
        ORCH_FIXTURE_TEST(test_capacity_undecided),
        ORCH_FIXTURE_TEST(test_capacity_failed_vm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
