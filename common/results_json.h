/*
 * results_json.h — JSON helpers of the result formats, for common/results*.c
 * only (everything else uses the typed structs of results.h).
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
/* A string value, or JSON null for NULL. */
json_object *rj_str_or_null(const char *s);
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
/* Pretty-printed JSON to path. 0, or -1 with "cannot write PATH: why". */
int          rj_write_json(json_object *doc, const char *path, char *err, size_t errlen);

#endif
