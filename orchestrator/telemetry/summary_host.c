/* summary_host.c — the host's view of a drive in the summary
 * (telemetry_state.h): its device, identity and health before and after,
 * its /sys/block figures over the measured phases, and the device's
 * flushes per guest flush. */
#include "telemetry/telemetry_state.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/ioagg.h"

/* Average request size, KiB, of mb megabytes (10^6 bytes) moved by ios
 * reads and writes; NAN without any. */
static double rq_kib(double mb, double ios)
{
    return ios > 0 ? mb * 1e6 / 1024.0 / ios : NAN;
}

/* The host's phase figures from its intervals: counts over time, waits
 * weighted by the I/Os they average over, queue and utilisation by time. */
void tel_diskstat_total(const orch_diskstat_delta *d, int n, res_io_row *r)
{
    double dt = 0, rd = 0, wr = 0, dc = 0, fl = 0, rdw = 0, wrw = 0, dcw = 0, flw = 0;
    double rdm = 0, wrm = 0, dcm = 0, qd = 0, ut = 0, all = 0, allw = 0;
    int has_dc = 0, has_fl = 0;
    for (int i = 0; i < n; i++) {
        const orch_diskstat_delta *x = &d[i];
        if (x->reset)
            continue;
        dt += x->dt;
        rd += x->rd_ios;
        wr += x->wr_ios;
        rdm += x->rd_mbps * x->dt;
        wrm += x->wr_mbps * x->dt;
        if (isfinite(x->rd_await_ms))
            rdw += x->rd_await_ms * x->rd_ios;
        if (isfinite(x->wr_await_ms))
            wrw += x->wr_await_ms * x->wr_ios;
        if (isfinite(x->dc_iops)) {
            has_dc = 1;
            dc += x->dc_ios;
            dcm += x->dc_mbps * x->dt;
            if (isfinite(x->dc_await_ms))
                dcw += x->dc_await_ms * x->dc_ios;
        }
        if (isfinite(x->fl_iops)) {
            has_fl = 1;
            fl += x->fl_ios;
            if (isfinite(x->fl_await_ms))
                flw += x->fl_await_ms * x->fl_ios;
        }
        if (isfinite(x->await_ms)) {
            unsigned long long ios = x->rd_ios + x->wr_ios + x->dc_ios + x->fl_ios;
            all += ios;
            allw += x->await_ms * ios;
        }
        if (isfinite(x->queue_depth))
            qd += x->queue_depth * x->dt;
        if (isfinite(x->util_pct))
            ut += x->util_pct * x->dt;
    }
    r->t = dt > 0 ? dt : NAN;
    if (dt <= 0)
        return;
    r->v[RES_IOH_rd_iops] = rd / dt;
    r->v[RES_IOH_wr_iops] = wr / dt;
    r->v[RES_IOH_rd_mbps] = rdm / dt;
    r->v[RES_IOH_wr_mbps] = wrm / dt;
    r->v[RES_IOH_rd_await_ms] = rd > 0 ? rdw / rd : NAN;
    r->v[RES_IOH_wr_await_ms] = wr > 0 ? wrw / wr : NAN;
    if (has_dc) {
        r->v[RES_IOH_dc_iops] = dc / dt;
        r->v[RES_IOH_dc_mbps] = dcm / dt;
        r->v[RES_IOH_dc_await_ms] = dc > 0 ? dcw / dc : NAN;
    }
    if (has_fl) {
        r->v[RES_IOH_fl_iops] = fl / dt;
        r->v[RES_IOH_fl_await_ms] = fl > 0 ? flw / fl : NAN;
    }
    r->v[RES_IOH_await_ms] = all > 0 ? allw / all : NAN;
    r->v[RES_IOH_queue_depth] = qd / dt;
    r->v[RES_IOH_util_pct] = ut / dt;
    r->v[RES_IOH_rq_kib] = rq_kib(rdm + wrm, rd + wr);
}

void tel_diskstat_row(const orch_diskstat_delta *x, res_io_row *r)
{
    if (x->reset)
        return;
    r->v[RES_IOH_rd_iops] = x->rd_iops;
    r->v[RES_IOH_rd_mbps] = x->rd_mbps;
    r->v[RES_IOH_rd_await_ms] = x->rd_await_ms;
    r->v[RES_IOH_wr_iops] = x->wr_iops;
    r->v[RES_IOH_wr_mbps] = x->wr_mbps;
    r->v[RES_IOH_wr_await_ms] = x->wr_await_ms;
    r->v[RES_IOH_dc_iops] = x->dc_iops;
    r->v[RES_IOH_dc_mbps] = x->dc_mbps;
    r->v[RES_IOH_dc_await_ms] = x->dc_await_ms;
    r->v[RES_IOH_fl_iops] = x->fl_iops;
    r->v[RES_IOH_fl_await_ms] = x->fl_await_ms;
    r->v[RES_IOH_await_ms] = x->await_ms;
    r->v[RES_IOH_queue_depth] = x->queue_depth;
    r->v[RES_IOH_util_pct] = x->util_pct;
    r->v[RES_IOH_rq_kib] = rq_kib((x->rd_mbps + x->wr_mbps) * x->dt,
                                  (double)(x->rd_ios + x->wr_ios));
}

static res_io_health *health_of(const orch_drive_health *h)
{
    res_io_health *r = res_io_health_new();
    if (!r)
        return NULL;
    r->source = orch_strdup_opt(h->source, NULL);
    r->temp_c = h->temp_c;
    r->wear_pct = h->wear_pct;
    r->wear_from = orch_strdup_opt(h->wear_from, NULL);
    r->note = orch_strdup_opt(h->note, NULL);
    return r;
}

