/*
 * hostcheck.h — the host check before a run (issue 31): what on this
 * host makes a drive's figures differ from a tuned host's, or
 * meaningless, found before anything is created. `drivebench host check
 * PLAN` prints it; `drivebench run` runs it first, refuses on a refusal
 * and records every finding in summary.json (environment.host_check) and
 * the report's environment.
 *
 * Each finding is ok, warn (with the command that fixes it, when one
 * does) or refuse (only what makes the run meaningless; the run goes on
 * when told --ignore-host-check=CHECK, and the finding says "ignored").
 *
 *   governor           every CPU's cpufreq scaling_governor is performance
 *   turbo              intel_pstate/no_turbo, cpufreq/boost: turbo off
 *   thp                transparent_hugepage/enabled is not "always"
 *   swap               no swap in /proc/swaps, or vm.swappiness <= 10
 *   ksm                ksm/run is not 1 (merging pages)
 *   memory             MemAvailable covers this host's guests (refuse)
 *   domains            no other running libvirt domain on the plan's hosts
 *   drive-identity     per drive: its disk, model and firmware
 *   drive-cache        per drive: the kernel's view of its volatile write cache
 *   drive-temperature  per drive: smartctl / nvme; refuse when throttling
 *   drive-mount        per drive: its file system's mount options
 *                      (refuse on nobarrier / barrier=0)
 *
 * Every path is under a root prefix (orch_hc_opts.root: "" on a real
 * host) so tests feed fixture trees; smartctl and nvme go through
 * host_drive.h's seam.
 */
#ifndef ORCH_HOSTCHECK_H
#define ORCH_HOSTCHECK_H

#include "attributes.h"

#include <stdio.h>
#include "plan/plan.h"
#include "telemetry/telemetry.h"
#include "virt/virt.h"
#include "results_env.h"

#define ORCH_HC_CHECKS(X) \
    X(GOVERNOR, "governor") X(TURBO, "turbo") X(THP, "thp") X(SWAP, "swap") X(KSM, "ksm") \
    X(MEMORY, "memory") X(DOMAINS, "domains") X(DRIVE_IDENTITY, "drive-identity") \
    X(DRIVE_CACHE, "drive-cache") X(DRIVE_TEMPERATURE, "drive-temperature") \
    X(DRIVE_MOUNT, "drive-mount")
#define ORCH_HC_ENUM(id, text) ORCH_HC_##id,
typedef enum { ORCH_HC_CHECKS(ORCH_HC_ENUM) ORCH_HC_COUNT } orch_hc_check;
#undef ORCH_HC_ENUM

/* The check's name ("governor"), "?" out of range. */
const char *orch_hc_check_name(orch_hc_check c);
/* 1 when name is a check's name. */
int orch_hc_check_known(const char *name);
/* Every name, comma-separated: "governor, turbo, ...". */
const char *orch_hc_check_list(void);

/* What the check reads and what it ignores. Zeroed: the real host. */
typedef struct orch_hc_opts {
    const char *root;           /* prefix of /sys and /proc; NULL: "" */
    orch_cmd_fn cmd;            /* smartctl, nvme; NULL: orch_cmd_run */
    void       *cmd_ctx;
    /* The device number of the file system holding path (an existing
     * one). NULL: stat(2). 0, or -1 with errno. */
    int       (*devno)(void *ctx, const char *path, unsigned *major, unsigned *minor);
    void       *devno_ctx;
    const char *const *ignore;  /* checks whose refusal is ignored
                                 * (NULL-terminated, names checked by the
                                 * caller), or NULL */
    const char *run_prefix;     /* domains named so are the run's own (not
                                 * counted), or NULL */
} orch_hc_opts;

/* Check this host for plan p (guest memory from p, else template t; the
 * domains through conns). The findings into *out (caller frees with
 * orch_hc_free), their count into *n. Returns the number of refusals not
 * ignored, or -1 with err (out of memory). */
int orch_host_check(orch_conns *conns, const orch_plan *p, const orch_template *t,
                    const orch_hc_opts *o, res_hc_finding **out, int *n, char *err,
                    size_t errlen) DB_MUST_CHECK;

/* The findings, one line each and an indented "fix:" line under a warn
 * or a refusal that has one:
 *   warn    thp: always: ... (the message)
 *           fix: echo madvise > /sys/kernel/mm/transparent_hugepage/enabled
 * A drive's finding reads "warn    drive-mount [d1]: ...". */
void orch_hc_print(const res_hc_finding *f, int n, FILE *out);

void orch_hc_free(res_hc_finding *f, int n);   /* accepts NULL */

/* `drivebench host check PLAN`: plan p's check of this host (its
 * template and libvirt hosts opened here), printed on out with a last
 * line "host check: N ok, N warn, N refuse[ (N ignored)]". ignore as in
 * orch_hc_opts. 0 when nothing is refused (warnings allowed), 1 when
 * something is, or on a failure (said on stderr). */
int orch_host_check_cmd(const orch_plan *p, const char *const *ignore, FILE *out);

#endif
