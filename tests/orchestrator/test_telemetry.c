/* test_telemetry.c — the run's drive telemetry wired end to end with
 * recorded counters: libvirt block statistics through the domstats seam
 * (the test driver returns none), a fake sysfs whose device number is the
 * real one of the drive's folder, a fake /proc/stat, and a summary built
 * in memory; exact per-VM and per-drive rates, the flush ratio, the
 * paired comparison against a worked example, host CPU, and the JSON
 * round trip of every new key; three repetitions pooled (rates the mean,
 * latencies request-weighted, comparisons over all of them); a
 * hypervisor that counts requests but not their time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "results_json.h"
#include "results_server.h"
#include "telemetry/telemetry.h"
#include "util/util.h"
#include "testlib.h"

static char root[64], sysfs[128], drive_dir[128], proc_stat[128];
static int use_spool;           /* tel_start spools the samples (spool_on) */
static int step;                /* the recorded counters' moment, 0.. */
static long host_mul = 1;       /* the device's counts (not busy time) times this */

static void near(double a, double b)
{
    if (!(fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1)))
        fail_msg("%.12g != %.12g", a, b);
}

static void write_file(const char *path, const char *text)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(dir, 0755);
            *s = '/';
        }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void put(const char *rel, const char *text)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", sysfs, rel);
    write_file(p, text);
}

/* The device's counters at `step`: per second 200 writes of 4 KiB taking
 * 2 ms each, 90 flushes of 1 ms, 0.5 s busy, 0.8 s in queue (all but the
 * busy time times host_mul). */
static void host_counters(void)
{
    char text[256];
    long k = step, m = host_mul;
    snprintf(text, sizeof text, "0 0 0 0 %ld 0 %ld %ld 0 %ld %ld 0 0 0 0 %ld %ld\n", 200 * k * m,
             1600 * k * m, 400 * k * m, 500 * k, 800 * k * m, 90 * k * m, 90 * k * m);
    put("devices/virtual/block/vdt/stat", text);
}

/* What fake_domstats records of the database disk, per second; its ctx
 * (NULL: hv_default). */
typedef struct hv_rates {
    unsigned long long wr, wr_ms;   /* writes of 4096 bytes, each taking wr_ms */
    int no_wr_times, no_fl_reqs;    /* leave wr.times / fl.reqs out */
} hv_rates;
static const hv_rates hv_default = { 100, 2, 0, 0 };

/* Every VM's disks at `step`: the database disk (sdb) per second 100
 * writes of 4096 bytes at 2 ms (or as ctx says) and 50 flushes at 1 ms,
 * no reads; the boot disk (sda) 10 reads of 4096 bytes at 0.5 ms. */
static int fake_domstats(void *ctx, virDomainPtr dom, virTypedParameterPtr *p, int *n,
                         char *err, size_t errlen)
{
    unsigned long long k = (unsigned long long)step;
    const hv_rates *hv = ctx ? ctx : &hv_default;
    int max = 0;
    (void)dom;
    (void)err;
    (void)errlen;
    *p = NULL;
    *n = 0;
    virTypedParamsAddUInt(p, n, &max, "block.count", 2);
    virTypedParamsAddString(p, n, &max, "block.0.name", "sda");
    virTypedParamsAddULLong(p, n, &max, "block.0.rd.reqs", 10 * k);
    virTypedParamsAddULLong(p, n, &max, "block.0.rd.bytes", 40960 * k);
    virTypedParamsAddULLong(p, n, &max, "block.0.rd.times", 5000000 * k);
    virTypedParamsAddULLong(p, n, &max, "block.0.wr.reqs", 0);
    virTypedParamsAddULLong(p, n, &max, "block.0.wr.bytes", 0);
    virTypedParamsAddULLong(p, n, &max, "block.0.wr.times", 0);
    virTypedParamsAddULLong(p, n, &max, "block.0.fl.reqs", 0);
    virTypedParamsAddULLong(p, n, &max, "block.0.fl.times", 0);
    virTypedParamsAddString(p, n, &max, "block.1.name", "sdb");
    virTypedParamsAddULLong(p, n, &max, "block.1.rd.reqs", 0);
    virTypedParamsAddULLong(p, n, &max, "block.1.rd.bytes", 0);
    virTypedParamsAddULLong(p, n, &max, "block.1.rd.times", 0);
    virTypedParamsAddULLong(p, n, &max, "block.1.wr.reqs", hv->wr * k);
    virTypedParamsAddULLong(p, n, &max, "block.1.wr.bytes", 4096 * hv->wr * k);
    if (!hv->no_wr_times)
        virTypedParamsAddULLong(p, n, &max, "block.1.wr.times", hv->wr * hv->wr_ms * 1000000 * k);
    if (!hv->no_fl_reqs)
        virTypedParamsAddULLong(p, n, &max, "block.1.fl.reqs", 50 * k);
    virTypedParamsAddULLong(p, n, &max, "block.1.fl.times", 50000000 * k);
    return 0;
}

/* smartctl and nvme are "not installed" */
static char *no_cmd(void *ctx, const char *const argv[], int *status)
{
    (void)ctx;
    (void)argv;
    *status = -1;
    return NULL;
}

/* One test's telemetry and what it was made from: drives "a", "b", ...
 * all on drive_dir, the recorded seams, a scratch log. */
typedef struct tel_fixture {
    orch_drive      drives[4];
    orch_plan       plan;
    orch_tel_seams  seams;
    FILE           *log;
    orch_telemetry *t;
} tel_fixture;

/* The plan of ndrives drives over `repetitions` and the recorded seams
 * (block statistics from fake_domstats with ctx hv), not yet made. */
static void tel_init(tel_fixture *x, int ndrives, int repetitions, hv_rates *hv)
{
    static const char *const names[] = { "a", "b", "c", "d" };
    memset(x, 0, sizeof *x);
    for (int d = 0; d < ndrives; d++)
        x->drives[d] = (orch_drive){ .name = (char *)names[d], .path = drive_dir,
                                     .uri = (char *)"test:///default" };
    x->plan = (orch_plan){ .uri = (char *)"test:///default", .drives = x->drives,
                           .ndrives = ndrives, .repetitions = repetitions };
    x->seams = (orch_tel_seams){ .domstats = fake_domstats, .domstats_ctx = hv, .cmd = no_cmd,
                                 .sysfs = sysfs, .proc_stat = proc_stat, .no_timer = 1 };
}

/* The telemetry of x's plan and seams as they stand. */
static void tel_start(tel_fixture *x)
{
    x->log = tmpfile();
    x->t = orch_telemetry_new(&x->plan, NULL, x->log, &x->seams);
    assert_non_null(x->t);
    if (use_spool) {
        char err[256] = "";
        assert_int_equal(orch_telemetry_spool(x->t, root, err, sizeof err), 0);
        assert_string_equal(err, "");
    }
}

/* Every test runs twice: samples in memory, and spooled to a file in the
 * test's folder (issue 33), with the same figures. */
static int spool_on(void **state)
{
    (void)state;
    use_spool = 1;
    return 0;
}

static int spool_off(void **state)
{
    (void)state;
    use_spool = 0;
    return 0;
}

/* tel_init and tel_start: the usual telemetry of a test. */
static orch_telemetry *tel_open(tel_fixture *x, int ndrives, int repetitions, hv_rates *hv)
{
    tel_init(x, ndrives, repetitions, hv);
    tel_start(x);
    return x->t;
}

/* Frees sum (its hypervisors, the test's own, left alone), the telemetry
 * and its log. */
static void tel_close(tel_fixture *x, res_summary *sum)
{
    sum->env.hypervisors = NULL;
    sum->env.nhypervisors = 0;
    res_summary_clear(sum);
    orch_telemetry_free(x->t);
    fclose(x->log);
}

