/* devlat.c — the drive's request latencies from the block tracepoints
 * (devlat.h): the trace_pipe parser, the pairing of issues and
 * completions, the tracefs instance and its reader thread. */
#include "telemetry/devlat.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define NBUCKETS     4096           /* pending issues' hash buckets */
#define MAX_PENDING  (1 << 20)      /* issues kept waiting for their completion */
#define MAX_DISKS    8
#define BUFFER_KB    "4096"         /* per CPU, of the instance */

/* ------------------------------------------------------------------ */
/* parsing                                                             */

/* The kind of a request from its rwbs: a leading F is a flush
 * (REQ_PREFLUSH); "F"/"FF"/"FN" alone are flush requests, "FWS" a write
 * that carried one. */
static int rwbs_class(const char *rwbs)
{
    const char *op = rwbs;
    if (*op == 'F') {
        if (op[1] == '\0' || op[1] == 'F' || op[1] == 'N')
            return RES_DEVLAT_FLUSH;
        op++;
    }
    switch (*op) {
    case 'R': return RES_DEVLAT_READ;
    case 'W': return RES_DEVLAT_WRITE;
    default:  return -1;
    }
}

int tel_devlat_parse_line(const char *line, tel_devlat_event *ev)
{
    static const char issue[] = ": block_rq_issue: ", done[] = ": block_rq_complete: ";
    const char *m = strstr(line, issue), *p, *ts;
    char rwbs[16];
    int off = 0;
    memset(ev, 0, sizeof *ev);
    if (m)
        p = m + sizeof issue - 1;
    else if ((m = strstr(line, done))) {
        p = m + sizeof done - 1;
        ev->complete = 1;
    } else
        return -1;
    for (ts = m; ts > line && ts[-1] != ' '; ts--)
        ;
    if (sscanf(ts, "%lf", &ev->ts) != 1)
        return -1;
    if (sscanf(p, "%u,%u %15s %n", &ev->major, &ev->minor, rwbs, &off) != 3 || off == 0)
        return -1;
    p += off;
    /* issue: "BYTES (CMD) SECTOR + NR ..."; complete: "(CMD) SECTOR + NR ..." */
    if (!(p = strchr(p, '(')) || !(p = strchr(p, ')')))
        return -1;
    if (sscanf(p + 1, " %" SCNu64, &ev->sector) != 1)
        return -1;
    ev->cls = rwbs_class(rwbs);
    return 0;
}

/* ------------------------------------------------------------------ */
/* pairing                                                             */

typedef struct pend {
    struct pend *next;
    unsigned major, minor;
    uint64_t sector;
    int      cls;
    double   ts;
} pend;

struct tel_devlat_acc {
    double  t0, interval_s;
    hist   *h[RES_DEVLAT_N];
    hist   *iv;                 /* the current interval, every class */
    long    cur;                /* its index; -1 none yet */
    res_devlat_point *pts;
    int     npts, cap;
    pend   *bucket[NBUCKETS];
    int     npend;
    int64_t unmatched;
};

static unsigned pend_hash(unsigned major, unsigned minor, uint64_t sector, int cls)
{
    uint64_t k = sector * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)major << 40) ^ ((uint64_t)minor << 20)
                 ^ (uint64_t)(cls + 1);
    return (unsigned)(k >> 32 ^ k) % NBUCKETS;
}

static void pend_clear(tel_devlat_acc *a)
{
    for (int b = 0; b < NBUCKETS; b++)
        while (a->bucket[b]) {
            pend *n = a->bucket[b]->next;
            free(a->bucket[b]);
            a->bucket[b] = n;
        }
    a->npend = 0;
}

tel_devlat_acc *tel_devlat_acc_new(void)
{
    tel_devlat_acc *a = calloc(1, sizeof *a);
    int ok = a != NULL;
    for (int c = 0; ok && c < RES_DEVLAT_N; c++)
        ok = (a->h[c] = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS)) != NULL;
    if (ok && !(a->iv = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS)))
        ok = 0;
    if (!ok) {
        tel_devlat_acc_free(a);
        return NULL;
    }
    a->cur = -1;
    a->interval_s = 1;
    return a;
}

void tel_devlat_acc_free(tel_devlat_acc *a)
{
    if (!a)
        return;
    pend_clear(a);
    for (int c = 0; c < RES_DEVLAT_N; c++)
        hist_free(a->h[c]);
    hist_free(a->iv);
    free(a->pts);
    free(a);
}

