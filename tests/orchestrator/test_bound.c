/* test_bound.c — what bounded a drive's figures (issue 45 item 4): each
 * verdict of orch_bound_judge from planted figures, with its exact
 * evidence; the QEMU threads by role from a planted /proc (a process
 * named like libvirt's, its main loop, two vCPUs, an I/O thread and a
 * worker), sampled by the telemetry on ticks given by hand, into the
 * summary's VM and the drive's verdict, and through JSON and back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results_json.h"
#include "telemetry/telemetry.h"
#include "testlib.h"

static void near(double a, double b)
{
    if (!(fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1)))
        fail_msg("%.12g != %.12g", a, b);
}

/* A VM's QEMU figures: vCPU mean, main loop, I/O threads. */
static res_io_qemu q(double vcpu, double main_loop, double io)
{
    return (res_io_qemu){ .vcpus = 2, .vcpu_pct = vcpu, .vcpu_max_pct = vcpu,
                          .main_pct = main_loop, .io_pct = io, .other_pct = 1, .seconds = 60 };
}

/* Judge a drive of two VMs (vm-1 with q1 and client c1, vm-2 with q2, c2). */
static void judge(orch_bound_in in, res_io_qemu q1, double c1, res_io_qemu q2, double c2,
                  res_bound_verdict want, const char *vm, const char *evidence)
{
    orch_bound_vm vms[2] = { { "vm-1", &q1, c1 }, { "vm-2", &q2, c2 } };
    res_io_bound b = { 0 };
    in.vms = vms;
    in.nvms = 2;
    assert_int_equal(orch_bound_judge(&in, &b), 0);
    assert_string_equal(res_bound_verdict_name(b.verdict), res_bound_verdict_name(want));
    assert_string_equal(b.evidence, evidence);
    if (vm)
        assert_string_equal(b.vm, vm);
    else
        assert_null(b.vm);
    free(b.evidence);
    free(b.vm);
}

static void test_verdicts(void **state)
{
    orch_bound_in idle = { .host_cpu_pct = 40, .util_pct = 30, .queue_depth = 0.5,
                           .user_net = true };
    orch_bound_in in;
    res_io_qemu calm = q(20, 10, 5);
    (void)state;

    in = idle;
    in.tcg = true;
    judge(in, calm, 5, calm, 5, RES_BOUND_HOST_CPU, NULL,
          "the VMs ran under TCG: every guest instruction is emulated on the host's CPUs "
          "(host CPU 40.0 % busy)");
    in.host_cpu_pct = NAN;
    judge(in, calm, 5, calm, 5, RES_BOUND_HOST_CPU, NULL,
          "the VMs ran under TCG: every guest instruction is emulated on the host's CPUs "
          "(host CPU not measured)");
    in = idle;
    in.host_cpu_pct = 93.25;
    in.util_pct = 99;               /* the host comes first */
    judge(in, calm, 5, calm, 5, RES_BOUND_HOST_CPU, NULL, "host CPU 93.2 % busy >= 90 %");
    judge(idle, calm, 5, q(20, 10, 91), 5, RES_BOUND_HOST_CPU, "vm-2",
          "vm-2: QEMU I/O thread(s) 91.0 % of one CPU >= 90 %");
    judge(idle, q(95, 97.5, 5), 5, calm, 5, RES_BOUND_NETWORK, "vm-1",
          "vm-1: QEMU main loop (user-mode network) 97.5 % of one CPU >= 90 %");
    /* the same main loop without the user-mode network (passt, a guest
     * client) is no network path: the busy vCPUs decide */
    in = idle;
    in.user_net = false;
    judge(in, q(95, 97.5, 5), 5, calm, 5, RES_BOUND_GUEST_CPU, "vm-1",
          "vm-1: vCPU threads 95.0 % busy on average >= 90 %");
    judge(idle, calm, 5, q(89.9, 10, 5), 92, RES_BOUND_CLIENT, "vm-2",
          "vm-2: oltp used 92.0 % of its event threads' CPU >= 90 %");
    in = idle;
    in.util_pct = 96;
    in.queue_depth = 7.5;
    judge(in, calm, 5, calm, 5, RES_BOUND_DRIVE, NULL,
          "device 96.0 % utilised >= 90 % (queue 7.50), nothing else at its limit");
    judge(idle, calm, 5, calm, 5, RES_BOUND_UNDETERMINED, NULL,
          "nothing at its limit: host CPU 40.0 %; device utilisation 30.0 %; vCPU threads "
          "20.0 %; QEMU main loop 10.0 %; oltp 5.0 %");
    in = idle;
    in.util_pct = NAN;
    in.queue_depth = NAN;
    judge(in, calm, NAN, calm, NAN, RES_BOUND_UNDETERMINED, NULL,
          "nothing at its limit: host CPU 40.0 %; device utilisation not measured; vCPU "
          "threads 20.0 %; QEMU main loop 10.0 %; oltp not measured");
}

