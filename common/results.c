/* results.c — what the result formats share (see results_base.h): numbers as
 * the summary writes them, CSV fields, and the JSON helpers of
 * results_json.h (the names of closed choices: results_names.c). The
 * formats themselves are in results_oltp.c, results_summary.c and results_drive_io.c, described
 * by field tables that results_fields.c walks. */
#include "results_base.h"
#include "attributes.h"
#include "results_json.h"
#include "atomic_file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* JSON helpers (results_json.h)                                      */

void rj_put(json_object *o, const char *key, json_object *v)
{
    json_object_object_add(o, key, v);
}

json_object *rj_str_or_null(const char *s)
{
    return s ? rj_utf8_string(s) : NULL;
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

/* The text of a JSON file of at most RES_MAX_FILE_BYTES (checked before
 * reading, and while reading for what stat cannot size): malloc'd, its
 * length in *len; NULL with the reason (one line) in err. */
static char *read_text(const char *path, long max, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    char *buf = NULL;
    size_t n = 0, cap = (size_t)max + 1;

    if (!f) {
        snprintf(err, errlen, "%s", strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) < 0)
        st.st_mode = 0;
    if (S_ISREG(st.st_mode) && st.st_size > max) {
        snprintf(err, errlen, "file is %lld bytes, above the %ld MiB a result may hold",
                 (long long)st.st_size, max / (1024 * 1024));
        goto fail;
    }
    if (S_ISREG(st.st_mode))        /* one byte more: a file that grew */
        cap = (size_t)st.st_size + 1;
    buf = malloc(cap);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    n = fread(buf, 1, cap, f);
    if (ferror(f)) {
        snprintf(err, errlen, "%s", strerror(errno));
        goto fail;
    }
    if (n > (size_t)max) {
        snprintf(err, errlen, "file is above the %ld MiB a result may hold",
                 max / (1024 * 1024));
        goto fail;
    }
    fclose(f);
    *len = n;
    return buf;
fail:
    free(buf);
    fclose(f);
    return NULL;
}

/* One JSON value of buf[0..n), parsed strictly with tok: the value
 * (NULL for null) and its end in *end; nothing after it is read. 0, or
 * -1 when buf does not begin with a whole value (the tokener's error in
 * *jerr: json_tokener_continue when truncated). */
static int parse_value(json_tokener *tok, const char *buf, size_t n, json_object **v,
                       size_t *end, enum json_tokener_error *jerr)
{
    json_tokener_reset(tok);
    *v = json_tokener_parse_ex(tok, buf, (int)n);
    *jerr = json_tokener_get_error(tok);
    if (*jerr != json_tokener_success) {
        json_object_put(*v);
        *v = NULL;
        return -1;
    }
    *end = json_tokener_get_parse_end(tok);
    return 0;
}

/* The whole document of buf[0..n) parsed strictly (nothing after it;
 * json-c still reads NaN, which the readers' checks refuse). NULL with
 * the reason in err. */
static json_object *parse_whole(const char *buf, size_t n, char *err, size_t errlen)
{
    json_tokener *tok = json_tokener_new();
    json_object *doc = NULL;
    enum json_tokener_error jerr;
    size_t end = 0;

    if (!tok) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    if (parse_value(tok, buf, n, &doc, &end, &jerr) < 0 || !doc) {
        if (jerr == json_tokener_continue || jerr == json_tokener_success)
            snprintf(err, errlen, "truncated JSON (ends inside a value after %zu bytes)", n);
        else
            snprintf(err, errlen, "not JSON: %s at byte %zu", json_tokener_error_desc(jerr),
                     json_tokener_get_parse_end(tok));
    } else if (end < n) {
        snprintf(err, errlen, "not JSON: text after the document at byte %zu", end);
        json_object_put(doc);
        doc = NULL;
    } else {
        json_tokener_free(tok);
        return doc;
    }
    json_tokener_free(tok);
    return NULL;
}

json_object *rj_read_json(const char *path, char *err, size_t errlen)
{
    size_t n;
    char *buf = read_text(path, RES_MAX_FILE_BYTES, &n, err, errlen);
    json_object *doc = buf ? parse_whole(buf, n, err, errlen) : NULL;
    free(buf);
    return doc;
}

/* ------------------------------------------------------------------ */
/* a document whose big arrays are read element by element            */

#define RJ_LAZY_MAGIC 0x6c617a79u

/* A lazy document's text: a read-only mapping of its file when it is a
 * regular file, whose pages are given back as the scan and the element
 * reads pass them (a 245 MiB summary then costs about one element's bytes
 * of memory at a time, not its size: issue 33), else read into memory. */
typedef struct rj_text {
    char  *b;
    size_t n;
    bool   mapped;
} rj_text;

static void text_release(rj_text *t)
{
    if (t && t->mapped)
        munmap(t->b, t->n);
    else if (t)
        free(t->b);
    free(t);
}

/* The pages wholly inside b[from..to) of a mapped text dropped from
 * memory (read again from the file if touched again). */
static void text_pass(const rj_text *t, size_t from, size_t to)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)t->b + from + page - 1) & ~(page - 1);
    uintptr_t hi = ((uintptr_t)t->b + to) & ~(page - 1);
    if (t->mapped && hi > lo)
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* The text of path (at most max bytes) as an rj_text. NULL with err. */
static rj_text *text_open(const char *path, long max, char *err, size_t errlen)
{
    rj_text *t = calloc(1, sizeof *t);
    struct stat st;
    int fd = -1;
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* stat first: opening a pipe twice would lose its writer */
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= max
        && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0 && fstat(fd, &st) == 0
        && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= max) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            *t = (rj_text){ .b = m, .n = (size_t)st.st_size, .mapped = true };
            close(fd);
            return t;
        }
    }
    if (fd >= 0)
        close(fd);
    /* not mappable (a pipe, an empty file, above max): read, for its
     * contents or the reason */
    if (!(t->b = read_text(path, max, &t->n, err, errlen))) {
        free(t);
        return NULL;
    }
    return t;
}

