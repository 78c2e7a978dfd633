/* results_oltp.c — the oltp result (drivebench.oltp/1) <-> res_oltp (see
 * results.h; the format is in results/SCHEMA.md). */
#include "results.h"
#include "results_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OLTP_SCHEMA         "drivebench.oltp/1"
#define OLTP_SCHEMA_NAME    "drivebench.oltp/"
#define OLTP_MAJOR          1

/* ------------------------------------------------------------------ */
/* oltp result                                                         */

void res_latency_add_pct(res_latency *l, double pct, double ms)
{
    for (int i = 0; i < l->npct; i++)
        if (l->pct[i].pct == pct)
            return;
    if (l->npct < RES_MAX_PCT)
        l->pct[l->npct++] = (res_pct){ .pct = pct, .ms = ms };
}

double res_latency_pct(const res_latency *l, double pct)
{
    for (int i = 0; i < l->npct; i++)
        if (l->pct[i].pct == pct)
            return l->pct[i].ms;
    return 0;
}

static const char *const end_names[] = {
    [RES_END_COMPLETE] = "complete", [RES_END_SIGNAL] = "signal", [RES_END_ERROR] = "error",
};

const char *res_end_name(res_end e)
{
    return e >= RES_END_COMPLETE && e <= RES_END_ERROR ? end_names[e] : "error";
}

/* The "ended" member: absent is complete (a result older than the key),
 * a value not known here is an error (never taken for a measurement). */
static res_end end_from_json(json_object *doc)
{
    json_object *v = rj_get(doc, "ended");
    if (!v)
        return RES_END_COMPLETE;
    for (int e = RES_END_COMPLETE; e <= RES_END_ERROR; e++)
        if (json_object_is_type(v, json_type_string)
            && strcmp(json_object_get_string(v), end_names[e]) == 0)
            return (res_end)e;
    return RES_END_ERROR;
}

/* "p99.9" for 99.9 */
static void pct_key(char *buf, size_t len, double p)
{
    snprintf(buf, len, "p%g", p);
}

res_phase *res_oltp_add_phase(res_oltp *r)
{
    res_phase *p = realloc(r->phases, sizeof *p * (size_t)(r->nphases + 1));
    if (!p)
        return NULL;
    r->phases = p;
    p = &r->phases[r->nphases++];
    memset(p, 0, sizeof *p);
    p->cpu_s_per_1000_txn = NAN;
    return p;
}

const res_phase *res_oltp_measure(const res_oltp *r)
{
    for (int i = 0; r && i < r->nphases; i++)
        if (r->phases[i].name && strcmp(r->phases[i].name, "measure") == 0)
            return &r->phases[i];
    return NULL;
}

static void phase_clear(res_phase *p)
{
    free(p->name);
    free(p->intervals);
    free(p->longest_outage_s);
    hist_free(p->histogram);
    for (int t = 0; t < p->ntypes; t++) {
        free(p->types[t].name);
        hist_free(p->types[t].histogram);
    }
    free(p->types);
    if (p->tpcc) {
        for (int i = 0; i < p->tpcc->nlimits; i++)
            free(p->tpcc->limits[i].name);
        free(p->tpcc->limits);
        free(p->tpcc->tpm_name);
        free(p->tpcc->server_rate_name);
        free(p->tpcc);
    }
}

void res_oltp_clear(res_oltp *r)
{
    if (!r)
        return;
    free(r->tool_name);
    free(r->tool_version);
    free(r->workload);
    free(r->driver);
    free(r->started_at);
    free(r->server_version);
    free(r->end_reason);
    json_object_put(r->options);
    for (int i = 0; i < r->nphases; i++)
        phase_clear(&r->phases[i]);
    free(r->phases);
    memset(r, 0, sizeof *r);
}

static json_object *latency_to_json(const res_latency *l)
{
    json_object *j = json_object_new_object();
    char key[32];
    rj_put(j, "avg", json_object_new_double(l->avg));
    rj_put(j, "min", json_object_new_double(l->min));
    rj_put(j, "max", json_object_new_double(l->max));
    for (int i = 0; i < l->npct; i++) {
        pct_key(key, sizeof key, l->pct[i].pct);
        rj_put(j, key, json_object_new_double(l->pct[i].ms));
    }
    return j;
}

