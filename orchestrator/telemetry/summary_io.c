/* summary_io.c — the summary's I/O sections (telemetry.h,
 * orch_telemetry_fill): per VM its disks, oltp CPU and p-latency series;
 * per drive its disks over all repetitions, host view, latency spectrum,
 * p-latency over time and steady state; then the run's comparisons and
 * host CPU. The arithmetic is ioagg.h's and stats.h's. */
#include "telemetry/telemetry_state.h"
#include "attributes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/ioagg.h"
#include "plan/plan.h"
#include "telemetry/timebins.h"
#include "util/util.h"

/* What one orch_telemetry_fill works with. */
typedef struct fill_ctx {
    orch_telemetry *t;          /* NULL: the VMs' files only (no samples) */
    FILE           *out;
    res_summary    *sum;
    const char     *run_dir;
    int             reps;       /* the plan's repetitions (at least 1) */
    int             nint;       /* TPS intervals of the longest VM series */
    double          interval_s; /* oltp's interval */
    tel_drive_acc  *acc;        /* [sum->ndrives] */
    orch_io_vm     *ivm;        /* scratch: one repetition's disks [t->nvms] */
    orch_io_sum    *tots;       /* scratch: each repetition's totals [reps] */
} fill_ctx;

/* An orch_io_sum as a row of hypervisor keys (t not set). */
static void sum_row(const orch_io_sum *s, res_io_row *r)
{
    r->v[RES_IOV_rd_iops] = s->rd_iops;
    r->v[RES_IOV_rd_mbps] = s->rd_mbps;
    r->v[RES_IOV_rd_lat_ms] = s->rd_lat_ms;
    r->v[RES_IOV_wr_iops] = s->wr_iops;
    r->v[RES_IOV_wr_mbps] = s->wr_mbps;
    r->v[RES_IOV_wr_lat_ms] = s->wr_lat_ms;
    r->v[RES_IOV_fl_iops] = s->fl_iops;
    r->v[RES_IOV_fl_lat_ms] = s->fl_lat_ms;
}

/* Rates of the VMs vms[0..n) (one repetition): phase totals and the
 * series on nint TPS intervals of interval_s starting at t0. */
static res_io_rates *rates_of(const orch_io_vm *vms, int n, double t0, double interval_s,
                              int nint, orch_io_sum *total)
{
    res_io_rates *r = res_io_rates_new(false, nint);
    orch_io_sum *series = nint > 0 ? calloc((size_t)nint, sizeof *series) : NULL;
    if (!r || (nint > 0 && !series)) {
        free(series);
        res_io_rates_free(r);
        return NULL;
    }
    orch_io_drive_total(vms, n, total);
    sum_row(total, &r->total);
    r->total.t = total->t;
    r->vms = total->vms;
    r->missing = total->missing;
    if (nint > 0)
        orch_io_drive_series(vms, n, t0, interval_s, nint, 0, series);
    for (int i = 0; i < nint; i++) {
        sum_row(&series[i], &r->series[i]);
        r->series[i].t = (i + 1) * interval_s;
    }
    free(series);
    return r;
}

static int drive_index(const res_summary *sum, const char *name)
{
    for (int d = 0; d < sum->ndrives; d++)
        if (strcmp(sum->drives[d].name, name) == 0)
            return d;
    return -1;
}

/* Health after the run, of every drive whose device is known. */
static void health_after(orch_telemetry *t)
{
    for (int d = 0; d < t->p->ndrives; d++) {
        tel_drive *dr = &t->drives[d];
        if (dr->have_dev && dr->dev.id_disk[0] && !dr->have_after)
            dr->have_after = orch_drive_health_read(t->seams.cmd, t->seams.cmd_ctx,
                                                    dr->dev.id_disk, &dr->after) == 0
                             || dr->after.note[0];
    }
}

/* c's time bins: those of the summary's TPS series (oltp's interval,
 * the sampling's when the summary does not say), as many as the longest
 * series reaches. */
static void series_shape(fill_ctx *c)
{
    const res_summary *sum = c->sum;
    for (int i = 0; i < sum->nvms; i++)
        if (sum->vms[i].measured && sum->vms[i].interval_s > 0) {
            c->interval_s = sum->vms[i].interval_s;
            break;
        }
    for (int i = 0; i < sum->nvms; i++) {
        const res_vm *v = &sum->vms[i];
        int end = v->npoints > 0 ? (int)lround(v->series[v->npoints - 1].t / c->interval_s) : 0;
        if (end > c->nint)
            c->nint = end;
    }
}

