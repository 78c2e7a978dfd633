/* client = guest: oltp runs "inside" each VM through a stand-in guest
 * agent that executes commands on this host (guest-exec, guest-exec-status,
 * guest-file-open/read/close, guest-ping), with the guest's /var/tmp mapped
 * to a folder per domain. Checks the agent protocol code end to end on
 * libvirt's test driver: results fetched, aggregated, torn down. Runs from
 * the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

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

#include "util/names.h"
#include "plan/plan.h"
#include "virt/provision.h"
#include "run/run.h"
#include "testlib.h"

#define MAX_PROCS 64

typedef struct fake_agent {
    char  dir[64];              /* the "guests'" /var/tmp, one prefix per domain */
    pid_t pids[MAX_PROCS];
    int   nprocs;
    int   execs;                /* guest-exec calls */
    int   kills;                /* of which /bin/kill */
    int   sigint_at_proc;       /* raise SIGINT when asked about this process */
    FILE *files[16];
} fake_agent;

#define AGENT(f) ((fake_agent *)(f)->user)

static char *b64(const char *data, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(n / 3 * 4 + 8), *o = out;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned char)data[i] << 16;
        if (i + 1 < n) v |= (unsigned char)data[i + 1] << 8;
        if (i + 2 < n) v |= (unsigned char)data[i + 2];
        *o++ = t[v >> 18 & 63];
        *o++ = t[v >> 12 & 63];
        *o++ = i + 1 < n ? t[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? t[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

/* A guest path as seen from here. */
static char *map_path(fake_agent *a, virDomainPtr dom, const char *s)
{
    if (strncmp(s, "/var/tmp/", 9) == 0)
        return orch_strfmt("%s/%s-%s", a->dir, virDomainGetName(dom), s + 9);
    if (strncmp(s, "--json=/var/tmp/", 16) == 0)
        return orch_strfmt("--json=%s/%s-%s", a->dir, virDomainGetName(dom), s + 16);
    return strdup(s);
}

static char *reply(json_object *ret)
{
    json_object *r = json_object_new_object();
    char *text;
    json_object_object_add(r, "return", ret ? ret : json_object_new_object());
    text = strdup(json_object_to_json_string(r));
    json_object_put(r);
    return text;
}

static char *fake_exec(fake_agent *a, virDomainPtr dom, json_object *args)
{
    json_object *path, *argl, *envl, *ret;
    char *argv[64], *out;
    int n = 0, idx = a->nprocs++;
    pid_t pid;
    a->execs++;
    json_object_object_get_ex(args, "path", &path);
    json_object_object_get_ex(args, "arg", &argl);
    argv[n++] = strdup(json_object_get_string(path));
    for (size_t i = 0; argl && i < json_object_array_length(argl) && n < 62; i++)
        argv[n++] = map_path(a, dom, json_object_get_string(json_object_array_get_idx(argl, i)));
    argv[n] = NULL;
    out = orch_strfmt("%s/proc%d.out", a->dir, idx);
    if (strcmp(argv[0], "/bin/kill") == 0) {
        /* the guest's kill: its pids are our process numbers, never host
         * pids; stop the stand-in process it names */
        int target = atoi(argv[n - 1]) - 1;
        assert_true(target >= 0 && target < a->nprocs);
        if (a->pids[target] > 0)
            kill(a->pids[target], SIGTERM);
        a->kills++;
        pid = fork();
        if (pid == 0)
            _exit(0);
    } else {
        pid = fork();
    }
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        char *fixture = orch_strfmt("FAKE_OLTP_FIXTURE=%s.r1.json", virDomainGetName(dom));
        dup2(fd, STDOUT_FILENO);
        putenv(fixture);
        if (json_object_object_get_ex(args, "env", &envl))
            for (size_t i = 0; i < json_object_array_length(envl); i++)
                putenv(strdup(json_object_get_string(json_object_array_get_idx(envl, i))));
        /* the guest's database answers `oltp ... ping` with the password
         * in the driver's environment variable (4: login refused) */
        if (n > 1 && strcmp(argv[n - 1], "ping") == 0)
            _exit(getenv("OLTP_MYSQL_PASSWORD")
                  && strcmp(getenv("OLTP_MYSQL_PASSWORD"), "drivebench") == 0 ? 0 : 4);
        execv(argv[0], argv);
        _exit(127);
    }
    a->pids[idx] = pid;
    for (int i = 0; i < n; i++)
        free(argv[i]);
    free(out);
    ret = json_object_new_object();
    json_object_object_add(ret, "pid", json_object_new_int(idx + 1));
    return reply(ret);
}

static char *fake_status(fake_agent *a, json_object *args)
{
    json_object *pidv, *ret = json_object_new_object();
    int idx, st;
    json_object_object_get_ex(args, "pid", &pidv);
    idx = json_object_get_int(pidv) - 1;
    if (idx + 1 == a->sigint_at_proc) {
        raise(SIGINT);
        a->sigint_at_proc = 0;
        json_object_object_add(ret, "exited", json_object_new_boolean(0));
        return reply(ret);
    }
    if (a->pids[idx] > 0 && waitpid(a->pids[idx], &st, WNOHANG) == a->pids[idx]) {
        char *path = orch_strfmt("%s/proc%d.out", a->dir, idx), buf[8192];
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        char *enc = b64(buf, n);
        if (f)
            fclose(f);
        a->pids[idx] = 0;
        json_object_object_add(ret, "exited", json_object_new_boolean(1));
        json_object_object_add(ret, "exitcode", json_object_new_int(WEXITSTATUS(st)));
        json_object_object_add(ret, "out-data", json_object_new_string(enc));
        free(enc);
        free(path);
    } else {
        json_object_object_add(ret, "exited", json_object_new_boolean(0));
    }
    return reply(ret);
}

static char *fake_agent_cmd(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s)
{
    fake_agent *a = ctx;
    json_object *c = json_tokener_parse(cmd), *ex, *args = NULL;
    const char *name;
    char *out = NULL;
    (void)timeout_s;
    assert_non_null(c);
    json_object_object_get_ex(c, "execute", &ex);
    json_object_object_get_ex(c, "arguments", &args);
    name = json_object_get_string(ex);
    if (strcmp(name, "guest-ping") == 0) {
        out = reply(NULL);
    } else if (strcmp(name, "guest-exec") == 0) {
        out = fake_exec(a, dom, args);
    } else if (strcmp(name, "guest-exec-status") == 0) {
        out = fake_status(a, args);
    } else if (strcmp(name, "guest-file-open") == 0) {
        json_object *p;
        char *path;
        int h = 0;
        json_object_object_get_ex(args, "path", &p);
        path = map_path(a, dom, json_object_get_string(p));
        while (a->files[h])
            h++;
        a->files[h] = fopen(path, "rb");
        free(path);
        out = a->files[h] ? reply(json_object_new_int(h + 1000)) : NULL;
    } else if (strcmp(name, "guest-file-read") == 0) {
        json_object *hv, *cv, *ret = json_object_new_object();
        char buf[65536], *enc;
        size_t n;
        json_object_object_get_ex(args, "handle", &hv);
        json_object_object_get_ex(args, "count", &cv);
        n = fread(buf, 1, (size_t)json_object_get_int(cv) < sizeof buf
                          ? (size_t)json_object_get_int(cv) : sizeof buf,
                  a->files[json_object_get_int(hv) - 1000]);
        enc = b64(buf, n);
        json_object_object_add(ret, "count", json_object_new_int((int)n));
        json_object_object_add(ret, "buf-b64", json_object_new_string(enc));
        json_object_object_add(ret, "eof", json_object_new_boolean(
                                   feof(a->files[json_object_get_int(hv) - 1000])));
        free(enc);
        out = reply(ret);
    } else if (strcmp(name, "guest-file-close") == 0) {
        json_object *hv;
        json_object_object_get_ex(args, "handle", &hv);
        fclose(a->files[json_object_get_int(hv) - 1000]);
        a->files[json_object_get_int(hv) - 1000] = NULL;
        out = reply(NULL);
    }
    json_object_put(c);
    return out;
}

static int guest_setup(void **state)
{
    orch_fixture *f;
    fake_agent *a = calloc(1, sizeof *a);
    orch_fixture_setup(state);
    f = *state;
    snprintf(a->dir, sizeof a->dir, "%s", f->results);
    f->user = a;
    return 0;
}

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
    o->agent = fake_agent_cmd;
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
    /* 3 VMs: readiness check, prepare, precondition, measure */
    assert_int_equal(AGENT(f)->execs, 12);
    assert_int_equal(orch_count_lines(f->log, "--mysql-port=3306 "), 9);
    assert_int_equal(orch_count_lines(f->log, "-drivebench.measure.json oltp_read_write run"), 3);
    /* the live figure comes from the exited process's output */
    assert_non_null(strstr(orch_fixture_output(f), " | total 30.8 tps"));
    s = orch_fixture_summary(f);
    assert_non_null(s);
    json_object_object_get_ex(s, "drives", &v);
    v = json_object_array_get_idx(v, 0);
    json_object_object_get_ex(v, "latency_ms", &v);
    json_object_object_get_ex(v, "p99_mean_of_vms", &v);
    assert_string_equal(json_object_to_json_string(v), "2.2505");
    json_object_put(s);
    snprintf(path, sizeof path, "%s/%s/vm/drivebench-%s--second-vm1.r1.precondition.json",
             f->results, RUN_ID, RUN_ID);
    assert_int_equal(access(path, R_OK), 0);
    orch_plan_free(p);
}

