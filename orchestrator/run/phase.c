/* phase.c — the phases of one repetition (prepare, precondition,
 * measure, check) on every VM still healthy (see run_state.h). */
#include "run/run_state.h"
#include "attributes.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* Free the jobs of a phase and what they point to. */
static void jobs_free(orch_job *jobs, int n)
{
    for (int i = 0; jobs && i < n; i++) {
        orch_argv_free(jobs[i].argv);
        free((char *)jobs[i].result);
        free((char *)jobs[i].guest_result);
    }
    free(jobs);
}

/* Mark VMs the monitor saw fail since the last look as failed in phase. */
static void note_failures(run_state *st, const char *phase)
{
    orch_health h;
    for (int i = 0; i < st->l->nvms; i++)
        if (!st->vms[i].failed_in && st->vms[i].dom
            && orch_monitor_health(st->mon, st->vms[i].slot, &h)) {
            st->vms[i].failed_in = phase;
            st->failed_vms++;
        }
}

/* What a measured phase's result tells the run, read once per job. */
typedef struct job_note {
    bool   read;                /* the result could be read, with a measure phase */
    double start_s, duration_s; /* its measure phase (start_s 0: not reported) */
    double worst_outage_s;      /* its connections' longest outage */
} job_note;

/* Each job's result, read once (a result that cannot be read is left to
 * the aggregation, which says why). */
static void read_notes(const orch_job *jobs, int n, job_note *notes)
{
    for (int j = 0; j < n; j++) {
        res_oltp r;
        const res_phase *m;
        char err[DB_ERR_LEN];
        notes[j] = (job_note){ 0 };
        if (!jobs[j].result || res_oltp_read_file(jobs[j].result, &r, err, sizeof err) < 0)
            continue;
        if ((m = res_oltp_measure(&r))) {
            notes[j].read = true;
            notes[j].start_s = m->start_s;
            notes[j].duration_s = m->duration_s;
            for (int k = 0; k < m->nlongest_outage; k++)
                if (m->longest_outage_s[k] > notes[j].worst_outage_s)
                    notes[j].worst_outage_s = m->longest_outage_s[k];
        }
        res_oltp_clear(&r);
    }
}

/* The measured phase of a VM whose database did not answer for
 * max_outage_s or longer (a connection's longest outage in its result)
 * is not comparable: fail the VM. */
static void note_outages(run_state *st, const job_note *notes, const int *vm_of, int n,
                         const char *phase)
{
    for (int j = 0; st->p->max_outage_s > 0 && j < n; j++) {
        run_vm *rv = &st->vms[vm_of[j]];
        if (rv->failed_in || !notes[j].read || notes[j].worst_outage_s < st->p->max_outage_s)
            continue;
        orch_monitor_fail(st->mon, rv->slot, ORCH_FAULT_DATABASE,
                          "the database did not answer for %.1f s during %s (max_outage %d s): "
                          "its figures are not comparable", notes[j].worst_outage_s, phase,
                          st->p->max_outage_s);
        rv->failed_in = phase;
        st->failed_vms++;
    }
}

/* Each job's measured window as its oltp reported it (its measure phase's
 * start_s after the process started, and its duration_s) to the
 * telemetry, which takes the drives' I/O and the host's CPU over it. A
 * result without start_s (an older oltp) gives none. */
static void note_windows(run_state *st, const orch_job *jobs, const job_note *notes, int n,
                         int rep)
{
    for (int j = 0; j < n; j++)
        if (notes[j].read && notes[j].start_s > 0)
            orch_telemetry_vm_window(st->tel, jobs[j].vm->name, rep,
                                     jobs[j].started + notes[j].start_s,
                                     jobs[j].started + notes[j].start_s + notes[j].duration_s);
}

