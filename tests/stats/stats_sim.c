/* stats_sim.c — bin/stats-sim: are drivebench's verdicts right? Synthetic
 * runs of two or more drives go through the very code a summary's
 * comparisons come from (tel_compare_drives: the paired batch means,
 * Welch, Holm over the run's family), and each cell of parameters prints
 * how often a comparison got a verdict, how often that verdict was a
 * false "distinguishable" (drives that are the same: A/A), over all
 * trials and among the verdicts given, and how often a real difference
 * (--effect, A/B) was found (tests/stats/README.md).
 *
 * A trial: per repetition and interval, every VM's TPS is
 *   mu_d + h_t + e_t   (mu = 100 per VM, drive 0's times 1 + effect)
 * with h a host AR(1) series shared by every VM of every drive (sd 10)
 * and e the VM's own AR(1) series (sd 20), both of lag-1
 * autocorrelation phi and stationary from the start; a drive's TPS is
 * the sum over its VMs. Its p-latency per interval: 10 / (1 + effect) ms
 * plus a shared AR(1) (sd 0.5) and its own (sd 1), rounded to
 * --quantize ms. Options add missing bins (a VM of drive 0 without the
 * bin), partial last bins (a fraction of the interval, its noise larger
 * in proportion), zero variance (no noise at all), and a failed VM in
 * repetition 1 of drive 0; --no-latency drops the p-latency series (the
 * paired TPS test then stands alone in Holm's family with fewer than 3
 * repetitions). With --auto MIN:MAX:CV the repetitions stop by
 * the rule of `repetitions = auto` (orch_stats_auto_stop).
 *
 * Exit status: 0; 1 with --check when some A/A cell's false verdicts
 * among the verdicts given are more than a true rate of 5 % gives with
 * probability 2.5 % (exact binomial; "bound%"); 2 on bad arguments. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "results_summary.h"
#include "results_io.h"
#include "run/run.h"
#include "telemetry/telemetry.h"
#include "util/util.h"

#define MAXLIST 32
#define MU_VM 100.0
#define SD_HOST 10.0
#define SD_VM 20.0
#define P_BASE 10.0
#define SD_PHOST 0.5
#define SD_PVM 1.0
/* --txns: each transaction's latency is lognormal, its median
 * P_MEDIAN / (1 + effect) ms times exp(shared + own), both AR(1) of
 * standard deviation SD_LHOST and SD_LVM (log scale), its log's spread
 * SIGMA_TXN */
#define P_MEDIAN 3.0
#define SD_LHOST 0.05
#define SD_LVM 0.1
#define SIGMA_TXN 0.5

typedef struct opts {
    uint64_t seed;
    int      trials, drives;
    int      vms[MAXLIST], nvms_l;
    int      reps[MAXLIST], nreps_l;
    double   phi[MAXLIST];
    int      nphi;
    int      n[MAXLIST], nn;
    double   effect;        /* percent, drive 0 faster */
    int      missing;       /* bins per repetition drive 0 lacks */
    int      partial;       /* last bin of each repetition partial */
    double   quantize;      /* ms, 0: none */
    int      zero_var;
    int      failed_rep;
    int      no_latency;    /* no p-latency series: no p99_paired */
    int      txns[MAXLIST], ntxns;  /* transactions per VM and interval at
                                     * the mean TPS; 0: p99 drawn as an AR(1) */
    double   interval_s;
    int      auto_min, auto_max;    /* 0: fixed repetitions */
    double   auto_cv;
    int      check;
    int      files;         /* through result files and the run's code */
    const char *pilot;      /* --pilot DIR: the one trial's run folder kept */
} opts;

/* The generator: splitmix64 and Box-Muller (util/stats_power.h, which
 * `drivebench plan power` draws with too): repeatable from --seed on
 * every machine. */

/* One cell's counts per method. */
typedef struct tally {
    long cmps, verdicts, false_d;   /* A/A pairs */
    long ab_cmps, ab_found;         /* A/B pairs: distinguishable, right sign */
    long too_short, not_comparable;
    long reps_used, trials;
} tally;

/* The run of one trial: summary, drive accumulators and scratch. */
typedef struct sim_run {
    res_summary    sum;
    tel_drive_acc *acc;
    double        *host, *phost, *x;
    double        *vtps, *lscale;   /* --txns: [vm * n + i] */
    hist          *h;               /* --txns: one drive's interval */
    hist          *vh;              /* --files: one VM's interval */
    res_oltp      *docs;            /* --files: [vm] one drive's repetition */
    char          *dir;             /* --files: the trial's run folder */
    int            keep;            /* --pilot: the folder stays */
    int            reps, n, vms, txns;
} sim_run;

static void oom(void)
{
    fprintf(stderr, "stats-sim: out of memory\n");
    exit(2);
}

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "stats-sim: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "stats-sim: out of memory\n");
        exit(2);
    }
    return d;
}

