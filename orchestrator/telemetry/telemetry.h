/*
 * telemetry.h — what the drives did during a run, wired to the run's
 * life (issue 13): the libvirt block statistics of every VM's database
 * and boot disk (blockstats.h), the host's /sys/block statistics of each
 * local `path` or `pool` drive (telemetry/host_drive.h), the drive's identity and
 * SMART/NVMe health before and after, and the host's CPU use during the
 * measured phases; then, from those and the VMs' oltp results, the
 * summary's res_io fields (results_io.h): per VM and per drive I/O, the
 * drive's latency spectrum and p-latency over time, paired / Welch
 * comparisons of drives and the steady-state trend (stats.h, ioagg.h).
 *
 * Sampling runs on the monitor's event thread (orch_monitor_every) every
 * report interval, but only between orch_telemetry_phase_start and
 * _phase_end of a "precondition" or "measure" phase; its intervals are
 * aligned with oltp's TPS intervals (which start after the warm-up).
 *
 * Host view: only for drives on this host (their URI is not remote). A
 * drive on another libvirt host gets the hypervisor view through its own
 * connection (the domain handle the run gives) and no host view; the
 * summary's note says so.
 *
 * Call order, from run.c:
 *   t = orch_telemetry_new(plan, monitor, out, seams);   with the run
 *   orch_telemetry_add_vm(t, ...)                         each VM started
 *   orch_telemetry_phase_start(t, phase, warmup_s)        before a phase
 *   orch_telemetry_phase_end(t, phase, rep)               after it
 *   orch_telemetry_fill(t, summary, run_dir)              into the summary
 *   orch_telemetry_free(t)                 after orch_monitor_free()
 *
 * The guest's own view of its database disk (guest_view.h) and the
 * device's request latencies (devlat.h, [run] device_latency) ride on the
 * same calls (views.c); the summary's per-transaction figures and the
 * tail against the device are per_txn.c's.
 *
 * One file a job (telemetry_state.h holds what they share): sampling.c
 * (new, add_vm, phases, ticks), views.c, host_cpu.c, summary_io.c,
 * summary_host.c and per_txn.c (orch_telemetry_fill), comparisons.c.
 */
#ifndef ORCH_TELEMETRY_H
#define ORCH_TELEMETRY_H

#include "attributes.h"
#include <stdio.h>
#include <libvirt/libvirt.h>
#include "telemetry/blockstats.h"
#include "telemetry/host_drive.h"
#include "virt/virt.h"
#include "telemetry/ioagg.h"
#include "plan/plan.h"
#include "results_summary.h"
#include "results_io.h"

/* Host CPU busier than this share over the measured phases (percent) is
 * saturated: the results then measure the host, not the drive. */
#define ORCH_TEL_CPU_SATURATED_PCT 90.0

/* What tests replace. Every member may be 0/NULL: the real thing. */
typedef struct orch_tel_seams {
    orch_domstats_fn domstats;  /* libvirt block stats of a domain */
    void            *domstats_ctx;
    orch_cmd_fn      cmd;       /* smartctl / nvme */
    void            *cmd_ctx;
    const char      *sysfs;     /* "/sys" */
    const char      *proc_stat; /* "/proc/stat" */
    const char      *proc;      /* "/proc": the VMs' QEMU processes and
                                 * their threads (bound.h) */
    int              interval_ms;   /* sampling; 1000 (oltp --report-interval=1) */
    int              no_timer;  /* tests tick by hand (orch_telemetry_tick_at);
                                 * the guest view then has no thread either */
    orch_agent_fn    agent;     /* the guest view's agent transport */
    void            *agent_ctx;
    const char      *tracefs;   /* device latency: tracefs mount point; NULL:
                                 * found (only with the real /sys) */
} orch_tel_seams;

typedef struct orch_telemetry orch_telemetry;

/* A telemetry for plan p; its sampler ticks on mon (may be NULL: no timer).
 * seams may be NULL. NULL when out of memory. */
