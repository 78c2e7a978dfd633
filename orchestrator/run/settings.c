/* settings.c — the server settings of every VM, read back after the
 * prepare (or restore) and before the precondition (issue 44): `oltp
 * settings` per VM (run_state.h run_read_settings), its document kept at
 * vm/NAME.rREP.server.json for the summary, and each setting the plan's
 * [settings] states compared with what the server has. */
#include "run/run_state.h"
#include "util/util.h"
#include "results_server.h"

#include <stdlib.h>
#include <string.h>

int run_server_mismatch(const res_server *s, const char *vm, char *line, size_t len)
{
    int n = 0;
    for (int i = 0; s && i < s->nsettings; i++) {
        const res_setting *x = &s->settings[i];
        /* a share of the guest's memory ("50%") is the image's to work out */
        if (!x->wanted || strchr(x->wanted, '%') || res_setting_same(x->wanted, x->value))
            continue;
        if (n++ == 0)
            snprintf(line, len, "VM %s: server setting '%s' is %s, the plan's [settings] wants %s",
                     vm, x->name, x->value ? x->value : "not available on this server",
                     x->wanted);
    }
    if (n > 1) {
        size_t used = strlen(line);
        snprintf(line + used, len - used, " (and %d more setting%s: see %s's read-back)", n - 1,
                 n == 2 ? "" : "s", vm);
    }
    return n;
}

/* Free the jobs and what they point to. */
static void jobs_free(orch_job *jobs, int n)
{
    for (int i = 0; jobs && i < n; i++) {
        orch_argv_free(jobs[i].argv);
        free((char *)jobs[i].result);
    }
    free(jobs);
}

/* Each job's document read and compared: mismatches refused (the first
 * one's line in st->err) or warned about. 0, or -1. */
static int check_jobs(run_state *st, const orch_job *jobs, const int *vm_of, int n)
{
    char line[768], why[512];
    int bad = 0;
    for (int j = 0; j < n; j++) {
        res_server s;
        if (st->vms[vm_of[j]].failed_in)
            continue;
        if (res_server_read_file(jobs[j].result, &s, why, sizeof why) < 0) {
            snprintf(st->err, sizeof st->err, "the server settings of VM %s cannot be read: %s",
                     jobs[j].vm->name, why);
            return -1;
        }
        if (run_server_mismatch(&s, jobs[j].vm->name, line, sizeof line) > 0) {
            if (st->p->settings_mismatch == ORCH_MISMATCH_WARN)
                fprintf(st->out, "drivebench: warning: %s (settings_mismatch = warn: measured "
                        "anyway)\n", line);
            else if (bad++ == 0)
                snprintf(st->err, sizeof st->err, "%s: refused before measuring "
                         "(settings_mismatch = warn measures anyway)", line);
        }
        res_server_clear(&s);
    }
    return bad ? -1 : 0;
}

int run_read_settings(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    orch_job *jobs = calloc((size_t)st->l->nvms, sizeof *jobs);
    int *vm_of = calloc((size_t)st->l->nvms, sizeof *vm_of);
    int n = 0, rc = -1;
    if (!jobs || !vm_of) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < st->l->nvms; i++) {
        orch_job *job = &jobs[n];
        char *rel;
        if (st->vms[i].failed_in)
            continue;
        rel = orch_layout_server_result(&st->l->vms[i], rep);
        vm_of[n++] = i;
        job->vm = &st->l->vms[i];
        job->dom = st->vms[i].dom;
        job->slot = st->vms[i].slot;
        job->status = -1;
        job->result = rel ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
        job->guest_result = "/var/tmp/drivebench.server.json";
        job->argv = st->client->in_guest
                    ? orch_oltp_settings_argv(p, p->guest_oltp, p->engine->port, job->guest_result)
                    : orch_oltp_settings_argv(p, p->oltp, job->vm->port, job->result);
        free(rel);
        if (!job->result || !job->argv) {
            snprintf(st->err, sizeof st->err, "out of memory");
            goto cleanup;
        }
    }
    if (n == 0) {
        rc = 0;
        goto cleanup;
    }
    fprintf(st->out, "repetition %d: server settings of %d VM(s)\n", rep, n);
    fflush(st->out);
    rc = st->client->run_phase(&st->cl, jobs, n, "settings", 0);
    if (rc == ORCH_RUN_INTERRUPTED) {
        snprintf(st->err, sizeof st->err, "interrupted");
        rc = -1;
        goto cleanup;
    }
    for (int j = 0; j < n; j++)
        if (jobs[j].failed && !st->vms[vm_of[j]].failed_in) {
            st->vms[vm_of[j]].failed_in = "settings";
            st->failed_vms++;
        }
    if (rc < 0) {
        snprintf(st->err, sizeof st->err, "the server settings could not be read on at least "
                 "one VM (see above)");
        goto cleanup;
    }
    rc = check_jobs(st, jobs, vm_of, n);
cleanup:
    jobs_free(jobs, n);
    free(vm_of);
    return rc;
}
