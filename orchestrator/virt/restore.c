/* restore.c — database volumes restored from seeds, in parallel, with
 * progress (see restore.h). */
#include "virt/restore.h"
#include "virt/vol.h"
#include "virt/virt_error.h"
#include "attributes.h"
#include "plan/plan.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Run-time state of one job, apart from its inputs and outputs. */
typedef struct job_state {
    virStorageVolPtr seed;      /* looked up before the threads start */
    uint64_t bytes;             /* to copy: the seed's allocated bytes (a sparse
                                 * seed copies what it holds, not its virtual
                                 * size), at most the volume's capacity; 0
                                 * without seed */
    uint64_t done;              /* copied so far (qemu-img's progress) */
    double   started, ended;    /* monotonic seconds; 0 = not yet */
    orch_command *cmd;          /* a running qemu-img, or NULL; under mu */
} job_state;

typedef struct restore_ctx {
    orch_restore_job *jobs;
    job_state        *st;
    int               n, next, running;
    orch_ledger      *l;
    const orch_restore_opts *o;
    int               failed;   /* first failure's job, +1; 0 = none */
    int               stop;     /* no new jobs */
    pthread_mutex_t   mu;
    pthread_cond_t    cv;
} restore_ctx;

/* 1 when pool's volumes are files on this host that qemu-img can fill:
 * the qemu driver on a local URI. */
static int pool_is_local(virStoragePoolPtr pool)
{
    virConnectPtr conn = virStoragePoolGetConnect(pool);
    const char *type = virConnectGetType(conn);
    char *uri;
    int local;
    if (!type || strcmp(type, "QEMU") != 0)
        return 0;
    uri = virConnectGetURI(conn);
    local = uri && !orch_uri_is_remote(uri);
    free(uri);
    return local;
}

