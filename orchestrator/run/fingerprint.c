/* fingerprint.c — the run's protocol fingerprint from its plan, profile
 * and summary (fingerprint.h). Every value is the one the run used: a
 * plan key or, when the plan leaves it, the profile's. */
#include "run/fingerprint.h"
#include "util/util.h"
#include "version.h"
#include "results_fingerprint.h"
#include "results_server.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int cmp_words(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The words of text (split on spaces) that `keep` accepts, sorted and
 * joined by one space: the same options or settings in another order are
 * the same protocol. New string, NULL when none is kept; *oom set when
 * out of memory. */
static char *sorted_words(const char *text, bool (*keep)(const char *w, const void *ctx),
                          const void *ctx, bool *oom)
{
    char *copy = text ? strdup(text) : NULL, *save = NULL, *out = NULL, **w = NULL;
    size_t n = 0, len = 1;
    if (!text)
        return NULL;
    if (!copy || !(w = calloc(strlen(text) / 2 + 1, sizeof *w)))
        goto oom;
    for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (keep(t, ctx)) {
            w[n++] = t;
            len += strlen(t) + 1;
        }
    if (n) {
        qsort(w, n, sizeof *w, cmp_words);
        if (!(out = calloc(len, 1)))
            goto oom;
        for (size_t i = 0; i < n; i++) {
            if (i)
                strcat(out, " ");
            strcat(out, w[i]);
        }
    }
    free(w);
    free(copy);
    return out;
oom:
    *oom = true;
    free(w);
    free(copy);
    return NULL;
}

/* [workload] extra's options that have their own keys */
#define OPT_TERMINALS "--terminals="
#define OPT_KEYING    "--keying-thinking="

static bool other_option(const char *w, const void *ctx)
{
    (void)ctx;
    return strncmp(w, OPT_TERMINALS, strlen(OPT_TERMINALS)) != 0
           && strncmp(w, OPT_KEYING, strlen(OPT_KEYING)) != 0;
}

/* The value of option `name` ("--terminals=") in text, or NULL (last one
 * wins, as oltp reads them). Borrowed from text. */
static const char *option_value(const char *text, const char *name, size_t *len)
{
    const char *found = NULL;
    for (const char *p = text ? strstr(text, name) : NULL; p; p = strstr(p + 1, name))
        if (p == text || p[-1] == ' ' || p[-1] == '\t')
            found = p + strlen(name);
    if (found)
        *len = strcspn(found, " \t");
    return found;
}

static bool engine_setting(const char *w, const void *prefix)
{
    return prefix && strncmp(w, prefix, strlen(prefix)) == 0;
}

/* The distinct non-empty values of n strings at base + i * stride,
 * ", "-separated, or NULL when none. *oom when out of memory. */
static char *distinct(const void *base, size_t n, size_t stride, size_t off, bool *oom)
{
    char *out = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *v = *(char *const *)((const char *)base + i * stride + off), *hit;
        size_t vl = v ? strlen(v) : 0;
        char *next;
        if (!vl)
            continue;
        for (hit = out ? strstr(out, v) : NULL; hit; hit = strstr(hit + 1, v))
            if ((hit == out || hit[-1] == ' ') && (hit[vl] == ',' || hit[vl] == '\0'))
                break;
        if (hit)
            continue;
        next = out ? orch_strfmt("%s, %s", out, v) : strdup(v);
        free(out);
        if (!(out = next)) {
            *oom = true;
            return NULL;
        }
    }
    return out;
}

/* The measured VMs' read-back server settings (issue 44): each VM's as
 * "NAME=VALUE; ..." in the order read (a value the server does not have
 * as "NAME=not available"), the distinct ones joined by " | "; NULL when
 * no VM's were read. */
static char *server_settings(const res_summary *s, bool *oom)
{
    char *out = NULL;
    for (int i = 0; i < s->nvms; i++) {
        const res_server *sv = s->vms[i].server;
        char *one = NULL, *next;
        size_t len = 0;
        FILE *f;
        if (!sv || s->vms[i].failed)
            continue;
        if (!(f = open_memstream(&one, &len))) {
            *oom = true;
            break;
        }
        for (int k = 0; k < sv->nsettings; k++)
            fprintf(f, "%s%s=%s", k ? "; " : "", sv->settings[k].name,
                    sv->settings[k].value ? sv->settings[k].value : "not available");
        if (fclose(f) != 0) {
            free(one);
            *oom = true;
            break;
        }
        if (out && (strcmp(out, one) == 0 || strstr(out, one))) {
            free(one);
            continue;
        }
        next = out ? orch_strfmt("%s | %s", out, one) : strdup(one);
        free(one);
        free(out);
        if (!(out = next)) {
            *oom = true;
            break;
        }
    }
    return out;
}

