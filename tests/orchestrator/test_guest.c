/* client = guest: oltp runs "inside" each VM through a stand-in guest
 * agent that executes commands on this host (testlib.h's orch_fake_agent:
 * guest-exec, guest-exec-status, guest-file-open/read/close, guest-ping),
 * with the guest's /var/tmp mapped to a folder per domain. Checks the agent protocol code end to end on
 * libvirt's test driver: results fetched, aggregated, torn down. Runs from
 * the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <glob.h>

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "util/util.h"
#include "plan/plan.h"
#include "virt/virt.h"
#include "run/run.h"
#include "testlib.h"

#define AGENT(f) ((orch_fake_agent *)(f)->user)

static orch_plan *plan_with(orch_fixture *f, const char *second)
{
    return orch_fixture_plan(f, "profile = tiny\nclient = guest\n", second);
}

static orch_plan *plan(orch_fixture *f)
{
    return plan_with(f, "pool = userpool\n");
}

static void opts_init(orch_run_opts *o, orch_fixture *f)
{
    orch_fixture_opts(o, f);
    o->agent = orch_fake_agent_cmd;
    o->hook_ctx = f->user;
}

static void assert_no_leftovers(orch_fixture *f)
{
    virStoragePoolPtr pool = virStoragePoolLookupByName(f->conn, "userpool");
    assert_int_equal(virConnectNumOfDomains(f->conn), 1);
    assert_int_equal(virConnectNumOfDefinedDomains(f->conn), 0);
    assert_int_equal(virConnectNumOfStoragePools(f->conn), 2);
    assert_non_null(pool);
    assert_int_equal(virStoragePoolNumOfVolumes(pool), 1);
    virStoragePoolFree(pool);
}

static void test_guest_run(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    json_object *s, *v;
    char path[PATH_MAX];
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_no_leftovers(f);
    /* 3 VMs: readiness check, the CPU flags (issue 31), prepare, the
     * server settings (issue 44), precondition, measure */
    assert_int_equal(AGENT(f)->execs, 18);
    assert_int_equal(orch_count_lines(f->log, "--mysql-port=3306 "), 12);
    assert_int_equal(orch_count_lines(f->log, "-drivebench.server.json settings"), 3);
    assert_int_equal(orch_count_lines(f->log, "-drivebench.measure.json oltp_read_write run"), 3);
    /* the live figure comes from the exited process's output */
    orch_assert_output(f, " | total 30.8 tps");
    s = orch_fixture_summary(f);
    json_object_object_get_ex(s, "drives", &v);
    v = json_object_array_get_idx(v, 0);
    json_object_object_get_ex(v, "latency_ms", &v);
    json_object_object_get_ex(v, "p99_mean_of_vms", &v);
    assert_string_equal(json_object_to_json_string(v), "2.2505");
    json_object_object_get_ex(s, "plan", &v);
    json_object_object_get_ex(v, "client_path", &v);
    assert_string_equal(json_object_to_json_string(v), "\"guest-loopback\"");
    /* each VM's CPU flags as its guest's /proc/cpuinfo gives them (the
     * stand-in agent's guest is this machine) */
    {
        char *want = orch_cpuinfo_flags("/proc/cpuinfo");
        json_object *vms;
        assert_non_null(want);
        json_object_object_get_ex(s, "vms", &vms);
        assert_int_equal(json_object_array_length(vms), 3);
        for (size_t i = 0; i < 3; i++) {
            assert_true(json_object_object_get_ex(json_object_array_get_idx(vms, i), "cpu_flags", &v));
            assert_string_equal(json_object_get_string(v), want);
        }
        free(want);
    }
    json_object_put(s);
    snprintf(path, sizeof path, "%s/%s/vm/drivebench-%s--second-vm1.r1.precondition.1.json",
             f->results, RUN_ID, RUN_ID);
    assert_int_equal(access(path, R_OK), 0);
    orch_plan_free(p);
}

/* A guest client needs no forwarded port, but every VM has one: where the
 * plan's port_base is taken on this host (by another run's VM, say), the
 * VMs get the next free ports, as with host clients, instead of a QEMU
 * that cannot start, and the run says which. (libvirt's test driver drops
 * the qemu:commandline that holds the forward, so the line is what shows.) */
/* Whether 127.0.0.1:port is free to listen on now. */
static bool port_free(int port)
{
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                              .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    bool ok;
    assert_true(fd >= 0);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    ok = bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    close(fd);
    return ok;
}

