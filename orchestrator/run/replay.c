/* replay.c — a summary's VM entries back into orch_vm_result (replay.h). */
#include "run/replay.h"
#include "telemetry/telemetry.h"
#include "util/util.h"
#include "virt/virt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The fault named text ("disk-full"), ORCH_FAULT_NONE when unknown. */
static orch_fault fault_of(const char *text)
{
    for (int f = 0; text && f < ORCH_FAULT_COUNT; f++)
        if (strcmp(orch_fault_name((orch_fault)f), text) == 0)
            return (orch_fault)f;
    return ORCH_FAULT_NONE;
}

/* "2026-12-04T19:30:00Z" as UTC seconds, 0 when it is not that form. */
static time_t utc_of(const char *iso)
{
    struct tm tm;
    const char *end;
    memset(&tm, 0, sizeof tm);
    if (!iso || !(end = strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm)) || *end)
        return 0;
    return timegm(&tm);
}

static int dup_opt(char **dst, const char *src)
{
    *dst = src ? strdup(src) : NULL;
    return src && !*dst ? -1 : 0;
}

int orch_replay_result_from_entry(orch_vm_result *r, const res_vm *v)
{
    char *result, *pre, *flags;
    memset(r, 0, sizeof *r);
    r->vm = v->name;
    r->drive = v->drive;
    r->repetition = v->repetition;
    r->host = v->host;
    r->cpus = v->pinned ? v->cpus : NULL;
    r->emulator_cpus = v->pinned ? v->emulator_cpus : NULL;
    r->numa_node = v->pinned ? v->numa_node : -1;
    r->boot_reboots = (int)v->boot_reboots;
    r->health.boot_reboots = r->boot_reboots;
    /* "no-transactions" and "result" are the aggregation's verdicts on a
     * healthy VM run: made again from its file */
    if (v->failed && fault_of(v->fault) != ORCH_FAULT_NO_TRANSACTIONS
        && fault_of(v->fault) != ORCH_FAULT_RESULT) {
        r->failed_in = v->failed_in ? v->failed_in : "measure";
        r->health.fault = fault_of(v->fault);
        snprintf(r->health.reason, sizeof r->health.reason, "%s",
                 v->reason && strcmp(v->reason, "failed") != 0 ? v->reason : "");
        r->health.at = utc_of(v->failed_at);
        if (dup_opt(&r->console_tail, v->console_tail) < 0)
            return -1;
    }
    if (dup_opt(&result, v->result ? v->result : "") < 0
        || dup_opt(&pre, v->precondition_result) < 0 || dup_opt(&flags, v->cpu_flags) < 0) {
        orch_replay_result_clear(r);
        return -1;
    }
    r->result = result;
    r->precondition = pre;
    r->cpu_flags = flags;
    return 0;
}

void orch_replay_result_clear(orch_vm_result *r)
{
    free((char *)r->result);
    free((char *)r->precondition);
    free(r->console_tail);
    free(r->cpu_flags);
    r->result = r->precondition = NULL;
    r->console_tail = r->cpu_flags = NULL;
}

int orch_summary_input_from(const res_summary *s, const char *run_dir, const char **drives,
                            orch_vm_result *vms, orch_summary_input *in)
{
    memset(in, 0, sizeof *in);
    for (int d = 0; d < s->ndrives; d++)
        drives[d] = s->drives[d].name;
    for (int i = 0; i < s->nvms; i++)
        if (orch_replay_result_from_entry(&vms[i], &s->vms[i]) < 0) {
            while (i-- > 0)
                orch_replay_result_clear(&vms[i]);
            return -1;
        }
    in->run_id = s->run_id;
    in->run_dir = run_dir;
    in->started_at = s->started_at;
    in->finished_at = s->finished_at;
    in->plan = &s->plan;
    in->env = &s->env;
    in->drives = drives;
    in->ndrives = s->ndrives;
    in->vms = vms;
    in->nvms = s->nvms;
    in->repetitions = s->repetitions;
    in->partial = s->status == RES_RUN_PARTIAL;
    return 0;
}

void orch_summary_swap_kept(res_summary *a, res_summary *b)
{
#define SWAP(x, y) do { __typeof__(x) t_ = (x); (x) = (y); (y) = t_; } while (0)
    SWAP(a->completed_reps, b->completed_reps);
    SWAP(a->io, b->io);
    SWAP(a->fp, b->fp);
    SWAP(a->repetitions_stop, b->repetitions_stop);
    SWAP(a->interruptions, b->interruptions);
    SWAP(a->ninterruptions, b->ninterruptions);
    for (int d = 0; d < a->ndrives && d < b->ndrives; d++) {
        SWAP(a->drives[d].restore, b->drives[d].restore);
        SWAP(a->drives[d].io, b->drives[d].io);
        SWAP(a->drives[d].pre, b->drives[d].pre);
        SWAP(a->drives[d].npre, b->drives[d].npre);
    }
    /* orch_summary_build keeps the order of its input: the VMs pair up */
    for (int i = 0; i < a->nvms && i < b->nvms; i++) {
        SWAP(a->vms[i].io, b->vms[i].io);
        SWAP(a->vms[i].pre, b->vms[i].pre);
    }
#undef SWAP
}

res_summary *orch_summary_rebuild(const char *run_dir, char *err, size_t errlen)
{
    char *path = orch_strfmt("%s/summary.json", run_dir), why[1024];
    res_summary s, *re = NULL;
    orch_summary_input in;
    orch_vm_result *vms = NULL;
    const char **drives = NULL;

    memset(&s, 0, sizeof s);
    if (!path) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (res_summary_read_file(path, &s, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s", why);
        goto cleanup;
    }
    vms = calloc((size_t)s.nvms + 1, sizeof *vms);
    drives = calloc((size_t)s.ndrives + 1, sizeof *drives);
    if (!vms || !drives || orch_summary_input_from(&s, run_dir, drives, vms, &in) < 0) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    re = orch_summary_build(&in, err, errlen);
    for (int i = 0; i < s.nvms; i++)
        orch_replay_result_clear(&vms[i]);
    if (!re)
        goto cleanup;
    orch_summary_swap_kept(&s, re);
    /* the comparisons, from the VMs' results as the run made them */
    if ((!re->io && !(re->io = res_io_new())) || orch_telemetry_fill(NULL, re, run_dir) < 0) {
        snprintf(err, errlen, "out of memory");
        orch_summary_free(re);
        re = NULL;
    }
cleanup:
    res_summary_clear(&s);
    free(vms);
    free(drives);
    free(path);
    return re;
}
