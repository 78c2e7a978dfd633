/* report_protocols.c — which runs may be compared (page.h): each run's
 * protocol (its fingerprint's group), its layout, the keys in which it
 * differs from the first protocol, and the fingerprints side by side.
 * Only on a page of several runs. */
#include <libxml/tree.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "results_fingerprint.h"

/* Run r's difference from the first protocol, as its row says it. */
static const char *differs_text(const report_set *s, int r, char *buf, size_t len)
{
    const report_run *run = &s->runs[r];
    int n = report_fp_diff(&s->runs[report_group_first(s, 0)], run, buf, len);
    if (!run->sum.fp)
        snprintf(buf, len, REPORT_NO_FP);
    else if (run->group == 0)
        snprintf(buf, len, "\xe2\x80\x94");
    else if (n < 0)             /* P1 is an older run: compare with nothing */
        snprintf(buf, len, "not comparable with P1 (" REPORT_NO_FP ")");
    return buf;
}

/* The fingerprints of the protocols side by side, a row per key, marked
 * "differs" where two protocols with fingerprints disagree. */
static void fingerprint_table(const report_set *s, xmlNodePtr sec)
{
    res_fp_item first[RES_FP_MAX_KEYS], it[RES_FP_MAX_KEYS];
    const char **heads = calloc((size_t)s->ngroups + 2, sizeof *heads);
    char (*labels)[16] = calloc((size_t)s->ngroups + 1, sizeof *labels);
    res_fingerprint empty;
    xmlNodePtr tb;
    int nkeys;

    if (!heads || !labels)
        goto cleanup;
    memset(&empty, 0, sizeof empty);
    nkeys = res_fingerprint_items(&empty, first);
    heads[0] = "key";
    for (int g = 0; g < s->ngroups; g++)
        heads[g + 1] = report_group_label(g, labels[g], sizeof labels[g]);
    tb = html_table(sec, "fingerprint-table", heads);
    for (int k = 0; k < nkeys; k++) {
        xmlNodePtr tr = html_add(tb, "tr", NULL);
        const char *seen = NULL;
        int differs = 0;
        html_attr(tr, "data-key", first[k].key);
        html_add(tr, "th", first[k].key);
        for (int g = 0; g < s->ngroups; g++) {
            const res_fingerprint *fp = s->runs[report_group_first(s, g)].sum.fp;
            xmlNodePtr td;
            if (!fp) {
                html_attr(page_cell(tr, REPORT_NO_FP), "data-group", labels[g]);
                continue;
            }
            res_fingerprint_items(fp, it);
            td = page_cell(tr, it[k].value[0] ? it[k].value : "not recorded");
            html_attr(td, "data-group", labels[g]);
            html_attr(td, "data-value", it[k].value);
            if (seen && strcmp(seen, it[k].value) != 0)
                differs = 1;
            if (!seen)
                seen = (const char *)xmlGetProp(td, BAD_CAST "data-value");
            else if (differs)
                html_attr(td, "class", "differs");
        }
        xmlFree((xmlChar *)seen);
        if (differs)
            html_attr(tr, "class", "differs");
    }
cleanup:
    free(heads);
    free(labels);
}

void page_section_protocols(report_page *pg)
{
    static const char *const heads[] = { "run", "run id", "protocol", "layout (not in the "
                                         "protocol)", "differs from P1 in", NULL };
    const report_set *s = pg->s;
    xmlNodePtr sec, tb;
    if (!pg->multi)
        return;
    sec = page_section(pg, "protocols", "Protocols",
        "Figures are comparable only between runs of one protocol: their fingerprints "
        "(workload, scale, threads, pacing, durations, VM profile, disks, controller, "
        "engine and server version, server settings, client, domain type, drivebench "
        "version; results/SCHEMA.md) are equal. Drives of different protocols are never "
        "ranked together and get no scaling ratio. The layout (VMs and drives) is not part "
        "of the protocol: a 4-VM and an 8-VM run of one protocol are what scaling compares. "
        "A run written before summaries recorded a fingerprint is a protocol of its own.");
    tb = html_table(sec, "protocol-table", heads);
    for (int r = 0; r < s->nruns; r++) {
        const report_run *run = &s->runs[r];
        xmlNodePtr tr = page_row(tb, run, NULL), td;
        char g[16], buf[512];
        page_cell(tr, run->label);
        page_cell(tr, run->run_id);
        td = page_cell(tr, report_group_label(run->group, g, sizeof g));
        html_attr(td, "data-key", "protocol");
        html_attr(tr, "data-group", g);
        page_cell(tr, report_layout(run, buf, sizeof buf));
        td = page_cell(tr, differs_text(s, r, buf, sizeof buf));
        html_attr(td, "data-key", "differs");
        if (run->group != 0)
            html_attr(td, "class", "differs");
    }
    fingerprint_table(s, sec);
}
