/*
 * stop.h — how a run ends, and the request to end it early.
 *
 * SIGINT/SIGTERM during a run only record the signal here. The run reads
 * the request through one function of its own (run.c), which it hands to
 * the layers below that wait as their stop hook (restore.h); the clients
 * (client.h) poll orch_stop_requested() and tear down. A small module of
 * its own so that the clients need not include run.h.
 */
#ifndef ORCH_STOP_H
#define ORCH_STOP_H

#include <signal.h>

/* Exit codes of a run (and of `drivebench run`). */
#define ORCH_RUN_OK          0
#define ORCH_RUN_FAILED      1   /* could not run, or nothing was measured */
#define ORCH_RUN_DEGRADED    3   /* completed with failures: some VMs failed
                                  * (named in the summary, kept out of the
                                  * figures); the others were measured */
#define ORCH_RUN_INTERRUPTED 130

/* The handlers in place before orch_stop_arm. */
typedef struct orch_stop_saved {
    struct sigaction old_int, old_term;
} orch_stop_saved;

/* Clear any earlier request and record SIGINT/SIGTERM from now on (no
 * SA_RESTART: blocking waits wake up). The previous handlers go to saved.
 * A SIGINT that the process was started with ignored (a background job,
 * nohup) is left ignored; SIGTERM is always recorded. */
void orch_stop_arm(orch_stop_saved *saved);

/* Put back the handlers saved by orch_stop_arm. */
void orch_stop_disarm(const orch_stop_saved *saved);

/* Nonzero once SIGINT or SIGTERM arrived since orch_stop_arm. */
int orch_stop_requested(void);

/* The signal that asked to stop, or 0. */
int orch_stop_signal(void);

#endif
