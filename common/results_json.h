/*
 * results_json.h — JSON helpers of the result formats, for common/results*.c
 * only (everything else uses the typed structs of results_*.h).
 *
 * Getters read a member of an object and return 0 / false / NULL when the
 * object or the member is missing (readers ignore what they do not know
 * and tolerate what an older minor lacks).
 */
#ifndef DB_RESULTS_JSON_H
#define DB_RESULTS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

/* o[key] = v (v may be NULL: JSON null); takes v's reference. */
void         rj_put(json_object *o, const char *key, json_object *v);
/* A string value, or JSON null for NULL; text that is not UTF-8 has
 * each byte that is not as U+FFFD (rj_utf8_string). */
json_object *rj_str_or_null(const char *s);
/* s as a JSON string of UTF-8 text: each byte that is not UTF-8 as
 * U+FFFD, for the readers refuse such documents (issue 43). NULL when
 * out of memory. */
json_object *rj_utf8_string(const char *s);
/* o[key] (borrowed), NULL when absent or o is not an object. */
json_object *rj_get(json_object *o, const char *key);
bool         rj_is_number(json_object *v);
double       rj_get_d(json_object *o, const char *key);
int64_t      rj_get_i(json_object *o, const char *key);
int64_t      rj_get_i_opt(json_object *o, const char *key);   /* RES_UNSET when absent */
bool         rj_get_b(json_object *o, const char *key);
/* A copy of a string member (caller frees), NULL when absent; sets *oom
 * when the copy fails. */
char        *rj_get_s(json_object *o, const char *key, bool *oom);
size_t       rj_array_len(json_object *a);                    /* 0 unless an array */
/* a[i] (borrowed), NULL when a is not an array or i is out of range
 * (json-c asserts on a non-array: documents from files may hold anything). */
json_object *rj_idx(json_object *a, size_t i);
/* The major of "NAME/MAJOR[.MINOR]" when schema starts with name, else -1. */
int          rj_schema_major(const char *schema, const char *name);
/* A JSON file as a new object, or NULL with json-c's reason (one line). */
json_object *rj_read_json(const char *path, char *err, size_t errlen);
/* Read the JSON file at path (rj_read_json) into dst with from, which
 * gives -1 with its reason; on a refusal clear(dst). 0; RES_E_UNREADABLE
 * with "PATH: UNREADABLE_PREFIXwhy" when the file cannot be read or is not
 * JSON; -1 with "PATH: why" when from refuses it. */
int          rj_read_doc(const char *path, const char *unreadable_prefix,
                         int (*from)(json_object *doc, void *dst, char *err, size_t errlen),
                         void (*clear)(void *dst), void *dst, char *err, size_t errlen);
/* rj_read_json of a document whose top-level object has members too
 * large to hold as trees (a summary's drives and VMs): each member named
 * in lazy (NULL-terminated) that is an array comes as an empty array
 * whose elements are read one at a time, rj_lazy_len and rj_lazy_get
 * (each a new tree, released by the caller); the rest as rj_read_json
 * gives it. A name "KEY/INNER" reads member KEY, when an array, as an
 * array of such objects whose INNER members are lazy (an oltp result's
 * "phases/intervals": one interval's tree at a time); the file then has
 * rj_read_json's bound. A document that is not an object, or malformed,
 * is parsed whole: the same refusals, word for word. */
json_object *rj_read_json_lazy(const char *path, const char *const *lazy, char *err,
                               size_t errlen);
size_t       rj_lazy_len(json_object *a);   /* 0 unless such an array */
json_object *rj_lazy_get(json_object *a, size_t i);     /* NULL: none (or out of memory) */
/* rj_read_doc reading through rj_read_json_lazy (lazy NULL: rj_read_json). */
int          rj_read_doc_lazy(const char *path, const char *unreadable_prefix,
                              const char *const *lazy,
                              int (*from)(json_object *doc, void *dst, char *err, size_t errlen),
                              void (*clear)(void *dst), void *dst, char *err, size_t errlen);
