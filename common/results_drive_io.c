/* results_drive_io.c — the summary's drive I/O, host view and statistics
 * (res_io, results.h) as JSON and CSV. The only code that knows these
 * keys; results/SCHEMA.md, "Drive I/O and statistics", says what each
 * means. A value that was not measured is left out, never written as 0. */
#include "results.h"
#include "results_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RES_IO_NAME(k) #k,
static const char *const guest_keys[] = { RES_IO_GUEST_KEYS(RES_IO_NAME) };
static const char *const host_keys[] = { RES_IO_HOST_KEYS(RES_IO_NAME) };
#undef RES_IO_NAME

/* The percentiles of a drive's latency spectrum (HdrHistogram style). */
static const double spectrum_pcts[] = { 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

static void row_init(res_io_row *r)
{
    r->t = NAN;
    for (int k = 0; k < RES_IO_MAXK; k++)
        r->v[k] = NAN;
}

res_io *res_io_new(void)
{
    res_io *io = calloc(1, sizeof *io);
    if (!io)
        return NULL;
    io->p_pct = NAN;
    io->cpu_s_per_1000_txn = NAN;
    io->host_cpu_busy_pct = NAN;
    return io;
}

res_io_rates *res_io_rates_new(bool host, int n)
{
    res_io_rates *r = calloc(1, sizeof *r);
    if (!r || (n > 0 && !(r->series = calloc((size_t)n, sizeof *r->series)))) {
        free(r);
        return NULL;
    }
    r->host = host;
    r->vms = r->missing = -1;
    r->nseries = n;
    row_init(&r->total);
    for (int i = 0; i < n; i++)
        row_init(&r->series[i]);
    return r;
}

res_io_health *res_io_health_new(void)
{
    res_io_health *h = calloc(1, sizeof *h);
    if (h)
        h->temp_c = h->wear_pct = NAN;
    return h;
}

void res_io_rates_free(res_io_rates *r)
{
    if (r)
        free(r->series);
    free(r);
}

static void health_free(res_io_health *h)
{
    if (h) {
        free(h->source);
        free(h->wear_from);
        free(h->note);
    }
    free(h);
}

static void host_free(res_io_host *h)
{
    if (!h)
        return;
    char **strs[] = { &h->kind, &h->node, &h->disk, &h->dm_name, &h->note, &h->model,
                      &h->vendor, &h->serial, &h->firmware, &h->scheduler, &h->write_cache,
                      &h->fs_type };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        free(*strs[i]);
    for (int i = 0; i < h->nslaves; i++)
        free(h->slaves[i]);
    free(h->slaves);
    health_free(h->health_before);
    health_free(h->health_after);
    res_io_rates_free(h->rates);
    free(h);
}

void res_io_free(res_io *io)
{
    if (!io)
        return;
    res_io_rates_free(io->db);
    res_io_rates_free(io->boot);
    host_free(io->host);
    free(io->spectrum);
    free(io->p_series);
    for (int i = 0; i < io->ncmp; i++) {
        free(io->cmp[i].a);
        free(io->cmp[i].b);
        free(io->cmp[i].method);
        free(io->cmp[i].reason);
    }
    free(io->cmp);
    free(io->host_cpu_note);
    free(io);
}

/* ------------------------------------------------------------------ */
/* writing                                                             */

static void put_d(json_object *o, const char *key, double v)
{
    if (isfinite(v))
        rj_put(o, key, res_json_number(v));
}

static void put_s(json_object *o, const char *key, const char *v)
{
    if (v)
        rj_put(o, key, json_object_new_string(v));
}

static void put_i(json_object *o, const char *key, int64_t v)
{
    if (v != RES_UNSET)
        rj_put(o, key, json_object_new_int64(v));
}

static void row_put(json_object *o, const res_io_row *r, bool host)
{
    int n = host ? RES_IOH_N : RES_IOG_N;
    const char *const *keys = host ? host_keys : guest_keys;
    for (int k = 0; k < n; k++)
        put_d(o, keys[k], r->v[k]);
}

/* {keys of the phase, vms, missing, measured_s, series: [{t, keys}]} */
static json_object *rates_json(const res_io_rates *r)
{
    json_object *o = json_object_new_object(), *series = json_object_new_array();
    row_put(o, &r->total, r->host);
    put_d(o, "measured_s", r->total.t);
    if (r->vms >= 0)
        rj_put(o, "vms", json_object_new_int(r->vms));
    if (r->missing >= 0)
        rj_put(o, "missing", json_object_new_int(r->missing));
    for (int i = 0; i < r->nseries; i++) {
        json_object *e = json_object_new_object();
        put_d(e, "t", r->series[i].t);
        row_put(e, &r->series[i], r->host);
        json_object_array_add(series, e);
    }
    rj_put(o, "series", series);
    return o;
}

static json_object *health_json(const res_io_health *h)
{
    json_object *o = json_object_new_object();
    put_s(o, "source", h->source);
    put_d(o, "temp_c", h->temp_c);
    put_d(o, "wear_pct", h->wear_pct);
    put_s(o, "wear_from", h->wear_from);
    put_s(o, "note", h->note);
    return o;
}

static json_object *host_json(const res_io_host *h)
{
    json_object *o = json_object_new_object(), *dev = json_object_new_object();
    json_object *id = json_object_new_object(), *slaves = json_object_new_array();
    put_s(dev, "kind", h->kind);
    put_s(dev, "node", h->node);
    put_s(dev, "disk", h->disk);
    put_s(dev, "dm_name", h->dm_name);
    put_s(dev, "note", h->note);
    for (int i = 0; i < h->nslaves; i++)
        json_object_array_add(slaves, json_object_new_string(h->slaves[i]));
    rj_put(dev, "slaves", slaves);
    rj_put(o, "device", dev);
    put_s(id, "model", h->model);
    put_s(id, "vendor", h->vendor);
    put_s(id, "serial", h->serial);
    put_s(id, "firmware", h->firmware);
    put_i(id, "size_bytes", h->size_bytes);
    if (h->rotational >= 0)
        rj_put(id, "rotational", json_object_new_int(h->rotational));
    put_s(id, "scheduler", h->scheduler);
    put_s(id, "write_cache", h->write_cache);
    put_s(id, "fs_type", h->fs_type);
    put_i(id, "fs_size_bytes", h->fs_size_bytes);
    put_i(id, "fs_avail_bytes", h->fs_avail_bytes);
    put_d(id, "fs_used_pct", h->fs_used_pct);
    rj_put(o, "identity", id);
    if (h->health_before)
        rj_put(o, "health_before", health_json(h->health_before));
    if (h->health_after)
        rj_put(o, "health_after", health_json(h->health_after));
    if (h->rates)
        rj_put(o, "io", rates_json(h->rates));
    put_d(o, "flush_ratio", h->flush_ratio);
    return o;
}

static json_object *cmp_json(const res_io_cmp *c)
{
    json_object *o = json_object_new_object();
    put_s(o, "a", c->a);
    put_s(o, "b", c->b);
    put_s(o, "method", c->method);
    rj_put(o, "n", json_object_new_int(c->n));
    if (c->k > 0)
        rj_put(o, "k", json_object_new_int(c->k));
    put_d(o, "mean_a", c->mean_a);
    put_d(o, "mean_b", c->mean_b);
    put_d(o, "diff", c->diff);
    put_d(o, "diff_pct", c->diff_pct);
    put_d(o, "lo", c->lo);
    put_d(o, "hi", c->hi);
    put_d(o, "df", c->df);
    put_d(o, "p_value", c->p_value);
    put_d(o, "r1", c->r1);
    put_d(o, "p_holm", c->p_holm);
    if (c->family > 0)
        rj_put(o, "family", json_object_new_int(c->family));
    rj_put(o, "verdict", json_object_new_string(res_cmp_verdict_name(c->verdict)));
    put_s(o, "reason", c->reason);
    if (c->needs > 0)
        rj_put(o, "needs", json_object_new_int(c->needs));
    return o;
}

static const char *const cmp_verdicts[] = {
#define RES_CMP_VERDICT_NAME(id, name) name,
    RES_CMP_VERDICTS(RES_CMP_VERDICT_NAME)
#undef RES_CMP_VERDICT_NAME
};

const char *res_cmp_verdict_name(res_cmp_verdict v)
{
    return v >= 0 && v < RES_CMP_VERDICT_COUNT ? cmp_verdicts[v] : "?";
}

void res_io_put(json_object *owner, const res_io *io)
{
    if (!io)
        return;
    if (io->db || io->boot) {
        json_object *o = json_object_new_object();
        if (io->db)
            rj_put(o, "db", rates_json(io->db));
        if (io->boot)
            rj_put(o, "boot", rates_json(io->boot));
        rj_put(owner, "io", o);
    }
    if (io->host)
        rj_put(owner, "host", host_json(io->host));
    if (io->nspectrum > 0) {
        json_object *a = json_object_new_array();
        for (int i = 0; i < io->nspectrum; i++) {
            json_object *e = json_object_new_object();
            rj_put(e, "pct", res_json_number(io->spectrum[i].pct));
            rj_put(e, "ms", res_json_number(io->spectrum[i].ms));
            json_object_array_add(a, e);
        }
        rj_put(owner, "latency_spectrum", a);
    }
    if (isfinite(io->p_pct)) {
        json_object *o = json_object_new_object(), *a = json_object_new_array();
        rj_put(o, "pct", res_json_number(io->p_pct));
        for (int i = 0; i < io->np; i++) {
            json_object *pair = json_object_new_array();
            json_object_array_add(pair, res_json_number(io->p_series[i].t));
            json_object_array_add(pair, res_json_number(io->p_series[i].tps));
            json_object_array_add(a, pair);
        }
        rj_put(o, "series", a);
        rj_put(owner, "p_latency_series", o);
    }
    if (io->steady.n > 0) {
        json_object *o = json_object_new_object();
        rj_put(o, "n", json_object_new_int(io->steady.n));
        put_d(o, "mean_tps", io->steady.mean);
        put_d(o, "slope", io->steady.slope);
        put_d(o, "slope_lo", io->steady.slope_lo);
        put_d(o, "slope_hi", io->steady.slope_hi);
        put_d(o, "drift_pct", io->steady.drift_pct);
        rj_put(o, "trending", json_object_new_boolean(io->steady.trending));
        rj_put(owner, "steady_state", o);
    }
    put_d(owner, "cpu_s_per_1000_txn", io->cpu_s_per_1000_txn);
    if (io->ncmp > 0) {
        json_object *a = json_object_new_array();
        for (int i = 0; i < io->ncmp; i++)
            json_object_array_add(a, cmp_json(&io->cmp[i]));
        rj_put(owner, "comparisons", a);
    }
    if (isfinite(io->host_cpu_busy_pct)) {
        json_object *o = json_object_new_object();
        rj_put(o, "busy_pct", res_json_number(io->host_cpu_busy_pct));
        rj_put(o, "saturated", json_object_new_boolean(io->host_saturated));
        put_s(o, "note", io->host_cpu_note);
        rj_put(owner, "host_cpu", o);
    }
}

/* ------------------------------------------------------------------ */
/* reading                                                             */

static double get_d(json_object *o, const char *key)
{
    json_object *v = rj_get(o, key);
    return rj_is_number(v) ? json_object_get_double(v) : NAN;
}

static void row_get(json_object *o, res_io_row *r, bool host)
{
    int n = host ? RES_IOH_N : RES_IOG_N;
    const char *const *keys = host ? host_keys : guest_keys;
    for (int k = 0; k < n; k++)
        r->v[k] = get_d(o, keys[k]);
}

static res_io_rates *rates_get(json_object *o, bool host)
{
    json_object *series = rj_get(o, "series");
    int n = (int)rj_array_len(series);
    res_io_rates *r = res_io_rates_new(host, n);
    if (!r)
        return NULL;
    row_get(o, &r->total, host);
    r->total.t = get_d(o, "measured_s");
    r->vms = rj_get(o, "vms") ? (int)rj_get_i(o, "vms") : -1;
    r->missing = rj_get(o, "missing") ? (int)rj_get_i(o, "missing") : -1;
    for (int i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(series, (size_t)i);
        r->series[i].t = get_d(e, "t");
        row_get(e, &r->series[i], host);
    }
    return r;
}

static res_io_health *health_get(json_object *o, bool *oom)
{
    res_io_health *h = res_io_health_new();
    if (!h) {
        *oom = true;
        return NULL;
    }
    h->source = rj_get_s(o, "source", oom);
    h->temp_c = get_d(o, "temp_c");
    h->wear_pct = get_d(o, "wear_pct");
    h->wear_from = rj_get_s(o, "wear_from", oom);
    h->note = rj_get_s(o, "note", oom);
    return h;
}

static res_io_host *host_get(json_object *o, bool *oom)
{
    res_io_host *h = calloc(1, sizeof *h);
    json_object *dev = rj_get(o, "device"), *id = rj_get(o, "identity");
    json_object *slaves = rj_get(dev, "slaves");
    if (!h) {
        *oom = true;
        return NULL;
    }
    h->kind = rj_get_s(dev, "kind", oom);
    h->node = rj_get_s(dev, "node", oom);
    h->disk = rj_get_s(dev, "disk", oom);
    h->dm_name = rj_get_s(dev, "dm_name", oom);
    h->note = rj_get_s(dev, "note", oom);
    if (rj_array_len(slaves) && !(h->slaves = calloc(rj_array_len(slaves), sizeof *h->slaves)))
        *oom = true;
    for (size_t i = 0; h->slaves && i < rj_array_len(slaves); i++) {
        const char *sl = json_object_get_string(json_object_array_get_idx(slaves, i));
        if (!(h->slaves[h->nslaves++] = strdup(sl ? sl : "")))
            *oom = true;
    }
    h->model = rj_get_s(id, "model", oom);
    h->vendor = rj_get_s(id, "vendor", oom);
    h->serial = rj_get_s(id, "serial", oom);
    h->firmware = rj_get_s(id, "firmware", oom);
    h->size_bytes = rj_get_i_opt(id, "size_bytes");
    h->rotational = rj_get(id, "rotational") ? (int)rj_get_i(id, "rotational") : -1;
    h->scheduler = rj_get_s(id, "scheduler", oom);
    h->write_cache = rj_get_s(id, "write_cache", oom);
    h->fs_type = rj_get_s(id, "fs_type", oom);
    h->fs_size_bytes = rj_get_i_opt(id, "fs_size_bytes");
    h->fs_avail_bytes = rj_get_i_opt(id, "fs_avail_bytes");
    h->fs_used_pct = get_d(id, "fs_used_pct");
    if (rj_get(o, "health_before"))
        h->health_before = health_get(rj_get(o, "health_before"), oom);
    if (rj_get(o, "health_after"))
        h->health_after = health_get(rj_get(o, "health_after"), oom);
    if (rj_get(o, "io") && !(h->rates = rates_get(rj_get(o, "io"), true)))
        *oom = true;
    h->flush_ratio = get_d(o, "flush_ratio");
    return h;
}

int res_io_get(json_object *owner, res_io **out)
{
    static const char *const keys[] = { "io", "host", "latency_spectrum", "p_latency_series",
                                         "steady_state", "cpu_s_per_1000_txn", "comparisons",
                                         "host_cpu" };
    json_object *v;
    res_io *io;
    bool oom = false, any = false;

    *out = NULL;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        any |= rj_get(owner, keys[i]) != NULL;
    if (!any)
        return 0;
    if (!(io = res_io_new()))
        return -1;
    if ((v = rj_get(owner, "io"))) {
        if (rj_get(v, "db") && !(io->db = rates_get(rj_get(v, "db"), false)))
            oom = true;
        if (rj_get(v, "boot") && !(io->boot = rates_get(rj_get(v, "boot"), false)))
            oom = true;
    }
    if ((v = rj_get(owner, "host")))
        io->host = host_get(v, &oom);
    if ((v = rj_get(owner, "latency_spectrum")) && rj_array_len(v)) {
        size_t n = rj_array_len(v);
        if (!(io->spectrum = calloc(n, sizeof *io->spectrum)))
            oom = true;
        for (size_t i = 0; io->spectrum && i < n; i++) {
            json_object *e = json_object_array_get_idx(v, i);
            io->spectrum[io->nspectrum++] = (res_pct){ get_d(e, "pct"), get_d(e, "ms") };
        }
    }
    if ((v = rj_get(owner, "p_latency_series"))) {
        json_object *a = rj_get(v, "series");
        size_t n = rj_array_len(a);
        io->p_pct = get_d(v, "pct");
        if (n && !(io->p_series = calloc(n, sizeof *io->p_series)))
            oom = true;
        for (size_t i = 0; io->p_series && i < n; i++) {
            json_object *pair = json_object_array_get_idx(a, i);
            io->p_series[io->np++] = (res_point){
                json_object_get_double(json_object_array_get_idx(pair, 0)),
                json_object_get_double(json_object_array_get_idx(pair, 1)) };
        }
    }
    if ((v = rj_get(owner, "steady_state"))) {
        io->steady.n = (int)rj_get_i(v, "n");
        io->steady.mean = get_d(v, "mean_tps");
        io->steady.slope = get_d(v, "slope");
        io->steady.slope_lo = get_d(v, "slope_lo");
        io->steady.slope_hi = get_d(v, "slope_hi");
        io->steady.drift_pct = get_d(v, "drift_pct");
        io->steady.trending = rj_get_b(v, "trending");
    }
    io->cpu_s_per_1000_txn = get_d(owner, "cpu_s_per_1000_txn");
    if ((v = rj_get(owner, "comparisons")) && rj_array_len(v)) {
        size_t n = rj_array_len(v);
        if (!(io->cmp = calloc(n, sizeof *io->cmp)))
            oom = true;
        for (size_t i = 0; io->cmp && i < n; i++) {
            json_object *e = json_object_array_get_idx(v, i);
            res_io_cmp *c = &io->cmp[io->ncmp++];
            c->a = rj_get_s(e, "a", &oom);
            c->b = rj_get_s(e, "b", &oom);
            c->method = rj_get_s(e, "method", &oom);
            c->n = (int)rj_get_i(e, "n");
            c->k = rj_get(e, "k") ? (int)rj_get_i(e, "k") : 0;
            c->mean_a = get_d(e, "mean_a");
            c->mean_b = get_d(e, "mean_b");
            c->diff = get_d(e, "diff");
            c->diff_pct = get_d(e, "diff_pct");
            c->lo = get_d(e, "lo");
            c->hi = get_d(e, "hi");
            c->df = get_d(e, "df");
            c->p_value = get_d(e, "p_value");
            c->r1 = get_d(e, "r1");
            c->p_holm = get_d(e, "p_holm");
            c->family = rj_get(e, "family") ? (int)rj_get_i(e, "family") : 0;
            c->needs = rj_get(e, "needs") ? (int)rj_get_i(e, "needs") : 0;
            c->reason = rj_get_s(e, "reason", &oom);
            c->verdict = RES_CMP_NOT_COMPARABLE;
            for (int w = 0; rj_get(e, "verdict") && w < RES_CMP_VERDICT_COUNT; w++)
                if (strcmp(json_object_get_string(rj_get(e, "verdict")),
                           res_cmp_verdict_name((res_cmp_verdict)w)) == 0)
                    c->verdict = (res_cmp_verdict)w;
        }
    }
    if ((v = rj_get(owner, "host_cpu"))) {
        io->host_cpu_busy_pct = get_d(v, "busy_pct");
        io->host_saturated = rj_get_b(v, "saturated");
        io->host_cpu_note = rj_get_s(v, "note", &oom);
    }
    if (oom) {
        res_io_free(io);
        return -1;
    }
    *out = io;
    return 0;
}

/* ------------------------------------------------------------------ */
/* summary.csv                                                         */

/* The database disks' columns (hypervisor view), then the host's. */
#define CSV_GUEST(k) "db_" #k,
#define CSV_HOST(k) "host_" #k,
static const char *const csv_guest[] = { RES_IO_GUEST_KEYS(CSV_GUEST) };
static const char *const csv_host[] = { RES_IO_HOST_KEYS(CSV_HOST) };
#undef CSV_GUEST
#undef CSV_HOST

void res_io_csv_head(FILE *f)
{
    for (int k = 0; k < RES_IOG_N; k++)
        fprintf(f, ",%s", csv_guest[k]);
    for (int k = 0; k < RES_IOH_N; k++)
        fprintf(f, ",%s", csv_host[k]);
    fputs(",flush_ratio", f);
}

static void csv_num(FILE *f, double v)
{
    char b[48];
    fputc(',', f);
    if (isfinite(v))
        fputs(res_num(v, b, sizeof b), f);
}

/* A drive's I/O values are over all its repetitions (rates: the mean of
 * the repetitions'), so each of its rows carries the same ones. */
void res_io_csv_row(FILE *f, const res_summary *s, int d, int rep)
{
    const res_io *io = s->drives[d].io;
    (void)rep;
    for (int k = 0; k < RES_IOG_N; k++)
        csv_num(f, io && io->db ? io->db->total.v[k] : NAN);
    for (int k = 0; k < RES_IOH_N; k++)
        csv_num(f, io && io->host && io->host->rates ? io->host->rates->total.v[k] : NAN);
    csv_num(f, io && io->host ? io->host->flush_ratio : NAN);
}

int res_io_spectrum_pcts(const double **pcts)
{
    *pcts = spectrum_pcts;
    return (int)(sizeof spectrum_pcts / sizeof spectrum_pcts[0]);
}
