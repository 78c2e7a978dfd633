/* guest_view.c — the guest's /proc/diskstats of its database disk,
 * through the guest agent, on a thread of its own (guest_view.h). */
#include "telemetry/guest_view.h"
#include "attributes.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "nap.h"
#include "util/util.h"

#define AGENT_TIMEOUT_S 5
#define READ_CHUNK      (64 * 1024)
#define EXEC_WAIT_MS    10000

/* The by-id names of the disk with serial dbdisk, as images/guest's
 * drivebench-dbdisk tries them; the first block device is resolved. */
static const char resolve_script[] =
    "for p in /dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_dbdisk "
    "/dev/disk/by-id/scsi-SQEMU_QEMU_HARDDISK_dbdisk /dev/disk/by-id/virtio-dbdisk "
    "/dev/disk/by-id/ata-QEMU_HARDDISK_dbdisk; do "
    "[ -b \"$p\" ] && exec readlink -f \"$p\"; done; exit 1";

/* One VM in one repetition. */
typedef struct guest_vm {
    virDomainPtr dom;           /* referenced; NULL: no guest view */
    char  *name;
    int    rep;
    int    resolved;            /* disk[] or note[] says the outcome */
    char   disk[64];
    char   note[256];
    int    have_prev;
    orch_diskstat prev;
    orch_diskstat_delta *d;     /* since the phase start */
    int    n, cap;
    int    errors;
} guest_vm;

struct tel_guest {
    orch_agent_fn   fn;
    void           *ctx;
    int             interval_ms;
    FILE           *out;
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    pthread_t       thread;
    int             has_thread, quit;
    int             sampling, rep;
    unsigned        gen;        /* bumped at every phase start and end */
    guest_vm       *vms;
    int             nvms, cap;
};

int tel_guest_diskstats_line(const char *text, const char *name, orch_diskstat *s)
{
    size_t nl = strlen(name);
    for (const char *line = text; line && *line;) {
        const char *p = line, *end = strchr(line, '\n');
        unsigned maj, min;
        int off = 0;
        if (sscanf(p, " %u %u %n", &maj, &min, &off) == 2 && off > 0) {
            p += off;
            if (strncmp(p, name, nl) == 0 && (p[nl] == ' ' || p[nl] == '\t')) {
                char buf[512];
                size_t len = end ? (size_t)(end - p) : strlen(p);
                if (len >= sizeof buf)
                    len = sizeof buf - 1;
                memcpy(buf, p + nl, len - nl);
                buf[len - nl] = '\0';
                return orch_diskstat_parse(buf, s);
            }
        }
        line = end ? end + 1 : NULL;
    }
    return -1;
}

int tel_guest_disk_name(const char *out, char *name, size_t len)
{
    const char *p;
    size_t n;
    if (!out || strncmp(out, "/dev/", 5) != 0)
        return -1;
    p = out + 5;
    n = strcspn(p, "\r\n");
    if (n == 0 || n >= len || memchr(p, '/', n) || memchr(p, ' ', n))
        return -1;
    memcpy(name, p, n);
    name[n] = '\0';
    return 0;
}


/* ------------------------------------------------------------------ */
/* agent work, without the lock                                        */

static json_object *call(tel_guest *g, const guest_vm *v, const char *name, json_object *args,
                         char *err, size_t errlen)
{
    return orch_agent_call(g->fn, g->ctx, v->dom, v->name, name, args, AGENT_TIMEOUT_S, err,
                           errlen);
}

/* The database disk's kernel name into disk, or why not into note. */
static void resolve(tel_guest *g, const guest_vm *v, char *disk, size_t dlen, char *note,
                    size_t nlen)
{
    char err[DB_ERR_LEN];
    int code = -1;
    char *text = orch_agent_sh(g->fn, g->ctx, v->dom, v->name, resolve_script, EXEC_WAIT_MS,
                               &code, err, sizeof err);
    if (!text) {
        snprintf(note, nlen, "no guest view: %.200s", err);   /* a note of the summary: short */
        return;
    }
    if (code != 0 || tel_guest_disk_name(text, disk, dlen) < 0)
        snprintf(note, nlen, "no guest view: the guest has no disk with serial dbdisk "
                 "under /dev/disk/by-id (readlink said \"%.60s\")", text);
    free(text);
}

