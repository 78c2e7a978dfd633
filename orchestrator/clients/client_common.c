/* client_common.c — what the host and guest clients share outside a
 * phase's loop (supervise.c): interval line parsing, the check for a VM
 * that died while booting and the default guest agent transport (see
 * client.h). */
#include "clients/client.h"

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

int orch_dom_gone(virDomainPtr dom, const char *name, char *err, size_t errlen)
{
    int state = 0, reason = 0;
    const char *what;
    if (!dom || virDomainGetState(dom, &state, &reason, 0) < 0)
        return 0;           /* cannot tell: the readiness check decides */
    switch (state) {
    case VIR_DOMAIN_SHUTOFF:
        /* a guest kernel panic (the profiles' pvpanic device) destroys it */
        what = reason == VIR_DOMAIN_SHUTOFF_CRASHED ? "shut off: the guest crashed (kernel panic)"
                                                    : "shut off";
        break;
    case VIR_DOMAIN_CRASHED: what = "crashed"; break;
    case VIR_DOMAIN_PAUSED: what = "paused"; break;
    case VIR_DOMAIN_SHUTDOWN: what = "shutting down"; break;
    default: return 0;
    }
    snprintf(err, errlen, "%s stopped while booting: the domain is %s", name, what);
    return 1;
}

