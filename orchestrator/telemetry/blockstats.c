/* blockstats.c — libvirt block statistics per VM and disk (see blockstats.h). */
#include "telemetry/blockstats.h"
#include "attributes.h"
#include "util/util.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libvirt/virterror.h>

#define ORCH_BLK_KEY(id, key) key,
static const char *const field_keys[] = { ORCH_BLK_FIELDS(ORCH_BLK_KEY) };
#undef ORCH_BLK_KEY

const char *orch_blk_field_name(orch_blk_field f)
{
    return f < ORCH_BLK_NFIELDS ? field_keys[f] : "?";
}

const char *orch_disk_role_name(orch_disk_role r)
{
    switch (r) {
    case ORCH_DISK_DB: return "db";
    case ORCH_DISK_BOOT: return "boot";
    default: return "other";
    }
}

static int same(const char *a, const char *b)
{
    return a && b && *a && strcmp(a, b) == 0;
}

static orch_disk_role role_of(const orch_blk_roles *r, const char *name, const char *path)
{
    if (!r)
        return ORCH_DISK_OTHER;
    if (same(r->db_path, path))
        return ORCH_DISK_DB;
    if (same(r->boot_path, path))
        return ORCH_DISK_BOOT;
    if (same(r->db_target, name))
        return ORCH_DISK_DB;
    if (same(r->boot_target, name))
        return ORCH_DISK_BOOT;
    return ORCH_DISK_OTHER;
}

int orch_blk_parse(virTypedParameterPtr params, int nparams, const orch_blk_roles *roles,
                   orch_blk_sample *s)
{
    unsigned count = 0;
    if (virTypedParamsGetUInt(params, nparams, "block.count", &count) != 1)
        return -1;
    s->ndisks = 0;
    for (unsigned n = 0; n < count && s->ndisks < ORCH_BLK_MAX_DISKS; n++) {
        char key[64];
        const char *str = NULL;
        int backing = 0;
        orch_blk_counters *c = &s->disk[s->ndisks];
        memset(c, 0, sizeof *c);
        snprintf(key, sizeof key, "block.%u.name", n);
        if (virTypedParamsGetString(params, nparams, key, &str) == 1 && str)
            snprintf(c->name, sizeof c->name, "%s", str);
        /* An image under a disk's top one (with VIR_CONNECT_GET_ALL_DOMAINS_
         * STATS_BACKING) follows its top entry under the same name. Every
         * entry carries a backingIndex with -blockdev (libvirt 9.0 reports
         * 2 for a qcow2 overlay's top, 1 for a raw disk), so that index
         * does not tell a backing image from a disk: the repeated name does. */
        for (int k = 0; c->name[0] && k < s->ndisks; k++)
            backing |= strcmp(s->disk[k].name, c->name) == 0;
        if (backing)
            continue;
        str = NULL;
        snprintf(key, sizeof key, "block.%u.path", n);
        if (virTypedParamsGetString(params, nparams, key, &str) == 1 && str)
            snprintf(c->path, sizeof c->path, "%s", str);
        for (int f = 0; f < ORCH_BLK_NFIELDS; f++) {
            snprintf(key, sizeof key, "block.%u.%s", n, field_keys[f]);
            if (virTypedParamsGetULLong(params, nparams, key, &c->v[f]) == 1)
                c->have |= 1u << f;
        }
        c->role = role_of(roles, c->name, c->path);
        s->ndisks++;
    }
    return 0;
}

/* Δ of field f in d; -1 when absent. */
static double inc(const orch_blk_delta *d, orch_blk_field f)
{
    return ORCH_BLK_HAS(d->have, f) ? (double)d->d[f] : -1;
}

static double per_s(const orch_blk_delta *d, orch_blk_field f, double scale)
{
    double v = inc(d, f);
    return v < 0 || !(d->dt > 0) ? NAN : v / scale / d->dt;
}

static double lat_ms(const orch_blk_delta *d, orch_blk_field times, orch_blk_field reqs)
{
    double t = inc(d, times), n = inc(d, reqs);
    return t < 0 || n <= 0 ? NAN : t / n / 1e6;
}

