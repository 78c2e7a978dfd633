/*
 * engine_state.h — private to engine/: the state the engine's files
 * share. engine.c keeps time on the main thread (engine_run, the phases,
 * intervals and harvest); engine_worker.c starts, runs and frees the
 * worker threads, each a libuv loop; engine_conn.c is the connection
 * state machine those loops drive and the counters it records into.
 * engine.c calls engine_worker.c, which calls engine_conn.c; never the
 * other way.
 */
#ifndef OLTP_ENGINE_STATE_H
#define OLTP_ENGINE_STATE_H

#include "attributes.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "engine/engine.h"

typedef enum { C_CONNECTING, C_IDLE, C_RUNNING, C_ROLLBACK, C_BACKOFF, C_CLOSED } cstate;

struct worker;
struct term;

typedef struct conn {
    struct worker *w;
    int        id;
    db_conn    db;
    uv_poll_t *poll;            /* watches the session's socket; NULL when none */
    int        poll_fd;         /* the driver's descriptor poll was made for */
    int        poll_dup;        /* poll's own duplicate of it (engine_conn.c arm) */
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
    bool       queued;          /* it was queued (--pipeline): no answer of its own yet */
    int64_t    q[3];            /* read/write/other not yet flushed */
    int64_t    trx_done;        /* written by the worker, read atomically by */
    uint64_t   busy_ns;         /* the main thread (engine_hooks.snap) */
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
    stats       tail;           /* ... and their counts and latency */
    uint64_t    tail_end;       /* when the last of them ended; 0: none */
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

static inline uint64_t now_ns(void)
{
    return uv_hrtime();
}

/* The slot of the phase clock that time n falls in, and where slot k
 * starts (see the top comment). */
static inline uint64_t slot_of(const engine *e, uint64_t n)
{
    if (n < e->t0)
        return 0;
    if (e->nwarm && n < e->m0)
        return (n - e->t0) / e->tick;
    return e->nwarm + (n - e->m0) / e->tick;
}

static inline uint64_t slot_start(const engine *e, uint64_t k)
{
    return k < e->nwarm ? e->t0 + k * e->tick : e->m0 + (k - e->nwarm) * e->tick;
}

/* --- engine_conn.c: a connection's state machine --- */

/* Stop the run for an error that retrying cannot cure; the first message
 * wins and is printed by the main thread. */
void engine_fatal(engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Open c's session (non-blocking; its loop continues in the callbacks). */
void engine_conn_connect(conn *c);
/* Close c's session and its handles; the worker ends when all are. */
void engine_conn_close(conn *c);
/* Between transactions: stop, wait (think time, --rate) or start the
 * next; the status for engine_conn_handle (NO_OP: nothing started). */
int  engine_conn_begin_next(conn *c);
/* Drive the connection from the status of the operation just started or
 * continued, until it has to wait for the socket. */
void engine_conn_handle(conn *c, int r);
/* A terminal between transactions: its keying and think time, then it
 * queues for a connection (its intended start: the end of the pause). */
void engine_term_wait(term *t);

/* --- engine_worker.c: the worker threads --- */

/* Set up worker w (id) of e with connections first_conn.. (nconns) and
 * terminals first_term.. (nterms). 0, or -1 (out of memory, or a
 * workload state the workload could not make); engine_worker_clear
 * cleans up either way. */
int  engine_worker_init(engine *e, worker *w, int id, int first_conn, int nconns,
                        int first_term, int nterms) DB_MUST_CHECK;
/* The thread of a worker (arg): its loop until every connection closed. */
void engine_worker_main(void *arg);
/* Free w's connections, terminals and loop (after its thread ended). */
void engine_worker_clear(worker *w);

#endif
