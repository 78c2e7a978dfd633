/* mkfixture — make a report fixture run folder with the real orchestrator
 * on libvirt's test driver (tests/orchestrator/node.xml: nothing boots)
 * and the real oltp against a local MariaDB (tests/report/oltp-local).
 * Used by tests/report/make-fixtures.sh, not by the tests themselves.
 *
 *   bin/report_mkfixture PLAN RUN_ID
 *
 * The plan names results_dir and the oltp wrapper; the run folder is
 * <results_dir>/<RUN_ID>. Exit status as `drivebench run`. */
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"
#include "run/run.h"

/* The test driver boots nothing: a VM is ready once libvirt runs it. */
static int ready_when_running(void *ctx, const orch_vm *vm, virDomainPtr dom, int timeout_s,
                              char *err, size_t errlen)
{
    (void)ctx;
    (void)timeout_s;
    if (virDomainIsActive(dom) == 1)
        return 0;
    snprintf(err, errlen, "%s is not running", vm->name);
    return -1;
}

int main(int argc, char **argv)
{
    orch_run_opts o;
    orch_plan *p;
    int rc;
    if (argc != 3) {
        fputs("usage: report_mkfixture PLAN RUN_ID\n", stderr);
        return 2;
    }
    p = orch_plan_load(argv[1], stderr);
    if (!p)
        return 2;
    memset(&o, 0, sizeof o);
    o.run_id = argv[2];
    o.out = stderr;
    o.wait_ready = ready_when_running;
    rc = orch_run(p, &o);
    orch_plan_free(p);
    return rc;
}
