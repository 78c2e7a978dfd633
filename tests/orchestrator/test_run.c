/* The run against libvirt's test driver with this folder's node.xml (no
 * daemon, no guest image): provisioning, phases through a stand-in oltp,
 * aggregation, and teardown after success, after a failure injected at
 * every step, after SIGINT, and by run id after a crash. Runs from the
 * repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "virt/virt.h"
#include "util/util.h"
#include "plan/plan.h"
#include "run/run.h"
#include "results_summary.h"
#include "testlib.h"

#define RUN_ID_PREFIX "drivebench-" RUN_ID "--"

typedef struct census {
    const char *prefix;
    int ours[3];
    int all[3];
} census;

static void census_fn(void *ctx, orch_obj_kind kind, const char *name, const char *pool)
{
    census *c = ctx;
    (void)pool;
    c->all[kind]++;
    if (strncmp(name, c->prefix, strlen(c->prefix)) == 0)
        c->ours[kind]++;
}

/* Objects of run_id left on the test node, and the node's own objects
 * still there and unchanged. */
static void assert_clean(orch_fixture *f, const char *run_id)
{
    char err[512], *prefix = orch_object_prefix(run_id);
    census c = { .prefix = prefix };
    virDomainPtr other;
    virStoragePoolPtr pool;
    virStorageVolPtr vol;
    assert_int_equal(orch_list_objects(f->conn, census_fn, &c, err, sizeof err), 0);
    assert_int_equal(c.ours[ORCH_OBJ_DOMAIN], 0);
    assert_int_equal(c.ours[ORCH_OBJ_VOLUME], 0);
    assert_int_equal(c.ours[ORCH_OBJ_POOL], 0);
    assert_int_equal(virConnectNumOfDomains(f->conn), 1);
    assert_int_equal(virConnectNumOfDefinedDomains(f->conn), 0);
    assert_int_equal(virConnectNumOfStoragePools(f->conn), 2);
    other = virDomainLookupByName(f->conn, "other-vm");
    assert_non_null(other);
    assert_int_equal(virDomainIsActive(other), 1);
    virDomainFree(other);
    pool = virStoragePoolLookupByName(f->conn, "userpool");
    assert_non_null(pool);
    assert_int_equal(virStoragePoolNumOfVolumes(pool), 1);
    vol = virStorageVolLookupByName(pool, "keep.img");
    assert_non_null(vol);
    virStorageVolFree(vol);
    virStoragePoolFree(pool);
    pool = virStoragePoolLookupByName(f->conn, "images");
    assert_non_null(pool);
    assert_int_equal(virStoragePoolNumOfVolumes(pool), 2);
    virStoragePoolFree(pool);
    free(prefix);
}

static void opts_init(orch_run_opts *o, orch_fixture *f)
{
    orch_fixture_opts(o, f);
    o->wait_ready = orch_fixture_ready;
}

/* The test plan with this profile; drive "second" in the pool userpool. */
static orch_plan *plan(orch_fixture *f, const char *profile, const char *extra_run)
{
    char keys[256];
    snprintf(keys, sizeof keys, "profile = %s\n%s", profile, extra_run ? extra_run : "");
    return orch_fixture_plan(f, keys, "pool = userpool\n");
}

/* A number's text in o at a.[i].b.c (i < 0: no index; b, c may be NULL). */
static const char *jnum(json_object *o, const char *a, int i, const char *b, const char *c)
{
    json_object *v;
    if (!json_object_object_get_ex(o, a, &v))
        return "(missing)";
    if (i >= 0)
        v = json_object_array_get_idx(v, (size_t)i);
    if (b && !json_object_object_get_ex(v, b, &v))
        return "(missing)";
    if (c && !json_object_object_get_ex(v, c, &v))
        return "(missing)";
    return json_object_to_json_string(v);
}

/* orch_run with the stand-in oltp's environment variable name set to
 * value for this run alone; orch_run's status. */
static int run_with_env(orch_plan *p, orch_run_opts *o, const char *name, const char *value)
{
    int rc;
    setenv(name, value, 1);
    rc = orch_run(p, o);
    unsetenv(name);
    return rc;
}

/* summary.vms[i] failed with this fault and reason (JSON texts). */
static void assert_vm_failed(json_object *s, int i, const char *fault, const char *reason)
{
    assert_string_equal(jnum(s, "vms", i, "status", NULL), "\"failed\"");
    assert_string_equal(jnum(s, "vms", i, "fault", NULL), fault);
    assert_string_equal(jnum(s, "vms", i, "reason", NULL), reason);
}

/* A run whose 3 VMs' databases were restored from seeds, not prepared:
 * clean, the restore and teardown lines, each drive's restored bytes
 * (1 GiB a VM). Returns the summary (caller puts). */
static json_object *assert_seeded_run(orch_fixture *f)
{
    json_object *s;
    assert_clean(f, RUN_ID);
    assert_int_equal(orch_count_lines(f->log, " prepare"), 0);
    orch_assert_output(f, "restoring 3 database volume(s) from their seeds: 3 GiB, 3 at a time\n");
    /* 3 domains, 3 boot + 3 database volumes; then 3 seed volumes, 1 pool */
    orch_assert_teardown(f, 3, 6, 3, 1);
    s = orch_fixture_summary(f);
    assert_string_equal(jnum(s, "drives", 0, "restore", "bytes"), "2147483648");
    assert_string_equal(jnum(s, "drives", 1, "restore", "bytes"), "1073741824");
    return s;
}

/* The [run] keys of a user's Windows image with SQL Server that attaches
 * the databases it finds. */
#define WINDOWS_SQLSERVER "vcpus = 1\nmemory = 1G\nengine = sqlserver\n" \
    "image = /srv/images/windows-sqlserver.qcow2\nguest_os = windows\n" \
    "image_attaches_databases = yes\n"

static void test_run_ok(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    json_object *s;
    char path[PATH_MAX];
    struct stat sb;
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_string_equal(o.run_id_out, RUN_ID);
    assert_clean(f, RUN_ID);
    /* the tiny profile has no prebuilt database: prepare, then two phases,
     * on three VMs */
    assert_int_equal(orch_count_lines(f->log, NULL), 12);
    assert_int_equal(orch_count_lines(f->log, " prepare"), 3);
    assert_int_equal(orch_count_lines(f->log, ".precondition.1.json oltp_read_write run"), 3);
    orch_assert_teardown(f, 3, 6, 0, 1);
    orch_assert_output(f, "[measure ");
    orch_assert_output(f, " | total 30.8 tps");      /* 3 x 10.25 */
    s = orch_fixture_summary(f);
    assert_string_equal(jnum(s, "drives", 0, "name", NULL), "\"a<b ' & .. x\"");
    assert_string_equal(jnum(s, "drives", 0, "tps", NULL), "22.5");
    assert_string_equal(jnum(s, "drives", 0, "latency_ms", "p99"), "1.5");
    assert_string_equal(jnum(s, "drives", 0, "latency_ms", "p99_mean_of_vms"), "2.2505");
    assert_string_equal(jnum(s, "drives", 1, "latency_ms", "p99"), "2");
    assert_string_equal(jnum(s, "run", -1, "tps", NULL), "30.5");
    assert_string_equal(jnum(s, "drives", 0, "restore", NULL), "(missing)");   /* no seed */
    assert_string_equal(jnum(s, "plan", -1, "client", NULL), "\"host\"");
    assert_string_equal(jnum(s, "plan", -1, "client_path", NULL), "\"qemu-user-hostfwd\"");
    /* no rate: a closed loop, and the summary says what that does to
     * latency (issue 29) */
    assert_string_equal(jnum(s, "plan", -1, "workload", "rate"), "0");
    assert_string_equal(jnum(s, "run", -1, "latency_note", NULL),
                        "\"latency under stalls is understated (closed loop; `rate` gives open "
                        "loop)\"");
    /* the protocol as the run used it (issue 22): plan, profile, hosts */
    assert_string_equal(jnum(s, "fingerprint", -1, "engine", NULL), "\"mariadb\"");
    assert_string_equal(jnum(s, "fingerprint", -1, "profile", NULL), "\"tiny\"");
    assert_string_equal(jnum(s, "fingerprint", -1, "vcpus", NULL), "1");
    assert_string_equal(jnum(s, "fingerprint", -1, "memory_bytes", NULL), "1073741824");
    assert_string_equal(jnum(s, "fingerprint", -1, "controller", NULL), "\"virtio-scsi\"");
    assert_string_equal(jnum(s, "fingerprint", -1, "domain_type", NULL), "\"qemu\"");
    assert_string_equal(jnum(s, "fingerprint", -1, "client", NULL), "\"host\"");
    assert_string_equal(jnum(s, "fingerprint", -1, "drivebench_version", NULL), "\"0.1.0\"");
    assert_string_equal(jnum(s, "fingerprint", -1, "vms_per_drive", NULL), "(missing)");
    assert_string_equal(jnum(s, "vms", 0, "precondition_result", NULL),
                        "\"vm\\/drivebench-fixture-20261130-000000--a-b-x-vm1.r1.precondition.1.json\"");
    {
        json_object *env, *hvs, *hv, *v;
        assert_true(json_object_object_get_ex(s, "environment", &env));
        assert_true(json_object_object_get_ex(env, "hypervisors", &hvs));
        assert_int_equal(json_object_array_length(hvs), 1);
        hv = json_object_array_get_idx(hvs, 0);
        assert_true(json_object_object_get_ex(hv, "uri", &v));
        assert_string_equal(json_object_get_string(v), f->uri);
        assert_true(json_object_object_get_ex(hv, "domain_type", &v));
        assert_string_equal(json_object_get_string(v), "qemu");
        assert_true(json_object_object_get_ex(hv, "hypervisor", &v));
        assert_string_equal(json_object_get_string(v), "TEST");
        /* the host behind the URI (hosts.h): node.xml's 8 CPUs, 24 GiB */
        assert_true(json_object_object_get_ex(hv, "cpus", &v));
        assert_int_equal(json_object_get_int64(v), 8);
        assert_true(json_object_object_get_ex(hv, "memory_bytes", &v));
        assert_int_equal(json_object_get_int64(v), 25165824LL * 1024);
        assert_true(json_object_object_get_ex(hv, "arch", &v));
        assert_string_equal(json_object_get_string(v), "i686");
    }
    {
        json_object *vms, *v;
        assert_true(json_object_object_get_ex(s, "vms", &vms));
        assert_true(json_object_object_get_ex(json_object_array_get_idx(vms, 0), "host", &v));
        assert_string_equal(json_object_get_string(v), f->uri);
    }
    json_object_put(s);
    snprintf(path, sizeof path, "%s/%s/plan.ini", f->results, RUN_ID);
    assert_int_equal(stat(path, &sb), 0);
    snprintf(path, sizeof path, "%s/%s/summary.csv", f->results, RUN_ID);
    assert_int_equal(orch_count_lines(path, NULL), 3);
    /* the run writes its report, as `drivebench report` would */
    {
        char want[PATH_MAX + 16], *html;
        snprintf(path, sizeof path, "%s/%s/report.html", f->results, RUN_ID);
        snprintf(want, sizeof want, "report: %s\n", path);
        orch_assert_output(f, want);
        html = orch_slurp(path);
        assert_non_null(html);
        assert_non_null(strstr(html, "a&lt;b ' &amp; .. x"));
        free(html);
        snprintf(path, sizeof path, "%s/%s/report.csv", f->results, RUN_ID);
        assert_int_equal(orch_count_lines(path, NULL), 3);     /* header, two drives */
    }
    orch_plan_free(p);
}

/* The sysbench profile: a seed copy per VM from images/seed.img, the
 * database disk cloned from it, no prepare step. */
static void test_run_with_seed(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "sysbench", "vcpus = 1\nmemory = 1G\n");
    orch_run_opts o;
    json_object *s;
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    /* each database volume restored from its seed: 1 GiB per VM (the
     * seed's size in node.xml), 2 VMs on the first drive */
    s = assert_seeded_run(f);
    assert_int_equal(orch_count_lines(f->log, NULL), 9);
    assert_string_not_equal(jnum(s, "drives", 1, "restore", "seconds"), "(missing)");
    assert_string_not_equal(jnum(s, "drives", 1, "restore", "mb_s"), "(missing)");
    json_object_put(s);
    orch_plan_free(p);
}

/* A sqlserver plan on a user's Windows image whose contract says it
 * attaches the databases it finds ([run] image_attaches_databases): each
 * VM gets a seed volume on image_dir's seed.qcow2 (not attached: the
 * profile has no seed disk), its database volume is cloned from it, and
 * no prepare runs. */
