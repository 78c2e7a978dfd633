/* step.c — a sweep's steps on the same VMs (issue 45, run.h
 * orch_sweep_steps): after the run's own measure (the first step), each
 * later step one measured phase at its load on the VMs the run
 * provisioned, prepared and preconditioned, written as a run folder of
 * its own beside the first (see run_state.h). */
#include "run/run_state.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What a step swaps in the run's state, to put back after it. */
typedef struct step_saved {
    const orch_plan *p;
    char            *run_id, *run_dir;
    orch_vm_result  *results;
    int              nresults;
    res_steady      *pre_drives, *pre_vms;
    orch_tel_cpu_acc cpu;           /* the run's host CPU figure so far */
} step_saved;

static void step_swap_in(run_state *st, step_saved *s, const orch_plan *sp, char *run_id,
                         char *run_dir, orch_vm_result *results)
{
    *s = (step_saved){ .p = st->p, .run_id = st->l->run_id, .run_dir = st->l->run_dir,
                       .results = st->results, .nresults = st->nresults,
                       .pre_drives = st->pre_drives, .pre_vms = st->pre_vms };
    st->p = sp;
    st->cl.plan = sp;
    st->l->run_id = run_id;
    st->l->run_dir = run_dir;
    st->results = results;
    st->nresults = 0;
    /* the precondition was the first step's: its rounds stay in its summary */
    st->pre_drives = st->pre_vms = NULL;
    /* the step's host CPU is its own measured phase's */
    orch_telemetry_cpu_swap(st->tel, &s->cpu);
}

static void step_swap_out(run_state *st, const step_saved *s)
{
    run_results_clear(st);
    st->p = s->p;
    st->cl.plan = s->p;
    st->l->run_id = s->run_id;
    st->l->run_dir = s->run_dir;
    st->results = s->results;
    st->nresults = s->nresults;
    st->pre_drives = s->pre_drives;
    st->pre_vms = s->pre_vms;
    {
        orch_tel_cpu_acc run = s->cpu;
        orch_telemetry_cpu_swap(st->tel, &run);
    }
}

/* The step's folder with its vm/ and the plan it ran. 0 or -1 with st->err. */
static int step_dirs(run_state *st, const orch_plan *sp)
{
    char *vm = orch_strfmt("%s/vm", st->l->run_dir);
    char *plan = orch_strfmt("%s/plan.ini", st->l->run_dir);
    int rc = -1;
    if (!vm || !plan)
        snprintf(st->err, sizeof st->err, "out of memory");
    else if (run_mkdir_p(vm, 0755) < 0)
        snprintf(st->err, sizeof st->err, "cannot create %s: %s", vm, strerror(errno));
    else
        rc = orch_plan_write_redacted(sp, plan, st->err, sizeof st->err);
    free(vm);
    free(plan);
    return rc;
}

/* The measured phase (and TPC-C's check) of the step; *measured once it
 * started. 0 or -1 with st->err. */
static int step_measure(run_state *st, const orch_plan *sp, int *measured)
{
    if (step_dirs(st, sp) < 0)
        return -1;
    *measured = 1;
    if (run_phase(st, 1, ORCH_STEP_MEASURE, RES_PHASE_MEASURE, "run", sp->measure_s,
                  orch_plan_step_warmup(sp), 0) < 0)
        return -1;
    if (strcmp(sp->workload, "tpcc") == 0
        && run_phase(st, 1, ORCH_STEP_CHECK, RES_PHASE_CHECK, "check", 0, 0, 0) < 0)
        return -1;
    return 0;
}

int run_load_step(run_state *st, const orch_plan *sp, const char *run_id)
{
    const char *slash = strrchr(st->l->run_dir, '/');
    char *dir = slash ? orch_strfmt("%.*s/%s", (int)(slash - st->l->run_dir), st->l->run_dir,
                                    run_id) : NULL;
    int rc = dir ? run_load_step_in(st, sp, run_id, dir) : ORCH_RUN_FAILED;
    if (!dir)
        snprintf(st->err, sizeof st->err, "out of memory");
    free(dir);
    return rc;
}

int run_load_step_in(run_state *st, const orch_plan *sp, const char *run_id, const char *in)
{
    char *id = strdup(run_id), started[32];
    char *dir = strdup(in);
    orch_vm_result *results = calloc((size_t)st->l->nvms + 1, sizeof *results);
    step_saved saved;
    int measured = 0, rc = ORCH_RUN_FAILED, failed = 0;

    if (!id || !dir || !results) {
        snprintf(st->err, sizeof st->err, "out of memory");
        free(id);
        free(dir);
        free(results);
        return ORCH_RUN_FAILED;
    }
    run_iso_now(started, sizeof started);
    step_swap_in(st, &saved, sp, id, dir, results);
    if (step_measure(st, sp, &measured) == 0) {
        run_record_rep(st, 1);
        if (run_write_summary(st, started, 0) == 0 && run_write_report(st) == 0) {
            for (int i = 0; i < st->nresults; i++)
                failed += st->results[i].failed_in != NULL;
            rc = failed ? ORCH_RUN_DEGRADED : ORCH_RUN_OK;
            fprintf(st->out, "summary: %s/summary.json\n", dir);
        }
    } else if (measured) {
        /* what the step measured before it failed, kept as a partial summary */
        char keep[sizeof st->err];
        snprintf(keep, sizeof keep, "%s", st->err);
        run_record_rep(st, 1);
        if (run_write_summary(st, started, 1) == 0)
            fprintf(st->out, "partial summary: %s/summary.json\n", dir);
        snprintf(st->err, sizeof st->err, "%s", keep);
    }
    if (rc == ORCH_RUN_FAILED && run_stop_requested(st))
        rc = ORCH_RUN_INTERRUPTED;
    step_swap_out(st, &saved);
    free(results);
    free(dir);
    free(id);
    return rc;
}

/* The warm-up and measured time of the steps from i (0-based) on. */
static int sweep_later_s(const orch_sweep_steps *w, int i)
{
    int s = 0;
    for (; i < w->n; i++)
        s += orch_plan_step_warmup(w->plans[i]) + w->plans[i]->measure_s;
    return s;
}

void run_sweep_eta(run_state *st)
{
    if (st->o->steps)
        st->eta.later_s = sweep_later_s(st->o->steps, 1);
}

int run_sweep_steps(run_state *st, const char *started, int *summary_written)
{
    const orch_sweep_steps *w = st->o->steps;
    /* the first step's figures now, over its own measured window, before
     * the next step loads the same VMs */
    if (run_write_summary(st, started, 0) < 0)
        return -1;
    *summary_written = 1;
    fprintf(st->out, "summary: %s/summary.json\n", st->l->run_dir);
    if (run_write_report(st) < 0)
        return -1;
    w->status[0] = st->failed_vms ? ORCH_RUN_DEGRADED : ORCH_RUN_OK;
    for (int i = 1; i < w->n; i++) {
        const orch_plan *sp = w->plans[i];
        char value[64];
        st->eta.later_s = sweep_later_s(w, i + 1);
        orch_plan_sweep_value(sp, sp->sweep_step - 1, value, sizeof value);
        fprintf(st->out, "sweep step %d of %d: [%s] %s = %s on the same VMs (run %s)\n", i + 1,
                w->n, sp->sweep_section, sp->sweep_key, value, w->ids[i]);
        fflush(st->out);
        w->status[i] = run_load_step(st, sp, w->ids[i]);
        if (w->status[i] == ORCH_RUN_FAILED || w->status[i] == ORCH_RUN_INTERRUPTED)
            return -1;
    }
    return 0;
}
