/* results_fields.c — the walkers of the field tables of results_json.h:
 * one description per struct serves its writer, its reader, the checks
 * of an untrusted document and the release of what was read. */
#include "results_base.h"
#include "results_json.h"
#include "atomic_file.h"

#include <json-c/printbuf.h>

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AT(base, off, type) ((type *)((char *)(base) + (off)))
#define CAT(base, off, type) ((const type *)((const char *)(base) + (off)))

static bool written(const rj_field *f, const void *base)
{
    if (f->has && !*CAT(base, f->has - 1, bool))
        return false;
    return !f->when || f->when(base);
}

/* json-c's plain text of o (an object or array of plain values) on one
 * line: the serializer rj_one_line sets. */
static int one_line(json_object *o, struct printbuf *pb, int level, int flags)
{
    (void)level;
    (void)flags;
    if (json_object_is_type(o, json_type_array)) {
        size_t n = json_object_array_length(o);
        printbuf_strappend(pb, "[");
        for (size_t i = 0; i < n; i++) {
            if (i)
                printbuf_strappend(pb, ",");
            sprintbuf(pb, "%s", json_object_to_json_string_ext(json_object_array_get_idx(o, i),
                                                               RJ_JSON_ONE_LINE));
        }
        return printbuf_strappend(pb, "]");
    }
    printbuf_strappend(pb, "{");
    {
        int i = 0;
        json_object_object_foreach(o, key, val) {
            json_object *k = json_object_new_string(key);
            sprintbuf(pb, "%s%s:", i++ ? "," : "", json_object_to_json_string_ext(k, RJ_JSON_ONE_LINE));
            sprintbuf(pb, "%s", json_object_to_json_string_ext(val, RJ_JSON_ONE_LINE));
            json_object_put(k);
        }
    }
    return printbuf_strappend(pb, "}");
}

json_object *rj_one_line(json_object *o)
{
    if (o)
        json_object_set_serializer(o, one_line, NULL, NULL);
    return o;
}

/* An RJ_ARRAY field: its n_off count of structs at a, each an object
 * (one line each with RJ_ROWS); nothing for none with RJ_OMIT_EMPTY. */
static void put_array(json_object *o, const rj_field *f, const void *base, const char *a)
{
    int n = *CAT(base, f->n_off, int);
    json_object *v;
    if (n == 0 && (f->flags & RJ_OMIT_EMPTY))
        return;
    v = json_object_new_array_ext(n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        json_object *e = json_object_new_object();
        rj_put_fields(e, f->sub, a + (size_t)i * f->size);
        json_object_array_add(v, f->flags & RJ_ROWS ? rj_one_line(e) : e);
    }
    rj_put(o, f->key, v);
}

