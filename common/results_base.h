/*
 * results_base.h — what every result format shares: integers not
 * recorded, the bounds on a document read from a file, the names of
 * closed choices (phases, how an oltp run ended, how two drives were
 * compared), a series' point, and numbers and CSV fields as the
 * documents write them (results.c, results_names.c, results_text.c).
 *
 * The result formats of drivebench are typed structs, with their JSON
 * and CSV at the edges (results/SCHEMA.md), one header per format:
 *   - results_oltp.h: the `oltp` result (drivebench.oltp/2): res_oltp,
 *     written by `oltp` and read by the orchestrator;
 *   - results_summary.h: the run summary (drivebench.summary/2):
 *     res_summary, written as summary.json and summary.csv by the
 *     orchestrator's aggregation and read by `drivebench report`; with
 *     its parts results_env.h (the plan and the hosts), results_io.h
 *     (drive I/O and statistics), results_capacity.h (a capacity
 *     search), results_server.h (a server's settings, also `oltp
 *     settings`' own document) and results_fingerprint.h (the protocol);
 *   - results_sweep.h: sweep.json (drivebench.sweep/1).
 * A file includes the headers of the formats it reads or writes, so a
 * change to one format rebuilds its readers only.
 *
 * These files (common/results*.c) are the only code that knows the JSON
 * key names and schema strings of the result documents. Adding a field to
 * a document is a change there and in results/SCHEMA.md only: a member in
 * the struct and one line in its struct's field table (results_json.h),
 * which its writer, its reader and its checks share (readers ignore keys
 * they do not know, and a missing optional key reads as its "unset"
 * value). Renaming or removing a key bumps the major.
 *
 * Ownership: every struct owns its strings and arrays (malloc'd); free a
 * document with its *_free(), which accepts NULL. Structs are meant to be
 * zero-initialised and filled by the producer.
 */
#ifndef DB_RESULTS_BASE_H
#define DB_RESULTS_BASE_H

#include "attributes.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

/* An integer that was not recorded (optional keys of the summary). */
#define RES_UNSET INT64_MIN

/* Bounds on a document read from a file (results/SCHEMA.md, "Limits"):
 * an `oltp` result may come from a guest (`client = guest`) and is not
 * trusted. A file above RES_MAX_FILE_BYTES is refused before parsing; an
 * array longer than its bound, a histogram beyond its bounds (whose
 * memory grows with significant_digits and highest_trackable) is refused
 * before anything is allocated for it. */
#define RES_MAX_FILE_BYTES   (64L * 1024 * 1024)
/* summary.json (drivebench's own, read a drive and a VM at a time) */
#define RES_MAX_LAZY_BYTES   (1024L * 1024 * 1024)
#define RES_MAX_PHASES       8
#define RES_MAX_INTERVALS    604800          /* a week of 1-second samples */
#define RES_MAX_TYPES        16
#define RES_MAX_CONNECTIONS  (1 << 20)       /* longest_outage_s entries */
#define RES_MAX_BUCKETS      100000
#define RES_MAX_HIST_DIGITS  4
#define RES_MAX_HIST_HIGHEST (86400LL * 1000 * 1000)   /* a day, in us */
#define RES_MAX_DRIVES       1024            /* summary: drives, hypervisors */
#define RES_MAX_VMS          65536           /* summary: VM runs */
#define RES_MAX_REPETITIONS  1000
#define RES_MAX_HOST_CHECK   4096            /* summary: host check findings */

/* ------------------------------------------------------------------ */
/* names of closed choices                                             */

/* The phases of a run (drivebench) and of an oltp result ("warmup",
 * "measure"): one name each, as the JSON and the run folder's file names
 * spell them. NONE ("?") is what a reader makes of a phase it does not
 * know. */
#define RES_PHASES(X) \
    X(NONE, "?") X(PREPARE, "prepare") X(PRECONDITION, "precondition") \
    X(WARMUP, "warmup") X(MEASURE, "measure") X(CHECK, "check")
