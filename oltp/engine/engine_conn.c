/*
 * engine_conn.c — one connection as a state machine on its socket's
 * readiness, driven by its worker's libuv loop: connect, begin, the
 * workload's steps through the driver's non-blocking operations, commit,
 * retry and rollback, outages and reconnects with backoff, terminals'
 * keying and think times (engine_state.h); and the counters every event
 * goes into, by the slot of the phase clock its time falls in (engine.c's
 * top comment).
 */
#include "engine/engine_state.h"

#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

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

/* --- connection state machine ------------------------------------------ */

static void on_poll(uv_poll_t *p, int status, int events);

/* Stop the run for an error that retrying cannot cure; the first message
 * wins and is printed by the main thread. */
void engine_fatal(engine *e, const char *fmt, ...)
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
        close(c->poll_dup);     /* libuv: safe right after uv_close() */
        c->poll = NULL;
        c->poll_events = 0;
    }
}

static void worker_maybe_finish(worker *w);

void engine_conn_close(conn *c)
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
    engine_conn_handle(c, db_cont(&c->db, ev));
}

static void on_db_timeout(uv_timer_t *t)
{
    conn *c = t->data;
    poll_set(c, 0);
    engine_conn_handle(c, db_cont(&c->db, DB_WAIT_TIMEOUT));
}

/* 1 when descriptors a and b are the same open socket (or file). */
static int same_file(int a, int b)
{
    struct stat x, y;
    return fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_dev == y.st_dev
           && x.st_ino == y.st_ino;
}

/* Watch the driver's socket for what it waits on.
 *
 * The poll watches a duplicate of the driver's descriptor, never the
 * descriptor itself: a driver closes its socket inside db_cont() when a
 * connection is lost or a connect attempt fails (libmariadb's end_server,
 * libpq between attempts), before this loop can stop watching it, and
 * another worker's connect may get that number at once. libuv must not
 * watch a number that was closed (its uv_poll rule): epoll_ctl() on it
 * would reach the other worker's socket. The duplicate is this loop's
 * until drop_poll() closes it. While connecting, a driver may also close
 * and reopen its socket under the same number: then the files differ. */
static void arm(conn *c)
{
    int fd = db_fd(&c->db), ev = 0;

    if (c->poll && (c->poll_fd != fd || (c->st == C_CONNECTING && !same_file(fd, c->poll_dup))))
        drop_poll(c);
    if (!c->poll) {
        /* dup(), which ThreadSanitizer sees make the descriptor */
        int dup_fd = dup(fd);
        if (dup_fd >= 0)
            (void)fcntl(dup_fd, F_SETFD, FD_CLOEXEC);
        c->poll = dup_fd < 0 ? NULL : malloc(sizeof(*c->poll));
        if (!c->poll || uv_poll_init(&c->w->loop, c->poll, dup_fd) < 0) {
            free(c->poll);
            c->poll = NULL;
            if (dup_fd >= 0)
                close(dup_fd);
            engine_fatal(c->w->e, "oltp: cannot watch socket %d of a connection\n", fd);
            engine_conn_close(c);
            return;
        }
        c->poll->data = c;
        c->poll_fd = fd;
        c->poll_dup = dup_fd;
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

    /* read by the main thread for checkpoints (engine_hooks.snap) */
    __atomic_store_n(&c->trx_done, c->trx_done + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&c->busy_ns, c->busy_ns + (end - c->started), __ATOMIC_RELAXED);
    pthread_mutex_lock(&w->lock);
    s = iv_at(w, end);
    if (!s) {                   /* ended after the end: not in the phase */
        /* but counted apart, as the server's counters have it, and
         * into the tail the text report adds */
        if (rolled_back)
            w->after_end.rolled_back++;
        else
            w->after_end.committed++;
        if (!rolled_back && w->e->wl->server_count && c->type == w->e->wl->tpm_type)
            w->late_tpm++;
        s = &w->tail;
        if (end > w->tail_end)
            w->tail_end = end;
    }
    flush_queries(c, s);
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
        w->tail.errors++;
    }
    pthread_mutex_unlock(&w->lock);
    c->st = C_ROLLBACK;
    c->kind = DB_Q_OTHER;
    return db_trx_start(&c->db, DB_TRX_ROLLBACK);
}

