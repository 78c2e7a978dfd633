/*
 * restore.h — the database volumes of a repetition, restored from each
 * VM's seed volume on every drive at once (issue 15).
 *
 * Every volume is created through libvirt, so the ledger, teardown and
 * remote hosts work as for any other volume. How it is filled:
 *   - a pool on this host of the qemu driver: libvirt creates an empty raw
 *     volume, then `qemu-img convert -n -m 16 -W -t none` copies the seed
 *     into its path (parallel requests, direct I/O on the drive: measured
 *     at 1.0-1.3x a direct-I/O dd of the same bytes, against 0.2-0.5x for
 *     libvirt's clone; bench/restore_vs_dd.sh, bench/RESULTS-restore.md);
 *   - anywhere else (another host, the test driver, files this user may
 *     not read or write): libvirt's own clone, virStorageVolCreateXMLFrom.
 * At most ORCH_RESTORE_PARALLEL volumes are restored at a time, each by a
 * thread; a line of progress (bytes done of total, MB/s per drive, time
 * left) is printed while they run. The first failure stops the others
 * (their qemu-img is terminated); what was created is in the ledger.
 */
#ifndef ORCH_RESTORE_H
#define ORCH_RESTORE_H

#include <stdint.h>
#include <stdio.h>
#include <libvirt/libvirt.h>

#include "virt/ledger.h"
#include "attributes.h"

#define ORCH_RESTORE_PARALLEL 8

/* One database volume to create. The caller fills the inputs. */
typedef struct orch_restore_job {
    virStoragePoolPtr pool;     /* borrowed; the drive's pool */
    const char *name;           /* the new volume */
    uint64_t    capacity;       /* bytes */
    const char *seed;           /* seed volume in pool to copy, or NULL: empty */
    int         drive;          /* index into the figures, 0..ndrives-1 */
    /* filled by orch_restore_all */
    int         local;          /* 1: filled by qemu-img here, 0: libvirt's clone */
    double      seconds;        /* this volume's restore */
    char        err[DB_ERR_LEN];       /* when it failed */
} orch_restore_job;

/* A drive's restore figure: bytes copied from seeds — each seed's data
 * (orch_restore_data_bytes on a pool of this host; elsewhere libvirt's
 * allocation of a seed without a backing file, else its capacity), at
 * most the new volume's capacity, not the virtual size of a sparse seed —
 * and the wall time the drive took (its first restore's start to its
 * last one's end), summed over calls. bytes 0: nothing was restored there. */
typedef struct orch_restore_figure {
    uint64_t bytes;
    double   seconds;
} orch_restore_figure;

typedef struct orch_restore_opts {
    FILE       *out;            /* progress; NULL: none */
    int         progress_every; /* seconds between lines when out is not a tty */
    const char *const *drive_names;    /* for the progress line; may be NULL */
    int         parallel;       /* 0: ORCH_RESTORE_PARALLEL */
    const char *qemu_img;       /* NULL: "qemu-img" from PATH */
    /* The caller's stop request, polled about once a second: nonzero
     * stops the restores (their copies are killed). NULL: never. */
    int       (*stop_requested)(void *ctx);
    void       *stop_ctx;
} orch_restore_opts;

/* Bytes of data in the image at path and its backing chain: the extents
 * `qemu-img map --output=json` marks "data": true, which is what qemu-img
 * convert copies (qemu_img NULL: "qemu-img" from PATH). 0, or -1 with err. */
int orch_restore_data_bytes(const char *qemu_img, const char *path, uint64_t *bytes,
                            char *err, size_t errlen) DB_MUST_CHECK;

/* Create the n volumes of jobs, recording each in l as soon as it exists,
 * and add each drive's figure to figures[job.drive] (may be NULL). Returns
 * 0, or -1 with the first failure in err (its job's name included). Stops
 * early, with err "interrupted", when o->stop_requested says so. */
int orch_restore_all(orch_restore_job *jobs, int n, orch_ledger *l,
                     orch_restore_figure *figures, int ndrives,
                     const orch_restore_opts *o, char *err, size_t errlen) DB_MUST_CHECK;

#endif
