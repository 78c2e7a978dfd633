/* report_html.c — the report page: one HTML document built with libxml2's
 * tree API (every name and number goes into a text node or an attribute,
 * escaped on output), styled inline, charts as inline SVG (svg.h). No
 * script, no external resource. Reads the report's model (report.h) only. */
#include "report/report_html.h"
#include "report/drive_io.h"
#include "report/html.h"
#include "util/names.h"
#include "report/svg.h"

#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char page_css[] =
    "body{font-family:'DejaVu Sans',sans-serif;margin:24px;color:#222;background:#fff;"
    "max-width:1200px}"
    "h1{font-size:24px}h2{font-size:19px;margin-top:32px;border-bottom:1px solid #ccc}"
    "h3{font-size:15px}"
    "table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f0f0f0}tr.flagged td{background:#fff0e0}"
    ".flag{color:#b00;font-weight:bold}"
    "svg.chart{display:block;width:100%;max-width:960px;margin:8px 0 20px}"
    "svg .chart-title{font-size:15px;font-weight:bold}"
    "svg text{font-size:12px;fill:#222}svg .value.inside{fill:#fff;font-weight:bold}"
    "svg .grid{stroke:#e3e3e3}svg .axis{stroke:#888}"
    "svg .hatch{stroke:#fff;stroke-width:3;stroke-opacity:.6}"
    "svg .label.flagged{fill:#b00}"
    "svg polyline.series{fill:none;stroke-width:1.8}svg .legend-line{stroke-width:3}"
    "pre{background:#f6f6f6;padding:8px;font-size:12px;overflow-x:auto}"
    "p.note{font-size:13px;color:#555}"
    ".banner{border:2px solid #b00;background:#fff0f0;color:#900;padding:8px 12px;"
    "margin:12px 0;font-weight:bold}"
    "tr.failed td{background:#ffe6e6;color:#a00}tr.incomplete td{background:#eee;color:#666}"
    "td.incomplete,span.incomplete{color:#666;font-style:italic}"
    "svg .value.incomplete{fill:#555;font-style:italic}"
    "div.failure{border-left:4px solid #c00;padding-left:12px;margin:12px 0}"
    "div.failure h3{color:#b00}pre.console{background:#fff4f4;border:1px solid #e0b0b0}"
    ".swatch{display:inline-block;width:12px;height:12px;margin-left:12px;"
    "vertical-align:middle}";

/* Writer state: the document and the set it shows. */
typedef struct page {
    const report_set *s;
    xmlNodePtr        body;
    int               multi;        /* several runs: labels name the run */
} page;

/* "nvme-a" or, with several runs, "nvme-a [B]". Caller frees. */
static char *drive_label(const page *pg, const report_run *run, const char *name)
{
    return pg->multi ? orch_strfmt("%s [%s]", name, run->label) : strdup(name);
}

/* A number shown with `decimals` decimals. */
static const char *shown(double v, int decimals, char *buf, size_t len)
{
    snprintf(buf, len, "%.*f", decimals, v);
    return buf;
}

static xmlNodePtr cell(xmlNodePtr tr, const char *text)
{
    return html_add(tr, "td", text);
}

/* A numeric cell: shown rounded, the exact figure in data-value, the
 * column's key in data-key. */
static void num_cell(xmlNodePtr tr, const char *key, const char *exact, double v, int decimals)
{
    char buf[64];
    xmlNodePtr td = cell(tr, exact[0] ? shown(v, decimals, buf, sizeof buf) : "");
    html_attr(td, "class", "num");
    html_attr(td, "data-key", key);
    html_attr(td, "data-value", exact);
}

static void num_cell_v(xmlNodePtr tr, const char *key, double v, int decimals)
{
    char exact[64];
    num_cell(tr, key, report_num(v, exact, sizeof exact), v, decimals);
}

/* The latency cells of a figures row: avg, p99, mean of VMs' p99. */
static void latency_cells(xmlNodePtr tr, const res_figures *f)
{
    num_cell_v(tr, "latency_avg_ms", f->lat_avg_ms, 3);
    num_cell_v(tr, "latency_p99_ms", f->lat_p99_ms, 3);
    num_cell_v(tr, "latency_p99_mean_of_vms_ms", f->lat_p99_mean_of_vms_ms, 3);
}

/* An integer as text into buf ("" when RES_UNSET). Returns buf. */
static const char *int_text(int64_t v, char *buf, size_t len)
{
    if (v == RES_UNSET)
        buf[0] = '\0';
    else
        snprintf(buf, len, "%" PRId64, v);
    return buf;
}

static void kv(xmlNodePtr tb, const char *key, const char *value);

/* A row identified by run label and drive (data-run, data-drive). */
static xmlNodePtr row(xmlNodePtr tbody, const report_run *run, const char *drive)
{
    xmlNodePtr tr = html_add(tbody, "tr", NULL);
    html_attr(tr, "data-run", run->label);
    if (drive)
        html_attr(tr, "data-drive", drive);
    return tr;
}

/* A <section id=id> with its heading and, when given, a note under it. */
static xmlNodePtr section_new(page *pg, const char *id, const char *title, const char *note)
{
    xmlNodePtr sec = html_add(pg->body, "section", NULL);
    html_attr(sec, "id", id);
    html_add(sec, "h2", title);
    if (note)
        html_attr(html_add(sec, "p", note), "class", "note");
    return sec;
}

/* A red banner per run that did not complete cleanly: partial, or
 * completed with failed VMs. */
