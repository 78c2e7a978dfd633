/* report_env.c — what each run ran on and what it was asked (page.h): the
 * environment (host, hypervisors, guest database) and the plan. */
#include <libxml/tree.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "util/util.h"
#include "results_fingerprint.h"


/* Distinct database server versions of a run's VMs, comma-separated.
 * Caller frees. */
static char *guest_versions(const report_run *run)
{
    char *out = strdup("");
    for (int v = 0; out && v < run->nvms; v++) {
        const char *ver = run->vms[v].server_version;
        char *next;
        int seen = 0;
        for (int k = 0; ver && k < v && !seen; k++)
            seen = run->vms[k].server_version && strcmp(run->vms[k].server_version, ver) == 0;
        if (seen || !ver || !*ver)
            continue;
        next = orch_strfmt("%s%s%s", out, *out ? ", " : "", ver);
        free(out);
        out = next;
    }
    return out;
}

/* The host check at the run's start (issue 31): one row a finding. */
static void host_check_table(xmlNodePtr sec, const report_run *run, const res_env *env)
{
    static const char *const head[] = { "status", "check", "drive", "found", "what it means",
                                        "fix" };
    xmlNodePtr tb, tr;
    if (env->nhost_check == 0)
        return;
    html_add(sec, "h4", "Host check");
    tb = html_add(sec, "table", NULL);
    html_attr(tb, "class", "host-check");
    html_attr(tb, "data-run", run->label);
    tr = html_add(tb, "tr", NULL);
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        html_add(tr, "th", head[i]);
    for (int i = 0; i < env->nhost_check; i++) {
        const res_hc_finding *f = &env->host_check[i];
        char *st = orch_strfmt("%s%s", res_hc_status_name(f->status),
                               f->ignored ? " (ignored)" : "");
        tr = html_add(tb, "tr", NULL);
        html_attr(tr, "class", res_hc_status_name(f->status));
        page_cell(tr, st ? st : res_hc_status_name(f->status));
        page_cell(tr, f->check);
        page_cell(tr, f->drive ? f->drive : "");
        page_cell(tr, f->value ? f->value : "");
        page_cell(tr, f->message ? f->message : "");
        page_cell(tr, f->fix ? f->fix : "");
        free(st);
    }
}

/* The guest CPU's flags against its host's (issue 31): one row per VM
 * whose guest lacks SSE4.2 or AVX that its host has, class "warn" (the
 * databases' CRC32C and the copies then run slower than the host could);
 * and each pinned VM's place. */
static void guest_cpu_rows(xmlNodePtr tb, const report_run *run, const res_env *env)
{
    static const char *const wanted[] = { "sse4_2", "avx", NULL };
    for (int v = 0; v < run->nvms; v++) {
        const res_vm *vm = &run->vms[v];
        const res_hypervisor *h = NULL;
        char missing[64] = "", *row;
        if (vm->pinned) {
            row = orch_strfmt("vCPUs on %s, emulator and I/O thread on %s%s", vm->cpus,
                              vm->emulator_cpus, vm->numa_node >= 0 ? ", memory on node " : "");
            if (row && vm->numa_node >= 0) {
                char *n = orch_strfmt("%s%d", row, vm->numa_node);
                free(row);
                row = n;
            }
            if (row) {
                char *key = orch_strfmt("placement of %s (repetition %d)", vm->name, vm->repetition);
                page_kv(tb, key ? key : "placement", row);
                free(key);
            }
            free(row);
        }
        for (int k = 0; k < env->nhypervisors && vm->host; k++)
            if (env->hypervisors[k].uri && strcmp(env->hypervisors[k].uri, vm->host) == 0)
                h = &env->hypervisors[k];
        if (!vm->cpu_flags || !h || !h->cpu_flags)
            continue;
        for (int w = 0; wanted[w]; w++)
            if (orch_cpu_flag(h->cpu_flags, wanted[w]) && !orch_cpu_flag(vm->cpu_flags, wanted[w]))
                snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                         *missing ? ", " : "", wanted[w]);
        if (!*missing)
            continue;
        row = orch_strfmt("the guest of %s (repetition %d) lacks %s, which its host has: "
                          "its database ran on a slower CPU than the host's ([run] cpu = "
                          "host-passthrough under KVM)", vm->name, vm->repetition, missing);
        if (row) {
            xmlNodePtr last;
            page_kv(tb, "guest CPU warning", row);
            last = xmlGetLastChild(tb);
            if (last && xmlGetLastChild(last))
                html_attr(xmlGetLastChild(last), "class", "warn");
        }
        free(row);
    }
}

