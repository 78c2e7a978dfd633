/* test_blockstats.c — libvirt block statistics from recorded counters:
 * parsing typed parameters (roles by path and by target, absent fields
 * stay absent), exact per-interval rates and latencies, a counter reset
 * (VM restart), the sampler through its seam, and the real libvirt path
 * on the test driver (which returns no block statistics). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libvirt/virterror.h>

#include "telemetry/telemetry.h"
#include "virt/virt.h"
#include <unistd.h>

/* A recording: "key=value ..." as libvirt would return the typed
 * parameters (names and paths are strings, block.count and backingIndex
 * unsigned ints, counters unsigned long longs). */
static void params_of(const char *rec, virTypedParameterPtr *p, int *n)
{
    char *copy = strdup(rec), *save = NULL;
    int max = 0;
    *p = NULL;
    *n = 0;
    for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = '\0';
        const char *v = eq + 1;
        size_t kl = strlen(tok);
        if ((kl > 5 && strcmp(tok + kl - 5, ".name") == 0)
            || (kl > 5 && strcmp(tok + kl - 5, ".path") == 0))
            assert_int_equal(virTypedParamsAddString(p, n, &max, tok, v), 0);
        else if (strcmp(tok, "block.count") == 0 || strstr(tok, "backingIndex"))
            assert_int_equal(virTypedParamsAddUInt(p, n, &max, tok, (unsigned)atoi(v)), 0);
        else
            assert_int_equal(virTypedParamsAddULLong(p, n, &max, tok, strtoull(v, NULL, 10)), 0);
    }
    free(copy);
}

#define DISK0(rd, rb, rt, wr, wb, wt, fr, ft) \
    "block.0.name=sda block.0.path=/pool/vm1-boot.qcow2" \
    " block.0.rd.reqs=" #rd " block.0.rd.bytes=" #rb " block.0.rd.times=" #rt \
    " block.0.wr.reqs=" #wr " block.0.wr.bytes=" #wb " block.0.wr.times=" #wt \
    " block.0.fl.reqs=" #fr " block.0.fl.times=" #ft

/* sdb: the database disk, without flush counters (a hypervisor may omit
 * any field); a backing image of sda (backingIndex) to be ignored. */
#define DISK1(rd, rb, rt, wr, wb, wt) \
    " block.1.name=sdb block.1.path=/drive/vm1-db.raw" \
    " block.1.rd.reqs=" #rd " block.1.rd.bytes=" #rb " block.1.rd.times=" #rt \
    " block.1.wr.reqs=" #wr " block.1.wr.bytes=" #wb " block.1.wr.times=" #wt \
    " block.2.name=sda block.2.path=/images/base.qcow2 block.2.backingIndex=1" \
    " block.2.rd.reqs=7"

static const orch_blk_roles roles = { .db_path = "/drive/vm1-db.raw", .boot_target = "sda" };

static void test_parse(void **state)
{
    (void)state;
    virTypedParameterPtr p;
    int n;
    orch_blk_sample s;
    params_of("block.count=3 " DISK0(1, 2, 3, 4, 5, 6, 7, 8)
              DISK1(10, 20, 30, 40, 50, 60), &p, &n);
    assert_int_equal(orch_blk_parse(p, n, &roles, &s), 0);
    virTypedParamsFree(p, n);
    assert_int_equal(s.ndisks, 2);
    assert_string_equal(s.disk[0].name, "sda");
    assert_string_equal(s.disk[0].path, "/pool/vm1-boot.qcow2");
    assert_int_equal(s.disk[0].role, ORCH_DISK_BOOT);      /* by target */
    assert_int_equal(s.disk[0].have, (1u << ORCH_BLK_NFIELDS) - 1);
    assert_true(s.disk[0].v[ORCH_BLK_FL_TIMES] == 8);
    assert_string_equal(s.disk[1].name, "sdb");
    assert_int_equal(s.disk[1].role, ORCH_DISK_DB);        /* by path */
    assert_false(ORCH_BLK_HAS(s.disk[1].have, ORCH_BLK_FL_REQS));
    assert_false(ORCH_BLK_HAS(s.disk[1].have, ORCH_BLK_FL_TIMES));
    assert_true(ORCH_BLK_HAS(s.disk[1].have, ORCH_BLK_WR_TIMES));
    assert_true(s.disk[1].v[ORCH_BLK_WR_TIMES] == 60);
    assert_string_equal(orch_blk_field_name(ORCH_BLK_FL_TIMES), "fl.times");
    assert_string_equal(orch_disk_role_name(ORCH_DISK_DB), "db");

    /* recorded from libvirt 9.0 / QEMU 7.2 (`virsh domstats --block` of a
     * tiny VM): with -blockdev every top entry carries a backingIndex (2
     * for the qcow2 overlay, 1 for the raw disk); both are disks */
    params_of("block.count=2 block.0.name=sda block.0.path=/drive/vm1-boot.qcow2"
              " block.0.backingIndex=2 block.0.rd.reqs=1634 block.0.wr.reqs=532"
              " block.0.fl.reqs=80 block.0.fl.times=5144020654"
              " block.1.name=sdb block.1.path=/drive/vm1-db.raw block.1.backingIndex=1"
              " block.1.wr.reqs=1735 block.1.wr.bytes=196198400 block.1.wr.times=6667251266"
              " block.1.fl.reqs=1749 block.1.fl.times=2789968516", &p, &n);
    assert_int_equal(orch_blk_parse(p, n, &roles, &s), 0);
    virTypedParamsFree(p, n);
    assert_int_equal(s.ndisks, 2);
    assert_int_equal(s.disk[0].role, ORCH_DISK_BOOT);
    assert_int_equal(s.disk[1].role, ORCH_DISK_DB);
    assert_true(s.disk[1].v[ORCH_BLK_FL_REQS] == 1749);

    /* no roles given: every disk is "other"; no block.count: -1 */
    params_of("block.count=1 block.0.name=vda", &p, &n);
    assert_int_equal(orch_blk_parse(p, n, NULL, &s), 0);
    assert_int_equal(s.disk[0].role, ORCH_DISK_OTHER);
    assert_int_equal(s.disk[0].have, 0);
    virTypedParamsFree(p, n);
    params_of("state.state=1", &p, &n);
    assert_int_equal(orch_blk_parse(p, n, &roles, &s), -1);
    virTypedParamsFree(p, n);
}

