/*
 * option_defs.h — the table of oltp's options (private to options/):
 * each option's name, type, field of oltp_opts, default, help and range,
 * read by the parser, the usage text, --list-options and the result's
 * options (options.c).
 */
#ifndef OLTP_OPTION_DEFS_H
#define OLTP_OPTION_DEFS_H

#include <stddef.h>

/* --bulk's ODBC paths and --db-ps-mode's values by name (spelled once:
 * the defaults, the usage line and the parser are made of these) */
#define BULK_BCP    "bcp"
#define BULK_VALUES "values"
#define PS_AUTO    "auto"
#define PS_DISABLE "disable"
/* no upper bound, for the table's ranges */
#define BIG 1e18

/* O_IGNORED: accepted and changes nothing (an option sysbench 1.0.20
 * itself accepts without effect) */
typedef enum { O_INT, O_INT64, O_DOUBLE, O_BOOL, O_STR, O_PCT, O_RANDTYPE, O_BULK, O_PSMODE, O_IGNORED } opt_type;

typedef struct opt_def {
    const char *name;
    opt_type    type;
    size_t      off;
    const char *def;        /* default as text, parsed like a user value */
    const char *help;
    double      min, max;   /* numeric range (inclusive) */
} opt_def;

extern const opt_def opts_defs[];
extern const size_t  opts_ndefs;

#endif