/* The kind a statement that just ended counts as, by sysbench's rule:
 * a write that changed no row (an UPDATE or DELETE of a missing id)
 * counts as "other". A statement queued in a pipeline has no answer of
 * its own yet: it counts as its kind. */
static db_qkind answered_kind(const conn *c)
{
    if (c->kind == DB_Q_WRITE && !c->queued && db_affected_rows(&c->db) == 0)
        return DB_Q_OTHER;
    return c->kind;
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
            c->queued = c->act.queue && e->o->db.pipeline;
            if (c->queued)
                return db_exec_queue(&c->db, c->act.stmt, c->act.params);
            return db_exec_start(&c->db, c->act.stmt, c->act.params);
        }
        c->kind = c->act.kind;
        c->queued = false;
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
            engine_term_wait(t);
        }
        return engine_conn_begin_next(c);
    case WL_RETRY:
        if (e->o->verbose)
            fprintf(stderr, "oltp: retrying a transaction after a conflict\n");
        return rollback_for_retry(c);
    case WL_FAIL:
        engine_fatal(e, "oltp: %s\n", c->act.err);
        engine_conn_close(c);
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
        engine_conn_handle(c, engine_conn_begin_next(c));
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
void engine_term_wait(term *t)
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
        engine_conn_close(c);          /* no work will come */
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
        engine_conn_close(c);
        return NO_OP;
    }
    c->term = t;
    c->wls = t->wls;
    return start_trx(c, t->ready);
}

/* Between transactions: stop, wait (think time, --rate) or start the next. */
int engine_conn_begin_next(conn *c)
{
    worker *w = c->w;
    engine *e = w->e;

    /* past the cut nothing new starts, even before the main thread,
     * waking a little late, says stop */
    if (__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE)
        || now_ns() >= __atomic_load_n(&e->cut_ns, __ATOMIC_RELAXED)) {
        engine_conn_close(c);
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
            engine_conn_close(c);
            return NO_OP;
        }
        return start_trx(c, intended);
    }
    if (!take_event(e)) {
        engine_conn_close(c);
        return NO_OP;
    }
    return start_trx(c, now_ns());
}

static void on_reconnect_timer(uv_timer_t *t)
{
    engine_conn_connect(t->data);
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
        engine_conn_close(c);
        return;
    }
    if (err->cls == DB_ERR_RETRY && c->st == C_RUNNING) {
        if (e->o->verbose)
            fprintf(stderr, "oltp: retrying after error %d: %s\n", err->code, err->msg);
        engine_conn_handle(c, rollback_for_retry(c));
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
    engine_conn_close(c);
}

/* Drive the connection from the status of the operation just started or
 * continued, until it has to wait for the socket. */
void engine_conn_handle(conn *c, int r)
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
            r = c->in_trx ? start_trx(c, c->intended) : engine_conn_begin_next(c);
            break;
        case C_RUNNING:
            c->q[answered_kind(c)]++;
            r = advance(c);
            break;
        case C_ROLLBACK:
            c->q[DB_Q_OTHER]++;
            c->in_trx = false;
            /* after the end of the run a failed transaction is not retried */
            r = __atomic_load_n(&c->w->e->stop, __ATOMIC_ACQUIRE) ? engine_conn_begin_next(c)
                                                                   : start_trx(c, c->intended);
            break;
        default:
            return;
        }
    }
}

void engine_conn_connect(conn *c)
{
    c->st = C_CONNECTING;
    engine_conn_handle(c, db_connect_start(&c->db));
}

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
