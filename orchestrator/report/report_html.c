/* report_html.c — the report page: one HTML document built with libxml2's
 * tree API (every name and number goes into a text node or an attribute,
 * escaped on output), styled inline, charts as inline SVG (svg.h). No
 * script, no external resource. Reads the report's model (report.h) only.
 * This file holds the page's skeleton (head, style, banners, the runs
 * table) and calls the sections in order; each section lives in its own
 * file (page.h lists them). */
#include "report/report_html.h"
#include "report/drive_io.h"
#include "report/page.h"
#include "report/html.h"
#include "util/util.h"
#include "report/svg.h"
#include "report/svg_rank.h"

#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The charts' rules of the page's style sheet, which a chart written on
 * its own (--charts) carries as its <style>. */
#define CHART_CSS \
    "svg .chart-title{font-size:15px;font-weight:bold}" \
    "svg text{font-size:12px;fill:#222}svg .value.inside{fill:#fff;font-weight:bold}" \
    "svg .grid{stroke:#e3e3e3}svg .axis{stroke:#888}" \
    "svg .hatch{stroke:#fff;stroke-width:3;stroke-opacity:.6}" \
    "svg .label.flagged{fill:#b00}svg line.mark{stroke:#c00;stroke-dasharray:4 3}" \
    "svg text.mark{fill:#c00}" \
    "svg polyline.series{fill:none;stroke-width:1.8}svg .legend-line{stroke-width:3}"
#define CHART_CSS_INCOMPLETE "svg .value.incomplete{fill:#555;font-style:italic}"

/* ... and, alone, the page's font */
static const char chart_css[] =
    "svg{font-family:'DejaVu Sans',sans-serif}" CHART_CSS CHART_CSS_INCOMPLETE;

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
    CHART_CSS
    "pre{background:#f6f6f6;padding:8px;font-size:12px;overflow-x:auto}"
    "p.note{font-size:13px;color:#555}"
    ".banner{border:2px solid #b00;background:#fff0f0;color:#900;padding:8px 12px;"
    "margin:12px 0;font-weight:bold}"
    "td.warn{background:#fff0d0;color:#a50}tr.failed td{background:#ffe6e6;color:#a00}tr.incomplete td{background:#eee;color:#666}"
    "td.incomplete,span.incomplete{color:#666;font-style:italic}"
    CHART_CSS_INCOMPLETE
    "div.failure{border-left:4px solid #c00;padding-left:12px;margin:12px 0}"
    "div.failure h3{color:#b00}pre.console{background:#fff4f4;border:1px solid #e0b0b0}"
    ".swatch{display:inline-block;width:12px;height:12px;margin-left:12px;"
    "vertical-align:middle}"
    "td.differs,tr.differs th{background:#fff4d6;font-weight:bold}";

/* A red banner per run that did not complete cleanly: partial, or
 * completed with failed VMs. */
static void banners(report_page *pg)
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

/* Under the runs table: one line per interruption a run went on after
 * (`drivebench resume`, issue 34). */
static void interruptions(report_page *pg, xmlNodePtr sec)
{
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        for (int i = 0; i < run->sum.ninterruptions; i++) {
            const res_interruption *in = &run->sum.interruptions[i];
            char *text = orch_strfmt("Run %s (%s) was interrupted (last sign of life %s) and "
                                     "resumed at %s: %d complete repetition(s) kept, repetition "
                                     "%d run again from its start. Lost: %s.", run->label,
                                     run->run_id, in->at ? in->at : "unknown",
                                     in->resumed_at ? in->resumed_at : "?",
                                     in->kept_repetitions, in->repetition,
                                     in->lost ? in->lost : "nothing recorded");
            xmlNodePtr p = html_add(sec, "p", text ? text : "interrupted and resumed");
            char rep[16];
            snprintf(rep, sizeof rep, "%d", in->repetition);
            html_attr(p, "class", "interruption");
            html_attr(p, "data-run", run->label);
            html_attr(p, "data-repetition", rep);
            free(text);
        }
    }
}

static void page_section_runs(report_page *pg)
{
    static const char *const heads[] = { "run", "run id", "plan", "workload", "VMs",
                                         "drives", "repetitions", "started", "finished",
                                         "status", NULL };
    xmlNodePtr sec = page_section(pg, "runs", "Runs", NULL);
    xmlNodePtr tb = html_table(sec, "run-table", heads);
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        const res_summary *sum = &run->sum;
        xmlNodePtr tr = page_row(tb, run, NULL);
        page_cell(tr, run->label);
        page_cell(tr, run->run_id);
        page_cell(tr, sum->plan.name ? sum->plan.name : "");
        page_cell(tr, sum->plan.workload ? sum->plan.workload : "");
        page_num(tr, "vms", sum->run.vms, 0);
        page_num(tr, "drives", sum->run_drives, 0);
        page_num(tr, "repetitions", sum->repetitions, 0);
        page_cell(tr, sum->started_at ? sum->started_at : "");
        page_cell(tr, sum->finished_at ? sum->finished_at : "");
        html_attr(page_cell(tr, res_run_status_name(sum->status)), "data-key", "status");
        if (sum->status != RES_RUN_COMPLETE)
            html_attr(tr, "class", "failed");
    }
    interruptions(pg, sec);
}