void orch_blk_delta_of(const orch_blk_counters *prev, double t0,
                       const orch_blk_counters *cur, double t1, orch_blk_delta *out)
{
    memset(out, 0, sizeof *out);
    out->t = t1;
    out->dt = t1 - t0;
    out->have = prev->have & cur->have;
    for (int f = 0; f < ORCH_BLK_NFIELDS; f++) {
        if (!ORCH_BLK_HAS(out->have, f))
            continue;
        if (cur->v[f] < prev->v[f])
            out->reset = 1;
        else
            out->d[f] = cur->v[f] - prev->v[f];
    }
    if (out->reset) {
        out->have = 0;
        memset(out->d, 0, sizeof out->d);
    }
    out->rd_iops = per_s(out, ORCH_BLK_RD_REQS, 1);
    out->rd_mbps = per_s(out, ORCH_BLK_RD_BYTES, 1e6);
    out->rd_lat_ms = lat_ms(out, ORCH_BLK_RD_TIMES, ORCH_BLK_RD_REQS);
    out->wr_iops = per_s(out, ORCH_BLK_WR_REQS, 1);
    out->wr_mbps = per_s(out, ORCH_BLK_WR_BYTES, 1e6);
    out->wr_lat_ms = lat_ms(out, ORCH_BLK_WR_TIMES, ORCH_BLK_WR_REQS);
    out->fl_iops = per_s(out, ORCH_BLK_FL_REQS, 1);
    out->fl_lat_ms = lat_ms(out, ORCH_BLK_FL_TIMES, ORCH_BLK_FL_REQS);
}

/* Copy the parameters libvirt returns for block stats (uint, ullong,
 * string) into a list the caller owns. */
static int copy_params(virTypedParameterPtr in, int nin, virTypedParameterPtr *out, int *nout)
{
    int max = 0, rc = 0;
    *out = NULL;
    *nout = 0;
    for (int i = 0; i < nin && rc == 0; i++) {
        switch (in[i].type) {
        case VIR_TYPED_PARAM_UINT:
            rc = virTypedParamsAddUInt(out, nout, &max, in[i].field, in[i].value.ui);
            break;
        case VIR_TYPED_PARAM_ULLONG:
            rc = virTypedParamsAddULLong(out, nout, &max, in[i].field, in[i].value.ul);
            break;
        case VIR_TYPED_PARAM_STRING:
            rc = virTypedParamsAddString(out, nout, &max, in[i].field, in[i].value.s);
            break;
        default:
            break;
        }
    }
    if (rc < 0) {
        virTypedParamsFree(*out, *nout);
        *out = NULL;
        *nout = 0;
    }
    return rc;
}

int orch_domstats_libvirt(void *ctx, virDomainPtr dom, virTypedParameterPtr *params,
                          int *nparams, char *err, size_t errlen)
{
    virDomainPtr doms[2] = { dom, NULL };
    virDomainStatsRecordPtr *recs = NULL;
    int ret = -1;
    (void)ctx;
    if (virDomainListGetStats(doms, VIR_DOMAIN_STATS_BLOCK, &recs, 0) < 1 || !recs[0]) {
        virErrorPtr e = virGetLastError();
        snprintf(err, errlen, "cannot read the block statistics of %s: %s",
                 dom ? virDomainGetName(dom) : "?", e && e->message ? e->message : "no record");
        goto cleanup;
    }
    if (copy_params(recs[0]->params, recs[0]->nparams, params, nparams) < 0) {
        snprintf(err, errlen, "out of memory copying block statistics");
        goto cleanup;
    }
    ret = 0;
cleanup:
    if (recs)
        virDomainStatsRecordListFree(recs);
    return ret;
}

typedef struct blk_series {
    orch_blk_delta *d;              /* the intervals, without a spool */
    int64_t        *off;            /* with one: where each is in it */
    orch_blk_delta  last;           /* the newest (either way) */
    int n, cap;
} blk_series;

typedef struct blk_vm {
    virDomainPtr   dom;
    char          *name;
    char          *db_path, *db_target, *boot_path, *boot_target;
    orch_blk_sample prev;
    int            have_prev;
    blk_series     series[2];       /* [0] db, [1] boot */
    int            errors;
    char           err[DB_ERR_LEN];
} blk_vm;

struct orch_blk_sampler {
    pthread_mutex_t  lock;
    orch_domstats_fn fn;
    void            *ctx;
    blk_vm         **vms;
    int              nvms;
    orch_spool      *spool;         /* not owned; NULL: intervals in memory */
};

orch_blk_sampler *orch_blk_sampler_new(orch_domstats_fn fn, void *ctx)
{
    orch_blk_sampler *s;
    /* orch_blk_parse's virTypedParams calls need libvirt's error state,
     * which a run has from its connections; tests may have none. */
    if (virInitialize() < 0 || !(s = calloc(1, sizeof *s)))
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    s->fn = fn ? fn : orch_domstats_libvirt;
    s->ctx = ctx;
    return s;
}

