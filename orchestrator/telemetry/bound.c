/* bound.c — the verdict on what bounded a drive's figures (bound.h). */
#include "telemetry/bound.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The VM with the highest finite figure at offset off of its qemu
 * figures (or its client_pct when off < 0); -1 when none has one. */
static int busiest(const orch_bound_in *in, long off, double *val)
{
    int best = -1;
    *val = NAN;
    for (int i = 0; i < in->nvms; i++) {
        double x;
        if (off < 0)
            x = in->vms[i].client_pct;
        else if (in->vms[i].qemu)
            x = *(const double *)((const char *)in->vms[i].qemu + off);
        else
            continue;
        if (isfinite(x) && (best < 0 || x > *val)) {
            best = i;
            *val = x;
        }
    }
    return best;
}

#define QOFF(m) ((long)offsetof(res_io_qemu, m))

int orch_bound_judge(const orch_bound_in *in, res_io_bound *out)
{
    char ev[512];
    int vio, vmain, vguest, vcli;
    const char *vm = NULL;
    res_bound_verdict v = RES_BOUND_UNDETERMINED;

    free(out->evidence);
    free(out->vm);
    *out = (res_io_bound){ .tcg = in->tcg, .host_cpu_pct = in->host_cpu_pct,
                           .util_pct = in->util_pct, .queue_depth = in->queue_depth };
    vio = busiest(in, QOFF(io_pct), &out->io_thread_pct);
    vmain = busiest(in, QOFF(main_pct), &out->main_loop_pct);
    vguest = busiest(in, QOFF(vcpu_pct), &out->guest_cpu_pct);
    vcli = busiest(in, -1, &out->client_cpu_pct);

    if (in->tcg) {
        v = RES_BOUND_HOST_CPU;
        if (isfinite(in->host_cpu_pct))
            snprintf(ev, sizeof ev, "the VMs ran under TCG: every guest instruction is "
                     "emulated on the host's CPUs (host CPU %.1f %% busy)", in->host_cpu_pct);
        else
            snprintf(ev, sizeof ev, "the VMs ran under TCG: every guest instruction is "
                     "emulated on the host's CPUs (host CPU not measured)");
    } else if (in->host_cpu_pct >= ORCH_BOUND_HOST_PCT) {
        v = RES_BOUND_HOST_CPU;
        snprintf(ev, sizeof ev, "host CPU %.1f %% busy >= %.0f %%", in->host_cpu_pct,
                 ORCH_BOUND_HOST_PCT);
    } else if (vio >= 0 && out->io_thread_pct >= ORCH_BOUND_THREAD_PCT) {
        v = RES_BOUND_HOST_CPU;
        vm = in->vms[vio].name;
        snprintf(ev, sizeof ev, "%s: QEMU I/O thread(s) %.1f %% of one CPU >= %.0f %%", vm,
                 out->io_thread_pct, ORCH_BOUND_THREAD_PCT);
    } else if (in->user_net && vmain >= 0 && out->main_loop_pct >= ORCH_BOUND_THREAD_PCT) {
        v = RES_BOUND_NETWORK;
        vm = in->vms[vmain].name;
        snprintf(ev, sizeof ev, "%s: QEMU main loop (user-mode network) %.1f %% of one CPU "
                 ">= %.0f %%", vm, out->main_loop_pct, ORCH_BOUND_THREAD_PCT);
    } else if (vguest >= 0 && out->guest_cpu_pct >= ORCH_BOUND_GUEST_PCT) {
        v = RES_BOUND_GUEST_CPU;
        vm = in->vms[vguest].name;
        snprintf(ev, sizeof ev, "%s: vCPU threads %.1f %% busy on average >= %.0f %%", vm,
                 out->guest_cpu_pct, ORCH_BOUND_GUEST_PCT);
    } else if (vcli >= 0 && out->client_cpu_pct >= ORCH_BOUND_CLIENT_PCT) {
        v = RES_BOUND_CLIENT;
        vm = in->vms[vcli].name;
        snprintf(ev, sizeof ev, "%s: oltp used %.1f %% of its event threads' CPU >= %.0f %%",
                 vm, out->client_cpu_pct, ORCH_BOUND_CLIENT_PCT);
    } else if (in->util_pct >= ORCH_BOUND_UTIL_PCT) {
        v = RES_BOUND_DRIVE;
        snprintf(ev, sizeof ev, "device %.1f %% utilised >= %.0f %% (queue %.2f), nothing "
                 "else at its limit", in->util_pct, ORCH_BOUND_UTIL_PCT, in->queue_depth);
    } else {
        int n = snprintf(ev, sizeof ev, "nothing at its limit:");
        const struct { const char *what; double x; } f[] = {
            { "host CPU", in->host_cpu_pct }, { "device utilisation", in->util_pct },
            { "vCPU threads", out->guest_cpu_pct }, { "QEMU main loop", out->main_loop_pct },
            { "oltp", out->client_cpu_pct },
        };
        for (size_t i = 0; i < sizeof f / sizeof f[0] && n > 0 && (size_t)n < sizeof ev; i++)
            n += isfinite(f[i].x)
                 ? snprintf(ev + n, sizeof ev - (size_t)n, "%s %s %.1f %%", i ? ";" : "",
                            f[i].what, f[i].x)
                 : snprintf(ev + n, sizeof ev - (size_t)n, "%s %s not measured", i ? ";" : "",
                            f[i].what);
    }
    out->verdict = v;
    out->evidence = strdup(ev);
    out->vm = vm ? strdup(vm) : NULL;
    return out->evidence && (!vm || out->vm) ? 0 : -1;
}

int orch_bound_client_threads(int conns, bool pooled, int ncpu)
{
    int n;
    if (conns < 1)
        conns = 1;
    if (ncpu < 1)
        ncpu = 1;
    n = pooled ? 1 + (conns - 1) / 256 : conns;
    if (n > ncpu)
        n = ncpu;
    return n < conns ? n : conns;
}

orch_qemu_role orch_bound_thread_role(const char *comm, int is_main)
{
    int k;
    if (is_main)
        return ORCH_QT_MAIN;
    /* QEMU names them with debug-threads=on (libvirt's default):
     * "CPU 0/KVM", "CPU 1/TCG", "ALL CPUs/TCG" (single-threaded TCG),
     * "IO iothread1"; "IO mon_iothread" serves the monitor */
    if ((sscanf(comm, "CPU %d/", &k) == 1 || strncmp(comm, "ALL CPUs/", 9) == 0))
        return ORCH_QT_VCPU;
    if (strncmp(comm, "IO ", 3) == 0 && strncmp(comm, "IO mon_", 7) != 0)
        return ORCH_QT_IO;
    return ORCH_QT_OTHER;
}

long long orch_bound_stat_ticks(const char *stat)
{
    /* "pid (comm) state ppid ... utime stime": fields 14 and 15, counted
     * from after the last ')' (a comm may hold spaces and parentheses) */
    const char *p = stat ? strrchr(stat, ')') : NULL;
    unsigned long long ut, st;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
                     &st) != 2)
        return -1;
    return (long long)(ut + st);
}
