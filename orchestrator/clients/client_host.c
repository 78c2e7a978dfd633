/* client_host.c — oltp on this host against each VM's forwarded loopback
 * port: readiness by `oltp ... ping`, phases as child processes whose
 * interval lines give live TPS (see client.h). */
#include "clients/client.h"
#include "clients/oltp_pids.h"
#include "plan/dbengine.h"
#include "util/names.h"
#include "oltp_exit.h"
#include "util/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* This client's hold on one job's oltp process. */
typedef struct host_proc {
    pid_t  pid;                 /* its process group too; -1 once reaped */
    int    out_fd;              /* its stdout, -1 once closed */
    time_t stopped_at;          /* when we asked it to stop, else 0 */
    char   line[512];           /* the output line being read */
    size_t linelen;
} host_proc;

/* Start argv with stdout on a pipe; stderr passes through. The child
 * dies with drivebench, even a SIGKILLed one: it must not go on loading a
 * forwarded port that the next run reuses. */
static pid_t spawn(char **argv, const char *pw_env, const char *password, int *out_fd)
{
    int fds[2];
    pid_t pid, parent = getpid();
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        /* SIGTERM lets oltp write what it measured; the check closes the
         * race with a parent that died before prctl */
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
            _exit(127);
        /* own process group: a terminal ^C reaches drivebench, which stops
         * the children itself and tears down */
        setpgid(0, 0);
        dup2(fds[1], STDOUT_FILENO);
        if (password && pw_env)
            setenv(pw_env, password, 1);
        execv(argv[0], argv);
        dprintf(STDERR_FILENO, "drivebench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);         /* also here: no race with kill(-pid) */
    close(fds[1]);
    *out_fd = fds[0];
    return pid;
}

/* Read what pr's process printed; interval lines update job->live_tps. */
static void read_output(host_proc *pr, orch_job *job)
{
    char buf[1024];
    ssize_t n = read(pr->out_fd, buf, sizeof buf);
    if (n <= 0) {
        if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            close(pr->out_fd);
            pr->out_fd = -1;
        }
        return;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n' || pr->linelen + 1 >= sizeof pr->line) {
            pr->line[pr->linelen] = '\0';
            orch_parse_tps(pr->line, &job->live_tps);
            pr->linelen = 0;
        } else {
            pr->line[pr->linelen++] = buf[i];
        }
    }
}

static void stop_all(const host_proc *procs, int n, int sig)
{
    for (int i = 0; i < n; i++)
        if (procs[i].pid > 0)
            kill(-procs[i].pid, sig);    /* its whole process group */
}

/* RUN_DIR/clients, so that `drivebench teardown` can end these processes
 * if drivebench dies before they do. A failure is reported and the phase
 * goes on: the processes also die with drivebench (spawn). */
static void record_pids(const orch_client *c, const host_proc *procs, const orch_job *jobs,
                        int njobs)
{
    pid_t *pids = calloc((size_t)njobs, sizeof *pids);
    const char **names = calloc((size_t)njobs, sizeof *names);
    char err[512];
    if (!pids || !names) {
        fprintf(c->out, "drivebench: out of memory\n");
    } else {
        for (int i = 0; i < njobs; i++) {
            pids[i] = procs[i].pid;
            names[i] = jobs[i].vm->name;
        }
        if (orch_clients_record(c->run_dir, pids, names, njobs, err, sizeof err) < 0)
            fprintf(c->out, "drivebench: cannot record the oltp processes: %s\n", err);
    }
    free(pids);
    free(names);
}

