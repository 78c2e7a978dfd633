/* views.c — the guests' view of their database disks (guest_view.h) and
 * the device's request latencies (devlat.h) in the run's telemetry: set
 * up with the drives and VMs, on and off with the phases, and into the
 * summary (telemetry_state.h). */
#include "telemetry/telemetry_state.h"
#include "attributes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/ioagg.h"
#include "util/util.h"

void tel_views_new(orch_telemetry *t)
{
    if (t->p->guest_agent && t->p->guest_os == ORCH_OS_LINUX)
        t->guest = tel_guest_new(t->seams.agent, t->seams.agent_ctx, t->seams.interval_ms,
                                 t->seams.no_timer, t->out);
}

void tel_views_clear(orch_telemetry *t)
{
    tel_guest_free(t->guest);
    t->guest = NULL;
    for (int d = 0; t->drives && d < t->p->ndrives; d++) {
        tel_drive *dr = &t->drives[d];
        tel_devlat_free(dr->devlat);
        dr->devlat = NULL;
        for (int c = 0; c < RES_DEVLAT_N; c++)
            hist_free(dr->dl_h[c]);
        free(dr->dl_series);
    }
}

/* Why drive dr cannot be traced, in note; the line on the run's output
 * (an error with device_latency = on). */
static void devlat_refused(orch_telemetry *t, tel_drive *dr, const char *name, const char *why)
{
    char *mode = orch_plan_choice("run", "device_latency", (int)t->p->device_latency);
    snprintf(dr->devlat_note, sizeof dr->devlat_note, "device latency not traced: %s", why);
    fprintf(t->out, "drivebench: %s%s: %s ([run] device_latency = %s); the run goes on\n",
            t->p->device_latency == ORCH_DEVLAT_ON ? "error: " : "", name, dr->devlat_note,
            mode ? mode : "?");
    free(mode);
}

void tel_views_drive(orch_telemetry *t, int d)
{
    tel_drive *dr = &t->drives[d];
    const char *name = t->p->drives[d].name, *disks[ORCH_DRIVE_MAX_SLAVES];
    char err[DB_ERR_LEN] = "", *mode;
    int n = 0;
    size_t len = 0;

    if (t->p->device_latency == ORCH_DEVLAT_OFF)
        return;
    if (!dr->local) {
        devlat_refused(t, dr, name, "the drive is on another host");
        return;
    }
    if (!dr->have_dev || dr->dev.kind == ORCH_DEV_NONE) {
        devlat_refused(t, dr, name, "no block device under the drive");
        return;
    }
    if (!t->seams.tracefs && strcmp(t->seams.sysfs, "/sys") != 0) {
        devlat_refused(t, dr, name, "sysfs is not /sys (a test's tree)");
        return;
    }
    /* a dm or md device's requests are its slaves' */
    if (dr->dev.kind == ORCH_DEV_DM || dr->dev.kind == ORCH_DEV_MD)
        for (int i = 0; i < dr->dev.nslaves; i++)
            disks[n++] = dr->dev.slaves[i];
    else
        disks[n++] = dr->dev.disk;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(dr->devlat_disks + len, sizeof dr->devlat_disks - len, "%s%s",
                                i ? "," : "", disks[i]);
    if (!(dr->devlat = tel_devlat_start(t->seams.sysfs, t->seams.tracefs, disks, n, err,
                                        sizeof err))) {
        devlat_refused(t, dr, name, err);
        return;
    }
    mode = orch_plan_choice("run", "device_latency", (int)t->p->device_latency);
    fprintf(t->out, "drivebench: %s: tracing the request latencies of %s during the measured "
            "phases (tracefs; [run] device_latency = %s)\n", name, dr->devlat_disks,
            mode ? mode : "?");
    free(mode);
}

void tel_views_add_vm(orch_telemetry *t, tel_vm *v, virDomainPtr dom)
{
    if (t->guest)
        v->gidx = tel_guest_add(t->guest, dom, v->name, v->rep, NULL);
}

void tel_views_phase_start(orch_telemetry *t, res_phase_id phase, int rep, double now)
{
    if (t->guest)
        tel_guest_phase_start(t->guest, rep);
    tel_views_tick(t, now);         /* the base sample, without the thread */
    if (phase != RES_PHASE_MEASURE)
        return;
    for (int d = 0; d < t->p->ndrives; d++)
        tel_devlat_phase_start(t->drives[d].devlat, now + t->warmup_s,
                               t->seams.interval_ms / 1000.0);
}

void tel_views_tick(orch_telemetry *t, double now)
{
    if (t->guest && t->seams.no_timer)
        tel_guest_sample_at(t->guest, now);
}

/* The guest series of VM v from the sampler, without the warm-up's
 * intervals (as sampling.c does with the others). */
