/* capacity_search.c — [workload] target's search on the run's VMs (issue 45,
 * util/capacity.h for the arithmetic): after the run's own measure, one
 * probe after another, each a measured step (run_load_step_in) in
 * probes/RUN-ID-pN inside the run folder, every drive at its own
 * search's next open-loop rate (its VMs each the drive's rate divided by
 * their number). A drive whose search is done keeps its VMs loaded at
 * its capacity (the lowest rate when none held), so that the host's
 * load under the other drives' probes does not drop; those measurements
 * stay in the probes' folders and count in no search. A probe that is
 * undecided is measured once more at its rate, twice as long (the other
 * drives' probes of that step too), and recorded undecided when it is
 * still; the search counts it once. */
#include "run/run_state.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a probe measured on one drive. */
typedef struct cap_measured {
    hist   *h;
    double  tps, queue_sum, seconds;    /* seconds: its VMs' measured times summed */
    int64_t queued;
    int     vms;            /* its VMs that measured it */
} cap_measured;

#define CAP_VM_FAILED "a VM of the drive failed: its search stopped there"


/* Each drive's merged histogram, TPS and queue time of the probe whose
 * summary is dir/summary.json (healthy VMs only). 0 or -1 with st->err. */
static int cap_read(run_state *st, const char *dir, cap_measured *m)
{
    char *path = orch_strfmt("%s/summary.json", dir);
    res_summary sum;
    int rc = -1;
    memset(&sum, 0, sizeof sum);
    if (!path || res_summary_read_file(path, &sum, st->err, sizeof st->err) != 0)
        goto cleanup;
    for (int v = 0; v < sum.nvms; v++) {
        const res_vm *vm = &sum.vms[v];
        char *rp;
        res_oltp o;
        const res_phase *ph;
        int d;
        if (vm->failed || !vm->result)
            continue;
        for (d = 0; d < st->p->ndrives && strcmp(st->p->drives[d].name, vm->drive) != 0; d++)
            ;
        if (d == st->p->ndrives)
            continue;
        if (!(rp = orch_strfmt("%s/%s", dir, vm->result))) {
            snprintf(st->err, sizeof st->err, "out of memory");
            goto cleanup;
        }
        if (res_oltp_read_file(rp, &o, st->err, sizeof st->err) != 0) {
            free(rp);
            goto cleanup;
        }
        free(rp);
        ph = res_oltp_measure(&o);
        /* the drive's histogram made with its first VM's parameters */
        if (ph->histogram && !m[d].h
            && !(m[d].h = hist_new(ph->histogram->highest, ph->histogram->sig_digits))) {
            snprintf(st->err, sizeof st->err, "out of memory");
            res_oltp_clear(&o);
            goto cleanup;
        }
        if (ph->histogram && hist_add(m[d].h, ph->histogram) < 0) {
            snprintf(st->err, sizeof st->err, "%s/%s: its histogram is not built as the other "
                     "results of drive %s: they cannot be merged", dir, vm->result, vm->drive);
            res_oltp_clear(&o);
            goto cleanup;
        }
        m[d].tps += ph->tps;
        m[d].seconds += ph->duration_s;
        m[d].vms++;
        if (ph->has_queue) {
            m[d].queue_sum += ph->queue.avg * (double)ph->transactions;
            m[d].queued += ph->transactions;
        }
        res_oltp_clear(&o);
    }
    rc = 0;
cleanup:
    res_summary_clear(&sum);
    free(path);
    return rc;
}

/* Step `step`'s measurements m into the search of every drive it
 * probed: judged, printed, recorded, or (undecided the first time)
 * marked to be measured again. */
static void cap_record(run_state *st, int step, const orch_cap_target *t, const cap_measured *m,
                       orch_cap_probe *pending, int *again)
{
    const orch_plan *p = st->p;
    for (int d = 0; d < p->ndrives; d++) {
        orch_cap_search *s = &st->cap[d];
        orch_cap_probe *pr = &pending[d];
        if (!again[d] && orch_cap_next(s) <= 0)
            continue;
        /* a drive short of a VM measures no probe: a failure is no
         * figure, and its VM stays failed for the probes after */
        if (m[d].vms < orch_plan_drive_vms(p, &p->drives[d])) {
            fprintf(st->out, "capacity probe %d: drive %s at %g/s: %s\n", step,
                    p->drives[d].name, pr->offered, CAP_VM_FAILED);
            s->state = ORCH_CAP_DONE;
            s->end = CAP_VM_FAILED;
            again[d] = 0;
            continue;
        }
        pr->achieved = m[d].tps;
        pr->seconds = m[d].seconds / m[d].vms;     /* the VMs measured the same time */
        pr->queue_ms = m[d].queued ? m[d].queue_sum / (double)m[d].queued : NAN;
        if (!m[d].h || orch_cap_quantile_ci(m[d].h, t->pct, &pr->q) < 0)
            pr->q = (orch_cap_quantile){ .value_us = NAN, .lo_us = -1, .hi_us = INFINITY };
        orch_cap_judge(t, pr);
        fprintf(st->out, "capacity probe %d: drive %s at %g/s: %s, %.2f TPS: %s\n", step,
                p->drives[d].name, pr->offered, orch_cap_side_name(pr->side), pr->achieved,
                pr->why);
        /* undecided: once more for twice as long */
        if (pr->side == ORCH_CAP_UNDECIDED && !again[d]) {
            again[d] = 1;
            continue;
        }
        again[d] = 0;
        if (s->nprobes < ORCH_CAP_MAX_PROBES)
            st->cap_step[d][s->nprobes] = step;
        orch_cap_record(s, pr);
    }
}

