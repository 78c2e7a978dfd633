/* telemetry.c — sampling of the drives during a run and its place in the
 * summary (telemetry.h). */
#include "telemetry/telemetry.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "telemetry/ioagg.h"
#include "util/names.h"
#include "telemetry/stats.h"
#include "util/units.h"

/* One VM in one repetition. */
typedef struct tel_vm {
    int    vm, drive, rep, idx;     /* idx: in the repetition's blk sampler */
    char  *name;
    orch_blk_delta *db, *boot;      /* the measured phase's intervals */
    int    ndb, nboot;
    double t0;                      /* where its TPS intervals begin */
    int    measured;
} tel_vm;

/* One drive of the plan. */
typedef struct tel_drive {
    int    seen;                    /* a VM of it was added */
    int    local;                   /* on this host: host view */
    int    disk_idx;                /* in the disk sampler, or -1 */
    orch_drive_dev dev;
    orch_drive_id  id;
    int    have_dev, have_id;
    orch_drive_health before, after;
    int    have_before, have_after;
    char   path[1024];              /* a path on the drive (its pool target) */
    char   note[256];
    orch_diskstat_delta **host;     /* per repetition (index rep - 1) */
    int   *nhost;
    double *host_t0;
} tel_drive;

struct orch_telemetry {
    const orch_plan   *p;
    FILE              *out;
    orch_tel_seams     seams;
    pthread_mutex_t    mu;
    int                sampling;
    orch_blk_sampler  *blk;         /* the current repetition's VMs */
    int                blk_rep;
    orch_disk_sampler *disk;
    tel_vm            *vms;
    int                nvms, cap;
    tel_drive         *drives;
    double             phase_t0;
    int                warmup_s;
    char              *stat0;       /* /proc/stat at the measured phase's start */
    double             busy_sum, busy_w;    /* CPU busy % weighted by phase length */
};

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0;
    FILE *mem;
    char chunk[4096];
    size_t n;
    if (!f)
        return NULL;
    mem = open_memstream(&buf, &len);
    while (mem && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, n, mem);
    if (mem)
        fclose(mem);
    fclose(f);
    return buf;
}

orch_telemetry *orch_telemetry_new(const orch_plan *p, orch_monitor *mon, FILE *out,
                                   const orch_tel_seams *seams)
{
    orch_telemetry *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->p = p;
    t->out = out ? out : stderr;
    if (seams)
        t->seams = *seams;
    if (!t->seams.sysfs)
        t->seams.sysfs = "/sys";
    if (!t->seams.proc_stat)
        t->seams.proc_stat = "/proc/stat";
    if (t->seams.interval_ms <= 0)
        t->seams.interval_ms = 1000;
    pthread_mutex_init(&t->mu, NULL);
    t->drives = calloc((size_t)(p->ndrives ? p->ndrives : 1), sizeof *t->drives);
    t->disk = orch_disk_sampler_new(t->seams.sysfs);
    if (!t->drives || !t->disk) {
        orch_telemetry_free(t);
        return NULL;
    }
    for (int d = 0; d < p->ndrives; d++) {
        tel_drive *dr = &t->drives[d];
        dr->disk_idx = -1;
        dr->host = calloc((size_t)p->repetitions + 1, sizeof *dr->host);
        dr->nhost = calloc((size_t)p->repetitions + 1, sizeof *dr->nhost);
        dr->host_t0 = calloc((size_t)p->repetitions + 1, sizeof *dr->host_t0);
        if (!dr->host || !dr->nhost || !dr->host_t0) {
            orch_telemetry_free(t);
            return NULL;
        }
    }
    if (mon && !t->seams.no_timer
        && orch_monitor_every(mon, t->seams.interval_ms, orch_telemetry_tick, t) < 0)
        fprintf(t->out, "drivebench: no I/O sampling timer; drive I/O is not recorded\n");
    return t;
}

void orch_telemetry_free(orch_telemetry *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nvms; i++) {
        free(t->vms[i].name);
        free(t->vms[i].db);
        free(t->vms[i].boot);
    }
    free(t->vms);
    for (int d = 0; t->drives && d < t->p->ndrives; d++) {
        tel_drive *dr = &t->drives[d];
        for (int r = 0; dr->host && r <= t->p->repetitions; r++)
            free(dr->host[r]);
        free(dr->host);
        free(dr->nhost);
        free(dr->host_t0);
    }
    free(t->drives);
    orch_blk_sampler_free(t->blk);
    orch_disk_sampler_free(t->disk);
    free(t->stat0);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

/* The block device, identity and health of drive d, whose volume path is
 * vol_path; only for drives on this host. */
