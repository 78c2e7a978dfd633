/*
 * ioagg.h — a drive's I/O from its VMs' disks: sums, request-weighted
 * latencies, time series on the TPS intervals, and the guests' flushes
 * against the device's. Pure arithmetic on the series of blockstats.h and
 * host_drive.h; nothing is sampled here.
 *
 * A drive's IOPS and MB/s are the sums of its VMs' rates. Its latency is
 * Σ Δtimes / Σ Δreqs over the VMs (and intervals): every request counts
 * once, so a VM that did 10 slow requests does not weigh as much as one
 * that did 10,000 fast ones (never a mean of per-VM means).
 *
 * Time series: TPS interval i of a phase that started at t0 (the
 * CLOCK_MONOTONIC time given to orch_blk_sampler_restart) ends at
 * t0 + (i + 1) * interval_s, as oltp's `t` = (i + 1) * interval_s. The
 * sample interval whose end is nearest, within tol seconds, is that
 * interval's; none within tol (a failed sample, a VM that died) means the
 * VM is counted in `missing` for it.
 */
#ifndef ORCH_IOAGG_H
#define ORCH_IOAGG_H

#include "attributes.h"

#include "telemetry/blockstats.h"
#include "telemetry/host_drive.h"

/* One drive's database disks (or boot disks) over one interval or a
 * phase. NAN: absent (a field some contributing VM lacks, or a latency
 * of an interval without such requests). */
typedef struct orch_io_sum {
    double t;                   /* interval: end, s since the phase start;
                                   total: the longest VM's measured time, s */
    int    vms;                 /* VMs that contributed */
    int    missing;             /* VMs without a value (no sample, reset) */
    unsigned have;              /* fields (orch_blk_field bits) every contributing VM had */
    unsigned long long d[ORCH_BLK_NFIELDS];   /* summed increments */
    double rd_iops, rd_mbps, rd_lat_ms;
    double wr_iops, wr_mbps, wr_lat_ms;
    double fl_iops, fl_lat_ms;
} orch_io_sum;

/* One VM's intervals for one disk (orch_blk_sampler_series()). */
typedef struct orch_io_vm {
    const orch_blk_delta *d;
    int n;
} orch_io_vm;

/* Index in d[0..n) of the interval ending nearest t (within tol), or -1. */
int orch_io_match(const orch_blk_delta *d, int n, double t, double tol) DB_MUST_CHECK;
/* The same for a host series. */
int orch_io_match_host(const orch_diskstat_delta *d, int n, double t, double tol);

/* out[0..nint): the drive per TPS interval (see above); tol <= 0 means
 * interval_s / 2. */
void orch_io_drive_series(const orch_io_vm *vms, int nvms, double t0, double interval_s,
                          int nint, double tol, orch_io_sum *out);

/* The whole phase: per VM Σ increments / Σ its intervals' lengths
 * (intervals with a reset left out), summed over VMs; latencies Σtimes /
 * Σreqs over everything. */
void orch_io_drive_total(const orch_io_vm *vms, int nvms, orch_io_sum *out);

/* A drive's phase totals of n repetitions (orch_io_drive_total each)
 * pooled into one: rates the mean of the repetitions' rates, latencies
 * Σtimes / Σreqs over every request of every repetition, have the fields
 * each of them had (a field one lacks is absent: NAN, never 0); vms,
 * missing, t and d[] summed. A repetition no VM contributed to (vms 0:
 * every sample failed) is left out of the mean; its VMs stay counted in
 * missing. */
void orch_io_drive_pool(const orch_io_sum *reps, int n, orch_io_sum *out);

/* Device flushes per guest flush: device_flushes / guest_fl_reqs, where
 * the guests' count covers every disk the run put on the drive (the
 * database disks' d[ORCH_BLK_FL_REQS], plus the boot overlays' when they
 * live there too) over the same interval or phase. NAN when either side
 * is absent (guest_has / device_has 0: no fl.reqs from the hypervisor, a
 * kernel before 5.5 that counts no flushes) or the guests flushed nothing.
 * About 1: each guest flush reached the device; above: the host file
 * system adds its own (journal commits); below, or 0: flushes merged, or
 * a drive without a volatile write cache (write_cache "write through")
 * gets none. */
double orch_io_flush_ratio(unsigned long long guest_fl_reqs, int guest_has,
                           unsigned long long device_flushes, int device_has);

#endif
