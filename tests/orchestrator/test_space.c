/* Free space is checked before a run creates anything: pool drives on
 * libvirt's test driver (pools with a stated <available>), path drives on
 * a small tmpfs (needs root to mount; skipped otherwise), and a whole run
 * refused on the fixture's node with nothing created. Messages compared
 * exactly. Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "plan/plan.h"
#include "virt/virt.h"
#include "run/run.h"
#include "testlib.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)

/* A node with two pools. The test driver gives every pool 100 GiB and
 * ignores a stated <available>; a filler volume takes all but 500 MiB of
 * "small", while "big" keeps its 100 GiB. */
static const char node_xml[] =
    "<node>\n"
    "  <pool type='dir'><name>small</name><target><path>/srv/small</path></target>\n"
    "    <volume><name>filler.img</name><key>/srv/small/filler.img</key>\n"
    "      <capacity unit='MiB'>101900</capacity><allocation unit='MiB'>101900</allocation>\n"
    "      <target><path>/srv/small/filler.img</path></target></volume></pool>\n"
    "  <pool type='dir'><name>big</name><target><path>/srv/big</path></target></pool>\n"
    "</node>\n";

/* Write text to a temporary file; its path goes to path. */
static void write_temp(char *path, const char *text)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* orch_space_check on a plan with uri and drive sections; the lines it
 * printed go to *out (caller frees). */
static int check(const char *uri, const char *drives, char **out, char *err, size_t errlen)
{
    char path[] = "/tmp/orch-space-plan-XXXXXX", text[4096];
    orch_conns *conns = orch_conns_new();
    orch_template *t;
    orch_plan *p;
    size_t len = 0;
    FILE *f = open_memstream(out, &len);
    int rc;
    snprintf(text, sizeof text, "[run]\nname = space\nuri = %s\nprofile = tiny\n"
             "vmconfigs_dir = vmconfigs\nimage_dir = /srv/images\ndb_size = 1G\n"
             "[workload]\nname = oltp_read_write\ntables = 1\ntable_size = 10\nmeasure = 1s\n%s",
             uri, drives);
    write_temp(path, text);
    p = orch_plan_load(path, stderr);
    unlink(path);
    assert_non_null(p);
    t = orch_template_load(p->template_path, err, errlen);
    assert_non_null(t);
    rc = orch_space_check(conns, p, t, f, err, errlen);
    fclose(f);
    orch_template_free(t);
    orch_plan_free(p);
    orch_conns_free(conns);
    return rc;
}

static void test_format_bytes(void **state)
{
    char b[32];
    (void)state;
    assert_string_equal(orch_format_bytes(0, b, sizeof b), "0 B");
    assert_string_equal(orch_format_bytes(1023, b, sizeof b), "1023 B");
    assert_string_equal(orch_format_bytes(300 * MiB, b, sizeof b), "300 MiB");
    assert_string_equal(orch_format_bytes(2 * GiB + GiB / 2, b, sizeof b), "2.5 GiB");
    assert_string_equal(orch_format_bytes(2 * GiB - 300 * MiB, b, sizeof b), "1.7 GiB");
    assert_string_equal(orch_format_bytes(447 * GiB, b, sizeof b), "447 GiB");
}

static void test_pools(void **state)
{
    char node[] = "/tmp/orch-space-node-XXXXXX", uri[PATH_MAX + 16], err[512], *out;
    (void)state;
    write_temp(node, node_xml);
    snprintf(uri, sizeof uri, "test://%s", node);

    /* 2 VMs x 1 GiB + 1 GiB headroom in a pool with 500 MiB available */
    assert_int_equal(check(uri, "[drive s]\npool = small\nvms = 2\n[drive b]\npool = big\n",
                           &out, err, sizeof err), -1);
    assert_string_equal(out, "drivebench: drive s (pool small, 500 MiB free) is 2.5 GiB short: "
                        "its volumes need 2 GiB plus 1 GiB headroom\n");
    assert_string_equal(err, "not enough free space on 1 drive(s) (see above); nothing was "
                        "created");
    free(out);

    /* two drives in one pool are counted together */
    assert_int_equal(check(uri, "[drive x]\npool = small\n[drive y]\npool = small\n",
                           &out, err, sizeof err), -1);
    assert_string_equal(out, "drivebench: drives x, y (pool small, 500 MiB free) is 2.5 GiB "
                        "short: their volumes need 2 GiB plus 1 GiB headroom\n");
    free(out);

    /* 40 VMs x 1 GiB: the headroom is 5 % (2 GiB), above the 1 GiB minimum */
    assert_int_equal(check(uri, "[drive b]\npool = big\nvms = 40\n", &out, err, sizeof err), 0);
    assert_string_equal(out, "");
    free(out);
    assert_int_equal(check(uri, "[drive b]\npool = big\nvms = 64\n[drive c]\npool = big\n"
                           "vms = 34\n", &out, err, sizeof err), -1);
    assert_string_equal(out, "drivebench: drives b, c (pool big, 100 GiB free) is 2.9 GiB short: "
                        "their volumes need 98 GiB plus 4.9 GiB headroom\n");
    free(out);

    /* a pool that does not exist is left to provisioning to report */
    assert_int_equal(check(uri, "[drive n]\npool = nosuch\n", &out, err, sizeof err), 0);
    assert_string_equal(out, "");
    free(out);
    unlink(node);
}