static int host_run_phase(const orch_client *c, orch_job *jobs, int njobs, const char *phase,
                          int expected_s)
{
    FILE *out = c->out;
    const char *password = c->plan->db_password;
    int progress_every = c->progress_every;
    struct pollfd *pfd = calloc((size_t)njobs, sizeof *pfd);
    host_proc *procs = calloc((size_t)njobs, sizeof *procs);
    time_t start = time(NULL), last = start, killed_at = 0;
    /* a phase that overruns its time by this much is stopped */
    int grace = orch_phase_grace(expected_s);
    int running = 0, rc = 0, interrupted = 0;

    if (!pfd || !procs) {
        fprintf(out, "drivebench: out of memory\n");
        free(pfd);
        free(procs);
        return -1;
    }
    for (int i = 0; i < njobs; i++) {
        procs[i].pid = -1;
        procs[i].out_fd = -1;
    }
    for (int i = 0; i < njobs; i++) {
        jobs[i].live_tps = 0;
        jobs[i].status = -1;
        procs[i].pid = spawn(jobs[i].argv, orch_dbdriver_password_env(c->plan->db_driver),
                             password, &procs[i].out_fd);
        if (procs[i].pid < 0) {
            fprintf(out, "drivebench: %s: cannot start %s: %s\n", jobs[i].vm->name,
                    jobs[i].argv[0], strerror(errno));
            rc = -1;
            break;
        }
        running++;
    }
    if (rc < 0)
        stop_all(procs, njobs, SIGTERM);
    else if (c->run_dir)
        record_pids(c, procs, jobs, njobs);
    while (running > 0) {
        int n = 0;
        time_t now;
        for (int i = 0; i < njobs; i++)
            if (procs[i].out_fd >= 0) {
                pfd[n].fd = procs[i].out_fd;
                pfd[n].events = POLLIN;
                n++;
            }
        if (poll(pfd, (nfds_t)n, n ? 500 : 200) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < njobs; i++)
            if (procs[i].out_fd >= 0)
                for (int j = 0; j < n; j++)
                    if (pfd[j].fd == procs[i].out_fd && (pfd[j].revents & (POLLIN | POLLHUP)))
                        read_output(&procs[i], &jobs[i]);
        now = time(NULL);
        for (int i = 0; i < njobs; i++) {
            int st;
            /* a VM that failed (stopped, paused, disk full, ...): stop its
             * client; the phase goes on for the others */
            if (procs[i].pid > 0 && !procs[i].stopped_at && orch_job_vm_failed(c, &jobs[i])) {
                fprintf(out, "drivebench: %s failed during %s; stopping its oltp, the "
                        "others go on\n", jobs[i].vm->name, phase);
                procs[i].stopped_at = now;
                kill(-procs[i].pid, SIGTERM);
            }
            if (procs[i].pid > 0 && procs[i].stopped_at && now - procs[i].stopped_at > 10)
                kill(-procs[i].pid, SIGKILL);
            if (procs[i].pid > 0 && waitpid(procs[i].pid, &st, WNOHANG) == procs[i].pid) {
                procs[i].pid = -1;
                jobs[i].status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                running--;
                while (procs[i].out_fd >= 0)
                    read_output(&procs[i], &jobs[i]);
                /* stopped on request: no fault of the VM's */
                if (!interrupted && !killed_at)
                    orch_job_ended(c, &jobs[i], phase);
                else if (jobs[i].status != 0 && !interrupted)
                    jobs[i].failed = 1;
            }
        }
        now = time(NULL);
        if (!interrupted && orch_stop_requested()) {
            interrupted = 1;
            killed_at = now;
            stop_all(procs, njobs, SIGTERM);
        }
        if (!killed_at && grace && now - start > expected_s + grace) {
            fprintf(out, "drivebench: %s ran %ld s past its %d s; stopping it\n", phase,
                    (long)(now - start - expected_s), expected_s);
            rc = -1;
            killed_at = now;
            stop_all(procs, njobs, SIGTERM);
        }
        if (killed_at && now - killed_at > 10)
            stop_all(procs, njobs, SIGKILL);
        if (running > 0 && now - last >= progress_every) {
            last = now;
            orch_progress(c, jobs, njobs, phase, (int)(now - start), expected_s);
        }
    }
    if (c->run_dir && running == 0)
        orch_clients_forget(c->run_dir);
    if (!interrupted && rc == 0)       /* the last figures of the phase */
        orch_progress(c, jobs, njobs, phase, (int)(time(NULL) - start), expected_s);
    for (int i = 0; i < njobs; i++)
        if (procs[i].out_fd >= 0)
            close(procs[i].out_fd);
    free(pfd);
    free(procs);
    if (interrupted)
        return ORCH_RUN_INTERRUPTED;
    return rc;
}

/* 0 when the guest agent answers guest-ping. */
static int agent_ping(const orch_client *c, virDomainPtr dom)
{
    char *reply = c->agent(c->agent_ctx, dom, "{\"execute\":\"guest-ping\"}", 2);
    if (!reply)
        return -1;
    free(reply);
    return 0;
}

/* Start a ping argv with stdout and stderr on one pipe (its message is
 * what the user needs when the login is refused) and the password in
 * the driver's environment variable. */
