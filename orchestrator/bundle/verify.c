/* verify.c — `drivebench verify BUNDLE`: the sums of a bundle's files and
 * summary.json's figures recomputed from its VMs' raw results (bundle.h). */
#include "bundle/bundle.h"
#include "bundle/manifest.h"
#include "bundle/sign.h"
#include "run/run.h"
#include "util/util.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct verify_ctx {
    FILE *out;
    int   mismatches;
    int   compared;         /* figures of summary.json compared */
} verify_ctx;

/* mkdir -p of path's parent folders below root. 0 or -1. */
static int make_parents(const char *path, size_t root_len)
{
    char *copy = strdup(path);
    int rc = 0;
    if (!copy)
        return -1;
    for (char *s = copy + root_len + 1; *s && rc == 0; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(copy, 0755) < 0 && errno != EEXIST)
                rc = -1;
            *s = '/';
        }
    free(copy);
    return rc;
}

/* A member name a bundle may hold: ID/REL, one run id on top, no empty,
 * "." or ".." component, not absolute. The run id into id (first member)
 * or checked against it. */
static bool member_ok(const char *name, char *id, size_t idlen)
{
    const char *slash = strchr(name, '/');
    size_t n = slash ? (size_t)(slash - name) : 0;
    if (!slash || !slash[1] || n >= idlen)
        return false;
    if (!*id) {
        memcpy(id, name, n);
        id[n] = '\0';
        if (!orch_runid_valid(id))
            return false;
    } else if (strncmp(name, id, n) != 0 || id[n] != '\0') {
        return false;
    }
    for (const char *c = slash + 1; *c; ) {
        size_t len = strcspn(c, "/");
        if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
            return false;
        c += len + (c[len] == '/');
    }
    return true;
}

/* Whether the file at path starts as gzip does (1f 8b). */
static bool gzip_magic(const char *path)
{
    unsigned char m[2] = { 0, 0 };
    FILE *f = fopen(path, "rb");
    bool gz = f && fread(m, 1, 2, f) == 2 && m[0] == 0x1f && m[1] == 0x8b;
    if (f)
        fclose(f);
    return gz;
}

/* The most a bundle unpacks to, all members together. */
#define VERIFY_MAX_UNPACKED (4LL * 1024 * 1024 * 1024)

/* The largest member name may be: summary.json what its reader takes
 * (RES_MAX_LAZY_BYTES), any other file of a run folder (an oltp result,
 * a log, a telemetry table) at most 256 MiB. */
static la_int64_t member_cap(const char *name)
{
    const char *slash = strchr(name, '/');
    return slash && strcmp(slash + 1, "summary.json") == 0 ? RES_MAX_LAZY_BYTES
                                                            : 256LL * 1024 * 1024;
}

/* SIGINT, SIGTERM or SIGHUP during a verify: the number, for the
 * clean-up to remove the temporary folder and then die of it. */
static volatile sig_atomic_t verify_stopped;

static void verify_on_signal(int sig)
{
    verify_stopped = sig;
}

/* Unpack the bundle at path into dir (regular files only). The run id
 * into id. 0, or -1 with err. */