static void test_helpers(void **state)
{
    (void)state;
    assert_int_equal(orch_bound_thread_role("qemu-system-x86", 1), ORCH_QT_MAIN);
    assert_int_equal(orch_bound_thread_role("CPU 0/KVM", 0), ORCH_QT_VCPU);
    assert_int_equal(orch_bound_thread_role("CPU 15/TCG", 0), ORCH_QT_VCPU);
    assert_int_equal(orch_bound_thread_role("ALL CPUs/TCG", 0), ORCH_QT_VCPU);
    assert_int_equal(orch_bound_thread_role("IO iothread1", 0), ORCH_QT_IO);
    assert_int_equal(orch_bound_thread_role("IO mon_iothread", 0), ORCH_QT_OTHER);
    assert_int_equal(orch_bound_thread_role("worker", 0), ORCH_QT_OTHER);
    assert_true(orch_bound_stat_ticks("7 (CPU 0/KVM) S 1 7 7 0 -1 4194368 10 0 0 0 "
                                      "1234 56 0 0 20 0 1 0 100 0 0") == 1290);
    assert_true(orch_bound_stat_ticks("7 (a) b) R 1 7 7 0 -1 0 0 0 0 0 5 6 0") == 11);
    assert_true(orch_bound_stat_ticks("7 (x) R 1") == -1);
    assert_true(orch_bound_stat_ticks(NULL) == -1);
    assert_int_equal(orch_bound_client_threads(32, false, 2), 2);
    assert_int_equal(orch_bound_client_threads(1, false, 8), 1);
    assert_int_equal(orch_bound_client_threads(600, true, 8), 3);
}

/* ------------------------------------------------------------------ */
/* planted /proc through the telemetry                                 */

static char root[64], proc[128], proc_stat[128];

static void write_file(const char *path, const void *text, size_t len)
{
    char dir[PATH_MAX];
    FILE *f;
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(dir, 0755);
            *s = '/';
        }
    assert_non_null(f = fopen(path, "w"));
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

static const struct { int tid; const char *comm; } threads[] = {
    { 4242, "qemu-system-x86" }, { 4243, "CPU 0/KVM" }, { 4244, "CPU 1/KVM" },
    { 4245, "IO iothread1" }, { 4246, "call_rcu" },
};

/* The planted threads at second s: each uses its share of a CPU a second
 * (main loop 95 %, vCPUs 40 % and 60 %, I/O thread 10 %, worker 2 %). */
