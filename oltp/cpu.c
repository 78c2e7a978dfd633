/*
 * cpu.c — sysbench's cpu test (cpu.h): threads that find primes, a clock
 * that closes intervals and checkpoints, and engine/report.c's report.
 *
 * Each thread records an event's latency in one of a few shards (a lock
 * each, so many threads do not queue on one lock); the main thread waits
 * for the next interval boundary, checkpoint or the end of --time, then
 * takes what the shards hold. With --events, a thread claims an event
 * before running it, so exactly --events events run.
 */
#include "cpu.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/report.h"
#include "oltp_exit.h"

enum { CPU_MAX_SHARDS = 16 };

int64_t cpu_primes(int64_t max)
{
    int64_t n = 0;
    for (int64_t c = 2; c <= max; c++) {
        int64_t d = 2;
        while (d * d <= c && c % d != 0)
            d++;
        if (d * d > c)
            n++;
    }
    return n;
}

typedef struct cpu_shard {
    pthread_mutex_t mu;
    stats           st;             /* since the clock last took it */
} cpu_shard;

typedef struct cpu_state cpu_state;

typedef struct cpu_thread {
    cpu_state      *s;
    cpu_shard      *shard;
    pthread_t       th;
    conn_fairness   done;           /* since the start, under shard->mu */
    int64_t         sink;           /* the primes found: the work is kept */
} cpu_thread;

