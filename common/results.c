/* results.c — result documents: typed structs <-> JSON and CSV (see
 * results.h; the formats are in results/SCHEMA.md). The only file that
 * knows their key names and schema strings. */
#include "results.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OLTP_SCHEMA         "drivebench.oltp/1"
#define OLTP_SCHEMA_NAME    "drivebench.oltp/"
#define OLTP_MAJOR          1
#define SUMMARY_SCHEMA      "drivebench.summary/2"
#define SUMMARY_SCHEMA_NAME "drivebench.summary/"
#define SUMMARY_MAJOR       2

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

static void put(json_object *o, const char *key, json_object *v)
{
    json_object_object_add(o, key, v);
}

static json_object *str_or_null(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!o || !json_object_is_type(o, json_type_object)
        || !json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

static bool is_number(json_object *v)
{
    return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int));
}

static double get_d(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v ? json_object_get_double(v) : 0;
}

static int64_t get_i(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v ? json_object_get_int64(v) : 0;
}

static int64_t get_i_opt(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return is_number(v) ? json_object_get_int64(v) : RES_UNSET;
}

static bool get_b(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v ? json_object_get_boolean(v) : false;
}

/* A string member, copied (NULL when absent or null). Sets *oom on a
 * failed copy. */
static char *get_s(json_object *o, const char *key, bool *oom)
{
    json_object *v = get(o, key);
    char *s;
    if (!v)
        return NULL;
    s = strdup(json_object_get_string(v));
    if (!s)
        *oom = true;
    return s;
}

