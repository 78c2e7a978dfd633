/* results_latency.c — a latency object and its histograms in the result
 * formats (results_json.h): percentiles as "p50", "p99.9" keys, a full
 * histogram checked against results_base.h's bounds, an interval's sparse
 * one. The oltp result (results_oltp.c) and the summary use them. */
#include "results_oltp.h"
#include "results_json.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F   RJ_F

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

/* "p99.9" for 99.9 */
void rj_pct_key(char *buf, size_t len, double p)
{
    snprintf(buf, len, "%c%g", RK_PCT_PREFIX, p);
}

/* Whether key is a percentile's, "p<number>"; *p its percentile. */
bool rj_pct_of_key(const char *key, double *p)
{
    char *end;
    if (key[0] != RK_PCT_PREFIX)
        return false;
    *p = strtod(key + 1, &end);
    return end != key + 1 && !*end;
}

/* a latency object's percentiles: "p50", "p99.9", ... (res_latency) */
static void pcts_put(json_object *o, const rj_field *f, const void *base)
{
    const res_latency *l = base;
    char key[32];
    for (int i = 0; i < l->npct; i++) {
        rj_pct_key(key, sizeof key, l->pct[i].pct);
        rj_put(o, key, json_object_new_double(l->pct[i].ms));
    }
}

static int pcts_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_latency *l = base;
    l->npct = 0;
    if (!o || !json_object_is_type(o, json_type_object))
        return 0;
    json_object_object_foreach(o, key, v) {
        double p;
        if (rj_pct_of_key(key, &p))
            res_latency_add_pct(l, p, json_object_get_double(v));
    }
    return 0;
}

static void pcts_check(const rj_field *f, const void *base, const char *path, rj_check *c)
{
    const res_latency *l = base;
    char k[160];
    for (int i = 0; i < l->npct; i++) {
        snprintf(k, sizeof k, "%s%c%g", path, RK_PCT_PREFIX, l->pct[i].pct);
        rj_check_num(c, k, l->pct[i].ms);
    }
}

static const rj_ops pcts_ops = { pcts_put, pcts_get, pcts_check, NULL };

const rj_field rj_latency_fields[] = {
    F(RK_AVG,       RJ_DBL, res_latency, avg, .flags = RJ_NONNEG),
    F("min",        RJ_DBL, res_latency, min, .flags = RJ_NONNEG),
    F("max",        RJ_DBL, res_latency, max, .flags = RJ_NONNEG),
    RJ_HERE(NULL, RJ_CUSTOM, .ops = &pcts_ops),
    RJ_TABLE_END,
};

/* a histogram member: checked against results_base.h's bounds before it is
 * allocated, and its min, max and sum against its own bounds */
static void hist_put(json_object *o, const rj_field *f, const void *base)
{
    const hist *h = *(hist *const *)((const char *)base + f->off);
    rj_put(o, f->key, h ? hist_to_json(h) : NULL);
}

/* o[f->key] (a histogram object) as a sparse histogram into *out, NULL
 * when absent: checked against results_base.h's bounds before anything is
 * allocated, and its min, max and sum against its own bounds. 0, or -1
 * with the reason in c->err. */
static int sparse_read(json_object *o, const rj_field *f, rj_ctx *c, hist_sparse **out)
{
    json_object *v = rj_get(o, f->key);
    char herr[256], what[256];
    *out = NULL;
    if (!v)
        return 0;
    if (hist_json_bounds(v, RES_MAX_HIST_DIGITS, RES_MAX_HIST_HIGHEST, RES_MAX_BUCKETS, herr,
                         sizeof herr) == 0
        && (*out = hist_sparse_from_json(v, herr, sizeof herr))) {
        const hist_sparse *h = *out;
        if (h->min >= 0 && h->min <= h->max && h->max <= h->highest && isfinite(h->sum)
            && h->sum >= 0)
            return 0;
        snprintf(herr, sizeof herr, "min %" PRId64 ", max %" PRId64 " or sum %g outside "
                 "0..highest_trackable", h->min, h->max, h->sum);
        hist_sparse_free(*out);
        *out = NULL;
    }
    snprintf(c->err, c->errlen, "%s: %s", rj_ctx_where(c, f->key, what, sizeof what), herr);
    return -1;
}

static int hist_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    hist **out = (hist **)((char *)base + f->off);
    hist_sparse *s;
    *out = NULL;
    if (sparse_read(o, f, c, &s) < 0)
        return -1;
    if (s && (!(*out = hist_new(s->highest, s->sig_digits)) || hist_add_sparse(*out, s) < 0)) {
        snprintf(c->err, c->errlen, "out of memory");
        hist_sparse_free(s);
        return -1;
    }
    hist_sparse_free(s);
    return 0;
}

static void hist_free_member(const rj_field *f, void *base)
{
    hist **h = (hist **)((char *)base + f->off);
    hist_free(*h);
    *h = NULL;
}

const rj_ops rj_hist_ops = { hist_put, hist_get, NULL, hist_free_member };

/* an interval's histogram, sparse: the same object and bounds */
static void sparse_put(json_object *o, const rj_field *f, const void *base)
{
    const hist_sparse *h = *(hist_sparse *const *)((const char *)base + f->off);
    if (h)
        rj_put(o, f->key, hist_sparse_to_json(h));
}

static int sparse_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    return sparse_read(o, f, c, (hist_sparse **)((char *)base + f->off));
}

static void sparse_free_member(const rj_field *f, void *base)
{
    hist_sparse **h = (hist_sparse **)((char *)base + f->off);
    hist_sparse_free(*h);
    *h = NULL;
}

const rj_ops rj_sparse_ops = { sparse_put, sparse_get, NULL, sparse_free_member };