struct cpu_state {
    const oltp_opts *o;
    cpu_shard       shards[CPU_MAX_SHARDS];
    int             nshards;
    cpu_thread     *threads;
    int64_t         claimed;        /* events claimed (--events) */
    int             stop;           /* --time is over */
    int             running;        /* threads not yet ended, under mu */
    uint64_t        t0_ns, last_ns; /* the start; the end of the last event */
    pthread_mutex_t mu;
    pthread_cond_t  ended;          /* running reached 0 */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *cpu_worker(void *arg)
{
    cpu_thread *t = arg;
    cpu_state *s = t->s;
    const oltp_opts *o = s->o;

    while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED) &&
           (o->events == 0 || __atomic_fetch_add(&s->claimed, 1, __ATOMIC_RELAXED) < o->events)) {
        uint64_t a = now_ns(), b;
        t->sink += cpu_primes(o->cpu_max_prime);
        b = now_ns();
        pthread_mutex_lock(&t->shard->mu);
        t->shard->st.trx++;
        hist_record(t->shard->st.lat, (int64_t)((b - a) / 1000));
        t->done.trx++;
        t->done.busy_s += (double)(b - a) / 1e9;
        pthread_mutex_unlock(&t->shard->mu);
        /* the run's total time ends with its last event */
        uint64_t last = __atomic_load_n(&s->last_ns, __ATOMIC_RELAXED);
        while (last < b && !__atomic_compare_exchange_n(&s->last_ns, &last, b, true,
                                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
    }
    pthread_mutex_lock(&s->mu);
    if (--s->running == 0)
        pthread_cond_signal(&s->ended);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Move what the shards hold into acc, and each thread's count so far
 * into snap (its first snap->cap entries). */
static void cpu_take(cpu_state *s, stats *acc, conn_snapshot *snap)
{
    int n = s->o->threads;
    for (int i = 0; i < s->nshards; i++) {
        pthread_mutex_lock(&s->shards[i].mu);
        stats_add(acc, &s->shards[i].st);
        stats_reset(&s->shards[i].st);
        pthread_mutex_unlock(&s->shards[i].mu);
    }
    for (int i = 0; snap && i < n && i < snap->cap; i++) {
        pthread_mutex_lock(&s->threads[i].shard->mu);
        snap->conns[i] = s->threads[i].done;
        pthread_mutex_unlock(&s->threads[i].shard->mu);
        snap->n = i + 1;
    }
}

/* Wait until the next tick (ns since the start) or every thread ended;
 * whether they all ended. */
static bool cpu_wait(cpu_state *s, uint64_t tick_ns)
{
    uint64_t at = s->t0_ns + tick_ns;
    struct timespec ts = { (time_t)(at / 1000000000u), (long)(at % 1000000000u) };
    bool ended;

    pthread_mutex_lock(&s->mu);
    while (s->running > 0 && now_ns() < at)
        pthread_cond_timedwait(&s->ended, &s->mu, &ts);
    ended = s->running == 0;
    pthread_mutex_unlock(&s->mu);
    return ended;
}

/* The next tick after t (s since the start): an interval's end, a
 * checkpoint or the end of --time; 0 when none. */
static double cpu_next_tick(const oltp_opts *o, double t)
{
    double next = o->time_s;
    if (o->report_interval > 0) {
        double iv = (double)((int64_t)(t / o->report_interval + 1e-9) + 1) * o->report_interval;
        if (next == 0 || iv < next)
            next = iv;
    }
    for (int i = 0; i < o->ncheckpoints; i++)
        if (o->checkpoints[i] > t + 1e-9) {
            if (next == 0 || o->checkpoints[i] < next)
                next = o->checkpoints[i];
            break;
        }
    return next;
}

/* The clock: intervals and checkpoints until --time or the last event.
 * whole gets the events up to the last tick before the end, tail those
 * of the interval that ends with --time (then the caller adds those that
 * end after it). */
static void cpu_clock(cpu_state *s, stats *whole, stats *tail, stats *iv, report_ckpt *k)
{
    const oltp_opts *o = s->o;
    double t = 0, iv_start = 0, iv_next = o->report_interval;
    stats acc;

    if (stats_init(&acc, 1) < 0) {
        stats_clear(&acc);       /* no interval report, the run goes on */
        __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
    }
    for (;;) {
        double next = cpu_next_tick(o, t);
        bool ended = cpu_wait(s, next > 0 ? (uint64_t)(next * 1e9) : UINT64_MAX / 2);
        bool last = o->time_s > 0 && next >= o->time_s;
        if (ended || !acc.lat)
            break;
        if (last)       /* the end of --time: the interval that ends there is printed */
            __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
        t = (double)(now_ns() - s->t0_ns) / 1e9;
        stats_reset(&acc);
        cpu_take(s, &acc, &k->now);
        stats_add(last ? tail : whole, &acc);
        stats_add(iv, &acc);
        if (o->report_interval > 0 && next + 1e-9 >= iv_next) {
            double d = t - iv_start;
            interval_sample sample = { .t = t, .duration_s = d > 0 ? d : 1e-9 };
            if (o->npercentiles)
                sample.lat_pct_ms = (double)hist_percentile(iv->lat, o->percentiles[0]) / 1000.0;
            report_interval_line(stdout, o, iv, &sample, t);
            stats_reset(iv);
            iv_start = t;
            while (iv_next <= next + 1e-9)
                iv_next += o->report_interval;
        }
        if (last)
            break;      /* what ends after it is the final report's */
        if (o->ncheckpoints > 0)
            report_ckpt_interval(stdout, o, k, &acc, t);
    }
    __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
    stats_clear(&acc);
}

/* Start the threads, run the clock, print the final report. 0, or -1
 * after saying why. */
static int cpu_run(cpu_state *s)
{
    const oltp_opts *o = s->o;
    int n = o->threads, started = 0, rc = -1;
    run_result r = { .nphases = 1, .nconns = n };
    phase_result *p = &r.phases[0];
    stats iv;
    report_ckpt k;

    r.conns = calloc((size_t)n, sizeof *r.conns);
    if (report_ckpt_init(&k, 1, n) < 0 || !r.conns || stats_init(&p->st, 1) < 0 ||
        stats_init(&p->tail, 1) < 0 || stats_init(&iv, 1) < 0) {
        fprintf(stderr, "%sout of memory\n", opts_msg_prefix(o));
        goto cleanup;
    }
    if (opts_notice(o))
        printf("Threads started!\n\n");
    s->t0_ns = s->last_ns = now_ns();
    s->running = n;
    for (; started < n; started++)
        if (pthread_create(&s->threads[started].th, NULL, cpu_worker, &s->threads[started]) != 0) {
            fprintf(stderr, "%scannot start thread %d\n", opts_msg_prefix(o), started);
            __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
            pthread_mutex_lock(&s->mu);
            s->running -= n - started;
            pthread_mutex_unlock(&s->mu);
            break;
        }
    if (started == n)
        cpu_clock(s, &p->st, &p->tail, &iv, &k);
    __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < started; i++)
        pthread_join(s->threads[i].th, NULL);
    if (started < n)
        goto cleanup;
    /* the events since the last tick: the end of the report's span */
    cpu_take(s, &p->tail, NULL);
    for (int i = 0; i < n; i++)
        r.conns[i] = s->threads[i].done;
    p->phase = RES_PHASE_MEASURE;
    p->duration_s = (double)(s->last_ns - s->t0_ns) / 1e9;
    report_final(stdout, o, NULL, &r, &k);
    rc = 0;
cleanup:
    stats_clear(&iv);
    stats_clear(&p->st);
    stats_clear(&p->tail);
    free(r.conns);
    report_ckpt_clear(&k);
    return rc;
}

/* The commands the cpu test has not (it has no data): one line, as
 * sysbench says it. */
static int cpu_no_command(const oltp_opts *o)
{
    if (o->sysbench_personality)
        fprintf(stderr, "'%s' test does not implement the '%s' command.\n", REPORT_CPU_TEST, o->command);
    else
        fprintf(stderr, "oltp: the %s test has no '%s' command (it has no data: run it)\n",
                REPORT_CPU_TEST, o->command);
    return OLTP_EXIT_BAD_INPUT;
}

/* The options of a run the cpu test cannot honour: 0, or -1 after one
 * line. */
static int cpu_check_options(const oltp_opts *o)
{
    const char *what = o->json_path ? "--json (no result document for it)"
                     : o->rate > 0 ? "--rate"
                     : o->warmup_s > 0 ? "--warmup-time" : NULL;
    if (!what)
        return 0;
    fprintf(opts_msg_file(o), "%s%s is not available with the %s test\n", opts_msg_prefix(o), what,
            REPORT_CPU_TEST);
    return -1;
}

int cpu_test(const oltp_opts *o)
{
    cpu_state s = { .o = o };
    pthread_condattr_t ca;
    bool oom = false;
    int rc = OLTP_EXIT_OK;

    if (!strcmp(o->command, "help")) {
        opts_cpu_help(stdout);
        return OLTP_EXIT_OK;
    }
    if (strcmp(o->command, "run"))
        return cpu_no_command(o);
    if (cpu_check_options(o) < 0)
        return OLTP_EXIT_BAD_INPUT;
    report_header(stdout, o, o->seed != 0);
    s.nshards = o->threads < CPU_MAX_SHARDS ? o->threads : CPU_MAX_SHARDS;
    s.threads = calloc((size_t)o->threads, sizeof *s.threads);
    pthread_mutex_init(&s.mu, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s.ended, &ca);
    pthread_condattr_destroy(&ca);
    for (int i = 0; i < s.nshards; i++) {
        pthread_mutex_init(&s.shards[i].mu, NULL);
        if (stats_init(&s.shards[i].st, 1) < 0)
            oom = true;
    }
    if (oom || !s.threads) {
        fprintf(stderr, "%sout of memory\n", opts_msg_prefix(o));
        rc = OLTP_EXIT_FAILED;
    } else {
        for (int i = 0; i < o->threads; i++)
            s.threads[i] = (cpu_thread){ .s = &s, .shard = &s.shards[i % s.nshards] };
        if (cpu_run(&s) < 0)
            rc = OLTP_EXIT_FAILED;
    }
    for (int i = 0; i < s.nshards; i++) {
        stats_clear(&s.shards[i].st);
        pthread_mutex_destroy(&s.shards[i].mu);
    }
    pthread_cond_destroy(&s.ended);
    pthread_mutex_destroy(&s.mu);
    free(s.threads);
    return rc;
}
