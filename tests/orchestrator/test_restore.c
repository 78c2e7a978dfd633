/* The parallel restore of database volumes (restore.h) on libvirt's test
 * driver: every volume created with its size and recorded, each drive's
 * figure, a failure in one restore leaving nothing once the ledger is
 * torn down, and the caller's stop hook ending the call. The test driver's pools are not local qemu pools, so the
 * volumes are libvirt clones here; tests/e2e/run-seed.sh covers qemu-img.
 * Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libvirt/virterror.h>

#include "virt/virt.h"
#include "testlib.h"

#define GIB (1ULL << 30)

#define MIB (1ULL << 20)
/* The seeds' allocation: a sparse 1 GiB seed holding 256 MiB of data. */
#define SEED_ALLOC (256 * MIB)

/* Two run-owned pools, each with a sparse seed volume "seed" (1 GiB
 * virtual, SEED_ALLOC allocated) that is not in the ledger (the run's seed
 * volumes live longer). */
typedef struct pools {
    orch_ledger      *run;      /* the pools */
    orch_ledger      *seeds;
    virStoragePoolPtr p[2];
} pools;

static void pools_make(orch_fixture *f, pools *ps)
{
    char err[512];
    static const char *const names[2] = { "drivebench-restoretest--a", "drivebench-restoretest--b" };
    static const char *const paths[2] = { "/restoretest/a", "/restoretest/b" };
    ps->run = orch_ledger_new();
    ps->seeds = orch_ledger_new();
    assert_non_null(ps->run);
    for (int i = 0; i < 2; i++) {
        virStorageVolPtr v;
        ps->p[i] = orch_pool_create_dir(f->conn, ps->run, names[i], paths[i], err, sizeof err);
        if (!ps->p[i])
            fail_msg("%s", err);
        char xml[512];
        virStorageVolInfo info;
        snprintf(xml, sizeof xml, "<volume><name>seed</name><capacity unit='bytes'>%llu"
                 "</capacity><allocation unit='bytes'>%llu</allocation><target><format "
                 "type='qcow2'/></target></volume>", GIB, SEED_ALLOC);
        v = virStorageVolCreateXML(ps->p[i], xml, 0);
        if (!v)
            fail_msg("seed: %s", virGetLastErrorMessage());
        assert_int_equal(virStorageVolGetInfo(v, &info), 0);
        assert_int_equal(info.capacity, GIB);
        assert_int_equal(info.allocation, SEED_ALLOC);
        virStorageVolFree(v);
    }
}

static void pools_free(pools *ps)
{
    for (int i = 0; i < 2; i++) {
        virStorageVolPtr v = virStorageVolLookupByName(ps->p[i], "seed");
        assert_non_null(v);
        assert_int_equal(virStorageVolDelete(v, 0), 0);
        virStorageVolFree(v);
    }
    assert_int_equal(orch_ledger_teardown(ps->seeds, NULL, NULL), 0);
    assert_int_equal(orch_ledger_teardown(ps->run, NULL, NULL), 0);
    for (int i = 0; i < 2; i++)
        virStoragePoolFree(ps->p[i]);
    orch_ledger_free(ps->seeds);
    orch_ledger_free(ps->run);
}

/* Capacity of volume name in pool, or 0 when it does not exist. */
static unsigned long long vol_capacity(virStoragePoolPtr pool, const char *name)
{
    virStorageVolPtr v = virStorageVolLookupByName(pool, name);
    virStorageVolInfo info;
    unsigned long long cap = 0;
    if (v && virStorageVolGetInfo(v, &info) == 0)
        cap = info.capacity;
    if (v)
        virStorageVolFree(v);
    virResetLastError();
    return cap;
}

/* Five volumes over two drives, two at a time: four from seeds (three on
 * drive a), one empty; each exists with its capacity, each is in the
 * ledger, and each drive's figure counts its seeds' bytes. */
