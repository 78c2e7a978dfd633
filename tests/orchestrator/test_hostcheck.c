/* test_hostcheck.c — the host check (run/hostcheck.h) on fixture trees of
 * real files under a root prefix: a tuned host (every finding ok), an
 * untuned one (every warn with its fix, three refusals, one ignored), a
 * drive without SMART tools or block device, and the summary's JSON of
 * the findings, read back. Every line compared whole. The domains come
 * from libvirt's test:///default (one running domain, "test"). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "run/run.h"
#include "testlib.h"

static char root[64];

/* Write text to ROOT/rel, making its folders. */
static void put(const char *rel, const char *text)
{
    char p[PATH_MAX];
    FILE *f;
    snprintf(p, sizeof p, "%s%s", root, rel);
    *strrchr(p, '/') = '\0';
    orch_mkdirs(p);
    snprintf(p, sizeof p, "%s%s", root, rel);
    f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* ROOT/sys/dev/block/MAJ:MIN -> the disk's folder, as the kernel links it. */
static void blockdev(const char *devno, const char *disk)
{
    char p[PATH_MAX], target[128];
    snprintf(p, sizeof p, "%s/sys/block/%s", root, disk);
    orch_mkdirs(p);
    snprintf(p, sizeof p, "%s/sys/dev/block", root);
    orch_mkdirs(p);
    snprintf(p, sizeof p, "%s/sys/dev/block/%s", root, devno);
    snprintf(target, sizeof target, "../../block/%s", disk);
    assert_int_equal(symlink(target, p), 0);
}

/* Every drive's file system is on device 8:0 (the fixture's sda), or on
 * 0:40 (no block device) when ctx says so. */
static int fake_devno(void *ctx, const char *path, unsigned *maj, unsigned *min)
{
    (void)path;
    *maj = ctx ? 0 : 8;
    *min = ctx ? 40 : 0;
    return 0;
}

/* smartctl answering with the JSON in ctx (NULL: not installed). */
static char *fake_smartctl(void *ctx, const char *const argv[], int *status)
{
    *status = 0;
    if (!ctx || strcmp(argv[0], "smartctl") != 0)
        return NULL;
    return strdup(ctx);
}

static const char smart_ata_cool[] =
    "{\"model_name\":\"Samsung SSD 870 EVO 1TB\",\"firmware_version\":\"SVT02B6Q\","
    "\"temperature\":{\"current\":33,\"op_limit_max\":70}}";
static const char smart_nvme_hot[] =
    "{\"model_name\":\"WDC WDS100T2B0C\",\"firmware_version\":\"211070WD\","
    "\"temperature\":{\"current\":76},"
    "\"nvme_smart_health_information_log\":{\"critical_warning\":2,\"temperature\":76}}";

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/orch-hc-XXXXXX");
    assert_non_null(mkdtemp(root));
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    return 0;
}

/* The plan: two VMs of 1 GiB on drive d1 at ROOT/srv/db, with the
 * [run] keys of extra. */
static orch_plan *plan(const char *extra)
{
    char path[PATH_MAX];
    FILE *f;
    orch_plan *p;
    snprintf(path, sizeof path, "%s/plan.ini", root);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "[run]\nname = hc\nprofile = tiny\nuri = test:///default\nmemory = 1G\n"
               "vms_per_drive = 2\n%s"
               "[workload]\nname = oltp_read_write\ntables = 1\ntable_size = 100\n"
               "measure = 10s\n"
               "[drive d1]\npath = %s/srv/db\n", extra, root);
    fclose(f);
    p = orch_plan_load(path, stderr);
    assert_non_null(p);
    return p;
}

