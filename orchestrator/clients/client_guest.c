/* client_guest.c — oltp inside each guest through the QEMU guest agent
 * (guest-exec, guest-exec-status, guest-file-*), so VMs on other hosts
 * need no network path to this one (see client.h). The agent returns a
 * process's output only once it exits, so live TPS is read from a file in
 * the guest while the phase runs. The phase loop is supervise.c's (see
 * client.h). */
#include "clients/client.h"
#include "attributes.h"
#include "virt/virt.h"
#include "plan/plan.h"
#include "util/util.h"
#include "nap.h"
#include "oltp_exit.h"
#include "results_base.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include <libvirt/virterror.h>

#define AGENT_TIMEOUT_S 10
#define READ_CHUNK      (48 * 1024)

/* The guest a command goes to: its VM's name (for messages), its domain. */
typedef struct guest {
    const char  *name;
    virDomainPtr dom;
} guest;

/* This client's hold on one job's oltp process. */
typedef struct guest_proc {
    guest g;
    long  pid;                  /* guest-exec pid; 0 once ended */
    char *live_path;            /* its interval lines, in the guest */
    long long live_handle;      /* guest-file handle on live_path, or -1 */
    char  part[1024];           /* an interval line not read to its end */
    size_t partlen;
} guest_proc;

/* Send {"execute":name,"arguments":args} (takes args); returns the
 * "return" member (new reference) or NULL with err. */
static json_object *agent_call(const orch_client *c, const guest *g, const char *name,
                               json_object *args, char *err, size_t errlen)
{
    return orch_agent_call(c->agent, c->agent_ctx, g->dom, g->name, name, args,
                           AGENT_TIMEOUT_S, err, errlen);
}

/* Start argv in the guest with env (NULL-terminated). Returns its pid or
 * -1 with err. */
static long exec_start(const orch_client *c, const guest *g, const char *const *argv,
                       const char *const *env, char *err, size_t errlen)
{
    static const char *const no_env[] = { NULL };
    return orch_agent_exec_start(c->agent, c->agent_ctx, g->dom, g->name, argv,
                                 env ? env : no_env, AGENT_TIMEOUT_S, err, errlen);
}

/* Poll a guest process. 1 exited (code and output set, and its stderr in
 * *errors unless errors is NULL; each new, may be NULL), 0 running, -1
 * error with err. */
static int exec_status(const orch_client *c, const guest *g, long pid, int *code,
                       char **output, char **errors, char *err, size_t errlen)
{
    return orch_agent_exec_status(c->agent, c->agent_ctx, g->dom, g->name, pid,
                                  AGENT_TIMEOUT_S, code, output, errors, err, errlen);
}

/* Write text to guest_path in the guest (created or replaced). 0, or -1
 * with err. */
static int file_put(const orch_client *c, const guest *g, const char *guest_path,
                    const char *text, char *err, size_t errlen)
{
    json_object *args = json_object_new_object(), *ret;
    char *enc = orch_b64_encode(text, strlen(text));
    int64_t handle;
    int rc = -1;

    if (!enc) {
        json_object_put(args);
        snprintf(err, errlen, "%s: out of memory", g->name);
        return -1;
    }
    json_object_object_add(args, "path", json_object_new_string(guest_path));
    json_object_object_add(args, "mode", json_object_new_string("w"));
    ret = agent_call(c, g, "guest-file-open", args, err, errlen);
    if (!ret) {
        free(enc);
        return -1;
    }
    handle = json_object_get_int64(ret);
    json_object_put(ret);
    args = json_object_new_object();
    json_object_object_add(args, "handle", json_object_new_int64(handle));
    json_object_object_add(args, "buf-b64", json_object_new_string(enc));
    free(enc);
    ret = agent_call(c, g, "guest-file-write", args, err, errlen);
    if (ret)
        rc = 0;
    json_object_put(ret);
    args = json_object_new_object();
    json_object_object_add(args, "handle", json_object_new_int64(handle));
    ret = agent_call(c, g, "guest-file-close", args, err, errlen);
    if (!ret)
        rc = -1;
    json_object_put(ret);
    return rc;
}

/* Copy guest_path in the guest to host_path here, at most
 * RES_MAX_FILE_BYTES (a result from a guest is not trusted: results_base.h).
 * 0, or -1 with err and no file at host_path. */
