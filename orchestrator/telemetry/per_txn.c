/* per_txn.c — what the I/O cost per committed transaction, per VM and
 * per drive, over the measured phases and per interval, and the
 * transactions' tail against the device's latency per interval
 * (telemetry_state.h; results/SCHEMA.md, "Per transaction" and "Tails"). */
#include "telemetry/telemetry_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define KIB_PER_MB (1e6 / 1024.0)

/* x per second over tps transactions per second: per transaction. */
static double per(double x, double tps)
{
    return isfinite(x) && isfinite(tps) && tps > 0 ? x / tps : NAN;
}

static void row_nan(res_io_txn_row *r)
{
    r->t = r->tps = NAN;
    for (int k = 0; k < RES_IOT_N; k++)
        r->v[k] = NAN;
}

/* One row from the rates at one interval or the phase: hv the database
 * disks (hypervisor keys), boot the boot disks, dev the device (host
 * keys); any may be NULL. */
static void txn_row(double tps, const res_io_row *hv, const res_io_row *boot,
                    const res_io_row *dev, res_io_txn_row *r)
{
    r->tps = tps;
    if (hv) {
        r->v[RES_IOT_rd_kib] = per(hv->v[RES_IOV_rd_mbps] * KIB_PER_MB, tps);
        r->v[RES_IOT_wr_kib] = per(hv->v[RES_IOV_wr_mbps] * KIB_PER_MB, tps);
        r->v[RES_IOT_flushes] = per(hv->v[RES_IOV_fl_iops], tps);
    }
    if (dev) {
        double guests = hv ? hv->v[RES_IOV_wr_mbps] : NAN;
        if (boot && isfinite(boot->v[RES_IOV_wr_mbps]))
            guests += boot->v[RES_IOV_wr_mbps];
        r->v[RES_IOT_dev_rd_kib] = per(dev->v[RES_IOH_rd_mbps] * KIB_PER_MB, tps);
        r->v[RES_IOT_dev_wr_kib] = per(dev->v[RES_IOH_wr_mbps] * KIB_PER_MB, tps);
        r->v[RES_IOT_dev_flushes] = per(dev->v[RES_IOH_fl_iops], tps);
        r->v[RES_IOT_dev_busy_ms] = per(dev->v[RES_IOH_util_pct] * 10.0, tps);
        r->v[RES_IOT_write_amp] = isfinite(guests) && guests > 0
                                  && isfinite(dev->v[RES_IOH_wr_mbps])
                                  ? dev->v[RES_IOH_wr_mbps] / guests : NAN;
    }
}

/* The per-New-Order row of a phase row: each figure times txns/no. */
static void per_no(const res_io_txn *x, res_io_txn_row *out)
{
    double f;
    row_nan(out);
    if (x->new_orders == RES_UNSET || x->new_orders <= 0 || x->txns <= 0)
        return;
    f = (double)x->txns / (double)x->new_orders;
    out->tps = x->phase.tps / f;
    for (int k = 0; k < RES_IOT_N; k++)
        out->v[k] = k == RES_IOT_write_amp ? x->phase.v[k] : x->phase.v[k] * f;
}

/* x's nseries rows, NAN. 0, or -1 when out of memory. */
static int series_new(res_io_txn *x, int nseries)
{
    if (nseries > 0 && !(x->series = calloc((size_t)nseries, sizeof *x->series)))
        return -1;
    x->nseries = nseries;
    for (int i = 0; i < nseries; i++)
        row_nan(&x->series[i]);
    return 0;
}

static res_io_txn *txn_new(int nseries)
{
    res_io_txn *x = calloc(1, sizeof *x);
    if (!x || series_new(x, nseries) < 0) {
        free(x);
        return NULL;
    }
    x->new_orders = RES_UNSET;
    row_nan(&x->phase);
    row_nan(&x->per_new_order);
    return x;
}

/* New-Orders committed in a TPC-C measured phase; RES_UNSET otherwise. */
static int64_t new_orders_of(const res_phase *m)
{
    for (int i = 0; m && i < m->ntypes; i++)
        if (m->types[i].name && strcmp(m->types[i].name, "New-Order") == 0)
            return m->types[i].count - m->types[i].rollbacks;
    return RES_UNSET;
}

/* x's rows (NAN, as txn_new makes them) from VM v's database-disk
 * series db and its TPS series. */
static void txn_vm_rows(const res_vm *v, const res_io_rates *db, res_io_txn *x)
{
    for (int i = 0; i < db->nseries; i++) {
        x->series[i].t = db->series[i].t;
        if (i < v->npoints)
            txn_row(v->series[i].tps, &db->series[i], NULL, NULL, &x->series[i]);
    }
}