static void test_guest_ports_free(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    struct sockaddr_in sa;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, base = 47100;
    const char *first;
    char *want;
    /* a base whose next 3 ports are free (a VM or another suite on this
     * host may hold the fixture's): the run must move past base alone */
    while (!(port_free(base) && port_free(base + 1) && port_free(base + 2) && port_free(base + 3))
           && base < 60000)
        base += 16;
    p->port_base = base;
    assert_true(fd >= 0);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)base);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(fd, 1), 0);
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    close(fd);
    want = orch_strfmt("\nports from port_base %d are in use on this host; databases "
                       "forwarded from 127.0.0.1: a-b-x-vm1 %d, a-b-x-vm2 %d, second-vm1 %d\n",
                       base, base + 1, base + 2, base + 3);
    assert_non_null(want);
    orch_assert_output(f, want);
    free(want);
    /* with the port free again, the layout's ports and no such line */
    orch_plan_free(p);
    p = plan(f);
    p->port_base = base;
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    first = strstr(orch_fixture_output(f), "ports from port_base");
    assert_non_null(first);
    assert_null(strstr(first + 1, "ports from port_base"));
    orch_plan_free(p);
}

/* While oltp still runs in the guest (it sleeps after its interval
 * lines), the progress line already shows its TPS: read from the live
 * file in the guest through guest-file-read, not from the output
 * guest-exec gives only at exit. */
static void test_guest_live_tps(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    const char *out, *at;
    int live = 0, eta = 0;
    opts_init(&o, f);
    setenv("FAKE_OLTP_SLEEP", "3", 1);
    setenv("FAKE_OLTP_MATCH", "drivebench.measure.json", 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_SLEEP");
    unsetenv("FAKE_OLTP_MATCH");
    assert_no_leftovers(f);
    out = orch_fixture_output(f);
    /* progress lines of the measured phase showing 3 x 10.25 */
    for (at = strstr(out, "[measure "); at; at = strstr(at + 1, "[measure ")) {
        const char *nl = strchr(at, '\n'), *tot = strstr(at, " | total 30.8 tps");
        const char *close = strchr(at, ']'), *run = strstr(at, "; run ");
        live += tot && (!nl || tot < nl);
        /* the run's time left and ETA in the bracket (run/estimate.h's
         * hook, through the one phase loop the clients share) */
        eta += close && run && run < close && strstr(run, " left, ETA ")
               && strstr(run, " left, ETA ") < close;
    }
    assert_true(live >= 2);         /* the final line and at least one while running */
    assert_true(eta >= 2);
    /* while they booted, each VM's stages */
#define VM2 "drivebench-" RUN_ID "--second-vm1"
    assert_non_null(strstr(out, "[boot] " VM2 ": started; waiting for its guest agent\n"));
    assert_non_null(strstr(out, "[boot] " VM2 ": guest agent answering after "));
    assert_non_null(strstr(out, "[boot] " VM2 ": database answering after "));
#undef VM2
    orch_plan_free(p);
}

/* The guest's oltp ping says the login was refused (exit 4): the boot
 * wait fails at once with the reason, not at the boot timeout. */
static void test_guest_login_refused(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    free(p->db_password);
    p->db_password = strdup("wrong");
    opts_init(&o, f);
    orch_assert_fails_fast(f, p, &o, ": MariaDB in the guest refused user drivebench on "
                           "database sbtest (oltp ping exited 4)");
    assert_no_leftovers(f);
    orch_plan_free(p);
}

/* tls_security_level = 1 with guest clients (issue 30): the OpenSSL
 * configuration is written into each guest through guest-file-write
 * before its first ping, and every oltp the guest runs gets
 * OPENSSL_CONF naming it. */
static void test_guest_tls_level(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    char envlog[PATH_MAX], pattern[PATH_MAX];
    glob_t g;
    p->tls_security_level = 1;
    snprintf(envlog, sizeof envlog, "%s/env.log", f->results);
    setenv("FAKE_OLTP_ENVLOG", envlog, 1);
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    unsetenv("FAKE_OLTP_ENVLOG");
    assert_no_leftovers(f);
    /* 3 VMs: prepare, settings, precondition, measure (the stand-in
     * agent answers the pings itself) */
    assert_int_equal(orch_count_lines(envlog, "OPENSSL_CONF=/var/tmp/drivebench-openssl.cnf"),
                     12);
    assert_int_equal(orch_count_lines(envlog, NULL), 12);
    snprintf(pattern, sizeof pattern, "%s/*-drivebench-openssl.cnf", AGENT(f)->dir);
    assert_int_equal(glob(pattern, 0, NULL, &g), 0);
    assert_int_equal(g.gl_pathc, 3);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *text = orch_slurp(g.gl_pathv[i]);
        assert_string_equal(text, "# drivebench: [workload] tls_security_level = 1 "
                            "(OPENSSL_CONF of oltp)\nopenssl_conf = openssl_init\n\n"
                            "[openssl_init]\nssl_conf = ssl_sect\n\n[ssl_sect]\n"
                            "system_default = system_default_sect\n\n"
                            "[system_default_sect]\nCipherString = DEFAULT@SECLEVEL=1\n");
        free(text);
    }
    globfree(&g);
    orch_plan_free(p);
}

