/* report_drives.c — the per-drive sections of the report page (page.h):
 * bar charts and the table of each drive's figures, the spread over
 * repetitions, and TPC-C figures per drive and transaction type. */
#include <libxml/tree.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "util/util.h"

/* Bar b's 95 % interval and N: the mean of figure `figure` (0 TPS, 1
 * average latency, 2 p99) over drive d's complete repetitions (no VM
 * failed) +- t(0.975, N - 1) x sd / sqrt(N); with N = 1, "N = 1" and no
 * whisker. */
static void bar_interval(svg_bar *b, const res_drive *d, int figure)
{
    double *v = malloc(sizeof *v * (size_t)(d->nreps + 1)), sum = 0, sq = 0, mean;
    int n = 0;
    b->lo = b->hi = NAN;
    b->n = 0;
    if (!v)
        return;                 /* out of memory: the bar without its interval */
    for (int i = 0; i < d->nreps; i++)
        if (!d->reps[i].f.failed_vms)
            v[n++] = figure == 0 ? d->reps[i].f.tps
                     : figure == 1 ? d->reps[i].f.lat_avg_ms : d->reps[i].f.lat_p99_ms;
    b->n = n;
    for (int i = 0; i < n; i++)
        sum += v[i];
    mean = n ? sum / n : 0;
    for (int i = 0; i < n; i++)
        sq += (v[i] - mean) * (v[i] - mean);
    free(v);
    if (n < 2)
        return;
    sq = orch_t_quantile(0.975, n - 1) * sqrt(sq / (n - 1) / n);
    b->lo = mean - sq;
    b->hi = mean + sq;
}

/* The three per-drive bar charts of the runs of protocol `group` (one
 * set per protocol: drives of different protocols are never ranked
 * together; with several, ids and titles name the protocol). */
static int drive_charts(report_page *pg, xmlNodePtr sec, int group)
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
    page_bars b = { 0 };

    for (int r = 0; r < pg->s->nruns; r++)
        n += pg->s->runs[r].group == group ? pg->s->runs[r].ndrives : 0;
    if (page_bars_init(&b, n) < 0)
        goto cleanup;
    for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++) {
        char id[64], *title;
        xmlNodePtr svg;
        k = 0;
        for (int r = 0; r < pg->s->nruns; r++)
            for (int d = 0; pg->s->runs[r].group == group && d < pg->s->runs[r].ndrives;
                 d++, k++) {
                const report_run *run = &pg->s->runs[r];
                const report_drive *dr = &run->drives[d];
                const res_figures *f = &dr->d->f;
                if (!b.labels[k] && !(b.labels[k] = page_drive_label(pg, run, dr->name)))
                    goto cleanup;
                b.bars[k].label = b.labels[k];
                page_bars_value(&b, k, metrics[m].figure == TPS ? f->tps
                              : metrics[m].figure == LAT_AVG ? f->lat_avg_ms : f->lat_p99_ms,
                              metrics[m].decimals);
                b.bars[k].color = r;
                b.bars[k].flagged = dr->flagged;
                b.bars[k].incomplete = dr->incomplete;
                bar_interval(&b.bars[k], dr->d, metrics[m].figure);
            }
        snprintf(id, sizeof id, group ? "%s-p%d" : "%s", metrics[m].id, group + 1);
        title = pg->s->ngroups > 1 ? orch_strfmt("%s \xe2\x80\x94 protocol P%d",
                                                 metrics[m].title, group + 1)
                                   : strdup(metrics[m].title);
        svg = title ? svg_bar_chart(sec, id, title, b.bars, n, metrics[m].desc) : NULL;
        free(title);
        if (!svg)
            goto cleanup;
    }
    rc = 0;
cleanup:
    page_bars_clear(&b);
    return rc;
}

