/* test_devlat.c — the device-latency tracer's parts with recorded text
 * (trace_pipe lines as this machine's kernel prints them), the pairing
 * into histograms and intervals with exact values, the guest view's
 * /proc/diskstats line and disk name, Pearson's r, the tail against the
 * device; and, where this host allows tracing (root, tracefs), a real
 * trace of O_DIRECT writes and fsyncs on the disk under /tmp. */
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
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "telemetry/telemetry.h"
#include "util/util.h"

static void near(double a, double b)
{
    if (!(fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1)))
        fail_msg("%.12g != %.12g", a, b);
}

/* lines as trace_pipe printed them here (kernel 6.18) */
static const char *const lines[] = {
    "              dd-30068   [001] .....  100.000100: block_rq_issue: 254,0 WS 65536 () 350934632 + 128 be,0,4 [dd]",
    "              dd-30068   [001] .....  100.000200: block_rq_issue: 254,0 RA 4096 () 12654560 + 8 be,0,4 [dd]",
    "          <idle>-0       [001] ..s1.  100.000700: block_rq_complete: 254,0 RA () 12654560 + 8 be,0,4 [0]",
    "          <idle>-0       [001] ..s1.  100.002100: block_rq_complete: 254,0 WS () 350934632 + 128 be,0,4 [0]",
    "     kworker/1:1-50      [001] .....  100.500000: block_rq_issue: 254,0 FF 0 () 0 + 0 none,0,0 [kworker/1:1]",
    /* a flush completes at sector ~0, not the 0 it was issued at */
    "          <idle>-0       [000] ..s1.  101.250000: block_rq_complete: 254,0 FF () 18446744073709551615 + 0 none,0,0 [0]",
    /* a completion whose issue was not seen, a discard, a line of another event */
    "          <idle>-0       [000] ..s1.  101.300000: block_rq_complete: 254,0 W () 99 + 8 be,0,4 [0]",
    "              fs-1       [000] .....  101.400000: block_rq_issue: 254,0 D 4096 () 7 + 8 be,0,4 [fs]",
    "              fs-1       [000] .....  101.400000: block_bio_queue: 254,0 W 7 + 8 [fs]",
};

static void test_parse(void **state)
{
    tel_devlat_event ev;
    (void)state;
    assert_int_equal(tel_devlat_parse_line(lines[0], &ev), 0);
    near(ev.ts, 100.0001);
    assert_int_equal(ev.complete, 0);
    assert_int_equal(ev.major, 254);
    assert_int_equal(ev.minor, 0);
    assert_true(ev.sector == 350934632ULL);
    assert_int_equal(ev.cls, RES_DEVLAT_WRITE);
    assert_int_equal(tel_devlat_parse_line(lines[2], &ev), 0);
    assert_int_equal(ev.complete, 1);
    assert_int_equal(ev.cls, RES_DEVLAT_READ);
    assert_true(ev.sector == 12654560ULL);
    assert_int_equal(tel_devlat_parse_line(lines[4], &ev), 0);
    assert_int_equal(ev.cls, RES_DEVLAT_FLUSH);
    assert_int_equal(tel_devlat_parse_line(lines[7], &ev), 0);
    assert_int_equal(ev.cls, -1);                       /* a discard: none of the three */
    assert_int_equal(tel_devlat_parse_line(lines[8], &ev), -1);
    assert_int_equal(tel_devlat_parse_line("# tracer: nop", &ev), -1);
}

