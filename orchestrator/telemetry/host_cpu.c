/* host_cpu.c — the host's CPU during the measured phases (telemetry.h):
 * /proc/stat at each measured phase's start and end, the busy share
 * weighted by the phases' lengths, and the summary's verdict on it. */
#include "telemetry/telemetry_state.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* /proc/stat, read whole: its "intr" line grows with the interrupts */
#define PROC_STAT_MAX ((size_t)4 << 20)

/* busy and total jiffies of the "cpu " line; -1 when absent. */
static int cpu_line(const char *text, double *busy, double *total)
{
    const char *l = text ? strstr(text, "cpu ") : NULL;
    double v[10] = { 0 };
    int n;
    if (!l)
        return -1;
    n = sscanf(l + 4, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
    if (n < 4)
        return -1;
    *total = 0;
    /* guest and guest_nice (8, 9) are already counted in user and nice */
    for (int i = 0; i < n && i < 8; i++)
        *total += v[i];
    *busy = *total - v[3] - (n > 4 ? v[4] : 0);
    return 0;
}

double orch_tel_cpu_busy_pct(const char *stat_before, const char *stat_after)
{
    double b0, t0, b1, t1;
    if (cpu_line(stat_before, &b0, &t0) < 0 || cpu_line(stat_after, &b1, &t1) < 0
        || t1 <= t0)
        return NAN;
    return (b1 - b0) / (t1 - t0) * 100.0;
}

void tel_cpu_tick(orch_telemetry *t, double now)
{
    char *text = orch_file_read(t->seams.proc_stat, PROC_STAT_MAX);
    tel_cpu_sample s = { .t = now };
    if (text && cpu_line(text, &s.busy, &s.total) == 0) {
        if (t->ncpu == t->cpucap) {
            int ncap = t->cpucap ? 2 * t->cpucap : 64;
            tel_cpu_sample *n = realloc(t->cpu, (size_t)ncap * sizeof *n);
            if (n) {
                t->cpu = n;
                t->cpucap = ncap;
            }
        }
        if (t->ncpu < t->cpucap)
            t->cpu[t->ncpu++] = s;
    }
    free(text);
}

void tel_cpu_phase_start(orch_telemetry *t, double now)
{
    t->ncpu = 0;
    tel_cpu_tick(t, now);
}

/* The sample nearest time x, or -1. */
static int nearest(const orch_telemetry *t, double x)
{
    int best = -1;
    for (int i = 0; i < t->ncpu; i++)
        if (best < 0 || fabs(t->cpu[i].t - x) < fabs(t->cpu[best].t - x))
            best = i;
    return best;
}

void tel_cpu_phase_end(orch_telemetry *t, double now, double w0, double w1)
{
    int a, b;
    tel_cpu_tick(t, now);
    if (!(w1 > w0)) {
        w0 = t->phase_t0;       /* no window: from the warm-up's end */
        w1 = now;
    }
    a = nearest(t, w0);
    b = nearest(t, w1);
    if (a >= 0 && b > a && t->cpu[b].total > t->cpu[a].total) {
        double busy = (t->cpu[b].busy - t->cpu[a].busy) / (t->cpu[b].total - t->cpu[a].total)
                      * 100.0;
        double len = t->cpu[b].t - t->cpu[a].t;
        t->busy_sum += busy * len;
        t->busy_w += len;
    }
}

void orch_telemetry_cpu_swap(orch_telemetry *t, orch_tel_cpu_acc *acc)
{
    orch_tel_cpu_acc had;
    if (!t)
        return;
    had = (orch_tel_cpu_acc){ .sum = t->busy_sum, .w = t->busy_w };
    t->busy_sum = acc->sum;
    t->busy_w = acc->w;
    *acc = had;
}

int tel_env_tcg(const res_env *env)
{
    int tcg = 0;
    for (int h = 0; h < env->nhypervisors; h++)
        tcg |= env->hypervisors[h].domain_type
               && strcmp(env->hypervisors[h].domain_type, "qemu") == 0;
    return tcg;
}

void tel_cpu_fill(const orch_telemetry *t, const res_env *env, res_io *io)
{
    int tcg = tel_env_tcg(env);
    if (t->busy_w <= 0)
        return;
    io->host_cpu_busy_pct = t->busy_sum / t->busy_w;
    io->host_saturated = io->host_cpu_busy_pct >= ORCH_TEL_CPU_SATURATED_PCT;
    if (tcg)
        io->host_cpu_note = strdup(
            "the VMs ran under TCG (software emulation, no KVM): the host CPU, not the "
            "drive, bounds every figure of this run");
    else if (io->host_saturated)
        io->host_cpu_note = strdup(
            "the host CPU was saturated during the measured phase: the results measure "
            "the host more than the drive");
    io->host_saturated |= tcg;
}