int page_section_drives(report_page *pg)
{
    static const char *const heads[] = { "run", "drive", "VMs", "TPS", "transactions",
                                         "avg latency (ms)", "p99 latency (ms)",
                                         "mean of VMs' p99 (ms)", "mean database after load",
                                         "status", "bounded by", NULL };
    xmlNodePtr tb, sec = page_section(pg, "drives", "Per drive",
        "Per drive: TPS is the sum of its VMs' (the mean over repetitions); latencies come "
        "from all its VMs' merged histograms. A drive marked (!) varies more across "
        "repetitions than its plan's cv_threshold. A grey, hatched drive is incomplete: one "
        "of its VMs failed, so its figures cover the others only and are not comparable. "
        "\"Bounded by\" says what limited the drive's figures over its measured phases "
        "(results/SCHEMA.md gives the thresholds): a TPS whose limit was not the drive "
        "says so beside it.");
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
    for (int r = 0; r < pg->s->nruns; r++) {
        /* issue 29: a closed loop's latencies leave out the requests a
         * stall held back */
        const char *note = res_latency_note(&pg->s->runs[r].sum.plan);
        char *text = note ? orch_strfmt("[%s] %s: %s", pg->s->runs[r].label,
                                        pg->s->runs[r].run_id, note) : NULL;
        if (note) {
            xmlNodePtr p = html_add(sec, "p", text ? text : note);
            html_attr(p, "class", "note");
            html_attr(p, "data-key", "latency_note");
            html_attr(p, "data-run", pg->s->runs[r].label);
        }
        free(text);
    }
    for (int g = 0; g < pg->s->ngroups; g++)
        if (drive_charts(pg, sec, g) < 0)
            return -1;
    tb = html_table(sec, "drive-table", heads);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++) {
            const report_run *run = &pg->s->runs[r];
            const report_drive *dr = &run->drives[d];
            xmlNodePtr tr = page_row(tb, run, dr->name);
            page_cell(tr, run->label);
            page_cell(tr, dr->name);
            page_num(tr, "vms", dr->d->f.vms, 0);
            page_num(tr, "tps", dr->d->f.tps, 2);
            if (page_bound_note(dr->d)) {
                html_attr(html_add(tr->last, "span", page_bound_note(dr->d)), "class",
                          "note bound");
                html_attr(tr->last->last, "data-key", "bound_note");
            }
            if (dr->d->nother_reps > 0) {
                /* issue 29: the mean is at one load; which repetitions are not in it */
                char *reps = report_other_vms(dr->d, 1);
                char *note = reps ? orch_strfmt(" mean over the repetitions with %d VMs; "
                                                "left out: %s", dr->d->f.vms, reps) : NULL;
                html_attr(html_add(tr->last, "span", note ? note : ""), "class", "note");
                html_attr(tr->last->last, "data-key", "repetitions_other_vms");
                free(reps);
                free(note);
            }
            page_num(tr, "transactions", (double)dr->d->f.transactions, 0);
            page_latency_cells(tr, &dr->d->f);
            page_db_size_cell(tr, "database_loaded_data_bytes", &dr->d->f.db_loaded, NULL);
            page_status_cell(tr, dr);
            page_bound_cell(tr, dr->d);
        }
    return 0;
}

/* The spread's mean, min, max and CV: blank over no complete repetition
 * or where a repetition lacks the figure; one repetition has no CV; a CV
 * over several that cannot be computed says so (the drive is flagged). */
static void spread_cells(xmlNodePtr tr, const char *key, const report_spread *sp, int decimals)
{
    static const char *const sfx[] = { "mean", "min", "max", "cv_pct" };
    const double v[] = { sp->mean, sp->min, sp->max, sp->cv };
    char k[64];
    for (int i = 0; i < 4; i++) {
        snprintf(k, sizeof k, "%s_%s", key, sfx[i]);
        if (i == 3 && report_cv_unknown(sp)) {
            xmlNodePtr td = page_cell(tr, "not computable");
            html_attr(td, "data-key", k);
            html_attr(td, "data-value", "");
        } else if (sp->n == 0 || isnan(v[i]))
            page_num_cell(tr, k, "", 0, 0);
        else
            page_num(tr, k, v[i], i == 3 ? 2 : decimals);
    }
}

