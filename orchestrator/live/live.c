/* live.c — the live view's model and its OpenMetrics text (live.h); the
 * HTTP server around it is httpd.c. */
#include "live/live_state.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

orch_live *orch_live_new(const orch_plan *p, const orch_layout *l, orch_monitor *mon)
{
    orch_live *lv = calloc(1, sizeof *lv);
    if (!lv)
        return NULL;
    lv->p = p;
    lv->l = l;
    lv->mon = mon;
    lv->listen_fd = -1;
    lv->vms = calloc((size_t)l->nvms + 1, sizeof *lv->vms);
    lv->drives = calloc((size_t)p->ndrives + 1, sizeof *lv->drives);
    if (!lv->vms || !lv->drives) {
        free(lv->vms);
        free(lv->drives);
        free(lv);
        return NULL;
    }
    for (int i = 0; i < l->nvms; i++) {
        lv->vms[i].slot = -1;
        snprintf(lv->vms[i].label, sizeof lv->vms[i].label, "%s-vm%d", l->vms[i].drive->id,
                 l->vms[i].index);
    }
    pthread_mutex_init(&lv->mu, NULL);
    pthread_cond_init(&lv->scrape_cv, NULL);
    return lv;
}

void orch_live_free(orch_live *lv)
{
    if (!lv)
        return;
    if (lv->stop_serving)
        lv->stop_serving(lv);
    pthread_cond_destroy(&lv->scrape_cv);
    pthread_mutex_destroy(&lv->mu);
    free(lv->vms);
    free(lv->drives);
    free(lv);
}

/* Forget every VM's and drive's figures (lv->mu held). */
static void forget_figures(orch_live *lv)
{
    for (int i = 0; i < lv->l->nvms; i++) {
        lv->vms[i].has_iv = 0;
        lv->vms[i].has_db = 0;
        lv->vms[i].has_qemu = 0;
    }
    for (int d = 0; d < lv->p->ndrives; d++)
        lv->drives[d].has_dev = lv->drives[d].has_bound = 0;
    lv->has_host_cpu = 0;
}

/* Count the faults the monitor saw since the last look (lv->mu held). */
static void sync_faults(orch_live *lv)
{
    orch_health h;
    for (int i = 0; lv->mon && i < lv->l->nvms; i++) {
        live_vm *v = &lv->vms[i];
        if (v->slot < 0 || v->fault != ORCH_FAULT_NONE)
            continue;
        if (orch_monitor_health(lv->mon, v->slot, &h) && h.fault != ORCH_FAULT_NONE) {
            v->fault = h.fault;
            lv->faults++;
        }
    }
}

void orch_live_vm(orch_live *lv, int vm, int rep, int slot)
{
    if (!lv || vm < 0 || vm >= lv->l->nvms)
        return;
    pthread_mutex_lock(&lv->mu);
    if (rep != lv->rep) {               /* a new repetition: new domains */
        lv->rep = rep;
        for (int i = 0; i < lv->l->nvms; i++) {
            lv->vms[i].slot = -1;
            lv->vms[i].fault = ORCH_FAULT_NONE;
            lv->vms[i].running = 0;
        }
        forget_figures(lv);
    }
    lv->vms[vm].slot = slot;
    lv->vms[vm].running = 1;
    lv->changed = orch_mono_now();
    pthread_mutex_unlock(&lv->mu);
}

void orch_live_phase(orch_live *lv, res_phase_id ph, int rep, int round)
{
    if (!lv)
        return;
    pthread_mutex_lock(&lv->mu);
    sync_faults(lv);
    lv->phase = ph;
    lv->rep = rep;
    lv->round = round;
    forget_figures(lv);
    lv->changed = orch_mono_now();
    pthread_mutex_unlock(&lv->mu);
}

void orch_live_phase_end(orch_live *lv)
{
    if (!lv)
        return;
    pthread_mutex_lock(&lv->mu);
    sync_faults(lv);
    lv->phase = RES_PHASE_NONE;
    lv->changed = orch_mono_now();
    pthread_mutex_unlock(&lv->mu);
}

