/*
 * results_capacity.h — a drive's capacity search at a latency target
 * (results_capacity.c: its field tables): the summary's
 * drives[i].capacity (res_drive.capacity) and its probes.
 */
#ifndef DB_RESULTS_CAPACITY_H
#define DB_RESULTS_CAPACITY_H

#include "results_base.h"

/* A capacity search's probe (issue 45, results/SCHEMA.md "Capacity"):
 * the open-loop rate offered to the drive, what it committed, the mean
 * queue time, the target's percentile of the drive's merged histogram
 * with its 95 % interval (NAN: that side unbounded, too few
 * transactions), the verdict ("within", "broken", "undecided") and why,
 * and the probe's run folder. */
typedef struct res_cap_probe {
    double  offered, achieved, queue_ms;
    double  pct_ms, pct_lo_ms, pct_hi_ms;
    int64_t transactions;
    char   *verdict, *why, *run_id;
} res_cap_probe;

/* A drive's capacity at a latency target: the highest offered rate that
 * held (NAN: none did), its interval [capacity, the lowest rate that did
 * not hold] (hi NAN: none broke it), why the search ended, and the probe
 * (1-based) that set the interval's top (0: none). */
#define RES_MAX_CAP_PROBES 64       /* read at most (orchestrator: ORCH_CAP_MAX_PROBES) */

typedef struct res_capacity {
    char          *target;
    double         capacity, lo, hi;
    char          *end;
    int            breaking;
    res_cap_probe *probes;
    int            nprobes;
} res_capacity;

#endif
