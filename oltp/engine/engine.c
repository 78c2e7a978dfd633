/*
 * engine.c — worker threads with one libuv loop each; every connection is a
 * state machine driven by socket readiness through the driver's
 * non-blocking operations (db.h). The main thread keeps time: it ends the
 * warm-up and the run, and harvests interval statistics from the workers.
 *
 * Latency of a transaction = commit time - intended start. Closed loop:
 * the intended start is when the connection became free. With --rate, each
 * worker draws Poisson arrivals (its share of the rate) into a queue; a
 * transaction's intended start is its arrival time, so time spent waiting
 * for a free connection is part of its latency and is reported separately
 * as queue time (no coordinated omission). Arrivals still queued when the
 * run ends get their latency so far (the end minus their arrival)
 * recorded, as a coordinated-omission correction would, and are counted
 * as unserved.
 *
 * Time: a phase's intervals end on its boundaries, phase start + k *
 * interval. Every count goes to the interval its event's time falls in:
 * a worker moves its counters to a new slot (one interval of the phase
 * clock) when it records the first event past a boundary, so the main
 * thread waking late (a stalled tick) changes nothing but the length of
 * the interval it closes: it closes up to the last boundary it reached,
 * one longer interval, never a tiny one. Events after the run's end (or
 * the cut of a run ended early) are not counted.
 */
#include "engine/engine.h"
#include "nap.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

typedef enum { C_CONNECTING, C_IDLE, C_RUNNING, C_ROLLBACK, C_BACKOFF, C_CLOSED } cstate;

struct worker;
struct term;

typedef struct conn {
    struct worker *w;
    int        id;
    db_conn    db;
    uv_poll_t *poll;            /* watches the session's socket; NULL when none */
    int        poll_fd;
    int        poll_events;     /* what poll is started with; 0 = stopped */
    uv_timer_t timer;           /* driver timeouts, reconnect backoff, think time */
    cstate     st;
    bool       ever_connected, in_trx;
    void      *wls;             /* workload state (the terminal's, with terminals) */
    struct term *term;          /* terminal whose transaction runs here, or NULL */
    int        type;
    uint64_t   intended, started;
    int        backoff_ms;
    wl_action  act;
    db_qkind   kind;            /* of the statement in flight */
    int64_t    q[3];            /* read/write/other not yet flushed */
    int64_t    trx_done;
    uint64_t   busy_ns;
    /* outage: under w->lock; down_since is also read atomically by the
     * main thread (outage_exceeded) */
    uint64_t   down_since;      /* when the connection was lost; 0 = it works */
    uint64_t   down_counted;    /* outage time up to here is in the stats */
    uint64_t   longest_down_ns; /* longest outage overlapping the current phase */
    char       down_why[200];   /* the error that cut it */
} conn;

typedef struct engine {
    const wl_run           *run;
    const workload         *wl;
    const struct db_driver *drv;
    const oltp_opts        *o;
    engine_hooks            hooks;            /* the caller's (engine.h) */
    double                  cpu_at_phase;     /* process CPU s when the phase began */
    struct worker          *workers;
    int                     nworkers;
    int                     ntypes;
    int                     stop;             /* atomic: start no new transaction */
    int64_t                 events_started;   /* atomic */
    int                     events_done;      /* atomic: --events all started */
    int                     workers_done;     /* atomic */
    bool                    terminals;        /* workload states are terminals (wl->terminals) */
    pthread_mutex_t         err_lock;
    int                     fatal;
    char                    fatal_msg[700];
    int                     disk_full;        /* the fatal error said the disk is full */
    int                     unavailable;      /* main thread: a connection stayed lost */
    char                    unavailable_msg[400];
    int                     stopped;          /* main thread: hooks.stop_requested said so */
    int                     grace_ms;         /* atomic: how long transactions in flight
                                               * may finish once stopped */
    /* the phase clock (set before the workers start, read-only after but
     * for cut_ns): slot k < nwarm spans t0 + k * tick (the warm-up, its
     * last slot ending at m0), slot nwarm + j spans m0 + j * tick */
    uint64_t                t0, tick, m0, end_ns;
    uint64_t                nwarm;
    uint64_t                cut_ns;           /* atomic: no event counted from here */
} engine;

typedef struct worker {
    engine     *e;
    int         id;
    uv_loop_t   loop;
    uv_thread_t thread;
    uv_async_t  wake;
    uv_timer_t  rate_timer, grace_timer;
    rng         rng;
    conn       *conns;
    int         nconns, open_conns;
    pthread_mutex_t lock;       /* guards iv, done, slot, late_tpm, after_end */
    int64_t     late_tpm;       /* committed transactions of the workload's
                                 * tpm_type that ended after the cut */
    res_after_end after_end;    /* every transaction that ended after it */
    stats       iv;             /* the events of slot `slot` */
    stats       done;           /* of earlier slots, not yet harvested */
    uint64_t    slot;
    /* --rate */
    double      gap_ns;
    uint64_t    next_arrival;
    uint64_t   *q;
    size_t      qhead, qlen, qcap;
    conn      **idle;
    int         nidle;
    bool        closing;
    /* terminals (wl->terminals): those ready to start a transaction wait
     * in a FIFO ring for a free connection */
    struct term *terms;
    int         nterms;
    struct term **ready;
    int         rhead, rlen;
} worker;

/* A terminal (TPC-C virtual user): it owns a workload state, waits its
 * keying and think time on its own timer, then queues for a connection. */
typedef struct term {
    worker    *w;
    void      *wls;
    uv_timer_t timer;
    uint64_t   ready;           /* when it meant to start its next transaction */
} term;

#define NO_OP 2                 /* begin_next/advance: nothing started */

static uint64_t now_ns(void)
{
    return uv_hrtime();
}

/* The slot of the phase clock that time n falls in, and where slot k
 * starts (see the top comment). */
static uint64_t slot_of(const engine *e, uint64_t n)
{
    if (n < e->t0)
        return 0;
    if (e->nwarm && n < e->m0)
        return (n - e->t0) / e->tick;
    return e->nwarm + (n - e->m0) / e->tick;
}

static uint64_t slot_start(const engine *e, uint64_t k)
{
    return k < e->nwarm ? e->t0 + k * e->tick : e->m0 + (k - e->nwarm) * e->tick;
}

/* The counters an event at time n goes into (w->lock held): w->iv, first
 * moved to w->done when n lies past its slot; NULL from the cut on. */
