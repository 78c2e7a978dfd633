/*
 * run.h — `drivebench run`: provision, boot, precondition, measure,
 * collect, aggregate, write the report, and always tear down.
 */
#ifndef ORCH_RUN_H
#define ORCH_RUN_H

#include <stdio.h>
#include "clients/clients.h"
#include "plan/plan.h"
#include "run/hostcheck.h"
#include "virt/virt.h"
#include "util/util.h"       /* ORCH_RUN_OK, _DEGRADED, _FAILED, _INTERRUPTED */

/* The steps of a run, in order; a test hook can make any one fail. */
#define ORCH_STEPS(X) \
    X(POOL, "pool") X(SEED, "seed volume") X(BOOT_VOL, "boot volume") \
    X(DB_VOL, "database volume") X(DOMAIN, "domain") X(READY, "wait for database") \
    X(PREPARE, "prepare") X(PRECONDITION, "precondition") X(MEASURE, "measure") \
    X(CHECK, "check") X(SUMMARY, "summary") X(REPORT, "report") \
    X(SHUTDOWN, "shutdown") X(KEEP_SEED, "keep seed")
#define ORCH_STEP_ENUM(id, text) ORCH_STEP_##id,
typedef enum { ORCH_STEPS(ORCH_STEP_ENUM) ORCH_STEP_COUNT } orch_step;
#undef ORCH_STEP_ENUM

const char *orch_step_name(orch_step s);

typedef struct orch_run_opts {
    const char *run_id;         /* NULL: a new one from the plan name and time */
    orch_conns *conns;          /* NULL: the run opens and closes its own */
    FILE       *out;            /* progress and messages; NULL: stderr */
    int         progress_every; /* seconds between progress lines; 0: 10 */
    /* Wait until the database of vm (running as dom) answers. NULL: the
     * client's own check (client.h). 0 or -1 with err. */
    int (*wait_ready)(void *ctx, const orch_vm *vm, virDomainPtr dom, int timeout_s, char *err,
                      size_t errlen);
    /* Guest agent transport. NULL: virDomainQemuAgentCommand. */
    orch_agent_fn agent;
    /* domain_type = auto on this machine's qemu:/// (virt/kvm.h): what the
     * measurement reads; NULL: /proc/cpuinfo and /dev/kvm */
    const struct orch_kvm_probe *kvm_probe;
    /* Called before each step on each object; -1 makes that step fail.
     * For tests of teardown after failures. */
    int (*inject)(void *ctx, orch_step step, const char *object);
    /* Open uri again after its connection closed. NULL: virConnectOpen.
     * Returns a new reference, or NULL with err. */
    virConnectPtr (*reopen)(void *ctx, const char *uri, char *err, size_t errlen);
    void *hook_ctx;
    /* What drive telemetry samples through (telemetry.h); NULL: the real
     * libvirt statistics, /sys and /proc. */
    const struct orch_tel_seams *telemetry;
    orch_monitor *monitor;      /* the run's monitor while orch_run runs
                                 * (tests inject events through it) */
    /* Seed mode (`drivebench seed` of a user's image; the plan cut to one
     * VM by orch_plan_seed_view): provision, boot, prepare, shut the guest
     * down (ACPI, then destroy after seed_shutdown_s: a failure, no seed
     * kept) and copy its database volume to seed_out as qcow2 (written
     * beside it, renamed when complete) before the usual teardown; no
     * measure, no summary. NULL: a run. */
    const char *seed_out;
    int         seed_shutdown_s;    /* 0: ORCH_SEED_SHUTDOWN_S */
    const char *qemu_img;           /* NULL: "qemu-img" from PATH */
    /* The host check before anything is created (hostcheck.h): refusals
     * of these checks (NULL-terminated) do not stop the run. */
    const char *const *ignore_host_check;
    /* What the host check reads (its root, smartctl); NULL: this host.
     * Its ignore and run_prefix are the run's. */
    const orch_hc_opts *host_check;
    /* `drivebench resume` (resume.h): go on with run run_id after its
     * complete repetitions, which the checkpoint holds; NULL: a new run */
    const struct orch_resume *resume;
    /* A sweep on the same VMs (issue 45, run/sweep.c): the run is its
     * first step, and before teardown runs each later step on the same
     * VMs (run/step.c). NULL: a run. */
    const struct orch_sweep_steps *steps;
    char  run_id_out[128];      /* the run id used, filled by orch_run */
} orch_run_opts;

#define ORCH_SEED_SHUTDOWN_S 600

/* The steps of a sweep on the same VMs (plan.h orch_plan_sweep_same_vms):
 * step i's plan (plans[0] the one orch_run runs) and run id, and its
 * status once run (ORCH_RUN_*), -1 for a step not run. The caller owns
 * everything. */
typedef struct orch_sweep_steps {
    const orch_plan *const *plans;
    char *const *ids;
    int  *status;
    int   n;
} orch_sweep_steps;

/* A plan with a sweep (plan.h sweep_key; issue 34, run/sweep.c): each
 * step a run of its own (orch_run of the plan at that step's value), in
 * order, into one folder results_dir/RUN-ID holding the plan, the steps'
 * run folders RUN-ID-s1, RUN-ID-s2, ..., sweep.json (results_sweep.h res_sweep:
 * each step's figures per drive, each drive's knee) and report.html (the
 * curves). A step that fails or is interrupted ends the sweep (the steps
 * after it are "not run"). Returns the worst of its steps' statuses. */
int orch_run_sweep(const orch_plan *p, orch_run_opts *o);

/* Run plan p. SIGINT/SIGTERM stop it and tear down. Returns ORCH_RUN_OK,
 * ORCH_RUN_DEGRADED (completed, but some VMs failed: named in the summary
 * and kept out of its figures), ORCH_RUN_FAILED (reported on out) or
 * ORCH_RUN_INTERRUPTED (util/stop.h). */
int orch_run(const orch_plan *p, orch_run_opts *o);

/* The rest of what run/ offers to the other folders (the front header:
 * a file outside run/ includes only this one, tests/lint/fronts.sh). */
#include "run/aggregate.h"
#include "run/estimate.h"
#include "run/fingerprint.h"
#include "run/power.h"
#include "run/replay.h"
#include "run/resume.h"

#endif
