/* report_capacity.c — the capacity at a latency target (page.h; issue 45
 * item 3): per run one chart of every drive's achieved TPS against the
 * target's percentile over its probes, the target drawn as a level and
 * each drive's capacity marked, and a table of every probe. */
#include <libxml/tree.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "util/util.h"
#include "results_capacity.h"

/* Whether run r has a capacity search on any drive. */
static int run_has_capacity(const report_run *run)
{
    for (int d = 0; d < run->ndrives; d++)
        if (run->drives[d].d->capacity)
            return 1;
    return 0;
}

static void probe_row(xmlNodePtr tb, const report_run *run, const report_drive *dr, int i,
                      const res_cap_probe *pr)
{
    xmlNodePtr tr = page_row(tb, run, dr->name);
    char buf[16];
    snprintf(buf, sizeof buf, "%d", i + 1);
    html_attr(tr, "data-probe", buf);
    page_cell(tr, run->label);
    page_cell(tr, dr->name);
    page_num(tr, "probe", i + 1, 0);
    page_num(tr, "offered", pr->offered, 2);
    page_num(tr, "achieved_tps", pr->achieved, 2);
    page_num(tr, "queue_ms", pr->queue_ms, 3);
    page_num(tr, "percentile_ms", pr->pct_ms, 3);
    page_num(tr, "percentile_lo_ms", pr->pct_lo_ms, 3);
    page_num(tr, "percentile_hi_ms", pr->pct_hi_ms, 3);
    html_attr(page_cell(tr, pr->verdict), "data-key", "verdict");
    page_cell(tr, pr->why);
}

/* The points of drive c's curve, by achieved TPS (probes without a
 * percentile left out): how many. */
static int curve_points(const res_capacity *c, double *x, double *y)
{
    int n = 0;
    for (int i = 0; i < c->nprobes; i++) {
        const res_cap_probe *pr = &c->probes[i];
        int k = n++;
        if (!isfinite(pr->pct_ms) || !isfinite(pr->achieved)) {
            n--;
            continue;
        }
        /* insertion by achieved TPS */
        for (; k > 0 && x[k - 1] > pr->achieved; k--) {
            x[k] = x[k - 1];
            y[k] = y[k - 1];
        }
        x[k] = pr->achieved;
        y[k] = pr->pct_ms;
    }
    return n;
}

/* Run r's chart: every drive's curve, the capacities, the target. 0 or -1. */
static int capacity_chart(xmlNodePtr sec, const report_page *pg, const report_run *run, int r)
{
    int nd = run->ndrives, ns = 0, nm = 0, rc = -1;
    svg_series *ss = calloc((size_t)nd + 1, sizeof *ss);
    svg_mark *marks = calloc((size_t)nd + 1, sizeof *marks), level = { 0 };
    char **labels = calloc((size_t)nd * 2 + 1, sizeof *labels), id[48], *title = NULL;
    double (*pts)[2][ORCH_CAP_MAX_PROBES] = calloc((size_t)nd + 1, sizeof *pts);
    const char *target = NULL;
    orch_cap_target t;
    char err[128];

    if (!ss || !marks || !labels || !pts)
        goto cleanup;
    for (int d = 0; d < nd; d++) {
        const res_capacity *c = run->drives[d].d->capacity;
        char *label;
        if (!c)
            continue;
        target = c->target;
        if (!(label = labels[2 * d] = page_drive_label(pg, run, run->drives[d].name)))
            goto cleanup;
        ss[ns] = (svg_series){ .label = label, .x = pts[d][0], .y = pts[d][1],
                               .n = curve_points(c, pts[d][0], pts[d][1]), .color = d };
        ns++;
        if (isfinite(c->capacity)) {
            if (!(labels[2 * d + 1] = orch_strfmt("%s: capacity %g TPS", label, c->capacity)))
                goto cleanup;
            marks[nm++] = (svg_mark){ .x = c->capacity, .label = labels[2 * d + 1] };
        }
    }
    if (!target || orch_cap_target_parse(target, &t, err, sizeof err) < 0) {
        rc = 0;             /* nothing to draw against */
        goto cleanup;
    }
    level = (svg_mark){ .x = t.bound_us / 1e3, .label = target };
    snprintf(id, sizeof id, "capacity-%d", r);
    title = orch_strfmt("Capacity at %s%s%s: p%g latency (ms) against achieved TPS, per probe",
                        target, pg->multi ? ", run " : "", pg->multi ? run->label : "", t.pct);
    if (title && svg_line_chart_marks(sec, id, title, "achieved TPS", "latency (ms)", ss, ns,
                                      marks, nm, &level))
        rc = 0;
cleanup:
    for (int i = 0; labels && i < 2 * nd; i++)
        free(labels[i]);
    free(labels);
    free(ss);
    free(marks);
    free(pts);
    free(title);
    return rc;
}

int page_section_capacity(report_page *pg)
{
    static const char *const head[] = { "run", "drive", "probe", "offered /s", "achieved TPS",
                                        "queue ms", "percentile ms", "interval from ms",
                                        "interval to ms", "verdict", "why", NULL };
    xmlNodePtr sec, tb;
    int any = 0;

    for (int r = 0; r < pg->s->nruns; r++)
        any |= run_has_capacity(&pg->s->runs[r]);
    if (!any)
        return 0;
    sec = page_section(pg, "capacity", "Capacity at the latency target",
        "The highest open-loop rate each drive carried with the target's percentile within "
        "its bound: a ramp doubling the rate until a probe broke the bound, then bisection "
        "to the plan's resolution. A probe holds when the 95 % interval of its percentile "
        "(from the order statistics of the drive's merged histogram) lies within the bound "
        "and it committed at least 95 % of the offered rate, less the Poisson arrivals' "
        "spread; it breaks when the interval lies beyond the bound or the queue grows. The "
        "capacity is the highest rate that held, its interval up to the lowest that did "
        "not.");
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        for (int d = 0; d < run->ndrives; d++) {
            const res_capacity *c = run->drives[d].d->capacity;
            xmlNodePtr p;
            char *line, hi[32];
            if (!c)
                continue;
            snprintf(hi, sizeof hi, isfinite(c->hi) ? "%g" : "not bounded", c->hi);
            line = isfinite(c->capacity)
                ? orch_strfmt("%s%s%s: %g TPS at %s (interval %g to %s; %s)", run->drives[d].name,
                              pg->multi ? " " : "", pg->multi ? run->label : "", c->capacity,
                              c->target, c->lo, hi, c->end)
                : orch_strfmt("%s%s%s: no rate held %s (%s)", run->drives[d].name,
                              pg->multi ? " " : "", pg->multi ? run->label : "", c->target,
                              c->end);
            if (!line)
                return -1;
            p = xmlNewTextChild(sec, NULL, BAD_CAST "p", BAD_CAST line);
            free(line);
            if (p) {
                html_attr(p, "class", "capacity");
                html_attr(p, "data-drive", run->drives[d].name);
            }
        }
        if (run_has_capacity(run) && capacity_chart(sec, pg, run, r) < 0)
            return -1;
    }
    tb = html_table(sec, "capacity-probes", head);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++) {
            const res_capacity *c = pg->s->runs[r].drives[d].d->capacity;
            for (int i = 0; c && i < c->nprobes; i++)
                probe_row(tb, &pg->s->runs[r], &pg->s->runs[r].drives[d], i, &c->probes[i]);
        }
    return 0;
}
