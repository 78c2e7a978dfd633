/* results_oltp.c — the oltp result (drivebench.oltp/2) <-> res_oltp (see
 * results_oltp.h; the format is in results/SCHEMA.md). */
#include "results_oltp.h"
#include "results_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OLTP_SCHEMA         "drivebench.oltp/2.1"   /* 2.1: a phase's after_end */
#define OLTP_SCHEMA_NAME    "drivebench.oltp/"
#define OLTP_MAJOR          2     /* 2: interval histograms' buckets are one
                                     * string; 1 (arrays of pairs) is read too */

/* ------------------------------------------------------------------ */
/* oltp result                                                         */

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

double res_interval_start(const res_phase *p, int i)
{
    const res_interval *x = &p->intervals[i];
    if (x->duration_s > 0)
        return x->t - x->duration_s;
    return i > 0 ? p->intervals[i - 1].t : 0;
}

const res_phase *res_oltp_measure(const res_oltp *r)
{
    for (int i = 0; r && i < r->nphases; i++)
        if (r->phases[i].phase == RES_PHASE_MEASURE)
            return &r->phases[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* field tables                                                        */

#define F   RJ_F
#define HAS RJ_HAS


static const rj_field type_fields[] = {
    F(RK_NAME,       RJ_STR,    res_txn_type, name),
    F("count",       RJ_I64,    res_txn_type, count, .flags = RJ_COUNT),
    F("share",       RJ_DBL,    res_txn_type, share, .flags = RJ_NONNEG),
    F("rollbacks",   RJ_I64,    res_txn_type, rollbacks, .flags = RJ_COUNT),
    F("retries",     RJ_I64,    res_txn_type, retries, .flags = RJ_COUNT),
    F(RK_LATENCY_MS, RJ_OBJ,    res_txn_type, latency, .sub = rj_latency_fields),
    F(RK_HISTOGRAM,  RJ_CUSTOM, res_txn_type, histogram, .ops = &rj_hist_ops),
    RJ_TABLE_END,
};

static const rj_field limit_fields[] = {
    F(RK_NAME,        RJ_STR,  res_tpcc_limit, name),
    F("p90_ms",       RJ_DBL,  res_tpcc_limit, p90_ms, .flags = RJ_NONNEG),
    F("p90_limit_ms", RJ_DBL,  res_tpcc_limit, p90_limit_ms, .flags = RJ_NONNEG),
    F("p90_met",      RJ_BOOL, res_tpcc_limit, p90_met),
    F("share",        RJ_DBL,  res_tpcc_limit, share, .flags = RJ_NONNEG),
    F("min_share",    RJ_DBL,  res_tpcc_limit, min_share, .flags = RJ_NONNEG),
    F("share_met",    RJ_BOOL, res_tpcc_limit, share_met),
    RJ_TABLE_END,
};

/* The "tpcc" section's rates, under the names the workload gives them:
 * the headline rate (tpmC) first, the server's rate (NOPM, when counted)
 * second. A reader takes them as the first and second numeric members
 * that are not keys of the rest of the table. */
static void rates_put(json_object *o, const rj_field *f, const void *base)
{
    const res_tpcc *c = base;
    rj_put(o, c->tpm_name ? c->tpm_name : RK_TPMC, json_object_new_double(c->tpm));
    if (c->server_rate_name)
        rj_put(o, c->server_rate_name, json_object_new_double(c->server_rate));
}

static int rates_get(json_object *o, const rj_field *f, void *base, rj_ctx *ctx)
{
    res_tpcc *c = base;
    bool failed = false;
    if (!o || !json_object_is_type(o, json_type_object))
        return 0;
    json_object_object_foreach(o, key, v) {
        bool known = false;
        for (const rj_field *g = f + 1; g->kind != RJ_END; g++)
            known |= g->key && strcmp(g->key, key) == 0;
        if (known || !rj_is_number(v))
            continue;
        if (!c->tpm_name) {
            failed |= !(c->tpm_name = strdup(key));
            c->tpm = json_object_get_double(v);
        } else if (!c->server_rate_name) {
            failed |= !(c->server_rate_name = strdup(key));
            c->server_rate = json_object_get_double(v);
        }
    }
    if (failed)
        snprintf(ctx->err, ctx->errlen, "out of memory");
    return failed ? -1 : 0;
}

static void rates_check(const rj_field *f, const void *base, const char *path, rj_check *c)
{
    const res_tpcc *x = base;
    char k[160];
    snprintf(k, sizeof k, "%s" RK_TPMC, path);
    rj_check_num(c, k, x->tpm);
    snprintf(k, sizeof k, "%s" RK_NOPM, path);
    rj_check_num(c, k, x->server_rate);
}

static void rates_free(const rj_field *f, void *base)
{
    res_tpcc *c = base;
    free(c->tpm_name);
    free(c->server_rate_name);
    c->tpm_name = c->server_rate_name = NULL;
}

static const rj_ops tpcc_rates_ops = { rates_put, rates_get, rates_check, rates_free };

static bool server_counted(const void *base)
{
    return ((const res_tpcc *)base)->server_rate_name != NULL;
}

static const rj_field tpcc_fields[] = {
    RJ_HERE(NULL, RJ_CUSTOM, .ops = &tpcc_rates_ops),     /* first: see rates_get */
    F("server_count",        RJ_I64,   res_tpcc, server_count, .flags = RJ_COUNT,
      .when = server_counted),
    F("server_count_margin", RJ_I64,   res_tpcc, server_count_margin, .flags = RJ_COUNT,
      .when = server_counted),
    F("server_count_late",   RJ_I64,   res_tpcc, server_count_late, .flags = RJ_COUNT,
      .when = server_counted),
    F(RK_TPS,                RJ_DBL,   res_tpcc, tps, .flags = RJ_NONNEG),
    F("limits",              RJ_ARRAY, res_tpcc, limits, .sub = limit_fields,
      .size = sizeof(res_tpcc_limit), .n_off = offsetof(res_tpcc, nlimits),
      .max = RES_MAX_TYPES),
    F("all_limits_met",      RJ_BOOL,  res_tpcc, all_limits_met),
    RJ_TABLE_END,
};

/* longest_outage_s: one number per connection */
static void outages_put(json_object *o, const rj_field *f, const void *base)
{
    const res_phase *p = base;
    json_object *a = json_object_new_array();
    for (int i = 0; i < p->nlongest_outage; i++)
        json_object_array_add(a, json_object_new_double(p->longest_outage_s[i]));
    rj_put(o, f->key, a);
}

static int outages_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_phase *p = base;
    json_object *a = rj_get(o, f->key);
    size_t n;
    if (rj_array_room(a, f, sizeof *p->longest_outage_s, (void **)&p->longest_outage_s, &n,
                      c) < 0)
        return -1;
    p->nlongest_outage = (int)n;
    for (size_t i = 0; i < n; i++)
        p->longest_outage_s[i] = json_object_get_double(rj_idx(a, i));
    return 0;
}

static void outages_check(const rj_field *f, const void *base, const char *path, rj_check *c)
{
    const res_phase *p = base;
    char k[160];
    for (int i = 0; i < p->nlongest_outage; i++) {
        snprintf(k, sizeof k, "%s%s[%d]", path, f->key, i);
        rj_check_num(c, k, p->longest_outage_s[i]);
    }
}

static void outages_free(const rj_field *f, void *base)
{
    res_phase *p = base;
    free(p->longest_outage_s);
    p->longest_outage_s = NULL;
}

static const rj_ops outages_ops = { outages_put, outages_get, outages_check, outages_free };

/* An interval: its latency object holds "avg" and the phase's iv_pct
 * ("p99"), which intervals_* add; queue_length only with a queue. */
static const rj_field iv_latency_fields[] = {
    F(RK_AVG, RJ_DBL, res_interval, lat_avg_ms, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

/* issue 21's keys are written when recorded, so a result written before
 * reads and writes back unchanged */
static bool iv_has_duration(const void *base)
{
    return ((const res_interval *)base)->duration_s > 0;
}

static const rj_field iv_fields[] = {
    F("t",             RJ_DBL, res_interval, t, .flags = RJ_NONNEG),
    F(RK_TPS,          RJ_DBL, res_interval, tps, .flags = RJ_NONNEG),
    F("qps",           RJ_DBL, res_interval, qps, .flags = RJ_NONNEG),
    F("errors_ps",     RJ_DBL, res_interval, errors_ps, .flags = RJ_NONNEG),
    F("reconnects_ps", RJ_DBL, res_interval, reconnects_ps, .flags = RJ_NONNEG),
    RJ_HERE(RK_LATENCY_MS, RJ_OBJ, .sub = iv_latency_fields),
    /* interval time (issue 21) */
    F("duration_s",    RJ_DBL, res_interval, duration_s, .flags = RJ_NONNEG,
      .when = iv_has_duration),
    F(RK_HISTOGRAM,    RJ_CUSTOM, res_interval, histogram, .ops = &rj_sparse_ops),
    RJ_TABLE_END,
};

static const rj_field iv_queue_fields[] = {
    F("queue_length",  RJ_I64, res_interval, queue_length, .flags = RJ_COUNT),
    RJ_TABLE_END,
};

static void intervals_put(json_object *o, const rj_field *f, const void *base)
{
    const res_phase *p = base;
    json_object *a = json_object_new_array_ext(p->nintervals > 0 ? p->nintervals : 1);
    char key[32];
    rj_pct_key(key, sizeof key, p->iv_pct);
    for (int i = 0; i < p->nintervals; i++) {
        json_object *e = json_object_new_object();
        rj_put_fields(e, iv_fields, &p->intervals[i]);
        rj_put(rj_get(e, RK_LATENCY_MS), key, json_object_new_double(p->intervals[i].lat_pct_ms));
        if (p->has_queue)
            rj_put_fields(e, iv_queue_fields, &p->intervals[i]);
        json_object_array_add(a, e);
    }
    rj_put(o, f->key, a);
}

/* res_oltp_read_file_each's hook, as rj_ctx.arg: phase the index of the
 * phase being read */
typedef struct iv_hook {
    res_interval_fn fn;
    void           *ctx;
    int             phase;
} iv_hook;

static int intervals_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_phase *p = base;
    const iv_hook *hook = c->arg;
    json_object *a = rj_get(o, f->key);
    size_t n, lazy = rj_lazy_len(a);    /* read one interval's tree at a time */
    if (rj_array_room(a, f, sizeof *p->intervals, (void **)&p->intervals, &n, c) < 0)
        return -1;
    p->nintervals = (int)n;
    p->iv_count = n > 0 ? 0 : -1;
    for (size_t i = 0; i < n; i++) {
        json_object *e = lazy ? rj_lazy_get(a, i) : rj_idx(a, i), *l = rj_get(e, RK_LATENCY_MS);
        res_interval *x = &p->intervals[i];
        int rc = lazy && !e ? -1 : 0;
        char saved_path[sizeof c->path];
        if (rc < 0)
            snprintf(c->err, c->errlen, "out of memory");
        /* a refused value names its interval: "measure: intervals[2].tps" */
        memcpy(saved_path, c->path, sizeof saved_path);
        if (snprintf(c->path, sizeof c->path, "%s%s[%zu].", saved_path, f->key, i)
            >= (int)sizeof c->path)
            memcpy(c->path, saved_path, sizeof saved_path);    /* too deep to name */
        if (rc == 0 && (rj_get_fields(e, iv_fields, x, c) < 0
                        || rj_get_fields(e, iv_queue_fields, x, c) < 0))
            rc = -1;
        memcpy(c->path, saved_path, sizeof saved_path);
        if (rc < 0) {
            if (lazy)
                json_object_put(e);
            return -1;
        }
        if (l && json_object_is_type(l, json_type_object)) {
            json_object_object_foreach(l, key, v) {
                double pct;
                if (rj_pct_of_key(key, &pct)) {
                    p->iv_pct = pct;
                    x->lat_pct_ms = json_object_get_double(v);
                }
            }
        }
        if (lazy)
            json_object_put(e);
        /* before the hook, which may take the histogram */
        if (p->iv_count >= 0)
            p->iv_count = x->histogram ? p->iv_count + x->histogram->total : -1;
        if (hook && hook->fn(hook->ctx, p, hook->phase, (int)i) < 0) {
            snprintf(c->err, c->errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* each interval's values, and t never going backwards */
static void intervals_check(const rj_field *f, const void *base, const char *path, rj_check *c)
{
    const res_phase *p = base;
    char k[160];
    for (int i = 0; i < p->nintervals && !c->bad; i++) {
        const res_interval *x = &p->intervals[i];
        snprintf(k, sizeof k, "%s%s[%d].%s", path, f->key, i, iv_fields[0].key);
        rj_check_num(c, k, x->t);
        if (!c->bad && i > 0 && x->t < p->intervals[i - 1].t) {
            c->bad = true;
            snprintf(c->err, c->errlen, "%s: %s[%d].%s is %g, before %s[%d].%s (%g)", c->who,
                     f->key, i, iv_fields[0].key, x->t, f->key, i - 1, iv_fields[0].key,
                     p->intervals[i - 1].t);
            return;
        }
        snprintf(k, sizeof k, "%s%s[%d].", path, f->key, i);
        rj_check_fields(iv_fields, x, k, c);
        snprintf(k, sizeof k, "%s%s[%d]." RK_LATENCY_MS ".%c%g", path, f->key, i, RK_PCT_PREFIX,
                 p->iv_pct);
        rj_check_num(c, k, x->lat_pct_ms);
        snprintf(k, sizeof k, "%s%s[%d].", path, f->key, i);
        rj_check_fields(iv_queue_fields, x, k, c);
    }
}

static void intervals_free(const rj_field *f, void *base)
{
    res_phase *p = base;
    for (int i = 0; p->intervals && i < p->nintervals; i++)
        rj_free_fields(iv_fields, &p->intervals[i]);
    free(p->intervals);
    p->intervals = NULL;
}

static const rj_ops intervals_ops = { intervals_put, intervals_get, intervals_check,
                                      intervals_free };

static const char *phase_name_of(int p)
{
    return res_phase_name((res_phase_id)p);
}

/* read first: messages about the rest of a phase name it */
static const rj_field phase_name_fields[] = {
    F(RK_NAME, RJ_ENUM, res_phase, phase, .name = phase_name_of, .n = RES_PHASE_COUNT),
    RJ_TABLE_END,
};

static const rj_field queries_fields[] = {
    F("read",  RJ_I64, res_phase, reads, .flags = RJ_COUNT),
    F("write", RJ_I64, res_phase, writes, .flags = RJ_COUNT),
    F("other", RJ_I64, res_phase, others, .flags = RJ_COUNT),
    F("total", RJ_I64, res_phase, total, .flags = RJ_COUNT),
    RJ_TABLE_END,
};

static const rj_field after_end_fields[] = {
    F("committed",   RJ_I64, res_after_end, committed, .flags = RJ_COUNT),
    F("rolled_back", RJ_I64, res_after_end, rolled_back, .flags = RJ_COUNT),
    F("errors",      RJ_I64, res_after_end, errors, .flags = RJ_COUNT),
    F("abandoned",   RJ_I64, res_after_end, abandoned, .flags = RJ_COUNT),
    RJ_TABLE_END,
};

static bool phase_has_clock(const void *base)
{
    return ((const res_phase *)base)->interval_s > 0;
}

static const rj_field phase_fields[] = {
    RJ_HERE(NULL, RJ_EMBED, .sub = phase_name_fields),
    F("duration_s",         RJ_DBL,     res_phase, duration_s, .flags = RJ_NONNEG),
    F("transactions",       RJ_I64,     res_phase, transactions, .flags = RJ_COUNT),
    RJ_HERE("queries", RJ_OBJ, .sub = queries_fields),
    F(RK_TPS,               RJ_DBL,     res_phase, tps, .flags = RJ_NONNEG),
    F("qps",                RJ_DBL,     res_phase, qps, .flags = RJ_NONNEG),
    F("errors",             RJ_I64,     res_phase, errors, .flags = RJ_COUNT),
    F("reconnects",         RJ_I64,     res_phase, reconnects, .flags = RJ_COUNT),
    F("rollbacks",          RJ_I64,     res_phase, rollbacks, .flags = RJ_COUNT),
    F("after_end",          RJ_OBJ,     res_phase, after_end, .flags = RJ_SETS_HAS | RJ_IF_PRESENT,
      .sub = after_end_fields, HAS(res_phase, has_after_end)),
    F("cpu_s_per_1000_txn", RJ_DBL_OPT, res_phase, cpu_s_per_1000_txn),
    F("unavailable_s",      RJ_DBL,     res_phase, unavailable_s, .flags = RJ_NONNEG | RJ_SETS_HAS,
      HAS(res_phase, has_outage)),
    RJ_HERE("longest_outage_s", RJ_CUSTOM, .ops = &outages_ops, .max = RES_MAX_CONNECTIONS,
            HAS(res_phase, has_outage)),
    F(RK_LATENCY_MS,        RJ_OBJ,     res_phase, latency, .sub = rj_latency_fields),
    F("queue_ms",           RJ_OBJ,     res_phase, queue, .flags = RJ_SETS_HAS | RJ_IF_PRESENT,
      .sub = rj_latency_fields, HAS(res_phase, has_queue)),
    /* phase time (issue 21) */
    F("unserved",           RJ_I64,     res_phase, unserved, .flags = RJ_COUNT,
      HAS(res_phase, has_queue)),
    F("interval_s",         RJ_DBL,     res_phase, interval_s, .flags = RJ_NONNEG,
      .when = phase_has_clock),
    F("start_s",            RJ_DBL,     res_phase, start_s, .flags = RJ_NONNEG,
      .when = phase_has_clock),
    RJ_HERE("intervals",    RJ_CUSTOM,  .ops = &intervals_ops, .max = RES_MAX_INTERVALS),
    F(RK_HISTOGRAM,         RJ_CUSTOM,  res_phase, histogram, .ops = &rj_hist_ops),
    F("transaction_types",  RJ_ARRAY,   res_phase, types, .flags = RJ_OMIT_EMPTY,
      .sub = type_fields, .size = sizeof(res_txn_type), .n_off = offsetof(res_phase, ntypes),
      .max = RES_MAX_TYPES),
    F("tpcc",               RJ_PTR,     res_phase, tpcc, .sub = tpcc_fields,
      .size = sizeof(res_tpcc)),
    RJ_TABLE_END,
};

/* What a phase read from a file must hold (see res_oltp_read_file): the
 * first violation, with the phase name and JSON key, goes to err. */
static int phase_check(const res_phase *p, char *err, size_t errlen)
{
    rj_check c = { res_phase_name(p->phase), err, errlen, false };
    if (p->phase == RES_PHASE_MEASURE && p->duration_s == 0) {
        snprintf(err, errlen, "%s: %s is %g; a measured phase lasts more than 0 s",
                 res_phase_name(p->phase), phase_fields[1].key, p->duration_s);
        return -1;
    }
    rj_check_fields(phase_fields, p, "", &c);
    return c.bad ? -1 : 0;
}

/* The phases: each read (its name first, for messages) and checked. */
static void phases_put(json_object *o, const rj_field *f, const void *base)
{
    const res_oltp *r = base;
    json_object *a = json_object_new_array();
    for (int i = 0; i < r->nphases; i++) {
        json_object *e = json_object_new_object();
        rj_put_fields(e, phase_fields, &r->phases[i]);
        json_object_array_add(a, e);
    }
    rj_put(o, f->key, a);
}

static int phases_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_oltp *r = base;
    json_object *a = rj_get(o, f->key);
    for (size_t i = 0; i < rj_array_len(a); i++) {
        json_object *e = rj_idx(a, i);
        res_phase *p = res_oltp_add_phase(r);
        rj_ctx pc = { .err = c->err, .errlen = c->errlen, .arg = c->arg };
        if (c->arg)
            ((iv_hook *)c->arg)->phase = (int)i;
        if (!p) {
            snprintf(c->err, c->errlen, "out of memory");
            return -1;
        }
        rj_get_fields(e, phase_name_fields, p, &pc);
        pc.who = res_phase_name(p->phase);
        if (rj_get_fields(e, phase_fields, p, &pc) < 0
            || phase_check(p, c->err, c->errlen) < 0)
            return -1;
    }
    return 0;
}

static void phases_free(const rj_field *f, void *base)
{
    res_oltp *r = base;
    for (int i = 0; i < r->nphases; i++)
        rj_free_fields(phase_fields, &r->phases[i]);
    free(r->phases);
    r->phases = NULL;
}

static const rj_ops phases_ops = { phases_put, phases_get, NULL, phases_free };

/* "options": every option in effect, as oltp wrote them (a reference) */
static void options_put(json_object *o, const rj_field *f, const void *base)
{
    const res_oltp *r = base;
    rj_put(o, f->key, r->options ? json_object_get(r->options) : json_object_new_object());
}

static int options_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_oltp *r = base;
    json_object *v = rj_get(o, f->key);
    r->options = v ? json_object_get(v) : NULL;
    return 0;
}

static void options_free(const rj_field *f, void *base)
{
    res_oltp *r = base;
    json_object_put(r->options);
    r->options = NULL;
}

static const rj_ops options_ops = { options_put, options_get, NULL, options_free };

/* "ended": absent (an older result) reads as complete, a name not known
 * here as an error, so it is never taken for a measurement */
static void ended_put(json_object *o, const rj_field *f, const void *base)
{
    const res_oltp *r = base;
    rj_put(o, f->key, json_object_new_string(res_end_name(r->ended)));
}

static int ended_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_oltp *r = base;
    json_object *v = rj_get(o, f->key);
    r->ended = v ? RES_END_ERROR : RES_END_COMPLETE;
    for (int e = 0; v && e < RES_END_COUNT; e++)
        if (json_object_is_type(v, json_type_string)
            && strcmp(json_object_get_string(v), res_end_name((res_end)e)) == 0)
            r->ended = (res_end)e;
    return 0;
}

static const rj_ops ended_ops = { ended_put, ended_get, NULL, NULL };

static const rj_field tool_fields[] = {
    F(RK_NAME,   RJ_STR, res_oltp, tool_name, .dflt = "oltp"),
    F("version", RJ_STR, res_oltp, tool_version),
    RJ_TABLE_END,
};

static const rj_field server_fields[] = {
    F("version", RJ_STR, res_oltp, server_version),
    RJ_TABLE_END,
};

/* a database's size at one moment (0 or RES_UNSET: left out); the
 * summary's sizes use it too */
const rj_field res_db_size_fields[] = {
    F("data_bytes", RJ_I64_OPT, res_db_size, data_bytes, .flags = RJ_ZERO_UNSET),
    F("log_bytes",  RJ_I64_OPT, res_db_size, log_bytes, .flags = RJ_ZERO_UNSET),
    RJ_TABLE_END,
};

static const rj_field db_sizes_fields[] = {
    F("start", RJ_OBJ, res_oltp, db_start, .sub = res_db_size_fields, .flags = RJ_OMIT_EMPTY),
    F("end",   RJ_OBJ, res_oltp, db_end, .sub = res_db_size_fields, .flags = RJ_OMIT_EMPTY),
    RJ_TABLE_END,
};

static const rj_field oltp_fields[] = {
    RJ_HERE(RK_SCHEMA, RJ_CONST, .dflt = OLTP_SCHEMA),
    RJ_HERE("tool", RJ_OBJ, .sub = tool_fields),
    F("workload",   RJ_STR,    res_oltp, workload),
    F("driver",     RJ_STR,    res_oltp, driver),
    F("started_at", RJ_STR,    res_oltp, started_at),
    RJ_HERE("server", RJ_OBJ, .sub = server_fields),
    RJ_HERE("options", RJ_CUSTOM, .ops = &options_ops),
    RJ_HERE("ended", RJ_CUSTOM, .ops = &ended_ops),
    F("ended_reason", RJ_STR_OPT, res_oltp, end_reason),
    RJ_HERE(RK_PHASES, RJ_CUSTOM, .ops = &phases_ops),
    RJ_HERE("database_size", RJ_OBJ, .sub = db_sizes_fields, .flags = RJ_OMIT_EMPTY),
    RJ_TABLE_END,
};

/* ------------------------------------------------------------------ */
/* the document                                                        */

void res_oltp_clear(res_oltp *r)
{
    if (!r)
        return;
    rj_free_fields(oltp_fields, r);
    memset(r, 0, sizeof *r);
}

int res_oltp_write_file(const res_oltp *r, const char *path, char *err, size_t errlen)
{
    json_object *doc = json_object_new_object();
    int rc;
    rj_put_fields(doc, oltp_fields, r);
    rc = rj_write_json(doc, path, err, errlen);
    json_object_put(doc);
    return rc;
}

/* The document's content into r; -1 with the reason (no path) in err.
 * What the aggregation needs is looked for before anything is read. */
/* doc into r; hook (may be NULL) called on each interval as it is read */
static int oltp_read(json_object *doc, res_oltp *r, iv_hook *hook, char *err, size_t errlen)
{
    json_object *phases = rj_get(doc, RK_PHASES), *schema = rj_get(doc, RK_SCHEMA);
    json_object *measure = NULL;
    const char *measure_name = res_phase_name(RES_PHASE_MEASURE);
    rj_ctx c = { .err = err, .errlen = errlen, .arg = hook };

    if (!schema
        || rj_schema_major(json_object_get_string(schema), OLTP_SCHEMA_NAME) < 1
        || rj_schema_major(json_object_get_string(schema), OLTP_SCHEMA_NAME) > OLTP_MAJOR) {
        snprintf(err, errlen, "not a %s%d result", OLTP_SCHEMA_NAME, OLTP_MAJOR);
        return -1;
    }
    if (!phases || !json_object_is_type(phases, json_type_array)) {
        snprintf(err, errlen, "no %s array", RK_PHASES);
        return -1;
    }
    if (rj_array_len(phases) > RES_MAX_PHASES) {
        snprintf(err, errlen, "%zu %s, more than %d", rj_array_len(phases), RK_PHASES,
                 RES_MAX_PHASES);
        return -1;
    }
    for (size_t i = 0; i < rj_array_len(phases); i++) {
        json_object *name = rj_get(rj_idx(phases, i), RK_NAME);
        if (name && strcmp(json_object_get_string(name), measure_name) == 0)
            measure = rj_idx(phases, i);
    }
    if (!measure) {
        snprintf(err, errlen, "no \"%s\" phase", measure_name);
        return -1;
    }
    if (!rj_is_number(rj_get(measure, RK_TPS))) {
        snprintf(err, errlen, "%s phase has no numeric %s", measure_name, RK_TPS);
        return -1;
    }
    if (!rj_get(measure, RK_HISTOGRAM)) {
        snprintf(err, errlen, "%s phase has no %s", measure_name, RK_HISTOGRAM);
        return -1;
    }
    return rj_get_fields(doc, oltp_fields, r, &c);
}

/* a 3-h result of 1-s intervals is ~26 MB of text, ~120 MiB as one
 * tree: its intervals are read one at a time (issue 33) */
static const char *const lazy_intervals[] = { RK_PHASES "/intervals", NULL };

/* res_oltp_read_file_each's destination: the result and its hook */
typedef struct oltp_each {
    res_oltp *r;
    iv_hook   hook;
} oltp_each;

static int oltp_from_json(json_object *doc, void *dst, char *err, size_t errlen)
{
    oltp_each *e = dst;
    return oltp_read(doc, e->r, e->hook.fn ? &e->hook : NULL, err, errlen);
}

static void oltp_clear(void *dst)
{
    res_oltp_clear(((oltp_each *)dst)->r);
}

int res_oltp_read_file(const char *path, res_oltp *r, char *err, size_t errlen)
{
    return res_oltp_read_file_each(path, r, NULL, NULL, err, errlen);
}

int res_oltp_read_file_each(const char *path, res_oltp *r, res_interval_fn fn, void *ctx,
                            char *err, size_t errlen)
{
    oltp_each e = { r, { fn, ctx, 0 } };
    memset(r, 0, sizeof *r);
    return rj_read_doc_lazy(path, "cannot read result JSON: ", lazy_intervals, oltp_from_json,
                            oltp_clear, &e, err, errlen) == 0 ? 0 : -1;
}

int res_phase_counts_agree(const res_phase *p, char *err, size_t errlen)
{
    int64_t n = p->transactions + p->unserved;
    if (p->histogram && p->histogram->total != n) {
        snprintf(err, errlen, "%s: %s is %" PRId64 "%s, its %s holds %" PRId64
                 " (count): they must agree", res_phase_name(p->phase), "transactions", n,
                 p->unserved ? " with unserved" : "", RK_HISTOGRAM, p->histogram->total);
        return -1;
    }
    if (p->iv_count >= 0 && p->iv_count != n) {
        snprintf(err, errlen, "%s: %s is %" PRId64 "%s, its intervals' histograms hold %"
                 PRId64 ": they must agree", res_phase_name(p->phase), "transactions", n,
                 p->unserved ? " with unserved" : "", p->iv_count);
        return -1;
    }
    return 0;
}
