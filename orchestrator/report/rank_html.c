/* rank_html.c — the ranking's page and its standalone charts (rank.h):
 * per protocol the charts (report/svg_rank.h), each also written as
 * pN-METRIC.svg, the ranking table, the drives left out and the win/loss
 * table against the baseline. A libxml2 tree, as the report page. */
#include "report/rank.h"
#include "report/html.h"
#include "report/page.h"
#include "report/svg_rank.h"
#include "util/util.h"
#include "results_fingerprint.h"

#include <libxml/HTMLtree.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rank_css[] =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
    "h2{margin-top:32px;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f0f0f0}"
    "tr.highlight td{font-weight:bold;background:#fff4e6}"
    "td.better{color:#176117}td.worse{color:#a00}"
    "svg.chart{display:block;width:100%;max-width:960px;margin:8px 0 4px}"
    "p.note{font-size:13px;color:#555}";

/* Entries of a group sorted for metric m (best first; ties by label). */
typedef struct sorted_ref {
    const rank_entry *e;
    int               m;
} sorted_ref;

static int by_metric(const void *pa, const void *pb)
{
    const sorted_ref *a = pa, *b = pb;
    double va = a->e->m[a->m].v, vb = b->e->m[b->m].v;
    if (va != vb)
        return (va > vb) == (rank_metrics[a->m].higher_better != 0) ? -1 : 1;
    return strcmp(a->e->label, b->e->label);
}

/* One chart of group rg on page section sec, and its SVG file. */
static int chart(const rank_group *rg, int m, xmlNodePtr sec, rank_files *out, char *err,
                 size_t errlen)
{
    sorted_ref *refs = calloc(rg->n ? (size_t)rg->n : 1, sizeof *refs);
    svg_rank_bar *bars = calloc(rg->n ? (size_t)rg->n : 1, sizeof *bars);
    char (*txt)[2][48] = calloc(rg->n ? (size_t)rg->n : 1, sizeof *txt);
    char id[64], *file = NULL, *title = NULL;
    xmlNodePtr svg, p;
    int rc = -1;

    snprintf(id, sizeof id, "rank-p%d-%s", rg->group + 1, rank_metrics[m].key);
    file = orch_strfmt("p%d-%s.svg", rg->group + 1, rank_metrics[m].key);
    title = m == RANK_CAPACITY
        ? orch_strfmt("Capacity at %s (TPS, higher is better) \xe2\x80\x94 protocol P%d, "
                      "from the capacity up to the lowest rate that broke it",
                      rank_capacity_target(rg), rg->group + 1)
        : orch_strfmt("%s \xe2\x80\x94 protocol P%d, 95 %% intervals", rank_metrics[m].title,
                      rg->group + 1);
    if (!refs || !bars || !txt || !file || !title) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < rg->n; i++)
        refs[i] = (sorted_ref){ &rg->e[i], m };
    qsort(refs, (size_t)rg->n, sizeof *refs, by_metric);
    for (int i = 0; i < rg->n; i++) {
        const rank_value *v = &refs[i].e->m[m];
        bars[i] = (svg_rank_bar){ .label = refs[i].e->label, .value = v->v, .lo = v->lo,
                                  .hi = v->hi, .n = v->n, .highlight = refs[i].e->highlight,
                                  .value_text = page_shown(v->v, rank_metrics[m].decimals,
                                                           txt[i][0], sizeof txt[i][0]),
                                  .value_exact = report_num(v->v, txt[i][1], sizeof txt[i][1]) };
    }
    if (!(svg = svg_rank_chart(sec, id, title, bars, rg->n))) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    p = html_add(sec, "p", "standalone: ");
    html_attr(p, "class", "note");
    html_attr(html_add(p, "a", file), "href", file);
    free(title);
    title = orch_strfmt("%s/%s", out->dir, file);
    if (!title) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    rc = svg_write_chart_files(svg, NULL, title, out->png_scale, &out->nsvg, &out->npng, err,
                               errlen);
cleanup:
    free(refs);
    free(bars);
    free(txt);
    free(file);
    free(title);
    return rc;
}