int orch_restore_data_bytes(const char *qemu_img, const char *path, uint64_t *bytes,
                            char *err, size_t errlen)
{
    const char *argv[] = { qemu_img ? qemu_img : "qemu-img", "map", "--output=json", path,
                           NULL };
    orch_command *cmd = orch_command_new(argv);
    json_object *map = NULL;
    char *out = NULL, why[DB_ERR_LEN];
    int st = -1, rc = -1;

    *bytes = 0;
    if (!cmd) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_output_limit(cmd, 64 << 20);   /* one line per extent */
    orch_command_timeout(cmd, 60000);
    if (orch_command_run(cmd, &st, &out, NULL, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s", why);
        goto cleanup;
    }
    if (st != 0 || !out || !(map = json_tokener_parse(out))
        || !json_object_is_type(map, json_type_array)) {
        snprintf(err, errlen, "qemu-img map %s failed (exit %d)", path, st);
        goto cleanup;
    }
    for (size_t i = 0; i < json_object_array_length(map); i++) {
        json_object *e = json_object_array_get_idx(map, i), *data, *len;
        if (json_object_object_get_ex(e, "data", &data) && json_object_get_boolean(data)
            && json_object_object_get_ex(e, "length", &len))
            *bytes += (uint64_t)json_object_get_int64(len);
    }
    rc = 0;
cleanup:
    json_object_put(map);
    free(out);
    orch_command_free(cmd);
    return rc;
}

/* 1 when seed has a backing file (its data is partly another file's). */
static int has_backing(virStorageVolPtr seed)
{
    char *xml = virStorageVolGetXMLDesc(seed, 0);
    int yes = xml && strstr(xml, "<backingStore>") != NULL;
    free(xml);
    return yes;
}

/* The bytes a restore of seed (info) into a volume of capacity copies:
 * its data — on a pool of this host, qemu-img map's data extents of it and
 * its backing chain (what qemu-img convert copies); elsewhere libvirt's
 * allocation of a seed without a backing file — at most capacity; the
 * capacity when neither can be told (an overlay elsewhere). */
static uint64_t seed_bytes(const orch_restore_job *job, virStorageVolPtr seed,
                           const virStorageVolInfo *info, const char *qemu_img)
{
    uint64_t cap = info->capacity < job->capacity ? info->capacity : job->capacity, data;
    char *path = NULL, err[DB_ERR_LEN];
    if (pool_is_local(job->pool) && (path = virStorageVolGetPath(seed))
        && orch_restore_data_bytes(qemu_img, path, &data, err, sizeof err) == 0) {
        free(path);
        return data < cap ? data : cap;
    }
    free(path);
    if (!has_backing(seed) && info->allocation < cap)
        return info->allocation;
    return cap;
}

/* 1 when dst accepts O_DIRECT (tmpfs before Linux 6.6 does not). */
static int direct_io_works(const char *path)
{
    int fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

/* "(12.50/100%)" anywhere in line: the percentage, else -1. */
static double progress_pct(const char *line)
{
    const char *p = strchr(line, '(');
    double pct;
    if (p && sscanf(p, "(%lf/100%%)", &pct) == 1)
        return pct;
    return -1;
}

/* Read qemu-img's output on fd until it ends: its progress ("(x/100%)",
 * each update ended by \r) goes to s->done, its last other line (an
 * error, ended by \n) to last. */
static void read_progress(restore_ctx *c, job_state *s, int fd, char *last, size_t lastlen)
{
    char chunk[4096], buf[4096];
    size_t len = 0;
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        for (ssize_t k = 0; k < n; k++) {
            char ch = chunk[k];
            double pct;
            if (ch != '\r' && ch != '\n' && len + 1 < sizeof buf) {
                buf[len++] = ch;
                continue;
            }
            buf[len] = '\0';
            pct = progress_pct(buf);
            if (pct >= 0) {
                pthread_mutex_lock(&c->mu);
                s->done = (uint64_t)((double)s->bytes * pct / 100);
                pthread_mutex_unlock(&c->mu);
            } else if (strspn(buf, " \t") < len) {
                snprintf(last, lastlen, "%s", buf + strspn(buf, " \t"));
            }
            len = 0;
        }
    }
}

/* Copy the seed into the volume's file with qemu-img, updating done as it
 * reports progress. 0, or -1 with job->err. */
static int fill_local(restore_ctx *c, int i, const char *src, const char *dst)
{
    orch_restore_job *job = &c->jobs[i];
    job_state *s = &c->st[i];
    const char *qi = c->o->qemu_img ? c->o->qemu_img : "qemu-img";
    const char *argv[16];
    int a = 0, rc = -1, status = -1, started;
    orch_command *cmd;
    char last[sizeof job->err] = "", why[DB_ERR_LEN];

    argv[a++] = qi;
    argv[a++] = "convert";
    argv[a++] = "-p";           /* "(x/100%)" on stdout */
    argv[a++] = "-n";           /* into the volume libvirt made */
    argv[a++] = "-m";           /* parallel requests: see restore.h */
    argv[a++] = "16";
    argv[a++] = "-W";
    if (direct_io_works(dst)) {
        argv[a++] = "-t";
        argv[a++] = "none";
    }
    argv[a++] = "-f";
    argv[a++] = "qcow2";        /* vol.c makes seed volumes qcow2 */
    argv[a++] = "-O";
    argv[a++] = "raw";
    argv[a++] = src;
    argv[a++] = dst;
    argv[a] = NULL;

    if (!(cmd = orch_command_new(argv))) {
        snprintf(job->err, sizeof job->err, "cannot restore %s: out of memory", job->name);
        return -1;
    }
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_TO_STDOUT);
    /* started under c->mu, so a stop either comes first or finds s->cmd */
    pthread_mutex_lock(&c->mu);
    if (c->stop) {
        pthread_mutex_unlock(&c->mu);
        orch_command_free(cmd);
        snprintf(job->err, sizeof job->err, "restore of %s stopped", job->name);
        return -1;
    }
    started = orch_command_start(cmd, why, sizeof why) == 0;
    if (started)
        s->cmd = cmd;
    pthread_mutex_unlock(&c->mu);
    if (!started) {
        snprintf(job->err, sizeof job->err, "cannot restore %s: %.900s", job->name, why);
        orch_command_free(cmd);
        return -1;
    }

    read_progress(c, s, orch_command_stdout_fd(cmd), last, sizeof last);
    orch_command_wait(cmd, &status);
    pthread_mutex_lock(&c->mu);
    s->cmd = NULL;
    pthread_mutex_unlock(&c->mu);
    orch_command_free(cmd);
    if (status == 0) {
        rc = 0;
    } else if (status > 128) {
        snprintf(job->err, sizeof job->err, "qemu-img convert of %s into %s stopped by signal %d",
                 src, dst, status - 128);
    } else {
        snprintf(job->err, sizeof job->err, "qemu-img convert of %s into %s failed: %s", src,
                 dst, last[0] ? last : "no message");
    }
    return rc;
}

