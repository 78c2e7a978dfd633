/*
 * command.h — the one way drivebench starts a process (after libvirt's
 * virCommand): an argv, extra environment variables, what becomes of its
 * stdin, stdout and stderr, whether it dies with drivebench
 * (PR_SET_PDEATHSIG), whether it leads a process group of its own, and a
 * time limit for a synchronous run.
 *
 *   orch_command *cmd = orch_command_new(argv);
 *   orch_command_setenv(cmd, "OLTP_MYSQL_PASSWORD", pw);
 *   orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
 *   orch_command_timeout(cmd, 15000);
 *   rc = orch_command_run(cmd, &status, &out, NULL, err, sizeof err);
 *   orch_command_free(cmd);
 *
 * or orch_command_start, then orch_command_poll / orch_command_wait while
 * reading orch_command_stdout_fd. A program that cannot be executed (not
 * there, not executable) fails orch_command_start itself, with one message
 * "cannot run PROG: REASON" — never a child that prints it and exits 127.
 *
 * Exit status, everywhere: the exit code, or 128 + the signal that ended
 * it (the shell's convention).
 *
 * The child starts with SIGINT and SIGTERM at their defaults and no signal
 * blocked, whatever drivebench set (its stop handler, a thread's mask).
 * Only the environment and the file descriptors named here reach it: every
 * descriptor this module opens is close-on-exec.
 *
 * Threads: one thread drives a command; orch_command_kill may be called
 * from another at any time, and never signals a reaped (perhaps reused)
 * pid.
 */
#ifndef ORCH_COMMAND_H
#define ORCH_COMMAND_H

#include "attributes.h"

#include <stddef.h>
#include <sys/types.h>

typedef struct orch_command orch_command;

/* What a standard stream of the child is connected to. */
typedef enum orch_command_io {
    ORCH_COMMAND_INHERIT,   /* drivebench's own (the default) */
    ORCH_COMMAND_NULL,      /* /dev/null */
    ORCH_COMMAND_PIPE,      /* a pipe whose other end drivebench holds */
    ORCH_COMMAND_TO_STDOUT, /* stderr only: wherever stdout goes */
} orch_command_io;

/* A command for argv (NULL-terminated, copied). argv[0] without a slash is
 * looked up in PATH. NULL when out of memory or argv is empty. */
orch_command *orch_command_new(const char *const *argv);

/* NAME=VALUE in the child's environment, on top of drivebench's (a later
 * call for the same name wins). A NULL value leaves the variable out. 0,
 * or -1 when out of memory. */
int orch_command_setenv(orch_command *cmd, const char *name, const char *value) DB_MUST_CHECK;

/* Where stdin, stdout, stderr go (ORCH_COMMAND_TO_STDOUT: stderr only). */
void orch_command_stdin(orch_command *cmd, orch_command_io io);
void orch_command_stdout(orch_command *cmd, orch_command_io io);
void orch_command_stderr(orch_command *cmd, orch_command_io io);

/* The child reads its stdin from the file at path (opened by
 * orch_command_start: one that cannot be opened fails it, "cannot run
 * PROG: cannot read PATH: REASON"); replaces orch_command_stdin. 0, or
 * -1 when out of memory. */
int orch_command_stdin_file(orch_command *cmd, const char *path) DB_MUST_CHECK;

/* Deliver sig to the child when drivebench dies, even SIGKILLed (Linux's
 * PR_SET_PDEATHSIG); a child whose parent is already gone by then exits
 * at once. */
void orch_command_death_signal(orch_command *cmd, int sig);

/* The child runs in the network namespace whose file is path (an `ip
 * netns` one: /run/netns/NAME), entered with setns(CLONE_NEWNET) between
 * fork and exec: its connections are made there (network = passt, where
 * a VM's database is forwarded only inside its own namespace). NULL:
 * drivebench's own. A namespace that cannot be opened or entered fails
 * orch_command_start ("cannot run PROG in network namespace PATH: ..."
 * or "cannot run PROG: REASON"). Not applied by orch_command_exec. 0, or
 * -1 when out of memory. */