static stats *iv_at(worker *w, uint64_t n)
{
    engine *e = w->e;
    uint64_t k;
    if (n >= __atomic_load_n(&e->cut_ns, __ATOMIC_RELAXED))
        return NULL;
    k = slot_of(e, n);
    if (k > w->slot) {
        stats_add(&w->done, &w->iv);
        stats_reset(&w->iv);
        w->slot = k;
    }
    return &w->iv;
}

/* --- stats -------------------------------------------------------------- */

int stats_init(stats *s, int ntypes)
{
    memset(s, 0, sizeof(*s));
    s->ntypes = ntypes;
    s->lat = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS);
    s->queue = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS);
    if (!s->lat || !s->queue)
        return -1;
    for (int t = 0; ntypes > 1 && t < ntypes; t++)
        if (!(s->type_lat[t] = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS)))
            return -1;
    return 0;
}

void stats_free(stats *s)
{
    hist_free(s->lat);
    hist_free(s->queue);
    for (int t = 0; t < WL_MAX_TYPES; t++)
        hist_free(s->type_lat[t]);
    memset(s, 0, sizeof(*s));
}

void stats_reset(stats *s)
{
    s->trx = s->reads = s->writes = s->others = s->errors = s->reconnects = s->rollbacks = 0;
    s->down_ns = 0;
    hist_reset(s->lat);
    hist_reset(s->queue);
    for (int t = 0; t < WL_MAX_TYPES; t++) {
        s->type_trx[t] = s->type_rollbacks[t] = s->type_retries[t] = 0;
        if (s->type_lat[t])
            hist_reset(s->type_lat[t]);
    }
}

void stats_add(stats *d, const stats *s)
{
    d->trx += s->trx;
    d->reads += s->reads;
    d->writes += s->writes;
    d->others += s->others;
    d->errors += s->errors;
    d->reconnects += s->reconnects;
    d->rollbacks += s->rollbacks;
    d->down_ns += s->down_ns;
    hist_add(d->lat, s->lat);
    hist_add(d->queue, s->queue);
    for (int t = 0; t < WL_MAX_TYPES; t++) {
        d->type_trx[t] += s->type_trx[t];
        d->type_rollbacks[t] += s->type_rollbacks[t];
        d->type_retries[t] += s->type_retries[t];
        if (d->type_lat[t] && s->type_lat[t])
            hist_add(d->type_lat[t], s->type_lat[t]);
    }
}

/* --- connection state machine ------------------------------------------ */

static void handle(conn *c, int r);
static void on_poll(uv_poll_t *p, int status, int events);
static int  begin_next(conn *c);
static void conn_connect(conn *c);

/* Stop the run for an error that retrying cannot cure; the first message
 * wins and is printed by the main thread. */