static void banners(page *pg)
{
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        const res_summary *sum = &run->sum;
        xmlNodePtr div;
        char *text;
        int failed = 0;
        if (sum->status == RES_RUN_COMPLETE)
            continue;
        for (int v = 0; v < run->nvms; v++)
            failed += run->vms[v].failed;
        text = sum->status == RES_RUN_PARTIAL
            ? orch_strfmt("Run %s (%s) is partial: it stopped early, and its figures cover only "
                          "what the finished phases measured. %d VM run(s) failed; their "
                          "drives' figures are incomplete and not comparable.", run->label,
                          run->run_id, failed)
            : orch_strfmt("Run %s (%s) completed with failures: %d VM run(s) failed and are "
                          "left out of every figure; their drives' figures are incomplete and "
                          "not comparable. See \"Failed VMs\".", run->label, run->run_id, failed);
        div = html_add(pg->body, "div", text ? text : "run did not complete");
        html_attr(div, "class", "banner");
        html_attr(div, "data-run", run->label);
        html_attr(div, "data-status", res_run_status_name(sum->status));
        free(text);
    }
}

static void section_runs(page *pg)
{
    static const char *const heads[] = { "run", "run id", "plan", "workload", "VMs",
                                         "drives", "repetitions", "started", "finished",
                                         "status", NULL };
    xmlNodePtr tb = html_table(section_new(pg, "runs", "Runs", NULL), "run-table", heads);
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        const res_summary *sum = &run->sum;
        xmlNodePtr tr = row(tb, run, NULL);
        cell(tr, run->label);
        cell(tr, run->run_id);
        cell(tr, sum->plan.name ? sum->plan.name : "");
        cell(tr, sum->plan.workload ? sum->plan.workload : "");
        num_cell_v(tr, "vms", sum->run.vms, 0);
        num_cell_v(tr, "drives", sum->run_drives, 0);
        num_cell_v(tr, "repetitions", sum->repetitions, 0);
        cell(tr, sum->started_at ? sum->started_at : "");
        cell(tr, sum->finished_at ? sum->finished_at : "");
        html_attr(cell(tr, res_run_status_name(sum->status)), "data-key", "status");
        if (sum->status != RES_RUN_COMPLETE)
            html_attr(tr, "class", "failed");
    }
}

/* "complete", or the note of an incomplete drive with its failed VMs;
 * marks the row. */
static void status_cell(xmlNodePtr tr, const report_drive *dr)
{
    char text[128];
    xmlNodePtr td;
    if (dr->incomplete)
        snprintf(text, sizeof text, SVG_INCOMPLETE " (%d VM run%s failed)", dr->failed_vms,
                 dr->failed_vms == 1 ? "" : "s");
    td = cell(tr, dr->incomplete ? text : "complete");
    html_attr(td, "data-key", "status");
    html_attr(td, "data-value", dr->incomplete ? "incomplete" : "complete");
    if (dr->incomplete) {
        html_attr(td, "class", "incomplete");
        html_attr(tr, "class", "incomplete");
    }
}

/* The bars of a chart with the text they borrow: labels (owned, may stay
 * NULL), exact values and shown values. */
typedef struct bar_set {
    svg_bar *bars;
    char   (*texts)[64], (*exact)[64];
    char   **labels;
    int      n;
} bar_set;

static void bar_set_free(bar_set *b)
{
    for (int i = 0; b->labels && i < b->n; i++)
        free(b->labels[i]);
    free(b->labels);
    free(b->texts);
    free(b->exact);
    free(b->bars);
}

/* Room for n bars. 0, or -1 when out of memory (then bar_set_free). */
static int bar_set_init(bar_set *b, int n)
{
    size_t m = n > 0 ? (size_t)n : 1;
    b->n = n;
    b->bars = calloc(m, sizeof *b->bars);
    b->texts = calloc(m, sizeof *b->texts);
    b->exact = calloc(m, sizeof *b->exact);
    b->labels = calloc(m, sizeof *b->labels);
    return b->bars && b->texts && b->exact && b->labels ? 0 : -1;
}

/* Bar k's value, its exact text and its text shown with `decimals`. */
static void bar_set_value(bar_set *b, int k, double v, int decimals)
{
    b->bars[k].value = v;
    b->bars[k].value_exact = report_num(v, b->exact[k], sizeof b->exact[k]);
    b->bars[k].value_text = shown(v, decimals, b->texts[k], sizeof b->texts[k]);
}

/* The three per-drive bar charts. */
static int drive_charts(page *pg, xmlNodePtr sec)
{
    enum { TPS, LAT_AVG, LAT_P99 };
    static const struct {
        const char *id, *title;
        int figure, desc, decimals;
    } metrics[] = {
        { "chart-tps", "Average TPS (transactions/s, higher is better)", TPS, 1, 2 },
        { "chart-latency-avg", "Average latency (ms, lower is better)", LAT_AVG, 0, 3 },
        { "chart-latency-p99", "99th-percentile latency (ms, lower is better)", LAT_P99, 0, 3 },
    };
    int n = 0, k, rc = -1;
    bar_set b = { 0 };

    for (int r = 0; r < pg->s->nruns; r++)
        n += pg->s->runs[r].ndrives;
    if (bar_set_init(&b, n) < 0)
        goto cleanup;
    for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++) {
        k = 0;
        for (int r = 0; r < pg->s->nruns; r++)
            for (int d = 0; d < pg->s->runs[r].ndrives; d++, k++) {
                const report_run *run = &pg->s->runs[r];
                const report_drive *dr = &run->drives[d];
                const res_figures *f = &dr->d->f;
                if (!b.labels[k] && !(b.labels[k] = drive_label(pg, run, dr->name)))
                    goto cleanup;
                b.bars[k].label = b.labels[k];
                bar_set_value(&b, k, metrics[m].figure == TPS ? f->tps
                              : metrics[m].figure == LAT_AVG ? f->lat_avg_ms : f->lat_p99_ms,
                              metrics[m].decimals);
                b.bars[k].color = r;
                b.bars[k].flagged = dr->flagged;
                b.bars[k].incomplete = dr->incomplete;
            }
        if (!svg_bar_chart(sec, metrics[m].id, metrics[m].title, b.bars, n, metrics[m].desc))
            goto cleanup;
    }
    rc = 0;
