/* hostcheck.c — the host check before a run: CPU frequency, memory
 * management, other domains and each drive's state (see hostcheck.h). */
#include "run/hostcheck.h"
#include "run/hostcheck_state.h"
#include "attributes.h"
#include "run/run_state.h"
#include "virt/virt.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* the swappiness at or below which swap is left alone (the kernel swaps
 * a guest's memory out only under real pressure then) */
#define HC_SWAPPINESS_OK 10

/* The word in brackets of a sysfs choice ("always [madvise] never"). */
static void chosen(const char *text, char *out, size_t len)
{
    const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
    if (open && close)
        snprintf(out, len, "%.*s", (int)(close - open - 1), open + 1);
    else
        snprintf(out, len, "%s", text);
}

/* scaling_governor of cpu0, cpu1, ... until one has no cpufreq folder. */
static void check_governor(hc *h)
{
    char rel[128], gov[64], names[256] = "", first[64] = "";
    int cpus = 0, perf = 0;
    for (int c = 0; c < 8192; c++) {
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
        if (orch_hc_read_line(h, rel, gov, sizeof gov) < 0)
            break;
        cpus++;
        if (strcmp(gov, "performance") == 0) {
            perf++;
            continue;
        }
        if (!first[0])
            snprintf(first, sizeof first, "%s", gov);
        if (!strstr(names, gov)) {
            size_t n = strlen(names);
            snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", gov);
        }
    }
    if (cpus == 0)
        orch_hc_add(h, ORCH_HC_GOVERNOR, NULL, RES_HC_OK, "none",
            "no cpufreq governor (/sys/devices/system/cpu/cpu0/cpufreq): the kernel does not "
            "set this host's CPU frequency (a VM, or a CPU without frequency scaling)");
    else if (perf == cpus)
        orch_hc_add(h, ORCH_HC_GOVERNOR, NULL, RES_HC_OK, "performance",
            "all %d CPU(s) run the performance governor", cpus);
    else {
        orch_hc_add(h, ORCH_HC_GOVERNOR, NULL, RES_HC_WARN, first,
            "%d of %d CPU(s) run %s, not performance: the CPU clocks down between a "
            "drive's requests and the figures vary with it", cpus - perf, cpus, names);
        orch_hc_fix(h, "cpupower frequency-set -g performance");
    }
}

/* The two switches of turbo: intel_pstate's (1 = off) and cpufreq's
 * boost (0 = off); the first the kernel has is the one in effect. */
static const struct turbo_knob {
    const char *driver, *file, *key, *off;
} turbo_knobs[] = {
    { "intel_pstate", "/sys/devices/system/cpu/intel_pstate/no_turbo", "no_turbo", "1" },
    { "cpufreq", "/sys/devices/system/cpu/cpufreq/boost", "boost", "0" },
};

static void check_turbo(hc *h)
{
    char v[32];
    for (size_t i = 0; i < sizeof turbo_knobs / sizeof turbo_knobs[0]; i++) {
        const struct turbo_knob *k = &turbo_knobs[i];
        if (orch_hc_read_line(h, k->file, v, sizeof v) < 0 || !v[0])
            continue;
        if (strcmp(v, k->off) == 0) {
            orch_hc_add(h, ORCH_HC_TURBO, NULL, RES_HC_OK, "off", "%s: turbo is off (%s %s)", k->driver,
                k->key, v);
            return;
        }
        orch_hc_add(h, ORCH_HC_TURBO, NULL, RES_HC_WARN, "on",
            "%s: turbo is on (%s %s): the clock follows temperature and load, so runs differ "
            "by the room's temperature", k->driver, k->key, v);
        orch_hc_fix(h, "echo %s > %s", k->off, k->file);
        return;
    }
    orch_hc_add(h, ORCH_HC_TURBO, NULL, RES_HC_OK, "unknown",
        "neither intel_pstate/no_turbo nor cpufreq/boost: turbo is not the kernel's to "
        "switch here");
}

