/* plan_paths.c — the files and folders a plan names are what they claim
 * to be (plan_parse.h): a drive's path a folder that is no system
 * directory, oltp an executable file, the image a disk image, the
 * password file readable by its owner alone. A plan that named
 * /etc/passwd as its drive ran, and traced the host's own disk. */
#include "plan/plan_parse.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The system's own folders, refused with everything below them */
static const char *const system_trees[] = {
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/sbin",
    "/sys", "/usr", NULL
};
/* ... and these alone: folders that hold the system's and its users' */
static const char *const system_dirs[] = {
    "/", "/home", "/root", "/run", "/var", "/var/lib", "/var/log", "/tmp", NULL
};
/* a tmpfs of its own, where a drive may live (plans/quick.ini) */
#define DEV_SHM "/dev/shm"

/* 1 when path (absolute, resolved, no trailing '/') lies under prefix or
 * is it. */
static int under(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The system directory the resolved path is or lies in, or NULL. */
static const char *system_path(const char *path)
{
    if (under(path, DEV_SHM) && strcmp(path, DEV_SHM) != 0)
        return NULL;
    for (int i = 0; system_trees[i]; i++)
        if (under(path, system_trees[i]))
            return system_trees[i];
    for (int i = 0; system_dirs[i]; i++)
        if (strcmp(path, system_dirs[i]) == 0)
            return system_dirs[i];
    return NULL;
}

/* One message for drive d's path (its resolved form real, NULL: as
 * given) when it is or lies in a system directory:
 * "... is [in SYS,] a system directory" or "... resolves to REAL, [in
 * SYS,] a system directory". */
static void refuse_system(parse_state *st, int line, const orch_drive *d, const char *real)
{
    const char *is = real ? real : d->path, *sys = system_path(is);
    char head[PATH_MAX + 32] = "is", in[64] = "";
    if (!sys)
        return;
    if (strcmp(is, d->path) != 0)
        snprintf(head, sizeof head, "resolves to %s,", is);
    if (strcmp(sys, is) != 0)
        snprintf(in, sizeof in, " in %s,", sys);
    plan_error(st, line, "[drive %s] path %s %s%s a system directory: give a folder on the "
               "drive under test", d->name, d->path, head, in);
}

/* 1 when path has a "." or ".." component. */
static int dot_component(const char *path)
{
    for (const char *c = path; *c; ) {
        size_t n = strcspn(c, "/");
        if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return 1;
        c += n + (c[n] == '/');
    }
    return 0;
}

/* The absolute path (no "." or ".." in it) with its symbolic links
 * resolved, also where its last components do not exist yet (the run
 * makes the folder): the longest part that exists resolved, the rest
 * appended. New string; NULL with errno when a part that exists cannot
 * be read or is no folder (ENOTDIR). */
static char *resolve(const char *path)
{
    char *head = strdup(path), *real = NULL, *out = NULL, *slash;
    const char *rest;
    if (!head)
        return NULL;
    while (!(real = realpath(head, NULL))) {
        if (errno != ENOENT || !(slash = strrchr(head, '/')))
            goto cleanup;
        slash[slash == head] = '\0';       /* "/a/b" -> "/a", "/a" -> "/" */
    }
    rest = path + strlen(head);
    while (*rest == '/')
        rest++;
    out = *rest ? orch_strfmt("%s/%s", strcmp(real, "/") == 0 ? "" : real, rest) : strdup(real);
cleanup:
    free(real);
    free(head);
    return out;
}

/* [drive NAME] path: a folder (one that exists, or to be made below
 * one), no system directory; a drive on another host is checked by its
 * name only (its links are that host's). */
static void check_drive_path(parse_state *st, const orch_drive *d)
{
    char sect[300], *real;
    struct stat sb;
    int line;

    snprintf(sect, sizeof sect, "drive %s", d->name);
    line = plan_where(st, sect, "path");
    if (dot_component(d->path)) {
        plan_error(st, line, "[drive %s] path %s has a '.' or '..' component: give the "
                   "folder itself", d->name, d->path);
        return;
    }
    if (orch_uri_is_remote(orch_plan_drive_uri(st->p, d))) {
        char buf[PATH_MAX];
        snprintf(buf, sizeof buf, "%s", d->path);
        for (size_t n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
            buf[n - 1] = '\0';
        {
            orch_drive named = *d;
            named.path = buf;
            refuse_system(st, line, &named, NULL);
        }
        return;
    }
    if (stat(d->path, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        plan_error(st, line, "[drive %s] path %s is not a directory: give a folder on the drive "
                   "under test", d->name, d->path);
        return;
    }
    if (!(real = resolve(d->path))) {
        plan_error(st, line, "[drive %s] path %s: %s", d->name, d->path,
                   errno == ENOTDIR ? "a part of it is not a directory" : strerror(errno));
        return;
    }
    refuse_system(st, line, d, real);
    free(real);
}

/* [run] oltp, which client = host runs here: an executable regular
 * file (the default, bin/oltp, is looked for where the run starts). */
static void check_oltp(parse_state *st)
{
    const orch_plan *p = st->p;
    int line = plan_key_line(st, "run", "oltp");
    struct stat sb;

    if (p->client != ORCH_CLIENT_HOST || !line || !p->oltp)
        return;
    if (stat(p->oltp, &sb) < 0)
        plan_error(st, line, "[run] oltp %s: %s", p->oltp, strerror(errno));
    else if (!S_ISREG(sb.st_mode) || access(p->oltp, X_OK) < 0)
        plan_error(st, line, "[run] oltp %s is not an executable file (drivebench's oltp: "
                   "bin/oltp)", p->oltp);
}

/* 1 when the regular file at path, of size bytes, is a disk image QEMU
 * takes: qcow2 (its magic "QFI\xfb"), or raw, a whole number of 512-byte
 * sectors and 1 MiB or more. */
static int disk_image(const char *path, off_t size, char *why, size_t len)
{
    unsigned char magic[4] = { 0 };
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(magic, 1, sizeof magic, f) : 0;
    if (f)
        fclose(f);
    if (!f) {
        snprintf(why, len, "cannot be read: %s", strerror(errno));
        return 0;
    }
    if (got == 4 && memcmp(magic, "QFI\xfb", 4) == 0)
        return 1;
    if (size >= 1024 * 1024 && size % 512 == 0)
        return 1;
    snprintf(why, len, "is neither a qcow2 image nor a raw disk image (a whole number of "
             "512-byte sectors, 1 MiB or more): %lld bytes", (long long)size);
    return 0;
}

/* [run] image: when it is here (a drive on another host may have its
 * own copy at that path), a qcow2 or raw disk image. */
static void check_image(parse_state *st)
{
    const orch_plan *p = st->p;
    int line = plan_where(st, "run", "image");
    char why[256];
    struct stat sb;

    if (!p->image || (stat(p->image, &sb) < 0 && errno == ENOENT))
        return;
    if (!S_ISREG(sb.st_mode))
        plan_error(st, line, "[run] image %s is not a regular file (a qcow2 or raw disk image)",
                   p->image);
    else if (!disk_image(p->image, sb.st_size, why, sizeof why))
        plan_error(st, line, "[run] image %s %s", p->image, why);
}

int plan_secret_file_ok(parse_state *st, int line, const char *key, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) < 0)
        return 1;               /* the reader says why it cannot read it */
    if (!S_ISREG(sb.st_mode)) {
        plan_error(st, line, "[workload] %s %s is not a regular file", key, path);
        return 0;
    }
    if (sb.st_mode & 077) {
        plan_error(st, line, "[workload] %s %s may be read by others than its owner (mode "
                   "%04o): a password file is readable by its owner only (chmod 600 %s)", key,
                   path, (unsigned)(sb.st_mode & 07777), path);
        return 0;
    }
    return 1;
}

void plan_paths_check(parse_state *st)
{
    const orch_plan *p = st->p;
    for (int i = 0; i < p->ndrives; i++)
        if (p->drives[i].path && p->drives[i].path[0] == '/')
            check_drive_path(st, &p->drives[i]);
    check_oltp(st);
    check_image(st);
}
