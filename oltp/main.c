/*
 * main.c — `oltp [options] WORKLOAD prepare|run|cleanup|check`, and
 * `oltp [driver options] ping`.
 *
 * Exit codes: 0 success; 1 the run was stopped by a database error or a
 * check failed; 2 bad usage, unreachable server, missing tables or other
 * setup errors; 3 a connection stayed lost for longer than
 * --reconnect-timeout: the run ended early, its report and --json hold
 * what was measured until then; 4 the database reported its disk full
 * (common/oltp_exit.h lists them). `ping` has its own codes for "not
 * answering" and "login refused" (ping.h).
 *
 * A run ended early writes --json all the same, with what it measured up
 * to then: on a fatal error (exit 1 or 4) and a lost database (exit 3) its
 * "ended" is "error"; on SIGTERM or SIGINT the workers stop within about
 * half a second, the result ("ended": "signal") is written, and oltp then
 * ends by that signal as it did without a handler (a shell's 128 + N).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "atomic_file.h"
#include "cpu.h"
#include "dbsize.h"
#include "oltp_exit.h"
#include "engine/engine.h"
#include "ping.h"
#include "settings.h"
#include "options/argv_scrub.h"
#include "workload_list.h"
#include "engine/report.h"
#include "version.h"

static double mono_s(void)
{
    return (double)uv_hrtime() / 1e9;
}

/* The sysbench personality's closing lines of a failed command, as
 * sysbench 1.0.20 prints them after the cause: which of its functions
 * failed (a run fails in its threads' set-up), the test, and what. */
static void sb_failed(const oltp_opts *o, const char *what)
{
    bool run = !strcmp(o->command, "run");
    if (!o->sysbench_personality)
        return;
    fprintf(stdout, "FATAL: `%s' function failed: %s: %s\n",
            run ? "thread_init" : !strcmp(o->command, "cleanup") ? "cleanup" : "sysbench.cmdline.call_command",
            o->workload, what);
    if (run)
        fprintf(stdout, "FATAL: Thread initialization failed!\n");
}

/* The one place a workload's error is printed: its line, in sysbench's
 * voice when it is one (workload.h); nothing when the command's output
 * said it. */
static void print_wl_err(const oltp_opts *o, const wl_err *err)
{
    if (!err->msg[0])
        return;
    if (err->sysbench_voice)
        fprintf(opts_msg_file(o), "%s%s\n", opts_msg_prefix(o), err->msg);
    else
        fprintf(stderr, "oltp: %s\n", err->msg);
}

static const char *where(const oltp_opts *o, char *buf, size_t len)
{
    if (o->db.dsn || o->db.conn_str)
        snprintf(buf, len, "ODBC data source %s", o->db.dsn ? o->db.dsn : "of --odbc-connect");
    else if (o->db.socket)
        snprintf(buf, len, "%s server on socket %s as '%s'", o->db_driver, o->db.socket, o->db.user);
    else
        snprintf(buf, len, "%s server at %s:%d as '%s'", o->db_driver, o->db.host, o->db.port, o->db.user);
    return buf;
}

/* A session that has just closed may still count against the server's
 * session limit for a moment (MariaDB lowers a user's count after the
 * client has gone), and oltp's setup connections follow one another (the
 * dialect probe, then the run's): one refused by that limit tries again,
 * every SETUP_LIMIT_STEP_MS for up to SETUP_LIMIT_WAIT_MS. */
enum { SETUP_LIMIT_WAIT_MS = 3000, SETUP_LIMIT_STEP_MS = 100 };

