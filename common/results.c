/* results.c — what the result formats share (see results.h): numbers as
 * the summary writes them, CSV fields, and the JSON helpers of
 * results_json.h. The formats themselves are in results_oltp.c and
 * results_summary.c. */
#include "results.h"
#include "results_json.h"
#include "atomic_file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Read a JSON file; NULL with json-c's reason (one line) in err. */
json_object *rj_read_json(const char *path, char *err, size_t errlen)
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

int rj_write_json(json_object *doc, const char *path, char *err, size_t errlen)
{
    /* atomically: a reader sees the previous file or this whole one */
    const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY
                                                      | JSON_C_TO_STRING_NOSLASHESCAPE);
    if (!text) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        return -1;
    }
    return atomic_file_write(path, text, strlen(text), err, errlen);
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
