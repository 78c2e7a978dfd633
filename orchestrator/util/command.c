/* command.c — starting, watching and ending child processes (see
 * command.h). fork + exec rather than posix_spawn: PR_SET_PDEATHSIG and a
 * reset signal mask must be set in the child, and posix_spawn has no
 * place for the first. Between fork and exec the child calls only
 * async-signal-safe functions; everything it needs (argv, environment,
 * descriptors) is made before the fork. */
#include "util/command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { CMD_IN, CMD_OUT, CMD_ERR, CMD_NSTREAMS };

struct orch_command {
    char          **argv;           /* owned copy */
    char          **env;            /* "NAME=VALUE" added, owned; NULL: none */
    size_t          nenv;
    orch_command_io io[CMD_NSTREAMS];
    int             fd[CMD_NSTREAMS];   /* drivebench's ends, -1 none */
    int             death_sig;      /* 0: none */
    int             own_group;
    char           *netns;          /* network namespace file, NULL: ours */
    char           *stdin_path;     /* stdin read from this file, NULL: io[CMD_IN] */
    int             timeout_ms;     /* orch_command_run only; 0: none */
    size_t          limit;          /* bytes kept per captured stream */
    pid_t           pid;            /* -1 before the start */
    int             reaped;
    int             timed_out;
    pthread_mutex_t mu;             /* kill against reap (command.h: threads) */
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void free_strv(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

orch_command *orch_command_new(const char *const *argv)
{
    orch_command *cmd;
    size_t n = 0;
    if (!argv || !argv[0])
        return NULL;
    while (argv[n])
        n++;
    cmd = calloc(1, sizeof *cmd);
    if (!cmd)
        return NULL;
    cmd->argv = calloc(n + 1, sizeof *cmd->argv);
    for (size_t i = 0; cmd->argv && i < n; i++)
        if (!(cmd->argv[i] = dup_str(argv[i]))) {
            free_strv(cmd->argv);
            cmd->argv = NULL;
        }
    if (!cmd->argv) {
        free(cmd);
        return NULL;
    }
    for (int i = 0; i < CMD_NSTREAMS; i++) {
        cmd->io[i] = ORCH_COMMAND_INHERIT;
        cmd->fd[i] = -1;
    }
    cmd->limit = 1u << 20;
    cmd->pid = -1;
    pthread_mutex_init(&cmd->mu, NULL);
    return cmd;
}

int orch_command_setenv(orch_command *cmd, const char *name, const char *value)
{
    size_t nlen = strlen(name), vlen = value ? strlen(value) : 0;
    char *entry, **grown;
    if (!value)
        return 0;
    entry = malloc(nlen + vlen + 2);
    grown = realloc(cmd->env, (cmd->nenv + 2) * sizeof *grown);
    if (grown)
        cmd->env = grown;
    if (!entry || !grown) {
        free(entry);
        return -1;
    }
    memcpy(entry, name, nlen);
    entry[nlen] = '=';
    memcpy(entry + nlen + 1, value, vlen + 1);
    cmd->env[cmd->nenv++] = entry;
    cmd->env[cmd->nenv] = NULL;
    return 0;
}

void orch_command_stdin(orch_command *cmd, orch_command_io io)
{
    if (io != ORCH_COMMAND_TO_STDOUT)
        cmd->io[CMD_IN] = io;
}

int orch_command_stdin_file(orch_command *cmd, const char *path)
{
    char *d = dup_str(path);
    if (!d)
        return -1;
    free(cmd->stdin_path);
    cmd->stdin_path = d;
    return 0;
}

void orch_command_stdout(orch_command *cmd, orch_command_io io)
{
    if (io != ORCH_COMMAND_TO_STDOUT)
        cmd->io[CMD_OUT] = io;
}

void orch_command_stderr(orch_command *cmd, orch_command_io io)
{
    cmd->io[CMD_ERR] = io;
}

void orch_command_death_signal(orch_command *cmd, int sig)
{
    cmd->death_sig = sig;
}

int orch_command_netns(orch_command *cmd, const char *path)
{
    char *d = path ? dup_str(path) : NULL;
    if (path && !d)
        return -1;
    free(cmd->netns);
    cmd->netns = d;
    return 0;
}

void orch_command_own_group(orch_command *cmd)
{
    cmd->own_group = 1;
}

void orch_command_timeout(orch_command *cmd, int ms)
{
    cmd->timeout_ms = ms > 0 ? ms : 0;
}

void orch_command_output_limit(orch_command *cmd, size_t max)
{
    cmd->limit = max;
}

/* 1 when entry ("NAME=...") sets a name that one of adds sets too. */
static int env_overridden(const char *entry, char *const *adds, size_t nadds)
{
    const char *eq = strchr(entry, '=');
    size_t n = eq ? (size_t)(eq - entry) : strlen(entry);
    for (size_t i = 0; i < nadds; i++)
        if (strncmp(adds[i], entry, n) == 0 && adds[i][n] == '=')
            return 1;
    return 0;
}

/* The child's environment: drivebench's without the names cmd sets, then
 * cmd's (the last of one name only). A new array of borrowed strings
 * (free the array only), or NULL when out of memory. */
static char **child_env(const orch_command *cmd)
{
    size_t n = 0, o = 0;
    char **env;
    while (environ && environ[n])
        n++;
    env = calloc(n + cmd->nenv + 1, sizeof *env);
    if (!env)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!env_overridden(environ[i], cmd->env, cmd->nenv))
            env[o++] = environ[i];
    for (size_t i = 0; i < cmd->nenv; i++)
        if (!env_overridden(cmd->env[i], cmd->env + i + 1, cmd->nenv - i - 1))
            env[o++] = cmd->env[i];
    return env;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* In the child, after fork: never returns. Reports why it could not exec
 * as an errno on errfd. */
static void child_exec(const orch_command *cmd, pid_t parent, int child_fd[CMD_NSTREAMS],
                       int errfd, char **envp, int nsfd)
{
    struct sigaction sa;
    sigset_t none;
    int e;
    /* every signal is blocked since before the fork: a stop signal sent
     * now waits for the default action instead of drivebench's handler */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* the check closes the race with a parent that died before prctl */
    if (cmd->death_sig && (prctl(PR_SET_PDEATHSIG, cmd->death_sig) < 0 || getppid() != parent))
        _exit(127);
    if (cmd->own_group)
        setpgid(0, 0);
    if (nsfd >= 0 && setns(nsfd, CLONE_NEWNET) < 0)
        goto fail;
    for (int i = 0; i < CMD_NSTREAMS; i++) {
        int target = i == CMD_IN ? STDIN_FILENO : i == CMD_OUT ? STDOUT_FILENO : STDERR_FILENO;
        if (cmd->io[i] == ORCH_COMMAND_TO_STDOUT)
            child_fd[i] = STDOUT_FILENO;        /* dup'ed after stdout is in place */
        if (child_fd[i] >= 0 && dup2(child_fd[i], target) < 0)
            goto fail;
    }
    execvpe(cmd->argv[0], cmd->argv, envp);
fail:
    e = errno;
    if (write(errfd, &e, sizeof e) < 0) {
        /* nobody to tell */
    }
    _exit(127);
}

int orch_command_start(orch_command *cmd, char *err, size_t errlen)
{
    int child_fd[CMD_NSTREAMS] = { -1, -1, -1 }, errpipe[2] = { -1, -1 }, devnull = -1;
    int rc = -1, e = 0, nsfd = -1;
    char **envp = environ;
    pid_t parent = getpid(), pid;
    sigset_t all, old_mask;
    ssize_t got;

    if (cmd->pid > 0) {
        snprintf(err, errlen, "%s was started already", cmd->argv[0]);
        return -1;
    }
    if (cmd->nenv && !(envp = child_env(cmd))) {
        snprintf(err, errlen, "cannot run %s: out of memory", cmd->argv[0]);
        return -1;
    }
    if (cmd->netns && (nsfd = open(cmd->netns, O_RDONLY | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "cannot run %s in network namespace %s: %s", cmd->argv[0],
                 cmd->netns, strerror(errno));
        goto cleanup;
    }
    if (cmd->stdin_path
        && (child_fd[CMD_IN] = open(cmd->stdin_path, O_RDONLY | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "cannot run %s: cannot read %s: %s", cmd->argv[0],
                 cmd->stdin_path, strerror(errno));
        goto cleanup;
    }
    for (int i = 0; i < CMD_NSTREAMS; i++) {
        int p[2];
        if (i == CMD_IN && cmd->stdin_path) {
            continue;
        } else if (cmd->io[i] == ORCH_COMMAND_NULL) {
            if (devnull < 0 && (devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
                goto sys_fail;
            child_fd[i] = devnull;
        } else if (cmd->io[i] == ORCH_COMMAND_PIPE) {
            if (pipe2(p, O_CLOEXEC) < 0)
                goto sys_fail;
            cmd->fd[i] = i == CMD_IN ? p[1] : p[0];
            child_fd[i] = i == CMD_IN ? p[0] : p[1];
        }
    }
    if (pipe2(errpipe, O_CLOEXEC) < 0)
        goto sys_fail;
    /* blocked across the fork, so that no signal meets the child before
     * its handlers are back at their defaults */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old_mask);
    pid = fork();
    if (pid == 0)
        child_exec(cmd, parent, child_fd, errpipe[1], envp, nsfd);
    e = errno;
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    if (pid < 0) {
        errno = e;
        goto sys_fail;
    }
    e = 0;
    if (cmd->own_group)
        setpgid(pid, pid);     /* also here: no race with a kill of the group */
    close_fd(&errpipe[1]);
    /* end of file: exec worked (the pipe closed on exec); an errno: not */
    while ((got = read(errpipe[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    if (got == (ssize_t)sizeof e) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        snprintf(err, errlen, "cannot run %s: %s", cmd->argv[0], strerror(e));
        goto cleanup;
    }
    cmd->pid = pid;
    rc = 0;
    goto cleanup;

sys_fail:
    snprintf(err, errlen, "cannot run %s: %s", cmd->argv[0], strerror(errno));
cleanup:
    if (rc < 0)
        for (int i = 0; i < CMD_NSTREAMS; i++)
            close_fd(&cmd->fd[i]);
    for (int i = 0; i < CMD_NSTREAMS; i++)
        if (child_fd[i] != devnull)
            close_fd(&child_fd[i]);
    close_fd(&devnull);
    close_fd(&nsfd);
    close_fd(&errpipe[0]);
    close_fd(&errpipe[1]);
    if (envp != environ)
        free(envp);
    return rc;
}

pid_t orch_command_pid(const orch_command *cmd)
{
    return cmd->pid;
}

int orch_command_stdin_fd(const orch_command *cmd)
{
    return cmd->fd[CMD_IN];
}

int orch_command_stdout_fd(const orch_command *cmd)
{
    return cmd->fd[CMD_OUT];
}

int orch_command_stderr_fd(const orch_command *cmd)
{
    return cmd->fd[CMD_ERR];
}

void orch_command_close_stdin(orch_command *cmd)
{
    close_fd(&cmd->fd[CMD_IN]);
}

int orch_command_kill(orch_command *cmd, int sig)
{
    int rc = -1;
    pthread_mutex_lock(&cmd->mu);
    if (cmd->pid > 0 && !cmd->reaped)
        rc = kill(cmd->own_group ? -cmd->pid : cmd->pid, sig);
    else
        errno = ESRCH;
    pthread_mutex_unlock(&cmd->mu);
    return rc;
}

int orch_command_signal_pid(pid_t pid, int sig)
{
    if (pid <= 0) {
        errno = ESRCH;
        return -1;
    }
    if (getpgid(pid) == pid && kill(-pid, sig) == 0)
        return 0;
    return kill(pid, sig);
}

int orch_command_exec(orch_command *cmd, char *err, size_t errlen)
{
    char **envp = child_env(cmd);
    if (!envp) {
        snprintf(err, errlen, "cannot run %s: out of memory", cmd->argv[0]);
        return -1;
    }
    fflush(NULL);
    execvpe(cmd->argv[0], cmd->argv, envp);
    snprintf(err, errlen, "cannot run %s: %s", cmd->argv[0], strerror(errno));
    free(envp);
    return -1;
}

/* Reap the child (blocking or not). 1 reaped, 0 running, -1 none. The
 * child is first waited for without reaping, so that a kill from another
 * thread meets a zombie, never a reused pid. */
static int reap(orch_command *cmd, int block, int *status)
{
    siginfo_t si;
    int st = 0;
    if (cmd->pid <= 0 || cmd->reaped)
        return -1;
    for (;;) {
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)cmd->pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)) == 0)
            break;
        if (errno != EINTR)
            return -1;
    }
    if (si.si_pid == 0)
        return 0;               /* WNOHANG: still running */
    pthread_mutex_lock(&cmd->mu);
    while (waitpid(cmd->pid, &st, 0) < 0 && errno == EINTR)
        ;
    cmd->reaped = 1;
    pthread_mutex_unlock(&cmd->mu);
    if (status)
        *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return 1;
}

int orch_command_poll(orch_command *cmd, int *status)
{
    return reap(cmd, 0, status);
}

int orch_command_wait(orch_command *cmd, int *status)
{
    return reap(cmd, 1, status) == 1 ? 0 : -1;
}

int orch_command_timed_out(const orch_command *cmd)
{
    return cmd->timed_out;
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* A growing capture of one stream, at most limit bytes kept. */
typedef struct capture {
    char  *buf;
    size_t len, cap;
    int    oom;
} capture;

static void capture_add(capture *c, const char *data, size_t n, size_t limit)
{
    if (c->len + n > limit)
        n = limit > c->len ? limit - c->len : 0;
    if (n == 0)
        return;
    if (c->len + n + 1 > c->cap) {
        size_t cap = c->cap ? c->cap : 4096;
        char *grown;
        while (cap < c->len + n + 1)
            cap *= 2;
        if (!(grown = realloc(c->buf, cap))) {
            c->oom = 1;
            return;
        }
        c->buf = grown;
        c->cap = cap;
    }
    memcpy(c->buf + c->len, data, n);
    c->len += n;
}

/* c's text (NUL-terminated; "" when nothing came), or NULL when out of
 * memory. Takes c's buffer. */
static char *capture_take(capture *c)
{
    char *s = c->buf;
    if (c->oom) {
        free(s);
        return NULL;
    }
    if (!s)
        return calloc(1, 1);
    s[c->len] = '\0';
    return s;
}

int orch_command_run(orch_command *cmd, int *status, char **out, char **errout, char *err,
                     size_t errlen)
{
    capture cap[2] = { { 0 }, { 0 } };
    double deadline;
    int st = -1;

    if (out)
        *out = NULL;
    if (errout)
        *errout = NULL;
    *status = -1;
    if (orch_command_start(cmd, err, errlen) < 0)
        return -1;
    deadline = cmd->timeout_ms ? mono_ms() + cmd->timeout_ms : 0;
    orch_command_close_stdin(cmd);
    /* read until both pipes end, or the child ended and was killed: a
     * grandchild that kept a pipe open must not hold the run */
    while (cmd->fd[CMD_OUT] >= 0 || cmd->fd[CMD_ERR] >= 0) {
        struct pollfd pfd[2];
        int n = 0, wait_ms = 200;
        for (int s = CMD_OUT; s <= CMD_ERR; s++)
            if (cmd->fd[s] >= 0)
                pfd[n++] = (struct pollfd){ .fd = cmd->fd[s], .events = POLLIN };
        if (deadline && !cmd->timed_out) {
            double left = deadline - mono_ms();
            wait_ms = left <= 0 ? 0 : left < 200 ? (int)left + 1 : 200;
        }
        if (poll(pfd, (nfds_t)n, wait_ms) < 0 && errno != EINTR)
            break;
        for (int j = 0; j < n; j++) {
            int s = pfd[j].fd == cmd->fd[CMD_OUT] ? CMD_OUT : CMD_ERR;
            char buf[4096];
            ssize_t got;
            if (!(pfd[j].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            got = read(pfd[j].fd, buf, sizeof buf);
            if (got < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (got <= 0)
                close_fd(&cmd->fd[s]);
            else
                capture_add(&cap[s - CMD_OUT], buf, (size_t)got, cmd->limit);
        }
        if (deadline && !cmd->timed_out && mono_ms() >= deadline) {
            orch_command_kill(cmd, SIGKILL);
            cmd->timed_out = 1;
        }
        if (cmd->timed_out && reap(cmd, 0, &st) == 1)
            break;
    }
    if (!cmd->reaped)
        orch_command_wait(cmd, &st);
    *status = st;
    if (out)
        *out = capture_take(&cap[0]);
    else
        free(cap[0].buf);
    if (errout)
        *errout = capture_take(&cap[1]);
    else
        free(cap[1].buf);
    if ((out && !*out) || (errout && !*errout)) {
        free(out ? *out : NULL);
        free(errout ? *errout : NULL);
        if (out)
            *out = NULL;
        if (errout)
            *errout = NULL;
        snprintf(err, errlen, "%s: out of memory for its output", cmd->argv[0]);
        return -1;
    }
    return 0;
}

void orch_command_free(orch_command *cmd)
{
    if (!cmd)
        return;
    if (cmd->pid > 0 && !cmd->reaped) {
        orch_command_kill(cmd, SIGKILL);
        orch_command_wait(cmd, NULL);
    }
    for (int i = 0; i < CMD_NSTREAMS; i++)
        close_fd(&cmd->fd[i]);
    free_strv(cmd->argv);
    free_strv(cmd->env);
    free(cmd->netns);
    free(cmd->stdin_path);
    pthread_mutex_destroy(&cmd->mu);
    free(cmd);
}

char *orch_cmd_run(void *ctx, const char *const argv[], int *status)
{
    orch_command *cmd = orch_command_new(argv);
    char *out = NULL, err[DB_ERR_LEN];
    (void)ctx;
    *status = -1;
    if (!cmd)
        return NULL;
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_NULL);
    orch_command_output_limit(cmd, (1u << 20) - 1);     /* with its NUL, 1 MiB */
    /* could not run (not installed): NULL, as the seam says; the callers
     * name the missing package */
    if (orch_command_run(cmd, status, &out, NULL, err, sizeof err) < 0)
        out = NULL;
    orch_command_free(cmd);
    return out;
}
