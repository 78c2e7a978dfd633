/* report.c — the report's model: run folders read through their typed
 * summaries, the figures the report adds (spread over repetitions, scaling
 * across runs) and the CSV (see report.h). The HTML page is built in
 * report_html.c from this model; report_cmd.c is the command. */
#include "report/report.h"
#include "atomic_file.h"
#include "attributes.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PLAN_TEXT_MAX (256 * 1024)

const char *report_num(double v, char *buf, size_t len)
{
    /* a figure that could not be computed is no number: never "nan" on a
     * page or in a CSV (issue 42) */
    if (!isfinite(v)) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    return res_num(v, buf, len);
}

report_spread report_spread_of(const double *v, int n)
{
    report_spread s = { .n = n, .cv = NAN, .sd = NAN };
    double sum = 0, sq = 0;
    if (n < 1)
        return s;
    s.min = s.max = v[0];
    for (int i = 0; i < n; i++) {
        sum += v[i];
        s.min = v[i] < s.min ? v[i] : s.min;
        s.max = v[i] > s.max ? v[i] : s.max;
    }
    s.mean = sum / n;
    if (isnan(s.mean)) {        /* a value missing: no spread, not a partial one */
        s.min = s.max = NAN;
        return s;
    }
    for (int i = 0; i < n; i++)
        sq += (v[i] - s.mean) * (v[i] - s.mean);
    /* one repetition has no CV; a mean of 0 (or a NaN among the values)
     * leaves it NAN too, which report_cv_unknown tells apart */
    if (n > 1)
        s.sd = sqrt(sq / (n - 1));
    if (n > 1 && s.mean != 0)
        s.cv = s.sd / fabs(s.mean) * 100.0;
    return s;
}

int report_cv_unknown(const report_spread *sp)
{
    return sp->n > 1 && isnan(sp->cv);
}

/* Figures of one drive, with the spread over its repetitions. */
static int drive_load(report_run *run, const res_drive *dj, report_drive *d)
{
    int n = dj->nreps;
    double *tps = calloc(n ? (size_t)n : 1, sizeof *tps);
    double *p99 = calloc(n ? (size_t)n : 1, sizeof *p99);
    int rc = -1;

    if (!tps || !p99)
        goto cleanup;
    d->d = dj;
    d->name = dj->name;
    d->vms = dj->f.vms;
    d->tps = dj->f.tps;
    d->failed_vms = dj->f.failed_vms;
    d->incomplete = dj->f.failed_vms > 0;
    n = 0;
    for (int i = 0; i < dj->nreps; i++) {
        if (dj->reps[i].f.failed_vms)   /* not comparable: no spread from it */
            continue;
        tps[n] = dj->reps[i].f.tps;
        p99[n++] = dj->reps[i].f.lat_p99_ms;
    }
    d->tps_spread = report_spread_of(tps, n);
    d->p99_spread = report_spread_of(p99, n);
    /* a CV that cannot be computed over several repetitions is no small one */
    d->cv_unknown = report_cv_unknown(&d->tps_spread) || report_cv_unknown(&d->p99_spread);
    d->flagged = d->tps_spread.cv > run->cv_threshold || d->p99_spread.cv > run->cv_threshold
                 || d->cv_unknown;
    rc = 0;
cleanup:
    free(tps);
    free(p99);
    return rc;
}

/* The spread of run's tps per repetition: its drives' summed, over the
 * repetitions in which each drive is there and complete. 0, or -1 when
 * out of memory. */
static int run_spread(report_run *run)
{
    const res_summary *sum = &run->sum;
    int reps = sum->repetitions > 0 ? sum->repetitions : 1, n = 0;
    double *tps = calloc((size_t)reps, sizeof *tps);
    if (!tps)
        return -1;
    for (int k = 1; k <= reps; k++) {
        double t = 0;
        int all = sum->ndrives > 0;
        for (int d = 0; d < sum->ndrives && all; d++) {
            const res_repetition *g = NULL;
            for (int i = 0; i < sum->drives[d].nreps; i++)
                if (sum->drives[d].reps[i].repetition == k)
                    g = &sum->drives[d].reps[i];
            all = g && !g->f.failed_vms;
            t += all ? g->f.tps : 0;
        }
        if (all)
            tps[n++] = t;
    }
    run->tps_spread = report_spread_of(tps, n);
    free(tps);
    return 0;
}