static void engine_fatal(engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void engine_fatal(engine *e, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&e->err_lock);
    if (!e->fatal) {
        va_start(ap, fmt);
        vsnprintf(e->fatal_msg, sizeof e->fatal_msg, fmt, ap);
        va_end(ap);
        __atomic_store_n(&e->fatal, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&e->err_lock);
    __atomic_store_n(&e->stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < e->nworkers; i++)
        uv_async_send(&e->workers[i].wake);
}

static void flush_queries(conn *c, stats *s)
{
    if (!s) {
        c->q[0] = c->q[1] = c->q[2] = 0;
        return;
    }
    s->reads += c->q[DB_Q_READ];
    s->writes += c->q[DB_Q_WRITE];
    s->others += c->q[DB_Q_OTHER];
    c->q[0] = c->q[1] = c->q[2] = 0;
}

/* --- outages ---------------------------------------------------------------
 * A connection is down from the error that cut it until a reconnect
 * succeeds (or it closes). Its down time goes into the stats as it passes:
 * harvest() counts an ongoing outage up to the end of each interval, the
 * end of the outage counts the rest, so each interval and phase gets its
 * own share. */

/* The connection was just lost (worker thread). */
static void outage_begin(conn *c, const db_error *err)
{
    worker *w = c->w;
    uint64_t n;
    if (c->down_since)
        return;                 /* a reconnect attempt failed: same outage */
    n = now_ns();
    pthread_mutex_lock(&w->lock);
    c->down_counted = n;
    snprintf(c->down_why, sizeof c->down_why, "error %d: %.160s", err->code, err->msg);
    __atomic_store_n(&c->down_since, n, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&w->lock);
}

/* The outage of c, if any, ends at n. Caller holds c->w->lock. */
static void outage_end_locked(conn *c, uint64_t n)
{
    stats *s;
    if (!c->down_since)
        return;
    if (n > c->down_counted && (s = iv_at(c->w, n)))
        s->down_ns += (int64_t)(n - c->down_counted);
    if (n - c->down_since > c->longest_down_ns)
        c->longest_down_ns = n - c->down_since;
    __atomic_store_n(&c->down_since, 0, __ATOMIC_RELEASE);
}

/* uv_poll_start() re-registers the descriptor with epoll every time (two
 * epoll_ctl calls), so it is called only when the events change. */
static void poll_set(conn *c, int events)
{
    if (c->poll && c->poll_events != events) {
        if (events)
            uv_poll_start(c->poll, events, on_poll);
        else
            uv_poll_stop(c->poll);
        c->poll_events = events;
    }
}

static void poll_close_cb(uv_handle_t *h)
{
    free(h);
}

static void drop_poll(conn *c)
{
    if (c->poll) {
        uv_close((uv_handle_t *)c->poll, poll_close_cb);
        c->poll = NULL;
        c->poll_events = 0;
    }
}

static void worker_maybe_finish(worker *w);

static void conn_close(conn *c)
{
    worker *w = c->w;
    if (c->st == C_CLOSED)
        return;
    if (c->st == C_IDLE)
        for (int i = 0; i < w->nidle; i++)
            if (w->idle[i] == c) {
                w->idle[i] = w->idle[--w->nidle];
                break;
            }
    c->st = C_CLOSED;
    uv_timer_stop(&c->timer);
    drop_poll(c);
    pthread_mutex_lock(&w->lock);
    {
        stats *s = iv_at(w, now_ns());
        flush_queries(c, s);
        if (!s && c->in_trx)
            w->after_end.abandoned++;   /* no answer will come */
    }
    outage_end_locked(c, now_ns());
    pthread_mutex_unlock(&w->lock);
    db_free(&c->db);
    if (c->wls && !w->e->terminals)
        w->e->wl->conn_free(c->wls);
    c->wls = NULL;
    c->term = NULL;
    w->open_conns--;
    worker_maybe_finish(w);
}

static void on_poll(uv_poll_t *p, int status, int events)
{
    conn *c = p->data;
    int ev = 0;
    if (status < 0)
        ev = DB_WAIT_READ | DB_WAIT_WRITE;
    if (events & UV_READABLE)
        ev |= DB_WAIT_READ;
    if (events & UV_WRITABLE)
        ev |= DB_WAIT_WRITE;
    uv_timer_stop(&c->timer);
    handle(c, db_cont(&c->db, ev));
}

static void on_db_timeout(uv_timer_t *t)
{
    conn *c = t->data;
    poll_set(c, 0);
    handle(c, db_cont(&c->db, DB_WAIT_TIMEOUT));
}

static void arm(conn *c)
{
    int fd = db_fd(&c->db), ev = 0;

    if (c->poll && c->poll_fd != fd)
        drop_poll(c);
    if (!c->poll) {
        c->poll = malloc(sizeof(*c->poll));
        if (!c->poll || uv_poll_init(&c->w->loop, c->poll, fd) < 0) {
            free(c->poll);
            c->poll = NULL;
            engine_fatal(c->w->e, "oltp: cannot watch socket %d of a connection\n", fd);
            conn_close(c);
            return;
        }
        c->poll->data = c;
        c->poll_fd = fd;
        c->poll_events = 0;
    }
    if (c->db.wait & DB_WAIT_READ)
        ev |= UV_READABLE;
    if (c->db.wait & DB_WAIT_WRITE)
        ev |= UV_WRITABLE;
    poll_set(c, ev);
    if (c->db.wait & DB_WAIT_TIMEOUT)
        uv_timer_start(&c->timer, on_db_timeout, (uint64_t)c->db.timeout_ms, 0);
}

static void record_trx(conn *c, bool rolled_back)
{
    worker *w = c->w;
    uint64_t end = now_ns();
    int64_t lat = (int64_t)((end - c->intended) / 1000);
    stats *s;

    c->trx_done++;
    c->busy_ns += end - c->started;
    pthread_mutex_lock(&w->lock);
    s = iv_at(w, end);
    flush_queries(c, s);
    if (!s) {                   /* ended after the end: not measured */
        /* but counted apart, as the server's counters have it */
        if (rolled_back)
            w->after_end.rolled_back++;
        else
            w->after_end.committed++;
        if (!rolled_back && w->e->wl->server_count && c->type == w->e->wl->tpm_type)
            w->late_tpm++;
        pthread_mutex_unlock(&w->lock);
        return;
    }
    s->trx++;
    hist_record(s->lat, lat);
    if (w->e->o->rate > 0 || w->e->terminals)
        hist_record(s->queue, (int64_t)((c->started - c->intended) / 1000));
    if (rolled_back)
        s->rollbacks++;
    if (s->ntypes > 1) {
        s->type_trx[c->type]++;
        hist_record(s->type_lat[c->type], lat);
        if (rolled_back)
            s->type_rollbacks[c->type]++;
    }
    pthread_mutex_unlock(&w->lock);
}

static void term_wait(term *t);

/* Roll back the transaction in progress to run it again (a retryable
 * error, or a conflict the workload found), counting the retry. */
static int rollback_for_retry(conn *c)
{
    worker *w = c->w;
    stats *s;
    pthread_mutex_lock(&w->lock);
    if ((s = iv_at(w, now_ns()))) {
        s->errors++;
        if (s->ntypes > 1)
            s->type_retries[c->type]++;
    } else {
        w->after_end.errors++;
    }
    pthread_mutex_unlock(&w->lock);
    c->st = C_ROLLBACK;
    c->kind = DB_Q_OTHER;
    return db_trx_start(&c->db, DB_TRX_ROLLBACK);
}

/* Ask the workload for its next statement and start it. */
static int advance(conn *c)
{
    engine *e = c->w->e;
    wl_step s;

    c->act.queue = false;
    s = e->wl->step(c->wls, &c->db, &c->act);
    switch (s) {
    case WL_STMT:
        if (c->act.stmt >= 0) {
            c->kind = e->run->stmts[c->act.stmt].kind;
            /* --pipeline=on: queued at once (DB_DONE), answered with the
             * next statement that waits */
            if (c->act.queue && e->o->db.pipeline)
                return db_exec_queue(&c->db, c->act.stmt, c->act.params);
            return db_exec_start(&c->db, c->act.stmt, c->act.params);
        }
        c->kind = c->act.kind;
        return db_query_start(&c->db, c->act.sql);
    case WL_END:
    case WL_END_ROLLBACK:
        c->in_trx = false;
        record_trx(c, s == WL_END_ROLLBACK);
        if (c->term) {
            /* the terminal goes back to keying/thinking, the connection
             * to the next ready terminal */
            term *t = c->term;
            c->term = NULL;
            c->wls = NULL;
            term_wait(t);
        }
        return begin_next(c);
    case WL_RETRY:
        if (e->o->verbose)
            fprintf(stderr, "oltp: retrying a transaction after a conflict\n");
        return rollback_for_retry(c);
    case WL_FAIL:
        engine_fatal(e, "oltp: %s\n", c->act.err);
        conn_close(c);
        return NO_OP;
    }
    return NO_OP;
}

static int start_trx(conn *c, uint64_t intended)
{
    c->intended = intended;
    c->started = now_ns();
    c->type = c->w->e->wl->trx_begin(c->wls);
    c->in_trx = true;
    c->st = C_RUNNING;
    return advance(c);
}

static bool take_event(engine *e)
{
    if (e->o->events <= 0)
        return true;
    if (__atomic_add_fetch(&e->events_started, 1, __ATOMIC_RELAXED) <= e->o->events)
        return true;
    /* Every event has started: connections with nothing to do close, but a
     * started transaction still finishes, retries included (unlike the
     * end of --time, which stops everything). */
    if (!__atomic_exchange_n(&e->events_done, 1, __ATOMIC_ACQ_REL))
        for (int i = 0; i < e->nworkers; i++)
            uv_async_send(&e->workers[i].wake);
    return false;
}

/* Dispatch ready terminals to idle connections. */
static void dispatch_terminals(worker *w)
{
    while (w->rlen > 0 && w->nidle > 0) {
        conn *c = w->idle[--w->nidle];
        handle(c, begin_next(c));
    }
}

static void term_ready(term *t)
{
    worker *w = t->w;
    if (__atomic_load_n(&w->e->stop, __ATOMIC_ACQUIRE))
        return;
    w->ready[(w->rhead + w->rlen) % w->nterms] = t;
    w->rlen++;
    dispatch_terminals(w);
}

/* The loop's timers count from its cached clock, which lags: a timer can
 * fire before the terminal's intended start. Wait out the rest then. */
static void on_term_timer(uv_timer_t *h)
{
    term *t = h->data;
    uint64_t n = now_ns();
    if (t->ready > n + 1000000)
        uv_timer_start(&t->timer, on_term_timer, (t->ready - n) / 1000000, 0);
    else {
        if (t->ready > n)
            t->ready = n;
        term_ready(t);
    }
}

/* A terminal between transactions: its keying and think time, then it
 * queues for a connection. Its intended start is the end of the pause as
 * scheduled, so a late timer or a wait for a connection is latency. */
static void term_wait(term *t)
{
    engine *e = t->w->e;
    double pause = e->wl->pause_before ? e->wl->pause_before(t->wls) : 0;
    uint64_t ns = pause > 0 ? (uint64_t)(pause * 1e9) : 0;

    t->ready = now_ns() + ns;
    if (ns == 0)
        term_ready(t);
    else if (!__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE))
        uv_timer_start(&t->timer, on_term_timer, (ns + 999999) / 1000000, 0);
}

