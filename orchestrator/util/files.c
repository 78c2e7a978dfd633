/* files.c — see files.h. */
#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *orch_file_read(const char *path, size_t max)
{
    FILE *f = fopen(path, "r");
    char *buf;
    size_t n;
    if (!f)
        return NULL;
    buf = malloc(max + 1);
    n = buf ? fread(buf, 1, max, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

char *orch_file_read_regular(const char *path, size_t max, size_t *len, char *err,
                             size_t errlen)
{
    /* O_NONBLOCK: opening a pipe with no writer must not wait for one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat sb;
    char *buf = NULL;
    size_t n = 0;
    ssize_t got;

    if (fd < 0 || fstat(fd, &sb) < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        goto fail;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "not a regular file (%s)", S_ISDIR(sb.st_mode) ? "a folder"
                 : S_ISFIFO(sb.st_mode) ? "a pipe" : S_ISSOCK(sb.st_mode) ? "a socket"
                 : "a device");
        goto fail;
    }
    if ((uintmax_t)sb.st_size > max) {
        snprintf(err, errlen, "larger than %zu KiB", max / 1024);
        goto fail;
    }
    if (!(buf = malloc(max + 1))) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    /* one byte past max tells a file that grew after fstat */
    while (n <= max && (got = read(fd, buf + n, max + 1 - n)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, errlen, "%s", strerror(errno));
            goto fail;
        }
        n += (size_t)got;
    }
    if (n > max) {
        snprintf(err, errlen, "larger than %zu KiB", max / 1024);
        goto fail;
    }
    close(fd);
    buf[n] = '\0';
    *len = n;
    return buf;
fail:
    if (fd >= 0)
        close(fd);
    free(buf);
    return NULL;
}

char *orch_file_tail(const char *path, long keep, const char *mark)
{
    FILE *f = fopen(path, "r"), *mem;
    char line[512], *text = NULL;
    size_t len = 0;
    long n = 0, at = -1;
    if (!f)
        return NULL;
    mem = open_memstream(&text, &len);
    for (; fgets(line, sizeof line, f); n++)
        if (mark && strstr(line, mark))
            at = n;
    rewind(f);
    for (long i = 0; mem && fgets(line, sizeof line, f); i++) {
        if (i == at && at < n - keep) {
            fputs(line, mem);
            if (n - keep - at > 1)
                fprintf(mem, "[... %ld line(s) ...]\n", n - keep - at - 1);
        } else if (i >= n - keep) {
            fputs(line, mem);
        }
    }
    fclose(f);
    if (mem)
        fclose(mem);
    return text;
}

void orch_file_settle(const char *path, int max_ms)
{
    struct stat a, b;
    const struct timespec step = { 0, 200 * 1000000L };
    if (stat(path, &a) < 0)
        return;
    for (int waited = 0; waited < max_ms; waited += 200) {
        nanosleep(&step, NULL);
        if (stat(path, &b) < 0 || (b.st_size == a.st_size && b.st_mtim.tv_sec == a.st_mtim.tv_sec
                                   && b.st_mtim.tv_nsec == a.st_mtim.tv_nsec))
            return;
        a = b;
    }
}
