/*
 * report.c — sysbench-format text reports, and the result document filled
 * from the run (written by common/results_oltp.c).
 */
#include "engine/report.h"
#include "attributes.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results_oltp.h"
#include "version.h"

static double ms(int64_t us) { return (double)us / 1000.0; }

/* What the run measured: statements (the OLTP workloads, TPC-C) or
 * sysbench's cpu test (events alone). */
typedef enum { REPORT_SQL, REPORT_CPU } report_kind;

static report_kind kind_of(const oltp_opts *o)
{
    return o->workload && !strcmp(o->workload, REPORT_CPU_TEST) ? REPORT_CPU : REPORT_SQL;
}

void report_header(FILE *out, const oltp_opts *o, bool seeded)
{
    if (!opts_notice(o))
        return;
    /* the sysbench personality's banner (OPTS_SYSBENCH_BANNER) comes
     * first, before any command's lines: main prints it */
    if (!o->sysbench_personality)
        fprintf(out, "oltp (drivebench) %s, sysbench-compatible\n\n", DRIVEBENCH_VERSION);
    fprintf(out, "Running the test with following options:\n");
    fprintf(out, "Number of threads: %d\n", o->threads);
    if (o->rate > 0)
        fprintf(out, "Target transaction rate: %g/sec\n", o->rate);
    if (o->warmup_s > 0)
        fprintf(out, "Warmup time: %gs\n", o->warmup_s);     /* oltp's own option */
    if (o->workload && !strcmp(o->workload, "tpcc"))     /* --tpcc-compat: what a figure compares with */
        fprintf(out, "TPC-C access pattern: %s\n", o->tpcc_compat);
    if (o->report_interval > 0)
        fprintf(out, "Report intermediate results every %g second(s)\n", o->report_interval);
    if (o->ncheckpoints > 0) {
        fprintf(out, "Report checkpoint(s) at ");
        for (int i = 0; i < o->ncheckpoints; i++)
            fprintf(out, "%s%g", i ? ", " : "", o->checkpoints[i]);
        fprintf(out, " seconds\n");
    }
    if (seeded)
        fprintf(out, "Initializing random number generator from seed (%" PRIu64 ").\n\n\n", o->seed);
    else
        fprintf(out, "Initializing random number generator from current time\n\n\n");
    if (kind_of(o) == REPORT_CPU) {
        if (o->verbosity >= 4)
            fprintf(out, "Doing CPU performance benchmark\n\n");
        fprintf(out, "Prime numbers limit: %d\n\n", o->cpu_max_prime);
    }
    /* "Threads started!" follows once the set-up's checks passed (main) */
    fprintf(out, "Initializing worker threads...\n\n");
    fflush(out);
}

void report_interval_line(FILE *out, const oltp_opts *o, const stats *acc,
                          const interval_sample *s, double t_run)
{
    double d = s->duration_s;
    /* --percentile=0: sysbench says 0% and 0.00 */
    double pct = o->npercentiles ? o->percentiles[0] : 0;
    if (!opts_notice(o))
        return;
    if (kind_of(o) == REPORT_CPU) {
        fprintf(out, "[ %.0fs ] thds: %d eps: %.2f lat (ms,%g%%): %.2f\n", t_run, o->threads,
                (double)acc->trx / d, pct, o->npercentiles ? s->lat_pct_ms : 0.0);
        fflush(out);
        return;
    }
    fprintf(out, "[ %.0fs ] thds: %d tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) "
            "lat (ms,%g%%): %.2f err/s: %.2f reconn/s: %.2f",
            t_run, o->threads, (double)acc->trx / d,
            (double)(acc->reads + acc->writes + acc->others) / d,
            (double)acc->reads / d, (double)acc->writes / d, (double)acc->others / d,
            pct, o->npercentiles ? s->lat_pct_ms : 0.0, (double)acc->errors / d,
            (double)acc->reconnects / d);
    if (o->rate > 0 && !o->sysbench_personality)
        fprintf(out, " queue: %" PRId64 " queue-lat (ms,%g%%): %.2f", s->queue_len,
                o->percentiles[0], ms(hist_percentile(acc->queue, o->percentiles[0])));
    fputc('\n', out);
    if (o->rate > 0 && o->sysbench_personality)
        fprintf(out, "[ %.0fs ] queue length: %" PRId64 ", concurrency: %d\n", t_run, s->queue_len,
                0);
    fflush(out);
}

