/* estimate.c — a plan's cost before it runs, and the run's ETA (see
 * estimate.h). */
#include "run/estimate.h"
#include "virt/virt.h"
#include "util/util.h"          /* orch_format_bytes */

#include <stdlib.h>
#include <string.h>

const char *orch_hms(int seconds, char *buf, size_t len)
{
    if (seconds < 0)
        seconds = 0;
    snprintf(buf, len, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    return buf;
}

/* One line per host: its VMs' memory and vCPUs against its own. */
static void print_hosts(const orch_host_cap *h, int n, FILE *out)
{
    for (int k = 0; k < n; k++) {
        char a[32], b[32], c[32], d[32];
        fprintf(out, "host %s: %d VM(s) need %s of memory (%d x %s + 100 MiB for QEMU each) "
                "of its %s", h[k].uri, h[k].vms, orch_format_bytes(h[k].need, a, sizeof a),
                h[k].vms, orch_format_bytes(h[k].vm_memory, b, sizeof b),
                orch_format_bytes(h[k].memory, c, sizeof c));
        if (h[k].free)
            fprintf(out, " (%s free)", orch_format_bytes(h[k].free, d, sizeof d));
        fprintf(out, ", and %d vCPU(s) of its %d CPU(s)%s\n", h[k].vcpus, h[k].cpus,
                h[k].vcpus > h[k].cpus ? " (more than it has: refused unless overcommit = yes)" : "");
    }
}

/* One line per place the drives take space from. */
static void print_drives(const orch_space_group *g, int n, FILE *out)
{
    for (int k = 0; k < n; k++) {
        char a[32], b[32], c[32];
        int many = strchr(g[k].names, ',') != NULL;
        fprintf(out, "drive%s %s (%s%s", many ? "s" : "", g[k].names, g[k].pool ? "pool " : "",
                g[k].where);
        if (g[k].known)
            fprintf(out, ", %s free", orch_format_bytes(g[k].avail, a, sizeof a));
        else
            fprintf(out, " on %s, free space known once its pool exists", g[k].uri);
        fprintf(out, "): %s volumes need %s plus %s headroom%s\n", many ? "their" : "its",
                orch_format_bytes(g[k].need, b, sizeof b),
                orch_format_bytes(g[k].headroom, c, sizeof c),
                g[k].known && g[k].avail < g[k].need + g[k].headroom ? ": SHORT" : "");
    }
}

/* The duration: the fixed phases exactly, boots bounded, the database's
 * preparation named (nothing times it before the run). */
static void print_duration(const orch_plan *p, const orch_template *t, FILE *out)
{
    int fixed = p->precondition_s + p->measure_s;
    int seeded = orch_template_disk_size(t, "seeddisk") != 0;
    int none = strcmp(p->prepare, "no") == 0;
    char pre[16], mea[16], all[16], boot[16], most[16];

    fprintf(out, "duration: %d repetition(s) x (precondition %s + measure %s) = %s\n",
            p->repetitions, orch_hms(p->precondition_s, pre, sizeof pre),
            orch_hms(p->measure_s, mea, sizeof mea), orch_hms(p->repetitions * fixed, all, sizeof all));
    fprintf(out, "  plus per repetition the boot (at most boot_timeout %s)%s, measured by the run "
            "in its first repetition: at least %s, at most %s%s\n",
            orch_hms(p->boot_timeout_s, boot, sizeof boot),
            none ? "" : strcmp(p->prepare, "auto") == 0 && seeded
                        ? " and the restore of each database volume from its seed"
                        : " and the prepare of each database",
            all, orch_hms(p->repetitions * (fixed + p->boot_timeout_s), most, sizeof most),
            none ? "" : seeded && strcmp(p->prepare, "auto") == 0 ? " plus the restores"
                                                                  : " plus the prepares");
}

/* A sweep's duration (issue 45): on the same VMs one boot, preparation
 * and precondition, then each later step its warm-up and measure; else
 * every step the whole run above. */
static void print_sweep(const orch_plan *p, FILE *out)
{
    char why[256], warm[16], first[16], step[16], all[16];
    int n = p->nsweep, fixed = p->precondition_s + p->measure_s;
    int later = orch_plan_step_warmup(p) + p->measure_s;
    if (orch_plan_sweep_same_vms(p, why, sizeof why)) {
        fprintf(out, "sweep of [%s] %s: %d steps on the same VMs: one boot, preparation and "
                "precondition, then each step after the first its warm-up and measure "
                "(step_warmup %s + measure): %s + %d x %s = %s\n", p->sweep_section, p->sweep_key,
                n, orch_hms(orch_plan_step_warmup(p), warm, sizeof warm),
                orch_hms(fixed, first, sizeof first), n - 1, orch_hms(later, step, sizeof step),
                orch_hms(fixed + (n - 1) * later, all, sizeof all));
        return;
    }
    fprintf(out, "sweep of [%s] %s: %d steps, each a run of its own, re-provisioned (%s): %d x "
            "the duration above, fixed phases %s\n", p->sweep_section, p->sweep_key, n, why, n,
            orch_hms(n * p->repetitions * fixed, all, sizeof all));
}

int orch_estimate(orch_conns *conns, const orch_plan *p, const orch_template *t, FILE *out,
                  char *err, size_t errlen)
{
    orch_host_cap *hosts = NULL;
    orch_space_group *groups = NULL;
    int nh = 0, ng = 0, rc = -1, short_drives = 0;

    fprintf(out, "estimate of %s: %d drive(s), %d VM(s), profile %s, workload %s\n", p->file,
            p->ndrives, orch_plan_total_vms(p), p->profile, p->workload);
    if (orch_host_caps(conns, p, t, &hosts, &nh, err, errlen) < 0
        || orch_space_groups(conns, p, t, &groups, &ng, err, errlen) < 0)
        goto cleanup;
    print_hosts(hosts, nh, out);
    print_drives(groups, ng, out);
    print_duration(p, t, out);
    if (p->sweep_key)
        print_sweep(p, out);
    fflush(out);
    for (int k = 0; k < ng; k++)
        short_drives += groups[k].known && groups[k].avail < groups[k].need + groups[k].headroom;
    if (orch_memory_check(p, hosts, nh, out, err, errlen) < 0)
        goto cleanup;
    if (short_drives && orch_space_check(conns, p, t, out, err, errlen) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    free(hosts);
    free(groups);
    return rc;
}

void orch_eta_init(orch_eta *e, const orch_plan *p)
{
    memset(e, 0, sizeof *e);
    e->reps = p->repetitions;
    e->precondition_s = p->precondition_s;
    e->measure_s = p->measure_s;
    e->overhead_s = -1;
}

void orch_eta_rep_begin(orch_eta *e, int rep, time_t now)
{
    e->rep = rep;
    e->rep_start = now;
}

void orch_eta_rep_end(orch_eta *e, time_t now)
{
    int o = (int)(now - e->rep_start) - e->precondition_s - e->measure_s;
    if (e->overhead_s < 0)
        e->overhead_s = o > 0 ? o : 0;
}

int orch_eta_left(const orch_eta *e, time_t now, const char *phase, int elapsed, int expected)
{
    int measure = strcmp(phase, "measure") == 0, left = expected - elapsed, overhead;
    if (left < 0)
        left = 0;
    if (strcmp(phase, "precondition") == 0)
        left += e->measure_s;
    overhead = e->overhead_s;
    if (overhead < 0) {     /* the first repetition: its boot and prepare so far */
        overhead = (int)(now - e->rep_start) - elapsed - (measure ? e->precondition_s : 0);
        if (overhead < 0)
            overhead = 0;
    }
    if (e->reps > e->rep)
        left += (e->reps - e->rep) * (e->precondition_s + e->measure_s + overhead);
    return left + e->later_s;
}

void orch_eta_progress(void *ctx, FILE *out, const char *phase, int elapsed, int expected)
{
    const orch_eta *e = ctx;
    time_t now = time(NULL), end;
    struct tm tm;
    char hms[16], at[16];
    if (!e || expected <= 0)
        return;
    end = now + orch_eta_left(e, now, phase, elapsed, expected);
    localtime_r(&end, &tm);
    strftime(at, sizeof at, "%H:%M", &tm);
    fprintf(out, "; run %s left, ETA %s", orch_hms((int)(end - now), hms, sizeof hms), at);
}
