/*
 * manifest.h — the files of a run folder and their SHA-256 sums (the
 * bundle's MANIFEST.sha256, bundle.h).
 */
#ifndef ORCH_MANIFEST_H
#define ORCH_MANIFEST_H

#include "attributes.h"

#include <stddef.h>

typedef struct orch_mf_entry {
    char *path;             /* relative to the folder, '/'-separated */
    char  sha256[65];       /* lowercase hex */
} orch_mf_entry;

typedef struct orch_manifest {
    orch_mf_entry *e;
    int            n;
} orch_manifest;

/* Every regular file under dir (sorted by path; the run lock, the
 * manifest itself and its signature left out) with its sum into m. 0, or
 * -1 with err. */
int orch_manifest_scan(const char *dir, orch_manifest *m, char *err, size_t errlen) DB_MUST_CHECK;
/* The manifest's text: one "SHA256  PATH\n" line per entry. New string,
 * or NULL when out of memory. */
char *orch_manifest_text(const orch_manifest *m);
/* Parse a manifest's text into m (lines starting with '#' are comments,
 * as for sha256sum -c). 0, or -1 with "MANIFEST.sha256 line N: ..." in
 * err. */
int orch_manifest_parse(const char *text, orch_manifest *m, char *err, size_t errlen) DB_MUST_CHECK;
/* The entry of path, or NULL. */
const orch_mf_entry *orch_manifest_find(const orch_manifest *m, const char *path);
/* The first file every ended run writes (plan.ini, summary.json,
 * summary.csv, report.html, report.csv) that m lacks, or NULL. */
const char *orch_manifest_missing(const orch_manifest *m);
void orch_manifest_clear(orch_manifest *m);

#endif
