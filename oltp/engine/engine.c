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
#include "engine/engine_state.h"
#include "nap.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

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

/* Each connection's transactions and busy time so far into *snap. */
static void snapshot_conns(engine *e, conn_snapshot *snap)
{
    snap->n = 0;
    for (int i = 0; i < e->nworkers; i++)
        for (int k = 0; k < e->workers[i].nconns; k++) {
            conn *c = &e->workers[i].conns[k];
            if (c->id >= snap->cap)
                continue;
            snap->conns[c->id].trx = __atomic_load_n(&c->trx_done, __ATOMIC_RELAXED);
            snap->conns[c->id].busy_s = __atomic_load_n(&c->busy_ns, __ATOMIC_RELAXED) / 1e9;
            if (c->id >= snap->n)
                snap->n = c->id + 1;
        }
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
        if (e->hooks.snap)
            snapshot_conns(e, e->hooks.snap);
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

int engine_event_threads(int requested, int nconns, bool pooled, int ncpu)
{
    int n;
    if (nconns < 1)
        nconns = 1;
    if (ncpu < 1)
        ncpu = 1;
    if (requested > 0)
        n = requested;
    else {
        n = pooled ? 1 + (nconns - 1) / 256 : nconns;
        if (n > ncpu)
            n = ncpu;
    }
    return n < nconns ? n : nconns;
}

/* The CPUs this process may run on (its affinity mask; online CPUs if
 * the mask cannot be read). */
static int usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* How many connections (nconns) and terminals (nterms) the run has, and
 * how many worker loops drive them (e->nworkers). */
static void size_workers(engine *e, const workload *wl, int *nconns, int *nterms)
{
    const oltp_opts *o = e->o;
    *nconns = o->threads;
    *nterms = 0;
    if (wl->terminals && (*nterms = wl->terminals(e->run)) > 0) {
        /* terminals share --connections (else --threads); more
         * connections than terminals would never be used */
        e->terminals = true;
        *nconns = o->connections > 0 ? o->connections : o->threads;
        if (*nconns > *nterms)
            *nconns = *nterms;
    }
    e->nworkers = engine_event_threads(o->event_threads, *nconns, e->terminals || o->rate > 0,
                                       usable_cpus());
}

/* Fix the phase clock (before any worker counts) and the phases' starts. */
static void start_clock(engine *e, run_result *res, double tick_s)
{
    const oltp_opts *o = e->o;
    e->t0 = now_ns();
    e->tick = (uint64_t)(tick_s * 1e9);
    e->m0 = o->warmup_s > 0 ? e->t0 + (uint64_t)(o->warmup_s * 1e9) : e->t0;
    e->nwarm = o->warmup_s > 0 ? (e->m0 - e->t0 + e->tick - 1) / e->tick : 0;
    e->end_ns = o->time_s > 0 ? e->t0 + (uint64_t)(o->time_s * 1e9) : UINT64_MAX;
    e->cut_ns = e->end_ns;
    for (int i = 0; i < res->nphases; i++) {
        res->phases[i].t0_ns = res->phases[i].phase == RES_PHASE_WARMUP ? e->t0 : e->m0;
        res->phases[i].interval_s = tick_s;
    }
}

/* Where the main thread's clock stands: the open slot, the start of the
 * open interval, the phase, the cut once the run ended. */
typedef struct clock_pos {
    uint64_t k_open, from, cut;
    int      ph;
    bool     read_end;          /* the measure phase's server count closes */
} clock_pos;

/* The warm-up's end: close it at m0 and open the measure phase. */
static void end_warmup(engine *e, run_result *res, stats *acc, int nconns, clock_pos *cp)
{
    close_to(e, &res->phases[0], acc, e->nwarm, cp->from, e->m0);
    close_phase(e, &res->phases[0], nconns, e->m0, (e->m0 - e->t0) / 1e9);
    cp->ph = 1;
    cp->from = e->m0;
    if (e->hooks.on_measure)
        e->hooks.on_measure(e->hooks.ctx, false);
}

/* Keep time while the workers run: close each interval on its boundary,
 * the warm-up on its own; return once the run ended (its end, all done,
 * a fatal error, a lost database, a stop request), cp->cut set. */
static void keep_time(engine *e, run_result *res, stats *acc, int nconns, clock_pos *cp)
{
    uint64_t n;
    for (;;) {
        uint64_t wake_at = slot_start(e, cp->k_open + 1), k;
        int fatal;
        if (e->end_ns < wake_at)
            wake_at = e->end_ns;
        /* check for workers finishing (events limit, fatal) often */
        while ((n = now_ns()) < wake_at && !all_done(e) &&
               !__atomic_load_n(&e->fatal, __ATOMIC_ACQUIRE) && !outage_exceeded(e, n)
               && !stop_asked(e))
            sleep_until(n + 50000000ULL < wake_at ? n + 50000000ULL : wake_at);
        n = now_ns();
        fatal = __atomic_load_n(&e->fatal, __ATOMIC_ACQUIRE);
        /* a fatal error, a stop request too close what was measured
         * up to them: nothing after now counts */
        if (fatal || all_done(e) || n >= e->end_ns || e->unavailable || e->stopped) {
            cp->cut = n < e->end_ns ? n : e->end_ns;
            __atomic_store_n(&e->cut_ns, cp->cut, __ATOMIC_RELAXED);
            if (n >= e->end_ns || e->unavailable || e->stopped)
                __atomic_store_n(&e->stop, 1, __ATOMIC_RELEASE);
            if (cp->ph == 0 && e->nwarm && cp->cut > e->m0)
                end_warmup(e, res, acc, nconns, cp);    /* one stall past both ends */
            /* the server's count closes only a measure phase it opened,
             * once the workers ended (engine_run): what commits between
             * the cut and their end is counted apart (late_tpm), so that
             * neither a late wake-up of this thread nor a transaction in
             * flight at the stop can come between the two counts */
            cp->read_end = !fatal && e->hooks.on_measure && cp->ph == res->nphases - 1;
            return;
        }
        k = slot_of(e, n);
        if (k <= cp->k_open)
            continue;           /* woke before the boundary */
        if (cp->ph == 0 && e->nwarm && k >= e->nwarm) {
            /* the warm-up ends on its own boundary */
            end_warmup(e, res, acc, nconns, cp);
            cp->k_open = e->nwarm;
            if (k == cp->k_open)
                continue;
        }
        /* a late tick closes up to the last boundary it reached */
        close_to(e, &res->phases[cp->ph], acc, k, cp->from, slot_start(e, k));
        cp->from = slot_start(e, k);
        cp->k_open = k;
    }
}

/* The last interval of the run's last phase, with what finished before
 * the cut, and what the workers saw end after it. */
static void close_last(engine *e, run_result *res, stats *acc, int nconns, const clock_pos *cp)
{
    phase_result *p = &res->phases[cp->ph];
    int64_t ql = 0;
    harvest(e, 0, cp->cut, true, acc, &ql);
    if (e->o->rate > 0)
        record_unserved(e, p, acc, cp->cut);
    close_interval(e, p, acc, ql, cp->from, cp->cut);
    close_phase(e, p, nconns, cp->cut, (cp->cut - p->t0_ns) / 1e9);
    res->nphases = cp->ph + 1;      /* a run ended early has no later phase */
    p->has_after_end = true;
    for (int i = 0; i < e->nworkers; i++) {
        const res_after_end *a = &e->workers[i].after_end;
        uint64_t tail_end = e->workers[i].tail_end;
        stats_add(&p->tail, &e->workers[i].tail);
        if (tail_end > cp->cut && (tail_end - cp->cut) / 1e9 > p->tail_s)
            p->tail_s = (tail_end - cp->cut) / 1e9;
        p->late_tpm += e->workers[i].late_tpm;
        p->after_end.committed += a->committed;
        p->after_end.rolled_back += a->rolled_back;
        p->after_end.errors += a->errors;
        p->after_end.abandoned += a->abandoned;
    }
    if (cp->read_end)
        e->hooks.on_measure(e->hooks.ctx, true);
}

/* The run's end as the caller sees it: why it stopped early, and each
 * connection's share. 0, or -1 for a fatal error. */
static int report_end(engine *e, run_result *res, int nconns)
{
    res->stopped = e->stopped;
    if (e->fatal) {
        fprintf(stderr, "%s", e->fatal_msg);
        keep_why(res, e->fatal_msg);
        res->fatal = 1;
        res->disk_full = __atomic_load_n(&e->disk_full, __ATOMIC_ACQUIRE);
        return -1;
    }
    if (e->unavailable) {
        fprintf(stderr, "%s", e->unavailable_msg);
        keep_why(res, e->unavailable_msg);
        res->unavailable = 1;
    }
    res->nconns = nconns;
    res->conns = calloc((size_t)nconns, sizeof(conn_fairness));
    for (int i = 0; i < e->nworkers && res->conns; i++)
        for (int k = 0; k < e->workers[i].nconns; k++) {
            conn *c = &e->workers[i].conns[k];
            res->conns[c->id].trx = c->trx_done;
            res->conns[c->id].busy_s = c->busy_ns / 1e9;
        }
    return 0;
}

int engine_run(const wl_run *run, const workload *wl, const struct db_driver *drv,
               const engine_hooks *hooks, run_result *res)
{
    const oltp_opts *o = run->o;
    engine e = { .run = run, .wl = wl, .drv = drv, .o = o, .grace_ms = GRACE_MS };
    int nconns, nterms, rc = -1, started = 0;
    stats acc = {0};
    double tick_s = o->report_interval > 0 ? o->report_interval : 1.0;
    clock_pos cp = { 0 };

    memset(res, 0, sizeof(*res));
    if (hooks)
        e.hooks = *hooks;
    e.ntypes = wl->ntypes > 1 ? wl->ntypes : 1;
    pthread_mutex_init(&e.err_lock, NULL);
    size_workers(&e, wl, &nconns, &nterms);
    e.workers = calloc((size_t)e.nworkers, sizeof(worker));
    if (!e.workers || stats_init(&acc, e.ntypes) < 0)
        goto out;
    for (int i = 0, first = 0, first_term = 0; i < e.nworkers; i++) {
        int n = nconns / e.nworkers + (i < nconns % e.nworkers);
        int nt = nterms / e.nworkers + (i < nterms % e.nworkers);
        if (engine_worker_init(&e, &e.workers[i], i, first, n, first_term, nt) < 0) {
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
        if (stats_init(&res->phases[i].st, e.ntypes) < 0
            || stats_init(&res->phases[i].tail, e.ntypes) < 0)
            goto out;

    if (o->warmup_s <= 0 && e.hooks.on_measure)
        e.hooks.on_measure(e.hooks.ctx, false);
    start_clock(&e, res, tick_s);
    for (int i = 0; i < e.nworkers; i++) {
        if (uv_thread_create(&e.workers[i].thread, engine_worker_main, &e.workers[i]) < 0) {
            engine_fatal(&e, "oltp: cannot start worker thread %d\n", i);
            break;
        }
        started++;
    }
    if (started < e.nworkers)
        e.nworkers = started;       /* only join what runs */

    cp.from = e.t0;
    cp.cut = e.end_ns;
    e.cpu_at_phase = process_cpu_s();
    keep_time(&e, res, &acc, nconns, &cp);
    __atomic_store_n(&e.stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < e.nworkers; i++)
        uv_async_send(&e.workers[i].wake);
    for (int i = 0; i < e.nworkers; i++)
        uv_thread_join(&e.workers[i].thread);
    close_last(&e, res, &acc, nconns, &cp);
    rc = report_end(&e, res, nconns);
out:
    for (int i = 0; e.workers && i < e.nworkers; i++)
        engine_worker_clear(&e.workers[i]);
    free(e.workers);
    stats_clear(&acc);
    pthread_mutex_destroy(&e.err_lock);
    return rc;
}

void run_result_clear(run_result *res)
{
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < res->phases[i].niv; k++)
            hist_sparse_free(res->phases[i].iv[k].lat);
        stats_clear(&res->phases[i].st);
        stats_clear(&res->phases[i].tail);
        free(res->phases[i].iv);
        free(res->phases[i].longest_outage_s);
    }
    free(res->conns);
    memset(res, 0, sizeof(*res));
}
