/* precondition.c — the precondition of one repetition in rounds (issue
 * 21): consecutive oltp runs of steady_round each, every VM at once, so
 * each round has its own result file (exact TPS and p99 from its
 * histogram) and the drive's I/O over exactly that run. With precondition
 * = until-steady the rounds stop once the last window of every drive
 * without a failed VM is steady by SNIA's window rule (telemetry/stats.h)
 * at that same round (issue 29: a drive steady once and drifting since is
 * not steady now), or at precondition_max, where a drive whose last window
 * is not steady is "not steady"; a fixed precondition runs all its rounds
 * (the last one shorter when the time is no multiple of the round). Every
 * drive is judged over its last window, whose figures are recorded. A
 * round of a drive in which one of its VMs failed has no values (NAN): no
 * verdict is drawn from a window holding it. */
#include "run/run_state.h"
#include "attributes.h"
#include "util/util.h"
#include "hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static res_steady *drive_pre(run_state *st, int rep, int d)
{
    return &st->pre_drives[(rep - 1) * st->p->ndrives + d];
}

static res_steady *vm_pre(run_state *st, int rep, int i)
{
    return &st->pre_vms[(rep - 1) * st->l->nvms + i];
}

/* A new round appended to s (NULL when out of memory), values NAN. */
static res_round *round_add(res_steady *s, int round, int secs)
{
    res_round *r = realloc(s->rounds, sizeof *r * (size_t)(s->nrounds + 1));
    if (!r)
        return NULL;
    s->rounds = r;
    r = &s->rounds[s->nrounds++];
    *r = (res_round){ .round = round, .seconds = secs, .tps = NAN, .p99_ms = NAN,
                      .rd_iops = NAN, .wr_iops = NAN, .rd_mbps = NAN, .wr_mbps = NAN };
    return r;
}

/* Round `round` of repetition rep: each healthy VM's TPS and p99 from its
 * result file, each drive's sum, merged p99 and I/O. A drive with a VM
 * that failed (now or before) gets no values. 0, or -1 when out of
 * memory. */
static int collect_round(run_state *st, int rep, int round, int secs)
{
    const orch_plan *p = st->p;
    for (int d = 0; d < p->ndrives; d++) {
        res_round *dr = round_add(drive_pre(st, rep, d), round, secs);
        hist *merged = NULL;
        double tps = 0;
        int vms = 0, broken = 0;
        orch_io_sum io;
        if (!dr)
            return -1;
        for (int i = 0; i < st->l->nvms; i++) {
            const orch_vm *vm = &st->l->vms[i];
            char *rel, *path, err[DB_ERR_LEN];
            res_oltp r;
            const res_phase *ph;
            res_round *vr;
            if (vm->drive_index != d)
                continue;
            if (st->vms[i].failed_in) {
                broken = 1;
                continue;
            }
            rel = orch_layout_round_result(vm, rep, round);
            path = rel ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
            free(rel);
            if (!path || res_oltp_read_file(path, &r, err, sizeof err) < 0) {
                free(path);
                broken = 1;
                continue;
            }
            free(path);
            ph = res_oltp_measure(&r);
            vr = ph ? round_add(vm_pre(st, rep, i), round, secs) : NULL;
            if (vr && ph->histogram) {
                vr->tps = ph->tps;
                vr->p99_ms = (double)hist_percentile(ph->histogram, 99) / 1000.0;
                tps += ph->tps;
                vms++;
                if (!merged)
                    merged = hist_new(ph->histogram->highest, ph->histogram->sig_digits);
                if (merged)
                    hist_add(merged, ph->histogram);
            } else {
                broken = 1;
            }
            res_oltp_clear(&r);
        }
        if (!broken && vms > 0 && merged) {
            dr->tps = tps;
            dr->p99_ms = (double)hist_percentile(merged, 99) / 1000.0;
            if (orch_telemetry_phase_io(st->tel, d, rep, &io) == 0) {
                dr->rd_iops = io.rd_iops;
                dr->wr_iops = io.wr_iops;
                dr->rd_mbps = io.rd_mbps;
                dr->wr_mbps = io.wr_mbps;
            }
        }
        hist_free(merged);
    }
    return 0;
}

static orch_steady_rule plan_rule(const orch_plan *p)
{
    return (orch_steady_rule){ .window = p->steady_window, .range_pct = p->steady_range_pct,
                               .slope_pct = p->steady_slope_pct };
}

/* The tracked variable of s's rounds into x (s->nrounds values). */
static void tracked(const orch_plan *p, const res_steady *s, double *x)
{
    for (int k = 0; k < s->nrounds; k++)
        x[k] = p->steady_track == ORCH_TRACK_P99 ? s->rounds[k].p99_ms : s->rounds[k].tps;
}

/* Whether the last window of s's rounds so far is steady (out: its
 * figures). 1 steady, 0 not, -1 no verdict (fewer rounds than the window,
 * a round without a value, a mean <= 0) or out of memory. */
static int last_window(const orch_plan *p, const res_steady *s, orch_steady_check *out)
{
    orch_steady_rule r = plan_rule(p);
    double *x;
    int rc = -1;
    if (s->nrounds < r.window || !(x = malloc(sizeof *x * (size_t)s->nrounds)))
        return -1;
    tracked(p, s, x);
    if (orch_stats_steady_window(x + s->nrounds - r.window, &r, out) == 0)
        rc = out->steady;
    free(x);
    return rc;
}

/* until-steady: the last window of every drive without a failed VM is
 * steady (and at least one drive is left to judge). */
