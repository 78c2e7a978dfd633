/* atomic_file.c — check-then-write-by-rename output files (see
 * atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
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

int atomic_file_check(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    char *dir = NULL, *tmp = temp_template(path, &dir);
    int fd, rc = -1;

    if (!tmp || !dir) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        goto cleanup;
    }
    if (*path == '\0' || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))) {
        snprintf(err, errlen, "cannot write %s: %s", path, *path ? "it is a directory"
                                                                  : "empty path");
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
    char *path, *tmp, *dir;
    FILE *f;
};

void atomic_file_abort(atomic_file *a)
{
    if (!a)
        return;
    if (a->f) {
        fclose(a->f);
        unlink(a->tmp);
    }
    free(a->path);
    free(a->tmp);
    free(a->dir);
    free(a);
}

atomic_file *atomic_file_open(const char *path, char *err, size_t errlen)
{
    atomic_file *a = calloc(1, sizeof *a);
    int fd;
    if (!a || !(a->path = strdup(path)) || !(a->tmp = temp_template(path, &a->dir))
        || !a->dir) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        atomic_file_abort(a);
        return NULL;
    }
    fd = create_temp(a->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        atomic_file_abort(a);
        return NULL;
    }
    if (!(a->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(a->tmp);
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
    int bad = ferror(f) || fflush(f) != 0, e = errno, dfd;
    if (!bad && fsync(fileno(f)) < 0)
        bad = 1, e = errno;
    a->f = NULL;
    if (fclose(f) != 0 && !bad)
        bad = 1, e = errno;
    if (!bad && rename(a->tmp, a->path) < 0)
        bad = 1, e = errno;
    if (bad) {
        snprintf(err, errlen, "cannot write %s: %s", a->path, e ? strerror(e) : "write failed");
        unlink(a->tmp);
        atomic_file_abort(a);
        return -1;
    }
    /* the rename itself survives a crash once the directory is synced */
    dfd = open(a->dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    atomic_file_abort(a);
    return 0;
}

int atomic_file_write(const char *path, const void *data, size_t len, char *err,
                      size_t errlen)
{
    atomic_file *a = atomic_file_open(path, err, errlen);
    if (!a)
        return -1;
    if (len > 0 && fwrite(data, 1, len, a->f) != len && !ferror(a->f)) {
        snprintf(err, errlen, "cannot write %s: short write", path);
        atomic_file_abort(a);
        return -1;
    }
    return atomic_file_commit(a, err, errlen);
}
