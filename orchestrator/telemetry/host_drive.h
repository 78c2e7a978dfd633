/*
 * host_drive.h — what the drive under test did, as the host saw it, and what
 * the drive is.
 *
 *  1. orch_drive_resolve(): the block device under a `path` drive:
 *     stat(path).st_dev -> <sysfs>/dev/block/MAJ:MIN -> the whole disk.
 *     A partition resolves to its parent disk. A device-mapper or md
 *     device (LVM, dm-crypt, RAID) is sampled itself — its stat is what
 *     the file system sees — and its slaves (the whole disks under it) are
 *     listed; the identity is the slave's when there is exactly one. A
 *     file system on no block device (tmpfs, overlay, NFS: major 0) has
 *     kind ORCH_DEV_NONE and a note saying so; nothing is sampled. For a
 *     `pool` drive the caller resolves the pool's target path first.
 *  2. orch_diskstat_*: <sysfs>/block/<disk>/stat (the kernel's
 *     Documentation/block/stat.rst) turned into per-interval IOPS, MB/s,
 *     average wait per I/O, average queue depth, discards and flushes.
 *     Every latency here is an average over the interval's completed
 *     I/Os, not a percentile. Utilisation (busy time) means little on
 *     SSDs and NVMe, which serve many requests at once: 100 % busy is not
 *     saturation there.
 *  3. orch_drive_identity(): model, serial, firmware, size, rotational,
 *     scheduler, volatile write cache, file system and how full it is.
 *  4. orch_drive_health_read(): temperature and wear through smartctl
 *     (smartmontools) or nvme-cli, read through a seam (orch_cmd_fn) so
 *     tests feed recorded output. Read it before and after a run.
 *
 * The sysfs root is a parameter ("/sys" in a run) so tests build a fake
 * tree of real files.
 *
 * Use in a run, per `path` drive:
 *   orch_drive_resolve("/sys", drive->path, &dev, err, errlen);
 *   orch_drive_identity("/sys", &dev, drive->path, &id);
 *   orch_drive_health_read(NULL, NULL, dev.id_disk, &before);   (and after)
 *   if (dev.kind != ORCH_DEV_NONE) orch_disk_sampler_add(s, drive->name, dev.disk);
 *   orch_monitor_every(mon, report_interval_ms, orch_disk_sampler_tick, s);
 *   orch_disk_sampler_restart(s, phase_t0) at each phase start, a last
 *   tick at its end, then orch_disk_sampler_series() per drive. Free the
 *   sampler only after orch_monitor_free(), which waits for a running tick.
 */
#ifndef ORCH_DRIVE_H
#define ORCH_DRIVE_H

#include "attributes.h"

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

typedef enum {
    ORCH_DEV_NONE,          /* no block device (tmpfs, overlay, NFS, ...) */
    ORCH_DEV_DISK,          /* a whole disk */
    ORCH_DEV_PARTITION,     /* a partition: its disk is sampled */
    ORCH_DEV_DM,            /* device-mapper (LVM, dm-crypt, ...) */
    ORCH_DEV_MD,            /* md software RAID */
} orch_dev_kind;

/* "none", "disk", "partition", "dm", "md" */
const char *orch_dev_kind_name(orch_dev_kind k);

#define ORCH_DRIVE_MAX_SLAVES 8

typedef struct orch_drive_dev {
    orch_dev_kind kind;
    char     note[256];         /* what was found and done, for people */
    unsigned major, minor;      /* of the file system's device */
    char     node[64];          /* that device: "vda1", "dm-0", "md0" */
    char     disk[64];          /* sampled: <sysfs>/block/<disk>/stat; "" for NONE */
    char     dm_name[128];      /* dm/name ("vg-db") or the md device; "" else */
    int      nslaves;           /* whole disks under a dm or md device */
    char     slaves[ORCH_DRIVE_MAX_SLAVES][64];
    char     id_disk[64];       /* whose identity and SMART are read; "" when unclear */
} orch_drive_dev;

