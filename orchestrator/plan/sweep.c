/* sweep.c — a plan's sweep (issue 34): one numeric key given as a
 * comma-separated list of values ("threads = 8,16,32,64"), each value a
 * step the run takes in order (plan.h). Which keys can be swept, how a
 * list is read and refused, and what a sweep excludes. */
#include "plan/plan_parse.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SWEEPABLE_TEXT "[run] vms_per_drive and the numbers of [workload]"

static int is_number(const key_spec *k)
{
    return k->type == K_INT || k->type == K_INT64 || k->type == K_DOUBLE || k->type == K_DUR
           || k->type == K_SIZE;
}

/* The keys a sweep may vary: the VMs on each drive and every number of
 * the workload (its load: threads, rate; its size: tables, table_size,
 * warehouses, each step preparing its own database; its times). */
static int is_sweepable(const char *section, const key_spec *k)
{
    if (strcmp(section, "run") == 0)
        return strcmp(k->key, "vms_per_drive") == 0;
    return strcmp(section, "workload") == 0 && is_number(k);
}

/* The numeric value v of key k as plan_key_store stored it at field. */
static double stored_value(const key_spec *k, const void *base)
{
    const char *field = (const char *)base + k->off;
    switch (k->type) {
    case K_INT: return *(const int *)(const void *)field;
    case K_INT64: return (double)*(const int64_t *)(const void *)field;
    case K_DOUBLE: return *(const double *)(const void *)field;
    case K_DUR: return *(const int *)(const void *)field;
    case K_SIZE: return (double)*(const uint64_t *)(const void *)field;
    default: return NAN;
    }
}

int plan_sweep_value(parse_state *st, const char *section, const key_spec *k, void *base,
                     const char *value)
{
    orch_plan *p = st->p;
    char *copy, err[256], *tok;
    double *v;
    int n = 0, bad = 0;

    if (!strchr(value, ','))
        return 0;
    if (!is_sweepable(section, k)) {
        if (is_number(k))
            plan_error(st, st->line, "[%s] %s: '%s' is a list, and only %s can be swept", section,
                       k->key, value, SWEEPABLE_TEXT);
        return k->type != K_STR;    /* a string key takes its commas as they are */
    }
    if (p->sweep_key) {
        plan_error(st, st->line, "[%s] %s: a plan sweeps one key, and [%s] %s is swept already "
                   "(line %d)", section, k->key, p->sweep_section, p->sweep_key, p->sweep_line);
        return 1;
    }
    copy = strdup(value);
    v = calloc(strlen(value) + 1, sizeof *v);
    if (!copy || !v) {
        free(copy);
        free(v);
        return 1;
    }
    /* strsep keeps empty steps ("8,,16", "8,") to refuse them */
    for (char *rest = copy; !bad && (tok = strsep(&rest, ",")) != NULL;) {
        tok = plan_trim(tok);
        if (!*tok) {
            plan_error(st, st->line, "[%s] %s: '%s' has an empty step (a sweep is a "
                       "comma-separated list of values, like 8,16,32)", section, k->key, value);
            bad = 1;
        } else if (k->choices && strcmp(tok, k->choices) == 0) {
            plan_error(st, st->line, "[%s] %s: step %d of the sweep: a sweep takes numbers, "
                       "not '%s'", section, k->key, n + 1, tok);
            bad = 1;
        } else if (plan_key_store(k, base, tok, err, sizeof err) < 0) {
            plan_error(st, st->line, "[%s] %s: step %d of the sweep: %s", section, k->key, n + 1,
                       err);
            bad = 1;
        } else if (n > 0 && !(stored_value(k, base) > v[n - 1])) {
            plan_error(st, st->line, "[%s] %s: the sweep's values must increase: %s after %g",
                       section, k->key, tok, v[n - 1]);
            bad = 1;
        } else {
            v[n++] = stored_value(k, base);
        }
    }
    if (!bad && n > ORCH_SWEEP_MAX) {
        plan_error(st, st->line, "[%s] %s: %d steps; a sweep has at most %d", section, k->key, n,
                   ORCH_SWEEP_MAX);
        bad = 1;
    }
    free(copy);
    if (bad) {
        free(v);
        return 1;
    }
    p->sweep_key = k->key;
    p->sweep_section = strcmp(section, "run") == 0 ? "run" : "workload";
    p->sweep_values = v;
    p->nsweep = n;
    p->sweep_line = st->line;
    if (orch_plan_sweep_step(p, 0, err, sizeof err) < 0)  /* each value stored once above */
        plan_error(st, st->line, "[%s] %s: step 1 of the sweep: %s", section, k->key, err);
    p->sweep_step = 0;          /* the sweep's own plan, holding its first value */
    return 1;
}