static void test_run_sqlserver_seed(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "sqlserver", WINDOWS_SQLSERVER);
    orch_run_opts o;
    opts_init(&o, f);
    assert_int_equal(p->guest_agent, 0);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    json_object_put(assert_seeded_run(f));
    assert_int_equal(orch_count_lines(f->log, "--db-driver=odbc"), 9);
    orch_plan_free(p);
}

/* The same image with prepare = yes loads every repetition: no seed
 * volume, empty database volumes, one prepare per VM. */
static void test_run_sqlserver_prepare(void **state)
{
    orch_fixture *f = *state;
    char path[PATH_MAX];
    FILE *pf;
    orch_plan *p;
    orch_run_opts o;
    json_object *s;
    snprintf(path, sizeof path, "%s/plan.ini", f->results);
    p = plan(f, "sqlserver", WINDOWS_SQLSERVER);
    orch_plan_free(p);
    {                           /* the same plan with [workload] prepare = yes */
        char *text = orch_slurp(path), *at = strstr(text, "[workload]\n");
        assert_non_null(at);
        pf = fopen(path, "w");
        assert_non_null(pf);
        fprintf(pf, "%.*s[workload]\nprepare = yes\n%s", (int)(at - text), text,
                at + strlen("[workload]\n"));
        fclose(pf);
        free(text);
    }
    p = orch_plan_load(path, stderr);
    assert_non_null(p);
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_clean(f, RUN_ID);
    assert_int_equal(orch_count_lines(f->log, " prepare"), 3);
    assert_null(strstr(orch_fixture_output(f), "from their seeds"));
    orch_assert_teardown(f, 3, 6, 0, 1);
    s = orch_fixture_summary(f);
    assert_string_equal(jnum(s, "drives", 0, "restore", NULL), "(missing)");
    json_object_put(s);
    orch_plan_free(p);
}

/* A Windows guest that reboots while it boots (libvirt's reboot events,
 * which the test driver never sends, injected through the run's
 * monitor): two reboots of every VM before its database answers are
 * counted, not faults; one reboot of second-vm1 after it (as the
 * measured phase starts) fails that VM as rebooted. */
typedef struct reboot_ctx {
    orch_fixture  *f;
    orch_run_opts *o;
    int            measured;
} reboot_ctx;

static void reboot_domain(reboot_ctx *c, const char *name, int times)
{
    virDomainPtr d = virDomainLookupByName(c->f->conn, name);
    assert_non_null(d);
    for (int i = 0; i < times; i++)
        orch_monitor_on_reboot(c->o->monitor, d);
    virDomainFree(d);
}

static int reboot_while_booting(void *ctx, orch_step step, const char *object)
{
    reboot_ctx *c = ctx;
    if (step == ORCH_STEP_READY)
        reboot_domain(c, object, 2);
    if (step == ORCH_STEP_MEASURE && !c->measured++)
        reboot_domain(c, RUN_ID_PREFIX "second-vm1", 1);
    return 0;
}

static void test_windows_reboots_while_booting(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "sqlserver", WINDOWS_SQLSERVER);
    orch_run_opts o;
    reboot_ctx c = { f, &o, 0 };
    json_object *s;
    opts_init(&o, f);
    o.inject = reboot_while_booting;
    o.hook_ctx = &c;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_DEGRADED);
    assert_clean(f, RUN_ID);
    orch_assert_output(f, "VM " RUN_ID_PREFIX "second-vm1 on drive second rebooted while booting "
                       "(2 so far; tolerated until its database answers)\n");
    s = orch_fixture_summary(f);
    for (int i = 0; i < 3; i++)
        assert_string_equal(jnum(s, "vms", i, "boot_reboots", NULL), "2");
    assert_string_equal(jnum(s, "vms", 0, "status", NULL), "\"ok\"");
    assert_string_equal(jnum(s, "vms", 1, "status", NULL), "\"ok\"");
    assert_string_equal(jnum(s, "vms", 2, "name", NULL), "\"" RUN_ID_PREFIX "second-vm1\"");
    assert_vm_failed(s, 2, "\"rebooted\"", "\"rebooted after its database answered\"");
    assert_string_equal(jnum(s, "run", -1, "failed_vms", NULL), "1");
    json_object_put(s);
    orch_plan_free(p);
}

/* Seed mode on the test driver: the guest's writes to its database disk
 * stand in as a real 1 MiB file at the database volume's path, made when
 * the shutdown step comes (after prepare), which qemu-img then copies. */
typedef struct seed_ctx {
    orch_fixture *f;
    char drive_dir[PATH_MAX];
    int  shutdowns;
    int  fail_keep;             /* 1: the keep step fails */
} seed_ctx;

static int seed_hook(void *ctx, orch_step s, const char *object)
{
    seed_ctx *c = ctx;
    char cmd[PATH_MAX * 2];
    if (s == ORCH_STEP_KEEP_SEED && c->fail_keep)
        return -1;
    if (s != ORCH_STEP_SHUTDOWN)
        return 0;
    c->shutdowns++;
    snprintf(cmd, sizeof cmd, "head -c 1048576 /dev/urandom > '%s/%s-db.img'", c->drive_dir,
             object);
    return system(cmd) == 0 ? 0 : -1;
}

/* A user's SQL Server image seeded the way `drivebench seed` does: the
 * plan's first VM, one prepare, no measure, its database volume kept as
 * IMAGE_DIR/seed.qcow2, every libvirt object of the run gone. */
static orch_plan *seed_plan(orch_fixture *f, seed_ctx *c, char *seed, size_t len)
{
    orch_plan *p = plan(f, "sqlserver", WINDOWS_SQLSERVER);
    char err[256];
    c->f = f;
    snprintf(c->drive_dir, sizeof c->drive_dir, "%s/drive-a", f->results);
    assert_int_equal(mkdir(c->drive_dir, 0755), 0);
    free(p->drives[0].path);
    p->drives[0].path = strdup(c->drive_dir);
    free(p->image_dir);
    p->image_dir = orch_strfmt("%s/seeds", f->results);
    assert_int_equal(mkdir(p->image_dir, 0755), 0);
    snprintf(seed, len, "%s/seed.qcow2", p->image_dir);
    assert_int_equal(orch_plan_seed_view(p, err, sizeof err), 0);
    assert_int_equal(p->ndrives, 1);
    assert_int_equal(orch_plan_total_vms(p), 1);
    return p;
}

/* Run options of a seed run into seed, with c's hook. */
static void seed_opts(orch_run_opts *o, orch_fixture *f, seed_ctx *c, const char *seed)
{
    opts_init(o, f);
    o->inject = seed_hook;
    o->hook_ctx = c;
    o->seed_out = seed;
    o->seed_shutdown_s = 5;
}

static void test_seed_user_image(void **state)
{
    orch_fixture *f = *state;
    seed_ctx c = { 0 };
    char seed[PATH_MAX], cmd[PATH_MAX * 3], part[PATH_MAX + 8];
    orch_plan *p = seed_plan(f, &c, seed, sizeof seed);
    orch_run_opts o;
    char *info;
    seed_opts(&o, f, &c, seed);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_clean(f, RUN_ID);
    assert_int_equal(c.shutdowns, 1);
    assert_int_equal(orch_count_lines(f->log, " prepare"), 1);
    assert_int_equal(orch_count_lines(f->log, " run"), 0);
    assert_int_equal(orch_count_lines(f->log, "--db-driver=odbc"), 1);    /* the prepare, alone */
    orch_assert_output(f, "repetition 1: prepare on 1 VM(s) (until done)\n");
    snprintf(cmd, sizeof cmd, "seed: %s\n", seed);
    orch_assert_output(f, cmd);
    /* 1 domain, its boot and database volumes; then the pool */
    orch_assert_teardown(f, 1, 2, 0, 1);
    snprintf(part, sizeof part, "%s.part", seed);
    assert_int_equal(access(part, F_OK), -1);
    /* a qcow2 of the database disk's 1 MiB, the same bytes */
    snprintf(cmd, sizeof cmd, "qemu-img info --output=json '%s' > '%s/info.json' && "
             "qemu-img compare -q '%s' '%s'/drive-a/*-db.img", seed, f->results, seed,
             f->results);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/info.json", f->results);
    info = orch_slurp(cmd);
    assert_non_null(strstr(info, "\"format\": \"qcow2\""));
    assert_non_null(strstr(info, "\"virtual-size\": 1048576"));
    free(info);
    orch_plan_free(p);
}

/* A seed whose keep step fails leaves no seed file, no part file and no
 * object of the run. */
static void test_seed_failure_leaves_nothing(void **state)
{
    orch_fixture *f = *state;
    seed_ctx c = { .fail_keep = 1 };
    char seed[PATH_MAX], part[PATH_MAX + 8];
    orch_plan *p = seed_plan(f, &c, seed, sizeof seed);
    orch_run_opts o;
    seed_opts(&o, f, &c, seed);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    assert_clean(f, RUN_ID);
    assert_int_equal(orch_count_lines(f->log, " prepare"), 1);
    orch_assert_output(f, "keep seed ");
    assert_int_equal(access(seed, F_OK), -1);
    snprintf(part, sizeof part, "%s.part", seed);
    assert_int_equal(access(part, F_OK), -1);
    orch_plan_free(p);
}

/* A qemu-img that cannot run: its message once, as the launcher wrote
 * it ("cannot run PROGRAM: why", never wrapped in a second "cannot run
 * PROGRAM:"), and nothing of the run left. */
static void test_seed_without_qemu_img(void **state)
{
    orch_fixture *f = *state;
    seed_ctx c = { 0 };
    char seed[PATH_MAX];
    orch_plan *p = seed_plan(f, &c, seed, sizeof seed);
    orch_run_opts o;
    seed_opts(&o, f, &c, seed);
    o.qemu_img = "/nonexistent/qemu-img";
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    assert_clean(f, RUN_ID);
    orch_assert_output(f, ": cannot run /nonexistent/qemu-img: No such file or directory\n");
    assert_null(strstr(orch_fixture_output(f), "qemu-img: cannot run"));
    assert_int_equal(access(seed, F_OK), -1);
    orch_plan_free(p);
}

typedef struct inject_ctx {
    orch_step step;
    int       nth;              /* fail at this occurrence (1-based) */
    int       seen;
    int       signal;           /* raise this signal instead of failing */
} inject_ctx;

static int inject(void *ctx, orch_step s, const char *object)
{
    inject_ctx *c = ctx;
    (void)object;
    if (s != c->step || ++c->seen != c->nth)
        return 0;
    if (c->signal) {
        raise(c->signal);
        return 0;
    }
    return -1;
}

/* Whatever step fails, first or last of its kind, nothing of the run is
 * left and nothing else is touched. */
static void test_failure_at_each_step(void **state)
{
    orch_fixture *f = *state;
    /* per-VM steps happen 3 times, pools twice, the rest once */
    static const int times[ORCH_STEP_COUNT] = {
        [ORCH_STEP_POOL] = 2, [ORCH_STEP_SEED] = 3, [ORCH_STEP_BOOT_VOL] = 3,
        [ORCH_STEP_DB_VOL] = 3, [ORCH_STEP_DOMAIN] = 3, [ORCH_STEP_READY] = 3,
        [ORCH_STEP_PREPARE] = 0, [ORCH_STEP_PRECONDITION] = 1, [ORCH_STEP_MEASURE] = 1,
        [ORCH_STEP_SUMMARY] = 1, [ORCH_STEP_REPORT] = 1,
    };
    orch_plan *p = plan(f, "sysbench", "vcpus = 1\nmemory = 1G\n");
    for (int s = 0; s < ORCH_STEP_COUNT; s++) {
        int nths[2] = { 1, times[s] };
        for (int k = 0; k < 2 && times[s]; k++) {
            inject_ctx c = { .step = (orch_step)s, .nth = nths[k] };
            orch_run_opts o;
            char want[128];
            opts_init(&o, f);
            o.inject = inject;
            o.hook_ctx = &c;
            if (orch_run(p, &o) != ORCH_RUN_FAILED)
                fail_msg("step %s #%d did not fail the run", orch_step_name((orch_step)s),
                         nths[k]);
            assert_int_equal(c.seen, nths[k]);
            snprintf(want, sizeof want, "%s ", orch_step_name((orch_step)s));
            orch_assert_output(f, want);
            orch_assert_output(f, ": injected failure");
            assert_clean(f, RUN_ID);
        }
    }
    orch_plan_free(p);
}

/* A restore that fails for real (the database volume's name is taken in
 * the second drive's pool) while the others run: the run fails naming it
 * and everything it created is torn down, the volume that was there
 * kept. */
