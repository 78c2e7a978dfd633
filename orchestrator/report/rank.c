/* rank.c — the ranking's model (rank.h): run folders from results
 * directories, the drives each protocol ranks, their intervals, the
 * win/loss verdicts, the CSV. The page and the SVG files are
 * rank_html.c's, the command rank_cmd.c's (it calls both; neither calls
 * it). */
#include "report/rank.h"
#include "atomic_file.h"
#include "attributes.h"
#include "util/util.h"
#include "results_capacity.h"
#include "results_io.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const rank_metric rank_metrics[RANK_NMETRICS] = {
    [RANK_TPS]     = { "tps", "TPS (transactions/s, higher is better)", 1, 2 },
    [RANK_TPMC]    = { "tpmC", "tpmC (New-Orders per minute, higher is better)", 1, 2 },
    [RANK_NOPM]    = { "NOPM", "NOPM (New-Orders the servers counted per minute, higher is "
                       "better)", 1, 2 },
    [RANK_LAT_AVG] = { "latency_avg_ms", "Average latency (ms, lower is better)", 0, 3 },
    [RANK_LAT_P99] = { "latency_p99_ms", "99th-percentile latency (ms, lower is better)", 0, 3 },
    [RANK_CAPACITY] = { "capacity", "Capacity at the latency target (TPS, higher is better)",
                        1, 2 },
};

