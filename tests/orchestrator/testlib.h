/*
 * testlib.h — what the orchestrator's run tests share: a fixture with a
 * connection to libvirt's test driver on node.xml, a scratch results
 * folder, the run's messages captured for assertions, and the plan they
 * run (two drives: "a<b ' & .. x" with 2 VMs in a run-owned pool, and
 * "second" with 1 VM). Set ORCH_TEST_VERBOSE=1 to see the messages.
 */
#ifndef ORCH_TESTLIB_H
#define ORCH_TESTLIB_H

#include <limits.h>
#include <stdio.h>
#include <json-c/json.h>
#include "plan/plan.h"
#include "virt/virt.h"
#include "run/run.h"

#define RUN_ID "fixture-20261130-000000"

typedef struct orch_fixture {
    char          cwd[PATH_MAX];
    char          uri[PATH_MAX + 64];   /* test:///.../node.xml */
    char          results[64];          /* scratch folder, removed after */
    char          log[96];              /* fake-oltp's argument log */
    orch_conns   *conns;
    virConnectPtr conn;
    FILE         *out;                  /* the run's messages */
    char         *outbuf;
    size_t        outlen;
    void         *user;                 /* one test file's own state */
} orch_fixture;

/* cmocka setup/teardown: *state becomes an orch_fixture. */
int orch_fixture_setup(void **state);
int orch_fixture_teardown(void **state);

/* 1 when a line of text repeats a part of itself ("cannot run x: cannot
 * run x: why", "vm-a: vm-a: ..."): the line into line. The fixture's
 * teardown fails a test whose run printed one: a message has one owner. */
int orch_doubled_message(const char *text, char *line, size_t len);

/* A cmocka test t on a fixture of its own. */
#define ORCH_FIXTURE_TEST(t) \
    cmocka_unit_test_setup_teardown(t, orch_fixture_setup, orch_fixture_teardown)

/* The run's messages so far. */
const char *orch_fixture_output(orch_fixture *f);

/* Fails the test, quoting text, unless the run's messages so far hold it. */
void orch_assert_output(orch_fixture *f, const char *text);

/* Fails the test unless the run's messages hold its two teardown lines:
 * "teardown: removed D domain(s), V volume(s), 0 pool(s)" (the VMs), then
 * "... 0 domain(s), V2 volume(s), P pool(s)" (seed volumes and pools). */
void orch_assert_teardown(orch_fixture *f, int domains, int volumes, int then_volumes,
                          int then_pools);

/* Write and load the test plan: run_keys adds [run] keys (profile = ...,
 * client = ...), second gives the keys of [drive second]. */
orch_plan *orch_fixture_plan(orch_fixture *f, const char *run_keys, const char *second);
/* The same with the [workload] lines after threads (times: precondition,
 * measure and the like) instead of "precondition = 1s\nmeasure = 1s\n". */
orch_plan *orch_fixture_plan_timed(orch_fixture *f, const char *run_keys, const char *times,
                                   const char *second);

/* With a boot timeout of 300 s, p's run fails within 60 s (at once, not at
 * the timeout) with text in the run's messages. */
void orch_assert_fails_fast(orch_fixture *f, orch_plan *p, orch_run_opts *o, const char *text);

/* Run options on the fixture's connections, with run id RUN_ID. */
void orch_fixture_opts(orch_run_opts *o, orch_fixture *f);
/* The host check's device of every drive in a test run: 8:0, whatever
 * file system the test's folders are on (orch_hc_opts.devno). */
int orch_fixture_devno(void *ctx, const char *path, unsigned *major, unsigned *minor);

/* Readiness on the test driver (orch_run_opts.wait_ready): the domain
 * runs. 0, or -1 with err. */
int orch_fixture_ready(void *ctx, const orch_vm *vm, virDomainPtr dom, int timeout_s, char *err,
                       size_t errlen);

/* Lines of path containing needle (all lines when needle is NULL). */
int orch_count_lines(const char *path, const char *needle);

/* The whole file at path as a string (caller frees); fails the test when
 * it cannot be read. */
char *orch_slurp(const char *path);

/* summary.json of the RUN_ID run (caller puts); fails the test when it
 * cannot be read. */
json_object *orch_fixture_summary(orch_fixture *f);

/* A stand-in QEMU guest agent that runs what it is asked on this host:
 * guest-ping, guest-exec (with /var/tmp/X and --json=/var/tmp/X mapped to
 * dir/DOMAIN-X; /bin/kill PID ends the stand-in process PID names),
 * guest-exec-status, guest-file-open/read/close. The agent transport of
 * client.h's orch_client (ctx: an orch_fake_agent, zeroed, dir set).
 * `oltp ... ping` answers 0 when OLTP_MYSQL_PASSWORD is "drivebench",
 * else 4 (login refused). */
#define ORCH_FAKE_AGENT_PROCS 64
typedef struct orch_fake_agent {
    char  dir[64];              /* the "guests'" /var/tmp, one prefix per domain */
    pid_t pids[ORCH_FAKE_AGENT_PROCS];
    int   nprocs;
    int   execs;                /* guest-exec calls */
    int   kills;                /* of which /bin/kill */
    int   sigint_at_proc;       /* raise SIGINT when asked about this process */
    FILE *files[16];
} orch_fake_agent;

char *orch_fake_agent_cmd(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s);

/* cmocka setup: orch_fixture_setup with an orch_fake_agent in f->user,
 * its dir the fixture's results folder (freed by the teardown). */
int orch_fixture_setup_agent(void **state);

/* mkdir -p path (0755; what exists is left as it is). */
void orch_mkdirs(const char *path);

#endif
