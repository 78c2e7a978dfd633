/* results_drive_io.c — the summary's drive I/O, host view and statistics
 * (res_io, results_io.h) as JSON and CSV. The only code that knows these
 * keys; results/SCHEMA.md, "Drive I/O and statistics", says what each
 * means. A value that was not measured is left out, never written as 0. */
#include "results_summary.h"
#include "results_io.h"
#include "attributes.h"
#include "results_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* ------------------------------------------------------------------ */
/* field tables                                                        */

#define F   RJ_F

/* the rates of a row, keyed as RES_IO_HV_KEYS / RES_IO_HOST_KEYS */
#define ROW_HV(k) F(#k, RJ_NUM_OPT, res_io_row, v[RES_IOV_##k], .flags = RJ_NONNEG),
#define ROW_HOST(k)  F(#k, RJ_NUM_OPT, res_io_row, v[RES_IOH_##k], .flags = RJ_NONNEG),
static const rj_field hv_row_fields[] = { RES_IO_HV_KEYS(ROW_HV) RJ_TABLE_END };
static const rj_field host_row_fields[] = { RES_IO_HOST_KEYS(ROW_HOST) RJ_TABLE_END };
#undef ROW_HV
#undef ROW_HOST

/* {keys of the phase, measured_s, vms, missing, series: [{t, keys}]} */
#define RATES_TABLES(name, row)                                                      \
    static const rj_field name##_point_fields[] = {                                  \
        F("t", RJ_NUM_OPT, res_io_row, t, .flags = RJ_NONNEG),                       \
        RJ_HERE(NULL, RJ_EMBED, .sub = row),                                         \
        RJ_TABLE_END,                                                                \
    };                                                                               \
    static const rj_field name##_rates_fields[] = {                                  \
        F(NULL, RJ_EMBED, res_io_rates, total, .sub = row),                          \
        F("measured_s", RJ_NUM_OPT, res_io_rates, total.t, .flags = RJ_NONNEG),      \
        F("vms", RJ_INT_OPT, res_io_rates, vms),                                     \
        F("missing", RJ_INT_OPT, res_io_rates, missing),                             \
        F("series", RJ_ARRAY, res_io_rates, series, .sub = name##_point_fields,      \
          .size = sizeof(res_io_row), .n_off = offsetof(res_io_rates, nseries),      \
          .flags = RJ_ROWS),                                                         \
        RJ_TABLE_END,                                                                \
    };
RATES_TABLES(hv, hv_row_fields)
RATES_TABLES(host, host_row_fields)
#undef RATES_TABLES

/* A res_io_rates pointer: its keys follow r->host (hv_* or host_*). */
static const rj_field *rates_table(bool host)
{
    return host ? host_rates_fields : hv_rates_fields;
}

static void rates_put(json_object *o, const rj_field *f, const void *base)
{
    const res_io_rates *r = *(res_io_rates *const *)((const char *)base + f->off);
    json_object *v;
    if (!r)
        return;
    v = json_object_new_object();
    rj_put_fields(v, rates_table(r->host), r);
    rj_put(o, f->key, v);
}

/* the values a row has no key for stay NAN, as res_io_rates_new has them */
static void row_rest_nan(res_io_row *row, bool host)
{
    for (int k = host ? RES_IOH_N : RES_IOV_N; k < RES_IO_MAXK; k++)
        row->v[k] = NAN;
}

static int rates_get_as(json_object *o, const rj_field *f, void *base, rj_ctx *c, bool host)
{
    res_io_rates **out = (res_io_rates **)((char *)base + f->off), *r;
    json_object *v = rj_get(o, f->key);
    *out = NULL;
    if (!v)
        return 0;
    if (!(r = *out = res_io_rates_new(host, 0))) {
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    {   /* its keys under f->key in messages, as a nested object's */
        size_t len = strlen(c->path);
        int rc;
        snprintf(c->path + len, sizeof c->path - len, "%s.", f->key);
        rc = rj_get_fields(v, rates_table(host), r, c);
        c->path[len] = '\0';
        if (rc < 0)
            return -1;
    }
    row_rest_nan(&r->total, host);
    for (int i = 0; i < r->nseries; i++)
        row_rest_nan(&r->series[i], host);
    return 0;
}

static int hv_rates_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    return rates_get_as(o, f, base, c, false);
}

