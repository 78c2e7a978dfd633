/*
 * rank.h — `drivebench report --rank`: the charts a storage review
 * publishes. Every drive of one protocol (report.h's groups), from many
 * run folders or results directories, ranked by TPS, average latency and
 * p99 (TPC-C: TPS, tpmC, NOPM and average latency), each with its 95 %
 * interval and N, one drive highlighted, and a win/loss table against a
 * baseline drive (results/SCHEMA.md, "Ranking").
 *
 * Selection: by default the newest complete run of each drive in each
 * protocol (newest by started_at, then run id); with all_runs every
 * complete (run, drive). An incomplete drive (a VM failed) or a drive of
 * a partial run is left out of the ranking and named.
 *
 * Intervals: over the drive's complete repetitions (no VM failed), a
 * Student t interval of the mean, half-width t(0.975, N-1) s / sqrt(N),
 * drawn around the drive's figure (TPS is that mean; latencies are the
 * merged histograms' figures); none with N < 2. Win/loss: Welch's
 * interval of the difference of the repetitions' means (util/stats.h),
 * "better"/"worse" when it excludes 0, "not distinguishable" when not,
 * no verdict with fewer than ORCH_STATS_MIN_REPS repetitions on a side.
 */
#ifndef ORCH_RANK_H
#define ORCH_RANK_H

#include "attributes.h"

#include "report/report.h"

/* RANK_CAPACITY: a capacity search's (issue 45; summary drives[].capacity),
 * its interval [capacity, the lowest rate that broke the target]; ranked
 * by it, charted and compared (intervals apart: better or worse) when
 * every drive of the protocol has one at the same target. */
enum { RANK_TPS, RANK_TPMC, RANK_NOPM, RANK_LAT_AVG, RANK_LAT_P99, RANK_CAPACITY,
       RANK_NMETRICS };

/* A metric: its key (CSV, ids, file names), title, direction. */
typedef struct rank_metric {
    const char *key, *title;
    int         higher_better, decimals;
} rank_metric;
extern const rank_metric rank_metrics[RANK_NMETRICS];

/* One figure of a drive: v, its interval (NAN when n < 2), N. */
typedef struct rank_value {
    double v, lo, hi;
    int    n;
} rank_value;

typedef struct rank_entry {
    const report_run   *run;        /* borrowed from the set */
    const report_drive *dr;
    char               *label;      /* "nvme-a", or "nvme-a [RUN_ID]" with all_runs */
    int                 highlight;
    rank_value          m[RANK_NMETRICS];
    double             *reps[RANK_NMETRICS];    /* per complete repetition */
    int                 nreps;
} rank_entry;

typedef struct rank_group {
    int          group;             /* index into the set's groups */
    int          metric[RANK_NMETRICS];     /* 1: charted */
    rank_entry  *e;                 /* in the TPS order (best first), or
                                     * the capacity's when it is charted */
    int          n;
    char       **left_out;          /* "drive [run id]: why", owned */
    int          nleft;
} rank_group;

typedef struct rank_set {
    report_set  *s;                 /* owned */
    rank_group  *g;
    int          ng;
    const char  *highlight, *baseline;  /* borrowed; NULL: none */
} rank_set;

/* The run folders named by paths[0..n): a run folder (it holds
 * summary.json) as it is, a results directory as its subfolders holding
 * one, in name order. New array of new strings (*nout of them; free
 * with rank_paths_free), or NULL with err (no run folder in a path). */
char **rank_expand(const char *const *paths, int n, int *nout, char *err, size_t errlen);
void rank_paths_free(char **p, int n);

/* Rank the runs in dirs. NULL with err (REPORT_BAD_INPUT in *bad) when
 * a folder cannot be read, or the highlighted or baseline drive is in no
 * ranking. Free with rank_set_free. */
rank_set *rank_build(const char *const *dirs, int ndirs, int all_runs, const char *highlight,
                     const char *baseline, char *err, size_t errlen);
void rank_set_free(rank_set *r);            /* accepts NULL */

/* The win/loss verdict of entry e against b on metric m: "better",
 * "worse", "not distinguishable" or "too few repetitions (N < 3)"
 * (RANK_CAPACITY: by the capacities' intervals, better or worse when
 * they do not overlap). */
const char *rank_verdict(const rank_entry *e, const rank_entry *b, int m);
/* The target of group g's capacity ("p99 <= 10 ms"), or NULL when it is
 * not charted. */
const char *rank_capacity_target(const rank_group *g);

/* The entry of drive `name` in group g, or NULL. */
const rank_entry *rank_find(const rank_group *g, const char *name);

/* Write dir/rank.csv (a row per drive of each protocol, in rank order). */
int rank_write_csv(const rank_set *r, const char *path, char *err, size_t errlen) DB_MUST_CHECK;

/* Where the ranking's files go and what was written. */
typedef struct rank_files {
    const char *dir;
    double      png_scale;      /* > 0: each chart also as dir/pN-METRIC.png,
                                 * at this times its size (report/png.h) */
    int         nsvg, npng;     /* out: how many of each */
} rank_files;

/* The page out->dir/rank.html and each chart as pN-METRIC.svg in it (and
 * .png when asked; rank_html.c). 0, or -1 with err. */
int rank_write_html(const rank_set *r, rank_files *out, char *err, size_t errlen) DB_MUST_CHECK;

/* `drivebench report --rank ...` (argv after "report"). Exit status 0,
 * 1 (cannot write), 2 (bad input). */
int rank_main(int argc, char **argv);

#endif
