/* manifest.c — a folder's files and their SHA-256 sums (manifest.h). */
#include "bundle/manifest.h"
#include "bundle/bundle.h"
#include "bundle/sign.h"
#include "run/run.h"
#include "virt/virt.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int by_path(const void *a, const void *b)
{
    return strcmp(((const orch_mf_entry *)a)->path, ((const orch_mf_entry *)b)->path);
}

/* Add the files under dir/rel (rel "" for dir itself) to m. */
static int scan(const char *dir, const char *rel, orch_manifest *m, char *err, size_t errlen)
{
    char *here = *rel ? orch_strfmt("%s/%s", dir, rel) : strdup(dir);
    DIR *d = here ? opendir(here) : NULL;
    struct dirent *e;
    int rc = 0;
    if (!d) {
        snprintf(err, errlen, "cannot read %s: %s", here ? here : dir,
                 here ? strerror(errno) : "out of memory");
        free(here);
        return -1;
    }
    while (rc == 0 && (e = readdir(d))) {
        char *sub, *path;
        struct stat sb;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (!*rel && (strcmp(e->d_name, ORCH_RUN_LOCK_FILE) == 0
                      || strcmp(e->d_name, ORCH_MANIFEST) == 0
                      || strcmp(e->d_name, ORCH_SIGNATURE) == 0))
            continue;
        sub = *rel ? orch_strfmt("%s/%s", rel, e->d_name) : strdup(e->d_name);
        path = sub ? orch_strfmt("%s/%s", dir, sub) : NULL;
        if (!path) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        } else if (lstat(path, &sb) < 0) {
            snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
            rc = -1;
        } else if (S_ISDIR(sb.st_mode)) {
            rc = scan(dir, sub, m, err, errlen);
        } else if (S_ISREG(sb.st_mode)) {
            orch_mf_entry *grown = realloc(m->e, sizeof *m->e * (size_t)(m->n + 1));
            if (!grown) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
            } else {
                m->e = grown;
                if (orch_sha256_file(path, grown[m->n].sha256, err, errlen) < 0) {
                    rc = -1;
                } else {
                    grown[m->n++].path = sub;
                    sub = NULL;
                }
            }
        }
        free(sub);
        free(path);
    }
    closedir(d);
    free(here);
    return rc;
}

int orch_manifest_scan(const char *dir, orch_manifest *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (scan(dir, "", m, err, errlen) < 0) {
        orch_manifest_clear(m);
        return -1;
    }
    if (m->n)
        qsort(m->e, (size_t)m->n, sizeof *m->e, by_path);
    return 0;
}

char *orch_manifest_text(const orch_manifest *m)
{
    size_t len = 1, at = 0;
    char *text;
    for (int i = 0; i < m->n; i++)
        len += 64 + 2 + strlen(m->e[i].path) + 1;
    if (!(text = malloc(len)))
        return NULL;
    text[0] = '\0';
    for (int i = 0; i < m->n; i++)
        at += (size_t)snprintf(text + at, len - at, "%s  %s\n", m->e[i].sha256, m->e[i].path);
    return text;
}

int orch_manifest_parse(const char *text, orch_manifest *m, char *err, size_t errlen)
{
    int line = 0;
    memset(m, 0, sizeof *m);
    for (const char *s = text; *s; ) {
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        orch_mf_entry *grown;
        bool hex = len > 66;
        line++;
        if (*s == '#') {            /* a comment (sign.h: the signing time) */
            s += len + (end ? 1 : 0);
            continue;
        }
        for (size_t i = 0; hex && i < 64; i++)
            hex = strchr("0123456789abcdef", s[i]) != NULL;
        if (!hex || s[64] != ' ' || s[65] != ' ' || memchr(s, '\0', len)) {
            snprintf(err, errlen, "%s line %d is not 'SHA256  PATH'", ORCH_MANIFEST, line);
            goto fail;
        }
        if (!(grown = realloc(m->e, sizeof *m->e * (size_t)(m->n + 1)))
            || !(grown[m->n].path = strndup(s + 66, len - 66))) {
            if (grown)
                m->e = grown;
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        m->e = grown;
        memcpy(grown[m->n].sha256, s, 64);
        grown[m->n++].sha256[64] = '\0';
        s += len + (end ? 1 : 0);
    }
    return 0;
fail:
    orch_manifest_clear(m);
    return -1;
}

const orch_mf_entry *orch_manifest_find(const orch_manifest *m, const char *path)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->e[i].path, path) == 0)
            return &m->e[i];
    return NULL;
}

/* What every run folder holds once its run ended (run/summary.c): the
 * plan's copy, the summary, its CSV and the report with its CSV. */
static const char *const required[] = {
    "plan.ini", "summary.json", "summary.csv", "report.html", "report.csv", NULL
};

const char *orch_manifest_missing(const orch_manifest *m)
{
    for (int i = 0; required[i]; i++)
        if (!orch_manifest_find(m, required[i]))
            return required[i];
    return NULL;
}

void orch_manifest_clear(orch_manifest *m)
{
    for (int i = 0; m->e && i < m->n; i++)
        free(m->e[i].path);
    free(m->e);
    m->e = NULL;
    m->n = 0;
}