/* c->acc[d] for every drive: reps * nint intervals each. 0, or -1. */
static int acc_init(fill_ctx *c)
{
    size_t n = (size_t)c->reps * (size_t)c->nint;
    for (int d = 0; d < c->sum->ndrives; d++) {
        tel_drive_acc *a = &c->acc[d];
        a->p_pct = NAN;
        if (c->nint == 0)
            continue;
        a->tps = calloc(n, sizeof *a->tps);
        a->p = calloc(n, sizeof *a->p);
        a->pn = calloc(n, sizeof *a->pn);
        a->tn = calloc(n, sizeof *a->tn);
        a->ph = calloc(n, sizeof *a->ph);
        a->nvm = calloc((size_t)c->reps, sizeof *a->nvm);
        if (!a->tps || !a->p || !a->pn || !a->tn || !a->ph || !a->nvm)
            return -1;
    }
    return 0;
}

/* VM v's TPS series (on the summary's time bins: t the end of bin
 * t / interval_s - 1) into its drive's a, by time. */
static void vm_tps(const fill_ctx *c, const res_vm *v, tel_drive_acc *a)
{
    int base = (v->repetition - 1) * c->nint;
    a->nvm[v->repetition - 1]++;
    for (int i = 0; i < v->npoints; i++) {
        long k = lround(v->series[i].t / c->interval_s) - 1;
        if (k < 0 || k >= c->nint || !isfinite(v->series[i].tps))
            continue;
        a->tps[base + k] += v->series[i].tps;
        a->tn[base + k]++;
    }
}

/* vm_oltp's reader hook: the interval histograms of a VM's measured
 * phase merged into its drive's bins as each is read, so that a VM's
 * 10,800 of them (~50 MB) are never all held; in the VM's order, as a
 * merge after the read did. */
typedef struct bins_hook {
    const fill_ctx *c;
    tel_drive_acc  *a;
    int             base;       /* the first bin of the VM's repetition */
    int            *seen;       /* [nint + 1]: the bins it reached; NULL: none merged */
    int             measure;    /* the first measured phase's index; -1: none yet */
    int             failed;     /* a merge failed (out of memory, or unlike histograms) */
} bins_hook;

static int bins_on_interval(void *ctx, res_phase *p, int pi, int i)
{
    bins_hook *b = ctx;
    res_interval *x = &p->intervals[i];
    if (p->phase == RES_PHASE_MEASURE && b->measure < 0)
        b->measure = pi;
    if (b->seen && pi == b->measure && x->histogram) {
        if (orch_bins_hist_one(p, i, b->c->interval_s, b->c->nint, b->a->ph + b->base,
                               b->seen) < 0) {
            b->failed = 1;
            return -1;
        }
    }
    /* nothing else of the fill reads an interval's histogram */
    hist_sparse_free(x->histogram);
    x->histogram = NULL;
    return 0;
}

/* Drive a's bins once every VM is in: a TPS sum some measured VM has no
 * value in is missing (NAN), never a smaller sum; p from the merged
 * histograms (ms), NAN without one. */
static void acc_finish(const fill_ctx *c, tel_drive_acc *a)
{
    for (int r = 0; a->tps && r < c->reps; r++)
        for (int k = 0; k < c->nint; k++) {
            int i = r * c->nint + k;
            if (a->tn[i] < a->nvm[r] || a->nvm[r] == 0)
                a->tps[i] = NAN;
            a->p[i] = a->ph[i] && isfinite(a->p_pct)
                      ? (double)hist_sparse_percentile(a->ph[i], a->p_pct) / 1000.0 : NAN;
            hist_sparse_free(a->ph[i]);
            a->ph[i] = NULL;
        }
}

/* VM v's oltp result under the run folder: its CPU per 1000
 * transactions and p-latency series into v->io, its bins (as read) and
 * the measured histogram into its drive's a. An unreadable result adds
 * nothing (the run reported it when it collected the VM). 0, or -1 when
 * out of memory or histograms do not merge. */