static int all_steady(run_state *st, int rep)
{
    int judged = 0;
    for (int d = 0; d < st->p->ndrives; d++) {
        orch_steady_check c;
        int failed = 0;
        for (int i = 0; i < st->l->nvms; i++)
            failed |= st->l->vms[i].drive_index == d && st->vms[i].failed_in != NULL;
        if (failed)
            continue;
        if (last_window(st->p, drive_pre(st, rep, d), &c) != 1)
            return 0;
        judged++;
    }
    return judged > 0;
}

/* Why the window x[0..w) has no verdict: a round without a value, or a
 * mean of the tracked variable <= 0 (rounds without transactions). */
static char *no_verdict(const double *x, int w, const char *track)
{
    double sum = 0;
    for (int i = 0; i < w; i++) {
        if (!isfinite(x[i]))
            return orch_strfmt("no verdict: a round of the window has no value "
                               "(a failed VM, or a round without transactions)");
        sum += x[i];
    }
    return orch_strfmt("no verdict: the window's mean %s is %g, not above 0 "
                       "(rounds without transactions)", track, sum / w);
}

/* s's rule, verdict and the figures of its last window: with until-steady
 * "steady at round N" when that window ends the precondition steady, else
 * "not steady within MAX"; a fixed precondition says whether it was
 * steady over that window. 0, or -1 when out of memory. */
static int judge(const orch_plan *p, res_steady *s, int rep)
{
    orch_steady_rule r = plan_rule(p);
    orch_steady_check c;
    double *x = malloc(sizeof *x * (size_t)(s->nrounds + 1));
    char max[32];
    int w = p->steady_window, end = s->nrounds;

    if (!x)
        return -1;
    tracked(p, s, x);
    s->repetition = rep;
    s->until_steady = p->precondition_steady;
    s->window = w;
    s->round_s = p->steady_round_s;
    s->range_limit_pct = p->steady_range_pct;
    s->slope_limit_pct = p->steady_slope_pct;
    s->attained_round = 0;
    s->window_mean = s->window_range_pct = s->window_excursion_pct = NAN;
    free(s->track);
    free(s->verdict);
    s->track = orch_plan_choice("workload", "steady_track", (int)p->steady_track);
    orch_format_duration(p->precondition_s, max, sizeof max);
    if (s->nrounds < w) {
        s->verdict = orch_strfmt("too short for a verdict: %d of %d rounds", s->nrounds, w);
    } else if (orch_stats_steady_window(x + end - w, &r, &c) < 0) {
        s->verdict = s->track ? no_verdict(x + end - w, w, s->track) : NULL;
    } else {
        s->window_mean = c.mean;
        s->window_range_pct = c.range_pct;
        s->window_excursion_pct = c.excursion_pct;
        s->attained_round = c.steady ? end : 0;
        if (s->until_steady)
            s->verdict = c.steady ? orch_strfmt("steady at round %d", end)
                                  : orch_strfmt("not steady within %s (%d rounds)", max,
                                                s->nrounds);
        else
            s->verdict = orch_strfmt("%s over the last %d rounds",
                                     c.steady ? "steady" : "not steady", w);
    }
    free(x);
    return s->track && s->verdict ? 0 : -1;
}

/* Verdicts of every drive and VM of repetition rep that has rounds. */
static int judge_all(run_state *st, int rep)
{
    for (int d = 0; d < st->p->ndrives; d++)
        if (drive_pre(st, rep, d)->nrounds && judge(st->p, drive_pre(st, rep, d), rep) < 0)
            return -1;
    for (int i = 0; i < st->l->nvms; i++)
        if (vm_pre(st, rep, i)->nrounds && judge(st->p, vm_pre(st, rep, i), rep) < 0)
            return -1;
    return 0;
}

int run_precondition(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    int left = p->precondition_s, round = 0, rc = 0, steady = 0;

    while (left > 0 && rc == 0) {
        int secs = left < p->steady_round_s ? left : p->steady_round_s;
        round++;
        if (run_phase(st, rep, ORCH_STEP_PRECONDITION, RES_PHASE_PRECONDITION, "run", secs, 0,
                      round) < 0) {
            rc = -1;
            break;
        }
        left -= secs;
        if (collect_round(st, rep, round, secs) < 0) {
            snprintf(st->err, sizeof st->err, "out of memory");
            rc = -1;
        } else if (p->precondition_steady && all_steady(st, rep)) {
            fprintf(st->out, "repetition %d: precondition steady after round %d\n", rep, round);
            steady = 1;
            break;
        }
    }
    if (p->precondition_steady && !steady && rc == 0)
        fprintf(st->out, "repetition %d: precondition not steady at precondition_max "
                "(%d rounds): the last window of a drive does not meet the rule\n", rep, round);
    /* the rounds run so far are judged even when a round failed */
    if (judge_all(st, rep) < 0 && rc == 0) {
        snprintf(st->err, sizeof st->err, "out of memory");
        rc = -1;
    }
    for (int d = 0; d < p->ndrives; d++)
        if (drive_pre(st, rep, d)->verdict)
            fprintf(st->out, "repetition %d: precondition of %s: %s\n", rep, p->drives[d].name,
                    drive_pre(st, rep, d)->verdict);
    return rc;
}

void run_precondition_clear(run_state *st)
{
    int reps = st->p->repetitions;
    for (int k = 0; st->pre_drives && k < reps * st->p->ndrives; k++) {
        free(st->pre_drives[k].rounds);
        free(st->pre_drives[k].track);
        free(st->pre_drives[k].verdict);
    }
    for (int k = 0; st->pre_vms && st->l && k < reps * st->l->nvms; k++) {
        free(st->pre_vms[k].rounds);
        free(st->pre_vms[k].track);
        free(st->pre_vms[k].verdict);
    }
    free(st->pre_drives);
    free(st->pre_vms);
    st->pre_drives = st->pre_vms = NULL;
}
