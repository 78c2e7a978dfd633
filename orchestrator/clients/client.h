/*
 * client.h — where `oltp` runs, as one table of operations per place:
 * orch_client_host (client_host.c) runs it on this host against each VM's
 * forwarded loopback port; orch_client_guest (client_guest.c) runs it
 * inside each guest through the QEMU guest agent, which also reaches VMs
 * on other hosts. Only run.c dispatches through these tables; helpers
 * both clients use are in client_common.c.
 */
#ifndef ORCH_CLIENT_H
#define ORCH_CLIENT_H

#include <stdio.h>
#include <libvirt/libvirt.h>
#include "plan/layout.h"
#include "virt/monitor.h"
#include "plan/plan.h"

/* Send one guest agent command (JSON text) to dom; returns the reply
 * (caller frees) or NULL on error. The default is
 * virDomainQemuAgentCommand; tests put a stand-in here. */
typedef char *(*orch_agent_fn)(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s);

typedef struct orch_client {
    const orch_plan *plan;
    orch_agent_fn    agent;
    void            *agent_ctx;
    FILE            *out;               /* progress and messages */
    int              progress_every;    /* seconds */
    orch_monitor    *monitor;           /* VM health; NULL: none watched */
    const char      *run_dir;           /* host processes are recorded there
                                         * (clients/oltp_pids.h); NULL: not recorded */
    /* adds to a progress line's bracket (the run's ETA); NULL: nothing */
    void           (*progress_hook)(void *ctx, FILE *out, const char *phase, int elapsed,
                                    int expected);
    void            *progress_ctx;
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
     * c->out), or ORCH_RUN_INTERRUPTED (stop.h) on a stop request. */
    int (*run_phase)(const orch_client *c, orch_job *jobs, int njobs, const char *phase,
                     int expected_s);
} orch_client_ops;

extern const orch_client_ops orch_client_host;
extern const orch_client_ops orch_client_guest;

/* --- shared by the clients (client_common.c) --- */

/* "[ 10s ] thds: 8 tps: 123.45 qps: ..." -> 123.45. 0, or -1 when the line
 * is not an interval report. */
int orch_parse_tps(const char *line, double *tps);

/* One progress line on c->out: "[phase 12s/60s, 48s left] d1-vm1 10.2 ...
 * | total 20.4 tps" (from an hour on, the time left as h:mm:ss), with
 * c's progress_hook's text before the ']'. */
void orch_progress(const orch_client *c, const orch_job *jobs, int njobs, const char *phase, int elapsed,
                   int expected);

/* Seconds a phase of expected_s may overrun before it is stopped; 0 for a
 * phase without a set length (prepare). */
int orch_phase_grace(int expected_s);

/* 1 when job's VM failed according to c's monitor (job->failed is set
 * then), else 0. */
int orch_job_vm_failed(const orch_client *c, orch_job *job);

/* job's oltp ended with job->status during phase: a non-zero status
 * marks the job failed and records why in the monitor (a status of
 * OLTP_EXIT_UNAVAILABLE: the database stopped answering; of
 * OLTP_EXIT_DISK_FULL: fault disk-full, "drive X is full"). Prints the
 * reason on c->out. */
void orch_job_ended(const orch_client *c, orch_job *job, const char *phase);

/* 1 when dom (VM `name`) is no longer running — shut off, crashed or
 * paused — with why in err, else 0: a VM that dies while booting fails
 * at once instead of at the boot timeout. */
int orch_dom_gone(virDomainPtr dom, const char *name, char *err, size_t errlen);

/* The default agent transport (virDomainQemuAgentCommand). */
char *orch_agent_libvirt(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s);

#endif
