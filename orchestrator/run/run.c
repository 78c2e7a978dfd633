/* run.c — the run from the top: its state, the repetitions, the partial
 * summary after a failure and teardown (see run.h; the steps live in the
 * files named in run_state.h). */
#include "run/run_state.h"
#include "attributes.h"
#include "run/resume.h"
#include "virt/virt.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The run's template, layout, ledgers and per-drive and per-VM arrays.
 * 0, or -1 with st->err. */
static int state_open(run_state *st, const char *run_id)
{
    const orch_plan *p = st->p;
    st->t = orch_template_load(p->template_path, st->err, sizeof st->err);
    if (!st->t)
        return -1;
    st->l = orch_layout_new(p, run_id, orch_layout_has_seed(p, st->t));
    st->conns = st->o->conns ? st->o->conns : orch_conns_new();
    st->run_objs = orch_ledger_new();
    st->rep_objs = orch_ledger_new();
    st->pools = calloc((size_t)p->ndrives, sizeof *st->pools);
    st->restore = calloc((size_t)p->ndrives + 1, sizeof *st->restore);
    st->images = orch_images_new(p);
    st->vms = st->l ? calloc((size_t)st->l->nvms, sizeof *st->vms) : NULL;
    st->results = calloc((size_t)(orch_plan_total_vms(p) * p->repetitions), sizeof *st->results);
    if (p->precondition_s > 0 && st->l) {
        st->pre_drives = calloc((size_t)(p->repetitions * p->ndrives), sizeof *st->pre_drives);
        st->pre_vms = calloc((size_t)(p->repetitions * st->l->nvms) + 1, sizeof *st->pre_vms);
    }
    if (!st->l || !st->conns || !st->run_objs || !st->rep_objs || !st->pools || !st->restore
        || !st->images || !st->vms || !st->results || !st->mon
        || (p->precondition_s > 0 && (!st->pre_drives || !st->pre_vms))) {
        snprintf(st->err, sizeof st->err, "out of memory");
        return -1;
    }
    st->cl.run_dir = st->l->run_dir;
    return 0;
}

/* Everything state_open and the run made (after teardown). */
static void state_close(run_state *st)
{
    for (int d = 0; st->pools && d < st->p->ndrives; d++)
        if (st->pools[d])
            virStoragePoolFree(st->pools[d]);
    run_results_clear(st);
    run_precondition_clear(st);
    free(st->repetitions_stop);
    orch_hc_free(st->hc, st->nhc);
    run_live_detach(st);
    orch_monitor_free(st->mon);
    orch_telemetry_free(st->tel);
    run_live_stop(st);
    st->o->monitor = NULL;
    free(st->results);
    for (int i = 0; st->vms && st->l && i < st->l->nvms; i++)
        free(st->vms[i].cpu_flags);
    free(st->vms);
    free(st->pools);
    free(st->restore);
    orch_images_free(st->images);
    orch_ledger_free(st->rep_objs);
    orch_ledger_free(st->run_objs);
    if (!st->o->conns)
        orch_conns_free(st->conns);
    orch_layout_free(st->l);
    orch_template_free(st->t);
}

/* Drive d's TPS in repetition rep (the sum of its VMs' measured TPS)
 * into *tps: 1 when every VM of d was measured in it without failing,
 * else 0 (the repetition is not complete for d). */
static int rep_tps(const run_state *st, int rep, int d, double *tps)
{
    *tps = 0;
    for (int i = 0; i < st->nresults; i++) {
        const orch_vm_result *r = &st->results[i];
        char *path, err[DB_ERR_LEN];
        res_oltp o;
        const res_phase *ph;
        int ok;
        if (r->repetition != rep || strcmp(r->drive, st->p->drives[d].name) != 0)
            continue;
        if (r->failed_in)
            return 0;
        path = orch_strfmt("%s/%s", st->l->run_dir, r->result);
        ok = path && res_oltp_read_file(path, &o, err, sizeof err) == 0;
        free(path);
        if (!ok)
            return 0;
        ph = res_oltp_measure(&o);
        if (ph)
            *tps += ph->tps;
        res_oltp_clear(&o);
        if (!ph)
            return 0;
    }
    return 1;
}