/* Pretty-printed JSON to path. 0, or -1 with "cannot write PATH: why". */
#define RJ_JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)
#define RJ_JSON_ONE_LINE (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
int          rj_write_json(json_object *doc, const char *path, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* Field tables (results_fields.c)                                     */
/*
 * Each struct of a result document is described once, by a table of
 * rj_field ending with an entry whose kind is RJ_END: its JSON key, how
 * the member is typed, where it lies (offsetof), when it is written and
 * what a reader checks. The writer (rj_put_fields), the reader
 * (rj_get_fields), the check of an untrusted document (rj_check_fields)
 * and the release of what a reader allocated (rj_free_fields) all walk
 * the same table, so a key is spelled once. Members are written in table
 * order (json-c keeps it), which is the order of results/SCHEMA.md.
 *
 * What a reader finds absent: strings NULL, RJ_*_OPT numbers their
 * "unset" value (NAN, RES_UNSET, -1), others 0 / false.
 */

typedef enum rj_kind {
    RJ_END,
    RJ_STR,         /* char *: a string; JSON null for NULL (or .dflt) */
    RJ_STR_OPT,     /* char *: left out when NULL */
    RJ_DBL,         /* double as json-c prints it (oltp result); absent: 0 */
    RJ_DBL_OPT,     /* the same, left out unless finite; absent or not a number: NAN */
    RJ_NUM,         /* double rounded to 6 decimals (res_json_number); absent: 0 */
    RJ_NUM_OPT,     /* the same, left out unless finite; absent or not a number: NAN */
    RJ_I64,         /* int64_t; absent: 0 */
    RJ_I64_OPT,     /* int64_t, left out when RES_UNSET (and 0 with RJ_ZERO_UNSET);
                     * absent or not a number: RES_UNSET */
    RJ_INT,         /* int; absent: 0 */
    RJ_INT_OPT,     /* int, left out when negative; absent: -1 */
    RJ_INT_POS,     /* int, left out unless positive; absent: 0 */
    RJ_BOOL,        /* bool; absent: false */
    RJ_WORDS,       /* bool written as .words[0] (false) or .words[1] (true);
                     * read true only for .words[1] */
    RJ_ENUM,        /* an int-sized enum written as .name(v); read by matching
                     * .name(0 .. .n-1), anything else is 0 */
    RJ_CONST,       /* the string .dflt, written only */
    RJ_OBJ,         /* a nested object: the members (.sub) of the struct at .off
                     * (0: of this struct itself) */
    RJ_EMBED,       /* the members of the struct at .off (.sub), in this object */
    RJ_PTR,         /* a pointer at .off to a struct of .size (.sub), written when
                     * not NULL, allocated (zeroed) when present */
    RJ_ARRAY,       /* a pointer at .off to .size-byte elements (.sub), with an int
                     * count at .n_off; at most .max read (0: no bound) */
    RJ_CUSTOM,      /* .ops handles it */
} rj_kind;

/* flags */
#define RJ_COUNT      0x01u   /* read and check: a count, not negative */
#define RJ_NONNEG     0x02u   /* read and check: a finite number >= 0 (every
                               * number read must be finite) */
#define RJ_NONEMPTY   0x04u   /* read: "" rather than NULL when absent */
#define RJ_ZERO_UNSET 0x08u   /* RJ_I64_OPT: 0 is "not recorded" too */
#define RJ_OMIT_EMPTY 0x10u   /* RJ_OBJ / RJ_ARRAY: left out when empty */
#define RJ_IF_PRESENT 0x20u   /* RJ_OBJ: read only when present (members keep
                               * their values otherwise) */
#define RJ_SETS_HAS   0x40u   /* read: the bool at .has says whether the key is present */
#define RJ_ROWS       0x80u   /* RJ_ARRAY: each element written on one line
                               * (a series: one row per interval) */

typedef struct rj_field rj_field;

/* What a reader is reading: who ("measure", a phase; may be NULL), the
 * element it is in ("drives[3]"; may be empty) and the keys since then
 * ("tpcc."), for messages. err gets the first refusal. */
typedef struct rj_ctx {
    const char *who;
    char        elem[64];
    char        path[128];
    char       *err;
    size_t      errlen;
    /* NULL, or called on each element of a lazy array (rj_read_json_lazy)
     * before it is read, with the array's key: it may delete members the
     * reader does not want (the report's summary read: a VM's 1-s rows) */
    void      (*trim)(json_object *elem, const char *array_key);
    /* NULL, or a custom reader's own argument, handed down by the reader
     * that made this context (an oltp result's interval hook,
     * res_oltp_read_file_each) */
    void       *arg;
} rj_ctx;

/* What a check walks (rj_check_fields): the first violation goes to err
 * as "WHO: PATH is V, ...". */
typedef struct rj_check {
    const char *who;
    char       *err;
    size_t      errlen;
    bool        bad;
} rj_check;