static int vm_oltp(const fill_ctx *c, res_vm *v, tel_drive_acc *a)
{
    char err[DB_ERR_LEN], *path = v->result ? orch_strfmt("%s/%s", c->run_dir, v->result) : NULL;
    int in_reps = v->repetition >= 1 && v->repetition <= c->reps, rc = 0, read;
    bins_hook b = { .c = c, .a = a, .base = (v->repetition - 1) * c->nint, .measure = -1 };
    const res_phase *m = NULL;
    res_oltp doc;

    memset(&doc, 0, sizeof doc);
    if (path && in_reps && c->nint > 0
        && !(b.seen = calloc((size_t)c->nint + 1, sizeof *b.seen)))
        rc = -1;
    read = path && rc == 0
           && res_oltp_read_file_each(path, &doc, bins_on_interval, &b, err, sizeof err) == 0;
    if (b.failed)
        rc = -1;
    /* a result refused after some of its intervals went into the bins
     * (changed since the VM was collected) adds nothing either: its seen
     * bins never count in pn, and a bin's p is read only where every VM
     * of the drive has one */
    if (read && rc == 0 && (m = res_oltp_measure(&doc))) {
        a->p_pct = m->iv_pct;
        for (int k = 0; b.seen && k < c->nint; k++)
            a->pn[b.base + k] += b.seen[k];
    }
    /* without samples (t NULL: `drivebench summarize`) the VM's and the
     * drive's own figures stay the summary's: only the bins are made */
    if (m && c->t) {
        v->io->cpu_s_per_1000_txn = m->cpu_s_per_1000_txn;
        v->io->p_pct = m->iv_pct;
        if (m->nintervals > 0 && (v->io->p_series = calloc((size_t)m->nintervals,
                                                           sizeof *v->io->p_series)))
            for (int k = 0; k < m->nintervals; k++)
                v->io->p_series[v->io->np++] = (res_point){ m->intervals[k].t,
                                                            m->intervals[k].lat_pct_ms };
        if (tel_txn_vm(v, m) < 0)
            fprintf(c->out, "drivebench: out of memory: no I/O per transaction of %s\n",
                    v->name);
        if (m->histogram) {
            if (!a->h)
                a->h = hist_new(m->histogram->highest, m->histogram->sig_digits);
            if (a->h)
                hist_add(a->h, m->histogram);
        }
    }
    res_oltp_clear(&doc);
    free(b.seen);
    free(path);
    return rc;
}

/* VM v's own disks' rates from its record rec: the phase figures and
 * the series on its TPS intervals (series_only: the series alone, into
 * the rates there). 0, or -1 when out of memory or the spool fails. */
static int vm_rates(const orch_telemetry *t, tel_vm *rec, res_vm *v, double interval_s,
                    int series_only)
{
    res_io_rates **dst[2] = { &v->io->db, &v->io->boot };
    int rc = 0;
    if (tel_vm_load(t, rec) < 0)
        return -1;
    orch_io_vm disks[2] = { { rec->db, rec->ndb }, { rec->boot, rec->nboot } };
    for (int k = 0; k < 2 && rc == 0; k++) {
        orch_io_sum tot;
        res_io_rates *r;
        if (disks[k].n <= 0 || (series_only && !*dst[k]))
            continue;
        if (!(r = rates_of(&disks[k], 1, rec->t0, interval_s, v->npoints, &tot)))
            rc = -1;
        else if (!series_only)
            *dst[k] = r;
        else {
            /* the phase figures stay the ones fill made */
            free((*dst[k])->series);
            (*dst[k])->series = r->series;
            (*dst[k])->nseries = r->nseries;
            r->series = NULL;
            res_io_rates_free(r);
        }
    }
    tel_vm_unload(t, rec);
    return rc;
}

/* A lazy telemetry's VM series, out of memory until written. */
static void vm_drop_series(res_vm *v)
{
    res_io_rates *r[2] = { v->io ? v->io->db : NULL, v->io ? v->io->boot : NULL };
    for (int k = 0; k < 2; k++)
        if (r[k]) {
            free(r[k]->series);
            r[k]->series = NULL;
            r[k]->nseries = 0;
        }
}

void orch_telemetry_lazy_series(orch_telemetry *t)
{
    if (t)
        t->lazy_series = 1;
}

int orch_telemetry_vm_each(void *ctx, res_vm *v, int before)
{
    orch_telemetry *t = ctx;
    tel_vm *rec;
    if (!t || !t->spool || !t->lazy_series || !v->io || !(rec = tel_vm_record(t, v))
        || !rec->measured)
        return 0;
    if (!before) {
        vm_drop_series(v);
        tel_txn_vm_drop(v);
        return 0;
    }
    /* the per-transaction rows from the disk series built here, as the
     * fill made them from the same series */
    return vm_rates(t, rec, v, t->fill_interval_s, 1) < 0 ? -1 : tel_txn_vm_series(v);
}

/* The per-VM section of summary VM v: its own disks' rates, its TPS into
 * its drive's series, its oltp figures. 0, or -1 when out of memory. */