/* Read one run folder into run. 0, or -1 with err. */
static int run_load(const char *dir, report_run *run, char *err, size_t errlen)
{
    char *path = orch_strfmt("%s/summary.json", dir), *plan = orch_strfmt("%s/plan.ini", dir);
    int rc = -1;

    run->dir = strdup(dir);
    if (!path || !plan || !run->dir) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    /* without the VMs' 1-s rows, which no section shows (issue 33) */
    rc = res_summary_read_figures(path, &run->sum, err, errlen);
    if (rc == RES_E_UNREADABLE && report_is_results_dir(dir))
        snprintf(err, errlen, "%s is a results directory, not a run folder: `drivebench "
                 "report --rank %s` ranks its runs; `drivebench report` takes run folders",
                 dir, dir);
    else if (rc == RES_E_UNREADABLE && access(path, F_OK) == 0) {
        /* there, but not readable JSON: the reader's reason ("PATH: why") */
        size_t k = strlen(path);
        char why[DB_ERR_LEN];
        snprintf(why, sizeof why, "%s", strncmp(err, path, k) == 0 && err[k] == ':'
                                        ? err + k + 2 : err);
        snprintf(err, errlen, "%s: cannot read the run's summary: %s", path, why);
    } else if (rc == RES_E_UNREADABLE)
        snprintf(err, errlen, "%s: cannot read the run's summary (is %s a run folder of "
                 "`drivebench run`?)", path, dir);
    if (rc < 0) {
        rc = -1;
        goto cleanup;
    }
    rc = -1;
    run->plan_text = orch_file_read(plan, PLAN_TEXT_MAX);
    run->run_id = run->sum.run_id;
    run->repetitions = run->sum.repetitions;
    run->cv_threshold = isnan(run->sum.plan.cv_threshold) ? REPORT_CV_DEFAULT
                                                           : run->sum.plan.cv_threshold;
    run->vms = run->sum.vms;
    run->nvms = run->sum.nvms;
    run->drives = calloc(run->sum.ndrives ? (size_t)run->sum.ndrives : 1, sizeof *run->drives);
    if (!run->drives) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    run->ndrives = run->sum.ndrives;
    for (int i = 0; i < run->ndrives; i++)
        if (drive_load(run, &run->sum.drives[i], &run->drives[i]) < 0) {
            snprintf(err, errlen, "out of memory");
            goto cleanup;
        }
    if (run_spread(run) < 0) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    rc = 0;
cleanup:
    free(path);
    free(plan);
    return rc;
}

static void run_clear(report_run *run)
{
    free(run->drives);
    free(run->plan_text);
    free(run->dir);
    res_summary_clear(&run->sum);
}

report_set *report_load(const char *const *dirs, int ndirs, char *err, size_t errlen)
{
    report_set *s = calloc(1, sizeof *s);
    if (!s || !(s->runs = calloc(ndirs > 0 ? (size_t)ndirs : 1, sizeof *s->runs))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (int i = 0; i < ndirs; i++) {
        report_run *run = &s->runs[s->nruns++];
        if (i < 26)
            snprintf(run->label, sizeof run->label, "%c", 'A' + i);
        else
            snprintf(run->label, sizeof run->label, "R%d", i + 1);
        if (run_load(dirs[i], run, err, errlen) < 0) {
            report_set_free(s);
            return NULL;
        }
    }
    report_group_runs(s);
    return s;
}

void report_set_free(report_set *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nruns; i++)
        run_clear(&s->runs[i]);
    free(s->runs);
    free(s);
}

int report_run_partial(const report_run *run)
{
    return run->sum.status == RES_RUN_PARTIAL;
}

