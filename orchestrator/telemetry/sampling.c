/* sampling.c — the telemetry's life during a run (telemetry.h): VMs
 * added with their drives resolved, the measured phases sampled on the
 * monitor's timer and their series kept per repetition. */
#include "telemetry/telemetry_state.h"
#include "attributes.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "plan/plan.h"
#include "util/util.h"

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
    if (!t->seams.proc)
        t->seams.proc = "/proc";
    if (t->seams.interval_ms <= 0)
        t->seams.interval_ms = ORCH_REPORT_INTERVAL_S * 1000;
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
    tel_views_new(t);
    if (mon && !t->seams.no_timer
        && orch_monitor_every(mon, t->seams.interval_ms, orch_telemetry_tick, t) < 0)
        fprintf(t->out, "drivebench: no I/O sampling timer; drive I/O is not recorded\n");
    return t;
}

void orch_telemetry_free(orch_telemetry *t)
{
    if (!t)
        return;
    tel_views_clear(t);
    for (int i = 0; i < t->nvms; i++) {
        free(t->vms[i].guest);
        free(t->vms[i].name);
        free(t->vms[i].db);
        free(t->vms[i].boot);
        free(t->vms[i].qs);
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
    free(t->cpu);
    orch_spool_free(t->spool);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

int orch_telemetry_spool(orch_telemetry *t, const char *dir, char *err, size_t errlen)
{
    orch_spool *sp = orch_spool_open(dir, err, errlen);
    if (!sp)
        return -1;
    orch_telemetry_spool_use(t, sp);
    return 0;
}

void orch_telemetry_spool_use(orch_telemetry *t, orch_spool *sp)
{
    pthread_mutex_lock(&t->mu);
    orch_spool_free(t->spool);
    t->spool = sp;
    if (t->blk)
        orch_blk_sampler_spool(t->blk, sp);
    pthread_mutex_unlock(&t->mu);
}

int orch_telemetry_spool_error(orch_telemetry *t, char *err, size_t errlen)
{
    return t && t->spool && orch_spool_error(t->spool, err, errlen);
}

/* A failed spool, said once, when it happens (t->mu held). */
static void spool_check(orch_telemetry *t)
{
    char err[640];
    if (t->spool && !t->spool_told && orch_spool_error(t->spool, err, sizeof err)) {
        fprintf(t->out, "drivebench: error: %s: block statistics are lost from now on; "
                "the run will fail\n", err);
        t->spool_told = 1;
    }
}

int tel_vm_load(const orch_telemetry *t, tel_vm *v)
{
    if (!t->spool || v->db || v->boot)
        return 0;
    v->db = v->ndb > 0 ? malloc((size_t)v->ndb * sizeof *v->db) : NULL;
    v->boot = v->nboot > 0 ? malloc((size_t)v->nboot * sizeof *v->boot) : NULL;
    if ((v->ndb > 0 && !v->db) || (v->nboot > 0 && !v->boot)
        || (v->db && orch_spool_get(t->spool, v->db_at, v->db, sizeof *v->db,
                                    (size_t)v->ndb) < 0)
        || (v->boot && orch_spool_get(t->spool, v->boot_at, v->boot, sizeof *v->boot,
                                      (size_t)v->nboot) < 0)) {
        tel_vm_unload(t, v);
        return -1;
    }
    return 0;
}

void tel_vm_unload(const orch_telemetry *t, tel_vm *v)
{
    if (!t->spool)
        return;
    free(v->db);
    free(v->boot);
    v->db = v->boot = NULL;
}

/* The block device, identity and health of drive d, whose volume path is
 * vol_path; only for drives on this host. */
static void drive_resolve(orch_telemetry *t, int d, const char *vol_path)
{
    tel_drive *dr = &t->drives[d];
    const orch_drive *pd = &t->p->drives[d];
    char err[DB_ERR_LEN] = "";
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

/* drive_resolve, then the views of the drive (both without t->mu). */
static void drive_setup(orch_telemetry *t, int d, const char *vol_path)
{
    drive_resolve(t, d, vol_path);
    tel_views_drive(t, d);
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
        drive_setup(t, drive, db_path);
    if (t->drives[drive].local) {
        sync_volume(t, db_path);
        sync_volume(t, boot_path);
    }
    pthread_mutex_lock(&t->mu);
    if (t->blk_rep != rep) {            /* a new repetition: new domains */
        orch_blk_sampler_free(t->blk);
        t->blk = orch_blk_sampler_new(t->seams.domstats, t->seams.domstats_ctx);
        t->blk_rep = rep;
        if (t->blk && t->spool)
            orch_blk_sampler_spool(t->blk, t->spool);
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
    v->gidx = -1;
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
    if (rc == 0 && t->drives[drive].local && tel_qemu_domain(dom))
        tel_qemu_add_vm(t, t->nvms - 1);
    if (rc == 0)
        tel_views_add_vm(t, &t->vms[t->nvms - 1], dom);
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
    t->phase = phase;
    if (phase == RES_PHASE_MEASURE) {
        tel_cpu_phase_start(t, now);
        tel_qemu_phase_start(t, now);
    }
    t->measuring = phase == RES_PHASE_MEASURE;
    pthread_mutex_unlock(&t->mu);
    tel_views_phase_start(t, phase, t->blk_rep, now);
}

void orch_telemetry_phase_start(orch_telemetry *t, res_phase_id phase, int warmup_s)
{
    orch_telemetry_phase_start_at(t, phase, warmup_s, orch_mono_now());
}

void orch_telemetry_on_tick(orch_telemetry *t, orch_tel_tick_fn fn, void *ctx)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->mu);
    t->tick_fn = fn;
    t->tick_ctx = ctx;
    pthread_mutex_unlock(&t->mu);
}

/* What the tick at now saw, for the tick hook: the intervals that ended
 * at now (t->mu held). 0, or -1 when out of memory (no call then). */
static int tick_view(orch_telemetry *t, double now, orch_tel_now *v)
{
    orch_tel_vm_now *vms = calloc((size_t)t->nvms + 1, sizeof *vms);
    orch_tel_drive_now *drives = calloc((size_t)t->p->ndrives + 1, sizeof *drives);
    if (!vms || !drives) {
        free(vms);
        free(drives);
        return -1;
    }
    *v = (orch_tel_now){ .t = now, .phase = t->phase, .rep = t->blk_rep, .vms = vms,
                         .drives = drives, .ndrives = t->p->ndrives };
    for (int i = 0; i < t->nvms; i++) {
        const tel_vm *tv = &t->vms[i];
        orch_tel_vm_now *x = &vms[v->nvms];
        if (tv->rep != t->blk_rep)
            continue;
        x->vm = tv->vm;
        x->drive = tv->drive;
        x->has_db = t->blk && orch_blk_sampler_last(t->blk, tv->idx, ORCH_DISK_DB, &x->db)
                    && x->db.t == now && !x->db.reset;
        x->has_qemu = tel_qemu_last(t, tv, now, &x->qemu);
        v->nvms++;
    }
    for (int d = 0; d < t->p->ndrives; d++) {
        orch_tel_drive_now *x = &drives[d];
        x->has_dev = t->drives[d].disk_idx >= 0
                     && orch_disk_sampler_last(t->disk, t->drives[d].disk_idx, &x->dev)
                     && x->dev.t == now && !x->dev.reset;
    }
    tel_bound_now(t, v, drives);
    return 0;
}

void orch_telemetry_tick_at(orch_telemetry *t, double now)
{
    orch_tel_now view;
    orch_tel_tick_fn fn = NULL;
    void *ctx = NULL;
    pthread_mutex_lock(&t->mu);
    if (t->sampling) {
        if (t->blk)
            orch_blk_sampler_sample_at(t->blk, now);
        orch_disk_sampler_sample_at(t->disk, now);
        if (t->measuring) {
            tel_cpu_tick(t, now);
            tel_qemu_tick(t, now);
        }
        spool_check(t);
        if (t->tick_fn && tick_view(t, now, &view) == 0) {
            fn = t->tick_fn;
            ctx = t->tick_ctx;
        }
    }
    pthread_mutex_unlock(&t->mu);
    tel_views_tick(t, now);
    if (fn) {
        fn(ctx, &view);
        free((void *)view.vms);
        free((void *)view.drives);
    }
}

void orch_telemetry_tick(void *telemetry)
{
    orch_telemetry_tick_at(telemetry, orch_mono_now());
}

/* Keep the intervals of d[0..n) whose middle lies in [w0, w1] (the
 * measured window): phase totals cover the measured time only, to half a
 * sample at each end. Returns the new count. */
static int in_window(orch_blk_delta *d, int n, double w0, double w1)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (d[i].t - d[i].dt / 2 >= w0 && d[i].t - d[i].dt / 2 <= w1)
            d[k++] = d[i];
    return k;
}

/* The union of the measured windows of repetition rep's VMs on drive d
 * (d < 0: every drive), into [*w0, *w1]; 0 when no VM gave one. */
static int rep_window(const orch_telemetry *t, int rep, int d, double *w0, double *w1)
{
    int n = 0;
    for (int i = 0; i < t->nvms; i++) {
        const tel_vm *v = &t->vms[i];
        if (v->rep != rep || (d >= 0 && v->drive != d) || !(v->w1 > v->w0))
            continue;
        if (n == 0 || v->w0 < *w0)
            *w0 = v->w0;
        if (n == 0 || v->w1 > *w1)
            *w1 = v->w1;
        n++;
    }
    return n > 0;
}

/* With a spool, VM v's measured series written to it in one piece each
 * and freed (tel_vm_load reads them back). A write that fails leaves
 * them out (the spool's error is the run's). t->mu held. */
static void spool_out(orch_telemetry *t, tel_vm *v)
{
    if (!t->spool)
        return;
    v->db_at = v->ndb > 0 ? orch_spool_put(t->spool, v->db, sizeof *v->db, (size_t)v->ndb) : 0;
    v->boot_at = v->nboot > 0
                 ? orch_spool_put(t->spool, v->boot, sizeof *v->boot, (size_t)v->nboot) : 0;
    if (v->db_at < 0 || v->boot_at < 0)
        v->ndb = v->nboot = 0;
    free(v->db);
    free(v->boot);
    v->db = v->boot = NULL;
    spool_check(t);
}

/* VM v's series of the measured phase that just ended at now, taken from
 * the repetition's sampler over its measured window (no start-up, warm-up
 * or tail); failed samples are reported. t->mu held. */
static void keep_vm_series(orch_telemetry *t, tel_vm *v, double now)
{
    double w0, w1;
    char err[DB_ERR_LEN];
    int nerr;
    free(v->db);
    free(v->boot);
    v->db = v->boot = NULL;
    v->ndb = orch_blk_sampler_series(t->blk, v->idx, ORCH_DISK_DB, &v->db);
    v->nboot = orch_blk_sampler_series(t->blk, v->idx, ORCH_DISK_BOOT, &v->boot);
    tel_vm_window(t, v, now, &w0, &w1);
    v->t0 = w0;
    v->measured = 1;
    if (v->ndb < 0)
        v->ndb = 0;
    if (v->nboot < 0)
        v->nboot = 0;
    v->ndb = in_window(v->db, v->ndb, w0, w1);
    v->nboot = in_window(v->boot, v->nboot, w0, w1);
    nerr = orch_blk_sampler_errors(t->blk, v->idx, err, sizeof err);
    if (nerr > 0)
        fprintf(t->out, "drivebench: %s: %d block-statistics sample(s) failed "
                "(last: %s)\n", v->name, nerr, err);
    spool_out(t, v);
}

/* The host series of drive d for repetition rep (1-based, in range),
 * over its VMs' measured windows (from the warm-up's end to now when they
 * gave none). t->mu held. */
static void keep_host_series(orch_telemetry *t, int d, int rep, double now)
{
    tel_drive *dr = &t->drives[d];
    double w0 = t->phase_t0, w1 = now;
    rep_window(t, rep, d, &w0, &w1);
    free(dr->host[rep - 1]);
    dr->host[rep - 1] = NULL;
    dr->nhost[rep - 1] = orch_disk_sampler_series(t->disk, dr->disk_idx, &dr->host[rep - 1]);
    if (dr->nhost[rep - 1] < 0)
        dr->nhost[rep - 1] = 0;
    dr->nhost[rep - 1] = tel_diskstat_in_window(dr->host[rep - 1], dr->nhost[rep - 1], w0, w1);
    dr->host_t0[rep - 1] = w0;
}

void orch_telemetry_vm_window(orch_telemetry *t, const char *name, int rep, double start,
                              double end)
{
    if (!t || !(end > start))
        return;
    pthread_mutex_lock(&t->mu);
    for (int i = 0; i < t->nvms; i++)
        if (t->vms[i].rep == rep && strcmp(t->vms[i].name, name) == 0) {
            t->vms[i].w0 = start;
            t->vms[i].w1 = end;
        }
    pthread_mutex_unlock(&t->mu);
}

void orch_telemetry_phase_end_at(orch_telemetry *t, res_phase_id phase, int rep, double now)
{
    double w0 = 0, w1 = 0;
    if (!t || !sampled_phase(phase))
        return;
    orch_telemetry_tick_at(t, now);
    pthread_mutex_lock(&t->mu);
    t->sampling = 0;
    t->measuring = 0;
    if (phase == RES_PHASE_MEASURE) {
        rep_window(t, rep, -1, &w0, &w1);
        tel_cpu_phase_end(t, now, w0, w1);
        tel_qemu_phase_end(t, rep, now);
        for (int i = 0; i < t->nvms; i++)
            if (t->vms[i].rep == rep && t->blk)
                keep_vm_series(t, &t->vms[i], now);
        for (int d = 0; d < t->p->ndrives && rep >= 1 && rep <= t->p->repetitions; d++)
            if (t->drives[d].disk_idx >= 0)
                keep_host_series(t, d, rep, now);
    }
    pthread_mutex_unlock(&t->mu);
    tel_views_phase_end(t, phase, rep, now);
}

void orch_telemetry_phase_end(orch_telemetry *t, res_phase_id phase, int rep)
{
    orch_telemetry_phase_end_at(t, phase, rep, orch_mono_now());
}

int orch_telemetry_phase_io(orch_telemetry *t, int d, int rep, orch_io_sum *out)
{
    orch_io_vm *vms = NULL;
    orch_blk_delta **series = NULL;
    int n = 0, rc = -1;

    memset(out, 0, sizeof *out);
    out->rd_iops = out->wr_iops = out->rd_mbps = out->wr_mbps = NAN;
    if (!t)
        return -1;
    pthread_mutex_lock(&t->mu);
    vms = calloc((size_t)t->nvms + 1, sizeof *vms);
    series = calloc((size_t)t->nvms + 1, sizeof *series);
    for (int i = 0; vms && series && t->blk && i < t->nvms; i++) {
        const tel_vm *v = &t->vms[i];
        int k;
        if (v->rep != rep || v->drive != d)
            continue;
        k = orch_blk_sampler_series(t->blk, v->idx, ORCH_DISK_DB, &series[n]);
        if (k > 0) {
            vms[n].d = series[n];
            vms[n++].n = k;
        }
    }
    pthread_mutex_unlock(&t->mu);
    if (n > 0) {
        orch_io_drive_total(vms, n, out);
        rc = 0;
    }
    for (int i = 0; series && i < n; i++)
        free(series[i]);
    free(series);
    free(vms);
    return rc;
}

/* ------------------------------------------------------------------ */
