/* client_host.c — oltp on this host against each VM's forwarded loopback
 * port: readiness by `oltp ... ping`, phases as child processes whose
 * interval lines give live TPS, started through util/command.h and run by
 * the phase loop of supervise.c (see client.h). */
#include "clients/client.h"
#include "attributes.h"
#include "clients/oltp_pids.h"
#include "virt/virt.h"
#include "plan/plan.h"
#include "util/util.h"
#include "oltp_exit.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* This client's hold on one job's oltp process. */
typedef struct host_proc {
    orch_command *cmd;          /* NULL until started */
    int    eof;                 /* its stdout ended */
    char   line[512];           /* the output line being read */
    size_t linelen;
} host_proc;

/* The processes of one phase (orch_phase_ops' procs). */
typedef struct host_phase {
    const orch_client *c;
    orch_job          *jobs;
    int                njobs;
    const char        *phase;
    host_proc         *procs;
    struct pollfd     *pfd;
    orch_client_id    *ids;             /* of the started ones, for the record */
    const char       **names;
    int                nstarted;
    int                record_failed;   /* said once */
} host_phase;

static void *host_begin(const orch_client *c, orch_job *jobs, int njobs, const char *phase)
{
    host_phase *h = calloc(1, sizeof *h);
    size_t n = (size_t)(njobs > 0 ? njobs : 1);
    if (!h)
        return NULL;
    h->c = c;
    h->phase = phase;
    h->jobs = jobs;
    h->njobs = njobs;
    h->procs = calloc(n, sizeof *h->procs);
    h->pfd = calloc(n, sizeof *h->pfd);
    h->ids = calloc(n, sizeof *h->ids);
    h->names = calloc(n, sizeof *h->names);
    if (!h->procs || !h->pfd || !h->ids || !h->names) {
        free(h->procs);
        free(h->pfd);
        free(h->ids);
        free(h->names);
        free(h);
        return NULL;
    }
    return h;
}

/* A command for oltp's argv against vm with what it reads from its
 * environment: the password in the driver's variable and, when the plan
 * sets the client's OpenSSL, OPENSSL_CONF (plan.h); with network = passt
 * it runs in vm's network namespace, where passt forwards the port
 * (virt/passt.h). NULL when out of memory. */
static orch_command *oltp_command(const orch_client *c, const orch_vm *vm, char **argv)
{
    const orch_plan *p = c->plan;
    orch_command *cmd = orch_command_new((const char *const *)argv);
    int oom;
    char *conf = orch_plan_openssl_conf_path(p, c->run_dir, 0, &oom);
    char *ns = p->network == ORCH_NET_PASST ? orch_passt_netns_path(vm->name) : NULL;

    if (!cmd || oom || (p->network == ORCH_NET_PASST && !ns)
        || orch_command_setenv(cmd, orch_dbdriver_password_env(p->db_driver), p->db_password) < 0
        || orch_command_setenv(cmd, "OPENSSL_CONF", conf) < 0
        || orch_command_netns(cmd, ns) < 0) {
        orch_command_free(cmd);
        cmd = NULL;
    }
    free(conf);
    free(ns);
    return cmd;
}

/* Start job i's argv with stdout on a pipe; stderr passes through. The
 * child dies with drivebench, even a SIGKILLed one: it must not go on
 * loading a forwarded port that the next run reuses (SIGTERM lets oltp
 * write what it measured). In a process group of its own: a terminal ^C
 * reaches drivebench, which stops the children itself and tears down.
 * Every started process goes to RUN_DIR/clients at once, so that
 * `drivebench teardown` can end them if drivebench dies before they do;
 * a failure to record is reported and the phase goes on. */
static int host_start(void *procs, int i, char *err, size_t errlen)
{
    host_phase *h = procs;
    orch_job *job = &h->jobs[i];
    host_proc *pr = &h->procs[i];
    char why[DB_ERR_LEN];

    pr->cmd = oltp_command(h->c, job->vm, job->argv);
    if (!pr->cmd) {
        snprintf(err, errlen, "%s: out of memory", job->vm->name);
        return -1;
    }
    orch_command_stdout(pr->cmd, ORCH_COMMAND_PIPE);
    orch_command_death_signal(pr->cmd, SIGTERM);
    orch_command_own_group(pr->cmd);
    if (orch_command_start(pr->cmd, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", job->vm->name, why);
        return -1;
    }
    /* identified now, just after its exec (the launcher waits for it),
     * and recorded so from then on */
    orch_client_identify(orch_command_pid(pr->cmd), &h->ids[h->nstarted]);
    h->names[h->nstarted++] = job->vm->name;
    if (h->c->run_dir && !h->record_failed
        && orch_clients_record(h->c->run_dir, h->ids, h->names, h->nstarted, why,
                               sizeof why) < 0) {
        h->record_failed = 1;
        fprintf(h->c->out, "drivebench: cannot record the oltp processes: %s\n", why);
    }
    return 0;
}

/* Read what job i's process printed; interval lines update its live_tps
 * and go to the client's interval hook. */
static void read_output(host_phase *h, int j)
{
    host_proc *pr = &h->procs[j];
    char buf[1024];
    ssize_t n = read(orch_command_stdout_fd(pr->cmd), buf, sizeof buf);
    if (n <= 0) {
        if (n == 0 || (errno != EINTR && errno != EAGAIN))
            pr->eof = 1;
        return;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n' || pr->linelen + 1 >= sizeof pr->line) {
            pr->line[pr->linelen] = '\0';
            orch_client_line(h->c, &h->jobs[j], h->phase, pr->line);
            pr->linelen = 0;
        } else {
            pr->line[pr->linelen++] = buf[i];
        }
    }
}