/* The guest's /proc/diskstats (caller frees), NULL with err. */
static char *read_diskstats(tel_guest *g, const guest_vm *v, char *err, size_t errlen)
{
    json_object *args = json_object_new_object(), *ret, *x;
    int64_t handle;
    char *text = NULL;
    size_t len = 0;
    json_object_object_add(args, "path", json_object_new_string("/proc/diskstats"));
    json_object_object_add(args, "mode", json_object_new_string("r"));
    if (!(ret = call(g, v, "guest-file-open", args, err, errlen)))
        return NULL;
    handle = json_object_get_int64(ret);
    json_object_put(ret);
    args = json_object_new_object();
    json_object_object_add(args, "handle", json_object_new_int64(handle));
    json_object_object_add(args, "count", json_object_new_int(READ_CHUNK));
    if ((ret = call(g, v, "guest-file-read", args, err, errlen))) {
        if (json_object_object_get_ex(ret, "buf-b64", &x))
            text = orch_b64_decode(json_object_get_string(x), &len);
        if (!text)
            snprintf(err, errlen, "%s: guest-file-read of /proc/diskstats gave no data",
                     v->name);
        json_object_put(ret);
    }
    args = json_object_new_object();
    json_object_object_add(args, "handle", json_object_new_int64(handle));
    json_object_put(call(g, v, "guest-file-close", args, err, errlen));
    return text;
}

/* ------------------------------------------------------------------ */

static void append(guest_vm *v, const orch_diskstat *s)
{
    if (v->have_prev && s->t > v->prev.t) {
        if (v->n == v->cap) {
            int ncap = v->cap ? v->cap * 2 : 64;
            orch_diskstat_delta *nd = realloc(v->d, (size_t)ncap * sizeof *nd);
            if (!nd)
                return;
            v->d = nd;
            v->cap = ncap;
        }
        orch_diskstat_delta_of(&v->prev, s, &v->d[v->n++]);
    }
    v->prev = *s;
    v->have_prev = 1;
}

void tel_guest_sample_all(tel_guest *g)
{
    tel_guest_sample_at(g, -1);
}

void tel_guest_sample_at(tel_guest *g, double at)
{
    pthread_mutex_lock(&g->mu);
    for (int i = 0; g->sampling && i < g->nvms; i++) {
        guest_vm one = g->vms[i];       /* dom stays referenced while in the list */
        unsigned gen = g->gen;
        char disk[64] = "", note[256] = "", err[DB_ERR_LEN] = "";
        orch_diskstat s;
        char *text;
        int ok = 0;
        if (one.rep != g->rep || !one.dom || (one.resolved && !one.disk[0]))
            continue;
        pthread_mutex_unlock(&g->mu);
        if (!one.resolved)
            resolve(g, &one, disk, sizeof disk, note, sizeof note);
        else
            snprintf(disk, sizeof disk, "%s", one.disk);
        if (disk[0]) {
            double t0 = orch_mono_now();
            text = read_diskstats(g, &one, err, sizeof err);
            s.t = at >= 0 ? at : (t0 + orch_mono_now()) / 2;
            if (text && tel_guest_diskstats_line(text, disk, &s) == 0)
                ok = 1;
            else if (text)
                snprintf(err, sizeof err, "%s: no line of %s in the guest's /proc/diskstats",
                         one.name, disk);
            free(text);
        }
        pthread_mutex_lock(&g->mu);
        if (!one.resolved) {
            guest_vm *v = &g->vms[i];
            v->resolved = 1;
            snprintf(v->disk, sizeof v->disk, "%s", disk);
            snprintf(v->note, sizeof v->note, "%s", note);
            if (note[0])
                fprintf(g->out, "drivebench: %s: %s\n", one.name, note);
        }
        if (ok && gen == g->gen)
            append(&g->vms[i], &s);
        else if (!ok && disk[0] && g->vms[i].errors++ == 0)
            fprintf(g->out, "drivebench: %s: guest view sample failed (%s); later "
                    "failures are not reported\n", one.name, err);
    }
    pthread_mutex_unlock(&g->mu);
}