static int file_fetch(const orch_client *c, const guest *g, const char *guest_path,
                      const char *host_path, char *err, size_t errlen)
{
    json_object *args = json_object_new_object(), *ret, *v;
    int64_t handle;
    int rc = -1, eof = 0;
    long long total = 0;
    FILE *f;

    json_object_object_add(args, "path", json_object_new_string(guest_path));
    json_object_object_add(args, "mode", json_object_new_string("r"));
    ret = agent_call(c, g, "guest-file-open", args, err, errlen);
    if (!ret)
        return -1;
    handle = json_object_get_int64(ret);
    json_object_put(ret);
    f = fopen(host_path, "wb");
    if (!f)
        snprintf(err, errlen, "cannot write %s: %s", host_path, strerror(errno));
    while (f && !eof) {
        char *data;
        size_t len = 0;
        args = json_object_new_object();
        json_object_object_add(args, "handle", json_object_new_int64(handle));
        json_object_object_add(args, "count", json_object_new_int(READ_CHUNK));
        ret = agent_call(c, g, "guest-file-read", args, err, errlen);
        if (!ret)
            break;
        eof = json_object_object_get_ex(ret, "eof", &v) && json_object_get_boolean(v);
        data = json_object_object_get_ex(ret, "buf-b64", &v)
               ? orch_b64_decode(json_object_get_string(v), &len) : NULL;
        json_object_put(ret);
        if (data && (total += (long long)len) > RES_MAX_FILE_BYTES) {
            snprintf(err, errlen, "%s: %s in the guest is larger than %ld bytes: not fetched",
                     g->name, guest_path, RES_MAX_FILE_BYTES);
            free(data);
            break;
        }
        if (!data || fwrite(data, 1, len, f) != len) {
            snprintf(err, errlen, "%s: reading %s from the guest failed", g->name, guest_path);
            free(data);
            break;
        }
        free(data);
        if (eof)
            rc = 0;
    }
    if (f && fclose(f) != 0)
        rc = -1;
    if (f && rc < 0)
        unlink(host_path);      /* never half a result */
    args = json_object_new_object();
    json_object_object_add(args, "handle", json_object_new_int64(handle));
    json_object_put(agent_call(c, g, "guest-file-close", args, err, errlen));
    return rc;
}

/* The last interval line's tps in output. */
static double last_tps(const char *output)
{
    double tps = 0, v;
    const char *line = output;
    while (line && *line) {
        char buf[512];
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
        if (orch_parse_tps(buf, &v) == 0)
            tps = v;
        line = nl ? nl + 1 : NULL;
    }
    return tps;
}

/* guest-exec gives a process's output only when it exits, so oltp's
 * interval lines also go to a file in the guest that the host reads while
 * the phase runs (live TPS on the progress line). The shell keeps oltp's
 * exit status and prints the file at the end, as the output it replaces.
 * A SIGTERM sent to the shell (guest_stop) goes on to oltp, which writes
 * what it measured and ends; the shell waits for that end:
 *   /bin/sh -c 'f=$1; shift; "$@" >"$f" 2>&1 & p=$!; trap "kill -TERM $p" TERM;
 *               wait $p; rc=$?; while kill -0 $p; do wait $p; rc=$?; done;
 *               cat "$f"; exit $rc' sh LIVE_PATH oltp ARGS...
 * Returns a new argv (free the array only; the strings are borrowed or
 * static), or NULL when out of memory. */
static char **live_argv(char **argv, const char *live_path)
{
    static char sh[] = "/bin/sh", dash_c[] = "-c", name[] = "sh";
    static char script[] = "f=$1; shift; \"$@\" >\"$f\" 2>&1 & p=$!; "
                           "trap 'kill -TERM $p' TERM; wait $p; rc=$?; "
                           "while kill -0 $p 2>/dev/null; do wait $p; rc=$?; done; "
                           "cat \"$f\"; exit $rc";
    int n = 0;
    char **out;
    while (argv[n])
        n++;
    out = calloc((size_t)n + 6, sizeof *out);    /* 5 before, NULL after */
    if (!out)
        return NULL;
    out[0] = sh;
    out[1] = dash_c;
    out[2] = script;
    out[3] = name;
    out[4] = (char *)live_path;
    for (int i = 0; i < n; i++)
        out[5 + i] = argv[i];
    return out;
}