static int unpack(const char *path, const char *dir, char *id, size_t idlen, char *err,
                  size_t errlen)
{
    struct archive *a = archive_read_new();
    struct archive_entry *e;
    la_int64_t size, cap, total = 0;
    int r, rc = -1, files = 0;
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    archive_read_support_filter_all(a);
    archive_read_support_format_tar(a);
    if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
        /* gzip that ends early: a partial copy of a bundle (a FIFO
         * whose open was interrupted is not opened again) */
        bool cut = !verify_stopped && gzip_magic(path);
        snprintf(err, errlen, "%s: %s: %s", path,
                 cut ? "damaged or partial bundle" : "not a drivebench bundle",
                 archive_error_string(a));
        goto cleanup;
    }
    *id = '\0';
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        const char *name = archive_entry_pathname(e);
        char *file;
        int fd;
        if (archive_entry_filetype(e) == AE_IFDIR)
            continue;
        if (!name || archive_entry_filetype(e) != AE_IFREG || !member_ok(name, id, idlen)) {
            snprintf(err, errlen, "%s: not a drivebench bundle: member '%s' is not a file "
                     "under one run folder", path, name ? name : "");
            goto cleanup;
        }
        /* the sizes the tar headers give, refused before anything of
         * them is written (a small bundle may unpack to gigabytes) */
        cap = member_cap(name);
        size = archive_entry_size(e);
        if (size > cap || total + size > VERIFY_MAX_UNPACKED) {
            snprintf(err, errlen, "%s: not a drivebench bundle: member '%s' is %lld bytes, "
                     "above the %lld MiB %s", path, name, (long long)size,
                     (long long)(size > cap ? cap : VERIFY_MAX_UNPACKED) / (1024 * 1024),
                     size > cap ? "such a file of a run folder may hold"
                                : "a bundle may unpack to in all");
            goto cleanup;
        }
        total += size;
        file = orch_strfmt("%s/%s", dir, name);
        fd = file && make_parents(file, strlen(dir)) == 0
             ? open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
        if (fd < 0) {
            snprintf(err, errlen, "%s: cannot unpack '%s': %s", path, name,
                     errno == EEXIST ? "it is there twice" : strerror(errno));
            free(file);
            goto cleanup;
        }
        r = verify_stopped ? ARCHIVE_FATAL : archive_read_data_into_fd(a, fd);
        close(fd);
        free(file);
        if (r != ARCHIVE_OK) {
            snprintf(err, errlen, "%s: damaged or partial bundle: %s", path,
                     verify_stopped ? "interrupted" : archive_error_string(a));
            goto cleanup;
        }
        files++;
    }
    if (r != ARCHIVE_EOF) {
        snprintf(err, errlen, "%s: damaged or partial bundle: %s", path, archive_error_string(a));
        goto cleanup;
    }
    if (!files) {
        snprintf(err, errlen, "%s: not a drivebench bundle: no files", path);
        goto cleanup;
    }
    rc = 0;
cleanup:
    archive_read_free(a);
    return rc;
}

/* Every file against the manifest: a sum that differs, a file listed and
 * missing, a file not listed. */
static void check_sums(verify_ctx *v, const orch_manifest *want, const orch_manifest *got)
{
    for (int i = 0; i < want->n; i++) {
        const orch_mf_entry *g = orch_manifest_find(got, want->e[i].path);
        if (!g) {
            fprintf(v->out, "mismatch: %s: file: listed in %s, missing from the bundle\n",
                    want->e[i].path, ORCH_MANIFEST);
            v->mismatches++;
        } else if (strcmp(g->sha256, want->e[i].sha256) != 0) {
            fprintf(v->out, "mismatch: %s: sha256: stored %s, recomputed %s\n",
                    want->e[i].path, want->e[i].sha256, g->sha256);
            v->mismatches++;
        }
    }
    for (int i = 0; i < got->n; i++)
        if (!orch_manifest_find(want, got->e[i].path)) {
            fprintf(v->out, "mismatch: %s: file: in the bundle, not in %s\n", got->e[i].path,
                    ORCH_MANIFEST);
            v->mismatches++;
        }
}

/* Each value of the recomputed tree `re` against the stored one at the
 * same key path; keys the recomputation does not produce are not
 * compared. */