static int setup(void **state)
{
    struct stat sb;
    char link[PATH_MAX], target[PATH_MAX];
    (void)state;
    snprintf(root, sizeof root, "/tmp/orch-tel-XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(sysfs, sizeof sysfs, "%s/sys", root);
    snprintf(drive_dir, sizeof drive_dir, "%s/drive", root);
    snprintf(proc_stat, sizeof proc_stat, "%s/proc-stat", root);
    mkdir(drive_dir, 0755);
    assert_int_equal(stat(drive_dir, &sb), 0);
    /* the folder's real device number leads to a fake whole disk "vdt" */
    put("devices/virtual/block/vdt/size", "2097152\n");
    put("devices/virtual/block/vdt/queue/rotational", "0\n");
    put("devices/virtual/block/vdt/queue/write_cache", "write back\n");
    put("devices/virtual/block/vdt/queue/scheduler", "[none] mq-deadline\n");
    put("devices/virtual/block/vdt/device/model", "Fake Drive 1TB\n");
    put("devices/virtual/block/vdt/device/serial", "FD0001\n");
    host_counters();
    snprintf(link, sizeof link, "%s/dev/block/%u:%u", sysfs, major(sb.st_dev), minor(sb.st_dev));
    put("dev/block/.keep", "");
    assert_int_equal(symlink("../../devices/virtual/block/vdt", link), 0);
    snprintf(link, sizeof link, "%s/block/vdt", sysfs);
    snprintf(target, sizeof target, "../devices/virtual/block/vdt");
    put("block/.keep", "");
    assert_int_equal(symlink(target, link), 0);
    return 0;
}

static int teardown(void **state)
{
    char cmd[256];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* A one-repetition summary of drives "a" and "b", one VM each, with the
 * worked example's TPS series. */
static const double tps_a[] = { 10, 12, 11, 13, 9 }, tps_b[] = { 8, 9, 10, 9, 8 };

static void vm_init(res_vm *v, const char *name, const char *drive, const double *tps)
{
    memset(v, 0, sizeof *v);
    v->name = strdup(name);
    v->drive = strdup(drive);
    v->repetition = 1;
    v->measured = true;
    v->npoints = 5;
    v->series = calloc(5, sizeof *v->series);
    for (int i = 0; i < 5; i++)
        v->series[i] = (res_point){ i + 1, tps[i] };
}

/* One measured phase of repetition rep from time t0: five 1 s intervals
 * of the recorded counters, /proc/stat cpu_start before and cpu_end after
 * (NULL: left as it is). */
static void measure_rep(orch_telemetry *t, int rep, double t0, const char *cpu_start,
                        const char *cpu_end)
{
    if (cpu_start)
        write_file(proc_stat, cpu_start);
    step = 0;
    host_counters();
    orch_telemetry_phase_start_at(t, RES_PHASE_MEASURE, 0, t0);
    for (step = 1; step <= 4; step++) {
        host_counters();
        orch_telemetry_tick_at(t, t0 + step);
    }
    step = 5;
    host_counters();
    if (cpu_end)
        write_file(proc_stat, cpu_end);
    orch_telemetry_phase_end_at(t, RES_PHASE_MEASURE, rep, t0 + 5);
}

/* A summary of ndrives drives "a", "b", ... and room for nvms VMs. */
static void summary_init(res_summary *s, int ndrives, int nvms)
{
    memset(s, 0, sizeof *s);
    s->ndrives = ndrives;
    s->drives = calloc((size_t)ndrives, sizeof *s->drives);
    for (int d = 0; d < ndrives; d++)
        s->drives[d].name = strdup((const char[]){ (char)('a' + d), '\0' });
    s->nvms = nvms;
    s->vms = calloc((size_t)nvms, sizeof *s->vms);
}

/* A summary of drive "a" with its one VM "vm-a" (TPS series tps_a). */
static void summary_one_vm(res_summary *s)
{
    summary_init(s, 1, 1);
    vm_init(&s->vms[0], "vm-a", "a", tps_a);
}

static void test_run_wiring(void **state)
{
    static const char *cpu_start = "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 1 2 3 4\n";
    tel_fixture x;
    orch_telemetry *t;
    res_summary sum;
    res_hypervisor hv = { .domain_type = (char *)"qemu" };
    (void)state;

    write_file(proc_stat, cpu_start);
    t = tel_open(&x, 2, 1, NULL);
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, NULL), 0);
    assert_int_equal(orch_telemetry_add_vm(t, 1, "vm-b", 1, 1, NULL, NULL, NULL, NULL), 0);
    /* a precondition is sampled but not kept */
    step = 0;
    host_counters();
    orch_telemetry_phase_start_at(t, RES_PHASE_PRECONDITION, 0, 50);
    step = 7;
    host_counters();
    orch_telemetry_phase_end_at(t, RES_PHASE_PRECONDITION, 1, 51);
    /* the measured phase: 100 .. 105, one sample a second */
    measure_rep(t, 1, 100, cpu_start, "cpu  550 0 350 900 0 0 0 0 0 0\n");

    summary_init(&sum, 2, 2);
    vm_init(&sum.vms[0], "vm-a", "a", tps_a);
    vm_init(&sum.vms[1], "vm-b", "b", tps_b);
    sum.vms[0].tps = 11;
    sum.vms[0].transactions = 55;
    sum.drives[0].f.tps = 11;
    sum.drives[0].f.transactions = 55;
    sum.env.hypervisors = &hv;
    sum.env.nhypervisors = 1;
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);

    /* the VM's database disk: 100 writes/s of 4096 B at 2 ms, 50 flushes at 1 ms */
    res_io *vio = sum.vms[0].io;
    assert_non_null(vio);
    assert_non_null(vio->db);
    near(vio->db->total.v[RES_IOV_wr_iops], 100);
    near(vio->db->total.v[RES_IOV_wr_mbps], 0.4096);
    near(vio->db->total.v[RES_IOV_wr_lat_ms], 2);
    near(vio->db->total.v[RES_IOV_fl_iops], 50);
    near(vio->db->total.v[RES_IOV_fl_lat_ms], 1);
    near(vio->db->total.v[RES_IOV_rd_iops], 0);
    assert_true(isnan(vio->db->total.v[RES_IOV_rd_lat_ms]));     /* no reads: no latency */
    assert_int_equal(vio->db->nseries, 5);
    near(vio->db->series[4].t, 5);
    near(vio->db->series[4].v[RES_IOV_wr_iops], 100);
    near(vio->boot->total.v[RES_IOV_rd_iops], 10);
    near(vio->boot->total.v[RES_IOV_rd_lat_ms], 0.5);

    /* the drive: one VM, and the host's device */
    res_io *dio = sum.drives[0].io;
    assert_non_null(dio);
    near(dio->db->total.v[RES_IOV_wr_iops], 100);
    assert_int_equal(dio->db->vms, 1);
    assert_int_equal(dio->db->missing, 0);
    assert_non_null(dio->host);
    assert_string_equal(dio->host->kind, "disk");
    assert_string_equal(dio->host->disk, "vdt");
    assert_string_equal(dio->host->model, "Fake Drive 1TB");
    assert_string_equal(dio->host->serial, "FD0001");
    assert_string_equal(dio->host->write_cache, "write back");
    assert_true(dio->host->size_bytes == 2097152LL * 512);
    assert_int_equal(dio->host->rotational, 0);
    assert_non_null(dio->host->rates);
    near(dio->host->rates->total.v[RES_IOH_wr_iops], 200);
    near(dio->host->rates->total.v[RES_IOH_wr_mbps], 0.8192);
    near(dio->host->rates->total.v[RES_IOH_wr_await_ms], 2);
    near(dio->host->rates->total.v[RES_IOH_fl_iops], 90);
    near(dio->host->rates->total.v[RES_IOH_util_pct], 50);
    near(dio->host->rates->total.v[RES_IOH_queue_depth], 0.8);
    near(dio->host->rates->series[2].v[RES_IOH_wr_iops], 200);
    /* 450 device flushes for the 250 of the drive's one VM */
    near(dio->host->flush_ratio, 1.8);

    /* per committed transaction: 0.4096 MB/s = 400 KiB/s over 11 TPS */
    assert_non_null(vio->txn);
    assert_true(vio->txn->txns == 55);
    assert_true(vio->txn->new_orders == RES_UNSET);
    near(vio->txn->phase.v[RES_IOT_wr_kib], 400.0 / 11);
    near(vio->txn->phase.v[RES_IOT_flushes], 50.0 / 11);
    near(vio->txn->phase.v[RES_IOT_rd_kib], 0);
    assert_true(isnan(vio->txn->phase.v[RES_IOT_dev_wr_kib]));     /* a VM has no device */
    assert_int_equal(vio->txn->nseries, 5);
    near(vio->txn->series[0].tps, 10);
    near(vio->txn->series[0].v[RES_IOT_wr_kib], 40);
    near(vio->txn->series[3].v[RES_IOT_flushes], 50.0 / 13);
    /* the drive: the device wrote 800 KiB/s, flushed 90/s, was busy 500 ms/s */
    assert_non_null(dio->txn);
    near(dio->txn->phase.v[RES_IOT_wr_kib], 400.0 / 11);
    near(dio->txn->phase.v[RES_IOT_dev_wr_kib], 800.0 / 11);
    near(dio->txn->phase.v[RES_IOT_dev_flushes], 90.0 / 11);
    near(dio->txn->phase.v[RES_IOT_dev_busy_ms], 500.0 / 11);
    near(dio->txn->phase.v[RES_IOT_write_amp], 2);
    near(dio->txn->series[1].v[RES_IOT_dev_wr_kib], 800.0 / 12);
    near(dio->txn->series[1].v[RES_IOT_write_amp], 2);
    /* no guest agent in this plan: the guest view says so; tracing needs /sys */
    assert_null(vio->guest);
    assert_string_equal(vio->guest_note, "no guest view: no guest agent ([run] guest_agent = no)");
    assert_null(dio->devlat);
    assert_string_equal(dio->devlat_note,
                        "device latency not traced: sysfs is not /sys (a test's tree)");
    assert_null(dio->tail);                 /* no oltp results: no transactions' p99 */

    /* 5 intervals: a + b = 18 21 21 22 17, lag-1 r -0.225531914893617
     * (python3, not corrected on 5 intervals) < 0 so phi 0, its upper bound
     * 1.6449 sqrt(1 / 5) = 0.7356: batches of 84 (stats.h), 10 of them;
     * tau_hi = 1.7356 / 0.2644 = 6.56 asks for 657 intervals */
    res_io *run = sum.io;
    assert_non_null(run);
    assert_int_equal(run->ncmp, 1);
    assert_int_equal(run->cmp[0].method, RES_CMP_TPS_PAIRED);
    assert_string_equal(res_cmp_method_name(run->cmp[0].method), "tps_paired");
    assert_string_equal(run->cmp[0].a, "a");
    assert_int_equal(run->cmp[0].verdict, RES_CMP_TOO_SHORT);
    assert_int_equal(run->cmp[0].needs, 840);
    near(run->cmp[0].r1, 0);
    assert_string_equal(run->cmp[0].reason, "too short for a verdict (needs 840 intervals, has 5): "
                        "a correlation time up to 6.6 intervals needs 10 batches of 84 and 657 "
                        "intervals in all");
    assert_true(isnan(run->cmp[0].diff));
    /* host CPU: 700 of 800 jiffies busy; TCG says saturated whatever */
    near(run->host_cpu_busy_pct, 87.5);
    assert_true(run->host_saturated);
    assert_non_null(strstr(run->host_cpu_note, "TCG"));
    /* what bounded drive a (issue 45): TCG, so the host's CPU */
    assert_non_null(dio->bound);
    assert_int_equal(dio->bound->verdict, RES_BOUND_HOST_CPU);
    assert_string_equal(dio->bound->evidence,
                        "the VMs ran under TCG: every guest instruction is emulated on the "
                        "host's CPUs (host CPU 87.5 % busy)");
    near(dio->bound->util_pct, 50);
    near(dio->bound->queue_depth, 0.8);
    /* the steady-state fit of drive a's TPS */
    assert_int_equal(dio->steady.n, 5);
    near(dio->steady.mean, 11);

    /* JSON and back: the keys the schema names */
    json_object *o = json_object_new_object();
    res_io *back = NULL;
    res_io_put(o, dio);
    assert_non_null(rj_get(rj_get(rj_get(o, "host"), "identity"), "model"));
    assert_non_null(rj_get(rj_get(o, "io"), "db"));
    near(rj_get_d(rj_get(rj_get(o, "io"), "db"), "wr_iops"), 100);
    assert_null(rj_get(rj_get(rj_get(o, "io"), "db"), "rd_lat_ms"));   /* absent, not 0 */
    assert_int_equal(res_io_get(o, &back), 0);
    assert_non_null(back);
    near(back->host->flush_ratio, 1.8);
    near(back->db->series[4].v[RES_IOV_wr_lat_ms], 2);
    assert_string_equal(back->host->serial, "FD0001");
    near(rj_get_d(rj_get(rj_get(o, "per_txn"), "phase"), "write_amp"), 2);
    near(back->txn->phase.v[RES_IOT_dev_busy_ms], 45.454545);     /* 6 decimals */
    near(back->txn->series[1].v[RES_IOT_dev_wr_kib], 66.666667);
    assert_true(back->txn->new_orders == RES_UNSET);
    assert_null(rj_get(rj_get(o, "per_txn"), "per_new_order"));     /* not TPC-C */
    assert_string_equal(back->devlat_note, dio->devlat_note);
    res_io_free(back);
    json_object_put(o);
    o = json_object_new_object();
    res_io_put(o, run);
    assert_string_equal(json_object_get_string(
                            rj_get(json_object_array_get_idx(rj_get(o, "comparisons"), 0),
                                   "verdict")), "too short");
    json_object_put(o);
    tel_close(&x, &sum);
}