/* Read what oltp wrote to its live file since the last call and take the
 * TPS of the newest complete interval line into job->live_tps. Best
 * effort: a file not there yet is tried again next time. */
static void live_read(const orch_client *c, guest_proc *pr, orch_job *job, const char *phase)
{
    char err[DB_ERR_LEN];
    json_object *args, *ret, *v;
    for (int rounds = 0; rounds < 8; rounds++) {
        char *data;
        size_t len = 0;
        int more;
        if (pr->live_handle < 0) {
            args = json_object_new_object();
            json_object_object_add(args, "path", json_object_new_string(pr->live_path));
            json_object_object_add(args, "mode", json_object_new_string("r"));
            if (!(ret = agent_call(c, &pr->g, "guest-file-open", args, err, sizeof err)))
                return;
            pr->live_handle = json_object_get_int64(ret);
            json_object_put(ret);
        }
        args = json_object_new_object();
        json_object_object_add(args, "handle", json_object_new_int64(pr->live_handle));
        json_object_object_add(args, "count", json_object_new_int(READ_CHUNK));
        if (!(ret = agent_call(c, &pr->g, "guest-file-read", args, err, sizeof err)))
            return;
        data = json_object_object_get_ex(ret, "buf-b64", &v)
               ? orch_b64_decode(json_object_get_string(v), &len) : NULL;
        json_object_put(ret);
        if (!data)
            return;
        for (size_t i = 0; i < len; i++) {
            if (data[i] == '\n') {
                pr->part[pr->partlen] = '\0';
                orch_client_line(c, job, phase, pr->part);
                pr->partlen = 0;
            } else if (pr->partlen < sizeof pr->part - 1) {
                pr->part[pr->partlen++] = data[i];
            }
        }
        free(data);
        more = len == READ_CHUNK;
        if (!more)
            return;
    }
}

static void live_close(const orch_client *c, guest_proc *pr)
{
    char err[DB_ERR_LEN];
    json_object *args;
    if (pr->live_handle < 0)
        return;
    args = json_object_new_object();
    json_object_object_add(args, "handle", json_object_new_int64(pr->live_handle));
    json_object_put(agent_call(c, &pr->g, "guest-file-close", args, err, sizeof err));
    pr->live_handle = -1;
}

/* Send sig ("-TERM", "-KILL") to a process in the guest; best effort,
 * the VM goes away anyway. */
static void exec_kill(const orch_client *c, const guest *g, long pid, const char *sig)
{
    char num[32], err[DB_ERR_LEN];
    const char *const argv[] = { "/bin/kill", sig, num, NULL };
    snprintf(num, sizeof num, "%ld", pid);
    exec_start(c, g, argv, NULL, err, sizeof err);
}

/* The processes of one phase (orch_phase_ops' procs). */
typedef struct guest_phase {
    const orch_client *c;
    orch_job          *jobs;
    int                njobs;
    const char        *phase;
    guest_proc        *procs;
    char              *env[3];      /* the guest's oltp's (oltp_env) */
} guest_phase;

/* What the guest's oltp reads from its environment: NAME=PASSWORD in the
 * driver's variable and, when the plan sets the client's OpenSSL,
 * OPENSSL_CONF=PATH (plan.h); NULL-terminated in env[3]. 0, or -1 when
 * out of memory (env freed). */
static int oltp_env(const orch_plan *p, char *env[3])
{
    int oom;
    char *conf = orch_plan_openssl_conf_path(p, NULL, 1, &oom);
    env[0] = orch_strfmt("%s=%s", orch_dbdriver_password_env(p->db_driver), p->db_password);
    env[1] = conf ? orch_strfmt("OPENSSL_CONF=%s", conf) : NULL;
    env[2] = NULL;
    free(conf);
    if (env[0] && !oom && (!conf || env[1]))
        return 0;
    free(env[0]);
    free(env[1]);
    env[0] = env[1] = NULL;
    return -1;
}

static void oltp_env_free(char *env[3])
{
    if (env[0])
        explicit_bzero(env[0], strlen(env[0]));
    free(env[0]);
    free(env[1]);
}

