/* results.c — what the result formats share (see results.h): numbers as
 * the summary writes them, CSV fields, and the JSON helpers of
 * results_json.h, the names of closed choices. The formats themselves are
 * in results_oltp.c, results_summary.c and results_drive_io.c, described
 * by field tables that results_fields.c walks. */
#include "results.h"
#include "results_json.h"
#include "atomic_file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ */
/* JSON helpers (results_json.h)                                      */

void rj_put(json_object *o, const char *key, json_object *v)
{
    json_object_object_add(o, key, v);
}

json_object *rj_str_or_null(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

json_object *rj_get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!o || !json_object_is_type(o, json_type_object)
        || !json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

bool rj_is_number(json_object *v)
{
    return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int));
}

double rj_get_d(json_object *o, const char *key)
{
    json_object *v = rj_get(o, key);
    return v ? json_object_get_double(v) : 0;
}

int64_t rj_get_i(json_object *o, const char *key)
{
    json_object *v = rj_get(o, key);
    return v ? json_object_get_int64(v) : 0;
}

int64_t rj_get_i_opt(json_object *o, const char *key)
{
    json_object *v = rj_get(o, key);
    return rj_is_number(v) ? json_object_get_int64(v) : RES_UNSET;
}

bool rj_get_b(json_object *o, const char *key)
{
    json_object *v = rj_get(o, key);
    return v ? json_object_get_boolean(v) : false;
}

/* A string member, copied (NULL when absent or null). Sets *oom on a
 * failed copy. */
char *rj_get_s(json_object *o, const char *key, bool *oom)
{
    json_object *v = rj_get(o, key);
    char *s;
    if (!v)
        return NULL;
    s = strdup(json_object_get_string(v));
    if (!s)
        *oom = true;
    return s;
}

size_t rj_array_len(json_object *a)
{
    return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

json_object *rj_idx(json_object *a, size_t i)
{
    return i < rj_array_len(a) ? json_object_array_get_idx(a, i) : NULL;
}

/* The major of "NAME/MAJOR[.MINOR]" when schema starts with name; -1 when
 * it does not or the version is malformed. */
int rj_schema_major(const char *schema, const char *name)
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

/* Read a JSON file of at most RES_MAX_FILE_BYTES (checked before
 * parsing, and while reading for what stat cannot size), parsed strictly
 * (nothing after the document; json-c still reads NaN, which the readers'
 * checks refuse). NULL with the reason (one line) in err. */
json_object *rj_read_json(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    char *buf = NULL;
    size_t n = 0, cap = RES_MAX_FILE_BYTES + 1;
    json_tokener *tok = NULL;
    json_object *doc = NULL;
    enum json_tokener_error jerr;

    if (!f) {
        snprintf(err, errlen, "%s", strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) < 0)
        st.st_mode = 0;
    if (S_ISREG(st.st_mode) && st.st_size > RES_MAX_FILE_BYTES) {
        snprintf(err, errlen, "file is %lld bytes, above the %ld MiB a result may hold",
                 (long long)st.st_size, RES_MAX_FILE_BYTES / (1024 * 1024));
        goto cleanup;
    }
    if (S_ISREG(st.st_mode))        /* one byte more: a file that grew */
        cap = (size_t)st.st_size + 1;
    buf = malloc(cap);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    n = fread(buf, 1, cap, f);
    if (ferror(f)) {
        snprintf(err, errlen, "%s", strerror(errno));
        goto cleanup;
    }
    if (n > RES_MAX_FILE_BYTES) {
        snprintf(err, errlen, "file is above the %ld MiB a result may hold",
                 RES_MAX_FILE_BYTES / (1024 * 1024));
        goto cleanup;
    }
    tok = json_tokener_new();
    if (!tok) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    doc = json_tokener_parse_ex(tok, buf, (int)n);
    jerr = json_tokener_get_error(tok);
    if (jerr == json_tokener_continue || (!doc && jerr == json_tokener_success))
        snprintf(err, errlen, "truncated JSON (ends inside a value after %zu bytes)", n);
    else if (jerr != json_tokener_success)
        snprintf(err, errlen, "not JSON: %s at byte %zu", json_tokener_error_desc(jerr),
                 json_tokener_get_parse_end(tok));
    else if (json_tokener_get_parse_end(tok) < n)
        snprintf(err, errlen, "not JSON: text after the document at byte %zu",
                 json_tokener_get_parse_end(tok));
    else
        goto cleanup;
    json_object_put(doc);
    doc = NULL;
cleanup:
    if (tok)
        json_tokener_free(tok);
    free(buf);
    fclose(f);
    return doc;
}

int rj_read_doc(const char *path, const char *unreadable_prefix,
                int (*from)(json_object *doc, void *dst, char *err, size_t errlen),
                void (*clear)(void *dst), void *dst, char *err, size_t errlen)
{
    char why[512];
    json_object *doc = rj_read_json(path, why, sizeof why);
    int rc = 0;

    if (!doc) {
        snprintf(err, errlen, "%s: %s%s", path, unreadable_prefix, why);
        return RES_E_UNREADABLE;
    }
    if (from(doc, dst, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        clear(dst);
        rc = -1;
    }
    json_object_put(doc);
    return rc;
}

int rj_write_json(json_object *doc, const char *path, char *err, size_t errlen)
{
    /* atomically: a reader sees the previous file or this whole one */
    const char *text = json_object_to_json_string_ext(doc, RJ_JSON_FLAGS);
    if (!text) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        return -1;
    }
    return atomic_file_write(path, text, strlen(text), err, errlen);
}
/* ------------------------------------------------------------------ */
/* names of closed choices (results.h)                                 */

#define RES_NAME(id, name) [RES_PHASE_##id] = name,
static const char *const phase_names[] = { RES_PHASES(RES_NAME) };
#undef RES_NAME

const char *res_phase_name(res_phase_id p)
{
    return (unsigned)p < RES_PHASE_COUNT ? phase_names[p] : "?";
}

#define RES_NAME(id, name) [RES_END_##id] = name,
static const char *const end_names[] = { RES_ENDS(RES_NAME) };
#undef RES_NAME

const char *res_end_name(res_end e)
{
    return (unsigned)e < RES_END_COUNT ? end_names[e] : end_names[RES_END_ERROR];
}

static const struct {
    const char *name;
    bool        tps, paired;
} cmp_methods[] = {
#define RES_CMP(id, name, tps, paired) [RES_CMP_##id] = { name, tps, paired },
    RES_CMP_METHODS(RES_CMP)
#undef RES_CMP
};

const char *res_cmp_method_name(res_cmp_method m)
{
    return (unsigned)m < RES_CMP_METHOD_COUNT ? cmp_methods[m].name : "?";
}

static const char *const cmp_verdicts[] = {
#define RES_CMP_VERDICT_NAME(id, name) [RES_CMP_##id] = name,
    RES_CMP_VERDICTS(RES_CMP_VERDICT_NAME)
#undef RES_CMP_VERDICT_NAME
};

const char *res_cmp_verdict_name(res_cmp_verdict v)
{
    return (unsigned)v < RES_CMP_VERDICT_COUNT ? cmp_verdicts[v] : "?";
}

bool res_cmp_method_is_tps(res_cmp_method m)
{
    return (unsigned)m < RES_CMP_METHOD_COUNT && cmp_methods[m].tps;
}

bool res_cmp_method_is_paired(res_cmp_method m)
{
    return (unsigned)m < RES_CMP_METHOD_COUNT && cmp_methods[m].paired;
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
