/* fingerprint.c — the report's protocols (report.h): runs whose summaries
 * record equal fingerprints share a group; a run without one (written
 * before summaries recorded it) is a group of its own, since nothing says
 * what it ran. The report ranks and scales only within a group. */
#include "report/report.h"
#include "util/util.h"
#include "results_fingerprint.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int report_fp_diff(const report_run *a, const report_run *b, char *buf, size_t len)
{
    res_fp_item ia[RES_FP_MAX_KEYS], ib[RES_FP_MAX_KEYS];
    int n, nd = 0;
    size_t used = 0;
    buf[0] = '\0';
    if (!a->sum.fp || !b->sum.fp) {
        snprintf(buf, len, REPORT_NO_FP);
        return -1;
    }
    n = res_fingerprint_items(a->sum.fp, ia);
    res_fingerprint_items(b->sum.fp, ib);
    for (int i = 0; i < n; i++)
        if (strcmp(ia[i].value, ib[i].value) != 0) {
            int w = snprintf(buf + used, used < len ? len - used : 0, "%s%s", nd ? ", " : "",
                             ia[i].key);
            used += w > 0 ? (size_t)w : 0;
            nd++;
        }
    return nd;
}

void report_group_runs(report_set *s)
{
    char buf[512];
    s->ngroups = 0;
    for (int r = 0; r < s->nruns; r++)
        s->runs[r].group = -1;
    for (int r = 0; r < s->nruns; r++) {
        for (int g = 0; g < s->ngroups && s->runs[r].group < 0; g++)
            if (report_fp_diff(&s->runs[report_group_first(s, g)], &s->runs[r], buf,
                               sizeof buf) == 0)
                s->runs[r].group = g;
        if (s->runs[r].group < 0)
            s->runs[r].group = s->ngroups++;
    }
}

int report_group_first(const report_set *s, int g)
{
    for (int r = 0; r < s->nruns; r++)
        if (s->runs[r].group == g)
            return r;
    return -1;
}

const char *report_group_label(int g, char *buf, size_t len)
{
    snprintf(buf, len, "P%d", g + 1);
    return buf;
}

/* VMs of drive `name` in the run's first repetition (failed ones too):
 * the layout, as planned. */
static int drive_vms(const report_run *run, const char *name)
{
    int n = 0;
    for (int v = 0; v < run->nvms; v++)
        n += run->vms[v].repetition == 1 && strcmp(run->vms[v].drive, name) == 0;
    return n;
}

const char *report_layout(const report_run *run, char *buf, size_t len)
{
    int drives = run->ndrives, vms = 0, each = drives ? drive_vms(run, run->drives[0].name) : 0;
    int same = drives > 0;
    for (int d = 0; d < drives; d++) {
        int n = drive_vms(run, run->drives[d].name);
        vms += n;
        same &= n == each;
    }
    if (same)
        snprintf(buf, len, "%d drive%s \xc3\x97 %d VM%s", drives, drives == 1 ? "" : "s",
                 each, each == 1 ? "" : "s");
    else
        snprintf(buf, len, "%d VMs on %d drives", vms, drives);
    return buf;
}

int report_is_results_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int found = 0;
    while (d && !found && (de = readdir(d))) {
        char *p = de->d_name[0] != '.' ? orch_strfmt("%s/%s/summary.json", dir, de->d_name) : NULL;
        found = p && access(p, F_OK) == 0;
        free(p);
    }
    if (d)
        closedir(d);
    return found;
}
