/* mkfixture — make a report fixture run folder with the real orchestrator
 * on libvirt's test driver (tests/orchestrator/node.xml: nothing boots)
 * and the real oltp against a local MariaDB (tests/report/oltp-local).
 * Used by tests/report/make-fixtures.sh, not by the tests themselves.
 *
 *   bin/report_mkfixture PLAN RUN_ID
 *
 * The plan names results_dir and the oltp wrapper; the run folder is
 * <results_dir>/<RUN_ID>. Exit status as `drivebench run`.
 * With MKFIXTURE_RUSAGE=FILE in the environment it also writes this
 * process's own CPU seconds and peak RSS (KiB), "CPU_S MAXRSS_KIB", to FILE
 * (getrusage RUSAGE_SELF: the stand-in oltp children are not counted), for
 * bench/drivebench_scale.sh. With MKFIXTURE_TEL_MS=N, telemetry samples
 * every N ms (compressed time) through a stand-in for libvirt's block
 * statistics, which the test driver does not have: each VM's database disk
 * writes 400 x 16 KiB and flushes 100 times, its boot disk reads 10 x 4 KiB,
 * per N ms. */
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "plan/plan.h"
#include "run/run.h"
#include "telemetry/telemetry.h"

typedef struct fake_blk {
    double t0, step_s;
} fake_blk;

/* The path of the volume a <source pool= volume=/> names, or NULL. */
static xmlChar *volume_path(virDomainPtr dom, xmlNodePtr src)
{
    xmlChar *pool = xmlGetProp(src, BAD_CAST "pool"), *vol = xmlGetProp(src, BAD_CAST "volume");
    virStoragePoolPtr sp = pool ? virStoragePoolLookupByName(virDomainGetConnect(dom), (const char *)pool) : NULL;
    virStorageVolPtr sv = sp && vol ? virStorageVolLookupByName(sp, (const char *)vol) : NULL;
    char *path = sv ? virStorageVolGetPath(sv) : NULL;
    xmlChar *r = path ? xmlStrdup(BAD_CAST path) : NULL;
    free(path);
    if (sv)
        virStorageVolFree(sv);
    if (sp)
        virStoragePoolFree(sp);
    xmlFree(pool);
    xmlFree(vol);
    return r;
}

/* The disks of dom as "target path" pairs from its XML: up to 4. */
static int disks_of(virDomainPtr dom, char tgt[][16], char path[][512])
{
    char *xml = virDomainGetXMLDesc(dom, 0);
    xmlDocPtr doc = xml ? xmlReadMemory(xml, (int)strlen(xml), "d.xml", NULL, XML_PARSE_NONET) : NULL;
    xmlXPathContextPtr x = doc ? xmlXPathNewContext(doc) : NULL;
    xmlXPathObjectPtr o = x ? xmlXPathEvalExpression(BAD_CAST "//devices/disk", x) : NULL;
    int n = 0;
    for (int i = 0; o && o->nodesetval && i < o->nodesetval->nodeNr && n < 4; i++) {
        xmlChar *dev = NULL, *file = NULL;
        for (xmlNodePtr c = o->nodesetval->nodeTab[i]->children; c; c = c->next) {
            if (c->type != XML_ELEMENT_NODE)
                continue;
            if (!strcmp((const char *)c->name, "target") && !dev)
                dev = xmlGetProp(c, BAD_CAST "dev");
            if (!strcmp((const char *)c->name, "source") && !file) {
                file = xmlGetProp(c, BAD_CAST "file");
                if (!file)                              /* a pool's volume: its path */
                    file = volume_path(dom, c);
            }
        }
        if (dev && file) {
            snprintf(tgt[n], 16, "%s", (const char *)dev);
            snprintf(path[n], 512, "%s", (const char *)file);
            n++;
        }
        xmlFree(dev);
        xmlFree(file);
    }
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
    free(xml);
    return n;
}

