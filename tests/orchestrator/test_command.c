/* util/command.h, the process launcher, on real processes (sh, cat,
 * sleep): exit status, captured output, environment, a timeout that
 * kills, a missing program, the death signal, and no child left behind. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

/* No child of this test process is left, running or zombie. */
static void assert_no_children(void)
{
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

/* Run argv to its end: 0 or -1, status, stdout, stderr (when piped). */
static int run(const char *const *argv, int *status, char **out, char **errout, char *err,
               size_t errlen)
{
    orch_command *cmd = orch_command_new(argv);
    int rc;
    assert_non_null(cmd);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_PIPE);
    rc = orch_command_run(cmd, status, out, errout, err, errlen);
    orch_command_free(cmd);
    return rc;
}

static void test_exit_status(void **state)
{
    const char *three[] = { "sh", "-c", "exit 3", NULL };
    const char *term[] = { "sh", "-c", "kill -TERM $$", NULL };
    const char *ok[] = { "true", NULL };
    char err[256];
    int status = -1;
    (void)state;
    assert_int_equal(run(three, &status, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(status, 3);
    assert_int_equal(run(term, &status, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(status, 128 + SIGTERM);
    assert_int_equal(run(ok, &status, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(status, 0);
    assert_no_children();
}

static void test_captured_output(void **state)
{
    const char *both[] = { "sh", "-c", "echo out; echo err >&2; echo out2", NULL };
    char err[256], *out, *errout;
    int status;
    orch_command *cmd;
    (void)state;
    /* apart */
    assert_int_equal(run(both, &status, &out, &errout, err, sizeof err), 0);
    assert_string_equal(out, "out\nout2\n");
    assert_string_equal(errout, "err\n");
    free(out);
    free(errout);
    /* stderr where stdout goes: one stream, in order */
    cmd = orch_command_new(both);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_TO_STDOUT);
    assert_int_equal(orch_command_run(cmd, &status, &out, NULL, err, sizeof err), 0);
    assert_string_equal(out, "out\nerr\nout2\n");
    assert_int_equal(orch_command_stderr_fd(cmd), -1);
    free(out);
    orch_command_free(cmd);
    /* stderr to /dev/null, nothing printed, nothing captured */
    cmd = orch_command_new(both);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_NULL);
    assert_int_equal(orch_command_run(cmd, &status, &out, &errout, err, sizeof err), 0);
    assert_string_equal(out, "out\nout2\n");
    assert_string_equal(errout, "");
    free(out);
    free(errout);
    orch_command_free(cmd);
    /* more than the limit: the first bytes kept, the rest drained */
    const char *big[] = { "sh", "-c", "head -c 300000 /dev/zero | tr '\\0' a; echo done >&2", NULL };
    cmd = orch_command_new(big);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_PIPE);
    orch_command_output_limit(cmd, 1000);
    assert_int_equal(orch_command_run(cmd, &status, &out, &errout, err, sizeof err), 0);
    assert_int_equal(status, 0);
    assert_int_equal(strlen(out), 1000);
    assert_int_equal(strspn(out, "a"), 1000);
    assert_string_equal(errout, "done\n");
    free(out);
    free(errout);
    orch_command_free(cmd);
    assert_no_children();
}

/* stdin from a file (ssh-keygen -Y verify reads the signed text there):
 * the child reads it whole; a file that cannot be opened fails the start
 * with one message, no child made. */
static void test_stdin_file(void **state)
{
    const char *cat[] = { "cat", NULL };
    char path[] = "/tmp/orch-stdin-XXXXXX", err[256], *out;
    int fd = mkstemp(path), status;
    orch_command *cmd;
    (void)state;
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "line 1\nline 2\n", 14), 14);
    close(fd);
    cmd = orch_command_new(cat);
    assert_int_equal(orch_command_stdin_file(cmd, path), 0);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    assert_int_equal(orch_command_run(cmd, &status, &out, NULL, err, sizeof err), 0);
    assert_int_equal(status, 0);
    assert_string_equal(out, "line 1\nline 2\n");
    free(out);
    orch_command_free(cmd);
    unlink(path);
    cmd = orch_command_new(cat);
    assert_int_equal(orch_command_stdin_file(cmd, path), 0);
    assert_int_equal(orch_command_run(cmd, &status, &out, NULL, err, sizeof err), -1);
    {
        char want[256];
        snprintf(want, sizeof want, "cannot run cat: cannot read %s: No such file or directory",
                 path);
        assert_string_equal(err, want);
    }
    assert_int_equal(orch_command_pid(cmd), -1);
    orch_command_free(cmd);
    assert_no_children();
}

/* Variables added on top of this process's: a name set here is replaced,
 * not doubled; the last setting of one name wins; NULL leaves it out. */
static void test_environment(void **state)
{
    const char *argv[] = { "sh", "-c", "env | grep '^CMDTEST_' | sort", NULL };
    orch_command *cmd = orch_command_new(argv);
    char err[256], *out;
    int status;
    (void)state;
    setenv("CMDTEST_KEPT", "as is", 1);
    setenv("CMDTEST_OLD", "old", 1);
    assert_int_equal(orch_command_setenv(cmd, "CMDTEST_OLD", "new"), 0);
    assert_int_equal(orch_command_setenv(cmd, "CMDTEST_PW", "first"), 0);
    assert_int_equal(orch_command_setenv(cmd, "CMDTEST_PW", "S3cret;pw"), 0);
    assert_int_equal(orch_command_setenv(cmd, "CMDTEST_NONE", NULL), 0);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    assert_int_equal(orch_command_run(cmd, &status, &out, NULL, err, sizeof err), 0);
    assert_int_equal(status, 0);
    assert_string_equal(out, "CMDTEST_KEPT=as is\nCMDTEST_OLD=new\nCMDTEST_PW=S3cret;pw\n");
    free(out);
    orch_command_free(cmd);
    /* this process's own environment is untouched */
    assert_string_equal(getenv("CMDTEST_OLD"), "old");
    assert_null(getenv("CMDTEST_PW"));
    unsetenv("CMDTEST_KEPT");
    unsetenv("CMDTEST_OLD");
}

/* A child past its time is killed, its process group with it (the
 * shell's sleep holds the pipe: without the group kill, nothing ends). */
static void test_timeout_kills(void **state)
{
    const char *argv[] = { "sh", "-c", "echo started; sleep 30; echo never", NULL };
    orch_command *cmd = orch_command_new(argv);
    char err[256], *out;
    int status;
    time_t t0 = time(NULL);
    (void)state;
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_own_group(cmd);
    orch_command_timeout(cmd, 300);
    assert_int_equal(orch_command_run(cmd, &status, &out, NULL, err, sizeof err), 0);
    assert_true(time(NULL) - t0 < 5);
    assert_int_equal(status, 128 + SIGKILL);
    assert_int_equal(orch_command_timed_out(cmd), 1);
    assert_string_equal(out, "started\n");
    free(out);
    orch_command_free(cmd);
    /* one that ends in time is not marked */
    const char *quick[] = { "true", NULL };
    cmd = orch_command_new(quick);
    orch_command_timeout(cmd, 5000);
    assert_int_equal(orch_command_run(cmd, &status, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(status, 0);
    assert_int_equal(orch_command_timed_out(cmd), 0);
    orch_command_free(cmd);
    assert_no_children();
}

/* A program that cannot run fails the start, with one message; no child
 * is left and nothing is captured. */
static void test_missing_program(void **state)
{
    const char *none[] = { "drivebench-no-such-program", "x", NULL };
    const char *path[] = { "/nonexistent/oltp", NULL };
    char err[256], *out = (char *)"unset", noexec[64];
    int status = 0;
    FILE *f;
    (void)state;
    assert_int_equal(run(none, &status, &out, NULL, err, sizeof err), -1);
    assert_string_equal(err, "cannot run drivebench-no-such-program: No such file or directory");
    assert_null(out);
    assert_int_equal(status, -1);
    assert_int_equal(run(path, &status, NULL, NULL, err, sizeof err), -1);
    assert_string_equal(err, "cannot run /nonexistent/oltp: No such file or directory");
    /* there, but not executable */
    snprintf(noexec, sizeof noexec, "/tmp/cmdtest-XXXXXX");
    assert_true(mkstemp(noexec) >= 0);
    f = fopen(noexec, "w");
    fputs("#!/bin/sh\necho hi\n", f);
    fclose(f);
    chmod(noexec, 0644);
    const char *ne[] = { noexec, NULL };
    orch_command *cmd = orch_command_new(ne);
    assert_int_equal(orch_command_start(cmd, err, sizeof err), -1);
    unlink(noexec);
    assert_true(strncmp(err, "cannot run /tmp/cmdtest-", 24) == 0);
    assert_non_null(strstr(err, ": Permission denied"));
    assert_int_equal(orch_command_pid(cmd), -1);
    assert_int_equal(orch_command_kill(cmd, SIGTERM), -1);
    orch_command_free(cmd);
    assert_no_children();
}

/* Started and watched: stdin written, stdout read, poll while running,
 * wait at the end; a kill after the reap touches nothing. */
static void test_start_poll_wait(void **state)
{
    const char *argv[] = { "cat", NULL };
    orch_command *cmd = orch_command_new(argv);
    char err[256], buf[16];
    int status = -1;
    ssize_t n;
    (void)state;
    orch_command_stdin(cmd, ORCH_COMMAND_PIPE);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    assert_int_equal(orch_command_start(cmd, err, sizeof err), 0);
    assert_true(orch_command_pid(cmd) > 0);
    assert_int_equal(orch_command_poll(cmd, &status), 0);
    assert_int_equal(write(orch_command_stdin_fd(cmd), "abc", 3), 3);
    orch_command_close_stdin(cmd);
    assert_int_equal(orch_command_stdin_fd(cmd), -1);
    n = read(orch_command_stdout_fd(cmd), buf, sizeof buf);
    assert_int_equal(n, 3);
    assert_memory_equal(buf, "abc", 3);
    assert_int_equal(orch_command_wait(cmd, &status), 0);
    assert_int_equal(status, 0);
    assert_int_equal(orch_command_poll(cmd, &status), -1);
    assert_int_equal(orch_command_kill(cmd, SIGKILL), -1);
    assert_int_equal(errno, ESRCH);
    orch_command_free(cmd);
    assert_no_children();
}

/* SIGTERM ignored here (as under nohup) is at its default in the child;
 * a command freed while its child runs kills and reaps it. */
static void test_signals_and_free(void **state)
{
    const char *argv[] = { "sleep", "30", NULL };
    orch_command *cmd = orch_command_new(argv);
    struct sigaction ign = { .sa_handler = SIG_IGN }, old;
    char err[256];
    int status = -1;
    (void)state;
    sigaction(SIGTERM, &ign, &old);
    assert_int_equal(orch_command_start(cmd, err, sizeof err), 0);
    sigaction(SIGTERM, &old, NULL);
    assert_int_equal(orch_command_kill(cmd, SIGTERM), 0);
    assert_int_equal(orch_command_wait(cmd, &status), 0);
    assert_int_equal(status, 128 + SIGTERM);
    orch_command_free(cmd);
    cmd = orch_command_new(argv);
    assert_int_equal(orch_command_start(cmd, err, sizeof err), 0);
    orch_command_free(cmd);
    assert_no_children();
    orch_command_free(NULL);
}

/* The stop request under both ways a run is started: from a terminal
 * (SIGINT at its default: recorded, then the default is back) and as a
 * background job (SIGINT ignored: still ignored, a SIGINT does not stop
 * the run, SIGTERM does). */
static void test_stop_request(void **state)
{
    struct sigaction dfl = { .sa_handler = SIG_DFL }, ign = { .sa_handler = SIG_IGN }, old, now;
    orch_stop_saved saved;
    (void)state;
    sigaction(SIGINT, &dfl, &old);
    orch_stop_arm(&saved);
    assert_int_equal(orch_stop_requested(), 0);
    raise(SIGINT);
    assert_int_equal(orch_stop_signal(), SIGINT);
    orch_stop_disarm(&saved);
    sigaction(SIGINT, NULL, &now);
    assert_true(now.sa_handler == SIG_DFL);

    sigaction(SIGINT, &ign, NULL);
    orch_stop_arm(&saved);
    raise(SIGINT);
    assert_int_equal(orch_stop_requested(), 0);
    raise(SIGTERM);
    assert_int_equal(orch_stop_signal(), SIGTERM);
    orch_stop_disarm(&saved);
    sigaction(SIGINT, NULL, &now);
    assert_true(now.sa_handler == SIG_IGN);
    sigaction(SIGTERM, NULL, &now);
    assert_true(now.sa_handler == SIG_DFL);
    sigaction(SIGINT, &old, NULL);
}

/* 1 when process pid is gone or a zombie (ended, not yet reaped by its
 * new parent). */
static int pid_ended(pid_t pid)
{
    char path[64], line[256], *rp;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (!(f = fopen(path, "r")))
        return 1;
    rp = fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;
    fclose(f);
    return rp && (rp[2] == 'Z' || rp[2] == 'X');
}

/* A child with a death signal ends when its parent dies: a parent
 * process starts `sleep 30` and exits at once. */
/* orch_command_netns: the child runs in the namespace of the file
 * given (here this process's own: its link reads the same), as root; a
 * file that is not there fails the start with one message and no child. */
static void test_netns(void **state)
{
    const char *const argv[] = { "readlink", "/proc/self/ns/net", NULL };
    const char *const t[] = { "true", NULL };
    orch_command *cmd = orch_command_new(t);
    char err[256] = "", *out = NULL, mine[64] = "";
    int st = -1;
    (void)state;
    assert_non_null(cmd);
    assert_int_equal(orch_command_netns(cmd, "/nonexistent/netns"), 0);
    assert_int_equal(orch_command_start(cmd, err, sizeof err), -1);
    assert_string_equal(err, "cannot run true in network namespace /nonexistent/netns: "
                             "No such file or directory");
    orch_command_free(cmd);
    assert_no_children();
    assert_true(readlink("/proc/self/ns/net", mine, sizeof mine - 1) > 0);
    cmd = orch_command_new(argv);
    assert_non_null(cmd);
    assert_int_equal(orch_command_netns(cmd, "/proc/self/ns/net"), 0);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    if (geteuid() != 0) {       /* setns needs CAP_SYS_ADMIN */
        assert_int_equal(orch_command_run(cmd, &st, &out, NULL, err, sizeof err), -1);
        assert_string_equal(err, "cannot run readlink: Operation not permitted");
    } else {
        assert_int_equal(orch_command_run(cmd, &st, &out, NULL, err, sizeof err), 0);
        assert_int_equal(st, 0);
        assert_non_null(out);
        out[strcspn(out, "\n")] = '\0';
        assert_string_equal(out, mine);
    }
    free(out);
    orch_command_free(cmd);
    assert_no_children();
}

static void test_death_signal(void **state)
{
    int fds[2];
    pid_t mid, sleeper = 0;
    (void)state;
    assert_int_equal(pipe(fds), 0);
    mid = fork();
    assert_true(mid >= 0);
    if (mid == 0) {
        const char *argv[] = { "sleep", "30", NULL };
        orch_command *cmd = orch_command_new(argv);
        char err[256];
        pid_t p = -1;
        orch_command_death_signal(cmd, SIGKILL);
        if (orch_command_start(cmd, err, sizeof err) == 0)
            p = orch_command_pid(cmd);
        if (write(fds[1], &p, sizeof p) != sizeof p)
            _exit(2);
        _exit(0);               /* without freeing: the death signal ends it */
    }
    close(fds[1]);
    assert_int_equal(read(fds[0], &sleeper, sizeof sleeper), sizeof sleeper);
    close(fds[0]);
    assert_true(sleeper > 0);
    assert_int_equal(waitpid(mid, NULL, 0), mid);
    for (int i = 0; i < 50 && !pid_ended(sleeper); i++)
        usleep(100 * 1000);
    assert_true(pid_ended(sleeper));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_captured_output),
        cmocka_unit_test(test_stdin_file),
        cmocka_unit_test(test_environment),
        cmocka_unit_test(test_timeout_kills),
        cmocka_unit_test(test_missing_program),
        cmocka_unit_test(test_start_poll_wait),
        cmocka_unit_test(test_signals_and_free),
        cmocka_unit_test(test_stop_request),
        cmocka_unit_test(test_death_signal),
        cmocka_unit_test(test_netns),
    };
    return cmocka_run_group_tests_name("process launcher (util/command.h)", tests, NULL, NULL);
}
