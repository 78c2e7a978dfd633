/* power.c — `drivebench plan power`: how long to measure, from a pilot
 * run (power.h). */
#include "run/power.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results_io.h"
#include "results_summary.h"
#include "run/aggregate.h"
#include "run/replay.h"
#include "util/util.h"

/* The shortest pilot series read: fewer intervals show too little of
 * their correlation (the batch rule's own floor is 100 correlation
 * times). */
#define POWER_MIN_PILOT 100
/* The longest measure time searched, seconds. */
#define POWER_MAX_S 86400.0

/* One drive of the pilot. */
typedef struct pilot_drive {
    const char      *name;
    orch_power_model tps, p;
    int              has_tps, has_p;
    double           txns;      /* transactions per interval, mean */
    double           pct;       /* the p-latency's percentile */
    int              longest, longest_p;    /* the series' intervals */
} pilot_drive;

int orch_power_parse_effect(const char *s, double *pct)
{
    char *end;
    double v;
    if (!s || !*s)
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno || (*end && strcmp(end, "%") != 0) || !(v > 0 && v <= 100))
        return -1;
    *pct = v;
    return 0;
}

/* The pilot's interval: its first measured VM's, 0 when none says. */
static double pilot_interval(const res_summary *s)
{
    for (int i = 0; i < s->nvms; i++)
        if (s->vms[i].measured && s->vms[i].interval_s > 0)
            return s->vms[i].interval_s;
    return 0;
}

/* Drive d's TPS per interval of repetition 1 (the sum of its VMs', the
 * bins every VM has) into *out (malloc'd), its length returned; -1 when
 * out of memory. */
static int drive_tps(const res_summary *s, const char *name, double iv, double **out)
{
    int nb = 0, nvm = 0, n = 0;
    double *sum;
    int *cnt;
    *out = NULL;
    for (int i = 0; i < s->nvms; i++) {
        const res_vm *v = &s->vms[i];
        if (v->repetition != 1 || strcmp(v->drive, name) != 0 || !v->measured || v->failed)
            continue;
        nvm++;
        for (int k = 0; k < v->npoints; k++) {
            long b = lround(v->series[k].t / iv);
            nb = b > nb && b <= 10000000 ? (int)b : nb;
        }
    }
    sum = calloc((size_t)nb + 1, sizeof *sum);
    cnt = calloc((size_t)nb + 1, sizeof *cnt);
    if (!sum || !cnt) {
        free(sum);
        free(cnt);
        return -1;
    }
    for (int i = 0; i < s->nvms; i++) {
        const res_vm *v = &s->vms[i];
        if (v->repetition != 1 || strcmp(v->drive, name) != 0 || !v->measured || v->failed)
            continue;
        for (int k = 0; k < v->npoints; k++) {
            long b = lround(v->series[k].t / iv) - 1;
            if (b >= 0 && b < nb && isfinite(v->series[k].tps)) {
                sum[b] += v->series[k].tps;
                cnt[b]++;
            }
        }
    }
    for (int b = 0; b < nb; b++)
        if (nvm > 0 && cnt[b] == nvm)
            sum[n++] = sum[b];
    free(cnt);
    *out = sum;
    return n;
}

/* The models of drive dr. 0, or -1 when out of memory. */
static int drive_models(const res_summary *s, const res_drive *dr, double iv, pilot_drive *pd)
{
    double *tps = NULL, *p = NULL, sum = 0;
    int n = drive_tps(s, dr->name, iv, &tps), rc = 0, np = 0;
    pd->name = dr->name;
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++)
        sum += tps[i];
    pd->txns = n > 0 ? sum / n * iv : 0;
    if ((rc = orch_stats_power_model(tps, n, &pd->tps)) == -3)
        goto out;
    pd->has_tps = rc == 0 && n >= POWER_MIN_PILOT;
    pd->longest = n;
    rc = 0;
    if (dr->io && dr->io->np > 0 && isfinite(dr->io->p_pct)) {
        if (!(p = malloc((size_t)dr->io->np * sizeof *p))) {
            rc = -1;
            goto out;
        }
        for (int i = 0; i < dr->io->np; i++)
            p[np++] = dr->io->p_series[i].tps;
        pd->pct = dr->io->p_pct;
        if ((rc = orch_stats_power_model(p, np, &pd->p)) == -3)
            goto out;
        pd->has_p = rc == 0 && np >= POWER_MIN_PILOT;
        pd->longest_p = np;
        rc = 0;
    }
out:
    free(tps);
    free(p);
    return rc == -3 ? -1 : rc;
}

/* What was read of drive d's figure fig. */
static void print_model(FILE *out, const pilot_drive *d, int is_p)
{
    const orch_power_model *m = is_p ? &d->p : &d->tps;
    fprintf(out, "  %s %s: %d intervals of %.0f transactions, mean %.4g%s, sd %.3g, lag-1 %.2f, "
            "decay %.2f, signal %.0f %% of the variance\n", d->name, is_p ? "p-latency" : "tps",
            m->n, d->txns, m->mean, is_p ? " ms" : "", m->sd, m->r1, m->phi, 100.0 * m->w);
}

