/*
 * report.c — sysbench-format text reports and the JSON result document.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "version.h"
#include "atomic_file.h"

static double ms(int64_t us) { return (double)us / 1000.0; }

void report_pct_key(char *buf, size_t len, double p)
{
    snprintf(buf, len, "p%g", p);
}

void report_interval_line(FILE *out, const oltp_opts *o, const stats *acc,
                          const interval_sample *s, double t_run)
{
    double d = s->duration_s;
    fprintf(out, "[ %.0fs ] thds: %d tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) "
            "lat (ms,%g%%): %.2f err/s: %.2f reconn/s: %.2f",
            t_run, o->threads, (double)acc->trx / d,
            (double)(acc->reads + acc->writes + acc->others) / d,
            (double)acc->reads / d, (double)acc->writes / d, (double)acc->others / d,
            o->percentiles[0], s->lat_pct_ms, (double)acc->errors / d,
            (double)acc->reconnects / d);
    if (o->rate > 0)
        fprintf(out, " queue: %" PRId64 " queue-lat (ms,%g%%): %.2f", s->queue_len,
                o->percentiles[0], ms(hist_percentile(acc->queue, o->percentiles[0])));
    fputc('\n', out);
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
static void print_standard(FILE *out, const workload *wl, const stats *s, double d)
{
    bool all = true;
    fprintf(out, "%s figures:\n", wl->name);
    fprintf(out, "    %-36s %.2f\n", wl->tpm_name, s->type_trx[wl->tpm_type] * 60.0 / d);
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

static void print_histogram(FILE *out, const hist *h)
{
    int64_t peak = 0, seen = 0;
    fprintf(out, "Latency histogram (values are in milliseconds)\n"
            "       value  ------------- distribution ------------- count\n");
    /* one row per 1 % step of the distribution, like a compact CDF */
    for (int pass = 0; pass < 2; pass++) {
        int64_t prev = -1;
        seen = 0;
        for (double p = 1; p <= 100; p += 1) {
            int64_t v = hist_percentile(h, p);
            int64_t want = (int64_t)(p / 100.0 * (double)h->total + 0.5);
            int64_t cnt = want - seen;
            if (v == prev || cnt <= 0)
                continue;
            seen = want;
            prev = v;
            if (pass == 0) {
                if (cnt > peak)
                    peak = cnt;
                continue;
            }
            int bars = peak ? (int)(40.0 * (double)cnt / (double)peak + 0.5) : 0;
            fprintf(out, "%12.3f |%-40.*s %" PRId64 "\n", ms(v), bars,
                    "****************************************", cnt);
        }
    }
    fputc('\n', out);
}

void report_final(FILE *out, const oltp_opts *o, const workload *wl, const run_result *r)
{
    const phase_result *p = measure_phase(r);
    const stats *s = &p->st;
    double d = p->duration_s > 0 ? p->duration_s : 1e-9;
    int64_t q = s->reads + s->writes + s->others;
    double mean = 0, sq = 0, tmean = 0, tsq = 0;

    if (o->histogram)
        print_histogram(out, s->lat);
    fprintf(out, "SQL statistics:\n    queries performed:\n");
    fprintf(out, "        read:                            %" PRId64 "\n", s->reads);
    fprintf(out, "        write:                           %" PRId64 "\n", s->writes);
    fprintf(out, "        other:                           %" PRId64 "\n", s->others);
    fprintf(out, "        total:                           %" PRId64 "\n", q);
    fprintf(out, "    transactions:                        %-6" PRId64 " (%.2f per sec.)\n", s->trx, s->trx / d);
    fprintf(out, "    queries:                             %-6" PRId64 " (%.2f per sec.)\n", q, q / d);
    fprintf(out, "    ignored errors:                      %-6" PRId64 " (%.2f per sec.)\n", s->errors, s->errors / d);
    fprintf(out, "    reconnects:                          %-6" PRId64 " (%.2f per sec.)\n\n", s->reconnects, s->reconnects / d);
    fprintf(out, "General statistics:\n");
    fprintf(out, "    total time:                          %.4fs\n", p->duration_s);
    fprintf(out, "    total number of events:              %" PRId64 "\n\n", s->trx);
    fprintf(out, "Latency (ms):\n");
    fprintf(out, "         min:                            %10.2f\n", ms(s->lat->min));
    fprintf(out, "         avg:                            %10.2f\n", hist_mean(s->lat) / 1000.0);
    fprintf(out, "         max:                            %10.2f\n", ms(s->lat->max));
    for (int i = 0; i < o->npercentiles; i++)
    {
        char label[48];
        snprintf(label, sizeof label, "%gth percentile:", o->percentiles[i]);
        fprintf(out, "         %-31s %10.2f\n", label, ms(hist_percentile(s->lat, o->percentiles[i])));
    }
    fprintf(out, "         sum:                            %10.2f\n\n", s->lat->sum / 1000.0);
    if (o->rate > 0) {
        fprintf(out, "Queue time (ms), intended start to actual start:\n");
        fprintf(out, "         avg:                            %10.2f\n", hist_mean(s->queue) / 1000.0);
        fprintf(out, "         max:                            %10.2f\n", ms(s->queue->max));
        fprintf(out, "         %gth percentile:                  %10.2f\n\n", o->percentiles[0],
                ms(hist_percentile(s->queue, o->percentiles[0])));
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
        if (wl->tpm_name)
            print_standard(out, wl, s, d);
    }
    for (int i = 0; i < r->nconns; i++) {
        mean += (double)r->conns[i].trx;
        tmean += r->conns[i].busy_s;
    }
    if (r->nconns) {
        mean /= r->nconns;
        tmean /= r->nconns;
        for (int i = 0; i < r->nconns; i++) {
            sq += pow((double)r->conns[i].trx - mean, 2);
            tsq += pow(r->conns[i].busy_s - tmean, 2);
        }
        fprintf(out, "Threads fairness:\n");
        fprintf(out, "    events (avg/stddev):           %.4f/%.2f\n", mean, sqrt(sq / r->nconns));
        fprintf(out, "    execution time (avg/stddev):   %.4f/%.2f\n\n", tmean, sqrt(tsq / r->nconns));
    }
    fflush(out);
}