/* Field f of base added to o (when written). */
static void put_field(json_object *o, const rj_field *f, const void *base)
{
    const void *m = CAT(base, f->off, char);
    json_object *v = NULL;
    if (!written(f, base))
        return;
    switch (f->kind) {
    case RJ_STR: {
        const char *s = *(char *const *)m;
        rj_put(o, f->key, rj_str_or_null(s ? s : f->dflt));
        break;
    }
    case RJ_STR_OPT:
        if (*(char *const *)m)
            rj_put(o, f->key, rj_utf8_string(*(char *const *)m));
        break;
    case RJ_DBL:
        rj_put(o, f->key, json_object_new_double(*(const double *)m));
        break;
    case RJ_DBL_OPT:
        if (isfinite(*(const double *)m))
            rj_put(o, f->key, json_object_new_double(*(const double *)m));
        break;
    case RJ_NUM:
        rj_put(o, f->key, res_json_number(*(const double *)m));
        break;
    case RJ_NUM_OPT:
        if (isfinite(*(const double *)m))
            rj_put(o, f->key, res_json_number(*(const double *)m));
        break;
    case RJ_I64:
        rj_put(o, f->key, json_object_new_int64(*(const int64_t *)m));
        break;
    case RJ_I64_OPT: {
        int64_t i = *(const int64_t *)m;
        if (i != RES_UNSET && !(i == 0 && (f->flags & RJ_ZERO_UNSET)))
            rj_put(o, f->key, json_object_new_int64(i));
        break;
    }
    case RJ_INT:
        rj_put(o, f->key, json_object_new_int(*(const int *)m));
        break;
    case RJ_INT_OPT:
        if (*(const int *)m >= 0)
            rj_put(o, f->key, json_object_new_int(*(const int *)m));
        break;
    case RJ_INT_POS:
        if (*(const int *)m > 0)
            rj_put(o, f->key, json_object_new_int(*(const int *)m));
        break;
    case RJ_BOOL:
        rj_put(o, f->key, json_object_new_boolean(*(const bool *)m));
        break;
    case RJ_WORDS:
        rj_put(o, f->key, json_object_new_string(f->words[*(const bool *)m ? 1 : 0]));
        break;
    case RJ_ENUM:
        rj_put(o, f->key, json_object_new_string(f->name(*(const int *)m)));
        break;
    case RJ_CONST:
        rj_put(o, f->key, json_object_new_string(f->dflt));
        break;
    case RJ_OBJ:
        v = json_object_new_object();
        rj_put_fields(v, f->sub, m);
        if ((f->flags & RJ_OMIT_EMPTY) && json_object_object_length(v) == 0)
            json_object_put(v);
        else
            rj_put(o, f->key, v);
        break;
    case RJ_EMBED:
        rj_put_fields(o, f->sub, m);
        break;
    case RJ_PTR:
        if (*(void *const *)m) {
            v = json_object_new_object();
            rj_put_fields(v, f->sub, *(void *const *)m);
            rj_put(o, f->key, v);
        }
        break;
    case RJ_ARRAY:
        put_array(o, f, base, *(char *const *)m);
        break;
    case RJ_CUSTOM:
        if (f->ops->put)
            f->ops->put(o, f, base);
        break;
    case RJ_END:
        break;
    }
}

void rj_put_fields(json_object *o, const rj_field *t, const void *base)
{
    for (const rj_field *f = t; f->kind != RJ_END; f++)
        put_field(o, f, base);
}

/* v as rj_write_json prints it at nesting level `level`: json-c's pretty
 * text of v alone, each line after the first indented by 2 * level more
 * spaces (a JSON text has no newline inside a string: json-c escapes
 * it). 0, or -1 when out of memory. */
static int stream_value(FILE *out, json_object *v, int level)
{
    const char *s = json_object_to_json_string_ext(v, RJ_JSON_FLAGS), *nl;
    if (!s)
        return -1;
    while ((nl = strchr(s, '\n'))) {
        fwrite(s, 1, (size_t)(nl - s + 1), out);
        fprintf(out, "%*s", 2 * level, "");
        s = nl + 1;
    }
    fputs(s, out);
    return 0;
}

/* "key": at level 1, after a comma once a member was written (*had). */
static int stream_key(FILE *out, const char *key, bool *had)
{
    json_object *k = json_object_new_string(key);
    const char *ks = k ? json_object_to_json_string_ext(k, RJ_JSON_FLAGS) : NULL;
    if (ks)
        fprintf(out, "%s  %s:", *had ? ",\n" : "", ks);
    json_object_put(k);
    *had = true;
    return ks ? 0 : -1;
}

/* The members of o at level 1 (after the first written one: *had). */
static int stream_members(FILE *out, json_object *o, bool *had)
{
    json_object_object_foreach(o, key, val)
        if (stream_key(out, key, had) < 0 || stream_value(out, val, 1) < 0)
            return -1;
    return 0;
}

/* RJ_ARRAY f of base as "key": [ ... ] at level 1, one element's tree
 * at a time. */
static int stream_array(FILE *out, const rj_field *f, const void *base, bool *had,
                        const rj_each *each)
{
    const char *a = *(char *const *)CAT(base, f->off, char);
    int n = *CAT(base, f->n_off, int);
    if (n == 0 && (f->flags & RJ_OMIT_EMPTY))
        return 0;
    if (stream_key(out, f->key, had) < 0)
        return -1;
    fputs("[\n", out);
    if (each && strcmp(each->key, f->key) != 0)
        each = NULL;
    for (int i = 0; i < n; i++) {
        /* the element is the caller's, lent for its hook to fill */
        void *elem = (char *)(uintptr_t)a + (size_t)i * f->size;
        json_object *e = json_object_new_object();
        int rc;
        if (!e || (each && each->fn(each->ctx, elem, 1) < 0)) {
            json_object_put(e);
            return -1;
        }
        rj_put_fields(e, f->sub, elem);
        fputs(i ? ",\n    " : "    ", out);
        rc = stream_value(out, e, 2);
        json_object_put(e);
        if (each && each->fn(each->ctx, elem, 0) < 0)
            rc = -1;
        if (rc < 0)
            return -1;
    }
    fputs(n ? "\n  ]" : "  ]", out);
    return 0;
}

