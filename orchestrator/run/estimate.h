/*
 * estimate.h — what a plan costs, said before it runs, and how long the
 * rest of a run will take while it goes.
 *
 * orch_estimate() prints, per host, the memory and vCPUs of its VMs
 * against the host's (virt/capacity.h), per drive the space its volumes
 * need against the free space (the same check `run` makes), and the
 * run's duration: the phases of fixed length (precondition, measure) per
 * repetition exactly, boots bounded by boot_timeout, prepare or restore
 * named but not timed (nothing measures them before the run). `drivebench
 * plan estimate` prints it; `run` prints it first and, with check set,
 * refuses a plan whose drives are short or whose VMs need more memory
 * than a host has (unless [run] overcommit = yes), before creating
 * anything.
 *
 * orch_eta: during a run, the time left of the whole run beside each
 * phase's own, with boot and prepare measured in the run's first
 * repetition and assumed equal in the later ones.
 */
#ifndef ORCH_ESTIMATE_H
#define ORCH_ESTIMATE_H

#include "attributes.h"

#include <stdio.h>
#include <time.h>
#include "plan/plan.h"
#include "virt/virt.h"

/* Print the estimate of plan p (template t) on out. 0; -1 with err when a
 * host does not answer, free space cannot be read, or (check set or not)
 * the run would refuse the plan: the lines above err say why. */
int orch_estimate(orch_conns *conns, const orch_plan *p, const orch_template *t, FILE *out,
                  char *err, size_t errlen) DB_MUST_CHECK;

/* The state an ETA needs (no pointers: a value the run keeps). */
typedef struct orch_eta {
    int    reps;                /* the plan's repetitions */
    int    precondition_s, measure_s;
    int    rep;                 /* the current repetition, 1-based; 0 before */
    time_t rep_start;
    int    overhead_s;          /* a finished repetition's time outside the
                                 * fixed phases (boot, prepare or restore,
                                 * teardown); -1 until one finished */
    int    later_s;             /* a sweep on the same VMs: the fixed time
                                 * of its steps after this one (run/step.c) */
} orch_eta;

void orch_eta_init(orch_eta *e, const orch_plan *p);
void orch_eta_rep_begin(orch_eta *e, int rep, time_t now);
void orch_eta_rep_end(orch_eta *e, time_t now);

/* Seconds left of the whole run at now, elapsed seconds into phase
 * ("precondition" or "measure") of expected seconds: the rest of this
 * phase, the measure after a precondition, and for every repetition
 * after this one its fixed phases plus the measured overhead (during
 * the first repetition: its overhead so far). */
int orch_eta_left(const orch_eta *e, time_t now, const char *phase, int elapsed, int expected);

/* The clients' progress hook (client.h): ", run h:mm:ss left, ETA
 * HH:MM" for a phase of known length; ctx is the orch_eta. */
void orch_eta_progress(void *ctx, FILE *out, const char *phase, int elapsed, int expected);

/* "1:02:03" (h:mm:ss) into buf. */
const char *orch_hms(int seconds, char *buf, size_t len);

#endif