static void compare(verify_ctx *v, json_object *stored, json_object *re, const char *path)
{
    if (json_object_is_type(re, json_type_object)) {
        json_object_object_foreach(re, key, val) {
            json_object *s = NULL;
            char *sub;
            /* the aggregation's inputs, from the summary itself, and the
             * schema (check_summary) are no recomputed figures */
            if (!*path && (strcmp(key, "schema") == 0 || strcmp(key, "run_id") == 0
                           || strcmp(key, "started_at") == 0 || strcmp(key, "finished_at") == 0
                           || strcmp(key, "plan_file") == 0 || strcmp(key, "plan") == 0
                           || strcmp(key, "environment") == 0))
                continue;
            sub = orch_strfmt("%s%s%s", path, *path ? "." : "", key);
            if (!sub)
                continue;
            if (!json_object_is_type(stored, json_type_object)
                || !json_object_object_get_ex(stored, key, &s)) {
                fprintf(v->out, "mismatch: summary.json: %s: stored (absent), recomputed %s\n",
                        sub, json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN));
                v->mismatches++;
            } else {
                compare(v, s, val, sub);
            }
            free(sub);
        }
        return;
    }
    if (json_object_is_type(re, json_type_array)) {
        size_t n = json_object_array_length(re);
        if (!json_object_is_type(stored, json_type_array)
            || json_object_array_length(stored) != n) {
            fprintf(v->out, "mismatch: summary.json: %s: stored %zu element(s), recomputed %zu\n",
                    path, json_object_is_type(stored, json_type_array)
                          ? json_object_array_length(stored) : 0, n);
            v->mismatches++;
            return;
        }
        for (size_t i = 0; i < n; i++) {
            json_object *e = json_object_array_get_idx(re, i), *a, *b, *m;
            /* a comparison is named by its drives and method */
            char *sub = strcmp(path, "comparisons") == 0
                        && json_object_object_get_ex(e, "a", &a)
                        && json_object_object_get_ex(e, "b", &b)
                        && json_object_object_get_ex(e, "method", &m)
                        ? orch_strfmt("%s[%zu] (%s vs %s, %s)", path, i, json_object_get_string(a),
                                      json_object_get_string(b), json_object_get_string(m))
                        : orch_strfmt("%s[%zu]", path, i);
            if (sub)
                compare(v, json_object_array_get_idx(stored, i),
                        json_object_array_get_idx(re, i), sub);
            free(sub);
        }
        return;
    }
    v->compared++;
    {
        char *a = strdup(json_object_to_json_string_ext(stored, JSON_C_TO_STRING_PLAIN));
        const char *b = json_object_to_json_string_ext(re, JSON_C_TO_STRING_PLAIN);
        if (a && strcmp(a, b) != 0) {
            fprintf(v->out, "mismatch: summary.json: %s: stored %s, recomputed %s\n", path, a, b);
            v->mismatches++;
        }
        free(a);
    }
}

/* Out of re, what the rebuild took as stored (run/replay.h) but the
 * comparisons, which it made again: only recomputed figures are
 * compared. 0, or -1 when out of memory. */
static int keep_recomputed(res_summary *re)
{
    res_summary kept;
    int rc = -1;
    memset(&kept, 0, sizeof kept);
    kept.drives = calloc((size_t)re->ndrives + 1, sizeof *kept.drives);
    kept.vms = calloc((size_t)re->nvms + 1, sizeof *kept.vms);
    if (kept.drives && kept.vms) {
        kept.ndrives = re->ndrives;
        kept.nvms = re->nvms;
        orch_summary_swap_kept(&kept, re);
        re->completed_reps = -1;
        if (kept.io && (re->io = res_io_new())) {
            re->io->cmp = kept.io->cmp;
            re->io->ncmp = kept.io->ncmp;
            kept.io->cmp = NULL;
            kept.io->ncmp = 0;
        }
        rc = !kept.io || re->io ? 0 : -1;
    }
    res_summary_clear(&kept);
    return rc;
}

/* summary.json of the run folder dir recomputed (`drivebench summarize`:
 * run/replay.h orch_summary_rebuild) and compared. 0, or -1 with err (the
 * summary cannot be read). */