static int has_summary(const char *dir)
{
    char *p = orch_strfmt("%s/summary.json", dir);
    int ok = p && access(p, F_OK) == 0;
    free(p);
    return ok;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void rank_paths_free(char **p, int n)
{
    for (int i = 0; p && i < n; i++)
        free(p[i]);
    free(p);
}

/* Append a new copy of s to *out. 0, or -1 when out of memory. */
static int push(char ***out, int *n, char *s)
{
    char **m = s ? realloc(*out, (size_t)(*n + 1) * sizeof **out) : NULL;
    if (!m) {
        free(s);
        return -1;
    }
    *out = m;
    m[(*n)++] = s;
    return 0;
}

char **rank_expand(const char *const *paths, int n, int *nout, char *err, size_t errlen)
{
    char **out = NULL;
    *nout = 0;
    for (int i = 0; i < n; i++) {
        DIR *d;
        struct dirent *de;
        int before = *nout;
        if (has_summary(paths[i])) {
            if (push(&out, nout, strdup(paths[i])) < 0)
                goto oom;
            continue;
        }
        if (!(d = opendir(paths[i]))) {
            snprintf(err, errlen, "%s: %s", paths[i], strerror(errno));
            goto fail;
        }
        while ((de = readdir(d)))
            if (de->d_name[0] != '.') {
                char *sub = orch_strfmt("%s/%s", paths[i], de->d_name);
                if (sub && !has_summary(sub)) {
                    free(sub);
                    continue;
                }
                if (push(&out, nout, sub) < 0) {
                    closedir(d);
                    goto oom;
                }
            }
        closedir(d);
        if (*nout == before) {
            snprintf(err, errlen, "%s: neither a run folder nor a results directory (no "
                     "summary.json in it or its subfolders)", paths[i]);
            goto fail;
        }
        qsort(out + before, (size_t)(*nout - before), sizeof *out, cmp_str);
    }
    return out;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    rank_paths_free(out, *nout);
    *nout = 0;
    return NULL;
}

/* Newest first: started_at, then run id, descending. */
static int newer(const report_run *a, const report_run *b)
{
    int c = strcmp(a->sum.started_at ? a->sum.started_at : "",
                   b->sum.started_at ? b->sum.started_at : "");
    return c ? c > 0 : strcmp(a->run_id, b->run_id) > 0;
}

/* Figure m of figures f; NAN when the run has none (no TPC-C, no NOPM). */
static double figure(const res_figures *f, int m)
{
    switch (m) {
    case RANK_TPS:     return f->tps;
    case RANK_TPMC:    return f->tpcc ? f->tpcc->tpmc : NAN;
    case RANK_NOPM:    return f->tpcc && f->tpcc->has_nopm ? f->tpcc->nopm : NAN;
    case RANK_LAT_AVG: return f->lat_avg_ms;
    case RANK_LAT_P99: return f->lat_p99_ms;
    default:           return NAN;  /* RANK_CAPACITY: the drive's, not a repetition's */
    }
}

/* Fill e's figures, repetitions and intervals. 0, or -1 when out of memory. */
static int entry_fill(rank_entry *e, const report_run *run, const report_drive *dr, int all_runs)
{
    const res_drive *d = dr->d;
    e->run = run;
    e->dr = dr;
    e->label = all_runs ? orch_strfmt("%s [%s]", dr->name, run->run_id) : strdup(dr->name);
    if (!e->label)
        return -1;
    for (int m = 0; m < RANK_NMETRICS; m++) {
        rank_value *v = &e->m[m];
        double sum = 0, sq = 0, mean;
        if (!(e->reps[m] = calloc(d->nreps ? (size_t)d->nreps : 1, sizeof *e->reps[m])))
            return -1;
        e->nreps = 0;
        for (int i = 0; i < d->nreps; i++)
            if (!d->reps[i].f.failed_vms)
                e->reps[m][e->nreps++] = figure(&d->reps[i].f, m);
        v->v = figure(&d->f, m);
        v->n = e->nreps;
        v->lo = v->hi = NAN;
        if (m == RANK_CAPACITY) {       /* one search: its own interval */
            const res_capacity *c = d->capacity;
            v->v = v->lo = c ? c->capacity : NAN;
            v->hi = c ? c->hi : NAN;
            v->n = 1;
            continue;
        }
        if (v->n < 2 || isnan(v->v))
            continue;
        for (int i = 0; i < v->n; i++)
            sum += e->reps[m][i];
        mean = sum / v->n;
        for (int i = 0; i < v->n; i++)
            sq += (e->reps[m][i] - mean) * (e->reps[m][i] - mean);
        {
            double half = orch_t_quantile(0.975, v->n - 1) * sqrt(sq / (v->n - 1)) / sqrt(v->n);
            v->lo = v->v - half;
            v->hi = v->v + half;
        }
    }
    return 0;
}

static void entry_clear(rank_entry *e)
{
    free(e->label);
    for (int m = 0; m < RANK_NMETRICS; m++)
        free(e->reps[m]);
}

/* The TPS order, best first; ties by label. */
static int by_tps(const void *pa, const void *pb)
{
    const rank_entry *a = pa, *b = pb;
    if (a->m[RANK_TPS].v != b->m[RANK_TPS].v)
        return a->m[RANK_TPS].v > b->m[RANK_TPS].v ? -1 : 1;
    return strcmp(a->label, b->label);
}

/* The capacity order, best first; ties by TPS. */
static int by_capacity(const void *pa, const void *pb)
{
    const rank_entry *a = pa, *b = pb;
    if (a->m[RANK_CAPACITY].v != b->m[RANK_CAPACITY].v)
        return a->m[RANK_CAPACITY].v > b->m[RANK_CAPACITY].v ? -1 : 1;
    return by_tps(pa, pb);
}

const char *rank_capacity_target(const rank_group *g)
{
    return g->metric[RANK_CAPACITY] ? g->e[0].dr->d->capacity->target : NULL;
}

/* Whether every entry of rg has a capacity at the same target. */
static int same_capacity(const rank_group *rg)
{
    for (int i = 0; i < rg->n; i++) {
        const res_capacity *c = rg->e[i].dr->d->capacity;
        if (!c || isnan(c->capacity) || !c->target
            || strcmp(c->target, rg->e[0].dr->d->capacity->target) != 0)
            return 0;
    }
    return rg->n > 0;
}

const rank_entry *rank_find(const rank_group *g, const char *name)
{
    for (int i = 0; i < g->n; i++)
        if (strcmp(g->e[i].dr->name, name) == 0 || strcmp(g->e[i].label, name) == 0)
            return &g->e[i];
    return NULL;
}

/* Whether the drive of `name` has a complete entry in group g of s newer
 * than run r's (so r's is superseded, not left out). */
static int superseded(const report_set *s, int g, const char *name, const report_run *r)
{
    for (int i = 0; i < s->nruns; i++)
        for (int d = 0; s->runs[i].group == g && d < s->runs[i].ndrives; d++)
            if (&s->runs[i] != r && strcmp(s->runs[i].drives[d].name, name) == 0
                && !s->runs[i].drives[d].incomplete && !report_run_partial(&s->runs[i])
                && newer(&s->runs[i], r))
                return 1;
    return 0;
}

/* The drives of group g: selection (rank.h), figures, order. */
static int group_build(rank_set *r, rank_group *rg, int g, int all_runs)
{
    const report_set *s = r->s;
    int cap = 0;
    rg->group = g;
    for (int i = 0; i < s->nruns; i++)
        cap += s->runs[i].group == g ? s->runs[i].ndrives : 0;
    rg->e = calloc(cap ? (size_t)cap : 1, sizeof *rg->e);
    if (!rg->e)
        return -1;
    for (int i = 0; i < s->nruns; i++)
        for (int d = 0; s->runs[i].group == g && d < s->runs[i].ndrives; d++) {
            const report_run *run = &s->runs[i];
            const report_drive *dr = &run->drives[d];
            int bad = dr->incomplete || report_run_partial(run);
            if (!all_runs && superseded(s, g, dr->name, run))
                continue;
            if (bad) {
                if (push(&rg->left_out, &rg->nleft,
                         orch_strfmt("%s [%s]: %s", dr->name, run->run_id,
                                     dr->incomplete ? "incomplete (a VM failed)"
                                                    : "partial run (stopped early)")) < 0)
                    return -1;
                continue;
            }
            if (entry_fill(&rg->e[rg->n++], run, dr, all_runs) < 0)
                return -1;
        }
    qsort(rg->e, (size_t)rg->n, sizeof *rg->e, by_tps);
    /* charted: what every ranked drive has (TPC-C figures, NOPM) */
    for (int m = 0; m < RANK_NMETRICS; m++) {
        rg->metric[m] = rg->n > 0 && m != RANK_LAT_P99;
        for (int i = 0; i < rg->n; i++)
            rg->metric[m] &= !isnan(rg->e[i].m[m].v);
    }
    rg->metric[RANK_LAT_P99] = rg->n > 0 && !rg->metric[RANK_TPMC];   /* TPC-C: avg only */
    rg->metric[RANK_CAPACITY] = same_capacity(rg);
    if (rg->metric[RANK_CAPACITY])
        qsort(rg->e, (size_t)rg->n, sizeof *rg->e, by_capacity);
    for (int i = 0; i < rg->n; i++)
        rg->e[i].highlight = r->highlight && (strcmp(rg->e[i].dr->name, r->highlight) == 0
                                              || strcmp(rg->e[i].label, r->highlight) == 0);
    return 0;
}

void rank_set_free(rank_set *r)
{
    if (!r)
        return;
    for (int g = 0; r->g && g < r->ng; g++) {
        for (int i = 0; i < r->g[g].n; i++)
            entry_clear(&r->g[g].e[i]);
        free(r->g[g].e);
        rank_paths_free(r->g[g].left_out, r->g[g].nleft);
    }
    free(r->g);
    report_set_free(r->s);
    free(r);
}

/* Whether drive `name` is ranked in some group. */
static int ranked(const rank_set *r, const char *name)
{
    for (int g = 0; g < r->ng; g++)
        if (rank_find(&r->g[g], name))
            return 1;
    return 0;
}

rank_set *rank_build(const char *const *dirs, int ndirs, int all_runs, const char *highlight,
                     const char *baseline, char *err, size_t errlen)
{
    rank_set *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->highlight = highlight;
    r->baseline = baseline;
    if (!(r->s = report_load(dirs, ndirs, err, errlen)))
        goto fail;
    if (!(r->g = calloc((size_t)r->s->ngroups, sizeof *r->g)))
        goto oom;
    for (int g = 0; g < r->s->ngroups; g++, r->ng++)
        if (group_build(r, &r->g[g], g, all_runs) < 0) {
            r->ng++;
            goto oom;
        }
    if (highlight && !ranked(r, highlight)) {
        snprintf(err, errlen, "--highlight %s: no complete drive of that name in the runs "
                 "ranked", highlight);
        goto fail;
    }
    if (baseline && !ranked(r, baseline)) {
        snprintf(err, errlen, "--baseline %s: no complete drive of that name in the runs "
                 "ranked", baseline);
        goto fail;
    }
    return r;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    rank_set_free(r);
    return NULL;
}

const char *rank_verdict(const rank_entry *e, const rank_entry *b, int m)
{
    orch_diff d;
    if (m == RANK_CAPACITY) {
        const rank_value *x = &e->m[m], *y = &b->m[m];
        if (isfinite(y->hi) && x->lo >= y->hi)
            return "better";
        if (isfinite(x->hi) && y->lo >= x->hi)
            return "worse";
        return "not distinguishable";
    }
    if (orch_stats_welch(e->reps[m], e->nreps, b->reps[m], b->nreps, &d) < 0)
        return "too few repetitions (N < 3)";
    if (!d.distinguishable)
        return "not distinguishable";
    return (d.diff > 0) == (rank_metrics[m].higher_better != 0) ? "better" : "worse";
}

/* v, or "" when not a number. */
static const char *num_or_empty(double v, char *buf, size_t len)
{
    if (isnan(v)) {
        buf[0] = '\0';
        return buf;
    }
    return report_num(v, buf, len);
}

int rank_write_csv(const rank_set *r, const char *path, char *err, size_t errlen)
{
    atomic_file *af = atomic_file_open(path, err, errlen);
    FILE *f = af ? atomic_file_stream(af) : NULL;
    char b[3][48], g[16], lay[64];
    if (!af)
        return -1;
    fputs("protocol,rank,drive,run_id,layout,n", f);
    for (int m = 0; m < RANK_NMETRICS; m++)
        fprintf(f, ",%s,%s_lo,%s_hi", rank_metrics[m].key, rank_metrics[m].key,
                rank_metrics[m].key);
    fputs(",highlight,bound\n", f);
    for (int k = 0; k < r->ng; k++)
        for (int i = 0; i < r->g[k].n; i++) {
            const rank_entry *e = &r->g[k].e[i];
            res_csv_field(f, report_group_label(r->g[k].group, g, sizeof g), true);
            fprintf(f, ",%d,", i + 1);
            res_csv_field(f, e->dr->name, true);
            fputc(',', f);
            res_csv_field(f, e->run->run_id, true);
            fputc(',', f);
            res_csv_field(f, report_layout(e->run, lay, sizeof lay), true);
            fprintf(f, ",%d", e->nreps);
            for (int m = 0; m < RANK_NMETRICS; m++)
                fprintf(f, ",%s,%s,%s", num_or_empty(e->m[m].v, b[0], sizeof b[0]),
                        num_or_empty(e->m[m].lo, b[1], sizeof b[1]),
                        num_or_empty(e->m[m].hi, b[2], sizeof b[2]));
            fprintf(f, ",%d,", e->highlight);
            if (e->dr->d->io && e->dr->d->io->bound)
                res_csv_field(f, res_bound_verdict_name(e->dr->d->io->bound->verdict), true);
            fputc('\n', f);
        }
    return atomic_file_commit(af, err, errlen);
}


/* The value of option `name` at argv[*i] ("--name=V" or "--name V"), or
 * NULL when argv[*i] is not it. */
