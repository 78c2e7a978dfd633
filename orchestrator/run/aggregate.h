/*
 * aggregate.h — from one oltp result per VM to the run's summary
 * (common/results_summary.h: res_summary, written as summary.json / summary.csv).
 *
 * Reads the "measure" phase of each VM's result. Per drive: tps is the sum
 * of its VMs' tps; latency avg and p99 come from the merged histograms of
 * all its VMs (exact, not averaged); p99_mean_of_vms is the mean of each
 * VM's own p99 (the reviews' "average 99th percentile"). With repetitions,
 * a drive's figures are the mean tps of its measured repetitions (those
 * with a healthy VM run) and latencies over all of them; each repetition
 * is also listed. VM counts and TPS per VM come from the healthy VM runs
 * (vm_runs) and the repetitions measured, never from the plan: 4 VMs at
 * 100 TPS in 3 repetitions, one failed in the second, give vm_runs 11,
 * tps_per_vm 100. A VM's tps_series is its measured intervals on time bins
 * of oltp's interval (telemetry/timebins.h), so VMs' series line up by
 * time. Arithmetic on structs only:
 * the formats are common/results.c's (results/SCHEMA.md).
 */
#ifndef ORCH_AGGREGATE_H
#define ORCH_AGGREGATE_H

#include "attributes.h"

#include <stddef.h>
#include <stdio.h>

#include "virt/virt.h"
#include "results_summary.h"

typedef struct orch_vm_result {
    const char *vm;             /* domain name */
    const char *drive;          /* drive name as in the plan */
    int         repetition;     /* 1-based */
    const char *result;         /* measure JSON, relative to the run folder */
    const char *precondition;   /* precondition JSON (relative) or NULL */
    /* health: a failed VM is named in the summary and kept out of every
     * figure; what it measured before the fault stays in its files */
    const char *failed_in;      /* phase it failed in, or NULL: healthy */
    orch_health health;         /* the fault, when failed_in */
    char       *console_tail;   /* last lines of its console, when failed */
    const char *host;           /* libvirt URI of its host, or NULL */
    char       *cpu_flags;      /* the guest's CPU flags, or NULL: not read */
    const char *cpus, *emulator_cpus;   /* [run] pinning: its vCPUs' and
                                 * emulator's host CPUs, NULL: not pinned */
    int         numa_node;      /* its memory's node, -1: not bound */
    int         boot_reboots;   /* reboots tolerated while it booted */
} orch_vm_result;

typedef struct orch_summary_input {
    const char  *run_id;
    const char  *run_dir;       /* results/<run-id> */
    const char  *started_at, *finished_at;   /* ISO 8601 UTC */
    const res_plan *plan;       /* borrowed, copied into the summary; NULL: none */
    const res_env  *env;        /* borrowed, copied into the summary; NULL: none */
    const char *const *drives;  /* drive names, in plan order */
    int          ndrives;
    const orch_vm_result *vms;
    int          nvms;
    int          repetitions;
    int          partial;       /* the run stopped early (failure, signal) */
} orch_summary_input;

/* Build the summary from the VMs' results. Returns a new summary (free
 * with orch_summary_free) or NULL with a message in err naming the file
 * at fault. */
res_summary *orch_summary_build(const orch_summary_input *in, char *err, size_t errlen);
void orch_summary_free(res_summary *s);        /* accepts NULL */

/* One warning line on out for each VM whose database size after load is
 * beyond RES_DB_SIZE_TOLERANCE_PCT of the plan's expect_database_size
 * (res_vm.db_size_warning; not a failure). Returns how many. */
int orch_summary_db_warnings(const res_summary *s, FILE *out);

/* Write run_dir/summary.json and run_dir/summary.csv. 0 or -1 with err. */
int orch_summary_write(const char *run_dir, const res_summary *s, char *err, size_t errlen) DB_MUST_CHECK;

#endif