/* Create and fill job i. 0, or -1 with job->err. */
static int restore_one(restore_ctx *c, int i)
{
    orch_restore_job *job = &c->jobs[i];
    job_state *s = &c->st[i];
    virStorageVolPtr vol;
    char *src = NULL, *dst = NULL;
    int rc = -1;

    job->local = s->seed && pool_is_local(job->pool);
    /* libvirt's clone when it cannot be filled here */
    vol = orch_vol_create(job->pool, c->l, job->name, "raw", job->capacity, NULL,
                          job->local ? NULL : s->seed, job->err, sizeof job->err);
    if (!vol)
        return -1;
    if (!job->local) {
        rc = 0;
        goto cleanup;
    }
    src = virStorageVolGetPath(s->seed);
    dst = virStorageVolGetPath(vol);
    if (!src || !dst) {
        snprintf(job->err, sizeof job->err, "cannot restore %s: no path for %s: %s", job->name,
                 src ? job->name : job->seed, orch_virt_error());
        goto cleanup;
    }
    if (access(src, R_OK) < 0 || access(dst, W_OK) < 0) {
        /* files of a system daemon this user may not touch: libvirt's
         * clone instead (the empty volume goes; the ledger keeps its name,
         * which teardown finds already gone) */
        job->local = 0;
        if (virStorageVolDelete(vol, 0) < 0) {
            snprintf(job->err, sizeof job->err, "cannot replace volume %s: %s", job->name,
                     orch_virt_error());
            goto cleanup;
        }
        virStorageVolFree(vol);
        vol = orch_vol_create(job->pool, c->l, job->name, "raw", job->capacity, NULL, s->seed,
                              job->err, sizeof job->err);
        rc = vol ? 0 : -1;
        goto cleanup;
    }
    rc = fill_local(c, i, src, dst);
cleanup:
    free(src);
    free(dst);
    if (vol)
        virStorageVolFree(vol);
    return rc;
}

static void *worker(void *arg)
{
    restore_ctx *c = arg;
    for (;;) {
        int i, rc;
        pthread_mutex_lock(&c->mu);
        if (c->stop || c->next >= c->n) {
            c->running--;
            pthread_cond_broadcast(&c->cv);
            pthread_mutex_unlock(&c->mu);
            return NULL;
        }
        i = c->next++;
        c->st[i].started = orch_mono_now();
        pthread_mutex_unlock(&c->mu);

        rc = restore_one(c, i);

        pthread_mutex_lock(&c->mu);
        c->st[i].ended = orch_mono_now();
        c->jobs[i].seconds = c->st[i].ended - c->st[i].started;
        if (rc == 0)
            c->st[i].done = c->st[i].bytes;
        else if (!c->failed) {
            c->failed = i + 1;
            c->stop = 1;
        }
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
    }
}

/* A drive's bytes done, bytes in all, and its wall time so far (first
 * start to last end, or to now while one runs). Under c->mu. */
