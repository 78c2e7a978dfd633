/*
 * client.h — where `oltp` runs, as one table of operations per place:
 * orch_client_host (client_host.c) runs it on this host against each VM's
 * forwarded loopback port; orch_client_guest (client_guest.c) runs it
 * inside each guest through the QEMU guest agent, which also reaches VMs
 * on other hosts. Only run.c dispatches through these tables; helpers
 * both clients use are in client_common.c.
 *
 * A phase is one loop for both clients (orch_phase_supervise,
 * supervise.c): it starts, watches and stops the processes through the
 * client's orch_phase_ops and holds every rule of a phase — the overrun
 * limit, stopping a failed VM's client, the stop request, progress lines.
 */
#ifndef ORCH_CLIENT_H
#define ORCH_CLIENT_H

#include "attributes.h"

#include <stdio.h>
#include <libvirt/libvirt.h>
#include "virt/virt.h"     /* orch_agent_fn, orch_agent_libvirt */
#include "plan/plan.h"


/* One of oltp's interval lines, as the client read it while a phase ran:
 * "[ 12s ] thds: 8 tps: 123.45 qps: 2469.00 (r/w/o: ...) lat (ms,95%):
 * 4.57 err/s: 0.00 reconn/s: 0.00" (oltp/report.c). */
typedef struct orch_interval {
    double t;                   /* seconds since oltp's run began (warm-up included) */
    int    threads;
    double tps, qps;
    double lat_pct;             /* the percentile of lat_ms (oltp's first --percentile) */
    double lat_ms;
    double errors_ps, reconnects_ps;
} orch_interval;

struct orch_job;

typedef struct orch_client {
    const orch_plan *plan;
    orch_agent_fn    agent;
    void            *agent_ctx;
    FILE            *out;               /* progress and messages */
    int              progress_every;    /* seconds */
    orch_monitor    *monitor;           /* VM health; NULL: none watched */
    const char      *run_dir;           /* host processes are recorded there
                                         * (clients/oltp_pids.h); NULL: not recorded */
    int              overrun_grace_s;   /* seconds a timed phase may overrun;
                                         * 0: 120 s + a tenth of the phase
                                         * (tests shorten it) */
    /* adds to a progress line's bracket (the run's ETA, run/estimate.h);
     * NULL: nothing */
    void           (*progress_hook)(void *ctx, FILE *out, const char *phase, int elapsed,
                                    int expected);
    void            *progress_ctx;
    /* each interval line a job's oltp printed (the live view, issue 34),
     * on the phase loop's thread; NULL: none */
    void           (*interval_hook)(void *ctx, const struct orch_job *job, const char *phase,
                                    const orch_interval *iv);
    void            *interval_ctx;
} orch_client;

/* One VM's share of a phase. The caller fills what to run and where the
 * result goes (all borrowed: the caller owns and frees them); the client
 * fills the outcome. How the client tracks the process (pid, pipe, line
 * buffer, guest agent pid) is its own business. */
typedef struct orch_job {
    const orch_vm *vm;          /* layout: name, drive, port */
    virDomainPtr   dom;         /* the running domain (guest agent target) */
    char         **argv;        /* oltp command, NULL-terminated; paths and
                                 * port as the client sees them (in_guest) */
    const char    *guest_result;/* result JSON inside the guest, or NULL */
    const char    *result;      /* result JSON on this host, or NULL (none
                                 * for commands without one) */
    int            slot;        /* the VM's slot in the client's monitor */
    /* set by the client */
    int            status;      /* exit status of oltp, -1 unknown */
    int            failed;      /* the VM or its oltp failed in this phase;
                                 * the monitor holds why */
    double         live_tps;    /* TPS of its latest interval report */
    double         started;     /* CLOCK_MONOTONIC s when its oltp was started
                                 * (orch_mono_now): oltp's start_s count from
                                 * here, give or take the launch */
} orch_job;

typedef struct orch_client_ops {
    const char *name;
    int in_guest;       /* 1: argv paths and port are the guest's view */
    /* Wait until the database of vm (running as dom) accepts a login. 0,
     * or -1 with err. */
    int (*wait_ready)(const orch_client *c, const orch_vm *vm, virDomainPtr dom, int timeout_s,
                      char *err, size_t errlen);
    /* Run every job at once until all end; the result JSON of each job
     * that names one must end up at job->result on this host. A job whose
     * VM fails (the monitor says so) or whose oltp exits non-zero is
     * stopped and marked failed, with the reason in the monitor; the
     * others go on. Returns 0 when every job ended (failed ones included),
     * -1 when the phase itself could not run or overran (reported on
     * c->out), or ORCH_RUN_INTERRUPTED (stop.h) on a stop request. Both
     * clients: orch_phase_supervise over their orch_phase_ops. */
    int (*run_phase)(const orch_client *c, orch_job *jobs, int njobs, const char *phase,
                     int expected_s);
} orch_client_ops;

