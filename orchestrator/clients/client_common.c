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

/* The number after `key` in line into *v: 0, or -1 when absent. */
static int number_after(const char *line, const char *key, double *v)
{
    const char *k = strstr(line, key);
    char *end;
    if (!k)
        return -1;
    *v = strtod(k + strlen(key), &end);
    return end == k + strlen(key) ? -1 : 0;
}

int orch_parse_interval(const char *line, orch_interval *iv)
{
    double threads;
    const char *lat;
    char *end;
    memset(iv, 0, sizeof *iv);
    if (line[0] != '[' || number_after(line, "[", &iv->t) < 0
        || number_after(line, " thds: ", &threads) < 0 || number_after(line, " tps: ", &iv->tps) < 0
        || number_after(line, " qps: ", &iv->qps) < 0
        || number_after(line, " err/s: ", &iv->errors_ps) < 0
        || number_after(line, " reconn/s: ", &iv->reconnects_ps) < 0
        || !(lat = strstr(line, " lat (ms,")))
        return -1;
    iv->threads = (int)threads;
    iv->lat_pct = strtod(lat + 9, &end);
    if (end == lat + 9 || strncmp(end, "%): ", 4) != 0)
        return -1;
    lat = end + 4;
    iv->lat_ms = strtod(lat, &end);
    return end == lat ? -1 : 0;
}

void orch_client_line(const orch_client *c, orch_job *job, const char *phase, const char *line)
{
    orch_interval iv;
    if (orch_parse_interval(line, &iv) < 0) {
        orch_parse_tps(line, &job->live_tps);     /* an older oltp's line */
        return;
    }
    job->live_tps = iv.tps;
    if (c->interval_hook)
        c->interval_hook(c->interval_ctx, job, phase, &iv);
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