static void test_restore_all(void **state)
{
    orch_fixture *f = *state;
    pools ps;
    orch_ledger *l = orch_ledger_new();
    orch_restore_figure fig[3] = { { 0, 0 } };
    const char *drives[3] = { "a", "b", "c" };
    orch_restore_opts o = { .out = f->out, .drive_names = drives, .parallel = 2 };
    char err[512] = "";
    orch_counts removed = { 0 };
    pools_make(f, &ps);
    orch_restore_job jobs[5] = {
        { .pool = ps.p[0], .name = "db1", .capacity = GIB, .seed = "seed", .drive = 0 },
        { .pool = ps.p[0], .name = "db2", .capacity = 2 * GIB, .seed = "seed", .drive = 0 },
        { .pool = ps.p[1], .name = "db3", .capacity = GIB, .seed = "seed", .drive = 1 },
        { .pool = ps.p[0], .name = "db4", .capacity = GIB, .seed = "seed", .drive = 0 },
        { .pool = ps.p[1], .name = "db5", .capacity = 3 * GIB, .seed = NULL, .drive = 2 },
    };
    if (orch_restore_all(jobs, 5, l, fig, 3, &o, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(orch_ledger_count(l), 5);
    assert_int_equal(vol_capacity(ps.p[0], "db1"), GIB);
    assert_int_equal(vol_capacity(ps.p[0], "db2"), 2 * GIB);
    assert_int_equal(vol_capacity(ps.p[1], "db3"), GIB);
    assert_int_equal(vol_capacity(ps.p[0], "db4"), GIB);
    assert_int_equal(vol_capacity(ps.p[1], "db5"), 3 * GIB);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(jobs[i].local, 0);     /* the test driver: libvirt clones */
        assert_true(jobs[i].seconds >= 0);
    }
    /* bytes copied: the sparse seed's 256 MiB of data, not its 1 GiB
     * virtual size, also into the 2 GiB volume: 3 x 256 MiB on a */
    assert_int_equal(fig[0].bytes, 3 * SEED_ALLOC);
    assert_int_equal(fig[1].bytes, SEED_ALLOC);
    assert_int_equal(fig[2].bytes, 0);          /* no seed: nothing restored */
    assert_true(fig[0].seconds >= 0 && fig[1].seconds >= 0);
    assert_non_null(strstr(orch_fixture_output(f), "restoring 5 database volume(s) from their "
                           "seeds: 1 GiB, 2 at a time\n"));
    assert_non_null(strstr(orch_fixture_output(f), " a 768 MiB in "));
    assert_non_null(strstr(orch_fixture_output(f), " b 256 MiB in "));
    assert_null(strstr(orch_fixture_output(f), " c "));
    /* figures add up over calls (repetitions) */
    assert_int_equal(orch_ledger_teardown(l, NULL, &removed), 0);
    assert_int_equal(removed.volumes, 5);
    if (orch_restore_all(jobs, 3, l, fig, 3, &o, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(fig[0].bytes, 5 * SEED_ALLOC);
    assert_int_equal(fig[1].bytes, 2 * SEED_ALLOC);
    assert_int_equal(orch_ledger_teardown(l, NULL, NULL), 0);
    for (int i = 0; i < 5; i++)
        assert_int_equal(vol_capacity(jobs[i].pool, jobs[i].name), 0);
    orch_ledger_free(l);
    pools_free(&ps);
}

/* One restore fails (its volume's name is taken): the call fails naming
 * it, the volume that was there is untouched, and tearing down the ledger
 * removes every volume the call created. */
static void test_restore_one_fails(void **state)
{
    orch_fixture *f = *state;
    pools ps;
    orch_ledger *l = orch_ledger_new(), *other = orch_ledger_new();
    orch_restore_opts o = { .out = f->out, .parallel = 1 };
    char err[512] = "";
    virStorageVolPtr taken;
    orch_counts removed = { 0 };
    pools_make(f, &ps);
    taken = orch_vol_create(ps.p[1], other, "taken", "raw", 5 * GIB, NULL, NULL, err, sizeof err);
    assert_non_null(taken);
    virStorageVolFree(taken);
    orch_restore_job jobs[4] = {
        { .pool = ps.p[0], .name = "db1", .capacity = GIB, .seed = "seed", .drive = 0 },
        { .pool = ps.p[1], .name = "db2", .capacity = GIB, .seed = "seed", .drive = 1 },
        { .pool = ps.p[1], .name = "taken", .capacity = GIB, .seed = "seed", .drive = 1 },
        { .pool = ps.p[0], .name = "db4", .capacity = GIB, .seed = "seed", .drive = 0 },
    };
    assert_int_equal(orch_restore_all(jobs, 4, l, NULL, 2, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot create volume taken in pool drivebench-restoretest--b: "));
    assert_non_null(strstr(jobs[2].err, "taken"));
    /* one at a time: the two before it were made, the one after it not */
    assert_int_equal(orch_ledger_count(l), 2);
    assert_int_equal(vol_capacity(ps.p[1], "taken"), 5 * GIB);
    assert_int_equal(vol_capacity(ps.p[0], "db4"), 0);
    assert_int_equal(orch_ledger_teardown(l, NULL, &removed), 0);
    assert_int_equal(removed.volumes, 2);
    assert_int_equal(vol_capacity(ps.p[0], "db1"), 0);
    assert_int_equal(vol_capacity(ps.p[1], "db2"), 0);

    /* a missing seed fails before anything is created */
    jobs[2].name = "db3";
    jobs[2].seed = "noseed";
    assert_int_equal(orch_restore_all(jobs, 4, l, NULL, 2, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "seed volume noseed: "));
    assert_int_equal(orch_ledger_count(l), 0);

    /* in parallel, the failure still leaves only ledger entries behind */
    jobs[2].name = "taken";
    jobs[2].seed = "seed";
    o.parallel = 4;
    assert_int_equal(orch_restore_all(jobs, 4, l, NULL, 2, &o, err, sizeof err), -1);
    assert_true(orch_ledger_count(l) <= 3);
    assert_int_equal(orch_ledger_teardown(l, NULL, NULL), 0);
    for (int i = 0; i < 4; i++)
        if (i != 2)
            assert_int_equal(vol_capacity(jobs[i].pool, jobs[i].name), 0);
    assert_int_equal(vol_capacity(ps.p[1], "taken"), 5 * GIB);
    assert_int_equal(orch_ledger_teardown(other, NULL, NULL), 0);
    orch_ledger_free(other);
    orch_ledger_free(l);
    pools_free(&ps);
}

/* The caller's stop hook: counts its calls; stops once *ctx's count
 * reaches the limit (0: at once). */
typedef struct stop_hook {
    int calls, limit;
} stop_hook;

static int stop_after(void *ctx)
{
    stop_hook *h = ctx;
    return h->calls++ >= h->limit;
}

/* A stop request from the caller's hook ends the call with "interrupted"
 * and only ledger entries behind; a hook that never asks changes nothing. */
static void test_restore_stop(void **state)
{
    orch_fixture *f = *state;
    pools ps;
    orch_ledger *l = orch_ledger_new();
    stop_hook never = { 0, 1000000 }, now = { 0, 0 };
    orch_restore_opts o = { .out = f->out, .parallel = 1, .stop_requested = stop_after,
                            .stop_ctx = &never };
    char err[512] = "";
    pools_make(f, &ps);
    orch_restore_job jobs[3] = {
        { .pool = ps.p[0], .name = "db1", .capacity = GIB, .seed = "seed", .drive = 0 },
        { .pool = ps.p[1], .name = "db2", .capacity = GIB, .seed = "seed", .drive = 1 },
        { .pool = ps.p[0], .name = "db3", .capacity = GIB, .seed = NULL, .drive = 0 },
    };
    if (orch_restore_all(jobs, 3, l, NULL, 2, &o, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(never.calls >= 1);
    assert_int_equal(orch_ledger_count(l), 3);
    assert_int_equal(orch_ledger_teardown(l, NULL, NULL), 0);

    o.stop_ctx = &now;
    assert_int_equal(orch_restore_all(jobs, 3, l, NULL, 2, &o, err, sizeof err), -1);
    assert_string_equal(err, "interrupted");
    assert_true(now.calls >= 1);
    assert_true(orch_ledger_count(l) <= 3);
    assert_int_equal(orch_ledger_teardown(l, NULL, NULL), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(vol_capacity(jobs[i].pool, jobs[i].name), 0);
    orch_ledger_free(l);
    pools_free(&ps);
}

/* The data of a real sparse seed, here: a 64 MiB raw file holding 1 MiB at
 * 8 MiB and 512 KiB at 40 MiB, and a qcow2 overlay on it with no data of
 * its own (a run's seed volume): qemu-img map counts 1.5 MiB in both, not
 * the 64 MiB virtual size. */
static void test_data_bytes(void **state)
{
    char dir[] = "/tmp/restoretest-XXXXXX", raw[128], qcow[128], cmd[512], err[256];
    static char block[1 << 20];
    uint64_t bytes = 1;
    int fd;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(raw, sizeof raw, "%s/seed.raw", dir);
    snprintf(qcow, sizeof qcow, "%s/seed.qcow2", dir);
    memset(block, 0xa5, sizeof block);
    fd = open(raw, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 64 * MIB), 0);
    assert_int_equal(pwrite(fd, block, MIB, 8 * MIB), (ssize_t)MIB);
    assert_int_equal(pwrite(fd, block, MIB / 2, 40 * MIB), (ssize_t)(MIB / 2));
    assert_int_equal(close(fd), 0);
    snprintf(cmd, sizeof cmd, "qemu-img create -q -f qcow2 -b %s -F raw %s", raw, qcow);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(orch_restore_data_bytes(NULL, raw, &bytes, err, sizeof err), 0);
    assert_int_equal(bytes, 3 * MIB / 2);
    assert_int_equal(orch_restore_data_bytes(NULL, qcow, &bytes, err, sizeof err), 0);
    assert_int_equal(bytes, 3 * MIB / 2);
    /* no image there: an error naming it, no figure */
    snprintf(raw, sizeof raw, "%s/missing.raw", dir);
    assert_int_equal(orch_restore_data_bytes(NULL, raw, &bytes, err, sizeof err), -1);
    assert_int_equal(bytes, 0);
    assert_non_null(strstr(err, "missing.raw"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_restore_all, orch_fixture_setup, orch_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_restore_one_fails, orch_fixture_setup,
                                        orch_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_restore_stop, orch_fixture_setup,
                                        orch_fixture_teardown),
        cmocka_unit_test(test_data_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