double report_scaling(const report_set *s, int r, int d, int *base_run, int *base_drive)
{
    const char *name = s->runs[r].drives[d].name;
    int others = 0;
    *base_run = *base_drive = -1;
    if (s->runs[r].drives[d].incomplete || report_run_partial(&s->runs[r]))
        return 0;
    for (int i = 0; i < s->nruns; i++)
        for (int k = 0; k < s->runs[i].ndrives; k++) {
            const report_drive *c = &s->runs[i].drives[k];
            if (strcmp(c->name, name) != 0 || c->incomplete || report_run_partial(&s->runs[i])
                || s->runs[i].group != s->runs[r].group)      /* another protocol */
                continue;
            others += i != r;
            if (*base_run < 0 || c->vms < s->runs[*base_run].drives[*base_drive].vms) {
                *base_run = i;
                *base_drive = k;
            }
            break;
        }
    if (!others) {
        *base_run = *base_drive = -1;
        return 0;
    }
    {
        double base = s->runs[*base_run].drives[*base_drive].tps;
        return base > 0 ? s->runs[r].drives[d].tps / base : 0;
    }
}

double report_run_scaling(const report_set *s, int r, int *base_run)
{
    double base;
    *base_run = -1;
    if (s->runs[r].sum.run.failed_vms || report_run_partial(&s->runs[r]))
        return 0;
    for (int i = 0; i < s->nruns; i++)
        if (!s->runs[i].sum.run.failed_vms && !report_run_partial(&s->runs[i])
            && s->runs[i].group == s->runs[r].group         /* one protocol */
            && (*base_run < 0 || s->runs[i].sum.run.vms < s->runs[*base_run].sum.run.vms))
            *base_run = i;
    base = s->runs[*base_run].sum.run.tps;
    return base > 0 ? s->runs[r].sum.run.tps / base : 0;
}