static void test_restore_failure(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "sysbench", "vcpus = 1\nmemory = 1G\n");
    orch_ledger *other = orch_ledger_new();
    virStoragePoolPtr pool = virStoragePoolLookupByName(f->conn, "userpool");
    virStorageVolPtr vol;
    orch_run_opts o;
    char err[512];
    assert_non_null(pool);
    vol = orch_vol_create(pool, other, RUN_ID_PREFIX "second-vm1-db.img", "raw", 1 << 20,
                          NULL, NULL, err, sizeof err);
    assert_non_null(vol);
    virStorageVolFree(vol);
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    orch_assert_output(f, "drivebench: cannot create volume "
                       RUN_ID_PREFIX "second-vm1-db.img in pool userpool: ");
    orch_assert_output(f, "teardown: removed 0 domain(s), ");
    vol = virStorageVolLookupByName(pool, RUN_ID_PREFIX "second-vm1-db.img");
    assert_non_null(vol);       /* not the run's: left alone */
    virStorageVolFree(vol);
    assert_int_equal(orch_ledger_teardown(other, NULL, NULL), 0);
    orch_ledger_free(other);
    virStoragePoolFree(pool);
    assert_clean(f, RUN_ID);
    orch_plan_free(p);
}

/* A real libvirt error half-way (the second drive names a pool that does
 * not exist) tears down what the first drive got. */
static void test_libvirt_failure(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    free(p->drives[1].pool);
    p->drives[1].pool = strdup("nosuchpool");
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    orch_assert_output(f, "drivebench: storage pool nosuchpool: ");
    orch_assert_output(f, "teardown: removed 0 domain(s), 0 volume(s), 1 pool(s)");
    assert_clean(f, RUN_ID);
    orch_plan_free(p);
}

/* A VM whose database never answers: the run fails with the console log
 * shown (here: absent), and tears down. */
static int never_ready(void *ctx, const orch_vm *vm, virDomainPtr dom, int timeout_s, char *err,
                       size_t errlen)
{
    (void)ctx;
    snprintf(err, errlen, "%s: no answer within %d s", vm->name, timeout_s);
    return -1;
}

/* Run the tiny plan with wait_ready hook ready (its ctx: f), which fails:
 * the run fails and tears down. The plan, for the caller to free. */
static orch_plan *run_never_ready(orch_fixture *f,
                                  int (*ready)(void *, const orch_vm *, virDomainPtr, int, char *,
                                               size_t))
{
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    opts_init(&o, f);
    o.wait_ready = ready;
    o.hook_ctx = f;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    assert_clean(f, RUN_ID);
    return p;
}

static void test_boot_timeout(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = run_never_ready(f, never_ready);
    orch_assert_output(f, "drivebench: no console log at ");
    orch_assert_output(f, "--a-b-x-vm1: no answer within 600 s");
    orch_plan_free(p);
}

/* A guest kernel that panicked while booting: its console's panic line
 * sits above a call trace longer than the 40 lines shown, and the failure
 * still shows it, then how many lines were left out, then the last 40. */
static int panicked_console(void *ctx, const orch_vm *vm, virDomainPtr dom, int timeout_s,
                            char *err, size_t errlen)
{
    orch_fixture *f = ctx;
    char path[PATH_MAX];
    FILE *log;
    (void)dom;
    (void)timeout_s;
    snprintf(path, sizeof path, "%s/%s/console/%s.r1.log", f->results, RUN_ID, vm->name);
    assert_non_null(log = fopen(path, "w"));
    fprintf(log, "Begin: Running /scripts/init-bottom ... done.\n"
                 "[   11.41] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100\n");
    for (int i = 1; i <= 45; i++)
        fprintf(log, "[   11.42]  ? trace line %d\n", i);
    fprintf(log, "[   11.43] Rebooting in 1 seconds..\n");
    fclose(log);
    snprintf(err, errlen, "%s stopped while booting: the domain is shut off", vm->name);
    return -1;
}

static void test_boot_panic_console(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = run_never_ready(f, panicked_console);
    /* the panic line, the 6 trace lines between it and the last 40 (trace
     * lines 7-45 and "Rebooting") counted, then those 40 */
    orch_assert_output(f, "/console/" RUN_ID_PREFIX "a-b-x-vm1.r1.log ---\n"
                          "[   11.41] Kernel panic - not syncing: Attempted to kill init! "
                          "exitcode=0x00000100\n"
                          "[... 6 line(s) ...]\n"
                          "[   11.42]  ? trace line 7\n");
    orch_assert_output(f, "[   11.42]  ? trace line 45\n[   11.43] Rebooting in 1 seconds..\n"
                          "--- end of console log ---\n");
    assert_null(strstr(orch_fixture_output(f), "trace line 6\n"));
    assert_null(strstr(orch_fixture_output(f), "init-bottom"));
    orch_plan_free(p);
}

/* SIGINT while oltp runs (sent by the stand-in to drivebench, as a ^C
 * would be): children stopped, everything torn down, status 130. */
static void test_sigint_during_measure(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    struct sigaction now;
    time_t start = time(NULL);
    opts_init(&o, f);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_SIGINT", "measure"), ORCH_RUN_INTERRUPTED);
    /* the stand-ins sleep 30 s after signalling: they were stopped */
    assert_true(time(NULL) - start < 20);
    orch_assert_output(f, "drivebench: interrupted by signal 2; tearing down");
    assert_clean(f, RUN_ID);
    /* nothing measured is lost: a summary marked partial, before teardown */
    orch_assert_output(f, "partial summary: ");
    {
        json_object *s = orch_fixture_summary(f);
        assert_string_equal(jnum(s, "status", -1, NULL, NULL), "\"partial\"");
        assert_string_equal(jnum(s, "vms", 0, "status", NULL), "\"ok\"");
        json_object_put(s);
    }
    /* the run's handler is gone again */
    sigaction(SIGINT, NULL, &now);
    assert_true(now.sa_handler == SIG_DFL);
    orch_plan_free(p);
}

/* SIGTERM while waiting for the VMs, and SIGINT while provisioning. */
static void test_signal_during_boot_and_provisioning(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "sysbench", "vcpus = 1\nmemory = 1G\n");
    inject_ctx cases[] = {
        { .step = ORCH_STEP_READY, .nth = 2, .signal = SIGTERM },
        { .step = ORCH_STEP_DB_VOL, .nth = 2, .signal = SIGINT },
    };
    for (size_t i = 0; i < 2; i++) {
        orch_run_opts o;
        opts_init(&o, f);
        o.inject = inject;
        o.hook_ctx = &cases[i];
        assert_int_equal(orch_run(p, &o), ORCH_RUN_INTERRUPTED);
        assert_clean(f, RUN_ID);
    }
    orch_plan_free(p);
}

static void test_oltp_failure(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    opts_init(&o, f);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_EXIT", "3"), ORCH_RUN_FAILED);
    orch_assert_output(f, ": oltp prepare exited with status 3");
    /* every VM failed: nothing was measured, so the run failed */
    orch_assert_output(f, "drivebench: prepare failed on every VM");
    assert_clean(f, RUN_ID);
    orch_plan_free(p);
}

/* A crashed run's objects are found by run id and removed; another run
 * whose id merely starts the same is not touched. */
static void test_teardown_by_run_id(void **state)
{
    orch_fixture *f = *state;
    const char *runs[] = { "crash-1", "crash-1-2" };
    char err[512];
    orch_counts removed = { 0 };
    census c = { .prefix = "drivebench-crash-1-2--" };
    char *prefix;
    for (int r = 0; r < 2; r++) {
        orch_ledger *l = orch_ledger_new();
        char *pname = orch_strfmt("drivebench-%s--drive-d", runs[r]);
        char *vname = orch_strfmt("drivebench-%s--d-vm1-db.img", runs[r]);
        char *dxml = orch_strfmt("<domain type='test'><name>drivebench-%s--d-vm1</name>"
                                 "<memory>65536</memory><os><type>hvm</type></os></domain>",
                                 runs[r]);
        virStoragePoolPtr pool = orch_pool_create_dir(f->conn, l, pname, r ? "/srv/crash2" : "/srv/crash1", err,
                                                      sizeof err);
        virStoragePoolPtr user = virStoragePoolLookupByName(f->conn, "userpool");
        virStorageVolPtr v1, v2;
        virDomainPtr dom;
        assert_non_null(pool);
        v1 = orch_vol_create(pool, l, vname, "raw", 1 << 20, NULL, NULL, err, sizeof err);
        v2 = orch_vol_create(user, l, vname, "raw", 1 << 20, NULL, NULL, err, sizeof err);
        dom = orch_domain_start(f->conn, l, dxml, err, sizeof err);
        assert_non_null(v1);
        assert_non_null(v2);
        assert_non_null(dom);
        assert_int_equal(orch_ledger_count(l), 4);
        /* the process "crashes": its ledger is lost */
        orch_ledger_free(l);
        virStorageVolFree(v1);
        virStorageVolFree(v2);
        virDomainFree(dom);
        virStoragePoolFree(pool);
        virStoragePoolFree(user);
        free(pname);
        free(vname);
        free(dxml);
    }
    prefix = orch_object_prefix("crash-1");
    assert_int_equal(orch_teardown_prefix(f->conn, prefix, stderr, &removed), 0);
    free(prefix);
    assert_int_equal(removed.domains, 1);
    assert_int_equal(removed.volumes, 2);
    assert_int_equal(removed.pools, 1);
    assert_int_equal(orch_list_objects(f->conn, census_fn, &c, err, sizeof err), 0);
    assert_int_equal(c.ours[ORCH_OBJ_DOMAIN], 1);
    assert_int_equal(c.ours[ORCH_OBJ_VOLUME], 2);
    assert_int_equal(c.ours[ORCH_OBJ_POOL], 1);
    prefix = orch_object_prefix("crash-1-2");
    memset(&removed, 0, sizeof removed);
    assert_int_equal(orch_teardown_prefix(f->conn, prefix, stderr, &removed), 0);
    assert_int_equal(removed.domains + removed.volumes + removed.pools, 4);
    free(prefix);
    assert_clean(f, "crash-1");
    assert_clean(f, "crash-1-2");
}

/* domain_type = auto asks the host: the test driver offers no KVM. */
/* One VM's oltp reports that its database stopped answering (exit 3)
 * during the measured phase: that VM is named, its drive is incomplete
 * and kept out of the figures, the others are measured; exit 3. */
static void test_one_vm_fails(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    json_object *s;
    char path[PATH_MAX], *csv;
    opts_init(&o, f);
    setenv("FAKE_OLTP_EXIT", "3", 1);
    setenv("FAKE_OLTP_MATCH", "second-vm1.r1.json", 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_DEGRADED);
    assert_clean(f, RUN_ID);
    orch_assert_output(f, ": oltp measure exited with status 3\n");
    orch_assert_output(f, "VM " RUN_ID_PREFIX "second-vm1 on drive "
                       "second failed at ");
    orch_assert_output(f, "drivebench: completed with failures: 1 VM "
                       "run(s) failed");
    s = orch_fixture_summary(f);
    assert_string_equal(jnum(s, "status", -1, NULL, NULL), "\"completed_with_failures\"");
    assert_string_equal(jnum(s, "drives", 0, "status", NULL), "\"complete\"");
    assert_string_equal(jnum(s, "drives", 0, "tps", NULL), "22.5");
    assert_string_equal(jnum(s, "drives", 1, "status", NULL), "\"incomplete\"");
    assert_string_equal(jnum(s, "drives", 1, "failed_vms", NULL), "1");
    assert_string_equal(jnum(s, "drives", 1, "vms", NULL), "0");
    assert_string_equal(jnum(s, "drives", 1, "tps", NULL), "0");
    assert_string_equal(jnum(s, "run", -1, "tps", NULL), "22.5");
    assert_string_equal(jnum(s, "run", -1, "failed_vms", NULL), "1");
    assert_string_equal(jnum(s, "vms", 0, "status", NULL), "\"ok\"");
    assert_vm_failed(s, 2, "\"database\"", "\"the database stopped answering during measure "
                     "(oltp could not reconnect)\"");
    assert_string_equal(jnum(s, "vms", 2, "failed_in", NULL), "\"measure\"");
    /* it left no result: no figures, rather than zeros */
    assert_string_equal(jnum(s, "vms", 2, "tps", NULL), "(missing)");
    json_object_put(s);
    snprintf(path, sizeof path, "%s/%s/summary.csv", f->results, RUN_ID);
    csv = orch_slurp(path);
    /* no latency measured: empty fields, not 0 (issue 29) */
    assert_non_null(strstr(csv, "\n" RUN_ID ",second,1,0,0,0,,,,1,incomplete,"
                           RUN_ID_PREFIX "second-vm1: the database stopped answering during "
                           "measure (oltp could not reconnect),,,"));
    free(csv);
    orch_plan_free(p);
}

/* The plan's [settings] (issue 44): each VM's server read back before the
 * precondition with the stated settings, kept per VM in summary.json and
 * in the fingerprint. */
