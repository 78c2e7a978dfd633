/*
 * telemetry_state.h — the inside of an orch_telemetry (telemetry.h),
 * shared by the files that do its jobs; nothing outside telemetry/ and
 * its tests includes it:
 *   sampling.c     the telemetry's life: VMs added, phases sampled
 *   host_cpu.c     the host's CPU during the measured phases
 *   summary_io.c   the summary's I/O sections (per VM, per drive)
 *   summary_host.c the host's view of a drive in them
 *   comparisons.c  the summary's comparisons of each pair of drives
 * Every member below is guarded by mu while the monitor's timer may tick
 * (between orch_telemetry_new and orch_monitor_free); the summary is
 * filled after that, without it.
 */
#ifndef ORCH_TELEMETRY_STATE_H
#define ORCH_TELEMETRY_STATE_H
#include <pthread.h>

#include "telemetry/telemetry.h"
#include "hist.h"

/* The host's CPU at one moment of a measured phase (/proc/stat's "cpu "). */
typedef struct tel_cpu_sample {
    double t, busy, total;          /* CLOCK_MONOTONIC s; jiffies */
} tel_cpu_sample;

/* One VM in one repetition. */
typedef struct tel_vm {
    int    vm, drive, rep, idx;     /* idx: in the repetition's blk sampler */
    char  *name;
    orch_blk_delta *db, *boot;      /* the measured phase's intervals, owned */
    int    ndb, nboot;
    double t0;                      /* where its TPS intervals begin */
    int    measured;
    double w0, w1;                  /* its measured window as oltp reported it
                                     * (orch_telemetry_vm_window); w1 <= w0: none */
} tel_vm;

/* One drive of the plan. */
typedef struct tel_drive {
    int    seen;                    /* a VM of it was added */
    int    local;                   /* on this host: host view */
    int    disk_idx;                /* in the disk sampler, or -1 */
    orch_drive_dev dev;
    orch_drive_id  id;
    int    have_dev, have_id;
    orch_drive_health before, after;
    int    have_before, have_after;
    char   path[1024];              /* a path on the drive (its pool target) */
    char   note[256];
    orch_diskstat_delta **host;     /* per repetition (index rep - 1), owned */
    int   *nhost;
    double *host_t0;
} tel_drive;

struct orch_telemetry {
    const orch_plan   *p;
    FILE              *out;
    orch_tel_seams     seams;
    pthread_mutex_t    mu;
    int                sampling;
    int                measuring;   /* the phase sampled is a measured one */
    orch_blk_sampler  *blk;         /* the current repetition's VMs */
    int                blk_rep;
    orch_disk_sampler *disk;
    tel_vm            *vms;
    int                nvms, cap;
    tel_drive         *drives;      /* [p->ndrives] */
    double             phase_t0;
    int                warmup_s;
    double             busy_sum, busy_w;    /* CPU busy % weighted by phase length */
    tel_cpu_sample    *cpu;         /* the measured phase's /proc/stat, each tick */
    int                ncpu, cpucap;
};

/* Per-drive series on the time bins of the measured phase
 * (telemetry/timebins.h) over all repetitions, concatenated in repetition
 * order (drives of one run run at the same time, so bin i of one drive
 * pairs with bin i of another). Built by summary_io.c, read by
 * comparisons.c. */
typedef struct tel_drive_acc {
    double *tps;            /* [rep * nint + i]: sum of its VMs' TPS; NAN
                             * where a measured VM has no value */
    double *p;              /* the same: the p_pct percentile of its VMs'
                             * merged interval histograms, ms; NAN: none */
    int    *pn;             /* VMs in each p */
    int    *tn;             /* VMs in each tps sum */
    int    *nvm;            /* [rep]: VMs measured in each repetition */
    hist_sparse **ph;       /* scratch: the merged histograms of p */
    hist   *h;              /* merged measured histograms, all repetitions */
    double  p_pct;          /* the percentile of p; NAN: no p series */
} tel_drive_acc;

/* host_cpu.c. A measured phase starts at now: /proc/stat (t->mu held). */
void tel_cpu_phase_start(orch_telemetry *t, double now);
/* A tick of it at now: /proc/stat again (t->mu held). */
void tel_cpu_tick(orch_telemetry *t, double now);
/* It ended at now: the busy share over [w0, w1] (the VMs' measured
 * windows; the phase when w1 <= w0), from the samples nearest its ends,
 * weighted by its length (t->mu held). */
void tel_cpu_phase_end(orch_telemetry *t, double now, double w0, double w1);
/* The summary's host CPU (io: the summary's res_io) and, under TCG or
 * when saturated, its note. */
void tel_cpu_fill(const orch_telemetry *t, const res_env *env, res_io *io);

/* summary_host.c. The host view of drive d (plan index): device,
 * identity, health, the phase figures (the mean over repetitions) and the
 * series of the first measured one; its flush ratio against the guests'
 * guest_fl flushes (guest_has 0: the hypervisor counted none). NULL when
 * out of memory. */
res_io_host *tel_host_view(const orch_telemetry *t, int d, double interval_s, int nint,
                           unsigned long long guest_fl, int guest_has);

/* comparisons.c. Each pair of sum's drives compared into io->cmp: paired
 * TPS and p-latency over the intervals of acc[] (one per drive of sum,
 * reps * nint each) of the repetitions both drives measured completely,
 * Welch over the complete repetitions' TPS and p99 (reps: the plan's),
 * Holm's correction per method; a pair with an incomplete drive gets no
 * verdict. 0, or -1 when out of memory. */
int tel_compare_drives(const res_summary *sum, const tel_drive_acc *acc, int reps, int nint,
                       res_io *io);

#endif