int rj_write_fields(const char *path, const rj_field *t, const void *base, char *err,
                    size_t errlen)
{
    return rj_write_fields_each(path, t, base, NULL, err, errlen);
}

int rj_write_fields_each(const char *path, const rj_field *t, const void *base,
                         const rj_each *each, char *err, size_t errlen)
{
    atomic_file *af = atomic_file_open(path, err, errlen);
    FILE *out;
    bool had = false;
    if (!af)
        return -1;
    out = atomic_file_stream(af);
    fputs("{\n", out);
    for (const rj_field *f = t; f->kind != RJ_END; f++) {
        int rc;
        if (!written(f, base))
            continue;
        if (f->kind == RJ_ARRAY) {
            rc = stream_array(out, f, base, &had, each);
        } else {
            json_object *o = json_object_new_object();
            if (!o) {
                rc = -1;
            } else {
                put_field(o, f, base);
                rc = stream_members(out, o, &had);
                json_object_put(o);
            }
        }
        if (rc < 0) {
            snprintf(err, errlen, "cannot write %s: out of memory", path);
            atomic_file_abort(af);
            return -1;
        }
    }
    fputs(had ? "\n}" : "}", out);
    return atomic_file_commit(af, err, errlen);
}

const char *rj_ctx_where(const rj_ctx *c, const char *key, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s%s%s", c->who ? c->who : "", c->who ? ": " : "", c->elem,
             c->elem[0] ? "." : "", c->path, key);
    return buf;
}

static int oom(rj_ctx *c)
{
    snprintf(c->err, c->errlen, "out of memory");
    return -1;
}

/* o[f->key] as a string copy; NULL when absent (or "" with RJ_NONEMPTY) */
static int get_str(json_object *o, const rj_field *f, char **out, rj_ctx *c)
{
    bool failed = false;
    *out = rj_get_s(o, f->key, &failed);
    if (!*out && !failed && (f->flags & RJ_NONEMPTY))
        failed = !(*out = strdup(""));
    return failed ? oom(c) : 0;
}

int rj_bound(const rj_field *f, size_t n, rj_ctx *c)
{
    char label[256];
    if (f->max <= 0 || n <= (size_t)f->max)
        return 0;
    snprintf(label, sizeof label, "%s%s", c->path, f->key);
    snprintf(c->err, c->errlen, "%s%s%s%s%zu %s, more than %d", c->who ? c->who : "",
             c->who ? ": " : "", c->elem, c->elem[0] ? ": " : "", n,
             f->label ? f->label : label, f->max);
    return -1;
}

/* Room for n elements of size bytes (n bounded by f->max). */
static int room_for(const rj_field *f, size_t size, void **out, size_t n, rj_ctx *c)
{
    *out = NULL;
    if (rj_bound(f, n, c) < 0)
        return -1;
    if (n && !(*out = calloc(n, size)))
        return oom(c);
    return 0;
}

int rj_array_room(json_object *a, const rj_field *f, size_t size, void **out, size_t *n,
                  rj_ctx *c)
{
    *n = rj_lazy_len(a) ? rj_lazy_len(a) : rj_array_len(a);
    return room_for(f, size, out, *n, c);
}