static void keep_guest(orch_telemetry *t, tel_vm *v, double now)
{
    double w0, w1;
    int n;
    free(v->guest);
    v->guest = NULL;
    v->nguest = 0;
    if ((n = tel_guest_series(t->guest, v->gidx, &v->guest)) <= 0)
        return;
    /* the same measured window as the hypervisor's and the host's series */
    tel_vm_window(t, v, now, &w0, &w1);
    v->nguest = tel_diskstat_in_window(v->guest, n, w0, w1);
}

void tel_views_phase_end(orch_telemetry *t, res_phase_id phase, int rep, double now)
{
    if (t->guest)
        tel_guest_phase_end(t->guest);
    if (phase != RES_PHASE_MEASURE)
        return;
    for (int i = 0; t->guest && i < t->nvms; i++)
        if (t->vms[i].rep == rep && t->vms[i].gidx >= 0)
            keep_guest(t, &t->vms[i], now);
    for (int d = 0; d < t->p->ndrives; d++) {
        tel_drive *dr = &t->drives[d];
        res_devlat_point *pts = NULL;
        int n = 0;
        if (!dr->devlat)
            continue;
        tel_devlat_phase_end(dr->devlat);
        if (tel_devlat_take(dr->devlat, dr->dl_h, &pts, &n, &dr->dl_unmatched) < 0)
            fprintf(t->out, "drivebench: out of memory: device latencies of %s lost\n",
                    t->p->drives[d].name);
        if (!dr->dl_series && n > 0) {      /* the first repetition's series */
            dr->dl_series = pts;
            dr->dl_n = n;
        } else
            free(pts);
    }
}

/* ------------------------------------------------------------------ */
/* into the summary                                                    */

int tel_views_fill_vm(const orch_telemetry *t, const tel_vm *rec, res_vm *v, double interval_s)
{
    char note[300] = "";
    if (!t->guest) {
        snprintf(note, sizeof note, "no guest view: %s",
                 t->p->guest_os != ORCH_OS_LINUX ? "not a Linux guest"
                                                 : "no guest agent ([run] guest_agent = no)");
    } else if (rec && rec->nguest > 0) {
        orch_diskstat_delta *const series[1] = { rec->guest };
        int n[1] = { rec->nguest };
        double t0[1] = { rec->t0 };
        unsigned long long fl = 0;
        int has = 0;
        return tel_diskstat_rates(series, n, t0, 1, interval_s, v->npoints, &v->io->guest, &fl,
                                  &has);
    } else if (rec && rec->gidx >= 0) {
        tel_guest_note(t->guest, rec->gidx, note, sizeof note);
        if (!note[0])
            snprintf(note, sizeof note, "no guest view: no sample of the measured phase");
    }
    if (note[0] && !(v->io->guest_note = strdup(note)))
        return -1;
    return 0;
}

/* The sum of guest intervals d[k] (one per VM) into out: counts and rates
 * added, waits weighted by the I/Os, queue depths added, utilisation the
 * mean; reset when any is. */
static void guest_sum(const orch_diskstat_delta *const *d, int n, double t,
                      orch_diskstat_delta *out)
{
    double rdw = 0, wrw = 0, dcw = 0, flw = 0, allw = 0, all = 0, ut = 0, dt = 0;
    memset(out, 0, sizeof *out);
    out->t = t;
    out->dc_iops = out->dc_mbps = out->fl_iops = 0;
    for (int k = 0; k < n; k++) {
        const orch_diskstat_delta *x = d[k];
        unsigned long long ios = x->rd_ios + x->wr_ios + x->dc_ios + x->fl_ios;
        if (x->reset) {
            out->reset = 1;
            return;
        }
        dt += x->dt;
        out->rd_ios += x->rd_ios;
        out->wr_ios += x->wr_ios;
        out->dc_ios += x->dc_ios;
        out->fl_ios += x->fl_ios;
        out->rd_iops += x->rd_iops;
        out->wr_iops += x->wr_iops;
        out->rd_mbps += x->rd_mbps;
        out->wr_mbps += x->wr_mbps;
        out->dc_iops += x->dc_iops;
        out->dc_mbps += x->dc_mbps;
        out->fl_iops += x->fl_iops;
        out->queue_depth += x->queue_depth;
        ut += x->util_pct;
        rdw += isfinite(x->rd_await_ms) ? x->rd_await_ms * (double)x->rd_ios : 0;
        wrw += isfinite(x->wr_await_ms) ? x->wr_await_ms * (double)x->wr_ios : 0;
        dcw += isfinite(x->dc_await_ms) ? x->dc_await_ms * (double)x->dc_ios : 0;
        flw += isfinite(x->fl_await_ms) ? x->fl_await_ms * (double)x->fl_ios : 0;
        if (isfinite(x->await_ms)) {
            allw += x->await_ms * (double)ios;
            all += (double)ios;
        }
    }
    out->dt = n > 0 ? dt / n : 0;
    out->util_pct = n > 0 ? ut / n : NAN;
    out->rd_await_ms = out->rd_ios ? rdw / (double)out->rd_ios : NAN;
    out->wr_await_ms = out->wr_ios ? wrw / (double)out->wr_ios : NAN;
    out->dc_await_ms = out->dc_ios ? dcw / (double)out->dc_ios : NAN;
    out->fl_await_ms = out->fl_ios ? flw / (double)out->fl_ios : NAN;
    out->await_ms = all > 0 ? allw / all : NAN;
}