/* Park a connection until work arrives (a --rate arrival, a terminal). */
static int conn_idle(conn *c)
{
    if (__atomic_load_n(&c->w->e->events_done, __ATOMIC_ACQUIRE)) {
        conn_close(c);          /* no work will come */
        return NO_OP;
    }
    poll_set(c, 0);
    c->st = C_IDLE;
    c->w->idle[c->w->nidle++] = c;
    return NO_OP;
}

/* With terminals: run the next ready terminal's transaction, or idle. */
static int take_terminal(conn *c)
{
    worker *w = c->w;
    term *t;

    if (w->rlen == 0) {
        return conn_idle(c);
    }
    t = w->ready[w->rhead];
    w->rhead = (w->rhead + 1) % w->nterms;
    w->rlen--;
    if (!take_event(w->e)) {
        conn_close(c);
        return NO_OP;
    }
    c->term = t;
    c->wls = t->wls;
    return start_trx(c, t->ready);
}

/* Between transactions: stop, wait (think time, --rate) or start the next. */
static int begin_next(conn *c)
{
    worker *w = c->w;
    engine *e = w->e;

    if (__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE)) {
        conn_close(c);
        return NO_OP;
    }
    if (e->terminals)
        return take_terminal(c);
    if (e->o->rate > 0) {
        uint64_t intended;
        if (w->qlen == 0) {
            return conn_idle(c);
        }
        intended = w->q[w->qhead];
        w->qhead = (w->qhead + 1) % w->qcap;
        __atomic_store_n(&w->qlen, w->qlen - 1, __ATOMIC_RELAXED);
        if (!take_event(e)) {
            conn_close(c);
            return NO_OP;
        }
        return start_trx(c, intended);
    }
    if (!take_event(e)) {
        conn_close(c);
        return NO_OP;
    }
    return start_trx(c, now_ns());
}

static void on_reconnect_timer(uv_timer_t *t)
{
    conn_connect(t->data);
}

static void on_error(conn *c)
{
    worker *w = c->w;
    engine *e = w->e;
    db_error *err = &c->db.err;

    /* The setup session logged in before the run: a first connect that
     * fails now (too many connections, a server still opening the
     * database, a dropped handshake) is retried like a lost connection,
     * within --reconnect-timeout. A refused login cannot heal. */
    if (c->st == C_CONNECTING && !c->ever_connected && db_error_is_login(err)) {
        engine_fatal(e, "oltp: cannot connect: error %d: %s\n", err->code, err->msg);
        conn_close(c);
        return;
    }
    if (err->cls == DB_ERR_RETRY && c->st == C_RUNNING) {
        if (e->o->verbose)
            fprintf(stderr, "oltp: retrying after error %d: %s\n", err->code, err->msg);
        handle(c, rollback_for_retry(c));
        return;
    }
    if (err->cls == DB_ERR_RECONNECT || err->cls == DB_ERR_RETRY) {
        /* lost connection (or a failed ROLLBACK): reconnect with backoff */
        if (e->o->verbose)
            fprintf(stderr, "oltp: reconnecting after error %d: %s\n", err->code, err->msg);
        outage_begin(c, err);
        pthread_mutex_lock(&w->lock);
        {
            stats *s = iv_at(w, now_ns());
            if (s) {
                s->reconnects++;
                if (c->st == C_RUNNING)
                    s->errors++;    /* the transaction in flight broke; it runs again */
            }
        }
        pthread_mutex_unlock(&w->lock);
        drop_poll(c);
        db_disconnect(&c->db);
        c->st = C_BACKOFF;
        c->backoff_ms = c->backoff_ms ? (c->backoff_ms * 2 > 2000 ? 2000 : c->backoff_ms * 2) : 100;
        uv_timer_start(&c->timer, on_reconnect_timer, (uint64_t)c->backoff_ms, 0);
        return;
    }
    /* a full disk is the drive's doing, not the workload's: main says so
     * with its own exit status */
    if (db_error_is_disk_full(err))
        __atomic_store_n(&e->disk_full, 1, __ATOMIC_RELEASE);
    if (c->st == C_RUNNING)
        engine_fatal(e, "oltp: error %d (SQLSTATE %s) in `%s`: %s\n", err->code, err->sqlstate,
                     c->act.stmt >= 0 ? e->run->stmts[c->act.stmt].sql : c->act.sql, err->msg);
    else
        engine_fatal(e, "oltp: error %d (SQLSTATE %s): %s\n", err->code, err->sqlstate, err->msg);
    conn_close(c);
}

/* Drive the connection from the status of the operation just started or
 * continued, until it has to wait for the socket. */