static void test_settings_read_back(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, "profile = tiny\n",
                                     "pool = userpool\n[settings]\ninnodb_buffer_pool_size = 256M\n");
    orch_run_opts o;
    json_object *s, *sv;
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_clean(f, RUN_ID);
    orch_assert_output(f, "repetition 1: server settings of 3 VM(s)\n");
    assert_int_equal(orch_count_lines(f->log, " --server-settings=innodb_buffer_pool_size=256M "
                                      "--json="), 3);
    assert_int_equal(orch_count_lines(f->log, ".r1.server.json settings"), 3);
    s = orch_fixture_summary(f);
    for (int i = 0; i < 3; i++) {
        assert_true(json_object_object_get_ex(s, "vms", &sv));
        sv = json_object_array_get_idx(sv, (size_t)i);
        assert_true(json_object_object_get_ex(sv, "server", &sv));
        assert_string_equal(json_object_to_json_string_ext(sv, JSON_C_TO_STRING_PLAIN),
                            "{\"version\":\"10.11.6-MariaDB\",\"edition\":\"Debian 12\","
                            "\"settings\":[{\"name\":\"innodb_flush_log_at_trx_commit\","
                            "\"value\":\"1\"},{\"name\":\"innodb_buffer_pool_size\","
                            "\"value\":\"256M\",\"wanted\":\"256M\"}]}");
    }
    assert_string_equal(jnum(s, "fingerprint", -1, "server_settings", NULL),
                        "\"innodb_flush_log_at_trx_commit=1; innodb_buffer_pool_size=256M\"");
    json_object_put(s);
    orch_plan_free(p);
}

/* A VM whose server has another value than the plan states refuses the
 * run before anything is measured, with one line naming the VM, the
 * setting, what it has and what the plan wants; everything is torn
 * down. */
static void test_settings_mismatch_refused(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, "profile = tiny\n",
                                     "pool = userpool\n[settings]\ninnodb_buffer_pool_size = 256M\n");
    orch_run_opts o;
    opts_init(&o, f);
    setenv("FAKE_OLTP_SETTINGS_FOUND", "innodb_buffer_pool_size=134217728", 1);
    setenv("FAKE_OLTP_SETTINGS_MATCH", "second-vm1.r1.server.json", 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    unsetenv("FAKE_OLTP_SETTINGS_FOUND");
    unsetenv("FAKE_OLTP_SETTINGS_MATCH");
    assert_clean(f, RUN_ID);
    orch_assert_output(f, "VM " RUN_ID_PREFIX "second-vm1: server setting "
                       "'innodb_buffer_pool_size' is 134217728, the plan's [settings] wants 256M: "
                       "refused before measuring (settings_mismatch = warn measures anyway)\n");
    /* nothing measured: no precondition, no measured phase */
    assert_int_equal(orch_count_lines(f->log, " run"), 0);
    orch_plan_free(p);
}

/* settings_mismatch = warn: the same VM is named in a warning and the run
 * measures; its read-back keeps what its server has. */
static void test_settings_mismatch_warn(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, "profile = tiny\nsettings_mismatch = warn\n",
                                     "pool = userpool\n[settings]\ninnodb_buffer_pool_size = 256M\n");
    orch_run_opts o;
    json_object *s;
    opts_init(&o, f);
    setenv("FAKE_OLTP_SETTINGS_FOUND", "innodb_buffer_pool_size=134217728", 1);
    setenv("FAKE_OLTP_SETTINGS_MATCH", "second-vm1.r1.server.json", 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_SETTINGS_FOUND");
    unsetenv("FAKE_OLTP_SETTINGS_MATCH");
    assert_clean(f, RUN_ID);
    orch_assert_output(f, "drivebench: warning: VM " RUN_ID_PREFIX "second-vm1: server setting "
                       "'innodb_buffer_pool_size' is 134217728, the plan's [settings] wants 256M "
                       "(settings_mismatch = warn: measured anyway)\n");
    s = orch_fixture_summary(f);
    assert_string_equal(jnum(s, "fingerprint", -1, "server_settings", NULL),
                        "\"innodb_flush_log_at_trx_commit=1; innodb_buffer_pool_size=256M | "
                        "innodb_flush_log_at_trx_commit=1; innodb_buffer_pool_size=134217728\"");
    json_object_put(s);
    orch_plan_free(p);
}

/* A guest database that reports its disk full (oltp's exit 4) fails its
 * VM with fault disk-full, naming the drive; exit 3. */
static void test_database_disk_full(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    json_object *s;
    opts_init(&o, f);
    setenv("FAKE_OLTP_EXIT", "4", 1);
    setenv("FAKE_OLTP_MATCH", "second-vm1.r1.json", 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_DEGRADED);
    assert_clean(f, RUN_ID);
    s = orch_fixture_summary(f);
    assert_vm_failed(s, 2, "\"disk-full\"", "\"drive second is full: the database reported its "
                     "disk full during measure\"");
    assert_string_equal(jnum(s, "drives", 1, "status", NULL), "\"incomplete\"");
    assert_string_equal(jnum(s, "drives", 0, "status", NULL), "\"complete\"");
    json_object_put(s);
    orch_plan_free(p);
}

/* The fixtures copied into folder `sub` of the test's, second-vm1's
 * measured phase changed by edit(phase, arg). Returns the folder
 * (static: until the next call). */
static const char *fixtures_second_vm1(orch_fixture *f, const char *sub,
                                       void (*edit)(json_object *measure, double arg),
                                       double arg)
{
    static char dir[PATH_MAX];
    char cmd[PATH_MAX * 3], path[PATH_MAX * 2];
    json_object *d, *phases;
    snprintf(dir, sizeof dir, "%s/%s", f->results, sub);
    snprintf(cmd, sizeof cmd, "cp -r '%s/results/fixtures/run/vm' '%s'", f->cwd, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/drivebench-fixture-20261130-000000--second-vm1.r1.json",
             dir);
    d = json_object_from_file(path);
    assert_non_null(d);
    assert_true(json_object_object_get_ex(d, "phases", &phases));
    edit(json_object_array_get_idx(phases, 1), arg);
    assert_int_equal(json_object_to_file(path, d), 0);
    json_object_put(d);
    return dir;
}

/* Connection outages of 0.4 and `outage` seconds. */
static void with_outage(json_object *ph, double outage)
{
    json_object *lo = json_object_new_array();
    json_object_array_add(lo, json_object_new_double(0.4));
    json_object_array_add(lo, json_object_new_double(outage));
    json_object_object_add(ph, "longest_outage_s", lo);
    json_object_object_add(ph, "unavailable_s", json_object_new_double((0.4 + outage) / 2));
}

/* The fixtures with second-vm1's measured phase showing connection
 * outages of 0.4 and `outage` seconds (fixtures_second_vm1). */
static const char *fixtures_with_outage(orch_fixture *f, double outage)
{
    return fixtures_second_vm1(f, "fixtures", with_outage, outage);
}

/* A measured phase with an outage of max_outage (1 s) or more is not
 * comparable: that VM fails with fault database; a shorter one passes. */
static void test_outage_fails_vm(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    json_object *s;
    opts_init(&o, f);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_FIXTURES", fixtures_with_outage(f, 2.5)),
                     ORCH_RUN_DEGRADED);
    assert_clean(f, RUN_ID);
    s = orch_fixture_summary(f);
    assert_vm_failed(s, 2, "\"database\"", "\"the database did not answer for 2.5 s during "
                     "measure (max_outage 1 s): its figures are not comparable\"");
    assert_string_equal(jnum(s, "vms", 0, "status", NULL), "\"ok\"");
    assert_string_equal(jnum(s, "drives", 1, "status", NULL), "\"incomplete\"");
    json_object_put(s);
    orch_plan_free(p);
}

static void test_short_outage_passes(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    opts_init(&o, f);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_FIXTURES", fixtures_with_outage(f, 0.9)),
                     ORCH_RUN_OK);
    assert_clean(f, RUN_ID);
    orch_plan_free(p);
}

/* v in the second interval's tps. */
static void with_interval_tps(json_object *ph, double v)
{
    json_object *ivs;
    assert_true(json_object_object_get_ex(ph, "intervals", &ivs));
    json_object_object_add(json_object_array_get_idx(ivs, 1), "tps", json_object_new_double(v));
}

/* A VM whose result is refused (a NaN interval) is a failed VM run, fault
 * "result", the reader's line naming the file, phase and interval its
 * reason; its drive is incomplete, the others' figures stand, and
 * `drivebench summarize` comes to the same (issue 42: the run ended with
 * exit 1 and "measure: tps: nan", the VM "ok", its drive complete with 0
 * VMs and 0 TPS). */
static void test_refused_result_fails_vm(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    json_object *s;
    char want[PATH_MAX * 2], err[DB_ERR_LEN], *dir = orch_strfmt("%s/%s", f->results, RUN_ID);
    res_summary *re;
    opts_init(&o, f);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_FIXTURES",
                                  fixtures_second_vm1(f, "fixtures-nan", with_interval_tps, NAN)),
                     ORCH_RUN_DEGRADED);
    assert_clean(f, RUN_ID);
    s = orch_fixture_summary(f);
    snprintf(want, sizeof want, "its result was refused: %s/vm/drivebench-%s--second-vm1.r1.json: "
             "measure: intervals[1].tps: nan (not a finite number >= 0)", dir, RUN_ID);
    assert_string_equal(jnum(s, "vms", 2, "status", NULL), "\"failed\"");
    assert_string_equal(jnum(s, "vms", 2, "fault", NULL), "\"result\"");
    {
        json_object *vms, *reason;
        assert_true(json_object_object_get_ex(s, "vms", &vms));
        assert_true(json_object_object_get_ex(json_object_array_get_idx(vms, 2), "reason",
                                              &reason));
        assert_string_equal(json_object_get_string(reason), want);
    }
    assert_string_equal(jnum(s, "vms", 2, "failed_in", NULL), "\"measure\"");
    assert_string_equal(jnum(s, "vms", 0, "status", NULL), "\"ok\"");
    assert_string_equal(jnum(s, "drives", 1, "status", NULL), "\"incomplete\"");
    assert_string_equal(jnum(s, "drives", 1, "failed_vms", NULL), "1");
    assert_string_equal(jnum(s, "drives", 0, "status", NULL), "\"complete\"");
    assert_string_equal(jnum(s, "status", -1, NULL, NULL), "\"completed_with_failures\"");
    json_object_put(s);
    re = orch_summary_rebuild(dir, err, sizeof err);
    assert_non_null(re);
    assert_string_equal(re->vms[2].fault, "result");
    assert_true(re->vms[2].failed && re->drives[1].f.failed_vms == 1);
    orch_summary_free(re);
    free(dir);
    orch_plan_free(p);
}

/* The fixtures in a folder of the test's, each with the database sizes
 * oltp writes: data after load `loaded[i]` (vm1, vm2 of drive a, vm1 of
 * second), 64 MiB of log, 10 MiB more data at the end, no log at the end
 * for second-vm1. Returns the folder (static). */
static const char *fixtures_with_sizes(orch_fixture *f, const int64_t loaded[3])
{
    static const char *const names[] = { "a-b-x-vm1", "a-b-x-vm2", "second-vm1" };
    static char dir[PATH_MAX];
    char cmd[PATH_MAX * 3], path[PATH_MAX * 2];
    snprintf(dir, sizeof dir, "%s/fixtures-sizes", f->results);
    snprintf(cmd, sizeof cmd, "cp -r '%s/results/fixtures/run/vm' '%s'", f->cwd, dir);
    assert_int_equal(system(cmd), 0);
    for (int i = 0; i < 3; i++) {
        json_object *d, *z = json_object_new_object(), *s = json_object_new_object(),
                    *e = json_object_new_object();
        snprintf(path, sizeof path, "%s/drivebench-fixture-20261130-000000--%s.r1.json", dir,
                 names[i]);
        d = json_object_from_file(path);
        assert_non_null(d);
        json_object_object_add(s, "data_bytes", json_object_new_int64(loaded[i]));
        json_object_object_add(s, "log_bytes", json_object_new_int64(67108864));
        json_object_object_add(e, "data_bytes", json_object_new_int64(loaded[i] + 10485760));
        if (i < 2)
            json_object_object_add(e, "log_bytes", json_object_new_int64(67108864));
        json_object_object_add(z, "start", s);
        json_object_object_add(z, "end", e);
        json_object_object_add(d, "database_size", z);
        assert_int_equal(json_object_to_file(path, d), 0);
        json_object_put(d);
    }
    return dir;
}

/* Each VM's database size goes into the summary (after load, at the end),
 * each drive's mean beside it, summary.csv and the report; against the
 * plan's expect_database_size (1G), vm2 of drive a at +25 % is warned
 * about at the end of the run (the run still succeeds), vm1 at 0 % and
 * second-vm1 at -10 % are not. */
