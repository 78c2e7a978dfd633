/*
 * oltp_pids.h — the host-side oltp processes of a run, recorded in its run
 * folder so that none outlives the run unseen.
 *
 * As a phase starts, the host client writes RUN_DIR/clients: one line
 * "PID STARTTIME DEV:INO VM" per oltp process, STARTTIME being field 22
 * of /proc/PID/stat (clock ticks after boot), which tells the process
 * apart from a later one that reused its pid, and DEV:INO the device and
 * inode of its executable (/proc/PID/exe) as it was launched: a process
 * is the run's only when both still match, so that a folder's file
 * naming another program's process (written by hand, or by an older
 * drivebench without DEV:INO) never gets it signalled. The file is removed when the
 * phase has reaped every process. If drivebench dies in between (SIGKILL,
 * a crash), `drivebench list` counts the ones still alive and
 * `drivebench teardown RUN-ID` ends them.
 */
#ifndef ORCH_CLIENTS_H
#define ORCH_CLIENTS_H

#include "attributes.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* The start time of process pid (field 22 of /proc/PID/stat) in *start.
 * 0, or -1 when there is no such process. */
int orch_proc_start_time(pid_t pid, unsigned long long *start) DB_MUST_CHECK;

/* A started process as the record names it: its pid, start time and
 * executable (device and inode of /proc/PID/exe), taken once, when it
 * has just started (ok 0 when it was already gone). */
typedef struct orch_client_id {
    pid_t              pid;
    int                ok;
    unsigned long long start, dev, ino;
} orch_client_id;

/* The identity of process pid, now, in *id (id->ok 0 when it is gone). */
void orch_client_identify(pid_t pid, orch_client_id *id);

/* Write RUN_DIR/clients for the n processes ids (their VM names in names)
 * atomically, each with the identity it had when it was identified, not
 * as it is now: a process that changed its program since (or a pid
 * reused) is then never taken for the one the run started. 0, or -1 with
 * a message in err. */
int orch_clients_record(const char *run_dir, const orch_client_id *ids, const char *const *names,
                        int n, char *err, size_t errlen) DB_MUST_CHECK;
/* Remove RUN_DIR/clients (the phase reaped them all). */
void orch_clients_forget(const char *run_dir);

/* How many processes recorded in RUN_DIR/clients are still alive with the
 * recorded start time and executable (0 when there is no such file). */
int orch_clients_alive(const char *run_dir);

/* End every recorded process still alive with its recorded start time
 * and executable: SIGTERM to its process group (oltp writes what it
 * measured), SIGKILL after 5 s; a pid whose start time differs belongs to
 * another process and is never touched, nor one whose executable differs
 * (one line on log: "pid N (recorded for VM) is not the oltp the run
 * started: ...; left alone"). One line per process ended on log (may be NULL).
 * Removes the file. Returns the number ended, or -1 when some could not
 * be ended (message on log). */
int orch_clients_end(const char *run_dir, FILE *log);

#endif