static const phase_result *measure_phase(const run_result *r)
{
    return &r->phases[r->nphases - 1];
}

/* Whether type t met its 90th-percentile limit and its minimum share
 * (workloads that set type_p90_limit_s / type_min_share, i.e. TPC-C). */
static bool p90_ok(const workload *wl, const stats *s, int t)
{
    double lim = wl->type_p90_limit_s ? wl->type_p90_limit_s[t] : 0;
    return lim <= 0 || hist_percentile(s->type_lat[t], 90) <= (int64_t)(lim * 1e6);
}

static bool share_ok(const workload *wl, const stats *s, int t)
{
    double min = wl->type_min_share ? wl->type_min_share[t] : 0;
    return min <= 0 || (s->trx > 0 && (double)s->type_trx[t] / (double)s->trx >= min);
}

/* TPC-C figures: the headline rate (tpmC, counting every completed
 * transaction of that type, the 1 % rolled back New-Orders included as
 * clause 5.4.1 says), total TPS, the 90th-percentile limits and the mix
 * minimums. */
static void print_standard(FILE *out, const workload *wl, const phase_result *p, double d)
{
    const stats *s = &p->st;
    bool all = true;
    fprintf(out, "%s figures:\n", wl->name);
    fprintf(out, "    %-36s %.2f\n", wl->tpm_name, s->type_trx[wl->tpm_type] * 60.0 / d);
    if (p->server_counted && wl->server_rate_name) {
        /* the server's count leaves out the transactions rolled back */
        int64_t client = s->type_trx[wl->tpm_type] - s->type_rollbacks[wl->tpm_type];
        char label[64];
        snprintf(label, sizeof label, "%s (server's count):", wl->server_rate_name);
        fprintf(out, "    %-36s %.2f\n", label, p->server_trx * 60.0 / d);
        if (llabs(p->server_trx - client) > p->server_margin)
            fprintf(out, "    warning: the server counted %" PRId64 " committed %s, the clients %" PRId64
                    ": more apart than the %" PRId64 " in flight at its reads can explain\n",
                    p->server_trx, wl->type_names[wl->tpm_type], client, p->server_margin);
    }
    fprintf(out, "    %-36s %.2f\n", "total transactions per second:", s->trx / d);
    fprintf(out, "    90th percentile response time limits and minimum mix shares:\n");
    for (int t = 0; t < wl->ntypes; t++) {
        double lim = wl->type_p90_limit_s ? wl->type_p90_limit_s[t] : 0;
        double min = wl->type_min_share ? wl->type_min_share[t] : 0;
        bool ok = p90_ok(wl, s, t) && share_ok(wl, s, t);
        all = all && ok;
        fprintf(out, "      %-14s p90 %10.2f ms", wl->type_names[t], ms(hist_percentile(s->type_lat[t], 90)));
        if (lim > 0)
            fprintf(out, " (limit %6.0f ms)", lim * 1000);
        fprintf(out, "  share %6.2f%%", s->trx ? 100.0 * s->type_trx[t] / s->trx : 0.0);
        if (min > 0)
            fprintf(out, " (min %4.1f%%)", min * 100);
        else
            fprintf(out, "            ");
        fprintf(out, "  %s\n", ok ? "ok" : "NOT MET");
    }
    fprintf(out, "    %s\n\n", all ? "all limits met" : "some limits NOT MET");
}

/* sysbench's histogram layout: SB_BUCKETS buckets, logarithmic from
 * SB_LOW_MS to SB_HIGH_MS; a value goes to the nearest bucket (in log
 * scale), which prints as its own value. */
