/* supervise.c — the one phase loop of both clients (see client.h's
 * orch_phase_supervise): the client's steps (orch_phase_ops) start, poll
 * and stop the processes; every rule of a phase lives here. */
#include "clients/client.h"
#include "attributes.h"
#include "oltp_exit.h"
#include "util/util.h"

#include <stdlib.h>
#include <time.h>

/* Seconds between asking a process to end and ending it at once. */
#define HARD_STOP_AFTER_S 10
/* Milliseconds the loop waits for news between two rounds. */
#define ROUND_MS          200

/* Why the whole phase is being stopped. */
typedef enum halt {
    HALT_NONE,
    HALT_START_FAILED,          /* a job could not start */
    HALT_OVERRUN,               /* ran past its time and grace */
    HALT_INTERRUPTED,           /* a stop request (SIGINT, SIGTERM) */
} halt;

/* The loop's view of one job's process. */
typedef struct watched {
    int    running;             /* started and its end not seen yet */
    time_t stop_asked;          /* when it was asked to end, else 0 */
    int    hard;                /* asked to end at once */
} watched;

typedef struct phase_run {
    const orch_phase_ops *ops;
    const orch_client    *c;
    orch_job             *jobs;
    int                   njobs;
    const char           *phase;
    void                 *procs;
    watched              *w;
    int                   running;
    halt                  halt;
} phase_run;

/* Seconds a phase of expected_s may overrun before it is stopped; 0 for a
 * phase without a set length (prepare). */
static int phase_grace(const orch_client *c, int expected_s)
{
    if (expected_s <= 0)
        return 0;
    return c->overrun_grace_s > 0 ? c->overrun_grace_s : 120 + expected_s / 10;
}

/* One progress line on c->out: "[phase 12s/60s, 48s left] d1-vm1 10.2 ...
 * | total 20.4 tps" (from an hour on, the time left as h:mm:ss), with c's
 * progress_hook's text (the run's ETA) before the ']'. */
static void progress(const orch_client *c, const orch_job *jobs, int njobs, const char *phase,
                     int elapsed, int expected)
{
    FILE *out = c->out;
    double total = 0;
    int left = expected - elapsed;
    if (expected > 0 && left > 0 && expected >= 3600)   /* a long phase: h:mm:ss left */
        fprintf(out, "[%s %ds/%ds, %d:%02d:%02d left", phase, elapsed, expected, left / 3600,
                left / 60 % 60, left % 60);
    else if (expected > 0 && left > 0)
        fprintf(out, "[%s %ds/%ds, %ds left", phase, elapsed, expected, left);
    else
        fprintf(out, "[%s %ds/%ds", phase, elapsed, expected);
    if (c->progress_hook)
        c->progress_hook(c->progress_ctx, out, phase, elapsed, expected);
    fputc(']', out);
    for (int i = 0; i < njobs; i++) {
        if (jobs[i].failed) {
            fprintf(out, " %s-vm%d FAILED", jobs[i].vm->drive->id, jobs[i].vm->index);
            continue;
        }
        fprintf(out, " %s-vm%d %.1f", jobs[i].vm->drive->id, jobs[i].vm->index,
                jobs[i].live_tps);
        total += jobs[i].live_tps;
    }
    fprintf(out, " | total %.1f tps\n", total);
    fflush(out);
}

/* 1 when job's VM failed according to c's monitor (job->failed is set
 * then), else 0. */
static int vm_failed(const orch_client *c, orch_job *job)
{
    orch_health h;
    if (job->failed)
        return 1;
    if (!c->monitor || !orch_monitor_health(c->monitor, job->slot, &h))
        return 0;
    job->failed = 1;
    return 1;
}

/* job's oltp ended with a non-zero job->status during phase: the job
 * failed, and why goes to the monitor (a status of OLTP_EXIT_UNAVAILABLE:
 * the database stopped answering; of OLTP_EXIT_DISK_FULL: fault
 * disk-full, "drive X is full") and to c->out — unless its VM's own
 * fault, seen first, explains the exit. */
static void oltp_failed(const orch_client *c, orch_job *job, const char *phase)
{
    orch_health h;
    if (vm_failed(c, job) && c->monitor && orch_monitor_health(c->monitor, job->slot, &h)
        && h.fault != ORCH_FAULT_CLIENT)
        return;
    job->failed = 1;
    fprintf(c->out, "drivebench: %s: oltp %s exited with status %d\n", job->vm->name, phase,
            job->status);
    fflush(c->out);
    if (!c->monitor)
        return;
    if (job->status == OLTP_EXIT_UNAVAILABLE)
        orch_monitor_fail(c->monitor, job->slot, ORCH_FAULT_DATABASE,
                          "the database stopped answering during %s (oltp could not "
                          "reconnect)", phase);
    else if (job->status == OLTP_EXIT_DISK_FULL)
        orch_monitor_fail(c->monitor, job->slot, ORCH_FAULT_DISK_FULL,
                          "drive %s is full: the database reported its disk full during %s",
                          job->vm->drive->name, phase);
    else if (job->status > 128)
        orch_monitor_fail(c->monitor, job->slot, ORCH_FAULT_CLIENT,
                          "oltp %s was killed by signal %d", phase, job->status - 128);
    else
        orch_monitor_fail(c->monitor, job->slot, ORCH_FAULT_CLIENT,
                          "oltp %s exited with status %d", phase, job->status);
}

/* Job i's process is over: seen to end (job->status set) or let go
 * (status -1). What that means depends on why it ended. */