static void *guest_begin(const orch_client *c, orch_job *jobs, int njobs, const char *phase)
{
    guest_phase *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->c = c;
    h->jobs = jobs;
    h->njobs = njobs;
    h->phase = phase;
    h->procs = calloc((size_t)(njobs > 0 ? njobs : 1), sizeof *h->procs);
    if (!h->procs || oltp_env(c->plan, h->env) < 0) {
        free(h->procs);
        free(h);
        return NULL;
    }
    for (int i = 0; i < njobs; i++) {
        h->procs[i].g.name = jobs[i].vm->name;
        h->procs[i].g.dom = jobs[i].dom;
        h->procs[i].live_handle = -1;
    }
    return h;
}

static int guest_start(void *procs, int i, char *err, size_t errlen)
{
    guest_phase *h = procs;
    guest_proc *pr = &h->procs[i];
    char **argv;
    pr->live_path = orch_strfmt("/var/tmp/drivebench.%s.live", h->phase);
    argv = pr->live_path ? live_argv(h->jobs[i].argv, pr->live_path) : NULL;
    if (!argv) {
        snprintf(err, errlen, "%s: out of memory", pr->g.name);
        return -1;
    }
    pr->pid = exec_start(h->c, &pr->g, (const char *const *)argv, (const char *const *)h->env,
                         err, errlen);
    free(argv);
    return pr->pid < 0 ? -1 : 0;
}

/* The agent tells only when asked: nothing to wait for but time. */
static void guest_wait(void *procs, int ms)
{
    (void)procs;
    nap_ms(ms);
}

static int guest_poll(void *procs, int i)
{
    guest_phase *h = procs;
    guest_proc *pr = &h->procs[i];
    orch_job *job = &h->jobs[i];
    char err[DB_ERR_LEN], *output = NULL;
    int code = -1, st = exec_status(h->c, &pr->g, pr->pid, &code, &output, NULL, err,
                                 sizeof err);
    if (st == 0)
        return 0;
    pr->pid = 0;
    if (st < 0) {
        /* the agent stopped answering: that VM's figures are void */
        fprintf(h->c->out, "drivebench: %s\n", err);
        if (h->c->monitor)
            orch_monitor_fail(h->c->monitor, job->slot, ORCH_FAULT_CLIENT,
                              "the guest agent stopped answering during %s", h->phase);
        return -1;
    }
    job->status = code;
    job->live_tps = output ? last_tps(output) : 0;
    free(output);
    return 1;
}

/* Ask the guest's oltp to end: SIGTERM (through its shell, live_argv),
 * then polled until it has written what it measured and ended; a VM
 * whose agent no longer answers fails that poll. Hard: SIGKILL to the
 * shell, and the process is let go (the VM goes away anyway). */
static int guest_stop(void *procs, int i, int hard)
{
    guest_phase *h = procs;
    guest_proc *pr = &h->procs[i];
    if (pr->pid <= 0)
        return 1;
    exec_kill(h->c, &pr->g, pr->pid, hard ? "-KILL" : "-TERM");
    if (!hard)
        return 0;
    pr->pid = 0;
    return 1;
}

static int guest_fetch(void *procs, int i, int partial)
{
    guest_phase *h = procs;
    orch_job *job = &h->jobs[i];
    char err[DB_ERR_LEN];
    if (file_fetch(h->c, &h->procs[i].g, job->guest_result, job->result, err, sizeof err) == 0)
        return 0;
    fprintf(h->c->out, "drivebench: %s%s\n", err,
            partial ? " (its result up to the fault is not kept)" : "");
    if (h->c->monitor && !partial)
        orch_monitor_fail(h->c->monitor, job->slot, ORCH_FAULT_CLIENT,
                          "its %s result could not be fetched from the guest", h->phase);
    return -1;
}

static void guest_refresh(void *procs, int i)
{
    guest_phase *h = procs;
    live_read(h->c, &h->procs[i], &h->jobs[i], h->phase);
}

static void guest_end(void *procs)
{
    guest_phase *h = procs;
    for (int i = 0; i < h->njobs; i++) {
        if (!h->jobs[i].failed)
            live_close(h->c, &h->procs[i]);
        free(h->procs[i].live_path);
    }
    oltp_env_free(h->env);
    free(h->procs);
    free(h);
}

static const orch_phase_ops guest_phase_ops = {
    .begin = guest_begin,
    .start = guest_start,
    .wait = guest_wait,
    .poll = guest_poll,
    .stop = guest_stop,
    .fetch = guest_fetch,
    .refresh = guest_refresh,
    .end = guest_end,
};

