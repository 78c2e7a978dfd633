/* stats_sim.c — bin/stats-sim: are drivebench's verdicts right? Synthetic
 * runs of two or more drives go through the very code a summary's
 * comparisons come from (tel_compare_drives: the paired batch means,
 * Welch, Holm over the run's family), and each cell of parameters prints
 * how often a comparison got a verdict, how often that verdict was a
 * false "distinguishable" (drives that are the same: A/A), over all
 * trials and among the verdicts given, and how often a real difference
 * (--effect, A/B) was found (README, "Are the verdicts right?").
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

#include "results.h"
#include "telemetry/telemetry_state.h"
#include "util/stats.h"

#define MAXLIST 32
#define MU_VM 100.0
#define SD_HOST 10.0
#define SD_VM 20.0
#define P_BASE 10.0
#define SD_PHOST 0.5
#define SD_PVM 1.0

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
    double   interval_s;
    int      auto_min, auto_max;    /* 0: fixed repetitions */
    double   auto_cv;
    int      check;
} opts;

/* splitmix64 and Box-Muller: repeatable from --seed on every machine. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s)
{
    return ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(uint64_t *s)
{
    double u1 = rng_unit(s), u2 = rng_unit(s);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* x[0..n) += an AR(1) series of lag-1 autocorrelation phi and standard
 * deviation sd, stationary from the start. */
static void ar1_add(uint64_t *s, double *x, int n, double phi, double sd)
{
    double v = sd * rng_normal(s), q = sqrt(1.0 - phi * phi) * sd;
    for (int i = 0; i < n; i++) {
        x[i] += v;
        v = phi * v + q * rng_normal(s);
    }
}

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
    int            reps, n, vms;
} sim_run;

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
static void run_new(sim_run *r, const opts *o, int vms, int reps, int n)
{
    char name[64];
    memset(r, 0, sizeof *r);
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
    res_summary_clear(&r->sum);
}

/* Repetition k (0-based) of every drive: the series, the repetition's
 * figures (TPS and p99 means) and what failed. */
static void fill_rep(sim_run *r, const opts *o, double phi, int k, uint64_t *st)
{
    int n = r->n, base = k * n;
    double noise = o->zero_var ? 0.0 : 1.0;
    memset(r->host, 0, (size_t)n * sizeof *r->host);
    memset(r->phost, 0, (size_t)n * sizeof *r->phost);
    ar1_add(st, r->host, n, phi, SD_HOST * noise);
    ar1_add(st, r->phost, n, phi, SD_PHOST * noise);
    for (int d = 0; d < r->sum.ndrives; d++) {
        tel_drive_acc *a = &r->acc[d];
        res_repetition *rp = &r->sum.drives[d].reps[k];
        double gain = d == 0 ? 1.0 + o->effect / 100.0 : 1.0, sum_t = 0, sum_p = 0;
        int fail = o->failed_rep && d == 0 && k == 0 && r->reps > 1;
        a->nvm[k] = r->vms - fail;
        for (int i = 0; i < n; i++) {
            a->tps[base + i] = 0;
            a->tn[base + i] = a->pn[base + i] = a->nvm[k];
        }
        for (int v = 0; v < r->vms; v++) {
            memset(r->x, 0, (size_t)n * sizeof *r->x);
            ar1_add(st, r->x, n, phi, SD_VM * noise);
            if (o->partial) {
                /* the last bin covers a fraction f of its interval: the
                 * mean of fewer transactions, its noise 1/sqrt(f) larger */
                double f = 0.05 + 0.95 * rng_unit(st);
                r->x[n - 1] += SD_VM * noise * sqrt(1.0 / f - 1.0) * rng_normal(st);
            }
            r->sum.vms[(d * r->reps + k) * r->vms + v].failed = fail && v == 0;
            r->sum.vms[(d * r->reps + k) * r->vms + v].measured = !(fail && v == 0);
            if (fail && v == 0)
                continue;
            for (int i = 0; i < n; i++)
                a->tps[base + i] += MU_VM * gain + r->host[i] + r->x[i];
        }
        memset(r->x, 0, (size_t)n * sizeof *r->x);
        ar1_add(st, r->x, n, phi, SD_PVM * noise);
        for (int i = 0; i < n; i++) {
            double p = P_BASE / gain + r->phost[i] + r->x[i];
            if (o->quantize > 0)
                p = round(p / o->quantize) * o->quantize;
            a->p[base + i] = p;
        }
        /* a VM of drive 0 without some bins: those bins have no sum */
        for (int m = 0; d == 0 && m < o->missing && n > 0; m++) {
            int i = (int)(rng_next(st) % (uint64_t)n);
            a->tps[base + i] = NAN;
            a->pn[base + i] = a->nvm[k] - 1;
        }
        for (int i = 0, c = 0; i < n; i++)
            if (isfinite(a->tps[base + i])) {
                sum_t += a->tps[base + i];
                sum_p += a->p[base + i];
                c++;
                rp->f.tps = sum_t / c;
                rp->f.lat_p99_ms = sum_p / c;
            }
        rp->f.failed_vms = fail;
        rp->f.vms = a->nvm[k];
    }
}