/* The summary's drives and VMs for D drives of V VMs, R repetitions. */
static void run_new(sim_run *r, const opts *o, int vms, int reps, int n, int txns)
{
    char name[64];
    memset(r, 0, sizeof *r);
    r->txns = txns;
    if (txns > 0) {
        r->vtps = xcalloc((size_t)vms * (size_t)n, sizeof *r->vtps);
        r->lscale = xcalloc((size_t)vms * (size_t)n, sizeof *r->lscale);
        if (!(r->h = hist_new(HIST_DEFAULT_HIGHEST, RES_IV_HIST_DIGITS))
            || !(r->vh = hist_new(HIST_DEFAULT_HIGHEST, RES_IV_HIST_DIGITS)))
            oom();
        if (o->files) {
            const char *tmp = getenv("TMPDIR");
            char tpl[4096];
            snprintf(tpl, sizeof tpl, "%s/stats-sim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
            r->docs = xcalloc((size_t)vms, sizeof *r->docs);
            r->keep = o->pilot != NULL;
            if (o->pilot && mkdir(o->pilot, 0755) < 0) {
                fprintf(stderr, "stats-sim: %s: %s\n", o->pilot, strerror(errno));
                exit(2);
            }
            if (o->pilot ? !(r->dir = strdup(o->pilot))
                         : !mkdtemp(tpl) || !(r->dir = strdup(tpl))) {
                fprintf(stderr, "stats-sim: %s: %s\n", tpl, strerror(errno));
                exit(2);
            }
        }
    }
    r->reps = reps;
    r->n = n;
    r->vms = vms;
    res_plan_init(&r->sum.plan);
    res_env_init(&r->sum.env);
    r->sum.plan.vms_per_drive = vms;
    r->sum.repetitions = reps;
    r->sum.ndrives = o->drives;
    r->sum.drives = xcalloc((size_t)o->drives, sizeof *r->sum.drives);
    r->sum.nvms = o->drives * vms * reps;
    r->sum.vms = xcalloc((size_t)r->sum.nvms, sizeof *r->sum.vms);
    r->acc = xcalloc((size_t)o->drives, sizeof *r->acc);
    for (int d = 0; d < o->drives; d++) {
        res_drive *dr = &r->sum.drives[d];
        tel_drive_acc *a = &r->acc[d];
        size_t cells = (size_t)reps * (size_t)n;
        snprintf(name, sizeof name, "drive-%d", d);
        dr->name = xstrdup(name);
        dr->reps = xcalloc((size_t)reps, sizeof *dr->reps);
        dr->nreps = reps;
        a->tps = xcalloc(cells, sizeof *a->tps);
        a->p = xcalloc(cells, sizeof *a->p);
        a->pn = xcalloc(cells, sizeof *a->pn);
        a->tn = xcalloc(cells, sizeof *a->tn);
        a->nvm = xcalloc((size_t)reps, sizeof *a->nvm);
        a->p_pct = o->no_latency ? NAN : 99;
        for (int k = 0; k < reps; k++) {
            dr->reps[k].repetition = k + 1;
            for (int v = 0; v < vms; v++) {
                res_vm *m = &r->sum.vms[(d * reps + k) * vms + v];
                snprintf(name, sizeof name, "drive-%d-vm-%d", d, v);
                m->name = xstrdup(name);
                m->drive = xstrdup(dr->name);
                m->repetition = k + 1;
                m->measured = true;
                m->npoints = n;
                m->interval_s = o->interval_s;
            }
        }
    }
    r->host = xcalloc((size_t)n, sizeof *r->host);
    r->phost = xcalloc((size_t)n, sizeof *r->phost);
    r->x = xcalloc((size_t)n, sizeof *r->x);
}

static void run_free(sim_run *r)
{
    for (int d = 0; d < r->sum.ndrives; d++) {
        free(r->acc[d].tps);
        free(r->acc[d].p);
        free(r->acc[d].pn);
        free(r->acc[d].tn);
        free(r->acc[d].nvm);
    }
    free(r->acc);
    free(r->host);
    free(r->phost);
    free(r->x);
    free(r->vtps);
    free(r->lscale);
    hist_free(r->h);
    hist_free(r->vh);
    free(r->docs);
    /* --files: the results of the last trial, then the folder */
    for (int d = 0; r->dir && !r->keep && d < r->sum.ndrives; d++)
        for (int k = 0; k < r->reps; k++)
            for (int v = 0; v < r->vms; v++) {
                char path[4096];
                snprintf(path, sizeof path, "%s/d%d-r%d-v%d.json", r->dir, d, k + 1, v);
                unlink(path);
            }
    if (r->dir && !r->keep)
        rmdir(r->dir);
    free(r->dir);
    res_summary_clear(&r->sum);
}

/* --files: VM v's result of one repetition begun: its measured phase of
 * n intervals, its histogram as oltp keeps it. */
static void doc_begin(sim_run *r, const opts *o, res_oltp *doc)
{
    res_phase *p;
    memset(doc, 0, sizeof *doc);
    if (!(p = res_oltp_add_phase(doc)))
        oom();
    p->phase = RES_PHASE_MEASURE;
    p->interval_s = o->interval_s;
    p->duration_s = r->n * o->interval_s;
    p->iv_pct = 99;
    p->cpu_s_per_1000_txn = NAN;
    p->intervals = calloc((size_t)r->n, sizeof *p->intervals);
    p->histogram = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS);
    if (!p->intervals || !p->histogram)
        oom();
}

