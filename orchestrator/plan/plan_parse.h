/*
 * plan_parse.h — the state of one plan being read, private to plan/:
 * shared by the reader (plan_parse.c) and the validation that follows
 * (plan_check.c), which places its messages at the line of the key or
 * section they are about; both keep their messages through plan_msgs.c.
 */
#ifndef ORCH_PLAN_PARSE_H
#define ORCH_PLAN_PARSE_H

#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"
#include "plan/plan_keys.h"

typedef struct seen_key {
    char *section;
    const char *key;            /* points into a spec table */
    int   line;
} seen_key;

typedef struct seen_section {
    char *name;
    int   line;
    int   reported;             /* unknown section already reported */
} seen_section;

typedef struct plan_msg {
    int   line;
    int   seq;                  /* keeps discovery order within a line */
    int   warning;              /* printed, but does not fail the load */
    char *text;
} plan_msg;

/* The largest plan read: a plan is a page of keys; a device, a pipe or a
 * file past this is refused while (or before) it is read. */
#define PLAN_MAX_BYTES (1024 * 1024)

typedef struct parse_state {
    orch_plan    *p;
    plan_msg     *msgs;         /* printed sorted by line at the end */
    FILE         *in;
    FILE         *errs;
    int           nerr;         /* messages, warnings included */
    int           nwarn;
    int           line;
    long          bytes;        /* read so far (PLAN_MAX_BYTES) */
    char         *text;         /* those bytes, kept as p->text */
    size_t        text_cap;
    bool          stop;         /* the reading ended on a refusal */
    seen_key     *keys;
    int           nkeys;
    seen_section *sects;
    int           nsects;
} parse_state;

/* Record a problem at line of the plan (printed, sorted by line, when the
 * load ends): an error fails the load, a warning does not. */
void plan_error(parse_state *st, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void plan_warning(parse_state *st, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Print every problem to st->errs, in file order, and free them
 * (plan_msgs.c, as the functions above and below). */
void plan_msgs_flush(parse_state *st);

/* Line of key in [section], or of [section]; 0 when not in the plan. */
int plan_key_line(const parse_state *st, const char *section, const char *key);
int plan_section_line(const parse_state *st, const char *section);

/* Line of a key if given (key may be NULL), else of its section, else 1. */
int plan_where(const parse_state *st, const char *section, const char *key);

/* sweep.c: a value with a comma for key k of section: a sweep, stored
 * (its first value in the field, the list in st->p's sweep_*) or
 * refused with the reason. 1 when value was a list (handled), 0 when it
 * is a plain value for plan_key_store. */
int plan_sweep_value(parse_state *st, const char *section, const key_spec *k, void *base,
                     const char *value);
/* Checks of a sweep against the rest of the plan (plan_check). */
void plan_sweep_check(parse_state *st);
/* [workload] target and its keys (issue 45): the target parsed, no sweep,
 * one repetition, the rates in order; one line each. */
void plan_target_check(parse_state *st);

/* plan_extra.c: [workload] extra's words, none a secret (--*-password,
 * --odbc-connect with PWD= or Password=) nor an option drivebench sets
 * itself; one message each, naming the key to use instead. */
void plan_extra_check(parse_state *st);

/* plan_files.c: [engine] data_size, log_size, data_growth, log_growth
 * only for TPC-C on an engine that speaks T-SQL, in whole MiB. */
void plan_files_check(parse_state *st);

/* plan_paths.c: each drive's path a folder that is no system directory
 * (nor a link to one), [run] oltp an executable file (client = host),
 * [run] image a qcow2 or raw disk image when it is on this host; one
 * message each. */
void plan_paths_check(parse_state *st);
/* A password file (key, at line) that exists is a regular file no one
 * but its owner may read (mode & 077 == 0): 1, else 0 after a message. */
int plan_secret_file_ok(parse_state *st, int line, const char *key, const char *path);

/* Check the parsed plan st->p as a whole, after its defaults are set:
 * every problem goes to plan_error (plan_check.c). */
void plan_check(parse_state *st);

#endif