/* The guest's oltp ping fails its TLS handshake (exit 6): the boot wait
 * fails at once with the driver's message from the guest's stderr. */
static void test_guest_tls_failed(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    setenv("FAKE_GUEST_PING_TLS", "SSL Provider: [error:0A000086:SSL routines::certificate "
           "verify failed:self-signed certificate]", 1);
    opts_init(&o, f);
    orch_assert_fails_fast(f, p, &o, ": the TLS handshake with MariaDB in the guest failed; "
                           "check [workload] encrypt, trust_server_certificate and "
                           "tls_security_level (a SQL Server 2014 signing with SHA-1 needs "
                           "tls_security_level = 0 with ODBC Driver 18): oltp: ping: odbc: data "
                           "source of --odbc-connect as drivebench: TLS failed: error 10054 "
                           "(SQLSTATE 08001): SSL Provider: [error:0A000086:SSL routines::"
                           "certificate verify failed:self-signed certificate]");
    unsetenv("FAKE_GUEST_PING_TLS");
    assert_no_leftovers(f);
    orch_plan_free(p);
}

static void test_guest_oltp_fails(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    opts_init(&o, f);
    setenv("FAKE_OLTP_EXIT", "4", 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    unsetenv("FAKE_OLTP_EXIT");
    orch_assert_output(f, ": oltp prepare exited with status 4");
    assert_no_leftovers(f);
    orch_plan_free(p);
}

/* SIGINT while the guests run oltp: the run asks each guest to kill its
 * process, tears down, and reports 130. */
static void test_guest_sigint(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    opts_init(&o, f);
    AGENT(f)->sigint_at_proc = 7;            /* the first VM's prepare */
    assert_int_equal(orch_run(p, &o), ORCH_RUN_INTERRUPTED);
    orch_assert_output(f, "interrupted by signal 2");
    /* 3 readiness checks, 3 CPU flag reads, 3 prepares, 3 kills */
    assert_int_equal(AGENT(f)->execs, 12);
    assert_int_equal(AGENT(f)->kills, 3);
    assert_no_leftovers(f);
    orch_plan_free(p);
}

/* A drive on another "host" (a second libvirt connection) is provisioned
 * there through the same code, and cleaned up there. */
static void test_two_hosts(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan_with(f, "path = /srv/second\nuri = test:///default\n");
    orch_run_opts o;
    virConnectPtr other;
    json_object *s, *v;
    char err[256];
    opts_init(&o, f);
    other = orch_conns_open(f->conns, "test:///default", err, sizeof err);
    assert_non_null(other);
    assert_int_equal(virConnectNumOfStoragePools(other), 1);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    assert_no_leftovers(f);
    assert_int_equal(virConnectNumOfDomains(other), 1);          /* its own "test" */
    assert_int_equal(virConnectNumOfDefinedDomains(other), 0);
    assert_int_equal(virConnectNumOfStoragePools(other), 1);
    orch_assert_teardown(f, 3, 6, 0, 2);
    s = orch_fixture_summary(f);
    json_object_object_get_ex(s, "environment", &v);
    json_object_object_get_ex(v, "hypervisors", &v);
    assert_int_equal(json_object_array_length(v), 2);
    v = json_object_array_get_idx(v, 1);
    json_object_object_get_ex(v, "uri", &v);
    assert_string_equal(json_object_get_string(v), "test:///default");
    json_object_put(s);
    orch_plan_free(p);
}

/* a test on the fixture with a stand-in guest agent */
#define AGENT_TEST(t) cmocka_unit_test_setup_teardown(t, orch_fixture_setup_agent, \
                                                      orch_fixture_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        AGENT_TEST(test_guest_run),
        AGENT_TEST(test_guest_ports_free),
        AGENT_TEST(test_guest_live_tps),
        AGENT_TEST(test_guest_oltp_fails),
        AGENT_TEST(test_guest_login_refused),
        AGENT_TEST(test_guest_tls_level),
        AGENT_TEST(test_guest_tls_failed),
        AGENT_TEST(test_guest_sigint),
        AGENT_TEST(test_two_hosts),
    };
    return cmocka_run_group_tests_name("orchestrator guest client", tests, NULL, NULL);
}