static void vm_free(blk_vm *v)
{
    if (!v)
        return;
    if (v->dom)
        virDomainFree(v->dom);
    free(v->name);
    free(v->db_path);
    free(v->db_target);
    free(v->boot_path);
    free(v->boot_target);
    for (int r = 0; r < 2; r++) {
        free(v->series[r].d);
        free(v->series[r].off);
    }
    free(v);
}

void orch_blk_sampler_free(orch_blk_sampler *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nvms; i++)
        vm_free(s->vms[i]);
    free(s->vms);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

int orch_blk_sampler_add(orch_blk_sampler *s, virDomainPtr dom, const char *vm,
                         const orch_blk_roles *roles)
{
    blk_vm *v = calloc(1, sizeof *v);
    int ok = 1, ret = -1;
    if (!v)
        return -1;
    const orch_blk_roles none = { 0 };
    if (!roles)
        roles = &none;
    v->name = orch_strdup_opt(vm && vm[0] ? vm : "?", &ok);
    v->db_path = orch_strdup_opt(roles->db_path, &ok);
    v->db_target = orch_strdup_opt(roles->db_target, &ok);
    v->boot_path = orch_strdup_opt(roles->boot_path, &ok);
    v->boot_target = orch_strdup_opt(roles->boot_target, &ok);
    if (!ok)
        goto cleanup;
    pthread_mutex_lock(&s->lock);
    blk_vm **grown = realloc(s->vms, (size_t)(s->nvms + 1) * sizeof *grown);
    if (grown) {
        s->vms = grown;
        if (dom && virDomainRef(dom) == 0)
            v->dom = dom;
        ret = s->nvms;
        s->vms[s->nvms++] = v;
        v = NULL;
    }
    pthread_mutex_unlock(&s->lock);
cleanup:
    vm_free(v);
    return ret;
}

static const orch_blk_counters *find_role(const orch_blk_sample *s, orch_disk_role r)
{
    for (int i = 0; i < s->ndisks; i++)
        if (s->disk[i].role == r)
            return &s->disk[i];
    return NULL;
}

static const orch_blk_counters *find_name(const orch_blk_sample *s, const char *name)
{
    for (int i = 0; i < s->ndisks; i++)
        if (strcmp(s->disk[i].name, name) == 0)
            return &s->disk[i];
    return NULL;
}

/* Room for one more interval in se. 0, or -1 when out of memory. */
static int series_grow(blk_series *se, int spooled)
{
    int cap = se->cap ? se->cap * 2 : 64;
    if (se->n < se->cap)
        return 0;
    if (spooled) {
        int64_t *grown = realloc(se->off, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        se->off = grown;
    } else {
        orch_blk_delta *grown = realloc(se->d, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        se->d = grown;
    }
    se->cap = cap;
    return 0;
}

/* Keep interval d of VM v's series se: in memory, or written to the
 * spool (a failed write is the sample's error, and the spool's). */
static void series_push(orch_blk_sampler *s, blk_vm *v, blk_series *se,
                        const orch_blk_delta *d)
{
    int64_t off = 0;
    if (series_grow(se, s->spool != NULL) < 0) {
        v->errors++;
        snprintf(v->err, sizeof v->err, "out of memory keeping block statistics");
        return;
    }
    if (s->spool && (off = orch_spool_put(s->spool, d, sizeof *d, 1)) < 0) {
        v->errors++;
        orch_spool_error(s->spool, v->err, sizeof v->err);
        return;
    }
    if (s->spool)
        se->off[se->n] = off;
    else
        se->d[se->n] = *d;
    se->n++;
    se->last = *d;
}

void orch_blk_sampler_spool(orch_blk_sampler *s, orch_spool *spool)
{
    pthread_mutex_lock(&s->lock);
    s->spool = spool;
    pthread_mutex_unlock(&s->lock);
}

/* Sample VM v at t; with the lock held. */
static void sample_vm(orch_blk_sampler *s, blk_vm *v, double t)
{
    virTypedParameterPtr params = NULL;
    int nparams = 0;
    char err[DB_ERR_LEN] = "";
    orch_blk_sample cur;
    orch_blk_roles roles = { v->db_path, v->db_target, v->boot_path, v->boot_target };
    if (s->fn(s->ctx, v->dom, &params, &nparams, err, sizeof err) < 0) {
        v->errors++;
        snprintf(v->err, sizeof v->err, "%s", err[0] ? err : "block statistics unavailable");
        return;
    }
    int rc = orch_blk_parse(params, nparams, &roles, &cur);
    virTypedParamsFree(params, nparams);
    if (rc < 0) {
        v->errors++;
        snprintf(v->err, sizeof v->err, "%s: the hypervisor reported no block statistics",
                 v->name);
        return;
    }
    cur.t = t;
    if ((v->db_path || v->db_target) && !find_role(&cur, ORCH_DISK_DB)) {
        char names[160] = "";
        size_t len = 0;
        for (int i = 0; i < cur.ndisks && len < sizeof names; i++)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                    cur.disk[i].name);
        v->errors++;
        snprintf(v->err, sizeof v->err, "%s: no disk has the database disk's path %s or "
                 "target %s (disks: %s)", v->name, v->db_path ? v->db_path : "-",
                 v->db_target ? v->db_target : "-", cur.ndisks ? names : "none");
    }
    if (v->have_prev && t > v->prev.t) {
        const orch_disk_role roles_kept[2] = { ORCH_DISK_DB, ORCH_DISK_BOOT };
        for (int r = 0; r < 2; r++) {
            const orch_blk_counters *c = find_role(&cur, roles_kept[r]);
            const orch_blk_counters *p = c ? find_name(&v->prev, c->name) : NULL;
            orch_blk_delta d;
            if (!p)
                continue;
            orch_blk_delta_of(p, v->prev.t, c, t, &d);
            series_push(s, v, &v->series[r], &d);
        }
    }
    v->prev = cur;
    v->have_prev = 1;
}

void orch_blk_sampler_sample_at(orch_blk_sampler *s, double t)
{
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->nvms; i++)
        sample_vm(s, s->vms[i], t);
    pthread_mutex_unlock(&s->lock);
}

