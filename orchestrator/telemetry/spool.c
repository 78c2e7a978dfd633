/* spool.c — records on disk as they come (spool.h). */
#include "telemetry/spool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct orch_spool {
    pthread_mutex_t mu;
    int             fd;
    int64_t         end;
    char            what[4200];
    char            err[4400];       /* the first failure; "" when none */
};

orch_spool *orch_spool_of_fd(int fd, const char *what)
{
    orch_spool *s = calloc(1, sizeof *s);
    if (!s) {
        close(fd);
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    s->fd = fd;
    snprintf(s->what, sizeof s->what, "%s", what);
    return s;
}

orch_spool *orch_spool_open(const char *dir, char *err, size_t errlen)
{
    char path[4096], what[4200];
    orch_spool *s;
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    snprintf(path, sizeof path, "%s/.telemetry-spool-XXXXXX", dir);
    /* a file system without O_TMPFILE: a name, unlinked at once */
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)
        && (fd = mkostemp(path, O_CLOEXEC)) >= 0)
        unlink(path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot make the telemetry spool in %s: %s", dir,
                 strerror(errno));
        return NULL;
    }
    snprintf(what, sizeof what, "the telemetry spool in %s", dir);
    if (!(s = orch_spool_of_fd(fd, what)))
        snprintf(err, errlen, "out of memory");
    return s;
}

void orch_spool_free(orch_spool *s)
{
    if (!s)
        return;
    close(s->fd);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* Set the sticky error (s->mu held). */
static void failed(orch_spool *s, const char *op, int e)
{
    if (!s->err[0])
        snprintf(s->err, sizeof s->err, "cannot %s %s: %s", op, s->what,
                 e ? strerror(e) : "short transfer");
}

/* All of len bytes at off, written (wr) or read. 0, or the errno (0 on a
 * short read past the end: -1). */
static int xfer(int fd, int wr, void *buf, size_t len, int64_t off)
{
    char *p = buf;
    while (len > 0) {
        ssize_t k = wr ? pwrite(fd, p, len, (off_t)off) : pread(fd, p, len, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? errno : -1;
        p += k;
        len -= (size_t)k;
        off += k;
    }
    return 0;
}

int64_t orch_spool_put(orch_spool *s, const void *rec, size_t len, size_t n)
{
    int64_t off = -1;
    int e;
    pthread_mutex_lock(&s->mu);
    if (s->err[0])
        goto cleanup;
    if ((e = xfer(s->fd, 1, (void *)rec, len * n, s->end)) != 0) {
        failed(s, "write", e > 0 ? e : 0);
        goto cleanup;
    }
    off = s->end;
    s->end += (int64_t)(len * n);
cleanup:
    pthread_mutex_unlock(&s->mu);
    return off;
}

int orch_spool_get(orch_spool *s, int64_t off, void *rec, size_t len, size_t n)
{
    int e, rc = 0;
    if (n == 0)
        return 0;
    if ((e = xfer(s->fd, 0, rec, len * n, off)) != 0) {
        pthread_mutex_lock(&s->mu);
        failed(s, "read", e > 0 ? e : 0);
        pthread_mutex_unlock(&s->mu);
        rc = -1;
    }
    return rc;
}

int orch_spool_error(orch_spool *s, char *err, size_t errlen)
{
    int bad;
    pthread_mutex_lock(&s->mu);
    bad = s->err[0] != 0;
    if (bad && err && errlen)
        snprintf(err, errlen, "%s", s->err);
    pthread_mutex_unlock(&s->mu);
    return bad;
}

int64_t orch_spool_size(orch_spool *s)
{
    int64_t n;
    pthread_mutex_lock(&s->mu);
    n = s->end;
    pthread_mutex_unlock(&s->mu);
    return n;
}