static size_t array_len(json_object *a)
{
    return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* The major of "NAME/MAJOR[.MINOR]" when schema starts with name; -1 when
 * it does not or the version is malformed. */
static int schema_major(const char *schema, const char *name)
{
    size_t n = strlen(name);
    char *end;
    long major;
    if (!schema || strncmp(schema, name, n) != 0)
        return -1;
    errno = 0;
    major = strtol(schema + n, &end, 10);
    if (end == schema + n || errno || major < 0 || major > 1000000)
        return -1;
    if (*end == '.') {
        const char *m = end + 1;
        strtol(m, &end, 10);
        if (end == m)
            return -1;
    }
    return *end ? -1 : (int)major;
}

/* Read a JSON file; NULL with json-c's reason (one line) in err. */
static json_object *read_json(const char *path, char *err, size_t errlen)
{
    json_object *doc = json_object_from_file(path);
    size_t n;
    if (doc)
        return doc;
    snprintf(err, errlen, "%s", json_util_get_last_err() ? json_util_get_last_err()
                                                         : "unreadable");
    n = strlen(err);
    while (n && err[n - 1] == '\n')
        err[--n] = '\0';
    return NULL;
}

static int write_json(json_object *doc, const char *path, char *err, size_t errlen)
{
    if (json_object_to_file_ext(path, doc, JSON_C_TO_STRING_PRETTY
                                | JSON_C_TO_STRING_NOSLASHESCAPE) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* numbers and CSV                                                     */

const char *res_num(double v, char *buf, size_t len)
{
    char text[64];
    double r = round(v * 1e6) / 1e6;
    size_t n;
    snprintf(text, sizeof text, "%.6f", r);
    n = strlen(text);
    while (n > 1 && text[n - 1] == '0')
        text[--n] = '\0';
    if (text[n - 1] == '.')
        text[n - 1] = '\0';
    if (strcmp(text, "-0") == 0)
        snprintf(text, sizeof text, "0");
    snprintf(buf, len, "%s", text);
    return buf;
}

json_object *res_json_number(double v)
{
    char text[64];
    return json_object_new_double_s(round(v * 1e6) / 1e6, res_num(v, text, sizeof text));
}

void res_csv_field(FILE *f, const char *s, bool always)
{
    if (!s)
        s = "";
    if (!always && !strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

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
    put(j, "avg", json_object_new_double(l->avg));
    put(j, "min", json_object_new_double(l->min));
    put(j, "max", json_object_new_double(l->max));
    for (int i = 0; i < l->npct; i++) {
        pct_key(key, sizeof key, l->pct[i].pct);
        put(j, key, json_object_new_double(l->pct[i].ms));
    }
    return j;
}

static void latency_from_json(json_object *j, res_latency *l)
{
    memset(l, 0, sizeof *l);
    l->avg = get_d(j, "avg");
    l->min = get_d(j, "min");
    l->max = get_d(j, "max");
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
        put(e, "name", json_object_new_string(x->name));
        put(e, "count", json_object_new_int64(x->count));
        put(e, "share", json_object_new_double(x->share));
        put(e, "rollbacks", json_object_new_int64(x->rollbacks));
        put(e, "retries", json_object_new_int64(x->retries));
        put(e, "latency_ms", latency_to_json(&x->latency));
        put(e, "histogram", x->histogram ? hist_to_json(x->histogram) : NULL);
        json_object_array_add(types, e);
    }
    return types;
}

static json_object *tpcc_to_json(const res_tpcc *c)
{
    json_object *x = json_object_new_object(), *lims = json_object_new_array();
    put(x, c->tpm_name ? c->tpm_name : "tpmC", json_object_new_double(c->tpm));
    put(x, "tps", json_object_new_double(c->tps));
    for (int i = 0; i < c->nlimits; i++) {
        const res_tpcc_limit *l = &c->limits[i];
        json_object *e = json_object_new_object();
        put(e, "name", json_object_new_string(l->name));
        put(e, "p90_ms", json_object_new_double(l->p90_ms));
        put(e, "p90_limit_ms", json_object_new_double(l->p90_limit_ms));
        put(e, "p90_met", json_object_new_boolean(l->p90_met));
        put(e, "share", json_object_new_double(l->share));
        put(e, "min_share", json_object_new_double(l->min_share));
        put(e, "share_met", json_object_new_boolean(l->share_met));
        json_object_array_add(lims, e);
    }
    put(x, "limits", lims);
    put(x, "all_limits_met", json_object_new_boolean(c->all_limits_met));
    return x;
}

static json_object *phase_to_json(const res_phase *p)
{
    json_object *j = json_object_new_object(), *q = json_object_new_object();
    json_object *iv = json_object_new_array();
    char key[32];

    put(j, "name", json_object_new_string(p->name));
    put(j, "duration_s", json_object_new_double(p->duration_s));
    put(j, "transactions", json_object_new_int64(p->transactions));
    put(q, "read", json_object_new_int64(p->reads));
    put(q, "write", json_object_new_int64(p->writes));
    put(q, "other", json_object_new_int64(p->others));
    put(q, "total", json_object_new_int64(p->total));
    put(j, "queries", q);
    put(j, "tps", json_object_new_double(p->tps));
    put(j, "qps", json_object_new_double(p->qps));
    put(j, "errors", json_object_new_int64(p->errors));
    put(j, "reconnects", json_object_new_int64(p->reconnects));
    put(j, "rollbacks", json_object_new_int64(p->rollbacks));
    put(j, "latency_ms", latency_to_json(&p->latency));
    if (p->has_queue)
        put(j, "queue_ms", latency_to_json(&p->queue));
    pct_key(key, sizeof key, p->iv_pct);
    for (int i = 0; i < p->nintervals; i++) {
        const res_interval *x = &p->intervals[i];
        json_object *e = json_object_new_object(), *l = json_object_new_object();
        put(e, "t", json_object_new_double(x->t));
        put(e, "tps", json_object_new_double(x->tps));
        put(e, "qps", json_object_new_double(x->qps));
        put(e, "errors_ps", json_object_new_double(x->errors_ps));
        put(e, "reconnects_ps", json_object_new_double(x->reconnects_ps));
        put(l, "avg", json_object_new_double(x->lat_avg_ms));
        put(l, key, json_object_new_double(x->lat_pct_ms));
        put(e, "latency_ms", l);
        if (p->has_queue)
            put(e, "queue_length", json_object_new_int64(x->queue_length));
        json_object_array_add(iv, e);
    }
    put(j, "intervals", iv);
    put(j, "histogram", p->histogram ? hist_to_json(p->histogram) : NULL);
    if (p->ntypes > 0)
        put(j, "transaction_types", types_to_json(p));
    if (p->tpcc)
        put(j, "tpcc", tpcc_to_json(p->tpcc));
    return j;
}

int res_oltp_write_file(const res_oltp *r, const char *path, char *err, size_t errlen)
{
    json_object *doc = json_object_new_object(), *tool = json_object_new_object(),
                *server = json_object_new_object(), *phases = json_object_new_array();
    int rc;

    put(doc, "schema", json_object_new_string(OLTP_SCHEMA));
    put(tool, "name", json_object_new_string(r->tool_name ? r->tool_name : "oltp"));
    put(tool, "version", str_or_null(r->tool_version));
    put(doc, "tool", tool);
    put(doc, "workload", str_or_null(r->workload));
    put(doc, "driver", str_or_null(r->driver));
    put(doc, "started_at", str_or_null(r->started_at));
    put(server, "version", str_or_null(r->server_version));
    put(doc, "server", server);
    put(doc, "options", r->options ? json_object_get(r->options) : json_object_new_object());
    for (int i = 0; i < r->nphases; i++)
        json_object_array_add(phases, phase_to_json(&r->phases[i]));
    put(doc, "phases", phases);
    rc = write_json(doc, path, err, errlen);
    json_object_put(doc);
    return rc;
}

/* A histogram member; NULL with "what: reason" in err when malformed. */
static int hist_member(json_object *o, const char *what, hist **out, char *err, size_t errlen)
{
    json_object *v = get(o, "histogram");
    char herr[256];
    *out = NULL;
    if (!v)
        return 0;
    *out = hist_from_json(v, herr, sizeof herr);
    if (!*out) {
        snprintf(err, errlen, "%s: %s", what, herr);
        return -1;
    }
    return 0;
}

static int types_from_json(json_object *a, res_phase *p, char *err, size_t errlen)
{
    size_t n = array_len(a);
    bool oom = false;
    if (!n)
        return 0;
    p->types = calloc(n, sizeof *p->types);
    if (!p->types) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->ntypes = (int)n;
    for (size_t t = 0; t < n; t++) {
        json_object *e = json_object_array_get_idx(a, t);
        res_txn_type *x = &p->types[t];
        char what[64];
        x->name = get_s(e, "name", &oom);
        x->count = get_i(e, "count");
        x->share = get_d(e, "share");
        x->rollbacks = get_i(e, "rollbacks");
        x->retries = get_i(e, "retries");
        latency_from_json(get(e, "latency_ms"), &x->latency);
        snprintf(what, sizeof what, "transaction_types[%zu].histogram", t);
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
    json_object *lims = get(x, "limits");
    size_t n = array_len(lims);
    bool oom = false;
    res_tpcc *c = calloc(1, sizeof *c);
    if (!c || !(c->limits = calloc(n ? n : 1, sizeof *c->limits))) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->tpcc = c;
    /* the headline rate is the one member that is not a known key */
    json_object_object_foreach(x, key, v) {
        if (strcmp(key, "tps") && strcmp(key, "limits") && strcmp(key, "all_limits_met")
            && is_number(v) && !c->tpm_name) {
            c->tpm_name = strdup(key);
            oom |= !c->tpm_name;
            c->tpm = json_object_get_double(v);
        }
    }
    c->tps = get_d(x, "tps");
    c->all_limits_met = get_b(x, "all_limits_met");
    c->nlimits = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(lims, i);
        res_tpcc_limit *l = &c->limits[i];
        l->name = get_s(e, "name", &oom);
        l->p90_ms = get_d(e, "p90_ms");
        l->p90_limit_ms = get_d(e, "p90_limit_ms");
        l->p90_met = get_b(e, "p90_met");
        l->share = get_d(e, "share");
        l->min_share = get_d(e, "min_share");
        l->share_met = get_b(e, "share_met");
    }
    if (oom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static int phase_from_json(json_object *j, res_phase *p, char *err, size_t errlen)
{
    json_object *q = get(j, "queries"), *ivs = get(j, "intervals");
    size_t n = array_len(ivs);
    bool oom = false;

    p->name = get_s(j, "name", &oom);
    p->duration_s = get_d(j, "duration_s");
    p->transactions = get_i(j, "transactions");
    p->reads = get_i(q, "read");
    p->writes = get_i(q, "write");
    p->others = get_i(q, "other");
    p->total = get_i(q, "total");
    p->tps = get_d(j, "tps");
    p->qps = get_d(j, "qps");
    p->errors = get_i(j, "errors");
    p->reconnects = get_i(j, "reconnects");
    p->rollbacks = get_i(j, "rollbacks");
    latency_from_json(get(j, "latency_ms"), &p->latency);
    if (get(j, "queue_ms")) {
        p->has_queue = true;
        latency_from_json(get(j, "queue_ms"), &p->queue);
    }
    if (oom || (n && !(p->intervals = calloc(n, sizeof *p->intervals)))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->nintervals = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(ivs, i), *l = get(e, "latency_ms");
        res_interval *x = &p->intervals[i];
        x->t = get_d(e, "t");
        x->tps = get_d(e, "tps");
        x->qps = get_d(e, "qps");
        x->errors_ps = get_d(e, "errors_ps");
        x->reconnects_ps = get_d(e, "reconnects_ps");
        x->lat_avg_ms = get_d(l, "avg");
        x->queue_length = get_i(e, "queue_length");
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
    if (hist_member(j, "histogram", &p->histogram, err, errlen) < 0
        || types_from_json(get(j, "transaction_types"), p, err, errlen) < 0
        || (get(j, "tpcc") && tpcc_from_json(get(j, "tpcc"), p, err, errlen) < 0))
        return -1;
    return 0;
}

/* The document's content into r; -1 with the reason (no path) in err. */
static int oltp_from_json(json_object *doc, res_oltp *r, char *err, size_t errlen)
{
    json_object *phases = get(doc, "phases"), *measure = NULL, *schema = get(doc, "schema");
    bool oom = false;

    if (!schema || schema_major(json_object_get_string(schema), OLTP_SCHEMA_NAME) != OLTP_MAJOR) {
        snprintf(err, errlen, "not a %s result", OLTP_SCHEMA);
        return -1;
    }
    if (!phases || !json_object_is_type(phases, json_type_array)) {
        snprintf(err, errlen, "no phases array");
        return -1;
    }
    for (size_t i = 0; i < array_len(phases); i++) {
        json_object *name = get(json_object_array_get_idx(phases, i), "name");
        if (name && strcmp(json_object_get_string(name), "measure") == 0)
            measure = json_object_array_get_idx(phases, i);
    }
    if (!measure) {
        snprintf(err, errlen, "no \"measure\" phase");
        return -1;
    }
    if (!is_number(get(measure, "tps"))) {
        snprintf(err, errlen, "measure phase has no numeric tps");
        return -1;
    }
    if (!get(measure, "histogram")) {
        snprintf(err, errlen, "measure phase has no histogram");
        return -1;
    }
    r->tool_name = get_s(get(doc, "tool"), "name", &oom);
    r->tool_version = get_s(get(doc, "tool"), "version", &oom);
    r->workload = get_s(doc, "workload", &oom);
    r->driver = get_s(doc, "driver", &oom);
    r->started_at = get_s(doc, "started_at", &oom);
    r->server_version = get_s(get(doc, "server"), "version", &oom);
    r->options = get(doc, "options") ? json_object_get(get(doc, "options")) : NULL;
    if (oom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < array_len(phases); i++) {
        res_phase *p = res_oltp_add_phase(r);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (phase_from_json(json_object_array_get_idx(phases, i), p, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int res_oltp_read_file(const char *path, res_oltp *r, char *err, size_t errlen)
{
    char why[512];
    json_object *doc;

    memset(r, 0, sizeof *r);
    doc = read_json(path, why, sizeof why);
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

/* ------------------------------------------------------------------ */
/* summary                                                             */

void res_plan_init(res_plan *p)
{
    memset(p, 0, sizeof *p);
    p->vms_per_drive = p->repetitions = RES_UNSET;
    p->cv_threshold = NAN;
    p->tables = p->table_size = p->warehouses = p->threads = RES_UNSET;
    p->precondition_s = p->warmup_s = p->measure_s = RES_UNSET;
}

void res_env_init(res_env *e)
{
    memset(e, 0, sizeof *e);
    e->cpus = e->memory_bytes = RES_UNSET;
}

int res_plan_from_json(json_object *o, res_plan *p)
{
    json_object *w = get(o, "workload"), *cv = get(o, "cv_threshold");
    bool oom = false;
    res_plan_init(p);
    p->name = get_s(o, "name", &oom);
    p->profile = get_s(o, "profile", &oom);
    p->client = get_s(o, "client", &oom);
    p->vms_per_drive = get_i_opt(o, "vms_per_drive");
    p->repetitions = get_i_opt(o, "repetitions");
    p->cv_threshold = is_number(cv) ? json_object_get_double(cv) : NAN;
    p->workload = get_s(w, "name", &oom);
    p->db_driver = get_s(w, "db_driver", &oom);
    p->tables = get_i_opt(w, "tables");
    p->table_size = get_i_opt(w, "table_size");
    p->warehouses = get_i_opt(w, "warehouses");
    p->threads = get_i_opt(w, "threads");
    p->precondition_s = get_i_opt(w, "precondition_s");
    p->warmup_s = get_i_opt(w, "warmup_s");
    p->measure_s = get_i_opt(w, "measure_s");
    return oom ? -1 : 0;
}

int res_env_from_json(json_object *o, res_env *e)
{
    json_object *host = get(o, "host"), *hvs = get(o, "hypervisors");
    size_t n = array_len(hvs);
    bool oom = false;
    res_env_init(e);
    e->hostname = get_s(host, "hostname", &oom);
    e->kernel = get_s(host, "kernel", &oom);
    e->cpu_model = get_s(host, "cpu_model", &oom);
    e->cpus = get_i_opt(host, "cpus");
    e->memory_bytes = get_i_opt(host, "memory_bytes");
    if (n && !(e->hypervisors = calloc(n, sizeof *e->hypervisors)))
        return -1;
    e->nhypervisors = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *h = json_object_array_get_idx(hvs, i);
        res_hypervisor *x = &e->hypervisors[i];
        x->uri = get_s(h, "uri", &oom);
        x->hostname = get_s(h, "hostname", &oom);
        x->libvirt_version = get_s(h, "libvirt_version", &oom);
        x->hypervisor = get_s(h, "hypervisor", &oom);
        x->hypervisor_version = get_s(h, "hypervisor_version", &oom);
        x->domain_type = get_s(h, "domain_type", &oom);
    }
    return oom ? -1 : 0;
}

static void plan_clear(res_plan *p)
{
    free(p->name);
    free(p->profile);
    free(p->client);
    free(p->workload);
    free(p->db_driver);
}

static void env_clear(res_env *e)
{
    free(e->hostname);
    free(e->kernel);
    free(e->cpu_model);
    for (int i = 0; i < e->nhypervisors; i++) {
        res_hypervisor *x = &e->hypervisors[i];
        free(x->uri);
        free(x->hostname);
        free(x->libvirt_version);
        free(x->hypervisor);
        free(x->hypervisor_version);
        free(x->domain_type);
    }
    free(e->hypervisors);
}

void res_summary_clear(res_summary *s)
{
    if (!s)
        return;
    free(s->run_id);
    free(s->started_at);
    free(s->finished_at);
    free(s->plan_file);
    plan_clear(&s->plan);
    env_clear(&s->env);
    for (int i = 0; i < s->ndrives; i++) {
        free(s->drives[i].name);
        free(s->drives[i].reps);
    }
    free(s->drives);
    for (int i = 0; i < s->nvms; i++) {
        res_vm *v = &s->vms[i];
        free(v->name);
        free(v->drive);
        free(v->result);
        free(v->precondition_result);
        free(v->server_version);
        free(v->series);
    }
    free(s->vms);
    memset(s, 0, sizeof *s);
}

static void put_i_opt(json_object *o, const char *key, int64_t v)
{
    if (v != RES_UNSET)
        put(o, key, json_object_new_int64(v));
}

static void put_s_opt(json_object *o, const char *key, const char *v)
{
    if (v)
        put(o, key, json_object_new_string(v));
}

static json_object *plan_to_json(const res_plan *p)
{
    json_object *o = json_object_new_object(), *w = json_object_new_object();
    put_s_opt(o, "name", p->name);
    put_s_opt(o, "profile", p->profile);
    put_i_opt(o, "vms_per_drive", p->vms_per_drive);
    put_s_opt(o, "client", p->client);
    put_i_opt(o, "repetitions", p->repetitions);
    if (!isnan(p->cv_threshold))
        put(o, "cv_threshold", res_json_number(p->cv_threshold));
    put_s_opt(w, "name", p->workload);
    put_s_opt(w, "db_driver", p->db_driver);
    put_i_opt(w, "tables", p->tables);
    put_i_opt(w, "table_size", p->table_size);
    put_i_opt(w, "warehouses", p->warehouses);
    put_i_opt(w, "threads", p->threads);
    put_i_opt(w, "precondition_s", p->precondition_s);
    put_i_opt(w, "warmup_s", p->warmup_s);
    put_i_opt(w, "measure_s", p->measure_s);
    put(o, "workload", w);
    return o;
}

static json_object *env_to_json(const res_env *e)
{
    json_object *o = json_object_new_object(), *host = json_object_new_object();
    json_object *hvs = json_object_new_array();
    put_s_opt(host, "hostname", e->hostname);
    put_s_opt(host, "kernel", e->kernel);
    put_s_opt(host, "cpu_model", e->cpu_model);
    put_i_opt(host, "cpus", e->cpus);
    put_i_opt(host, "memory_bytes", e->memory_bytes);
    put(o, "host", host);
    for (int i = 0; i < e->nhypervisors; i++) {
        const res_hypervisor *x = &e->hypervisors[i];
        json_object *h = json_object_new_object();
        put(h, "uri", str_or_null(x->uri));
        put(h, "hostname", str_or_null(x->hostname));
        put(h, "libvirt_version", str_or_null(x->libvirt_version));
        put(h, "hypervisor", str_or_null(x->hypervisor));
        put(h, "hypervisor_version", str_or_null(x->hypervisor_version));
        put(h, "domain_type", str_or_null(x->domain_type));
        json_object_array_add(hvs, h);
    }
    put(o, "hypervisors", hvs);
    return o;
}

static json_object *latency_summary_json(double avg, double p99, const double *p99_mean)
{
    json_object *o = json_object_new_object();
    put(o, "avg", res_json_number(avg));
    put(o, "p99", res_json_number(p99));
    if (p99_mean)
        put(o, "p99_mean_of_vms", res_json_number(*p99_mean));
    return o;
}

static json_object *figures_json(const res_figures *f)
{
    json_object *o = json_object_new_object();
    put(o, "vms", json_object_new_int(f->vms));
    put(o, "tps", res_json_number(f->tps));
    put(o, "transactions", json_object_new_int64(f->transactions));
    put(o, "latency_ms", latency_summary_json(f->lat_avg_ms, f->lat_p99_ms,
                                              &f->lat_p99_mean_of_vms_ms));
    return o;
}

static json_object *vm_json(const res_vm *v)
{
    json_object *o = json_object_new_object(), *series = json_object_new_array();
    put(o, "name", json_object_new_string(v->name));
    put(o, "drive", json_object_new_string(v->drive));
    put(o, "repetition", json_object_new_int(v->repetition));
    put(o, "result", str_or_null(v->result));
    put(o, "precondition_result", str_or_null(v->precondition_result));
    put(o, "tps", res_json_number(v->tps));
    put(o, "transactions", json_object_new_int64(v->transactions));
    put(o, "latency_ms", latency_summary_json(v->lat_avg_ms, v->lat_p99_ms, NULL));
    put_s_opt(o, "server_version", v->server_version);
    put(o, "errors", json_object_new_int64(v->errors));
    put(o, "reconnects", json_object_new_int64(v->reconnects));
    for (int i = 0; i < v->npoints; i++) {
        json_object *pair = json_object_new_array();
        json_object_array_add(pair, res_json_number(v->series[i].t));
        json_object_array_add(pair, res_json_number(v->series[i].tps));
        json_object_array_add(series, pair);
    }
    put(o, "tps_series", series);
    return o;
}

json_object *res_summary_to_json(const res_summary *s)
{
    json_object *out = json_object_new_object(), *drives = json_object_new_array();
    json_object *vms = json_object_new_array(), *run;

    put(out, "schema", json_object_new_string(SUMMARY_SCHEMA));
    put(out, "run_id", str_or_null(s->run_id));
    put(out, "started_at", str_or_null(s->started_at));
    put(out, "finished_at", str_or_null(s->finished_at));
    put(out, "plan_file", json_object_new_string(s->plan_file ? s->plan_file : "plan.ini"));
    put(out, "plan", plan_to_json(&s->plan));
    put(out, "environment", env_to_json(&s->env));
    put(out, "repetitions", json_object_new_int(s->repetitions));
    for (int d = 0; d < s->ndrives; d++) {
        const res_drive *dr = &s->drives[d];
        json_object *o = figures_json(&dr->f), *reps = json_object_new_array();
        for (int r = 0; r < dr->nreps; r++) {
            json_object *rj = figures_json(&dr->reps[r].f);
            put(rj, "repetition", json_object_new_int(dr->reps[r].repetition));
            json_object_array_add(reps, rj);
        }
        put(o, "name", json_object_new_string(dr->name));
        put(o, "repetitions", reps);
        json_object_array_add(drives, o);
    }
    put(out, "drives", drives);
    for (int i = 0; i < s->nvms; i++)
        json_object_array_add(vms, vm_json(&s->vms[i]));
    put(out, "vms", vms);
    run = figures_json(&s->run);
    put(run, "drives", json_object_new_int(s->run_drives));
    put(out, "run", run);
    return out;
}

/* summary.csv: one row per drive per repetition. */
static int summary_csv(const res_summary *s, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    char b[5][48];
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fputs("run_id,drive,repetition,vms,tps,transactions,latency_avg_ms,latency_p99_ms,"
          "latency_p99_mean_of_vms_ms\n", f);
    for (int d = 0; d < s->ndrives; d++)
        for (int r = 0; r < s->drives[d].nreps; r++) {
            const res_repetition *g = &s->drives[d].reps[r];
            res_csv_field(f, s->run_id, false);
            fputc(',', f);
            res_csv_field(f, s->drives[d].name, false);
            fprintf(f, ",%d,%d,%s,%" PRId64 ",%s,%s,%s\n", g->repetition, g->f.vms,
                    res_num(g->f.tps, b[0], sizeof b[0]), g->f.transactions,
                    res_num(g->f.lat_avg_ms, b[1], sizeof b[1]),
                    res_num(g->f.lat_p99_ms, b[2], sizeof b[2]),
                    res_num(g->f.lat_p99_mean_of_vms_ms, b[3], sizeof b[3]));
        }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int res_summary_write_files(const res_summary *s, const char *dir, char *err, size_t errlen)
{
    size_t n = strlen(dir) + sizeof "/summary.json";
    char *jpath = malloc(n), *cpath = malloc(n);
    json_object *doc = NULL;
    int rc = -1;

    if (!jpath || !cpath) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    snprintf(jpath, n, "%s/summary.json", dir);
    snprintf(cpath, n, "%s/summary.csv", dir);
    doc = res_summary_to_json(s);
    if (write_json(doc, jpath, err, errlen) < 0 || summary_csv(s, cpath, err, errlen) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    json_object_put(doc);
    free(jpath);
    free(cpath);
    return rc;
}

static void figures_from_json(json_object *o, res_figures *f)
{
    json_object *l = get(o, "latency_ms");
    f->vms = (int)get_i(o, "vms");
    f->tps = get_d(o, "tps");
    f->transactions = get_i(o, "transactions");
    f->lat_avg_ms = get_d(l, "avg");
    f->lat_p99_ms = get_d(l, "p99");
    f->lat_p99_mean_of_vms_ms = get_d(l, "p99_mean_of_vms");
}

static int drive_from_json(json_object *o, res_drive *d)
{
    json_object *reps = get(o, "repetitions");
    size_t n = array_len(reps);
    bool oom = false;
    d->name = get_s(o, "name", &oom);
    if (!d->name)
        d->name = strdup("");
    figures_from_json(o, &d->f);
    if (!d->name || (n && !(d->reps = calloc(n, sizeof *d->reps))))
        return -1;
    d->nreps = (int)n;
    for (size_t r = 0; r < n; r++) {
        json_object *rj = json_object_array_get_idx(reps, r);
        d->reps[r].repetition = (int)get_i(rj, "repetition");
        figures_from_json(rj, &d->reps[r].f);
    }
    return oom ? -1 : 0;
}

static int vm_from_json(json_object *o, res_vm *v)
{
    json_object *l = get(o, "latency_ms"), *series = get(o, "tps_series");
    size_t n = array_len(series);
    bool oom = false;
    v->name = get_s(o, "name", &oom);
    v->drive = get_s(o, "drive", &oom);
    if (!v->name)
        v->name = strdup("");
    if (!v->drive)
        v->drive = strdup("");
    v->repetition = (int)get_i(o, "repetition");
    v->result = get_s(o, "result", &oom);
    v->precondition_result = get_s(o, "precondition_result", &oom);
    v->tps = get_d(o, "tps");
    v->transactions = get_i(o, "transactions");
    v->lat_avg_ms = get_d(l, "avg");
    v->lat_p99_ms = get_d(l, "p99");
    v->server_version = get_s(o, "server_version", &oom);
    v->errors = get_i_opt(o, "errors");
    v->reconnects = get_i_opt(o, "reconnects");
    if (oom || !v->name || !v->drive || (n && !(v->series = calloc(n, sizeof *v->series))))
        return -1;
    v->npoints = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *pair = json_object_array_get_idx(series, i);
        v->series[i].t = json_object_get_double(json_object_array_get_idx(pair, 0));
        v->series[i].tps = json_object_get_double(json_object_array_get_idx(pair, 1));
    }
    return 0;
}

static int summary_from_json(json_object *doc, res_summary *s, char *err, size_t errlen)
{
    json_object *schema = get(doc, "schema"), *drives = get(doc, "drives"), *vms = get(doc, "vms");
    const char *name = schema ? json_object_get_string(schema) : NULL;
    int major = schema_major(name, SUMMARY_SCHEMA_NAME);
    bool oom = false;

    if (major == 1) {
        snprintf(err, errlen, "%s was written by an older drivebench, whose summaries lack "
                 "the per-VM figures this report reads; run the plan again", name);
        return -1;
    }
    if (major != SUMMARY_MAJOR) {
        snprintf(err, errlen, "not a %s document", SUMMARY_SCHEMA);
        return -1;
    }
    if (!drives || !json_object_is_type(drives, json_type_array)
        || !vms || !json_object_is_type(vms, json_type_array)) {
        snprintf(err, errlen, "no drives or vms array");
        return -1;
    }
    s->run_id = get_s(doc, "run_id", &oom);
    if (!s->run_id && !oom)
        oom = !(s->run_id = strdup(""));
    s->started_at = get_s(doc, "started_at", &oom);
    s->finished_at = get_s(doc, "finished_at", &oom);
    s->plan_file = get_s(doc, "plan_file", &oom);
    s->repetitions = (int)get_i(doc, "repetitions");
    figures_from_json(get(doc, "run"), &s->run);
    s->run_drives = (int)get_i(get(doc, "run"), "drives");
    if (oom || res_plan_from_json(get(doc, "plan"), &s->plan) < 0
        || res_env_from_json(get(doc, "environment"), &s->env) < 0)
        goto oom;
    s->drives = calloc(array_len(drives) + 1, sizeof *s->drives);
    s->vms = calloc(array_len(vms) + 1, sizeof *s->vms);
    if (!s->drives || !s->vms)
        goto oom;
    for (size_t i = 0; i < array_len(drives); i++) {
        s->ndrives++;
        if (drive_from_json(json_object_array_get_idx(drives, i), &s->drives[i]) < 0)
            goto oom;
    }
    for (size_t i = 0; i < array_len(vms); i++) {
        s->nvms++;
        if (vm_from_json(json_object_array_get_idx(vms, i), &s->vms[i]) < 0)
            goto oom;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

int res_summary_read_file(const char *path, res_summary *s, char *err, size_t errlen)
{
    char why[512];
    json_object *doc;

    memset(s, 0, sizeof *s);
    res_plan_init(&s->plan);
    res_env_init(&s->env);
    doc = read_json(path, why, sizeof why);
    if (!doc) {
        snprintf(err, errlen, "%s: %s", path, why);
        return RES_E_UNREADABLE;
    }
    if (summary_from_json(doc, s, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        res_summary_clear(s);
        json_object_put(doc);
        return -1;
    }
    json_object_put(doc);
    return 0;
}