/* A guest client needs no forwarded port, but every VM has one: where the
 * plan's port_base is taken on this host (by another run's VM, say), the
 * VMs get the next free ports, as with host clients, instead of a QEMU
 * that cannot start, and the run says which. (libvirt's test driver drops
 * the qemu:commandline that holds the forward, so the line is what shows.) */
static void test_guest_ports_free(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = plan(f);
    orch_run_opts o;
    struct sockaddr_in sa;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    const char *first;
    assert_true(fd >= 0);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons(47100);             /* the fixture's port_base */
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(fd, 1), 0);
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    close(fd);
    assert_non_null(strstr(orch_fixture_output(f),
                           "\nports from port_base 47100 are in use on this host; databases "
                           "forwarded from 127.0.0.1: a-b-x-vm1 47101, a-b-x-vm2 47102, second-vm1 47103\n"));
    /* with the port free again, the layout's ports and no such line */
    orch_plan_free(p);
    p = plan(f);
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
    int live = 0;
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
        live += tot && (!nl || tot < nl);
    }
    assert_true(live >= 2);         /* the final line and at least one while running */
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
    time_t t0 = time(NULL);
    free(p->db_password);
    p->db_password = strdup("wrong");
    p->boot_timeout_s = 300;
    opts_init(&o, f);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_FAILED);
    assert_true(time(NULL) - t0 < 60);
    assert_non_null(strstr(orch_fixture_output(f), ": MariaDB in the guest refused user "
                           "drivebench on database sbtest (oltp ping exited 4)"));
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
    assert_non_null(strstr(orch_fixture_output(f), ": oltp prepare exited with status 4"));
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
    AGENT(f)->sigint_at_proc = 4;            /* the first VM's prepare */
    assert_int_equal(orch_run(p, &o), ORCH_RUN_INTERRUPTED);
    assert_non_null(strstr(orch_fixture_output(f), "interrupted by signal 2"));
    /* 3 readiness checks, 3 prepares, 3 kills */
    assert_int_equal(AGENT(f)->execs, 9);
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
    assert_non_null(strstr(orch_fixture_output(f), "teardown: removed 3 domain(s), 6 volume(s), 0 pool(s)"));
    assert_non_null(strstr(orch_fixture_output(f), "teardown: removed 0 domain(s), 0 volume(s), 2 pool(s)"));
    s = orch_fixture_summary(f);
    assert_non_null(s);
    json_object_object_get_ex(s, "environment", &v);
    json_object_object_get_ex(v, "hypervisors", &v);
    assert_int_equal(json_object_array_length(v), 2);
    v = json_object_array_get_idx(v, 1);
    json_object_object_get_ex(v, "uri", &v);
    assert_string_equal(json_object_get_string(v), "test:///default");
    json_object_put(s);
    orch_plan_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_guest_run, guest_setup, orch_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_guest_ports_free, guest_setup, orch_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_guest_live_tps, guest_setup, orch_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_guest_oltp_fails, guest_setup, orch_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_guest_login_refused, guest_setup, orch_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_guest_sigint, guest_setup, orch_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_two_hosts, guest_setup, orch_fixture_teardown),
    };
    return cmocka_run_group_tests_name("orchestrator guest client", tests, NULL, NULL);
}