cleanup:
    bar_set_free(&b);
    return rc;
}

static int section_drives(page *pg)
{
    static const char *const heads[] = { "run", "drive", "VMs", "TPS", "transactions",
                                         "avg latency (ms)", "p99 latency (ms)",
                                         "mean of VMs' p99 (ms)", "status", NULL };
    xmlNodePtr tb, sec = section_new(pg, "drives", "Per drive",
        "Per drive: TPS is the sum of its VMs' (the mean over repetitions); latencies come "
        "from all its VMs' merged histograms. A drive marked (!) varies more across "
        "repetitions than its plan's cv_threshold. A grey, hatched drive is incomplete: one "
        "of its VMs failed, so its figures cover the others only and are not comparable.");
    if (pg->multi) {            /* which colour is which run */
        xmlNodePtr p = html_add(sec, "p", NULL);
        html_attr(p, "class", "legend");
        for (int r = 0; r < pg->s->nruns; r++) {
            char *style = orch_strfmt("background:%s", svg_color(r));
            char *text = orch_strfmt(" [%s] %s ", pg->s->runs[r].label, pg->s->runs[r].run_id);
            html_attr(html_add(p, "span", NULL), "class", "swatch");
            html_attr(p->last, "style", style ? style : "");
            xmlNodeAddContent(p, BAD_CAST (text ? text : ""));
            free(style);
            free(text);
        }
    }
    if (drive_charts(pg, sec) < 0)
        return -1;
    tb = html_table(sec, "drive-table", heads);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++) {
            const report_run *run = &pg->s->runs[r];
            const report_drive *dr = &run->drives[d];
            xmlNodePtr tr = row(tb, run, dr->name);
            cell(tr, run->label);
            cell(tr, dr->name);
            num_cell_v(tr, "vms", dr->d->f.vms, 0);
            num_cell_v(tr, "tps", dr->d->f.tps, 2);
            num_cell_v(tr, "transactions", (double)dr->d->f.transactions, 0);
            latency_cells(tr, &dr->d->f);
            status_cell(tr, dr);
        }
    return 0;
}

/* The figures of a drive or a whole run in a scaling row: VMs, TPS in
 * all and per VM, latencies, and the ratio. */
static void scaling_cells(xmlNodePtr tr, const res_figures *f, const report_run *base,
                          int base_vms, double ratio)
{
    int vms = f->vms;
    char buf[64];
    xmlNodePtr td;
    num_cell_v(tr, "vms", vms, 0);
    num_cell_v(tr, "tps", f->tps, 2);
    num_cell_v(tr, "tps_per_vm", vms ? f->tps / vms : 0, 2);
    latency_cells(tr, f);
    if (!base) {                /* failed VMs: no ratio */
        html_attr(tr, "class", "incomplete");
        cell(tr, "");
        td = cell(tr, SVG_INCOMPLETE);
        html_attr(td, "class", "incomplete");
        html_attr(td, "data-key", "scaling_ratio");
        html_attr(td, "data-value", "");
        return;
    }
    snprintf(buf, sizeof buf, "%d / %d (%s)", vms, base_vms, base->label);
    cell(tr, buf);
    num_cell_v(tr, "scaling_ratio", ratio, 3);
}

/* Whether a drive of that name is in another run than r. */
static int in_other_run(const report_set *s, int r, const char *name)
{
    for (int i = 0; i < s->nruns; i++)
        for (int k = 0; i != r && k < s->runs[i].ndrives; k++)
            if (strcmp(s->runs[i].drives[k].name, name) == 0)
                return 1;
    return 0;
}

/* Several runs: each run's aggregate against the run with the fewest VMs
 * (8 VMs on 8 drives vs 4 VMs on 1 drive), then each drive present in
 * several runs against the run with the fewest VMs on it. */
static void section_scaling(page *pg)
{
    static const char *const run_heads[] = { "run", "VMs", "TPS (all VMs)", "TPS per VM",
                                             "avg latency (ms)", "p99 latency (ms)",
                                             "mean of VMs' p99 (ms)", "VMs vs base",
                                             "scaling ratio (TPS vs base)", NULL };
    static const char *const drive_heads[] = { "drive", "run", "VMs", "TPS (all VMs)",
                                               "TPS per VM", "avg latency (ms)",
                                               "p99 latency (ms)", "mean of VMs' p99 (ms)",
                                               "VMs vs base", "scaling ratio (TPS vs base)",
                                               NULL };
    xmlNodePtr sec, tb = NULL;
    if (!pg->multi)
        return;
    sec = section_new(pg, "scaling", "Scaling across runs",
        "Whole runs, then the same drive in several runs (e.g. 4 VMs and 8 VMs). The base "
        "is the run with the fewest VMs (on that drive); the scaling ratio is TPS over the "
        "base's TPS. A run or drive with failed VMs is not comparable: it has no ratio and "
        "is never the base.");
    tb = html_table(sec, "run-scaling-table", run_heads);
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        int br;
        double ratio = report_run_scaling(pg->s, r, &br);
        xmlNodePtr tr = row(tb, run, NULL);
        cell(tr, run->label);
        scaling_cells(tr, &run->sum.run, br >= 0 ? &pg->s->runs[br] : NULL,
                      br >= 0 ? pg->s->runs[br].sum.run.vms : 0, ratio);
    }
    tb = NULL;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++) {
            const report_run *run = &pg->s->runs[r];
            const report_drive *dr = &run->drives[d];
            int br, bd;
            double ratio = report_scaling(pg->s, r, d, &br, &bd);
            xmlNodePtr tr;
            if (br < 0 && !(dr->incomplete && in_other_run(pg->s, r, dr->name)))
                continue;
            if (!tb)
                tb = html_table(sec, "scaling-table", drive_heads);
            tr = row(tb, run, dr->name);
            cell(tr, dr->name);
            cell(tr, run->label);
            scaling_cells(tr, &dr->d->f, br >= 0 ? &pg->s->runs[br] : NULL,
                          br >= 0 ? pg->s->runs[br].drives[bd].vms : 0, ratio);
        }
}

