/*
 * files.h — small readers of text files for the orchestrator: a whole
 * file (procfs included, whose size stat does not know) and the last
 * lines of a log, once it is settled.
 */
#ifndef ORCH_FILES_H
#define ORCH_FILES_H

#include <stddef.h>

/* The first max bytes of the file at path as a new string (caller frees),
 * NULL when it cannot be read or memory runs out. */
char *orch_file_read(const char *path, size_t max);

/* The whole regular file at path, of at most max bytes, as a new string
 * (caller frees; *len its length, NUL excluded). A path to anything else
 * (a pipe, a device, a folder) or to a larger file is refused without
 * waiting on it or reading it whole. NULL with the reason in err. */
char *orch_file_read_regular(const char *path, size_t max, size_t *len, char *err,
                             size_t errlen);

/* The last keep lines of the file at path as a new string (caller frees;
 * lines longer than 511 bytes count as several), NULL when it cannot be
 * read. With a mark (NULL: none), the last line containing it is never
 * cut off: when it lies before those keep lines it comes first, then
 * "[... N line(s) ...]" for the lines between (a console's "Kernel panic"
 * line, above a call trace longer than the tail). */
char *orch_file_tail(const char *path, long keep, const char *mark);

/* Wait, at most max_ms, until the file at path stops changing (its size
 * and time the same 200 ms apart): a log another process still writes,
 * as virtlogd writes a stopped QEMU's last console output. */
void orch_file_settle(const char *path, int max_ms);

#endif