int run_capacity(run_state *st)
{
    const orch_plan *p = st->p;
    orch_plan sp = *p;
    orch_drive *drives = calloc((size_t)p->ndrives, sizeof *drives);
    cap_measured *m = calloc((size_t)p->ndrives, sizeof *m);
    orch_cap_probe *pending = calloc((size_t)p->ndrives, sizeof *pending);
    int *again = calloc((size_t)p->ndrives, sizeof *again), rc = -1;
    orch_cap_target t;

    st->cap = calloc((size_t)p->ndrives, sizeof *st->cap);
    st->cap_step = calloc((size_t)p->ndrives, sizeof *st->cap_step);
    if (!drives || !m || !pending || !again || !st->cap || !st->cap_step) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    if (orch_cap_target_parse(p->target, &t, st->err, sizeof st->err) < 0)
        goto cleanup;
    for (int d = 0; d < p->ndrives; d++) {
        if (orch_cap_init(&st->cap[d], &t, p->target_start, p->target_max_rate,
                          p->target_max_probes, st->err, sizeof st->err) < 0)
            goto cleanup;
        st->cap[d].resolution = p->target_resolution_pct / 100.0;
    }
    memcpy(drives, p->drives, (size_t)p->ndrives * sizeof *drives);
    sp.drives = drives;
    for (int step = 1;; step++) {
        char *id = NULL, *dir = NULL;
        int probing = 0, longer = 0, src;
        for (int d = 0; d < p->ndrives; d++) {
            /* the search's next rate, or the undecided one again */
            double rate = again[d] ? pending[d].offered : orch_cap_next(&st->cap[d]);
            probing += rate > 0;
            longer |= again[d];
            if (rate <= 0)      /* done: held at its capacity */
                rate = st->cap[d].held > 0 ? st->cap[d].held : st->cap[d].min_rate;
            pending[d] = (orch_cap_probe){ .offered = rate };
            drives[d].rate = rate / orch_plan_drive_vms(p, &p->drives[d]);
        }
        if (!probing)
            break;
        sp.measure_s = longer ? 2 * p->measure_s : p->measure_s;
        id = orch_strfmt("%s-p%d", st->l->run_id, step);
        dir = id ? orch_strfmt("%s/probes/%s", st->l->run_dir, id) : NULL;
        if (!dir) {
            free(id);
            snprintf(st->err, sizeof st->err, "out of memory");
            goto cleanup;
        }
        fprintf(st->out, "capacity probe %d:", step);
        for (int d = 0; d < p->ndrives; d++)
            fprintf(st->out, " drive %s at %g/s%s%s", p->drives[d].name, pending[d].offered,
                    again[d] ? " (again, longer)" : "",
                    orch_cap_next(&st->cap[d]) > 0 ? "" : " (done, held)");
        fprintf(st->out, " (run %s)\n", id);
        fflush(st->out);
        st->cap_probing = 1;
        src = run_load_step_in(st, &sp, id, dir);
        st->cap_probing = 0;
        free(id);
        for (int d = 0; d < p->ndrives; d++) {
            hist_free(m[d].h);
            m[d] = (cap_measured){ .h = NULL };
        }
        if (src == ORCH_RUN_FAILED || src == ORCH_RUN_INTERRUPTED || cap_read(st, dir, m) < 0) {
            free(dir);
            goto cleanup;
        }
        free(dir);
        cap_record(st, step, &t, m, pending, again);
    }
    rc = 0;
cleanup:
    for (int d = 0; m && d < p->ndrives; d++)
        hist_free(m[d].h);
    free(m);
    free(pending);
    free(again);
    free(drives);
    return rc;
}

void run_capacity_print(const run_state *st)
{
    for (int d = 0; st->cap && d < st->p->ndrives; d++) {
        const orch_cap_search *s = &st->cap[d];
        char tgt[64];
        orch_cap_target_format(&s->target, tgt, sizeof tgt);
        if (s->held > 0 && s->failed > 0)
            fprintf(st->out, "capacity: drive %s: %g TPS at %s (interval %g-%g; %d probe%s, "
                    "broken by probe %d)\n", st->p->drives[d].name, s->held, tgt, s->held,
                    s->failed, s->nprobes, s->nprobes == 1 ? "" : "s", s->breaking + 1);
        else if (s->held > 0)
            fprintf(st->out, "capacity: drive %s: at least %g TPS at %s (%d probe%s; %s)\n",
                    st->p->drives[d].name, s->held, tgt, s->nprobes, s->nprobes == 1 ? "" : "s",
                    s->end ? s->end : "");
        else
            fprintf(st->out, "capacity: drive %s: none at %s (%d probe%s; %s)\n",
                    st->p->drives[d].name, tgt, s->nprobes, s->nprobes == 1 ? "" : "s",
                    s->end ? s->end : "");
    }
}