int tel_txn_vm(res_vm *v, const res_phase *m)
{
    const res_io_rates *db = v->io->db;
    res_io_txn *x;
    if (!db || v->tps <= 0)
        return 0;
    if (!(x = v->io->txn = txn_new(db->nseries)))
        return -1;
    x->txns = v->transactions;
    x->new_orders = new_orders_of(m);
    txn_row(v->tps, &db->total, NULL, NULL, &x->phase);
    txn_vm_rows(v, db, x);
    per_no(x, &x->per_new_order);
    return 0;
}

void tel_txn_vm_drop(res_vm *v)
{
    res_io_txn *x = v->io ? v->io->txn : NULL;
    if (x) {
        free(x->series);
        x->series = NULL;
        x->nseries = 0;
    }
}

int tel_txn_vm_series(res_vm *v)
{
    res_io_txn *x = v->io ? v->io->txn : NULL;
    const res_io_rates *db = v->io ? v->io->db : NULL;
    if (!x || !db || x->series || db->nseries <= 0)
        return 0;
    if (series_new(x, db->nseries) < 0)
        return -1;
    txn_vm_rows(v, db, x);
    return 0;
}

/* The committed New-Orders of a drive (all repetitions), from its
 * merged TPC-C figures. */
static int64_t drive_new_orders(const res_drive *dr)
{
    const res_tpcc_figures *tp = dr->f.tpcc;
    for (int i = 0; tp && i < tp->ntypes; i++)
        if (tp->types[i].name && strcmp(tp->types[i].name, "New-Order") == 0)
            return tp->types[i].count - tp->types[i].rollbacks;
    return RES_UNSET;
}

int tel_txn_drive(res_drive *dr, const double *tps, int nint, double interval_s)
{
    res_io *io = dr->io;
    const res_io_rates *dev = io->host ? io->host->rates : NULL;
    res_io_txn *x;
    if (!io->db || dr->f.tps <= 0)
        return 0;
    if (!(x = io->txn = txn_new(nint)))
        return -1;
    x->txns = dr->f.transactions;
    x->new_orders = drive_new_orders(dr);
    txn_row(dr->f.tps, &io->db->total, io->boot ? &io->boot->total : NULL,
            dev ? &dev->total : NULL, &x->phase);
    for (int i = 0; i < nint; i++) {
        x->series[i].t = (i + 1) * interval_s;
        txn_row(tps ? tps[i] : NAN, i < io->db->nseries ? &io->db->series[i] : NULL,
                io->boot && i < io->boot->nseries ? &io->boot->series[i] : NULL,
                dev && i < dev->nseries ? &dev->series[i] : NULL, &x->series[i]);
    }
    per_no(x, &x->per_new_order);
    return 0;
}

/* Index of the point of pts[0..n) at time t (within half an interval
 * dt), or -1. */
static int devlat_at(const res_devlat_point *pts, int n, double t, double dt)
{
    for (int i = 0; i < n; i++)
        if (fabs(pts[i].t - t) <= dt / 2)
            return i;
    return -1;
}

static int rates_at(const res_io_rates *r, double t, double dt)
{
    for (int i = 0; r && i < r->nseries; i++)
        if (fabs(r->series[i].t - t) <= dt / 2)
            return i;
    return -1;
}

int tel_tail_drive(res_drive *dr)
{
    res_io *io = dr->io;
    const res_io_rates *dev = io->host ? io->host->rates : NULL;
    const res_io_devlat *dl = io->devlat && io->devlat->nseries > 0 ? io->devlat : NULL;
    res_io_tail *tl;
    double *a, *b, dt;
    if (io->np <= 0 || (!dl && !dev))
        return 0;
    dt = io->np > 1 ? io->p_series[1].t - io->p_series[0].t : io->p_series[0].t;
    if (!(tl = io->tail = calloc(1, sizeof *tl))
        || !(tl->series = calloc((size_t)io->np, sizeof *tl->series))
        || !(tl->dev_figure = strdup(dl ? "p99" : "await_ms")))
        return -1;
    tl->txn_pct = io->p_pct;
    tl->r = NAN;
    a = calloc((size_t)io->np, sizeof *a);
    b = calloc((size_t)io->np, sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (int i = 0; i < io->np; i++) {
        res_tail_point *p = &tl->series[tl->nseries++];
        double t = io->p_series[i].t;
        int j = dl ? devlat_at(dl->series, dl->nseries, t, dt) : -1, h = rates_at(dev, t, dt);
        p->t = t;
        p->txn_ms = io->p_series[i].tps;
        p->dev_ms = dl ? (j >= 0 ? dl->series[j].p99_ms : NAN)
                       : (h >= 0 ? dev->series[h].v[RES_IOH_await_ms] : NAN);
        p->queue_depth = h >= 0 ? dev->series[h].v[RES_IOH_queue_depth] : NAN;
        if (isfinite(p->txn_ms) && isfinite(p->dev_ms)) {
            a[tl->n] = p->txn_ms;
            b[tl->n++] = p->dev_ms;
        }
    }
    tl->r = orch_stats_pearson(a, b, tl->n);
    free(a);
    free(b);
    return 0;
}