void tel_devlat_acc_restart(tel_devlat_acc *a, double t0, double interval_s)
{
    pend_clear(a);
    for (int c = 0; c < RES_DEVLAT_N; c++)
        hist_reset(a->h[c]);
    hist_reset(a->iv);
    a->t0 = t0;
    a->interval_s = interval_s > 0 ? interval_s : 1;
    a->cur = -1;
    a->npts = 0;
    a->unmatched = 0;
}

/* Close the current interval into a->pts (a point per interval, those
 * without completions too, so the series stays on the TPS grid). */
static void close_interval(tel_devlat_acc *a)
{
    res_devlat_point *p;
    if (a->cur < 0)
        return;
    while (a->npts <= a->cur) {
        if (a->npts == a->cap) {
            int ncap = a->cap ? a->cap * 2 : 64;
            res_devlat_point *n = realloc(a->pts, (size_t)ncap * sizeof *n);
            if (!n)
                return;
            a->pts = n;
            a->cap = ncap;
        }
        p = &a->pts[a->npts];
        p->t = (a->npts + 1) * a->interval_s;
        p->n = 0;
        p->p50_ms = p->p99_ms = p->max_ms = NAN;
        a->npts++;
    }
    p = &a->pts[a->cur];
    p->n = a->iv->total;
    if (p->n > 0) {
        p->p50_ms = (double)hist_percentile(a->iv, 50) / 1000.0;
        p->p99_ms = (double)hist_percentile(a->iv, 99) / 1000.0;
        p->max_ms = (double)a->iv->max / 1000.0;
    }
    hist_reset(a->iv);
}

void tel_devlat_acc_event(tel_devlat_acc *a, const tel_devlat_event *ev)
{
    unsigned b;
    pend **pp, *hit = NULL, **hitp = NULL;
    /* a flush request is issued at sector 0 and completes at sector ~0
     * (this kernel prints 18446744073709551615): flushes of a device pair
     * in order, whatever their sector */
    uint64_t sector = ev->cls == RES_DEVLAT_FLUSH ? 0 : ev->sector;
    if (ev->cls < 0)
        return;
    b = pend_hash(ev->major, ev->minor, sector, ev->cls);
    if (!ev->complete) {
        pend *n;
        if (a->npend >= MAX_PENDING || !(n = malloc(sizeof *n)))
            return;
        *n = (pend){ NULL, ev->major, ev->minor, sector, ev->cls, ev->ts };
        for (pp = &a->bucket[b]; *pp; pp = &(*pp)->next)     /* oldest first */
            ;
        *pp = n;
        a->npend++;
        return;
    }
    for (pp = &a->bucket[b]; *pp; pp = &(*pp)->next)
        if ((*pp)->major == ev->major && (*pp)->minor == ev->minor
            && (*pp)->sector == sector && (*pp)->cls == ev->cls) {
            hit = *pp;
            hitp = pp;
            break;
        }
    if (!hit) {
        if (ev->ts >= a->t0)
            a->unmatched++;
        return;
    }
    *hitp = hit->next;
    a->npend--;
    if (ev->ts >= a->t0) {
        long k = (long)floor((ev->ts - a->t0) / a->interval_s);
        int64_t us = (int64_t)llround((ev->ts - hit->ts) * 1e6);
        if (k != a->cur) {
            close_interval(a);
            a->cur = k;
        }
        hist_record(a->h[ev->cls], us);
        hist_record(a->h[RES_DEVLAT_ALL], us);
        hist_record(a->iv, us);
    }
    free(hit);
}

void tel_devlat_acc_finish(tel_devlat_acc *a)
{
    close_interval(a);
    a->cur = -1;
}

const hist *tel_devlat_acc_hist(const tel_devlat_acc *a, int c)
{
    return c >= 0 && c < RES_DEVLAT_N ? a->h[c] : NULL;
}

const res_devlat_point *tel_devlat_acc_series(const tel_devlat_acc *a, int *n)
{
    *n = a->npts;
    return a->pts;
}

int64_t tel_devlat_acc_unmatched(const tel_devlat_acc *a)
{
    return a->unmatched;
}

/* ------------------------------------------------------------------ */
/* the tracefs instance                                                */