static void test_database_size(void **state)
{
    static const int64_t loaded[3] = { 1073741824, 1342177280, 966367642 };
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    json_object *s, *vms, *v, *z;
    char path[PATH_MAX], *text;
    opts_init(&o, f);
    p->expect_database_size = 1073741824;
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_FIXTURES", fixtures_with_sizes(f, loaded)),
                     ORCH_RUN_OK);
    assert_clean(f, RUN_ID);
    orch_assert_output(f,
        "drivebench: warning: VM drivebench-fixture-20261130-000000--a-b-x-vm2 (drive a<b ' & .. x, "
        "repetition 1): its database holds 1.25 GiB of data after load, +25.0 % from the plan's "
        "expect_database_size (1.00 GiB, tolerance ±20 %); the figures stand, but the database "
        "is not the size the plan expects (docs/database-size.md)\n");
    assert_null(strstr(orch_fixture_output(f), "--a-b-x-vm1 (drive"));
    assert_null(strstr(orch_fixture_output(f), "--second-vm1 (drive"));
    s = orch_fixture_summary(f);
    assert_string_equal(jnum(s, "plan", -1, "workload", "expect_database_bytes"), "1073741824");
    assert_true(json_object_object_get_ex(s, "vms", &vms));
    v = json_object_array_get_idx(vms, 1);
    assert_true(json_object_object_get_ex(v, "database_size", &z));
    assert_string_equal(json_object_to_json_string_ext(z, JSON_C_TO_STRING_PLAIN),
        "{\"loaded\":{\"data_bytes\":1342177280,\"log_bytes\":67108864},"
        "\"end\":{\"data_bytes\":1352663040,\"log_bytes\":67108864},"
        "\"deviation_pct\":25,\"beyond_tolerance\":true}");
    v = json_object_array_get_idx(vms, 2);
    assert_true(json_object_object_get_ex(v, "database_size", &z));
    assert_string_equal(json_object_to_json_string_ext(z, JSON_C_TO_STRING_PLAIN),
        "{\"loaded\":{\"data_bytes\":966367642,\"log_bytes\":67108864},"
        "\"end\":{\"data_bytes\":976853402},"
        "\"deviation_pct\":-10,\"beyond_tolerance\":false}");
    /* drive a: the mean of its two VMs */
    assert_string_equal(jnum(s, "drives", 0, "database_size", "loaded"),
                        "{ \"data_bytes\": 1207959552, \"log_bytes\": 67108864 }");
    assert_string_equal(jnum(s, "drives", 0, "database_size", "end"),
                        "{ \"data_bytes\": 1218445312, \"log_bytes\": 67108864 }");
    assert_string_equal(jnum(s, "drives", 1, "database_size", "end"),
                        "{ \"data_bytes\": 976853402 }");
    json_object_put(s);
    snprintf(path, sizeof path, "%s/%s/summary.csv", f->results, RUN_ID);
    text = orch_slurp(path);
    assert_non_null(text);
    assert_non_null(strstr(text, ",1207959552,67108864,1218445312,67108864\n"));
    assert_non_null(strstr(text, ",966367642,67108864,976853402,\n"));
    free(text);
    snprintf(path, sizeof path, "%s/%s/report.html", f->results, RUN_ID);
    text = orch_slurp(path);
    assert_non_null(text);
    assert_non_null(strstr(text, "<td data-key=\"database_loaded_data_bytes\" "
        "data-value=\"1342177280\" class=\"warn\">1344.0 MiB (data 1280.0 MiB, log 64.0 MiB): "
        "+25.0 % from the expected 1.00 GiB (beyond ±20 %)</td>"));
    assert_non_null(strstr(text, "<td data-key=\"database_loaded_data_bytes\" "
        "data-value=\"966367642\">985.6 MiB (data 921.6 MiB, log 64.0 MiB)</td>"));
    free(text);
    orch_plan_free(p);
}

/* As the measured phase runs, RUN_DIR/clients names each host-side oltp
 * with its pid, start time and executable's device:inode (fake-oltp is a
 * /bin/sh script: sh's); it is gone once the phase reaped them. */
static void test_clients_recorded(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    char path[PATH_MAX + 64], copy[PATH_MAX + 64], line[512], vm[256];
    const char *want[] = { RUN_ID_PREFIX "a-b-x-vm1", RUN_ID_PREFIX "a-b-x-vm2",
                           RUN_ID_PREFIX "second-vm1" };
    FILE *in;
    struct stat sh;
    int n = 0;
    opts_init(&o, f);
    snprintf(copy, sizeof copy, "%s/clients.copy", f->results);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_CLIENTS", copy), ORCH_RUN_OK);
    in = fopen(copy, "r");
    assert_non_null(in);
    assert_int_equal(stat("/bin/sh", &sh), 0);
    while (fgets(line, sizeof line, in)) {
        int pid;
        unsigned long long start, dev, ino;
        assert_int_equal(sscanf(line, "%d %llu %llu:%llu %255s", &pid, &start, &dev, &ino, vm), 5);
        assert_true(pid > 1);
        assert_true(start > 0);
        assert_int_equal(dev, (unsigned long long)sh.st_dev);
        assert_int_equal(ino, (unsigned long long)sh.st_ino);
        assert_true(n < 3);
        assert_string_equal(vm, want[n]);
        n++;
    }
    fclose(in);
    assert_int_equal(n, 3);
    snprintf(path, sizeof path, "%s/%s/clients", f->results, RUN_ID);
    assert_int_equal(access(path, F_OK), -1);
    orch_plan_free(p);
}

/* libvirt's side of a lost connection, as the test driver cannot close
 * one: the monitor is told the connection closed as the measured phase
 * starts (the seam libvirt's close callback goes through), and reopen
 * answers after `fail_first` refusals with the test node again (it keeps
 * the run's domains, as a restarted libvirtd does). */
typedef struct lost_ctx {
    orch_fixture  *f;
    orch_run_opts *o;
    int            fail_first;  /* refusals before answering; < 0: never */
    int            reopens;
    const char    *gone;        /* a domain that stops while libvirt is away */
} lost_ctx;

static int lose_at_measure(void *ctx, orch_step step, const char *object)
{
    lost_ctx *c = ctx;
    (void)object;
    if (step == ORCH_STEP_MEASURE)
        orch_monitor_on_close(c->o->monitor, c->f->conn, VIR_CONNECT_CLOSE_REASON_EOF);
    return 0;
}

static virConnectPtr reopen_test(void *ctx, const char *uri, char *err, size_t errlen)
{
    lost_ctx *c = ctx;
    assert_string_equal(uri, c->f->uri);
    if (c->reopens++ < c->fail_first || c->fail_first < 0) {
        snprintf(err, errlen, "Failed to connect socket: Connection refused");
        return NULL;
    }
    if (c->gone) {
        virDomainPtr d = virDomainLookupByName(c->f->conn, c->gone);
        assert_non_null(d);
        assert_int_equal(virDomainDestroy(d), 0);
        virDomainFree(d);
    }
    virConnectRef(c->f->conn);
    return c->f->conn;
}

/* Run options whose libvirt connection is lost at the measured phase and
 * reopened as c says. */
static void lost_opts(orch_run_opts *o, orch_fixture *f, lost_ctx *c)
{
    opts_init(o, f);
    o->inject = lose_at_measure;
    o->reopen = reopen_test;
    o->hook_ctx = c;
}

/* libvirt goes away as the measured phase starts and answers again on the
 * second try: the run finds its domains again by UUID and goes on; exit 0. */
static void test_libvirt_reconnects(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    lost_ctx c = { .f = f, .o = &o, .fail_first = 1 };
    char want[PATH_MAX * 4];
    lost_opts(&o, f, &c);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_int_equal(c.reopens, 2);
    assert_clean(f, RUN_ID);
    snprintf(want, sizeof want, "drivebench: the libvirt connection %s was lost (end of file)\n"
             "drivebench: reconnecting to libvirt at %s (for up to 60 s)\n"
             "drivebench: reconnected to libvirt at %s; 3 of 3 VM(s) still running\n",
             f->uri, f->uri, f->uri);
    orch_assert_output(f, want);
    /* every VM measured */
    assert_int_equal(orch_count_lines(f->log, ".r1.json oltp_read_write run"), 3);
    orch_plan_free(p);
}

/* A VM that stopped while libvirt was away is found stopped by UUID when
 * it comes back: it fails, the others are measured; exit 3. (Whether the
 * monitor's event or the reconnect names it first, its figures are out.) */
static void test_libvirt_back_without_a_vm(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    orch_run_opts o;
    lost_ctx c = { .f = f, .o = &o, .gone = RUN_ID_PREFIX "a-b-x-vm2" };
    json_object *s;
    char want[PATH_MAX * 4];
    lost_opts(&o, f, &c);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_DEGRADED);
    assert_clean(f, RUN_ID);
    snprintf(want, sizeof want, "drivebench: reconnected to libvirt at %s; 2 of 3 VM(s) still "
             "running\n", f->uri);
    orch_assert_output(f, want);
    assert_int_equal(orch_count_lines(f->log, ".r1.json oltp_read_write run"), 2);
    s = orch_fixture_summary(f);
    assert_string_equal(jnum(s, "vms", 1, "status", NULL), "\"failed\"");
    assert_string_equal(jnum(s, "vms", 1, "failed_in", NULL), "\"measure\"");
    assert_string_equal(jnum(s, "vms", 0, "status", NULL), "\"ok\"");
    assert_string_equal(jnum(s, "vms", 2, "status", NULL), "\"ok\"");
    json_object_put(s);
    orch_plan_free(p);
}

/* libvirt never answers again: the run stops after libvirt_reconnect
 * (2 s here) and says why; exit 1. */
static void test_libvirt_never_returns(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", "libvirt_reconnect = 2s\n");
    orch_run_opts o;
    lost_ctx c = { .f = f, .o = &o, .fail_first = -1 };
    char want[PATH_MAX * 4];
    time_t t0 = time(NULL);
    lost_opts(&o, f, &c);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    assert_true(c.reopens >= 2);
    assert_true(time(NULL) - t0 < 30);
    snprintf(want, sizeof want, "drivebench: libvirt at %s did not answer again within 2 s "
             "(libvirt_reconnect): Failed to connect socket: Connection refused; stopping\n",
             f->uri);
    orch_assert_output(f, want);
    /* the test node itself still answers: teardown is complete */
    assert_clean(f, RUN_ID);
    orch_plan_free(p);
}

typedef struct destroy_ctx {
    orch_fixture *f;
    const char   *domain;
    pthread_t     later;        /* with delay_ms: the thread that destroys */
    int           delay_ms;     /* 0: at once */
    int           destroyed;
} destroy_ctx;

static void destroy_now(destroy_ctx *c)
{
    virDomainPtr d = virDomainLookupByName(c->f->conn, c->domain);
    c->destroyed = d && virDomainDestroy(d) == 0;
    if (d)
        virDomainFree(d);
}

static void *destroy_later(void *arg)
{
    destroy_ctx *c = arg;
    usleep((useconds_t)c->delay_ms * 1000);
    destroy_now(c);
    return NULL;
}

/* At the start of the measured phase (or delay_ms into it, from a thread
 * the test joins), destroy one VM, as a crash would. */
static int destroy_at_measure(void *ctx, orch_step step, const char *object)
{
    destroy_ctx *c = ctx;
    (void)object;
    if (step != ORCH_STEP_MEASURE)
        return 0;
    if (c->delay_ms)
        assert_int_equal(pthread_create(&c->later, NULL, destroy_later, c), 0);
    else
        destroy_now(c);
    assert_true(c->delay_ms || c->destroyed);
    return 0;
}

/* A VM destroyed during the measured phase (1 s into it, its oltp
 * running) is a failure, never a slow drive: the monitor names it from
 * libvirt's event. Its oltp, stopped by SIGTERM, keeps what it measured. */