/* The steps of a phase, one job at a time, for the one loop
 * (orch_phase_supervise) to drive. `procs` is the client's own hold on
 * the phase's processes (pid and pipe, or guest agent pid and live file),
 * made by begin and freed by end; only supervise.c calls these. */
typedef struct orch_phase_ops {
    /* A hold on the njobs processes of phase, none started yet; NULL when
     * out of memory. */
    void *(*begin)(const orch_client *c, orch_job *jobs, int njobs, const char *phase);
    /* Start job i's oltp. 0, or -1 with err (naming the VM). */
    int (*start)(void *procs, int i, char *err, size_t errlen);
    /* Wait up to ms milliseconds, reading what the running processes
     * print on the way (live TPS into job->live_tps). */
    void (*wait)(void *procs, int ms);
    /* Has job i's process ended? 1 ended (job->status set, job->live_tps
     * its last figure), 0 still running, -1 the client can no longer tell
     * (reported on c->out and in the monitor). */
    int (*poll)(void *procs, int i);
    /* Ask job i's process to end; hard: at once (SIGKILL). 1 when the
     * client lets go of the process then (its end will not be seen, the
     * status stays unknown), 0 when poll will report its end. */
    int (*stop)(void *procs, int i, int hard);
    /* Optional: bring job i's result JSON to job->result on this host:
     * partial 0, its oltp exited 0 (0, or -1 reported on c->out and in
     * the monitor); partial 1, the job failed and its oltp ended, so the
     * file holds what it measured up to the fault, if it wrote one (0, or
     * -1 reported on c->out only: the job has its fault already). */
    int (*fetch)(void *procs, int i, int partial);
    /* Optional: update job i's live_tps before a progress line. */
    void (*refresh)(void *procs, int i);
    /* Free procs: every process ended or was let go. */
    void (*end)(void *procs);
} orch_phase_ops;

/* The one phase loop (supervise.c), the run_phase of both clients: start
 * every job with ops, poll them until all end, stop a job whose VM fails
 * ("drivebench: VM failed during PHASE; stopping its oltp, the others go
 * on": SIGTERM, so that it writes what it measured) and mark it failed,
 * keeping the result its oltp wrote up to the fault (ops->fetch, partial), stop all on a stop request or when the phase
 * runs past expected_s by its grace ("drivebench: PHASE ran N s past its
 * E s; stopping it"), escalating to a hard stop 10 s after asking, and
 * print a progress line every c->progress_every seconds and a last one
 * when the phase completed. Returns as run_phase says. */
int orch_phase_supervise(const orch_phase_ops *ops, const orch_client *c, orch_job *jobs,
                         int njobs, const char *phase, int expected_s);

extern const orch_client_ops orch_client_host;
extern const orch_client_ops orch_client_guest;

/* --- shared by the clients (client_common.c) --- */

/* "[ 10s ] thds: 8 tps: 123.45 qps: ..." -> 123.45. 0, or -1 when the line
 * is not an interval report. */
int orch_parse_tps(const char *line, double *tps);
/* The whole interval line into *iv. 0, or -1 when the line is not one. */
int orch_parse_interval(const char *line, orch_interval *iv) DB_MUST_CHECK;
/* A line job's oltp printed during phase: an interval line sets
 * job->live_tps and goes to c's interval_hook. */
void orch_client_line(const orch_client *c, struct orch_job *job, const char *phase,
                      const char *line);

/* 1 when dom (VM `name`) is no longer running — shut off, crashed or
 * paused — with why in err, else 0: a VM that dies while booting fails
 * at once instead of at the boot timeout. */
int orch_dom_gone(virDomainPtr dom, const char *name, char *err, size_t errlen) DB_MUST_CHECK;

/* The last non-empty line of text (NULL: none) into out. */
void orch_last_line(const char *text, char *out, size_t outlen);

/* Readiness met oltp ping's exit OLTP_PING_TLS: into err, VM name's
 * failure with where ("" or " in the guest"), the driver's message (why)
 * and the plan's lines that decide the client's TLS. */
void orch_tls_failed(const orch_client *c, const char *name, const char *where,
                     const char *why, char *err, size_t errlen);


#endif