static void drive_resolve(orch_telemetry *t, int d, const char *vol_path)
{
    tel_drive *dr = &t->drives[d];
    const orch_drive *pd = &t->p->drives[d];
    char err[256] = "";
    struct stat sb;
    int rc;

    dr->seen = 1;
    dr->local = !orch_uri_is_remote(orch_plan_drive_uri(t->p, pd));
    if (!dr->local) {
        snprintf(dr->note, sizeof dr->note, "drive on another host (%s): no host view; "
                 "the hypervisor view comes through its own connection",
                 orch_plan_drive_uri(t->p, pd));
        return;
    }
    if (!vol_path && !pd->path) {
        snprintf(dr->note, sizeof dr->note, "its volumes' path is unknown: no host view");
        return;
    }
    /* a volume that is a block device (an LVM pool) is its own device */
    if (vol_path && stat(vol_path, &sb) == 0 && S_ISBLK(sb.st_mode))
        rc = orch_drive_resolve_devno(t->seams.sysfs, major(sb.st_rdev), minor(sb.st_rdev),
                                      &dr->dev, err, sizeof err);
    else {
        char *slash;
        snprintf(dr->path, sizeof dr->path, "%s", pd->path ? pd->path : vol_path);
        if (!pd->path && (slash = strrchr(dr->path, '/')) && slash != dr->path)
            *slash = '\0';
        rc = orch_drive_resolve(t->seams.sysfs, dr->path, &dr->dev, err, sizeof err);
    }
    if (rc < 0) {
        snprintf(dr->note, sizeof dr->note, "no host view: %s", err);
        return;
    }
    dr->have_dev = 1;
    orch_drive_identity(t->seams.sysfs, &dr->dev, dr->path[0] ? dr->path : NULL, &dr->id);
    dr->have_id = 1;
    if (dr->dev.id_disk[0])
        dr->have_before = orch_drive_health_read(t->seams.cmd, t->seams.cmd_ctx,
                                                 dr->dev.id_disk, &dr->before) == 0
                          || dr->before.note[0];
    if (dr->dev.kind != ORCH_DEV_NONE) {
        pthread_mutex_lock(&t->mu);
        dr->disk_idx = orch_disk_sampler_add(t->disk, pd->name, dr->dev.disk);
        pthread_mutex_unlock(&t->mu);
    }
}

/* Write a restored or new volume's dirty pages out before the run
 * measures anything, so its first phase does not pay for the copy. Only
 * for volumes on this host (a file or block device fsync reaches). */
static void sync_volume(orch_telemetry *t, const char *path)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return;
    if (fsync(fd) < 0)
        fprintf(t->out, "drivebench: cannot sync %s: %s\n", path, strerror(errno));
    close(fd);
}

static char *vol_path(virStoragePoolPtr pool, const char *name)
{
    virStorageVolPtr v = pool && name ? virStorageVolLookupByName(pool, name) : NULL;
    char *path = v ? virStorageVolGetPath(v) : NULL;
    if (v)
        virStorageVolFree(v);
    return path;
}

int orch_telemetry_add_vm(orch_telemetry *t, int vm, const char *name, int drive, int rep,
                          virStoragePoolPtr pool, const char *db_vol, const char *boot_vol,
                          virDomainPtr dom)
{
    char *db_path, *boot_path;
    tel_vm *v;
    int rc = -1;

    if (!t || drive < 0 || drive >= t->p->ndrives)
        return 0;
    db_path = vol_path(pool, db_vol);
    boot_path = vol_path(pool, boot_vol);
    if (!t->drives[drive].seen)
        drive_resolve(t, drive, db_path);
    if (t->drives[drive].local) {
        sync_volume(t, db_path);
        sync_volume(t, boot_path);
    }
    pthread_mutex_lock(&t->mu);
    if (t->blk_rep != rep) {            /* a new repetition: new domains */
        orch_blk_sampler_free(t->blk);
        t->blk = orch_blk_sampler_new(t->seams.domstats, t->seams.domstats_ctx);
        t->blk_rep = rep;
    }
    if (t->nvms == t->cap) {
        int ncap = t->cap ? t->cap * 2 : 8;
        tel_vm *n = realloc(t->vms, (size_t)ncap * sizeof *n);
        if (!n)
            goto cleanup;
        t->vms = n;
        t->cap = ncap;
    }
    v = &t->vms[t->nvms];
    memset(v, 0, sizeof *v);
    v->vm = vm;
    v->drive = drive;
    v->rep = rep;
    v->name = strdup(name);
    v->idx = t->blk ? orch_blk_sampler_add(t->blk, dom, name, &(orch_blk_roles){
                                               .db_path = db_path, .boot_path = boot_path,
                                               .db_target = db_path ? NULL : "sdb",
                                               .boot_target = boot_path ? NULL : "sda" })
                    : -1;
    if (!v->name || v->idx < 0) {
        free(v->name);
        goto cleanup;
    }
    t->nvms++;
    rc = 0;
cleanup:
    pthread_mutex_unlock(&t->mu);
    if (rc < 0)
        fprintf(t->out, "drivebench: out of memory: no I/O statistics for %s\n", name);
    free(db_path);
    free(boot_path);
    return rc;
}

static int sampled_phase(res_phase_id phase)
{
    return phase == RES_PHASE_MEASURE || phase == RES_PHASE_PRECONDITION;
}