/* The whole page as a new document (caller frees with xmlFreeDoc), or NULL
 * when out of memory. */
static htmlDocPtr build_doc(const report_set *s)
{
    htmlDocPtr doc;
    report_page pg = { .s = s, .multi = s->nruns > 1 };
    char *title = s->nruns == 1 ? orch_strfmt("drivebench report: %s", s->runs[0].run_id)
                                : orch_strfmt("drivebench report: %d runs", s->nruns);

    doc = html_page(title ? title : "drivebench report", page_css, &pg.body);
    free(title);
    if (!doc)
        return NULL;
    banners(&pg);
    page_section_runs(&pg);
    page_section_protocols(&pg);                      /* issue 22 */
    if (page_section_drives(&pg) < 0)
        goto fail;
    if (page_section_capacity(&pg) < 0)               /* issue 45 */
        goto fail;
    if (page_section_tpcc(&pg) < 0)
        goto fail;
    page_section_scaling(&pg);
    page_section_repetitions(&pg);
    if (page_section_time(&pg) < 0)
        goto fail;
    if (page_section_precondition(&pg) < 0)
        goto fail;
    if (report_drive_io_sections(pg.body, s) < 0)     /* drive I/O, comparisons (issue 13) */
        goto fail;
    page_section_vms(&pg);
    page_section_failures(&pg);
    page_section_environment(&pg);
    page_section_plan(&pg);
    return doc;
fail:
    xmlFreeDoc(doc);
    return NULL;
}

/* A chart's id as a file name: anything but [A-Za-z0-9._-] becomes '_'
 * (today's ids are made of letters, digits and '-'; a later one with a
 * name in it must still not reach outside the folder). */
static void chart_file_name(const char *id, char *out, size_t len)
{
    size_t i = 0;
    for (; id[i] && i + 1 < len; i++)
        out[i] = (id[i] >= 'a' && id[i] <= 'z') || (id[i] >= 'A' && id[i] <= 'Z')
                 || (id[i] >= '0' && id[i] <= '9') || strchr("._-", id[i]) ? id[i] : '_';
    out[i] = 0;
}

/* Every chart under n (an <svg> of class "chart ..." with an id) as
 * c->dir/ID.svg, and ID.png when c->png_scale > 0. 0, or -1 with err. */
static int write_charts(xmlNodePtr n, report_charts *c, char *err, size_t errlen)
{
    for (; n; n = n->next) {
        xmlChar *cls, *id;
        int rc = 0;
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrcmp(n->name, BAD_CAST "svg")) {
            if (write_charts(n->children, c, err, errlen) < 0)
                return -1;
            continue;
        }
        cls = xmlGetProp(n, BAD_CAST "class");
        id = xmlGetProp(n, BAD_CAST "id");
        if (cls && id && !xmlStrncmp(cls, BAD_CAST "chart", 5) && (!cls[5] || cls[5] == ' ')) {
            char name[256], *svg;
            chart_file_name((const char *)id, name, sizeof name);
            if (!(svg = orch_strfmt("%s/%s.svg", c->dir, name))) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
            } else {
                rc = svg_write_chart_files(n, chart_css, svg, c->png_scale, &c->nsvg, &c->npng,
                                           err, errlen);
            }
            free(svg);
        }
        xmlFree(cls);
        xmlFree(id);
        if (rc < 0)
            return -1;
    }
    return 0;
}

int report_write_html_charts(const report_set *s, const char *path, report_charts *charts,
                             char *err, size_t errlen)
{
    htmlDocPtr doc = build_doc(s);
    int rc;
    if (!doc) {
        snprintf(err, errlen, "out of memory building the report");
        return -1;
    }
    rc = html_write_doc(doc, path, err, errlen);
    if (rc == 0 && charts) {
        charts->nsvg = charts->npng = 0;
        if (mkdir(charts->dir, 0755) < 0 && errno != EEXIST) {
            snprintf(err, errlen, "cannot create %s: %s", charts->dir, strerror(errno));
            rc = -1;
        } else {
            rc = write_charts(xmlDocGetRootElement(doc), charts, err, errlen);
        }
    }
    xmlFreeDoc(doc);
    return rc;
}

int report_write_html(const report_set *s, const char *path, char *err, size_t errlen)
{
    return report_write_html_charts(s, path, NULL, err, errlen);
}