static void spread_cells(xmlNodePtr tr, const char *key, const report_spread *sp, int decimals)
{
    char k[64];
    if (sp->n == 0) {           /* no complete repetition: nothing comparable */
        static const char *const sfx[] = { "mean", "min", "max", "cv_pct" };
        for (int i = 0; i < 4; i++) {
            snprintf(k, sizeof k, "%s_%s", key, sfx[i]);
            num_cell(tr, k, "", 0, 0);
        }
        return;
    }
    snprintf(k, sizeof k, "%s_mean", key);
    num_cell_v(tr, k, sp->mean, decimals);
    snprintf(k, sizeof k, "%s_min", key);
    num_cell_v(tr, k, sp->min, decimals);
    snprintf(k, sizeof k, "%s_max", key);
    num_cell_v(tr, k, sp->max, decimals);
    snprintf(k, sizeof k, "%s_cv_pct", key);
    num_cell_v(tr, k, sp->cv, 2);
}

static void section_repetitions(page *pg)
{
    static const char *const heads[] = { "run", "drive", "repetitions", "TPS mean", "TPS min",
                                         "TPS max", "TPS CV (%)", "p99 mean (ms)", "p99 min (ms)",
                                         "p99 max (ms)", "p99 CV (%)", "CV threshold (%)",
                                         "flag", NULL };
    xmlNodePtr tb = html_table(section_new(pg, "repetitions", "Repetitions",
        "Spread of each drive's TPS and p99 latency over the plan's repetitions: CV is the "
        "sample standard deviation over the mean. A drive is flagged when either CV exceeds "
        "the plan's cv_threshold. Repetitions in which a VM failed are left out of the "
        "spread (not comparable)."), "repetition-table", heads);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++) {
            const report_run *run = &pg->s->runs[r];
            const report_drive *dr = &run->drives[d];
            xmlNodePtr tr = row(tb, run, dr->name), td;
            char buf[32];
            if (dr->flagged)
                html_attr(tr, "class", "flagged");
            cell(tr, run->label);
            cell(tr, dr->name);
            snprintf(buf, sizeof buf, "%d", dr->d->nreps);
            cell(tr, buf);
            spread_cells(tr, "tps", &dr->tps_spread, 2);
            spread_cells(tr, "p99", &dr->p99_spread, 3);
            num_cell_v(tr, "cv_threshold_pct", run->cv_threshold, 2);
            td = cell(tr, dr->flagged ? "CV above threshold" : "");
            html_attr(td, "data-key", "flag");
            html_attr(td, "data-value", dr->flagged ? "1" : "0");
            if (dr->flagged)
                html_attr(td, "class", "flag");
            if (dr->incomplete) {
                char *note = orch_strfmt("%s: %d of %d repetition(s) left out",
                                         SVG_INCOMPLETE, dr->d->nreps - dr->tps_spread.n,
                                         dr->d->nreps);
                html_attr(tr, "class", "incomplete");
                html_attr(html_add(td, "span", note ? note : SVG_INCOMPLETE), "class", "incomplete");
                free(note);
            }
        }
}

/* One drive's TPC-C figures: a line with tpmC and NOPM, the table of its
 * transaction types and a chart of their p90 latencies. */
