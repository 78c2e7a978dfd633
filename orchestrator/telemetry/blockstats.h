/*
 * blockstats.h — what each VM's virtual disks did, as the hypervisor saw
 * it: libvirt's block statistics (VIR_DOMAIN_STATS_BLOCK), sampled on the
 * monitor's event thread and turned into per-interval rates.
 *
 * libvirt reports, per disk n, cumulative counters since the QEMU process
 * started: block.<n>.rd.reqs, .rd.bytes, .rd.times (ns), the same for wr,
 * and .fl.reqs, .fl.times (flushes, ns). A hypervisor may leave any of
 * them out; a field left out is absent here (its bit in `have` is clear
 * and every rate derived from it is NAN), never 0.
 *
 * The statistics are read through a seam, orch_domstats_fn, because
 * libvirt 9.0's test driver returns none through domstats: tests feed
 * recorded counters as the typed parameters libvirt would return.
 *
 * Use in a run (client = host or guest, any URI):
 *   s = orch_blk_sampler_new(NULL, NULL);
 *   orch_blk_sampler_add(s, vm->dom, vm->name, &(orch_blk_roles){
 *       .db_path = <db volume path>, .boot_path = <boot volume path> });
 *   orch_monitor_every(mon, report_interval_ms, orch_blk_sampler_tick, s);
 *   at each phase start: orch_blk_sampler_restart(s, phase_t0);
 *   at phase end: orch_blk_sampler_tick(s) once more, then
 *   orch_blk_sampler_series(s, vm, ORCH_DISK_DB, &d) per VM (ioagg.h).
 *   Free the sampler only after orch_monitor_free(), which waits for a
 *   tick in progress.
 */
#ifndef ORCH_BLOCKSTATS_H
#define ORCH_BLOCKSTATS_H

#include "attributes.h"

#include <stddef.h>
#include <libvirt/libvirt.h>
#include "telemetry/spool.h"

/* The cumulative counters, by their libvirt names (after block.<n>.). */
#define ORCH_BLK_FIELDS(X) \
    X(RD_REQS, "rd.reqs") X(RD_BYTES, "rd.bytes") X(RD_TIMES, "rd.times") \
    X(WR_REQS, "wr.reqs") X(WR_BYTES, "wr.bytes") X(WR_TIMES, "wr.times") \
    X(FL_REQS, "fl.reqs") X(FL_TIMES, "fl.times")
#define ORCH_BLK_ENUM(id, key) ORCH_BLK_##id,
typedef enum { ORCH_BLK_FIELDS(ORCH_BLK_ENUM) ORCH_BLK_NFIELDS } orch_blk_field;
#undef ORCH_BLK_ENUM

/* Nonzero when field f is set in a `have` mask. */
#define ORCH_BLK_HAS(have, f) (((have) >> (f)) & 1u)

/* "rd.reqs", ... */
const char *orch_blk_field_name(orch_blk_field f);

/* Which of a VM's disks a counter set belongs to. */
typedef enum { ORCH_DISK_OTHER, ORCH_DISK_DB, ORCH_DISK_BOOT } orch_disk_role;
/* "other", "db", "boot" */
const char *orch_disk_role_name(orch_disk_role r);

/* How to tell the disks apart: the source path of the volume (what
 * virStorageVolGetPath gives; libvirt reports it as block.<n>.path) or
 * the disk's target name ("sdb"). A path match is tried first. Any of the
 * four may be NULL. */
typedef struct orch_blk_roles {
    const char *db_path, *db_target;
    const char *boot_path, *boot_target;
} orch_blk_roles;

#define ORCH_BLK_MAX_DISKS 16

/* One disk's counters at one moment. */
typedef struct orch_blk_counters {
    char     name[32];          /* target: "sda", "vdb" */
    char     path[512];         /* source path, "" when not reported */
    orch_disk_role role;
    unsigned have;              /* bit f set: field f was reported */
    unsigned long long v[ORCH_BLK_NFIELDS];
} orch_blk_counters;

/* One VM's disks at one moment. */
typedef struct orch_blk_sample {
    double t;                   /* seconds on CLOCK_MONOTONIC */
    int    ndisks;
    orch_blk_counters disk[ORCH_BLK_MAX_DISKS];
} orch_blk_sample;

/* Parse the typed parameters of one domain's VIR_DOMAIN_STATS_BLOCK
 * record into s (s->t is left alone); disks beyond ORCH_BLK_MAX_DISKS
 * and entries of backing images (a disk name seen before: the chain
 * follows its disk's top entry) are ignored.
 * 0, or -1 when block.count is missing. */
