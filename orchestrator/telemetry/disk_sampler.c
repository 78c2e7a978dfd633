/* disk_sampler.c — a drive's device sampled during the phases
 * (orch_disk_sampler, host_drive.h): each tick reads the device's sysfs
 * stat (host_drive.c) and keeps the interval since the last one, per
 * drive, under one lock (ticks come from the monitor's thread). */
#include "telemetry/host_drive.h"
#include "attributes.h"
#include "util/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct disk_slot {
    char *drive, *disk;
    orch_diskstat prev;
    int have_prev;
    orch_diskstat_delta *d;
    int n, cap;
    int errors;
    char err[DB_ERR_LEN];
} disk_slot;

struct orch_disk_sampler {
    pthread_mutex_t lock;
    char *sysfs;
    disk_slot *slots;
    int nslots;
};

orch_disk_sampler *orch_disk_sampler_new(const char *sysfs)
{
    orch_disk_sampler *s = calloc(1, sizeof *s);
    if (!s || !(s->sysfs = strdup(sysfs))) {
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

void orch_disk_sampler_free(orch_disk_sampler *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nslots; i++) {
        free(s->slots[i].drive);
        free(s->slots[i].disk);
        free(s->slots[i].d);
    }
    free(s->slots);
    free(s->sysfs);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

int orch_disk_sampler_add(orch_disk_sampler *s, const char *drive, const char *disk)
{
    int ret = -1;
    pthread_mutex_lock(&s->lock);
    disk_slot *grown = realloc(s->slots, (size_t)(s->nslots + 1) * sizeof *grown);
    if (grown) {
        s->slots = grown;
        disk_slot *d = &grown[s->nslots];
        memset(d, 0, sizeof *d);
        d->drive = strdup(drive);
        d->disk = strdup(disk);
        if (d->drive && d->disk) {
            ret = s->nslots++;
        } else {
            free(d->drive);
            free(d->disk);
        }
    }
    pthread_mutex_unlock(&s->lock);
    return ret;
}

/* With the lock held. */
static void sample_slot(orch_disk_sampler *s, disk_slot *d, double t)
{
    orch_diskstat cur;
    char err[DB_ERR_LEN / 2];   /* a sysfs path and its errno: room for "drive: " */
    if (orch_diskstat_read(s->sysfs, d->disk, &cur, err, sizeof err) < 0) {
        d->errors++;
        snprintf(d->err, sizeof d->err, "%s: %s", d->drive, err);
        return;
    }
    cur.t = t;
    if (d->have_prev && t > d->prev.t) {
        if (d->n == d->cap) {
            int cap = d->cap ? d->cap * 2 : 64;
            orch_diskstat_delta *grown = realloc(d->d, (size_t)cap * sizeof *grown);
            if (!grown) {
                d->errors++;
                snprintf(d->err, sizeof d->err, "%s: out of memory", d->drive);
                return;
            }
            d->d = grown;
            d->cap = cap;
        }
        orch_diskstat_delta_of(&d->prev, &cur, &d->d[d->n++]);
    }
    d->prev = cur;
    d->have_prev = 1;
}

void orch_disk_sampler_sample_at(orch_disk_sampler *s, double t)
{
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->nslots; i++)
        sample_slot(s, &s->slots[i], t);
    pthread_mutex_unlock(&s->lock);
}

void orch_disk_sampler_tick(void *sampler)
{
    orch_disk_sampler_sample_at(sampler, orch_mono_now());
}

void orch_disk_sampler_restart(orch_disk_sampler *s, double t)
{
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < s->nslots; i++) {
        s->slots[i].n = 0;
        s->slots[i].have_prev = 0;
        sample_slot(s, &s->slots[i], t);
    }
    pthread_mutex_unlock(&s->lock);
}

int orch_disk_sampler_series(orch_disk_sampler *s, int i, orch_diskstat_delta **out)
{
    int ret = -1;
    *out = NULL;
    pthread_mutex_lock(&s->lock);
    if (i >= 0 && i < s->nslots) {
        disk_slot *d = &s->slots[i];
        ret = d->n;
        if (d->n > 0) {
            *out = malloc((size_t)d->n * sizeof **out);
            if (*out)
                memcpy(*out, d->d, (size_t)d->n * sizeof **out);
            else
                ret = -1;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return ret;
}

int orch_disk_sampler_last(orch_disk_sampler *s, int i, orch_diskstat_delta *out)
{
    int found = 0;
    pthread_mutex_lock(&s->lock);
    if (i >= 0 && i < s->nslots && s->slots[i].n > 0) {
        *out = s->slots[i].d[s->slots[i].n - 1];
        found = 1;
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

int orch_disk_sampler_errors(orch_disk_sampler *s, int i, char *err, size_t errlen)
{
    int n = -1;
    pthread_mutex_lock(&s->lock);
    if (i >= 0 && i < s->nslots) {
        n = s->slots[i].errors;
        if (err && errlen)
            snprintf(err, errlen, "%s", s->slots[i].err);
    }
    pthread_mutex_unlock(&s->lock);
    return n;
}