typedef struct rj_ops {
    /* add member(s) of base under f->key to o (NULL: nothing written) */
    void (*put)(json_object *o, const rj_field *f, const void *base);
    /* read o[f->key] (or o itself) into base; 0, or -1 with c->err set */
    int  (*get)(json_object *o, const rj_field *f, void *base, rj_ctx *c);
    /* check what get read (NULL: nothing to check); path ends with '.' or is "" */
    void (*check)(const rj_field *f, const void *base, const char *path, rj_check *c);
    /* free what get allocated (NULL: nothing) */
    void (*free)(const rj_field *f, void *base);
} rj_ops;

struct rj_field {
    const char     *key;
    rj_kind         kind;
    size_t          off;
    unsigned        flags;
    const rj_field *sub;        /* RJ_OBJ, RJ_EMBED, RJ_PTR, RJ_ARRAY */
    size_t          size;       /* RJ_PTR, RJ_ARRAY: one element */
    size_t          n_off;      /* RJ_ARRAY: its int count */
    int             max;        /* RJ_ARRAY: bound on reading (0: none); a
                                 * number kind: its largest value read */
    const char     *label;      /* RJ_ARRAY: its name in the bound message (NULL: key) */
    int             has;        /* offsetof + 1 of a bool member: written only when
                                 * it is true (0: always) */
    bool          (*when)(const void *base);   /* written only when true (NULL: always) */
    const char     *dflt;       /* RJ_STR: written for NULL */
    const char     *words[2];   /* RJ_WORDS */
    const char   *(*name)(int); /* RJ_ENUM */
    int             n;          /* RJ_ENUM: how many names */
    const rj_ops   *ops;        /* RJ_CUSTOM */
};

/* Table entries: a member of type, one of the struct itself (off 0: an
 * RJ_OBJ of its own members, an RJ_CUSTOM), the end. */
#define RJ_F(k, kd, type, member, ...) \
    { .key = (k), .kind = (kd), .off = offsetof(type, member), __VA_ARGS__ }
#define RJ_HERE(k, kd, ...) { .key = (k), .kind = (kd), .off = 0, __VA_ARGS__ }
#define RJ_HAS(type, member) .has = offsetof(type, member) + 1
#define RJ_TABLE_END { .kind = RJ_END }

/* o (an element of a series) printed on one line wherever it is
 * written: {"t":1,"tps":9} or [1,9]. Returns o. */
json_object *rj_one_line(json_object *o);
/* The members of base described by t, added to o. */
void rj_put_fields(json_object *o, const rj_field *t, const void *base);
/* The object of t's members of base written to path atomically, byte for
 * byte as rj_write_json of the object rj_put_fields makes, but holding
 * one member's tree at a time and, of an RJ_ARRAY member (a summary's
 * drives and VMs), one element's: a long run's summary is many times
 * its file's size as one json-c tree. 0, or -1 with "cannot write PATH:
 * why". */
int rj_write_fields(const char *path, const rj_field *t, const void *base, char *err,
                    size_t errlen);
/* Called around the writing of each element of the RJ_ARRAY member
 * `key` (before 1: about to be written; 0: written): a writer's chance to
 * build an element's large members just then and free them again. 0, or
 * -1 (the write fails as out of memory). */
typedef struct rj_each {
    const char *key;
    int (*fn)(void *ctx, void *elem, int before);
    void *ctx;
} rj_each;
/* rj_write_fields with each (NULL: none). */
int rj_write_fields_each(const char *path, const rj_field *t, const void *base,
                         const rj_each *each, char *err, size_t errlen);
/* The members of base read from o (any of them absent, or o NULL: their
 * absent values). 0, or -1 with the reason in c->err ("out of memory",
 * an array above its bound, what an RJ_CUSTOM refuses). */
int  rj_get_fields(json_object *o, const rj_field *t, void *base, rj_ctx *c);
/* The RJ_COUNT / RJ_NONNEG checks of base, in table order, keys prefixed
 * by path ("" or ending with '.'). Only the first violation is kept. */
void rj_check_fields(const rj_field *t, const void *base, const char *path, rj_check *c);
/* Free the strings, arrays and pointers rj_get_fields allocated in base
 * (not base itself); the count members are left as they were. */
void rj_free_fields(const rj_field *t, void *base);
/* Deep copy of src's strings and arrays (RJ_STR*, RJ_OBJ, RJ_EMBED,
 * RJ_ARRAY of those) into dst, a bitwise copy of src. 0, or -1 when out of
 * memory (what was copied stays in dst for rj_free_fields). */
