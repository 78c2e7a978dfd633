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

#include "attributes.h"
#include <pthread.h>
#include <string.h>

#include "telemetry/telemetry.h"
#include "telemetry/devlat.h"
#include "telemetry/guest_view.h"
#include "hist.h"

/* The host's CPU at one moment of a measured phase (/proc/stat's "cpu "). */
typedef struct tel_cpu_sample {
    double t, busy, total;          /* CLOCK_MONOTONIC s; jiffies */
} tel_cpu_sample;

/* One VM in one repetition. */
typedef struct tel_vm {
    int    vm, drive, rep, idx;     /* idx: in the repetition's blk sampler */
    char  *name;
    orch_blk_delta *db, *boot;      /* the measured phase's intervals, owned;
                                     * with a spool NULL but between
                                     * tel_vm_load and tel_vm_unload */
    int    ndb, nboot;
    int64_t db_at, boot_at;         /* with a spool: where they are in it */
    double t0;                      /* where its TPS intervals begin */
    int    measured;
    double w0, w1;                  /* its measured window as oltp reported it
                                     * (orch_telemetry_vm_window); w1 <= w0: none */
    int    gidx;                    /* in t->guest, or -1 */
    orch_diskstat_delta *guest;     /* the guest's view, measured phase, owned */
    int    nguest;
    /* its QEMU process on this host (qemu_threads.c): its threads' CPU
     * in clock ticks at each tick of the measured phase, rows of
     * TEL_QS_VCPU + nvcpu (t, main, io, other, each vCPU) */
    int    qpid;                    /* 0: none found */
    int    nvcpu;                   /* vCPU threads in the phase's rows */
    double *qs;
    int    nqs, qscap;              /* rows */
    res_io_qemu qemu;               /* over its measured window */
    int    has_qemu;
} tel_vm;
#define TEL_QS_VCPU 4

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
    /* its device's latencies (views.c): the tracer, or why there is none */
    tel_devlat *devlat;
    char    devlat_disks[128];      /* "vda", "sdb,sdc" */
    char    devlat_note[320];
    hist   *dl_h[RES_DEVLAT_N];     /* measured phases merged, owned */
    res_devlat_point *dl_series;    /* first repetition traced, owned */
    int     dl_n;
    int64_t dl_unmatched;
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
    tel_guest         *guest;       /* the guests' view (views.c), or NULL */
    res_phase_id       phase;       /* the phase sampled */
    orch_tel_tick_fn   tick_fn;     /* the tick hook (orch_telemetry_on_tick) */
    void              *tick_ctx;
    orch_spool        *spool;       /* the samples on disk (orch_telemetry_spool),
                                     * or NULL: in memory */
    int                spool_told;  /* its failure was reported */
    int                lazy_series; /* orch_telemetry_lazy_series */
    double             fill_interval_s; /* the summary's bins (orch_telemetry_fill) */
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
/* VM v's measured window: oltp's, else from the warm-up's end (the
 * phase's start + warmup_s) to now. Here, not in sampling.c, so that
 * views.c, which sampling.c calls, does not call back. */
static inline void tel_vm_window(const orch_telemetry *t, const tel_vm *v, double now,
                                 double *w0, double *w1)
{
    *w0 = v->w1 > v->w0 ? v->w0 : t->phase_t0;
    *w1 = v->w1 > v->w0 ? v->w1 : now;
}

/* The samples of a device series whose middle lies in [w0, w1], moved to
 * the front; their count. */
static inline int tel_diskstat_in_window(orch_diskstat_delta *d, int n, double w0, double w1)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (d[i].t - d[i].dt / 2 >= w0 && d[i].t - d[i].dt / 2 <= w1)
            d[k++] = d[i];
    return k;
}

/* With a spool, VM v's measured series read into v->db and v->boot, and
 * freed again (no-ops without one). 0, or -1 (out of memory, the spool
 * unreadable: its error set). */
int tel_vm_load(const orch_telemetry *t, tel_vm *v) DB_MUST_CHECK;
void tel_vm_unload(const orch_telemetry *t, tel_vm *v);

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

/* Summary VM v's telemetry record (its name and repetition), or NULL.
 * Here, not in summary_io.c, so that qemu_threads.c, which summary_io.c
 * calls, does not call back. */
static inline tel_vm *tel_vm_record(const orch_telemetry *t, const res_vm *v)
{
    for (int i = 0; i < t->nvms; i++)
        if (t->vms[i].rep == v->repetition && strcmp(t->vms[i].name, v->name) == 0)
            return &t->vms[i];
    return NULL;
}

/* qemu_threads.c: the VMs' QEMU threads by role (bound.h). VM vi was
 * added on this host: find its QEMU process (without t->mu). */
void tel_qemu_add_vm(orch_telemetry *t, int vi);
/* Whether dom runs in a QEMU process (its connection's driver is QEMU's;
 * dom NULL, as tests add VMs: yes, their /proc is planted). */
int tel_qemu_domain(virDomainPtr dom);
/* A measured phase starts, ticks, ends (t->mu held): the threads' CPU
 * of the current repetition's VMs, and at the end their figures over
 * each VM's measured window. */
void tel_qemu_phase_start(orch_telemetry *t, double now);
void tel_qemu_tick(orch_telemetry *t, double now);
void tel_qemu_phase_end(orch_telemetry *t, int rep, double now);
/* The summary's VMs' QEMU figures and each drive's verdict (after
 * tel_cpu_fill and the drives' host views). 0, or -1 when out of memory. */
