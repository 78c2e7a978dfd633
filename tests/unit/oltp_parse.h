/*
 * oltp_parse.h — for oltp's unit tests: opts_parse() on a command line
 * given as one string ("--threads=2 oltp_read_write run"), run as prog
 * (parse_as: "sysbench" is the sysbench personality; parse: "oltp"), its
 * message (if any) into err. The parsed options point into a static
 * buffer: valid until the next call. Returns what opts_parse returns.
 */
#ifndef DB_TEST_OLTP_PARSE_H
#define DB_TEST_OLTP_PARSE_H

#include <stdio.h>
#include <string.h>

#include "options/options.h"

static int parse_as(oltp_opts *o, const char *prog, const char *line, char *err, size_t errlen)
{
    static char buf[1024];
    char *argv[64], *save, *tok;
    int argc = 0, r;
    FILE *f = fmemopen(err, errlen, "w");

    snprintf(buf, sizeof buf, "%s %s", prog, line);
    for (tok = strtok_r(buf, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    memset(err, 0, errlen);
    r = opts_parse(o, argc, argv, f);
    fclose(f);
    return r;
}

static int parse(oltp_opts *o, const char *line, char *err, size_t errlen)
{
    return parse_as(o, "oltp", line, err, errlen);
}

#endif
