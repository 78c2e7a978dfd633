/*
 * aggregate.h — from one oltp result per VM to summary.json / summary.csv.
 *
 * Reads the "measure" phase of each VM's drivebench.oltp/1 document. Per
 * drive: tps is the sum of its VMs' tps; latency avg and p99 come from the
 * merged histograms of all its VMs (exact, not averaged); p99_mean_of_vms
 * is the mean of each VM's own p99 (the reviews' "average 99th
 * percentile"). With repetitions, a drive's figures are the mean tps of its
 * repetitions and latencies over all of them; each repetition is also
 * listed. The formats are documented in results/SCHEMA.md.
 */
#ifndef ORCH_AGGREGATE_H
#define ORCH_AGGREGATE_H

#include <stddef.h>
#include <json-c/json.h>

#include "monitor.h"

#define ORCH_SUMMARY_SCHEMA "drivebench.summary/1"

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
} orch_vm_result;

typedef struct orch_summary_input {
    const char  *run_id;
    const char  *run_dir;       /* results/<run-id> */
    const char  *started_at, *finished_at;   /* ISO 8601 UTC */
    json_object *plan;          /* borrowed; copied into the summary */
    json_object *environment;   /* borrowed; copied into the summary */
    const char *const *drives;  /* drive names, in plan order */
    int          ndrives;
    const orch_vm_result *vms;
    int          nvms;
    int          repetitions;
    int          partial;       /* the run stopped early (failure, signal) */
} orch_summary_input;

/* Build the summary document. Returns a new object (caller puts) or NULL
 * with a message in err naming the file at fault. */
json_object *orch_summary_build(const orch_summary_input *in, char *err, size_t errlen);

/* Write run_dir/summary.json and run_dir/summary.csv. 0 or -1 with err. */
int orch_summary_write(const char *run_dir, json_object *summary, char *err, size_t errlen);

/* A number rounded to 6 decimals, serialized without binary noise. */
json_object *orch_json_number(double v);

#endif