/* repetitions = auto, after repetition rep: stop once every drive's TPS
 * CV over its complete repetitions (at least repetitions_min of them) is
 * under cv_threshold (orch_stats_auto_stop), or at repetitions_max;
 * st->repetitions_stop says which. Stopping on the spread makes the
 * spread and Welch's interval optional-stopping estimates, which the line
 * says (results/SCHEMA.md; bin/stats-sim --auto measures the verdicts).
 * 1 to stop. */
static int enough_repetitions(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    double *v = calloc((size_t)rep * (size_t)p->ndrives + 1, sizeof *v), worst = 0;
    int *n = calloc((size_t)p->ndrives + 1, sizeof *n), stable = 0;
    char why[DB_ERR_LEN];

    if (v && n) {
        for (int d = 0; d < p->ndrives; d++)
            for (int r = 1; r <= rep; r++)
                n[d] += rep_tps(st, r, d, &v[d * rep + n[d]]);
        stable = orch_stats_auto_stop(v, rep, n, p->ndrives, p->repetitions_min,
                                      p->cv_threshold, &worst);
    }
    free(v);
    free(n);
    if (stable)
        snprintf(why, sizeof why, "cv below %g%% after %d", p->cv_threshold, rep);
    else if (rep >= p->repetitions_max)
        snprintf(why, sizeof why, "maximum %d reached", p->repetitions_max);
    else
        return 0;
    free(st->repetitions_stop);
    st->repetitions_stop = strdup(why);
    fprintf(st->out, "repetitions: %s", why);
    if (stable)
        fprintf(st->out, " (largest drive CV %.2f%%)", worst);
    fputs("; repetitions chosen by their spread: the spread and Welch's interval are "
          "optional-stopping estimates\n", st->out);
    return 1;
}

/* prepare = auto: load the database unless its volumes come from seeds */
static int need_prepare(const orch_plan *p, const orch_layout *l)
{
    if (strcmp(p->prepare, "auto") == 0)
        return l->nvms > 0 && l->vms[0].seed_vol == NULL;
    return strcmp(p->prepare, "yes") == 0;
}

int run_repetition(run_state *st, int rep, int *measured)
{
    const orch_plan *p = st->p;
    if (run_provision_rep(st, rep) < 0 || run_wait_ready(st, rep) < 0)
        return -1;
    if (need_prepare(p, st->l)
        && run_phase(st, rep, ORCH_STEP_PREPARE, RES_PHASE_PREPARE, "prepare", 0, 0, 0) < 0)
        return -1;
    /* the server as it will be measured, before any load on it */
    if (run_read_settings(st, rep) < 0)
        return -1;
    if (p->precondition_s > 0 && run_precondition(st, rep) < 0)
        return -1;
    *measured = 1;
    if (run_phase(st, rep, ORCH_STEP_MEASURE, RES_PHASE_MEASURE, "run", p->measure_s,
                  p->warmup_s, 0) < 0)
        return -1;
    /* TPC-C's consistency conditions after the load (oltp tpcc check): a
     * VM whose database fails them is named and left out of the figures */
    if (strcmp(p->workload, "tpcc") == 0
        && run_phase(st, rep, ORCH_STEP_CHECK, RES_PHASE_CHECK, "check", 0, 0, 0) < 0)
        return -1;
    return 0;
}

/* The run folder, the drives, every repetition, the summary and the
 * report. ORCH_RUN_OK or _DEGRADED, or ORCH_RUN_FAILED with st->err;
 * *summary_written once summary.json is there. */
