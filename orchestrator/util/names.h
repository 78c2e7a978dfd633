/*
 * names.h — run ids and the names of the libvirt objects a run creates.
 *
 * Every object carries the run id: domains are
 * "drivebench-<runid>--<drive>-vm<N>", pools "drivebench-<runid>--drive-<drive>"
 * and "drivebench-<runid>--images", volumes "<domain>-boot.qcow2",
 * "<domain>-db.img", "<domain>-seed.qcow2". Run ids and drive ids are
 * sanitized to [a-z0-9-] with no "--", so "drivebench-<runid>--" is a
 * prefix no other run's objects can share.
 */
#ifndef ORCH_NAMES_H
#define ORCH_NAMES_H

#include <stddef.h>
#include <time.h>

#define ORCH_NAME_PREFIX   "drivebench-"
#define ORCH_ID_MAX        40      /* longest sanitized run or drive id */

/* Lowercase [a-z0-9-] form of s: every run of other characters becomes one
 * '-', no leading or trailing '-', at most maxlen characters. Returns a new
 * string (caller frees; "" when nothing is left) or NULL when out of memory. */
char *orch_sanitize(const char *s, size_t maxlen);

/* 1 when id is a well-formed run id (what orch_runid_new makes), else 0. */
int orch_runid_valid(const char *id);

/* New run id "<sanitized plan name>-YYYYMMDD-HHMMSS" (UTC of t). Caller
 * frees; NULL when out of memory. */
char *orch_runid_new(const char *plan_name, time_t t);

/* "drivebench-<runid>--": the prefix of every object of that run. Caller
 * frees. */
char *orch_object_prefix(const char *runid);

/* The run id of an object name made by this module, or NULL when the name
 * is not one of ours. Caller frees. */
char *orch_object_runid(const char *object_name);

/* Deterministic UUID text (36 characters + NUL) derived from name, so
 * `render` prints exactly what `run` defines. */
void orch_uuid_from_name(const char *name, char out[37]);

/* asprintf that returns the string or NULL (out of memory). */
char *orch_strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A copy of s (caller frees); NULL for NULL and for "" (a value not
 * recorded). *ok becomes 0 when the copy fails (ok may be NULL). */
char *orch_strdup_opt(const char *s, int *ok);
/* REL inside the source tree this binary was built in (bin/../REL), from
 * /proc/self/exe; REL itself when that cannot be read. Caller frees. */
char *orch_tree_path(const char *rel);

/* 1 when name is one of the '|'-separated names of list ("a|b|c"; NULL
 * holds none), else 0. */
int orch_name_in(const char *list, const char *name);

/* 1 when the space-separated CPU flags (NULL: none) hold flag as a word. */
int orch_cpu_flag(const char *flags, const char *flag);

#endif
