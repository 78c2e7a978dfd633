/* The one phase loop (clients/supervise.c) behind both clients: the host
 * client's real child processes and the guest client's processes behind
 * testlib's stand-in guest agent get the same treatment, with the same
 * words, when a phase overruns and on a stop request. Drives each
 * client's run_phase directly on 3 jobs of fake-oltp (no run, no VMs;
 * the guest jobs name node.xml's other-vm). Runs from the
 * repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clients/clients.h"
#include "plan/plan.h"
#include "util/util.h"
#include "testlib.h"

#define NJOBS 3

typedef struct phase_result {
    int    rc;
    char  *out;                 /* what the loop printed */
    int    failed[NJOBS];
    int    seconds;
} phase_result;

/* Run one measured phase of expected_s on every VM of the fixture plan
 * with client ops, an overrun grace of 1 s and no progress lines (they
 * hold times), with the stop request armed. */
static phase_result run_phase(orch_fixture *f, const orch_client_ops *ops, int expected_s)
{
    orch_plan *p = orch_fixture_plan(f, "profile = tiny\n", "pool = userpool\n");
    orch_layout *l = orch_layout_new(p, RUN_ID, 0);
    virDomainPtr dom = virDomainLookupByName(f->conn, "other-vm");
    orch_job jobs[NJOBS];
    phase_result r = { 0 };
    size_t len = 0;
    FILE *out = open_memstream(&r.out, &len);
    orch_client c = {
        .plan = p, .agent = orch_fake_agent_cmd, .agent_ctx = f->user, .out = out,
        .progress_every = 1000, .overrun_grace_s = 1,
    };
    orch_stop_saved saved;
    time_t t0;
    assert_non_null(l);
    assert_non_null(dom);
    assert_int_equal(l->nvms, NJOBS);
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < NJOBS; i++) {
        jobs[i].vm = &l->vms[i];
        jobs[i].dom = dom;
        jobs[i].slot = i;
        jobs[i].argv = ops->in_guest
                       ? orch_oltp_argv(p, p->guest_oltp, p->engine->port, "run", expected_s, 0,
                                        NULL)
                       : orch_oltp_argv(p, p->oltp, l->vms[i].port, "run", expected_s, 0, NULL);
        assert_non_null(jobs[i].argv);
    }
    orch_stop_arm(&saved);
    t0 = time(NULL);
    r.rc = ops->run_phase(&c, jobs, NJOBS, "measure", expected_s);
    r.seconds = (int)(time(NULL) - t0);
    orch_stop_disarm(&saved);
    fclose(out);
    for (int i = 0; i < NJOBS; i++) {
        r.failed[i] = jobs[i].failed;
        orch_argv_free(jobs[i].argv);
    }
    virDomainFree(dom);
    orch_layout_free(l);
    orch_plan_free(p);
    return r;
}

/* A phase of 1 s whose oltp runs on for 8 s: stopped once it runs 1 s
 * (the grace) past its time, with one line, every job failed (it did not
 * finish), the phase failed; the same for both clients. */
static void test_overrun_same_for_both(void **state)
{
    orch_fixture *f = *state;
    phase_result host, guest;
    setenv("FAKE_OLTP_SLEEP", "8", 1);
    host = run_phase(f, &orch_client_host, 1);
    guest = run_phase(f, &orch_client_guest, 1);
    unsetenv("FAKE_OLTP_SLEEP");
    assert_string_equal(host.out, "drivebench: measure ran 2 s past its 1 s; stopping it\n");
    assert_string_equal(guest.out, host.out);
    assert_int_equal(host.rc, -1);
    assert_int_equal(guest.rc, -1);
    for (int i = 0; i < NJOBS; i++) {
        assert_int_equal(host.failed[i], 1);
        assert_int_equal(guest.failed[i], 1);
    }
    /* stopped, not waited for: the host's processes end on SIGTERM */
    assert_true(host.seconds >= 3 && host.seconds < 8);
    assert_true(guest.seconds >= 3 && guest.seconds < 8);
    /* the guest client asked each guest to kill its process */
    assert_int_equal(((orch_fake_agent *)f->user)->kills, NJOBS);
    free(host.out);
    free(guest.out);
}

/* SIGINT while the phase runs (sent by the host's first oltp; raised by
 * the guest agent when asked about the guest's first): every job is
 * stopped, nothing is printed, no job counts as failed (no fault of the
 * VMs'), the phase says interrupted; the same for both clients. */
static void test_stop_request_same_for_both(void **state)
{
    orch_fixture *f = *state;
    orch_fake_agent *a = f->user;
    phase_result host, guest;
    setenv("FAKE_OLTP_SIGINT", "measure", 1);
    host = run_phase(f, &orch_client_host, 60);
    unsetenv("FAKE_OLTP_SIGINT");
    setenv("FAKE_OLTP_SLEEP", "8", 1);
    a->sigint_at_proc = 1;
    guest = run_phase(f, &orch_client_guest, 60);
    unsetenv("FAKE_OLTP_SLEEP");
    assert_string_equal(host.out, "");
    assert_string_equal(guest.out, "");
    assert_int_equal(host.rc, ORCH_RUN_INTERRUPTED);
    assert_int_equal(guest.rc, ORCH_RUN_INTERRUPTED);
    for (int i = 0; i < NJOBS; i++) {
        assert_int_equal(host.failed[i], 0);
        assert_int_equal(guest.failed[i], 0);
    }
    assert_true(host.seconds < 10);
    assert_true(guest.seconds < 8);
    assert_int_equal(a->kills, NJOBS);
    free(host.out);
    free(guest.out);
}

/* a test on the fixture with a stand-in guest agent */
#define AGENT_TEST(t) cmocka_unit_test_setup_teardown(t, orch_fixture_setup_agent, \
                                                      orch_fixture_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        AGENT_TEST(test_overrun_same_for_both),
        AGENT_TEST(test_stop_request_same_for_both),
    };
    return cmocka_run_group_tests_name("one phase loop for both clients", tests, NULL, NULL);
}