static void drive_figure(const restore_ctx *c, int drive, double now, uint64_t *done,
                         uint64_t *bytes, double *secs)
{
    double first = 0, last = 0;
    int open = 0;
    *done = *bytes = 0;
    for (int i = 0; i < c->n; i++) {
        const job_state *s = &c->st[i];
        if (c->jobs[i].drive != drive || !s->bytes)
            continue;
        *done += s->done;
        *bytes += s->bytes;
        if (!s->started)
            continue;
        if (!first || s->started < first)
            first = s->started;
        if (s->ended > last)
            last = s->ended;
        open |= !s->ended;
    }
    *secs = !first ? 0 : (open ? now : last) - first;
}

/* One progress line on o->out: "restore: 1.2 GiB of 4.0 GiB (30%), d1
 * 350 MB/s, d2 410 MB/s, about 8 s left". Under c->mu. */
static void print_progress(const restore_ctx *c, int ndrives, double t0, int tty)
{
    FILE *out = c->o->out;
    uint64_t done = 0, total = 0;
    double now = orch_mono_now(), rate;
    char a[32], b[32];
    for (int i = 0; i < c->n; i++) {
        done += c->st[i].done;
        total += c->st[i].bytes;
    }
    fprintf(out, "%srestore: %s of %s (%d%%)", tty ? "\r" : "",
            orch_format_bytes(done, a, sizeof a), orch_format_bytes(total, b, sizeof b),
            total ? (int)(done * 100 / total) : 100);
    for (int d = 0; d < ndrives; d++) {
        uint64_t dd, db;
        double secs;
        drive_figure(c, d, now, &dd, &db, &secs);
        if (db)
            fprintf(out, ", %s %.0f MB/s",
                    c->o->drive_names ? c->o->drive_names[d] : "drive",
                    secs > 0 ? (double)dd / 1e6 / secs : 0.0);
    }
    rate = now > t0 ? (double)done / (now - t0) : 0;
    if (done < total && rate > 0)
        fprintf(out, ", about %.0f s left", (double)(total - done) / rate);
    fprintf(out, tty ? "   " : "\n");
    fflush(out);
}

/* Whether the caller asked the restores to stop (orch_restore_opts). */
static int stop_requested(const orch_restore_opts *o)
{
    return o->stop_requested && o->stop_requested(o->stop_ctx);
}

/* Look up every job's seed volume and its bytes to copy (into *total).
 * 0, or -1 with err naming a seed that is missing. */
static int look_up_seeds(restore_ctx *c, uint64_t *total, char *err, size_t errlen)
{
    orch_restore_job *jobs = c->jobs;
    for (int i = 0; i < c->n; i++) {
        virStorageVolInfo info;
        jobs[i].local = 0;
        jobs[i].seconds = 0;
        jobs[i].err[0] = '\0';
        if (!jobs[i].seed)
            continue;
        c->st[i].seed = virStorageVolLookupByName(jobs[i].pool, jobs[i].seed);
        if (!c->st[i].seed || virStorageVolGetInfo(c->st[i].seed, &info) < 0) {
            snprintf(err, errlen, "seed volume %s: %s", jobs[i].seed, orch_virt_error());
            return -1;
        }
        c->st[i].bytes = seed_bytes(&jobs[i], c->st[i].seed, &info, c->o->qemu_img);
        *total += c->st[i].bytes;
    }
    return 0;
}

/* The restore's end: each drive's bytes and time added to figures (when
 * not NULL) and, with o->out, one line of them. */
