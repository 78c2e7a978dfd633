/*
 * spool.h — fixed-size records written to a file as they come and read
 * back by their offset (issue 33): the telemetry's samples of a long run
 * live on disk, not in memory, until the summary reads them one VM at a
 * time.
 *
 * The file is made in the run folder without a name (O_TMPFILE, else a
 * name unlinked at once), so it is gone when the process ends, however
 * it ends, and is never part of the run folder's contents.
 *
 * A write that fails (a full disk) sets a sticky error: every later put
 * fails too, and orch_spool_error says why, so a run never goes on with
 * samples silently missing. Thread-safe (one mutex).
 */
#ifndef ORCH_SPOOL_H
#define ORCH_SPOOL_H

#include "attributes.h"
#include <stddef.h>
#include <stdint.h>

typedef struct orch_spool orch_spool;

/* A spool file in folder dir. NULL with err when it cannot be made. */
orch_spool *orch_spool_open(const char *dir, char *err, size_t errlen);
/* A spool over an open descriptor (owned from now on; tests give
 * /dev/full); what is named in its errors. NULL when out of memory (fd
 * closed). */
orch_spool *orch_spool_of_fd(int fd, const char *what);
void orch_spool_free(orch_spool *s);    /* accepts NULL */

/* Append n records of len bytes each: the offset of the first, or -1
 * (the spool's error is then set, and reported once on its own line by
 * the caller through orch_spool_error). */
int64_t orch_spool_put(orch_spool *s, const void *rec, size_t len, size_t n);
/* Read n records of len bytes at offset off into rec. 0, or -1 (the
 * spool's error set). */
int orch_spool_get(orch_spool *s, int64_t off, void *rec, size_t len, size_t n) DB_MUST_CHECK;
/* 1 with the first failure's text in err when a put or get failed, else
 * 0. */
int orch_spool_error(orch_spool *s, char *err, size_t errlen);
/* Bytes written so far. */
int64_t orch_spool_size(orch_spool *s);

#endif