/* Mount a tmpfs of size on a new folder in dir (size "300m"); 0, or -1
 * when this process may not mount (not root, no CAP_SYS_ADMIN). */
static int tmpfs_mount(char *dir, const char *size)
{
    char opts[64];
    if (!mkdtemp(dir))
        return -1;
    snprintf(opts, sizeof opts, "size=%s", size);
    if (mount("tmpfs", dir, "tmpfs", 0, opts) < 0) {
        rmdir(dir);
        return -1;
    }
    return 0;
}

static void tmpfs_unmount(const char *dir)
{
    assert_int_equal(umount(dir), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_tmpfs_path(void **state)
{
    char dir[] = "/tmp/orch-space-fs-XXXXXX", drives[256], want[512], err[512], *out;
    (void)state;
    if (tmpfs_mount(dir, "300m") < 0)
        skip();
    /* the pool folder does not exist yet: its parent, the tmpfs, counts */
    snprintf(drives, sizeof drives, "[drive t]\npath = %s/pool\n", dir);
    assert_int_equal(check("test:///default", drives, &out, err, sizeof err), -1);
    snprintf(want, sizeof want, "drivebench: drive t (%s/pool, 300 MiB free) is 1.7 GiB short: "
             "its volumes need 1 GiB plus 1 GiB headroom\n", dir);
    assert_string_equal(out, want);
    free(out);
    /* a second drive on the same file system shares its free space */
    snprintf(drives, sizeof drives, "[drive t]\npath = %s/a\n[drive u]\npath = %s\n", dir, dir);
    assert_int_equal(check("test:///default", drives, &out, err, sizeof err), -1);
    snprintf(want, sizeof want, "drivebench: drives t, u (%s/a, 300 MiB free) is 2.7 GiB short: "
             "their volumes need 2 GiB plus 1 GiB headroom\n", dir);
    assert_string_equal(out, want);
    free(out);
    tmpfs_unmount(dir);

    snprintf(dir, sizeof dir, "/tmp/orch-space-fs-XXXXXX");
    if (tmpfs_mount(dir, "3g") < 0)
        fail();
    snprintf(drives, sizeof drives, "[drive t]\npath = %s/pool\n", dir);
    assert_int_equal(check("test:///default", drives, &out, err, sizeof err), 0);
    assert_string_equal(out, "");
    free(out);
    tmpfs_unmount(dir);
}

static void census_fn(void *ctx, orch_obj_kind kind, const char *name, const char *pool)
{
    (void)kind;
    (void)name;
    (void)pool;
    (*(int *)ctx)++;
}

/* A whole run whose second drive is a 300 MiB tmpfs: refused before any
 * pool, volume or domain exists. */
static void test_run_refused(void **state)
{
    orch_fixture *f = *state;
    char dir[] = "/tmp/orch-space-fs-XXXXXX", keys[256], want[512], err[512];
    orch_run_opts o;
    orch_plan *p;
    int objects = 0;
    if (tmpfs_mount(dir, "300m") < 0)
        skip();
    snprintf(keys, sizeof keys, "path = %s\n", dir);
    p = orch_fixture_plan(f, "profile = tiny\n", keys);
    orch_fixture_opts(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    snprintf(want, sizeof want, "drivebench: drive second (%s, 300 MiB free) is 1.7 GiB short: "
             "its volumes need 1 GiB plus 1 GiB headroom\n"
             "drivebench: not enough free space on 1 drive(s) (see above); nothing was created\n",
             dir);
    assert_non_null(strstr(orch_fixture_output(f), want));
    assert_null(strstr(orch_fixture_output(f), "teardown:"));
    assert_int_equal(orch_list_objects(f->conn, census_fn, &objects, err, sizeof err), 0);
    assert_int_equal(objects, 0);
    assert_int_equal(virConnectNumOfStoragePools(f->conn), 2);     /* userpool, images */
    orch_plan_free(p);
    tmpfs_unmount(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_bytes),
        cmocka_unit_test(test_pools),
        cmocka_unit_test(test_tmpfs_path),
        cmocka_unit_test_setup_teardown(test_run_refused, orch_fixture_setup, orch_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