/* The ranking table of group rg (TPS order, or the capacity's). */
static void rank_table(const rank_group *rg, xmlNodePtr sec)
{
    const char *heads[4 + 2 * RANK_NMETRICS + 3] = { "rank", "drive", "run id", "layout", "N" };
    char id[32], (*h)[96] = calloc(2 * RANK_NMETRICS, sizeof *h);
    int nh = 5;
    xmlNodePtr tb;
    if (!h)
        return;
    for (int m = 0; m < RANK_NMETRICS; m++)
        if (rg->metric[m]) {
            snprintf(h[2 * m], sizeof h[0], "%s", rank_metrics[m].key);
            snprintf(h[2 * m + 1], sizeof h[0], m == RANK_CAPACITY ? "%s interval"
                     : "%s 95 %% interval", rank_metrics[m].key);
            heads[nh++] = h[2 * m];
            heads[nh++] = h[2 * m + 1];
        }
    heads[nh++] = "bounded by";
    heads[nh] = NULL;
    snprintf(id, sizeof id, "rank-table-p%d", rg->group + 1);
    tb = html_table(sec, id, heads);
    for (int i = 0; i < rg->n; i++) {
        const rank_entry *e = &rg->e[i];
        xmlNodePtr tr = page_row(tb, e->run, e->dr->name);
        char buf[160], lo[48], hi[48];
        if (e->highlight)
            html_attr(tr, "class", "highlight");
        snprintf(buf, sizeof buf, "%d", i + 1);
        page_cell(tr, buf);
        page_cell(tr, e->label);
        page_cell(tr, e->run->run_id);
        page_cell(tr, report_layout(e->run, buf, sizeof buf));
        page_num(tr, "n", e->nreps, 0);
        for (int m = 0; m < RANK_NMETRICS; m++) {
            const rank_value *v = &e->m[m];
            int d = rank_metrics[m].decimals;
            xmlNodePtr td;
            if (!rg->metric[m])
                continue;
            page_num(tr, rank_metrics[m].key, v->v, d);
            if (isnan(v->lo))
                snprintf(buf, sizeof buf, "none (N = %d)", v->n);
            else
                snprintf(buf, sizeof buf, "%s \xe2\x80\x93 %s", page_shown(v->lo, d, lo, sizeof lo),
                         page_shown(v->hi, d, hi, sizeof hi));
            td = page_cell(tr, buf);
            snprintf(lo, sizeof lo, "%s_interval", rank_metrics[m].key);
            html_attr(td, "data-key", lo);
        }
        page_bound_cell(tr, e->dr->d);
    }
    free(h);
}

/* Win/loss of every drive of rg against the baseline b. */
static void winloss_table(const rank_set *r, const rank_group *rg, const rank_entry *b,
                          xmlNodePtr sec)
{
    const char *heads[RANK_NMETRICS + 2] = { "drive" };
    char id[32], *note;
    int nh = 1;
    xmlNodePtr tb;
    for (int m = 0; m < RANK_NMETRICS; m++)
        if (rg->metric[m])
            heads[nh++] = rank_metrics[m].key;
    heads[nh] = NULL;
    note = orch_strfmt("Against the baseline %s: better or worse when the 95 %% Welch interval "
                       "of the difference of the repetitions' means excludes zero, not "
                       "distinguishable when it does not; no verdict with fewer than 3 "
                       "repetitions on a side.", b->label);
    html_attr(html_add(sec, "p", note ? note : ""), "class", "note");
    free(note);
    snprintf(id, sizeof id, "winloss-p%d", rg->group + 1);
    tb = html_table(sec, id, heads);
    html_attr(tb->parent, "data-baseline", b->label);
    for (int i = 0; i < rg->n; i++) {
        const rank_entry *e = &rg->e[i];
        xmlNodePtr tr;
        if (e == b)
            continue;
        tr = page_row(tb, e->run, e->dr->name);
        page_cell(tr, e->label);
        for (int m = 0; m < RANK_NMETRICS; m++) {
            const char *v;
            xmlNodePtr td;
            if (!rg->metric[m])
                continue;
            v = rank_verdict(e, b, m);
            td = page_cell(tr, v);
            html_attr(td, "data-key", rank_metrics[m].key);
            html_attr(td, "data-value", v);
            if (strcmp(v, "better") == 0 || strcmp(v, "worse") == 0)
                html_attr(td, "class", v);
        }
    }
    (void)r;
}