static void handle(conn *c, int r)
{
    for (;;) {
        if (r == NO_OP || c->st == C_CLOSED)
            return;
        if (r == DB_WAIT) {
            arm(c);
            return;
        }
        if (r == DB_ERROR) {
            on_error(c);
            return;
        }
        switch (c->st) {
        case C_CONNECTING:
            c->ever_connected = true;
            c->backoff_ms = 0;
            if (c->down_since) {
                pthread_mutex_lock(&c->w->lock);
                outage_end_locked(c, now_ns());
                pthread_mutex_unlock(&c->w->lock);
            }
            /* a transaction cut by a lost connection starts again, keeping
             * its intended start so the outage shows in its latency */
            r = c->in_trx ? start_trx(c, c->intended) : begin_next(c);
            break;
        case C_RUNNING:
            c->q[c->kind]++;
            r = advance(c);
            break;
        case C_ROLLBACK:
            c->q[DB_Q_OTHER]++;
            c->in_trx = false;
            /* after the end of the run a failed transaction is not retried */
            r = __atomic_load_n(&c->w->e->stop, __ATOMIC_ACQUIRE) ? begin_next(c)
                                                                   : start_trx(c, c->intended);
            break;
        default:
            return;
        }
    }
}

static void conn_connect(conn *c)
{
    c->st = C_CONNECTING;
    handle(c, db_connect_start(&c->db));
}

/* --- worker --------------------------------------------------------------- */

static void worker_close_handles(worker *w)
{
    if (w->closing)
        return;
    w->closing = true;
    uv_close((uv_handle_t *)&w->wake, NULL);
    uv_close((uv_handle_t *)&w->rate_timer, NULL);
    uv_close((uv_handle_t *)&w->grace_timer, NULL);
    for (int i = 0; i < w->nconns; i++)
        uv_close((uv_handle_t *)&w->conns[i].timer, NULL);
    for (int i = 0; i < w->nterms; i++)
        uv_close((uv_handle_t *)&w->terms[i].timer, NULL);
}

static void worker_maybe_finish(worker *w)
{
    if (w->open_conns == 0)
        worker_close_handles(w);
}

static void on_grace(uv_timer_t *t)
{
    worker *w = t->data;
    /* transactions still in flight after the grace period are abandoned */
    for (int i = 0; i < w->nconns; i++)
        conn_close(&w->conns[i]);
}

static void on_wake(uv_async_t *a)
{
    worker *w = a->data;
    if (!__atomic_load_n(&w->e->stop, __ATOMIC_ACQUIRE)) {
        if (__atomic_load_n(&w->e->events_done, __ATOMIC_ACQUIRE))
            for (int i = 0; i < w->nconns; i++)
                if (w->conns[i].st == C_IDLE)
                    conn_close(&w->conns[i]);
        return;
    }
    uv_timer_stop(&w->rate_timer);
    for (int i = 0; i < w->nterms; i++)
        uv_timer_stop(&w->terms[i].timer);
    for (int i = 0; i < w->nconns; i++) {
        conn *c = &w->conns[i];
        if (c->st == C_IDLE || c->st == C_BACKOFF)
            conn_close(c);
    }
    if (w->open_conns > 0 && !uv_is_active((uv_handle_t *)&w->grace_timer))
        uv_timer_start(&w->grace_timer, on_grace,
                       (uint64_t)__atomic_load_n(&w->e->grace_ms, __ATOMIC_ACQUIRE), 0);
}

static void schedule_arrivals(worker *w);

static void on_rate_timer(uv_timer_t *t)
{
    schedule_arrivals(t->data);
}

/* Queue every arrival due by now, hand them to idle connections, and set
 * the timer for the next one. */
static void schedule_arrivals(worker *w)
{
    uint64_t now = now_ns();

    while (w->next_arrival <= now) {
        if (w->qlen == w->qcap) {
            size_t ncap = w->qcap * 2;
            uint64_t *nq = malloc(ncap * sizeof(*nq));
            if (!nq)
                break;
            for (size_t i = 0; i < w->qlen; i++)
                nq[i] = w->q[(w->qhead + i) % w->qcap];
            free(w->q);
            w->q = nq;
            w->qhead = 0;
            w->qcap = ncap;
        }
        w->q[(w->qhead + w->qlen) % w->qcap] = w->next_arrival;
        __atomic_store_n(&w->qlen, w->qlen + 1, __ATOMIC_RELAXED);
        w->next_arrival += (uint64_t)rand_exp(&w->rng, w->gap_ns);
    }
    while (w->qlen > 0 && w->nidle > 0) {
        conn *c = w->idle[--w->nidle];
        handle(c, begin_next(c));
    }
    if (!__atomic_load_n(&w->e->stop, __ATOMIC_ACQUIRE)) {
        uint64_t wait_ms = (w->next_arrival - now + 999999) / 1000000;
        uv_timer_start(&w->rate_timer, on_rate_timer, wait_ms, 0);
    }
}

static void worker_main(void *arg)
{
    worker *w = arg;
    engine *e = w->e;

    for (int i = 0; i < w->nconns; i++)
        conn_connect(&w->conns[i]);
    for (int i = 0; i < w->nterms; i++)
        term_wait(&w->terms[i]);
    if (e->o->rate > 0) {
        w->next_arrival = now_ns() + (uint64_t)rand_exp(&w->rng, w->gap_ns);
        schedule_arrivals(w);
    }
    uv_run(&w->loop, UV_RUN_DEFAULT);
    __atomic_add_fetch(&e->workers_done, 1, __ATOMIC_RELEASE);
}

static int worker_init(engine *e, worker *w, int id, int first_conn, int nconns,
                       int first_term, int nterms)
{
    const oltp_opts *o = e->o;

    w->e = e;
    w->id = id;
    w->nconns = w->open_conns = nconns;
    if (uv_loop_init(&w->loop) < 0)
        return -1;
    pthread_mutex_init(&w->lock, NULL);
    if (stats_init(&w->iv, e->ntypes) < 0 || stats_init(&w->done, e->ntypes) < 0)
        return -1;
    rng_seed(&w->rng, o->seed, (uint64_t)id);
    uv_async_init(&w->loop, &w->wake, on_wake);
    w->wake.data = w;
    uv_timer_init(&w->loop, &w->rate_timer);
    w->rate_timer.data = w;
    uv_timer_init(&w->loop, &w->grace_timer);
    w->grace_timer.data = w;
    w->conns = calloc((size_t)nconns, sizeof(conn));
    w->idle = calloc((size_t)nconns, sizeof(conn *));
    w->qcap = 1024;
    w->q = malloc(w->qcap * sizeof(*w->q));
    if (!w->conns || !w->idle || !w->q)
        return -1;
    if (o->rate > 0)
        w->gap_ns = 1e9 * e->nworkers / o->rate;
    for (int i = 0; i < nconns; i++) {
        conn *c = &w->conns[i];
        c->w = w;
        c->id = first_conn + i;
        uv_timer_init(&w->loop, &c->timer);
        c->timer.data = c;
        if (db_init(&c->db, e->drv, &o->db, e->run->stmts, e->run->nstmts) < 0)
            return -1;
        if (e->terminals)
            continue;
        c->wls = e->wl->conn_new(e->run, c->id, &w->rng);
        if (!c->wls)
            return -1;
    }
    w->terms = calloc((size_t)nterms, sizeof(term));
    w->ready = calloc((size_t)nterms, sizeof(term *));
    if (nterms && (!w->terms || !w->ready))
        return -1;
    for (int i = 0; i < nterms; i++) {
        term *t = &w->terms[i];
        t->w = w;
        uv_timer_init(&w->loop, &t->timer);
        t->timer.data = t;
        w->nterms++;
        if (!(t->wls = e->wl->conn_new(e->run, first_term + i, &w->rng)))
            return -1;
    }
    return 0;
}