/* Two drives whose VMs' servers ran with different settings (issue 44):
 * each comparison of the pair is "not comparable", naming the setting and
 * both values, Welch's too; equal settings written differently (256M and
 * 268435456) are the same. */
static void test_settings_not_comparable(void **state)
{
    res_server sa = { 0 }, sb = { 0 };
    char a[] = "a", b[] = "b";
    res_drive drives[2] = { { .name = a }, { .name = b } };
    res_vm vms[2] = { { .name = a, .drive = a, .server = &sa },
                      { .name = b, .drive = b, .server = &sb } };
    res_summary sum = { .drives = drives, .ndrives = 2, .vms = vms, .nvms = 2 };
    tel_drive_acc acc[2] = { { .p_pct = NAN }, { .p_pct = NAN } };
    res_io io = { 0 };
    const char *why = "not comparable: server setting 'innodb_flush_log_at_trx_commit' differs: "
                      "drive a has 1, drive b has 2";
    (void)state;
    assert_int_equal(res_server_add(&sa, "innodb_buffer_pool_size", "256M", NULL), 0);
    assert_int_equal(res_server_add(&sa, "innodb_flush_log_at_trx_commit", "1", NULL), 0);
    assert_int_equal(res_server_add(&sb, "innodb_buffer_pool_size", "268435456", NULL), 0);
    assert_int_equal(res_server_add(&sb, "innodb_flush_log_at_trx_commit", "2", NULL), 0);
    assert_int_equal(tel_compare_drives(&sum, acc, ORCH_STATS_MIN_REPS, 0, &io), 0);
    assert_int_equal(io.ncmp, 3);       /* TPS paired, TPS and p99 Welch */
    for (int i = 0; i < io.ncmp; i++) {
        assert_int_equal(io.cmp[i].verdict, RES_CMP_NOT_COMPARABLE);
        assert_string_equal(io.cmp[i].reason, why);
    }
    assert_int_equal(io.cmp[0].method, RES_CMP_TPS_PAIRED);
    assert_int_equal(io.cmp[2].method, RES_CMP_P99_WELCH);
    for (int i = 0; i < io.ncmp; i++) {
        free(io.cmp[i].a);
        free(io.cmp[i].b);
        free(io.cmp[i].reason);
    }
    free(io.cmp);
    res_server_clear(&sa);
    res_server_clear(&sb);
}

/* The measured window as oltp reports it (issue 21): sampled 200..207,
 * oltp measured from 202.4 to 206.4 (its start-up, warm-up and tail
 * outside). The 1-s samples whose middle lies inside (202.5 .. 205.5)
 * make the I/O: 4 s; the host CPU is taken between the samples nearest
 * the window's ends (202 and 206): busy 100 jiffies/s up to 202, then
 * 50 of 100 -> 50 %, where the whole phase would say 450 / 700. */
static void test_measured_window(void **state)
{
    tel_fixture x;
    orch_telemetry *t = tel_open(&x, 1, 1, NULL);
    res_summary sum;
    char cpu[128];
    (void)state;
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, NULL), 0);
    for (step = 0; step <= 7; step++) {
        long busy = step <= 2 ? 100L * step : 200 + 50L * (step - 2);
        long idle = step <= 2 ? 0 : 50L * (step - 2);
        snprintf(cpu, sizeof cpu, "cpu  %ld 0 0 %ld 0 0 0 0 0 0\n", busy, idle);
        write_file(proc_stat, cpu);
        host_counters();
        if (step == 0)
            orch_telemetry_phase_start_at(t, RES_PHASE_MEASURE, 0, 200);
        else if (step < 7)
            orch_telemetry_tick_at(t, 200 + step);
        else {
            orch_telemetry_vm_window(t, "vm-a", 1, 202.4, 206.4);
            orch_telemetry_vm_window(t, "no-such-vm", 1, 100, 300);     /* ignored */
            orch_telemetry_phase_end_at(t, RES_PHASE_MEASURE, 1, 207);
        }
    }
    summary_one_vm(&sum);
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);
    near(sum.vms[0].io->db->total.t, 4);
    near(sum.vms[0].io->db->total.v[RES_IOV_wr_iops], 100);
    near(sum.drives[0].io->host->rates->total.t, 4);
    near(sum.io->host_cpu_busy_pct, 50);
    tel_close(&x, &sum);
}

/* One measured phase from t0 to t0 + 4 with the host's CPU busy pct %
 * (jiffies from *j on: 100 a second), as the monitor's ticks sample it. */
static void cpu_phase(orch_telemetry *t, double t0, long pct, long *busy, long *idle)
{
    char cpu[128];
    for (int i = 0; i <= 4; i++) {
        if (i > 0) {
            *busy += pct;
            *idle += 100 - pct;
        }
        snprintf(cpu, sizeof cpu, "cpu  %ld 0 0 %ld 0 0 0 0 0 0\n", *busy, *idle);
        write_file(proc_stat, cpu);
        if (i == 0)
            orch_telemetry_phase_start_at(t, RES_PHASE_MEASURE, 0, t0);
        else if (i < 4)
            orch_telemetry_tick_at(t, t0 + i);
        else
            orch_telemetry_phase_end_at(t, RES_PHASE_MEASURE, 1, t0 + i);
    }
}

/* A step on the same VMs (run/step.c, issue 45) has the host CPU of its
 * own measured phase, not the average since the run began, and the run
 * keeps its own: the run measured 4 s at 50 %, the step 4 s at 100 %
 * (together 75 %); the step swaps zeroes in and the run's figure back. */
static void test_cpu_step_swap(void **state)
{
    tel_fixture x;
    orch_telemetry *t = tel_open(&x, 1, 1, NULL);
    orch_tel_cpu_acc acc = { 0, 0 };
    res_summary stepsum, run;
    long busy = 0, idle = 0;
    (void)state;
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, NULL), 0);
    host_counters();
    cpu_phase(t, 100, 50, &busy, &idle);
    orch_telemetry_cpu_swap(t, &acc);               /* the step begins */
    near(acc.sum / acc.w, 50);
    cpu_phase(t, 200, 100, &busy, &idle);
    summary_one_vm(&stepsum);
    assert_int_equal(orch_telemetry_fill(t, &stepsum, root), 0);
    near(stepsum.io->host_cpu_busy_pct, 100);
    orch_telemetry_cpu_swap(t, &acc);               /* and ends */
    near(acc.sum / acc.w, 100);
    summary_one_vm(&run);
    assert_int_equal(orch_telemetry_fill(t, &run, root), 0);
    near(run.io->host_cpu_busy_pct, 50);
    orch_telemetry_cpu_swap(NULL, &acc);            /* no telemetry: nothing */
    near(acc.sum / acc.w, 100);
    stepsum.env.hypervisors = NULL;
    stepsum.env.nhypervisors = 0;
    res_summary_clear(&stepsum);
    tel_close(&x, &run);
}

/* An oltp result under root at rel: n intervals ending at t[i], lasting
 * d[i], TPS 10 (unused here), each with a histogram of v1 x c1 and v2 x c2
 * us at 2 digits. */
static void write_oltp(const char *rel, int n, const double *t, const double *d, int64_t v1,
                       int64_t c1, int64_t v2, int64_t c2)
{
    res_oltp r;
    res_phase *p;
    char path[PATH_MAX], err[512] = "";
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, 3);
    memset(&r, 0, sizeof r);
    hist_record_n(h, v1, c1);
    hist_record_n(h, v2, c2);
    p = res_oltp_add_phase(&r);
    p->phase = RES_PHASE_MEASURE;
    p->duration_s = t[n - 1];
    p->tps = 10;
    p->interval_s = 1;
    p->iv_pct = 99;
    p->histogram = hist_new(HIST_DEFAULT_HIGHEST, 3);
    hist_add(p->histogram, h);
    p->intervals = calloc((size_t)n, sizeof *p->intervals);
    p->nintervals = n;
    for (int i = 0; i < n; i++)
        p->intervals[i] = (res_interval){ .t = t[i], .duration_s = d[i], .tps = 10,
                                          .histogram = hist_sparse_of(h, RES_IV_HIST_DIGITS) };
    snprintf(path, sizeof path, "%s/%s", root, rel);
    write_file(path, "");
    assert_int_equal(res_oltp_write_file(&r, path, err, sizeof err), 0);
    res_oltp_clear(&r);
    hist_free(h);
}

/* A summary of drive "a" with vm-1 (5 points of 10 TPS, result
 * vm/1.json) and vm-2 (9 points of 5 TPS, vm/2.json). */
static void summary_two_vms(res_summary *sum)
{
    summary_init(sum, 1, 2);
    for (int i = 0; i < 2; i++) {
        res_vm *v = &sum->vms[i];
        v->name = strdup(i ? "vm-2" : "vm-1");
        v->drive = strdup("a");
        v->repetition = 1;
        v->measured = true;
        v->result = strdup(i ? "vm/2.json" : "vm/1.json");
        v->interval_s = 1;
        v->npoints = i ? 9 : 5;
        v->series = calloc((size_t)v->npoints, sizeof *v->series);
        for (int k = 0; k < v->npoints; k++)
            v->series[k] = (res_point){ k + 1, i ? 5 : 10 };
    }
}

/* A drive's series by time (issue 21), two VMs of different lengths:
 * vm-1 has 5 intervals of 1 s, TPS 10, each interval 99 x 1000 us and
 * 1 x 5000 us; vm-2 has 7 intervals (1, 1, a stalled one of 3, 1, 1, 1,
 * 1 s: 9 bins), TPS 5, each 100 x 2000 us. Per bin where both have data
 * (the first 5; the stalled interval lends to bins 3..5): TPS 15, and the
 * p99 of the merged histograms: rank (int)(0.99 * 200 + 0.5) = 198 falls
 * in 2000's bucket (2000..2007 at 2 digits) -> 2.007 ms, where the mean
 * of the VMs' p99s (1.003 and 2.007) would say 1.505. Bins 6..9 lack
 * vm-1: missing, not a smaller sum, so the trend fits the first 5. */
