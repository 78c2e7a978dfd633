/* hostcheck_findings.c — what every host check shares (hostcheck_state.h):
 * the checks' names, the findings being built (a refusal the user
 * ignored stays, marked), and the small readers of /proc and /sys under
 * the check's root. Calls nothing of hostcheck.c or hostcheck_drive.c. */
#include "run/hostcheck.h"
#include "run/hostcheck_state.h"
#include "util/util.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORCH_HC_NAME(id, text) text,
static const char *const check_names[] = { ORCH_HC_CHECKS(ORCH_HC_NAME) };
#undef ORCH_HC_NAME

const char *orch_hc_check_name(orch_hc_check c)
{
    return c < ORCH_HC_COUNT ? check_names[c] : "?";
}

int orch_hc_check_known(const char *name)
{
    for (int c = 0; c < ORCH_HC_COUNT; c++)
        if (strcmp(check_names[c], name) == 0)
            return 1;
    return 0;
}

const char *orch_hc_check_list(void)
{
    static char list[256];
    if (!list[0])
        for (int c = 0; c < ORCH_HC_COUNT; c++) {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%s", c ? ", " : "", check_names[c]);
        }
    return list;
}

int orch_hc_ignored(const hc *h, orch_hc_check c)
{
    for (int i = 0; h->o->ignore && h->o->ignore[i]; i++)
        if (strcmp(h->o->ignore[i], check_names[c]) == 0)
            return 1;
    return 0;
}

/* Add a finding: value, fix (NULL: none) and a message from fmt. */
void orch_hc_add(hc *h, orch_hc_check c, const char *drive, res_hc_status st, const char *value,
                const char *fmt, ...)
{
    res_hc_finding *x;
    va_list ap;
    char msg[1024];
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 16;
        res_hc_finding *g = realloc(h->f, (size_t)cap * sizeof *g);
        if (!g) {
            h->oom = 1;
            return;
        }
        h->f = g;
        h->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    x = &h->f[h->n++];
    memset(x, 0, sizeof *x);
    x->status = st;
    x->ignored = st == RES_HC_REFUSE && orch_hc_ignored(h, c);
    x->check = strdup(check_names[c]);
    x->drive = drive ? strdup(drive) : NULL;
    x->value = strdup(value);
    x->message = strdup(msg);
    h->oom |= !x->check || (drive && !x->drive) || !x->value || !x->message;
}

/* The fix of the last finding (a copy). */
void orch_hc_fix(hc *h, const char *fmt, ...)
{
    va_list ap;
    char buf[1024];
    if (h->n == 0 || h->oom)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    h->oom |= !(h->f[h->n - 1].fix = strdup(buf));
}

/* ROOT/rel, its first max bytes (caller frees), NULL when unreadable. */
char *orch_hc_read_upto(const hc *h, const char *rel, size_t max)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s%s", h->root, rel);
    return orch_file_read(path, max);
}

/* A /proc table whole: mountinfo of a host with many containers is long. */
char *orch_hc_read_all(const hc *h, const char *rel)
{
    return orch_hc_read_upto(h, rel, (size_t)4 << 20);
}

/* ROOT/rel, first line, trailing white space removed, into buf; 0, or
 * -1 (buf "") when it cannot be read. */
int orch_hc_read_line(const hc *h, const char *rel, char *buf, size_t len)
{
    char *text = orch_hc_read_upto(h, rel, len);
    buf[0] = '\0';
    if (!text)
        return -1;
    snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
    free(text);
    for (size_t n = strlen(buf); n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'); n--)
        buf[n - 1] = '\0';
    return 0;
}