static void worker_free(worker *w)
{
    if (!w->conns)
        return;
    uv_loop_close(&w->loop);
    pthread_mutex_destroy(&w->lock);
    stats_free(&w->iv);
    stats_free(&w->done);
    for (int i = 0; i < w->nterms; i++)
        if (w->terms[i].wls)
            w->e->wl->conn_free(w->terms[i].wls);
    free(w->terms);
    free(w->ready);
    free(w->conns);
    free(w->idle);
    free(w->q);
}

/* --- main thread: time keeping and harvesting ------------------------------ */

/* Move what the workers counted before boundary b (slot k's start) into
 * `into`; all: everything they counted (the run is over, b its cut).
 * Ongoing outages count up to b. *queue_len: arrivals waiting now. */
static void harvest(engine *e, uint64_t k, uint64_t b, bool all, stats *into,
                    int64_t *queue_len)
{
    int64_t ql = 0;
    for (int i = 0; i < e->nworkers; i++) {
        worker *w = &e->workers[i];
        pthread_mutex_lock(&w->lock);
        for (int c = 0; c < w->nconns; c++) {
            conn *x = &w->conns[c];
            if (x->down_since && b > x->down_counted) {
                /* into the closing interval directly: it ends at b */
                into->down_ns += (int64_t)(b - x->down_counted);
                x->down_counted = b;
            }
        }
        stats_add(into, &w->done);
        stats_reset(&w->done);
        if (all || w->slot < k) {
            stats_add(into, &w->iv);
            stats_reset(&w->iv);
        }
        pthread_mutex_unlock(&w->lock);
        ql += (int64_t)__atomic_load_n(&w->qlen, __ATOMIC_RELAXED);
    }
    if (queue_len)
        *queue_len = ql;
}

/* After the workers ended: the arrivals still queued before the cut get
 * their latency so far (cut - arrival) in acc, counted in p->unserved. */
static void record_unserved(engine *e, phase_result *p, stats *acc, uint64_t cut)
{
    for (int i = 0; i < e->nworkers; i++) {
        worker *w = &e->workers[i];
        for (size_t j = 0; j < w->qlen; j++) {
            uint64_t arrival = w->q[(w->qhead + j) % w->qcap];
            if (arrival >= cut)
                continue;
            hist_record(acc->lat, (int64_t)((cut - arrival) / 1000));
            hist_record(acc->queue, (int64_t)((cut - arrival) / 1000));
            p->unserved++;
        }
    }
}

static int add_sample(phase_result *p, const interval_sample *s)
{
    if (p->niv == p->cap) {
        int ncap = p->cap ? p->cap * 2 : 64;
        interval_sample *n = realloc(p->iv, (size_t)ncap * sizeof(*n));
        if (!n)
            return -1;
        p->iv = n;
        p->cap = ncap;
    }
    p->iv[p->niv++] = *s;
    return 0;
}

/* Close the interval [from, to] of phase p (harvested into acc): fold it
 * into the phase, record a sample and tell the caller (hooks.on_interval).
 * An empty span only folds. */
static void close_interval(engine *e, phase_result *p, stats *acc, int64_t ql, uint64_t from,
                           uint64_t to)
{
    interval_sample s = {0};

    if (to > from) {
        s.t = (to - p->t0_ns) / 1e9;
        s.duration_s = (to - from) / 1e9;
        s.trx = acc->trx;
        s.queries = acc->reads + acc->writes + acc->others;
        s.errors = acc->errors;
        s.reconnects = acc->reconnects;
        s.lat_avg_ms = hist_mean(acc->lat) / 1000.0;
        s.lat_pct_ms = (double)hist_percentile(acc->lat, e->o->percentiles[0]) / 1000.0;
        s.lat = hist_sparse_of(acc->lat, RES_IV_HIST_DIGITS);
        s.queue_len = ql;
        if (add_sample(p, &s) < 0)
            hist_sparse_free(s.lat);
        if (e->hooks.on_interval)
            e->hooks.on_interval(e->hooks.ctx, acc, &s, (to - e->t0) / 1e9);
    }
    stats_add(&p->st, acc);
    stats_reset(acc);
}

/* Harvest up to boundary b (slot k) and close [from, b] of phase p. */
static void close_to(engine *e, phase_result *p, stats *acc, uint64_t k, uint64_t from,
                     uint64_t b)
{
    int64_t ql = 0;
    harvest(e, k, b, false, acc, &ql);
    close_interval(e, p, acc, ql, from, b);
}

/* CPU seconds (user + system, all threads) this process used so far. */
static double process_cpu_s(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return NAN;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec
           + ru.ru_stime.tv_usec / 1e6;
}

/* The phase p ends at n after dur seconds: its duration, outages and the
 * CPU it cost this process. The last interval must be closed first. */
static void close_phase(engine *e, phase_result *p, int nconns, uint64_t n, double dur)
{
    double cpu = process_cpu_s();
    p->cpu_s = cpu - e->cpu_at_phase;
    e->cpu_at_phase = cpu;
    p->duration_s = dur;
    p->nconns = nconns;
    p->unavailable_s = nconns ? (double)p->st.down_ns / 1e9 / nconns : 0;
    p->longest_outage_s = calloc((size_t)(nconns ? nconns : 1), sizeof(double));
    for (int i = 0; i < e->nworkers; i++) {
        worker *w = &e->workers[i];
        pthread_mutex_lock(&w->lock);
        for (int k = 0; k < w->nconns; k++) {
            conn *c = &w->conns[k];
            uint64_t l = c->longest_down_ns;
            if (c->down_since && c->down_since < n && n - c->down_since > l)
                l = n - c->down_since;      /* still down: so far */
            if (p->longest_outage_s)
                p->longest_outage_s[c->id] = l / 1e9;
            c->longest_down_ns = 0;
        }
        pthread_mutex_unlock(&w->lock);
    }
}