static json_object *latency_json(const oltp_opts *o, const hist *h)
{
    json_object *j = json_object_new_object();
    const double fixed[] = {50, 95, 99};
    char key[32];

    json_object_object_add(j, "avg", json_object_new_double(hist_mean(h) / 1000.0));
    json_object_object_add(j, "min", json_object_new_double(ms(h->min)));
    json_object_object_add(j, "max", json_object_new_double(ms(h->max)));
    for (int i = 0; i < 3; i++) {
        report_pct_key(key, sizeof key, fixed[i]);
        json_object_object_add(j, key, json_object_new_double(ms(hist_percentile(h, fixed[i]))));
    }
    for (int i = 0; i < o->npercentiles; i++) {
        report_pct_key(key, sizeof key, o->percentiles[i]);
        json_object_object_add(j, key, json_object_new_double(ms(hist_percentile(h, o->percentiles[i]))));
    }
    return j;
}

static json_object *phase_json(const oltp_opts *o, const workload *wl, const phase_result *p)
{
    const stats *s = &p->st;
    double d = p->duration_s > 0 ? p->duration_s : 1e-9;
    json_object *j = json_object_new_object(), *q = json_object_new_object(), *iv = json_object_new_array();
    char key[32];

    json_object_object_add(j, "name", json_object_new_string(p->name));
    json_object_object_add(j, "duration_s", json_object_new_double(p->duration_s));
    json_object_object_add(j, "transactions", json_object_new_int64(s->trx));
    json_object_object_add(q, "read", json_object_new_int64(s->reads));
    json_object_object_add(q, "write", json_object_new_int64(s->writes));
    json_object_object_add(q, "other", json_object_new_int64(s->others));
    json_object_object_add(q, "total", json_object_new_int64(s->reads + s->writes + s->others));
    json_object_object_add(j, "queries", q);
    json_object_object_add(j, "tps", json_object_new_double(s->trx / d));
    json_object_object_add(j, "qps", json_object_new_double((s->reads + s->writes + s->others) / d));
    json_object_object_add(j, "errors", json_object_new_int64(s->errors));
    json_object_object_add(j, "reconnects", json_object_new_int64(s->reconnects));
    json_object_object_add(j, "rollbacks", json_object_new_int64(s->rollbacks));
    json_object_object_add(j, "unavailable_s", json_object_new_double(p->unavailable_s));
    {
        json_object *lo = json_object_new_array();
        for (int i = 0; p->longest_outage_s && i < p->nconns; i++)
            json_object_array_add(lo, json_object_new_double(p->longest_outage_s[i]));
        json_object_object_add(j, "longest_outage_s", lo);
    }
    json_object_object_add(j, "latency_ms", latency_json(o, s->lat));
    if (o->rate > 0)
        json_object_object_add(j, "queue_ms", latency_json(o, s->queue));
    report_pct_key(key, sizeof key, o->percentiles[0]);
    for (int i = 0; i < p->niv; i++) {
        const interval_sample *x = &p->iv[i];
        json_object *e = json_object_new_object(), *l = json_object_new_object();
        json_object_object_add(e, "t", json_object_new_double(x->t));
        json_object_object_add(e, "tps", json_object_new_double(x->trx / x->duration_s));
        json_object_object_add(e, "qps", json_object_new_double(x->queries / x->duration_s));
        json_object_object_add(e, "errors_ps", json_object_new_double(x->errors / x->duration_s));
        json_object_object_add(e, "reconnects_ps", json_object_new_double(x->reconnects / x->duration_s));
        json_object_object_add(l, "avg", json_object_new_double(x->lat_avg_ms));
        json_object_object_add(l, key, json_object_new_double(x->lat_pct_ms));
        json_object_object_add(e, "latency_ms", l);
        if (o->rate > 0)
            json_object_object_add(e, "queue_length", json_object_new_int64(x->queue_len));
        json_object_array_add(iv, e);
    }
    json_object_object_add(j, "intervals", iv);
    json_object_object_add(j, "histogram", hist_to_json(s->lat));
    if (wl->ntypes > 1) {
        json_object *types = json_object_new_array();
        for (int t = 0; t < wl->ntypes; t++) {
            json_object *e = json_object_new_object();
            json_object_object_add(e, "name", json_object_new_string(wl->type_names[t]));
            json_object_object_add(e, "count", json_object_new_int64(s->type_trx[t]));
            json_object_object_add(e, "share", json_object_new_double(s->trx ? (double)s->type_trx[t] / s->trx : 0));
            json_object_object_add(e, "rollbacks", json_object_new_int64(s->type_rollbacks[t]));
            json_object_object_add(e, "retries", json_object_new_int64(s->type_retries[t]));
            json_object *lat = latency_json(o, s->type_lat[t]);
            json_object_object_add(lat, "p90", json_object_new_double(ms(hist_percentile(s->type_lat[t], 90))));
            json_object_object_add(e, "latency_ms", lat);
            json_object_object_add(e, "histogram", hist_to_json(s->type_lat[t]));
            json_object_array_add(types, e);
        }
        json_object_object_add(j, "transaction_types", types);
    }
    if (wl->ntypes > 1 && wl->tpm_name) {
        /* results/SCHEMA.md, "TPC-C" */
        json_object *x = json_object_new_object(), *lims = json_object_new_array();
        bool all = true;
        json_object_object_add(x, wl->tpm_name, json_object_new_double(s->type_trx[wl->tpm_type] * 60.0 / d));
        json_object_object_add(x, "tps", json_object_new_double(s->trx / d));
        for (int t = 0; t < wl->ntypes; t++) {
            json_object *e = json_object_new_object();
            bool ok = p90_ok(wl, s, t) && share_ok(wl, s, t);
            all = all && ok;
            json_object_object_add(e, "name", json_object_new_string(wl->type_names[t]));
            json_object_object_add(e, "p90_ms", json_object_new_double(ms(hist_percentile(s->type_lat[t], 90))));
            json_object_object_add(e, "p90_limit_ms", json_object_new_double(
                wl->type_p90_limit_s ? wl->type_p90_limit_s[t] * 1000 : 0));
            json_object_object_add(e, "p90_met", json_object_new_boolean(p90_ok(wl, s, t)));
            json_object_object_add(e, "share", json_object_new_double(s->trx ? (double)s->type_trx[t] / s->trx : 0));
            json_object_object_add(e, "min_share", json_object_new_double(
                wl->type_min_share ? wl->type_min_share[t] : 0));
            json_object_object_add(e, "share_met", json_object_new_boolean(share_ok(wl, s, t)));
            json_object_array_add(lims, e);
        }
        json_object_object_add(x, "limits", lims);
        json_object_object_add(x, "all_limits_met", json_object_new_boolean(all));
        json_object_object_add(j, "tpcc", x);
    }
    return j;
}