int orch_blk_parse(virTypedParameterPtr params, int nparams, const orch_blk_roles *roles,
                   orch_blk_sample *s) DB_MUST_CHECK;

/* One disk over one interval. Rates are per second over dt; MB are
 * 10^6 bytes; latencies are averages (Δtimes / Δreqs) in ms, NAN when a
 * field is absent at either end or the interval had no such request. */
typedef struct orch_blk_delta {
    double t;                   /* end of the interval (CLOCK_MONOTONIC s) */
    double dt;                  /* its length, s */
    int    reset;               /* a counter went back (the VM restarted):
                                   the interval has no values (have = 0) */
    unsigned have;              /* fields present at both ends */
    unsigned long long d[ORCH_BLK_NFIELDS];   /* increments */
    double rd_iops, rd_mbps, rd_lat_ms;
    double wr_iops, wr_mbps, wr_lat_ms;
    double fl_iops, fl_lat_ms;
} orch_blk_delta;

/* The interval from prev (at t0) to cur (at t1 > t0) of one disk. */
void orch_blk_delta_of(const orch_blk_counters *prev, double t0,
                       const orch_blk_counters *cur, double t1, orch_blk_delta *out);

/* The seam: the block statistics of dom as typed parameters (the
 * `params` of its virDomainStatsRecord). 0 with *params owned by the
 * caller (virTypedParamsFree(*params, *nparams)), or -1 with err. */
typedef int (*orch_domstats_fn)(void *ctx, virDomainPtr dom, virTypedParameterPtr *params,
                                int *nparams, char *err, size_t errlen);
/* The default: virDomainListGetStats(VIR_DOMAIN_STATS_BLOCK). */
int orch_domstats_libvirt(void *ctx, virDomainPtr dom, virTypedParameterPtr *params,
                          int *nparams, char *err, size_t errlen) DB_MUST_CHECK;

/* Samples the VMs added to it; thread-safe (one mutex). */
typedef struct orch_blk_sampler orch_blk_sampler;

/* fn NULL: orch_domstats_libvirt. NULL when out of memory. */
orch_blk_sampler *orch_blk_sampler_new(orch_domstats_fn fn, void *ctx);
void orch_blk_sampler_free(orch_blk_sampler *s);    /* accepts NULL */

/* Keep the intervals from now on in spool (not owned; it outlives the
 * sampler) instead of memory: a VM disk's series then costs 8 bytes an
 * interval here, and a write that fails counts as a failed sample. */
void orch_blk_sampler_spool(orch_blk_sampler *s, orch_spool *spool);

/* Sample dom (a reference is taken; NULL is passed to fn as is) as VM
 * `vm` with roles (strings copied). Returns the VM's index, or -1 when
 * out of memory. */
int orch_blk_sampler_add(orch_blk_sampler *s, virDomainPtr dom, const char *vm,
                         const orch_blk_roles *roles) DB_MUST_CHECK;

/* Sample every VM now (CLOCK_MONOTONIC). Fits orch_monitor_every(). */
void orch_blk_sampler_tick(void *sampler);
/* The same at time t (seconds): what tick does, for tests. */
void orch_blk_sampler_sample_at(orch_blk_sampler *s, double t);
/* A new phase: forget every interval so far and sample now as its base
 * (t = phase start on CLOCK_MONOTONIC; tests pass their own clock). */
void orch_blk_sampler_restart(orch_blk_sampler *s, double t);

/* Copy of VM vm's intervals for its disk with role r (DB or BOOT), oldest
 * first, into *out (caller frees; NULL when none). Returns the count, or
 * -1 for an unknown vm, out of memory or a spool that cannot be read.
 * A failed sample adds nothing: the next interval spans the gap. */
int orch_blk_sampler_series(orch_blk_sampler *s, int vm, orch_disk_role r,
                            orch_blk_delta **out);
/* VM vm's newest interval for its disk with role r into *out: 1, or 0
 * when it has none (or vm or r is unknown). */
int orch_blk_sampler_last(orch_blk_sampler *s, int vm, orch_disk_role r, orch_blk_delta *out);
/* Failed samples of VM vm, and the last failure's text (copied into err;
 * "" when none). */
int orch_blk_sampler_errors(orch_blk_sampler *s, int vm, char *err, size_t errlen) DB_MUST_CHECK;

#endif