int tel_bound_fill(const orch_telemetry *t, res_summary *sum) DB_MUST_CHECK;
/* The tick hook's view of the latest interval (t->mu held): VM v's
 * threads over its last two rows when the last is at now (1, or 0: none);
 * the host's CPU and each drive's verdict from view v's VMs and devices. */
int tel_qemu_last(const orch_telemetry *t, const tel_vm *v, double now, res_io_qemu *q);
void tel_bound_now(const orch_telemetry *t, orch_tel_now *v, orch_tel_drive_now *drives);
/* Whether env's hypervisors ran the VMs under TCG (domain type qemu). */
int tel_env_tcg(const res_env *env);

/* summary_host.c. The host view of drive d (plan index): device,
 * identity, health, the phase figures (the mean over repetitions) and the
 * series of the first measured one; its flush ratio against the guests'
 * guest_fl flushes (guest_has 0: the hypervisor counted none). NULL when
 * out of memory. */
res_io_host *tel_host_view(const orch_telemetry *t, int d, double interval_s, int nint,
                           unsigned long long guest_fl, int guest_has);
/* The figures of a kernel's block statistics (host device or guest disk)
 * over intervals d[0..n): counts over time, waits weighted by the I/Os
 * they average over, queue and utilisation by time, request size by the
 * I/Os (r->t: the time covered). */
void tel_diskstat_total(const orch_diskstat_delta *d, int n, res_io_row *r);
/* One interval's figures (nothing for a reset interval). */
void tel_diskstat_row(const orch_diskstat_delta *x, res_io_row *r);
/* Rates (host keys) of series[r][0..n[r]) for reps repetitions into *out:
 * phase figures the mean over the repetitions with intervals, the series
 * on nint TPS intervals (of interval_s from t0[r]) that of the first;
 * completed flushes added to *flushes (*has_fl set when counted). *out
 * NULL when no repetition has intervals. 0, or -1 when out of memory. */
int tel_diskstat_rates(orch_diskstat_delta *const *series, const int *n, const double *t0,
                       int reps, double interval_s, int nint, res_io_rates **out,
                       unsigned long long *flushes, int *has_fl) DB_MUST_CHECK;

/* views.c: the guests' view and the device's latencies in the run's
 * life (called without t->mu) and in the summary. */
void tel_views_new(orch_telemetry *t);
void tel_views_clear(orch_telemetry *t);
/* Drive d was resolved (its device known, or not): set up its tracer. */
void tel_views_drive(orch_telemetry *t, int d);
/* VM v (just added) runs as dom. */
void tel_views_add_vm(orch_telemetry *t, tel_vm *v, virDomainPtr dom);
void tel_views_phase_start(orch_telemetry *t, res_phase_id phase, int rep, double now);
/* A tick at now: without the timer (tests), the guest view samples then. */
void tel_views_tick(orch_telemetry *t, double now);
/* A sampled phase ended; a measured one keeps its series for rep. */
void tel_views_phase_end(orch_telemetry *t, res_phase_id phase, int rep, double now);
/* Summary VM v's guest view (rec: its record, may be NULL). 0, or -1. */
int tel_views_fill_vm(const orch_telemetry *t, const tel_vm *rec, res_vm *v,
                      double interval_s) DB_MUST_CHECK;
/* Drive pd's guest view (the sum of its VMs' in each repetition) and
 * device latencies into io. 0, or -1 when out of memory. */
int tel_views_fill_drive(const orch_telemetry *t, const res_summary *sum, int pd, res_io *io,
                         double interval_s, int nint) DB_MUST_CHECK;

/* per_txn.c: what the I/O cost per committed transaction, and the tail
 * against the device. */
/* VM v (its io->db set) with its measured phase m. 0, or -1. */
int tel_txn_vm(res_vm *v, const res_phase *m) DB_MUST_CHECK;
/* VM v's per-transaction series freed (its phase rows stay), and built
 * again, the same rows, from its database-disk and TPS series (a lazy
 * telemetry's: held only while the summary writes the VM, issue 33).
 * tel_txn_vm_series: 0 (nothing to build, or already there), or -1 when
 * out of memory. */
void tel_txn_vm_drop(res_vm *v);
int tel_txn_vm_series(res_vm *v);
/* Drive dr (its io filled) with tps[0..nint) of the repetition its series
 * come from. 0, or -1 when out of memory. */
int tel_txn_drive(res_drive *dr, const double *tps, int nint, double interval_s) DB_MUST_CHECK;
/* Drive dr's tail: its p_series against the device's figure per interval. */
int tel_tail_drive(res_drive *dr);

/* comparisons.c. Each pair of sum's drives compared into io->cmp: paired
 * TPS and p-latency over the intervals of acc[] (one per drive of sum,
 * reps * nint each) of the repetitions both drives measured completely,
 * Welch over the complete repetitions' TPS and p99 (reps: the plan's),
 * Holm's correction over them all; a pair with an incomplete drive gets
 * no verdict. Any comparisons io held before are replaced. 0, or -1 when
 * out of memory. */
int tel_compare_drives(const res_summary *sum, const tel_drive_acc *acc, int reps, int nint,
                       res_io *io);

#endif
