/* test_passt.c — network = passt's namespace and passt (virt/passt.h) on
 * real processes, no VM: a PID file naming a process that is not passt
 * never gets it signalled; a real passt started in a real namespace
 * listens there only, and stopping it (by name, then by the run's
 * prefix) leaves no process, PID file, socket or namespace. Needs root
 * the passt program and libvirt's user libvirt-qemu: skipped without
 * them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "plan/plan.h"
#include "util/util.h"
#include "virt/virt.h"

static int can_run(void)
{
    return geteuid() == 0 && access("/usr/bin/passt", X_OK) == 0 && getpwnam("libvirt-qemu");
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A PID file of this test's own PID: removed, the process left alone. */
static void test_stop_only_passt(void **state)
{
    char name[96], path[256], pid[32];
    int removed = 0;
    (void)state;
    if (!can_run())
        skip();
    snprintf(name, sizeof name, "drivebench-unit-%d--d-vm1", (int)getpid());
    snprintf(path, sizeof path, "%s/%s.pid", ORCH_PASST_DIR, name);
    snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    mkdir("/run/drivebench", 0755);
    mkdir(ORCH_PASST_DIR, 0755);
    write_file(path, pid);
    assert_int_equal(orch_passt_stop(name, stderr), 1);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(orch_passt_stop(name, stderr), 0);         /* nothing there */
    snprintf(name, sizeof name, "drivebench-unit-%d--", (int)getpid());
    assert_int_equal(orch_passt_teardown_prefix(name, stderr, &removed), 0);
    assert_int_equal(removed, 0);
}

/* A real passt: its forward listens in the namespace and not here; the
 * prefix teardown stops it and deletes the namespace. */
static void test_start_and_teardown(void **state)
{
    char name[128], prefix[96], uuid[37], sock[128], pidpath[256], *ns, *out = NULL, err[512];
    const char *const ss[] = { "ss", "-Hltn", "sport = :40917", NULL };
    orch_command *cmd;
    int st = -1, removed = 0;
    long pid;
    FILE *f;
    (void)state;
    if (!can_run())
        skip();
    snprintf(prefix, sizeof prefix, "drivebench-unit-%d--", (int)getpid());
    snprintf(name, sizeof name, "%sd-vm2", prefix);
    orch_uuid_from_name(name, uuid);
    snprintf(sock, sizeof sock, "%s/%s.sock", ORCH_PASST_DIR, uuid);
    snprintf(pidpath, sizeof pidpath, "%s/%s.pid", ORCH_PASST_DIR, name);
    if (orch_passt_start("passt", name, sock, 40917, 5432, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(access(sock, F_OK), 0);
    f = fopen(pidpath, "r");
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld", &pid), 1);
    fclose(f);
    assert_int_equal(kill((pid_t)pid, 0), 0);
    /* listening on 127.0.0.1:40917 inside the namespace only */
    ns = orch_passt_netns_path(name);
    assert_non_null(ns);
    cmd = orch_command_new(ss);
    assert_int_equal(orch_command_netns(cmd, ns), 0);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    assert_int_equal(orch_command_run(cmd, &st, &out, NULL, err, sizeof err), 0);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "127.0.0.1:40917"));
    free(out);
    orch_command_free(cmd);
    cmd = orch_command_new(ss);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    out = NULL;
    assert_int_equal(orch_command_run(cmd, &st, &out, NULL, err, sizeof err), 0);
    assert_string_equal(out, "");
    free(out);
    orch_command_free(cmd);
    /* the run's prefix finds it: passt ended (reaped: we are its
     * subreaper), its files and namespace gone */
    assert_int_equal(orch_passt_teardown_prefix(prefix, stderr, &removed), 0);
    assert_int_equal(removed, 1);
    assert_int_equal(kill((pid_t)pid, 0), -1);
    assert_int_equal(errno, ESRCH);
    assert_int_equal(access(sock, F_OK), -1);
    assert_int_equal(access(pidpath, F_OK), -1);
    assert_int_equal(access(ns, F_OK), -1);
    free(ns);
}

/* passt that fails (here /bin/false): one message naming the step; what
 * was made (the namespace) is the caller's ledger's to remove, and
 * orch_passt_stop removes it. */
static void test_failed_start(void **state)
{
    char name[128], err[512], *ns;
    (void)state;
    if (!can_run())
        skip();
    snprintf(name, sizeof name, "drivebench-unit-%d--d-vm3", (int)getpid());
    assert_int_equal(orch_passt_start("/bin/false", name, "/run/drivebench/passt/x.sock", 40918,
                                      5432, err, sizeof err), -1);
    assert_string_equal(err, "`/bin/false -q -4 --runas libvirt-qemu ...` failed (exit 1): "
                             "no message");
    ns = orch_passt_netns_path(name);
    assert_int_equal(access(ns, F_OK), 0);
    assert_int_equal(orch_passt_stop(name, stderr), 1);
    assert_int_equal(access(ns, F_OK), -1);
    free(ns);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_only_passt),
        cmocka_unit_test(test_start_and_teardown),
        cmocka_unit_test(test_failed_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
