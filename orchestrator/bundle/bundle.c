/* bundle.c — `drivebench bundle`: a run folder and its manifest in one
 * tar.gz (bundle.h). */
#include "bundle/bundle.h"
#include "bundle/manifest.h"
#include "bundle/sign.h"
#include "atomic_file.h"
#include "run/run.h"
#include "util/util.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* One member name/rel of the archive a from len bytes of data (a NULL:
 * from the file at path). 0, or -1 with err. */
static int add_member(struct archive *a, const char *name, const char *path, const char *data,
                      size_t len, time_t mtime, char *err, size_t errlen)
{
    struct archive_entry *e = archive_entry_new();
    char buf[1 << 16];
    int fd = -1, rc = -1;
    struct stat sb;
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (path) {
        if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &sb) < 0) {
            snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
            goto cleanup;
        }
        len = (size_t)sb.st_size;
        mtime = sb.st_mtime;
    }
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, (la_int64_t)len);
    archive_entry_set_mtime(e, mtime, 0);
    if (archive_write_header(a, e) != ARCHIVE_OK)
        goto archive_error;
    if (!path) {
        if (archive_write_data(a, data, len) != (la_ssize_t)len)
            goto archive_error;
    } else {
        size_t left = len;
        while (left > 0) {
            ssize_t n = read(fd, buf, left < sizeof buf ? left : sizeof buf);
            if (n <= 0) {
                snprintf(err, errlen, "cannot read %s: %s", path,
                         n < 0 ? strerror(errno) : "it shrank while being read");
                goto cleanup;
            }
            if (archive_write_data(a, buf, (size_t)n) != n)
                goto archive_error;
            left -= (size_t)n;
        }
    }
    rc = 0;
    goto cleanup;
archive_error:
    snprintf(err, errlen, "cannot write the bundle: %s", archive_error_string(a));
cleanup:
    if (fd >= 0)
        close(fd);
    archive_entry_free(e);
    return rc;
}

/* The run id: run_dir's last component. Borrowed from buf. */
static const char *run_id_of(const char *run_dir, char *buf, size_t len)
{
    snprintf(buf, len, "%s", run_dir);
    for (size_t n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
        buf[n - 1] = '\0';
    return strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
}

/* One member ID/NAME of a from text. */
static int add_text(struct archive *a, const char *id, const char *name, const char *text,
                    char *err, size_t errlen)
{
    char *member = orch_strfmt("%s/%s", id, name);
    int rc = member ? add_member(a, member, NULL, text, strlen(text), time(NULL), err, errlen)
                    : -1;
    if (!member)
        snprintf(err, errlen, "out of memory");
    free(member);
    return rc;
}

int orch_bundle_write(const char *run_dir, const char *path, const char *key, FILE *out,
                      char *err, size_t errlen)
{
    orch_manifest m = { 0 };
    struct archive *a = NULL;
    char idbuf[4096], *text = NULL, *summary = NULL;
    char *sig = NULL;
    const char *missing;
    const char *id = run_id_of(run_dir, idbuf, sizeof idbuf);
    atomic_file *af = NULL;
    int lock = -1, rc = -1;

    summary = orch_strfmt("%s/summary.json", run_dir);
    if (!summary || access(summary, R_OK) < 0) {
        snprintf(err, errlen, "%s has no summary.json: not a run folder, or a run that "
                 "stopped in its first repetition", run_dir);
        goto cleanup;
    }
    /* a running run's files change under the sums */
    if ((lock = orch_run_lock(run_dir, err, errlen)) < 0
        || orch_manifest_scan(run_dir, &m, err, errlen) < 0)
        goto cleanup;
    /* a bundle is a whole run: verify refuses one without these */
    if ((missing = orch_manifest_missing(&m))) {
        int report = strncmp(missing, "report.", 7) == 0;
        snprintf(err, errlen, "%s has no %s: not the folder of an ended run%s%s%s", run_dir,
                 missing, report ? " (`drivebench report " : "", report ? run_dir : "",
                 report ? "` writes report.html and report.csv)" : "");
        goto cleanup;
    }
    if (!(text = orch_manifest_text(&m)) || !(a = archive_write_new())) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (key) {
        /* the signing time goes into what is signed */
        char *stamped = orch_sign_stamp(text);
        free(text);
        if (!(text = stamped)) {
            snprintf(err, errlen, "out of memory");
            goto cleanup;
        }
        if (orch_sign_text(key, text, &sig, err, errlen) < 0)
            goto cleanup;
    }
    /* the output as every writer takes it (atomic_file.h): a file
     * complete or absent, a device or "-" written through */
    if (!(af = atomic_file_open(path, err, errlen))) {
        rc = ORCH_BUNDLE_EWRITE;
        goto cleanup;
    }
    if (archive_write_add_filter_gzip(a) != ARCHIVE_OK
        || archive_write_set_format_pax_restricted(a) != ARCHIVE_OK
        || archive_write_open_FILE(a, atomic_file_stream(af)) != ARCHIVE_OK) {
        snprintf(err, errlen, "cannot write %s: %s", path, archive_error_string(a));
        goto cleanup;
    }
    if (add_text(a, id, ORCH_MANIFEST, text, err, errlen) < 0
        || (sig && add_text(a, id, ORCH_SIGNATURE, sig, err, errlen) < 0))
        goto cleanup;
    for (int i = 0; i < m.n; i++) {
        char *name = orch_strfmt("%s/%s", id, m.e[i].path);
        char *file = orch_strfmt("%s/%s", run_dir, m.e[i].path);
        int bad = !name || !file || add_member(a, name, file, NULL, 0, 0, err, errlen) < 0;
        free(name);
        free(file);
        if (bad)
            goto cleanup;
    }
    /* a full disk: the writer's reason (errno), not libarchive's
     * "Write error" */
    if (archive_write_close(a) != ARCHIVE_OK) {
        snprintf(err, errlen, "cannot write %s: %s", path, archive_error_string(a));
        if (atomic_file_commit(af, err, errlen) < 0)
            rc = ORCH_BUNDLE_EWRITE;
        af = NULL;
        goto cleanup;
    }
    rc = atomic_file_commit(af, err, errlen) < 0 ? ORCH_BUNDLE_EWRITE : 0;
    af = NULL;
    if (rc == 0)        /* the bundle on standard output: the line apart */
        fprintf(strcmp(path, "-") == 0 ? stderr : out, "bundle %s: %s, %d file(s) and %s%s\n",
                id, path, m.n, ORCH_MANIFEST, sig ? ", signed" : "");
cleanup:
    if (a)
        archive_write_free(a);
    atomic_file_abort(af);
    if (lock >= 0)
        close(lock);
    orch_manifest_clear(&m);
    free(text);
    free(sig);
    free(summary);
    return rc;
}