static int run_all(run_state *st, const char *started, int *summary_written)
{
    const orch_plan *p = st->p;
    int first;
    fprintf(st->out, "run %s: %d drive(s), %d VM(s), results in %s\n", st->l->run_id,
            p->ndrives, st->l->nvms, st->l->run_dir);
    /* the plan's cost first: a refusal (memory, a drive's space) says
     * "nothing was created", and no run folder is (issue 43) */
    if (!st->o->resume && orch_estimate(st->conns, p, st->t, st->out, st->err,
                                        sizeof st->err) < 0)
        return ORCH_RUN_FAILED;
    if (run_live_start(st) < 0 || run_check_image_engine(st) < 0 || run_setup_dirs(st) < 0)
        return ORCH_RUN_FAILED;
    /* one drivebench a run folder (a resume holds the lock already) */
    if (!st->o->resume && (st->lock_fd = orch_run_lock(st->l->run_dir, st->err,
                                                       sizeof st->err)) < 0)
        return ORCH_RUN_FAILED;
    if (orch_hosts_write(p, st->l->run_dir, st->err, sizeof st->err) < 0)
        return ORCH_RUN_FAILED;
    /* the samples on disk as they come, not in memory (issue 33) */
    if (st->tel && orch_telemetry_spool(st->tel, st->l->run_dir, st->err, sizeof st->err) < 0)
        return ORCH_RUN_FAILED;
    /* a resume's kept repetitions, and at once a checkpoint that records
     * the interruption, should this process stop too before the next */
    if (st->o->resume && (run_resume_load(st) < 0
                          || run_write_summary(st, started, RUN_CHECKPOINT) < 0))
        return ORCH_RUN_FAILED;
    if (run_assign_ports(st) < 0)
        return ORCH_RUN_FAILED;
    /* the plan's cost, and its refusal when a drive or a host is short */
    if ((st->o->resume && orch_estimate(st->conns, p, st->t, st->out, st->err,
                                        sizeof st->err) < 0)
        || (!st->o->seed_out && run_host_check(st) < 0)
        || orch_place_layout(st->conns, p, st->l, p->vcpus ? p->vcpus : orch_template_vcpus(st->t),
                             NULL, st->out, st->err, sizeof st->err) < 0
        || run_provision_drives(st) < 0)
        return ORCH_RUN_FAILED;
    if (st->o->seed_out)        /* seed mode: no measure, no summary */
        return run_seed(st) < 0 ? ORCH_RUN_FAILED : ORCH_RUN_OK;
    /* a resume goes on after its kept repetitions, unless they were enough */
    first = st->reps_done + 1;
    if (st->reps_done && p->repetitions_auto && enough_repetitions(st, st->reps_done))
        first = p->repetitions + 1;
    for (int rep = first; rep <= p->repetitions; rep++) {
        int measured = 0, rc_rep;
        st->reps_run = rep;
        orch_eta_rep_begin(&st->eta, rep, time(NULL));
        rc_rep = run_repetition(st, rep, &measured);
        orch_eta_rep_end(&st->eta, time(NULL));
        if (measured)
            run_record_rep(st, rep);
        /* a sweep on the same VMs: its later steps before teardown */
        if (rc_rep == 0 && st->o->steps)
            rc_rep = run_sweep_steps(st, started, summary_written);
        /* [workload] target: the capacity search on the same VMs */
        if (rc_rep == 0 && p->target)
            rc_rep = run_capacity(st);
        orch_monitor_clear(st->mon);    /* teardown's destroys are no faults */
        if (rc_rep < 0)
            return ORCH_RUN_FAILED;
        run_teardown(st, st->rep_objs);
        /* the checkpoint a resume goes on from (resume.h); a sweep's
         * steps wrote their summaries */
        st->reps_done = rep;
        if (st->o->steps)
            return st->failed_vms ? ORCH_RUN_DEGRADED : ORCH_RUN_OK;
        if (run_write_summary(st, started, RUN_CHECKPOINT) < 0)
            return ORCH_RUN_FAILED;
        if (p->repetitions_auto && enough_repetitions(st, rep))
            break;
    }
    if (run_write_summary(st, started, 0) < 0)
        return ORCH_RUN_FAILED;
    *summary_written = 1;
    fprintf(st->out, "summary: %s/summary.json\n", st->l->run_dir);
    if (run_write_report(st) < 0)
        return ORCH_RUN_FAILED;
    run_capacity_print(st);
    if (st->failed_vms == 0)
        return ORCH_RUN_OK;
    fprintf(st->out, "drivebench: completed with failures: %d VM run(s) failed and are "
            "left out of the figures (see the summary)\n", st->failed_vms);
    return ORCH_RUN_DEGRADED;
}