static void test_vm_destroyed_mid_measure(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", NULL);
    destroy_ctx c = { f, RUN_ID_PREFIX "a-b-x-vm2", .delay_ms = 1000 };
    orch_run_opts o;
    json_object *s;
    char path[PATH_MAX], err[512], *html, *mark;
    double at;
    res_oltp r;
    opts_init(&o, f);
    o.inject = destroy_at_measure;
    o.hook_ctx = &c;
    setenv("FAKE_OLTP_SLEEP", "2", 1);
    setenv("FAKE_OLTP_MATCH", "a-b-x-vm2.r1.json", 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_DEGRADED);
    assert_int_equal(pthread_join(c.later, NULL), 0);
    assert_true(c.destroyed);
    assert_clean(f, RUN_ID);
    s = orch_fixture_summary(f);
    assert_vm_failed(s, 1, "\"stopped\"", "\"stopped: destroyed\"");
    assert_string_equal(jnum(s, "vms", 1, "failed_in", NULL), "\"measure\"");
    assert_string_equal(jnum(s, "drives", 0, "status", NULL), "\"incomplete\"");
    assert_string_equal(jnum(s, "drives", 0, "vms", NULL), "1");
    assert_string_equal(jnum(s, "drives", 0, "failed_vms", NULL), "1");
    /* vm1's figures alone (fixture a-b-x-vm1: 10 TPS) */
    assert_string_equal(jnum(s, "drives", 0, "tps", NULL), "10");
    assert_string_equal(jnum(s, "drives", 1, "status", NULL), "\"complete\"");
    /* vm2's oltp, stopped by SIGTERM, wrote what it measured (fake-oltp:
     * the fixture's first 2 intervals): kept in its file and shown with
     * the fault, 1 s into its measured phase (both clocks to the second) */
    assert_string_equal(jnum(s, "vms", 1, "result_ended", NULL), "\"signal\"");
    assert_string_equal(jnum(s, "vms", 1, "tps_series", NULL), "[ [ 1, 10 ], [ 2, 10 ] ]");
    at = atof(jnum(s, "vms", 1, "failed_at_s", NULL));
    assert_true(at >= 0 && at <= 2);
    json_object_put(s);
    snprintf(path, sizeof path, "%s/%s/vm/drivebench-%s--a-b-x-vm2.r1.json", f->results, RUN_ID,
             RUN_ID);
    if (res_oltp_read_file(path, &r, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(r.ended, RES_END_SIGNAL);
    assert_string_equal(r.end_reason, "SIGTERM");
    assert_int_equal(res_oltp_measure(&r)->nintervals, 2);
    res_oltp_clear(&r);
    snprintf(path, sizeof path, "%s/%s/report.html", f->results, RUN_ID);
    html = orch_slurp(path);
    assert_non_null(strstr(html, "<td>2 intervals, up to 2.0 s of its measured phase (its oltp "
                                 "result ended: signal)</td>"));
    mark = orch_strfmt("<g class=\"mark\" data-x=\"%g\" data-label=\"fault at %.1f s\">", at, at);
    assert_non_null(strstr(html, mark));
    free(mark);
    free(html);
    orch_plan_free(p);
}

static void test_domain_type_auto(void **state)
{
    orch_fixture *f = *state;
    char err[256], *caps = virConnectGetCapabilities(f->conn);
    assert_non_null(caps);
    /* the test driver's guests are of type 'test', never 'kvm' */
    assert_non_null(strstr(caps, "<domain type='test'"));
    free(caps);
    assert_string_equal(orch_domain_type_for(f->conn, err, sizeof err), "qemu");
}

static void test_oltp_argv(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", "");
    orch_layout *l = orch_layout_new(p, RUN_ID, 0);
    char **argv, *joined = NULL;
    size_t len = 0;
    FILE *j = open_memstream(&joined, &len);
    char want[PATH_MAX * 2];
    (void)state;
    p->warmup_s = 5;
    p->rate = 50;
    p->extra = strdup("--rand-type=uniform  --skip-trx=on");
    argv = orch_oltp_argv(p, p->oltp, l->vms[1].port, "run", 60, p->warmup_s, "/r/vm/x.json");
    for (int i = 0; argv[i]; i++)
        fprintf(j, "%s%s", i ? " " : "", argv[i]);
    fclose(j);
    snprintf(want, sizeof want, "%s/tests/orchestrator/fake-oltp --db-driver=mysql "
             "--mysql-host=127.0.0.1 --mysql-port=47101 --mysql-user=drivebench "
             "--mysql-db=sbtest --tables=2 --table-size=10000 --threads=2 --time=65 "
             "--warmup-time=5 --rate=50 --report-interval=1 --json=/r/vm/x.json "
             "--rand-type=uniform --skip-trx=on oltp_read_write run", f->cwd);
    assert_string_equal(joined, want);
    free(joined);
    orch_argv_free(argv);
    orch_layout_free(l);
    orch_plan_free(p);
}

/* A sqlserver plan (the user's image, no guest agent, ODBC Driver 18) on
 * the test driver: readiness is the host's `oltp ping` (no agent asked),
 * every oltp gets the ODBC connection string and the password only in
 * OLTP_ODBC_PASSWORD, never on its argv or in the results. */
static orch_plan *sqlserver_plan(orch_fixture *f)
{
    orch_plan *p = plan(f, "tiny", "engine = sqlserver\nimage = /srv/images/mssql.qcow2\n"
                        "guest_agent = no\n");
    free(p->db_driver);
    p->db_driver = strdup("odbc");
    p->odbc_driver = strdup("ODBC Driver 18 for SQL Server");
    p->encrypt = strdup("yes");
    p->trust_server_certificate = strdup("yes");
    free(p->db_password);
    p->db_password = strdup("S3cret;pw");
    return p;
}

static void test_sqlserver_run(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = sqlserver_plan(f);
    orch_run_opts o;
    char pwlog[PATH_MAX], cmd[PATH_MAX * 2];
    snprintf(pwlog, sizeof pwlog, "%s/pw.log", f->results);
    setenv("FAKE_OLTP_PWLOG", pwlog, 1);
    opts_init(&o, f);
    o.wait_ready = NULL;            /* the host client's own readiness */
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_PWLOG");
    assert_clean(f, RUN_ID);
    /* 3 VMs: ping, prepare, server settings, precondition, measure */
    assert_int_equal(orch_count_lines(f->log, NULL), 15);
    assert_int_equal(orch_count_lines(f->log, " --connect-timeout=3 ping"), 3);
    assert_int_equal(orch_count_lines(f->log, "--db-driver=odbc --odbc-connect=Driver={ODBC "
                                      "Driver 18 for SQL Server};Server=tcp:127.0.0.1,4710"), 15);
    assert_int_equal(orch_count_lines(f->log, ";Database=sbtest;Encrypt=yes;"
                                      "TrustServerCertificate=yes --odbc-user=drivebench "), 15);
    assert_int_equal(orch_count_lines(f->log, "S3cret"), 0);
    assert_int_equal(orch_count_lines(f->log, "PWD="), 0);
    assert_int_equal(orch_count_lines(pwlog, "mysql= pgsql= odbc=S3cret;pw"), 15);
    assert_int_equal(orch_count_lines(pwlog, NULL), 15);
    /* nothing the run wrote holds the password */
    snprintf(cmd, sizeof cmd, "grep -rq 'S3cret' '%s/%s'", f->results, RUN_ID);
    assert_int_not_equal(system(cmd), 0);
    orch_plan_free(p);
}

/* A babelfish plan (drivebench's Babelfish image, engine defaults only):
 * every oltp reaches the guest's 1433 through FreeTDS with TDS 7.4 and
 * database sbtest, and the readiness pings give a login the engine's
 * 90 s (the first Babelfish login after boot maps its T-SQL library);
 * no guest agent here, so the host's pings alone are readiness. */
static void test_babelfish_run(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", "engine = babelfish\nguest_agent = no\n");
    orch_run_opts o;
    assert_string_equal(p->db_driver, "odbc");
    assert_int_equal(p->engine->port, 1433);
    opts_init(&o, f);
    o.wait_ready = NULL;            /* the host client's own readiness */
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_clean(f, RUN_ID);
    /* 3 VMs: ping, prepare, server settings, precondition, measure */
    assert_int_equal(orch_count_lines(f->log, NULL), 15);
    assert_int_equal(orch_count_lines(f->log, " --connect-timeout=90 ping"), 3);
    assert_int_equal(orch_count_lines(f->log, "--db-driver=odbc --odbc-connect=Driver={FreeTDS};"
                                      "Server=127.0.0.1;Port=47"), 15);
    assert_int_equal(orch_count_lines(f->log, ";Database=sbtest;TDS_Version=7.4;"
                                      "ClientCharset=UTF-8 --odbc-user=drivebench "), 15);
    orch_plan_free(p);
}

/* oltp ping exits EXIT (saying SAY, unless NULL) on its first try: the
 * boot wait fails at once with WANT, after one ping, leaving nothing. */
static void ping_fails_fast(orch_fixture *f, orch_plan *p, const char *exit_status,
                            const char *say, const char *want)
{
    orch_run_opts o;
    setenv("FAKE_OLTP_EXIT", exit_status, 1);
    setenv("FAKE_OLTP_MATCH", " ping", 1);
    if (say)
        setenv("FAKE_OLTP_SAY", say, 1);
    opts_init(&o, f);
    o.wait_ready = NULL;
    orch_assert_fails_fast(f, p, &o, want);
    unsetenv("FAKE_OLTP_EXIT");
    unsetenv("FAKE_OLTP_MATCH");
    unsetenv("FAKE_OLTP_SAY");
    assert_int_equal(orch_count_lines(f->log, " ping"), 1);
    assert_clean(f, RUN_ID);
}

/* A refused login (oltp ping exit 4) fails the boot wait at once with
 * oltp's message, instead of retrying until the boot timeout. */
static void test_ping_login_refused(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = sqlserver_plan(f);
    ping_fails_fast(f, p, "4", NULL, "SQL Server answered but refused user drivebench on "
                    "database sbtest; check db_user, db_password and db_name");
    orch_plan_free(p);
}

/* Runs P to completion with every oltp's environment logged to ENVLOG
 * (the fixture's results folder), for the TLS tests below. */
static void run_env_logged(orch_fixture *f, orch_plan *p, char *envlog, size_t len)
{
    orch_run_opts o;
    snprintf(envlog, len, "%s/env.log", f->results);
    setenv("FAKE_OLTP_ENVLOG", envlog, 1);
    opts_init(&o, f);
    o.wait_ready = NULL;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_ENVLOG");
    assert_clean(f, RUN_ID);
}

/* tls_security_level = 0 (issue 30): every oltp, the pings too, gets
 * OPENSSL_CONF naming the run folder's openssl.cnf, which says security
 * level 0 and TLS 1.0 as OpenSSL's system default; nothing of it on a
 * command line. */
static void test_sqlserver_tls_level(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = sqlserver_plan(f);
    char envlog[PATH_MAX], conf[PATH_MAX], want[PATH_MAX + 32], *text;
    snprintf(conf, sizeof conf, "%s/%s/openssl.cnf", f->results, RUN_ID);
    snprintf(want, sizeof want, "OPENSSL_CONF=%s", conf);
    p->tls_security_level = 0;
    run_env_logged(f, p, envlog, sizeof envlog);
    assert_int_equal(orch_count_lines(envlog, NULL), 15);     /* 3 VMs x ping, settings, 3 phases */
    assert_int_equal(orch_count_lines(envlog, want), 15);
    assert_int_equal(orch_count_lines(f->log, "OPENSSL"), 0);
    assert_int_equal(orch_count_lines(f->log, "SECLEVEL"), 0);
    text = orch_slurp(conf);
    assert_string_equal(text, "# drivebench: [workload] tls_security_level = 0 (OPENSSL_CONF "
                        "of oltp)\nopenssl_conf = openssl_init\n\n[openssl_init]\n"
                        "ssl_conf = ssl_sect\n\n[ssl_sect]\n"
                        "system_default = system_default_sect\n\n[system_default_sect]\n"
                        "CipherString = DEFAULT@SECLEVEL=0\nMinProtocol = TLSv1\n");
    free(text);
    orch_plan_free(p);
}

/* openssl_conf = PATH: oltp gets OPENSSL_CONF=PATH as the plan says it,
 * and drivebench writes no file of its own. */
static void test_sqlserver_openssl_conf(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = sqlserver_plan(f);
    char envlog[PATH_MAX], conf[PATH_MAX];
    snprintf(conf, sizeof conf, "%s/%s/openssl.cnf", f->results, RUN_ID);
    p->openssl_conf = strdup("/etc/drivebench/mssql-openssl.cnf");
    run_env_logged(f, p, envlog, sizeof envlog);
    assert_int_equal(orch_count_lines(envlog, "OPENSSL_CONF=/etc/drivebench/mssql-openssl.cnf"),
                     15);
    assert_int_equal(orch_count_lines(envlog, NULL), 15);
    assert_int_equal(access(conf, F_OK), -1);
    orch_plan_free(p);
}

/* A plan that sets no TLS: no oltp gets OPENSSL_CONF. */
static void test_sqlserver_no_tls_env(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = sqlserver_plan(f);
    char envlog[PATH_MAX];
    run_env_logged(f, p, envlog, sizeof envlog);
    assert_int_equal(orch_count_lines(envlog, "OPENSSL_CONF unset"), 15);
    assert_int_equal(orch_count_lines(envlog, NULL), 15);
    orch_plan_free(p);
}

/* oltp ping's TLS failure (exit 6) fails the boot wait at once with the
 * driver's message and the plan keys to look at, not at the boot
 * timeout. */
static void test_ping_tls_failed(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = sqlserver_plan(f);
    ping_fails_fast(f, p, "6",
                    "oltp: ping: odbc: data source of --odbc-connect as drivebench: TLS "
                    "failed: error 10054 (SQLSTATE 08001): [Microsoft][ODBC Driver 18 for SQL "
                    "Server]TCP Provider: Error code 0x2746",
                    "-vm1: the TLS handshake with SQL Server failed; check [workload] encrypt, "
                    "trust_server_certificate and tls_security_level (a SQL Server 2014 "
                    "signing with SHA-1 needs tls_security_level = 0 with ODBC Driver 18): "
                    "oltp: ping: odbc: data source of --odbc-connect as drivebench: TLS "
                    "failed: error 10054 (SQLSTATE 08001): [Microsoft][ODBC Driver 18 for SQL "
                    "Server]TCP Provider: Error code 0x2746");
    orch_plan_free(p);
}

/* No oltp to ping with: the boot wait fails at once, naming it. */
static void test_ping_without_oltp(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = sqlserver_plan(f);
    orch_run_opts o;
    free(p->oltp);
    p->oltp = strdup("/nonexistent/oltp");
    opts_init(&o, f);
    o.wait_ready = NULL;
    orch_assert_fails_fast(f, p, &o, ": cannot ping the database with /nonexistent/oltp "
                           "(exit 127): drivebench: cannot run /nonexistent/oltp: No such "
                           "file or directory");
    assert_clean(f, RUN_ID);
    orch_plan_free(p);
}

/* An image folder whose image.info names another engine stops the run
 * before anything is created. */
static void test_image_of_another_engine(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", "engine = postgresql\n");
    orch_run_opts o;
    char dir[PATH_MAX], info[PATH_MAX + 16];
    FILE *fp;
    snprintf(dir, sizeof dir, "%s/img", f->results);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(info, sizeof info, "%s/image.info", dir);
    fp = fopen(info, "w");
    assert_non_null(fp);
    fprintf(fp, "built=2026-12-01T00:01:53Z\nengine=mariadb\nport=3306\n");
    fclose(fp);
    free(p->image_dir);
    p->image_dir = strdup(dir);
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    orch_assert_output(f, "/img/image.info says the image serves "
                       "mariadb, and the plan's engine is postgresql: build its image "
                       "(images/build.sh --engine postgresql) or set image_dir");
    assert_int_equal(orch_count_lines(f->log, NULL), 0);
    assert_clean(f, RUN_ID);
    orch_plan_free(p);
}

static char *run_report(orch_fixture *f);

/* A host check root in the fixture's folder whose /proc/meminfo leaves
 * 1 GiB for the plan's 3 VMs of 1 GiB: the memory check refuses. */
static void low_memory_host(orch_fixture *f, orch_hc_opts *hc, char *root, size_t len)
{
    char path[PATH_MAX];
    FILE *fp;
    snprintf(root, len, "%s/host", f->results);
    snprintf(path, sizeof path, "%s/proc", root);
    assert_int_equal(mkdir(root, 0755), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/proc/meminfo", root);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "MemTotal: 4194304 kB\nMemAvailable: 1048576 kB\n");
    fclose(fp);
    memset(hc, 0, sizeof *hc);
    hc->root = root;
    hc->devno = orch_fixture_devno;
}

/* The host check refuses before anything is created (issue 31). */
static void test_host_check_refuses(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", "vcpus = 1\nmemory = 1G\n");
    orch_run_opts o;
    orch_hc_opts hc;
    char root[PATH_MAX];
    opts_init(&o, f);
    low_memory_host(f, &hc, root, sizeof root);
    o.host_check = &hc;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    orch_assert_output(f, "refuse  memory: 1 GiB available, 3.3 GiB needed: only 1 GiB available "
                       "for this host's 3 VM(s), which need 3.3 GiB");
    orch_assert_output(f, "drivebench: the host check refused the run (1 finding(s) above); "
                       "nothing was created; fix them, or run anyway with "
                       "--ignore-host-check=memory\n");
    assert_int_equal(orch_count_lines(f->log, NULL), 0);
    assert_clean(f, RUN_ID);
    orch_plan_free(p);
}

/* --ignore-host-check=memory: the run goes on, and its summary and
 * report record the refusal as ignored with the other findings. */
static void test_host_check_ignored(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f, "tiny", "vcpus = 1\nmemory = 1G\n");
    orch_run_opts o;
    orch_hc_opts hc;
    const char *ignore[] = { "memory", NULL };
    char root[PATH_MAX], *html;
    json_object *s, *env, *list, *x, *v;
    opts_init(&o, f);
    low_memory_host(f, &hc, root, sizeof root);
    o.host_check = &hc;
    o.ignore_host_check = ignore;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    orch_assert_output(f, "(ignored: --ignore-host-check)\n");
    orch_assert_output(f, "host check: 5 ok, 4 warn, 1 refuse (1 ignored)\n");
    s = orch_fixture_summary(f);
    assert_true(json_object_object_get_ex(s, "environment", &env));
    assert_true(json_object_object_get_ex(env, "host_check", &list));
    /* 7 host findings; drive a (a path, no sysfs: identity and mount
     * unknown), drive second (a pool: identity only) */
    assert_int_equal(json_object_array_length(list), 10);
    x = json_object_array_get_idx(list, 5);
    assert_true(json_object_object_get_ex(x, "check", &v));
    assert_string_equal(json_object_get_string(v), "memory");
    assert_true(json_object_object_get_ex(x, "status", &v));
    assert_string_equal(json_object_get_string(v), "refuse");
    assert_true(json_object_object_get_ex(x, "ignored", &v));
    assert_true(json_object_get_boolean(v));
    /* the fixture's node runs other-vm beside the run */
    x = json_object_array_get_idx(list, 6);
    assert_true(json_object_object_get_ex(x, "value", &v));
    assert_string_equal(json_object_get_string(v), "1 running");
    assert_true(json_object_object_get_ex(x, "fix", &v));
    assert_non_null(strstr(json_object_get_string(v), " shutdown other-vm"));
    x = json_object_array_get_idx(list, 9);
    assert_true(json_object_object_get_ex(x, "drive", &v));
    assert_string_equal(json_object_get_string(v), "second");
    assert_true(json_object_object_get_ex(x, "message", &v));
    assert_string_equal(json_object_get_string(v),
                        "pool userpool: its device is not checked (a `path` drive is)");
    json_object_put(s);
    html = run_report(f);
    assert_non_null(strstr(html, "<tr class=\"refuse\">\n<td>refuse (ignored)</td>\n"
                                 "<td>memory</td>\n<td></td>\n"
                                 "<td>1 GiB available, 3.3 GiB needed</td>"));
    free(html);
    orch_plan_free(p);
}

/* report.html of the RUN_ID run (caller frees; never NULL). */
static char *run_report(orch_fixture *f)
{
    char path[PATH_MAX], *html;
    snprintf(path, sizeof path, "%s/%s/report.html", f->results, RUN_ID);
    html = orch_slurp(path);
    assert_non_null(html);
    return html;
}

/* A member of the first element of summary.drives[d].precondition_steady
 * (key NULL: that element as JSON text). */
static const char *pre_of(json_object *s, const char *arr, int d, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(s, arr, &v) || !(v = json_object_array_get_idx(v, (size_t)d))
        || !json_object_object_get_ex(v, "precondition_steady", &v))
        return "(missing)";
    if (json_object_is_type(v, json_type_array))
        v = json_object_array_get_idx(v, 0);
    if (key && !json_object_object_get_ex(v, key, &v))
        return "(missing)";
    return json_object_to_json_string(v);
}

/* The tiny plan with these [workload] times, drive "second" in userpool. */
static orch_plan *rounds_plan(orch_fixture *f, const char *times)
{
    return orch_fixture_plan_timed(f, "profile = tiny\n", times, "pool = userpool\n");
}

/* Runs p with every VM's precondition rounds at 50, 60, 70, 100, 104, 96,
 * 102, 98 TPS: it succeeds, leaves nothing and ran `runs` precondition
 * rounds in all. Returns the summary (caller puts). */
static json_object *run_rounds(orch_fixture *f, orch_plan *p, int runs)
{
    orch_run_opts o;
    opts_init(&o, f);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_ROUND_TPS", "50 60 70 100 104 96 102 98"),
                     ORCH_RUN_OK);
    assert_clean(f, RUN_ID);
    assert_int_equal(orch_count_lines(f->log, ".precondition."), runs);
    return orch_fixture_summary(f);
}