struct tel_devlat {
    char  root[256];            /* tracefs mount point */
    char  inst[384];            /* our instance folder */
    int   mounted;              /* root is ours to unmount */
    int   fd;                   /* trace_pipe */
    pthread_t thread;
    int   has_thread, quit;
    pthread_mutex_t mu;         /* acc, quit */
    pthread_mutex_t rmu;        /* reading fd, part: the thread and phase_end */
    tel_devlat_acc *acc;
    char  part[512];            /* a line not read to its end */
    size_t partlen;
};

static int write_file(const char *dir, const char *name, const char *text)
{
    char path[640];
    int fd, rc;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0)
        return -1;
    rc = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
    close(fd);
    return rc;
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The tracefs mount point into d->root: given, found, or mounted. */
static int find_tracefs(tel_devlat *d, const char *given, char *err, size_t errlen)
{
    static const char *const known[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
    char probe[320];
    if (given) {
        snprintf(d->root, sizeof d->root, "%s", given);
        return 0;
    }
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        snprintf(probe, sizeof probe, "%s/instances", known[i]);
        if (is_dir(probe)) {
            snprintf(d->root, sizeof d->root, "%s", known[i]);
            return 0;
        }
    }
    if (geteuid() != 0) {
        snprintf(err, errlen, "not root: tracefs cannot be mounted");
        return -1;
    }
    snprintf(d->root, sizeof d->root, "/tmp/drivebench-tracefs-XXXXXX");
    if (!mkdtemp(d->root) || mount("nodev", d->root, "tracefs", 0, NULL) < 0) {
        snprintf(err, errlen, "cannot mount tracefs: %s", strerror(errno));
        if (d->root[0])
            rmdir(d->root);
        d->root[0] = '\0';
        return -1;
    }
    d->mounted = 1;
    return 0;
}

/* Feed the complete lines of buf[0..n) (and a part kept from before). */
static void feed(tel_devlat *d, const char *buf, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (buf + i)) : n - i;
        if (d->partlen + len < sizeof d->part) {
            memcpy(d->part + d->partlen, buf + i, len);
            d->partlen += len;
        } else
            d->partlen = sizeof d->part;        /* too long: dropped */
        if (!nl)
            break;
        if (d->partlen < sizeof d->part) {
            tel_devlat_event ev;
            d->part[d->partlen] = '\0';
            if (tel_devlat_parse_line(d->part, &ev) == 0) {
                pthread_mutex_lock(&d->mu);
                tel_devlat_acc_event(d->acc, &ev);
                pthread_mutex_unlock(&d->mu);
            }
        }
        d->partlen = 0;
        i += len + 1;
    }
}

/* Read what trace_pipe has now; 1 when something was read. */
static int drain(tel_devlat *d)
{
    static __thread char buf[65536];
    ssize_t n;
    pthread_mutex_lock(&d->rmu);
    n = read(d->fd, buf, sizeof buf);
    if (n > 0)
        feed(d, buf, (size_t)n);
    pthread_mutex_unlock(&d->rmu);
    return n > 0;
}

static void *reader(void *arg)
{
    tel_devlat *d = arg;
    for (;;) {
        struct pollfd pfd = { .fd = d->fd, .events = POLLIN };
        int quit;
        pthread_mutex_lock(&d->mu);
        quit = d->quit;
        pthread_mutex_unlock(&d->mu);
        if (quit)
            break;
        poll(&pfd, 1, 200);     /* woken by data, else every 200 ms */
        while (drain(d))
            ;
    }
    return NULL;
}

static void set_events(tel_devlat *d, const char *on)
{
    write_file(d->inst, "events/block/block_rq_issue/enable", on);
    write_file(d->inst, "events/block/block_rq_complete/enable", on);
}