void orch_blk_sampler_tick(void *sampler)
{
    orch_blk_sampler_sample_at(sampler, orch_mono_now());
}

void orch_blk_sampler_restart(orch_blk_sampler *s, double t)
{
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->nvms; i++) {
        blk_vm *v = s->vms[i];
        v->series[0].n = v->series[1].n = 0;
        v->have_prev = 0;
        sample_vm(s, v, t);
    }
    pthread_mutex_unlock(&s->lock);
}

int orch_blk_sampler_series(orch_blk_sampler *s, int vm, orch_disk_role r,
                            orch_blk_delta **out)
{
    int ret = -1;
    *out = NULL;
    pthread_mutex_lock(&s->lock);
    if (vm < 0 || vm >= s->nvms || (r != ORCH_DISK_DB && r != ORCH_DISK_BOOT))
        goto cleanup;
    const blk_series *se = &s->vms[vm]->series[r == ORCH_DISK_DB ? 0 : 1];
    if (se->n > 0) {
        *out = malloc((size_t)se->n * sizeof **out);
        if (!*out)
            goto cleanup;
        if (!s->spool)
            memcpy(*out, se->d, (size_t)se->n * sizeof **out);
        for (int i = 0; s->spool && i < se->n; i++)
            if (orch_spool_get(s->spool, se->off[i], &(*out)[i], sizeof **out, 1) < 0) {
                free(*out);
                *out = NULL;
                goto cleanup;
            }
    }
    ret = se->n;
cleanup:
    pthread_mutex_unlock(&s->lock);
    return ret;
}

int orch_blk_sampler_last(orch_blk_sampler *s, int vm, orch_disk_role r, orch_blk_delta *out)
{
    int found = 0;
    pthread_mutex_lock(&s->lock);
    if (vm >= 0 && vm < s->nvms && (r == ORCH_DISK_DB || r == ORCH_DISK_BOOT)) {
        const blk_series *se = &s->vms[vm]->series[r == ORCH_DISK_DB ? 0 : 1];
        if (se->n > 0) {
            *out = se->last;
            found = 1;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

int orch_blk_sampler_errors(orch_blk_sampler *s, int vm, char *err, size_t errlen)
{
    int n = -1;
    pthread_mutex_lock(&s->lock);
    if (vm >= 0 && vm < s->nvms) {
        n = s->vms[vm]->errors;
        if (err && errlen)
            snprintf(err, errlen, "%s", s->vms[vm]->err);
    }
    pthread_mutex_unlock(&s->lock);
    return n;
}
