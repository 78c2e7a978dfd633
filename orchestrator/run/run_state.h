/*
 * run_state.h — what orch_run holds while a run goes, shared by the files
 * of run/ (run.c: the top and the repetitions; reconnect.c: steps and
 * lost libvirt connections; setup.c: the run folder, ports, teardown;
 * boot.c: pools, volumes, domains and readiness; phase.c: the phases of
 * one repetition; collect.c: each VM's results; summary.c: summary.json
 * and the report; hostcheck.c: the host check; seed.c: seed mode). Private to run/: nothing outside includes it.
 */
#ifndef ORCH_RUN_STATE_H
#define ORCH_RUN_STATE_H

#include "run/run.h"
#include "attributes.h"
#include "run/aggregate.h"
#include "run/estimate.h"
#include "telemetry/telemetry.h"
#include "live/live.h"
#include "virt/virt.h"
#include "util/util.h"
/* What exists of one VM while the run goes (index as in the layout). */
typedef struct run_vm {
    virConnectPtr conn;         /* its drive's, borrowed from the run's orch_conns */
    const char   *domain_type;  /* "kvm" or "qemu" */
    char          type_reason[256]; /* why that domain type (kvm.h) */
    virDomainPtr  dom;          /* running domain of this repetition, or NULL */
    unsigned char uuid[VIR_UUID_BUFLEN];    /* of dom: found again after a reconnect */
    int           slot;         /* in the monitor, this repetition */
    const char   *failed_in;    /* the phase it failed in (static), or NULL */
    char         *cpu_flags;    /* the guest's /proc/cpuinfo flags this
                                 * repetition, or NULL: not read */
} run_vm;

typedef struct run_state {
    const orch_plan *p;
    const orch_client_ops *client;
    orch_client      cl;
    orch_run_opts   *o;
    FILE            *out;
    orch_layout     *l;
    orch_template   *t;
    orch_conns      *conns;
    orch_ledger     *run_objs;      /* pools, seed volumes: live for the whole run */
    orch_ledger     *rep_objs;      /* domains, boot and db volumes: one repetition */
    virStoragePoolPtr *pools;       /* per drive */
    orch_restore_figure *restore;   /* per drive, all repetitions */
    orch_images     *images;        /* image paths per drive, on its host */
    run_vm          *vms;           /* per layout VM */
    orch_monitor    *mon;           /* VM health, all connections */
    orch_telemetry  *tel;           /* drive I/O sampling (issue 13), or NULL */
    orch_live       *live;          /* the live view ([run] metrics), or NULL */
    int              failed_vms;    /* VMs that failed, all repetitions */
    orch_vm_result  *results;
    int              nresults;
    /* the precondition's rounds and verdicts (precondition.c), index
     * (rep - 1) * ndrives + d and (rep - 1) * nvms + i; NULL without a
     * precondition */
    res_steady      *pre_drives, *pre_vms;
    int              reps_run;          /* repetitions started so far */
    int              reps_done;         /* run to their end (resume.h) */
    int              lock_fd;           /* the run folder's lock, or -1 */
    char            *repetitions_stop;  /* repetitions = auto: why it
                                         * stopped (run.c), or NULL */
    char             err[DB_ERR_LEN];
    orch_eta         eta;           /* the whole run's time left (estimate.h) */
    res_hc_finding  *hc;            /* the host check's findings (hostcheck.c) */
    int              nhc;
    /* [workload] target (capacity_search.c): each drive's search, and the step
     * (N of RUN-ID-pN) of each of its probes; NULL without a target */
    orch_cap_search *cap;
    int            (*cap_step)[ORCH_CAP_MAX_PROBES];
    int              cap_probing;   /* 1 while a probe writes its summary */
} run_state;

/* reconnect.c */
/* Whether SIGINT or SIGTERM asked the run to stop (ctx: the run_state). */
int run_stop_requested(void *ctx);
/* The test hook, then the checks for a stop request and for a lost
 * libvirt connection before step s on object. -1 with st->err set. */
