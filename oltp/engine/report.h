/*
 * report.h — what oltp prints (sysbench's interval lines and final report)
 * and the JSON result document (results/SCHEMA.md).
 */
#ifndef OLTP_REPORT_H
#define OLTP_REPORT_H

#include "attributes.h"

#include <stdio.h>
#include <time.h>

#include "engine/engine.h"

/* What a run prints follows sysbench 1.0.20 (o->sysbench_personality:
 * its text alone; else oltp's additions after it), and --verbosity:
 * below 3 nothing but the histogram's rows, as sysbench. */

/* The name of sysbench's cpu test (oltp/cpu.h): its run's header and
 * report say "Prime numbers limit", "eps", "CPU speed" where the OLTP
 * workloads' say what their statements did (o->workload). */
#define REPORT_CPU_TEST "cpu"

/* The lines before the run, up to "Initializing worker threads..." (the
 * sysbench personality's banner is main's, as is "Threads started!");
 * seeded: --rand-seed was given (not drawn). */
void report_header(FILE *out, const oltp_opts *o, bool seeded);
struct interval_sample;
void report_interval_line(FILE *out, const oltp_opts *o, const stats *acc,
                          const interval_sample *s, double t_run);

/* --report-checkpoints: what was measured since the last checkpoint.
 * Fed every interval (engine_hooks.on_interval), it prints sysbench's
 * "[ Ns ] Checkpoint report:" and a full report of the span at the
 * first interval's end at or past each checkpoint. */
typedef struct report_ckpt {
    stats  span;                /* since the last checkpoint */
    conn_snapshot now;          /* each connection so far (engine_hooks.snap) */
    conn_fairness *last;        /* ... at the last checkpoint */
    int    next;                /* the next checkpoint's index in o->checkpoints */
    int    done;                /* checkpoints reported */
    double last_t;              /* seconds into the measured phase at the last one */
} report_ckpt;
/* nconns: the connections of the run. 0, or -1 when out of memory (free
 * it either way); report_ckpt_clear accepts a zeroed one. */
int  report_ckpt_init(report_ckpt *k, int ntypes, int nconns) DB_MUST_CHECK;
void report_ckpt_clear(report_ckpt *k);
void report_ckpt_interval(FILE *out, const oltp_opts *o, report_ckpt *k, const stats *acc,
                          double t_run);

/* The final report: every transaction that ended (those in flight at the
 * end too: the phase's tail), its time up to the last of them; after
 * checkpoints (k not NULL, k->done), the span since the last one. wl
 * NULL: no workload's additions (the cpu test). */
void report_final(FILE *out, const oltp_opts *o, const workload *wl, const run_result *r,
                  const report_ckpt *k);

/* sysbench's histogram layout (1024 logarithmic buckets from 0.001 to
 * 100000 ms): the bucket of a latency, and the value a bucket prints. */
int    report_sb_bucket(double v_ms);
double report_sb_bucket_ms(int i);
/* Write the result document (the oltp result of common/results_oltp.h);
 * started: when the run began (its "started_at"); origin_ns: when oltp
 * started (uv_hrtime), from which each phase's start_s counts. A run
 * ended early (r->fatal, r->unavailable: "ended" error; r->stopped:
 * signal) says so, with r->why as its reason. 0, or -1 with err saying
 * why (the caller prints it). */
int  report_json(const char *path, const oltp_opts *o, const workload *wl, const run_result *r,
                 time_t started, uint64_t origin_ns, char *err, size_t errlen) DB_MUST_CHECK;

#endif