/* precondition = until-steady in rounds of 1 s, window 3: every VM's
 * rounds say 50, 60, 70, 100, 104, 96, ... TPS. Windows ending at rounds
 * 3..5 range over 33 %, 52 %, 37 % of their means; {100, 104, 96}: mean
 * 100, range 8 %, slope -2 a round, excursion 2 x 2 = 4 %: steady at
 * round 6, where the precondition stops. Drive "a" has 2 VMs: twice the
 * TPS, the same percentages. */
static void test_precondition_until_steady(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = rounds_plan(f, "precondition = until-steady\nsteady_round = 1s\n"
                               "steady_window = 3\nprecondition_max = 10s\nmeasure = 1s\n");
    json_object *s;
    char *plan_get, err[256];

    plan_get = orch_plan_get(p, "workload", "precondition", err, sizeof err);
    assert_string_equal(plan_get, "until-steady");
    free(plan_get);
    assert_int_equal(p->precondition_s, 10);        /* the maximum */
    /* 6 rounds on 3 VMs, then the measured phase */
    s = run_rounds(f, p, 18);
    assert_int_equal(orch_count_lines(f->log, ".precondition.6.json"), 3);
    assert_int_equal(orch_count_lines(f->log, ".precondition.7.json"), 0);
    orch_assert_output(f, "precondition steady after round 6");
    assert_string_equal(pre_of(s, "drives", 0, "verdict"), "\"steady at round 6\"");
    assert_string_equal(pre_of(s, "drives", 0, "attained_round"), "6");
    assert_string_equal(pre_of(s, "drives", 0, "until_steady"), "true");
    assert_string_equal(pre_of(s, "drives", 0, "window_mean"), "200");
    assert_string_equal(pre_of(s, "drives", 0, "window_range_pct"), "8");
    assert_string_equal(pre_of(s, "drives", 0, "window_excursion_pct"), "4");
    assert_string_equal(pre_of(s, "drives", 1, "window_mean"), "100");
    assert_string_equal(pre_of(s, "drives", 0, "track"), "\"tps\"");
    {
        json_object *d, *rounds, *r, *v;
        assert_true(json_object_object_get_ex(s, "drives", &d));
        d = json_object_array_get_idx(d, 0);
        assert_true(json_object_object_get_ex(d, "precondition_steady", &d));
        assert_int_equal(json_object_array_length(d), 1);
        assert_true(json_object_object_get_ex(json_object_array_get_idx(d, 0), "rounds",
                                              &rounds));
        assert_int_equal(json_object_array_length(rounds), 6);
        r = json_object_array_get_idx(rounds, 5);
        assert_true(json_object_object_get_ex(r, "tps", &v));
        assert_string_equal(json_object_to_json_string(v), "192");      /* 2 x 96 */
        assert_true(json_object_object_get_ex(r, "p99_ms", &v));
        assert_true(json_object_get_double(v) > 0);
    }
    /* per VM too, and its precondition_result is its last round */
    assert_string_equal(pre_of(s, "vms", 2, "verdict"), "\"steady at round 6\"");
    assert_string_equal(jnum(s, "vms", 2, "precondition_result", NULL),
                        "\"vm\\/drivebench-fixture-20261130-000000--second-vm1.r1.precondition.6.json\"");
    json_object_put(s);
    /* the report charts each drive's rounds with the judged window */
    {
        char *html = run_report(f);
        assert_non_null(strstr(html, "<section id=\"precondition\""));
        assert_non_null(strstr(html, "id=\"chart-precondition-0\""));
        assert_non_null(strstr(html, "id=\"chart-precondition-1\""));
        assert_null(strstr(html, "id=\"chart-precondition-2\""));
        assert_non_null(strstr(html, "data-label=\"window mean\""));
        assert_non_null(strstr(html, ">steady at round 6<"));
        free(html);
    }
    orch_plan_free(p);
}

/* A fixed precondition of 5 rounds runs them all and is judged over its
 * last window {70, 100, 104} (range 37 %): not steady. */
static void test_precondition_fixed(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = rounds_plan(f, "precondition = 5s\nsteady_round = 1s\nsteady_window = 3\n"
                               "measure = 1s\n");
    json_object *s = run_rounds(f, p, 15);
    assert_string_equal(pre_of(s, "drives", 0, "verdict"), "\"not steady over the last 3 rounds\"");
    assert_string_equal(pre_of(s, "drives", 0, "attained_round"), "0");
    assert_string_equal(pre_of(s, "drives", 0, "until_steady"), "false");
    json_object_put(s);
    orch_plan_free(p);
}