orch_telemetry *orch_telemetry_new(const orch_plan *p, orch_monitor *mon, FILE *out,
                                   const orch_tel_seams *seams);
/* Free after orch_monitor_free() (a tick may be running until then).
 * Accepts NULL. */
void orch_telemetry_free(orch_telemetry *t);

/* VM `vm` (its layout index; name and drive index given) of repetition rep
 * runs as dom on conn; its database and boot volumes are db_vol and
 * boot_vol in pool (their paths tell its disks apart; without a pool the
 * targets sdb and sda, as vmconfigs/ name them). On a drive of this host
 * both volumes are fsync'ed now, before any phase, so a restored copy's
 * dirty pages are not written back during the precondition. The first VM
 * of a drive also resolves the drive's block device, identity and health.
 * 0, or -1 when out of memory (reported on out). Accepts t NULL. */
int orch_telemetry_add_vm(orch_telemetry *t, int vm, const char *name, int drive, int rep,
                          virStoragePoolPtr pool, const char *db_vol, const char *boot_vol,
                          virDomainPtr dom) DB_MUST_CHECK;

/* Keep the VMs' block-statistics samples in a spool file in dir (the run
 * folder; spool.h: unnamed, gone with the process) as they come, not in
 * memory; the summary reads them back one VM at a time. Call before the
 * first VM is added. 0, or -1 with err. */
int orch_telemetry_spool(orch_telemetry *t, const char *dir, char *err, size_t errlen) DB_MUST_CHECK;
/* The same with a spool given (owned from now on; tests: one over
 * /dev/full). */
void orch_telemetry_spool_use(orch_telemetry *t, orch_spool *sp);
/* 1 with the reason in err when the spool failed (a full disk): samples
 * are missing, the run must fail; 0 otherwise (or without a spool). */
int orch_telemetry_spool_error(orch_telemetry *t, char *err, size_t errlen) DB_MUST_CHECK;

/* Phase `phase` starts now; its TPS intervals begin after warmup_s.
 * Other phases than RES_PHASE_PRECONDITION and RES_PHASE_MEASURE are not
 * sampled. */
void orch_telemetry_phase_start(orch_telemetry *t, res_phase_id phase, int warmup_s);
/* It ended: a last sample; a measured phase's series are kept for rep,
 * over the VMs' measured windows when orch_telemetry_vm_window gave them
 * (else from the warm-up's end to now). */
void orch_telemetry_phase_end(orch_telemetry *t, res_phase_id phase, int rep);
/* VM `name` of repetition rep measured from start to end (CLOCK_MONOTONIC
 * s: when its oltp was started plus its measure phase's start_s, and that
 * plus its duration_s): its disks, its drive's device and the host's CPU
 * are taken over that window (each sample whose middle lies in it), not
 * over oltp's start-up, warm-up and tail. Call after the phase ran and
 * before orch_telemetry_phase_end. Accepts t NULL. */
void orch_telemetry_vm_window(orch_telemetry *t, const char *name, int rep, double start,
                              double end);

/* What the database disks of drive d's VMs of repetition rep did over
 * the phase that just ended (after orch_telemetry_phase_end, before the
 * next phase starts): the hypervisor view summed over them (ioagg.h
 * orch_io_drive_total). A precondition's rounds record it (issue 21).
 * 0, or -1 when nothing was sampled (no VM of d, t NULL, out of memory):
 * every rate in out is then NAN. */
int orch_telemetry_phase_io(orch_telemetry *t, int d, int rep, orch_io_sum *out) DB_MUST_CHECK;

/* The same at times on CLOCK_MONOTONIC given by tests (seconds). */
void orch_telemetry_phase_start_at(orch_telemetry *t, res_phase_id phase, int warmup_s,
                                   double now);
void orch_telemetry_phase_end_at(orch_telemetry *t, res_phase_id phase, int rep, double now);
/* The host CPU figure's accumulators (its busy share weighted by the
 * measured phases' lengths since the run began). */