int report_json(const char *path, const oltp_opts *o, const workload *wl, const run_result *r)
{
    json_object *doc = json_object_new_object(), *tool = json_object_new_object(),
                *server = json_object_new_object(), *phases = json_object_new_array();
    char when[32];
    time_t now = time(NULL);
    int rc = 0;

    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    json_object_object_add(doc, "schema", json_object_new_string("drivebench.oltp/1"));
    json_object_object_add(tool, "name", json_object_new_string("oltp"));
    json_object_object_add(tool, "version", json_object_new_string(DRIVEBENCH_VERSION));
    json_object_object_add(doc, "tool", tool);
    json_object_object_add(doc, "workload", json_object_new_string(o->workload));
    json_object_object_add(doc, "driver", json_object_new_string(o->db_driver));
    json_object_object_add(doc, "started_at", json_object_new_string(when));
    json_object_object_add(server, "version", json_object_new_string(r->server_version));
    json_object_object_add(doc, "server", server);
    json_object_object_add(doc, "options", opts_to_json(o));
    for (int i = 0; i < r->nphases; i++)
        json_object_array_add(phases, phase_json(o, wl, &r->phases[i]));
    json_object_object_add(doc, "phases", phases);
    {
        /* atomically: a reader sees the previous file or this whole one */
        const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                          JSON_C_TO_STRING_NOSLASHESCAPE);
        char err[512];
        if (!text || atomic_file_write(path, text, strlen(text), err, sizeof err) < 0) {
            fprintf(stderr, "oltp: %s\n", text ? err : "out of memory");
            rc = -1;
        }
    }
    json_object_put(doc);
    return rc;
}