/* until-steady with a 4 s maximum stops there, unsteady. */
static void test_precondition_max(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = rounds_plan(f, "precondition = until-steady\nsteady_round = 1s\n"
                               "steady_window = 3\nprecondition_max = 4s\nmeasure = 1s\n");
    json_object *s = run_rounds(f, p, 12);
    assert_string_equal(pre_of(s, "drives", 1, "verdict"), "\"not steady within 4s (4 rounds)\"");
    /* the last window {60, 70, 100}: mean 76.67, range 40 / 76.67 = 52.17 % */
    assert_string_equal(pre_of(s, "drives", 1, "window_range_pct"), "52.173913");
    json_object_put(s);
    orch_plan_free(p);
}

/* Issue 29's rounds: drive "a" (2 VMs, so twice these) goes 100 x 5, 70,
 * 50, 40, 35 and stays at 35; drive "second" 20, 40, 60, 80, then 100.
 * Window 5: "a" passes at round 5 and drifts off, "second" passes from
 * round 9 on. Until-steady with precondition_max `max` s (rounds of 1 s):
 * the precondition's output and summary. */
static json_object *drift_run(orch_fixture *f, int max, int runs)
{
    char times[160];
    orch_plan *p;
    orch_run_opts o;
    json_object *s;
    snprintf(times, sizeof times, "precondition = until-steady\nsteady_round = 1s\n"
             "steady_window = 5\nprecondition_max = %ds\nmeasure = 1s\n", max);
    p = rounds_plan(f, times);
    opts_init(&o, f);
    setenv("FAKE_OLTP_ROUND_TPS_OF", "--second- 20 40 60 80 100", 1);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_ROUND_TPS",
                                  "100 100 100 100 100 70 50 40 35"), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_ROUND_TPS_OF");
    assert_clean(f, RUN_ID);
    assert_int_equal(orch_count_lines(f->log, ".precondition."), runs);
    s = orch_fixture_summary(f);
    orch_plan_free(p);
    return s;
}

/* At round 9 "a"'s last window {100, 70, 50, 40, 35} ranges over 110 % of
 * its mean 59: not steady now, so the rounds go on (before issue 29 they
 * stopped there, "a" "steady at round 5"). Its windows ending at rounds
 * 10, 11, 12 range 76 %, 38 %, 13.9 % (excursion 11.1 %, over 10 %); at
 * round 13 {35 x 5} both drives are steady: the precondition stops. */
static void test_precondition_steady_now(void **state)
{
    json_object *s = drift_run(*state, 20, 13 * 3);
    orch_assert_output(*state, "repetition 1: precondition steady after round 13\n");
    assert_string_equal(pre_of(s, "drives", 0, "verdict"), "\"steady at round 13\"");
    assert_string_equal(pre_of(s, "drives", 0, "attained_round"), "13");
    assert_string_equal(pre_of(s, "drives", 0, "window_mean"), "70");
    assert_string_equal(pre_of(s, "drives", 0, "window_range_pct"), "0");
    assert_string_equal(pre_of(s, "drives", 1, "verdict"), "\"steady at round 13\"");
    assert_string_equal(pre_of(s, "drives", 1, "window_mean"), "100");
    json_object_put(s);
}

/* precondition_max 9 s: the cap at round 9, "a" not steady with its last
 * window's figures (mean 2 x 59, range 65 / 59 = 110.17 %, excursion
 * |slope -16| x 4 / 59 = 108.47 %), "second" steady at round 9. */
static void test_precondition_steady_cap(void **state)
{
    json_object *s = drift_run(*state, 9, 9 * 3);
    orch_assert_output(*state, "repetition 1: precondition not steady at precondition_max "
                       "(9 rounds): the last window of a drive does not meet the rule\n");
    orch_assert_output(*state, "repetition 1: precondition of a<b ' & .. x: not steady within 9s "
                       "(9 rounds)\n");
    assert_string_equal(pre_of(s, "drives", 0, "attained_round"), "0");
    assert_string_equal(pre_of(s, "drives", 0, "window_mean"), "118");
    assert_string_equal(pre_of(s, "drives", 0, "window_range_pct"), "110.169492");
    assert_string_equal(pre_of(s, "drives", 0, "window_excursion_pct"), "108.474576");
    assert_string_equal(pre_of(s, "drives", 1, "verdict"), "\"steady at round 9\"");
    assert_string_equal(pre_of(s, "drives", 1, "attained_round"), "9");
    json_object_put(s);
}

/* Rounds of 0 TPS: a window of mean 0 has no verdict, and says why (it
 * is no failed VM). */
static void test_precondition_zero_mean(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = rounds_plan(f, "precondition = 3s\nsteady_round = 1s\nsteady_window = 3\n"
                               "measure = 1s\n");
    orch_run_opts o;
    json_object *s;
    opts_init(&o, f);
    assert_int_equal(run_with_env(p, &o, "FAKE_OLTP_ROUND_TPS", "0"), ORCH_RUN_OK);
    s = orch_fixture_summary(f);
    assert_string_equal(pre_of(s, "drives", 1, "verdict"),
                        "\"no verdict: the window's mean tps is 0, not above 0 "
                        "(rounds without transactions)\"");
    assert_string_equal(pre_of(s, "drives", 1, "window_mean"), "(missing)");
    json_object_put(s);
    orch_plan_free(p);
}

/* repetitions = auto with repetitions_max 5: a run whose measured TPS per
 * repetition is `tps` stops as `why` after `reps` repetitions. */
static void auto_run(orch_fixture *f, const char *tps, const char *why, int reps)
{
    orch_plan *p = plan(f, "tiny", "repetitions = auto\nrepetitions_max = 5\n");
    orch_run_opts o;
    json_object *s;
    char *got, err[256], want[64], line[96];
    int rc;

    got = orch_plan_get(p, "run", "repetitions", err, sizeof err);
    assert_string_equal(got, "auto");
    free(got);
    assert_int_equal(p->repetitions, 5);
    assert_int_equal(p->repetitions_min, 3);
    /* no pause between repetitions: on the test driver, which starts
     * domains at once, a destroy event of the previous repetition may
     * still be queued when the next one's domains run (each repetition's
     * UUIDs are its own: orch_layout_uuid) */
    opts_init(&o, f);
    rc = run_with_env(p, &o, "FAKE_OLTP_REP_TPS", tps);
    if (rc != ORCH_RUN_OK)
        fputs(orch_fixture_output(f), stderr);
    assert_int_equal(rc, ORCH_RUN_OK);
    assert_clean(f, RUN_ID);
    assert_int_equal(orch_count_lines(f->log, " prepare"), 3 * reps);
    s = orch_fixture_summary(f);
    snprintf(want, sizeof want, "\"%s\"", why);
    assert_string_equal(jnum(s, "run", -1, "repetitions_stop", NULL), want);
    assert_int_equal(json_object_array_length(json_object_object_get(s, "vms")), 3 * reps);
    snprintf(want, sizeof want, "%d", reps);
    assert_string_equal(jnum(s, "drives", 1, "measured_repetitions", NULL), want);
    assert_string_equal(jnum(s, "drives", 1, "vms", NULL), "1");
    assert_string_equal(jnum(s, "plan", -1, "repetitions_rule", NULL), "\"auto\"");
    json_object_put(s);
    snprintf(line, sizeof line, "repetitions: %s", why);
    orch_assert_output(f, line);
    orch_assert_output(f, "; repetitions chosen by their spread: the spread and Welch's "
                          "interval are optional-stopping estimates\n");
    if (reps == 3) {
        /* every bar: its 95 % interval as a whisker and N; drive "second"
         * (one VM) at 10, 10.2, 9.9: mean 10.0333, sd 0.152753, t(0.975, 2)
         * 4.302653, half width 0.379457 */
        char *html = run_report(f);
        assert_non_null(strstr(html, "data-lo=\"9.65388\" data-hi=\"10.4128\""));
        assert_non_null(strstr(html, "data-lo=\"19.3078\" data-hi=\"20.8256\""));
        assert_non_null(strstr(html, "10.03 (N = 3)"));
        free(html);
    }
    orch_plan_free(p);
}

/* 10, 10.2, 9.9: CV 0.1528 / 10.0333 = 1.52 %, under 5 % after the 3 of
 * repetitions_min (the 30s after would not be run) */
static void test_repetitions_auto_cv(void **state)
{
    auto_run(*state, "10 10.2 9.9 30 30", "cv below 5% after 3", 3);
}

/* 10, 14, 10, 10, 10: CV 20.4, 18.2, 16.6 % after 3, 4, 5: the maximum */
static void test_repetitions_auto_max(void **state)
{
    auto_run(*state, "10 14 10 10 10 10", "maximum 5 reached", 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        ORCH_FIXTURE_TEST(test_run_ok),
        ORCH_FIXTURE_TEST(test_host_check_refuses),
        ORCH_FIXTURE_TEST(test_host_check_ignored),
        ORCH_FIXTURE_TEST(test_precondition_until_steady),
        ORCH_FIXTURE_TEST(test_precondition_fixed),
        ORCH_FIXTURE_TEST(test_precondition_max),
        ORCH_FIXTURE_TEST(test_precondition_steady_now),
        ORCH_FIXTURE_TEST(test_precondition_steady_cap),
        ORCH_FIXTURE_TEST(test_precondition_zero_mean),
        ORCH_FIXTURE_TEST(test_repetitions_auto_cv),
        ORCH_FIXTURE_TEST(test_repetitions_auto_max),
        ORCH_FIXTURE_TEST(test_sqlserver_run),
        ORCH_FIXTURE_TEST(test_babelfish_run),
        ORCH_FIXTURE_TEST(test_ping_login_refused),
        ORCH_FIXTURE_TEST(test_image_of_another_engine),
        ORCH_FIXTURE_TEST(test_ping_without_oltp),
        ORCH_FIXTURE_TEST(test_sqlserver_tls_level),
        ORCH_FIXTURE_TEST(test_sqlserver_openssl_conf),
        ORCH_FIXTURE_TEST(test_sqlserver_no_tls_env),
        ORCH_FIXTURE_TEST(test_ping_tls_failed),
        ORCH_FIXTURE_TEST(test_run_with_seed),
        ORCH_FIXTURE_TEST(test_run_sqlserver_seed),
        ORCH_FIXTURE_TEST(test_seed_user_image),
        ORCH_FIXTURE_TEST(test_seed_failure_leaves_nothing),
        ORCH_FIXTURE_TEST(test_seed_without_qemu_img),
        ORCH_FIXTURE_TEST(test_run_sqlserver_prepare),
        ORCH_FIXTURE_TEST(test_windows_reboots_while_booting),
        ORCH_FIXTURE_TEST(test_failure_at_each_step),
        ORCH_FIXTURE_TEST(test_libvirt_failure),
        ORCH_FIXTURE_TEST(test_restore_failure),
        ORCH_FIXTURE_TEST(test_boot_timeout),
        ORCH_FIXTURE_TEST(test_boot_panic_console),
        ORCH_FIXTURE_TEST(test_sigint_during_measure),
        ORCH_FIXTURE_TEST(test_signal_during_boot_and_provisioning),
        ORCH_FIXTURE_TEST(test_oltp_failure),
        ORCH_FIXTURE_TEST(test_one_vm_fails),
        ORCH_FIXTURE_TEST(test_settings_read_back),
        ORCH_FIXTURE_TEST(test_settings_mismatch_refused),
        ORCH_FIXTURE_TEST(test_settings_mismatch_warn),
        ORCH_FIXTURE_TEST(test_database_disk_full),
        ORCH_FIXTURE_TEST(test_refused_result_fails_vm),
        ORCH_FIXTURE_TEST(test_outage_fails_vm),
        ORCH_FIXTURE_TEST(test_short_outage_passes),
        ORCH_FIXTURE_TEST(test_database_size),
        ORCH_FIXTURE_TEST(test_clients_recorded),
        ORCH_FIXTURE_TEST(test_libvirt_reconnects),
        ORCH_FIXTURE_TEST(test_libvirt_back_without_a_vm),
        ORCH_FIXTURE_TEST(test_libvirt_never_returns),
        ORCH_FIXTURE_TEST(test_vm_destroyed_mid_measure),
        ORCH_FIXTURE_TEST(test_teardown_by_run_id),
        ORCH_FIXTURE_TEST(test_domain_type_auto),
        ORCH_FIXTURE_TEST(test_oltp_argv),
    };
    return cmocka_run_group_tests_name("orchestrator run", tests, NULL, NULL);
}