/* The block device under path. 0 (kind may be ORCH_DEV_NONE, see note),
 * or -1 with err when path cannot be stat'ed or sysfs is unreadable. */
int orch_drive_resolve(const char *sysfs, const char *path, orch_drive_dev *out,
                       char *err, size_t errlen) DB_MUST_CHECK;
/* The same from a device number (what resolve does after stat). */
int orch_drive_resolve_devno(const char *sysfs, unsigned major, unsigned minor,
                             orch_drive_dev *out, char *err, size_t errlen) DB_MUST_CHECK;

/* /sys/block/<disk>/stat, by position (stat.rst). Kernels before 4.18
 * print 11 fields, before 5.5 15; the missing ones are absent. */
#define ORCH_DISKSTAT_FIELDS(X) \
    X(RD_IOS) X(RD_MERGES) X(RD_SECTORS) X(RD_TICKS) \
    X(WR_IOS) X(WR_MERGES) X(WR_SECTORS) X(WR_TICKS) \
    X(IN_FLIGHT) X(IO_TICKS) X(TIME_IN_QUEUE) \
    X(DC_IOS) X(DC_MERGES) X(DC_SECTORS) X(DC_TICKS) \
    X(FL_IOS) X(FL_TICKS)
#define ORCH_DS_ENUM(id) ORCH_DS_##id,
typedef enum { ORCH_DISKSTAT_FIELDS(ORCH_DS_ENUM) ORCH_DS_NFIELDS } orch_diskstat_field;
#undef ORCH_DS_ENUM

typedef struct orch_diskstat {
    double t;                   /* seconds on CLOCK_MONOTONIC */
    int    nfields;             /* fields the kernel printed (11, 15, 17) */
    unsigned long long v[ORCH_DS_NFIELDS];
} orch_diskstat;

/* Parse the text of a stat file. 0, or -1 when it has fewer than 11
 * numbers. s->t is left alone. */
int orch_diskstat_parse(const char *text, orch_diskstat *s) DB_MUST_CHECK;
/* Read <sysfs>/block/<disk>/stat. 0, or -1 with err. */
int orch_diskstat_read(const char *sysfs, const char *disk, orch_diskstat *s,
                       char *err, size_t errlen) DB_MUST_CHECK;

/* One interval of a disk. Counts are increments; rates per second; MB are
 * 10^6 bytes (sectors are 512 bytes whatever the device's block size);
 * waits are averages in ms over the interval's completed I/Os (NAN when
 * none completed or the field is absent). NAN: absent. */
typedef struct orch_diskstat_delta {
    double t, dt;               /* end of the interval and its length, s */
    int    reset;               /* a counter went back: no values */
    unsigned long long rd_ios, wr_ios, dc_ios, fl_ios;  /* completed in the interval */
    double rd_iops, rd_mbps, rd_await_ms;
    double wr_iops, wr_mbps, wr_await_ms;
    double dc_iops, dc_mbps, dc_await_ms;   /* discards; NAN before 4.18 */
    double fl_iops, fl_await_ms;            /* flushes; NAN before 5.5 */
    double await_ms;            /* all completed I/Os: Σticks / Σios */
    double queue_depth;         /* average requests in the queue: Δtime_in_queue / Δt */
    double util_pct;            /* Δio_ticks / Δt * 100 (see above) */
    unsigned long long in_flight;   /* at the end of the interval */
} orch_diskstat_delta;

/* The interval from a to b (b->t > a->t). The kernel keeps the tick
 * fields in 32-bit milliseconds: one that went back from below 2^32 has
 * wrapped and is counted modulo 2^32; any other counter that went back
 * marks the interval reset. */
void orch_diskstat_delta_of(const orch_diskstat *a, const orch_diskstat *b,
                            orch_diskstat_delta *out);

