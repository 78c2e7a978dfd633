/*
 * files.h — small readers of text files for the orchestrator: a whole
 * file (procfs included, whose size stat does not know) and the last
 * lines of a log.
 */
#ifndef ORCH_FILES_H
#define ORCH_FILES_H

#include <stddef.h>

/* The first max bytes of the file at path as a new string (caller frees),
 * NULL when it cannot be read or memory runs out. */
char *orch_file_read(const char *path, size_t max);

/* The last keep lines of the file at path as a new string (caller frees;
 * lines longer than 511 bytes count as several), NULL when it cannot be
 * read. */
char *orch_file_tail(const char *path, long keep);

#endif