/* 2 s between the samples of the database disk:
 *   rd: +400 reqs -> 200 IOPS; +1,638,400 B -> 0.8192 MB/s;
 *       +600,000,000 ns / 400 -> 1.5 ms
 *   wr: +200 reqs -> 100 IOPS; +1,638,400 B -> 0.8192 MB/s;
 *       +600,000,000 ns / 200 -> 3 ms
 *   fl: absent at the end -> NAN, never 0 */
static void test_delta(void **state)
{
    (void)state;
    orch_blk_counters a = { .name = "sdb", .have = 0xff }, b = a;
    const unsigned long long va[] = { 1000, 4096000, 2000000000ULL, 500, 8192000,
                                      1500000000ULL, 50, 100000000ULL };
    const unsigned long long vb[] = { 1400, 5734400, 2600000000ULL, 700, 9830400,
                                      2100000000ULL, 50, 100000000ULL };
    memcpy(a.v, va, sizeof va);
    memcpy(b.v, vb, sizeof vb);
    orch_blk_delta d;
    orch_blk_delta_of(&a, 10.0, &b, 12.0, &d);
    assert_true(d.t == 12.0 && d.dt == 2.0);
    assert_int_equal(d.reset, 0);
    assert_int_equal(d.have, 0xff);
    assert_true(d.d[ORCH_BLK_RD_REQS] == 400 && d.d[ORCH_BLK_WR_BYTES] == 1638400);
    assert_true(d.rd_iops == 200.0);
    assert_true(fabs(d.rd_mbps - 0.8192) < 1e-12);
    assert_true(fabs(d.rd_lat_ms - 1.5) < 1e-12);
    assert_true(d.wr_iops == 100.0);
    assert_true(fabs(d.wr_mbps - 0.8192) < 1e-12);
    assert_true(fabs(d.wr_lat_ms - 3.0) < 1e-12);
    /* no flush in the interval: 0 flushes/s, no flush latency */
    assert_true(d.fl_iops == 0.0);
    assert_true(isnan(d.fl_lat_ms));

    /* flush fields absent at one end: absent, not 0 */
    b.have &= ~(1u << ORCH_BLK_FL_REQS | 1u << ORCH_BLK_FL_TIMES);
    orch_blk_delta_of(&a, 10.0, &b, 12.0, &d);
    assert_false(ORCH_BLK_HAS(d.have, ORCH_BLK_FL_REQS));
    assert_true(isnan(d.fl_iops) && isnan(d.fl_lat_ms));
    assert_true(d.wr_iops == 100.0);
    /* times absent, reqs present: IOPS yes, latency no */
    b.have &= ~(1u << ORCH_BLK_RD_TIMES);
    orch_blk_delta_of(&a, 10.0, &b, 12.0, &d);
    assert_true(d.rd_iops == 200.0 && isnan(d.rd_lat_ms));

    /* the VM restarted: counters back near 0 -> an interval with no values */
    orch_blk_counters r = { .name = "sdb", .have = 0xff };
    r.v[ORCH_BLK_RD_REQS] = 5;
    orch_blk_delta_of(&b, 12.0, &r, 14.0, &d);
    assert_int_equal(d.reset, 1);
    assert_int_equal(d.have, 0);
    assert_true(isnan(d.rd_iops) && isnan(d.wr_mbps) && isnan(d.fl_iops));
}

