/*
 * replay.h — a summary's VM entries back into the aggregation's input
 * (aggregate.h orch_vm_result): what `drivebench resume` keeps of the
 * repetitions before an interruption and what `drivebench verify`
 * recomputes a summary from, so that both go through the run's own
 * orch_summary_build.
 */
#ifndef ORCH_REPLAY_H
#define ORCH_REPLAY_H

#include "attributes.h"

#include "run/aggregate.h"
#include "results_summary.h"

/* r (zeroed first) from the summary's entry v, as run/collect.c filled it
 * when the VM ran: its names, repetition, result files, placement and
 * health (a VM failed for no transactions is the aggregation's own
 * verdict: healthy here, as then). vm, drive, host, failed_in, cpus and
 * emulator_cpus are borrowed from v; result, precondition, console_tail
 * and cpu_flags are new copies (orch_replay_result_clear). 0, or -1 when out
 * of memory. */
int orch_replay_result_from_entry(orch_vm_result *r, const res_vm *v);
/* Free the copies orch_replay_result_from_entry made. */
void orch_replay_result_clear(orch_vm_result *r);

/* The aggregation's input from summary s (every VM entry into vms, which
 * holds s->nvms) with the run folder run_dir and the plan's repetitions:
 * in borrows from s and drives (s->ndrives names). 0, or -1 when out of
 * memory (what was copied is cleared). */
int orch_summary_input_from(const res_summary *s, const char *run_dir, const char **drives,
                            orch_vm_result *vms, orch_summary_input *in) DB_MUST_CHECK;

/* summary.json of the run folder run_dir made again (`drivebench
 * summarize`, `drivebench verify`): its figures by the run's own
 * aggregation (orch_summary_build) from the VMs' results it names, fed
 * its VM entries, plan and environment as above, and its comparisons by
 * the run's own (orch_telemetry_fill, without samples); what the VMs'
 * results do not give (the drive I/O samples and every figure made of
 * them, the precondition's rounds, restores, fingerprint, interruptions)
 * is taken as the stored summary has it. A new summary (orch_summary_free),
 * or NULL with err: the summary cannot be read, a result named in it
 * cannot be (naming the file), or out of memory. */
res_summary *orch_summary_rebuild(const char *run_dir, char *err, size_t errlen);
/* What orch_summary_rebuild takes from the stored summary (every res_io,
 * the precondition's rounds, restores, fingerprint, repetitions_stop,
 * interruptions, completed_reps) swapped between summaries a and b of
 * the same drives and VMs, in the same order. */
void orch_summary_swap_kept(res_summary *a, res_summary *b);

#endif
