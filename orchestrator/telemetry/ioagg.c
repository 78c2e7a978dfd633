/* ioagg.c — a drive's I/O summed over its VMs (see ioagg.h). */
#include "telemetry/ioagg.h"

#include <math.h>
#include <string.h>

int orch_io_match(const orch_blk_delta *d, int n, double t, double tol)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (fabs(d[i].t - t) <= tol && (best < 0 || fabs(d[i].t - t) < fabs(d[best].t - t)))
            best = i;
    return best;
}

int orch_io_match_host(const orch_diskstat_delta *d, int n, double t, double tol)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (fabs(d[i].t - t) <= tol && (best < 0 || fabs(d[i].t - t) < fabs(d[best].t - t)))
            best = i;
    return best;
}

/* A latency from summed increments: Σtimes / Σreqs in ms, or NAN. */
static double lat_ms(const orch_io_sum *s, orch_blk_field times, orch_blk_field reqs)
{
    return ORCH_BLK_HAS(s->have, times) && ORCH_BLK_HAS(s->have, reqs) && s->d[reqs] > 0
        ? (double)s->d[times] / (double)s->d[reqs] / 1e6 : NAN;
}

/* Rates summed over the VMs stay; absent ones become NAN; latencies are
 * computed from the sums. */
static void finish(orch_io_sum *s)
{
    if (s->vms == 0)
        s->have = 0;
    if (!ORCH_BLK_HAS(s->have, ORCH_BLK_RD_REQS))
        s->rd_iops = NAN;
    if (!ORCH_BLK_HAS(s->have, ORCH_BLK_RD_BYTES))
        s->rd_mbps = NAN;
    if (!ORCH_BLK_HAS(s->have, ORCH_BLK_WR_REQS))
        s->wr_iops = NAN;
    if (!ORCH_BLK_HAS(s->have, ORCH_BLK_WR_BYTES))
        s->wr_mbps = NAN;
    if (!ORCH_BLK_HAS(s->have, ORCH_BLK_FL_REQS))
        s->fl_iops = NAN;
    s->rd_lat_ms = lat_ms(s, ORCH_BLK_RD_TIMES, ORCH_BLK_RD_REQS);
    s->wr_lat_ms = lat_ms(s, ORCH_BLK_WR_TIMES, ORCH_BLK_WR_REQS);
    s->fl_lat_ms = lat_ms(s, ORCH_BLK_FL_TIMES, ORCH_BLK_FL_REQS);
}

static void start(orch_io_sum *s)
{
    memset(s, 0, sizeof *s);
    s->have = (1u << ORCH_BLK_NFIELDS) - 1;
}

/* Add a per-VM interval: increments and the VM's own rates. */
static void add(orch_io_sum *s, const unsigned long long *d, unsigned have, double dt)
{
    s->vms++;
    s->have &= have;
    for (int f = 0; f < ORCH_BLK_NFIELDS; f++)
        s->d[f] += d[f];
    s->rd_iops += d[ORCH_BLK_RD_REQS] / dt;
    s->rd_mbps += d[ORCH_BLK_RD_BYTES] / 1e6 / dt;
    s->wr_iops += d[ORCH_BLK_WR_REQS] / dt;
    s->wr_mbps += d[ORCH_BLK_WR_BYTES] / 1e6 / dt;
    s->fl_iops += d[ORCH_BLK_FL_REQS] / dt;
}

void orch_io_drive_series(const orch_io_vm *vms, int nvms, double t0, double interval_s,
                          int nint, double tol, orch_io_sum *out)
{
    if (tol <= 0)
        tol = interval_s / 2;
    for (int i = 0; i < nint; i++) {
        orch_io_sum *s = &out[i];
        double t = (i + 1) * interval_s;
        start(s);
        for (int v = 0; v < nvms; v++) {
            int k = orch_io_match(vms[v].d, vms[v].n, t0 + t, tol);
            const orch_blk_delta *d = k >= 0 ? &vms[v].d[k] : NULL;
            if (!d || d->reset || !(d->dt > 0))
                s->missing++;
            else
                add(s, d->d, d->have, d->dt);
        }
        s->t = t;
        finish(s);
    }
}

void orch_io_drive_total(const orch_io_vm *vms, int nvms, orch_io_sum *out)
{
    start(out);
    for (int v = 0; v < nvms; v++) {
        unsigned long long d[ORCH_BLK_NFIELDS] = { 0 };
        unsigned have = (1u << ORCH_BLK_NFIELDS) - 1;
        double dt = 0;
        for (int i = 0; i < vms[v].n; i++) {
            const orch_blk_delta *x = &vms[v].d[i];
            if (x->reset || !(x->dt > 0))
                continue;
            have &= x->have;
            dt += x->dt;
            for (int f = 0; f < ORCH_BLK_NFIELDS; f++)
                d[f] += x->d[f];
        }
        if (dt > 0) {
            add(out, d, have, dt);
            if (dt > out->t)
                out->t = dt;
        } else {
            out->missing++;
        }
    }
    finish(out);
}

void orch_io_drive_pool(const orch_io_sum *reps, int n, orch_io_sum *out)
{
    int used = 0;
    start(out);
    for (int r = 0; r < n; r++) {
        const orch_io_sum *x = &reps[r];
        out->missing += x->missing;
        if (x->vms == 0)
            continue;
        used++;
        out->vms += x->vms;
        out->t += x->t;
        out->have &= x->have;
        for (int f = 0; f < ORCH_BLK_NFIELDS; f++)
            out->d[f] += x->d[f];
        out->rd_iops += x->rd_iops;
        out->rd_mbps += x->rd_mbps;
        out->wr_iops += x->wr_iops;
        out->wr_mbps += x->wr_mbps;
        out->fl_iops += x->fl_iops;
    }
    if (used > 0) {
        out->rd_iops /= used;
        out->rd_mbps /= used;
        out->wr_iops /= used;
        out->wr_mbps /= used;
        out->fl_iops /= used;
    }
    finish(out);
}

double orch_io_flush_ratio(unsigned long long guest_fl_reqs, int guest_has,
                           unsigned long long device_flushes, int device_has)
{
    if (!guest_has || !device_has || guest_fl_reqs == 0)
        return NAN;
    return (double)device_flushes / (double)guest_fl_reqs;
}
