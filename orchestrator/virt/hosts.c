/* hosts.c — the hosts of a run (see hosts.h). */
#include "virt/hosts.h"
#include "virt/teardown.h"
#include "virt/virt_error.h"
#include "util/util.h"
#include "nap.h"
#include "results_env.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <libvirt/virterror.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

/* The text of the first node at xpath in the XML document xml (new
 * string), or NULL when absent or empty. */
static char *xml_text(const char *xml, const char *xpath)
{
    xmlDocPtr doc = xml ? xmlReadMemory(xml, (int)strlen(xml), "host.xml", NULL,
                                        XML_PARSE_NONET | XML_PARSE_NOERROR
                                        | XML_PARSE_NOWARNING) : NULL;
    xmlXPathContextPtr ctx = doc ? xmlXPathNewContext(doc) : NULL;
    xmlXPathObjectPtr r = ctx ? xmlXPathEvalExpression(BAD_CAST xpath, ctx) : NULL;
    char *out = NULL;
    if (r && r->nodesetval && r->nodesetval->nodeNr > 0) {
        xmlChar *t = xmlNodeGetContent(r->nodesetval->nodeTab[0]);
        if (t && t[0])
            out = strdup((const char *)t);
        xmlFree(t);
    }
    xmlXPathFreeObject(r);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return out;
}

int orch_host_describe(virConnectPtr conn, const char *uri, res_hypervisor *h)
{
    virNodeInfo info;
    char *sysinfo = virConnectGetSysinfo(conn, 0);
    char *caps = NULL;
    int oom = 0;

    if (virNodeGetInfo(conn, &info) == 0) {
        h->cpus = info.cpus;
        h->cpu_mhz = info.mhz;
        h->memory_bytes = (int64_t)info.memory * 1024;
        oom |= !(h->arch = strdup(info.model));
    }
    /* SMBIOS names the processor as people know it; the capabilities'
     * CPU model (libvirt's name for the nearest CPU definition) otherwise */
    h->cpu_model = xml_text(sysinfo, "/sysinfo/processor/entry[@name='version']");
    if (!h->cpu_model && (caps = virConnectGetCapabilities(conn))) {
        char *model = xml_text(caps, "/capabilities/host/cpu/model");
        char *vendor = xml_text(caps, "/capabilities/host/cpu/vendor");
        if (model)
            oom |= !(h->cpu_model = vendor ? orch_strfmt("%s %s", vendor, model)
                                           : strdup(model));
        free(model);
        free(vendor);
    }
    if (!orch_uri_is_remote(uri)) {
        struct utsname u;
        if (uname(&u) == 0)
            oom |= !(h->kernel = strdup(u.release));
        h->cpu_flags = orch_cpuinfo_flags("/proc/cpuinfo");
    }
    virResetLastError();        /* what is not known stays unrecorded */
    free(sysinfo);
    free(caps);
    return oom ? -1 : 0;
}

char *orch_cpuinfo_flags(const char *path)
{
    FILE *f = fopen(path, "r");
    char *line = NULL, *out = NULL;
    size_t cap = 0;
    while (f && !out && getline(&line, &cap, f) > 0) {
        char *colon = strchr(line, ':'), *v;
        if (strncmp(line, "flags", 5) != 0 || !colon)
            continue;
        v = colon + 1 + strspn(colon + 1, " \t");
        v[strcspn(v, "\n")] = '\0';
        out = strdup(v);
    }
    free(line);
    if (f)
        fclose(f);
    return out;
}

int orch_hosts_write(const orch_plan *p, const char *run_dir, char *err, size_t errlen)
{
    char *path = orch_strfmt("%s/hosts", run_dir);
    FILE *f = path ? fopen(path, "w") : NULL;
    int rc = -1;
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path ? path : "hosts", strerror(errno));
        goto cleanup;
    }
    for (int d = 0; d < p->ndrives; d++) {
        const char *uri = orch_plan_drive_uri(p, &p->drives[d]);
        int seen = 0;
        for (int k = 0; k < d; k++)
            seen |= strcmp(orch_plan_drive_uri(p, &p->drives[k]), uri) == 0;
        if (!seen)
            fprintf(f, "%s\n", uri);
    }
    if (fclose(f) != 0) {
        f = NULL;
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    rc = 0;
cleanup:
    free(path);
    return rc;
}

char **orch_hosts_read(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[4096], **uris = NULL;
    int n = 0;
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
        errno = e;
        return NULL;
    }
    if (!(uris = calloc(1, sizeof *uris)))
        goto oom;
    while (fgets(line, sizeof line, f)) {
        char **u;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0])
            continue;
        if (!(u = realloc(uris, sizeof *u * (size_t)(n + 2))))
            goto oom;
        uris = u;
        if (!(uris[n] = strdup(line)))
            goto oom;
        uris[++n] = NULL;
    }
    fclose(f);
    return uris;
oom:
    fclose(f);
    orch_hosts_free(uris);
    snprintf(err, errlen, "out of memory");
    errno = ENOMEM;
    return NULL;
}

void orch_hosts_free(char **uris)
{
    for (int i = 0; uris && uris[i]; i++)
        free(uris[i]);
    free(uris);
}

int orch_hosts_teardown(const char *const *uris, const char *prefix, int attempts,
                        int delay_ms, FILE *log, orch_counts *removed)
{
    int unclean = 0;
    orch_virt_error_init();                    /* reported here, with the host */
    for (int i = 0; uris && uris[i]; i++) {
        int left = 1, delay = delay_ms;
        for (int a = 1; a <= attempts && left; a++) {
            virConnectPtr conn;
            if (a > 1) {
                if (log)
                    fprintf(log, "teardown: %s: attempt %d of %d in %d ms\n", uris[i], a,
                            attempts, delay);
                nap_ms(delay);
                delay *= 2;
            }
            if (!(conn = virConnectOpen(uris[i]))) {
                if (log)
                    fprintf(log, "teardown: cannot connect to %s: %s\n", uris[i],
                            orch_virt_error());
                continue;
            }
            left = orch_teardown_prefix(conn, prefix, log, removed) > 0;
            virConnectClose(conn);
        }
        unclean += left;
    }
    return unclean;
}

int orch_hosts_teardown_run(const char *run_dir, const char *run_id, FILE *log,
                            orch_counts *removed, char *err, size_t errlen)
{
    char *path = orch_strfmt("%s/hosts", run_dir);
    char *prefix = orch_object_prefix(run_id);
    char **uris = path ? orch_hosts_read(path, err, errlen) : NULL;
    int rc = -1;
    if (!path || !prefix)
        snprintf(err, errlen, "out of memory");
    else if (uris)
        rc = orch_hosts_teardown((const char *const *)uris, prefix, ORCH_TEARDOWN_ATTEMPTS,
                                 ORCH_TEARDOWN_DELAY_MS, log, removed);
    orch_hosts_free(uris);
    free(prefix);
    free(path);
    return rc;
}