#define SB_BUCKETS  1024
#define SB_LOW_MS   0.001
#define SB_HIGH_MS  100000.0

int report_sb_bucket(double v_ms)
{
    double mult = (SB_BUCKETS - 1) / (log(SB_HIGH_MS) - log(SB_LOW_MS));
    double i = v_ms > 0 ? floor((log(v_ms) - log(SB_LOW_MS)) * mult + 0.5) : 0;
    return i < 0 ? 0 : i >= SB_BUCKETS ? SB_BUCKETS - 1 : (int)i;
}

double report_sb_bucket_ms(int i)
{
    double mult = (SB_BUCKETS - 1) / (log(SB_HIGH_MS) - log(SB_LOW_MS));
    return exp(i / mult + log(SB_LOW_MS));
}

/* The latency histogram as sysbench prints it: each non-empty bucket of
 * its layout, a bar of up to 40 stars scaled to the fullest bucket.
 * oltp's buckets (µs, 3 digits) are finer: each goes to the sysbench
 * bucket of its lowest value. Its title and the closing line are notices
 * (--verbosity 3), the rows are not, as in sysbench. -1 when out of
 * memory (after printing why). */
static int print_histogram(FILE *out, const oltp_opts *o, const hist *h)
{
    int64_t *b = calloc(SB_BUCKETS, sizeof *b), peak = 0;
    hist_sparse *sp = hist_sparse_of(h, h->sig_digits);

    if (!b || !sp) {
        fprintf(stderr, "oltp: out of memory printing the histogram\n");
        free(b);
        hist_sparse_free(sp);
        return -1;
    }
    for (int i = 0; i < sp->n; i++)
        b[report_sb_bucket(ms(sp->value[i]))] += sp->count[i];
    for (int i = 0; i < SB_BUCKETS; i++)
        if (b[i] > peak)
            peak = b[i];
    if (opts_notice(o))
        fprintf(out, "Latency histogram (values are in milliseconds)\n");
    if (peak > 0)
        fprintf(out, "       value  ------------- distribution ------------- count\n");
    for (int i = 0; i < SB_BUCKETS; i++) {
        if (!b[i])
            continue;
        fprintf(out, "%12.3f |%-40.*s %" PRId64 "\n", report_sb_bucket_ms(i),
                (int)floor((double)b[i] * 40 / (double)peak + 0.5),
                "****************************************", b[i]);
    }
    if (opts_notice(o))
        fprintf(out, " \n");
    free(b);
    hist_sparse_free(sp);
    return 0;
}

/* "SQL statistics": the statements and transactions of s over d
 * seconds (q of them statements). */
static void print_sql(FILE *out, const stats *s, int64_t q, double d)
{
    fprintf(out, "SQL statistics:\n    queries performed:\n");
    fprintf(out, "        read:                            %" PRId64 "\n", s->reads);
    fprintf(out, "        write:                           %" PRId64 "\n", s->writes);
    fprintf(out, "        other:                           %" PRId64 "\n", s->others);
    fprintf(out, "        total:                           %" PRId64 "\n", q);
    fprintf(out, "    transactions:                        %-6" PRId64 " (%.2f per sec.)\n", s->trx, s->trx / d);
    fprintf(out, "    queries:                             %-6" PRId64 " (%.2f per sec.)\n", q, q / d);
    fprintf(out, "    ignored errors:                      %-6" PRId64 " (%.2f per sec.)\n", s->errors, s->errors / d);
    fprintf(out, "    reconnects:                          %-6" PRId64 " (%.2f per sec.)\n\n", s->reconnects, s->reconnects / d);
}

/* The report of s over d seconds (its rates), total_s the run's time so
 * far: "SQL statistics" (kind REPORT_SQL) or "CPU speed" (REPORT_CPU),
 * then "General statistics" and "Latency". */
