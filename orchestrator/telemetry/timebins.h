/*
 * timebins.h — an oltp phase's intervals on time bins of its clock, so
 * that VMs' series are put side by side by time, never by index (issue
 * 21). Pure arithmetic on common/results_oltp.h's res_phase.
 *
 * Bin k of width w spans [k * w, (k + 1) * w) seconds since the phase's
 * start (oltp's intervals end on those boundaries, k * interval_s, when
 * w is its interval). An interval [t - duration_s, t] lends to each bin
 * it overlaps: its rate weighted by the overlap, its histogram whole (an
 * interval longer than a bin — a stalled tick — gives its latency to
 * every bin it covers). A bin no interval of the phase overlaps has no
 * value (NAN): the VM is missing there, which is never a zero.
 */
#ifndef ORCH_TIMEBINS_H
#define ORCH_TIMEBINS_H

#include "results_oltp.h"

/* The bin width of a phase: its interval_s, else `fallback` (results
 * written before interval_s). */
double orch_bins_width(const res_phase *p, double fallback);

/* Bins of width w that p's intervals reach into: ceil(last t / w), with
 * a last sliver below 1 ms of a bin not counted. 0 without intervals. */
int orch_bins_count(const res_phase *p, double w);

/* tps[0..nbins): the overlap-weighted mean of the TPS of p's intervals in
 * each bin (NAN where none overlaps); covered[k]: seconds of bin k the
 * intervals cover. */
void orch_bins_tps(const res_phase *p, double w, int nbins, double *tps, double *covered);

/* Merge into h[k] (NULL: made on first use) the histogram of interval i
 * of p (intervals[0..i] read: its start may be the previous one's end)
 * for each bin k < nbins it overlaps; set seen[k] (may be NULL) where it
 * did. An interval without a histogram adds nothing. Called on each
 * interval as it is read (res_oltp_read_file_each), so that a VM's
 * interval histograms are never all held. 0, or -1 when out of memory or
 * histograms do not merge. */
int orch_bins_hist_one(const res_phase *p, int i, double w, int nbins, hist_sparse **h,
                       int *seen);

#endif
