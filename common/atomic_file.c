/* atomic_file.c — check-then-write-by-rename output files (see
 * atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* "DIR/.NAME.XXXXXX" for path "DIR/NAME"; dir gets "DIR" ("." when path
 * has no slash). New strings, NULL when out of memory. */
static char *temp_template(const char *path, char **dir)
{
    const char *slash = strrchr(path, '/');
    char *t = NULL;
    *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (*dir && asprintf(&t, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path,
                         slash ? slash + 1 : path) < 0)
        t = NULL;
    return t;
}

/* Create a new file from template tmp ("...XXXXXX", the X's replaced by
 * random letters and digits until the name is free), with mode 0666 less
 * the umask: the kernel applies the umask as for any file the process
 * creates, so the process-wide umask is neither read nor changed (mkstemp
 * would give 0600, and reading the umask to widen that means setting it,
 * a race with every other thread that creates a file). The descriptor,
 * or -1 with errno set. */
static int create_temp(char *tmp)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    size_t n = strlen(tmp);
    char *x = n >= 6 ? tmp + n - 6 : NULL;

    if (!x || strcmp(x, "XXXXXX") != 0) {
        errno = EINVAL;
        return -1;
    }
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char r[6];
        int fd;
        if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
            return -1;
        for (int i = 0; i < 6; i++)
            x[i] = chars[r[i] % (sizeof chars - 1)];
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* What path is to a writer: a regular file or nothing (replaced by
 * rename), something written through (a character device, a FIFO, a
 * socket's path never: refused), or refused (a directory, a symbolic
 * link, a block device). */
typedef enum { AF_REPLACE, AF_THROUGH, AF_STDOUT, AF_REFUSED } af_kind;

static af_kind classify(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    const char *why = NULL;
    if (strcmp(path, "-") == 0)
        return AF_STDOUT;
    if (*path == '\0')
        why = "empty path";
    else if (lstat(path, &sb) < 0)
        return AF_REPLACE;          /* none yet (or unreachable: creating it says why) */
    else if (S_ISLNK(sb.st_mode))
        why = "it is a symbolic link (links are not followed: give the path of the file "
              "itself, or - for standard output)";
    else if (S_ISDIR(sb.st_mode))
        why = "it is a directory";
    else if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode))
        return AF_THROUGH;
    else if (!S_ISREG(sb.st_mode))
        why = "it is neither a regular file, a character device nor a FIFO";
    else
        return AF_REPLACE;
    snprintf(err, errlen, "cannot write %s: %s", path, why);
    return AF_REFUSED;
}

bool atomic_file_is_through(const char *path)
{
    char err[8];
    af_kind k = classify(path, err, sizeof err);
    return k == AF_THROUGH || k == AF_STDOUT;
}

int atomic_file_check(const char *path, char *err, size_t errlen)
{
    char *dir = NULL, *tmp = NULL;
    int fd, rc = -1;
    af_kind k = classify(path, err, errlen);

    if (k == AF_REFUSED)
        return -1;
    if (k == AF_STDOUT)
        return 0;
    if (k == AF_THROUGH) {
        /* O_NONBLOCK: a FIFO without a reader yet is not waited for here */
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0 && errno != ENXIO) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
        if (fd >= 0)
            close(fd);
        return 0;
    }
    if (!(tmp = temp_template(path, &dir)) || !dir) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        goto cleanup;
    }
    fd = create_temp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    close(fd);
    unlink(tmp);
    rc = 0;
cleanup:
    free(tmp);
    free(dir);
    return rc;
}

struct atomic_file {
    char  *path, *tmp, *dir;    /* tmp, dir: NULL when written through */
    int    fd;                  /* what the stream writes to (-1: closed) */
    bool   own_fd;              /* not standard output */
    int    werr;                /* the first write's errno (0: none failed) */
    FILE  *f;
};

/* The stream's write: every byte to a->fd, the first failure's errno
 * kept for the message (stdio keeps only that one failed). */
static ssize_t af_write(void *cookie, const char *buf, size_t size)
{
    atomic_file *a = cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(a->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!a->werr)
                a->werr = n < 0 ? errno : EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

static void release(atomic_file *a)
{
    if (a->f)
        fclose(a->f);
    if (a->own_fd && a->fd >= 0)
        close(a->fd);
    free(a->path);
    free(a->tmp);
    free(a->dir);
    free(a);
}

void atomic_file_abort(atomic_file *a)
{
    if (!a)
        return;
    if (a->tmp && a->fd >= 0)
        unlink(a->tmp);
    release(a);
}

atomic_file *atomic_file_open(const char *path, char *err, size_t errlen)
{
    atomic_file *a = calloc(1, sizeof *a);
    af_kind k;
    if (!a || !(a->path = strdup(path))) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        free(a);
        return NULL;
    }
    a->fd = -1;
    a->own_fd = true;
    if ((k = classify(path, err, errlen)) == AF_REFUSED) {
        release(a);
        return NULL;
    }
    if (k == AF_STDOUT) {
        fflush(stdout);
        a->fd = STDOUT_FILENO;
        a->own_fd = false;
    } else if (k == AF_THROUGH) {
        a->fd = open(path, O_WRONLY | O_CLOEXEC);
    } else {
        if (!(a->tmp = temp_template(path, &a->dir)) || !a->dir) {
            snprintf(err, errlen, "cannot write %s: out of memory", path);
            release(a);
            return NULL;
        }
        a->fd = create_temp(a->tmp);
    }
    if (a->fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        release(a);
        return NULL;
    }
    a->f = fopencookie(a, "w", (cookie_io_functions_t){ .write = af_write });
    if (!a->f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        atomic_file_abort(a);
        return NULL;
    }
    return a;
}

FILE *atomic_file_stream(atomic_file *a)
{
    return a->f;
}

int atomic_file_commit(atomic_file *a, char *err, size_t errlen)
{
    FILE *f = a->f;
    int bad = fflush(f) != 0 || ferror(f), e = 0, dfd;
    a->f = NULL;
    fclose(f);
    if (bad)
        e = a->werr ? a->werr : EIO;
    /* a regular file's bytes are on the disk before it replaces the old
     * one; a device's or a pipe's are where they went */
    if (!bad && a->tmp && fsync(a->fd) < 0)
        bad = 1, e = errno;
    if (a->own_fd && close(a->fd) < 0 && !bad)
        bad = 1, e = errno;
    a->fd = -1;
    if (!bad && a->tmp && rename(a->tmp, a->path) < 0)
        bad = 1, e = errno;
    if (bad) {
        snprintf(err, errlen, "cannot write %s: %s", a->path, strerror(e));
        if (a->tmp)
            unlink(a->tmp);
        release(a);
        return -1;
    }
    /* the rename itself survives a crash once the directory is synced */
    if (a->dir && (dfd = open(a->dir, O_RDONLY | O_DIRECTORY)) >= 0) {
        fsync(dfd);
        close(dfd);
    }
    release(a);
    return 0;
}

int atomic_file_write(const char *path, const void *data, size_t len, char *err,
                      size_t errlen)
{
    atomic_file *a = atomic_file_open(path, err, errlen);
    if (!a)
        return -1;
    if (len > 0)
        fwrite(data, 1, len, a->f);     /* a failure is the commit's to report */
    return atomic_file_commit(a, err, errlen);
}
