/*
 * oltp_argv.h — for the unit tests of oltp's command line: opts_parse() on
 * a command line given as one string.
 */
#ifndef TEST_OLTP_ARGV_H
#define TEST_OLTP_ARGV_H

#include <stdio.h>
#include <string.h>

#include "options/options.h"

/* opts_parse() on argv0 and the space-separated words of line; what it
 * prints on stderr goes to err. The options point into a static copy of
 * the line, valid until the next call. */
static inline int oltp_argv_parse(oltp_opts *o, const char *argv0, const char *line, char *err,
                                  size_t errlen)
{
    static char buf[1024];
    char *argv[64], *save, *tok;
    int argc = 0, r;
    FILE *f = fmemopen(err, errlen, "w");

    snprintf(buf, sizeof buf, "%s %s", argv0, line);
    for (tok = strtok_r(buf, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    memset(err, 0, errlen);
    r = opts_parse(o, argc, argv, f);
    fclose(f);
    return r;
}

#endif