int  rj_copy_fields(const rj_field *t, void *dst, const void *src);
/* Whether o holds any key of t (nested keys not counted). */
bool rj_has_any(json_object *o, const rj_field *t);
/* -1 with "WHO: ELEM: N PATH.KEY, more than MAX" in c->err when n is
 * above f->max (f->label for PATH.KEY when set), else 0. */
int  rj_bound(const rj_field *f, size_t n, rj_ctx *c);
/* Zeroed room at *out (NULL when empty) for the elements of array a (0
 * when not an array), *n of them, of size bytes each: 0, or -1 with
 * c->err when above f->max (rj_bound) or out of memory. */
int  rj_array_room(json_object *a, const rj_field *f, size_t size, void **out, size_t *n,
                   rj_ctx *c);
/* "WHO: ELEM.PATHkey" of c for messages, into buf. */
const char *rj_ctx_where(const rj_ctx *c, const char *key, char *buf, size_t len);
/* What is wrong with a number read from a file, or NULL when nothing:
 * NaN and inf always; below 0 with RJ_COUNT or RJ_NONNEG in flags. */
const char *rj_bad_number(double v, unsigned flags);
/* rj_get_fields' check of each number it reads, for RJ_CUSTOM readers
 * too: -1 with "WHO: ELEM.PATHkey: V (why)" in c->err when v is a number
 * rj_bad_number refuses, else 0 (v NULL or not a number: 0). */
int rj_refuse_number(json_object *v, const char *key, unsigned flags, rj_ctx *c);
/* rj_get_fields' check of the type of the number member o[f->key]
 * (issue 43): -1 with "WHO: ELEM.PATHkey: expected a number, got V" in
 * c->err when it is present and not a number (JSON null included, but
 * for the _OPT kinds, whose null is "unset"), or, for the integer kinds,
 * a number beyond their range, or one above f->max when that is set
 * ("WHO: KEY: V, more than the MAX a result may hold"); else 0. */
int rj_refuse_type(json_object *o, const rj_field *f, rj_ctx *c);
/* check helpers for RJ_CUSTOM checks (key already holds the path) */
void rj_check_count(rj_check *c, const char *key, int64_t v);
void rj_check_num(rj_check *c, const char *key, double v);

/* res_io_get with the reader's context: a refusal's reason in c->err
 * (results_drive_io.c). */
struct res_io;
int rj_io_get(json_object *owner, struct res_io **out, rj_ctx *c);

/* The summary's "fingerprint" object (results_fingerprint.c). */
extern const rj_field res_fingerprint_fields[];
/* a res_server (results_server.c), nested per VM in the summary */
extern const rj_field res_server_fields[];
/* a res_capacity (results_capacity.c), nested per drive in the summary */
extern const rj_field res_capacity_fields[];
/* The members of a res_db_size (results/SCHEMA.md, "Database size"):
 * data_bytes, log_bytes, each left out when 0 or RES_UNSET. */
extern const rj_field res_db_size_fields[];

/* RJ_CUSTOM of a res_point array at .off with its int count at .n_off,
 * written as [[t, value], ...] (at most .max read). */
extern const rj_ops res_points_ops;

/* Keys that code outside a table needs (the tables use them too). */
#define RK_SCHEMA     "schema"
#define RK_NAME       "name"
#define RK_TPS        "tps"
#define RK_HISTOGRAM  "histogram"
#define RK_PHASES     "phases"
#define RK_DRIVES     "drives"
#define RK_VMS        "vms"
#define RK_LATENCY_MS "latency_ms"
#define RK_AVG        "avg"
#define RK_TPMC       "tpmC"
#define RK_NOPM       "NOPM"
#define RK_PCT_PREFIX 'p'           /* a percentile's key: "p99.9" */

/* --- results_latency.c: latency objects and histograms --- */

/* "p99.9" for 99.9 */
void rj_pct_key(char *buf, size_t len, double p);
/* Whether key is a percentile's, "p<number>"; *p its percentile. */
bool rj_pct_of_key(const char *key, double *p);
/* res_latency's fields: avg, min, max and its percentiles */
extern const rj_field rj_latency_fields[];
/* a hist * member (written whole, read against results_base.h's bounds), and
 * an interval's hist_sparse * member */
extern const rj_ops rj_hist_ops, rj_sparse_ops;

#endif