static void print_summary(FILE *out, const oltp_opts *o, report_kind kind, const stats *s, double d,
                          double total_s)
{
    int64_t q = s->reads + s->writes + s->others;

    if (d <= 0)
        d = 1e-9;
    if (kind == REPORT_CPU)
        fprintf(out, "CPU speed:\n    events per second: %8.2f\n\n", s->trx / d);
    else
        print_sql(out, s, q, d);
    fprintf(out, "General statistics:\n");
    fprintf(out, "    total time:                          %.4fs\n", total_s);
    fprintf(out, "    total number of events:              %" PRId64 "\n\n", s->trx);
    fprintf(out, "Latency (ms):\n");
    fprintf(out, "         min:                            %12.2f\n", ms(s->lat->min));
    fprintf(out, "         avg:                            %12.2f\n", hist_mean(s->lat) / 1000.0);
    fprintf(out, "         max:                            %12.2f\n", ms(s->lat->max));
    if (!o->npercentiles)
        fprintf(out, "         percentile stats:               disabled\n");
    for (int i = 0; i < o->npercentiles; i++) {
        char label[48];
        snprintf(label, sizeof label, "%gth percentile:", o->percentiles[i]);
        fprintf(out, "         %-31s %12.2f\n", label, ms(hist_percentile(s->lat, o->percentiles[i])));
    }
    fprintf(out, "         sum:                            %12.2f\n\n", s->lat->sum / 1000.0);
}

/* "Threads fairness": each of the n connections' transactions and busy
 * time (now), since base when not NULL (the last checkpoint). */
static void print_fairness(FILE *out, const conn_fairness *now, const conn_fairness *base, int n)
{
    double mean = 0, sq = 0, tmean = 0, tsq = 0;

    if (n <= 0)
        return;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            double trx = (double)(now[i].trx - (base ? base[i].trx : 0));
            double busy = now[i].busy_s - (base ? base[i].busy_s : 0);
            if (pass == 0) {
                mean += trx / n;
                tmean += busy / n;
            } else {
                sq += pow(trx - mean, 2);
                tsq += pow(busy - tmean, 2);
            }
        }
    fprintf(out, "Threads fairness:\n");
    fprintf(out, "    events (avg/stddev):           %.4f/%.2f\n", mean, sqrt(sq / n));
    fprintf(out, "    execution time (avg/stddev):   %.4f/%.2f\n\n", tmean, sqrt(tsq / n));
}

/* oltp's additions after sysbench's text: queue time (--rate), the
 * transaction types (TPC-C) and the standard's figures. */
static void print_additions(FILE *out, const oltp_opts *o, const workload *wl, const phase_result *p,
                            const stats *s)
{
    if (o->rate > 0) {
        fprintf(out, "Queue time (ms), intended start to actual start:\n");
        fprintf(out, "         avg:                            %12.2f\n", hist_mean(s->queue) / 1000.0);
        fprintf(out, "         max:                            %12.2f\n", ms(s->queue->max));
        fprintf(out, "         %-31s %12.2f\n\n", "95th percentile:", ms(hist_percentile(s->queue, 95)));
    }
    if (wl->ntypes > 1) {
        fprintf(out, "Transactions by type:\n  %-14s %10s %7s %10s %10s %10s %9s %8s\n",
                "type", "count", "share", "avg ms", "p90 ms", "p99 ms", "rollbacks", "retries");
        for (int t = 0; t < wl->ntypes; t++)
            fprintf(out, "  %-14s %10" PRId64 " %6.2f%% %10.2f %10.2f %10.2f %9" PRId64 " %8" PRId64 "\n",
                    wl->type_names[t], s->type_trx[t], s->trx ? 100.0 * s->type_trx[t] / s->trx : 0.0,
                    hist_mean(s->type_lat[t]) / 1000.0, ms(hist_percentile(s->type_lat[t], 90)),
                    ms(hist_percentile(s->type_lat[t], 99)), s->type_rollbacks[t], s->type_retries[t]);
        fputc('\n', out);
        /* the standard's figures are the phase's, as in the result
         * document (its server count leaves the tail out) */
        if (wl->tpm_name)
            print_standard(out, wl, p, p->duration_s > 0 ? p->duration_s : 1e-9);
    }
}