static int tpcc_drive(page *pg, xmlNodePtr sec, const report_run *run, const report_drive *dr,
                      int k)
{
    static const char *const heads[] = { "transaction type", "count", "rollbacks",
                                         "avg latency (ms)", "p90 latency (ms)",
                                         "p99 latency (ms)", "p90 limit (ms)", "p90 limit held",
                                         NULL };
    const res_tpcc_figures *t = dr->d->f.tpcc;
    char id[48], *label = drive_label(pg, run, dr->name), *h3 = NULL, *title = NULL, nopm[64];
    xmlNodePtr tb, p;
    bar_set b = { 0 };
    int rc = -1;

    if (bar_set_init(&b, t->ntypes) < 0 || !label)
        goto cleanup;
    snprintf(nopm, sizeof nopm, "%.2f", t->nopm);
    h3 = orch_strfmt("%s: tpmC %.2f, NOPM %s, p90 limits %s", label, t->tpmc,
                     t->has_nopm ? nopm : "not counted", t->p90_limits_met ? "held" : "NOT held");
    html_add(sec, "h3", h3 ? h3 : label);
    if (dr->incomplete) {
        p = html_add(sec, "p", SVG_INCOMPLETE ": a VM of this drive failed; these figures cover the "
                "others only.");
        html_attr(p, "class", "note incomplete");
    }
    snprintf(id, sizeof id, "tpcc-table-%d", k);
    tb = html_table(sec, id, heads);
    html_attr(tb->parent, "data-run", run->label);
    html_attr(tb->parent, "data-drive", dr->name);
    for (int i = 0; i < t->ntypes; i++) {
        const res_tpcc_type *x = &t->types[i];
        xmlNodePtr tr = row(tb, run, dr->name), td;
        html_attr(tr, "data-type", x->name);
        cell(tr, x->name);
        num_cell_v(tr, "count", (double)x->count, 0);
        num_cell_v(tr, "rollbacks", (double)x->rollbacks, 0);
        num_cell_v(tr, "latency_avg_ms", x->lat_avg_ms, 3);
        num_cell_v(tr, "latency_p90_ms", x->lat_p90_ms, 3);
        num_cell_v(tr, "latency_p99_ms", x->lat_p99_ms, 3);
        num_cell_v(tr, "p90_limit_ms", x->p90_limit_ms, 0);
        td = cell(tr, x->p90_met ? "yes" : "NO");
        html_attr(td, "data-key", "p90_met");
        html_attr(td, "data-value", x->p90_met ? "1" : "0");
        if (!x->p90_met)
            html_attr(td, "class", "flag");
        b.bars[i].label = x->name;
        bar_set_value(&b, i, x->lat_p90_ms, 3);
        b.bars[i].color = i;
        b.bars[i].incomplete = dr->incomplete;
    }
    snprintf(id, sizeof id, "chart-tpcc-%d", k);
    title = orch_strfmt("%s: 90th-percentile latency per transaction type (ms, lower is better)",
                        label);
    if (title && svg_bar_chart(sec, id, title, b.bars, t->ntypes, 0))
        rc = 0;
cleanup:
    bar_set_free(&b);
    free(label);
    free(h3);
    free(title);
    return rc;
}

/* TPC-C runs: per drive, tpmC and NOPM in a table and a chart, then each
 * drive's transaction types. Nothing when no run has TPC-C figures. */
static int section_tpcc(page *pg)
{
    static const char *const heads[] = { "run", "drive", "tpmC", "NOPM", "rollbacks",
                                         "p90 limits held", "status", NULL };
    xmlNodePtr sec = NULL, tb = NULL;
    bar_set b = { 0 };
    int n = 0, k = 0, rc = -1;

    for (int r = 0; r < pg->s->nruns; r++)
        n += pg->s->runs[r].ndrives;
    if (bar_set_init(&b, n) < 0)
        goto cleanup;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++) {
            const report_run *run = &pg->s->runs[r];
            const report_drive *dr = &run->drives[d];
            const res_tpcc_figures *t = dr->d->f.tpcc;
            xmlNodePtr tr, td;
            if (!t)
                continue;
            if (!sec) {
                sec = section_new(pg, "tpcc", "TPC-C",
                    "Per drive, merged over its VMs: tpmC (New-Orders per minute, rolled back "
                    "ones included) and NOPM (New-Orders the servers counted, per minute) are "
                    "the sums of its VMs' (the mean over repetitions); each transaction type's "
                    "latencies come from its histograms of all the drive's VMs merged, and "
                    "the 90th-percentile limits of the specification (clause 5.2.5.3) are "
                    "checked on those.");
                tb = html_table(sec, "tpcc-drive-table", heads);
            }
            tr = row(tb, run, dr->name);
            cell(tr, run->label);
            cell(tr, dr->name);
            num_cell_v(tr, "tpmC", t->tpmc, 2);
            if (t->has_nopm)
                num_cell_v(tr, "NOPM", t->nopm, 2);
            else
                cell(tr, "not counted");
            num_cell_v(tr, "rollbacks", (double)t->rollbacks, 0);
            td = cell(tr, t->p90_limits_met ? "yes" : "NO");
            html_attr(td, "data-key", "p90_limits_met");
            html_attr(td, "data-value", t->p90_limits_met ? "1" : "0");
            status_cell(tr, dr);
            if (!(b.labels[k] = drive_label(pg, run, dr->name)))
                goto cleanup;
            b.bars[k].label = b.labels[k];
            bar_set_value(&b, k, t->tpmc, 2);
            b.bars[k].color = r;
            b.bars[k].incomplete = dr->incomplete;
            k++;
        }
    if (sec && !svg_bar_chart(sec, "chart-tpmc", "tpmC per drive (New-Orders per minute, "
                              "higher is better)", b.bars, k, 1))
        goto cleanup;
    k = 0;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++)
            if (pg->s->runs[r].drives[d].d->f.tpcc
                && tpcc_drive(pg, sec, &pg->s->runs[r], &pg->s->runs[r].drives[d], ++k) < 0)
                goto cleanup;
    rc = 0;
cleanup:
    bar_set_free(&b);
    return rc;
}

/* "drive" with the repetition when the run has several. Caller frees. */
static char *series_label(const page *pg, const report_run *run, const char *name, int rep)
{
    if (run->repetitions > 1)
        return pg->multi ? orch_strfmt("%s [%s] r%d", name, run->label, rep)
                         : orch_strfmt("%s r%d", name, rep);
    return drive_label(pg, run, name);
}

/* Per drive and repetition: the sum of its VMs' interval tps, aligned by
 * interval index. Series labels and arrays are freed by the caller. */