/* 1 when pr's process started and its stdout has not ended. */
static int watched_output(const host_proc *pr)
{
    return pr->cmd && orch_command_pid(pr->cmd) > 0 && !pr->eof;
}

static void host_wait(void *procs, int ms)
{
    host_phase *h = procs;
    int n = 0;
    for (int i = 0; i < h->njobs; i++)
        if (watched_output(&h->procs[i])) {
            h->pfd[n].fd = orch_command_stdout_fd(h->procs[i].cmd);
            h->pfd[n].events = POLLIN;
            n++;
        }
    if (poll(h->pfd, (nfds_t)n, ms) <= 0)
        return;
    for (int i = 0, j = 0; i < h->njobs; i++)
        if (watched_output(&h->procs[i]) && j < n) {
            if (h->pfd[j++].revents & (POLLIN | POLLHUP | POLLERR))
                read_output(h, i);
        }
}

static int host_poll(void *procs, int i)
{
    host_phase *h = procs;
    host_proc *pr = &h->procs[i];
    orch_job *job = &h->jobs[i];
    int st, ended = orch_command_poll(pr->cmd, &st);
    if (ended == 0)
        return 0;
    if (ended < 0) {
        /* reaped elsewhere (SIGCHLD ignored, say): its end is unknown */
        fprintf(h->c->out, "drivebench: %s: lost track of its oltp %s\n", job->vm->name,
                h->phase);
        if (h->c->monitor)
            orch_monitor_fail(h->c->monitor, job->slot, ORCH_FAULT_CLIENT,
                              "drivebench lost track of its oltp %s", h->phase);
        return -1;
    }
    job->status = st;
    while (!pr->eof)                    /* its last lines */
        read_output(h, i);
    return 1;
}

static int host_stop(void *procs, int i, int hard)
{
    host_phase *h = procs;
    orch_command_kill(h->procs[i].cmd, hard ? SIGKILL : SIGTERM);    /* its whole group */
    return 0;                           /* host_poll sees it end */
}

static void host_end(void *procs)
{
    host_phase *h = procs;
    if (h->c->run_dir)
        orch_clients_forget(h->c->run_dir);     /* all reaped */
    for (int i = 0; i < h->njobs; i++)
        orch_command_free(h->procs[i].cmd);
    free(h->procs);
    free(h->pfd);
    free(h->ids);
    free(h->names);
    free(h);
}

static const orch_phase_ops host_phase_ops = {
    .begin = host_begin,
    .start = host_start,
    .wait = host_wait,
    .poll = host_poll,
    .stop = host_stop,
    .end = host_end,
};

static int host_run_phase(const orch_client *c, orch_job *jobs, int njobs, const char *phase,
                          int expected_s)
{
    return orch_phase_supervise(&host_phase_ops, c, jobs, njobs, phase, expected_s);
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

/* Seconds oltp ping may take to run at all beyond its login
 * (orch_dbengine_login_s: 3 s, or the engine's). */
#define PING_QUERY_S    12

/* Run `oltp ... ping` against vm's forwarded port, stdout and stderr on
 * one pipe (its message is what the user needs when the login is
 * refused), the password in the driver's environment variable: its exit
 * code (oltp's ping codes: 0 answers, 3 not yet, 4 login refused, 5 query
 * failed, 6 TLS failed; 127, as a shell says, when oltp cannot be run at all), or -1
 * when it overran. Otherwise than 0, oltp's last output line (why) goes
 * to err. */
static int ping_once(const orch_client *c, const orch_vm *vm, char *err, size_t errlen)
{
    const orch_plan *p = c->plan;
    int login_s = orch_dbengine_login_s(p->engine);
    char **argv = orch_oltp_ping_argv(p, p->oltp, vm->port, login_s);
    orch_command *cmd = argv ? oltp_command(c, vm, argv) : NULL;
    char last[512] = "", why[DB_ERR_LEN], *out = NULL;
    int st = -1, rc = -1;

    if (!cmd) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_TO_STDOUT);
    orch_command_own_group(cmd);
    orch_command_timeout(cmd, (login_s + PING_QUERY_S) * 1000);
    if (orch_command_run(cmd, &st, &out, NULL, why, sizeof why) < 0) {
        rc = 127;
        snprintf(err, errlen, "drivebench: %.1000s", why);     /* fits DB_ERR_LEN */
        goto cleanup;
    }
    if (!orch_command_timed_out(cmd))
        rc = st;
    orch_last_line(out, last, sizeof last);
    if (rc != 0)
        snprintf(err, errlen, "%s", last[0] ? last : rc < 0 ? "oltp ping overran" : "no output");
cleanup:
    free(out);
    orch_command_free(cmd);
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
    char why[DB_ERR_LEN] = "";

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
            if (rc == OLTP_PING_TLS) {
                orch_tls_failed(c, vm->name, "", why, err, errlen);
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