typedef struct orch_tel_cpu_acc {
    double sum, w;
} orch_tel_cpu_acc;
/* Exchange t's accumulators with *acc. A step on the same VMs
 * (run/step.c) swaps in zeroes before its measured phase, so its summary's
 * host CPU is its own phase's, and swaps back after, so the run's stays
 * the run's. Accepts t NULL. */
void orch_telemetry_cpu_swap(orch_telemetry *t, orch_tel_cpu_acc *acc);

/* One sample now (what the monitor's timer does), or at time now. */
void orch_telemetry_tick(void *telemetry);
void orch_telemetry_tick_at(orch_telemetry *t, double now);

/* What one tick of a sampled phase saw (the live view, issue 34): the
 * interval that ended at this tick, per VM of the current repetition its
 * database disk as the hypervisor saw it, per drive of the plan the
 * host's view of its device. has_* 0: nothing this tick (no sample, a
 * failed one, a drive with no host view). */
typedef struct orch_tel_vm_now {
    int            vm, drive;       /* layout and plan indexes */
    int            has_db;
    orch_blk_delta db;
    int            has_qemu;        /* its QEMU threads over the interval */
    res_io_qemu    qemu;
} orch_tel_vm_now;

typedef struct orch_tel_drive_now {
    int                 has_dev;
    orch_diskstat_delta dev;
    int                 has_bound;  /* bound.h's verdict on this interval's
                                     * figures (no client figure: oltp's CPU
                                     * comes with its result) */
    res_bound_verdict   bound;
} orch_tel_drive_now;

typedef struct orch_tel_now {
    double                    t;        /* CLOCK_MONOTONIC s */
    res_phase_id              phase;    /* precondition or measure */
    int                       rep;
    const orch_tel_vm_now    *vms;
    int                       nvms;
    const orch_tel_drive_now *drives;   /* [ndrives], the plan's */
    int                       ndrives;
    int                       has_host_cpu; /* the host's CPU over the interval */
    double                    host_cpu_pct;
} orch_tel_now;

/* Called after every tick of a sampled phase, on the thread that ticks
 * (the monitor's event thread), without the telemetry's lock; now and
 * what it points to live for the call only. */
typedef void (*orch_tel_tick_fn)(void *ctx, const orch_tel_now *now);
/* Set (fn NULL: clear) the one tick hook. Accepts t NULL. */
void orch_telemetry_on_tick(orch_telemetry *t, orch_tel_tick_fn fn, void *ctx);

/* Set sum's res_io fields (sum->io, drives[i].io, vms[i].io) from what
 * was sampled and the VMs' oltp results under run_dir (their `result`).
 * Health is read again here ("after"). t NULL (`drivebench summarize`,
 * `verify`): nothing sampled; the comparisons alone are made again, from
 * the VMs' results and sum's figures, replacing sum->io's, and every other
 * res_io field stays as it is. 0, or -1 when out of memory. */
int orch_telemetry_fill(orch_telemetry *t, res_summary *sum, const char *run_dir);

/* With a spool: orch_telemetry_fill keeps of each VM's disks the phase
 * figures only, and orch_telemetry_vm_each builds their series while the
 * summary writes that VM (res_summary_write_files_vm) and frees them
 * after, so one VM's series is in memory at a time. Without a spool,
 * nothing changes. */
void orch_telemetry_lazy_series(orch_telemetry *t);
/* A res_vm_each_fn (results_summary.h) over orch_telemetry *ctx. */
int orch_telemetry_vm_each(void *ctx, res_vm *v, int before);

/* Host CPU busy share between two /proc/stat texts (the "cpu" line:
 * everything but idle and iowait is busy), percent; NAN when unreadable. */
double orch_tel_cpu_busy_pct(const char *stat_before, const char *stat_after);

/* The rest of what telemetry/ offers to the other folders (the front header:
 * a file outside telemetry/ includes only this one, tests/lint/fronts.sh). */
#include "telemetry/bound.h"
#include "telemetry/devlat.h"
#include "telemetry/telemetry_state.h"
#include "telemetry/timebins.h"

#endif