static int guest_run_phase(const orch_client *c, orch_job *jobs, int njobs, const char *phase,
                           int expected_s)
{
    return orch_phase_supervise(&guest_phase_ops, c, jobs, njobs, phase, expected_s);
}

/* Agent ping, then the guest's oltp pings its database (oltp/ping.h). */
static int guest_wait_ready(const orch_client *c, const orch_vm *vm, virDomainPtr dom,
                            int timeout_s, char *err, size_t errlen)
{
    const guest target = { vm->name, dom }, *g = &target;
    const orch_plan *p = c->plan;
    time_t deadline = time(NULL) + timeout_s;
    char **argv = orch_oltp_ping_argv(p, p->guest_oltp, p->engine->port,
                                      orch_dbengine_login_s(p->engine));
    char *env[3] = { NULL, NULL, NULL };
    int oom, rc = -1, refused = 0, agent_seen = 0, envok = oltp_env(p, env) == 0;
    char *conf = orch_plan_openssl_conf_text(p, &oom);
    time_t t0 = time(NULL);

    /* the boot's stages on the progress output: started, agent, database */
    fprintf(c->out, "[boot] %s: started; waiting for its guest agent\n", g->name);
    fflush(c->out);
    snprintf(err, errlen, "%s: guest agent did not answer within %d s", g->name, timeout_s);
    while (argv && envok && !oom && rc < 0 && !refused && time(NULL) < deadline
           && !orch_stop_requested()) {
        json_object *ret;
        long pid;
        if (orch_dom_gone(dom, vm->name, err, errlen))
            break;
        ret = agent_call(c, g, "guest-ping", NULL, err, errlen);
        json_object_put(ret);
        if (ret && !agent_seen) {
            agent_seen = 1;
            fprintf(c->out, "[boot] %s: guest agent answering after %ds; waiting for the "
                    "database\n", g->name, (int)(time(NULL) - t0));
            fflush(c->out);
            /* tls_security_level's OpenSSL configuration, before oltp
             * first reads it */
            if (conf && file_put(c, g, ORCH_OPENSSL_CONF_GUEST, conf, err, errlen) < 0) {
                refused = 1;
                break;
            }
        }
        pid = ret ? exec_start(c, g, (const char *const *)argv, (const char *const *)env, err,
                               errlen) : -1;
        /* polled every 200 ms for the login's time and 7 s more (10 s in all
         * for a 3 s login) */
        for (int i = 0; pid > 0 && i < (orch_dbengine_login_s(p->engine) + 7) * 5; i++) {
            char *output = NULL, *errors = NULL, last[512];
            int code = -1, st = exec_status(c, g, pid, &code, &output, &errors, err, errlen);
            orch_last_line(errors, last, sizeof last);     /* oltp ping's why */
            free(output);
            free(errors);
            if (st != 0) {
                if (st > 0 && code == 0)
                    rc = 0;
                else if (st > 0 && code == OLTP_PING_TLS) {
                    orch_tls_failed(c, g->name, " in the guest", last, err, errlen);
                    refused = 1;
                }
                else if (st > 0 && (code == OLTP_PING_LOGIN || code == OLTP_PING_QUERY))
                    refused = snprintf(err, errlen, "%s: %s in the guest refused "
                                       "user %s on database %s (oltp ping exited %d); check "
                                       "db_user, db_password and db_name", g->name,
                                       p->engine->label, p->db_user, p->db_name, code) > 0;
                else if (st > 0)
                    snprintf(err, errlen, "%s: the database in the guest did not answer "
                             "(oltp ping exited %d)", g->name, code);
                break;
            }
            nap_ms(200);
        }
        if (rc < 0 && !refused)
            sleep(1);
    }
    if (rc == 0) {
        fprintf(c->out, "[boot] %s: database answering after %ds\n", g->name,
                (int)(time(NULL) - t0));
        fflush(c->out);
    }
    if (!argv || !envok || oom)
        snprintf(err, errlen, "%s: out of memory", g->name);
    orch_argv_free(argv);
    oltp_env_free(env);
    free(conf);
    return rc;
}

const orch_client_ops orch_client_guest = {
    .name = "guest",
    .in_guest = 1,
    .wait_ready = guest_wait_ready,
    .run_phase = guest_run_phase,
};