void page_section_repetitions(report_page *pg)
{
    static const char *const heads[] = { "run", "drive", "repetitions", "TPS mean", "TPS min",
                                         "TPS max", "TPS CV (%)", "p99 mean (ms)", "p99 min (ms)",
                                         "p99 max (ms)", "p99 CV (%)", "CV threshold (%)",
                                         "flag", NULL };
    xmlNodePtr tb = html_table(page_section(pg, "repetitions", "Repetitions",
        "Spread of each drive's TPS and p99 latency over the plan's repetitions: CV is the "
        "sample standard deviation over the mean. A drive is flagged when either CV exceeds "
        "the plan's cv_threshold, or cannot be computed over two or more repetitions; one "
        "repetition has no CV. Repetitions in which a VM failed are left out of the "
        "spread (not comparable)."), "repetition-table", heads);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++) {
            const report_run *run = &pg->s->runs[r];
            const report_drive *dr = &run->drives[d];
            xmlNodePtr tr = page_row(tb, run, dr->name), td;
            char buf[32];
            if (dr->flagged)
                html_attr(tr, "class", "flagged");
            page_cell(tr, run->label);
            page_cell(tr, dr->name);
            snprintf(buf, sizeof buf, "%d", dr->d->nreps);
            page_cell(tr, buf);
            spread_cells(tr, "tps", &dr->tps_spread, 2);
            spread_cells(tr, "p99", &dr->p99_spread, 3);
            page_num(tr, "cv_threshold_pct", run->cv_threshold, 2);
            td = page_cell(tr, dr->cv_unknown ? "CV not computable"
                               : dr->flagged ? "CV above threshold" : "");
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
static int tpcc_drive(report_page *pg, xmlNodePtr sec, const report_run *run,
                      const report_drive *dr, int k)
{
    static const char *const heads[] = { "transaction type", "count", "rollbacks",
                                         "avg latency (ms)", "p90 latency (ms)",
                                         "p99 latency (ms)", "p90 limit (ms)", "p90 limit held",
                                         NULL };
    const res_tpcc_figures *t = dr->d->f.tpcc;
    char id[48], *label = page_drive_label(pg, run, dr->name), *h3 = NULL, *title = NULL, nopm[64];
    xmlNodePtr tb, p;
    page_bars b = { 0 };
    int rc = -1;

    if (page_bars_init(&b, t->ntypes) < 0 || !label)
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
        xmlNodePtr tr = page_row(tb, run, dr->name), td;
        html_attr(tr, "data-type", x->name);
        page_cell(tr, x->name);
        page_num(tr, "count", (double)x->count, 0);
        page_num(tr, "rollbacks", (double)x->rollbacks, 0);
        page_num(tr, "latency_avg_ms", x->lat_avg_ms, 3);
        page_num(tr, "latency_p90_ms", x->lat_p90_ms, 3);
        page_num(tr, "latency_p99_ms", x->lat_p99_ms, 3);
        page_num(tr, "p90_limit_ms", x->p90_limit_ms, 0);
        td = page_cell(tr, x->p90_met ? "yes" : "NO");
        html_attr(td, "data-key", "p90_met");
        html_attr(td, "data-value", x->p90_met ? "1" : "0");
        if (!x->p90_met)
            html_attr(td, "class", "flag");
        b.bars[i].label = x->name;
        page_bars_value(&b, i, x->lat_p90_ms, 3);
        b.bars[i].color = i;
        b.bars[i].incomplete = dr->incomplete;
    }
    snprintf(id, sizeof id, "chart-tpcc-%d", k);
    title = orch_strfmt("%s: 90th-percentile latency per transaction type (ms, lower is better)",
                        label);
    if (title && svg_bar_chart(sec, id, title, b.bars, t->ntypes, 0))
        rc = 0;
cleanup:
    page_bars_clear(&b);
    free(label);
    free(h3);
    free(title);
    return rc;
}

