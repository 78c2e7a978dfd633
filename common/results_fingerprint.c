/* results_fingerprint.c — the summary's protocol fingerprint (results_fingerprint.h,
 * results/SCHEMA.md "Fingerprint"): its field table, which the summary's
 * table nests under "fingerprint", and its keys as text for comparing two
 * runs. */
#include "results_fingerprint.h"
#include "results_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F RJ_F

/* In the order a reader scans them: what ran, how hard, how long, on
 * what guest, against which server, from where, by which drivebench. */
const rj_field res_fingerprint_fields[] = {
    F("workload",           RJ_STR_OPT, res_fingerprint, workload),
    F("db_driver",          RJ_STR_OPT, res_fingerprint, db_driver),
    F("workload_options",   RJ_STR_OPT, res_fingerprint, workload_options),
    F("tables",             RJ_I64_OPT, res_fingerprint, tables),
    F("table_size",         RJ_I64_OPT, res_fingerprint, table_size),
    F("warehouses",         RJ_I64_OPT, res_fingerprint, warehouses),
    F("threads",            RJ_I64_OPT, res_fingerprint, threads),
    F("terminals",          RJ_I64_OPT, res_fingerprint, terminals),
    F("keying_thinking",    RJ_STR_OPT, res_fingerprint, keying_thinking),
    F("rate",               RJ_NUM_OPT, res_fingerprint, rate),
    F("precondition_s",     RJ_I64_OPT, res_fingerprint, precondition_s),
    F("warmup_s",           RJ_I64_OPT, res_fingerprint, warmup_s),
    F("measure_s",          RJ_I64_OPT, res_fingerprint, measure_s),
    F("profile",            RJ_STR_OPT, res_fingerprint, profile),
    F("vcpus",              RJ_I64_OPT, res_fingerprint, vcpus),
    F("memory_bytes",       RJ_I64_OPT, res_fingerprint, memory_bytes),
    F("boot_size_bytes",    RJ_I64_OPT, res_fingerprint, boot_size_bytes),
    F("db_size_bytes",      RJ_I64_OPT, res_fingerprint, db_size_bytes),
    F("seed_size_bytes",    RJ_I64_OPT, res_fingerprint, seed_size_bytes),
    F("controller",         RJ_STR_OPT, res_fingerprint, controller),
    F("engine",             RJ_STR_OPT, res_fingerprint, engine),
    F("server_version",     RJ_STR_OPT, res_fingerprint, server_version),
    F("db_settings",        RJ_STR_OPT, res_fingerprint, db_settings),
    F("server_settings",    RJ_STR_OPT, res_fingerprint, server_settings),
    F("client",             RJ_STR_OPT, res_fingerprint, client),
    F("domain_type",        RJ_STR_OPT, res_fingerprint, domain_type),
    F("cpu",                RJ_STR_OPT, res_fingerprint, cpu),
    F("pinning",            RJ_STR_OPT, res_fingerprint, pinning),
    F("hugepages",          RJ_STR_OPT, res_fingerprint, hugepages),
    F("drivebench_version", RJ_STR_OPT, res_fingerprint, drivebench_version),
    RJ_TABLE_END,
};

res_fingerprint *res_fingerprint_new(void)
{
    res_fingerprint *fp = calloc(1, sizeof *fp);
    json_object *empty = json_object_new_object();
    rj_ctx c = { .err = NULL, .errlen = 0 };
    int rc = fp && empty ? rj_get_fields(empty, res_fingerprint_fields, fp, &c) : -1;
    json_object_put(empty);
    if (rc < 0) {
        free(fp);
        return NULL;
    }
    return fp;
}

void res_fingerprint_free(res_fingerprint *fp)
{
    if (!fp)
        return;
    rj_free_fields(res_fingerprint_fields, fp);
    free(fp);
}

int res_fingerprint_items(const res_fingerprint *fp, res_fp_item *items)
{
    json_object *o = json_object_new_object();
    int n = 0;
    if (!o)
        return 0;
    rj_put_fields(o, res_fingerprint_fields, fp);
    for (const rj_field *f = res_fingerprint_fields; f->kind != RJ_END && n < RES_FP_MAX_KEYS;
         f++, n++) {
        json_object *v = rj_get(o, f->key);
        items[n].key = f->key;
        snprintf(items[n].value, sizeof items[n].value, "%s", v ? json_object_get_string(v) : "");
    }
    json_object_put(o);
    return n;
}