/* The elements of an array member (bounded by f->max). */
static int get_array(json_object *a, const rj_field *f, void *base, rj_ctx *c)
{
    size_t n;
    char **arr = AT(base, f->off, char *);
    int *count = AT(base, f->n_off, int);
    char saved_elem[sizeof c->elem], saved_path[sizeof c->path];
    int rc = 0;

    size_t lazy = rj_lazy_len(a);   /* elements left as text: one tree at a time */

    *count = 0;
    n = lazy ? lazy : rj_array_len(a);
    if (room_for(f, f->size, (void **)arr, n, c) < 0)
        return -1;
    memcpy(saved_elem, c->elem, sizeof saved_elem);
    memcpy(saved_path, c->path, sizeof saved_path);
    for (size_t i = 0; i < n && rc == 0; i++) {
        json_object *e = lazy ? rj_lazy_get(a, i) : rj_idx(a, i);
        if (lazy && e && c->trim)
            c->trim(e, f->key);
        snprintf(c->elem, sizeof c->elem, "%s%s%s%s[%zu]", saved_elem,
                 saved_elem[0] ? "." : "", saved_path, f->key, i);
        c->path[0] = '\0';
        (*count)++;
        rc = rj_get_fields(e, f->sub, *arr + i * f->size, c);
        if (lazy)
            json_object_put(e);
    }
    memcpy(c->elem, saved_elem, sizeof saved_elem);
    memcpy(c->path, saved_path, sizeof saved_path);
    return rc;
}

/* A nested object: its keys go into c->path while it is read. */
static int get_nested(json_object *v, const rj_field *f, void *base, rj_ctx *c)
{
    size_t len = strlen(c->path);
    int rc;
    snprintf(c->path + len, sizeof c->path - len, "%s.", f->key);
    rc = rj_get_fields(v, f->sub, base, c);
    c->path[len] = '\0';
    return rc;
}

const char *rj_bad_number(double v, unsigned flags)
{
    if (isfinite(v) && !(v < 0 && (flags & (RJ_COUNT | RJ_NONNEG))))
        return NULL;
    return flags & RJ_COUNT && isfinite(v) ? "a count cannot be negative"
           : flags & (RJ_COUNT | RJ_NONNEG) ? "not a finite number >= 0"
                                            : "not a finite number";
}

int rj_refuse_number(json_object *v, const char *key, unsigned flags, rj_ctx *c)
{
    char where[256];
    const char *why;
    double d;
    if (!rj_is_number(v) || !(why = rj_bad_number(d = json_object_get_double(v), flags)))
        return 0;
    rj_ctx_where(c, key, where, sizeof where);
    if (json_object_is_type(v, json_type_int))
        snprintf(c->err, c->errlen, "%s: %" PRId64 " (%s)", where, json_object_get_int64(v), why);
    else
        snprintf(c->err, c->errlen, "%s: %g (%s)", where, d, why);
    return -1;
}

/* The kinds whose absence reads as "unset": JSON null is that too. */
static bool is_optional_kind(rj_kind k)
{
    return k == RJ_DBL_OPT || k == RJ_NUM_OPT || k == RJ_I64_OPT || k == RJ_INT_OPT
           || k == RJ_INT_POS;
}

int rj_refuse_type(json_object *o, const rj_field *f, rj_ctx *c)
{
    char where[256], got[48];
    const char *want = "a number";
    json_object *v = NULL;
    bool big = false;
    double d;
    /* JSON null is a member whose value is NULL */
    if (!f->key || !json_object_is_type(o, json_type_object)
        || !json_object_object_get_ex(o, f->key, &v) || (!v && is_optional_kind(f->kind)))
        return 0;
    if (rj_is_number(v)) {
        /* json-c clamps an integer past 64 bits to the nearest end */
        d = json_object_get_double(v);
        if ((f->kind == RJ_I64 || f->kind == RJ_I64_OPT) && !(d > -9.2e18 && d < 9.2e18))
            want = "a whole number within 64 bits", big = json_object_is_type(v, json_type_int);
        else if ((f->kind == RJ_INT || f->kind == RJ_INT_OPT || f->kind == RJ_INT_POS)
                 && !(d >= INT_MIN && d <= INT_MAX))
            want = "a whole number within 32 bits";
        else if (f->max > 0 && d > f->max) {    /* a count bounded as the arrays it counts */
            rj_ctx_where(c, f->key, where, sizeof where);
            snprintf(c->err, c->errlen, "%s: %.0f, more than the %d a result may hold", where,
                     d, f->max);
            return -1;
        } else
            return 0;
    }
    snprintf(got, sizeof got, "%s", big ? "one beyond them"
             : v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "null");
    if (strlen(got) == sizeof got - 1)
        memcpy(got + sizeof got - 4, "...", 4);
    rj_ctx_where(c, f->key, where, sizeof where);
    snprintf(c->err, c->errlen, "%s: expected %s, got %s", where, want, got);
    return -1;
}

