/* report_sweep.c — the page of a sweep (issue 34): its sweep.json
 * (results_sweep.h res_sweep) as one table of every step and drive, and per
 * drive two charts against the swept value, TPS and p99 latency, each with
 * the drive's knee marked (svg.h: <polyline class="series">, <g
 * class="mark">). The steps' own pages are their run folders'. */
#include "report/report.h"
#include "report/html.h"
#include "report/svg.h"
#include "util/util.h"
#include "results_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/HTMLtree.h>

static const char sweep_css[] =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
    "h2{margin-top:32px;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#f0f0f0}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "svg.chart{display:block;width:100%;max-width:960px;margin:8px 0 4px}"
    "svg{font-family:'DejaVu Sans',sans-serif}svg .chart-title{font-size:15px;font-weight:bold}"
    "svg text{font-size:12px;fill:#222}svg .grid{stroke:#e3e3e3}svg .axis{stroke:#888}"
    "svg line.mark{stroke:#c00;stroke-dasharray:4 3}svg text.mark{fill:#c00}"
    "svg polyline.series{fill:none;stroke-width:1.8}svg .legend-line{stroke-width:3}"
    "svg circle.point{stroke:none}p.note{font-size:13px;color:#555}";

/* A numeric cell: the number shown, its exact text in data-value. */
static void num_cell(xmlNodePtr tr, const char *key, double v, int decimals)
{
    char shown[64], exact[64];
    xmlNodePtr td;
    if (!isfinite(v)) {
        td = html_add(tr, "td", "");
        html_attr(td, "data-key", key);
        return;
    }
    snprintf(shown, sizeof shown, "%.*f", decimals, v);
    td = html_add(tr, "td", shown);
    html_attr(td, "class", "num");
    html_attr(td, "data-key", key);
    html_attr(td, "data-value", report_num(v, exact, sizeof exact));
}

/* The table: one row per step and drive. */
static void steps_table(xmlNodePtr body, const res_sweep *w)
{
    const char *heads[] = { w->key, "run", "status", "drive", "VMs", "TPS", "avg latency (ms)",
                            "p99 latency (ms)", NULL };
    xmlNodePtr tb = html_table(body, "sweep-steps", heads);
    char v[64];
    for (int i = 0; i < w->nsteps; i++) {
        const res_sweep_step *s = &w->steps[i];
        for (int d = 0; d < (s->ndrives ? s->ndrives : 1); d++) {
            const res_sweep_drive *dr = s->ndrives ? &s->drives[d] : NULL;
            xmlNodePtr tr = html_add(tb, "tr", NULL);
            html_attr(tr, "data-step", report_num(i + 1, v, sizeof v));
            if (dr)
                html_attr(tr, "data-drive", dr->name);
            num_cell(tr, "value", s->value, 0);
            html_add(tr, "td", s->run_id);
            html_add(tr, "td", dr && !dr->complete ? "incomplete" : s->status);
            html_add(tr, "td", dr ? dr->name : "");
            num_cell(tr, "vms", dr ? dr->vms : NAN, 0);
            num_cell(tr, "tps", dr ? dr->tps : NAN, 2);
            num_cell(tr, "lat_avg_ms", dr ? dr->lat_avg_ms : NAN, 2);
            num_cell(tr, "lat_p99_ms", dr ? dr->lat_p99_ms : NAN, 2);
        }
    }
}

/* Drive `name`'s complete steps as points (x: the swept value, y: TPS or
 * p99) into x, y; their count. */
static int drive_points(const res_sweep *w, const char *name, int p99, double *x, double *y)
{
    int n = 0;
    for (int i = 0; i < w->nsteps; i++)
        for (int d = 0; d < w->steps[i].ndrives; d++) {
            const res_sweep_drive *dr = &w->steps[i].drives[d];
            double v = p99 ? dr->lat_p99_ms : dr->tps;
            if (strcmp(dr->name, name) == 0 && dr->complete && isfinite(v)) {
                x[n] = w->steps[i].value;
                y[n++] = v;
            }
        }
    return n;
}