static void ended(phase_run *ph, int i)
{
    orch_job *job = &ph->jobs[i];
    ph->w[i].running = 0;
    ph->running--;
    if (ph->halt == HALT_INTERRUPTED)
        return;                 /* stopped on request: no fault of the VM's */
    if (job->status == 0) {
        if (!job->failed && job->result && ph->ops->fetch && ph->ops->fetch(ph->procs, i, 0) < 0)
            job->failed = 1;
        return;
    }
    if (ph->halt != HALT_NONE)
        job->failed = 1;        /* stopped with its phase: did not finish */
    else if (job->status >= 0)
        oltp_failed(ph->c, job, ph->phase);
    /* else let go after its VM failed: failed already */
    /* an oltp seen to end wrote what it measured up to the fault (on
     * SIGTERM or before a fatal exit): kept beside the fault, in no figure */
    if (job->status >= 0 && job->result && ph->ops->fetch)
        ph->ops->fetch(ph->procs, i, 1);
}

/* Ask job i's process to end. */
static void stop_job(phase_run *ph, int i, time_t now)
{
    ph->w[i].stop_asked = now;
    if (ph->ops->stop(ph->procs, i, 0) == 1)
        ended(ph, i);
}

/* Stop every job still running, for reason. */
static void halt_all(phase_run *ph, halt reason, time_t now)
{
    ph->halt = reason;
    for (int i = 0; i < ph->njobs; i++)
        if (ph->w[i].running && !ph->w[i].stop_asked)
            stop_job(ph, i, now);
}

/* One round over job i: a stop request, its VM's health, the hard stop
 * when due, then whether it ended. */
static void watch(phase_run *ph, int i, time_t now)
{
    orch_job *job = &ph->jobs[i];
    watched *w = &ph->w[i];
    int st;
    /* asked before every job: one guest agent call can take seconds */
    if (ph->halt == HALT_NONE && orch_stop_requested())
        halt_all(ph, HALT_INTERRUPTED, now);
    if (!w->running)
        return;
    /* a VM that failed (stopped, paused, disk full, ...): stop its client;
     * the phase goes on for the others */
    if (!w->stop_asked && vm_failed(ph->c, job)) {
        fprintf(ph->c->out, "drivebench: %s failed during %s; stopping its oltp, the others "
                "go on\n", job->vm->name, ph->phase);
        fflush(ph->c->out);
        stop_job(ph, i, now);
        if (!w->running)
            return;
    }
    if (w->stop_asked && !w->hard && now - w->stop_asked > HARD_STOP_AFTER_S) {
        w->hard = 1;
        ph->ops->stop(ph->procs, i, 1);
    }
    st = ph->ops->poll(ph->procs, i);
    if (st < 0)
        job->failed = 1;        /* the client reported why */
    if (st != 0)
        ended(ph, i);
}

int orch_phase_supervise(const orch_phase_ops *ops, const orch_client *c, orch_job *jobs,
                         int njobs, const char *phase_name, int expected_s)
{
    phase_run ph = { .ops = ops, .c = c, .jobs = jobs, .njobs = njobs, .phase = phase_name };
    time_t start = time(NULL), last = start;
    int grace = phase_grace(c, expected_s), rc = 0;
    char err[DB_ERR_LEN];

    ph.w = calloc((size_t)(njobs > 0 ? njobs : 1), sizeof *ph.w);
    ph.procs = ph.w ? ops->begin(c, jobs, njobs, phase_name) : NULL;
    if (!ph.procs) {
        fprintf(c->out, "drivebench: out of memory\n");
        free(ph.w);
        return -1;
    }
    for (int i = 0; i < njobs; i++) {
        jobs[i].live_tps = 0;
        jobs[i].status = -1;
    }
    for (int i = 0; i < njobs; i++) {
        jobs[i].started = orch_mono_now();
        if (ops->start(ph.procs, i, err, sizeof err) < 0) {
            fprintf(c->out, "drivebench: %s\n", err);
            fflush(c->out);
            rc = -1;
            halt_all(&ph, HALT_START_FAILED, time(NULL));
            break;
        }
        ph.w[i].running = 1;
        ph.running++;
    }
    while (ph.running > 0) {
        time_t now = time(NULL);
        if (ph.halt == HALT_NONE && grace && now - start > expected_s + grace) {
            fprintf(c->out, "drivebench: %s ran %ld s past its %d s; stopping it\n", phase_name,
                    (long)(now - start - expected_s), expected_s);
            fflush(c->out);
            rc = -1;
            halt_all(&ph, HALT_OVERRUN, now);
        }
        for (int i = 0; i < njobs; i++)
            if (ph.w[i].running)
                watch(&ph, i, now);
        now = time(NULL);
        if (ph.running > 0 && now - last >= c->progress_every) {
            last = now;
            for (int i = 0; ops->refresh && ph.halt == HALT_NONE && i < njobs; i++)
                if (ph.w[i].running)
                    ops->refresh(ph.procs, i);
            progress(c, jobs, njobs, phase_name, (int)(now - start), expected_s);
        }
        if (ph.running > 0)
            ops->wait(ph.procs, ROUND_MS);
    }
    if (ph.halt == HALT_NONE)           /* the last figures of the phase */
        progress(c, jobs, njobs, phase_name, (int)(time(NULL) - start), expected_s);
    ops->end(ph.procs);
    free(ph.w);
    return ph.halt == HALT_INTERRUPTED ? ORCH_RUN_INTERRUPTED : rc;
}