/* Open a blocking setup connection; prints one line and returns -1 on failure. */
static int setup_connect(db_conn *c, const wl_run *run, const struct db_driver *drv)
{
    char w[300];
    int waited = 0;

    for (;;) {
        if (db_init(c, drv, &run->o->db, run->stmts, run->nstmts) < 0) {
            fprintf(stderr, "oltp: out of memory\n");
            return -1;
        }
        if (db_connect(c) == DB_DONE)
            return 0;
        if (!db_error_is_session_limit(&c->err) || waited >= SETUP_LIMIT_WAIT_MS)
            break;
        db_free(c);
        uv_sleep(SETUP_LIMIT_STEP_MS);
        waited += SETUP_LIMIT_STEP_MS;
    }
    if (run->o->sysbench_personality) {
        const db_config *d = &run->o->db;
        if (!strcmp(run->o->db_driver, "mysql") && d->socket)
            fprintf(stdout, "FATAL: unable to connect to MySQL server on socket '%s', aborting...\n", d->socket);
        else if (!strcmp(run->o->db_driver, "mysql"))
            fprintf(stdout, "FATAL: unable to connect to MySQL server on host '%s', port %d, aborting...\n",
                    d->host, d->port);
        if (!strcmp(run->o->db_driver, "mysql"))
            fprintf(stdout, "FATAL: error %d: %s\n", c->err.code, c->err.msg);
        else
            fprintf(stdout, "FATAL: Connection to database failed: %s\n", c->err.msg);
        sb_failed(run->o, "connection creation failed");
    } else if (waited)
        fprintf(stderr, "oltp: cannot connect to the %s: error %d: %s (the server stayed at its "
                "session limit for %d s)\n", where(run->o, w, sizeof w), c->err.code, c->err.msg,
                SETUP_LIMIT_WAIT_MS / 1000);
    else
        fprintf(stderr, "oltp: cannot connect to the %s: error %d: %s\n",
                where(run->o, w, sizeof w), c->err.code, c->err.msg);
    return -1;
}

/* Set o->db.dialect before the workload writes any SQL: the driver's own
 * dialect, else --odbc-dialect, else the DBMS name of a first connection.
 * Returns 0, or -1 after printing one message. */
static int resolve_dialect(oltp_opts *o, const struct db_driver *drv)
{
    wl_run probe = { .o = o };
    db_conn c;
    db_dialect d;
    const char *name;
    int rc = -1;

    if (drv->dialect != DB_DIALECT_AUTO) {
        o->db.dialect = drv->dialect;
        return 0;
    }
    if (o->odbc_dialect) {
        if (dialect_parse(o->odbc_dialect, &d) < 0)
            return -1;              /* opts_parse has said why */
        o->db.dialect = d;
        return 0;
    }
    if (setup_connect(&c, &probe, drv) == 0) {
        name = db_dbms_name(&c);
        if (dialect_from_dbms_name(name, &d) == 0) {
            o->db.dialect = d;
            rc = 0;
        } else {
            fprintf(stderr, "oltp: the server calls itself '%s', a DBMS oltp has no SQL dialect for: "
                    "give --odbc-dialect=mssql|mysql|pgsql\n", name ? name : "(no SQL_DBMS_NAME)");
        }
    }
    db_free(&c);
    return rc;
}

typedef struct loader {
    const wl_run           *run;
    const workload         *wl;
    const struct db_driver *drv;
    int                     id, n;
    int64_t                *progress, *total;
    bool                    prewarm;    /* wl->prewarm, not wl->prepare */
    int                     rc;
    bool                    disk_full;  /* its error said the disk is full */
    int                    *done;
} loader;

static void loader_main(void *arg)
{
    loader *l = arg;
    db_conn c;
    wl_err err = { "", false };
    l->rc = -1;
    if (setup_connect(&c, l->run, l->drv) == 0) {
        l->rc = l->prewarm ? l->wl->prewarm(l->run, &c, l->id, l->n, &err)
                           : l->wl->prepare(l->run, &c, l->id, l->n, l->progress, l->total, &err);
        if (l->rc != 0) {
            /* each loader's own error, when it fails, as it fails */
            print_wl_err(l->run->o, &err);
            sb_failed(l->run->o, "SQL error");
        }
    }
    l->disk_full = l->rc != 0 && db_error_is_disk_full(&c.err);
    db_free(&c);
    __atomic_add_fetch(l->done, 1, __ATOMIC_RELEASE);
}

/* Read and print the database's size on a connection of its own (after
 * prepare, after a run, whose sessions are gone); *out RES_UNSET when it
 * cannot be read (a warning, not a failure). The sysbench personality
 * prints nothing of it (an addition of oltp's). */