/* 1 when a connection has been lost for longer than --reconnect-timeout
 * at n; e->unavailable_msg says which and why. Main thread. */
static int outage_exceeded(engine *e, uint64_t n)
{
    uint64_t bound = (uint64_t)(e->o->reconnect_timeout_s * 1e9);
    if (e->o->reconnect_timeout_s <= 0)
        return 0;
    for (int i = 0; i < e->nworkers; i++) {
        worker *w = &e->workers[i];
        for (int k = 0; k < w->nconns; k++) {
            conn *c = &w->conns[k];
            uint64_t since = __atomic_load_n(&c->down_since, __ATOMIC_ACQUIRE);
            if (!since || n < since || n - since <= bound)
                continue;
            pthread_mutex_lock(&w->lock);
            snprintf(e->unavailable_msg, sizeof e->unavailable_msg,
                     "oltp: connection %d has been lost for %.1f s (%s), longer than "
                     "--reconnect-timeout=%g: ending the run with what was measured\n",
                     c->id, (n - since) / 1e9, c->down_why, e->o->reconnect_timeout_s);
            pthread_mutex_unlock(&w->lock);
            e->unavailable = 1;
            return 1;
        }
    }
    return 0;
}

static void sleep_until(uint64_t t)
{
    uint64_t n = now_ns();
    if (t > n)
        nap_ns(t - n);
}

static bool all_done(engine *e)
{
    return __atomic_load_n(&e->workers_done, __ATOMIC_ACQUIRE) == e->nworkers;
}

/* Grace for transactions in flight after a stop: the usual, and after
 * hooks.stop_requested (a SIGTERM, which drivebench follows with SIGKILL
 * 10 s later: the result must be written well before). */
#define GRACE_MS        10000
#define GRACE_ASKED_MS  500

/* true once hooks.stop_requested said so (e->stopped). Main thread. */
static bool stop_asked(engine *e)
{
    if (!e->stopped && e->hooks.stop_requested && e->hooks.stop_requested(e->hooks.ctx)) {
        e->stopped = 1;
        __atomic_store_n(&e->grace_ms, GRACE_ASKED_MS, __ATOMIC_RELEASE);
    }
    return e->stopped;
}

/* msg ("oltp: ...\n") into res->why without its prefix and newline. */
static void keep_why(run_result *res, const char *msg)
{
    size_t n;
    if (strncmp(msg, "oltp: ", 6) == 0)
        msg += 6;
    n = strcspn(msg, "\n");
    snprintf(res->why, sizeof res->why, "%.*s", (int)n, msg);
}