/* The seam: each call returns the next recording; "FAIL" fails. */
typedef struct recorded {
    const char *const *recs;
    int next, calls;
} recorded;

static int fake_domstats(void *ctx, virDomainPtr dom, virTypedParameterPtr *params,
                         int *nparams, char *err, size_t errlen)
{
    recorded *r = ctx;
    (void)dom;
    r->calls++;
    const char *rec = r->recs[r->next];
    if (r->recs[r->next + 1])
        r->next++;
    if (strcmp(rec, "FAIL") == 0) {
        snprintf(err, errlen, "domain is not running");
        return -1;
    }
    params_of(rec, params, nparams);
    return 0;
}

static void test_sampler(void **state)
{
    (void)state;
    static const char *const recs[] = {
        /* t = 100: base */
        "block.count=3 " DISK0(10, 40960, 1000000, 20, 81920, 2000000, 5, 500000)
        DISK1(100, 409600, 10000000, 200, 819200, 40000000),
        /* t = 110: db +1000 rd (4 MB, 2 ms each), +500 wr (2 MB, 4 ms) */
        "block.count=3 " DISK0(10, 40960, 1000000, 30, 122880, 3000000, 6, 600000)
        DISK1(1100, 4409600, 2010000000, 700, 2819200, 2040000000),
        "FAIL",
        /* t = 130 (120 failed): spans 20 s, +2000 wr */
        "block.count=3 " DISK0(10, 40960, 1000000, 30, 122880, 3000000, 6, 600000)
        DISK1(1100, 4409600, 2010000000, 2700, 10819200, 6040000000),
        /* t = 140: the VM restarted */
        "block.count=3 " DISK0(1, 4096, 1000, 1, 4096, 1000, 0, 0)
        DISK1(3, 12288, 3000, 0, 0, 0),
        /* t = 150: from the new base */
        "block.count=3 " DISK0(1, 4096, 1000, 1, 4096, 1000, 0, 0)
        DISK1(13, 53248, 23000, 0, 0, 0),
        NULL,
    };
    recorded rec = { .recs = recs };
    orch_blk_sampler *s = orch_blk_sampler_new(fake_domstats, &rec);
    orch_blk_delta *d = NULL;
    char err[256];
    assert_non_null(s);
    assert_int_equal(orch_blk_sampler_add(s, NULL, "vm1", &roles), 0);
    orch_blk_sampler_restart(s, 100);
    orch_blk_sampler_sample_at(s, 110);
    orch_blk_sampler_sample_at(s, 120);
    orch_blk_sampler_sample_at(s, 130);
    orch_blk_sampler_sample_at(s, 140);
    orch_blk_sampler_sample_at(s, 150);
    assert_int_equal(rec.calls, 6);

    assert_int_equal(orch_blk_sampler_series(s, 0, ORCH_DISK_DB, &d), 4);
    assert_true(d[0].t == 110 && d[0].dt == 10);
    assert_true(d[0].rd_iops == 100.0 && d[0].wr_iops == 50.0);
    assert_true(fabs(d[0].rd_mbps - 0.4) < 1e-12 && fabs(d[0].wr_mbps - 0.2) < 1e-12);
    assert_true(fabs(d[0].rd_lat_ms - 2.0) < 1e-12 && fabs(d[0].wr_lat_ms - 4.0) < 1e-12);
    assert_true(isnan(d[0].fl_iops));                  /* sdb has no flush counters */
    assert_true(d[1].t == 130 && d[1].dt == 20);
    assert_true(d[1].wr_iops == 100.0 && d[1].rd_iops == 0.0 && isnan(d[1].rd_lat_ms));
    assert_true(fabs(d[1].wr_lat_ms - 2.0) < 1e-12);
    assert_int_equal(d[2].reset, 1);
    assert_true(isnan(d[2].wr_iops));
    assert_true(d[3].t == 150 && d[3].rd_iops == 1.0);
    assert_true(fabs(d[3].rd_lat_ms - 0.002) < 1e-15);
    free(d);

    assert_int_equal(orch_blk_sampler_series(s, 0, ORCH_DISK_BOOT, &d), 4);
    assert_true(d[0].wr_iops == 1.0 && d[0].fl_iops == 0.1);
    assert_true(fabs(d[0].fl_lat_ms - 0.1) < 1e-12);
    free(d);
    assert_int_equal(orch_blk_sampler_errors(s, 0, err, sizeof err), 1);
    assert_string_equal(err, "domain is not running");
    assert_int_equal(orch_blk_sampler_series(s, 1, ORCH_DISK_DB, &d), -1);
    assert_int_equal(orch_blk_sampler_series(s, 0, ORCH_DISK_OTHER, &d), -1);

    /* roles that match no disk: said once per sample, boot still kept */
    orch_blk_sampler *s2 = orch_blk_sampler_new(fake_domstats, &rec);
    rec.next = 0;
    assert_int_equal(orch_blk_sampler_add(s2, NULL, "vm2", &(orch_blk_roles){
                         .db_path = "/elsewhere/db.raw", .boot_target = "sda" }), 0);
    orch_blk_sampler_sample_at(s2, 1);
    assert_int_equal(orch_blk_sampler_errors(s2, 0, err, sizeof err), 1);
    assert_string_equal(err, "vm2: no disk has the database disk's path /elsewhere/db.raw "
                        "or target - (disks: sda, sdb)");
    orch_blk_sampler_free(s2);

    /* a new phase forgets the intervals and takes a new base */
    orch_blk_sampler_restart(s, 200);
    assert_int_equal(orch_blk_sampler_series(s, 0, ORCH_DISK_DB, &d), 0);
    assert_null(d);
    orch_blk_sampler_free(s);
    orch_blk_sampler_free(NULL);
}

