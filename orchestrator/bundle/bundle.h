/*
 * bundle.h — a run as one archive anyone can check (issue 34).
 *
 * The bundle of run RUN-ID is a gzip'ed tar (POSIX pax) holding
 * RUN-ID/<every file of the run folder> (the plan copy, every VM's oltp
 * result and console log, summary.json and summary.csv with the
 * environment and the host check, the report) and RUN-ID/MANIFEST.sha256:
 * one line "SHA256  PATH" per other file, sorted by path, PATH relative to
 * RUN-ID/ — what `sha256sum -c` reads in the unpacked folder.
 *
 * Its verifier checks every sum, then recomputes every figure of
 * summary.json that the run's aggregation derives from the VMs' raw
 * results (run/aggregate.h orch_summary_build, through run/replay.h: the
 * same code, on the VM entries, plan and environment the summary records)
 * and compares each with the stored one. What the aggregation does not
 * derive from the VMs' results (drive I/O samples, host CPU, the
 * precondition's rounds, restore figures, the fingerprint, the
 * interruptions) is covered by the sums only.
 *
 * Consistency is not origin: anyone may change a figure, its raw
 * results and the manifest together. A bundle signed with `bundle
 * --sign=KEY` (sign.h) says who made it, once checked with `verify
 * --signers=FILE`.
 */
#ifndef ORCH_BUNDLE_H
#define ORCH_BUNDLE_H

#include "attributes.h"

#include <stdio.h>

#define ORCH_MANIFEST "MANIFEST.sha256"

/* Write the bundle of the run folder run_dir (run id its last component)
 * to path as every output is written (atomic_file.h: a regular file
 * complete or absent, a device, a FIFO or "-" written through); with
 * key (NULL: none), its manifest signed with that SSH key (sign.h). A
 * folder without one of the files every ended run writes
 * (manifest.h orch_manifest_missing) is refused. One line on out (on
 * stderr when path is "-") names it and its files. 0; -1 with err when
 * run_dir is not a run folder that can be read or the signing fails;
 * ORCH_BUNDLE_EWRITE with err ("cannot write PATH: why") when path
 * cannot be written (no file then). */
#define ORCH_BUNDLE_EWRITE (-3)
int orch_bundle_write(const char *run_dir, const char *path, const char *key, FILE *out,
                      char *err, size_t errlen) DB_MUST_CHECK;

/* Check bundle path: one "mismatch: FILE: KEY: stored S, recomputed R"
 * line on out for each difference (a file every ended run writes and
 * the bundle lacks is one), else one "verified: ..." line and one
 * "origin: ..." line (sign.h: "consistent, unsigned", or with signers,
 * an allowed-signers file, "signed by PRINCIPAL at TIME"). A signature
 * that fails (signers given: unsigned, a key not allowed, a manifest
 * changed after signing) is one "not verified: ID: WHY" line, and no
 * other check. 0 verified, 1 mismatches or a failed signature, -1 with
 * err when it is no bundle, or a damaged or partial one, or signers
 * cannot be read. */
int orch_bundle_verify(const char *path, const char *signers, FILE *out, char *err,
                       size_t errlen) DB_MUST_CHECK;

#endif