void orch_live_interval(void *ctx, const orch_job *job, const char *phase,
                        const orch_interval *iv)
{
    orch_live *lv = ctx;
    long i = job->vm - lv->l->vms;
    if (i < 0 || i >= lv->l->nvms)
        return;
    pthread_mutex_lock(&lv->mu);
    lv->vms[i].iv = *iv;
    lv->vms[i].has_iv = 1;
    lv->changed = orch_mono_now();
    pthread_mutex_unlock(&lv->mu);
}

char *live_render(orch_live *lv, double *as_of)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    pthread_mutex_lock(&lv->mu);
    sync_faults(lv);
    live_text(lv, f);
    if (as_of)
        *as_of = orch_mono_now();
    pthread_mutex_unlock(&lv->mu);
    if (ferror(f)) {
        fclose(f);
        free(text);
        return NULL;
    }
    fclose(f);
    return text;
}

char *orch_live_render(orch_live *lv)
{
    return live_render(lv, NULL);
}

void live_scraped(orch_live *lv, double as_of)
{
    double now = orch_mono_now();
    pthread_mutex_lock(&lv->mu);
    if (lv->delivered > 0 && now - lv->delivered > lv->gap_max)
        lv->gap_max = now - lv->delivered;
    lv->delivered = now;
    if (as_of > lv->scraped)
        lv->scraped = as_of;
    pthread_cond_broadcast(&lv->scrape_cv);
    pthread_mutex_unlock(&lv->mu);
}

void orch_live_tick(void *ctx, const orch_tel_now *now)
{
    orch_live *lv = ctx;
    pthread_mutex_lock(&lv->mu);
    for (int k = 0; k < now->nvms; k++) {
        const orch_tel_vm_now *x = &now->vms[k];
        if (x->vm < 0 || x->vm >= lv->l->nvms)
            continue;
        lv->vms[x->vm].has_db = x->has_db;
        lv->vms[x->vm].db = x->db;
        lv->vms[x->vm].has_qemu = x->has_qemu;
        lv->vms[x->vm].qemu = x->qemu;
    }
    for (int d = 0; d < now->ndrives && d < lv->p->ndrives; d++) {
        lv->drives[d].has_dev = now->drives[d].has_dev;
        lv->drives[d].dev = now->drives[d].dev;
        lv->drives[d].has_bound = now->drives[d].has_bound;
        lv->drives[d].bound = now->drives[d].bound;
    }
    lv->has_host_cpu = now->has_host_cpu;
    lv->host_cpu_pct = now->host_cpu_pct;
    lv->changed = orch_mono_now();
    pthread_mutex_unlock(&lv->mu);
}

void orch_live_detach(orch_live *lv)
{
    if (!lv)
        return;
    pthread_mutex_lock(&lv->mu);
    sync_faults(lv);
    lv->mon = NULL;
    pthread_mutex_unlock(&lv->mu);
}

int orch_live_linger(orch_live *lv, double *waited_s, double *limit_s)
{
    double start = orch_mono_now(), limit;
    int rc;
    *waited_s = *limit_s = 0;
    if (!lv)
        return -1;
    pthread_mutex_lock(&lv->mu);
    /* twice the scraper's longest gap, and a second for the scrape
     * itself; never under ORCH_LIVE_LINGER_MIN_S nor over _MAX_S */
    limit = fmin(ORCH_LIVE_LINGER_MAX_S, fmax(ORCH_LIVE_LINGER_MIN_S, 2 * lv->gap_max + 1));
    *limit_s = limit;
    if (lv->scraped <= 0) {
        rc = -1;
    } else {
        while (lv->scraped < lv->changed && orch_mono_now() - start < limit) {
            struct timespec until;
            double at;
            clock_gettime(CLOCK_REALTIME, &until);
            at = (double)until.tv_sec + (double)until.tv_nsec / 1e9 + 0.2;
            until.tv_sec = (time_t)at;
            until.tv_nsec = (long)((at - (double)until.tv_sec) * 1e9);
            int e = pthread_cond_timedwait(&lv->scrape_cv, &lv->mu, &until);
            if (e != 0 && e != ETIMEDOUT)
                break;
        }
        rc = lv->scraped >= lv->changed;
    }
    pthread_mutex_unlock(&lv->mu);
    *waited_s = orch_mono_now() - start;
    return rc;
}
