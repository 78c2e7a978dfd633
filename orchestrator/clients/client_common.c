/* client_common.c — what the host and guest clients share outside a
 * phase's loop (supervise.c): interval line parsing, the check for a VM
 * that died while booting and the default guest agent transport (see
 * client.h). */
#include "clients/client.h"

#include <stdlib.h>
#include <string.h>
#include <libvirt/libvirt-qemu.h>

void orch_last_line(const char *text, char *out, size_t outlen)
{
    const char *line = text;
    out[0] = '\0';
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        if (n)
            snprintf(out, outlen, "%.*s", (int)(n < outlen ? n : outlen - 1), line);
        line = nl ? nl + 1 : NULL;
    }
}

void orch_tls_failed(const orch_client *c, const char *name, const char *where,
                     const char *why, char *err, size_t errlen)
{
    const orch_plan *p = c->plan;
    snprintf(err, errlen, "%s: the TLS handshake with %s%s failed; check [workload] encrypt, "
             "trust_server_certificate and tls_security_level (a SQL Server 2014 signing with "
             "SHA-1 needs tls_security_level = 0 with ODBC Driver 18): %s", name,
             p->engine->label, where, why[0] ? why : "no output");
}

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

