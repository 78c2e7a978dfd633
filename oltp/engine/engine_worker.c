/*
 * engine_worker.c — the worker threads: each owns a libuv loop, its share
 * of the connections (and terminals), the --rate arrivals it draws, and
 * the wake-ups from the main thread (the phase's end, the stop, the
 * grace for transactions in flight).
 */
#include "engine/engine_state.h"

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

static void on_grace(uv_timer_t *t)
{
    worker *w = t->data;
    /* transactions still in flight after the grace period are abandoned */
    for (int i = 0; i < w->nconns; i++)
        engine_conn_close(&w->conns[i]);
}

static void on_wake(uv_async_t *a)
{
    worker *w = a->data;
    if (!__atomic_load_n(&w->e->stop, __ATOMIC_ACQUIRE)) {
        if (__atomic_load_n(&w->e->events_done, __ATOMIC_ACQUIRE))
            for (int i = 0; i < w->nconns; i++)
                if (w->conns[i].st == C_IDLE)
                    engine_conn_close(&w->conns[i]);
        return;
    }
    uv_timer_stop(&w->rate_timer);
    for (int i = 0; i < w->nterms; i++)
        uv_timer_stop(&w->terms[i].timer);
    for (int i = 0; i < w->nconns; i++) {
        conn *c = &w->conns[i];
        if (c->st == C_IDLE || c->st == C_BACKOFF)
            engine_conn_close(c);
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
        engine_conn_handle(c, engine_conn_begin_next(c));
    }
    if (!__atomic_load_n(&w->e->stop, __ATOMIC_ACQUIRE)) {
        uint64_t wait_ms = (w->next_arrival - now + 999999) / 1000000;
        uv_timer_start(&w->rate_timer, on_rate_timer, wait_ms, 0);
    }
}

void engine_worker_main(void *arg)
{
    worker *w = arg;
    engine *e = w->e;

    for (int i = 0; i < w->nconns; i++)
        engine_conn_connect(&w->conns[i]);
    for (int i = 0; i < w->nterms; i++)
        engine_term_wait(&w->terms[i]);
    if (e->o->rate > 0) {
        w->next_arrival = now_ns() + (uint64_t)rand_exp(&w->rng, w->gap_ns);
        schedule_arrivals(w);
    }
    uv_run(&w->loop, UV_RUN_DEFAULT);
    __atomic_add_fetch(&e->workers_done, 1, __ATOMIC_RELEASE);
}

int engine_worker_init(engine *e, worker *w, int id, int first_conn, int nconns,
                       int first_term, int nterms)
{
    const oltp_opts *o = e->o;

    w->e = e;
    w->id = id;
    w->nconns = w->open_conns = nconns;
    if (uv_loop_init(&w->loop) < 0)
        return -1;
    pthread_mutex_init(&w->lock, NULL);
    if (stats_init(&w->iv, e->ntypes) < 0 || stats_init(&w->done, e->ntypes) < 0
        || stats_init(&w->tail, e->ntypes) < 0)
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

void engine_worker_clear(worker *w)
{
    if (!w->conns)
        return;
    uv_loop_close(&w->loop);
    pthread_mutex_destroy(&w->lock);
    stats_clear(&w->iv);
    stats_clear(&w->done);
    stats_clear(&w->tail);
    for (int i = 0; i < w->nterms; i++)
        if (w->terms[i].wls)
            w->e->wl->conn_free(w->terms[i].wls);
    free(w->terms);
    free(w->ready);
    free(w->conns);
    free(w->idle);
    free(w->q);
}