static void latency_from_json(json_object *j, res_latency *l)
{
    memset(l, 0, sizeof *l);
    l->avg = rj_get_d(j, "avg");
    l->min = rj_get_d(j, "min");
    l->max = rj_get_d(j, "max");
    if (!j || !json_object_is_type(j, json_type_object))
        return;
    json_object_object_foreach(j, key, v) {
        char *end;
        double p;
        if (key[0] != 'p')
            continue;
        p = strtod(key + 1, &end);
        if (end != key + 1 && !*end)
            res_latency_add_pct(l, p, json_object_get_double(v));
    }
}

static json_object *types_to_json(const res_phase *p)
{
    json_object *types = json_object_new_array();
    for (int t = 0; t < p->ntypes; t++) {
        const res_txn_type *x = &p->types[t];
        json_object *e = json_object_new_object();
        rj_put(e, "name", json_object_new_string(x->name));
        rj_put(e, "count", json_object_new_int64(x->count));
        rj_put(e, "share", json_object_new_double(x->share));
        rj_put(e, "rollbacks", json_object_new_int64(x->rollbacks));
        rj_put(e, "retries", json_object_new_int64(x->retries));
        rj_put(e, "latency_ms", latency_to_json(&x->latency));
        rj_put(e, "histogram", x->histogram ? hist_to_json(x->histogram) : NULL);
        json_object_array_add(types, e);
    }
    return types;
}

static json_object *tpcc_to_json(const res_tpcc *c)
{
    json_object *x = json_object_new_object(), *lims = json_object_new_array();
    rj_put(x, c->tpm_name ? c->tpm_name : "tpmC", json_object_new_double(c->tpm));
    if (c->server_rate_name) {
        rj_put(x, c->server_rate_name, json_object_new_double(c->server_rate));
        rj_put(x, "server_count", json_object_new_int64(c->server_count));
        rj_put(x, "server_count_margin", json_object_new_int64(c->server_count_margin));
    }
    rj_put(x, "tps", json_object_new_double(c->tps));
    for (int i = 0; i < c->nlimits; i++) {
        const res_tpcc_limit *l = &c->limits[i];
        json_object *e = json_object_new_object();
        rj_put(e, "name", json_object_new_string(l->name));
        rj_put(e, "p90_ms", json_object_new_double(l->p90_ms));
        rj_put(e, "p90_limit_ms", json_object_new_double(l->p90_limit_ms));
        rj_put(e, "p90_met", json_object_new_boolean(l->p90_met));
        rj_put(e, "share", json_object_new_double(l->share));
        rj_put(e, "min_share", json_object_new_double(l->min_share));
        rj_put(e, "share_met", json_object_new_boolean(l->share_met));
        json_object_array_add(lims, e);
    }
    rj_put(x, "limits", lims);
    rj_put(x, "all_limits_met", json_object_new_boolean(c->all_limits_met));
    return x;
}