void orch_telemetry_phase_start_at(orch_telemetry *t, res_phase_id phase, int warmup_s,
                                   double now)
{
    if (!t || !sampled_phase(phase))
        return;
    pthread_mutex_lock(&t->mu);
    t->phase_t0 = now + warmup_s;
    t->warmup_s = warmup_s;
    if (t->blk)
        orch_blk_sampler_restart(t->blk, now);
    orch_disk_sampler_restart(t->disk, now);
    t->sampling = 1;
    if (phase == RES_PHASE_MEASURE) {
        free(t->stat0);
        t->stat0 = read_text(t->seams.proc_stat);
    }
    pthread_mutex_unlock(&t->mu);
}

void orch_telemetry_phase_start(orch_telemetry *t, res_phase_id phase, int warmup_s)
{
    orch_telemetry_phase_start_at(t, phase, warmup_s, orch_mono_now());
}

void orch_telemetry_tick_at(orch_telemetry *t, double now)
{
    pthread_mutex_lock(&t->mu);
    if (t->sampling) {
        if (t->blk)
            orch_blk_sampler_sample_at(t->blk, now);
        orch_disk_sampler_sample_at(t->disk, now);
    }
    pthread_mutex_unlock(&t->mu);
}

void orch_telemetry_tick(void *telemetry)
{
    orch_telemetry_tick_at(telemetry, orch_mono_now());
}

/* Drop the intervals of d[0..n) that ended during the warm-up (before
 * t0, give or take a quarter interval): phase totals cover the measured
 * time only. Returns the new count. */
static int after_warmup(orch_blk_delta *d, int n, double t0, double slack)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (d[i].t > t0 + slack)
            d[k++] = d[i];
    return k;
}

static int host_after_warmup(orch_diskstat_delta *d, int n, double t0, double slack)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (d[i].t > t0 + slack)
            d[k++] = d[i];
    return k;
}

void orch_telemetry_phase_end_at(orch_telemetry *t, res_phase_id phase, int rep, double now)
{
    double slack = t ? t->seams.interval_ms / 4000.0 : 0;
    if (!t || !sampled_phase(phase))
        return;
    orch_telemetry_tick_at(t, now);
    pthread_mutex_lock(&t->mu);
    t->sampling = 0;
    if (phase == RES_PHASE_MEASURE) {
        char *stat1 = read_text(t->seams.proc_stat);
        double busy = t->stat0 && stat1 ? orch_tel_cpu_busy_pct(t->stat0, stat1) : NAN;
        double len = now - (t->phase_t0 - t->warmup_s);
        if (isfinite(busy) && len > 0) {
            t->busy_sum += busy * len;
            t->busy_w += len;
        }
        free(stat1);
        for (int i = 0; i < t->nvms; i++) {
            tel_vm *v = &t->vms[i];
            if (v->rep != rep || !t->blk)
                continue;
            free(v->db);
            free(v->boot);
            v->db = v->boot = NULL;
            v->ndb = orch_blk_sampler_series(t->blk, v->idx, ORCH_DISK_DB, &v->db);
            v->nboot = orch_blk_sampler_series(t->blk, v->idx, ORCH_DISK_BOOT, &v->boot);
            v->t0 = t->phase_t0;
            v->measured = 1;
            if (v->ndb < 0)
                v->ndb = 0;
            if (v->nboot < 0)
                v->nboot = 0;
            if (t->warmup_s > 0) {
                v->ndb = after_warmup(v->db, v->ndb, t->phase_t0, slack);
                v->nboot = after_warmup(v->boot, v->nboot, t->phase_t0, slack);
            }
            {
                char err[256];
                int nerr = orch_blk_sampler_errors(t->blk, v->idx, err, sizeof err);
                if (nerr > 0)
                    fprintf(t->out, "drivebench: %s: %d block-statistics sample(s) failed "
                            "(last: %s)\n", v->name, nerr, err);
            }
        }
        for (int d = 0; d < t->p->ndrives && rep >= 1 && rep <= t->p->repetitions; d++) {
            tel_drive *dr = &t->drives[d];
            if (dr->disk_idx < 0)
                continue;
            free(dr->host[rep - 1]);
            dr->host[rep - 1] = NULL;
            dr->nhost[rep - 1] = orch_disk_sampler_series(t->disk, dr->disk_idx,
                                                          &dr->host[rep - 1]);
            if (dr->nhost[rep - 1] < 0)
                dr->nhost[rep - 1] = 0;
            if (t->warmup_s > 0)
                dr->nhost[rep - 1] = host_after_warmup(dr->host[rep - 1], dr->nhost[rep - 1],
                                                       t->phase_t0, slack);
            dr->host_t0[rep - 1] = t->phase_t0;
        }
    }
    pthread_mutex_unlock(&t->mu);
}

void orch_telemetry_phase_end(orch_telemetry *t, res_phase_id phase, int rep)
{
    orch_telemetry_phase_end_at(t, phase, rep, orch_mono_now());
}

/* ------------------------------------------------------------------ */
/* host CPU                                                            */