/* A member array of the top-level object whose elements are left as
 * text (the array in the skeleton is empty, this on its userdata). */
typedef struct rj_lazy {
    unsigned       magic;
    const rj_text *text;        /* the document's text, owned by the skeleton */
    struct { size_t start, len; } *el;  /* each element's bytes */
    size_t         n, cap;
} rj_lazy;

static void lazy_free(json_object *o, void *ud)
{
    rj_lazy *l = ud;
    (void)o;
    free(l->el);
    free(l);
}

static void text_free(json_object *o, void *ud)
{
    (void)o;
    text_release(ud);
}

static size_t skip_ws(const char *b, size_t i, size_t n)
{
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
        i++;
    return i;
}

/* The elements of the array at b[*i] ('[') recorded into l, each parsed
 * once to find its end and freed at once. 0, or -1 (malformed). */
static int lazy_elements(json_tokener *tok, const char *b, size_t n, size_t *i, rj_lazy *l)
{
    size_t k = skip_ws(b, *i + 1, n), end;
    enum json_tokener_error jerr;
    if (k < n && b[k] == ']') {
        *i = k + 1;
        return 0;
    }
    for (;;) {
        json_object *e;
        if (parse_value(tok, b + k, n - k, &e, &end, &jerr) < 0)
            return -1;
        json_object_put(e);
        if (l->n == l->cap) {
            size_t cap = l->cap ? 2 * l->cap : 64;
            void *el = realloc(l->el, cap * sizeof *l->el);
            if (!el)
                return -1;
            l->el = el;
            l->cap = cap;
        }
        l->el[l->n].start = k;
        l->el[l->n++].len = end;
        text_pass(l->text, k, k + end);
        k = skip_ws(b, k + end, n);
        if (k < n && b[k] == ',') {
            k = skip_ws(b, k + 1, n);
            continue;
        }
        if (k < n && b[k] == ']') {
            *i = k + 1;
            return 0;
        }
        return -1;
    }
}

/* The array at b[*i] ('[') as an empty array carrying its elements'
 * text (rj_lazy on its userdata); *i then past its ']'. NULL when
 * malformed (or out of memory). */
static json_object *lazy_array(json_tokener *tok, const rj_text *t, size_t *i)
{
    rj_lazy *l = calloc(1, sizeof *l);
    json_object *v = l ? json_object_new_array() : NULL;
    if (!v) {
        free(l);
        return NULL;
    }
    *l = (rj_lazy){ .magic = RJ_LAZY_MAGIC, .text = t };
    json_object_set_userdata(v, l, lazy_free);
    if (lazy_elements(tok, t->b, t->n, i, l) < 0) {
        json_object_put(v);
        return NULL;
    }
    return v;
}

/* How lazy names key: 1 named (a lazy array), 2 named as "KEY/INNER"
 * (an array of objects whose INNER members are lazy), else 0. */