static void silent(void *ctx, virErrorPtr e)
{
    (void)ctx;
    (void)e;
}

/* The real path: libvirt 9.0's test driver gives a record with no block
 * statistics, which is an error the sampler keeps, not zeros. */
static void test_libvirt_test_driver(void **state)
{
    (void)state;
    virSetErrorFunc(NULL, silent);
    virConnectPtr conn = virConnectOpen("test:///default");
    assert_non_null(conn);
    virDomainPtr dom = virDomainLookupByName(conn, "test");
    assert_non_null(dom);
    orch_blk_sampler *s = orch_blk_sampler_new(NULL, NULL);
    assert_int_equal(orch_blk_sampler_add(s, dom, "test", &(orch_blk_roles){
                         .db_target = "vda" }), 0);
    virDomainFree(dom);                 /* the sampler keeps its own reference */
    orch_blk_sampler_tick(s);
    orch_blk_sampler_tick(s);
    char err[256];
    int n = orch_blk_sampler_errors(s, 0, err, sizeof err);
    orch_blk_delta *d = NULL;
    int nd = orch_blk_sampler_series(s, 0, ORCH_DISK_DB, &d);
    free(d);
    if (nd > 0) {       /* a libvirt that does report them: real values */
        assert_int_equal(n, 0);
    } else {
        assert_int_equal(n, 2);
        assert_string_equal(err, "test: the hypervisor reported no block statistics");
    }
    orch_blk_sampler_free(s);
    virConnectClose(conn);
}

/* The sampler on the monitor's timers (libvirt's event thread): ticks
 * arrive, each adds an interval with a real, positive length. */
static void test_on_monitor(void **state)
{
    (void)state;
    static const char *const recs[] = {
        "block.count=1 block.0.name=sdb block.0.path=/drive/vm1-db.raw block.0.wr.reqs=7",
        NULL,
    };
    recorded rec = { .recs = recs };
    char err[256];
    virSetErrorFunc(NULL, silent);
    assert_int_equal(orch_events_start(err, sizeof err), 0);
    orch_monitor *m = orch_monitor_new(NULL);
    orch_blk_sampler *s = orch_blk_sampler_new(fake_domstats, &rec);
    assert_int_equal(orch_blk_sampler_add(s, NULL, "vm1", &roles), 0);
    orch_blk_sampler_tick(s);
    assert_int_equal(orch_monitor_every(m, 20, orch_blk_sampler_tick, s), 0);
    orch_blk_delta *d = NULL;
    int n = 0;
    for (int i = 0; i < 200 && n < 3; i++) {
        usleep(10000);
        n = orch_blk_sampler_series(s, 0, ORCH_DISK_DB, &d);
        free(d);
    }
    orch_monitor_free(m);               /* waits for a running tick */
    n = orch_blk_sampler_series(s, 0, ORCH_DISK_DB, &d);
    assert_true(n >= 3);
    for (int i = 0; i < n; i++) {
        assert_true(d[i].dt > 0);
        assert_true(d[i].wr_iops == 0);
        assert_int_equal(d[i].have, 1u << ORCH_BLK_WR_REQS);
    }
    free(d);
    orch_blk_sampler_free(s);
}

int main(void)
{
    /* the typed-parameter calls need libvirt's error state set up */
    if (virInitialize() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_delta),
        cmocka_unit_test(test_sampler),
        cmocka_unit_test(test_libvirt_test_driver),
        cmocka_unit_test(test_on_monitor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