static int fill_vm(fill_ctx *c, res_vm *v)
{
    tel_vm *rec = c->t ? tel_vm_record(c->t, v) : NULL;
    int d = drive_index(c->sum, v->drive);
    if (v->failed || !v->measured || d < 0)
        return 0;
    if (!c->t) {
        /* the VMs' files only: the drive's bins for the comparisons */
        if (v->repetition >= 1 && v->repetition <= c->reps && c->nint > 0)
            vm_tps(c, v, &c->acc[d]);
        return vm_oltp(c, v, &c->acc[d]);
    }
    if (!v->io && !(v->io = res_io_new()))
        return -1;
    if (rec && rec->measured && vm_rates(c->t, rec, v, c->interval_s, 0) < 0)
        return -1;
    if (tel_views_fill_vm(c->t, rec, v, c->interval_s) < 0)
        return -1;
    if (v->repetition >= 1 && v->repetition <= c->reps && c->nint > 0)
        vm_tps(c, v, &c->acc[d]);
    if (vm_oltp(c, v, &c->acc[d]) < 0)
        return -1;
    /* without an oltp result (its TPC-C types) the per-transaction figures
     * come from the summary's own */
    if (!v->io->txn && tel_txn_vm(v, NULL) < 0)
        return -1;
    /* built again, one VM at a time, when the summary writes it (the
     * per-transaction rows: 64 VMs x 10,800 1-s intervals are 55 MB) */
    if (c->t->spool && c->t->lazy_series) {
        vm_drop_series(v);
        if (rec && rec->measured)
            tel_txn_vm_drop(v);
    }
    return 0;
}

/* Whether the summary says VM `name` of repetition rep failed. */
static int vm_failed(const res_summary *sum, int rep, const char *name)
{
    int failed = 0;
    for (int k = 0; k < sum->nvms; k++)
        if (sum->vms[k].repetition == rep && strcmp(sum->vms[k].name, name) == 0)
            failed = sum->vms[k].failed;
    return failed;
}

/* The measured, not failed VMs of plan drive pd in repetition rep: the
 * series of their `role` disks into c->ivm (those that have one; with
 * load, read from the spool: unload_rep frees them), and in *t0 where
 * their TPS intervals begin. Returns how many series, or -1 when one
 * cannot be loaded. */
static int rep_disks(fill_ctx *c, int pd, int rep, orch_disk_role role, double *t0, int load)
{
    int n = 0;
    for (int i = 0; i < c->t->nvms; i++) {
        tel_vm *v = &c->t->vms[i];
        int nd = role == ORCH_DISK_DB ? v->ndb : v->nboot;
        if (v->rep != rep || v->drive != pd || !v->measured
            || vm_failed(c->sum, rep, v->name))
            continue;
        *t0 = v->t0;
        if (nd > 0 && load && tel_vm_load(c->t, v) < 0)
            return -1;
        if (nd > 0)
            c->ivm[n++] = (orch_io_vm){ role == ORCH_DISK_DB ? v->db : v->boot, nd };
    }
    return n;
}

/* The series rep_disks loaded for plan drive pd and repetition rep,
 * freed. */
static void unload_rep(fill_ctx *c, int pd, int rep)
{
    for (int i = 0; i < c->t->nvms; i++)
        if (c->t->vms[i].rep == rep && c->t->vms[i].drive == pd)
            tel_vm_unload(c->t, &c->t->vms[i]);
}

/* The first repetition in which a VM of plan drive pd has a series of
 * either disk (the one whose series the summary keeps), or 0. */
static int first_rep(fill_ctx *c, int pd)
{
    double t0;
    for (int r = 1; r <= c->reps; r++)
        if (rep_disks(c, pd, r, ORCH_DISK_DB, &t0, 0) > 0
            || rep_disks(c, pd, r, ORCH_DISK_BOOT, &t0, 0) > 0)
            return r;
    return 0;
}

/* The `role` disks of plan drive pd over every repetition into *out: the
 * series of repetition `first` and the phase totals of all repetitions
 * pooled (orch_io_drive_pool, also into *pool: rates the mean over
 * repetitions, latencies every request once); *nrep: the repetitions
 * with such disks. Their flushes are added to *guest_fl, and *guest_has
 * set when counted (guest_has NULL: they count but do not make the count
 * present). *out NULL when repetition `first` has none. 0, or -1 when out
 * of memory. */