static char *dup_opt(const char *s, bool *oom)
{
    char *d = s ? strdup(s) : NULL;
    *oom |= s && !d;
    return d;
}

res_fingerprint *orch_fingerprint_build(const orch_plan *p, const orch_template *t,
                                        const res_summary *s)
{
    res_fingerprint *fp = res_fingerprint_new();
    orch_template_machine_info m;
    const char *v;
    size_t vl = 0;
    bool oom = orch_template_machine(t, &m) < 0;

    if (!fp) {
        orch_template_machine_clear(&m);
        return NULL;
    }
    fp->workload = dup_opt(p->workload, &oom);
    fp->db_driver = dup_opt(p->db_driver, &oom);
    fp->workload_options = sorted_words(p->extra, other_option, NULL, &oom);
    if (p->tables)
        fp->tables = p->tables;
    if (p->table_size)
        fp->table_size = p->table_size;
    if (p->warehouses)
        fp->warehouses = p->warehouses;
    fp->threads = p->threads ? p->threads : 1;
    if ((v = option_value(p->extra, OPT_TERMINALS, &vl)))
        fp->terminals = strtoll(v, NULL, 10);
    if ((v = option_value(p->extra, OPT_KEYING, &vl)) && !(fp->keying_thinking = strndup(v, vl)))
        oom = true;
    fp->rate = p->rate > 0 ? p->rate : 0;
    fp->precondition_s = p->precondition_s;
    fp->warmup_s = p->warmup_s;
    fp->measure_s = p->measure_s;
    fp->profile = dup_opt(orch_template_profile(t), &oom);
    fp->vcpus = p->vcpus ? p->vcpus : m.vcpus ? m.vcpus : RES_UNSET;
    fp->memory_bytes = p->memory ? (int64_t)p->memory : m.memory ? (int64_t)m.memory : RES_UNSET;
    fp->boot_size_bytes = (int64_t)(p->boot_size ? p->boot_size
                                                 : orch_template_disk_size(t, "bootdisk"));
    fp->db_size_bytes = (int64_t)(p->db_size ? p->db_size : orch_template_disk_size(t, "dbdisk"));
    fp->seed_size_bytes = orch_template_disk_size(t, "seeddisk")
                          ? (int64_t)(p->seed_size ? p->seed_size
                                                   : orch_template_disk_size(t, "seeddisk"))
                          : 0;
    fp->controller = dup_opt(p->controller ? p->controller : m.controller, &oom);
    fp->engine = dup_opt(p->engine_name, &oom);
    fp->server_version = distinct(s->vms, (size_t)s->nvms, sizeof s->vms[0],
                                  offsetof(res_vm, server_version), &oom);
    /* the server settings the guest reads from its kernel command line
     * (the engine's prefix: drivebench.my.innodb_buffer_pool_size=...):
     * the profile's or the plan's cmdline, then [run] db_settings; for an
     * engine with no prefix (a user's image) [run] db_settings as given */
    {
        int settings_oom = 0;
        char *extra = orch_plan_settings_cmdline(p, &settings_oom);
        const char *base = p->cmdline ? p->cmdline : m.cmdline;
        char *all = orch_strfmt("%s %s", base ? base : "", extra ? extra : "");
        oom |= settings_oom || !all;
        fp->db_settings = p->engine->cmdline_prefix
                          ? sorted_words(all, engine_setting, p->engine->cmdline_prefix, &oom)
                          : sorted_words(p->db_settings, engine_setting, "", &oom);
        free(all);
        free(extra);
    }
    fp->server_settings = server_settings(s, &oom);
    fp->client = orch_plan_choice("run", "client", (int)p->client);
    oom |= !fp->client;
    fp->domain_type = distinct(s->env.hypervisors, (size_t)s->env.nhypervisors,
                               sizeof s->env.hypervisors[0],
                               offsetof(res_hypervisor, domain_type), &oom);
    fp->cpu = distinct(s->env.hypervisors, (size_t)s->env.nhypervisors,
                       sizeof s->env.hypervisors[0], offsetof(res_hypervisor, guest_cpu), &oom);
    fp->pinning = dup_opt(strcmp(p->pinning, "auto") == 0 || strcmp(p->pinning, "off") == 0
                          ? p->pinning : "explicit", &oom);
    fp->hugepages = dup_opt(p->hugepages ? "yes" : "no", &oom);
    fp->drivebench_version = dup_opt(DRIVEBENCH_VERSION, &oom);
    orch_template_machine_clear(&m);
    if (oom) {
        res_fingerprint_free(fp);
        return NULL;
    }
    return fp;
}
