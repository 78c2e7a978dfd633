/* plan_msgs.c — the problems found in a plan (plan_parse.h), kept with
 * their lines while the plan is read (plan_parse.c) and checked
 * (plan_check.c), then printed in file order; and the lines of its keys
 * and sections, where those messages point. Calls neither reader nor
 * check: both call it. */
#include "plan/plan_parse.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 4, 0)))
static void plan_msg_add(parse_state *st, int line, int warning, const char *fmt, va_list ap)
{
    plan_msg *m = realloc(st->msgs, sizeof *m * (size_t)(st->nerr + 1));
    if (!m)
        return;
    st->msgs = m;
    m[st->nerr].line = line;
    m[st->nerr].seq = st->nerr;
    m[st->nerr].warning = warning;
    if (vasprintf(&m[st->nerr].text, fmt, ap) < 0)
        m[st->nerr].text = NULL;
    st->nerr++;
    st->nwarn += warning;
}

void plan_error(parse_state *st, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    plan_msg_add(st, line, 0, fmt, ap);
    va_end(ap);
}

void plan_warning(parse_state *st, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    plan_msg_add(st, line, 1, fmt, ap);
    va_end(ap);
}

static int msg_cmp(const void *a, const void *b)
{
    const plan_msg *x = a, *y = b;
    return x->line != y->line ? (x->line > y->line) - (x->line < y->line)
                              : (x->seq > y->seq) - (x->seq < y->seq);
}

void plan_msgs_flush(parse_state *st)
{
    if (st->nerr == 0)
        return;
    qsort(st->msgs, (size_t)st->nerr, sizeof *st->msgs, msg_cmp);
    for (int i = 0; i < st->nerr; i++) {
        if (st->errs)
            fprintf(st->errs, "%s:%d: %s%s\n", st->p->file, st->msgs[i].line,
                    st->msgs[i].warning ? "warning: " : "",
                    st->msgs[i].text ? st->msgs[i].text : "out of memory");
        free(st->msgs[i].text);
    }
    free(st->msgs);
    st->msgs = NULL;
}

int plan_key_line(const parse_state *st, const char *section, const char *key)
{
    for (int i = 0; i < st->nkeys; i++)
        if (strcmp(st->keys[i].section, section) == 0 && strcmp(st->keys[i].key, key) == 0)
            return st->keys[i].line;
    return 0;
}

int plan_section_line(const parse_state *st, const char *section)
{
    for (int i = 0; i < st->nsects; i++)
        if (strcmp(st->sects[i].name, section) == 0)
            return st->sects[i].line;
    return 0;
}

/* Line of a key if given, else of its section, else 1. */
int plan_where(const parse_state *st, const char *section, const char *key)
{
    int l = key ? plan_key_line(st, section, key) : 0;
    if (!l)
        l = plan_section_line(st, section);
    return l ? l : 1;
}