/* --files: interval i of VM v's result from its histogram r->vh. */
static void doc_interval(sim_run *r, const opts *o, res_oltp *doc, int i)
{
    res_phase *p = &doc->phases[0];
    res_interval *x = &p->intervals[p->nintervals++];
    x->t = (i + 1) * o->interval_s;
    x->duration_s = o->interval_s;
    x->tps = (double)r->vh->total / o->interval_s;
    x->lat_avg_ms = r->vh->total > 0 ? hist_mean(r->vh) / 1000.0 : 0;
    x->lat_pct_ms = r->vh->total > 0 ? (double)hist_percentile(r->vh, 99) / 1000.0 : 0;
    if (!(x->histogram = hist_sparse_of(r->vh, RES_IV_HIST_DIGITS)))
        oom();
}

/* --files: VM v's result of drive d, repetition k (0-based) finished
 * and written as dir/d<d>-r<k>-v<v>.json. */
static void doc_write(sim_run *r, res_oltp *doc, int d, int k, int v)
{
    res_phase *p = &doc->phases[0];
    char path[4096], err[512];
    p->transactions = p->total = p->histogram->total;
    p->tps = (double)p->transactions / p->duration_s;
    p->latency.avg = hist_mean(p->histogram) / 1000.0;
    p->latency.min = (double)p->histogram->min / 1000.0;
    p->latency.max = (double)p->histogram->max / 1000.0;
    res_latency_add_pct(&p->latency, 50, hist_percentile_ms(p->histogram, 50));
    res_latency_add_pct(&p->latency, 95, hist_percentile_ms(p->histogram, 95));
    res_latency_add_pct(&p->latency, 99, hist_percentile_ms(p->histogram, 99));
    snprintf(path, sizeof path, "%s/d%d-r%d-v%d.json", r->dir, d, k + 1, v);
    if (res_oltp_write_file(doc, path, err, sizeof err) < 0) {
        fprintf(stderr, "stats-sim: %s\n", err);
        exit(2);
    }
    res_oltp_clear(doc);
}

/* --txns: drive d's p-latency of repetition k drawn transaction by
 * transaction (oltp's histograms, RES_IV_HIST_DIGITS): each VM's
 * transactions of interval i follow its TPS, their latencies its scale;
 * p[i] the p99 of the VMs' merged histogram, tps[i] their transactions
 * a second (as their result files give it), *rep_p99 the repetition's
 * p99. With --files each VM's intervals go to its result (r->docs[v])
 * too. */
static void draw_latency(sim_run *r, const opts *o, int fail, double gain, uint64_t *st,
                         double *p, double *tps, double *rep_p99)
{
    double spread = o->zero_var ? 0.0 : SIGMA_TXN;
    hist *all = hist_new(HIST_DEFAULT_HIGHEST, RES_IV_HIST_DIGITS);
    if (!all)
        oom();
    for (int i = 0; i < r->n; i++) {
        hist_reset(r->h);
        for (int v = fail ? 1 : 0; v < r->vms; v++) {
            double share = r->vtps[v * r->n + i] / MU_VM;
            long cnt = lround(r->txns * (share > 0 ? share : 0));
            double med = P_MEDIAN / gain * exp(r->lscale[v * r->n + i]) * 1000.0;
            hist_reset(r->vh);
            for (long j = 0; j < cnt; j++) {
                int64_t us = llround(med * exp(spread * orch_stats_sim_normal(st)));
                hist_record(r->vh, us);
                if (r->docs)
                    hist_record(r->docs[v].phases[0].histogram, us);
            }
            if (r->docs)
                doc_interval(r, o, &r->docs[v], i);
            hist_add(r->h, r->vh);
        }
        p[i] = r->h->total > 0 ? (double)hist_percentile(r->h, 99) / 1000.0 : NAN;
        tps[i] = (double)r->h->total / o->interval_s;
        hist_add(all, r->h);
    }
    *rep_p99 = all->total > 0 ? (double)hist_percentile(all, 99) / 1000.0 : NAN;
    hist_free(all);
}

/* Repetition k (0-based) of every drive: the series, the repetition's
 * figures (TPS and p99 means) and what failed. */