static json_object *phase_to_json(const res_phase *p)
{
    json_object *j = json_object_new_object(), *q = json_object_new_object();
    json_object *iv = json_object_new_array();
    char key[32];

    rj_put(j, "name", json_object_new_string(p->name));
    rj_put(j, "duration_s", json_object_new_double(p->duration_s));
    rj_put(j, "transactions", json_object_new_int64(p->transactions));
    rj_put(q, "read", json_object_new_int64(p->reads));
    rj_put(q, "write", json_object_new_int64(p->writes));
    rj_put(q, "other", json_object_new_int64(p->others));
    rj_put(q, "total", json_object_new_int64(p->total));
    rj_put(j, "queries", q);
    rj_put(j, "tps", json_object_new_double(p->tps));
    rj_put(j, "qps", json_object_new_double(p->qps));
    rj_put(j, "errors", json_object_new_int64(p->errors));
    rj_put(j, "reconnects", json_object_new_int64(p->reconnects));
    rj_put(j, "rollbacks", json_object_new_int64(p->rollbacks));
    if (isfinite(p->cpu_s_per_1000_txn))
        rj_put(j, "cpu_s_per_1000_txn", json_object_new_double(p->cpu_s_per_1000_txn));
    if (p->has_outage) {
        rj_put(j, "unavailable_s", json_object_new_double(p->unavailable_s));
        json_object *lo = json_object_new_array();
        for (int i = 0; i < p->nlongest_outage; i++)
            json_object_array_add(lo, json_object_new_double(p->longest_outage_s[i]));
        rj_put(j, "longest_outage_s", lo);
    }
    rj_put(j, "latency_ms", latency_to_json(&p->latency));
    if (p->has_queue)
        rj_put(j, "queue_ms", latency_to_json(&p->queue));
    pct_key(key, sizeof key, p->iv_pct);
    for (int i = 0; i < p->nintervals; i++) {
        const res_interval *x = &p->intervals[i];
        json_object *e = json_object_new_object(), *l = json_object_new_object();
        rj_put(e, "t", json_object_new_double(x->t));
        rj_put(e, "tps", json_object_new_double(x->tps));
        rj_put(e, "qps", json_object_new_double(x->qps));
        rj_put(e, "errors_ps", json_object_new_double(x->errors_ps));
        rj_put(e, "reconnects_ps", json_object_new_double(x->reconnects_ps));
        rj_put(l, "avg", json_object_new_double(x->lat_avg_ms));
        rj_put(l, key, json_object_new_double(x->lat_pct_ms));
        rj_put(e, "latency_ms", l);
        if (p->has_queue)
            rj_put(e, "queue_length", json_object_new_int64(x->queue_length));
        json_object_array_add(iv, e);
    }
    rj_put(j, "intervals", iv);
    rj_put(j, "histogram", p->histogram ? hist_to_json(p->histogram) : NULL);
    if (p->ntypes > 0)
        rj_put(j, "transaction_types", types_to_json(p));
    if (p->tpcc)
        rj_put(j, "tpcc", tpcc_to_json(p->tpcc));
    return j;
}

int res_oltp_write_file(const res_oltp *r, const char *path, char *err, size_t errlen)
{
    json_object *doc = json_object_new_object(), *tool = json_object_new_object(),
                *server = json_object_new_object(), *phases = json_object_new_array();
    int rc;

    rj_put(doc, "schema", json_object_new_string(OLTP_SCHEMA));
    rj_put(tool, "name", json_object_new_string(r->tool_name ? r->tool_name : "oltp"));
    rj_put(tool, "version", rj_str_or_null(r->tool_version));
    rj_put(doc, "tool", tool);
    rj_put(doc, "workload", rj_str_or_null(r->workload));
    rj_put(doc, "driver", rj_str_or_null(r->driver));
    rj_put(doc, "started_at", rj_str_or_null(r->started_at));
    rj_put(server, "version", rj_str_or_null(r->server_version));
    rj_put(doc, "server", server);
    rj_put(doc, "options", r->options ? json_object_get(r->options) : json_object_new_object());
    rj_put(doc, "ended", json_object_new_string(res_end_name(r->ended)));
    if (r->ended != RES_END_COMPLETE)
        rj_put(doc, "ended_reason", rj_str_or_null(r->end_reason));
    for (int i = 0; i < r->nphases; i++)
        json_object_array_add(phases, phase_to_json(&r->phases[i]));
    rj_put(doc, "phases", phases);
    rc = rj_write_json(doc, path, err, errlen);
    json_object_put(doc);
    return rc;
}

/* The bounds of a histogram object checked before hist_from_json
 * allocates for it (results.h: RES_MAX_HIST_*, RES_MAX_BUCKETS), and its
 * bucket counts summed without overflow. 0, or -1 with the reason. */
static int hist_bounds(json_object *v, char *err, size_t errlen)
{
    json_object *b = rj_get(v, "buckets");
    int64_t digits = rj_get_i(v, "significant_digits"), highest = rj_get_i(v, "highest_trackable");
    int64_t total = 0;
    size_t n = rj_array_len(b);
    if (digits > RES_MAX_HIST_DIGITS || highest > RES_MAX_HIST_HIGHEST) {
        snprintf(err, errlen, "significant_digits %" PRId64 " or highest_trackable %" PRId64
                 " above the bounds (%d, %lld)", digits, highest, RES_MAX_HIST_DIGITS,
                 (long long)RES_MAX_HIST_HIGHEST);
        return -1;
    }
    if (n > RES_MAX_BUCKETS) {
        snprintf(err, errlen, "%zu buckets, more than %d", n, RES_MAX_BUCKETS);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t c = json_object_get_int64(rj_idx(rj_idx(b, i), 1));
        if (c > 0 && __builtin_add_overflow(total, c, &total)) {
            snprintf(err, errlen, "bucket counts overflow");
            return -1;
        }
    }
    return 0;
}

