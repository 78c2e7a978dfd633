/*
 * hostcheck_state.h — private to run/hostcheck*.c: the findings a host
 * check builds and the helpers its files share (hostcheck_findings.c);
 * hostcheck.c runs the host's checks and calls hostcheck_drive.c for
 * each drive; neither is called back.
 */
#ifndef ORCH_HOSTCHECK_STATE_H
#define ORCH_HOSTCHECK_STATE_H

#include <stddef.h>

#include "run/hostcheck.h"

/* What a check is building: the findings, and whether memory ran out. */
typedef struct hc {
    const orch_hc_opts *o;
    const char *root;
    res_hc_finding *f;
    int n, cap, oom;
} hc;

/* 1 when the user ignores check c (--ignore). */
int  orch_hc_ignored(const hc *h, orch_hc_check c);
/* Add a finding: value, fix (NULL: none) and a message from fmt. */
void orch_hc_add(hc *h, orch_hc_check c, const char *drive, res_hc_status st, const char *value,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The fix of the last finding (a copy). */
void orch_hc_fix(hc *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* ROOT/rel, its first max bytes (caller frees), NULL when unreadable. */
char *orch_hc_read_upto(const hc *h, const char *rel, size_t max);
/* A /proc table whole: mountinfo of a host with many containers is long. */
char *orch_hc_read_all(const hc *h, const char *rel);
/* ROOT/rel, first line, trailing white space removed, into buf; 0, or
 * -1 (buf "") when it cannot be read. */
int  orch_hc_read_line(const hc *h, const char *rel, char *buf, size_t len);

/* hostcheck_drive.c: the checks of drive dr of plan p. */
void orch_hc_check_drive(hc *h, const orch_plan *p, const orch_drive *dr);

#endif