static void test_time_bins(void **state)
{
    static const double t1[] = { 1, 2, 3, 4, 5 }, d1[] = { 1, 1, 1, 1, 1 };
    static const double t2[] = { 1, 2, 5, 6, 7, 8, 9 }, d2[] = { 1, 1, 3, 1, 1, 1, 1 };
    tel_fixture x;
    orch_telemetry *t;
    res_summary sum;
    res_io *dio;
    (void)state;
    tel_init(&x, 1, 1, NULL);
    x.seams.domstats = NULL;            /* no domstats seam: no VM is sampled here */
    tel_start(&x);
    t = x.t;
    write_oltp("vm/1.json", 5, t1, d1, 1000, 99, 5000, 1);
    write_oltp("vm/2.json", 7, t2, d2, 2000, 100, 2000, 0);
    summary_two_vms(&sum);
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);
    dio = sum.drives[0].io;
    assert_non_null(dio);
    near(dio->p_pct, 99);
    assert_int_equal(dio->np, 5);
    for (int k = 0; k < 5; k++) {
        near(dio->p_series[k].t, k + 1);
        near(dio->p_series[k].tps, 2.007);
    }
    assert_int_equal(dio->steady.n, 5);
    near(dio->steady.mean, 15);
    near(dio->steady.slope, 0);
    tel_close(&x, &sum);
}

/* A VM's result refused once its intervals are read (t going backwards:
 * changed since the run collected it), after they went into the drive's
 * bins: as an unreadable result, it adds nothing (the drive has no
 * p-latency series: no bin has every VM's histogram, never one of part
 * of a VM); the TPS series and the other VM's own figures stay. */
static void test_time_bins_refused(void **state)
{
    static const double t1[] = { 1, 2, 3, 4, 5 }, d1[] = { 1, 1, 1, 1, 1 };
    static const double t2[] = { 1, 2, 1.5 }, d2[] = { 1, 1, 1 };
    tel_fixture x;
    res_summary sum;
    res_io *dio;
    (void)state;
    tel_init(&x, 1, 1, NULL);
    x.seams.domstats = NULL;
    tel_start(&x);
    write_oltp("vm/1.json", 5, t1, d1, 1000, 99, 5000, 1);
    write_oltp("vm/2.json", 3, t2, d2, 2000, 100, 2000, 0);
    summary_two_vms(&sum);
    assert_int_equal(orch_telemetry_fill(x.t, &sum, root), 0);
    dio = sum.drives[0].io;
    assert_int_equal(dio->np, 0);
    near(dio->p_pct, 99);
    assert_int_equal(dio->steady.n, 5);
    near(dio->steady.mean, 15);
    assert_int_equal(sum.vms[0].io->np, 5);
    near(sum.vms[0].io->p_series[4].t, 5);
    assert_int_equal(sum.vms[1].io->np, 0);
    tel_close(&x, &sum);
}

/* A measured phase with a 2 s warm-up: its intervals are left out of the
 * phase figures, and the series starts where oltp's intervals do. */
static void test_warmup_left_out(void **state)
{
    tel_fixture x;
    orch_telemetry *t = tel_open(&x, 1, 1, NULL);
    res_summary sum;
    (void)state;
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, NULL), 0);
    step = 0;
    host_counters();
    orch_telemetry_phase_start_at(t, RES_PHASE_MEASURE, 2, 200);
    for (step = 1; step <= 6; step++) {
        host_counters();
        orch_telemetry_tick_at(t, 200 + step);
    }
    step = 7;
    host_counters();
    orch_telemetry_phase_end_at(t, RES_PHASE_MEASURE, 1, 207);
    summary_one_vm(&sum);
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);
    near(sum.vms[0].io->db->total.t, 5);                /* 7 s sampled, 5 measured */
    near(sum.vms[0].io->db->total.v[RES_IOV_wr_iops], 100);
    near(sum.vms[0].io->db->series[0].v[RES_IOV_wr_iops], 100);   /* interval 202..203 */
    near(sum.drives[0].io->host->rates->total.t, 5);
    assert_null(sum.io->cmp);                            /* one drive: nothing to compare */
    tel_close(&x, &sum);
}

/* Summary drive d's repetitions as aggregation leaves them: their TPS
 * and p99. */
static void drive_reps(res_drive *d, const double *tps, const double *p99, int n)
{
    d->nreps = n;
    d->reps = calloc((size_t)n, sizeof *d->reps);
    for (int r = 0; r < n; r++)
        d->reps[r] = (res_repetition){ .repetition = r + 1, .f.tps = tps[r],
                                       .f.lat_p99_ms = p99[r] };
}

/* Three repetitions of drives "a" and "b", one VM each per repetition.
 * The database disks write 100, 300, then 200 times a second at 2, 4 and
 * 3 ms; the device's counts double and triple; drive a's TPS runs 2, 3,
 * 1, 4, 1 above b's in every repetition, and its third repetition
 * climbs 2 TPS a second. */
static void test_repetitions(void **state)
{
    static const double a_tps[3][5] = { { 10, 12, 11, 13, 9 }, { 20, 22, 21, 23, 19 },
                                        { 27, 29, 31, 33, 35 } };
    static const double gap[5] = { 2, 3, 1, 4, 1 };
    static const hv_rates per_rep[3] = { { 100, 2, 0, 0 }, { 300, 4, 0, 0 }, { 200, 3, 0, 0 } };
    static const double rep_tps_a[3] = { 11, 21, 31 }, rep_tps_b[3] = { 8.8, 18.8, 28.8 };
    static const double rep_p99_a[3] = { 4, 5, 6 }, rep_p99_b[3] = { 3, 4, 5 };
    hv_rates hv = { 100, 2, 0, 0 };
    tel_fixture x;
    orch_telemetry *t = tel_open(&x, 2, 3, &hv);
    res_hypervisor kvm = { .domain_type = (char *)"kvm" };
    res_summary sum;
    (void)state;

    summary_init(&sum, 2, 6);
    drive_reps(&sum.drives[0], rep_tps_a, rep_p99_a, 3);
    drive_reps(&sum.drives[1], rep_tps_b, rep_p99_b, 3);
    for (int r = 1; r <= 3; r++) {
        /* 50 %, 50 %, then 80 % of the host's CPU busy */
        const char *busy = r < 3 ? "cpu  150 0 0 150 0 0 0 0 0 0\n"
                                 : "cpu  180 0 0 120 0 0 0 0 0 0\n";
        double b_tps[5];
        for (int k = 0; k < 5; k++)
            b_tps[k] = a_tps[r - 1][k] - gap[k];
        vm_init(&sum.vms[2 * (r - 1)], "vm-a", "a", a_tps[r - 1]);
        vm_init(&sum.vms[2 * (r - 1) + 1], "vm-b", "b", b_tps);
        sum.vms[2 * (r - 1)].repetition = sum.vms[2 * (r - 1) + 1].repetition = r;
        hv = per_rep[r - 1];
        host_mul = r;
        assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, r, NULL, NULL, NULL, NULL), 0);
        assert_int_equal(orch_telemetry_add_vm(t, 1, "vm-b", 1, r, NULL, NULL, NULL, NULL), 0);
        measure_rep(t, r, 100 * r, "cpu  100 0 0 100 0 0 0 0 0 0\n", busy);
    }
    host_mul = 1;
    sum.env.hypervisors = &kvm;
    sum.env.nhypervisors = 1;
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);

    /* each VM its own repetition's disks: vm-a of repetition 2 wrote 300/s at 4 ms */
    res_io *v2 = sum.vms[2].io;
    assert_non_null(v2);
    near(v2->db->total.v[RES_IOV_wr_iops], 300);
    near(v2->db->total.v[RES_IOV_wr_lat_ms], 4);
    near(v2->db->series[0].v[RES_IOV_wr_iops], 300);

    /* the drive: rates the mean of 100, 300, 200; latency every request once,
     * (500 * 2 + 1500 * 4 + 1000 * 3) ms / 3000 writes (the mean of the
     * repetitions' means would be 3); the series is repetition 1's */
    res_io *dio = sum.drives[0].io;
    assert_non_null(dio);
    assert_non_null(dio->db);
    near(dio->db->total.v[RES_IOV_wr_iops], 200);
    near(dio->db->total.v[RES_IOV_wr_mbps], 0.8192);
    near(dio->db->total.v[RES_IOV_wr_lat_ms], 10000.0 / 3000.0);
    near(dio->db->total.v[RES_IOV_fl_iops], 50);
    near(dio->db->total.v[RES_IOV_fl_lat_ms], 1);
    assert_true(isnan(dio->db->total.v[RES_IOV_rd_lat_ms]));
    near(dio->db->total.t, 5);
    assert_int_equal(dio->db->vms, 1);
    assert_int_equal(dio->db->missing, 0);
    assert_int_equal(dio->db->nseries, 5);
    near(dio->db->series[4].v[RES_IOV_wr_iops], 100);
    near(dio->db->series[4].v[RES_IOV_wr_lat_ms], 2);
    near(dio->boot->total.v[RES_IOV_rd_iops], 10);
    near(dio->boot->total.v[RES_IOV_rd_lat_ms], 0.5);
    /* the host: 200, 400, 600 writes/s at 2 ms; 15 s measured in all;
     * 90 * 5 * (1 + 2 + 3) device flushes for the VM's 50 * 5 * 3 */
    assert_non_null(dio->host);
    assert_non_null(dio->host->rates);
    near(dio->host->rates->total.v[RES_IOH_wr_iops], 400);
    near(dio->host->rates->total.v[RES_IOH_wr_await_ms], 2);
    near(dio->host->rates->total.v[RES_IOH_fl_iops], 180);
    near(dio->host->rates->total.v[RES_IOH_queue_depth], 1.6);
    near(dio->host->rates->total.v[RES_IOH_util_pct], 50);
    near(dio->host->rates->total.t, 15);
    near(dio->host->rates->series[2].v[RES_IOH_wr_iops], 200);
    near(dio->host->flush_ratio, 2700.0 / 750.0);
    /* steady state: repetition 3 drifts most, 2 TPS/s over 4 s of a mean of 31 */
    assert_int_equal(dio->steady.n, 5);
    near(dio->steady.mean, 31);
    near(dio->steady.slope, 2);
    near(dio->steady.drift_pct, 800.0 / 31.0);
    assert_true(dio->steady.trending);

    /* paired over the 15 intervals, batches inside their repetition:
     * a + b per repetition 18 21 21 22 17, 38 41 41 42 37, 52 55 61 62 69,
     * each centred on its mean: lag-1 r 0.216949152542373 (python3),
     * not corrected on repetitions of 5 intervals; its bound
     * r + 1.6449 sqrt((1 - r^2) / 15) = 0.6315: batches of 55, 4 per
     * repetition (10 in 3): too short, 220 intervals per repetition
     * (the VMs here say no interval, so the reason gives no seconds).
     * Welch over the repetitions: TPS 11 21 31 against 8.8 18.8 28.8
     * (variances 100, df 4), p99 4 5 6 against 3 4 5 (variances 1) */
    res_io *run = sum.io;
    assert_non_null(run);
    assert_int_equal(run->ncmp, 3);
    assert_int_equal(run->cmp[0].method, RES_CMP_TPS_PAIRED);
    assert_string_equal(res_cmp_method_name(run->cmp[0].method), "tps_paired");
    assert_int_equal(run->cmp[0].verdict, RES_CMP_TOO_SHORT);
    assert_int_equal(run->cmp[0].needs, 660);
    near(run->cmp[0].r1, 0.216949152542373);
    assert_string_equal(run->cmp[0].reason, "too short for a verdict (needs 660 intervals, has "
                        "15): a correlation time up to 4.4 intervals needs 10 batches of 55 and "
                        "443 intervals in all");
    assert_int_equal(run->cmp[1].method, RES_CMP_TPS_WELCH);
    assert_string_equal(res_cmp_method_name(run->cmp[1].method), "tps_welch");
    assert_int_equal(run->cmp[1].n, 6);
    assert_int_equal(run->cmp[1].k, 0);
    near(run->cmp[1].diff, 2.2);
    near(run->cmp[1].df, 4);
    assert_true(fabs(run->cmp[1].lo - (2.2 - 2.776445105 * sqrt(200.0 / 3))) < 1e-6);
    assert_int_equal(run->cmp[1].verdict, RES_CMP_NOT_DISTINGUISHABLE);
    /* Holm over every test the run prints: tps_welch and p99_welch are
     * one family of 2 (issue 29), the smaller p doubled, the larger kept
     * at least that */
    assert_int_equal(run->cmp[1].family, 2);
    assert_int_equal(run->cmp[2].family, 2);
    {
        double p1 = run->cmp[1].p_value, p2 = run->cmp[2].p_value;
        double lo = fmin(1, 2 * fmin(p1, p2)), hi = fmax(lo, fmax(p1, p2));
        near(run->cmp[1].p_holm, p1 < p2 ? lo : hi);
        near(run->cmp[2].p_holm, p1 < p2 ? hi : lo);
    }
    assert_int_equal(run->cmp[2].method, RES_CMP_P99_WELCH);
    assert_string_equal(res_cmp_method_name(run->cmp[2].method), "p99_welch");
    near(run->cmp[2].diff, 1);
    near(run->cmp[2].df, 4);
    assert_true(fabs(run->cmp[2].hi - (1 + 2.776445105 * sqrt(2.0 / 3))) < 1e-6);
    assert_int_equal(run->cmp[2].verdict, RES_CMP_NOT_DISTINGUISHABLE);
    /* host CPU: 50, 50 and 80 % over equal phases; KVM, not saturated */
    near(run->host_cpu_busy_pct, 60);
    assert_false(run->host_saturated);
    assert_null(run->host_cpu_note);
    tel_close(&x, &sum);
}