static int check_summary(verify_ctx *v, const char *dir, int *nresults, char *err,
                         size_t errlen)
{
    char *path = orch_strfmt("%s/summary.json", dir), why[1024];
    res_summary *re = NULL;
    json_object *stored = NULL, *rec = NULL, *vms = NULL;
    int rc = -1;

    if (!path) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    stored = json_object_from_file(path);
    if (!stored) {
        snprintf(err, errlen, "summary.json cannot be read: %s", json_util_get_last_err());
        goto cleanup;
    }
    if (!(re = orch_summary_rebuild(dir, why, sizeof why))) {
        if (strncmp(why, path, strlen(path)) == 0) {
            /* the summary itself: the reader's line names it */
            snprintf(err, errlen, "summary.json cannot be read: %s", why);
            goto cleanup;
        }
        /* a raw result that cannot be read, or does not fit: a mismatch */
        fprintf(v->out, "mismatch: summary.json: cannot be recomputed: %s\n", why);
        v->mismatches++;
        rc = 0;
        goto cleanup;
    }
    if (keep_recomputed(re) < 0 || !(rec = res_summary_to_json(re))) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    {
        /* another minor: this drivebench's aggregation may differ from the
         * one that wrote it (time bins, keys added since) */
        json_object *a = NULL, *b = NULL;
        const char *was = json_object_object_get_ex(stored, "schema", &a)
                          ? json_object_get_string(a) : "?";
        const char *is = json_object_object_get_ex(rec, "schema", &b)
                         ? json_object_get_string(b) : "?";
        if (strcmp(was, is) != 0)
            fprintf(v->out, "note: summary.json is %s, this drivebench writes %s: what its "
                    "aggregation does otherwise shows as mismatches\n", was, is);
    }
    compare(v, stored, rec, "");
    *nresults = json_object_object_get_ex(stored, "vms", &vms)
                ? (int)json_object_array_length(vms) : 0;
    rc = 0;
cleanup:
    json_object_put(stored);
    json_object_put(rec);
    orch_summary_free(re);
    free(path);
    return rc;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int orch_bundle_verify(const char *path, const char *signers, FILE *out, char *err,
                       size_t errlen)
{
    char id[256], *dir = NULL, *mpath = NULL;
    char *text = NULL, origin[1024];
    const char *missing;
    orch_manifest want = { 0 }, got = { 0 };
    verify_ctx v = { .out = out };
    int rc = -1, nresults = 0;
    /* no SA_RESTART: a read or an open waiting then fails at once */
    struct sigaction sa = { .sa_handler = verify_on_signal }, old[3];
    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    const char *tmpdir = getenv("TMPDIR");
    char *tmp = orch_strfmt("%s/drivebench-verify-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");

    if (!tmp) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (access(path, R_OK) < 0) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    /* the temporary folder is removed whatever stops the verify */
    verify_stopped = 0;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    if (!mkdtemp(tmp)) {
        snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
        goto cleanup;
    }
    if (unpack(path, tmp, id, sizeof id, err, errlen) < 0 || verify_stopped)
        goto cleanup;
    dir = orch_strfmt("%s/%s", tmp, id);
    mpath = dir ? orch_strfmt("%s/%s", dir, ORCH_MANIFEST) : NULL;
    if (!mpath) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (!(text = orch_file_read(mpath, 64L * 1024 * 1024))) {
        snprintf(err, errlen, "%s: not a drivebench bundle: no %s in %s/", path, ORCH_MANIFEST,
                 id);
        goto cleanup;
    }
    /* who made it, before what it says (sign.h) */
    switch (orch_sign_check(dir, text, signers, origin, sizeof origin, err, errlen)) {
    case -1:
        goto cleanup;
    case 1:
        fprintf(out, "not verified: %s: %s\n", id, origin);
        rc = 1;
        goto cleanup;
    }
    if (orch_manifest_parse(text, &want, err, errlen) < 0
        || orch_manifest_scan(dir, &got, err, errlen) < 0)
        goto cleanup;
    check_sums(&v, &want, &got);
    if ((missing = orch_manifest_missing(&want))) {
        fprintf(out, "mismatch: %s: file: every ended run writes it, missing from the bundle "
                "and %s\n", missing, ORCH_MANIFEST);
        v.mismatches++;
    }
    if (!orch_manifest_find(&got, "summary.json")) {
        snprintf(err, errlen, "%s: not a drivebench bundle: no summary.json in %s/", path, id);
        goto cleanup;
    }
    if (verify_stopped || check_summary(&v, dir, &nresults, err, errlen) < 0)
        goto cleanup;
    if (v.mismatches == 0)
        fprintf(out, "verified: %s: %d file(s) match %s; %d figure(s) of summary.json "
                "recomputed from %d VM result(s)\norigin: %s\n", id, got.n, ORCH_MANIFEST,
                v.compared, nresults, origin);
    rc = v.mismatches ? 1 : 0;
cleanup:
    if (!strstr(tmp, "XXXXXX"))
        nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    orch_manifest_clear(&want);
    orch_manifest_clear(&got);
    free(text);
    free(mpath);
    free(dir);
    free(tmp);
    if (verify_stopped) {       /* die of it, as without the handler */
        signal(verify_stopped, SIG_DFL);
        raise(verify_stopped);
    }
    return rc;
}