static void check_thp(hc *h)
{
    char line[128], v[128];
    if (orch_hc_read_line(h, "/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof line) < 0) {
        orch_hc_add(h, ORCH_HC_THP, NULL, RES_HC_OK, "unknown",
            "no /sys/kernel/mm/transparent_hugepage: a kernel without transparent huge pages");
        return;
    }
    chosen(line, v, sizeof v);
    if (strcmp(v, "always") != 0) {
        orch_hc_add(h, ORCH_HC_THP, NULL, RES_HC_OK, v,
            "transparent huge pages: %s (QEMU still asks for them for guest memory)", v);
        return;
    }
    orch_hc_add(h, ORCH_HC_THP, NULL, RES_HC_WARN, v,
        "transparent huge pages: always: khugepaged compacts every process's memory, and "
        "its stalls land in the measured phase at random; madvise keeps them for guest "
        "memory (QEMU asks for them)");
    orch_hc_fix(h, "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled");
}

static void check_swap(hc *h)
{
    char *swaps = orch_hc_read_all(h, "/proc/swaps"), sw[32], value[96];
    int devices = 0, swappiness = -1;
    unsigned long long kib = 0;
    if (orch_hc_read_line(h, "/proc/sys/vm/swappiness", sw, sizeof sw) == 0 && sw[0])
        swappiness = atoi(sw);
    if (!swaps) {
        orch_hc_add(h, ORCH_HC_SWAP, NULL, RES_HC_OK, "unknown", "cannot read /proc/swaps");
        return;
    }
    /* after the header: "FILENAME TYPE SIZE USED PRIORITY", sizes in KiB */
    for (char *l = strchr(swaps, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
        char name[256], type[32];
        unsigned long long size;
        if (sscanf(l + 1, "%255s %31s %llu", name, type, &size) == 3) {
            devices++;
            kib += size;
        }
    }
    free(swaps);
    if (devices == 0) {
        orch_hc_add(h, ORCH_HC_SWAP, NULL, RES_HC_OK, "off", "no swap: guest memory stays in RAM");
        return;
    }
    snprintf(value, sizeof value, "on: %d device(s), %llu MiB, swappiness %d", devices,
             kib / 1024, swappiness);
    if (swappiness >= 0 && swappiness <= HC_SWAPPINESS_OK) {
        orch_hc_add(h, ORCH_HC_SWAP, NULL, RES_HC_OK, value,
            "swap is on with swappiness %d: guest memory is swapped only under real pressure",
            swappiness);
        return;
    }
    orch_hc_add(h, ORCH_HC_SWAP, NULL, RES_HC_WARN, value,
        "swap is on with swappiness %d: the kernel may swap guest memory out (the "
        "database's buffer pool) while the page cache holds the drive's files",
        swappiness);
    orch_hc_fix(h, "swapoff -a   (or: sysctl vm.swappiness=1)");
}

static void check_ksm(hc *h)
{
    char v[16];
    if (orch_hc_read_line(h, "/sys/kernel/mm/ksm/run", v, sizeof v) < 0 || !v[0]) {
        orch_hc_add(h, ORCH_HC_KSM, NULL, RES_HC_OK, "unknown", "no /sys/kernel/mm/ksm: a kernel without KSM");
        return;
    }
    if (strcmp(v, "1") != 0) {
        orch_hc_add(h, ORCH_HC_KSM, NULL, RES_HC_OK, "off", "KSM does not merge pages (run %s)", v);
        return;
    }
    orch_hc_add(h, ORCH_HC_KSM, NULL, RES_HC_WARN, "on",
        "KSM merges identical pages (run 1): ksmd scans guest memory on the host's CPUs and "
        "a guest's first write to a merged page is a copy");
    orch_hc_fix(h, "echo 2 > /sys/kernel/mm/ksm/run");
}

/* MemAvailable (bytes) of ROOT/proc/meminfo, or 0 when not there. */
static uint64_t mem_available(const hc *h)
{
    char *text = orch_hc_read_all(h, "/proc/meminfo");
    const char *l = text ? strstr(text, "MemAvailable:") : NULL;
    unsigned long long kib = 0;
    if (l)
        sscanf(l + 13, "%llu", &kib);
    free(text);
    return (uint64_t)kib * 1024;
}

static void check_memory(hc *h, const orch_plan *p, const orch_template *t)
{
    uint64_t mem = p->memory ? p->memory : orch_template_memory(t), need = 0, avail;
    int vms = 0;
    char a[32], b[32], value[96];
    for (int d = 0; d < p->ndrives; d++)
        if (!orch_uri_is_remote(orch_plan_drive_uri(p, &p->drives[d])))
            vms += orch_plan_drive_vms(p, &p->drives[d]);
    need = (uint64_t)vms * (mem + ORCH_VM_MEM_OVERHEAD);
    if (vms == 0) {
        orch_hc_add(h, ORCH_HC_MEMORY, NULL, RES_HC_OK, "no VM here", "none of the plan's VMs runs on this host");
        return;
    }
    if (!(avail = mem_available(h))) {
        orch_hc_add(h, ORCH_HC_MEMORY, NULL, RES_HC_WARN, "unknown",
            "cannot read MemAvailable in /proc/meminfo: this host's %d VM(s) need %s", vms,
            orch_format_bytes(need, b, sizeof b));
        return;
    }
    orch_format_bytes(avail, a, sizeof a);
    orch_format_bytes(need, b, sizeof b);
    snprintf(value, sizeof value, "%s available, %s needed", a, b);
    if (avail >= need) {
        orch_hc_add(h, ORCH_HC_MEMORY, NULL, RES_HC_OK, value,
            "%s available covers this host's %d VM(s): %s (guest memory + 100 MiB for QEMU each)",
            a, vms, b);
        return;
    }
    /* [run] overcommit = yes asks for the run anyway (capacity.h) */
    orch_hc_add(h, ORCH_HC_MEMORY, NULL, p->overcommit ? RES_HC_WARN : RES_HC_REFUSE, value,
        "only %s available for this host's %d VM(s), which need %s (guest memory + 100 MiB "
        "for QEMU each): the host would swap or kill guests mid-run; %s", a, vms, b,
        p->overcommit ? "[run] overcommit = yes: running them anyway"
                      : "stop what holds the memory, or fewer VMs or a smaller [run] memory");
}

/* Append what stops domain name on uri to fixes: `drivebench teardown
 * RUN-ID` for another run's (once a run), else `virsh shutdown`. */
static void domain_fix(const char *uri, const char *name, char *fixes, size_t len)
{
    char *id = orch_object_runid(name), *cmd;
    size_t n = strlen(fixes);
    cmd = id ? orch_strfmt("wait for drivebench run %s to end, or: drivebench teardown %s", id, id)
             : orch_strfmt("virsh -c %s shutdown %s", uri, name);
    if (cmd && !strstr(fixes, cmd))
        snprintf(fixes + n, len - n, "%s%s", n ? "; " : "", cmd);
    free(cmd);
    free(id);
}

static int cmp_domain(const void *a, const void *b)
{
    const char *x = virDomainGetName(*(virDomainPtr const *)a);
    const char *y = virDomainGetName(*(virDomainPtr const *)b);
    return strcmp(x ? x : "", y ? y : "");
}

/* The running domains on uri but the run's own, by name: their names and what
 * stops them appended to names and fixes. Their count, or -1 with err. */
static int host_domains(const hc *h, virConnectPtr conn, const char *uri, char *names,
                        size_t nlen, char *fixes, size_t flen, char *err, size_t errlen)
{
    virDomainPtr *doms = NULL;
    const char *pre = h->o->run_prefix;
    int n = virConnectListAllDomains(conn, &doms, VIR_CONNECT_LIST_DOMAINS_ACTIVE), k = 0;
    if (n < 0) {
        snprintf(err, errlen, "%s", orch_virt_error());
        return -1;
    }
    qsort(doms, (size_t)n, sizeof *doms, cmp_domain);
    for (int i = 0; i < n; i++) {
        const char *name = virDomainGetName(doms[i]);
        size_t ln = strlen(names);
        if (name && !(pre && strncmp(name, pre, strlen(pre)) == 0)) {
            snprintf(names + ln, nlen - ln, "%s%s", k++ ? ", " : "", name);
            domain_fix(uri, name, fixes, flen);
        }
        virDomainFree(doms[i]);
    }
    free(doms);
    return k;
}

/* The running domains of every host of the plan but the run's own
 * (another drivebench run's count: it shares the host as much). */
static void check_domains(hc *h, orch_conns *conns, const orch_plan *p)
{
    int others = 0, hosts = 0;
    for (int d = 0; d < p->ndrives; d++) {
        const char *uri = orch_plan_drive_uri(p, &p->drives[d]);
        virConnectPtr conn;
        char err[DB_ERR_LEN] = "no libvirt connection", names[512] = "", fixes[768] = "", value[64];
        int k, seen = 0;
        for (int e = 0; e < d; e++)
            seen |= strcmp(orch_plan_drive_uri(p, &p->drives[e]), uri) == 0;
        if (seen)
            continue;
        hosts++;
        conn = conns ? orch_conns_open(conns, uri, err, sizeof err) : NULL;
        k = conn ? host_domains(h, conn, uri, names, sizeof names, fixes, sizeof fixes, err,
                                sizeof err)
                 : -1;
        if (k < 0) {
            orch_hc_add(h, ORCH_HC_DOMAINS, NULL, RES_HC_WARN, "unknown", "cannot list the domains of %s: %s",
                uri, err);
            others = -1;
            continue;
        }
        if (k == 0)
            continue;
        snprintf(value, sizeof value, "%d running", k);
        orch_hc_add(h, ORCH_HC_DOMAINS, NULL, RES_HC_WARN, value,
            "%s runs %d other domain(s): %s; they share its CPUs, memory and perhaps the drives",
            uri, k, names);
        orch_hc_fix(h, "%s", fixes);
        if (others >= 0)
            others += k;
    }
    if (others == 0)
        orch_hc_add(h, ORCH_HC_DOMAINS, NULL, RES_HC_OK, "none",
            "no other running domain on the plan's %d host(s)", hosts);
}

int orch_host_check(orch_conns *conns, const orch_plan *p, const orch_template *t,
                    const orch_hc_opts *o, res_hc_finding **out, int *n, char *err,
                    size_t errlen)
{
    static const orch_hc_opts real = { 0 };
    hc h = { .o = o ? o : &real };
    int refused = 0;
    h.root = h.o->root ? h.o->root : "";
    check_governor(&h);
    check_turbo(&h);
    check_thp(&h);
    check_swap(&h);
    check_ksm(&h);
    check_memory(&h, p, t);
    check_domains(&h, conns, p);
    for (int d = 0; d < p->ndrives; d++)
        orch_hc_check_drive(&h, p, &p->drives[d]);
    *out = NULL;
    *n = 0;
    if (h.oom) {
        orch_hc_free(h.f, h.n);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < h.n; i++)
        refused += h.f[i].status == RES_HC_REFUSE && !h.f[i].ignored;
    *out = h.f;
    *n = h.n;
    return refused;
}

void orch_hc_print(const res_hc_finding *f, int n, FILE *out)
{
    for (int i = 0; i < n; i++) {
        const res_hc_finding *x = &f[i];
        fprintf(out, "%-7s %s%s%s%s: %s: %s%s\n", res_hc_status_name(x->status), x->check,
                x->drive ? " [" : "", x->drive ? x->drive : "", x->drive ? "]" : "", x->value,
                x->message, x->ignored ? " (ignored: --ignore-host-check)" : "");
        if (x->fix && x->status != RES_HC_OK)
            fprintf(out, "        fix: %s\n", x->fix);
    }
}

void orch_hc_free(res_hc_finding *f, int n)
{
    for (int i = 0; f && i < n; i++) {
        free(f[i].check);
        free(f[i].drive);
        free(f[i].value);
        free(f[i].message);
        free(f[i].fix);
    }
    free(f);
}

/* "host check: 8 ok, 3 warn, 1 refuse (1 ignored)" */
static void print_tally(const res_hc_finding *f, int n, FILE *out)
{
    int k[RES_HC_STATUS_COUNT] = { 0 }, ign = 0;
    for (int i = 0; i < n; i++) {
        k[f[i].status]++;
        ign += f[i].ignored;
    }
    fprintf(out, "host check: %d ok, %d warn, %d refuse", k[RES_HC_OK], k[RES_HC_WARN],
            k[RES_HC_REFUSE]);
    if (ign)
        fprintf(out, " (%d ignored)", ign);
    fputc('\n', out);
}

int orch_host_check_cmd(const orch_plan *p, const char *const *ignore, FILE *out)
{
    orch_hc_opts o = { .ignore = ignore };
    orch_template *t;
    orch_conns *conns = NULL;
    res_hc_finding *f = NULL;
    char err[DB_ERR_LEN];
    int n = 0, refused = -1;
    t = orch_template_load(p->template_path, err, sizeof err);
    if (t && !(conns = orch_conns_new()))
        snprintf(err, sizeof err, "out of memory");
    if (conns)
        refused = orch_host_check(conns, p, t, &o, &f, &n, err, sizeof err);
    if (refused < 0) {
        fprintf(stderr, "drivebench: %s\n", err);
    } else {
        orch_hc_print(f, n, out);
        print_tally(f, n, out);
    }
    orch_hc_free(f, n);
    orch_conns_free(conns);
    orch_template_free(t);
    return refused == 0 ? 0 : 1;
}

int run_host_check(run_state *st)
{
    orch_hc_opts o = st->o->host_check ? *st->o->host_check : (orch_hc_opts){ 0 };
    char *prefix = orch_object_prefix(st->l->run_id);
    int refused;
    o.ignore = st->o->ignore_host_check;
    o.run_prefix = prefix;
    refused = prefix ? orch_host_check(st->conns, st->p, st->t, &o, &st->hc, &st->nhc, st->err,
                                       sizeof st->err)
                     : (snprintf(st->err, sizeof st->err, "out of memory"), -1);
    free(prefix);
    if (refused < 0)
        return -1;
    orch_hc_print(st->hc, st->nhc, st->out);
    print_tally(st->hc, st->nhc, st->out);
    if (refused == 0)
        return 0;
    {
        char names[256] = "";
        for (int i = 0; i < st->nhc; i++) {
            size_t n = strlen(names);
            if (st->hc[i].status == RES_HC_REFUSE && !st->hc[i].ignored
                && !strstr(names, st->hc[i].check))
                snprintf(names + n, sizeof names - n, "%s--ignore-host-check=%s", n ? " " : "",
                         st->hc[i].check);
        }
        snprintf(st->err, sizeof st->err, "the host check refused the run (%d finding(s) above); "
                 "nothing was created; fix them, or run anyway with %s", refused, names);
    }
    return -1;
}