static int time_chart_drives(page *pg, xmlNodePtr sec)
{
    int cap = 0, n = 0, rc = -1;
    svg_series *ss = NULL;

    for (int r = 0; r < pg->s->nruns; r++)
        cap += pg->s->runs[r].ndrives * (pg->s->runs[r].repetitions > 0
                                         ? pg->s->runs[r].repetitions : 1);
    ss = calloc(cap ? (size_t)cap : 1, sizeof *ss);
    if (!ss)
        return -1;
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        int reps = run->repetitions > 0 ? run->repetitions : 1;
        for (int d = 0; d < run->ndrives; d++)
            for (int rep = 1; rep <= reps && n < cap; rep++) {
                svg_series *s = &ss[n];
                double *x = NULL, *y = NULL;
                int len = -1;
                for (int v = 0; v < run->nvms; v++)    /* failed VMs: in no sum */
                    if (run->vms[v].repetition == rep && !run->vms[v].failed
                        && strcmp(run->vms[v].drive, run->drives[d].name) == 0)
                        len = len < 0 || run->vms[v].npoints < len ? run->vms[v].npoints : len;
                if (len <= 0)
                    continue;
                x = calloc((size_t)len, sizeof *x);
                y = calloc((size_t)len, sizeof *y);
                s->label = series_label(pg, run, run->drives[d].name, rep);
                s->x = x;
                s->y = y;
                n++;
                if (!x || !y || !s->label)
                    goto cleanup;
                for (int v = 0; v < run->nvms; v++)
                    if (run->vms[v].repetition == rep && !run->vms[v].failed
                        && strcmp(run->vms[v].drive, run->drives[d].name) == 0)
                        for (int i = 0; i < len; i++) {
                            x[i] = run->vms[v].series[i].t;
                            y[i] += run->vms[v].series[i].tps;
                        }
                s->n = len;
                s->color = n - 1;
            }
    }
    if (svg_line_chart(sec, "chart-tps-time-drive", "TPS over time per drive (transactions/s)",
                       "seconds since the start of the measured run", "TPS", ss, n))
        rc = 0;
cleanup:
    for (int i = 0; i < n; i++) {
        free((char *)ss[i].label);
        free((double *)ss[i].x);
        free((double *)ss[i].y);
    }
    free(ss);
    return rc;
}

/* "vm3" for "drivebench-<run>--<drive>-vm3" (the chart names the drive);
 * the whole name when it is not of that form. */
static const char *vm_short(const char *name)
{
    const char *dash = strrchr(name, '-');
    return dash && strncmp(dash + 1, "vm", 2) == 0 ? dash + 1 : name;
}

/* One chart per drive and run: a line per VM (and repetition). */
static int time_chart_vms(page *pg, xmlNodePtr sec, const report_run *run, int d, int chart_no)
{
    svg_series *ss = calloc(run->nvms ? (size_t)run->nvms : 1, sizeof *ss);
    double *xy = NULL;
    char id[48], *title = NULL;
    int n = 0, rc = -1;

    int npoints = 0;
    if (!ss)
        return -1;
    for (int v = 0; v < run->nvms; v++)
        npoints += run->vms[v].npoints;
    xy = calloc(2 * (size_t)npoints + 1, sizeof *xy);   /* the series as x[] and y[] */
    if (!xy)
        goto cleanup;
    npoints = 0;
    for (int v = 0; v < run->nvms; v++) {
        const res_vm *vm = &run->vms[v];
        double *x = xy + 2 * npoints, *y = x + vm->npoints;
        if (strcmp(vm->drive, run->drives[d].name) != 0 || vm->npoints == 0)
            continue;
        ss[n].label = run->repetitions > 1
                      ? orch_strfmt("%s r%d", vm_short(vm->name), vm->repetition)
                      : strdup(vm_short(vm->name));
        for (int i = 0; i < vm->npoints; i++) {
            x[i] = vm->series[i].t;
            y[i] = vm->series[i].tps;
        }
        npoints += vm->npoints;
        ss[n].x = x;
        ss[n].y = y;
        ss[n].n = vm->npoints;
        ss[n].color = n;
        if (!ss[n++].label)
            goto cleanup;
    }
    title = pg->multi ? orch_strfmt("TPS over time per VM, drive %s, run %s (transactions/s)",
                                    run->drives[d].name, run->label)
                      : orch_strfmt("TPS over time per VM, drive %s (transactions/s)",
                                    run->drives[d].name);
    snprintf(id, sizeof id, "chart-tps-time-vm-%d", chart_no);
    if (title && svg_line_chart(sec, id, title, "seconds since the start of the measured run",
                                "TPS", ss, n))
        rc = 0;
cleanup:
    for (int i = 0; i < n; i++)
        free((char *)ss[i].label);
    free(ss);
    free(xy);
    free(title);
    return rc;
}

static int section_time(page *pg)
{
    xmlNodePtr sec = section_new(pg, "time", "TPS over time",
        "From the interval samples of each VM's measured run (oltp --report-interval).");
    int k = 0;
    if (time_chart_drives(pg, sec) < 0)
        return -1;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++)
            if (time_chart_vms(pg, sec, &pg->s->runs[r], d, ++k) < 0)
                return -1;
    return 0;
}