static int fake_domstats(void *ctx, virDomainPtr dom, virTypedParameterPtr *p, int *n,
                         char *err, size_t errlen)
{
    const fake_blk *fb = ctx;
    char tgt[4][16], path[4][512], key[64];
    struct timespec ts;
    int max = 0, nd = disks_of(dom, tgt, path);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long k = (unsigned long long)(((double)ts.tv_sec + ts.tv_nsec / 1e9 - fb->t0) / fb->step_s);
    *p = NULL;
    *n = 0;
    if (nd == 0) {
        snprintf(err, errlen, "no disks in the domain's XML");
        return -1;
    }
    virTypedParamsAddUInt(p, n, &max, "block.count", (unsigned)nd);
    for (int i = 0; i < nd; i++) {
        int db = strcmp(tgt[i], "sdb") == 0;
#define ADD(field, v) (snprintf(key, sizeof key, "block.%d." field, i), \
                       virTypedParamsAddULLong(p, n, &max, key, (unsigned long long)(v)))
        snprintf(key, sizeof key, "block.%d.name", i);
        virTypedParamsAddString(p, n, &max, key, tgt[i]);
        snprintf(key, sizeof key, "block.%d.path", i);
        virTypedParamsAddString(p, n, &max, key, path[i]);
        ADD("rd.reqs", db ? 0 : 10 * k);
        ADD("rd.bytes", db ? 0 : 40960 * k);
        ADD("rd.times", db ? 0 : 5000000 * k);
        ADD("wr.reqs", db ? 400 * k : 0);
        ADD("wr.bytes", db ? 400 * 16384 * k : 0);
        ADD("wr.times", db ? 400 * 2000000ULL * k : 0);
        ADD("fl.reqs", db ? 100 * k : 0);
        ADD("fl.times", db ? 100 * 1000000ULL * k : 0);
#undef ADD
    }
    return 0;
}

/* The test driver boots nothing: a VM is ready once libvirt runs it. */
static int ready_when_running(void *ctx, const orch_vm *vm, virDomainPtr dom, int timeout_s,
                              char *err, size_t errlen)
{
    (void)ctx;
    (void)timeout_s;
    if (virDomainIsActive(dom) == 1)
        return 0;
    snprintf(err, errlen, "%s is not running", vm->name);
    return -1;
}

int main(int argc, char **argv)
{
    orch_run_opts o;
    orch_plan *p;
    int rc;
    if (argc != 3) {
        fputs("usage: report_mkfixture PLAN RUN_ID\n", stderr);
        return 2;
    }
    p = orch_plan_load(argv[1], stderr);
    if (!p)
        return 2;
    memset(&o, 0, sizeof o);
    o.run_id = argv[2];
    o.out = stderr;
    o.wait_ready = ready_when_running;
    const char *tel_ms = getenv("MKFIXTURE_TEL_MS");
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    fake_blk fb = { (double)ts.tv_sec + ts.tv_nsec / 1e9, 0 };
    orch_tel_seams seams = { 0 };
    if (tel_ms && atoi(tel_ms) > 0) {
        fb.step_s = atoi(tel_ms) / 1000.0;
        seams.domstats = fake_domstats;
        seams.domstats_ctx = &fb;
        seams.interval_ms = atoi(tel_ms);
        o.telemetry = &seams;
    }
    rc = orch_run(p, &o);
    orch_plan_free(p);
    const char *ru_path = getenv("MKFIXTURE_RUSAGE");
    struct rusage ru;
    if (ru_path && getrusage(RUSAGE_SELF, &ru) == 0) {
        FILE *f = fopen(ru_path, "w");
        if (!f) {
            perror(ru_path);
            return rc ? rc : 1;
        }
        fprintf(f, "%.3f %ld\n",
                (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec)
                    + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
                ru.ru_maxrss);
        if (fclose(f) != 0) {
            perror(ru_path);
            return rc ? rc : 1;
        }
    }
    return rc;
}
