/* virt/agent.h's guest-exec, the one place a guest process is started and
 * its end read: the exit status rule (the exit code, or 128 + the signal
 * that ended it, as a shell says), its output decoded, and the messages
 * when the agent gives no pid. The transport is a stand-in that answers
 * what a QEMU guest agent answers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "virt/virt.h"

/* The reply to guest-exec-status, and what guest-exec answers. */
typedef struct fake {
    const char *status;
    const char *exec;
    char        last_exec[512];
} fake;

static char *transport(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s)
{
    fake *f = ctx;
    (void)dom;
    (void)timeout_s;
    if (strstr(cmd, "\"guest-exec\"")) {
        snprintf(f->last_exec, sizeof f->last_exec, "%s", cmd);
        return strdup(f->exec);
    }
    if (strstr(cmd, "\"guest-exec-status\""))
        return strdup(f->status);
    return strdup("{\"return\":{}}");
}

static char *sh(fake *f, int *code, char *err, size_t errlen)
{
    return orch_agent_sh(transport, f, NULL, "vm-a", "echo hi", 0, code, err, errlen);
}

static void test_exit_code(void **state)
{
    /* "aGkK" is "hi\n" */
    fake f = { "{\"return\":{\"exited\":true,\"exitcode\":3,\"out-data\":\"aGkK\"}}",
               "{\"return\":{\"pid\":7}}", "" };
    char err[256] = "", *out;
    int code = 0;
    (void)state;
    out = sh(&f, &code, err, sizeof err);
    assert_string_equal(out, "hi\n");
    assert_int_equal(code, 3);
    assert_non_null(strstr(f.last_exec, "\\/bin\\/sh"));
    free(out);
}

static void test_signal_is_128_plus_n(void **state)
{
    fake f = { "{\"return\":{\"exited\":true,\"signal\":9}}", "{\"return\":{\"pid\":7}}", "" };
    char err[256] = "", *out, *o = NULL, *e = NULL;
    int code = 0;
    (void)state;
    out = sh(&f, &code, err, sizeof err);
    assert_string_equal(out, "");
    assert_int_equal(code, 137);
    free(out);
    /* the client's poll reads the same rule */
    code = 0;
    assert_int_equal(orch_agent_exec_status(transport, &f, NULL, "vm-a", 7, 1, &code, &o, &e,
                                            err, sizeof err), 1);
    assert_int_equal(code, 137);
    assert_null(o);
    assert_null(e);
}

static void test_neither_is_minus_one(void **state)
{
    fake f = { "{\"return\":{\"exited\":true}}", "{\"return\":{\"pid\":7}}", "" };
    char err[256] = "";
    int code = 0;
    (void)state;
    free(sh(&f, &code, err, sizeof err));
    assert_int_equal(code, -1);
}

static void test_running_then_no_pid(void **state)
{
    fake f = { "{\"return\":{\"exited\":false}}", "{\"return\":{\"pid\":7}}", "" };
    char err[256] = "";
    int code = 42;
    (void)state;
    assert_int_equal(orch_agent_exec_status(transport, &f, NULL, "vm-a", 7, 1, &code, NULL, NULL,
                                            err, sizeof err), 0);
    assert_int_equal(code, 42);
    assert_null(sh(&f, &code, err, sizeof err));
    assert_string_equal(err, "vm-a: the guest's shell did not end in 0 s");
    f.exec = "{\"return\":{}}";
    assert_null(sh(&f, &code, err, sizeof err));
    assert_string_equal(err, "vm-a: guest-exec returned no pid");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_code),
        cmocka_unit_test(test_signal_is_128_plus_n),
        cmocka_unit_test(test_neither_is_minus_one),
        cmocka_unit_test(test_running_then_no_pid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