static int host_rates_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    return rates_get_as(o, f, base, c, true);
}

static void rates_free_member(const rj_field *f, void *base)
{
    res_io_rates **r = (res_io_rates **)((char *)base + f->off);
    res_io_rates_free(*r);
    *r = NULL;
}

static const rj_ops hv_rates_ops = { rates_put, hv_rates_get, NULL, rates_free_member };
static const rj_ops host_rates_ops = { rates_put, host_rates_get, NULL, rates_free_member };

/* [[t, value], ...] of res_point (tps_series, p_latency_series.series) */
static void points_put(json_object *o, const rj_field *f, const void *base)
{
    const res_point *pt = *(res_point *const *)((const char *)base + f->off);
    int n = *(const int *)((const char *)base + f->n_off);
    json_object *a = json_object_new_array_ext(n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        json_object *pair = json_object_new_array_ext(2);
        json_object_array_add(pair, res_json_number(pt[i].t));
        json_object_array_add(pair, res_json_number(pt[i].tps));
        json_object_array_add(a, rj_one_line(pair));
    }
    rj_put(o, f->key, a);
}

static int points_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_point **pt = (res_point **)((char *)base + f->off);
    int *n = (int *)((char *)base + f->n_off);
    json_object *a = rj_get(o, f->key);
    size_t len;
    *n = 0;
    if (rj_array_room(a, f, sizeof **pt, (void **)pt, &len, c) < 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        json_object *pair = rj_idx(a, i);
        char key[96];
        /* times and values (TPS, ms) alike: finite, not below 0 */
        for (size_t j = 0; j < 2; j++) {
            snprintf(key, sizeof key, "%s[%zu][%zu]", f->key, i, j);
            if (rj_refuse_number(rj_idx(pair, j), key, RJ_NONNEG, c) < 0)
                return -1;
        }
        (*pt)[(*n)++] = (res_point){ json_object_get_double(rj_idx(pair, 0)),
                                     json_object_get_double(rj_idx(pair, 1)) };
    }
    return 0;
}

static void points_free(const rj_field *f, void *base)
{
    res_point **pt = (res_point **)((char *)base + f->off);
    free(*pt);
    *pt = NULL;
}

const rj_ops res_points_ops = { points_put, points_get, NULL, points_free };

/* the device's slaves: an array of names, always written */
static void slaves_put(json_object *o, const rj_field *f, const void *base)
{
    const res_io_host *h = base;
    json_object *a = json_object_new_array();
    for (int i = 0; i < h->nslaves; i++)
        json_object_array_add(a, json_object_new_string(h->slaves[i]));
    rj_put(o, f->key, a);
}

static int slaves_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_io_host *h = base;
    json_object *a = rj_get(o, f->key);
    size_t n = rj_array_len(a);
    bool failed = false;
    h->slaves = NULL;
    h->nslaves = 0;
    if (n && !(h->slaves = calloc(n, sizeof *h->slaves)))
        failed = true;
    for (size_t i = 0; h->slaves && i < n; i++) {
        const char *sl = json_object_get_string(rj_idx(a, i));
        if (!(h->slaves[h->nslaves++] = strdup(sl ? sl : "")))
            failed = true;
    }
    if (failed)
        snprintf(c->err, c->errlen, "out of memory");
    return failed ? -1 : 0;
}

static void slaves_free(const rj_field *f, void *base)
{
    res_io_host *h = base;
    for (int i = 0; i < h->nslaves; i++)
        free(h->slaves[i]);
    free(h->slaves);
    h->slaves = NULL;
}

static const rj_ops slaves_ops = { slaves_put, slaves_get, NULL, slaves_free };

static const rj_field health_fields[] = {
    F("source",    RJ_STR_OPT, res_io_health, source),
    F("temp_c",    RJ_NUM_OPT, res_io_health, temp_c),
    F("wear_pct",  RJ_NUM_OPT, res_io_health, wear_pct, .flags = RJ_NONNEG),
    F("wear_from", RJ_STR_OPT, res_io_health, wear_from),
    F("note",      RJ_STR_OPT, res_io_health, note),
    RJ_TABLE_END,
};