static void section_vms(page *pg)
{
    static const char *const heads[] = { "run", "VM", "drive", "repetition", "TPS",
                                         "transactions", "avg latency (ms)", "p99 latency (ms)",
                                         "errors", "reconnects", "database server", "status",
                                         NULL };
    xmlNodePtr tb = html_table(section_new(pg, "vms", "Per VM",
        "A failed VM (red) is in no figure; what it measured before the fault, if anything, "
        "is shown here only."), "vm-table", heads);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int v = 0; v < pg->s->runs[r].nvms; v++) {
            const report_run *run = &pg->s->runs[r];
            const res_vm *vm = &run->vms[v];
            xmlNodePtr tr = row(tb, run, vm->drive);
            char buf[32];
            html_attr(tr, "data-vm", vm->name);
            cell(tr, run->label);
            cell(tr, vm->name);
            cell(tr, vm->drive);
            snprintf(buf, sizeof buf, "%d", vm->repetition);
            cell(tr, buf);
            num_cell_v(tr, "tps", vm->tps, 2);
            num_cell_v(tr, "transactions", (double)vm->transactions, 0);
            num_cell_v(tr, "latency_avg_ms", vm->lat_avg_ms, 3);
            num_cell_v(tr, "latency_p99_ms", vm->lat_p99_ms, 3);
            if (vm->errors != RES_UNSET)
                num_cell_v(tr, "errors", (double)vm->errors, 0);
            else
                cell(tr, "not recorded");
            if (vm->reconnects != RES_UNSET)
                num_cell_v(tr, "reconnects", (double)vm->reconnects, 0);
            else
                cell(tr, "not recorded");
            cell(tr, vm->server_version ? vm->server_version : "");
            if (vm->failed) {
                char *text = orch_strfmt("failed: %s", vm->fault ? vm->fault : "?");
                html_attr(tr, "class", "failed");
                html_attr(cell(tr, text ? text : "failed"), "data-key", "status");
                free(text);
            } else {
                html_attr(cell(tr, "ok"), "data-key", "status");
            }
        }
}

/* Each failed VM: fault, reason, time and phase, and its console's last
 * lines (text in a <pre>: escaped like every text node). */
static void section_failures(page *pg)
{
    xmlNodePtr sec = NULL;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int v = 0; v < pg->s->runs[r].nvms; v++) {
            const report_run *run = &pg->s->runs[r];
            const res_vm *vm = &run->vms[v];
            xmlNodePtr div, tb;
            char rep[32], *h3;
            if (!vm->failed)
                continue;
            if (!sec)
                sec = section_new(pg, "failures", "Failed VMs",
                    "VMs that failed: each is left out of every figure, and its drive's "
                    "figures are incomplete and not comparable.");
            div = html_add(sec, "div", NULL);
            html_attr(div, "class", "failure");
            html_attr(div, "data-run", run->label);
            html_attr(div, "data-vm", vm->name);
            h3 = pg->multi ? orch_strfmt("%s [%s] failed", vm->name, run->label)
                           : orch_strfmt("%s failed", vm->name);
            html_add(div, "h3", h3 ? h3 : vm->name);
            free(h3);
            tb = html_add(div, "table", NULL);
            html_attr(tb, "class", "failure");
            kv(tb, "drive", vm->drive);
            snprintf(rep, sizeof rep, "%d", vm->repetition);
            kv(tb, "repetition", rep);
            kv(tb, "fault", vm->fault);
            kv(tb, "reason", vm->reason);
            kv(tb, "failed at", vm->failed_at);
            kv(tb, "phase", vm->failed_in);
            html_add(div, "h4", "console (last lines)");
            html_attr(html_add(div, "pre", vm->console_tail && *vm->console_tail ? vm->console_tail
                                                                        : "not recorded"),
                 "class", "console");
        }
}

/* A two-column table of (name, value) rows; a missing value reads "not
 * recorded". */
static void kv(xmlNodePtr tb, const char *key, const char *value)
{
    xmlNodePtr tr = html_add(tb, "tr", NULL);
    html_add(tr, "th", key);
    cell(tr, value && *value ? value : "not recorded");
}

/* Distinct database server versions of a run's VMs, comma-separated.
 * Caller frees. */
static char *guest_versions(const report_run *run)
{
    char *out = strdup("");
    for (int v = 0; out && v < run->nvms; v++) {
        const char *ver = run->vms[v].server_version;
        char *next;
        int seen = 0;
        for (int k = 0; ver && k < v && !seen; k++)
            seen = run->vms[k].server_version && strcmp(run->vms[k].server_version, ver) == 0;
        if (seen || !ver || !*ver)
            continue;
        next = orch_strfmt("%s%s%s", out, *out ? ", " : "", ver);
        free(out);
        out = next;
    }
    return out;
}

static void section_environment(page *pg)
{
    xmlNodePtr sec = section_new(pg, "environment", "Environment", NULL);
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        const res_env *env = &run->sum.env;
        xmlNodePtr tb;
        char buf[64], *h3 = orch_strfmt("Run %s: %s", run->label, run->run_id), *ver;
        html_add(sec, "h3", h3 ? h3 : run->run_id);
        free(h3);
        tb = html_add(sec, "table", NULL);
        html_attr(tb, "class", "environment");
        html_attr(tb, "data-run", run->label);
        kv(tb, "host", env->hostname);
        kv(tb, "kernel", env->kernel);
        kv(tb, "CPU", env->cpu_model);
        kv(tb, "CPUs", int_text(env->cpus, buf, sizeof buf));
        if (env->memory_bytes != RES_UNSET) {
            snprintf(buf, sizeof buf, "%.1f GiB (%" PRId64 " bytes)",
                     (double)env->memory_bytes / (1024.0 * 1024 * 1024), env->memory_bytes);
            kv(tb, "memory", buf);
        } else {
            kv(tb, "memory", NULL);
        }
        if (env->nhypervisors == 0)
            kv(tb, "hypervisor", NULL);
        for (int i = 0; i < env->nhypervisors; i++) {
            const res_hypervisor *h = &env->hypervisors[i];
            char *hv = orch_strfmt("%s %s", h->hypervisor ? h->hypervisor : "",
                                   h->hypervisor_version ? h->hypervisor_version : "");
            kv(tb, "libvirt URI", h->uri);
            kv(tb, "hypervisor host", h->hostname);
            kv(tb, "libvirt version", h->libvirt_version);
            kv(tb, "hypervisor and version", hv);
            kv(tb, "domain type", h->domain_type);
            free(hv);
            /* the host itself, as its libvirt tells (hosts.h) */
            hv = h->cpus > 0 && h->cpus != RES_UNSET
                 ? orch_strfmt("%" PRId64 " x %s, %.1f GiB%s%s", h->cpus,
                               h->cpu_model ? h->cpu_model : (h->arch ? h->arch : "CPU"),
                               (double)h->memory_bytes / (1024.0 * 1024 * 1024),
                               h->kernel ? ", kernel " : "", h->kernel ? h->kernel : "")
                 : NULL;
            kv(tb, "host CPUs, memory, kernel", hv);
            free(hv);
        }
        ver = guest_versions(run);
        kv(tb, "guest database", ver);
        free(ver);
    }
}