static void size_after(const wl_run *run, const struct db_driver *drv, const char *when,
                       res_db_size *out)
{
    db_conn c;
    *out = (res_db_size){ RES_UNSET, RES_UNSET };
    if (setup_connect(&c, run, drv) == 0 && dbsize_read(&c, run->o->db.dialect, out) == 0 &&
        opts_notice(run->o) && !run->o->sysbench_personality)
        dbsize_print(stdout, when, out);     /* oltp's addition */
    db_free(&c);
}

/* `prepare` (and `prewarm`: prewarm true): one loader thread per
 * --threads, each with its own connection; the main thread shows
 * progress on a terminal. */
static int cmd_prepare(const wl_run *run, const workload *wl, const struct db_driver *drv, bool prewarm)
{
    int n = run->o->threads, done = 0, rc = 0;
    int64_t progress = 0, total = 0;
    loader *ls = calloc((size_t)n, sizeof(loader));
    uv_thread_t *th = calloc((size_t)n, sizeof(uv_thread_t));
    double t0 = mono_s(), dt;
    bool tty = !prewarm && !run->o->sysbench_personality && opts_notice(run->o) && isatty(STDERR_FILENO);

    if (!ls || !th) {
        fprintf(stderr, "oltp: out of memory\n");
        free(ls);
        free(th);
        return OLTP_EXIT_BAD_INPUT;
    }
    for (int i = 0; i < n; i++) {
        ls[i] = (loader){ run, wl, drv, i, n, &progress, &total, prewarm, -1, false, &done };
        if (uv_thread_create(&th[i], loader_main, &ls[i]) < 0) {
            fprintf(stderr, "oltp: cannot start loader thread %d\n", i);
            n = i;
            rc = OLTP_EXIT_BAD_INPUT;
            break;
        }
    }
    while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < n) {
        usleep(200000);
        if (tty) {
            int64_t p = __atomic_load_n(&progress, __ATOMIC_RELAXED), t = __atomic_load_n(&total, __ATOMIC_RELAXED);
            dt = mono_s() - t0;
            fprintf(stderr, "\r  loaded %" PRId64 " of %" PRId64 " rows (%.0f rows/s)   ", p, t, dt > 0 ? p / dt : 0.0);
        }
    }
    if (tty)
        fputc('\n', stderr);
    for (int i = 0; i < n; i++) {
        uv_thread_join(&th[i]);
        if (ls[i].rc != 0 && rc != OLTP_EXIT_DISK_FULL)
            rc = ls[i].disk_full ? OLTP_EXIT_DISK_FULL : OLTP_EXIT_BAD_INPUT;
    }
    if (rc == OLTP_EXIT_DISK_FULL)
        fprintf(stderr, "oltp: the database reported its disk full (see above): the drive "
                "under it has no room left\n");
    dt = mono_s() - t0;
    /* oltp's additions to sysbench's output */
    if (rc == 0 && !prewarm && opts_notice(run->o) && !run->o->sysbench_personality) {
        res_db_size size;
        printf("Loaded %" PRId64 " rows in %.2f s (%.0f rows/s)\n", progress, dt, dt > 0 ? progress / dt : 0.0);
        size_after(run, drv, "after prepare", &size);
    }
    free(ls);
    free(th);
    return rc;
}

/* What the hooks of a run share: the options, and for a workload with a
 * server_count (TPC-C's NOPM) a connection of its own and the counts read
 * at the start [0] and the end [1] of the measured phase. */
typedef struct run_ctx {
    const oltp_opts *o;
    const wl_run    *run;
    const workload  *wl;
    db_conn         *c;             /* NULL: no server count */
    int64_t          count[2];
    bool             read[2];
    report_ckpt      ckpt;          /* --report-checkpoints */
} run_ctx;

/* engine_hooks.on_interval: sysbench's interval line, its checkpoints. */
static void print_interval(void *ctx, const stats *acc, const interval_sample *s, double t_run)
{
    run_ctx *x = ctx;
    if (x->o->report_interval > 0)
        report_interval_line(stdout, x->o, acc, s, t_run);
    if (x->o->ncheckpoints > 0)
        report_ckpt_interval(stdout, x->o, &x->ckpt, acc, t_run);
}