int report_ckpt_init(report_ckpt *k, int ntypes, int nconns)
{
    memset(k, 0, sizeof *k);
    k->now.conns = calloc((size_t)(nconns > 0 ? nconns : 1), sizeof *k->now.conns);
    k->last = calloc((size_t)(nconns > 0 ? nconns : 1), sizeof *k->last);
    k->now.cap = nconns;
    if (!k->now.conns || !k->last)
        return -1;
    return stats_init(&k->span, ntypes);
}

void report_ckpt_clear(report_ckpt *k)
{
    stats_clear(&k->span);
    free(k->now.conns);
    free(k->last);
    k->now.conns = k->last = NULL;
}

void report_ckpt_interval(FILE *out, const oltp_opts *o, report_ckpt *k, const stats *acc,
                          double t_run)
{
    double t = t_run - o->warmup_s;     /* in the measured phase */

    if (t <= 0)
        return;                         /* the warm-up is not reported */
    stats_add(&k->span, acc);
    if (k->next >= o->ncheckpoints || t + 1e-6 < o->checkpoints[k->next])
        return;
    while (k->next < o->ncheckpoints && t + 1e-6 >= o->checkpoints[k->next])
        k->next++;
    if (opts_notice(o)) {
        fprintf(out, "[ %.0fs ] Checkpoint report:\n", t);
        print_summary(out, o, kind_of(o), &k->span, t - k->last_t, t);
        print_fairness(out, k->now.conns, k->last, k->now.n);
        fflush(out);
    }
    memcpy(k->last, k->now.conns, (size_t)k->now.n * sizeof *k->last);
    stats_reset(&k->span);
    k->last_t = t;
    k->done++;
}

void report_final(FILE *out, const oltp_opts *o, const workload *wl, const run_result *r,
                  const report_ckpt *k)
{
    const phase_result *p = measure_phase(r);
    bool after_ckpt = k && k->done > 0;
    double total = p->duration_s + p->tail_s;
    stats all;

    /* every transaction that ended: those in flight at the cut too */
    if (stats_init(&all, p->st.ntypes) < 0) {
        fprintf(stderr, "oltp: out of memory writing the report\n");
        stats_clear(&all);
        return;
    }
    stats_add(&all, after_ckpt ? &k->span : &p->st);
    stats_add(&all, &p->tail);
    if (o->verbosity >= 4 && !r->stopped) {
        fprintf(out, "%s limit exceeded, exiting...\n",
                o->events > 0 && p->st.trx + p->tail.trx >= o->events ? "Event" : "Time");
        if (r->nconns > 1)
            fprintf(out, "(last message repeated %d times)\n", r->nconns - 1);
        fprintf(out, "Done.\n\n");
    }
    if (o->histogram)
        print_histogram(out, o, all.lat);
    if (opts_notice(o)) {
        print_summary(out, o, kind_of(o), &all, after_ckpt ? total - k->last_t : total, total);
        if (!o->sysbench_personality && wl)
            print_additions(out, o, wl, p, &all);
        /* after checkpoints: since the last one (its connections) */
        print_fairness(out, r->conns, after_ckpt && k->now.n == r->nconns ? k->last : NULL,
                       r->nconns);
    }
    fflush(out);
    stats_clear(&all);
}

/* The phase latency object: avg, min, max, p50, p95, p99 and every
 * requested percentile, in ms. */
static void fill_latency(res_latency *l, const oltp_opts *o, const hist *h)
{
    const double fixed[] = {50, 95, 99};

    l->avg = hist_mean(h) / 1000.0;
    l->min = ms(h->min);
    l->max = ms(h->max);
    for (int i = 0; i < 3; i++)
        res_latency_add_pct(l, fixed[i], ms(hist_percentile(h, fixed[i])));
    for (int i = 0; i < o->npercentiles; i++)
        res_latency_add_pct(l, o->percentiles[i], ms(hist_percentile(h, o->percentiles[i])));
}