static void *guest_thread(void *arg)
{
    tel_guest *g = arg;
    pthread_mutex_lock(&g->mu);
    while (!g->quit) {
        struct timespec until;
        if (!g->sampling) {
            pthread_cond_wait(&g->cv, &g->mu);
            continue;
        }
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += g->interval_ms / 1000;
        until.tv_nsec += (long)(g->interval_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_mutex_unlock(&g->mu);
        tel_guest_sample_all(g);
        pthread_mutex_lock(&g->mu);
        while (!g->quit && g->sampling
               && pthread_cond_timedwait(&g->cv, &g->mu, &until) != ETIMEDOUT)
            ;
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

tel_guest *tel_guest_new(orch_agent_fn fn, void *ctx, int interval_ms, int no_thread, FILE *out)
{
    tel_guest *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->fn = fn ? fn : orch_agent_libvirt;
    g->ctx = ctx;
    g->interval_ms = interval_ms > 0 ? interval_ms : 1000;
    g->out = out ? out : stderr;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    if (!no_thread)
        g->has_thread = pthread_create(&g->thread, NULL, guest_thread, g) == 0;
    if (!no_thread && !g->has_thread)
        fprintf(g->out, "drivebench: no thread for the guest view; it is not recorded\n");
    return g;
}

void tel_guest_free(tel_guest *g)
{
    if (!g)
        return;
    if (g->has_thread) {
        pthread_mutex_lock(&g->mu);
        g->quit = 1;
        pthread_cond_broadcast(&g->cv);
        pthread_mutex_unlock(&g->mu);
        pthread_join(g->thread, NULL);
    }
    for (int i = 0; i < g->nvms; i++) {
        if (g->vms[i].dom)
            virDomainFree(g->vms[i].dom);
        free(g->vms[i].name);
        free(g->vms[i].d);
    }
    free(g->vms);
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

int tel_guest_add(tel_guest *g, virDomainPtr dom, const char *name, int rep, const char *why)
{
    guest_vm *v;
    int i = -1;
    pthread_mutex_lock(&g->mu);
    if (g->nvms == g->cap) {
        int ncap = g->cap ? g->cap * 2 : 8;
        guest_vm *n = realloc(g->vms, (size_t)ncap * sizeof *n);
        if (!n)
            goto cleanup;
        g->vms = n;
        g->cap = ncap;
    }
    v = &g->vms[g->nvms];
    memset(v, 0, sizeof *v);
    if (!(v->name = strdup(name)))
        goto cleanup;
    v->rep = rep;
    if (dom && virDomainRef(dom) == 0)
        v->dom = dom;
    if (!v->dom) {
        v->resolved = 1;
        snprintf(v->note, sizeof v->note, "no guest view: %s", why ? why : "no domain");
    }
    i = g->nvms++;
cleanup:
    pthread_mutex_unlock(&g->mu);
    return i;
}

void tel_guest_phase_start(tel_guest *g, int rep)
{
    pthread_mutex_lock(&g->mu);
    g->gen++;
    g->rep = rep;
    g->sampling = 1;
    for (int i = 0; i < g->nvms; i++) {
        g->vms[i].n = 0;
        g->vms[i].have_prev = 0;
    }
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

void tel_guest_phase_end(tel_guest *g)
{
    pthread_mutex_lock(&g->mu);
    g->gen++;
    g->sampling = 0;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

int tel_guest_series(tel_guest *g, int i, orch_diskstat_delta **out)
{
    int n = -1;
    *out = NULL;
    pthread_mutex_lock(&g->mu);
    if (i >= 0 && i < g->nvms) {
        n = g->vms[i].n;
        if (n > 0 && !(*out = malloc((size_t)n * sizeof **out)))
            n = -1;
        else if (n > 0)
            memcpy(*out, g->vms[i].d, (size_t)n * sizeof **out);
    }
    pthread_mutex_unlock(&g->mu);
    return n;
}

void tel_guest_note(tel_guest *g, int i, char *buf, size_t len)
{
    pthread_mutex_lock(&g->mu);
    snprintf(buf, len, "%s", i >= 0 && i < g->nvms ? g->vms[i].note : "not sampled");
    pthread_mutex_unlock(&g->mu);
}