static void test_pairing(void **state)
{
    tel_devlat_acc *a = tel_devlat_acc_new();
    const res_devlat_point *pts;
    int n;
    (void)state;
    assert_non_null(a);
    tel_devlat_acc_restart(a, 100.0, 1.0);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        tel_devlat_event ev;
        if (tel_devlat_parse_line(lines[i], &ev) == 0)
            tel_devlat_acc_event(a, &ev);
    }
    tel_devlat_acc_finish(a);
    /* the read took 500 us, the write 2000 us, the flush 750000 us */
    assert_int_equal(tel_devlat_acc_hist(a, RES_DEVLAT_READ)->total, 1);
    assert_int_equal(tel_devlat_acc_hist(a, RES_DEVLAT_READ)->max, 500);
    assert_int_equal(tel_devlat_acc_hist(a, RES_DEVLAT_WRITE)->max, 2000);
    assert_int_equal(tel_devlat_acc_hist(a, RES_DEVLAT_FLUSH)->total, 1);
    assert_int_equal(hist_percentile(tel_devlat_acc_hist(a, RES_DEVLAT_FLUSH), 50), 750000);
    assert_int_equal(tel_devlat_acc_hist(a, RES_DEVLAT_ALL)->total, 3);
    assert_int_equal(tel_devlat_acc_unmatched(a), 1);
    /* interval 0 (100..101 s): the read and the write; interval 1: the flush */
    pts = tel_devlat_acc_series(a, &n);
    assert_int_equal(n, 2);
    near(pts[0].t, 1);
    assert_int_equal(pts[0].n, 2);
    near(pts[0].p50_ms, 0.5);
    near(pts[0].p99_ms, 2);
    near(pts[0].max_ms, 2);
    near(pts[1].t, 2);
    assert_int_equal(pts[1].n, 1);
    near(pts[1].max_ms, 750);
    /* a completion before t0 (the warm-up) is left out, its issue too */
    tel_devlat_acc_restart(a, 101.0, 1.0);
    for (size_t i = 0; i < 4; i++) {
        tel_devlat_event ev;
        assert_int_equal(tel_devlat_parse_line(lines[i], &ev), 0);
        tel_devlat_acc_event(a, &ev);
    }
    tel_devlat_acc_finish(a);
    assert_int_equal(tel_devlat_acc_hist(a, RES_DEVLAT_ALL)->total, 0);
    assert_int_equal(tel_devlat_acc_unmatched(a), 0);
    tel_devlat_acc_series(a, &n);
    assert_int_equal(n, 0);
    tel_devlat_acc_free(a);
}

/* /proc/diskstats of a guest: sdb, its partition, a dm device on it */
static const char diskstats[] =
    "   8       0 sda 10 0 80 5 0 0 0 0 0 5 5 0 0 0 0 0 0\n"
    "   8      16 sdb 1 2 3 4 500 6 4000 750 0 1500 3000 0 0 0 0 200 100\n"
    "   8      17 sdb1 9 9 9 9 9 9 9 9 9 9 9 0 0 0 0 9 9\n"
    " 254       0 dm-0 7 7 7 7 7 7 7 7 7 7 7\n";

static void test_guest_line(void **state)
{
    orch_diskstat s;
    char name[64];
    (void)state;
    assert_int_equal(tel_guest_diskstats_line(diskstats, "sdb", &s), 0);
    assert_int_equal(s.nfields, 17);
    assert_true(s.v[ORCH_DS_WR_IOS] == 500);
    assert_true(s.v[ORCH_DS_WR_SECTORS] == 4000);
    assert_true(s.v[ORCH_DS_FL_TICKS] == 100);
    assert_int_equal(tel_guest_diskstats_line(diskstats, "dm-0", &s), 0);
    assert_int_equal(s.nfields, 11);
    assert_int_equal(tel_guest_diskstats_line(diskstats, "sd", &s), -1);
    assert_int_equal(tel_guest_diskstats_line(diskstats, "sdc", &s), -1);
    assert_int_equal(tel_guest_disk_name("/dev/sdb\n", name, sizeof name), 0);
    assert_string_equal(name, "sdb");
    assert_int_equal(tel_guest_disk_name("/dev/mapper/x\n", name, sizeof name), -1);
    assert_int_equal(tel_guest_disk_name("", name, sizeof name), -1);
    assert_int_equal(tel_guest_disk_name(NULL, name, sizeof name), -1);
}

static void test_pearson(void **state)
{
    const double x[] = { 1, 2, 3, 4 }, y[] = { 2, 4, 6, 8 }, z[] = { 4, 3, 2, 1 };
    const double u[] = { 1, 2, 3, 4, 5 }, v[] = { 2, 1, 4, 3, 5 };
    (void)state;
    near(orch_stats_pearson(x, y, 4), 1);
    near(orch_stats_pearson(x, z, 4), -1);
    /* Σdxdy = 8, Σdx² = Σdy² = 10 */
    near(orch_stats_pearson(u, v, 5), 0.8);
    assert_true(isnan(orch_stats_pearson(x, y, 2)));
    assert_true(isnan(orch_stats_pearson(x, (const double[]){ 3, 3, 3, 3 }, 4)));
}

/* The tail of a drive: its intervals' p99 against the device's p99 where
 * traced, else its average wait; the queue depth beside. */