/* A hypervisor that counts writes but not their time, and no flushes:
 * the write latency, the flush rate and the flush ratio are missing
 * (NAN, no JSON key), never 0, for the VM and for the drive over two
 * repetitions; what it does count stays exact. */
static void test_missing_times(void **state)
{
    hv_rates hv = { 100, 2, 1, 1 };
    tel_fixture x;
    orch_telemetry *t = tel_open(&x, 1, 2, &hv);
    const char *cpu = "cpu  100 0 0 100 0 0 0 0 0 0\n";
    res_summary sum;
    (void)state;
    summary_init(&sum, 1, 2);
    for (int r = 1; r <= 2; r++) {
        vm_init(&sum.vms[r - 1], "vm-a", "a", tps_a);
        sum.vms[r - 1].repetition = r;
        assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, r, NULL, NULL, NULL, NULL), 0);
        measure_rep(t, r, 100 * r, cpu, cpu);
    }
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);

    for (int r = 0; r < 2; r++) {
        const res_io_rates *db = sum.vms[r].io->db;
        near(db->total.v[RES_IOV_wr_iops], 100);
        assert_true(isnan(db->total.v[RES_IOV_wr_lat_ms]));
        assert_true(isnan(db->total.v[RES_IOV_fl_iops]));
        assert_true(isnan(db->total.v[RES_IOV_fl_lat_ms]));
    }
    res_io *dio = sum.drives[0].io;
    assert_non_null(dio->db);
    near(dio->db->total.v[RES_IOV_wr_iops], 100);
    near(dio->db->total.v[RES_IOV_wr_mbps], 0.4096);
    assert_true(isnan(dio->db->total.v[RES_IOV_wr_lat_ms]));
    assert_true(isnan(dio->db->total.v[RES_IOV_fl_iops]));
    assert_true(isnan(dio->db->total.v[RES_IOV_fl_lat_ms]));
    assert_true(isnan(dio->db->series[0].v[RES_IOV_wr_lat_ms]));
    near(dio->boot->total.v[RES_IOV_rd_lat_ms], 0.5);   /* its times are there */
    assert_true(isnan(dio->host->flush_ratio));
    near(dio->host->rates->total.v[RES_IOH_fl_iops], 90);   /* the device counts its own */

    json_object *o = json_object_new_object();
    res_io_put(o, dio);
    near(rj_get_d(rj_get(rj_get(o, "io"), "db"), "wr_iops"), 100);
    assert_null(rj_get(rj_get(rj_get(o, "io"), "db"), "wr_lat_ms"));
    assert_null(rj_get(rj_get(rj_get(o, "io"), "db"), "fl_iops"));
    json_object_put(o);
    tel_close(&x, &sum);
}

static void test_cpu_busy(void **state)
{
    (void)state;
    near(orch_tel_cpu_busy_pct("cpu  0 0 0 100 0\n", "cpu  50 0 50 150 50\n"), 50);
    assert_true(isnan(orch_tel_cpu_busy_pct("nothing", "cpu  1 1 1 1\n")));
    assert_true(isnan(orch_tel_cpu_busy_pct("cpu  1 1 1 1\n", "cpu  1 1 1 1\n")));
}

/* VM v of drive `drive` in repetition rep with n intervals of tps[]. */
static void vm_series(res_vm *v, const char *name, const char *drive, int rep,
                      const double *tps, int n)
{
    memset(v, 0, sizeof *v);
    v->name = strdup(name);
    v->drive = strdup(drive);
    v->repetition = rep;
    v->measured = true;
    v->npoints = n;
    v->series = calloc((size_t)n, sizeof *v->series);
    for (int i = 0; i < n; i++)
        v->series[i] = (res_point){ i + 1, tps[i] };
}

/* A partial run (3 repetitions planned, stopped after the first) with
 * four drives of one VM and 200 intervals: a, b and d complete, c's VM
 * failed. Worked with python3: b = 50 + i % 3, a = b + the first 50
 * digits of pi (repeated), d = b - 1. a + b has lag-1 r
 * -0.117624848591322, phi = (200 r + 1) / 197 < 0, so 0; its bound
 * 1.6449 sqrt(1 / 200) = 0.1163 allows batches of 7, and 20 batches of
 * 10 are longer: k = 10, 20 batches, whose differences a - b are 3.9
 * 5.8 4.4 5.3 5.3 (four times): mean 4.94, variance 0.499368421052631,
 * se = sqrt(variance / 20), t with 19 df; a - d = a - b + 1 (mean 5.94,
 * same se) and b - d = 1 everywhere (se 0: no p-value, out of Holm's
 * family). Holm over the two p-values: the smaller, a-d's, doubles;
 * a-b's stays. Each pair with c is not comparable in the paired
 * methods; Welch leaves c's failed repetition out (0 complete where it
 * needs 3) and has one of a, b and d each. The
 * zero intervals of repetitions 2 and 3, which the old code paired, are
 * not in any series. */
static void test_comparable(void **state)
{
    static const double gap[50] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8,
                                    4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1,
                                    9, 7, 1, 6, 9, 3, 9, 9, 3, 7, 5, 1 };
    double ta[200], tb[200], td[200];
    tel_fixture x;
    orch_telemetry *t = tel_open(&x, 4, 3, NULL);
    res_summary sum;
    double se = sqrt(0.499368421052631 / 20), p_ab = 2 * (1 - orch_t_cdf(4.94 / se, 19));
    double p_ad = 2 * (1 - orch_t_cdf(5.94 / se, 19));
    const double one[1] = { 0 };
    const char *bad = "not comparable: drive c is incomplete (1 failed VM run)";
    const char *welch = "too short for a verdict (needs 3 complete repetitions of each drive, "
                        "has 1 and 1)";
    const char *welch_c = "too short for a verdict (needs 3 complete repetitions of each drive, "
                          "has 1 and 0)";
    (void)state;
    for (int i = 0; i < 200; i++) {
        tb[i] = 50 + (i % 3);
        ta[i] = tb[i] + gap[i % 50];
        td[i] = tb[i] - 1;
    }
    summary_init(&sum, 4, 4);
    sum.repetitions = 3;
    sum.status = RES_RUN_PARTIAL;
    vm_series(&sum.vms[0], "vm-a", "a", 1, ta, 200);
    vm_series(&sum.vms[1], "vm-b", "b", 1, tb, 200);
    vm_series(&sum.vms[2], "vm-c", "c", 1, tb, 200);
    vm_series(&sum.vms[3], "vm-d", "d", 1, td, 200);
    sum.vms[2].failed = true;
    sum.drives[2].f.failed_vms = 1;
    for (int d = 0; d < 4; d++)
        drive_reps(&sum.drives[d], one, one, 1);
    sum.drives[2].reps[0].f.failed_vms = 1;
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);

    res_io *run = sum.io;
    assert_non_null(run);
    /* pairs a-b a-c a-d b-c b-d c-d, each tps_paired, tps_welch, p99_welch */
    assert_int_equal(run->ncmp, 18);
    for (int i = 0; i < run->ncmp; i++) {
        const res_io_cmp *c = &run->cmp[i];
        int with_c = strcmp(c->a, "c") == 0 || strcmp(c->b, "c") == 0;
        if (with_c && res_cmp_method_is_paired(c->method)) {
            assert_int_equal(c->verdict, RES_CMP_NOT_COMPARABLE);
            assert_string_equal(c->reason, bad);
            assert_true(isnan(c->diff) && isnan(c->p_holm));
        } else if (with_c) {
            /* Welch leaves c's failed repetition out: none is left */
            assert_int_equal(c->verdict, RES_CMP_TOO_SHORT);
            assert_string_equal(c->reason, strcmp(c->a, "c") == 0
                                               ? "too short for a verdict (needs 3 complete "
                                                 "repetitions of each drive, has 0 and 1)"
                                               : welch_c);
        } else if (!res_cmp_method_is_paired(c->method)) {
            assert_int_equal(c->verdict, RES_CMP_TOO_SHORT);
            assert_string_equal(c->reason, welch);
            assert_int_equal(c->needs, 3);
        }
    }
    const res_io_cmp *ab = &run->cmp[0], *ad = &run->cmp[6], *bd = &run->cmp[12];
    assert_int_equal(ab->method, RES_CMP_TPS_PAIRED);
    assert_string_equal(res_cmp_method_name(ab->method), "tps_paired");
    assert_string_equal(ad->b, "d");
    assert_string_equal(bd->a, "b");
    assert_int_equal(bd->method, RES_CMP_TPS_PAIRED);
    assert_string_equal(res_cmp_method_name(bd->method), "tps_paired");
    assert_int_equal(ab->verdict, RES_CMP_DISTINGUISHABLE);
    assert_int_equal(ab->n, 20);
    assert_int_equal(ab->k, 10);
    near(ab->r1, 0);
    near(ab->diff, 4.94);
    near(ab->df, 19);
    near(ab->lo, 4.94 - 2.09302405440831 * se);
    near(ab->hi, 4.94 + 2.09302405440831 * se);
    near(ab->p_value, p_ab);
    near(ab->p_holm, p_ab);
    assert_int_equal(ab->family, 2);
    near(ad->diff, 5.94);
    near(ad->p_value, p_ad);
    near(ad->p_holm, 2 * p_ad);
    assert_int_equal(ad->family, 2);
    /* b and d differ by exactly 1 in every interval: a zero standard
     * error is no verdict (issue 29) */
    assert_int_equal(bd->verdict, RES_CMP_TOO_SHORT);
    assert_string_equal(bd->reason, "no variance: needs repetitions");
    near(bd->diff, 1);
    assert_true(isnan(bd->p_value) && isnan(bd->p_holm));
    assert_int_equal(bd->family, 0);

    /* JSON and back */
    json_object *o = json_object_new_object();
    res_io *back = NULL;
    res_io_put(o, run);
    assert_int_equal(res_io_get(o, &back), 0);
    assert_int_equal(back->ncmp, 18);
    assert_int_equal(back->cmp[1].verdict, RES_CMP_TOO_SHORT);
    assert_int_equal(back->cmp[1].needs, 3);
    assert_int_equal(back->cmp[3].verdict, RES_CMP_NOT_COMPARABLE);
    assert_string_equal(back->cmp[3].reason, bad);
    assert_int_equal(back->cmp[0].verdict, RES_CMP_DISTINGUISHABLE);
    assert_true(fabs(back->cmp[6].p_holm - 2 * p_ad) < 1e-6);   /* 6 decimals in JSON */
    assert_string_equal(json_object_get_string(rj_get(json_object_array_get_idx(
                            rj_get(o, "comparisons"), 3), "verdict")), "not comparable");
    res_io_free(back);
    json_object_put(o);
    tel_close(&x, &sum);
}

