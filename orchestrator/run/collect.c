/* collect.c — each VM's result entry of a repetition, with its health
 * (see run_state.h). */
#include "run/run_state.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

char *run_console_tail(run_state *st, const orch_vm *vm, int rep, int keep, int settle_ms,
                       char **path_out)
{
    char *rel = orch_layout_console(vm, rep);
    char *path = rel ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
    char *text = NULL;
    if (path) {
        if (settle_ms > 0)
            orch_file_settle(path, settle_ms);
        /* a guest kernel's panic line, above a call trace longer than
         * the tail, is what says why */
        text = orch_file_tail(path, keep, "Kernel panic - not syncing");
    }
    free(rel);
    if (path_out)
        *path_out = path;
    else
        free(path);
    return text;
}

/* One result entry per VM of repetition rep, with its health; called once
 * per repetition that reached its measured phase. */
void run_record_rep(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        run_vm *rv = &st->vms[i];
        const res_steady *pre;
        orch_vm_result *r = &st->results[st->nresults++];
        r->vm = vm->name;
        r->drive = vm->drive->name;
        r->host = orch_plan_drive_uri(p, vm->drive);
        r->cpu_flags = rv->cpu_flags ? strdup(rv->cpu_flags) : NULL;
        r->cpus = vm->place.nvcpus ? vm->place.vcpus : NULL;
        r->emulator_cpus = vm->place.nvcpus ? vm->place.emulator : NULL;
        r->numa_node = vm->place.nvcpus ? vm->place.node : -1;
        r->repetition = rep;
        r->result = orch_layout_result(vm, rep, RES_PHASE_MEASURE);
        /* the precondition's last round this VM finished */
        pre = st->pre_vms ? &st->pre_vms[(rep - 1) * st->l->nvms + i] : NULL;
        r->precondition = pre && pre->nrounds
                          ? orch_layout_round_result(vm, rep, pre->rounds[pre->nrounds - 1].round)
                          : NULL;
        r->failed_in = rv->failed_in;
        orch_monitor_health(st->mon, rv->slot, &r->health);
        r->boot_reboots = r->health.boot_reboots;
        if (rv->failed_in) {
            /* read after the phase: long written out */
            r->console_tail = run_console_tail(st, vm, rep, 20, 0, NULL);
        }
    }
}

void run_results_clear(run_state *st)
{
    for (int i = 0; i < st->nresults; i++) {
        free((char *)st->results[i].result);
        free((char *)st->results[i].precondition);
        free(st->results[i].console_tail);
        free(st->results[i].cpu_flags);
    }
}
