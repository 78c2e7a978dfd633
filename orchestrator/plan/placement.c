/* placement.c — the host's topology from its capabilities and each VM's
 * place on it (placement.h). */
#include "plan/placement.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xpath.h>

#define MAX_SET_CPUS 4096

void orch_topo_clear(orch_host_topo *t)
{
    free(t->cpus);
    memset(t, 0, sizeof *t);
}

static void place_init(orch_vm_place *pl);

void orch_vm_place_clear(orch_vm_place *pl)
{
    free(pl->vcpu_cpu);
    place_init(pl);
}

static void place_init(orch_vm_place *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->node = -1;
}

static char *prop(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetProp(n, BAD_CAST name);
}

int orch_topo_parse(const char *caps_xml, orch_host_topo *t, char *err, size_t errlen)
{
    xmlDocPtr doc = xmlReadMemory(caps_xml, (int)strlen(caps_xml), "capabilities.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlXPathContextPtr ctx = doc ? xmlXPathNewContext(doc) : NULL;
    xmlXPathObjectPtr cpus = ctx ? xmlXPathEvalExpression(
        BAD_CAST "/capabilities/host/topology/cells/cell/cpus/cpu", ctx) : NULL;
    char **sib = NULL;
    int n = cpus && cpus->nodesetval ? cpus->nodesetval->nodeNr : 0, rc = -1;

    memset(t, 0, sizeof *t);
    if (!cpus) {
        snprintf(err, errlen, "the host's capabilities are not XML");
        goto out;
    }
    if (n == 0) {
        rc = 0;
        goto out;
    }
    if (!(t->cpus = calloc((size_t)n, sizeof *t->cpus)) || !(sib = calloc((size_t)n, sizeof *sib))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        xmlNodePtr c = cpus->nodesetval->nodeTab[i], cell = c->parent ? c->parent->parent : NULL;
        char *id = prop(c, "id"), *node = cell ? prop(cell, "id") : NULL;
        char *end = NULL;
        long v = id ? strtol(id, &end, 10) : -1;
        if (!id || !node || *end || v < 0) {
            snprintf(err, errlen, "the host's capabilities have a cpu without an id or cell");
            xmlFree(id);
            xmlFree(node);
            goto out;
        }
        t->cpus[i].id = (int)v;
        t->cpus[i].node = atoi(node);
        xmlFree(id);
        xmlFree(node);
        /* a CPU without siblings is a core of its own */
        sib[i] = prop(c, "siblings");
        t->cpus[i].core = -1;
        for (int k = 0; k < i && t->cpus[i].core < 0; k++)
            if (sib[i] && sib[k] && t->cpus[k].node == t->cpus[i].node && strcmp(sib[i], sib[k]) == 0)
                t->cpus[i].core = t->cpus[k].core;
        if (t->cpus[i].core < 0)
            t->cpus[i].core = t->ncores++;
        if (t->cpus[i].node + 1 > t->nnodes)
            t->nnodes = t->cpus[i].node + 1;
    }
    t->ncpus = n;
    rc = 0;
out:
    for (int i = 0; sib && i < n; i++)
        xmlFree(sib[i]);
    free(sib);
    if (rc < 0)
        orch_topo_clear(t);
    xmlXPathFreeObject(cpus);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return rc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

const char *orch_cpuset_text(const int *ids, int n, char *buf, size_t len)
{
    int *s = n > 0 ? malloc((size_t)n * sizeof *s) : NULL;
    size_t used = 0;
    buf[0] = '\0';
    if (!s)
        return buf;
    memcpy(s, ids, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_int);
    for (int i = 0; i < n && used < len;) {
        int j = i;
        while (j + 1 < n && s[j + 1] <= s[j] + 1)
            j++;
        used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", s[i]);
        if (j > i && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%d", s[j] > s[i] + 1 ? "-" : ",",
                                     s[j]);
        i = j + 1;
    }
    free(s);
    return buf;
}

/* The logical CPUs of core c on t, in t's order, into ids; how many. */
static int core_cpus(const orch_host_topo *t, int c, int *ids)
{
    int n = 0;
    for (int i = 0; i < t->ncpus; i++)
        if (t->cpus[i].core == c)
            ids[n++] = t->cpus[i].id;
    return n;
}

static int core_node(const orch_host_topo *t, int c)
{
    for (int i = 0; i < t->ncpus; i++)
        if (t->cpus[i].core == c)
            return t->cpus[i].node;
    return -1;
}

int orch_place_auto(const orch_host_topo *t, int nvms, int vcpus, orch_vm_place *out,
                    char *err, size_t errlen)
{
    int *next = NULL, *freec = NULL, *ids = NULL, rc = -1, need_cores = 0, free_total = 0;
    char (*apart)[ORCH_PLACE_SET] = NULL;

    for (int v = 0; v < nvms; v++)
        place_init(&out[v]);
    if (t->ncpus == 0) {
        snprintf(err, errlen, "the host's libvirt describes no NUMA cells and CPUs "
                 "(<topology><cells> of its capabilities)");
        return -1;
    }
    next = calloc((size_t)t->nnodes, sizeof *next);
    freec = calloc((size_t)t->nnodes, sizeof *freec);
    ids = calloc((size_t)t->ncpus, sizeof *ids);
    apart = calloc((size_t)t->nnodes, sizeof *apart);
    if (!next || !freec || !ids || !apart) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    /* the first core of each node set apart; next[n]: the node's next
     * free core to hand out (cores are numbered in the cells' order) */
    for (int n = 0; n < t->nnodes; n++) {
        int first = -1;
        next[n] = -1;
        for (int c = 0; c < t->ncores; c++)
            if (core_node(t, c) == n) {
                if (first < 0)
                    first = c;
                else {
                    if (next[n] < 0)
                        next[n] = c;
                    freec[n]++;
                }
            }
        if (first >= 0)
            orch_cpuset_text(ids, core_cpus(t, first, ids), apart[n], sizeof apart[n]);
        free_total += freec[n];
    }
    {
        int threads = t->ncpus / t->ncores;
        int per_vm = (vcpus + threads - 1) / (threads ? threads : 1);
        need_cores = per_vm * nvms;
        if (need_cores > free_total) {
            snprintf(err, errlen, "pinning = auto: %d VM(s) x %d vCPU(s) need %d whole core(s) of "
                     "%d thread(s) and the host has %d for vCPUs (%d core(s), %d CPU(s), %d NUMA "
                     "node(s), one core per node set apart for emulators and I/O threads)",
                     nvms, vcpus, need_cores, threads, free_total, t->ncores, t->ncpus, t->nnodes);
            rc = 1;
            goto out;
        }
    }
    for (int v = 0; v < nvms; v++) {
        int best = -1, got = 0, c;
        for (int n = 0; n < t->nnodes; n++)
            if (freec[n] > 0 && (best < 0 || freec[n] > freec[best]))
                best = n;
        if (!(out[v].vcpu_cpu = calloc((size_t)vcpus, sizeof *out[v].vcpu_cpu))) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        for (c = next[best]; c >= 0 && c < t->ncores && got < vcpus; c++) {
            int k;
            if (core_node(t, c) != best)
                continue;
            k = core_cpus(t, c, ids);
            for (int j = 0; j < k && got < vcpus; j++)
                out[v].vcpu_cpu[got++] = ids[j];
            freec[best]--;
        }
        if (got < vcpus) {
            snprintf(err, errlen, "pinning = auto: VM %d's %d vCPU(s) do not fit on one NUMA "
                     "node of the host (%d core(s) free on node %d)", v + 1, vcpus,
                     freec[best] < 0 ? 0 : freec[best], best);
            rc = 1;
            goto out;
        }
        next[best] = c;
        out[v].nvcpus = vcpus;
        out[v].node = best;
        orch_cpuset_text(out[v].vcpu_cpu, vcpus, out[v].vcpus, sizeof out[v].vcpus);
        snprintf(out[v].emulator, sizeof out[v].emulator, "%s", apart[best]);
    }
    rc = 0;
out:
    if (rc != 0)
        for (int v = 0; v < nvms; v++)
            orch_vm_place_clear(&out[v]);
    free(next);
    free(freec);
    free(ids);
    free(apart);
    return rc;
}

/* The CPUs of cpuset text s (up to len characters) into ids (room for
 * MAX_SET_CPUS), ascending without repeats; how many, or -1. */
static int parse_cpuset(const char *s, size_t len, int *ids)
{
    int n = 0;
    size_t i = 0;
    if (len == 0)
        return -1;
    while (i < len) {
        long a, b;
        char *end;
        if (!isdigit((unsigned char)s[i]))
            return -1;
        a = strtol(s + i, &end, 10);
        i = (size_t)(end - s);
        b = a;
        if (i < len && s[i] == '-') {
            i++;
            if (i >= len || !isdigit((unsigned char)s[i]))
                return -1;
            b = strtol(s + i, &end, 10);
            i = (size_t)(end - s);
        }
        if (i > len || b < a || b >= MAX_SET_CPUS || n + (b - a + 1) > MAX_SET_CPUS)
            return -1;
        for (long c = a; c <= b; c++)
            ids[n++] = (int)c;
        if (i < len) {
            if (s[i] != ',' || i + 1 == len)
                return -1;
            i++;
        }
    }
    qsort(ids, (size_t)n, sizeof *ids, cmp_int);
    for (int k = 1; k < n; k++)
        if (ids[k] == ids[k - 1])
            return -1;
    return n;
}

/* Word w (0-based) of list: *start and *len; 0, or -1 when there are
 * fewer words. */
static int list_word(const char *list, int w, const char **start, size_t *len)
{
    const char *p = list;
    for (int i = 0;; i++) {
        p += strspn(p, " \t");
        if (!*p)
            return -1;
        *len = strcspn(p, " \t");
        if (i == w) {
            *start = p;
            return 0;
        }
        p += *len;
    }
}

/* One word CPUS[/EMULATOR]: its CPUs into cpus (*ncpus) and the
 * emulator's into emu (*nemu). 0, or -1. */
static int parse_word(const char *w, size_t len, int *cpus, int *ncpus, int *emu, int *nemu)
{
    const char *slash = memchr(w, '/', len);
    size_t l1 = slash ? (size_t)(slash - w) : len;
    if ((*ncpus = parse_cpuset(w, l1, cpus)) < 0)
        return -1;
    if (!slash) {
        memcpy(emu, cpus, (size_t)*ncpus * sizeof *emu);
        *nemu = *ncpus;
        return 0;
    }
    return (*nemu = parse_cpuset(slash + 1, len - l1 - 1, emu)) < 0 ? -1 : 0;
}

int orch_place_check_list(const char *list, int nwords, char *err, size_t errlen)
{
    int *a = malloc(MAX_SET_CPUS * sizeof *a), *b = malloc(MAX_SET_CPUS * sizeof *b), na, nb;
    const char *w, *extra;
    size_t len, elen;
    int rc = -1;
    if (!a || !b) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (int i = 0; i < nwords; i++) {
        if (list_word(list, i, &w, &len) < 0) {
            snprintf(err, errlen, "pinning: %d CPU set(s) for %d VM(s): one per VM, in the "
                     "plan's order, each CPUS or CPUS/EMULATOR (libvirt cpusets), or auto, or off",
                     i, nwords);
            goto out;
        }
        if (parse_word(w, len, a, &na, b, &nb) < 0) {
            snprintf(err, errlen, "pinning: '%.*s' (VM %d) is not CPUS or CPUS/EMULATOR with "
                     "CPUS a cpuset such as 2-9 or 2,4,6-8", (int)len, w, i + 1);
            goto out;
        }
    }
    if (list_word(list, nwords, &extra, &elen) == 0) {
        snprintf(err, errlen, "pinning: more CPU sets than the plan's %d VM(s) ('%.*s' and after)",
                 nwords, (int)elen, extra);
        goto out;
    }
    rc = 0;
out:
    free(a);
    free(b);
    return rc;
}

int orch_place_explicit(const char *list, int first, int nvms, int vcpus,
                        const orch_host_topo *t, orch_vm_place *out, char *err, size_t errlen)
{
    int *a = malloc(MAX_SET_CPUS * sizeof *a), *b = malloc(MAX_SET_CPUS * sizeof *b), na, nb;
    int rc = -1;
    for (int v = 0; v < nvms; v++)
        place_init(&out[v]);
    if (!a || !b) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (int v = 0; v < nvms; v++) {
        const char *w;
        size_t len;
        int node = -2;
        if (list_word(list, first + v, &w, &len) < 0 || parse_word(w, len, a, &na, b, &nb) < 0) {
            snprintf(err, errlen, "pinning: no valid CPU set for VM %d", first + v + 1);
            goto out;
        }
        if (na < vcpus) {
            snprintf(err, errlen, "pinning: '%.*s' (VM %d) has %d CPU(s) for its %d vCPU(s)",
                     (int)len, w, first + v + 1, na, vcpus);
            goto out;
        }
        for (int k = 0; k < na + nb && t->ncpus > 0; k++) {
            int id = k < na ? a[k] : b[k - na], found = -1;
            for (int i = 0; i < t->ncpus && found < 0; i++)
                if (t->cpus[i].id == id)
                    found = t->cpus[i].node;
            if (found < 0) {
                snprintf(err, errlen, "pinning: '%.*s' (VM %d): the host has no CPU %d",
                         (int)len, w, first + v + 1, id);
                goto out;
            }
            if (k < na)
                node = node == -2 || node == found ? found : -1;
        }
        if (!(out[v].vcpu_cpu = calloc((size_t)vcpus, sizeof *out[v].vcpu_cpu))) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        memcpy(out[v].vcpu_cpu, a, (size_t)vcpus * sizeof *a);
        out[v].nvcpus = vcpus;
        out[v].node = node >= 0 ? node : -1;
        orch_cpuset_text(a, vcpus, out[v].vcpus, sizeof out[v].vcpus);
        orch_cpuset_text(b, nb, out[v].emulator, sizeof out[v].emulator);
    }
    rc = 0;
out:
    if (rc < 0)
        for (int v = 0; v < nvms; v++)
            orch_vm_place_clear(&out[v]);
    free(a);
    free(b);
    return rc;
}