static void fill_rep(sim_run *r, const opts *o, double phi, int k, uint64_t *st)
{
    int n = r->n, base = k * n;
    double noise = o->zero_var ? 0.0 : 1.0;
    memset(r->host, 0, (size_t)n * sizeof *r->host);
    memset(r->phost, 0, (size_t)n * sizeof *r->phost);
    orch_stats_sim_ar1_add(st, r->host, n, phi, SD_HOST * noise);
    orch_stats_sim_ar1_add(st, r->phost, n, phi, (r->txns ? SD_LHOST : SD_PHOST) * noise);
    for (int d = 0; d < r->sum.ndrives; d++) {
        tel_drive_acc *a = &r->acc[d];
        res_repetition *rp = &r->sum.drives[d].reps[k];
        double gain = d == 0 ? 1.0 + o->effect / 100.0 : 1.0, sum_t = 0, sum_p = 0, rep_p99 = NAN;
        int fail = o->failed_rep && d == 0 && k == 0 && r->reps > 1;
        a->nvm[k] = r->vms - fail;
        for (int i = 0; i < n; i++) {
            a->tps[base + i] = 0;
            a->tn[base + i] = a->pn[base + i] = a->nvm[k];
        }
        for (int v = 0; v < r->vms; v++) {
            memset(r->x, 0, (size_t)n * sizeof *r->x);
            orch_stats_sim_ar1_add(st, r->x, n, phi, SD_VM * noise);
            if (o->partial) {
                /* the last bin covers a fraction f of its interval: the
                 * mean of fewer transactions, its noise 1/sqrt(f) larger */
                double f = 0.05 + 0.95 * orch_stats_sim_unit(st);
                r->x[n - 1] += SD_VM * noise * sqrt(1.0 / f - 1.0) * orch_stats_sim_normal(st);
            }
            r->sum.vms[(d * r->reps + k) * r->vms + v].failed = fail && v == 0;
            r->sum.vms[(d * r->reps + k) * r->vms + v].measured = !(fail && v == 0);
            if (r->txns) {
                for (int i = 0; i < n; i++) {
                    r->vtps[v * n + i] = MU_VM * gain + r->host[i] + r->x[i];
                    r->lscale[v * n + i] = r->phost[i];
                }
                memset(r->x, 0, (size_t)n * sizeof *r->x);
                orch_stats_sim_ar1_add(st, r->x, n, phi, SD_LVM * noise);
                for (int i = 0; i < n; i++)
                    r->lscale[v * n + i] += r->x[i];
            }
            if (fail && v == 0)
                continue;
            for (int i = 0; i < n; i++)
                a->tps[base + i] += r->txns ? r->vtps[v * n + i] : MU_VM * gain + r->host[i] + r->x[i];
        }
        if (r->txns) {
            for (int v = 0; r->docs && v < r->vms; v++)
                doc_begin(r, o, &r->docs[v]);
            draw_latency(r, o, fail, gain, st, a->p + base, a->tps + base, &rep_p99);
            for (int v = 0; r->docs && v < r->vms; v++)
                doc_write(r, &r->docs[v], d, k, v);
        } else {
            memset(r->x, 0, (size_t)n * sizeof *r->x);
            orch_stats_sim_ar1_add(st, r->x, n, phi, SD_PVM * noise);
            for (int i = 0; i < n; i++) {
                double p = P_BASE / gain + r->phost[i] + r->x[i];
                if (o->quantize > 0)
                    p = round(p / o->quantize) * o->quantize;
                a->p[base + i] = p;
            }
        }
        /* a VM of drive 0 without some bins: those bins have no sum */
        for (int m = 0; d == 0 && m < o->missing && n > 0; m++) {
            int i = (int)(orch_stats_sim_next(st) % (uint64_t)n);
            a->tps[base + i] = NAN;
            a->pn[base + i] = a->nvm[k] - 1;
        }
        for (int i = 0, c = 0; i < n; i++)
            if (isfinite(a->tps[base + i])) {
                sum_t += a->tps[base + i];
                sum_p += a->p[base + i];
                c++;
                rp->f.tps = sum_t / c;
                rp->f.lat_p99_ms = r->txns ? rep_p99 : sum_p / c;
            }
        rp->f.failed_vms = fail;
        rp->f.vms = a->nvm[k];
    }
}

/* One trial: the run's repetitions (fixed, or until the auto rule
 * stops), the comparisons, the tally. */
/* The comparisons of io into the cell's tally t. */
static void tally_io(const res_io *io, const opts *o, tally *t)
{
    for (int i = 0; io && i < io->ncmp; i++) {
        const res_io_cmp *c = &io->cmp[i];
        tally *m = &t[c->method];
        int ab = o->effect != 0 && (strcmp(c->a, "drive-0") == 0 || strcmp(c->b, "drive-0") == 0);
        int verdict = c->verdict == RES_CMP_DISTINGUISHABLE
                      || c->verdict == RES_CMP_NOT_DISTINGUISHABLE;
        int dist = c->verdict == RES_CMP_DISTINGUISHABLE;
        m->too_short += c->verdict == RES_CMP_TOO_SHORT;
        m->not_comparable += c->verdict == RES_CMP_NOT_COMPARABLE;
        if (ab) {
            /* drive-0 is a: faster TPS is diff > 0, lower latency diff < 0 */
            int right = res_cmp_method_is_tps(c->method) ? c->diff > 0 : c->diff < 0;
            m->ab_cmps++;
            m->ab_found += dist && right;
        } else {
            m->cmps++;
            m->verdicts += verdict;
            m->false_d += dist;
        }
    }
}

