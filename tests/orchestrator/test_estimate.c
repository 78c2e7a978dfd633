/* A plan's cost before it runs (run/estimate.h, virt/capacity.h): the
 * estimate printed for plans on the test driver's node.xml (2 CPUs,
 * 24 GiB, pools of known size), compared exactly; a run whose VMs need
 * more memory than the host refused before anything exists, and let
 * through with overcommit = yes; the run's ETA. Runs from the repository
 * root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan/plan.h"
#include "run/run.h"
#include "virt/virt.h"
#include "testlib.h"

/* orch_estimate of a plan on node.xml with run_keys in [run] and the
 * drive sections given; what it printed goes to *out (caller frees), its
 * return value is returned. */
static int estimate(const char *run_keys, const char *wl_keys, const char *drives, char **out, char *err,
                    size_t errlen)
{
    char path[] = "/tmp/orch-estimate-XXXXXX", text[PATH_MAX + 4096], cwd[PATH_MAX];
    orch_conns *conns = orch_conns_new();
    orch_template *t;
    orch_plan *p;
    size_t len = 0;
    FILE *f = open_memstream(out, &len);
    int fd = mkstemp(path), rc;

    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text, "[run]\nname = estimate\nuri = test://%s/tests/orchestrator/node.xml\n"
             "profile = tiny\nvmconfigs_dir = vmconfigs\nimage_dir = /srv/images\n%s"
             "[workload]\nname = oltp_read_write\ntables = 1\ntable_size = 10\n"
             "precondition = 1h\nmeasure = 30m\n%s%s", cwd, run_keys, wl_keys, drives);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    p = orch_plan_load(path, stderr);
    unlink(path);
    assert_non_null(p);
    t = orch_template_load(p->template_path, err, errlen);
    assert_non_null(t);
    rc = orch_estimate(conns, p, t, f, err, errlen);
    fclose(f);
    orch_template_free(t);
    orch_plan_free(p);
    orch_conns_free(conns);
    return rc;
}

/* The estimate's text with the plan's temporary path and node.xml's
 * folder replaced by PLAN and NODE. */
