/*
 * power.h — `drivebench plan power PLAN --from=RUN_DIR --effect=5%` (and
 * `plan estimate PLAN --from=RUN_DIR`): how long to measure, before
 * measuring (issue 42). The pilot run's folder is read as `drivebench
 * summarize` reads it (run/replay.h orch_summary_rebuild: the VMs'
 * result files); each drive's interval TPS and p-latency of its first
 * repetition become a model (util/stats_power.h: mean, variance, the
 * decay the batch rule reads, the signal's share), and per pair of
 * drives and paired method the shortest measure time at which the
 * comparison finds the stated difference in 80 % of simulated runs is
 * printed, with the power of the plan's own measure time and what was
 * assumed.
 */
#ifndef ORCH_POWER_H
#define ORCH_POWER_H

#include "attributes.h"

#include <stdio.h>

#include "plan/plan.h"

/* The power the search aims at, and the simulated runs per length. */
#define ORCH_POWER_TARGET 0.8
#define ORCH_POWER_TRIALS 200
#define ORCH_POWER_SEED 42

/* Which figures to size. */
typedef enum orch_power_figure {
    ORCH_POWER_ALL,
    ORCH_POWER_TPS,
    ORCH_POWER_P,
} orch_power_figure;

/* "5%", "5" or "0.5%": a difference in percent, into *pct. 0, or -1 when
 * it is no number in (0, 100]. */
int orch_power_parse_effect(const char *s, double *pct) DB_MUST_CHECK;

/* The report above for plan p (read from plan_path; its repetitions and measure time) from
 * the pilot run folder run_dir, an effect of effect_pct, into out. 0;
 * -1 with err when the folder is no pilot (not a run folder, a result it
 * names unreadable, no drive with the figure asked for); -2 when out of
 * memory. */
int orch_power_plan(const orch_plan *p, const char *plan_path, const char *run_dir,
                    double effect_pct, orch_power_figure fig, FILE *out, char *err,
                    size_t errlen) DB_MUST_CHECK;

#endif