static void plant(long s)
{
    static const int pct[] = { 95, 40, 60, 10, 2 };
    long hz = sysconf(_SC_CLK_TCK);
    char path[PATH_MAX], text[256];
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        long ticks = 1000 + s * pct[i] * hz / 100;
        snprintf(path, sizeof path, "%s/4242/task/%d/comm", proc, threads[i].tid);
        snprintf(text, sizeof text, "%s\n", threads[i].comm);
        write_file(path, text, strlen(text));
        snprintf(path, sizeof path, "%s/4242/task/%d/stat", proc, threads[i].tid);
        snprintf(text, sizeof text, "%d (%s) S 1 4242 4242 0 -1 0 0 0 0 0 %ld %ld 0 0 20 0\n",
                 threads[i].tid, threads[i].comm, ticks / 2, ticks - ticks / 2);
        write_file(path, text, strlen(text));
    }
    /* the host: 50 of 100 jiffies busy a second */
    snprintf(text, sizeof text, "cpu  %ld 0 %ld %ld 0 0 0 0 0 0\ncpu0 1 2 3 4\ncpu1 1 2 3 4\n",
             100 + 25 * s, 100 + 25 * s, 800 + 50 * s);
    write_file(proc_stat, text, strlen(text));
}

static int setup(void **state)
{
    static const char cmd[] = "/usr/bin/qemu-system-x86_64\0-name\0guest=vm-a,debug-threads=on"
                              "\0-S";
    static const char other[] = "/usr/bin/qemu-system-x86_64\0-name\0guest=vm-ab,debug-threads"
                                "=on";
    char path[PATH_MAX];
    (void)state;
    snprintf(root, sizeof root, "/tmp/orch-bound-XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(proc, sizeof proc, "%s/proc", root);
    snprintf(proc_stat, sizeof proc_stat, "%s/proc/stat", root);
    /* a VM whose name starts like it, then the one */
    snprintf(path, sizeof path, "%s/17/cmdline", proc);
    write_file(path, other, sizeof other);
    snprintf(path, sizeof path, "%s/4242/cmdline", proc);
    write_file(path, cmd, sizeof cmd);
    plant(0);
    return 0;
}

static int teardown(void **state)
{
    char cmd[256];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* The block statistics of no disk (this test samples threads only). */
static int no_domstats(void *ctx, virDomainPtr dom, virTypedParameterPtr *params, int *nparams,
                       char *err, size_t errlen)
{
    (void)ctx;
    (void)dom;
    *params = NULL;
    *nparams = 0;
    return 0;
}

/* What the tick hook saw last (the live view's input). */
typedef struct seen {
    int            ticks, has_qemu, has_bound, has_host_cpu;
    double         host_cpu_pct;
    res_io_qemu    qemu;
    res_bound_verdict bound;
} seen;

static void on_tick(void *ctx, const orch_tel_now *now)
{
    seen *s = ctx;
    s->ticks++;
    s->has_qemu = now->nvms == 1 && now->vms[0].has_qemu;
    s->qemu = now->vms[0].qemu;
    s->has_bound = now->drives[0].has_bound;
    s->bound = now->drives[0].bound;
    s->has_host_cpu = now->has_host_cpu;
    s->host_cpu_pct = now->host_cpu_pct;
}

static void test_planted_proc(void **state)
{
    orch_drive drive = { .name = (char *)"a", .path = root, .uri = (char *)"test:///default" };
    orch_plan plan = { .uri = (char *)"test:///default", .drives = &drive, .ndrives = 1,
                       .repetitions = 1 };
    char sysfs[160];
    orch_tel_seams seams = { .domstats = no_domstats, .sysfs = sysfs, .proc_stat = proc_stat, .proc = proc,
                             .no_timer = 1 };
    res_hypervisor hv = { .domain_type = (char *)"kvm" };
    res_summary sum = { 0 };
    FILE *log = tmpfile();
    orch_telemetry *t;
    json_object *o;
    res_io *back = NULL;
    seen last = { 0 };
    (void)state;

    snprintf(sysfs, sizeof sysfs, "%s/sys", root);
    assert_non_null(t = orch_telemetry_new(&plan, NULL, log, &seams));
    assert_int_equal(orch_telemetry_add_vm(t, 0, "vm-a", 0, 1, NULL, NULL, NULL, NULL), 0);
    orch_telemetry_on_tick(t, on_tick, &last);
    orch_telemetry_phase_start_at(t, RES_PHASE_MEASURE, 0, 100);
    for (long s = 1; s <= 10; s++) {
        plant(s);
        orch_telemetry_tick_at(t, 100 + s);
    }
    /* the live view's last interval, 109 .. 110: the main loop at 95 %
     * over the user-mode network (the plan's defaults: client = host,
     * network = user) */
    assert_int_equal(last.ticks, 10);
    assert_true(last.has_qemu);
    near(last.qemu.main_pct, 95);
    near(last.qemu.vcpu_max_pct, 60);
    near(last.qemu.seconds, 1);
    assert_true(last.has_bound);
    assert_int_equal(last.bound, RES_BOUND_NETWORK);
    assert_true(last.has_host_cpu);
    near(last.host_cpu_pct, 50);
    /* oltp measured 102 .. 108: the rows at 102 and 108 */
    orch_telemetry_vm_window(t, "vm-a", 1, 102, 108);
    orch_telemetry_phase_end_at(t, RES_PHASE_MEASURE, 1, 110);

    sum.ndrives = 1;
    sum.drives = calloc(1, sizeof *sum.drives);
    sum.drives[0].name = strdup("a");
    sum.nvms = 1;
    sum.vms = calloc(1, sizeof *sum.vms);
    sum.vms[0].name = strdup("vm-a");
    sum.vms[0].drive = strdup("a");
    sum.vms[0].repetition = 1;
    sum.vms[0].measured = true;
    sum.vms[0].tps = 500;
    sum.plan.client = strdup("host");
    sum.plan.client_path = strdup(RES_PATH_USER_HOSTFWD);
    sum.plan.threads = 8;
    sum.plan.rate = 0;
    sum.env.hypervisors = &hv;
    sum.env.nhypervisors = 1;
    assert_int_equal(orch_telemetry_fill(t, &sum, root), 0);

    res_io_qemu *vq = sum.vms[0].io->qemu;
    assert_non_null(vq);
    assert_int_equal(vq->vcpus, 2);
    near(vq->seconds, 6);
    near(vq->main_pct, 95);
    near(vq->vcpu_pct, 50);
    near(vq->vcpu_max_pct, 60);
    near(vq->io_pct, 10);
    near(vq->other_pct, 2);
    res_io_bound *b = sum.drives[0].io->bound;
    assert_non_null(b);
    assert_int_equal(b->verdict, RES_BOUND_NETWORK);
    assert_string_equal(b->vm, "vm-a");
    assert_string_equal(b->evidence,
                        "vm-a: QEMU main loop (user-mode network) 95.0 % of one CPU >= 90 %");
    assert_false(b->tcg);
    near(b->host_cpu_pct, 50);
    near(b->main_loop_pct, 95);
    near(b->guest_cpu_pct, 50);
    near(b->io_thread_pct, 10);
    assert_true(isnan(b->client_cpu_pct));      /* no oltp CPU recorded */
    assert_true(isnan(b->util_pct));            /* no host view of a planted sysfs */

    /* JSON and back */
    o = json_object_new_object();
    res_io_put(o, sum.drives[0].io);
    assert_string_equal(json_object_get_string(rj_get(rj_get(o, "bound"), "verdict")),
                        "network path");
    assert_int_equal(res_io_get(o, &back), 0);
    assert_int_equal(back->bound->verdict, RES_BOUND_NETWORK);
    assert_string_equal(back->bound->evidence, b->evidence);
    near(back->bound->main_loop_pct, 95);
    assert_true(isnan(back->bound->util_pct));
    res_io_free(back);
    json_object_put(o);
    o = json_object_new_object();
    res_io_put(o, sum.vms[0].io);
    near(rj_get_d(rj_get(o, "qemu_threads"), "vcpu_max_pct"), 60);
    json_object_put(o);

    sum.env.hypervisors = NULL;
    sum.env.nhypervisors = 0;
    res_summary_clear(&sum);
    orch_telemetry_free(t);
    fclose(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_helpers),
        cmocka_unit_test(test_planted_proc),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
