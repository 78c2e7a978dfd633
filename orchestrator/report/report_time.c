/* report_time.c — TPS over time (page.h): one chart of the drives' summed
 * series, then one chart per drive and run with a line per VM. */
#include <libxml/tree.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "util/util.h"

/* "drive" with the repetition when the run has several. Caller frees. */
static char *series_label(const report_page *pg, const report_run *run, const char *name, int rep)
{
    if (run->repetitions > 1)
        return pg->multi ? orch_strfmt("%s [%s] r%d", name, run->label, rep)
                         : orch_strfmt("%s r%d", name, rep);
    return page_drive_label(pg, run, name);
}

/* Per drive and repetition: the sum of its VMs' interval tps, aligned by
 * interval index. Series labels and arrays are freed by the caller. */
static int time_chart_drives(report_page *pg, xmlNodePtr sec)
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
static int time_chart_vms(report_page *pg, xmlNodePtr sec, const report_run *run, int d,
                          int chart_no)
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

int page_section_time(report_page *pg)
{
    xmlNodePtr sec = page_section(pg, "time", "TPS over time",
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