/* The signal that asked a run to stop (SIGTERM, SIGINT), 0 while none:
 * set by the handler, read by the engine's clock thread through
 * stop_requested. File-local: a signal handler has no context pointer. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

/* engine_hooks.stop_requested */
static bool stop_requested(void *ctx)
{
    (void)ctx;
    return stop_signal != 0;
}

/* SIGTERM and SIGINT stop the run (engine_hooks.stop_requested) instead
 * of killing the process with its measurements. One that oltp was started
 * with ignored (nohup, a shell's background job) stays ignored. */
static void catch_stop_signals(void)
{
    static const int sigs[] = { SIGTERM, SIGINT };
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
}

/* After the result of a stopped run is written: end by the signal that
 * stopped it, as without a handler, so the exit status tells the same. */
static void end_by_stop_signal(void)
{
    int sig = stop_signal;
    fflush(stdout);
    fflush(stderr);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* engine_hooks.on_measure: read the server's count. A failed read is
 * printed here and leaves the figure out of the report. */
static void read_server_count(void *ctx, bool end)
{
    run_ctx *x = ctx;
    wl_err err = { "", false };
    if (!x->c)
        return;
    if (x->wl->server_count(x->run, x->c, &x->count[end], &err) == 0)
        x->read[end] = true;
    else
        print_wl_err(x->o, &err);
}

/* --report-checkpoints: its state, and the engine's snapshot of the
 * connections it needs. 0, or -1 after saying why (x->c freed). */
static int ckpt_start(run_ctx *x, engine_hooks *h)
{
    const oltp_opts *o = x->o;
    if (report_ckpt_init(&x->ckpt, x->wl->ntypes > 1 ? x->wl->ntypes : 1,
                         o->threads > o->connections ? o->threads : o->connections) < 0) {
        fprintf(stderr, "oltp: out of memory\n");
        report_ckpt_clear(&x->ckpt);
        if (x->c)
            db_free(x->c);
        return -1;
    }
    if (o->ncheckpoints > 0)
        h->snap = &x->ckpt.now;
    return 0;
}

/* The lines before the load (the sysbench personality printed the
 * header before the set-up's checks, as sysbench does), and the seed
 * drawn from the clock when --rand-seed gave none. */
static void run_begins(oltp_opts *o)
{
    if (!o->sysbench_personality)
        report_header(stdout, o, o->seed != 0);
    if (!o->seed)
        o->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    if (opts_notice(o))
        printf("Threads started!\n\n");
}

/* origin_ns: when oltp started; each phase's start_s counts from it. */
static int cmd_run(wl_run *run, const workload *wl, const struct db_driver *drv,
                   uint64_t origin_ns)
{
    oltp_opts *o = (oltp_opts *)run->o;
    run_result res;
    db_conn c;
    res_db_size size_start = { RES_UNSET, RES_UNSET }, size_end;
    char version[128] = "", w[DB_ERR_LEN];
    time_t started;
    int rc, res_stopped;
    run_ctx x = { .o = o, .run = run, .wl = wl };
    wl_err err = { "", false };
    engine_hooks hooks = {
        .on_interval = o->report_interval > 0 || o->ncheckpoints > 0 ? print_interval : NULL,
        .on_measure = wl->server_count ? read_server_count : NULL,
        .stop_requested = stop_requested,
        .ctx = &x,
    };

    /* an output that cannot be written must fail now, not after the run */
    if (o->json_path && atomic_file_check(o->json_path, w, sizeof w) < 0) {
        fprintf(stderr, "oltp: --json: %s\n", w);
        return OLTP_EXIT_BAD_INPUT;
    }
    if (setup_connect(&c, run, drv) < 0) {
        db_free(&c);
        return OLTP_EXIT_BAD_INPUT;
    }
    snprintf(version, sizeof version, "%s", db_server_version(&c));
    rc = wl->check_ready ? wl->check_ready(run, &c, &err) : 0;
    if (rc < 0) {
        print_wl_err(o, &err);
        sb_failed(o, "SQL API error");
        db_free(&c);
        return OLTP_EXIT_BAD_INPUT;
    }
    /* the database as the run finds it (after prepare or a restore) */
    dbsize_read(&c, o->db.dialect, &size_start);
    /* the same session reads the server's count during the run */
    if (wl->server_count)
        x.c = &c;
    else
        db_free(&c);
    if (ckpt_start(&x, &hooks) < 0)
        return OLTP_EXIT_FAILED;
    run_begins(o);
    started = time(NULL);       /* the result's started_at */
    catch_stop_signals();
    rc = engine_run(run, wl, drv, &hooks, &res);
    if (x.c)
        db_free(x.c);
    if (rc < 0) {
        report_ckpt_clear(&x.ckpt);
        rc = res.disk_full ? OLTP_EXIT_DISK_FULL : OLTP_EXIT_FAILED;
        if (res.disk_full)
            fprintf(stderr, "oltp: the database reported its disk full (see above): the "
                    "drive under it has no room left\n");
        /* what was measured up to the error is kept; the exit status
         * stays the error's */
        snprintf(res.server_version, sizeof res.server_version, "%s", version);
        if (res.fatal && o->json_path && report_json(o->json_path, o, wl, &res, started, origin_ns,
                                                     w, sizeof w) < 0)
            fprintf(stderr, "oltp: %s\n", w);   /* the exit status stays the run's error */
        run_result_clear(&res);
        return rc;
    }
    if (res.stopped)
        snprintf(res.why, sizeof res.why, "%s", stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
    if (x.read[0] && x.read[1]) {
        /* the end read comes after the workers ended: what committed
         * after the phase's cut is taken out (late_tpm). A transaction in
         * flight at a read taken while they ran (the warm-up's end), or
         * one the server committed whose answer never came, may count on
         * one side only: one per connection at each read, and the end */
        phase_result *p = &res.phases[res.nphases - 1];
        p->server_counted = true;
        p->server_trx = x.count[1] - x.count[0] - p->late_tpm;
        p->server_margin = (int64_t)res.nconns * (o->warmup_s > 0 ? 2 : 1);
    }
    snprintf(res.server_version, sizeof res.server_version, "%s", version);
    res_stopped = res.stopped;
    report_final(stdout, o, wl, &res, &x.ckpt);
    report_ckpt_clear(&x.ckpt);
    if (opts_notice(o) && !o->sysbench_personality)
        dbsize_print(stdout, "before the run", &size_start);
    /* a run ended by a server that stayed away has no size to read after it */
    size_end = (res_db_size){ RES_UNSET, RES_UNSET };
    if (!res.unavailable)
        size_after(run, drv, "after the run", &size_end);
    res.db_start = size_start;
    res.db_end = size_end;
    rc = res.unavailable ? OLTP_EXIT_UNAVAILABLE : OLTP_EXIT_OK;
    if (o->json_path && report_json(o->json_path, o, wl, &res, started, origin_ns, w, sizeof w) < 0) {
        fprintf(stderr, "oltp: %s\n", w);
        rc = OLTP_EXIT_BAD_INPUT;
    }
    run_result_clear(&res);
    if (res_stopped)
        end_by_stop_signal();
    return rc;
}

/* cleanup, check: fn on one connection; `size` (check): then the
 * database's size */
static int cmd_simple(const wl_run *run, const struct db_driver *drv,
                      int (*fn)(const wl_run *, db_conn *, wl_err *), int fail_code, bool size)
{
    db_conn c;
    res_db_size sz;
    wl_err err = { "", false };
    int rc = OLTP_EXIT_OK;
    if (setup_connect(&c, run, drv) < 0)
        rc = OLTP_EXIT_BAD_INPUT;
    else if (fn(run, &c, &err) < 0) {
        print_wl_err(run->o, &err);
        sb_failed(run->o, "SQL error");
        rc = fail_code;
    }
    else if (size && dbsize_read(&c, run->o->db.dialect, &sz) == 0)
        dbsize_print(stdout, "check", &sz);
    db_free(&c);
    return rc;
}

/* The test named on the command line (a workload's name, or the path of
 * sysbench's script for it); NULL after one message. */
static const workload *find_test(const oltp_opts *o)
{
    const workload *wl = workload_find_test(o->workload);
    const char *dot = strrchr(o->workload, '.');
    bool script = strchr(o->workload, '/') || (dot && !strcmp(dot, ".lua"));

    if (wl)
        return wl;
    if (script && access(o->workload, F_OK) == 0)
        fprintf(opts_msg_file(o), "%s'%s' is a Lua script that is none of sysbench's OLTP scripts: %s runs its "
                "built-in OLTP workloads only, no Lua (see %s --help)\n", opts_msg_prefix(o), o->workload,
                o->sysbench_personality ? "this sysbench (oltp)" : "oltp",
                o->sysbench_personality ? "sysbench" : "oltp");
    else if (o->sysbench_personality)
        fprintf(stdout, "FATAL: Cannot find benchmark '%s': no such built-in test, file or module\n",
                o->workload);
    else {
        fprintf(stderr, "oltp: unknown workload '%s'; known workloads:\n", o->workload);
        workload_list(stderr);
    }
    return NULL;
}

/* `--help`: the options, then (sysbench's sections) the drivers and the
 * tests. */
static void print_help(const oltp_opts *o)
{
    if (o->sysbench_personality) {
        /* only the drivers sysbench has: its suite looks for a test of each */
        printf("\nCompiled-in database drivers:\n"
               "  mysql - MySQL driver\n"
               "  pgsql - PostgreSQL driver\n\n"
               "oltp's other database drivers:\n"
               "  odbc - ODBC driver (SQL Server, and others through unixODBC)\n\n"
               "Compiled-in tests:\n");
        workload_list(stdout);
        printf("  %-24s %s\n", REPORT_CPU_TEST, "sysbench's CPU test: primes by trial division");
        printf("\nSee 'sysbench <testname> help' for a list of options for each test.\n\n");
    } else {
        printf("\nWorkloads:\n");
        workload_list(stdout);
        printf("  %-24s %s\n", REPORT_CPU_TEST, "sysbench's CPU test: primes by trial division");
    }
}

/* Check the options against the workload and the driver, then run the
 * command; returns oltp's exit status. */
static int run_command(oltp_opts *o, const workload *wl, uint64_t origin_ns)
{
    const struct db_driver *drv;
    wl_run run = { .o = o };
    wl_err err = { "", false };
    int rc;

    if (o->sysbench_personality && !strcmp(o->command, "run"))
        report_header(stdout, o, o->seed != 0);
    if (!(drv = db_driver_find(o->db_driver))) {
        if (o->sysbench_personality) {
            fprintf(stdout, "FATAL: invalid database driver name: '%s'\n", o->db_driver);
            sb_failed(o, "failed to initialize the DB driver");
        } else
            fprintf(stderr, "oltp: unknown --db-driver=%s (this build has: %s)\n", o->db_driver, db_driver_names());
        return OLTP_EXIT_BAD_INPUT;
    }
    if (o->db.pipeline && !db_pipeline_supported(drv)) {
        fprintf(opts_msg_file(o), "%s--pipeline=on is not available with --db-driver=%s: only the pgsql driver "
                "pipelines (libpq's pipeline mode); MariaDB Connector/C reads a prepared statement's answer "
                "in the call that sends it (mysql_stmt_execute), so a connection cannot have a second "
                "statement in flight\n", opts_msg_prefix(o), o->db_driver);
        return OLTP_EXIT_BAD_INPUT;
    }
    if (o->db.pipeline && !wl->pipeline) {
        fprintf(opts_msg_file(o), "%s--pipeline=on is not available with workload %s: its transactions read "
                "the results of their statements\n", opts_msg_prefix(o), wl->name);
        return OLTP_EXIT_BAD_INPUT;
    }
    if (o->db.odbc_bulk != DB_ODBC_ARRAYS && strcmp(o->db_driver, "odbc")) {
        fprintf(opts_msg_file(o), "%s--bulk=%s is a bulk path of the ODBC driver: it needs --db-driver=odbc "
                "(this is --db-driver=%s; its bulk path is --bulk=on)\n",
                opts_msg_prefix(o), opts_bulk_name(o), o->db_driver);
        return OLTP_EXIT_BAD_INPUT;
    }
    if (resolve_dialect(o, drv) < 0)
        return OLTP_EXIT_BAD_INPUT;
    if (!strcmp(o->command, "prewarm") && (!wl->prewarm || o->db.dialect != DB_DIALECT_MYSQL)) {
        /* sysbench's scripts: "prewarm is currently MySQL only" */
        if (o->sysbench_personality)
            sb_failed(o, "prewarm is currently MySQL only");
        else
            fprintf(stderr, "oltp: prewarm is %s\n", wl->prewarm ? "MySQL only (it reads each table into "
                    "the buffer pool)" : "a command of sysbench's OLTP workloads only");
        return OLTP_EXIT_BAD_INPUT;
    }
    if (wl->setup(&run, &err) < 0) {
        print_wl_err(o, &err);
        return OLTP_EXIT_BAD_INPUT;
    }
    if (!strcmp(o->command, "prepare") || !strcmp(o->command, "prewarm"))
        rc = cmd_prepare(&run, wl, drv, !strcmp(o->command, "prewarm"));
    else if (!strcmp(o->command, "run"))
        rc = cmd_run(&run, wl, drv, origin_ns);
    else if (!strcmp(o->command, "cleanup"))
        rc = cmd_simple(&run, drv, wl->cleanup, OLTP_EXIT_BAD_INPUT, false);
    else if (wl->check)
        rc = cmd_simple(&run, drv, wl->check, OLTP_EXIT_FAILED, true);
    else {
        fprintf(opts_msg_file(o), "%sworkload %s has no 'check' command\n", opts_msg_prefix(o), wl->name);
        rc = OLTP_EXIT_BAD_INPUT;
    }
    wl->teardown(&run);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t origin_ns = uv_hrtime();      /* the phases' start_s count from here */
    oltp_opts o;
    const workload *wl;
    char *msg = NULL;
    size_t msg_len = 0;
    /* a bad command line's message waits for the personality's first line */
    FILE *msg_file = open_memstream(&msg, &msg_len);
    int r, rc;

    if (argc == 2 && !strcmp(argv[1], "--list-options")) {
        opts_list(stdout);
        return OLTP_EXIT_OK;
    }
    if (opts_scrub_argv(argc, argv) < 0) {   /* no password left in `ps` (argv_scrub.h) */
        fprintf(stderr, "oltp: out of memory\n");
        return OLTP_EXIT_BAD_INPUT;
    }
    r = opts_parse(&o, argc, argv, msg_file ? msg_file : stderr);
    /* sysbench exits 1 on every error that is oltp's 2 (bad input, no
     * server, missing or existing tables) */
    int bad_input = o.sysbench_personality ? 1 : OLTP_EXIT_BAD_INPUT;

    if (msg_file)
        fclose(msg_file);
    if (r < 0 && o.sysbench_personality && opts_notice(&o)) {
        printf("%s\n\n", OPTS_SYSBENCH_BANNER);
        fflush(stdout);
    }
    if (msg)
        fputs(msg, stderr);
    free(msg);

    if (r == 1) {
        if (argc > 1 && strcmp(argv[argc - 1], "--version"))
            print_help(&o);
        return OLTP_EXIT_OK;
    }
    if (r < 0)
        return bad_input;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(o.command, "ping"))
        return oltp_ping(&o, stdout, stderr);
    if (!strcmp(o.command, "settings"))
        return oltp_settings(&o, stdout, stderr);
    if (o.sysbench_personality && opts_notice(&o))
        printf("%s\n\n", OPTS_SYSBENCH_BANNER);
    if (!strcmp(o.workload, REPORT_CPU_TEST)) {
        rc = cpu_test(&o);
        return rc == OLTP_EXIT_BAD_INPUT ? bad_input : rc;
    }
    if (!(wl = find_test(&o)))
        return bad_input;
    if (!strcmp(o.command, "help")) {
        const char *base = strrchr(o.workload, '/');
        if (!workload_is_sysbench(wl)) {
            printf("%s: its options are in %s --help (TPC-C)\n", wl->name,
                   o.sysbench_personality ? "sysbench" : "oltp");
            return OLTP_EXIT_OK;
        }
        opts_script_help(stdout, base ? base + 1 : o.workload);
        return OLTP_EXIT_OK;
    }
    o.workload = wl->name;      /* the workloads know themselves by name */
    rc = run_command(&o, wl, origin_ns);
    return rc == OLTP_EXIT_BAD_INPUT ? bad_input : rc;
}