/* busy and total jiffies of the "cpu " line; -1 when absent. */
static int cpu_line(const char *text, double *busy, double *total)
{
    const char *l = text ? strstr(text, "cpu ") : NULL;
    double v[10] = { 0 };
    int n;
    if (!l)
        return -1;
    n = sscanf(l + 4, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
    if (n < 4)
        return -1;
    *total = 0;
    /* guest and guest_nice (8, 9) are already counted in user and nice */
    for (int i = 0; i < n && i < 8; i++)
        *total += v[i];
    *busy = *total - v[3] - (n > 4 ? v[4] : 0);
    return 0;
}

double orch_tel_cpu_busy_pct(const char *stat_before, const char *stat_after)
{
    double b0, t0, b1, t1;
    if (cpu_line(stat_before, &b0, &t0) < 0 || cpu_line(stat_after, &b1, &t1) < 0
        || t1 <= t0)
        return NAN;
    return (b1 - b0) / (t1 - t0) * 100.0;
}

/* ------------------------------------------------------------------ */
/* into the summary                                                    */

static double ns_ms(unsigned long long times, unsigned long long reqs)
{
    return reqs ? (double)times / (double)reqs / 1e6 : NAN;
}

/* An orch_io_sum as a row of hypervisor keys. */
static void sum_row(const orch_io_sum *s, res_io_row *r)
{
    r->v[RES_IOG_rd_iops] = s->rd_iops;
    r->v[RES_IOG_rd_mbps] = s->rd_mbps;
    r->v[RES_IOG_rd_lat_ms] = s->rd_lat_ms;
    r->v[RES_IOG_wr_iops] = s->wr_iops;
    r->v[RES_IOG_wr_mbps] = s->wr_mbps;
    r->v[RES_IOG_wr_lat_ms] = s->wr_lat_ms;
    r->v[RES_IOG_fl_iops] = s->fl_iops;
    r->v[RES_IOG_fl_lat_ms] = s->fl_lat_ms;
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
        free(r ? r->series : NULL);
        free(r);
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

/* The host's phase figures from its intervals: counts over time, waits
 * weighted by the I/Os they average over, queue and utilisation by time. */
static void host_total(const orch_diskstat_delta *d, int n, res_io_row *r)
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
}

static void host_row(const orch_diskstat_delta *x, res_io_row *r)
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
}

static char *dup_or_null(const char *s)
{
    return s && s[0] ? strdup(s) : NULL;
}

static res_io_health *health_of(const orch_drive_health *h)
{
    res_io_health *r = res_io_health_new();
    if (!r)
        return NULL;
    r->source = dup_or_null(h->source);
    r->temp_c = h->temp_c;
    r->wear_pct = h->wear_pct;
    r->wear_from = dup_or_null(h->wear_from);
    r->note = dup_or_null(h->note);
    return r;
}

/* The host view of drive d: device, identity, health, phase figures (the
 * mean over repetitions) and the series of the first measured one. */
static res_io_host *host_of(orch_telemetry *t, int d, double interval_s, int nint,
                            unsigned long long guest_fl, int guest_has)
{
    tel_drive *dr = &t->drives[d];
    res_io_host *h = calloc(1, sizeof *h);
    int reps = 0, first = -1;
    unsigned long long dev_fl = 0;
    int dev_has = 0;
    if (!h)
        return NULL;
    h->rotational = -1;
    h->size_bytes = h->fs_size_bytes = h->fs_avail_bytes = RES_UNSET;
    h->fs_used_pct = NAN;
    h->flush_ratio = NAN;
    h->note = dup_or_null(dr->note[0] ? dr->note : dr->dev.note);
    if (dr->have_dev) {
        h->kind = strdup(orch_dev_kind_name(dr->dev.kind));
        h->node = dup_or_null(dr->dev.node);
        h->disk = dup_or_null(dr->dev.disk);
        h->dm_name = dup_or_null(dr->dev.dm_name);
        if (dr->dev.nslaves > 0 && (h->slaves = calloc((size_t)dr->dev.nslaves,
                                                       sizeof *h->slaves)))
            for (int i = 0; i < dr->dev.nslaves; i++)
                h->slaves[h->nslaves++] = strdup(dr->dev.slaves[i]);
    }
    if (dr->have_id) {
        const orch_drive_id *id = &dr->id;
        h->model = dup_or_null(id->model[0] ? id->model : dr->before.model);
        h->vendor = dup_or_null(id->vendor);
        h->serial = dup_or_null(id->serial[0] ? id->serial : dr->before.serial);
        h->firmware = dup_or_null(id->firmware[0] ? id->firmware : dr->before.firmware);
        h->size_bytes = id->size_bytes ? (int64_t)id->size_bytes : RES_UNSET;
        h->rotational = id->rotational;
        h->scheduler = dup_or_null(id->scheduler);
        h->write_cache = dup_or_null(id->write_cache);
        h->fs_type = dup_or_null(id->fs_type);
        h->fs_size_bytes = id->fs_size_bytes ? (int64_t)id->fs_size_bytes : RES_UNSET;
        h->fs_avail_bytes = id->fs_size_bytes ? (int64_t)id->fs_avail_bytes : RES_UNSET;
        h->fs_used_pct = id->fs_used_pct;
    }
    if (dr->have_before)
        h->health_before = health_of(&dr->before);
    if (dr->have_after)
        h->health_after = health_of(&dr->after);
    for (int r = 0; r < t->p->repetitions; r++)
        if (dr->nhost[r] > 0) {
            reps++;
            if (first < 0)
                first = r;
        }
    if (reps > 0 && (h->rates = res_io_rates_new(true, nint))) {
        res_io_row sum;
        int nsum[RES_IO_MAXK] = { 0 };
        memset(&sum, 0, sizeof sum);
        for (int r = 0; r < t->p->repetitions; r++) {
            res_io_row one;
            if (dr->nhost[r] <= 0)
                continue;
            for (int k = 0; k < RES_IO_MAXK; k++)
                one.v[k] = NAN;
            host_total(dr->host[r], dr->nhost[r], &one);
            for (int k = 0; k < RES_IOH_N; k++)
                if (isfinite(one.v[k])) {
                    sum.v[k] += one.v[k];
                    nsum[k]++;
                }
            sum.t += isfinite(one.t) ? one.t : 0;
            for (int i = 0; i < dr->nhost[r]; i++)
                if (!dr->host[r][i].reset && isfinite(dr->host[r][i].fl_iops)) {
                    dev_fl += dr->host[r][i].fl_ios;
                    dev_has = 1;
                }
        }
        for (int k = 0; k < RES_IOH_N; k++)
            h->rates->total.v[k] = nsum[k] ? sum.v[k] / nsum[k] : NAN;
        h->rates->total.t = sum.t;
        for (int i = 0; i < nint; i++) {
            int j = orch_io_match_host(dr->host[first], dr->nhost[first],
                                       dr->host_t0[first] + (i + 1) * interval_s,
                                       interval_s / 2);
            h->rates->series[i].t = (i + 1) * interval_s;
            if (j >= 0)
                host_row(&dr->host[first][j], &h->rates->series[i]);
        }
        h->flush_ratio = orch_io_flush_ratio(guest_fl, guest_has, dev_fl, dev_has);
    }
    return h;
}