static void test_tail(void **state)
{
    res_drive dr;
    res_io *io = res_io_new();
    res_io_host host;
    (void)state;
    memset(&dr, 0, sizeof dr);
    memset(&host, 0, sizeof host);
    dr.io = io;
    io->p_pct = 99;
    io->np = 5;
    io->p_series = calloc(5, sizeof *io->p_series);
    host.rates = res_io_rates_new(true, 5);
    io->host = &host;
    for (int i = 0; i < 5; i++) {
        io->p_series[i] = (res_point){ i + 1, (double[]){ 1, 2, 3, 4, 5 }[i] };
        host.rates->series[i].t = i + 1;
        host.rates->series[i].v[RES_IOH_await_ms] = (double[]){ 2, 1, 4, 3, 5 }[i];
        host.rates->series[i].v[RES_IOH_queue_depth] = i;
    }
    assert_int_equal(tel_tail_drive(&dr), 0);
    assert_non_null(io->tail);
    assert_string_equal(io->tail->dev_figure, "await_ms");
    assert_int_equal(io->tail->n, 5);
    near(io->tail->r, 0.8);
    near(io->tail->txn_pct, 99);
    near(io->tail->series[3].txn_ms, 4);
    near(io->tail->series[3].dev_ms, 3);
    near(io->tail->series[3].queue_depth, 3);
    /* with the device traced: its p99 per interval (interval 3 without) */
    io->host = NULL;
    res_io_free(io);
    io = dr.io = res_io_new();
    io->host = &host;
    io->p_pct = 99;
    io->np = 4;
    io->p_series = calloc(4, sizeof *io->p_series);
    io->devlat = calloc(1, sizeof *io->devlat);
    io->devlat->nseries = 4;
    io->devlat->series = calloc(4, sizeof *io->devlat->series);
    for (int i = 0; i < 4; i++) {
        io->p_series[i] = (res_point){ i + 1, 10.0 * (i + 1) };
        io->devlat->series[i] = (res_devlat_point){ i + 1, i == 2 ? 0 : 10, 0.1,
                                                    i == 2 ? NAN : 0.5 * (i + 1), 9 };
    }
    assert_int_equal(tel_tail_drive(&dr), 0);
    assert_string_equal(io->tail->dev_figure, "p99");
    assert_int_equal(io->tail->n, 3);
    near(io->tail->r, 1);
    assert_true(isnan(io->tail->series[2].dev_ms));
    near(io->tail->series[3].dev_ms, 2);
    io->host = NULL;
    res_io_free(io);
    res_io_rates_free(host.rates);
}

/* A real trace where this host allows it: writes with O_DIRECT and fsync
 * to a file under /tmp, on the disk that holds it. */
static void test_real_trace(void **state)
{
    char dir[] = "/tmp/orch-devlat-XXXXXX", path[64], err[256] = "", disk[64];
    orch_drive_dev dev;
    const char *disks[1];
    tel_devlat *d;
    hist *h[RES_DEVLAT_N] = { 0 };
    res_devlat_point *pts = NULL;
    int n = 0, fd;
    int64_t unmatched = 0;
    void *buf = NULL;
    (void)state;
    assert_non_null(mkdtemp(dir));
    if (orch_drive_resolve("/sys", dir, &dev, err, sizeof err) < 0 || dev.kind == ORCH_DEV_NONE
        || dev.kind == ORCH_DEV_DM || dev.kind == ORCH_DEV_MD) {
        rmdir(dir);
        skip();
    }
    snprintf(disk, sizeof disk, "%s", dev.disk);
    disks[0] = disk;
    if (!(d = tel_devlat_start("/sys", NULL, disks, 1, err, sizeof err))) {
        print_message("not traced here: %s\n", err);
        rmdir(dir);
        skip();
    }
    snprintf(path, sizeof path, "%s/f", dir);
    fd = open(path, O_WRONLY | O_CREAT | O_DIRECT, 0600);
    assert_true(fd >= 0);
    assert_int_equal(posix_memalign(&buf, 4096, 65536), 0);
    memset(buf, 7, 65536);
    tel_devlat_phase_start(d, orch_mono_now(), 1.0);
    for (int i = 0; i < 20; i++) {
        assert_int_equal(pwrite(fd, buf, 65536, (off_t)i * 65536), 65536);
        assert_int_equal(fsync(fd), 0);
    }
    usleep(300000);
    tel_devlat_phase_end(d);
    assert_int_equal(tel_devlat_take(d, h, &pts, &n, &unmatched), 0);
    /* at least the 20 writes; other users of the disk add theirs */
    assert_true(h[RES_DEVLAT_WRITE]->total >= 20);
    assert_true(h[RES_DEVLAT_ALL]->total >= h[RES_DEVLAT_WRITE]->total);
    assert_true(hist_percentile(h[RES_DEVLAT_WRITE], 50) > 0);
    assert_true(n >= 1);
    tel_devlat_free(d);
    for (int c = 0; c < RES_DEVLAT_N; c++)
        hist_free(h[c]);
    free(pts);
    free(buf);
    close(fd);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_pairing),
        cmocka_unit_test(test_guest_line),
        cmocka_unit_test(test_pearson),
        cmocka_unit_test(test_tail),
        cmocka_unit_test(test_real_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
