/* report_scaling.c — comparisons across runs (page.h): each run against
 * the run with the fewest VMs, then each drive present in several runs. */
#include <libxml/tree.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "util/util.h"

/* The figures of a drive or a whole run in a scaling row: VMs, TPS in
 * all and per VM, latencies, and the ratio. */
static void scaling_cells(xmlNodePtr tr, const res_figures *f, const report_run *run,
                          const report_run *base, int base_vms, double ratio,
                          const report_ratio_ci *ci)
{
    int vms = f->vms;
    char buf[64];
    xmlNodePtr td;
    page_num(tr, "vms", vms, 0);
    page_num(tr, "tps", f->tps, 2);
    page_num(tr, "tps_per_vm", f->tps_per_vm, 2);
    page_latency_cells(tr, f);
    if (!base) {                /* failed VMs or a partial run: no ratio */
        int partial = report_run_partial(run) && !f->failed_vms;
        html_attr(tr, "class", partial ? "incomplete partial" : "incomplete");
        page_cell(tr, "");
        td = page_cell(tr, partial ? "partial run \xe2\x80\x94 not comparable" : SVG_INCOMPLETE);
        html_attr(td, "class", "incomplete");
        html_attr(td, "data-key", "scaling_ratio");
        html_attr(td, "data-value", "");
        page_cell(tr, "");
        return;
    }
    snprintf(buf, sizeof buf, "%d / %d (%s)", vms, base_vms, base->label);
    page_cell(tr, buf);
    page_num(tr, "scaling_ratio", ratio, 3);
    /* issue 29: the ratio's 95 % interval from the repetitions, or why none */
    if (ci->none)
        td = page_cell(tr, ci->none);
    else {
        char lo[32], hi[32], text[80];
        snprintf(text, sizeof text, "[%.3f, %.3f]", ci->lo, ci->hi);
        td = page_cell(tr, text);
        html_attr(td, "data-lo", report_num(ci->lo, lo, sizeof lo));
        html_attr(td, "data-hi", report_num(ci->hi, hi, sizeof hi));
    }
    html_attr(td, "data-key", "scaling_ratio_ci");
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
void page_section_scaling(report_page *pg)
{
    static const char *const run_heads[] = { "run", "VMs", "TPS (all VMs)", "TPS per VM",
                                             "avg latency (ms)", "p99 latency (ms)",
                                             "mean of VMs' p99 (ms)", "VMs vs base",
                                             "scaling ratio (TPS vs base)",
                                             "95 % interval", NULL };
    static const char *const drive_heads[] = { "drive", "run", "VMs", "TPS (all VMs)",
                                               "TPS per VM", "avg latency (ms)",
                                               "p99 latency (ms)", "mean of VMs' p99 (ms)",
                                               "VMs vs base", "scaling ratio (TPS vs base)",
                                               "95 % interval", NULL };
    xmlNodePtr sec, tb = NULL;
    if (!pg->multi)
        return;
    sec = page_section(pg, "scaling", "Scaling across runs",
        "Whole runs, then the same drive in several runs (e.g. 4 VMs and 8 VMs). The base "
        "is the run with the fewest VMs (on that drive); the scaling ratio is TPS over the "
        "base's TPS; TPS per VM is over the healthy VM runs. A run or drive with failed VMs, "
        "and a partial run (stopped early), is not comparable: it has no ratio and is never "
        "the base. The ratio's 95 % interval comes from the repetitions of both sides (the "
        "delta method on the log of the ratio of the means, Welch-Satterthwaite degrees of "
        "freedom); with one repetition on either side there is none.");
    tb = html_table(sec, "run-scaling-table", run_heads);
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        int br;
        double ratio = report_run_scaling(pg->s, r, &br);
        report_ratio_ci ci = report_scaling_ci(pg->s, r, -1);
        xmlNodePtr tr = page_row(tb, run, NULL);
        page_cell(tr, run->label);
        scaling_cells(tr, &run->sum.run, run, br >= 0 ? &pg->s->runs[br] : NULL,
                      br >= 0 ? pg->s->runs[br].sum.run.vms : 0, ratio, &ci);
    }
    tb = NULL;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++) {
            const report_run *run = &pg->s->runs[r];
            const report_drive *dr = &run->drives[d];
            int br, bd;
            double ratio = report_scaling(pg->s, r, d, &br, &bd);
            report_ratio_ci ci = report_scaling_ci(pg->s, r, d);
            xmlNodePtr tr;
            if (br < 0 && !((dr->incomplete || report_run_partial(run))
                            && in_other_run(pg->s, r, dr->name)))
                continue;
            if (!tb)
                tb = html_table(sec, "scaling-table", drive_heads);
            tr = page_row(tb, run, dr->name);
            page_cell(tr, dr->name);
            page_cell(tr, run->label);
            scaling_cells(tr, &dr->d->f, run, br >= 0 ? &pg->s->runs[br] : NULL,
                          br >= 0 ? pg->s->runs[br].drives[bd].vms : 0, ratio, &ci);
        }
}