#define RES_PHASE_ENUM(id, name) RES_PHASE_##id,
typedef enum res_phase_id { RES_PHASES(RES_PHASE_ENUM) RES_PHASE_COUNT } res_phase_id;
#undef RES_PHASE_ENUM
const char *res_phase_name(res_phase_id p);     /* "?" out of range */

/* How an oltp run ended (its "ended"): ran to its end; stopped by a
 * signal (SIGTERM, SIGINT); stopped by an error (a fatal database error,
 * disk full, the database lost past --reconnect-timeout). Only a complete
 * run is a measurement; the others hold what was measured up to then. A
 * result without the key (older) reads as COMPLETE, a name the reader
 * does not know as ERROR (never a measurement). */
#define RES_ENDS(X) X(COMPLETE, "complete") X(SIGNAL, "signal") X(ERROR, "error")
#define RES_END_ENUM(id, name) RES_END_##id,
typedef enum res_end { RES_ENDS(RES_END_ENUM) RES_END_COUNT } res_end;
#undef RES_END_ENUM
const char *res_end_name(res_end e);            /* "error" out of range */

/* How two drives were compared (summary "comparisons"): the figure (TPS
 * or p99 latency) and the test (paired batch means of intervals, or
 * Welch over repetitions). METHOD_UNKNOWN ("?"): a name the reader does
 * not know. */
#define RES_CMP_METHODS(X) \
    X(METHOD_UNKNOWN, "?", false, false) X(TPS_PAIRED, "tps_paired", true, true) \
    X(P99_PAIRED, "p99_paired", false, true) X(TPS_WELCH, "tps_welch", true, false) \
    X(P99_WELCH, "p99_welch", false, false)
#define RES_CMP_ENUM(id, name, tps, paired) RES_CMP_##id,
typedef enum res_cmp_method { RES_CMP_METHODS(RES_CMP_ENUM) RES_CMP_METHOD_COUNT } res_cmp_method;
#undef RES_CMP_ENUM
const char *res_cmp_method_name(res_cmp_method m);  /* "?" out of range */
bool res_cmp_method_is_tps(res_cmp_method m);       /* else p99 */
bool res_cmp_method_is_paired(res_cmp_method m);    /* else Welch */

/* A reader's "the file cannot be read or is not JSON" (the readers of
 * each format return it, -1 for a document they refuse). */
#define RES_E_UNREADABLE (-2)

/* One point of a series: t in s since the phase start, and its value
 * (tps, or ms for a latency series). */
typedef struct res_point {
    double t, tps;
} res_point;

/* ------------------------------------------------------------------ */
/* numbers and CSV                                                     */

/* v rounded to 6 decimals, as summary.json, summary.csv and report.csv
 * write it ("22.5", "2", "16.666667"). Returns buf. */
const char *res_num(double v, char *buf, size_t len);
/* res_num, or "" when v is not finite (a figure not recorded: an empty
 * CSV field, never 0). */
const char *res_num_opt(double v, char *buf, size_t len);
/* The same number as a JSON number that prints that text (caller puts). */
json_object *res_json_number(double v);

/* The offset of the first of the len bytes at s that is not UTF-8 text
 * every file we write can carry (overlong forms, surrogates, code points
 * past U+10FFFF, U+FFFE/U+FFFF refused; with controls, control
 * characters but tab too), or -1 when none. */
long res_utf8_bad_at(const char *s, size_t len, bool controls);

/* One CSV text field (RFC 4180): quoted, quotes doubled, when it holds a
 * comma, quote, CR or LF, or always when `always` (text columns a
 * spreadsheet must not read as numbers). A field that begins with '=',
 * '+', '-', '@', tab or CR, which a spreadsheet would run as a formula,
 * is quoted and led by a single quote ("'=1+1"), as OWASP's
 * CSV-injection advice says; numbers are written apart, never through
 * here, so a negative number stays a number. */
void res_csv_field(FILE *f, const char *s, bool always);

#endif