/* The VM's telemetry record for a summary VM, or NULL. */
static tel_vm *vm_record(orch_telemetry *t, const res_vm *v)
{
    for (int i = 0; i < t->nvms; i++)
        if (t->vms[i].rep == v->repetition && strcmp(t->vms[i].name, v->name) == 0)
            return &t->vms[i];
    return NULL;
}

static int drive_index(const res_summary *sum, const char *name)
{
    for (int d = 0; d < sum->ndrives; d++)
        if (strcmp(sum->drives[d].name, name) == 0)
            return d;
    return -1;
}

/* Per-drive interval series over all repetitions, concatenated in
 * repetition order (drives of one run run at the same time, so interval
 * i of one drive pairs with interval i of another). */
typedef struct drive_acc {
    double *tps, *p;        /* [rep * nint + i] */
    int    *pn;             /* VMs in each p sum */
    hist   *h;              /* merged measured histograms, all repetitions */
    double  p_pct;
} drive_acc;

static int add_cmp(res_io *io, const char *a, const char *b, res_cmp_method method,
                   const orch_diff *df, int k)
{
    res_io_cmp *n = realloc(io->cmp, (size_t)(io->ncmp + 1) * sizeof *n), *c;
    if (!n)
        return -1;
    io->cmp = n;
    c = &io->cmp[io->ncmp++];
    memset(c, 0, sizeof *c);
    c->a = strdup(a);
    c->b = strdup(b);
    c->method = method;
    c->n = df->n;
    c->k = k;
    c->mean_a = df->mean_a;
    c->mean_b = df->mean_b;
    c->diff = df->diff;
    c->diff_pct = df->diff_pct;
    c->lo = df->lo;
    c->hi = df->hi;
    c->df = df->df;
    c->p_value = df->p_value;
    c->distinguishable = df->distinguishable;
    return c->a && c->b ? 0 : -1;
}

