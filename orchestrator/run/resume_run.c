/* resume_run.c — a resume's kept repetitions in the run's state, and its
 * record in the summary (see run_state.h, resume.h). */
#include "run/run_state.h"
#include "run/replay.h"
#include "run/resume.h"

#include <stdlib.h>
#include <string.h>

/* The layout index of VM name, or -1. */
static int vm_index(const run_state *st, const char *name)
{
    for (int i = 0; i < st->l->nvms; i++)
        if (strcmp(st->l->vms[i].name, name) == 0)
            return i;
    return -1;
}

/* The precondition's rounds of the kept repetitions (precondition.c's
 * arrays, index (rep - 1) * n + i). 0, or -1 when out of memory. */
static int load_precondition(run_state *st, const res_summary *cp, int kept)
{
    const orch_plan *p = st->p;
    for (int d = 0; st->pre_drives && d < cp->ndrives && d < p->ndrives; d++)
        for (int k = 0; k < cp->drives[d].npre; k++) {
            const res_steady *s = &cp->drives[d].pre[k];
            if (s->repetition < 1 || s->repetition > kept)
                continue;
            if (res_steady_copy(&st->pre_drives[(s->repetition - 1) * p->ndrives + d], s) < 0)
                return -1;
        }
    for (int v = 0; st->pre_vms && v < cp->nvms; v++) {
        const res_vm *vm = &cp->vms[v];
        int i = vm->pre ? vm_index(st, vm->name) : -1;
        if (i < 0 || vm->repetition < 1 || vm->repetition > kept)
            continue;
        if (res_steady_copy(&st->pre_vms[(vm->repetition - 1) * st->l->nvms + i], vm->pre) < 0)
            return -1;
    }
    return 0;
}

int run_resume_load(run_state *st)
{
    const orch_resume *r = st->o->resume;
    const res_summary *cp = &r->cp;
    int kept = r->from_rep - 1;

    st->reps_run = st->reps_done = kept;
    if (!r->have_cp || kept < 1)
        return 0;
    for (int v = 0; v < cp->nvms; v++) {
        orch_vm_result *res = &st->results[st->nresults];
        if (cp->vms[v].repetition < 1 || cp->vms[v].repetition > kept)
            continue;
        if (st->nresults >= orch_plan_total_vms(st->p) * st->p->repetitions) {
            snprintf(st->err, sizeof st->err, "summary.json holds more VM runs than the plan has");
            return -1;
        }
        if (orch_vm_result_from_entry(res, &cp->vms[v]) < 0)
            goto oom;
        st->nresults++;
        st->failed_vms += res->failed_in != NULL;
    }
    for (int d = 0; d < cp->ndrives && d < st->p->ndrives; d++) {
        st->restore[d].bytes = cp->drives[d].restore.bytes > 0
                               ? (uint64_t)cp->drives[d].restore.bytes : 0;
        st->restore[d].seconds = cp->drives[d].restore.seconds;
    }
    if (load_precondition(st, cp, kept) < 0
        || (cp->repetitions_stop && !(st->repetitions_stop = strdup(cp->repetitions_stop))))
        goto oom;
    return 0;
oom:
    snprintf(st->err, sizeof st->err, "out of memory");
    return -1;
}

int run_resume_record(const run_state *st, res_summary *sum)
{
    const orch_resume *r = st->o->resume;
    sum->completed_reps = st->reps_done;
    if (!r || !r->nintr)
        return 0;
    if (!(sum->interruptions = calloc((size_t)r->nintr, sizeof *sum->interruptions)))
        return -1;
    for (int i = 0; i < r->nintr; i++) {
        if (res_interruption_copy(&sum->interruptions[i], &r->intr[i]) < 0)
            return -1;
        sum->ninterruptions++;
    }
    return 0;
}
