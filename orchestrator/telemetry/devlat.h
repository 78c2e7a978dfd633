/*
 * devlat.h — the drive's own request latencies (issue 23): from issue to
 * completion, reads, writes and flushes apart, from the kernel's block
 * tracepoints block_rq_issue and block_rq_complete, through tracefs.
 *
 * How: a tracefs instance of our own (instances/drivebench-PID-N, so the
 * system's trace buffer and other tracers are untouched), trace_clock
 * "mono" (CLOCK_MONOTONIC, the clock of the TPS intervals), the two
 * events filtered on the drive's whole disks (dev == MAJ<<20|MIN; a dm or
 * md device's requests reach its slaves, which are traced instead), read
 * from its trace_pipe by a thread and paired in user space by (device,
 * sector, kind). The kernel here has no histogram triggers
 * (CONFIG_HIST_TRIGGERS: no events/.../hist, no synthetic_events), which
 * would pair them in the kernel; trace_pipe works wherever tracefs does.
 * Timestamps have microsecond resolution (the text format), the unit of
 * the transactions' histograms (hist.h), into which the latencies go: the
 * same log-linear buckets, merged per phase, percentiles p50 ... p99.99,
 * and per TPS interval p50, p99 and max.
 *
 * Events are enabled only while a measured phase runs; completions before
 * its TPS intervals begin (the warm-up) are left out. A completion whose
 * issue was not seen (issued before the events were enabled, an event
 * lost when the reader fell behind, or the second completion the block
 * layer's flush sequence reports for a write that carried a flush: one
 * per fsync, measured) counts in `unmatched`. Flush requests are issued
 * at sector 0 and complete at sector 2^64 - 1, so they pair in order per
 * device whatever their sector.
 *
 * Where it cannot run — not root, no tracefs, no block tracepoints, a
 * drive on another host or on no block device — tel_devlat_start says why
 * in one line and the run goes on without it.
 */
#ifndef ORCH_DEVLAT_H
#define ORCH_DEVLAT_H

#include "attributes.h"

#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "results_io.h"

/* One event of trace_pipe's text. */
typedef struct tel_devlat_event {
    double   ts;            /* seconds (trace clock) */
    int      complete;      /* 0 issue, 1 complete */
    unsigned major, minor;
    uint64_t sector;
    int      cls;           /* RES_DEVLAT_READ, _WRITE, _FLUSH; -1 other (discard) */
} tel_devlat_event;

/* Parse one trace_pipe line. 0, or -1 when it is no block_rq_issue /
 * block_rq_complete line. */
int tel_devlat_parse_line(const char *line, tel_devlat_event *ev) DB_MUST_CHECK;

/* Pairs events into latencies: per class over the phase, and per TPS
 * interval (interval k ends at t0 + (k + 1) * interval_s). */
typedef struct tel_devlat_acc tel_devlat_acc;

tel_devlat_acc *tel_devlat_acc_new(void);       /* NULL: out of memory */
void tel_devlat_acc_free(tel_devlat_acc *a);    /* accepts NULL */
/* Forget everything; intervals from t0 on, interval_s each. */
void tel_devlat_acc_restart(tel_devlat_acc *a, double t0, double interval_s);
void tel_devlat_acc_event(tel_devlat_acc *a, const tel_devlat_event *ev);
/* Close the current interval. */
void tel_devlat_acc_finish(tel_devlat_acc *a);
/* The phase histogram of class c (RES_DEVLAT_*; ALL: every class), µs;
 * borrowed. */
const hist *tel_devlat_acc_hist(const tel_devlat_acc *a, int c);
/* The intervals (borrowed), their count in *n; unmatched completions. */
const res_devlat_point *tel_devlat_acc_series(const tel_devlat_acc *a, int *n);
int64_t tel_devlat_acc_unmatched(const tel_devlat_acc *a);

/* A tracer of one drive's disks (names in <sysfs>/block). */
typedef struct tel_devlat tel_devlat;

/* Set up the instance for disks[0..ndisks) (not yet enabled). NULL with
 * one line of why in err. tracefs: its mount point, NULL to find it
 * (/sys/kernel/tracing, /sys/kernel/debug/tracing, else mounted on a
 * private folder for the run). */
tel_devlat *tel_devlat_start(const char *sysfs, const char *tracefs, const char *const *disks,
                             int ndisks, char *err, size_t errlen);
/* A measured phase: enable the events, TPS intervals from t0. */
void tel_devlat_phase_start(tel_devlat *d, double t0, double interval_s);
/* It ended: disable them, read what is left, close the last interval. */
void tel_devlat_phase_end(tel_devlat *d);
/* Merge the phase's histograms into h[RES_DEVLAT_N] (made when NULL) and
 * copy its intervals (caller frees) into *series. 0, or -1 when out of
 * memory. */
int tel_devlat_take(tel_devlat *d, hist **h, res_devlat_point **series, int *nseries,
                    int64_t *unmatched) DB_MUST_CHECK;
/* Disable, remove the instance (and unmount what start mounted). */
void tel_devlat_free(tel_devlat *d);    /* accepts NULL */

#endif