/* Group rg's section. */
static int group_section(const rank_set *r, const rank_group *rg, xmlNodePtr body,
                         rank_files *out, char *err, size_t errlen)
{
    const report_set *s = r->s;
    const report_run *first = &s->runs[report_group_first(s, rg->group)];
    res_fp_item it[RES_FP_MAX_KEYS];
    xmlNodePtr sec = html_add(body, "section", NULL), p, ul;
    char id[32], buf[512], *h2;
    const rank_entry *b = r->baseline ? rank_find(rg, r->baseline) : NULL;
    int n = first->sum.fp ? res_fingerprint_items(first->sum.fp, it) : 0;

    snprintf(id, sizeof id, "rank-p%d", rg->group + 1);
    html_attr(sec, "id", id);
    h2 = orch_strfmt("Protocol P%d: %d drive%s", rg->group + 1, rg->n, rg->n == 1 ? "" : "s");
    html_add(sec, "h2", h2 ? h2 : id);
    free(h2);
    p = html_add(sec, "p", NULL);
    html_attr(p, "class", "note protocol");
    if (!first->sum.fp)
        xmlNodeAddContent(p, BAD_CAST REPORT_NO_FP ": ranked alone");
    for (int k = 0; k < n; k++)
        if (it[k].value[0]) {
            snprintf(buf, sizeof buf, "%s%s = %s", k ? "; " : "", it[k].key, it[k].value);
            xmlNodeAddContent(p, BAD_CAST buf);
        }
    if (rg->group > 0
        && report_fp_diff(&s->runs[report_group_first(s, 0)], first, buf, sizeof buf) > 0) {
        char *d = orch_strfmt("Differs from P1 in: %s (not ranked with it).", buf);
        html_attr(html_add(sec, "p", d ? d : buf), "class", "note differs");
        free(d);
    }
    for (int m = 0; m < RANK_NMETRICS; m++)
        if (rg->metric[m] && chart(rg, m, sec, out, err, errlen) < 0)
            return -1;
    rank_table(rg, sec);
    if (rg->nleft) {
        html_add(sec, "h3", "Left out (not comparable)");
        ul = html_add(sec, "ul", NULL);
        snprintf(id, sizeof id, "left-out-p%d", rg->group + 1);
        html_attr(ul, "id", id);
        for (int i = 0; i < rg->nleft; i++)
            html_add(ul, "li", rg->left_out[i]);
    }
    if (b)
        winloss_table(r, rg, b, sec);
    return 0;
}

int rank_write_html(const rank_set *r, rank_files *out, char *err, size_t errlen)
{
    xmlNodePtr body = NULL;
    char *path = orch_strfmt("%s/rank.html", out->dir);
    char *title = orch_strfmt("drivebench ranking: %d run%s, %d protocol%s", r->s->nruns,
                              r->s->nruns == 1 ? "" : "s", r->ng, r->ng == 1 ? "" : "s");
    htmlDocPtr doc = title ? html_page(title, rank_css, &body) : NULL;
    int rc = -1;

    out->nsvg = out->npng = 0;
    free(title);
    if (!doc || !path) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    html_attr(html_add(body, "p", "Every drive of one protocol (equal fingerprints; runs of "
        "different protocols are ranked apart), by default from its newest complete run. "
        "Whiskers: the 95 % Student t interval over the drive's complete repetitions "
        "(t(0.975, N-1) s / \xe2\x88\x9aN around the figure); none with N = 1. A drive with a "
        "failed VM or from a partial run is left out and listed. Charts are sorted best "
        "first; the highlighted drive is orange."), "class", "note");
    for (int g = 0; g < r->ng; g++)
        if (group_section(r, &r->g[g], body, out, err, errlen) < 0)
            goto cleanup;
    rc = html_write_doc(doc, path, err, errlen);
cleanup:
    xmlFreeDoc(doc);
    free(path);
    return rc;
}