static bool is_number_kind(rj_kind k)
{
    return k == RJ_DBL || k == RJ_DBL_OPT || k == RJ_NUM || k == RJ_NUM_OPT || k == RJ_I64
           || k == RJ_I64_OPT || k == RJ_INT || k == RJ_INT_OPT || k == RJ_INT_POS;
}

int rj_get_fields(json_object *o, const rj_field *t, void *base, rj_ctx *c)
{
    for (const rj_field *f = t; f->kind != RJ_END; f++) {
        void *m = AT(base, f->off, char);
        json_object *v = f->key ? rj_get(o, f->key) : NULL;
        if ((f->flags & RJ_SETS_HAS) && f->has)
            *AT(base, f->has - 1, bool) = v != NULL;
        /* no reader takes NaN, inf, or a negative count (issue 29), nor
         * anything but a number where a number belongs (issue 43) */
        if (is_number_kind(f->kind) && (rj_refuse_type(o, f, c) < 0
                                        || rj_refuse_number(v, f->key, f->flags, c) < 0))
            return -1;
        switch (f->kind) {
        case RJ_STR:
        case RJ_STR_OPT:
            if (get_str(o, f, (char **)m, c) < 0)
                return -1;
            break;
        case RJ_DBL:
        case RJ_NUM:
            *(double *)m = rj_get_d(o, f->key);
            break;
        case RJ_DBL_OPT:
        case RJ_NUM_OPT:
            *(double *)m = rj_is_number(v) ? json_object_get_double(v) : NAN;
            break;
        case RJ_I64:
            *(int64_t *)m = rj_get_i(o, f->key);
            break;
        case RJ_I64_OPT:
            *(int64_t *)m = rj_get_i_opt(o, f->key);
            break;
        case RJ_INT:
            *(int *)m = (int)rj_get_i(o, f->key);
            break;
        case RJ_INT_OPT:
            *(int *)m = v ? (int)rj_get_i(o, f->key) : -1;
            break;
        case RJ_INT_POS:
            *(int *)m = v ? (int)rj_get_i(o, f->key) : 0;
            break;
        case RJ_BOOL:
            *(bool *)m = rj_get_b(o, f->key);
            break;
        case RJ_WORDS:
            *(bool *)m = v && strcmp(json_object_get_string(v), f->words[1]) == 0;
            break;
        case RJ_ENUM:
            *(int *)m = 0;
            for (int i = 0; v && i < f->n; i++)
                if (strcmp(json_object_get_string(v), f->name(i)) == 0)
                    *(int *)m = i;
            break;
        case RJ_OBJ:
            if ((v || !(f->flags & RJ_IF_PRESENT)) && get_nested(v, f, m, c) < 0)
                return -1;
            break;
        case RJ_EMBED:
            if (rj_get_fields(o, f->sub, m, c) < 0)
                return -1;
            break;
        case RJ_PTR:
            *(void **)m = NULL;
            /* an object only: a VM's "host" is its URI, beside its io's
             * keys, where a drive's is the host view */
            if (v && json_object_is_type(v, json_type_object)) {
                if (!(*(void **)m = calloc(1, f->size)))
                    return oom(c);
                if (get_nested(v, f, *(void **)m, c) < 0)
                    return -1;
            }
            break;
        case RJ_ARRAY:
            if (get_array(v, f, base, c) < 0)
                return -1;
            break;
        case RJ_CUSTOM:
            if (f->ops->get && f->ops->get(o, f, base, c) < 0)
                return -1;
            break;
        case RJ_CONST:
        case RJ_END:
            break;
        }
    }
    return 0;
}

void rj_check_count(rj_check *c, const char *key, int64_t v)
{
    if (!c->bad && v < 0) {
        c->bad = true;
        snprintf(c->err, c->errlen, "%s: %s: %" PRId64 " (a count cannot be negative)",
                 c->who, key, v);
    }
}

void rj_check_num(rj_check *c, const char *key, double v)
{
    if (!c->bad && !(isfinite(v) && v >= 0)) {
        c->bad = true;
        snprintf(c->err, c->errlen, "%s: %s: %g (not a finite number >= 0)", c->who, key, v);
    }
}