static const rj_field device_fields[] = {
    F("kind",    RJ_STR_OPT, res_io_host, kind),
    F("node",    RJ_STR_OPT, res_io_host, node),
    F("disk",    RJ_STR_OPT, res_io_host, disk),
    F("dm_name", RJ_STR_OPT, res_io_host, dm_name),
    F("note",    RJ_STR_OPT, res_io_host, note),
    RJ_HERE("slaves", RJ_CUSTOM, .ops = &slaves_ops),
    RJ_TABLE_END,
};

static const rj_field identity_fields[] = {
    F("model",          RJ_STR_OPT, res_io_host, model),
    F("vendor",         RJ_STR_OPT, res_io_host, vendor),
    F("serial",         RJ_STR_OPT, res_io_host, serial),
    F("firmware",       RJ_STR_OPT, res_io_host, firmware),
    F("size_bytes",     RJ_I64_OPT, res_io_host, size_bytes),
    F("rotational",     RJ_INT_OPT, res_io_host, rotational),
    F("scheduler",      RJ_STR_OPT, res_io_host, scheduler),
    F("write_cache",    RJ_STR_OPT, res_io_host, write_cache),
    F("fs_type",        RJ_STR_OPT, res_io_host, fs_type),
    F("fs_size_bytes",  RJ_I64_OPT, res_io_host, fs_size_bytes),
    F("fs_avail_bytes", RJ_I64_OPT, res_io_host, fs_avail_bytes),
    F("fs_used_pct",    RJ_NUM_OPT, res_io_host, fs_used_pct, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field host_fields[] = {
    RJ_HERE("device",   RJ_OBJ, .sub = device_fields),
    RJ_HERE("identity", RJ_OBJ, .sub = identity_fields),
    F("health_before",  RJ_PTR,     res_io_host, health_before, .sub = health_fields,
      .size = sizeof(res_io_health)),
    F("health_after",   RJ_PTR,     res_io_host, health_after, .sub = health_fields,
      .size = sizeof(res_io_health)),
    F("io",             RJ_CUSTOM,  res_io_host, rates, .ops = &host_rates_ops),
    F("flush_ratio",    RJ_NUM_OPT, res_io_host, flush_ratio, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field disks_fields[] = {
    F("db",   RJ_CUSTOM, res_io, db, .ops = &hv_rates_ops),
    F("boot", RJ_CUSTOM, res_io, boot, .ops = &hv_rates_ops),
    F("guest", RJ_CUSTOM, res_io, guest, .ops = &host_rates_ops),
    F("guest_note", RJ_STR_OPT, res_io, guest_note),
    RJ_TABLE_END,
};

/* per transaction: {txns, new_orders, phase: {tps, keys},
 * per_new_order: {tps, keys}, series: [{t, tps, keys}]} */
#define ROW_TXN(k) F(#k, RJ_NUM_OPT, res_io_txn_row, v[RES_IOT_##k], .flags = RJ_NONNEG),
static const rj_field txn_row_fields[] = {
    F("tps", RJ_NUM_OPT, res_io_txn_row, tps, .flags = RJ_NONNEG),
    RES_IO_TXN_KEYS(ROW_TXN)
    RJ_TABLE_END,
};
#undef ROW_TXN

static const rj_field txn_point_fields[] = {
    F("t", RJ_NUM_OPT, res_io_txn_row, t, .flags = RJ_NONNEG),
    RJ_HERE(NULL, RJ_EMBED, .sub = txn_row_fields),
    RJ_TABLE_END,
};

static bool has_new_orders(const void *base)
{
    return ((const res_io_txn *)base)->new_orders != RES_UNSET;
}

static const rj_field txn_fields[] = {
    F("txns",          RJ_I64,     res_io_txn, txns, .flags = RJ_COUNT),
    F("new_orders",    RJ_I64_OPT, res_io_txn, new_orders, .flags = RJ_COUNT),
    F("phase",         RJ_OBJ,     res_io_txn, phase, .sub = txn_row_fields),
    F("per_new_order", RJ_OBJ,     res_io_txn, per_new_order, .sub = txn_row_fields,
      .when = has_new_orders),
    F("series",        RJ_ARRAY,   res_io_txn, series, .sub = txn_point_fields,
      .size = sizeof(res_io_txn_row), .n_off = offsetof(res_io_txn, nseries),
      .max = RES_MAX_INTERVALS, .flags = RJ_ROWS),
    RJ_TABLE_END,
};

/* the device's latencies: {source, devices, unmatched, read: {count,
 * avg_ms, max_ms, percentiles: [{pct, ms}]}, write, flush, all, series} */
static const rj_field spectrum_fields[] = {
    F("pct", RJ_NUM_OPT, res_pct, pct, .flags = RJ_NONNEG),
    F("ms",  RJ_NUM_OPT, res_pct, ms, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field devlat_class_fields[] = {
    F("count",       RJ_I64,     res_devlat_class, count, .flags = RJ_COUNT),
    F("avg_ms",      RJ_NUM_OPT, res_devlat_class, avg_ms, .flags = RJ_NONNEG),
    F("max_ms",      RJ_NUM_OPT, res_devlat_class, max_ms, .flags = RJ_NONNEG),
    F("percentiles", RJ_ARRAY,   res_devlat_class, pct, .flags = RJ_OMIT_EMPTY,
      .sub = spectrum_fields, .size = sizeof(res_pct),
      .n_off = offsetof(res_devlat_class, npct), .max = RES_MAX_PCT),
    RJ_TABLE_END,
};

static const rj_field devlat_point_fields[] = {
    F("t",      RJ_NUM_OPT, res_devlat_point, t, .flags = RJ_NONNEG),
    F("n",      RJ_I64,     res_devlat_point, n, .flags = RJ_COUNT),
    F("p50_ms", RJ_NUM_OPT, res_devlat_point, p50_ms, .flags = RJ_NONNEG),
    F("p99_ms", RJ_NUM_OPT, res_devlat_point, p99_ms, .flags = RJ_NONNEG),
    F("max_ms", RJ_NUM_OPT, res_devlat_point, max_ms, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

#define DEVLAT_CLASS(id, name) \
    F(name, RJ_OBJ, res_io_devlat, cls[RES_DEVLAT_##id], .sub = devlat_class_fields),
static const rj_field devlat_fields[] = {
    F("source",    RJ_STR_OPT, res_io_devlat, source),
    F("devices",   RJ_STR_OPT, res_io_devlat, devices),
    F("unmatched", RJ_I64,     res_io_devlat, unmatched, .flags = RJ_COUNT),
    RES_DEVLAT_CLASSES(DEVLAT_CLASS)
    F("series",    RJ_ARRAY,   res_io_devlat, series, .sub = devlat_point_fields,
      .size = sizeof(res_devlat_point), .n_off = offsetof(res_io_devlat, nseries),
      .max = RES_MAX_INTERVALS, .flags = RJ_ROWS),
    RJ_TABLE_END,
};
#undef DEVLAT_CLASS

/* the transactions' tail against the device */
static const rj_field tail_point_fields[] = {
    F("t",           RJ_NUM_OPT, res_tail_point, t, .flags = RJ_NONNEG),
    F("txn_ms",      RJ_NUM_OPT, res_tail_point, txn_ms, .flags = RJ_NONNEG),
    F("dev_ms",      RJ_NUM_OPT, res_tail_point, dev_ms, .flags = RJ_NONNEG),
    F("queue_depth", RJ_NUM_OPT, res_tail_point, queue_depth, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field tail_fields[] = {
    F("txn_pct",    RJ_NUM_OPT, res_io_tail, txn_pct, .flags = RJ_NONNEG),
    F("dev_figure", RJ_STR_OPT, res_io_tail, dev_figure),
    F("n",          RJ_INT,     res_io_tail, n, .flags = RJ_COUNT),
    F("r",          RJ_NUM_OPT, res_io_tail, r),
    F("series",     RJ_ARRAY,   res_io_tail, series, .sub = tail_point_fields,
      .size = sizeof(res_tail_point), .n_off = offsetof(res_io_tail, nseries),
      .max = RES_MAX_INTERVALS, .flags = RJ_ROWS),
    RJ_TABLE_END,
};

static const rj_field p_series_fields[] = {
    F("pct",    RJ_NUM_OPT, res_io, p_pct, .flags = RJ_NONNEG),
    F("series", RJ_CUSTOM,  res_io, p_series, .ops = &res_points_ops,
      .n_off = offsetof(res_io, np)),
    RJ_TABLE_END,
};

static const rj_field steady_fields[] = {
    F("n",         RJ_INT,     res_io_trend, n, .flags = RJ_COUNT),
    F("mean_tps",  RJ_NUM_OPT, res_io_trend, mean),
    F("slope",     RJ_NUM_OPT, res_io_trend, slope),
    F("slope_lo",  RJ_NUM_OPT, res_io_trend, slope_lo),
    F("slope_hi",  RJ_NUM_OPT, res_io_trend, slope_hi),
    F("drift_pct", RJ_NUM_OPT, res_io_trend, drift_pct),
    F("trending",  RJ_BOOL,    res_io_trend, trending),
    RJ_TABLE_END,
};

static const char *cmp_method_name_of(int m)
{
    return res_cmp_method_name((res_cmp_method)m);
}

/* a word the reader does not know is RES_CMP_NOT_COMPARABLE (0) */
static const char *cmp_verdict_name_of(int v)
{
    return res_cmp_verdict_name((res_cmp_verdict)v);
}

static const rj_field cmp_fields[] = {
    F("a",        RJ_STR_OPT, res_io_cmp, a),
    F("b",        RJ_STR_OPT, res_io_cmp, b),
    F("method",   RJ_ENUM,    res_io_cmp, method, .name = cmp_method_name_of,
      .n = RES_CMP_METHOD_COUNT),
    F("n",        RJ_INT,     res_io_cmp, n, .flags = RJ_COUNT),
    F("k",        RJ_INT_POS, res_io_cmp, k),
    F("mean_a",   RJ_NUM_OPT, res_io_cmp, mean_a),
    F("mean_b",   RJ_NUM_OPT, res_io_cmp, mean_b),
    F("diff",     RJ_NUM_OPT, res_io_cmp, diff),
    F("diff_pct", RJ_NUM_OPT, res_io_cmp, diff_pct),
    F("lo",       RJ_NUM_OPT, res_io_cmp, lo),
    F("hi",       RJ_NUM_OPT, res_io_cmp, hi),
    F("df",       RJ_NUM_OPT, res_io_cmp, df),
    F("p_value",  RJ_NUM_OPT, res_io_cmp, p_value, .flags = RJ_NONNEG),
    F("r1",       RJ_NUM_OPT, res_io_cmp, r1),
    F("p_holm",   RJ_NUM_OPT, res_io_cmp, p_holm, .flags = RJ_NONNEG),
    F("family",   RJ_INT_POS, res_io_cmp, family),
    F("verdict",  RJ_ENUM,    res_io_cmp, verdict, .name = cmp_verdict_name_of,
      .n = RES_CMP_VERDICT_COUNT),
    F("reason",   RJ_STR_OPT, res_io_cmp, reason),
    F("needs",    RJ_INT_POS, res_io_cmp, needs),
    RJ_TABLE_END,
};

static const rj_field host_cpu_fields[] = {
    F("busy_pct",  RJ_NUM_OPT, res_io, host_cpu_busy_pct, .flags = RJ_NONNEG),
    F("saturated", RJ_BOOL,    res_io, host_saturated),
    F("note",      RJ_STR_OPT, res_io, host_cpu_note),
    RJ_TABLE_END,
};

static const char *bound_verdict_name_of(int v)
{
    return res_bound_verdict_name((res_bound_verdict)v);
}

static const rj_field qemu_fields[] = {
    F("vcpus",        RJ_INT_POS, res_io_qemu, vcpus),
    F("vcpu_pct",     RJ_NUM_OPT, res_io_qemu, vcpu_pct, .flags = RJ_NONNEG),
    F("vcpu_max_pct", RJ_NUM_OPT, res_io_qemu, vcpu_max_pct, .flags = RJ_NONNEG),
    F("main_pct",     RJ_NUM_OPT, res_io_qemu, main_pct, .flags = RJ_NONNEG),
    F("io_pct",       RJ_NUM_OPT, res_io_qemu, io_pct, .flags = RJ_NONNEG),
    F("other_pct",    RJ_NUM_OPT, res_io_qemu, other_pct, .flags = RJ_NONNEG),
    F("seconds",      RJ_NUM_OPT, res_io_qemu, seconds, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

/* a word the reader does not know is RES_BOUND_UNDETERMINED (0) */
static const rj_field bound_fields[] = {
    F("verdict",        RJ_ENUM,    res_io_bound, verdict, .name = bound_verdict_name_of,
      .n = RES_BOUND_VERDICT_COUNT),
    F("evidence",       RJ_STR_OPT, res_io_bound, evidence),
    F("vm",             RJ_STR_OPT, res_io_bound, vm),
    F("tcg",            RJ_BOOL,    res_io_bound, tcg),
    F("host_cpu_pct",   RJ_NUM_OPT, res_io_bound, host_cpu_pct, .flags = RJ_NONNEG),
    F("util_pct",       RJ_NUM_OPT, res_io_bound, util_pct, .flags = RJ_NONNEG),
    F("queue_depth",    RJ_NUM_OPT, res_io_bound, queue_depth, .flags = RJ_NONNEG),
    F("guest_cpu_pct",  RJ_NUM_OPT, res_io_bound, guest_cpu_pct, .flags = RJ_NONNEG),
    F("main_loop_pct",  RJ_NUM_OPT, res_io_bound, main_loop_pct, .flags = RJ_NONNEG),
    F("io_thread_pct",  RJ_NUM_OPT, res_io_bound, io_thread_pct, .flags = RJ_NONNEG),
    F("client_cpu_pct", RJ_NUM_OPT, res_io_bound, client_cpu_pct, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static bool has_p_series(const void *base)
{
    return isfinite(((const res_io *)base)->p_pct);
}

static bool has_steady(const void *base)
{
    return ((const res_io *)base)->steady.n > 0;
}

static bool has_host_cpu(const void *base)
{
    return isfinite(((const res_io *)base)->host_cpu_busy_pct);
}

/* res_io's keys, beside those of its owner (a drive, a VM, the summary) */
static const rj_field io_fields[] = {
    RJ_HERE("io",               RJ_OBJ,    .flags = RJ_OMIT_EMPTY, .sub = disks_fields),
    F("host",                   RJ_PTR,    res_io, host, .sub = host_fields,
      .size = sizeof(res_io_host)),
    F("latency_spectrum",       RJ_ARRAY,  res_io, spectrum, .flags = RJ_OMIT_EMPTY,
      .sub = spectrum_fields, .size = sizeof(res_pct), .n_off = offsetof(res_io, nspectrum)),
    RJ_HERE("p_latency_series", RJ_OBJ,    .flags = RJ_IF_PRESENT, .sub = p_series_fields,
            .when = has_p_series),
    F("steady_state",           RJ_OBJ,    res_io, steady, .flags = RJ_IF_PRESENT,
      .sub = steady_fields, .when = has_steady),
    F("cpu_s_per_1000_txn",     RJ_NUM_OPT, res_io, cpu_s_per_1000_txn, .flags = RJ_NONNEG),
    F("per_txn",                RJ_PTR,    res_io, txn, .sub = txn_fields,
      .size = sizeof(res_io_txn)),
    F("device_latency",         RJ_PTR,    res_io, devlat, .sub = devlat_fields,
      .size = sizeof(res_io_devlat)),
    F("device_latency_note",    RJ_STR_OPT, res_io, devlat_note),
    F("tail",                   RJ_PTR,    res_io, tail, .sub = tail_fields,
      .size = sizeof(res_io_tail)),
    F("comparisons",            RJ_ARRAY,  res_io, cmp, .flags = RJ_OMIT_EMPTY,
      .sub = cmp_fields, .size = sizeof(res_io_cmp), .n_off = offsetof(res_io, ncmp)),
    RJ_HERE("host_cpu",         RJ_OBJ,    .flags = RJ_IF_PRESENT, .sub = host_cpu_fields,
            .when = has_host_cpu),
    F("qemu_threads",           RJ_PTR,    res_io, qemu, .sub = qemu_fields,
      .size = sizeof(res_io_qemu)),
    F("bound",                  RJ_PTR,    res_io, bound, .sub = bound_fields,
      .size = sizeof(res_io_bound)),
    RJ_TABLE_END,
};

void res_io_free(res_io *io)
{
    if (!io)
        return;
    rj_free_fields(io_fields, io);
    free(io);
}

void res_io_put(json_object *owner, const res_io *io)
{
    if (io)
        rj_put_fields(owner, io_fields, io);
}

int rj_io_get(json_object *owner, res_io **out, rj_ctx *c)
{
    res_io *io;

    *out = NULL;
    if (!rj_has_any(owner, io_fields))
        return 0;
    if (!(io = res_io_new())) {
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    if (rj_get_fields(owner, io_fields, io, c) < 0) {
        res_io_free(io);
        return -1;
    }
    *out = io;
    return 0;
}

int res_io_get(json_object *owner, res_io **out)
{
    char err[DB_ERR_LEN];
    rj_ctx c = { .err = err, .errlen = sizeof err };
    return rj_io_get(owner, out, &c);
}

/* ------------------------------------------------------------------ */
/* summary.csv                                                         */

/* The database disks' columns (hypervisor view), then the host's. */
#define CSV_HV(k) "db_" #k,
#define CSV_HOST(k) "host_" #k,
#define CSV_GUEST(k) "guest_" #k,
#define CSV_TXN(k) "txn_" #k,
static const char *const csv_hv[] = { RES_IO_HV_KEYS(CSV_HV) };
static const char *const csv_host[] = { RES_IO_HOST_KEYS(CSV_HOST) };
static const char *const csv_guest[] = { RES_IO_HOST_KEYS(CSV_GUEST) };
static const char *const csv_txn[] = { RES_IO_TXN_KEYS(CSV_TXN) };
#undef CSV_HV
#undef CSV_HOST
#undef CSV_GUEST
#undef CSV_TXN

const char *res_io_hv_csv_name(int k)
{
    return k >= 0 && k < RES_IOV_N ? csv_hv[k] : NULL;
}

const char *res_io_host_csv_name(int k)
{
    return k >= 0 && k < RES_IOH_N ? csv_host[k] : NULL;
}

/* the device latency's columns: its percentiles of every request */
static const double csv_devlat_pcts[] = { 50, 99, 99.99 };
static const char *const csv_devlat[] = { "dev_lat_p50_ms", "dev_lat_p99_ms",
                                          "dev_lat_p99.99_ms" };

void res_io_csv_head(FILE *f)
{
    for (int k = 0; k < RES_IOV_N; k++)
        fprintf(f, ",%s", csv_hv[k]);
    for (int k = 0; k < RES_IOH_N; k++)
        fprintf(f, ",%s", csv_host[k]);
    fputs("," RES_IO_CSV_FLUSH_RATIO, f);
    for (int k = 0; k < RES_IOH_N; k++)
        fprintf(f, ",%s", csv_guest[k]);
    for (int k = 0; k < RES_IOT_N; k++)
        fprintf(f, ",%s", csv_txn[k]);
    for (size_t k = 0; k < sizeof csv_devlat / sizeof csv_devlat[0]; k++)
        fprintf(f, ",%s", csv_devlat[k]);
    fputs(",tail_r", f);
}

/* Percentile pct of a device-latency class; NAN when absent. */
double res_devlat_pct(const res_devlat_class *c, double pct)
{
    for (int i = 0; c && i < c->npct; i++)
        if (c->pct[i].pct == pct)
            return c->pct[i].ms;
    return NAN;
}

static void csv_num(FILE *f, double v)
{
    char b[48];
    fputc(',', f);
    fputs(res_num_opt(v, b, sizeof b), f);
}

/* A drive's I/O values are over all its repetitions (rates: the mean of
 * the repetitions'), so each of its rows carries the same ones. */
void res_io_csv_row(FILE *f, const res_summary *s, int d, int rep)
{
    const res_io *io = s->drives[d].io;
    (void)rep;
    for (int k = 0; k < RES_IOV_N; k++)
        csv_num(f, io && io->db ? io->db->total.v[k] : NAN);
    for (int k = 0; k < RES_IOH_N; k++)
        csv_num(f, io && io->host && io->host->rates ? io->host->rates->total.v[k] : NAN);
    csv_num(f, io && io->host ? io->host->flush_ratio : NAN);
    for (int k = 0; k < RES_IOH_N; k++)
        csv_num(f, io && io->guest ? io->guest->total.v[k] : NAN);
    for (int k = 0; k < RES_IOT_N; k++)
        csv_num(f, io && io->txn ? io->txn->phase.v[k] : NAN);
    for (size_t k = 0; k < sizeof csv_devlat_pcts / sizeof csv_devlat_pcts[0]; k++)
        csv_num(f, io && io->devlat ? res_devlat_pct(&io->devlat->cls[RES_DEVLAT_ALL],
                                                     csv_devlat_pcts[k]) : NAN);
    csv_num(f, io && io->tail ? io->tail->r : NAN);
}

int res_io_spectrum_pcts(const double **pcts)
{
    *pcts = spectrum_pcts;
    return (int)(sizeof spectrum_pcts / sizeof spectrum_pcts[0]);
}
