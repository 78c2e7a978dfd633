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

int atomic_file_write(const char *path, const void *data, size_t len, char *err,
                      size_t errlen)
{
    char *dir = NULL, *tmp = temp_template(path, &dir);
    const char *p = data;
    int fd = -1, dfd, rc = -1, created = 0;

    if (!tmp || !dir) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        goto cleanup;
    }
    fd = create_temp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    created = 1;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(err, errlen, "cannot write %s: %s", path, n < 0 ? strerror(errno)
                                                                     : "short write");
            goto cleanup;
        }
        p += n;
        len -= (size_t)n;
    }
    if (fsync(fd) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    if (close(fd) < 0) {
        fd = -1;
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    fd = -1;
    if (rename(tmp, path) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    /* the rename itself survives a crash once the directory is synced */
    dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    rc = 0;
cleanup:
    if (fd >= 0)
        close(fd);
    if (rc < 0 && created)
        unlink(tmp);
    free(tmp);
    free(dir);
    return rc;
}