/* One trial: the run's repetitions (fixed, or until the auto rule
 * stops), the comparisons, the tally. */
static void trial(sim_run *r, const opts *o, double phi, uint64_t *st, tally *t)
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
    if (!r->sum.io || tel_compare_drives(&r->sum, r->acc, reps, r->n, r->sum.io) < 0) {
        fprintf(stderr, "stats-sim: out of memory\n");
        exit(2);
    }
    for (int i = 0; i < r->sum.io->ncmp; i++) {
        const res_io_cmp *c = &r->sum.io->cmp[i];
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
               "                 [--interval S]\n"
               "                 [--auto MIN:MAX:CV] [--check]\n"
               "LIST: comma-separated; every combination is a cell. Defaults: --seed 1\n"
               "--trials 1000 --drives 2 --vms 1 --reps 1 --phi 0,0.5,0.8,0.9,0.95\n"
               "--n 5,20,100,300,600,1000 --effect 0 --interval 10\n");
}

/* Whether a is an option that takes a value. */
static int takes_value(const char *a)
{
    static const char *const names[] = { "--seed", "--trials", "--drives", "--vms", "--reps",
                                         "--phi", "--n", "--effect", "--missing", "--quantize",
                                         "--interval", "--auto" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(a, names[i]) == 0)
            return 1;
    return 0;
}

static int parse(int argc, char **argv, opts *o)
{
    *o = (opts){ .seed = 1, .trials = 1000, .drives = 2, .vms = { 1 }, .nvms_l = 1,
                 .reps = { 1 }, .nreps_l = 1, .phi = { 0, 0.5, 0.8, 0.9, 0.95 }, .nphi = 5,
                 .n = { 5, 20, 100, 300, 600, 1000 }, .nn = 6, .interval_s = 10 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d[MAXLIST];
        int ok = 1, takes = 1;
        char *end = NULL;
        if (strcmp(a, "--partial") == 0 || strcmp(a, "--zero-var") == 0
            || strcmp(a, "--failed-rep") == 0 || strcmp(a, "--check") == 0
            || strcmp(a, "--no-latency") == 0) {
            takes = 0;
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
        i += takes;
    }
    return 0;
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
    if (o.missing)
        printf(" --missing %d", o.missing);
    if (o.quantize > 0)
        printf(" --quantize %g", o.quantize);
    if (o.auto_max)
        printf(" --auto %d:%d:%g", o.auto_min, o.auto_max, o.auto_cv);
    printf("\n# %-4s %5s %3s %4s %-10s %6s %8s %7s %9s %6s %7s %7s\n", "phi", "n", "vms",
           "reps", "method", "cmps", "verdict%", "false%", "false%|v", "bound%", "power%",
           "reps~");
    for (int iv = 0; iv < o.nvms_l; iv++)
        for (int ir = 0; ir < o.nreps_l; ir++)
            for (int ip = 0; ip < o.nphi; ip++)
                for (int in = 0; in < o.nn; in++) {
                    int reps = o.auto_max ? o.auto_max : o.reps[ir];
                    tally t[RES_CMP_METHOD_COUNT];
                    sim_run r;
                    /* every cell its own stream: a cell's figures do not
                     * depend on which others run */
                    uint64_t st = o.seed * 0x100000001b3ULL + (uint64_t)(iv * 1000003 + ir * 10007
                                                                         + ip * 101 + in);
                    memset(t, 0, sizeof t);
                    run_new(&r, &o, o.vms[iv], reps, o.n[in]);
                    for (int k = 0; k < o.trials; k++)
                        trial(&r, &o, o.phi[ip], &st, t);
                    run_free(&r);
                    for (int m = 1; m < RES_CMP_METHOD_COUNT; m++) {
                        const tally *x = &t[m];
                        double fv = pct(x->false_d, x->verdicts), b = bound_pct(x->verdicts);
                        int bad = x->verdicts > 0 && fv > b;
                        if (x->cmps + x->ab_cmps == 0)
                            continue;
                        over |= bad;
                        printf("  %-4g %5d %3d %4d %-10s %6ld %8.1f %7.2f %9.2f %6.2f %7.1f %7.2f%s\n",
                               o.phi[ip], o.n[in], o.vms[iv], reps, res_cmp_method_name(m),
                               x->cmps + x->ab_cmps,
                               pct(x->verdicts, x->cmps), pct(x->false_d, x->cmps), fv, b,
                               pct(x->ab_found, x->ab_cmps),
                               (double)x->reps_used / (double)x->trials, bad ? "  OVER" : "");
                    }
                }
    return o.check && over ? 1 : 0;
}