/* After a run that did not complete: say why and keep what the finished
 * phases measured in a summary marked partial, before teardown. Returns
 * ORCH_RUN_INTERRUPTED or ORCH_RUN_FAILED. */
static int run_failed(run_state *st, const char *started, int summary_written)
{
    int rc = ORCH_RUN_FAILED;
    if (run_stop_requested(st)) {
        rc = ORCH_RUN_INTERRUPTED;
        fprintf(st->out, "drivebench: interrupted by signal %d; tearing down\n",
                orch_stop_signal());
    } else {
        fprintf(st->out, "drivebench: %s\n", st->err);
    }
    if (st->nresults > 0 && st->l && !summary_written) {
        char keep[sizeof st->err];
        snprintf(keep, sizeof keep, "%s", st->err);
        if (run_write_summary(st, started, 1) == 0)
            fprintf(st->out, "partial summary: %s/summary.json\n", st->l->run_dir);
        else
            fprintf(st->out, "drivebench: no partial summary: %s\n", st->err);
        snprintf(st->err, sizeof st->err, "%s", keep);
    }
    return rc;
}

int orch_run(const orch_plan *p, orch_run_opts *o)
{
    run_state st;
    orch_stop_saved saved_handlers;
    char started[32];
    char *run_id = o->run_id ? strdup(o->run_id) : orch_runid_new(p->name, time(NULL));
    int rc = ORCH_RUN_FAILED, summary_written = 0;

    memset(&st, 0, sizeof st);
    st.lock_fd = -1;
    st.p = p;
    st.o = o;
    st.out = o->out ? o->out : stderr;
    st.client = p->client == ORCH_CLIENT_GUEST ? &orch_client_guest : &orch_client_host;
    st.cl.plan = p;
    st.cl.agent = o->agent ? o->agent : orch_agent_libvirt;
    st.cl.agent_ctx = o->hook_ctx;
    st.cl.out = st.out;
    st.cl.progress_every = o->progress_every > 0 ? o->progress_every : 10;
    orch_eta_init(&st.eta, p);
    run_sweep_eta(&st);
    st.cl.progress_hook = orch_eta_progress;
    st.cl.progress_ctx = &st.eta;
    if (o->resume)
        snprintf(started, sizeof started, "%s", o->resume->started_at);
    else
        run_iso_now(started, sizeof started);
    if (orch_events_start(st.err, sizeof st.err) < 0) {
        free(run_id);
        return ORCH_RUN_FAILED;
    }
    st.mon = orch_monitor_new(st.out);
    st.cl.monitor = st.mon;
    st.tel = st.mon ? orch_telemetry_new(p, st.mon, st.out, o->telemetry) : NULL;
    o->monitor = st.mon;

    orch_stop_arm(&saved_handlers);

    if (!run_id || !orch_runid_valid(run_id)) {
        snprintf(st.err, sizeof st.err, "bad run id '%s'", run_id ? run_id : "");
    } else {
        snprintf(o->run_id_out, sizeof o->run_id_out, "%s", run_id);
        if (state_open(&st, run_id) == 0)
            rc = run_all(&st, started, &summary_written);
    }
    if (rc != ORCH_RUN_OK && rc != ORCH_RUN_DEGRADED)
        rc = run_failed(&st, started, summary_written);
    /* teardown needs libvirt: wait for a lost connection to come back */
    if (st.mon && run_reconnect_lost(&st, "teardown") < 0)
        fprintf(st.out, "drivebench: %s\n", st.err);
    if (st.mon)
        orch_monitor_clear(st.mon);
    if (run_teardown(&st, st.rep_objs) + run_teardown(&st, st.run_objs) > 0
        && run_retry_teardown(&st) != 0 && (rc == ORCH_RUN_OK || rc == ORCH_RUN_DEGRADED))
        rc = ORCH_RUN_FAILED;
    state_close(&st);
    free(st.cap);
    free(st.cap_step);
    if (st.lock_fd >= 0)
        close(st.lock_fd);
    free(run_id);
    orch_stop_disarm(&saved_handlers);
    return rc;
}