/* Two drives whose interval TPS are the same throughout (a stand-in,
 * two copies of one file): a difference of 0 with a standard error of 0
 * is no verdict (results/SCHEMA.md), not "not distinguishable": no
 * p-value, out of Holm's family (issue 42). */
static void test_identical_no_verdict(void **state)
{
    double ta[200];
    tel_fixture x;
    orch_telemetry *t = tel_open(&x, 2, 1, NULL);
    res_summary sum;
    const double one[1] = { 0 };
    (void)state;
    for (int i = 0; i < 200; i++)
        ta[i] = 50 + (i * 7) % 11;
    summary_init(&sum, 2, 2);
    sum.repetitions = 1;
    vm_series(&sum.vms[0], "vm-a", "a", 1, ta, 200);
    vm_series(&sum.vms[1], "vm-b", "b", 1, ta, 200);
    for (int d = 0; d < 2; d++)
        drive_reps(&sum.drives[d], one, one, 1);
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);
    assert_non_null(sum.io);
    assert_int_equal(sum.io->ncmp, 1);
    assert_int_equal(sum.io->cmp[0].method, RES_CMP_TPS_PAIRED);
    assert_string_equal(res_cmp_verdict_name(sum.io->cmp[0].verdict), "not comparable");
    assert_string_equal(sum.io->cmp[0].reason, "not comparable: identical values (no variance "
                        "to judge a difference by)");
    assert_true(sum.io->cmp[0].diff == 0 && isnan(sum.io->cmp[0].p_holm));
    assert_int_equal(sum.io->cmp[0].family, 0);
    tel_close(&x, &sum);
}

/* Issue 29's "a failed repetition with Welch on the rest": drives a and
 * b, one VM each, four repetitions; a's VM failed in repetition 3 (its
 * figures there, 50 TPS and a p99 of 99 ms, what it had measured up to
 * the fault). The paired methods are not comparable, as before; Welch
 * takes a's three complete repetitions against b's four, where it used
 * to give no verdict at all. Worked by hand: TPS 100 103 97 (mean 100,
 * s^2 9) against 88 94 88 94 (mean 91, s^2 12): diff 9, se^2 = 9/3 + 12/4
 * = 6, df = 36 / (3^2/2 + 3^2/3) = 4.8, t(0.975, 4.8) = 2.603133870792,
 * p = 0.0154590667; p99 5 6 7 (mean 6, s^2 1) against 4 5 4 5 (mean 4.5,
 * s^2 1/3): diff 1.5, se^2 = 1/3 + 1/12 = 5/12, df = (5/12)^2 / ((1/3)^2/2
 * + (1/12)^2/3) = 3, t(0.975, 3) = 3.182446305284, p = 0.1027280789.
 * Holm over the two: 2 * 0.01546 = 0.03092 stays below 0.05. */
static void test_failed_repetition_welch(void **state)
{
    static const double a_tps[4] = { 100, 103, 50, 97 }, b_tps[4] = { 88, 94, 88, 94 };
    static const double a_p99[4] = { 5, 6, 99, 7 }, b_p99[4] = { 4, 5, 4, 5 };
    tel_fixture x;
    orch_telemetry *t = tel_open(&x, 2, 4, NULL);
    res_summary sum;
    const char *bad = "not comparable: drive a is incomplete (1 failed VM run)";
    double se = sqrt(6), pse = sqrt(5.0 / 12);
    (void)state;
    summary_init(&sum, 2, 8);
    sum.repetitions = 4;
    for (int r = 1; r <= 4; r++) {
        vm_series(&sum.vms[2 * (r - 1)], "vm-a", "a", r, tps_a, 5);
        vm_series(&sum.vms[2 * (r - 1) + 1], "vm-b", "b", r, tps_b, 5);
    }
    sum.vms[4].failed = true;
    drive_reps(&sum.drives[0], a_tps, a_p99, 4);
    drive_reps(&sum.drives[1], b_tps, b_p99, 4);
    sum.drives[0].f.failed_vms = 1;
    sum.drives[0].reps[2].f.failed_vms = 1;
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);

    res_io *run = sum.io;
    assert_non_null(run);
    assert_int_equal(run->ncmp, 3);
    assert_int_equal(run->cmp[0].method, RES_CMP_TPS_PAIRED);
    assert_int_equal(run->cmp[0].verdict, RES_CMP_NOT_COMPARABLE);
    assert_string_equal(run->cmp[0].reason, bad);

    const res_io_cmp *tw = &run->cmp[1], *pw = &run->cmp[2];
    assert_int_equal(tw->method, RES_CMP_TPS_WELCH);
    assert_int_equal(tw->n, 7);
    near(tw->mean_a, 100);
    near(tw->mean_b, 91);
    near(tw->diff, 9);
    near(tw->diff_pct, 900.0 / 91);
    near(tw->df, 4.8);
    near(tw->lo, 9 - 2.603133870792 * se);
    near(tw->hi, 9 + 2.603133870792 * se);
    near(tw->p_value, 0.0154590667);
    near(tw->p_holm, 2 * 0.0154590667);
    assert_int_equal(tw->family, 2);
    assert_int_equal(tw->verdict, RES_CMP_DISTINGUISHABLE);
    assert_null(tw->reason);

    assert_int_equal(pw->method, RES_CMP_P99_WELCH);
    assert_int_equal(pw->n, 7);
    near(pw->mean_a, 6);
    near(pw->mean_b, 4.5);
    near(pw->diff, 1.5);
    near(pw->df, 3);
    near(pw->lo, 1.5 - 3.182446305284 * pse);
    near(pw->hi, 1.5 + 3.182446305284 * pse);
    near(pw->p_value, 0.1027280789);
    near(pw->p_holm, 0.1027280789);
    assert_int_equal(pw->family, 2);
    assert_int_equal(pw->verdict, RES_CMP_NOT_DISTINGUISHABLE);
    tel_close(&x, &sum);
}

/* Two drives of one VM and one repetition, n intervals of 1 s of ta and
 * tb into *sum (vm-a without the interval ending at t = 151 when gap):
 * the telemetry filled, comparisons made. */
static void pair_fill(tel_fixture *x, res_summary *sum, const double *ta, const double *tb,
                      int n, int gap)
{
    static const double one[1] = { 0 };
    orch_telemetry *t = tel_open(x, 2, 1, NULL);
    summary_init(sum, 2, 2);
    sum->repetitions = 1;
    vm_series(&sum->vms[0], "vm-a", "a", 1, ta, n);
    vm_series(&sum->vms[1], "vm-b", "b", 1, tb, n);
    if (gap) {
        memmove(&sum->vms[0].series[150], &sum->vms[0].series[151],
                (size_t)(n - 151) * sizeof *sum->vms[0].series);
        sum->vms[0].npoints = n - 1;
    }
    for (int v = 0; v < 2; v++)
        sum->vms[v].interval_s = 1;
    for (int d = 0; d < 2; d++)
        drive_reps(&sum->drives[d], one, one, 1);
    assert_int_equal(orch_telemetry_fill(t, sum, root), 0);
    assert_int_equal(sum->io->ncmp, 1);
}

/* Issue 29's missing bin: two drives of one VM, 400 intervals of 1 s,
 * vm-a without the interval ending at t = 151 (bin 150). Paired by time,
 * bin 150 drops out of both drives and 399 intervals remain, never a NAN
 * in the series (the old cut by count paired b's bin 150 with a's
 * missing one and printed "[nan, nan]"). Worked with python3: b = 50 +
 * i % 3, a = b + pi's digit (7 i) mod 50 / 2 - 2.2; without the gap
 * batches of 20 (a + b's phi 0, bound 0.0822, kreq 5), mean 0.27,
 * variance 0.0285263157894737, t = 7.149 with 19 df; with it the longest
 * batch making 20 of 399 is 19: 21 batches, mean 0.272431077694233,
 * variance 0.0390911489249439, 20 df. Then 30 intervals: too short, with
 * the seconds to measure at this 1-s interval; and a + b that never
 * varies (a = 50 + x, b = 50 - x): no lag-1 correlation, not comparable. */