void plan_sweep_check(parse_state *st)
{
    const orch_plan *p = st->p;
    int vms_swept = p->sweep_key && strcmp(p->sweep_key, "vms_per_drive") == 0;
    double last = p->nsweep ? p->sweep_values[p->nsweep - 1] : 0;
    if (!vms_swept)
        return;
    for (int i = 0; i < p->ndrives; i++) {
        char sect[300];
        snprintf(sect, sizeof sect, "drive %s", p->drives[i].name);
        if (p->drives[i].vms)
            plan_error(st, plan_where(st, sect, "vms"), "[drive %s] vms: the sweep of [run] "
                       "vms_per_drive (line %d) would not reach this drive; drop its vms",
                       p->drives[i].name, p->sweep_line);
    }
    if (p->pinning && strcmp(p->pinning, "auto") != 0 && strcmp(p->pinning, "off") != 0)
        plan_error(st, plan_where(st, "run", "pinning"), "[run] pinning lists one cpuset per "
                   "VM, and the sweep of vms_per_drive (line %d) changes their number: use "
                   "pinning = auto or off", p->sweep_line);
    if (p->port_base + (int)last * p->ndrives - 1 > 65535)
        plan_error(st, plan_where(st, "run", "port_base"), "[run] port_base %d leaves no room "
                   "for the sweep's last step, %d VMs", p->port_base, (int)last * p->ndrives);
}

void plan_target_check(parse_state *st)
{
    const orch_plan *p = st->p;
    static const char *const keys[] = { "target_resolution", "target_start", "target_max_rate",
                                        "target_max_probes" };
    orch_cap_target t;
    char err[256];
    int line = plan_where(st, "workload", "target");
    if (!p->target) {
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (plan_key_line(st, "workload", keys[i]))
                plan_error(st, plan_key_line(st, "workload", keys[i]), "[workload] %s without "
                           "target: it sets the capacity search of `target = p99 <= 10ms`",
                           keys[i]);
        return;
    }
    if (orch_cap_target_parse(p->target, &t, err, sizeof err) < 0)
        plan_error(st, line, "[workload] target: %s", err);
    else if (p->sweep_key)
        plan_error(st, line, "[workload] target searches the rate itself: drop the sweep of "
                   "[%s] %s (line %d)", p->sweep_section, p->sweep_key, p->sweep_line);
    else if (p->repetitions != 1 || p->repetitions_auto)
        plan_error(st, line, "[workload] target: a capacity search runs once on its VMs: set "
                   "[run] repetitions = 1");
    else if (p->target_max_rate < p->target_start)
        plan_error(st, plan_where(st, "workload", "target_max_rate"), "[workload] "
                   "target_max_rate %g is under target_start %g", p->target_max_rate,
                   p->target_start);
}

int orch_plan_sweep_step(orch_plan *p, int i, char *err, size_t errlen)
{
    const key_spec *k;
    char v[64];
    if (!p->sweep_key || i < 0 || i >= p->nsweep) {
        snprintf(err, errlen, "the plan has no step %d to sweep", i + 1);
        return -1;
    }
    k = plan_key_find(plan_section_keys(p->sweep_section), p->sweep_key);
    orch_plan_sweep_value(p, i, v, sizeof v);
    if (!k || plan_key_store(k, p, v, err, errlen) < 0)
        return -1;
    p->sweep_step = i + 1;
    return 0;
}

int orch_plan_sweep_same_vms(const orch_plan *p, char *why, size_t len)
{
    if (!p->sweep_key) {
        snprintf(why, len, "no sweep");
        return 0;
    }
    if (strcmp(p->sweep_section, "workload") != 0
        || (strcmp(p->sweep_key, "threads") != 0 && strcmp(p->sweep_key, "rate") != 0)) {
        snprintf(why, len, "[%s] %s changes the VMs or their database", p->sweep_section,
                 p->sweep_key);
        return 0;
    }
    if (p->restore_between_steps) {
        snprintf(why, len, "restore_between_steps = yes");
        return 0;
    }
    if (p->repetitions != 1 || p->repetitions_auto) {
        snprintf(why, len, "[run] repetitions is not 1: each step repeats its own VMs");
        return 0;
    }
    snprintf(why, len, "[%s] %s is a load on the same VMs", p->sweep_section, p->sweep_key);
    return 1;
}

int orch_plan_step_warmup(const orch_plan *p)
{
    return p->step_warmup_s >= 0 ? p->step_warmup_s : p->warmup_s;
}
