/*
 * resume.h — `drivebench resume RUN-ID` (issue 34): go on with a run that
 * stopped without its summary (SIGKILL, a host reboot, an OOM kill).
 *
 * A run writes its summary.json after every repetition it completes, as
 * a checkpoint: status "partial", `completed_repetitions` N. A resume
 * keeps repetitions 1..N as they are (their files byte for byte, their
 * entries in the summary rebuilt from them by the run's aggregation),
 * cleans up what the stopped run left (its host-side oltp processes, its
 * domains, volumes and pools on every host it recorded), moves the files
 * of the unfinished repetition to interrupted/K/ and runs repetition N+1
 * on: its VMs provisioned and its databases restored or prepared as in
 * any repetition. The summary then lists the interruption (when, which
 * repetition ran again, what was lost).
 *
 * It refuses, with one line naming each difference, when the plan it is
 * given would make the repetitions incomparable: a key of the protocol
 * fingerprint (fingerprint.h: workload, scale, durations, profile,
 * engine, settings, drivebench's version, ...), the drives, the VMs or
 * the repetitions differ from what the kept repetitions ran with.
 */
#ifndef ORCH_RESUME_H
#define ORCH_RESUME_H

#include "attributes.h"

#include <stdbool.h>
#include <stdio.h>
#include "plan/plan.h"
#include "results_summary.h"

/* The run folder's lock (run.lock): held by a run, and by a resume, for
 * as long as they go; the kernel drops it when the process dies, SIGKILL
 * included. */
#define ORCH_RUN_LOCK_FILE "run.lock"

typedef struct orch_resume {
    res_summary  cp;            /* the checkpoint (summary.json) when have_cp */
    bool         have_cp;
    int          from_rep;      /* the first repetition to run */
    char        *started_at;    /* the run's own start */
    res_interruption *intr;     /* the checkpoint's interruptions, then this one */
    int          nintr;
    int          lock_fd;       /* the run folder's lock, held; -1: none */
} orch_resume;

/* Take run_dir's lock: its fd (keep it open for as long as the run goes),
 * or -1 with err ("... is still running (pid N)" when another process
 * holds it). */
int orch_run_lock(const char *run_dir, char *err, size_t errlen) DB_MUST_CHECK;

/* Everything before resuming run run_id in run_dir with plan p: the lock,
 * the checkpoint and the refusals (p's domain_type = auto becomes the
 * type the kept repetitions ran with), the clean-up of what the stopped run
 * left (messages on out) and the move of its unfinished repetition's
 * files. 0 with *r filled (orch_resume_clear); 1 when the run has nothing
 * to resume (its summary says it completed; err says so); -1 with err
 * otherwise (a refusal: the run folder as it was). */
int orch_resume_prepare(orch_plan *p, const char *run_dir, const char *run_id,
                        orch_resume *r, FILE *out, char *err, size_t errlen) DB_MUST_CHECK;
/* Release what orch_resume_prepare holds (the lock last); accepts a zeroed
 * r with lock_fd -1. */
void orch_resume_clear(orch_resume *r);

#endif