void rj_check_fields(const rj_field *t, const void *base, const char *path, rj_check *c)
{
    for (const rj_field *f = t; f->kind != RJ_END && !c->bad; f++) {
        const void *m = CAT(base, f->off, char);
        char k[160];
        snprintf(k, sizeof k, "%s%s", path, f->key ? f->key : "");
        if (f->flags & RJ_COUNT)
            rj_check_count(c, k, f->kind == RJ_I64 || f->kind == RJ_I64_OPT
                                 ? *(const int64_t *)m : *(const int *)m);
        if ((f->flags & RJ_NONNEG)
            && !((f->kind == RJ_DBL_OPT || f->kind == RJ_NUM_OPT) && isnan(*(const double *)m)))
            rj_check_num(c, k, *(const double *)m);
        switch (f->kind) {
        case RJ_OBJ:
            snprintf(k, sizeof k, "%s%s.", path, f->key);
            rj_check_fields(f->sub, m, k, c);
            break;
        case RJ_EMBED:
            rj_check_fields(f->sub, m, path, c);
            break;
        case RJ_PTR:
            snprintf(k, sizeof k, "%s%s.", path, f->key);
            if (*(void *const *)m)
                rj_check_fields(f->sub, *(void *const *)m, k, c);
            break;
        case RJ_ARRAY: {
            const char *a = *(char *const *)m;
            int n = *CAT(base, f->n_off, int);
            for (int i = 0; i < n && !c->bad; i++) {
                snprintf(k, sizeof k, "%s%s[%d].", path, f->key, i);
                rj_check_fields(f->sub, a + (size_t)i * f->size, k, c);
            }
            break;
        }
        case RJ_CUSTOM:
            if (f->ops->check)
                f->ops->check(f, base, path, c);
            break;
        default:
            break;
        }
    }
}

void rj_free_fields(const rj_field *t, void *base)
{
    for (const rj_field *f = t; f->kind != RJ_END; f++) {
        void *m = AT(base, f->off, char);
        switch (f->kind) {
        case RJ_STR:
        case RJ_STR_OPT:
            free(*(char **)m);
            *(char **)m = NULL;
            break;
        case RJ_OBJ:
        case RJ_EMBED:
            rj_free_fields(f->sub, m);
            break;
        case RJ_PTR:
            if (*(void **)m)
                rj_free_fields(f->sub, *(void **)m);
            free(*(void **)m);
            *(void **)m = NULL;
            break;
        case RJ_ARRAY: {
            char *a = *(char **)m;
            int n = *AT(base, f->n_off, int);
            for (int i = 0; a && i < n; i++)
                rj_free_fields(f->sub, a + (size_t)i * f->size);
            free(a);
            *(char **)m = NULL;
            break;
        }
        case RJ_CUSTOM:
            if (f->ops->free)
                f->ops->free(f, base);
            break;
        default:
            break;
        }
    }
}

int rj_copy_fields(const rj_field *t, void *dst, const void *src)
{
    int rc = 0;
    for (const rj_field *f = t; f->kind != RJ_END; f++) {
        void *d = AT(dst, f->off, char);
        const void *s = CAT(src, f->off, char);
        switch (f->kind) {
        case RJ_STR:
        case RJ_STR_OPT:
            if (*(char *const *)s && !(*(char **)d = strdup(*(char *const *)s)))
                rc = -1;        /* d is NULL then, not src's string */
            break;
        case RJ_OBJ:
        case RJ_EMBED:
            rc |= rj_copy_fields(f->sub, d, s);
            break;
        case RJ_ARRAY: {
            const char *a = *(char *const *)s;
            int n = *CAT(src, f->n_off, int);
            char *b = n > 0 ? calloc((size_t)n, f->size) : NULL;
            *(char **)d = b;
            if (n > 0 && !b) {
                *AT(dst, f->n_off, int) = 0;
                rc = -1;
                break;
            }
            for (int i = 0; i < n; i++) {
                memcpy(b + (size_t)i * f->size, a + (size_t)i * f->size, f->size);
                rc |= rj_copy_fields(f->sub, b + (size_t)i * f->size, a + (size_t)i * f->size);
            }
            break;
        }
        default:
            break;
        }
    }
    return rc ? -1 : 0;
}

bool rj_has_any(json_object *o, const rj_field *t)
{
    for (const rj_field *f = t; f->kind != RJ_END; f++)
        if (f->key && rj_get(o, f->key))
            return true;
    return false;
}