tel_devlat *tel_devlat_start(const char *sysfs, const char *tracefs, const char *const *disks,
                             int ndisks, char *err, size_t errlen)
{
    static int seq;
    tel_devlat *d;
    char filter[512] = "", path[700];
    size_t fl = 0;

    if (ndisks <= 0 || ndisks > MAX_DISKS) {
        snprintf(err, errlen, "%d disks to trace", ndisks);
        return NULL;
    }
    if (!(d = calloc(1, sizeof *d))) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->fd = -1;
    pthread_mutex_init(&d->mu, NULL);
    pthread_mutex_init(&d->rmu, NULL);
    if (!(d->acc = tel_devlat_acc_new())) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    for (int i = 0; i < ndisks; i++) {
        unsigned maj, min;
        FILE *f;
        int ok;
        snprintf(path, sizeof path, "%s/block/%s/dev", sysfs, disks[i]);
        if (!(f = fopen(path, "r"))) {
            snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
            goto fail;
        }
        ok = fscanf(f, "%u:%u", &maj, &min) == 2;
        fclose(f);
        if (!ok) {
            snprintf(err, errlen, "%s: not MAJ:MIN", path);
            goto fail;
        }
        fl += (size_t)snprintf(filter + fl, sizeof filter - fl, "%sdev == %u",
                               i ? " || " : "", (maj << 20) | min);
    }
    if (find_tracefs(d, tracefs, err, errlen) < 0)
        goto fail;
    snprintf(path, sizeof path, "%s/events/block/block_rq_issue", d->root);
    if (!is_dir(path)) {
        snprintf(err, errlen, "%s has no block tracepoints (events/block/block_rq_issue)",
                 d->root);
        goto fail;
    }
    snprintf(d->inst, sizeof d->inst, "%s/instances/drivebench-%d-%d", d->root, (int)getpid(),
             __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
    if (mkdir(d->inst, 0700) < 0) {
        snprintf(err, errlen, "cannot make the tracefs instance %s: %s", d->inst,
                 strerror(errno));
        d->inst[0] = '\0';
        goto fail;
    }
    if (write_file(d->inst, "trace_clock", "mono") < 0
        || write_file(d->inst, "buffer_size_kb", BUFFER_KB) < 0
        || write_file(d->inst, "events/block/block_rq_issue/filter", filter) < 0
        || write_file(d->inst, "events/block/block_rq_complete/filter", filter) < 0) {
        snprintf(err, errlen, "cannot set up the tracefs instance %s: %s", d->inst,
                 strerror(errno));
        goto fail;
    }
    snprintf(path, sizeof path, "%s/trace_pipe", d->inst);
    if ((d->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        goto fail;
    }
    if (pthread_create(&d->thread, NULL, reader, d) != 0) {
        snprintf(err, errlen, "no thread to read the trace");
        goto fail;
    }
    d->has_thread = 1;
    return d;
fail:
    tel_devlat_free(d);
    return NULL;
}

void tel_devlat_phase_start(tel_devlat *d, double t0, double interval_s)
{
    if (!d)
        return;
    pthread_mutex_lock(&d->mu);
    tel_devlat_acc_restart(d->acc, t0, interval_s);
    pthread_mutex_unlock(&d->mu);
    set_events(d, "1");
}

void tel_devlat_phase_end(tel_devlat *d)
{
    if (!d)
        return;
    set_events(d, "0");
    while (d->fd >= 0 && drain(d))       /* what the buffer still holds */
        ;
    pthread_mutex_lock(&d->mu);
    tel_devlat_acc_finish(d->acc);
    pthread_mutex_unlock(&d->mu);
}

int tel_devlat_take(tel_devlat *d, hist **h, res_devlat_point **series, int *nseries,
                    int64_t *unmatched)
{
    const res_devlat_point *pts;
    int n, rc = 0;
    *series = NULL;
    *nseries = 0;
    pthread_mutex_lock(&d->mu);
    for (int c = 0; c < RES_DEVLAT_N && rc == 0; c++) {
        if (!h[c] && !(h[c] = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS)))
            rc = -1;
        else
            hist_add(h[c], d->acc->h[c]);
    }
    pts = tel_devlat_acc_series(d->acc, &n);
    if (rc == 0 && n > 0 && (*series = malloc((size_t)n * sizeof **series))) {
        memcpy(*series, pts, (size_t)n * sizeof **series);
        *nseries = n;
    } else if (n > 0)
        rc = -1;
    *unmatched += d->acc->unmatched;
    pthread_mutex_unlock(&d->mu);
    return rc;
}

void tel_devlat_free(tel_devlat *d)
{
    if (!d)
        return;
    if (d->inst[0])
        set_events(d, "0");
    if (d->has_thread) {
        pthread_mutex_lock(&d->mu);
        d->quit = 1;
        pthread_mutex_unlock(&d->mu);
        pthread_join(d->thread, NULL);
    }
    if (d->fd >= 0)
        close(d->fd);
    if (d->inst[0] && rmdir(d->inst) < 0)
        fprintf(stderr, "drivebench: cannot remove the tracefs instance %s: %s\n", d->inst,
                strerror(errno));
    if (d->mounted) {
        umount(d->root);
        rmdir(d->root);
    }
    tel_devlat_acc_free(d->acc);
    pthread_mutex_destroy(&d->mu);
    pthread_mutex_destroy(&d->rmu);
    free(d);
}