/* What the drive is. "" / 0 / -1 / NAN: unknown. */
typedef struct orch_drive_id {
    char     model[128], vendor[64], serial[128], firmware[64];
    uint64_t size_bytes;            /* of id_disk (else of the sampled device) */
    int      rotational;            /* 1, 0, -1 */
    char     scheduler[32];         /* the one in effect: "none", "mq-deadline" */
    char     write_cache[32];       /* "write back" (volatile cache on) or "write through" */
    char     fs_type[32];           /* of the file system holding path: "ext4", "tmpfs" */
    uint64_t fs_size_bytes, fs_avail_bytes;
    double   fs_used_pct;           /* (size - free) / size * 100 */
} orch_drive_id;

/* Fill id from sysfs (dev->id_disk, else dev->disk) and from statfs of
 * path (may be NULL). 0, or -1 when path's file system cannot be read
 * (the sysfs fields are filled anyway). */
int orch_drive_identity(const char *sysfs, const orch_drive_dev *dev, const char *path,
                        orch_drive_id *id);

/* The seam for smartctl and nvme: orch_cmd_fn, by default orch_cmd_run
 * (util/command.h, the launcher's run-and-capture). */

typedef struct orch_drive_health {
    char   source[16];          /* "smartctl", "nvme", "" when neither could */
    double temp_c;              /* °C, NAN unknown */
    double wear_pct;            /* share of rated endurance used, %, NAN unknown */
    char   wear_from[64];       /* "percentage_used", "ata 177 Wear_Leveling_Count" */
    char   model[128], serial[128], firmware[64];  /* as smartctl reports them */
    double temp_limit_c;        /* where the drive throttles, °C, NAN unknown:
                                 * smartctl's temperature op_limit_max (ATA)
                                 * or drive_trip (SCSI) */
    int    thermal_warning;     /* NVMe critical_warning bit 1: over its
                                 * temperature threshold now; -1 unknown */
    char   note[256];           /* why something is missing */
} orch_drive_health;

/* Temperature and wear of /dev/<disk>: `smartctl -j -a` first; for an
 * NVMe disk whose temperature or wear is still unknown, `nvme smart-log
 * -o json`. fn NULL: orch_cmd_run. 0 when either tool gave something,
 * -1 when none did (h->note says why). */
int orch_drive_health_read(orch_cmd_fn fn, void *ctx, const char *disk, orch_drive_health *h);

/* Samples the stat files of drives (disk_sampler.c); thread-safe (one
 * mutex). */
typedef struct orch_disk_sampler orch_disk_sampler;
/* sysfs copied. NULL when out of memory. */
orch_disk_sampler *orch_disk_sampler_new(const char *sysfs);
void orch_disk_sampler_free(orch_disk_sampler *s);      /* accepts NULL */
/* Sample <sysfs>/block/<disk>/stat for drive `drive`. Index or -1. */
int orch_disk_sampler_add(orch_disk_sampler *s, const char *drive, const char *disk) DB_MUST_CHECK;
void orch_disk_sampler_tick(void *sampler);             /* now; fits orch_monitor_every */
void orch_disk_sampler_sample_at(orch_disk_sampler *s, double t);
/* A new phase: forget the intervals, sample now as the base. */
void orch_disk_sampler_restart(orch_disk_sampler *s, double t);
/* Copy of drive i's intervals, oldest first (caller frees; NULL when
 * none). Count, or -1 for an unknown index or out of memory. */
int orch_disk_sampler_series(orch_disk_sampler *s, int i, orch_diskstat_delta **out) DB_MUST_CHECK;
/* Disk i's newest interval into *out: 1, or 0 when it has none. */
int orch_disk_sampler_last(orch_disk_sampler *s, int i, orch_diskstat_delta *out);
/* Failed reads of drive i, the last one's text in err. */
int orch_disk_sampler_errors(orch_disk_sampler *s, int i, char *err, size_t errlen) DB_MUST_CHECK;

#endif