/* Drive k's two charts (name: the drive; knee may be NULL). 0 or -1. */
static int drive_charts(xmlNodePtr body, const res_sweep *w, int k, const char *name,
                        const res_sweep_knee *knee)
{
    double *x = calloc((size_t)w->nsteps + 1, sizeof *x);
    double *y = calloc((size_t)w->nsteps + 1, sizeof *y);
    char id[64], label[128], *title = NULL, mark_label[160];
    svg_mark mark = { 0 };
    int rc = -1;
    if (!x || !y)
        goto cleanup;
    if (knee) {
        snprintf(mark_label, sizeof mark_label, "knee: %s %g", w->key, knee->value);
        mark = (svg_mark){ .x = knee->value, .label = mark_label };
    }
    for (int p99 = 0; p99 <= 1; p99++) {
        svg_series s = { .label = label, .x = x, .y = y, .color = k, .dots = 0 };
        snprintf(label, sizeof label, "%s", name);
        s.n = drive_points(w, name, p99, x, y);
        free(title);
        title = orch_strfmt("%s of drive %s against %s", p99 ? "p99 latency" : "TPS", name,
                            w->key);
        snprintf(id, sizeof id, "sweep-%s-%d", p99 ? "p99" : "tps", k);
        if (!title || !svg_line_chart_mark(body, id, title, w->key,
                                           p99 ? "p99 latency (ms)" : "transactions per second",
                                           &s, 1, knee ? &mark : NULL))
            goto cleanup;
    }
    rc = 0;
cleanup:
    free(title);
    free(x);
    free(y);
    return rc;
}

/* The distinct drive names of the sweep, in order of first appearance. */
static int drive_names(const res_sweep *w, const char **names, int cap)
{
    int n = 0;
    for (int i = 0; i < w->nsteps; i++)
        for (int d = 0; d < w->steps[i].ndrives; d++) {
            int seen = 0;
            for (int j = 0; j < n; j++)
                seen |= strcmp(names[j], w->steps[i].drives[d].name) == 0;
            if (!seen && n < cap)
                names[n++] = w->steps[i].drives[d].name;
        }
    return n;
}

static const res_sweep_knee *knee_of(const res_sweep *w, const char *name)
{
    for (int i = 0; i < w->nknees; i++)
        if (strcmp(w->knees[i].drive, name) == 0)
            return &w->knees[i];
    return NULL;
}

int report_sweep_write(const char *dir, const char *html_path, char **html_out, char *err,
                       size_t errlen)
{
    char *jpath = orch_strfmt("%s/sweep.json", dir);
    char *path = html_path ? strdup(html_path) : orch_strfmt("%s/report.html", dir);
    char *title = NULL;
    const char **names = NULL;
    htmlDocPtr doc = NULL;
    xmlNodePtr body;
    res_sweep w;
    int rc = -1, nnames;

    memset(&w, 0, sizeof w);
    if (!jpath || !path) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (res_sweep_read_file(jpath, &w, err, errlen) != 0) {
        rc = REPORT_BAD_INPUT;
        goto cleanup;
    }
    names = calloc((size_t)(w.nsteps ? w.nsteps : 1) * 64, sizeof *names);
    title = orch_strfmt("drivebench sweep %s: %s against %s", w.run_id, "TPS and p99", w.key);
    doc = title ? html_page(title, sweep_css, &body) : NULL;
    if (!names || !doc) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    html_attr(html_add(body, "p", "Each step is a run of its own (its folder holds its summary, "
        "verdicts and report). A drive's knee is the first step whose TPS reaches 95 % of the "
        "drive's highest over its complete steps: beyond it more load buys less than the last "
        "5 %. Incomplete steps (a VM failed) are listed, not drawn."), "class", "note");
    steps_table(body, &w);
    nnames = drive_names(&w, names, w.nsteps * 64);
    for (int k = 0; k < nnames; k++) {
        xmlNodePtr sec = html_add(body, "section", NULL);
        char *h = orch_strfmt("Drive %s", names[k]);
        html_attr(sec, "id", "sweep-drive");
        html_attr(sec, "data-drive", names[k]);
        html_add(sec, "h2", h ? h : names[k]);
        free(h);
        if (drive_charts(sec, &w, k, names[k], knee_of(&w, names[k])) < 0) {
            snprintf(err, errlen, "out of memory");
            goto cleanup;
        }
    }
    if (html_write_doc(doc, path, err, errlen) < 0)
        goto cleanup;
    rc = 0;
    if (html_out) {
        *html_out = path;
        path = NULL;
    }
cleanup:
    if (doc)
        xmlFreeDoc(doc);
    res_sweep_clear(&w);
    free(names);
    free(title);
    free(jpath);
    free(path);
    return rc;
}