static int lazy_how(const char *const *lazy, const char *key)
{
    size_t kl = strlen(key);
    int how = 0;
    for (int j = 0; lazy[j] && how != 1; j++)
        if (strcmp(lazy[j], key) == 0)
            how = 1;
        else if (strncmp(lazy[j], key, kl) == 0 && lazy[j][kl] == '/')
            how = 2;
    return how;
}

static int skel_object(json_tokener *tok, const rj_text *t, size_t *pi,
                       const char *const *lazy, json_object **out);

/* The array at b[*i] ('[') whose objects are read as skel_object with
 * the names after "key/" in lazy; *i then past its ']'. NULL when
 * malformed (or out of memory). */
static json_object *skel_nested(json_tokener *tok, const rj_text *t, size_t *i, const char *key,
                                const char *const *lazy)
{
    const char *b = t->b, **sub;
    size_t n = t->n, kl = strlen(key), k = skip_ws(b, *i + 1, n), end, nl = 0;
    json_object *a;
    enum json_tokener_error jerr;
    int ns = 0;
    while (lazy[nl])
        nl++;
    /* the names after "key/", as many as lazy holds */
    if (!(sub = malloc((nl + 1) * sizeof *sub)))
        return NULL;
    for (size_t j = 0; j < nl; j++)
        if (strncmp(lazy[j], key, kl) == 0 && lazy[j][kl] == '/')
            sub[ns++] = lazy[j] + kl + 1;
    sub[ns] = NULL;
    a = json_object_new_array();
    if (a && k < n && b[k] == ']') {
        *i = k + 1;
        free(sub);
        return a;
    }
    while (a) {
        json_object *e = NULL;
        bool obj = k < n && b[k] == '{';
        if (obj ? skel_object(tok, t, &k, sub, &e) < 0
                : parse_value(tok, b + k, n - k, &e, &end, &jerr) < 0)
            break;
        k += obj ? 0 : end;
        json_object_array_add(a, e);
        k = skip_ws(b, k, n);
        if (k < n && b[k] == ',') {
            k = skip_ws(b, k + 1, n);
            continue;
        }
        if (k < n && b[k] == ']') {
            *i = k + 1;
            free(sub);
            return a;
        }
        break;
    }
    free(sub);
    json_object_put(a);
    return NULL;
}

/* The object at b[*pi] ('{') with its members parsed, those named in
 * lazy (when arrays) as lazy arrays, those named "KEY/INNER" as
 * skel_nested; *pi then past its '}'. 0, or -1 when malformed. */
static int skel_object(json_tokener *tok, const rj_text *t, size_t *pi,
                       const char *const *lazy, json_object **out)
{
    const char *b = t->b;
    size_t n = t->n, i = skip_ws(b, *pi + 1, n), end;
    json_object *doc = json_object_new_object();
    enum json_tokener_error jerr;

    if (!doc)
        return -1;
    if (i < n && b[i] == '}')
        i++;
    else
        for (;;) {
            json_object *k, *v = NULL;
            const char *key;
            int how;
            if (parse_value(tok, b + i, n - i, &k, &end, &jerr) < 0)
                goto fail;
            key = json_object_is_type(k, json_type_string) ? json_object_get_string(k) : NULL;
            i = skip_ws(b, i + end, n);
            if (!key || i >= n || b[i] != ':') {
                json_object_put(k);
                goto fail;
            }
            i = skip_ws(b, i + 1, n);
            how = i < n && b[i] == '[' ? lazy_how(lazy, key) : 0;
            if (how == 1 ? !(v = lazy_array(tok, t, &i))
                : how == 2 ? !(v = skel_nested(tok, t, &i, key, lazy))
                : parse_value(tok, b + i, n - i, &v, &end, &jerr) < 0) {
                json_object_put(k);
                goto fail;
            }
            i += how ? 0 : end;
            json_object_object_add(doc, key, v);
            json_object_put(k);
            i = skip_ws(b, i, n);
            if (i < n && b[i] == ',') {
                i = skip_ws(b, i + 1, n);
                continue;
            }
            if (i < n && b[i] == '}') {
                i++;
                break;
            }
            goto fail;
        }
    *pi = i;
    *out = doc;
    return 0;
fail:
    json_object_put(doc);
    return -1;
}

/* The skeleton of the object that is all of t (skel_object); it owns t
 * then. NULL when t is not such a document (t stays the caller's, to
 * parse whole for the reason). */
