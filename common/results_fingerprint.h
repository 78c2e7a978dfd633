/*
 * results_fingerprint.h — the protocol fingerprint (results_fingerprint.c;
 * issue 22): the summary's "fingerprint" object (res_summary.fp).
 */
#ifndef DB_RESULTS_FINGERPRINT_H
#define DB_RESULTS_FINGERPRINT_H

#include "results_base.h"

/* ------------------------------------------------------------------ */
/* protocol fingerprint (results_fingerprint.c; issue 22)              */
/* What must be equal for two runs' figures to be comparable: the       */
/* summary's "fingerprint" object (results/SCHEMA.md, "Fingerprint").    */
/* The layout (VMs per drive, drives) is not in it: a 4-VM and an 8-VM   */
/* run of one protocol differ only there, and that is what scaling       */
/* compares. Strings NULL, integers RES_UNSET, rate NAN: not recorded.   */

typedef struct res_fingerprint {
    char   *workload, *db_driver;
    char   *workload_options;       /* the rest of [workload] extra, words
                                     * sorted; NULL: none */
    int64_t tables, table_size, warehouses, threads, terminals;
    char   *keying_thinking;        /* "on"/"off" as given, NULL: not set */
    double  rate;                   /* transactions/s target; 0: unpaced */
    int64_t precondition_s, warmup_s, measure_s;
    char   *profile;
    int64_t vcpus, memory_bytes;    /* per VM, as the domains got them */
    int64_t boot_size_bytes, db_size_bytes, seed_size_bytes;  /* seed: 0 none */
    char   *controller;             /* SCSI model */
    char   *engine, *server_version;    /* server_version: the measured VMs'
                                     * distinct versions, ", "-separated */
    char   *db_settings;            /* server settings given to the guest,
                                     * words sorted; NULL: none */
    char   *server_settings;        /* the measured VMs' read-back settings,
                                     * "NAME=VALUE; ..." in the order read,
                                     * distinct sets " | "-separated; NULL:
                                     * none read */
    char   *client, *domain_type;   /* domain_type: the hosts' distinct types */
    char   *cpu;                    /* the guest CPU as rendered (hosts' distinct) */
    char   *pinning, *hugepages;    /* [run] pinning: auto, off or explicit */
    char   *drivebench_version;
} res_fingerprint;

/* A fingerprint with every key "not recorded" (NULL when out of memory). */
res_fingerprint *res_fingerprint_new(void);
void res_fingerprint_free(res_fingerprint *fp);     /* accepts NULL */

/* One key of a fingerprint with its value as text ("" when not
 * recorded), in the summary's key order. */
#define RES_FP_MAX_KEYS 32
typedef struct res_fp_item {
    const char *key;                /* static */
    char        value[256];
} res_fp_item;

/* The keys of fp into items[0..RES_FP_MAX_KEYS); returns how many. */
int res_fingerprint_items(const res_fingerprint *fp, res_fp_item *items);

#endif
