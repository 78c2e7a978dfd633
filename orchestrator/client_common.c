/* client_common.c — what the host and guest clients share: interval line
 * parsing, progress lines, the overrun limit and the default guest agent
 * transport (see client.h). */
#include "client.h"

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

void orch_progress(FILE *out, const orch_job *jobs, int njobs, const char *phase, int elapsed,
                   int expected)
{
    double total = 0;
    fprintf(out, "[%s %ds/%ds]", phase, elapsed, expected);
    for (int i = 0; i < njobs; i++) {
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

char *orch_agent_libvirt(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s)
{
    (void)ctx;
    return virDomainQemuAgentCommand(dom, cmd, timeout_s, 0);
}
