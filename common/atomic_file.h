/*
 * atomic_file.h — output files that are either complete or absent.
 *
 * A result written after an hour of measuring must not be lost to a path
 * that was never writable, nor left half-written by a crash or a full
 * disk. atomic_file_check() proves, before the work starts, that a file
 * can be created in the target's directory; atomic_file_write() writes a
 * temporary file in that directory, fsyncs it and renames it over the
 * target, so readers see the old file or the whole new one.
 *
 * Every output file of oltp and drivebench goes through here, so that
 * all respect what is at the path alike:
 *  - a regular file, or nothing: replaced atomically, as above;
 *  - a character device (/dev/null, a terminal) or a FIFO: written
 *    through, never replaced;
 *  - "-": standard output, written through;
 *  - a symbolic link: refused ("links are not followed"), as are a
 *    directory and a block device or a socket.
 * A write that fails (a full disk) leaves nothing behind: the message
 * names the path and the reason ("No space left on device").
 */
#ifndef COMMON_ATOMIC_FILE_H
#define COMMON_ATOMIC_FILE_H

#include "attributes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* 0 when path can be written: a file can be created beside a regular
 * path (a temporary file is created and removed), a device or FIFO can
 * be opened for writing, or path is "-"; else -1 with a message such as
 * "cannot write /x/r.json: Permission denied" in err. */
int atomic_file_check(const char *path, char *err, size_t errlen);
/* Whether path is written through (a character device, a FIFO, "-")
 * rather than replaced: no file is created beside it. */
bool atomic_file_is_through(const char *path);

/* Write len bytes of data to path (as the rules above say): temporary file in the same
 * directory (mode 0666 less the umask, as open(2) gives; the process's
 * umask is never changed), fsync, rename, fsync of the
 * directory. 0, or -1 with a message in err and nothing left behind (an
 * existing path is untouched). */
int atomic_file_write(const char *path, const void *data, size_t len, char *err,
                      size_t errlen) DB_MUST_CHECK;

/* The same, written piece by piece: a file too large to hold in memory
 * as one buffer (summary.json of a long run). atomic_file_open creates
 * the temporary file (NULL with a message in err); its stream takes the
 * pieces; atomic_file_commit flushes, fsyncs and renames it over path
 * (0), or removes it (-1 with err: a write failed); either way a is
 * freed. atomic_file_abort removes it and frees a (accepts NULL). */
typedef struct atomic_file atomic_file;
atomic_file *atomic_file_open(const char *path, char *err, size_t errlen);
FILE *atomic_file_stream(atomic_file *a);
int atomic_file_commit(atomic_file *a, char *err, size_t errlen) DB_MUST_CHECK;
void atomic_file_abort(atomic_file *a);

#endif