/* A copy of h (the result document owns its histograms). */
static hist *hist_copy(const hist *h)
{
    hist *c = hist_new(h->highest, h->sig_digits);
    if (c && hist_add(c, h) < 0) {
        hist_free(c);
        c = NULL;
    }
    return c;
}

/* Each transaction type's counts and latency (wl->ntypes > 1). 0, or -1
 * when out of memory. */
static int fill_types(res_phase *j, const oltp_opts *o, const workload *wl, const stats *s)
{
    j->types = calloc((size_t)wl->ntypes, sizeof *j->types);
    if (!j->types)
        return -1;
    j->ntypes = wl->ntypes;
    for (int t = 0; t < wl->ntypes; t++) {
        res_txn_type *e = &j->types[t];
        e->name = strdup(wl->type_names[t]);
        e->count = s->type_trx[t];
        e->share = s->trx ? (double)s->type_trx[t] / s->trx : 0;
        e->rollbacks = s->type_rollbacks[t];
        e->retries = s->type_retries[t];
        fill_latency(&e->latency, o, s->type_lat[t]);
        res_latency_add_pct(&e->latency, 90, ms(hist_percentile(s->type_lat[t], 90)));
        e->histogram = hist_copy(s->type_lat[t]);
        if (!e->name || !e->histogram)
            return -1;
    }
    return 0;
}

/* The figures of a benchmark standard (TPC-C: results/SCHEMA.md) of
 * phase p, d seconds long. 0, or -1 when out of memory. */
static int fill_tpcc(res_phase *j, const workload *wl, const phase_result *p, double d)
{
    const stats *s = &p->st;
    res_tpcc *x = calloc(1, sizeof *x);
    if (!x)
        return -1;
    j->tpcc = x;
    x->tpm_name = strdup(wl->tpm_name);
    x->limits = calloc((size_t)wl->ntypes, sizeof *x->limits);
    if (!x->tpm_name || !x->limits)
        return -1;
    x->nlimits = wl->ntypes;
    x->tpm = s->type_trx[wl->tpm_type] * 60.0 / d;
    if (p->server_counted && wl->server_rate_name) {
        x->server_rate_name = strdup(wl->server_rate_name);
        if (!x->server_rate_name)
            return -1;
        x->server_rate = p->server_trx * 60.0 / d;
        x->server_count = p->server_trx;
        x->server_count_margin = p->server_margin;
        x->server_count_late = p->late_tpm;
    }
    x->tps = s->trx / d;
    x->all_limits_met = true;
    for (int t = 0; t < wl->ntypes; t++) {
        res_tpcc_limit *e = &x->limits[t];
        e->name = strdup(wl->type_names[t]);
        if (!e->name)
            return -1;
        e->p90_ms = ms(hist_percentile(s->type_lat[t], 90));
        e->p90_limit_ms = wl->type_p90_limit_s ? wl->type_p90_limit_s[t] * 1000 : 0;
        e->p90_met = p90_ok(wl, s, t);
        e->share = s->trx ? (double)s->type_trx[t] / s->trx : 0;
        e->min_share = wl->type_min_share ? wl->type_min_share[t] : 0;
        e->share_met = share_ok(wl, s, t);
        x->all_limits_met = x->all_limits_met && e->p90_met && e->share_met;
    }
    return 0;
}