/* Device, identity and health of drive dr into h. */
static void host_identity(const tel_drive *dr, res_io_host *h)
{
    h->note = orch_strdup_opt(dr->note[0] ? dr->note : dr->dev.note, NULL);
    if (dr->have_dev) {
        h->kind = strdup(orch_dev_kind_name(dr->dev.kind));
        h->node = orch_strdup_opt(dr->dev.node, NULL);
        h->disk = orch_strdup_opt(dr->dev.disk, NULL);
        h->dm_name = orch_strdup_opt(dr->dev.dm_name, NULL);
        if (dr->dev.nslaves > 0 && (h->slaves = calloc((size_t)dr->dev.nslaves,
                                                       sizeof *h->slaves)))
            for (int i = 0; i < dr->dev.nslaves; i++)
                h->slaves[h->nslaves++] = strdup(dr->dev.slaves[i]);
    }
    if (dr->have_id) {
        const orch_drive_id *id = &dr->id;
        h->model = orch_strdup_opt(id->model[0] ? id->model : dr->before.model, NULL);
        h->vendor = orch_strdup_opt(id->vendor, NULL);
        h->serial = orch_strdup_opt(id->serial[0] ? id->serial : dr->before.serial, NULL);
        h->firmware = orch_strdup_opt(id->firmware[0] ? id->firmware : dr->before.firmware, NULL);
        h->size_bytes = id->size_bytes ? (int64_t)id->size_bytes : RES_UNSET;
        h->rotational = id->rotational;
        h->scheduler = orch_strdup_opt(id->scheduler, NULL);
        h->write_cache = orch_strdup_opt(id->write_cache, NULL);
        h->fs_type = orch_strdup_opt(id->fs_type, NULL);
        h->fs_size_bytes = id->fs_size_bytes ? (int64_t)id->fs_size_bytes : RES_UNSET;
        h->fs_avail_bytes = id->fs_size_bytes ? (int64_t)id->fs_avail_bytes : RES_UNSET;
        h->fs_used_pct = id->fs_used_pct;
    }
    if (dr->have_before)
        h->health_before = health_of(&dr->before);
    if (dr->have_after)
        h->health_after = health_of(&dr->after);
}

int tel_diskstat_rates(orch_diskstat_delta *const *series, const int *n, const double *t0,
                       int reps, double interval_s, int nint, res_io_rates **out,
                       unsigned long long *flushes, int *has_fl)
{
    int nrep = 0, first = -1;
    res_io_row sum;
    int nsum[RES_IO_MAXK] = { 0 };
    *out = NULL;
    for (int r = 0; r < reps; r++)
        if (n[r] > 0) {
            nrep++;
            if (first < 0)
                first = r;
        }
    if (nrep == 0)
        return 0;
    if (!(*out = res_io_rates_new(true, nint)))
        return -1;
    memset(&sum, 0, sizeof sum);
    for (int r = 0; r < reps; r++) {
        res_io_row one;
        if (n[r] <= 0)
            continue;
        for (int k = 0; k < RES_IO_MAXK; k++)
            one.v[k] = NAN;
        tel_diskstat_total(series[r], n[r], &one);
        for (int k = 0; k < RES_IOH_N; k++)
            if (isfinite(one.v[k])) {
                sum.v[k] += one.v[k];
                nsum[k]++;
            }
        sum.t += isfinite(one.t) ? one.t : 0;
        for (int i = 0; i < n[r]; i++)
            if (!series[r][i].reset && isfinite(series[r][i].fl_iops)) {
                *flushes += series[r][i].fl_ios;
                *has_fl = 1;
            }
    }
    for (int k = 0; k < RES_IOH_N; k++)
        (*out)->total.v[k] = nsum[k] ? sum.v[k] / nsum[k] : NAN;
    (*out)->total.t = sum.t;
    for (int i = 0; i < nint; i++) {
        int j = orch_io_match_host(series[first], n[first], t0[first] + (i + 1) * interval_s,
                                   interval_s / 2);
        (*out)->series[i].t = (i + 1) * interval_s;
        if (j >= 0)
            tel_diskstat_row(&series[first][j], &(*out)->series[i]);
    }
    return 0;
}

/* The host figures of drive dr over reps repetitions into h->rates: the
 * phase figures the mean over the repetitions sampled, the series that
 * of the first; and the flush ratio against the guests' guest_fl. */
static void host_rates(const tel_drive *dr, int reps, double interval_s, int nint,
                       unsigned long long guest_fl, int guest_has, res_io_host *h)
{
    unsigned long long dev_fl = 0;
    int dev_has = 0;
    if (tel_diskstat_rates(dr->host, dr->nhost, dr->host_t0, reps, interval_s, nint, &h->rates,
                           &dev_fl, &dev_has) < 0 || !h->rates)
        return;
    h->flush_ratio = orch_io_flush_ratio(guest_fl, guest_has, dev_fl, dev_has);
}

res_io_host *tel_host_view(const orch_telemetry *t, int d, double interval_s, int nint,
                           unsigned long long guest_fl, int guest_has)
{
    const tel_drive *dr = &t->drives[d];
    res_io_host *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->rotational = -1;
    h->size_bytes = h->fs_size_bytes = h->fs_avail_bytes = RES_UNSET;
    h->fs_used_pct = NAN;
    h->flush_ratio = NAN;
    host_identity(dr, h);
    host_rates(dr, t->p->repetitions, interval_s, nint, guest_fl, guest_has, h);
    return h;
}