/* One comparison's line. 0, or -1 when out of memory. */
static int size_one(FILE *out, const orch_plan *p, const pilot_drive *a, const pilot_drive *b,
                    int is_p, double effect, double iv, int reps)
{
    orch_power_case c = { .a = is_p ? &a->p : &a->tps, .b = is_p ? &b->p : &b->tps,
                          .effect_pct = effect, .higher_better = !is_p, .reps = reps,
                          .trials = ORCH_POWER_TRIALS, .seed = ORCH_POWER_SEED };
    const char *method = res_cmp_method_name(is_p ? RES_CMP_P99_PAIRED : RES_CMP_TPS_PAIRED);
    const char *per = reps > 1 ? " per repetition" : "";
    int max_n = (int)floor(POWER_MAX_S / iv), n, plan_n = (int)floor(p->measure_s / iv);
    double power, need = orch_stats_tail_txns(a->pct), has = fmin(a->txns, b->txns);

    fprintf(out, "  %s vs %s %s: ", a->name, b->name, method);
    if (is_p && has < need) {
        fprintf(out, "never at %.0f transactions per interval (a verdict needs %.0f): intervals "
                "of at least %.0f s (oltp --report-interval) or more VMs per drive\n",
                floor(has), need, has > 0 ? ceil(iv * need / has) : iv * need);
        return 0;
    }
    if ((n = orch_stats_power_search(&c, ORCH_POWER_TARGET, max_n, &power)) < 0)
        return -1;
    if (n == 0)
        fprintf(out, "not within %.0f s%s (power %.1f %% there)", max_n * iv, per,
                100.0 * power);
    else
        fprintf(out, "measure %.0f s%s (%d intervals; power %.1f %%)", n * iv, per, n,
                100.0 * power);
    if (plan_n >= 3) {
        double q = orch_stats_power_at(&c, plan_n);
        if (q < 0)
            return -1;
        fprintf(out, "; the plan's %d s: %.1f %%", p->measure_s, 100.0 * q);
    }
    fputc('\n', out);
    return 0;
}

int orch_power_plan(const orch_plan *p, const char *plan_path, const char *run_dir,
                    double effect_pct, orch_power_figure fig, FILE *out, char *err,
                    size_t errlen)
{
    char why[1024];
    res_summary *s = orch_summary_rebuild(run_dir, why, sizeof why);
    pilot_drive *d = NULL;
    int rc = -2, nd, reps = p->repetitions_auto ? p->repetitions_min : p->repetitions, usable = 0;
    int longest = 0;
    double iv;

    if (!s) {
        snprintf(err, errlen, "%s: no pilot run: %s", run_dir, why);
        return -1;
    }
    reps = reps > 0 ? reps : 1;
    nd = s->ndrives;
    iv = pilot_interval(s);
    if (!(d = calloc((size_t)nd + 1, sizeof *d)))
        goto out;
    for (int i = 0; iv > 0 && i < nd; i++) {
        if (drive_models(s, &s->drives[i], iv, &d[i]) < 0)
            goto out;
        usable += fig == ORCH_POWER_P ? d[i].has_p : d[i].has_tps;
        longest = (int)fmax(longest, fig == ORCH_POWER_P ? d[i].longest_p : d[i].longest);
    }
    if (!(iv > 0) || usable == 0) {
        snprintf(err, errlen, "%s: the pilot has no %s series of at least %d intervals to size "
                 "a comparison by (its longest: %d%s)", run_dir,
                 fig == ORCH_POWER_P ? "p-latency" : "interval TPS", POWER_MIN_PILOT, longest,
                 fig == ORCH_POWER_P ? "; a measured phase's interval histograms make one" : "");
        rc = -1;
        goto out;
    }
    fprintf(out, "power of %s: a %g %% difference found in %.0f %% of %d simulated runs "
            "(seed %d), %d repetition(s) of %g-s intervals, from the pilot %s\n", plan_path,
            effect_pct, 100.0 * ORCH_POWER_TARGET, ORCH_POWER_TRIALS, ORCH_POWER_SEED, reps, iv,
            s->run_id);
    for (int i = 0; i < nd; i++) {
        if (d[i].has_tps && fig != ORCH_POWER_P)
            print_model(out, &d[i], 0);
        if (d[i].has_p && fig != ORCH_POWER_TPS)
            print_model(out, &d[i], 1);
    }
    /* every pair, or a lone drive against its like */
    for (int i = 0; i < nd; i++)
        for (int j = nd == 1 ? i : i + 1; j < nd; j++) {
            if (fig != ORCH_POWER_P && d[i].has_tps && d[j].has_tps
                && size_one(out, p, &d[i], &d[j], 0, effect_pct, iv, reps) < 0)
                goto out;
            if (fig != ORCH_POWER_TPS && d[i].has_p && d[j].has_p
                && size_one(out, p, &d[i], &d[j], 1, effect_pct, iv, reps) < 0)
                goto out;
        }
    fprintf(out, "assumed: each drive's intervals an AR(1) signal plus white noise with the "
            "pilot's mean, variance and autocorrelation (the decay the batch rule reads); the two "
            "drives independent (noise they share cancels in a paired run: this errs long); the "
            "first drive better by the difference (TPS x %g, latency / %g); each comparison "
            "alone (Holm's adjustment over a run's family asks more)\n",
            1.0 + effect_pct / 100.0, 1.0 + effect_pct / 100.0);
    rc = 0;
out:
    if (rc == -2)
        snprintf(err, errlen, "out of memory");
    free(d);
    orch_summary_free(s);
    return rc;
}