int run_step(run_state *st, orch_step s, const char *object) DB_MUST_CHECK;
/* Sleep up to s seconds, waking early on a stop request. */
void run_nap(run_state *st, int s);
/* Reopen every connection the monitor saw close and rebind the run's
 * objects to it. 0, or -1 with st->err (libvirt did not come back). */
int run_reconnect_lost(run_state *st, const char *when) DB_MUST_CHECK;

/* setup.c */
/* mkdir -p path with mode. 0, or -1 with errno. */
int run_mkdir_p(const char *path, mode_t mode) DB_MUST_CHECK;
/* Refuse drivebench's image of another engine than the plan's. 0 or -1. */
int run_check_image_engine(run_state *st) DB_MUST_CHECK;
/* The run folder, its vm/ and console/, and the redacted plan.ini. 0 or -1. */
int run_setup_dirs(run_state *st) DB_MUST_CHECK;
/* Free loopback ports for every local VM's forward. 0 or -1. */
int run_assign_ports(run_state *st) DB_MUST_CHECK;
/* Remove what ledger l holds; returns how many objects remain. */
int run_teardown(run_state *st, orch_ledger *l);
/* Remove the run's objects by name on every host; 0 when all are clean. */
int run_retry_teardown(run_state *st);

/* boot.c */
/* Pools and seed volumes, for the whole run. 0 or -1 with st->err. */
int run_provision_drives(run_state *st) DB_MUST_CHECK;
/* Boot and database volumes, then every domain of repetition rep. */
int run_provision_rep(run_state *st, int rep);
/* Wait until every VM's database answers. 0 or -1 with st->err. */
int run_wait_ready(run_state *st, int rep) DB_MUST_CHECK;

/* phase.c */
/* Provision, boot and run the phases of repetition rep; *measured is set
 * once its measured phase started. 0 or -1 with st->err. */
int run_repetition(run_state *st, int rep, int *measured) DB_MUST_CHECK;
/* The server settings of every healthy VM of repetition rep, read with
 * `oltp settings` into vm/NAME.rREP.server.json (settings.c); a setting
 * that differs from the plan's [settings] refuses the run (its line in
 * st->err) unless settings_mismatch = warn. 0, or -1 with st->err. */
int run_read_settings(run_state *st, int rep) DB_MUST_CHECK;
/* The settings of s that differ from what the plan wants (a wanted value
 * with '%' is not compared): how many; the first as one line in line
 * ("VM NAME: server setting 'X' is FOUND, the plan's [settings] wants
 * WANTED", and how many more). */
int run_server_mismatch(const struct res_server *s, const char *vm, char *line, size_t len);
/* Run one phase of oltp (command "run", "prepare", "check") on every VM
 * still healthy, all at once, for time_s (0: until done) after warmup_s.
 * Results land in the run folder as vm/<vm>.r<rep>[.<phase>].json, or
 * round `round` (> 0) of a precondition's (layout.h; none for prepare).
 * A VM that fails is named (monitor.h) and left out of the phases after;
 * the phase fails only when no VM is left. 0 or -1 with st->err. */
int run_phase(run_state *st, int rep, orch_step s, res_phase_id ph, const char *command,
              int time_s, int warmup_s, int round);

/* live_view.c */
/* The live view when the plan asks for it ([run] metrics): serving, fed
 * by the clients' and the telemetry's hooks. 0, or -1 with st->err. */
int run_live_start(run_state *st) DB_MUST_CHECK;
/* Read the monitor's last faults into it and forget the monitor (before
 * orch_monitor_free). */
void run_live_detach(run_state *st);
/* Wait for one scrape after the run's last figures when it was scraped
 * (orch_live_linger), then stop serving it (after the telemetry stopped
 * ticking). */
void run_live_stop(run_state *st);

/* seed.c */
/* Seed mode (run.h seed_out): provision and boot the plan's one VM, run
 * prepare, shut it down cleanly and copy its database volume to
 * st->o->seed_out. 0 or -1 with st->err (no seed file then). */
int run_seed(run_state *st) DB_MUST_CHECK;

