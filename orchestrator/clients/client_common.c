/* client_common.c — what the host and guest clients share: interval line
 * parsing, progress lines, the overrun limit and the default guest agent
 * transport (see client.h). */
#include "clients/client.h"
#include "oltp_exit.h"

#include <stdlib.h>
#include <string.h>
#include <libvirt/libvirt-qemu.h>

int orch_parse_tps(const char *line, double *tps)
{
    const char *t = strstr(line, " tps: ");
    char *end;
    double v;
    if (line[0] != '[' || !t)
        return -1;
    v = strtod(t + 6, &end);
    if (end == t + 6)
        return -1;
    *tps = v;
    return 0;
}

void orch_progress(const orch_client *c, const orch_job *jobs, int njobs, const char *phase,
                   int elapsed, int expected)
{
    FILE *out = c->out;
    double total = 0;
    int left = expected - elapsed;
    if (expected > 0 && left > 0 && expected >= 3600)   /* a long phase: h:mm:ss left */
        fprintf(out, "[%s %ds/%ds, %d:%02d:%02d left", phase, elapsed, expected, left / 3600,
                left / 60 % 60, left % 60);
    else if (expected > 0 && left > 0)
        fprintf(out, "[%s %ds/%ds, %ds left", phase, elapsed, expected, left);
    else
        fprintf(out, "[%s %ds/%ds", phase, elapsed, expected);
    if (c->progress_hook)
        c->progress_hook(c->progress_ctx, out, phase, elapsed, expected);
    fputc(']', out);
    for (int i = 0; i < njobs; i++) {
        if (jobs[i].failed) {
            fprintf(out, " %s-vm%d FAILED", jobs[i].vm->drive->id, jobs[i].vm->index);
            continue;
        }
        fprintf(out, " %s-vm%d %.1f", jobs[i].vm->drive->id, jobs[i].vm->index,
                jobs[i].live_tps);
        total += jobs[i].live_tps;
    }
    fprintf(out, " | total %.1f tps\n", total);
    fflush(out);
}

int orch_phase_grace(int expected_s)
{
    return expected_s > 0 ? 120 + expected_s / 10 : 0;
}

int orch_job_vm_failed(const orch_client *c, orch_job *job)
{
    orch_health h;
    if (job->failed)
        return 1;
    if (!c->monitor || !orch_monitor_health(c->monitor, job->slot, &h))
        return 0;
    job->failed = 1;
    return 1;
}

void orch_job_ended(const orch_client *c, orch_job *job, const char *phase)
{
    orch_health h;
    if (job->status == 0)
        return;
    /* the VM's own fault, seen first, explains the client's exit */
    if (orch_job_vm_failed(c, job) && c->monitor
        && orch_monitor_health(c->monitor, job->slot, &h) && h.fault != ORCH_FAULT_CLIENT)
        return;
    job->failed = 1;
    fprintf(c->out, "drivebench: %s: oltp %s exited with status %d\n", job->vm->name, phase,
            job->status);
    fflush(c->out);
    if (!c->monitor)
        return;
    if (job->status == OLTP_EXIT_UNAVAILABLE)
        orch_monitor_fail(c->monitor, job->slot, ORCH_FAULT_DATABASE,
                          "the database stopped answering during %s (oltp could not "
                          "reconnect)", phase);
    else if (job->status == OLTP_EXIT_DISK_FULL)
        orch_monitor_fail(c->monitor, job->slot, ORCH_FAULT_DISK_FULL,
                          "drive %s is full: the database reported its disk full during %s",
                          job->vm->drive->name, phase);
    else if (job->status > 128)
        orch_monitor_fail(c->monitor, job->slot, ORCH_FAULT_CLIENT,
                          "oltp %s was killed by signal %d", phase, job->status - 128);
    else
        orch_monitor_fail(c->monitor, job->slot, ORCH_FAULT_CLIENT,
                          "oltp %s exited with status %d", phase, job->status);
}

int orch_dom_gone(virDomainPtr dom, const char *name, char *err, size_t errlen)
{
    int state = 0, reason = 0;
    const char *what;
    if (!dom || virDomainGetState(dom, &state, &reason, 0) < 0)
        return 0;           /* cannot tell: the readiness check decides */
    switch (state) {
    case VIR_DOMAIN_SHUTOFF: what = "shut off"; break;
    case VIR_DOMAIN_CRASHED: what = "crashed"; break;
    case VIR_DOMAIN_PAUSED: what = "paused"; break;
    case VIR_DOMAIN_SHUTDOWN: what = "shutting down"; break;
    default: return 0;
    }
    snprintf(err, errlen, "%s stopped while booting: the domain is %s", name, what);
    return 1;
}

char *orch_agent_libvirt(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s)
{
    (void)ctx;
    return virDomainQemuAgentCommand(dom, cmd, timeout_s, 0);
}