int orch_telemetry_fill(orch_telemetry *t, res_summary *sum, const char *run_dir)
{
    const orch_plan *p = t->p;
    int reps = p->repetitions > 0 ? p->repetitions : 1, nint = 0, oom = 0;
    double interval_s = t->seams.interval_ms / 1000.0;
    drive_acc *acc = calloc((size_t)sum->ndrives + 1, sizeof *acc);
    orch_io_vm *ivm = calloc((size_t)sum->nvms + 1, sizeof *ivm);
    orch_io_vm *iboot = calloc((size_t)sum->nvms + 1, sizeof *iboot);
    const double *pcts;
    int npcts = res_io_spectrum_pcts(&pcts);

    if (!acc || !ivm || !iboot) {
        oom = 1;
        goto cleanup;
    }
    /* health after the run */
    for (int d = 0; d < p->ndrives; d++) {
        tel_drive *dr = &t->drives[d];
        if (dr->have_dev && dr->dev.id_disk[0] && !dr->have_after)
            dr->have_after = orch_drive_health_read(t->seams.cmd, t->seams.cmd_ctx,
                                                    dr->dev.id_disk, &dr->after) == 0
                             || dr->after.note[0];
    }
    for (int i = 0; i < sum->nvms; i++)
        if (sum->vms[i].npoints > nint)
            nint = sum->vms[i].npoints;
    for (int i = 0; i < sum->nvms; i++)     /* oltp's interval, as the TPS series has it */
        if (sum->vms[i].npoints > 0 && sum->vms[i].series[0].t > 0) {
            interval_s = sum->vms[i].series[0].t;
            break;
        }
    for (int d = 0; d < sum->ndrives; d++) {
        acc[d].p_pct = NAN;
        if (nint > 0) {
            acc[d].tps = calloc((size_t)(reps * nint), sizeof *acc[d].tps);
            acc[d].p = calloc((size_t)(reps * nint), sizeof *acc[d].p);
            acc[d].pn = calloc((size_t)(reps * nint), sizeof *acc[d].pn);
            if (!acc[d].tps || !acc[d].p || !acc[d].pn) {
                oom = 1;
                goto cleanup;
            }
        }
    }

    /* per VM: its disks, its oltp CPU and p-latency series */
    for (int i = 0; i < sum->nvms; i++) {
        res_vm *v = &sum->vms[i];
        tel_vm *rec = vm_record(t, v);
        int d = drive_index(sum, v->drive);
        res_oltp doc;
        const res_phase *m = NULL;
        char err[512], *path;
        if (v->failed || !v->measured || d < 0)
            continue;
        if (!v->io && !(v->io = res_io_new())) {
            oom = 1;
            goto cleanup;
        }
        if (rec && rec->measured) {
            orch_io_sum tot;
            orch_io_vm one = { rec->db, rec->ndb }, bone = { rec->boot, rec->nboot };
            if (rec->ndb > 0)
                v->io->db = rates_of(&one, 1, rec->t0, interval_s, v->npoints, &tot);
            if (rec->nboot > 0)
                v->io->boot = rates_of(&bone, 1, rec->t0, interval_s, v->npoints, &tot);
        }
        for (int k = 0; k < v->npoints && k < nint && v->repetition >= 1
                        && v->repetition <= reps; k++)
            acc[d].tps[(v->repetition - 1) * nint + k] += v->series[k].tps;
        path = v->result ? orch_strfmt("%s/%s", run_dir, v->result) : NULL;
        memset(&doc, 0, sizeof doc);
        if (path && res_oltp_read_file(path, &doc, err, sizeof err) == 0
            && (m = res_oltp_measure(&doc))) {
            v->io->cpu_s_per_1000_txn = m->cpu_s_per_1000_txn;
            v->io->p_pct = m->iv_pct;
            if (m->nintervals > 0 && (v->io->p_series = calloc((size_t)m->nintervals,
                                                               sizeof *v->io->p_series)))
                for (int k = 0; k < m->nintervals; k++) {
                    v->io->p_series[v->io->np++] = (res_point){ m->intervals[k].t,
                                                                m->intervals[k].lat_pct_ms };
                    if (k < nint && v->repetition >= 1 && v->repetition <= reps) {
                        acc[d].p[(v->repetition - 1) * nint + k] += m->intervals[k].lat_pct_ms;
                        acc[d].pn[(v->repetition - 1) * nint + k]++;
                    }
                }
            acc[d].p_pct = m->iv_pct;
            if (m->histogram) {
                if (!acc[d].h)
                    acc[d].h = hist_new(m->histogram->highest, m->histogram->sig_digits);
                if (acc[d].h)
                    hist_add(acc[d].h, m->histogram);
            }
        }
        res_oltp_clear(&doc);
        free(path);
    }

    /* per drive */
    for (int d = 0; d < sum->ndrives; d++) {
        res_drive *dr = &sum->drives[d];
        int pd = -1;
        res_io *io;
        unsigned long long guest_fl = 0;
        int guest_has = 0, first_rep = 0;
        double rate_sum[RES_IOG_N] = { 0 }, boot_sum[RES_IOG_N] = { 0 };
        unsigned long long dsum[2][ORCH_BLK_NFIELDS] = { { 0 } };
        int nrates = 0, nboot = 0, vms_seen = 0, missing = 0;
        res_io_rates *db_first = NULL, *boot_first = NULL;

        for (int k = 0; k < p->ndrives; k++)
            if (strcmp(p->drives[k].name, dr->name) == 0)
                pd = k;
        if (!dr->io && !(dr->io = res_io_new())) {
            oom = 1;
            goto cleanup;
        }
        io = dr->io;
        for (int r = 1; r <= reps; r++) {
            int n = 0, nb = 0;
            double t0 = 0;
            for (int i = 0; i < t->nvms; i++) {
                tel_vm *v = &t->vms[i];
                int failed = 0;
                if (v->rep != r || v->drive != pd || !v->measured)
                    continue;
                for (int k = 0; k < sum->nvms; k++)
                    if (sum->vms[k].repetition == r && strcmp(sum->vms[k].name, v->name) == 0)
                        failed = sum->vms[k].failed;
                if (failed)
                    continue;
                t0 = v->t0;
                if (v->ndb > 0)
                    ivm[n++] = (orch_io_vm){ v->db, v->ndb };
                if (v->nboot > 0)
                    iboot[nb++] = (orch_io_vm){ v->boot, v->nboot };
            }
            if (n > 0) {
                orch_io_sum tot;
                res_io_rates *rr = rates_of(ivm, n, t0, interval_s, first_rep ? 0 : nint, &tot);
                if (!rr) {
                    oom = 1;
                    goto cleanup;
                }
                for (int k = 0; k < RES_IOG_N; k++)
                    rate_sum[k] += isfinite(rr->total.v[k]) ? rr->total.v[k] : 0;
                for (int f = 0; f < ORCH_BLK_NFIELDS; f++)
                    dsum[0][f] += tot.d[f];
                if (ORCH_BLK_HAS(tot.have, ORCH_BLK_FL_REQS)) {
                    guest_fl += tot.d[ORCH_BLK_FL_REQS];
                    guest_has = 1;
                }
                vms_seen += tot.vms;
                missing += tot.missing;
                nrates++;
                if (!first_rep)
                    db_first = rr;
                else
                    free(rr->series), free(rr);
            }
            if (nb > 0) {
                orch_io_sum tot;
                res_io_rates *rr = rates_of(iboot, nb, t0, interval_s, first_rep ? 0 : nint,
                                            &tot);
                if (!rr) {
                    oom = 1;
                    goto cleanup;
                }
                for (int k = 0; k < RES_IOG_N; k++)
                    boot_sum[k] += isfinite(rr->total.v[k]) ? rr->total.v[k] : 0;
                for (int f = 0; f < ORCH_BLK_NFIELDS; f++)
                    dsum[1][f] += tot.d[f];
                /* boot overlays live on the drive too: their flushes reach it */
                if (ORCH_BLK_HAS(tot.have, ORCH_BLK_FL_REQS))
                    guest_fl += tot.d[ORCH_BLK_FL_REQS];
                nboot++;
                if (!first_rep)
                    boot_first = rr;
                else
                    free(rr->series), free(rr);
            }
            if (n > 0 || nb > 0)
                first_rep = 1;
        }
        /* rates: mean over repetitions; latencies: every request once */
        if (db_first) {
            for (int k = 0; k < RES_IOG_N && nrates > 1; k++)
                db_first->total.v[k] = rate_sum[k] / nrates;
            db_first->total.v[RES_IOG_rd_lat_ms] = ns_ms(dsum[0][ORCH_BLK_RD_TIMES],
                                                         dsum[0][ORCH_BLK_RD_REQS]);
            db_first->total.v[RES_IOG_wr_lat_ms] = ns_ms(dsum[0][ORCH_BLK_WR_TIMES],
                                                         dsum[0][ORCH_BLK_WR_REQS]);
            db_first->total.v[RES_IOG_fl_lat_ms] = ns_ms(dsum[0][ORCH_BLK_FL_TIMES],
                                                         dsum[0][ORCH_BLK_FL_REQS]);
            db_first->vms = nrates ? vms_seen / nrates : 0;
            db_first->missing = missing;
            io->db = db_first;
        }
        if (boot_first) {
            for (int k = 0; k < RES_IOG_N && nboot > 1; k++)
                boot_first->total.v[k] = boot_sum[k] / nboot;
            boot_first->total.v[RES_IOG_rd_lat_ms] = ns_ms(dsum[1][ORCH_BLK_RD_TIMES],
                                                           dsum[1][ORCH_BLK_RD_REQS]);
            boot_first->total.v[RES_IOG_wr_lat_ms] = ns_ms(dsum[1][ORCH_BLK_WR_TIMES],
                                                           dsum[1][ORCH_BLK_WR_REQS]);
            boot_first->total.v[RES_IOG_fl_lat_ms] = ns_ms(dsum[1][ORCH_BLK_FL_TIMES],
                                                           dsum[1][ORCH_BLK_FL_REQS]);
            io->boot = boot_first;
        }
        if (pd >= 0 && t->drives[pd].seen
            && !(io->host = host_of(t, pd, interval_s, nint, guest_fl, guest_has))) {
            oom = 1;
            goto cleanup;
        }
        /* the latency spectrum of the merged histograms (µs -> ms) */
        if (acc[d].h && (io->spectrum = calloc((size_t)npcts, sizeof *io->spectrum)))
            for (int k = 0; k < npcts; k++)
                io->spectrum[io->nspectrum++] =
                    (res_pct){ pcts[k], (double)hist_percentile(acc[d].h, pcts[k]) / 1000.0 };
        /* p-latency over time: the mean of its VMs' interval values (rep 1) */
        if (nint > 0 && isfinite(acc[d].p_pct)
            && (io->p_series = calloc((size_t)nint, sizeof *io->p_series))) {
            io->p_pct = acc[d].p_pct;
            for (int k = 0; k < nint; k++)
                if (acc[d].pn[k] > 0)
                    io->p_series[io->np++] = (res_point){ (k + 1) * interval_s,
                                                          acc[d].p[k] / acc[d].pn[k] };
        }
        /* steady state: the repetition whose TPS drifts most */
        for (int r = 0; r < reps && nint >= 3; r++) {
            double *x = calloc((size_t)nint, sizeof *x);
            orch_trend tr;
            if (!x) {
                oom = 1;
                goto cleanup;
            }
            for (int k = 0; k < nint; k++)
                x[k] = (k + 1) * interval_s;
            if (orch_stats_trend(x, acc[d].tps + r * nint, nint, 0, &tr) == 0
                && (io->steady.n == 0 || fabs(tr.drift_pct) > fabs(io->steady.drift_pct))) {
                io->steady = (res_io_trend){ tr.n, tr.mean, tr.slope, tr.slope_lo, tr.slope_hi,
                                             tr.drift_pct, tr.trending };
            }
            free(x);
        }
    }

    /* the run: comparisons of each pair of drives, host CPU */
    if (!sum->io && !(sum->io = res_io_new())) {
        oom = 1;
        goto cleanup;
    }
    for (int a = 0; a < sum->ndrives; a++)
        for (int b = a + 1; b < sum->ndrives; b++) {
            const char *na = sum->drives[a].name, *nb = sum->drives[b].name;
            orch_diff df;
            int n = reps * nint;
            if (n > 0 && orch_stats_paired(acc[a].tps, acc[b].tps, n, 0, &df) == 0)
                oom |= add_cmp(sum->io, na, nb, RES_CMP_TPS_PAIRED, &df,
                               orch_stats_batch_size(n)) < 0;
            if (n > 0 && isfinite(acc[a].p_pct) && isfinite(acc[b].p_pct)) {
                double *pa = calloc((size_t)n, sizeof *pa), *pb = calloc((size_t)n, sizeof *pb);
                int m = 0;
                for (int k = 0; pa && pb && k < n; k++)
                    if (acc[a].pn[k] > 0 && acc[b].pn[k] > 0) {
                        pa[m] = acc[a].p[k] / acc[a].pn[k];
                        pb[m++] = acc[b].p[k] / acc[b].pn[k];
                    }
                if (pa && pb && orch_stats_paired(pa, pb, m, 0, &df) == 0)
                    oom |= add_cmp(sum->io, na, nb, RES_CMP_P99_PAIRED, &df,
                                   orch_stats_batch_size(m)) < 0;
                oom |= !pa || !pb;
                free(pa);
                free(pb);
            }
            if (sum->drives[a].nreps >= ORCH_STATS_MIN_REPS
                && sum->drives[b].nreps >= ORCH_STATS_MIN_REPS) {
                int ra = sum->drives[a].nreps, rb = sum->drives[b].nreps;
                double *ta = calloc((size_t)ra, sizeof *ta), *tb = calloc((size_t)rb, sizeof *tb);
                double *qa = calloc((size_t)ra, sizeof *qa), *qb = calloc((size_t)rb, sizeof *qb);
                if (ta && tb && qa && qb) {
                    for (int k = 0; k < ra; k++) {
                        ta[k] = sum->drives[a].reps[k].f.tps;
                        qa[k] = sum->drives[a].reps[k].f.lat_p99_ms;
                    }
                    for (int k = 0; k < rb; k++) {
                        tb[k] = sum->drives[b].reps[k].f.tps;
                        qb[k] = sum->drives[b].reps[k].f.lat_p99_ms;
                    }
                    if (orch_stats_welch(ta, ra, tb, rb, &df) == 0)
                        oom |= add_cmp(sum->io, na, nb, RES_CMP_TPS_WELCH, &df, 0) < 0;
                    if (orch_stats_welch(qa, ra, qb, rb, &df) == 0)
                        oom |= add_cmp(sum->io, na, nb, RES_CMP_P99_WELCH, &df, 0) < 0;
                } else {
                    oom = 1;
                }
                free(ta);
                free(tb);
                free(qa);
                free(qb);
            }
        }
    if (t->busy_w > 0) {
        int tcg = 0;
        sum->io->host_cpu_busy_pct = t->busy_sum / t->busy_w;
        for (int h = 0; h < sum->env.nhypervisors; h++)
            tcg |= sum->env.hypervisors[h].domain_type
                   && strcmp(sum->env.hypervisors[h].domain_type, "qemu") == 0;
        sum->io->host_saturated = sum->io->host_cpu_busy_pct >= ORCH_TEL_CPU_SATURATED_PCT;
        if (tcg)
            sum->io->host_cpu_note = strdup(
                "the VMs ran under TCG (software emulation, no KVM): the host CPU, not the "
                "drive, bounds every figure of this run");
        else if (sum->io->host_saturated)
            sum->io->host_cpu_note = strdup(
                "the host CPU was saturated during the measured phase: the results measure "
                "the host more than the drive");
        sum->io->host_saturated |= tcg;
    }
cleanup:
    for (int d = 0; acc && d < sum->ndrives; d++) {
        free(acc[d].tps);
        free(acc[d].p);
        free(acc[d].pn);
        hist_free(acc[d].h);
    }
    free(acc);
    free(ivm);
    free(iboot);
    if (oom)
        fprintf(t->out, "drivebench: out of memory while adding drive I/O to the summary\n");
    return oom ? -1 : 0;
}