static json_object *lazy_skeleton(rj_text *t, const char *const *lazy)
{
    json_tokener *tok = json_tokener_new();
    json_object *doc = NULL;
    size_t i = skip_ws(t->b, 0, t->n);

    if (!tok || i >= t->n || t->b[i] != '{')
        goto fail;
    /* strict, each value followed by the rest of the document */
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS
                                | JSON_TOKENER_VALIDATE_UTF8);
    if (skel_object(tok, t, &i, lazy, &doc) < 0 || skip_ws(t->b, i, t->n) != t->n)
        goto fail;
    json_tokener_free(tok);
    json_object_set_userdata(doc, t, text_free);
    return doc;
fail:
    if (tok)
        json_tokener_free(tok);
    json_object_put(doc);
    return NULL;
}

json_object *rj_read_json_lazy(const char *path, const char *const *lazy, char *err,
                               size_t errlen)
{
    /* read a member at a time, a document costs about its size: a bound
     * of its own, for a long run's summary (64 VMs x 3 h of 1-s rows is
     * ~280 MiB); a nested name (an oltp result's "phases/intervals") keeps
     * rj_read_json's, so that the same results are refused */
    bool nested = false;
    rj_text *t;
    json_object *doc = NULL;
    for (int j = 0; lazy[j]; j++)
        nested |= strchr(lazy[j], '/') != NULL;
    if (!(t = text_open(path, nested ? RES_MAX_FILE_BYTES : RES_MAX_LAZY_BYTES, err, errlen)))
        return NULL;
    if ((doc = lazy_skeleton(t, lazy)))
        return doc;
    /* not an object of members: parsed whole, for the reason or the
     * document rj_read_json would give (which refuses it unparsed when it
     * is above RES_MAX_FILE_BYTES) */
    if (t->n > (size_t)RES_MAX_FILE_BYTES)
        snprintf(err, errlen, "file is %zu bytes, above the %ld MiB a result may hold", t->n,
                 RES_MAX_FILE_BYTES / (1024 * 1024));
    else
        doc = parse_whole(t->b, t->n, err, errlen);
    text_release(t);
    return doc;
}

size_t rj_lazy_len(json_object *a)
{
    const rj_lazy *l = a ? json_object_get_userdata(a) : NULL;
    return l && json_object_is_type(a, json_type_array) && l->magic == RJ_LAZY_MAGIC
           ? l->n : 0;
}

json_object *rj_lazy_get(json_object *a, size_t i)
{
    const rj_lazy *l = a ? json_object_get_userdata(a) : NULL;
    json_tokener *tok;
    json_object *e = NULL;
    enum json_tokener_error jerr;
    size_t end;
    if (!l || !json_object_is_type(a, json_type_array) || l->magic != RJ_LAZY_MAGIC || i >= l->n
        || !(tok = json_tokener_new()))
        return NULL;
    /* with the byte after it (a ',' or ']' or space): a number's end */
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS
                                | JSON_TOKENER_VALIDATE_UTF8);
    parse_value(tok, l->text->b + l->el[i].start, l->el[i].len + 1, &e, &end, &jerr);
    json_tokener_free(tok);
    text_pass(l->text, l->el[i].start, l->el[i].start + l->el[i].len);
    return e;
}

int rj_read_doc(const char *path, const char *unreadable_prefix,
                int (*from)(json_object *doc, void *dst, char *err, size_t errlen),
                void (*clear)(void *dst), void *dst, char *err, size_t errlen)
{
    return rj_read_doc_lazy(path, unreadable_prefix, NULL, from, clear, dst, err, errlen);
}

int rj_read_doc_lazy(const char *path, const char *unreadable_prefix, const char *const *lazy,
                     int (*from)(json_object *doc, void *dst, char *err, size_t errlen),
                     void (*clear)(void *dst), void *dst, char *err, size_t errlen)
{
    char why[DB_ERR_LEN];
    json_object *doc = lazy ? rj_read_json_lazy(path, lazy, why, sizeof why)
                            : rj_read_json(path, why, sizeof why);
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

const char *res_num_opt(double v, char *buf, size_t len)
{
    if (isfinite(v))
        return res_num(v, buf, len);
    if (len)
        buf[0] = '\0';
    return buf;
}

json_object *res_json_number(double v)
{
    char text[64];
    return json_object_new_double_s(round(v * 1e6) / 1e6, res_num(v, text, sizeof text));
}