static void report_figures(const restore_ctx *c, int ndrives, orch_restore_figure *figures,
                           double t0, int tty, uint64_t total)
{
    const orch_restore_opts *o = c->o;
    if (o->out && total) {
        if (tty)
            print_progress(c, ndrives, t0, tty);
        fprintf(o->out, "%srestored in %.1f s:", tty ? "\n" : "", orch_mono_now() - t0);
    }
    for (int d = 0; d < ndrives; d++) {
        uint64_t done, bytes;
        double secs;
        char b[32];
        drive_figure(c, d, orch_mono_now(), &done, &bytes, &secs);
        if (!bytes)
            continue;
        if (figures) {
            figures[d].bytes += bytes;
            figures[d].seconds += secs;
        }
        if (o->out)
            fprintf(o->out, " %s %s in %.1f s (%.0f MB/s)",
                    o->drive_names ? o->drive_names[d] : "drive",
                    orch_format_bytes(bytes, b, sizeof b), secs,
                    secs > 0 ? (double)bytes / 1e6 / secs : 0.0);
    }
    if (o->out && total) {
        fprintf(o->out, "\n");
        fflush(o->out);
    }
}

int orch_restore_all(orch_restore_job *jobs, int n, orch_ledger *l,
                     orch_restore_figure *figures, int ndrives,
                     const orch_restore_opts *o, char *err, size_t errlen)
{
    restore_ctx c;
    pthread_t *threads = NULL;
    int nthreads = o->parallel > 0 ? o->parallel : ORCH_RESTORE_PARALLEL, started = 0;
    int rc = -1, tty = o->out && isatty(fileno(o->out));
    int every = o->progress_every > 0 ? o->progress_every : 10;
    double t0 = orch_mono_now(), last_print = t0;
    uint64_t total = 0;

    memset(&c, 0, sizeof c);
    c.jobs = jobs;
    c.n = n;
    c.l = l;
    c.o = o;
    pthread_mutex_init(&c.mu, NULL);
    pthread_cond_init(&c.cv, NULL);
    c.st = calloc((size_t)n + 1, sizeof *c.st);
    if (nthreads > n)
        nthreads = n;
    threads = calloc((size_t)nthreads + 1, sizeof *threads);
    if (!c.st || !threads) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    /* seeds first: a missing one fails before anything is created */
    if (look_up_seeds(&c, &total, err, errlen) < 0)
        goto cleanup;
    if (o->out && total) {
        char b[32];
        fprintf(o->out, "restoring %d database volume(s) from their seeds: %s, %d at a time\n",
                n, orch_format_bytes(total, b, sizeof b), nthreads);
        fflush(o->out);
    }
    c.running = nthreads;
    for (; started < nthreads; started++)
        if (pthread_create(&threads[started], NULL, worker, &c) != 0)
            break;
    pthread_mutex_lock(&c.mu);
    c.running -= nthreads - started;
    if (started < nthreads)
        c.stop = 1;             /* the threads that run finish their job */
    while (c.running > 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&c.cv, &c.mu, &ts);
        if (stop_requested(o) || c.stop) {
            c.stop = 1;
            for (int i = 0; i < n; i++)
                if (c.st[i].cmd)
                    orch_command_kill(c.st[i].cmd, SIGTERM);
        }
        if (o->out && total && c.running > 0 && orch_mono_now() - last_print >= (tty ? 1 : every)) {
            print_progress(&c, ndrives, t0, tty);
            last_print = orch_mono_now();
        }
    }
    pthread_mutex_unlock(&c.mu);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);

    if (stop_requested(o)) {
        snprintf(err, errlen, "interrupted");
        goto cleanup;
    }
    if (c.failed) {
        snprintf(err, errlen, "%s", jobs[c.failed - 1].err);
        goto cleanup;
    }
    if (started < nthreads && c.next < n) {
        snprintf(err, errlen, "cannot start restore threads: out of resources");
        goto cleanup;
    }
    report_figures(&c, ndrives, figures, t0, tty, total);
    rc = 0;
cleanup:
    for (int i = 0; c.st && i < n; i++)
        if (c.st[i].seed)
            virStorageVolFree(c.st[i].seed);
    free(c.st);
    free(threads);
    pthread_cond_destroy(&c.cv);
    pthread_mutex_destroy(&c.mu);
    return rc;
}