/* --files: the trial's summary rebuilt from its result files under
 * r->dir by the run's own code, as `drivebench run` builds summary.json:
 * orch_summary_build (the figures, run/aggregate.h) and
 * orch_telemetry_fill (each VM's interval histograms, the comparisons).
 * A new summary (orch_summary_free). */
static res_summary *files_summary(sim_run *r, orch_telemetry *tel, int reps)
{
    int nvms = r->sum.ndrives * reps * r->vms, i = 0;
    orch_vm_result *vr = xcalloc((size_t)nvms, sizeof *vr);
    char (*paths)[64] = xcalloc((size_t)nvms, sizeof *paths), err[1024];
    const char **drives = xcalloc((size_t)r->sum.ndrives, sizeof *drives);
    orch_summary_input in = { .run_id = "stats-sim", .run_dir = r->dir, .drives = drives,
                              .ndrives = r->sum.ndrives, .vms = vr, .nvms = nvms,
                              .repetitions = reps };
    res_summary *s;
    for (int d = 0; d < r->sum.ndrives; d++) {
        drives[d] = r->sum.drives[d].name;
        for (int k = 0; k < reps; k++)
            for (int v = 0; v < r->vms; v++, i++) {
                snprintf(paths[i], sizeof paths[i], "d%d-r%d-v%d.json", d, k + 1, v);
                vr[i] = (orch_vm_result){ .vm = r->sum.vms[(d * r->reps + k) * r->vms + v].name,
                                          .drive = drives[d], .repetition = k + 1,
                                          .result = paths[i], .numa_node = -1 };
            }
    }
    if (!(s = orch_summary_build(&in, err, sizeof err))) {
        fprintf(stderr, "stats-sim: %s\n", err);
        exit(2);
    }
    if (orch_telemetry_fill(tel, s, r->dir) < 0)
        oom();
    free(vr);
    free(paths);
    free(drives);
    return s;
}

static void trial(sim_run *r, const opts *o, double phi, uint64_t *st, tally *t,
                  orch_telemetry *tel)
{
    int reps = r->reps;
    if (o->auto_max > 0) {
        double *v = xcalloc((size_t)r->sum.ndrives * (size_t)o->auto_max, sizeof *v);
        int *nv = xcalloc((size_t)r->sum.ndrives, sizeof *nv);
        for (reps = 1; reps <= o->auto_max; reps++) {
            fill_rep(r, o, phi, reps - 1, st);
            for (int d = 0; d < r->sum.ndrives; d++)
                if (!r->sum.drives[d].reps[reps - 1].f.failed_vms)
                    v[d * o->auto_max + nv[d]++] = r->sum.drives[d].reps[reps - 1].f.tps;
            if (orch_stats_auto_stop(v, o->auto_max, nv, r->sum.ndrives, o->auto_min,
                                     o->auto_cv, NULL) || reps == o->auto_max)
                break;
        }
        free(v);
        free(nv);
    } else {
        for (int k = 0; k < reps; k++)
            fill_rep(r, o, phi, k, st);
    }
    /* the summary as the run wrote it: the repetitions it ran */
    r->sum.repetitions = reps;
    r->sum.nvms = r->sum.ndrives * r->vms * r->reps;
    for (int d = 0; d < r->sum.ndrives; d++) {
        res_drive *dr = &r->sum.drives[d];
        dr->nreps = reps;
        dr->f.failed_vms = 0;
        for (int k = 0; k < reps; k++)
            dr->f.failed_vms += dr->reps[k].f.failed_vms;
    }
    for (int i = 0; i < r->sum.nvms; i++)
        if (r->sum.vms[i].repetition > reps)
            r->sum.vms[i].measured = false, r->sum.vms[i].repetition = 0;
    r->sum.io = res_io_new();
    if (!r->sum.io || (!o->files && tel_compare_drives(&r->sum, r->acc, reps, r->n,
                                                       r->sum.io) < 0)) {
        fprintf(stderr, "stats-sim: out of memory\n");
        exit(2);
    }
    if (o->files) {
        res_summary *fs = files_summary(r, tel, reps);
        char err[1024];
        if (o->pilot && res_summary_write_files(fs, r->dir, err, sizeof err) < 0) {
            fprintf(stderr, "stats-sim: %s\n", err);
            exit(2);
        }
        tally_io(fs->io, o, t);
        orch_summary_free(fs);
    } else {
        tally_io(r->sum.io, o, t);
    }
    for (int k = 0; k < RES_CMP_METHOD_COUNT; k++) {
        t[k].reps_used += reps;
        t[k].trials++;
    }
    res_io_free(r->sum.io);
    r->sum.io = NULL;
    /* undo the auto rule's marks for the next trial */
    for (int k = 0, i = 0; k < r->sum.ndrives; k++)
        for (int rep = 1; rep <= r->reps; rep++)
            for (int v = 0; v < r->vms; v++, i++)
                r->sum.vms[i].repetition = rep;
}

