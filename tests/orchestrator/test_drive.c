/* test_drive.c — the host's view of a drive on a fake sysfs tree of real
 * files (whole disk, partition, device-mapper over a partition and an
 * NVMe namespace, md, no block device), /sys/block/<dev>/stat arithmetic
 * with exact values (17-, 15- and 11-field kernels, a 32-bit tick wrap, a
 * reset), identity, SMART from recorded smartctl / nvme-cli output, and
 * once against this machine's real /sys (and a tmpfs when root). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "telemetry/telemetry.h"
#include "testlib.h"

static void near(double a, double b)
{
    assert_true(fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1));
}

static char root[64];
static char sysfs[128];

/* Write text to <sysfs>/rel, making its folders. */
static void put(const char *rel, const char *text)
{
    char p[PATH_MAX + 256];
    snprintf(p, sizeof p, "%s/%s", sysfs, rel);
    char *slash = strrchr(p, '/');
    *slash = '\0';
    orch_mkdirs(p);
    *slash = '/';
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Symlink <sysfs>/rel -> target, making its folder. */
static void lnk(const char *rel, const char *target)
{
    char p[PATH_MAX + 256];
    snprintf(p, sizeof p, "%s/%s", sysfs, rel);
    char *slash = strrchr(p, '/');
    *slash = '\0';
    orch_mkdirs(p);
    *slash = '/';
    assert_int_equal(symlink(target, p), 0);
}

#define STAT_A "    1000       10    80000     2000      500        5    40000     3000        2     4000     9000       10        0     2048       20       50      100\n"
#define STAT_B "    1400       12    96000     2800      700        5    48000     4000        3     5500    12000       14        0     4096       28      150      200\n"

/* A machine with sda (SCSI SSD, partition sda1), nvme0n1 (partition
 * nvme0n1p1), dm-0 "vg-db" over sda1 and nvme0n1p1, dm-1 "crypt" over
 * dm-2 "vg-lv" over sda1 (stacked), md0 (raid1) over sda and nvme0n1. */
static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/orch-drive-XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(sysfs, sizeof sysfs, "%s/sys", root);
    put("devices/pci0/host0/block/sda/stat", STAT_A);
    put("devices/pci0/host0/block/sda/size", "1953525168\n");
    put("devices/pci0/host0/block/sda/queue/rotational", "0\n");
    put("devices/pci0/host0/block/sda/queue/scheduler", "[mq-deadline] kyber bfq none\n");
    put("devices/pci0/host0/block/sda/queue/write_cache", "write back\n");
    put("devices/pci0/host0/block/sda/device/model", "Samsung SSD 870 \n");
    put("devices/pci0/host0/block/sda/device/vendor", "ATA     \n");
    put("devices/pci0/host0/block/sda/device/rev", "2B6Q\n");
    put("devices/pci0/host0/block/sda/sda1/partition", "1\n");
    put("devices/pci0/host0/block/sda/sda1/stat", STAT_B);
    put("devices/pci1/nvme/nvme0/model", "WDC WDS100T2B0C\n");
    put("devices/pci1/nvme/nvme0/serial", "21185N800000\n");
    put("devices/pci1/nvme/nvme0/firmware_rev", "211070WD\n");
    put("devices/pci1/nvme/nvme0/nvme0n1/size", "1953525168\n");
    put("devices/pci1/nvme/nvme0/nvme0n1/stat", STAT_A);
    put("devices/pci1/nvme/nvme0/nvme0n1/queue/rotational", "0\n");
    put("devices/pci1/nvme/nvme0/nvme0n1/queue/scheduler", "[none] mq-deadline\n");
    put("devices/pci1/nvme/nvme0/nvme0n1/queue/write_cache", "write through\n");
    lnk("devices/pci1/nvme/nvme0/nvme0n1/device", "..");
    put("devices/pci1/nvme/nvme0/nvme0n1/nvme0n1p1/partition", "1\n");
    put("devices/virtual/block/dm-0/dm/name", "vg-db\n");
    put("devices/virtual/block/dm-0/stat", STAT_A);
    lnk("devices/virtual/block/dm-0/slaves/sda1", "../../../../pci0/host0/block/sda/sda1");
    lnk("devices/virtual/block/dm-0/slaves/nvme0n1p1",
        "../../../../pci1/nvme/nvme0/nvme0n1/nvme0n1p1");
    put("devices/virtual/block/dm-2/dm/name", "vg-lv\n");
    lnk("devices/virtual/block/dm-2/slaves/sda1", "../../../../pci0/host0/block/sda/sda1");
    put("devices/virtual/block/dm-1/dm/name", "crypt\n");
    lnk("devices/virtual/block/dm-1/slaves/dm-2", "../../dm-2");
    put("devices/virtual/block/md0/md/level", "raid1\n");
    lnk("devices/virtual/block/md0/slaves/sda", "../../../../pci0/host0/block/sda");
    lnk("devices/virtual/block/md0/slaves/nvme0n1", "../../../../pci1/nvme/nvme0/nvme0n1");
    lnk("block/sda", "../devices/pci0/host0/block/sda");
    lnk("block/nvme0n1", "../devices/pci1/nvme/nvme0/nvme0n1");
    lnk("block/dm-0", "../devices/virtual/block/dm-0");
    lnk("block/dm-1", "../devices/virtual/block/dm-1");
    lnk("block/md0", "../devices/virtual/block/md0");
    lnk("dev/block/8:0", "../../devices/pci0/host0/block/sda");
    lnk("dev/block/8:1", "../../devices/pci0/host0/block/sda/sda1");
    lnk("dev/block/259:0", "../../devices/pci1/nvme/nvme0/nvme0n1");
    lnk("dev/block/259:1", "../../devices/pci1/nvme/nvme0/nvme0n1/nvme0n1p1");
    lnk("dev/block/254:0", "../../devices/virtual/block/dm-0");
    lnk("dev/block/254:1", "../../devices/virtual/block/dm-1");
    lnk("dev/block/9:0", "../../devices/virtual/block/md0");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_resolve(void **state)
{
    (void)state;
    orch_drive_dev d;
    char err[256];

    assert_int_equal(orch_drive_resolve_devno(sysfs, 8, 0, &d, err, sizeof err), 0);
    assert_int_equal(d.kind, ORCH_DEV_DISK);
    assert_string_equal(d.node, "sda");
    assert_string_equal(d.disk, "sda");
    assert_string_equal(d.id_disk, "sda");
    assert_string_equal(d.note, "whole disk sda");

    assert_int_equal(orch_drive_resolve_devno(sysfs, 259, 1, &d, err, sizeof err), 0);
    assert_int_equal(d.kind, ORCH_DEV_PARTITION);
    assert_string_equal(d.node, "nvme0n1p1");
    assert_string_equal(d.disk, "nvme0n1");
    assert_string_equal(d.id_disk, "nvme0n1");
    assert_string_equal(d.note, "partition nvme0n1p1 of nvme0n1: the whole disk is sampled "
                        "(other partitions' I/O included)");

    assert_int_equal(orch_drive_resolve_devno(sysfs, 254, 0, &d, err, sizeof err), 0);
    assert_int_equal(d.kind, ORCH_DEV_DM);
    assert_string_equal(d.disk, "dm-0");
    assert_string_equal(d.dm_name, "vg-db");
    assert_int_equal(d.nslaves, 2);
    assert_string_equal(d.slaves[0], "nvme0n1");
    assert_string_equal(d.slaves[1], "sda");
    assert_string_equal(d.id_disk, "");
    assert_string_equal(d.note, "device-mapper device dm-0 (vg-db) on 2 disk(s): dm-0 itself "
                        "is sampled (what the file system sees); identity and SMART are per "
                        "disk, not read here");

    /* dm-crypt on LVM on sda1: down to the whole disk */
    assert_int_equal(orch_drive_resolve_devno(sysfs, 254, 1, &d, err, sizeof err), 0);
    assert_int_equal(d.kind, ORCH_DEV_DM);
    assert_string_equal(d.dm_name, "crypt");
    assert_int_equal(d.nslaves, 1);
    assert_string_equal(d.slaves[0], "sda");
    assert_string_equal(d.id_disk, "sda");

    assert_int_equal(orch_drive_resolve_devno(sysfs, 9, 0, &d, err, sizeof err), 0);
    assert_int_equal(d.kind, ORCH_DEV_MD);
    assert_string_equal(d.disk, "md0");
    assert_string_equal(d.dm_name, "md0 raid1");
    assert_int_equal(d.nslaves, 2);

    /* tmpfs / overlay: anonymous device */
    assert_int_equal(orch_drive_resolve_devno(sysfs, 0, 52, &d, err, sizeof err), 0);
    assert_int_equal(d.kind, ORCH_DEV_NONE);
    assert_string_equal(d.disk, "");
    assert_non_null(strstr(d.note, "no block device"));
    /* a device sysfs does not list */
    assert_int_equal(orch_drive_resolve_devno(sysfs, 8, 7, &d, err, sizeof err), 0);
    assert_int_equal(d.kind, ORCH_DEV_NONE);
    /* no sysfs at all */
    assert_int_equal(orch_drive_resolve_devno("/nonexistent", 8, 0, &d, err, sizeof err), -1);
    assert_string_equal(err, "cannot read /nonexistent/dev/block: No such file or directory");
    assert_int_equal(orch_drive_resolve(sysfs, "/nonexistent/x", &d, err, sizeof err), -1);
    assert_string_equal(orch_dev_kind_name(ORCH_DEV_MD), "md");
}

/* STAT_A -> STAT_B over 2 s:
 *   reads  +400 -> 200/s; +16000 sectors = 8,192,000 B -> 4.096 MB/s; 800 ms / 400 = 2 ms
 *   writes +200 -> 100/s; +8000 sectors = 4,096,000 B -> 2.048 MB/s; 1000 / 200 = 5 ms
 *   discards +4 -> 2/s; +2048 sectors = 1,048,576 B -> 0.524288 MB/s; 8 / 4 = 2 ms
 *   flushes +100 -> 50/s; 100 / 100 = 1 ms
 *   all: (800 + 1000 + 8 + 100) / (400 + 200 + 4 + 100) = 1908 / 704 ms
 *   queue depth 3000 ms / 2000 ms = 1.5; busy 1500 / 2000 = 75 %; in flight 3 */
static void test_diskstat(void **state)
{
    (void)state;
    orch_diskstat a, b;
    orch_diskstat_delta d;
    assert_int_equal(orch_diskstat_parse(STAT_A, &a), 0);
    assert_int_equal(orch_diskstat_parse(STAT_B, &b), 0);
    assert_int_equal(a.nfields, 17);
    a.t = 10;
    b.t = 12;
    orch_diskstat_delta_of(&a, &b, &d);
    assert_int_equal(d.reset, 0);
    assert_true(d.t == 12 && d.dt == 2);
    assert_true(d.rd_ios == 400 && d.wr_ios == 200 && d.dc_ios == 4 && d.fl_ios == 100);
    near(d.rd_iops, 200);
    near(d.rd_mbps, 4.096);
    near(d.rd_await_ms, 2);
    near(d.wr_iops, 100);
    near(d.wr_mbps, 2.048);
    near(d.wr_await_ms, 5);
    near(d.dc_iops, 2);
    near(d.dc_mbps, 0.524288);
    near(d.dc_await_ms, 2);
    near(d.fl_iops, 50);
    near(d.fl_await_ms, 1);
    near(d.await_ms, 1908.0 / 704.0);
    near(d.queue_depth, 1.5);
    near(d.util_pct, 75);
    assert_true(d.in_flight == 3);

    /* a 4.17 kernel: 11 fields, no discards or flushes (absent, not 0) */
    assert_int_equal(orch_diskstat_parse("1000 10 80000 2000 500 5 40000 3000 2 4000 9000", &a), 0);
    assert_int_equal(orch_diskstat_parse("1400 12 96000 2800 700 5 48000 4000 0 5500 12000", &b), 0);
    assert_int_equal(a.nfields, 11);
    a.t = 0;
    b.t = 2;
    orch_diskstat_delta_of(&a, &b, &d);
    assert_true(isnan(d.dc_iops) && isnan(d.fl_iops) && isnan(d.fl_await_ms));
    near(d.await_ms, 1800.0 / 600.0);
    /* a 5.4 kernel: 15 fields, discards but no flushes */
    assert_int_equal(orch_diskstat_parse("1 0 8 1 1 0 8 1 0 1 2 1 0 8 1", &a), 0);
    assert_int_equal(a.nfields, 15);

    /* rd_ticks wrapped at 2^32 ms: +1000 ms over +400 reads = 2.5 ms */
    assert_int_equal(orch_diskstat_parse(
        "1000 0 0 4294967000 0 0 0 0 0 0 0 0 0 0 0 0 0", &a), 0);
    assert_int_equal(orch_diskstat_parse("1400 0 0 704 0 0 0 0 0 0 0 0 0 0 0 0 0", &b), 0);
    a.t = 0;
    b.t = 1;
    orch_diskstat_delta_of(&a, &b, &d);
    assert_int_equal(d.reset, 0);
    near(d.rd_await_ms, 2.5);
    /* reads went back (the device was re-created): no values */
    assert_int_equal(orch_diskstat_parse("10 0 0 704 0 0 0 0 0 0 0 0 0 0 0 0 0", &b), 0);
    orch_diskstat_delta_of(&a, &b, &d);
    assert_int_equal(d.reset, 1);
    assert_true(isnan(d.rd_iops) && isnan(d.queue_depth));

    assert_int_equal(orch_diskstat_parse("1 2 3", &a), -1);
    char err[256];
    assert_int_equal(orch_diskstat_read(sysfs, "sdz", &a, err, sizeof err), -1);
    assert_int_equal(orch_diskstat_read(sysfs, "sda", &a, err, sizeof err), 0);
    assert_true(a.v[ORCH_DS_FL_TICKS] == 100);
}

static void test_sampler(void **state)
{
    (void)state;
    orch_disk_sampler *s = orch_disk_sampler_new(sysfs);
    orch_diskstat_delta *d;
    char err[256];
    assert_int_equal(orch_disk_sampler_add(s, "ssd", "sda"), 0);
    assert_int_equal(orch_disk_sampler_add(s, "gone", "sdz"), 1);
    orch_disk_sampler_restart(s, 10);
    put("devices/pci0/host0/block/sda/stat", STAT_B);
    orch_disk_sampler_sample_at(s, 12);
    put("devices/pci0/host0/block/sda/stat", STAT_A);
    assert_int_equal(orch_disk_sampler_series(s, 0, &d), 1);
    near(d[0].wr_iops, 100);
    near(d[0].queue_depth, 1.5);
    free(d);
    assert_int_equal(orch_disk_sampler_series(s, 1, &d), 0);
    assert_int_equal(orch_disk_sampler_errors(s, 1, err, sizeof err), 2);
    assert_non_null(strstr(err, "gone: cannot read "));
    assert_int_equal(orch_disk_sampler_errors(s, 0, err, sizeof err), 0);
    assert_int_equal(orch_disk_sampler_series(s, 2, &d), -1);
    orch_disk_sampler_free(s);
    orch_disk_sampler_free(NULL);
}

static void test_identity(void **state)
{
    (void)state;
    orch_drive_dev d;
    orch_drive_id id;
    char err[256];
    assert_int_equal(orch_drive_resolve_devno(sysfs, 8, 1, &d, err, sizeof err), 0);
    assert_int_equal(orch_drive_identity(sysfs, &d, NULL, &id), 0);
    assert_string_equal(id.model, "Samsung SSD 870");
    assert_string_equal(id.vendor, "ATA");
    assert_string_equal(id.firmware, "2B6Q");
    assert_string_equal(id.serial, "");            /* SCSI puts it in VPD pages, not sysfs */
    assert_true(id.size_bytes == 1953525168ULL * 512);
    assert_int_equal(id.rotational, 0);
    assert_string_equal(id.scheduler, "mq-deadline");
    assert_string_equal(id.write_cache, "write back");
    assert_true(isnan(id.fs_used_pct));

    assert_int_equal(orch_drive_resolve_devno(sysfs, 259, 0, &d, err, sizeof err), 0);
    assert_int_equal(orch_drive_identity(sysfs, &d, NULL, &id), 0);
    assert_string_equal(id.model, "WDC WDS100T2B0C");
    assert_string_equal(id.serial, "21185N800000");
    assert_string_equal(id.firmware, "211070WD");
    assert_string_equal(id.scheduler, "none");
    assert_string_equal(id.write_cache, "write through");

    /* the file system part, on the folder the tests run in */
    assert_int_equal(orch_drive_identity(sysfs, &d, ".", &id), 0);
    assert_true(id.fs_size_bytes > 0 && id.fs_avail_bytes <= id.fs_size_bytes);
    assert_true(id.fs_used_pct >= 0 && id.fs_used_pct <= 100);
    assert_true(id.fs_type[0] != '\0');
    assert_int_equal(orch_drive_identity(sysfs, &d, "/nonexistent/x", &id), -1);
}

/* Recorded outputs, trimmed to the keys read (smartctl 7.3 -j -a; nvme-cli
 * 2.x smart-log -o json, temperature in kelvins). */
static const char smart_nvme[] =
    "{\"json_format_version\":[1,0],\"smartctl\":{\"exit_status\":0},"
    "\"device\":{\"name\":\"/dev/nvme0n1\",\"protocol\":\"NVMe\"},"
    "\"model_name\":\"WDC WDS100T2B0C\",\"serial_number\":\"21185N800000\","
    "\"firmware_version\":\"211070WD\",\"temperature\":{\"current\":41},"
    "\"nvme_smart_health_information_log\":{\"temperature\":41,\"percentage_used\":3}}";
static const char smart_ata[] =
    "{\"smartctl\":{\"exit_status\":4},\"model_name\":\"Samsung SSD 870 EVO 1TB\","
    "\"serial_number\":\"S6PTNM0T000000\",\"firmware_version\":\"SVT02B6Q\","
    "\"temperature\":{\"current\":33},\"ata_smart_attributes\":{\"table\":["
    "{\"id\":9,\"name\":\"Power_On_Hours\",\"value\":98,\"raw\":{\"value\":6041}},"
    "{\"id\":177,\"name\":\"Wear_Leveling_Count\",\"value\":97,\"raw\":{\"value\":31}},"
    "{\"id\":190,\"name\":\"Airflow_Temperature_Cel\",\"value\":67,\"raw\":{\"value\":33}}]}}";
static const char smart_virtio[] =
    "{\"smartctl\":{\"exit_status\":1,\"messages\":[{\"string\":\"/dev/vda: Unable to "
    "detect device type\",\"severity\":\"error\"}]}}";
static const char nvme_log[] =
    "{\"critical_warning\":0,\"temperature\":310,\"avail_spare\":100,\"percent_used\":4}";

typedef struct tools {
    const char *smartctl, *nvme;    /* NULL: not installed */
    int smart_status;
    int calls;
    char last[128];
} tools;

static char *fake_cmd(void *ctx, const char *const argv[], int *status)
{
    tools *t = ctx;
    t->calls++;
    snprintf(t->last, sizeof t->last, "%s %s %s %s", argv[0], argv[1], argv[2], argv[3]);
    const char *out = strcmp(argv[0], "smartctl") == 0 ? t->smartctl : t->nvme;
    *status = strcmp(argv[0], "smartctl") == 0 ? t->smart_status : 0;
    return out ? strdup(out) : NULL;
}

static void test_health(void **state)
{
    (void)state;
    orch_drive_health h;
    tools t = { .smartctl = smart_nvme };
    assert_int_equal(orch_drive_health_read(fake_cmd, &t, "nvme0n1", &h), 0);
    assert_int_equal(t.calls, 1);
    assert_string_equal(t.last, "smartctl -j -a /dev/nvme0n1");
    assert_string_equal(h.source, "smartctl");
    assert_true(h.temp_c == 41 && h.wear_pct == 3);
    assert_string_equal(h.wear_from, "nvme percentage_used");
    assert_string_equal(h.model, "WDC WDS100T2B0C");
    assert_string_equal(h.serial, "21185N800000");
    assert_string_equal(h.firmware, "211070WD");
    assert_string_equal(h.note, "");

    /* ATA: exit status 4 (some SMART command failed) still parses;
     * wear = 100 - normalized 177 */
    t = (tools){ .smartctl = smart_ata, .smart_status = 4 };
    assert_int_equal(orch_drive_health_read(fake_cmd, &t, "sda", &h), 0);
    assert_true(h.temp_c == 33 && h.wear_pct == 3);
    assert_string_equal(h.wear_from, "ata 177 Wear_Leveling_Count");
    assert_string_equal(h.firmware, "SVT02B6Q");

    /* smartctl missing, nvme-cli present: kelvins to °C */
    t = (tools){ .nvme = nvme_log };
    assert_int_equal(orch_drive_health_read(fake_cmd, &t, "nvme0n1", &h), 0);
    assert_int_equal(t.calls, 2);
    assert_string_equal(t.last, "nvme smart-log -o json");
    assert_string_equal(h.source, "nvme");
    assert_true(h.temp_c == 37 && h.wear_pct == 4);
    assert_string_equal(h.note, "smartctl is not installed (smartmontools)");

    /* a virtio disk: smartctl cannot open it; nothing is read */
    t = (tools){ .smartctl = smart_virtio, .smart_status = 1 };
    assert_int_equal(orch_drive_health_read(fake_cmd, &t, "vda", &h), -1);
    assert_true(isnan(h.temp_c) && isnan(h.wear_pct));
    assert_string_equal(h.source, "");
    assert_string_equal(h.note, "smartctl could not read /dev/vda (exit status 1: /dev/vda: "
                                "Unable to detect device type)");
    /* ATA without any wear attribute: temperature only, wear absent */
    t = (tools){ .smartctl = "{\"temperature\":{\"current\":30}}" };
    assert_int_equal(orch_drive_health_read(fake_cmd, &t, "sdb", &h), 0);
    assert_true(h.temp_c == 30 && isnan(h.wear_pct));
    assert_string_equal(h.note, "wear not reported by smartctl");
    assert_int_equal(orch_drive_health_read(fake_cmd, &t, "", &h), -1);

    /* the real runner: output and exit status of a real command */
    const char *const argv[] = { "sh", "-c", "echo hello; exit 3", NULL };
    int status;
    char *out = orch_cmd_run(NULL, argv, &status);
    assert_non_null(out);
    assert_string_equal(out, "hello\n");
    assert_int_equal(status, 3);
    free(out);
    /* more than the 1 MiB kept: the rest is drained, nothing hangs */
    const char *const big[] = { "sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' a", NULL };
    out = orch_cmd_run(NULL, big, &status);
    assert_non_null(out);
    assert_int_equal(status, 0);
    assert_true(strlen(out) >= (1u << 20) - 4096 && strlen(out) < (1u << 20));
    assert_true(out[0] == 'a');
    free(out);
    const char *const none[] = { "drivebench-no-such-tool", NULL };
    assert_null(orch_cmd_run(NULL, none, &status));
}

/* This machine: the folder the tests run in, on the real /sys. */
static void test_real_sysfs(void **state)
{
    (void)state;
    orch_drive_dev d;
    char err[256], p[PATH_MAX];
    assert_int_equal(orch_drive_resolve("/sys", ".", &d, err, sizeof err), 0);
    if (d.kind == ORCH_DEV_NONE) {
        assert_non_null(strstr(d.note, "no block device"));
    } else {
        orch_diskstat s;
        snprintf(p, sizeof p, "/sys/block/%s", d.disk);
        assert_int_equal(access(p, F_OK), 0);
        assert_int_equal(orch_diskstat_read("/sys", d.disk, &s, err, sizeof err), 0);
        assert_true(s.nfields >= 11);
    }

    /* a tmpfs (root only): no block device, but its size is known */
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/orch-tmpfs-XXXXXX");
    assert_non_null(mkdtemp(dir));
    if (geteuid() == 0 && mount("tmpfs", dir, "tmpfs", 0, "size=10m") == 0) {
        orch_drive_id id;
        int rc = orch_drive_resolve("/sys", dir, &d, err, sizeof err);
        int rc2 = orch_drive_identity("/sys", &d, dir, &id);
        umount(dir);
        rmdir(dir);
        assert_int_equal(rc, 0);
        assert_int_equal(d.kind, ORCH_DEV_NONE);
        assert_non_null(strstr(d.note, "no block device"));
        assert_int_equal(rc2, 0);
        assert_string_equal(id.fs_type, "tmpfs");
        assert_true(id.fs_size_bytes == 10485760);
        assert_true(id.fs_used_pct == 0);
        assert_string_equal(id.model, "");
    } else {
        rmdir(dir);
        print_message("not root or no mount: tmpfs case skipped\n");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_diskstat),
        cmocka_unit_test(test_sampler),
        cmocka_unit_test(test_identity),
        cmocka_unit_test(test_health),
        cmocka_unit_test(test_real_sysfs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