/* The check of plan() with opts, printed; its return value in *refused. */
static char *check_plan(const char *extra, orch_hc_opts *o, int *refused,
                        res_hc_finding **out, int *n)
{
    orch_plan *p = plan(extra);
    orch_template *t;
    orch_conns *conns = orch_conns_new();
    char err[256], *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    t = orch_template_load(p->template_path, err, sizeof err);
    assert_non_null(t);
    *refused = orch_host_check(conns, p, t, o, out, n, err, sizeof err);
    orch_hc_print(*out, *n, mem);
    fclose(mem);
    orch_template_free(t);
    orch_conns_free(conns);
    orch_plan_free(p);
    return text;
}

static char *check(orch_hc_opts *o, int *refused, res_hc_finding **out, int *n)
{
    return check_plan("", o, refused, out, n);
}

/* ROOT in text replaced by "ROOT" (the fixture's folder is random). */
static char *rooted(char *text)
{
    size_t rl = strlen(root);
    for (char *s = strstr(text, root); s; s = strstr(s, root)) {
        memcpy(s, "ROOT", 4);
        memmove(s + 4, s + rl, strlen(s + rl) + 1);
    }
    return text;
}

static void test_tuned(void **state)
{
    orch_hc_opts o = { .root = root, .cmd = fake_smartctl, .cmd_ctx = (void *)smart_ata_cool,
                       .devno = fake_devno, .run_prefix = "te" };
    res_hc_finding *f;
    int n, refused;
    char *text;
    (void)state;
    put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
    put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
    put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
    put("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
    put("/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
    put("/proc/sys/vm/swappiness", "60\n");
    put("/sys/kernel/mm/ksm/run", "0\n");
    put("/proc/meminfo", "MemTotal:       16384000 kB\nMemFree:  100 kB\n"
                         "MemAvailable:    8388608 kB\n");
    blockdev("8:0", "sda");
    put("/sys/block/sda/queue/write_cache", "write back\n");
    put("/sys/block/sda/device/model", "Samsung SSD 870 EVO 1TB\n");
    put("/sys/block/sda/device/rev", "SVT02B6Q\n");
    put("/proc/self/mountinfo",
        "22 1 0:21 / /sys rw,relatime - sysfs sysfs rw\n"
        "26 1 8:0 / / rw,relatime - ext4 /dev/sda rw,errors=remount-ro\n");
    text = rooted(check(&o, &refused, &f, &n));
    assert_string_equal(text,
        "ok      governor: performance: all 2 CPU(s) run the performance governor\n"
        "ok      turbo: off: intel_pstate: turbo is off (no_turbo 1)\n"
        "ok      thp: never: transparent huge pages: never (QEMU still asks for them for guest memory)\n"
        "ok      swap: off: no swap: guest memory stays in RAM\n"
        "ok      ksm: off: KSM does not merge pages (run 0)\n"
        "ok      memory: 8 GiB available, 2.2 GiB needed: 8 GiB available covers this host's 2 VM(s): 2.2 GiB (guest memory + 100 MiB for QEMU each)\n"
        "ok      domains: none: no other running domain on the plan's 1 host(s)\n"
        "ok      drive-identity [d1]: Samsung SSD 870 EVO 1TB, firmware SVT02B6Q: ROOT/srv/db on sda: whole disk sda\n"
        "ok      drive-cache [d1]: write back: sda has a volatile write cache: the kernel sends it flushes, and a commit waits for them\n"
        "ok      drive-temperature [d1]: 33 C: sda is at 33 C, limit 70 C, not throttling (smartctl)\n"
        "ok      drive-mount [d1]: ext4 rw,errors=remount-ro: ext4 on /dev/sda at /: rw,relatime; rw,errors=remount-ro\n");
    assert_int_equal(refused, 0);
    assert_int_equal(n, 11);
    free(text);
    orch_hc_free(f, n);
}

static void test_untuned(void **state)
{
    const char *ignore[] = { "drive-mount", NULL };
    orch_hc_opts o = { .root = root, .cmd = fake_smartctl, .cmd_ctx = (void *)smart_nvme_hot,
                       .devno = fake_devno, .ignore = ignore };
    res_hc_finding *f;
    int n, refused;
    char *text, mounts[512];
    (void)state;
    put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
    put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
    put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "schedutil\n");
    put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
    put("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
    put("/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
                       "/dev/sdb2                               partition\t4194300\t\t0\t\t-2\n");
    put("/proc/sys/vm/swappiness", "60\n");
    put("/sys/kernel/mm/ksm/run", "1\n");
    put("/proc/meminfo", "MemTotal:       2048000 kB\nMemAvailable:     524288 kB\n");
    blockdev("8:0", "nvme0n1");
    put("/sys/block/nvme0n1/queue/write_cache", "write through\n");
    /* the drive's path is under the bind mount at ROOT/srv */
    snprintf(mounts, sizeof mounts,
             "26 1 8:0 / / rw,relatime - ext4 /dev/nvme0n1 rw\n"
             "27 26 8:0 /srv %s/srv rw,noatime - ext4 /dev/nvme0n1 rw,nobarrier\n", root);
    put("/proc/self/mountinfo", mounts);
    text = rooted(check(&o, &refused, &f, &n));
    assert_string_equal(text,
        "warn    governor: powersave: 2 of 3 CPU(s) run powersave, schedutil, not performance: the CPU clocks down between a drive's requests and the figures vary with it\n"
        "        fix: cpupower frequency-set -g performance\n"
        "warn    turbo: on: cpufreq: turbo is on (boost 1): the clock follows temperature and load, so runs differ by the room's temperature\n"
        "        fix: echo 0 > /sys/devices/system/cpu/cpufreq/boost\n"
        "warn    thp: always: transparent huge pages: always: khugepaged compacts every process's memory, and its stalls land in the measured phase at random; madvise keeps them for guest memory (QEMU asks for them)\n"
        "        fix: echo madvise > /sys/kernel/mm/transparent_hugepage/enabled\n"
        "warn    swap: on: 1 device(s), 4095 MiB, swappiness 60: swap is on with swappiness 60: the kernel may swap guest memory out (the database's buffer pool) while the page cache holds the drive's files\n"
        "        fix: swapoff -a   (or: sysctl vm.swappiness=1)\n"
        "warn    ksm: on: KSM merges identical pages (run 1): ksmd scans guest memory on the host's CPUs and a guest's first write to a merged page is a copy\n"
        "        fix: echo 2 > /sys/kernel/mm/ksm/run\n"
        "refuse  memory: 512 MiB available, 2.2 GiB needed: only 512 MiB available for this host's 2 VM(s), which need 2.2 GiB (guest memory + 100 MiB for QEMU each): the host would swap or kill guests mid-run; stop what holds the memory, or fewer VMs or a smaller [run] memory\n"
        "warn    domains: 1 running: test:///default runs 1 other domain(s): test; they share its CPUs, memory and perhaps the drives\n"
        "        fix: virsh -c test:///default shutdown test\n"
        "ok      drive-identity [d1]: WDC WDS100T2B0C, firmware 211070WD: ROOT/srv/db on nvme0n1: whole disk nvme0n1\n"
        "ok      drive-cache [d1]: write through: nvme0n1: write through: the kernel sends no flushes (no volatile cache, or the drive's cache is protected against power loss)\n"
        "refuse  drive-temperature [d1]: 76 C, throttling: nvme0n1 is at 76 C, over its limit (critical warning) (smartctl): it slows itself down, and a run measures its cooling\n"
        "refuse  drive-mount [d1]: ext4 rw,nobarrier: ROOT/srv (ext4 on /dev/nvme0n1) is mounted without write barriers: the file system sends the drive no flushes, so a commit's fsync measures its cache, not the drive (ignored: --ignore-host-check)\n"
        "        fix: mount -o remount,barrier ROOT/srv\n");
    /* memory and drive-temperature; drive-mount is ignored */
    assert_int_equal(refused, 2);
    assert_int_equal(n, 11);
    assert_int_equal(f[10].status, RES_HC_REFUSE);
    assert_true(f[10].ignored);
    assert_false(f[5].ignored);
    free(text);
    orch_hc_free(f, n);

    /* [run] overcommit = yes: the memory is a warning, as in capacity.h */
    text = check_plan("overcommit = yes\n", &o, &refused, &f, &n);
    assert_non_null(strstr(text, "\nwarn    memory: 512 MiB available, 2.2 GiB needed: only 512 MiB "
                                 "available for this host's 2 VM(s), which need 2.2 GiB (guest "
                                 "memory + 100 MiB for QEMU each): the host would swap or kill "
                                 "guests mid-run; [run] overcommit = yes: running them anyway\n"));
    assert_int_equal(refused, 1);
    free(text);
    orch_hc_free(f, n);
}

/* Another drivebench run's domain beside the plain one: its fix is that
 * run's teardown (test:///default is one state for the process). */
static void test_other_run(void **state)
{
    orch_hc_opts o = { .root = root, .devno = fake_devno, .devno_ctx = (void *)1 };
    virConnectPtr c = virConnectOpen("test:///default");
    virDomainPtr dom;
    res_hc_finding *f;
    int n, refused;
    char *text;
    (void)state;
    assert_non_null(c);
    dom = virDomainCreateXML(c, "<domain type='test'><name>drivebench-other-20261130-000000--d-vm1"
                                "</name><memory>65536</memory><os><type>hvm</type></os></domain>",
                             0);
    assert_non_null(dom);
    text = check(&o, &refused, &f, &n);
    assert_non_null(strstr(text, "\nwarn    domains: 2 running: test:///default runs 2 other "
                                 "domain(s): drivebench-other-20261130-000000--d-vm1, test; they "
                                 "share its CPUs, memory and perhaps the drives\n"
                                 "        fix: wait for drivebench run other-20261130-000000 to "
                                 "end, or: drivebench teardown other-20261130-000000; virsh -c "
                                 "test:///default shutdown test\n"));
    free(text);
    orch_hc_free(f, n);
    assert_int_equal(virDomainDestroy(dom), 0);
    virDomainFree(dom);
    virConnectClose(c);
}

static void test_no_tools(void **state)
{
    orch_hc_opts o = { .root = root, .cmd = fake_smartctl, .devno = fake_devno };
    res_hc_finding *f;
    int n, refused;
    char *text, *line;
    (void)state;
    blockdev("8:0", "sda");
    text = rooted(check(&o, &refused, &f, &n));
    /* nothing of the host readable: every host finding ok "unknown" or
     * "none", memory a warning; the drive: no mountinfo, no smartctl */
    line = strstr(text, "warn    drive-temperature");
    assert_non_null(line);
    assert_string_equal(line,
        "warn    drive-temperature [d1]: unavailable: sda: temperature and throttling unknown: smartctl is not installed (smartmontools)\n"
        "        fix: apt-get install smartmontools\n"
        "warn    drive-mount [d1]: unknown: ROOT/srv/db: no mount of device 8:0 in /proc/self/mountinfo\n");
    assert_non_null(strstr(text, "warn    memory: unknown: cannot read MemAvailable in /proc/meminfo: this host's 2 VM(s) need 2.2 GiB\n"));
    assert_non_null(strstr(text, "ok      thp: unknown: no /sys/kernel/mm/transparent_hugepage: a kernel without transparent huge pages\n"));
    assert_int_equal(refused, 0);
    free(text);
    orch_hc_free(f, n);

    /* a file system on no block device (tmpfs): no identity, no SMART */
    o.devno_ctx = (void *)1;
    put("/proc/self/mountinfo", "40 1 0:40 / / rw - tmpfs tmpfs rw,size=1g\n");
    text = rooted(check(&o, &refused, &f, &n));
    line = strstr(text, "ok      drive-identity");
    assert_non_null(line);
    assert_string_equal(line,
        "ok      drive-identity [d1]: no block device: ROOT/srv/db: no block device (device 0:40 is anonymous: tmpfs, overlay, NFS, ...); no host I/O statistics, identity or SMART\n"
        "ok      drive-mount [d1]: tmpfs rw,size=1g: tmpfs on tmpfs at /: rw; rw,size=1g\n");
    free(text);
    orch_hc_free(f, n);
}

/* The findings in summary.json's environment: written and read back. */
static void test_json(void **state)
{
    res_hc_finding *in = calloc(2, sizeof *in);
    assert_non_null(in);
    in[0] = (res_hc_finding){ .check = strdup("thp"), .status = RES_HC_WARN,
        .value = strdup("always"), .message = strdup("m1"),
        .fix = strdup("echo madvise > /sys/kernel/mm/transparent_hugepage/enabled") };
    in[1] = (res_hc_finding){ .check = strdup("drive-mount"), .drive = strdup("d1"),
        .status = RES_HC_REFUSE, .value = strdup("ext4 rw,nobarrier"), .message = strdup("m2"),
        .ignored = true };
    res_summary s, back;
    json_object *j, *hcj;
    char path[PATH_MAX], err[256];
    (void)state;
    memset(&s, 0, sizeof s);
    res_plan_init(&s.plan);
    res_env_init(&s.env);
    char run_id[] = "hc";
    s.run_id = run_id;
    s.env.host_check = in;
    s.env.nhost_check = 2;
    j = res_summary_to_json(&s);
    assert_true(json_object_object_get_ex(json_object_object_get(j, "environment"),
                                          "host_check", &hcj));
    assert_string_equal(json_object_to_json_string_ext(hcj, JSON_C_TO_STRING_PLAIN
                                                             | JSON_C_TO_STRING_NOSLASHESCAPE),
        "[{\"check\":\"thp\",\"status\":\"warn\",\"value\":\"always\",\"message\":\"m1\","
        "\"fix\":\"echo madvise > /sys/kernel/mm/transparent_hugepage/enabled\","
        "\"ignored\":false},"
        "{\"check\":\"drive-mount\",\"drive\":\"d1\",\"status\":\"refuse\","
        "\"value\":\"ext4 rw,nobarrier\",\"message\":\"m2\",\"ignored\":true}]");
    snprintf(path, sizeof path, "%s/summary.json", root);
    json_object_object_add(j, "drives", json_object_new_array());
    json_object_object_add(j, "vms", json_object_new_array());
    assert_int_equal(json_object_to_file(path, j), 0);
    json_object_put(j);
    orch_hc_free(in, 2);
    assert_int_equal(res_summary_read_file(path, &back, err, sizeof err), 0);
    assert_int_equal(back.env.nhost_check, 2);
    assert_string_equal(back.env.host_check[0].check, "thp");
    assert_null(back.env.host_check[0].drive);
    assert_int_equal(back.env.host_check[0].status, RES_HC_WARN);
    assert_string_equal(back.env.host_check[0].fix,
                        "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled");
    assert_string_equal(back.env.host_check[1].drive, "d1");
    assert_int_equal(back.env.host_check[1].status, RES_HC_REFUSE);
    assert_true(back.env.host_check[1].ignored);
    assert_null(back.env.host_check[1].fix);
    res_summary_clear(&back);
}

static void test_names(void **state)
{
    (void)state;
    assert_true(orch_hc_check_known("drive-temperature"));
    assert_false(orch_hc_check_known("drive"));
    assert_string_equal(orch_hc_check_list(),
                        "governor, turbo, thp, swap, ksm, memory, domains, drive-identity, "
                        "drive-cache, drive-temperature, drive-mount");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tuned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_untuned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_tools, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_json, setup, teardown),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
