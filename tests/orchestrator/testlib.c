/* testlib.c — the orchestrator run tests' shared fixture (see testlib.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "testlib.h"

int orch_fixture_setup(void **state)
{
    orch_fixture *f = calloc(1, sizeof *f);
    char err[512];
    assert_non_null(f);
    assert_non_null(getcwd(f->cwd, sizeof f->cwd));
    snprintf(f->uri, sizeof f->uri, "test://%s/tests/orchestrator/node.xml", f->cwd);
    snprintf(f->results, sizeof f->results, "/tmp/orch-test-XXXXXX");
    assert_non_null(mkdtemp(f->results));
    snprintf(f->log, sizeof f->log, "%s/oltp.log", f->results);
    f->conns = orch_conns_new();
    f->conn = orch_conns_open(f->conns, f->uri, err, sizeof err);
    assert_non_null(f->conn);
    f->out = getenv("ORCH_TEST_VERBOSE") ? stderr : open_memstream(&f->outbuf, &f->outlen);
    setenv("FAKE_OLTP_LOG", f->log, 1);
    unsetenv("FAKE_OLTP_SIGINT");
    unsetenv("FAKE_OLTP_EXIT");
    unsetenv("FAKE_OLTP_MATCH");
    unsetenv("FAKE_OLTP_SLEEP");
    unsetenv("FAKE_OLTP_CLIENTS");
    unsetenv("FAKE_OLTP_FIXTURES");
    unsetenv("FAKE_OLTP_SAY");
    unsetenv("FAKE_OLTP_ENVLOG");
    unsetenv("FAKE_GUEST_PING_TLS");
    unsetenv("OPENSSL_CONF");
    /* Each test's run starts as from a terminal, SIGINT at its default,
     * also when the suite itself runs as a background job (`make test &`),
     * which starts with SIGINT ignored and so would keep a run from
     * hearing the tests' SIGINT (util/stop.h; test_command's
     * test_stop_request covers the ignored case). */
    signal(SIGINT, SIG_DFL);
    *state = f;
    return 0;
}

int orch_doubled_message(const char *text, char *line, size_t len)
{
    while (text && *text) {
        const char *end = strchrnul(text, '\n'), *seg[64];
        size_t n = 0;
        /* the segments of the line before each ": " */
        seg[n++] = text;
        for (const char *p = text; p + 1 < end && n < 64; p++)
            if (p[0] == ':' && p[1] == ' ')
                seg[n++] = p + 2;
        /* seg[i] and seg[i + 1] both end in ": " and say the same */
        for (size_t i = 0; i + 2 < n; i++) {
            size_t a = (size_t)(seg[i + 1] - 2 - seg[i]), b = (size_t)(seg[i + 2] - 2 - seg[i + 1]);
            if (a > 0 && a == b && memcmp(seg[i], seg[i + 1], a) == 0) {
                snprintf(line, len, "%.*s", (int)(end - text), text);
                return 1;
            }
        }
        text = *end ? end + 1 : end;
    }
    return 0;
}

int orch_fixture_teardown(void **state)
{
    orch_fixture *f = *state;
    char cmd[128], line[1024];
    /* every message the test's run printed is said once by its owner */
    if (orch_doubled_message(orch_fixture_output(f), line, sizeof line)) {
        print_error("a message repeats itself (\"X: X:\"): %s\n", line);
        return -1;
    }
    if (f->out != stderr)
        fclose(f->out);
    free(f->outbuf);
    orch_conns_free(f->conns);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->results);
    assert_int_equal(system(cmd), 0);
    free(f->user);
    free(f);
    return 0;
}

const char *orch_fixture_output(orch_fixture *f)
{
    fflush(f->out);
    return f->outbuf ? f->outbuf : "";
}

void orch_assert_output(orch_fixture *f, const char *text)
{
    if (!strstr(orch_fixture_output(f), text))
        fail_msg("the run's messages lack \"%s\"; they are:\n%s", text, orch_fixture_output(f));
}