/* One row of the plan table when the value was recorded: text, or an
 * integer (RES_UNSET: not recorded). */
static void plan_text_row(xmlNodePtr tb, const char *key, const char *v)
{
    if (v && *v)
        kv(tb, key, v);
}

static void plan_int_row(xmlNodePtr tb, const char *key, int64_t v)
{
    char buf[32];
    if (v != RES_UNSET)
        kv(tb, key, int_text(v, buf, sizeof buf));
}

static void section_plan(page *pg)
{
    xmlNodePtr sec = section_new(pg, "plan", "Plan", NULL);
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        const res_plan *p = &run->sum.plan;
        char *h3 = orch_strfmt("Run %s: %s", run->label, run->run_id), buf[64];
        xmlNodePtr tb;
        html_add(sec, "h3", h3 ? h3 : run->run_id);
        free(h3);
        tb = html_add(sec, "table", NULL);
        html_attr(tb, "class", "plan");
        html_attr(tb, "data-run", run->label);
        plan_text_row(tb, "name", p->name);
        plan_text_row(tb, "profile", p->profile);
        plan_int_row(tb, "VMs per drive", p->vms_per_drive);
        plan_text_row(tb, "client", p->client);
        plan_int_row(tb, "repetitions", p->repetitions);
        if (!isnan(p->cv_threshold))
            kv(tb, "cv_threshold (%)", report_num(p->cv_threshold, buf, sizeof buf));
        plan_text_row(tb, "workload", p->workload);
        plan_text_row(tb, "database driver", p->db_driver);
        plan_int_row(tb, "tables", p->tables);
        plan_int_row(tb, "table size", p->table_size);
        plan_int_row(tb, "warehouses", p->warehouses);
        plan_int_row(tb, "threads", p->threads);
        plan_int_row(tb, "precondition (s)", p->precondition_s);
        plan_int_row(tb, "warmup (s)", p->warmup_s);
        plan_int_row(tb, "measure (s)", p->measure_s);
        if (run->plan_text)
            html_attr(html_add(sec, "pre", run->plan_text), "class", "plan-ini");
    }
}

/* The whole page as a new document (caller frees with xmlFreeDoc), or NULL
 * when out of memory. */
static htmlDocPtr build_doc(const report_set *s)
{
    htmlDocPtr doc = htmlNewDocNoDtD(NULL, NULL);
    xmlNodePtr html, head;
    page pg = { .s = s, .multi = s->nruns > 1 };
    char *title;

    if (!doc)
        return NULL;
    xmlCreateIntSubset(doc, BAD_CAST "html", NULL, NULL);
    html = xmlNewDocNode(doc, NULL, BAD_CAST "html", NULL);
    xmlDocSetRootElement(doc, html);
    html_attr(html, "lang", "en");
    head = html_add(html, "head", NULL);
    htmlSetMetaEncoding(doc, BAD_CAST "UTF-8");   /* text as UTF-8, not entities */
    title = s->nruns == 1 ? orch_strfmt("drivebench report: %s", s->runs[0].run_id)
                          : orch_strfmt("drivebench report: %d runs", s->nruns);
    html_add(head, "title", title ? title : "drivebench report");
    html_add(head, "style", page_css);
    pg.body = html_add(html, "body", NULL);
    html_add(pg.body, "h1", title ? title : "drivebench report");
    free(title);
    banners(&pg);
    section_runs(&pg);
    if (section_drives(&pg) < 0)
        goto fail;
    if (section_tpcc(&pg) < 0)
        goto fail;
    section_scaling(&pg);
    section_repetitions(&pg);
    if (section_time(&pg) < 0)
        goto fail;
    if (report_drive_io_sections(pg.body, s) < 0)     /* drive I/O, comparisons (issue 13) */
        goto fail;
    section_vms(&pg);
    section_failures(&pg);
    section_environment(&pg);
    section_plan(&pg);
    return doc;
fail:
    xmlFreeDoc(doc);
    return NULL;
}

int report_write_html(const report_set *s, const char *path, char *err, size_t errlen)
{
    htmlDocPtr doc = build_doc(s);
    xmlChar *mem = NULL;
    int len = 0, rc = -1;
    FILE *f = NULL;

    if (!doc) {
        snprintf(err, errlen, "out of memory building the report");
        return -1;
    }
    htmlDocDumpMemoryFormat(doc, &mem, &len, 1);
    if (!mem) {
        snprintf(err, errlen, "out of memory writing the report");
        goto cleanup;
    }
    f = fopen(path, "w");
    if (!f || fwrite(mem, 1, (size_t)len, f) != (size_t)len) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    rc = fclose(f);
    f = NULL;
    if (rc != 0)
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
cleanup:
    if (f)
        fclose(f);
    xmlFree(mem);
    xmlFreeDoc(doc);
    return rc ? -1 : 0;
}
