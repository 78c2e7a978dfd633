/*
 * replay.h — a summary's VM entries back into the aggregation's input
 * (aggregate.h orch_vm_result): what `drivebench resume` keeps of the
 * repetitions before an interruption and what `drivebench verify`
 * recomputes a summary from, so that both go through the run's own
 * orch_summary_build.
 */
#ifndef ORCH_REPLAY_H
#define ORCH_REPLAY_H

#include "run/aggregate.h"
#include "results.h"

/* r (zeroed first) from the summary's entry v, as run/collect.c filled it
 * when the VM ran: its names, repetition, result files, placement and
 * health (a VM failed for no transactions is the aggregation's own
 * verdict: healthy here, as then). vm, drive, host, failed_in, cpus and
 * emulator_cpus are borrowed from v; result, precondition, console_tail
 * and cpu_flags are new copies (orch_vm_result_clear). 0, or -1 when out
 * of memory. */
int orch_vm_result_from_entry(orch_vm_result *r, const res_vm *v);
/* Free the copies orch_vm_result_from_entry made. */
void orch_vm_result_clear(orch_vm_result *r);

/* The aggregation's input from summary s (every VM entry into vms, which
 * holds s->nvms) with the run folder run_dir and the plan's repetitions:
 * in borrows from s and drives (s->ndrives names). 0, or -1 when out of
 * memory (what was copied is cleared). */
int orch_summary_input_from(const res_summary *s, const char *run_dir, const char **drives,
                            orch_vm_result *vms, orch_summary_input *in);

#endif