static int drive_disks(fill_ctx *c, int pd, orch_disk_role role, int first,
                       res_io_rates **out, orch_io_sum *pool, int *nrep,
                       unsigned long long *guest_fl, int *guest_has)
{
    *out = NULL;
    *nrep = 0;
    for (int r = 1; r <= c->reps; r++) {
        double t0 = 0;
        int n = rep_disks(c, pd, r, role, &t0, 1);
        orch_io_sum *tot = &c->tots[*nrep];
        res_io_rates *rr = NULL;
        if (n > 0)
            rr = rates_of(c->ivm, n, t0, c->interval_s, r == first ? c->nint : 0, tot);
        unload_rep(c, pd, r);
        if (n < 0 || (n > 0 && !rr))
            return -1;
        if (n == 0)
            continue;
        if (ORCH_BLK_HAS(tot->have, ORCH_BLK_FL_REQS)) {
            *guest_fl += tot->d[ORCH_BLK_FL_REQS];
            if (guest_has)
                *guest_has = 1;
        }
        (*nrep)++;
        if (r == first)
            *out = rr;
        else
            res_io_rates_free(rr);
    }
    orch_io_drive_pool(c->tots, *nrep, pool);
    if (*out)
        sum_row(pool, &(*out)->total);          /* total.t stays the first's */
    return 0;
}

/* The hypervisor view of plan drive pd into io->db and io->boot (the
 * database disks with the VMs per repetition and the intervals missing),
 * and the guests' flushes for the host view's ratio. 0, or -1. */
static int drive_hv(fill_ctx *c, int pd, res_io *io, unsigned long long *guest_fl,
                    int *guest_has)
{
    int first = first_rep(c, pd), nrep;
    orch_io_sum pool;
    if (first == 0)
        return 0;
    if (drive_disks(c, pd, ORCH_DISK_DB, first, &io->db, &pool, &nrep, guest_fl,
                    guest_has) < 0)
        return -1;
    if (io->db) {
        io->db->vms = nrep ? pool.vms / nrep : 0;
        io->db->missing = pool.missing;
    }
    /* boot overlays live on the drive too: their flushes reach it */
    return drive_disks(c, pd, ORCH_DISK_BOOT, first, &io->boot, &pool, &nrep, guest_fl,
                       NULL);
}

/* The drive's latency spectrum from its merged histograms (µs -> ms) and
 * its p-latency over time (rep 1): per time bin, the percentile of its
 * VMs' merged interval histograms, where every VM has one. */
static void drive_latency(const fill_ctx *c, const tel_drive_acc *a, res_io *io)
{
    const double *pcts;
    int npcts = res_io_spectrum_pcts(&pcts);
    if (a->h && (io->spectrum = calloc((size_t)npcts, sizeof *io->spectrum)))
        for (int k = 0; k < npcts; k++)
            io->spectrum[io->nspectrum++] =
                (res_pct){ pcts[k], (double)hist_percentile(a->h, pcts[k]) / 1000.0 };
    if (c->nint > 0 && isfinite(a->p_pct)
        && (io->p_series = calloc((size_t)c->nint, sizeof *io->p_series))) {
        io->p_pct = a->p_pct;
        for (int k = 0; k < c->nint; k++)
            if (a->pn[k] > 0 && a->pn[k] == a->nvm[0] && isfinite(a->p[k]))
                io->p_series[io->np++] = (res_point){ (k + 1) * c->interval_s, a->p[k] };
    }
}

/* Steady state: the trend of the repetition whose TPS drifts most. 0, or
 * -1 when out of memory. */
static int drive_steady(const fill_ctx *c, const tel_drive_acc *a, res_io *io)
{
    double *x;
    if (c->nint < 3)
        return 0;
    if (!(x = calloc((size_t)c->nint, sizeof *x)))
        return -1;
    for (int k = 0; k < c->nint; k++)
        x[k] = (k + 1) * c->interval_s;
    for (int r = 0; r < c->reps; r++) {
        orch_trend tr;
        int n = 0;              /* the bins every VM has, from the start */
        while (n < c->nint && isfinite(a->tps[r * c->nint + n]))
            n++;
        if (n >= 3 && orch_stats_trend(x, a->tps + r * c->nint, n, 0, &tr) == 0
            && (io->steady.n == 0 || fabs(tr.drift_pct) > fabs(io->steady.drift_pct)))
            io->steady = (res_io_trend){ tr.n, tr.mean, tr.slope, tr.slope_lo, tr.slope_hi,
                                         tr.drift_pct, tr.trending };
    }
    free(x);
    return 0;
}