/* Whether the summary counts VM `name` of repetition rep as failed. */
static int failed_vm(const res_summary *sum, int rep, const char *name)
{
    for (int k = 0; k < sum->nvms; k++)
        if (sum->vms[k].repetition == rep && strcmp(sum->vms[k].name, name) == 0)
            return sum->vms[k].failed;
    return 0;
}

/* Drive pd's guest view: per repetition the TPS intervals at which every
 * healthy VM of it has a guest interval, summed (guest_sum). */
static int drive_guest(const orch_telemetry *t, const res_summary *sum, int pd, res_io *io,
                       double interval_s, int nint)
{
    int reps = t->p->repetitions > 0 ? t->p->repetitions : 1, rc = -1;
    orch_diskstat_delta **series = calloc((size_t)reps, sizeof *series);
    const orch_diskstat_delta **one = calloc((size_t)t->nvms + 1, sizeof *one);
    int *n = calloc((size_t)reps, sizeof *n);
    double *t0 = calloc((size_t)reps, sizeof *t0);
    unsigned long long fl = 0;
    int has = 0;

    if (!series || !one || !n || !t0)
        goto cleanup;
    for (int r = 0; r < reps && nint > 0; r++) {
        if (!(series[r] = calloc((size_t)nint, sizeof **series)))
            goto cleanup;
        for (int i = 0; i < nint; i++) {
            int m = 0, vms = 0;
            double at = 0;
            for (int k = 0; k < t->nvms; k++) {
                const tel_vm *v = &t->vms[k];
                int j;
                if (v->rep != r + 1 || v->drive != pd || !v->measured
                    || failed_vm(sum, r + 1, v->name))
                    continue;
                vms++;
                t0[r] = v->t0;
                at = v->t0 + (i + 1) * interval_s;
                if ((j = orch_io_match_host(v->guest, v->nguest, at, interval_s / 2)) >= 0)
                    one[m++] = &v->guest[j];
            }
            if (vms > 0 && m == vms)
                guest_sum(one, m, at, &series[r][n[r]++]);
        }
    }
    rc = tel_diskstat_rates(series, n, t0, reps, interval_s, nint, &io->guest, &fl, &has);
cleanup:
    for (int r = 0; series && r < reps; r++)
        free(series[r]);
    free(series);
    free(one);
    free(n);
    free(t0);
    return rc;
}

/* Drive dr's device latencies into io->devlat. 0, or -1. */
static int drive_devlat(const tel_drive *dr, res_io *io)
{
    const double *pcts;
    int npcts = res_io_spectrum_pcts(&pcts);
    res_io_devlat *l;
    if (!dr->dl_h[RES_DEVLAT_ALL])
        return 0;
    if (!(l = io->devlat = calloc(1, sizeof *l)))
        return -1;
    if (!(l->source = strdup("tracefs")) || !(l->devices = strdup(dr->devlat_disks)))
        return -1;
    l->unmatched = dr->dl_unmatched;
    for (int c = 0; c < RES_DEVLAT_N; c++) {
        const hist *h = dr->dl_h[c];
        res_devlat_class *k = &l->cls[c];
        k->count = h->total;
        k->avg_ms = k->max_ms = NAN;
        if (h->total == 0)
            continue;
        k->avg_ms = hist_mean(h) / 1000.0;
        k->max_ms = (double)h->max / 1000.0;
        if (!(k->pct = calloc((size_t)npcts, sizeof *k->pct)))
            return -1;
        for (int i = 0; i < npcts; i++)
            k->pct[k->npct++] = (res_pct){ pcts[i], (double)hist_percentile(h, pcts[i]) / 1000.0 };
    }
    if (dr->dl_n > 0) {
        if (!(l->series = malloc((size_t)dr->dl_n * sizeof *l->series)))
            return -1;
        memcpy(l->series, dr->dl_series, (size_t)dr->dl_n * sizeof *l->series);
        l->nseries = dr->dl_n;
    }
    return 0;
}

int tel_views_fill_drive(const orch_telemetry *t, const res_summary *sum, int pd, res_io *io,
                         double interval_s, int nint)
{
    const tel_drive *dr;
    if (pd < 0 || !t->drives[pd].seen)
        return 0;
    dr = &t->drives[pd];
    if (t->guest && drive_guest(t, sum, pd, io, interval_s, nint) < 0)
        return -1;
    if (drive_devlat(dr, io) < 0)
        return -1;
    if (!io->devlat && dr->devlat_note[0] && !(io->devlat_note = strdup(dr->devlat_note)))
        return -1;
    return 0;
}