int engine_run(const wl_run *run, const workload *wl, const struct db_driver *drv,
               const engine_hooks *hooks, run_result *res)
{
    const oltp_opts *o = run->o;
    engine e = { .run = run, .wl = wl, .drv = drv, .o = o, .grace_ms = GRACE_MS };
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nconns = o->threads, nterms = 0, rc = -1, started = 0;
    stats acc = {0};
    double tick_s = o->report_interval > 0 ? o->report_interval : 1.0;
    bool ended = false, read_end = false;
    int ph = 0, fatal;

    memset(res, 0, sizeof(*res));
    if (hooks)
        e.hooks = *hooks;
    e.ntypes = wl->ntypes > 1 ? wl->ntypes : 1;
    pthread_mutex_init(&e.err_lock, NULL);
    if (wl->terminals && (nterms = wl->terminals(run)) > 0) {
        /* terminals share --connections (else --threads); more
         * connections than terminals would never be used */
        e.terminals = true;
        nconns = o->connections > 0 ? o->connections : o->threads;
        if (nconns > nterms)
            nconns = nterms;
    }
    /* One loop drives hundreds of connections; a second thread only pays
     * when one core is not enough, and costs context switches (measured:
     * 16 connections on 2 cores used 20 % more client CPU per transaction
     * with 2 loops than with 1). Default: one loop per 256 connections. */
    e.nworkers = o->event_threads > 0 ? o->event_threads : 1 + (nconns - 1) / 256;
    if (o->event_threads <= 0 && e.nworkers > ncpu && ncpu > 0)
        e.nworkers = (int)ncpu;
    if (e.nworkers > nconns)
        e.nworkers = nconns;
    e.workers = calloc((size_t)e.nworkers, sizeof(worker));
    if (!e.workers || stats_init(&acc, e.ntypes) < 0)
        goto out;
    for (int i = 0, first = 0, first_term = 0; i < e.nworkers; i++) {
        int n = nconns / e.nworkers + (i < nconns % e.nworkers);
        int nt = nterms / e.nworkers + (i < nterms % e.nworkers);
        if (worker_init(&e, &e.workers[i], i, first, n, first_term, nt) < 0) {
            fprintf(stderr, "oltp: out of memory setting up %d connections\n", nconns);
            goto out;
        }
        first += n;
        first_term += nt;
    }
    res->nphases = o->warmup_s > 0 ? 2 : 1;
    res->phases[0].phase = o->warmup_s > 0 ? RES_PHASE_WARMUP : RES_PHASE_MEASURE;
    res->phases[1].phase = RES_PHASE_MEASURE;
    for (int i = 0; i < res->nphases; i++)
        if (stats_init(&res->phases[i].st, e.ntypes) < 0)
            goto out;

    if (o->warmup_s <= 0 && e.hooks.on_measure)
        e.hooks.on_measure(e.hooks.ctx, false);
    /* the phase clock, fixed before any worker counts */
    e.t0 = now_ns();
    e.tick = (uint64_t)(tick_s * 1e9);
    e.m0 = o->warmup_s > 0 ? e.t0 + (uint64_t)(o->warmup_s * 1e9) : e.t0;
    e.nwarm = o->warmup_s > 0 ? (e.m0 - e.t0 + e.tick - 1) / e.tick : 0;
    e.end_ns = o->time_s > 0 ? e.t0 + (uint64_t)(o->time_s * 1e9) : UINT64_MAX;
    e.cut_ns = e.end_ns;
    for (int i = 0; i < res->nphases; i++) {
        res->phases[i].t0_ns = res->phases[i].phase == RES_PHASE_WARMUP ? e.t0 : e.m0;
        res->phases[i].interval_s = tick_s;
    }
    for (int i = 0; i < e.nworkers; i++) {
        if (uv_thread_create(&e.workers[i].thread, worker_main, &e.workers[i]) < 0) {
            engine_fatal(&e, "oltp: cannot start worker thread %d\n", i);
            break;
        }
        started++;
    }
    if (started < e.nworkers)
        e.nworkers = started;       /* only join what runs */

    {
        uint64_t k_open = 0, from = e.t0, n, cut = e.end_ns;
        e.cpu_at_phase = process_cpu_s();
        for (;;) {
            uint64_t wake_at = slot_start(&e, k_open + 1), k;
            if (e.end_ns < wake_at)
                wake_at = e.end_ns;
            /* check for workers finishing (events limit, fatal) often */
            while ((n = now_ns()) < wake_at && !all_done(&e) &&
                   !__atomic_load_n(&e.fatal, __ATOMIC_ACQUIRE) && !outage_exceeded(&e, n)
                   && !stop_asked(&e))
                sleep_until(n + 50000000ULL < wake_at ? n + 50000000ULL : wake_at);
            n = now_ns();
            fatal = __atomic_load_n(&e.fatal, __ATOMIC_ACQUIRE);
            /* a fatal error, a stop request too close what was measured
             * up to them: nothing after now counts */
            if (fatal || all_done(&e) || n >= e.end_ns || e.unavailable || e.stopped) {
                cut = n < e.end_ns ? n : e.end_ns;
                __atomic_store_n(&e.cut_ns, cut, __ATOMIC_RELAXED);
                if (n >= e.end_ns || e.unavailable || e.stopped)
                    __atomic_store_n(&e.stop, 1, __ATOMIC_RELEASE);
                if (ph == 0 && e.nwarm && cut > e.m0) {
                    /* one stall past the warm-up's end and the run's */
                    close_to(&e, &res->phases[0], &acc, e.nwarm, from, e.m0);
                    close_phase(&e, &res->phases[0], nconns, e.m0, (e.m0 - e.t0) / 1e9);
                    ph = 1;
                    from = e.m0;
                    if (e.hooks.on_measure)
                        e.hooks.on_measure(e.hooks.ctx, false);
                }
                /* the server's count closes only a measure phase it opened,
                 * once the workers ended (below): what commits between the
                 * cut and their end is counted apart (late_tpm), so that
                 * neither a late wake-up of this thread nor a transaction in
                 * flight at the stop can come between the two counts */
                read_end = !fatal && e.hooks.on_measure && ph == res->nphases - 1;
                ended = true;
                break;
            }
            k = slot_of(&e, n);
            if (k <= k_open)
                continue;           /* woke before the boundary */
            if (ph == 0 && e.nwarm && k >= e.nwarm) {
                /* the warm-up ends on its own boundary */
                close_to(&e, &res->phases[0], &acc, e.nwarm, from, e.m0);
                close_phase(&e, &res->phases[0], nconns, e.m0, (e.m0 - e.t0) / 1e9);
                ph = 1;
                if (e.hooks.on_measure)
                    e.hooks.on_measure(e.hooks.ctx, false);
                from = e.m0;
                k_open = e.nwarm;
                if (k == k_open)
                    continue;
            }
            /* a late tick closes up to the last boundary it reached */
            close_to(&e, &res->phases[ph], &acc, k, from, slot_start(&e, k));
            from = slot_start(&e, k);
            k_open = k;
        }
        __atomic_store_n(&e.stop, 1, __ATOMIC_RELEASE);
        for (int i = 0; i < e.nworkers; i++)
            uv_async_send(&e.workers[i].wake);
        for (int i = 0; i < e.nworkers; i++)
            uv_thread_join(&e.workers[i].thread);
        if (ended) {
            /* the last interval, with what finished before the cut */
            phase_result *p = &res->phases[ph];
            int64_t ql = 0;
            harvest(&e, 0, cut, true, &acc, &ql);
            if (o->rate > 0)
                record_unserved(&e, p, &acc, cut);
            close_interval(&e, p, &acc, ql, from, cut);
            close_phase(&e, p, nconns, cut, (cut - p->t0_ns) / 1e9);
            res->nphases = ph + 1;      /* a run ended early has no later phase */
            p->has_after_end = true;
            for (int i = 0; i < e.nworkers; i++) {
                const res_after_end *a = &e.workers[i].after_end;
                p->late_tpm += e.workers[i].late_tpm;
                p->after_end.committed += a->committed;
                p->after_end.rolled_back += a->rolled_back;
                p->after_end.errors += a->errors;
                p->after_end.abandoned += a->abandoned;
            }
            if (read_end)
                e.hooks.on_measure(e.hooks.ctx, true);
        }
    }
    res->stopped = e.stopped;
    if (e.fatal) {
        fprintf(stderr, "%s", e.fatal_msg);
        keep_why(res, e.fatal_msg);
        res->fatal = 1;
        res->disk_full = __atomic_load_n(&e.disk_full, __ATOMIC_ACQUIRE);
        goto out;
    }
    if (e.unavailable) {
        fprintf(stderr, "%s", e.unavailable_msg);
        keep_why(res, e.unavailable_msg);
        res->unavailable = 1;
    }
    res->nconns = nconns;
    res->conns = calloc((size_t)nconns, sizeof(conn_fairness));
    for (int i = 0; i < e.nworkers && res->conns; i++)
        for (int k = 0; k < e.workers[i].nconns; k++) {
            conn *c = &e.workers[i].conns[k];
            res->conns[c->id].trx = c->trx_done;
            res->conns[c->id].busy_s = c->busy_ns / 1e9;
        }
    rc = 0;
out:
    for (int i = 0; e.workers && i < e.nworkers; i++)
        worker_free(&e.workers[i]);
    free(e.workers);
    stats_free(&acc);
    pthread_mutex_destroy(&e.err_lock);
    return rc;
}

void run_result_free(run_result *res)
{
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < res->phases[i].niv; k++)
            hist_sparse_free(res->phases[i].iv[k].lat);
        stats_free(&res->phases[i].st);
        free(res->phases[i].iv);
        free(res->phases[i].longest_outage_s);
    }
    free(res->conns);
    memset(res, 0, sizeof(*res));
}
