/* client_host.c — oltp on this host against each VM's forwarded loopback
 * port: readiness by a MySQL login, phases as child processes whose
 * interval lines give live TPS (see client.h). */
#include "client.h"
#include "clients.h"
#include "names.h"
#include "stop.h"

#include <mysql.h>

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
static pid_t spawn(char **argv, const char *password, int *out_fd)
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
        if (password)
            setenv("OLTP_MYSQL_PASSWORD", password, 1);
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
        procs[i].pid = spawn(jobs[i].argv, password, &procs[i].out_fd);
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
            orch_progress(out, jobs, njobs, phase, (int)(now - start), expected_s);
        }
    }
    if (c->run_dir && running == 0)
        orch_clients_forget(c->run_dir);
    if (!interrupted && rc == 0)       /* the last figures of the phase */
        orch_progress(out, jobs, njobs, phase, (int)(time(NULL) - start), expected_s);
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

/* 0 when user/password log in to the database on 127.0.0.1:port. */
static int db_login(const orch_vm *vm, const char *user, const char *password, const char *db,
                    char *err, size_t errlen)
{
    MYSQL *m = mysql_init(NULL);
    unsigned int timeout = 3;
    int rc = -1;
    if (!m)
        return -1;
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_options(m, MYSQL_OPT_READ_TIMEOUT, &timeout);
    if (mysql_real_connect(m, "127.0.0.1", user, password, db, (unsigned int)vm->port, NULL, 0))
        rc = 0;
    else
        snprintf(err, errlen, "%s: database login on 127.0.0.1:%d failed: %s", vm->name,
                 vm->port, mysql_error(m));
    mysql_close(m);
    return rc;
}

static int host_wait_ready(const orch_client *c, const orch_vm *vm, virDomainPtr dom,
                           int timeout_s, char *err, size_t errlen)
{
    const orch_plan *p = c->plan;
    time_t deadline = time(NULL) + timeout_s;
    int agent_ok = 0;

    snprintf(err, errlen, "%s: guest agent did not answer within %d s", vm->name, timeout_s);
    while (time(NULL) < deadline && !orch_stop_requested()) {
        if (orch_dom_gone(dom, vm->name, err, errlen))
            return -1;
        if (!agent_ok)
            agent_ok = agent_ping(c, dom) == 0;
        if (agent_ok && db_login(vm, p->db_user, p->db_password, p->db_name, err, errlen) == 0)
            return 0;
        sleep(1);
    }
    return -1;
}

const orch_client_ops orch_client_host = {
    .name = "host",
    .in_guest = 0,
    .wait_ready = host_wait_ready,
    .run_phase = host_run_phase,
};