/* The tpmC chart of protocol `group`'s TPC-C drives into sec, with b's
 * room (as many bars as the report has drives; its labels are replaced):
 * drives of different protocols are never ranked together (ids and titles
 * name the protocol when there are several). 0 (also with no TPC-C drive
 * in the group), or -1 when out of memory. */
static int tpmc_chart(report_page *pg, xmlNodePtr sec, int group, page_bars *b)
{
    char id[64], *title;
    int k = 0;
    xmlNodePtr svg;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; pg->s->runs[r].group == group && d < pg->s->runs[r].ndrives; d++) {
            const report_run *run = &pg->s->runs[r];
            const report_drive *dr = &run->drives[d];
            if (!dr->d->f.tpcc)
                continue;
            free(b->labels[k]);
            if (!(b->labels[k] = page_drive_label(pg, run, dr->name)))
                return -1;
            b->bars[k].label = b->labels[k];
            page_bars_value(b, k, dr->d->f.tpcc->tpmc, 2);
            b->bars[k].color = r;
            b->bars[k].incomplete = dr->incomplete;
            k++;
        }
    if (k == 0)
        return 0;
    snprintf(id, sizeof id, group ? "chart-tpmc-p%d" : "chart-tpmc", group + 1);
    title = pg->s->ngroups > 1
        ? orch_strfmt("tpmC per drive (New-Orders per minute, higher is better) \xe2\x80\x94 "
                      "protocol P%d", group + 1)
        : strdup("tpmC per drive (New-Orders per minute, higher is better)");
    svg = title ? svg_bar_chart(sec, id, title, b->bars, k, 1) : NULL;
    free(title);
    return svg ? 0 : -1;
}

/* TPC-C runs: per drive, tpmC and NOPM in a table and a chart, then each
 * drive's transaction types. Nothing when no run has TPC-C figures. */
int page_section_tpcc(report_page *pg)
{
    static const char *const heads[] = { "run", "drive", "tpmC", "NOPM", "rollbacks",
                                         "p90 limits held", "status", NULL };
    xmlNodePtr sec = NULL, tb = NULL;
    page_bars b = { 0 };
    int n = 0, k = 0, rc = -1;

    for (int r = 0; r < pg->s->nruns; r++)
        n += pg->s->runs[r].ndrives;
    if (page_bars_init(&b, n) < 0)
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
                sec = page_section(pg, "tpcc", "TPC-C",
                    "Per drive, merged over its VMs: tpmC (New-Orders per minute, rolled back "
                    "ones included) and NOPM (New-Orders the servers counted, per minute) are "
                    "the sums of its VMs' (the mean over repetitions); each transaction type's "
                    "latencies come from its histograms of all the drive's VMs merged, and "
                    "the 90th-percentile limits of the specification (clause 5.2.5.3) are "
                    "checked on those.");
                tb = html_table(sec, "tpcc-drive-table", heads);
            }
            tr = page_row(tb, run, dr->name);
            page_cell(tr, run->label);
            page_cell(tr, dr->name);
            page_num(tr, "tpmC", t->tpmc, 2);
            if (t->has_nopm)
                page_num(tr, "NOPM", t->nopm, 2);
            else
                page_cell(tr, "not counted");
            page_num(tr, "rollbacks", (double)t->rollbacks, 0);
            td = page_cell(tr, t->p90_limits_met ? "yes" : "NO");
            html_attr(td, "data-key", "p90_limits_met");
            html_attr(td, "data-value", t->p90_limits_met ? "1" : "0");
            page_status_cell(tr, dr);
        }
    for (int g = 0; sec && g < pg->s->ngroups; g++)
        if (tpmc_chart(pg, sec, g, &b) < 0)
            goto cleanup;
    k = 0;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++)
            if (pg->s->runs[r].drives[d].d->f.tpcc
                && tpcc_drive(pg, sec, &pg->s->runs[r], &pg->s->runs[r].drives[d], ++k) < 0)
                goto cleanup;
    rc = 0;
cleanup:
    page_bars_clear(&b);
    return rc;
}