static void test_missing_bin(void **state)
{
    static const double pi[50] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4,
                                   6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7,
                                   1, 6, 9, 3, 9, 9, 3, 7, 5, 1 };
    double ta[400], tb[400], xa[30], xb[30];
    double se0 = sqrt(0.0285263157894737 / 20), se = sqrt(0.0390911489249439 / 21);
    double p0 = 2 * (1 - orch_t_cdf(0.27 / se0, 19));
    double p = 2 * (1 - orch_t_cdf(0.272431077694233 / se, 20));
    tel_fixture x;
    res_summary sum;
    (void)state;
    for (int i = 0; i < 400; i++) {
        tb[i] = 50 + (i % 3);
        ta[i] = tb[i] + pi[(7 * i) % 50] * 0.5 - 2.2;
    }
    for (int gap = 0; gap < 2; gap++) {
        pair_fill(&x, &sum, ta, tb, 400, gap);
        const res_io_cmp *c = &sum.io->cmp[0];
        assert_int_equal(c->verdict, RES_CMP_DISTINGUISHABLE);
        assert_int_equal(c->n, gap ? 21 : 20);
        assert_int_equal(c->k, gap ? 19 : 20);
        near(c->df, gap ? 20 : 19);
        near(c->diff, gap ? 0.272431077694233 : 0.27);
        assert_true(isfinite(c->lo) && isfinite(c->hi));
        assert_true(fabs(c->p_value - (gap ? p : p0)) <= 1e-9 * (gap ? p : p0));
        /* the same order as without the gap: 8.3e-7 and 3.6e-6 */
        assert_true(p0 > 1e-7 && p0 < 1e-6 && p > 1e-6 && p < 1e-5);
        tel_close(&x, &sum);
    }

    /* a + b's lag-1 r -0.1259, phi 0, bound 1.6449 sqrt(1 / 30) = 0.3003:
     * batches of 18, 180 intervals; tau_hi = 1.3003 / 0.6997 = 1.858 asks
     * for 186 */
    pair_fill(&x, &sum, ta, tb, 30, 0);
    assert_int_equal(sum.io->cmp[0].verdict, RES_CMP_TOO_SHORT);
    assert_int_equal(sum.io->cmp[0].needs, 186);
    assert_string_equal(sum.io->cmp[0].reason, "too short for a verdict (needs 186 intervals, "
                        "has 30): a correlation time up to 1.9 intervals needs 10 batches of 18 "
                        "and 186 intervals in all; measure at least 186 s at this 1-s interval");
    tel_close(&x, &sum);

    for (int i = 0; i < 30; i++) {
        xa[i] = 50 + pi[i];
        xb[i] = 50 - pi[i];
    }
    pair_fill(&x, &sum, xa, xb, 30, 0);
    assert_int_equal(sum.io->cmp[0].verdict, RES_CMP_NOT_COMPARABLE);
    assert_string_equal(sum.io->cmp[0].reason, "not comparable: the intervals have no lag-1 "
                        "correlation (no two consecutive intervals both drives measured, or "
                        "none varies)");
    assert_true(isnan(sum.io->cmp[0].diff) && isnan(sum.io->cmp[0].p_holm));
    tel_close(&x, &sum);
}

/* ------------------------------------------------------------------ */
/* the guest's view through a recorded guest agent                     */

static void b64(const char *in, char *out)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = strlen(in), o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned char)in[i] << 16;
        if (i + 1 < n) v |= (unsigned char)in[i + 1] << 8;
        if (i + 2 < n) v |= (unsigned char)in[i + 2];
        out[o++] = tab[v >> 18 & 63];
        out[o++] = tab[v >> 12 & 63];
        out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? tab[v & 63] : '=';
    }
    out[o] = '\0';
}

static int agent_calls;

/* The guest at `step`: sdb does per second 100 writes of 8 sectors at
 * 1.5 ms, 40 flushes at 0.5 ms, 300 ms busy, 600 ms in queue; its
 * partition and a dm device on it count other numbers (never used). */
static char *fake_agent(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s)
{
    char text[1024], enc[2048], *reply = malloc(4096);
    long k = step;
    (void)ctx;
    (void)dom;
    (void)timeout_s;
    agent_calls++;
    if (strstr(cmd, "\"guest-exec\""))
        snprintf(reply, 4096, "{\"return\":{\"pid\":7}}");
    else if (strstr(cmd, "guest-exec-status")) {
        b64("/dev/sdb\n", enc);
        snprintf(reply, 4096, "{\"return\":{\"exited\":true,\"exitcode\":0,\"out-data\":\"%s\"}}",
                 enc);
    } else if (strstr(cmd, "guest-file-open"))
        snprintf(reply, 4096, "{\"return\":5}");
    else if (strstr(cmd, "guest-file-read")) {
        snprintf(text, sizeof text,
                 "   8       0 sda 1 0 8 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n"
                 "   8      16 sdb 0 0 0 0 %ld 0 %ld %ld 0 %ld %ld 0 0 0 0 %ld %ld\n"
                 "   8      17 sdb1 %ld 0 %ld 0 %ld 0 %ld 0 0 0 0 0 0 0 0 0 0\n"
                 " 254       0 dm-0 %ld 0 %ld 0 %ld 0 %ld 0 0 0 0\n",
                 100 * k, 800 * k, 150 * k, 300 * k, 600 * k, 40 * k, 20 * k,
                 999 * k, 999 * k, 999 * k, 999 * k, 777 * k, 777 * k, 777 * k, 777 * k);
        b64(text, enc);
        snprintf(reply, 4096, "{\"return\":{\"count\":%zu,\"buf-b64\":\"%s\",\"eof\":true}}",
                 strlen(text), enc);
    } else
        snprintf(reply, 4096, "{\"return\":{}}");
    return reply;
}

static void test_guest_view(void **state)
{
    tel_fixture x;
    virConnectPtr conn = virConnectOpen("test:///default");
    virDomainPtr dom = conn ? virDomainLookupByName(conn, "test") : NULL;
    orch_telemetry *t;
    res_summary sum;
    const res_io_rates *g;
    (void)state;
    tel_init(&x, 1, 1, NULL);
    x.plan.guest_agent = 1;
    x.plan.device_latency = ORCH_DEVLAT_OFF;
    x.seams.agent = fake_agent;
    tel_start(&x);
    t = x.t;
    assert_non_null(dom);
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, dom), 0);
    agent_calls = 0;
    measure_rep(t, 1, 300, NULL, NULL);
    /* readlink once (exec + status), then open, read, close per sample */
    assert_int_equal(agent_calls, 2 + 6 * 3);
    summary_one_vm(&sum);
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);
    g = sum.vms[0].io->guest;
    assert_non_null(g);
    assert_null(sum.vms[0].io->guest_note);
    near(g->total.t, 5);
    near(g->total.v[RES_IOH_wr_iops], 100);
    near(g->total.v[RES_IOH_wr_mbps], 0.4096);
    near(g->total.v[RES_IOH_wr_await_ms], 1.5);
    near(g->total.v[RES_IOH_fl_iops], 40);
    near(g->total.v[RES_IOH_fl_await_ms], 0.5);
    near(g->total.v[RES_IOH_rd_iops], 0);                  /* sdb1 and dm-0 not counted */
    near(g->total.v[RES_IOH_queue_depth], 0.6);
    near(g->total.v[RES_IOH_util_pct], 30);
    near(g->total.v[RES_IOH_rq_kib], 4);
    /* await over writes and flushes: (150 + 20) ms / 140 I/Os */
    near(g->total.v[RES_IOH_await_ms], 170.0 / 140);
    assert_int_equal(g->nseries, 5);
    near(g->series[2].v[RES_IOH_wr_iops], 100);
    /* the drive: the sum of its one VM's */
    assert_non_null(sum.drives[0].io->guest);
    near(sum.drives[0].io->guest->total.v[RES_IOH_wr_iops], 100);
    near(sum.drives[0].io->guest->total.v[RES_IOH_queue_depth], 0.6);
    near(sum.drives[0].io->guest->series[4].v[RES_IOH_fl_iops], 40);
    /* device_latency = off: no tracer and no note */
    assert_null(sum.drives[0].io->devlat);
    assert_null(sum.drives[0].io->devlat_note);
    /* into JSON under io.guest, and back */
    json_object *o = json_object_new_object();
    res_io *back = NULL;
    res_io_put(o, sum.vms[0].io);
    near(rj_get_d(rj_get(rj_get(o, "io"), "guest"), "rq_kib"), 4);
    assert_int_equal(res_io_get(o, &back), 0);
    near(back->guest->total.v[RES_IOH_fl_await_ms], 0.5);
    near(back->guest->series[2].v[RES_IOH_wr_iops], 100);
    res_io_free(back);
    json_object_put(o);
    tel_close(&x, &sum);
    virDomainFree(dom);
    virConnectClose(conn);
}

/* What the tick hook saw (issue 34's live view): its calls, the last
 * view's phase, repetition and first VM's and drive's intervals. */
typedef struct tick_seen {
    int calls, nvms, ndrives, rep;
    res_phase_id phase;
    orch_tel_vm_now vm0, vm1;
    orch_tel_drive_now dev0;
} tick_seen;

static void on_tick(void *ctx, const orch_tel_now *now)
{
    tick_seen *s = ctx;
    s->calls++;
    s->nvms = now->nvms;
    s->ndrives = now->ndrives;
    s->rep = now->rep;
    s->phase = now->phase;
    s->vm0 = now->vms[0];
    s->vm1 = now->vms[1];
    s->dev0 = now->drives[0];
}

/* The tick hook gets, at every tick of a sampled phase and its last one,
 * each VM's database disk and each drive's device over the interval
 * that just ended; none once cleared. */