static int fill_phase(res_phase *j, const oltp_opts *o, const workload *wl, const phase_result *p,
                      uint64_t origin_ns)
{
    const stats *s = &p->st;
    double d = p->duration_s > 0 ? p->duration_s : 1e-9;

    j->phase = p->phase;
    j->duration_s = p->duration_s;
    j->transactions = s->trx;
    j->reads = s->reads;
    j->writes = s->writes;
    j->others = s->others;
    j->total = s->reads + s->writes + s->others;
    j->tps = s->trx / d;
    j->qps = (s->reads + s->writes + s->others) / d;
    j->errors = s->errors;
    j->reconnects = s->reconnects;
    j->rollbacks = s->rollbacks;
    fill_latency(&j->latency, o, s->lat);
    j->has_queue = o->rate > 0;
    if (j->has_queue)
        fill_latency(&j->queue, o, s->queue);
    j->unserved = p->unserved;
    j->has_after_end = p->has_after_end;
    j->after_end = p->after_end;
    j->interval_s = p->interval_s;
    j->start_s = p->t0_ns > origin_ns ? (p->t0_ns - origin_ns) / 1e9 : 0;
    j->iv_pct = o->percentiles[0];
    j->intervals = calloc(p->niv ? (size_t)p->niv : 1, sizeof *j->intervals);
    j->histogram = hist_copy(s->lat);
    if (!j->intervals || !j->histogram)
        return -1;
    j->nintervals = p->niv;
    j->has_outage = true;
    j->unavailable_s = p->unavailable_s;
    j->cpu_s_per_1000_txn = s->trx > 0 && isfinite(p->cpu_s) ? p->cpu_s / s->trx * 1000 : NAN;
    if (p->longest_outage_s && p->nconns > 0) {
        j->longest_outage_s = malloc((size_t)p->nconns * sizeof *j->longest_outage_s);
        if (!j->longest_outage_s)
            return -1;
        memcpy(j->longest_outage_s, p->longest_outage_s,
               (size_t)p->nconns * sizeof *j->longest_outage_s);
        j->nlongest_outage = p->nconns;
    }
    for (int i = 0; i < p->niv; i++) {
        const interval_sample *x = &p->iv[i];
        j->intervals[i] = (res_interval){
            .t = x->t, .tps = x->trx / x->duration_s, .qps = x->queries / x->duration_s,
            .errors_ps = x->errors / x->duration_s,
            .reconnects_ps = x->reconnects / x->duration_s,
            .lat_avg_ms = x->lat_avg_ms, .lat_pct_ms = x->lat_pct_ms,
            .queue_length = x->queue_len, .duration_s = x->duration_s,
            .histogram = hist_sparse_copy(x->lat),
        };
        if (x->lat && !j->intervals[i].histogram)
            return -1;
    }
    if (wl->ntypes > 1 && fill_types(j, o, wl, s) < 0)
        return -1;
    if (wl->ntypes > 1 && wl->tpm_name && fill_tpcc(j, wl, p, d) < 0)
        return -1;
    return 0;
}

int report_json(const char *path, const oltp_opts *o, const workload *wl, const run_result *r,
                time_t started, uint64_t origin_ns, char *err, size_t errlen)
{
    res_oltp doc = { 0 };
    char when[32];
    int rc = -1;

    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&started));
    doc.tool_name = strdup("oltp");
    doc.tool_version = strdup(DRIVEBENCH_VERSION);
    doc.workload = strdup(o->workload);
    doc.driver = strdup(o->db_driver);
    doc.started_at = strdup(when);
    doc.server_version = strdup(r->server_version);
    doc.options = opts_to_json(o);
    doc.db_start = r->db_start;
    doc.db_end = r->db_end;
    /* a run ended early holds what it measured up to then, and says why */
    doc.ended = r->fatal || r->unavailable ? RES_END_ERROR
              : r->stopped ? RES_END_SIGNAL : RES_END_COMPLETE;
    if (doc.ended != RES_END_COMPLETE && !(doc.end_reason = strdup(r->why)))
        goto oom;
    if (!doc.tool_name || !doc.tool_version || !doc.workload || !doc.driver
        || !doc.started_at || !doc.server_version || !doc.options)
        goto oom;
    for (int i = 0; i < r->nphases; i++) {
        res_phase *p = res_oltp_add_phase(&doc);
        if (!p || fill_phase(p, o, wl, &r->phases[i], origin_ns) < 0)
            goto oom;
    }
    rc = res_oltp_write_file(&doc, path, err, errlen);
    goto cleanup;
oom:
    snprintf(err, errlen, "out of memory writing %s", path);
cleanup:
    res_oltp_clear(&doc);
    return rc;
}