int orch_command_netns(orch_command *cmd, const char *path) DB_MUST_CHECK;

/* The child leads a process group of its own: a terminal's ^C reaches
 * drivebench only, and orch_command_kill signals the whole group. */
void orch_command_own_group(orch_command *cmd);

/* orch_command_run kills the child (SIGKILL, its group when it has one)
 * after ms milliseconds; 0 (the default): no limit. */
void orch_command_timeout(orch_command *cmd, int ms);

/* orch_command_run keeps at most max bytes of each captured stream and
 * reads and drops the rest, so the child never blocks on a full pipe.
 * Default 1 MiB. */
void orch_command_output_limit(orch_command *cmd, size_t max);

/* Start the child. 0, or -1 with err ("cannot run PROG: REASON", or why
 * a pipe or fork failed). Once only. */
int orch_command_start(orch_command *cmd, char *err, size_t errlen) DB_MUST_CHECK;

/* The child's pid, or -1 before the start. */
pid_t orch_command_pid(const orch_command *cmd);

/* drivebench's end of a stream set to ORCH_COMMAND_PIPE (stdin: to write,
 * stdout and stderr: to read), or -1. The command owns it. */
int orch_command_stdin_fd(const orch_command *cmd) DB_MUST_CHECK;
int orch_command_stdout_fd(const orch_command *cmd);
int orch_command_stderr_fd(const orch_command *cmd);

/* Close drivebench's end of the stdin pipe: the child reads end of file. */
void orch_command_close_stdin(orch_command *cmd);

/* Send sig to the child (its process group when it has one). No effect
 * before the start or once the child was reaped. 0, or -1 (errno). */
int orch_command_kill(orch_command *cmd, int sig);

/* Send sig to a process started earlier, perhaps by another drivebench
 * (a run's recorded oltp): to its process group when it leads one, else
 * to the process alone. 0, or -1 (errno). */
int orch_command_signal_pid(pid_t pid, int sig);

/* Replace this process with cmd's program (its argv and environment; no
 * pipes, no timeout: the program inherits stdio). Returns only when the
 * program could not run: -1 with err ("cannot run PROGRAM: REASON"). */
int orch_command_exec(orch_command *cmd, char *err, size_t errlen) DB_MUST_CHECK;

/* Without blocking: 1 when the child ended (reaped, *status set), 0 while
 * it runs, -1 when there is no child to wait for. */
int orch_command_poll(orch_command *cmd, int *status) DB_MUST_CHECK;

/* Block until the child ends (reaped, *status set). 0, or -1 when there is
 * no child to wait for. */
int orch_command_wait(orch_command *cmd, int *status);

/* Start, feed nothing (a piped stdin is closed at once), capture the
 * piped stdout and stderr into *out and *errout (NUL-terminated, caller
 * frees; either pointer may be NULL: that stream is read and dropped),
 * enforce the timeout, wait. 0 with *status set, or -1 with err when it
 * could not start (nothing captured then). A child killed at its
 * timeout gives 0, status 128 + SIGKILL and orch_command_timed_out 1. */
int orch_command_run(orch_command *cmd, int *status, char **out, char **errout, char *err,
                     size_t errlen) DB_MUST_CHECK;

/* 1 when orch_command_run killed the child at its timeout. */
int orch_command_timed_out(const orch_command *cmd);

/* Run argv (argv[0] looked up in PATH) and return what it wrote on
 * stdout (caller frees, up to 1 MiB, the rest read and dropped; stderr to
 * /dev/null), its exit status in *status; NULL when it could not be run
 * (not installed: the caller names the missing package). ctx unused: the
 * signature of orch_cmd_fn, the seam tests replace (smartctl, nvme). */
typedef char *(*orch_cmd_fn)(void *ctx, const char *const argv[], int *status);
char *orch_cmd_run(void *ctx, const char *const argv[], int *status);

/* Free cmd (NULL is fine). A child still running is killed with SIGKILL
 * (its group when it has one) and reaped: none is left behind. */
void orch_command_free(orch_command *cmd);

#endif