static void test_tick_hook(void **state)
{
    tel_fixture x;
    tick_seen seen = { 0 };
    orch_telemetry *t;
    (void)state;
    host_mul = 1;
    t = tel_open(&x, 2, 1, NULL);
    orch_telemetry_on_tick(t, on_tick, &seen);
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, NULL), 0);
    assert_int_equal(orch_telemetry_add_vm(t, 1, "vm-b", 1, 1, NULL, NULL, NULL, NULL), 0);
    orch_telemetry_tick_at(t, 99);          /* no phase: nothing sampled, no call */
    assert_int_equal(seen.calls, 0);
    measure_rep(t, 1, 100, NULL, NULL);     /* ticks at 101 .. 104, the last at 105 */
    assert_int_equal(seen.calls, 5);
    assert_int_equal(seen.nvms, 2);
    assert_int_equal(seen.ndrives, 2);
    assert_int_equal(seen.rep, 1);
    assert_int_equal(seen.phase, RES_PHASE_MEASURE);
    assert_int_equal(seen.vm0.vm, 0);
    assert_int_equal(seen.vm1.drive, 1);
    assert_true(seen.vm0.has_db);
    assert_true(seen.vm0.db.t == 105 && seen.vm0.db.dt == 1);
    assert_true(seen.vm0.db.wr_iops == 100 && seen.vm0.db.wr_lat_ms == 2);
    assert_true(seen.vm0.db.d[ORCH_BLK_WR_BYTES] == 409600 && seen.vm0.db.fl_iops == 50);
    assert_true(seen.dev0.has_dev);
    assert_true(seen.dev0.dev.wr_iops == 200 && seen.dev0.dev.fl_iops == 90);
    orch_telemetry_on_tick(t, NULL, NULL);
    measure_rep(t, 1, 200, NULL, NULL);
    assert_int_equal(seen.calls, 5);
    orch_telemetry_free(t);
    fclose(x.log);
}

/* One measured repetition of vm-a on drive a, filled into *sum; lazy:
 * spooled, each VM's series built only when written. */
static void lazy_run(tel_fixture *x, res_summary *sum, int lazy)
{
    static res_hypervisor hv = { .domain_type = (char *)"qemu" };
    char err[256] = "";
    orch_telemetry *t;
    use_spool = lazy;
    t = tel_open(x, 1, 1, NULL);
    use_spool = 0;
    if (lazy)
        orch_telemetry_lazy_series(t);
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, NULL), 0);
    measure_rep(t, 1, 100, "cpu  100 0 100 800 0 0 0 0 0 0\n",
                "cpu  550 0 350 900 0 0 0 0 0 0\n");
    summary_one_vm(sum);
    sum->vms[0].tps = 11;
    sum->vms[0].transactions = 55;
    sum->env.hypervisors = &hv;
    sum->env.nhypervisors = 1;
    assert_int_equal(orch_telemetry_fill(t, sum, root), 0);
    assert_int_equal(orch_telemetry_spool_error(t, err, sizeof err), 0);
}

/* A lazy, spooled telemetry: a VM's disk series and its per-transaction
 * series (made from them) are out of memory after the fill, built by
 * orch_telemetry_vm_each (as the summary writes the VM) bit for bit as an
 * eager one's, and freed after; the phase figures are there all along. */
static void test_lazy_series(void **state)
{
    tel_fixture ex, lx;
    res_summary es, ls;
    (void)state;

    lazy_run(&ex, &es, 0);
    lazy_run(&lx, &ls, 1);
    res_io *e = es.vms[0].io, *l = ls.vms[0].io;
    assert_non_null(e->db);
    assert_non_null(l->db);
    assert_int_equal(e->db->nseries, 5);
    assert_int_equal(l->db->nseries, 0);
    assert_null(l->db->series);
    assert_memory_equal(&e->db->total, &l->db->total, sizeof e->db->total);
    assert_non_null(e->txn);
    assert_non_null(l->txn);
    assert_int_equal(e->txn->nseries, 5);
    assert_int_equal(l->txn->nseries, 0);
    assert_null(l->txn->series);
    assert_memory_equal(&l->txn->phase, &e->txn->phase, sizeof e->txn->phase);
    assert_int_equal(l->txn->txns, 55);
    assert_int_equal(orch_telemetry_vm_each(lx.t, &ls.vms[0], 1), 0);
    assert_int_equal(l->db->nseries, 5);
    assert_memory_equal(l->db->series, e->db->series, 5 * sizeof *e->db->series);
    assert_int_equal(l->boot ? l->boot->nseries : -1, e->boot ? e->boot->nseries : -1);
    assert_int_equal(l->txn->nseries, 5);
    assert_memory_equal(l->txn->series, e->txn->series, 5 * sizeof *e->txn->series);
    /* interval 2 (t 2 s, 12 TPS): 400 KiB written at 100 IOPS a second,
     * 50 flushes; no device view, so its keys absent */
    assert_true(l->txn->series[1].t == 2 && l->txn->series[1].tps == 12);
    near(l->txn->series[1].v[RES_IOT_wr_kib], 400.0 / 12);
    near(l->txn->series[1].v[RES_IOT_flushes], 50.0 / 12);
    assert_true(isnan(l->txn->series[1].v[RES_IOT_dev_wr_kib]));
    assert_int_equal(orch_telemetry_vm_each(lx.t, &ls.vms[0], 0), 0);
    assert_int_equal(l->db->nseries, 0);
    assert_null(l->db->series);
    assert_int_equal(l->txn->nseries, 0);
    assert_null(l->txn->series);
    /* an eager telemetry's hook leaves the VM alone */
    assert_int_equal(orch_telemetry_vm_each(ex.t, &es.vms[0], 0), 0);
    assert_int_equal(e->db->nseries, 5);
    tel_close(&ex, &es);
    tel_close(&lx, &ls);
}

/* summary.json of *sum written into root/NAME (fn: the VM hook, or
 * NULL); its text, to free. */
static char *summary_text(res_summary *sum, const char *name, res_vm_each_fn fn, void *ctx)
{
    char dir[PATH_MAX], path[PATH_MAX + 16], err[256] = "";
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    assert_int_equal(mkdir(dir, 0700), 0);
    if (res_summary_write_files_vm(sum, dir, fn, ctx, err, sizeof err) != 0)
        fail_msg("%s", err);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    return orch_slurp(path);
}

/* The summary a lazy telemetry writes (each VM's disk and per-transaction
 * series built by the hook as it is written) is byte for byte the eager
 * one's, per-transaction series included. */
/* text with each value of key ("\"fs_avail_bytes\":") made "X": the
 * host's free space, read by each of two runs at its own time while other
 * work writes to the same file system */
static void blank_value(char *text, const char *key)
{
    for (char *k = text; (k = strstr(k, key)); ) {
        char *v = k + strlen(key), *end = v + strcspn(v, ",\n}");
        *v = 'X';
        memmove(v + 1, end, strlen(end) + 1);
        k = v + 1;
    }
}

static void test_lazy_summary(void **state)
{
    tel_fixture ex, lx;
    res_summary es, ls;
    char *e, *l;
    (void)state;

    lazy_run(&ex, &es, 0);
    lazy_run(&lx, &ls, 1);
    e = summary_text(&es, "eager", NULL, NULL);
    l = summary_text(&ls, "lazy", orch_telemetry_vm_each, lx.t);
    assert_non_null(e);
    assert_non_null(l);
    blank_value(e, "\"fs_avail_bytes\":");
    blank_value(l, "\"fs_avail_bytes\":");
    blank_value(e, "\"fs_used_pct\":");
    blank_value(l, "\"fs_used_pct\":");
    if (strcmp(l, e) != 0) {
        /* where they part (cmocka cuts a long string) */
        size_t k = 0;
        while (l[k] && l[k] == e[k])
            k++;
        fail_msg("the lazy summary differs at byte %zu:\n  eager: ...%.300s\n  lazy:  ...%.300s",
                 k, e + (k > 200 ? k - 200 : 0), l + (k > 200 ? k - 200 : 0));
    }
    /* the rows are there, in the lazy one too: interval 2 of vm-a */
    assert_non_null(strstr(l, "\"per_txn\""));
    assert_non_null(strstr(l, "{\"t\":2,\"tps\":12,"));
    assert_null(ls.vms[0].io->txn->series);
    free(e);
    free(l);
    tel_close(&ex, &es);
    tel_close(&lx, &ls);
}

/* A spool that cannot be written (a full disk): the first failed sample
 * is said at once, each VM's failed samples at the phase's end, and the
 * error stays for the run to fail with; nothing is measured silently. */
static void test_spool_full(void **state)
{
    tel_fixture x;
    orch_telemetry *t;
    char err[256] = "", log[4096];
    int fd = open("/dev/full", O_RDWR | O_CLOEXEC);
    size_t n;
    (void)state;

    assert_true(fd >= 0);
    t = tel_open(&x, 1, 1, NULL);
    assert_int_equal(orch_telemetry_spool_error(t, err, sizeof err), 0);
    orch_telemetry_spool_use(t, orch_spool_of_fd(fd, "/dev/full"));
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, NULL), 0);
    measure_rep(t, 1, 100, NULL, NULL);
    assert_int_equal(orch_telemetry_spool_error(t, err, sizeof err), 1);
    assert_string_equal(err, "cannot write /dev/full: No space left on device");
    rewind(x.log);
    n = fread(log, 1, sizeof log - 1, x.log);
    log[n] = '\0';
    assert_string_equal(log,
        "drivebench: a: device latency not traced: sysfs is not /sys (a test's tree) "
        "([run] device_latency = auto); the run goes on\n"
        "drivebench: error: cannot write /dev/full: No space left on device: block "
        "statistics are lost from now on; the run will fail\n"
        "drivebench: vm-a: 10 block-statistics sample(s) failed (last: cannot write "
        "/dev/full: No space left on device)\n");
    orch_telemetry_free(t);
    fclose(x.log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_wiring),
        cmocka_unit_test(test_tick_hook),
        cmocka_unit_test(test_warmup_left_out),
        cmocka_unit_test(test_repetitions),
        cmocka_unit_test(test_comparable),
        cmocka_unit_test(test_identical_no_verdict),
        cmocka_unit_test(test_failed_repetition_welch),
        cmocka_unit_test(test_missing_bin),
        cmocka_unit_test(test_missing_times),
        cmocka_unit_test(test_cpu_busy),
        cmocka_unit_test(test_measured_window),
        cmocka_unit_test(test_cpu_step_swap),
        cmocka_unit_test(test_time_bins),
        cmocka_unit_test(test_time_bins_refused),
        cmocka_unit_test(test_guest_view),
        /* the same with the samples spooled to disk */
#define SPOOLED(t) cmocka_unit_test_setup_teardown(t, spool_on, spool_off)
        SPOOLED(test_run_wiring),
        SPOOLED(test_tick_hook),
        SPOOLED(test_warmup_left_out),
        SPOOLED(test_repetitions),
        SPOOLED(test_comparable),
        SPOOLED(test_failed_repetition_welch),
        SPOOLED(test_missing_bin),
        SPOOLED(test_missing_times),
        SPOOLED(test_cpu_busy),
        SPOOLED(test_measured_window),
        SPOOLED(test_time_bins),
        SPOOLED(test_guest_view),
        cmocka_unit_test(test_spool_full),
        cmocka_unit_test(test_lazy_series),
        cmocka_unit_test(test_lazy_summary),
        cmocka_unit_test(test_settings_not_comparable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
