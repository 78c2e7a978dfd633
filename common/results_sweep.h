/*
 * results_sweep.h — sweep.json (drivebench.sweep/1, results_sweep.c;
 * results/SCHEMA.md "Sweep"): a sweep's steps, each a run of its own,
 * and each drive's knee.
 */
#ifndef DB_RESULTS_SWEEP_H
#define DB_RESULTS_SWEEP_H

#include "results_base.h"

/* ------------------------------------------------------------------ */
/* sweep.json: drivebench.sweep/1 (issue 34, results/SCHEMA.md "Sweep") */

/* One drive in one step: the step run's figures of it (its summary.json
 * drives[i]); NAN: not measured. */
typedef struct res_sweep_drive {
    char   *name;
    bool    complete;           /* measured, no VM failed */
    int     vms;                /* VMs measured per repetition */
    double  tps, lat_avg_ms, lat_p99_ms;
} res_sweep_drive;

/* One step: the swept key at value, run as its own run (folder run_id
 * inside the sweep's). */
typedef struct res_sweep_step {
    double           value;
    char            *run_id;
    char            *status;    /* its summary's status ("complete",
                                 * "completed_with_failures", "partial"), "failed" (no
                                 * summary), "not run" (an earlier step
                                 * stopped the sweep) */
    res_sweep_drive *drives;
    int              ndrives;
} res_sweep_step;

/* A drive's knee: the first step whose TPS reaches RES_SWEEP_KNEE_SHARE
 * of the drive's highest over its complete steps (beyond it, more load
 * buys less than the rest). */
#define RES_SWEEP_KNEE_SHARE 0.95
typedef struct res_sweep_knee {
    char  *drive;
    int    step;                /* 1-based */
    double value, tps;
} res_sweep_knee;

typedef struct res_sweep {
    char           *run_id, *plan_name;
    char           *section, *key;      /* "workload", "threads" */
    char           *started_at, *finished_at;
    res_sweep_step *steps;
    int             nsteps;
    res_sweep_knee *knees;              /* drives with a complete step */
    int             nknees;
} res_sweep;

void res_sweep_clear(res_sweep *s);     /* frees members; accepts NULL */
/* Write dir/sweep.json. 0, or -1 with err. */
int res_sweep_write_file(const res_sweep *s, const char *dir, char *err, size_t errlen);
/* Read a sweep.json into *s (zeroed first). 0; RES_E_UNREADABLE when it
 * cannot be read or is not JSON; -1 when it is not a drivebench.sweep/1
 * document ("PATH: why" in err). */
int res_sweep_read_file(const char *path, res_sweep *s, char *err, size_t errlen);

#endif