int run_phase(run_state *st, int rep, orch_step s, res_phase_id ph, const char *command,
              int time_s, int warmup_s, int round)
{
    const orch_plan *p = st->p;
    const char *phase = res_phase_name(ph);
    int n = 0, rc = -1, has_json = strcmp(command, "run") == 0;
    orch_job *jobs = calloc((size_t)st->l->nvms, sizeof *jobs);
    int *vm_of = calloc((size_t)st->l->nvms, sizeof *vm_of);
    job_note *notes = calloc((size_t)st->l->nvms, sizeof *notes);
    if (!jobs || !vm_of || !notes) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    if (run_step(st, s, phase) < 0)
        goto cleanup;
    note_failures(st, phase);
    for (int i = 0; i < st->l->nvms; i++) {
        orch_job *job = &jobs[n];
        char *rel, *result, *guest_result;
        orch_plan vp;
        if (st->vms[i].failed_in)
            continue;
        rel = round ? orch_layout_round_result(&st->l->vms[i], rep, round)
                    : orch_layout_result(&st->l->vms[i], rep, ph);
        result = rel && has_json ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
        guest_result = has_json ? orch_strfmt("/var/tmp/drivebench.%s.json", phase) : NULL;
        free(rel);
        vm_of[n++] = i;
        job->vm = &st->l->vms[i];
        job->dom = st->vms[i].dom;
        job->slot = st->vms[i].slot;
        job->result = result;
        job->guest_result = guest_result;
        job->status = -1;
        /* a capacity probe offers each drive its own rate (capacity_search.c) */
        vp = *p;
        if (p->drives[job->vm->drive_index].rate > 0)
            vp.rate = p->drives[job->vm->drive_index].rate;
        if (st->client->in_guest)
            job->argv = orch_oltp_argv(&vp, p->guest_oltp, p->engine->port, command, time_s,
                                       warmup_s, guest_result);
        else
            job->argv = orch_oltp_argv(&vp, p->oltp, job->vm->port, command, time_s, warmup_s,
                                       result);
        if (!job->argv || (has_json && (!result || !guest_result))) {
            snprintf(st->err, sizeof st->err, "out of memory");
            goto cleanup;
        }
    }
    if (n == 0) {
        snprintf(st->err, sizeof st->err, "every VM failed before %s; nothing to measure",
                 phase);
        goto cleanup;
    }
    if (round)
        fprintf(st->out, "repetition %d: %s round %d (%d s) on %d VM(s)\n", rep, phase, round,
                time_s, n);
    else
        fprintf(st->out, "repetition %d: %s on %d VM(s)%s\n", rep, phase, n,
                time_s ? "" : " (until done)");
    fflush(st->out);
    orch_live_phase(st->live, ph, rep, round);
    orch_telemetry_phase_start(st->tel, ph, warmup_s);
    rc = st->client->run_phase(&st->cl, jobs, n, phase, time_s > 0 ? time_s + warmup_s : 0);
    if (s == ORCH_STEP_MEASURE) {
        read_notes(jobs, n, notes);
        note_windows(st, jobs, notes, n, rep);
    }
    orch_telemetry_phase_end(st->tel, ph, rep);
    /* libvirt may have gone and come back during the phase */
    if (rc == 0 && run_reconnect_lost(st, phase) < 0)
        rc = -2;
    for (int j = 0; j < n; j++)
        if (jobs[j].failed && !st->vms[vm_of[j]].failed_in) {
            st->vms[vm_of[j]].failed_in = phase;
            st->failed_vms++;
        }
    note_failures(st, phase);
    orch_live_phase_end(st->live);
    if (rc == 0 && s == ORCH_STEP_MEASURE)
        note_outages(st, notes, vm_of, n, phase);
    if (rc == ORCH_RUN_INTERRUPTED) {
        snprintf(st->err, sizeof st->err, "interrupted");
    } else if (rc == -2) {
        rc = -1;                /* st->err says why */
    } else if (rc < 0) {
        snprintf(st->err, sizeof st->err, "%s failed on at least one VM (see above)", phase);
    } else {
        int left = 0;
        for (int i = 0; i < st->l->nvms; i++)
            left += !st->vms[i].failed_in;
        if (left == 0) {
            snprintf(st->err, sizeof st->err, "%s failed on every VM (see above)", phase);
            rc = -1;
        }
    }
cleanup:
    jobs_free(jobs, n);
    free(vm_of);
    free(notes);
    return rc < 0 || rc == ORCH_RUN_INTERRUPTED ? -1 : 0;
}
