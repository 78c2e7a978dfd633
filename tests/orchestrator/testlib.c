/* testlib.c — the orchestrator run tests' shared fixture (see testlib.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    *state = f;
    return 0;
}

int orch_fixture_teardown(void **state)
{
    orch_fixture *f = *state;
    char cmd[128];
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

orch_plan *orch_fixture_plan(orch_fixture *f, const char *run_keys, const char *second)
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
                "threads = 2\nprecondition = 1s\nmeasure = 1s\n"
                "[drive a<b ' & .. x]\npath = /srv/drive-a\nvms = 2\n"
                "[drive second]\n%s",
            f->uri, f->results, f->cwd, f->cwd, run_keys, second);
    fclose(pf);
    p = orch_plan_load(path, stderr);
    assert_non_null(p);
    return p;
}

void orch_fixture_opts(orch_run_opts *o, orch_fixture *f)
{
    memset(o, 0, sizeof *o);
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
    snprintf(path, sizeof path, "%s/%s/summary.json", f->results, RUN_ID);
    return json_object_from_file(path);
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