void page_section_environment(report_page *pg)
{
    xmlNodePtr sec = page_section(pg, "environment", "Environment", NULL);
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        const res_env *env = &run->sum.env;
        xmlNodePtr tb;
        char buf[64], *h3 = orch_strfmt("Run %s: %s", run->label, run->run_id), *ver;
        html_add(sec, "h3", h3 ? h3 : run->run_id);
        free(h3);
        tb = html_add(sec, "table", NULL);
        html_attr(tb, "class", "environment");
        html_attr(tb, "data-run", run->label);
        page_kv(tb, "host", env->hostname);
        page_kv(tb, "kernel", env->kernel);
        page_kv(tb, "CPU", env->cpu_model);
        page_kv(tb, "CPUs", page_int_text(env->cpus, buf, sizeof buf));
        if (env->memory_bytes != RES_UNSET) {
            snprintf(buf, sizeof buf, "%.1f GiB (%" PRId64 " bytes)",
                     (double)env->memory_bytes / (1024.0 * 1024 * 1024), env->memory_bytes);
            page_kv(tb, "memory", buf);
        } else {
            page_kv(tb, "memory", NULL);
        }
        if (env->nhypervisors == 0)
            page_kv(tb, "hypervisor", NULL);
        for (int i = 0; i < env->nhypervisors; i++) {
            const res_hypervisor *h = &env->hypervisors[i];
            char *hv = orch_strfmt("%s %s", h->hypervisor ? h->hypervisor : "",
                                   h->hypervisor_version ? h->hypervisor_version : "");
            page_kv(tb, "libvirt URI", h->uri);
            page_kv(tb, "hypervisor host", h->hostname);
            page_kv(tb, "libvirt version", h->libvirt_version);
            page_kv(tb, "hypervisor and version", hv);
            free(hv);
            hv = h->domain_type_reason && h->domain_type
                 ? orch_strfmt("%s (%s)", h->domain_type, h->domain_type_reason) : NULL;
            page_kv(tb, "domain type", hv ? hv : h->domain_type);
            page_kv(tb, "guest CPU", h->guest_cpu);
            free(hv);
            /* the host itself, as its libvirt tells (hosts.h) */
            hv = h->cpus > 0 && h->cpus != RES_UNSET
                 ? orch_strfmt("%" PRId64 " x %s, %.1f GiB%s%s", h->cpus,
                               h->cpu_model ? h->cpu_model : (h->arch ? h->arch : "CPU"),
                               (double)h->memory_bytes / (1024.0 * 1024 * 1024),
                               h->kernel ? ", kernel " : "", h->kernel ? h->kernel : "")
                 : NULL;
            page_kv(tb, "host CPUs, memory, kernel", hv);
            free(hv);
        }
        ver = guest_versions(run);
        page_kv(tb, "guest database", ver);
        free(ver);
        /* what the servers said before the measurement (issue 44): each
         * VM's settings, the distinct sets (the fingerprint's) */
        if (run->sum.fp && run->sum.fp->server_settings)
            page_kv(tb, "server settings (read back per VM)", run->sum.fp->server_settings);
        guest_cpu_rows(tb, run, env);
        host_check_table(sec, run, env);
    }
}

/* One row of the plan table when the value was recorded: text, or an
 * integer (RES_UNSET: not recorded). */
static void plan_text_row(xmlNodePtr tb, const char *key, const char *v)
{
    if (v && *v)
        page_kv(tb, key, v);
}

static void plan_int_row(xmlNodePtr tb, const char *key, int64_t v)
{
    char buf[32];
    if (v != RES_UNSET)
        page_kv(tb, key, page_int_text(v, buf, sizeof buf));
}

void page_section_plan(report_page *pg)
{
    xmlNodePtr sec = page_section(pg, "plan", "Plan", NULL);
    for (int r = 0; r < pg->s->nruns; r++) {
        const report_run *run = &pg->s->runs[r];
        const res_plan *p = &run->sum.plan;
        char *h3 = orch_strfmt("Run %s: %s", run->label, run->run_id), buf[64];
        xmlNodePtr tb;
        html_add(sec, "h3", h3 ? h3 : run->run_id);
        free(h3);
        tb = html_add(sec, "table", NULL);
        html_attr(tb, "class", "plan");
        html_attr(tb, "data-run", run->label);
        plan_text_row(tb, "name", p->name);
        plan_text_row(tb, "profile", p->profile);
        plan_int_row(tb, "VMs per drive", p->vms_per_drive);
        plan_text_row(tb, "client", p->client);
        plan_text_row(tb, "client-to-database path", p->client_path);
        plan_int_row(tb, "repetitions", p->repetitions);
        if (!isnan(p->cv_threshold))
            page_kv(tb, "cv_threshold (%)", report_num(p->cv_threshold, buf, sizeof buf));
        plan_text_row(tb, "workload", p->workload);
        plan_text_row(tb, "database driver", p->db_driver);
        plan_int_row(tb, "tables", p->tables);
        plan_int_row(tb, "table size", p->table_size);
        plan_int_row(tb, "warehouses", p->warehouses);
        plan_int_row(tb, "threads", p->threads);
        plan_int_row(tb, "precondition (s)", p->precondition_s);
        plan_int_row(tb, "warmup (s)", p->warmup_s);
        plan_int_row(tb, "measure (s)", p->measure_s);
        plan_text_row(tb, "pinning", p->pinning);
        plan_text_row(tb, "hugepages", p->hugepages);
        if (run->plan_text)
            html_attr(html_add(sec, "pre", run->plan_text), "class", "plan-ini");
    }
}
