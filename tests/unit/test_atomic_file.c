/* Unit tests for common/atomic_file.c: the written file's bytes and mode
 * (0666 less the umask, which the writer must not change), nothing left
 * beside it, and the refusals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

static char *dir_new(void)
{
    char tmpl[] = "/tmp/test_atomic_file.XXXXXX";
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    return strdup(d);
}

/* Entries of dir (without . and ..), names joined by ',' into buf. */
static int dir_list(const char *dir, char *buf, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    buf[0] = '\0';
    assert_non_null(d);
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", n ? "," : "", e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

static void dir_free(char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static void read_back(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n;
    assert_non_null(f);
    n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* The file has the bytes and the mode open(2) gives under each umask;
 * the umask is the one set before; only the file is left. */
static void test_write_mode_follows_umask(void **state)
{
    static const struct { mode_t mask, want; } cases[] = {
        { 022, 0644 }, { 027, 0640 }, { 077, 0600 }, { 0, 0666 },
    };
    char *dir = dir_new(), path[256], names[256], got[64];
    char err[256] = "";
    struct stat sb;
    mode_t old = umask(022);
    (void)state;
    snprintf(path, sizeof path, "%s/r.json", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char data[32];
        int n = snprintf(data, sizeof data, "{\"case\": %zu}\n", i);
        umask(cases[i].mask);
        assert_int_equal(atomic_file_write(path, data, (size_t)n, err, sizeof err), 0);
        assert_int_equal(umask(cases[i].mask), cases[i].mask);
        assert_int_equal(stat(path, &sb), 0);
        assert_int_equal(sb.st_mode & 07777, cases[i].want);
        read_back(path, got, sizeof got);
        assert_string_equal(got, data);
        assert_int_equal(dir_list(dir, names, sizeof names), 1);
        assert_string_equal(names, "r.json");
        unlink(path);           /* the next case creates it again */
    }
    umask(old);
    dir_free(dir);
}

/* Over an existing file: the new bytes replace the old ones. */
static void test_write_replaces(void **state)
{
    char *dir = dir_new(), path[256], names[256], got[64], err[256] = "";
    (void)state;
    snprintf(path, sizeof path, "%s/r.json", dir);
    assert_int_equal(atomic_file_write(path, "old old old\n", 12, err, sizeof err), 0);
    assert_int_equal(atomic_file_write(path, "new\n", 4, err, sizeof err), 0);
    read_back(path, got, sizeof got);
    assert_string_equal(got, "new\n");
    assert_int_equal(dir_list(dir, names, sizeof names), 1);
    assert_string_equal(names, "r.json");
    dir_free(dir);
}

/* No directory to write in: one message, nothing created. */
static void test_write_refused(void **state)
{
    char *dir = dir_new(), path[256], want[300], names[256], err[256] = "";
    (void)state;
    snprintf(path, sizeof path, "%s/none/r.json", dir);
    assert_int_equal(atomic_file_write(path, "x", 1, err, sizeof err), -1);
    snprintf(want, sizeof want, "cannot write %s: No such file or directory", path);
    assert_string_equal(err, want);
    assert_int_equal(atomic_file_check(path, err, sizeof err), -1);
    assert_string_equal(err, want);
    assert_int_equal(dir_list(dir, names, sizeof names), 0);
    dir_free(dir);
}

/* The check creates and removes a file; a directory and "" are refused. */
static void test_check(void **state)
{
    char *dir = dir_new(), path[256], want[300], names[256], err[256] = "";
    (void)state;
    snprintf(path, sizeof path, "%s/r.json", dir);
    assert_int_equal(atomic_file_check(path, err, sizeof err), 0);
    assert_int_equal(dir_list(dir, names, sizeof names), 0);
    assert_int_equal(atomic_file_check(dir, err, sizeof err), -1);
    snprintf(want, sizeof want, "cannot write %s: it is a directory", dir);
    assert_string_equal(err, want);
    assert_int_equal(atomic_file_check("", err, sizeof err), -1);
    assert_string_equal(err, "cannot write : empty path");
    dir_free(dir);
}

/* A character device is written through, never replaced: /dev/null
 * stays a device; /dev/full gives the reason of the failed write. */
static void test_device_written_through(void **state)
{
    char err[256] = "";
    struct stat sb;
    atomic_file *a;
    (void)state;
    assert_int_equal(atomic_file_check("/dev/null", err, sizeof err), 0);
    assert_int_equal(atomic_file_write("/dev/null", "x\n", 2, err, sizeof err), 0);
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    assert_true(atomic_file_is_through("/dev/null"));
    assert_int_equal(atomic_file_write("/dev/full", "x\n", 2, err, sizeof err), -1);
    assert_string_equal(err, "cannot write /dev/full: No space left on device");
    /* the streamed form likewise, past stdio's buffer */
    assert_non_null(a = atomic_file_open("/dev/full", err, sizeof err));
    for (int i = 0; i < 100000; i++)
        fputs("0123456789", atomic_file_stream(a));
    assert_int_equal(atomic_file_commit(a, err, sizeof err), -1);
    assert_string_equal(err, "cannot write /dev/full: No space left on device");
}

/* A FIFO is written through: its reader gets the bytes, no file
 * appears beside it and it stays a FIFO. */
static void test_fifo_written_through(void **state)
{
    char *dir = dir_new(), path[256], names[256], got[64] = "", err[256] = "";
    struct stat sb;
    int fd;
    ssize_t n;
    (void)state;
    snprintf(path, sizeof path, "%s/pipe", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    fd = open(path, O_RDONLY | O_NONBLOCK);      /* a reader, so that opening it to write does
                                                  * not wait */
    assert_true(fd >= 0);
    assert_int_equal(atomic_file_write(path, "through\n", 8, err, sizeof err), 0);
    n = read(fd, got, sizeof got - 1);
    assert_int_equal(n, 8);
    assert_string_equal(got, "through\n");
    close(fd);
    assert_int_equal(lstat(path, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    assert_int_equal(dir_list(dir, names, sizeof names), 1);
    assert_string_equal(names, "pipe");
    dir_free(dir);
}

/* A symbolic link is refused in one line, by the check and the write,
 * and neither it nor its target is touched. */
static void test_symlink_refused(void **state)
{
    char *dir = dir_new(), path[256], target[256], want[512], names[256], got[64];
    char err[512] = "";
    (void)state;
    snprintf(target, sizeof target, "%s/real.json", dir);
    snprintf(path, sizeof path, "%s/link.json", dir);
    assert_int_equal(atomic_file_write(target, "old\n", 4, err, sizeof err), 0);
    assert_int_equal(symlink(target, path), 0);
    snprintf(want, sizeof want, "cannot write %s: it is a symbolic link (links are not "
             "followed: give the path of the file itself, or - for standard output)", path);
    assert_int_equal(atomic_file_check(path, err, sizeof err), -1);
    assert_string_equal(err, want);
    assert_int_equal(atomic_file_write(path, "new\n", 4, err, sizeof err), -1);
    assert_string_equal(err, want);
    assert_null(atomic_file_open(path, err, sizeof err));
    assert_string_equal(err, want);
    read_back(target, got, sizeof got);
    assert_string_equal(got, "old\n");
    assert_int_equal(dir_list(dir, names, sizeof names), 2);
    dir_free(dir);
}

/* "-" is standard output, written through. */
static void test_dash_is_stdout(void **state)
{
    char *dir = dir_new(), path[256], got[64], err[256] = "";
    int saved = dup(STDOUT_FILENO), fd;
    (void)state;
    snprintf(path, sizeof path, "%s/out", dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0 && saved >= 0);
    fflush(stdout);
    assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
    close(fd);
    assert_int_equal(atomic_file_check("-", err, sizeof err), 0);
    assert_int_equal(atomic_file_write("-", "{}\n", 3, err, sizeof err), 0);
    assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
    close(saved);
    read_back(path, got, sizeof got);
    assert_string_equal(got, "{}\n");
    dir_free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_mode_follows_umask),
        cmocka_unit_test(test_write_replaces),
        cmocka_unit_test(test_write_refused),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_device_written_through),
        cmocka_unit_test(test_fifo_written_through),
        cmocka_unit_test(test_symlink_refused),
        cmocka_unit_test(test_dash_is_stdout),
    };
    return cmocka_run_group_tests_name("atomic_file", tests, NULL, NULL);
}