/* The most false verdicts among v that a true rate of 5 % still gives
 * with probability >= 2.5 % (the exact binomial upper tail:
 * P(X >= x) = I_0.05(x, v - x + 1)), as a percentage of v. */
static double bound_pct(long v)
{
    long x = 1;
    if (v <= 0)
        return 100.0;
    while (x <= v && orch_betai((double)x, (double)(v - x + 1), 0.05) >= 0.025)
        x++;
    return 100.0 * (double)(x - 1) / (double)v;
}

static double pct(long a, long b)
{
    return b > 0 ? 100.0 * (double)a / (double)b : NAN;
}

/* A comma-separated list of numbers into v (at most MAXLIST); its length,
 * or -1. */
static int parse_list(const char *s, double *v, double lo, double hi)
{
    int n = 0;
    char *end;
    while (*s) {
        errno = 0;
        double x = strtod(s, &end);
        if (end == s || errno || !(x >= lo && x <= hi) || n == MAXLIST)
            return -1;
        v[n++] = x;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

static int parse_ints(const char *s, int *v, int lo, int hi)
{
    double d[MAXLIST];
    int n = parse_list(s, d, lo, hi);
    for (int i = 0; i < n; i++) {
        if (d[i] != floor(d[i]))
            return -1;
        v[i] = (int)d[i];
    }
    return n;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: stats-sim [--seed N] [--trials N] [--drives N] [--vms LIST] [--reps LIST]\n"
               "                 [--phi LIST] [--n LIST] [--effect PCT] [--missing K] [--partial]\n"
               "                 [--quantize MS] [--zero-var] [--failed-rep] [--no-latency]\n"
               "                 [--interval S] [--txns LIST] [--files]\n"
               "                 [--auto MIN:MAX:CV] [--check] [--pilot DIR]\n"
               "LIST: comma-separated; every combination is a cell; --name=value as well.\n"
               "--txns: p99 drawn transaction by transaction, LIST transactions per VM and\n"
               "interval at the mean TPS (0: p99 an AR(1) series). --files: each trial's\n"
               "VMs written as oltp results and summarized by the run's code (with --txns).\n"
               "--pilot DIR (with --files, one cell, one trial): that trial's run folder\n"
               "(summary.json and the VMs' results) made and kept as DIR.\n"
               "Defaults: --seed 1\n"
               "--trials 1000 --drives 2 --vms 1 --reps 1 --phi 0,0.5,0.8,0.9,0.95\n"
               "--n 5,20,100,300,600,1000 --effect 0 --interval 10 --txns 0\n");
}

/* Whether a is an option that takes a value. */
static int takes_value(const char *a)
{
    static const char *const names[] = { "--seed", "--trials", "--drives", "--vms", "--reps",
                                         "--phi", "--n", "--effect", "--missing", "--quantize",
                                         "--interval", "--auto", "--txns", "--pilot" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(a, names[i]) == 0)
            return 1;
    return 0;
}

static int parse(int argc, char **argv, opts *o)
{
    char name[32];
    *o = (opts){ .seed = 1, .trials = 1000, .drives = 2, .vms = { 1 }, .nvms_l = 1,
                 .reps = { 1 }, .nreps_l = 1, .phi = { 0, 0.5, 0.8, 0.9, 0.95 }, .nphi = 5,
                 .n = { 5, 20, 100, 300, 600, 1000 }, .nn = 6, .interval_s = 10,
                 .txns = { 0 }, .ntxns = 1 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL, *eq = strchr(a, '=');
        double d[MAXLIST];
        int ok = 1, takes = 1, glued = 0;
        char *end = NULL;
        /* --name=value as well as --name value */
        if (strncmp(a, "--", 2) == 0 && eq) {
            size_t len = (size_t)(eq - a);
            if (len >= sizeof name) {
                fprintf(stderr, "stats-sim: unknown option %s\n", a);
                usage(stderr);
                return -1;
            }
            memcpy(name, a, len);
            name[len] = 0;
            if (!takes_value(name)) {
                fprintf(stderr, "stats-sim: unknown option %s\n", name);
                usage(stderr);
                return -1;
            }
            a = name;
            v = eq + 1;
            glued = 1;
        }
        if (strcmp(a, "--partial") == 0 || strcmp(a, "--zero-var") == 0
            || strcmp(a, "--failed-rep") == 0 || strcmp(a, "--check") == 0
            || strcmp(a, "--no-latency") == 0 || strcmp(a, "--files") == 0) {
            takes = 0;
            o->files |= strcmp(a, "--files") == 0;
            o->no_latency |= strcmp(a, "--no-latency") == 0;
            o->partial |= strcmp(a, "--partial") == 0;
            o->zero_var |= strcmp(a, "--zero-var") == 0;
            o->failed_rep |= strcmp(a, "--failed-rep") == 0;
            o->check |= strcmp(a, "--check") == 0;
        } else if (strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (!takes_value(a)) {
            fprintf(stderr, "stats-sim: unknown option %s\n", a);
            usage(stderr);
            return -1;
        } else if (!v) {
            ok = 0;
        } else if (strcmp(a, "--seed") == 0) {
            errno = 0;
            o->seed = strtoull(v, &end, 10);
            ok = *v && !*end && !errno;
        } else if (strcmp(a, "--pilot") == 0) {
            o->pilot = v;
            ok = *v != 0;
        } else if (strcmp(a, "--trials") == 0) {
            ok = parse_ints(v, &o->trials, 1, 10000000) == 1;
        } else if (strcmp(a, "--drives") == 0) {
            ok = parse_ints(v, &o->drives, 2, 16) == 1;
        } else if (strcmp(a, "--vms") == 0) {
            ok = (o->nvms_l = parse_ints(v, o->vms, 1, 8)) > 0;
        } else if (strcmp(a, "--reps") == 0) {
            ok = (o->nreps_l = parse_ints(v, o->reps, 1, 10)) > 0;
        } else if (strcmp(a, "--phi") == 0) {
            ok = (o->nphi = parse_list(v, o->phi, 0, 0.99)) > 0;
        } else if (strcmp(a, "--n") == 0) {
            ok = (o->nn = parse_ints(v, o->n, 2, 100000)) > 0;
        } else if (strcmp(a, "--effect") == 0) {
            ok = parse_list(v, d, -90, 1000) == 1;
            o->effect = d[0];
        } else if (strcmp(a, "--missing") == 0) {
            ok = parse_ints(v, &o->missing, 0, 100000) == 1;
        } else if (strcmp(a, "--txns") == 0) {
            ok = (o->ntxns = parse_ints(v, o->txns, 0, 100000)) > 0;
        } else if (strcmp(a, "--quantize") == 0) {
            ok = parse_list(v, d, 0, 100) == 1;
            o->quantize = d[0];
        } else if (strcmp(a, "--interval") == 0) {
            ok = parse_list(v, d, 0.001, 3600) == 1;
            o->interval_s = d[0];
        } else if (strcmp(a, "--auto") == 0) {
            ok = sscanf(v, "%d:%d:%lf", &o->auto_min, &o->auto_max, &o->auto_cv) == 3
                 && o->auto_min >= 2 && o->auto_max >= o->auto_min && o->auto_max <= 10
                 && o->auto_cv > 0;
        } else {
            fprintf(stderr, "stats-sim: unknown option %s\n", a);
            usage(stderr);
            return -1;
        }
        if (!ok) {
            fprintf(stderr, "stats-sim: %s: bad or missing value%s%s\n", a, v ? " " : "",
                    v && takes ? v : "");
            return -1;
        }
        i += takes && !glued;
    }
    for (int i = 0; o->files && i < o->ntxns; i++)
        if (o->txns[i] < 1) {
            fprintf(stderr, "stats-sim: --files needs --txns (transactions drawn into the "
                            "results' histograms)\n");
            return -1;
        }
    if (o->pilot && (!o->files || o->trials != 1 || o->nvms_l * o->nreps_l * o->ntxns * o->nphi
                                                      * o->nn != 1)) {
        fprintf(stderr, "stats-sim: --pilot takes --files, --trials 1 and one cell\n");
        return -1;
    }
    if (o->files && (o->missing || o->partial || o->zero_var || o->failed_rep || o->no_latency
                     || o->quantize > 0 || o->auto_max)) {
        fprintf(stderr, "stats-sim: --files takes none of --missing, --partial, --zero-var, "
                        "--failed-rep, --no-latency, --quantize, --auto\n");
        return -1;
    }
    return 0;
}

/* smartctl and nvme are not asked */
static char *no_cmd(void *ctx, const char *const argv[], int *status)
{
    (void)ctx;
    (void)argv;
    *status = -1;
    return NULL;
}

/* --files: the telemetry orch_telemetry_fill reads the results with: a
 * plan of the cell's drives and repetitions, nothing sampled. */
typedef struct sim_tel {
    orch_drive      *drives;
    orch_plan        plan;
    orch_tel_seams   seams;
    FILE            *log;
    orch_telemetry  *t;
} sim_tel;

static void tel_open(sim_tel *x, const opts *o, sim_run *r, int reps)
{
    memset(x, 0, sizeof *x);
    if (!o->files)
        return;
    x->drives = xcalloc((size_t)r->sum.ndrives, sizeof *x->drives);
    for (int d = 0; d < r->sum.ndrives; d++)
        x->drives[d].name = r->sum.drives[d].name;
    x->plan = (orch_plan){ .drives = x->drives, .ndrives = r->sum.ndrives, .repetitions = reps };
    x->seams = (orch_tel_seams){ .cmd = no_cmd, .sysfs = "/nonexistent", .proc_stat = "/nonexistent",
                                 .no_timer = 1, .interval_ms = (int)lround(o->interval_s * 1000) };
    if (!(x->log = fopen("/dev/null", "w")) || !(x->t = orch_telemetry_new(&x->plan, NULL, x->log,
                                                                           &x->seams)))
        oom();
}

static void tel_close(sim_tel *x)
{
    orch_telemetry_free(x->t);
    if (x->log)
        fclose(x->log);
    free(x->drives);
}

/* A cell's figure with prec decimals in w characters, "-" when it has
 * none (no verdict, no A/B pair): never "nan". */
static const char *cell(char *buf, size_t len, int w, int prec, double v)
{
    if (isfinite(v))
        snprintf(buf, len, "%*.*f", w, prec, v);
    else
        snprintf(buf, len, "%*s", w, "-");
    return buf;
}

/* The rows of one cell: a tally per method. Whether a row is over its
 * bound. */
static int print_cell(const opts *o, double phi, int n, int vms, int reps, int txns,
                      const tally *t)
{
    int over = 0;
    for (int m = 1; m < RES_CMP_METHOD_COUNT; m++) {
        const tally *x = &t[m];
        double fv = pct(x->false_d, x->verdicts), b = bound_pct(x->verdicts);
        int bad = x->verdicts > 0 && fv > b;
        char c1[32], c2[32], c3[32], c4[32], c5[32];
        if (x->cmps + x->ab_cmps == 0)
            continue;
        over |= bad;
        printf("  %-4g %5d %3d %4d %5d %-10s %6ld %s %s %s %s %s %7.2f%s\n", phi, n, vms, reps,
               txns, res_cmp_method_name(m), x->cmps + x->ab_cmps,
               cell(c1, sizeof c1, 8, 1, pct(x->verdicts, x->cmps)),
               cell(c2, sizeof c2, 7, 2, pct(x->false_d, x->cmps)),
               cell(c3, sizeof c3, 9, 2, fv),
               cell(c4, sizeof c4, 6, 2, x->verdicts > 0 ? b : NAN),
               cell(c5, sizeof c5, 7, 1, pct(x->ab_found, x->ab_cmps)),
               (double)x->reps_used / (double)x->trials, bad ? "  OVER" : "");
    }
    (void)o;
    return over;
}

int main(int argc, char **argv)
{
    opts o;
    int over = 0;
    if (parse(argc, argv, &o) < 0)
        return 2;
    printf("# stats-sim --seed %llu --trials %d --drives %d --effect %g%s%s%s%s%s",
           (unsigned long long)o.seed, o.trials, o.drives, o.effect,
           o.partial ? " --partial" : "", o.zero_var ? " --zero-var" : "",
           o.failed_rep ? " --failed-rep" : "", o.no_latency ? " --no-latency" : "",
           o.check ? " --check" : "");
    if (o.files)
        printf(" --files");
    if (o.missing)
        printf(" --missing %d", o.missing);
    if (o.quantize > 0)
        printf(" --quantize %g", o.quantize);
    if (o.auto_max)
        printf(" --auto %d:%d:%g", o.auto_min, o.auto_max, o.auto_cv);
    printf("\n# %-4s %5s %3s %4s %5s %-10s %6s %8s %7s %9s %6s %7s %7s\n", "phi", "n", "vms",
           "reps", "txns", "method", "cmps", "verdict%", "false%", "false%|v", "bound%",
           "power%", "reps~");
    for (int iv = 0; iv < o.nvms_l; iv++)
        for (int ir = 0; ir < o.nreps_l; ir++)
            for (int it = 0; it < o.ntxns; it++)
                for (int ip = 0; ip < o.nphi; ip++)
                    for (int in = 0; in < o.nn; in++) {
                        int reps = o.auto_max ? o.auto_max : o.reps[ir];
                        tally t[RES_CMP_METHOD_COUNT];
                        sim_run r;
                        /* every cell its own stream: a cell's figures do
                         * not depend on which others run */
                        uint64_t st = o.seed * 0x100000001b3ULL
                                      + (uint64_t)(iv * 1000003 + ir * 10007 + ip * 101 + in)
                                      + (uint64_t)it * 0x9e3779b9ULL;
                        memset(t, 0, sizeof t);
                        sim_tel tel;
                        run_new(&r, &o, o.vms[iv], reps, o.n[in], o.txns[it]);
                        tel_open(&tel, &o, &r, reps);
                        for (int k = 0; k < o.trials; k++)
                            trial(&r, &o, o.phi[ip], &st, t, tel.t);
                        tel_close(&tel);
                        run_free(&r);
                        over |= print_cell(&o, o.phi[ip], o.n[in], o.vms[iv], reps, o.txns[it],
                                           t);
                    }
    return o.check && over ? 1 : 0;
}