char *report_other_vms(const res_drive *d, int words)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    for (int i = 0; i < d->nother_reps; i++) {
        const res_rep_vms *o = &d->other_reps[i];
        if (words)
            fprintf(f, "%srepetition %d (%d VM%s)", i ? ", " : "", o->repetition, o->vms,
                    o->vms == 1 ? "" : "s");
        else
            fprintf(f, "%s%d:%d", i ? " " : "", o->repetition, o->vms);
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

report_ratio_ci report_ratio_interval(double ratio, const report_spread *x,
                                      const report_spread *y)
{
    report_ratio_ci ci = { NAN, NAN, NAN, NULL };
    double a, b, se, t;
    if (x->n < 2 || y->n < 2) {
        ci.none = REPORT_CI_ONE_REP;
        return ci;
    }
    a = x->sd * x->sd / (x->n * x->mean * x->mean);
    b = y->sd * y->sd / (y->n * y->mean * y->mean);
    se = sqrt(a + b);
    if (!(se > 0) || !isfinite(se)) {
        ci.none = REPORT_CI_NO_VAR;
        return ci;
    }
    ci.df = (a + b) * (a + b) / (a * a / (x->n - 1) + b * b / (y->n - 1));
    t = orch_t_quantile(0.975, ci.df);
    ci.lo = ratio * exp(-t * se);
    ci.hi = ratio * exp(t * se);
    return ci;
}

report_ratio_ci report_scaling_ci(const report_set *s, int r, int d)
{
    report_ratio_ci none = { NAN, NAN, NAN, "" };
    int br, bd = -1;
    double ratio = d >= 0 ? report_scaling(s, r, d, &br, &bd) : report_run_scaling(s, r, &br);
    if (br < 0)
        return none;
    if (br == r) {
        none.none = REPORT_CI_BASE;
        return none;
    }
    return d >= 0 ? report_ratio_interval(ratio, &s->runs[r].drives[d].tps_spread,
                                          &s->runs[br].drives[bd].tps_spread)
                  : report_ratio_interval(ratio, &s->runs[r].tps_spread, &s->runs[br].tps_spread);
}

/* A figure of a spread as the CSV writes it; "" when the spread is over
 * no repetition (every one had a failed VM), or when it is not known (the
 * CV of one repetition, or one not computable). */
static const char *spread_num(const report_spread *sp, double v, char *buf, size_t len)
{
    if (sp->n == 0 || isnan(v)) {
        buf[0] = '\0';
        return buf;
    }
    return report_num(v, buf, len);
}

int report_write_csv(const report_set *s, const char *path, char *err, size_t errlen)
{
    atomic_file *af = atomic_file_open(path, err, errlen);
    FILE *f = af ? atomic_file_stream(af) : NULL;
    char b[14][48];
    if (!af)
        return -1;
    fputs("run_id,run,drive,vms,repetitions,tps,tps_min,tps_max,tps_cv_pct,tps_per_vm,"
          "transactions,latency_avg_ms,latency_p99_ms,latency_p99_mean_of_vms_ms,"
          "p99_rep_mean_ms,p99_rep_min_ms,p99_rep_max_ms,p99_cv_pct,cv_threshold_pct,cv_flag,"
          "scaling_base_run,scaling_ratio,status,failed_vms,tpmC,NOPM,"
          "repetitions_other_vms,scaling_ratio_lo,scaling_ratio_hi,scaling_ratio_ci\n", f);
    for (int r = 0; r < s->nruns; r++)
        for (int d = 0; d < s->runs[r].ndrives; d++) {
            const report_run *run = &s->runs[r];
            const report_drive *dr = &run->drives[d];
            int br, bd;
            double ratio = report_scaling(s, r, d, &br, &bd);
            const res_figures *fig = &dr->d->f;
            /* text columns always quoted: a spreadsheet must not read a
             * drive name as a number or a formula */
            res_csv_field(f, run->run_id, true);
            fputc(',', f);
            res_csv_field(f, run->label, true);
            fputc(',', f);
            res_csv_field(f, dr->name, true);
            /* the spread is over complete repetitions: empty when none */
            fprintf(f, ",%d,%d,%s,%s,%s,%s,%s,%" PRId64 ",%s,%s,%s,%s,%s,%s,%s,%s,%d,", dr->vms,
                    dr->d->nreps, report_num(fig->tps, b[10], sizeof b[10]),
                    spread_num(&dr->tps_spread, dr->tps_spread.min, b[0], sizeof b[0]),
                    spread_num(&dr->tps_spread, dr->tps_spread.max, b[1], sizeof b[1]),
                    spread_num(&dr->tps_spread, dr->tps_spread.cv, b[2], sizeof b[2]),
                    report_num(fig->tps_per_vm, b[3], sizeof b[3]),
                    fig->transactions, res_num_opt(fig->lat_avg_ms, b[11], sizeof b[11]),
                    res_num_opt(fig->lat_p99_ms, b[12], sizeof b[12]),
                    res_num_opt(fig->lat_p99_mean_of_vms_ms, b[13], sizeof b[13]),
                    spread_num(&dr->p99_spread, dr->p99_spread.mean, b[4], sizeof b[4]),
                    spread_num(&dr->p99_spread, dr->p99_spread.min, b[5], sizeof b[5]),
                    spread_num(&dr->p99_spread, dr->p99_spread.max, b[6], sizeof b[6]),
                    spread_num(&dr->p99_spread, dr->p99_spread.cv, b[7], sizeof b[7]),
                    report_num(run->cv_threshold, b[8], sizeof b[8]), dr->flagged);
            if (br >= 0) {
                res_csv_field(f, s->runs[br].label, true);
                fprintf(f, ",%s", report_num(ratio, b[9], sizeof b[9]));
            } else {
                fputc(',', f);
            }
            fputc(',', f);
            res_csv_field(f, dr->incomplete ? "incomplete" : "complete", true);
            fprintf(f, ",%d,%s,%s,", dr->failed_vms,
                    fig->tpcc ? report_num(fig->tpcc->tpmc, b[0], sizeof b[0]) : "",
                    fig->tpcc && fig->tpcc->has_nopm
                    ? report_num(fig->tpcc->nopm, b[1], sizeof b[1]) : "");
            {   /* "2:3 4:3": repetition:VMs of those left out of the drive's TPS */
                char *other = report_other_vms(dr->d, 0);
                if (!other) {
                    atomic_file_abort(af);
                    snprintf(err, errlen, "out of memory");
                    return -1;
                }
                fprintf(f, "%s,", other);
                free(other);
            }
            {   /* the ratio's interval (issue 29), or why there is none */
                report_ratio_ci ci = report_scaling_ci(s, r, d);
                fprintf(f, "%s,%s,", ci.none ? "" : report_num(ci.lo, b[0], sizeof b[0]),
                        ci.none ? "" : report_num(ci.hi, b[1], sizeof b[1]));
                res_csv_field(f, ci.none ? ci.none : "", true);
                fputc('\n', f);
            }
        }
    return atomic_file_commit(af, err, errlen);
}