void orch_assert_teardown(orch_fixture *f, int domains, int volumes, int then_volumes,
                          int then_pools)
{
    char line[128];
    snprintf(line, sizeof line, "teardown: removed %d domain(s), %d volume(s), 0 pool(s)",
             domains, volumes);
    orch_assert_output(f, line);
    snprintf(line, sizeof line, "teardown: removed 0 domain(s), %d volume(s), %d pool(s)",
             then_volumes, then_pools);
    orch_assert_output(f, line);
}

orch_plan *orch_fixture_plan(orch_fixture *f, const char *run_keys, const char *second)
{
    return orch_fixture_plan_timed(f, run_keys, "precondition = 1s\nmeasure = 1s\n", second);
}

orch_plan *orch_fixture_plan_timed(orch_fixture *f, const char *run_keys, const char *times,
                                   const char *second)
{
    char path[PATH_MAX];
    FILE *pf;
    orch_plan *p;
    snprintf(path, sizeof path, "%s/plan.ini", f->results);
    pf = fopen(path, "w");
    assert_non_null(pf);
    fprintf(pf, "[run]\nname = fixture\nuri = %s\nvmconfigs_dir = vmconfigs\n"
                "image_dir = /srv/images\nresults_dir = %s\n"
                "oltp = %s/tests/orchestrator/fake-oltp\n"
                "guest_oltp = %s/tests/orchestrator/fake-oltp\n"
                "domain_type = qemu\nport_base = 47100\n"
                "boot_size = 1G\ndb_size = 1G\nseed_size = 1G\n%s"
                "[workload]\nname = oltp_read_write\ntables = 2\ntable_size = 10000\n"
                "threads = 2\n%s"
                "[drive a<b ' & .. x]\npath = /srv/drive-a\nvms = 2\n"
                "[drive second]\n%s",
            f->uri, f->results, f->cwd, f->cwd, run_keys, times, second);
    fclose(pf);
    p = orch_plan_load(path, stderr);
    assert_non_null(p);
    return p;
}

void orch_assert_fails_fast(orch_fixture *f, orch_plan *p, orch_run_opts *o, const char *text)
{
    time_t t0 = time(NULL);
    p->boot_timeout_s = 300;
    assert_int_equal(orch_run(p, o), ORCH_RUN_FAILED);
    assert_true(time(NULL) - t0 < 60);
    orch_assert_output(f, text);
}

int orch_fixture_devno(void *ctx, const char *path, unsigned *major, unsigned *minor)
{
    (void)ctx;
    (void)path;
    *major = 8;
    *minor = 0;
    return 0;
}

void orch_fixture_opts(orch_run_opts *o, orch_fixture *f)
{
    /* the host check reads an empty tree: the same findings (no refusal)
     * on every machine (test_hostcheck.c covers its checks) */
    static const orch_hc_opts quiet_host = { .root = "/nonexistent/drivebench-test-host",
                                             .devno = orch_fixture_devno };
    memset(o, 0, sizeof *o);
    o->host_check = &quiet_host;
    o->run_id = RUN_ID;
    o->conns = f->conns;
    o->out = f->out;
    o->progress_every = 1;
}

int orch_fixture_ready(void *ctx, const orch_vm *vm, virDomainPtr dom, int timeout_s, char *err,
                       size_t errlen)
{
    (void)ctx;
    (void)timeout_s;
    if (virDomainIsActive(dom) == 1)
        return 0;
    snprintf(err, errlen, "%s is not running", vm->name);
    return -1;
}

int orch_count_lines(const char *path, const char *needle)
{
    char line[4096];
    int n = 0;
    FILE *fp = fopen(path, "r");
    while (fp && fgets(line, sizeof line, fp))
        n += !needle || strstr(line, needle) != NULL;
    if (fp)
        fclose(fp);
    return n;
}

json_object *orch_fixture_summary(orch_fixture *f)
{
    char path[PATH_MAX];
    json_object *s;
    snprintf(path, sizeof path, "%s/%s/summary.json", f->results, RUN_ID);
    s = json_object_from_file(path);
    if (!s)
        fail_msg("cannot read %s", path);
    return s;
}

