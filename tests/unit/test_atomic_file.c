/* Unit tests for common/atomic_file.c: the written file's bytes and mode
 * (0666 less the umask, which the writer must not change), nothing left
 * beside it, and the refusals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_mode_follows_umask),
        cmocka_unit_test(test_write_replaces),
        cmocka_unit_test(test_write_refused),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests_name("atomic_file", tests, NULL, NULL);
}