/* The per-drive section of summary drive d. 0, or -1 when out of memory. */
static int fill_drive(fill_ctx *c, int d)
{
    const orch_plan *p = c->t->p;
    res_drive *dr = &c->sum->drives[d];
    unsigned long long guest_fl = 0;
    int pd = -1, guest_has = 0, first;

    for (int k = 0; k < p->ndrives; k++)
        if (strcmp(p->drives[k].name, dr->name) == 0)
            pd = k;
    if (!dr->io && !(dr->io = res_io_new()))
        return -1;
    if (drive_hv(c, pd, dr->io, &guest_fl, &guest_has) < 0)
        return -1;
    if (pd >= 0 && c->t->drives[pd].seen
        && !(dr->io->host = tel_host_view(c->t, pd, c->interval_s, c->nint, guest_fl,
                                          guest_has)))
        return -1;
    if (tel_views_fill_drive(c->t, c->sum, pd, dr->io, c->interval_s, c->nint) < 0)
        return -1;
    drive_latency(c, &c->acc[d], dr->io);
    first = pd >= 0 ? first_rep(c, pd) : 0;
    if (tel_txn_drive(dr, c->nint > 0 && first > 0 ? c->acc[d].tps + (first - 1) * c->nint
                                                   : NULL, c->nint, c->interval_s) < 0
        || tel_tail_drive(dr) < 0)
        return -1;
    return drive_steady(c, &c->acc[d], dr->io);
}

int orch_telemetry_fill(orch_telemetry *t, res_summary *sum, const char *run_dir)
{
    /* without samples: the plan's repetitions and oltp's interval as the
     * summary recorded them (the run's, when its VMs have none) */
    int64_t reps = t ? t->p->repetitions : sum->plan.repetitions;
    fill_ctx c = { .t = t, .out = t ? t->out : stderr, .sum = sum, .run_dir = run_dir,
                   .reps = reps > 0 ? (int)reps : 1,
                   .interval_s = t ? t->seams.interval_ms / 1000.0 : ORCH_REPORT_INTERVAL_S };
    int oom = 0;

    c.acc = calloc((size_t)sum->ndrives + 1, sizeof *c.acc);
    c.ivm = calloc((size_t)(t ? t->nvms : 0) + 1, sizeof *c.ivm);
    c.tots = calloc((size_t)c.reps, sizeof *c.tots);
    if (!c.acc || !c.ivm || !c.tots) {
        oom = 1;
        goto cleanup;
    }
    if (t)
        health_after(t);
    series_shape(&c);
    if (t)
        t->fill_interval_s = c.interval_s;
    if (acc_init(&c) < 0) {
        oom = 1;
        goto cleanup;
    }
    /* drive by drive: a drive's histograms per time bin (hundreds of
     * buckets each, bins x repetitions of them) are merged, read and
     * freed before the next drive's are made; each drive still sees its
     * VMs in the summary's order */
    for (int d = 0; d < sum->ndrives && !oom; d++) {
        for (int i = 0; i < sum->nvms && !oom; i++)
            if (drive_index(sum, sum->vms[i].drive) == d)
                oom = fill_vm(&c, &sum->vms[i]) < 0;
        if (!oom)
            acc_finish(&c, &c.acc[d]);
    }
    for (int d = 0; t && d < sum->ndrives && !oom; d++)
        oom = fill_drive(&c, d) < 0;
    if (oom || (!sum->io && !(sum->io = res_io_new()))) {
        oom = 1;
        goto cleanup;
    }
    oom = tel_compare_drives(sum, c.acc, c.reps, c.nint, sum->io) < 0;
    if (t)
        tel_cpu_fill(t, &sum->env, sum->io);
    if (t && !oom)
        oom = tel_bound_fill(t, sum) < 0;
cleanup:
    for (int d = 0; c.acc && d < sum->ndrives; d++) {
        free(c.acc[d].tps);
        free(c.acc[d].p);
        free(c.acc[d].pn);
        free(c.acc[d].tn);
        free(c.acc[d].nvm);
        for (size_t i = 0; c.acc[d].ph && i < (size_t)c.reps * (size_t)c.nint; i++)
            hist_sparse_free(c.acc[d].ph[i]);
        free(c.acc[d].ph);
        hist_free(c.acc[d].h);
    }
    free(c.acc);
    free(c.ivm);
    free(c.tots);
    if (oom)
        fprintf(c.out, "drivebench: out of memory while adding drive I/O to the summary\n");
    return oom ? -1 : 0;
}
