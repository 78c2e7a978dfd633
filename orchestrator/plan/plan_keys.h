/*
 * plan_keys.h — the plan's keys, private to plan/: one table per section
 * (plan_keys.c) that the parser stores values through and `plan get`
 * reads them back through, so a key is spelled in one place. Each entry
 * gives the key's type, its range or choices and where it lands in
 * orch_plan (or orch_drive for [drive NAME]).
 */
#ifndef ORCH_PLAN_KEYS_H
#define ORCH_PLAN_KEYS_H

#include "attributes.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum { K_STR, K_INT, K_INT64, K_DUR, K_SIZE, K_DOUBLE, K_ENUM, K_BOOL } key_type;

typedef struct key_spec {
    const char *key;
    key_type    type;
    size_t      off;        /* into orch_plan, or orch_drive for [drive] */
    long long   min, max;
    const char *choices;    /* "a|b|c"; K_ENUM: its field is an enum whose
                             * values are these choices' indexes; K_INT,
                             * K_DUR: one word taken instead of a number,
                             * stored as ORCH_PLAN_WORD */
} key_spec;

/* 1 when section is "drive NAME" (NAME, trimmed, copied into name, which
 * may be left empty), else 0. */
int plan_drive_section(const char *section, char *name, size_t len);

/* The key table of [section] ("run", "workload", "engine" or "drive NAME"), ended
 * by an entry whose key is NULL; NULL for any other section. */
const key_spec *plan_section_keys(const char *section);

/* The entry of key in table keys, or NULL. */
const key_spec *plan_key_find(const key_spec *keys, const char *key);

/* Parse value v of key k into the struct at base (an orch_plan, or an
 * orch_drive for [drive] keys; a K_STR field's old string is freed).
 * 0, or -1 with why v is refused in err (the caller names section and
 * key); nothing is stored then. */
int plan_key_store(const key_spec *k, void *base, const char *v, char *err, size_t errlen) DB_MUST_CHECK;

/* 1 when s is text every file we write can carry: valid UTF-8 (no
 * overlong forms, surrogates or code points past U+10FFFF), no control
 * character but tab, no U+FFFE/U+FFFF. XML 1.0 cannot represent the
 * others, so a name holding one would not come back from domain XML.
 * Else 0. */
int plan_text_ok(const char *s);

/* s without leading and trailing white space (trailing cut in place). */
char *plan_trim(char *s);

#endif