/* A histogram member; NULL with "what: reason" in err when malformed or
 * beyond the bounds. */
static int hist_member(json_object *o, const char *what, hist **out, char *err, size_t errlen)
{
    json_object *v = rj_get(o, "histogram");
    char herr[256];
    *out = NULL;
    if (!v)
        return 0;
    if (hist_bounds(v, herr, sizeof herr) == 0 && (*out = hist_from_json(v, herr, sizeof herr))) {
        const hist *h = *out;
        if (h->min >= 0 && h->min <= h->max && h->max <= h->highest && isfinite(h->sum)
            && h->sum >= 0)
            return 0;
        snprintf(herr, sizeof herr, "min %" PRId64 ", max %" PRId64 " or sum %g outside "
                 "0..highest_trackable", h->min, h->max, h->sum);
    }
    snprintf(err, errlen, "%s: %s", what, herr);
    return -1;
}

static int types_from_json(json_object *a, res_phase *p, char *err, size_t errlen)
{
    size_t n = rj_array_len(a);
    bool oom = false;
    if (!n)
        return 0;
    if (n > RES_MAX_TYPES) {
        snprintf(err, errlen, "%s: %zu transaction_types, more than %d", p->name, n,
                 RES_MAX_TYPES);
        return -1;
    }
    p->types = calloc(n, sizeof *p->types);
    if (!p->types) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->ntypes = (int)n;
    for (size_t t = 0; t < n; t++) {
        json_object *e = rj_idx(a, t);
        res_txn_type *x = &p->types[t];
        char what[64];
        x->name = rj_get_s(e, "name", &oom);
        x->count = rj_get_i(e, "count");
        x->share = rj_get_d(e, "share");
        x->rollbacks = rj_get_i(e, "rollbacks");
        x->retries = rj_get_i(e, "retries");
        latency_from_json(rj_get(e, "latency_ms"), &x->latency);
        snprintf(what, sizeof what, "%s: transaction_types[%zu].histogram", p->name, t);
        if (hist_member(e, what, &x->histogram, err, errlen) < 0)
            return -1;
    }
    if (oom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static int tpcc_from_json(json_object *x, res_phase *p, char *err, size_t errlen)
{
    json_object *lims = rj_get(x, "limits");
    size_t n = rj_array_len(lims);
    bool oom = false;
    res_tpcc *c;
    if (n > RES_MAX_TYPES) {
        snprintf(err, errlen, "%s: %zu tpcc.limits, more than %d", p->name, n, RES_MAX_TYPES);
        return -1;
    }
    c = calloc(1, sizeof *c);
    if (!c || !(c->limits = calloc(n ? n : 1, sizeof *c->limits))) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->tpcc = c;
    /* the headline rate is the first member that is not a known key, the
     * server's rate (when counted) the second: they are written so */
    json_object_object_foreach(x, key, v) {
        if (!strcmp(key, "tps") || !strcmp(key, "limits") || !strcmp(key, "all_limits_met")
            || !strcmp(key, "server_count") || !strcmp(key, "server_count_margin")
            || !rj_is_number(v))
            continue;
        if (!c->tpm_name) {
            c->tpm_name = strdup(key);
            oom |= !c->tpm_name;
            c->tpm = json_object_get_double(v);
        } else if (!c->server_rate_name) {
            c->server_rate_name = strdup(key);
            oom |= !c->server_rate_name;
            c->server_rate = json_object_get_double(v);
        }
    }
    c->server_count = rj_get_i(x, "server_count");
    c->server_count_margin = rj_get_i(x, "server_count_margin");
    c->tps = rj_get_d(x, "tps");
    c->all_limits_met = rj_get_b(x, "all_limits_met");
    c->nlimits = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *e = rj_idx(lims, i);
        res_tpcc_limit *l = &c->limits[i];
        l->name = rj_get_s(e, "name", &oom);
        l->p90_ms = rj_get_d(e, "p90_ms");
        l->p90_limit_ms = rj_get_d(e, "p90_limit_ms");
        l->p90_met = rj_get_b(e, "p90_met");
        l->share = rj_get_d(e, "share");
        l->min_share = rj_get_d(e, "min_share");
        l->share_met = rj_get_b(e, "share_met");
    }
    if (oom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* What a phase read from a file must hold (see res_oltp_read_file): the
 * first violation, with the phase name and JSON key, goes to err. */
typedef struct check {
    const char *phase;
    char       *err;
    size_t      errlen;
    bool        bad;
} check;

static void check_count(check *c, const char *key, int64_t v)
{
    if (!c->bad && v < 0) {
        c->bad = true;
        snprintf(c->err, c->errlen, "%s: %s is %" PRId64 ", a count cannot be negative",
                 c->phase, key, v);
    }
}

static void check_num(check *c, const char *key, double v)
{
    if (!c->bad && !(isfinite(v) && v >= 0)) {
        c->bad = true;
        snprintf(c->err, c->errlen, "%s: %s is %g, not a finite number >= 0", c->phase, key, v);
    }
}

/* check_num / check_count of the key fmt with its index i filled in
 * ("intervals[%d].tps"). */
static void check_num_at(check *c, const char *fmt, int i, double v)
{
    char k[96];
    snprintf(k, sizeof k, fmt, i);
    check_num(c, k, v);
}

static void check_count_at(check *c, const char *fmt, int i, int64_t v)
{
    char k[96];
    snprintf(k, sizeof k, fmt, i);
    check_count(c, k, v);
}

static void check_latency(check *c, const char *key, const res_latency *l)
{
    char k[96];
    snprintf(k, sizeof k, "%s.avg", key);
    check_num(c, k, l->avg);
    snprintf(k, sizeof k, "%s.min", key);
    check_num(c, k, l->min);
    snprintf(k, sizeof k, "%s.max", key);
    check_num(c, k, l->max);
    for (int i = 0; i < l->npct; i++) {
        snprintf(k, sizeof k, "%s.p%g", key, l->pct[i].pct);
        check_num(c, k, l->pct[i].ms);
    }
}

static int phase_check(const res_phase *p, char *err, size_t errlen)
{
    check c = { p->name, err, errlen, false };
    char k[96];
    check_num(&c, "duration_s", p->duration_s);
    if (!c.bad && strcmp(p->name, "measure") == 0 && p->duration_s <= 0) {
        snprintf(err, errlen, "measure: duration_s is %g; a measured phase lasts more than 0 s",
                 p->duration_s);
        return -1;
    }
    check_count(&c, "transactions", p->transactions);
    check_count(&c, "queries.read", p->reads);
    check_count(&c, "queries.write", p->writes);
    check_count(&c, "queries.other", p->others);
    check_count(&c, "queries.total", p->total);
    check_num(&c, "tps", p->tps);
    check_num(&c, "qps", p->qps);
    check_count(&c, "errors", p->errors);
    check_count(&c, "reconnects", p->reconnects);
    check_count(&c, "rollbacks", p->rollbacks);
    check_num(&c, "unavailable_s", p->unavailable_s);
    for (int i = 0; i < p->nlongest_outage; i++) {
        check_num_at(&c, "longest_outage_s[%d]", i, p->longest_outage_s[i]);
    }
    check_latency(&c, "latency_ms", &p->latency);
    check_latency(&c, "queue_ms", &p->queue);
    for (int i = 0; i < p->nintervals && !c.bad; i++) {
        const res_interval *x = &p->intervals[i];
        check_num_at(&c, "intervals[%d].t", i, x->t);
        if (!c.bad && i > 0 && x->t < p->intervals[i - 1].t) {
            snprintf(err, errlen, "%s: intervals[%d].t is %g, before intervals[%d].t (%g)",
                     p->name, i, x->t, i - 1, p->intervals[i - 1].t);
            return -1;
        }
        check_num_at(&c, "intervals[%d].tps", i, x->tps);
        check_num_at(&c, "intervals[%d].qps", i, x->qps);
        check_num_at(&c, "intervals[%d].errors_ps", i, x->errors_ps);
        check_num_at(&c, "intervals[%d].reconnects_ps", i, x->reconnects_ps);
        check_num_at(&c, "intervals[%d].latency_ms.avg", i, x->lat_avg_ms);
        snprintf(k, sizeof k, "intervals[%d].latency_ms.p%g", i, p->iv_pct);
        check_num(&c, k, x->lat_pct_ms);
        check_count_at(&c, "intervals[%d].queue_length", i, x->queue_length);
    }
    for (int t = 0; t < p->ntypes && !c.bad; t++) {
        const res_txn_type *x = &p->types[t];
        check_count_at(&c, "transaction_types[%d].count", t, x->count);
        check_num_at(&c, "transaction_types[%d].share", t, x->share);
        check_count_at(&c, "transaction_types[%d].rollbacks", t, x->rollbacks);
        check_count_at(&c, "transaction_types[%d].retries", t, x->retries);
        snprintf(k, sizeof k, "transaction_types[%d].latency_ms", t);
        check_latency(&c, k, &x->latency);
    }
    if (p->tpcc && !c.bad) {
        const res_tpcc *x = p->tpcc;
        check_num(&c, "tpcc.tpmC", x->tpm);
        check_num(&c, "tpcc.NOPM", x->server_rate);
        check_count(&c, "tpcc.server_count", x->server_count);
        check_count(&c, "tpcc.server_count_margin", x->server_count_margin);
        check_num(&c, "tpcc.tps", x->tps);
        for (int i = 0; i < x->nlimits; i++) {
            check_num_at(&c, "tpcc.limits[%d].p90_ms", i, x->limits[i].p90_ms);
            check_num_at(&c, "tpcc.limits[%d].p90_limit_ms", i, x->limits[i].p90_limit_ms);
            check_num_at(&c, "tpcc.limits[%d].share", i, x->limits[i].share);
            check_num_at(&c, "tpcc.limits[%d].min_share", i, x->limits[i].min_share);
        }
    }
    return c.bad ? -1 : 0;
}

static int phase_from_json(json_object *j, res_phase *p, char *err, size_t errlen)
{
    json_object *q = rj_get(j, "queries"), *ivs = rj_get(j, "intervals");
    size_t n = rj_array_len(ivs);
    bool oom = false;
    char what[64];

    p->name = rj_get_s(j, "name", &oom);
    p->duration_s = rj_get_d(j, "duration_s");
    p->transactions = rj_get_i(j, "transactions");
    p->reads = rj_get_i(q, "read");
    p->writes = rj_get_i(q, "write");
    p->others = rj_get_i(q, "other");
    p->total = rj_get_i(q, "total");
    p->tps = rj_get_d(j, "tps");
    p->qps = rj_get_d(j, "qps");
    p->errors = rj_get_i(j, "errors");
    p->reconnects = rj_get_i(j, "reconnects");
    p->rollbacks = rj_get_i(j, "rollbacks");
    p->has_outage = rj_get(j, "unavailable_s") != NULL;
    p->unavailable_s = rj_get_d(j, "unavailable_s");
    p->cpu_s_per_1000_txn = rj_is_number(rj_get(j, "cpu_s_per_1000_txn"))
                            ? rj_get_d(j, "cpu_s_per_1000_txn") : NAN;
    {
        json_object *lo = rj_get(j, "longest_outage_s");
        size_t nl = rj_array_len(lo);
        if (nl > RES_MAX_CONNECTIONS) {
            snprintf(err, errlen, "%s: %zu longest_outage_s, more than %d",
                     p->name ? p->name : "?", nl, RES_MAX_CONNECTIONS);
            return -1;
        }
        if (nl && !(p->longest_outage_s = calloc(nl, sizeof *p->longest_outage_s))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        p->nlongest_outage = (int)nl;
        for (size_t i = 0; i < nl; i++)
            p->longest_outage_s[i] = json_object_get_double(rj_idx(lo, i));
    }
    latency_from_json(rj_get(j, "latency_ms"), &p->latency);
    if (!p->name && !oom)
        oom = !(p->name = strdup("?"));
    if (n > RES_MAX_INTERVALS) {
        snprintf(err, errlen, "%s: %zu intervals, more than %d", p->name ? p->name : "?", n,
                 RES_MAX_INTERVALS);
        return -1;
    }
    if (rj_get(j, "queue_ms")) {
        p->has_queue = true;
        latency_from_json(rj_get(j, "queue_ms"), &p->queue);
    }
    if (oom || (n && !(p->intervals = calloc(n, sizeof *p->intervals)))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->nintervals = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *e = rj_idx(ivs, i), *l = rj_get(e, "latency_ms");
        res_interval *x = &p->intervals[i];
        x->t = rj_get_d(e, "t");
        x->tps = rj_get_d(e, "tps");
        x->qps = rj_get_d(e, "qps");
        x->errors_ps = rj_get_d(e, "errors_ps");
        x->reconnects_ps = rj_get_d(e, "reconnects_ps");
        x->lat_avg_ms = rj_get_d(l, "avg");
        x->queue_length = rj_get_i(e, "queue_length");
        if (l && json_object_is_type(l, json_type_object)) {
            json_object_object_foreach(l, key, v) {
                char *end;
                double pct;
                if (key[0] != 'p')
                    continue;
                pct = strtod(key + 1, &end);
                if (end != key + 1 && !*end) {
                    p->iv_pct = pct;
                    x->lat_pct_ms = json_object_get_double(v);
                }
            }
        }
    }
    snprintf(what, sizeof what, "%s: histogram", p->name);
    if (hist_member(j, what, &p->histogram, err, errlen) < 0
        || types_from_json(rj_get(j, "transaction_types"), p, err, errlen) < 0
        || (rj_get(j, "tpcc") && tpcc_from_json(rj_get(j, "tpcc"), p, err, errlen) < 0))
        return -1;
    return phase_check(p, err, errlen);
}

/* The document's content into r; -1 with the reason (no path) in err. */
static int oltp_from_json(json_object *doc, res_oltp *r, char *err, size_t errlen)
{
    json_object *phases = rj_get(doc, "phases"), *measure = NULL, *schema = rj_get(doc, "schema");
    bool oom = false;

    if (!schema || rj_schema_major(json_object_get_string(schema), OLTP_SCHEMA_NAME) != OLTP_MAJOR) {
        snprintf(err, errlen, "not a %s result", OLTP_SCHEMA);
        return -1;
    }
    if (!phases || !json_object_is_type(phases, json_type_array)) {
        snprintf(err, errlen, "no phases array");
        return -1;
    }
    if (rj_array_len(phases) > RES_MAX_PHASES) {
        snprintf(err, errlen, "%zu phases, more than %d", rj_array_len(phases), RES_MAX_PHASES);
        return -1;
    }
    for (size_t i = 0; i < rj_array_len(phases); i++) {
        json_object *name = rj_get(rj_idx(phases, i), "name");
        if (name && strcmp(json_object_get_string(name), "measure") == 0)
            measure = rj_idx(phases, i);
    }
    if (!measure) {
        snprintf(err, errlen, "no \"measure\" phase");
        return -1;
    }
    if (!rj_is_number(rj_get(measure, "tps"))) {
        snprintf(err, errlen, "measure phase has no numeric tps");
        return -1;
    }
    if (!rj_get(measure, "histogram")) {
        snprintf(err, errlen, "measure phase has no histogram");
        return -1;
    }
    r->tool_name = rj_get_s(rj_get(doc, "tool"), "name", &oom);
    r->tool_version = rj_get_s(rj_get(doc, "tool"), "version", &oom);
    r->workload = rj_get_s(doc, "workload", &oom);
    r->driver = rj_get_s(doc, "driver", &oom);
    r->started_at = rj_get_s(doc, "started_at", &oom);
    r->server_version = rj_get_s(rj_get(doc, "server"), "version", &oom);
    r->ended = end_from_json(doc);
    if (r->ended != RES_END_COMPLETE)
        r->end_reason = rj_get_s(doc, "ended_reason", &oom);
    r->options = rj_get(doc, "options") ? json_object_get(rj_get(doc, "options")) : NULL;
    if (oom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < rj_array_len(phases); i++) {
        res_phase *p = res_oltp_add_phase(r);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (phase_from_json(rj_idx(phases, i), p, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int res_oltp_read_file(const char *path, res_oltp *r, char *err, size_t errlen)
{
    char why[512];
    json_object *doc;

    memset(r, 0, sizeof *r);
    doc = rj_read_json(path, why, sizeof why);
    if (!doc) {
        snprintf(err, errlen, "%s: cannot read result JSON: %s", path, why);
        return -1;
    }
    if (oltp_from_json(doc, r, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        res_oltp_clear(r);
        json_object_put(doc);
        return -1;
    }
    json_object_put(doc);
    return 0;
}