/* step.c (issue 45) */
/* One measured step at plan sp's load (sp: the run's plan with another
 * load, e.g. a sweep step's) on the run's VMs, already provisioned,
 * prepared and preconditioned: its measured phase after sp's step warm-up
 * (orch_plan_step_warmup), then its summary and report in a run folder
 * of its own, run_id, beside the run's; the precondition's rounds stay in
 * the run's first summary. The run's state is as before afterwards (VMs
 * that failed stay failed). Returns ORCH_RUN_OK, _DEGRADED (VMs failed),
 * _FAILED (st->err; a partial summary kept when it measured) or
 * _INTERRUPTED. */
int run_load_step(run_state *st, const orch_plan *sp, const char *run_id);
/* The same in the folder dir (a capacity probe's, inside the run's). */
int run_load_step_in(run_state *st, const orch_plan *sp, const char *run_id, const char *dir);

/* capacity_search.c (issue 45) */
/* [workload] target's search, after the run's measure and record: probes
 * on the same VMs (run_load_step_in, folders probes/RUN-ID-pN), every
 * drive probed in each at its own search's next rate, until every
 * search is done; the searches in st->cap. 0, or -1 with st->err (a
 * probe failed or was interrupted; the searches so far kept). */
int run_capacity(run_state *st);
/* One line per drive: its capacity, interval and probes. */
void run_capacity_print(const run_state *st);
/* A sweep on the same VMs (st->o->steps), after the first step's measure
 * and record: its summary and report, then each later step
 * (run_load_step) in order, each one's status in the steps' status;
 * *summary_written once the first step's summary is there. 0, or -1 with
 * st->err when a step failed or was interrupted (the later ones not run). */
int run_sweep_steps(run_state *st, const char *started, int *summary_written) DB_MUST_CHECK;
/* The run's ETA counts a sweep's later steps (st->o->steps) from the start. */
void run_sweep_eta(run_state *st);

/* precondition.c */
/* The precondition of repetition rep in rounds of steady_round, until
 * steady (precondition = until-steady) or for its fixed time; each
 * round's TPS, p99 and drive I/O per VM and drive, and the verdict by
 * SNIA's window rule, in st->pre_drives / pre_vms. 0 or -1 with st->err. */
int run_precondition(run_state *st, int rep) DB_MUST_CHECK;
/* Free what run_precondition recorded. */
void run_precondition_clear(run_state *st);

/* collect.c */
/* One result entry per VM of repetition rep, with its health. */
void run_record_rep(run_state *st, int rep);
/* Free the result entries' strings. */
void run_results_clear(run_state *st);
/* The last keep lines of vm's console log in repetition rep, with a guest
 * kernel's panic line kept (orch_file_tail's mark), read once the log has
 * stopped changing (orch_file_settle, at most settle_ms; 0: at once): a
 * new string, or NULL. With path_out, the log's path too (a new string,
 * or NULL; caller frees). */
char *run_console_tail(run_state *st, const orch_vm *vm, int rep, int keep, int settle_ms,
                       char **path_out);

/* hostcheck.c */
/* The host check (hostcheck.h), printed on st->out and kept for the
 * summary. 0, or -1 with st->err when it refuses (or out of memory). */
int run_host_check(run_state *st) DB_MUST_CHECK;

/* resume.c (resume_run.c) */
/* A resume's kept repetitions (st->o->resume) into the run's state: their
 * VM entries, precondition rounds and restore figures, as if this
 * process had run them. 0, or -1 with st->err. */
int run_resume_load(run_state *st) DB_MUST_CHECK;
/* The summary's record of the resume: completed repetitions and
 * interruptions. 0, or -1 when out of memory. */
int run_resume_record(const run_state *st, res_summary *sum) DB_MUST_CHECK;

/* summary.c */
/* The current UTC time as ISO 8601 into buf. */
void run_iso_now(char *buf, size_t len);
/* summary.json from the results so far (partial: after a failure;
 * RUN_CHECKPOINT: after a complete repetition, silently, for resume.h). */
#define RUN_CHECKPOINT 2
int run_write_summary(run_state *st, const char *started, int partial);
/* report.html and report.csv from summary.json. 0 or -1 with st->err. */
int run_write_report(run_state *st) DB_MUST_CHECK;

#endif