static char *tidy(char *out)
{
    char cwd[PATH_MAX], node[PATH_MAX + 64], *r = out, *w = out;
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(node, sizeof node, "test://%s/tests/orchestrator/node.xml", cwd);
    while (*r) {
        if (strncmp(r, "/tmp/orch-estimate-", 19) == 0) {
            memcpy(w, "PLAN", 4);
            w += 4;
            r += 25;
        } else if (strncmp(r, node, strlen(node)) == 0) {
            memcpy(w, "NODE", 4);
            w += 4;
            r += strlen(node);
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
    return out;
}

static void test_estimate_fits(void **state)
{
    char err[512], *out;
    (void)state;
    assert_int_equal(estimate("memory = 2G\nvcpus = 1\nrepetitions = 2\nboot_timeout = 10m\n"
                              "db_size = 4G\n", "",
                              "[drive a]\npool = userpool\nvms = 2\n[drive b]\npool = images\n",
                              &out, err, sizeof err), 0);
    assert_string_equal(tidy(out),
        "estimate of PLAN: 2 drive(s), 3 VM(s), profile tiny, workload oltp_read_write\n"
        "host NODE: 3 VM(s) need 6.3 GiB of memory (3 x 2 GiB + 100 MiB for QEMU each) of its "
        "24 GiB, and 3 vCPU(s) of its 8 CPU(s)\n"
        "drive a (pool userpool, 99 GiB free): its volumes need 8 GiB plus 1 GiB headroom\n"
        "drive b (pool images, 98 GiB free): its volumes need 4 GiB plus 1 GiB headroom\n"
        "duration: 2 repetition(s) x (precondition 1:00:00 + measure 0:30:00) = 3:00:00\n"
        "  plus per repetition the boot (at most boot_timeout 0:10:00) and the prepare of each "
        "database, measured by the run in its first repetition: at least 3:00:00, at most "
        "3:20:00 plus the prepares\n");
    free(out);
}

/* The estimate's sweep line of a plan with run_keys and workload keys
 * (from "sweep of" to the end; caller frees). */
static char *sweep_line(const char *run_keys, const char *workload)
{
    char err[512], *out, *at, *line;
    assert_int_equal(estimate(run_keys, workload, "[drive a]\npool = userpool\n", &out, err,
                              sizeof err), 0);
    at = strstr(tidy(out), "sweep of");
    assert_non_null(at);
    line = strdup(at);
    free(out);
    return line;
}

/* A sweep's duration (issue 45): on the same VMs one precondition, then
 * each later step its step_warmup and measure; a sweep of vms_per_drive
 * re-provisions, every step the whole run. */
static void test_estimate_sweep(void **state)
{
    char *line = sweep_line("memory = 1G\nvcpus = 1\n", "rate = 10,20,40\nstep_warmup = 5m\n");
    (void)state;
    assert_string_equal(line, "sweep of [workload] rate: 3 steps on the same VMs: one boot, "
                        "preparation and precondition, then each step after the first its warm-up "
                        "and measure (step_warmup 0:05:00 + measure): 1:30:00 + 2 x 0:35:00 = "
                        "2:40:00\n");
    free(line);
    line = sweep_line("memory = 1G\nvcpus = 1\nvms_per_drive = 1,2\n", "");
    assert_string_equal(line, "sweep of [run] vms_per_drive: 2 steps, each a run of its own, "
                        "re-provisioned ([run] vms_per_drive changes the VMs or their database): "
                        "2 x the duration above, fixed phases 3:00:00\n");
    free(line);
}

static void test_estimate_refused(void **state)
{
    char err[512], *out;
    (void)state;
    /* 8 x (4 GiB + 100 MiB) on a 24 GiB host, and a pool too small */
    assert_int_equal(estimate("memory = 4G\nvms_per_drive = 8\ndb_size = 12G\n",
                              "prepare = no\n", "[drive a]\npool = userpool\n", &out, err, sizeof err), -1);
    assert_string_equal(tidy(out),
        "estimate of PLAN: 1 drive(s), 8 VM(s), profile tiny, workload oltp_read_write\n"
        "host NODE: 8 VM(s) need 32.8 GiB of memory (8 x 4 GiB + 100 MiB for QEMU each) of its "
        "24 GiB, and 8 vCPU(s) of its 8 CPU(s)\n"
        "drive a (pool userpool, 99 GiB free): its volumes need 96 GiB plus 4.8 GiB headroom: "
        "SHORT\n"
        "duration: 1 repetition(s) x (precondition 1:00:00 + measure 0:30:00) = 1:30:00\n"
        "  plus per repetition the boot (at most boot_timeout 0:10:00), measured by the run in "
        "its first repetition: at least 1:30:00, at most 1:40:00\n"
        "drivebench: host NODE has 24 GiB of memory and its 8 VM(s) need 32.8 GiB (8 x 4 GiB + "
        "100 MiB for QEMU each)\n");
    assert_string_equal(err, "not enough memory on 1 host(s) (see above); nothing was created "
                        "(fewer VMs per host, a smaller [run] memory, or [run] overcommit = yes)");
    free(out);

    /* overcommit = yes lets the memory through; the short pool still stops it */
    assert_int_equal(estimate("memory = 4G\nvms_per_drive = 8\ndb_size = 12G\n"
                              "overcommit = yes\n", "", "[drive a]\npool = userpool\n", &out, err,
                              sizeof err), -1);
    assert_non_null(strstr(tidy(out), "drivebench: host NODE has 24 GiB of memory and its 8 VM(s) "
                           "need 32.8 GiB (8 x 4 GiB + 100 MiB for QEMU each); overcommit = "
                           "yes: running them anyway\n"
                           "drivebench: drive a (pool userpool, 99 GiB free) is 1.8 GiB short: "
                           "its volumes need 96 GiB plus 4.8 GiB headroom\n"));
    assert_string_equal(err, "not enough free space on 1 drive(s) (see above); nothing was "
                        "created");
    free(out);

    assert_int_equal(estimate("memory = 4G\nvms_per_drive = 8\novercommit = yes\n", "",
                              "[drive a]\npool = userpool\n", &out, err, sizeof err), 0);
    free(out);
}

/* More vCPUs than the host has CPUs (issue 31): refused before anything
 * is created, unless overcommit = yes. */
static void test_estimate_vcpus(void **state)
{
    char err[512], *out;
    (void)state;
    assert_int_equal(estimate("memory = 1G\nvcpus = 4\n", "", "[drive a]\npool = userpool\nvms = 3\n",
                              &out, err, sizeof err), -1);
    assert_non_null(strstr(tidy(out), "and 12 vCPU(s) of its 8 CPU(s) (more than it has: refused "
                           "unless overcommit = yes)\n"));
    assert_non_null(strstr(out, "drivebench: host NODE has 8 CPU(s) and its 3 VM(s) have 12 "
                           "vCPU(s)\n"));
    assert_string_equal(err, "more vCPUs than CPUs on 1 host(s) (see above); nothing was created "
                        "(fewer VMs per host, a smaller [run] vcpus, or [run] overcommit = yes to "
                        "let them share the CPUs)");
    free(out);
    assert_int_equal(estimate("memory = 1G\nvcpus = 4\novercommit = yes\n", "",
                              "[drive a]\npool = userpool\nvms = 3\n", &out, err, sizeof err), 0);
    assert_non_null(strstr(tidy(out), "drivebench: host NODE has 8 CPU(s) and its 3 VM(s) have 12 "
                           "vCPU(s); overcommit = yes: they share them\n"));
    free(out);
}

static void census_fn(void *ctx, orch_obj_kind kind, const char *name, const char *pool)
{
    (void)kind;
    print_message("left: %s (pool %s)\n", name, pool ? pool : "-");
    (*(int *)ctx)++;
}

/* The entries of folder dir, . and .. not counted (-1: none such). */
static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* A run whose 3 VMs of 8 GiB need more than node.xml's 24 GiB: refused
 * before any pool, volume or domain exists; with overcommit = yes it
 * runs, and its progress lines carry the run's ETA. */
static void test_run_memory(void **state)
{
    orch_fixture *f = *state;
    char err[512];
    orch_run_opts o;
    orch_plan *p;
    int objects = 0;

    p = orch_fixture_plan(f, "profile = tiny\nmemory = 8G\n", "pool = userpool\n");
    orch_fixture_opts(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    assert_non_null(strstr(orch_fixture_output(f), "drivebench: host "));
    assert_non_null(strstr(orch_fixture_output(f), " has 24 GiB of memory and its 3 VM(s) need "
                           "24.3 GiB (3 x 8 GiB + 100 MiB for QEMU each)\n"
                           "drivebench: not enough memory on 1 host(s) (see above); nothing "
                           "was created (fewer VMs per host, a smaller [run] memory, or [run] "
                           "overcommit = yes)\n"));
    assert_null(strstr(orch_fixture_output(f), "teardown:"));
    assert_int_equal(orch_list_objects(f->conn, census_fn, &objects, err, sizeof err), 0);
    assert_int_equal(objects, 0);
    /* nothing was created: no run folder either, only the plan is
     * there (issue 43) */
    assert_int_equal(dir_entries(f->results), 1);
    orch_plan_free(p);

    p = orch_fixture_plan(f, "profile = tiny\nmemory = 8G\novercommit = yes\n",
                          "pool = userpool\n");
    o.wait_ready = orch_fixture_ready;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_non_null(strstr(orch_fixture_output(f), "; overcommit = yes: running them anyway\n"));
    assert_non_null(strstr(orch_fixture_output(f), "; run 0:00:0"));
    assert_non_null(strstr(orch_fixture_output(f), " left, ETA "));
    orch_plan_free(p);
}

static void test_eta(void **state)
{
    orch_eta e;
    orch_plan p;
    char b[16];
    (void)state;
    memset(&p, 0, sizeof p);
    p.repetitions = 3;
    p.precondition_s = 7200;
    p.measure_s = 3600;
    orch_eta_init(&e, &p);
    /* repetition 1 began at 1000; boot and prepare took 600 s; 100 s into
     * the precondition: 7100 + 3600 here, then 2 x (7200 + 3600 + 600) */
    orch_eta_rep_begin(&e, 1, 1000);
    assert_int_equal(orch_eta_left(&e, 1700, "precondition", 100, 7200), 7100 + 3600 + 2 * 11400);
    /* its measure, 60 s in: the precondition is not overhead */
    assert_int_equal(orch_eta_left(&e, 1000 + 600 + 7200 + 60, "measure", 60, 3600),
                     3540 + 2 * 11400);
    /* repetition 1 ended at 1000 + 11500: 700 s outside the fixed phases */
    orch_eta_rep_end(&e, 1000 + 11500);
    assert_int_equal(e.overhead_s, 700);
    orch_eta_rep_begin(&e, 2, 20000);
    assert_int_equal(orch_eta_left(&e, 20900, "precondition", 0, 7200), 7200 + 3600 + 11500);
    /* the last repetition's measure, overrun: nothing left */
    orch_eta_rep_begin(&e, 3, 40000);
    assert_int_equal(orch_eta_left(&e, 52000, "measure", 3700, 3600), 0);
    /* a sweep on the same VMs: its later steps' time after this one's */
    e.later_s = 2 * 3700;
    assert_int_equal(orch_eta_left(&e, 52000, "measure", 3000, 3600), 600 + 7400);
    assert_string_equal(orch_hms(3 * 3600 + 20 * 60 + 5, b, sizeof b), "3:20:05");
    assert_string_equal(orch_hms(-4, b, sizeof b), "0:00:00");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_fits),
        cmocka_unit_test(test_estimate_sweep),
        cmocka_unit_test(test_estimate_refused),
        cmocka_unit_test(test_estimate_vcpus),
        cmocka_unit_test_setup_teardown(test_run_memory, orch_fixture_setup,
                                        orch_fixture_teardown),
        cmocka_unit_test(test_eta),
    };
    return cmocka_run_group_tests_name("orchestrator estimate", tests, NULL, NULL);
}