char *orch_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = calloc(1, (size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return buf;
}

/* --- the stand-in guest agent (testlib.h) --- */

/* A guest path as seen from here. */
static char *map_path(orch_fake_agent *a, virDomainPtr dom, const char *s)
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

static char *fake_exec(orch_fake_agent *a, virDomainPtr dom, json_object *args)
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
        /* signals blocked across the fork, as util/command.c does: a kill
         * that comes at once meets the default action, not the run's
         * stop handler inherited from this process */
        sigset_t all, old;
        sigfillset(&all);
        sigprocmask(SIG_SETMASK, &all, &old);
        pid = fork();
        if (pid == 0) {
            signal(SIGTERM, SIG_DFL);
            signal(SIGINT, SIG_DFL);
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
    }
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        char *errs = orch_strfmt("%s.err", out);
        int efd = open(errs, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        char *fixture = orch_strfmt("FAKE_OLTP_FIXTURE=%s.r1.json", virDomainGetName(dom));
        dup2(fd, STDOUT_FILENO);
        dup2(efd, STDERR_FILENO);
        putenv(fixture);
        if (json_object_object_get_ex(args, "env", &envl))
            for (size_t i = 0; i < json_object_array_length(envl); i++)
                putenv(strdup(json_object_get_string(json_object_array_get_idx(envl, i))));
        /* the guest's database answers `oltp ... ping` with the password
         * in the driver's environment variable (4: login refused) */
        if (n > 1 && strcmp(argv[n - 1], "ping") == 0 && getenv("FAKE_GUEST_PING_TLS")) {
            /* ... or fails its TLS handshake, as ODBC Driver 18 says it */
            fprintf(stderr, "oltp: ping: odbc: data source of --odbc-connect as drivebench: "
                    "TLS failed: error 10054 (SQLSTATE 08001): %s\n", getenv("FAKE_GUEST_PING_TLS"));
            _exit(6);
        }
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

static char *fake_status(orch_fake_agent *a, json_object *args)
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
        char *epath = orch_strfmt("%s.err", path);
        FILE *f = fopen(path, "r"), *ef = fopen(epath, "r");
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        char *enc = orch_b64_encode(buf, n), *eenc;
        if (f)
            fclose(f);
        n = ef ? fread(buf, 1, sizeof buf, ef) : 0;
        eenc = orch_b64_encode(buf, n);
        if (ef)
            fclose(ef);
        json_object_object_add(ret, "err-data", json_object_new_string(eenc));
        free(eenc);
        free(epath);
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

char *orch_fake_agent_cmd(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s)
{
    orch_fake_agent *a = ctx;
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
        json_object *p, *m;
        char *path;
        int h = 0;
        json_object_object_get_ex(args, "path", &p);
        path = map_path(a, dom, json_object_get_string(p));
        while (a->files[h])
            h++;
        a->files[h] = fopen(path, json_object_object_get_ex(args, "mode", &m)
                                  && strcmp(json_object_get_string(m), "w") == 0 ? "wb" : "rb");
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
        enc = orch_b64_encode(buf, n);
        json_object_object_add(ret, "count", json_object_new_int((int)n));
        json_object_object_add(ret, "buf-b64", json_object_new_string(enc));
        json_object_object_add(ret, "eof", json_object_new_boolean(
                                   feof(a->files[json_object_get_int(hv) - 1000])));
        free(enc);
        out = reply(ret);
    } else if (strcmp(name, "guest-file-write") == 0) {
        json_object *hv, *bv, *ret = json_object_new_object();
        size_t n;
        char *data;
        json_object_object_get_ex(args, "handle", &hv);
        json_object_object_get_ex(args, "buf-b64", &bv);
        data = orch_b64_decode(json_object_get_string(bv), &n);
        assert_non_null(data);
        assert_int_equal(fwrite(data, 1, n, a->files[json_object_get_int(hv) - 1000]), n);
        free(data);
        json_object_object_add(ret, "count", json_object_new_int((int)n));
        json_object_object_add(ret, "eof", json_object_new_boolean(0));
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

int orch_fixture_setup_agent(void **state)
{
    orch_fixture *f;
    orch_fake_agent *a = calloc(1, sizeof *a);
    assert_non_null(a);
    orch_fixture_setup(state);
    f = *state;
    snprintf(a->dir, sizeof a->dir, "%s", f->results);
    f->user = a;
    return 0;
}

void orch_mkdirs(const char *path)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}