static pid_t spawn_ping(char **argv, const char *pw_env, const char *password, int *out_fd)
{
    int fds[2];
    pid_t pid;
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        if (password && pw_env)
            setenv(pw_env, password, 1);
        execv(argv[0], argv);
        dprintf(STDERR_FILENO, "drivebench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    close(fds[1]);
    *out_fd = fds[0];
    return pid;
}

/* Seconds oltp ping may take to connect, and to run at all. */
#define PING_CONNECT_S  3
#define PING_LIMIT_S    15

/* Run `oltp ... ping` against vm's forwarded port: its exit code (oltp's
 * ping codes: 0 answers, 3 not yet, 4 login refused, 5 query failed), or
 * -1 when it could not run or overran. Otherwise than 0, oltp's last
 * output line (why) goes to err. */
static int ping_once(const orch_client *c, const orch_vm *vm, char *err, size_t errlen)
{
    const orch_plan *p = c->plan;
    char **argv = orch_oltp_ping_argv(p, p->oltp, vm->port, PING_CONNECT_S);
    char buf[512], line[512] = "", last[512] = "";
    size_t len = 0;
    time_t start = time(NULL);
    int fd = -1, st, rc = -1, killed = 0;
    pid_t pid;

    if (!argv) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pid = spawn_ping(argv, orch_dbdriver_password_env(p->db_driver), p->db_password, &fd);
    if (pid < 0) {
        snprintf(err, errlen, "%s: cannot run %s: %s", vm->name, argv[0], strerror(errno));
        orch_argv_free(argv);
        return -1;
    }
    /* keep the last line oltp printed: why it failed */
    for (;;) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        ssize_t n;
        if (poll(&pfd, 1, 500) > 0) {
            n = read(fd, buf, sizeof buf - 1);
            if (n <= 0)
                break;
            for (ssize_t i = 0; i < n; i++) {
                if (buf[i] == '\n' || len + 1 >= sizeof line) {
                    if (len)
                        memcpy(last, line, len + 1);
                    len = 0;
                    continue;
                }
                line[len++] = buf[i];
                line[len] = '\0';
            }
        }
        if (!killed && time(NULL) - start > PING_LIMIT_S) {
            kill(-pid, SIGKILL);
            killed = 1;
        }
    }
    close(fd);
    if (waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !killed)
        rc = WEXITSTATUS(st);
    if (len)
        memcpy(last, line, len + 1);
    if (rc != 0)
        snprintf(err, errlen, "%s", last[0] ? last : killed ? "oltp ping overran" : "no output");
    orch_argv_free(argv);
    return rc;
}

static int host_wait_ready(const orch_client *c, const orch_vm *vm, virDomainPtr dom,
                           int timeout_s, char *err, size_t errlen)
{
    const orch_plan *p = c->plan;
    time_t deadline = time(NULL) + timeout_s;
    /* a user's image without the agent is ready when its database answers */
    int agent_ok = !p->guest_agent, rc = -1;
    char why[512] = "";

    while (time(NULL) < deadline && !orch_stop_requested()) {
        if (orch_dom_gone(dom, vm->name, err, errlen))
            return -1;
        if (!agent_ok)
            agent_ok = agent_ping(c, dom) == 0;
        if (agent_ok) {
            rc = ping_once(c, vm, why, sizeof why);
            if (rc == 0)
                return 0;
            if (rc == OLTP_EXIT_BAD_INPUT || rc == 127) {
                /* bad options, or no oltp to run: retrying will not help */
                snprintf(err, errlen, "%s: cannot ping the database with %s (exit %d): %s",
                         vm->name, p->oltp, rc, why);
                return -1;
            }
            if (rc == OLTP_PING_LOGIN || rc == OLTP_PING_QUERY) {
                /* the server answered: waiting longer will not help */
                snprintf(err, errlen, "%s: %s answered but refused user %s on database %s; "
                         "check db_user, db_password and db_name (%s)", vm->name,
                         p->engine->label, p->db_user, p->db_name, why);
                return -1;
            }
        }
        sleep(1);
    }
    if (!agent_ok)
        snprintf(err, errlen, "%s: guest agent did not answer within %d s", vm->name,
                 timeout_s);
    else
        snprintf(err, errlen, "%s: %s on 127.0.0.1:%d did not answer `oltp ping` within "
                 "%d s (last: exit %d, %s)", vm->name, p->engine->label, vm->port, timeout_s,
                 rc, why[0] ? why : "no output");
    return -1;
}

const orch_client_ops orch_client_host = {
    .name = "host",
    .in_guest = 0,
    .wait_ready = host_wait_ready,
    .run_phase = host_run_phase,
};
