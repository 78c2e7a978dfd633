/* plan_keys.c — the plan's key table (plan_keys.h): every key of [run],
 * [workload] and [drive NAME] once, with the typed store the parser uses
 * and the typed read `drivebench plan get` uses. */
#include "plan/plan_keys.h"
#include "results_base.h"
#include "plan/plan.h"
#include "plan/template.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* [run] and [workload] keys land in orch_plan, [drive NAME] keys in its
 * orch_drive. */
#define P(k, t, f, mn, mx, ch) { k, t, offsetof(orch_plan, f), mn, mx, ch }
#define D(k, t, f, mn, mx, ch) { k, t, offsetof(orch_drive, f), mn, mx, ch }

static const key_spec run_keys[] = {
    P("name",           K_STR,    name, 0, 0, NULL),
    P("engine",         K_STR,    engine_name, 0, 0, ORCH_DBENGINE_NAMES),
    P("image",          K_STR,    image, 0, 0, NULL),
    P("kernel",         K_STR,    kernel, 0, 0, NULL),
    P("initrd",         K_STR,    initrd, 0, 0, NULL),
    P("cmdline",        K_STR,    cmdline, 0, 0, NULL),
    P("guest_agent",    K_BOOL,   guest_agent, 0, 0, "yes|no"),
    P("controller",     K_STR,    controller, 0, 0, "virtio-scsi|lsisas1068|lsisas1078"),
    /* the guest's OS and its devices (issue 20); the K_ENUM choices are
     * in the order of their enums in template.h */
    P("guest_os",       K_ENUM,   guest_os, 0, 0, "linux|windows"),
    P("nic",            K_ENUM,   nic, 0, 0, "virtio|e1000e"),
    P("firmware",       K_ENUM,   firmware, 0, 0, "bios|efi"),
    P("hyperv",         K_BOOL,   hyperv, 0, 0, "yes|no"),
    P("image_attaches_databases", K_BOOL, image_attaches_databases, 0, 0, "yes|no"),
    P("uri",            K_STR,    uri, 0, 0, NULL),
    P("profile",        K_STR,    profile, 0, 0, NULL),
    P("vmconfigs_dir",  K_STR,    vmconfigs_dir, 0, 0, NULL),
    P("vms_per_drive",  K_INT,    vms_per_drive, 1, 64, NULL),
    P("client",         K_ENUM,   client, 0, 0, "host|guest"),    /* orch_client_kind */
    P("network",        K_ENUM,   network, 0, 0, "user|passt"),   /* orch_network */
    P("passt",          K_STR,    passt, 0, 0, NULL),
    P("repetitions",    K_INT,    repetitions, 1, 100, "auto"),
    P("image_dir",      K_STR,    image_dir, 0, 0, NULL),
    P("results_dir",    K_STR,    results_dir, 0, 0, NULL),
    P("oltp",           K_STR,    oltp, 0, 0, NULL),
    P("guest_oltp",     K_STR,    guest_oltp, 0, 0, NULL),
    P("domain_type",    K_STR,    domain_type, 0, 0, "auto|kvm|qemu"),
    P("cpu",            K_STR,    cpu, 0, 0, NULL),   /* auto, host-passthrough, host-model, max or a CPU model */
    P("vcpus",          K_INT,    vcpus, 1, 512, NULL),
    P("memory",         K_SIZE,   memory, 0, 0, NULL),
    P("boot_size",      K_SIZE,   boot_size, 0, 0, NULL),
    P("db_size",        K_SIZE,   db_size, 0, 0, NULL),
    P("seed_size",      K_SIZE,   seed_size, 0, 0, NULL),
    P("boot_timeout",   K_DUR,    boot_timeout_s, 1, 24 * 3600, NULL),
    P("max_outage",     K_DUR,    max_outage_s, 0, 24 * 3600, NULL),
    P("libvirt_reconnect", K_DUR, libvirt_reconnect_s, 0, 24 * 3600, NULL),
    P("port_base",      K_INT,    port_base, 1024, 65535, NULL),
    P("cv_threshold",   K_DOUBLE, cv_threshold, 0, 1000, NULL),
    /* repetitions = auto (issue 21) */
    P("repetitions_min", K_INT,   repetitions_min, 1, 100, NULL),
    P("repetitions_max", K_INT,   repetitions_max, 1, 100, NULL),
    /* the protocol's server settings and the hosts' memory (issue 22;
     * checked in plan_check.c validate_settings, capacity.c) */
    P("db_settings",    K_STR,    db_settings, 0, 0, NULL),
    P("overcommit",     K_BOOL,   overcommit, 0, 0, "yes|no"),
    /* placement (placement.h; checked in plan_check.c validate_pinning) */
    P("pinning",        K_STR,    pinning, 0, 0, NULL),   /* auto, off or one cpuset per VM */
    P("hugepages",      K_BOOL,   hugepages, 0, 0, "yes|no"),
    P("device_latency", K_ENUM,   device_latency, 0, 0, "auto|on|off"),    /* orch_devlat_mode */
    P("settings_mismatch", K_ENUM, settings_mismatch, 0, 0, "refuse|warn"), /* orch_mismatch_mode */
    /* the live view (issue 34; checked in plan_check.c validate_metrics) */
    P("metrics",        K_STR,    metrics, 0, 0, NULL),
    P("metrics_remote", K_BOOL,   metrics_remote, 0, 0, "yes|no"),
    { NULL, K_STR, 0, 0, 0, NULL }
};

static const key_spec workload_keys[] = {
    P("name",           K_STR,    workload, 0, 0,
      "oltp_read_write|oltp_read_only|oltp_write_only|oltp_point_select|"
      "oltp_update_index|oltp_update_non_index|oltp_insert|oltp_delete|tpcc"),
    P("db_driver",      K_STR,    db_driver, 0, 0, ORCH_DBDRIVER_NAMES),
    P("db_user",        K_STR,    db_user, 0, 0, NULL),
    P("db_password",    K_STR,    db_password, 0, 0, NULL),
    P("db_password_env", K_STR,   db_password_env, 0, 0, NULL),
    P("db_password_file", K_STR,  db_password_file, 0, 0, NULL),
    P("db_name",        K_STR,    db_name, 0, 0, NULL),
    P("odbc_driver",    K_STR,    odbc_driver, 0, 0, NULL),
    P("encrypt",        K_STR,    encrypt, 0, 0, "yes|no|strict"),
    P("trust_server_certificate", K_STR, trust_server_certificate, 0, 0, "yes|no"),
    P("tls_security_level", K_INT, tls_security_level, 0, 5, NULL),
    P("openssl_conf",   K_STR,    openssl_conf, 0, 0, NULL),
    P("tables",         K_INT,    tables, 1, 100000, NULL),
    P("table_size",     K_INT64,  table_size, 1, 100000000000LL, NULL),
    P("threads",        K_INT,    threads, 1, 1000000, NULL),
    P("warehouses",     K_INT,    warehouses, 1, 1000000, NULL),
    P("precondition",   K_DUR,    precondition_s, 0, 7 * 24 * 3600, "until-steady"),
    /* the precondition's rounds and steady state (issue 21) */
    P("precondition_max", K_DUR,  precondition_max_s, 1, 7 * 24 * 3600, NULL),
    P("steady_round",   K_DUR,    steady_round_s, 1, 24 * 3600, NULL),
    P("steady_window",  K_INT,    steady_window, 2, 100, NULL),
    P("steady_range_pct", K_DOUBLE, steady_range_pct, 0, 1000, NULL),
    P("steady_slope_pct", K_DOUBLE, steady_slope_pct, 0, 1000, NULL),
    P("steady_track",   K_ENUM,   steady_track, 0, 0, "tps|p99"),  /* orch_steady_track */
    P("warmup",         K_DUR,    warmup_s, 0, 24 * 3600, NULL),
    /* a sweep on the same VMs (issue 45, plan/sweep.c) */
    P("step_warmup",    K_DUR,    step_warmup_s, 0, 24 * 3600, NULL),
    P("restore_between_steps", K_BOOL, restore_between_steps, 0, 0, "yes|no"),
    P("measure",        K_DUR,    measure_s, 1, 7 * 24 * 3600, NULL),
    P("rate",           K_DOUBLE, rate, 0, 1000000000, NULL),
    /* a capacity search at a latency target (issue 45, run/capacity_search.c) */
    P("target",         K_STR,    target, 0, 0, NULL),
    P("target_resolution", K_DOUBLE, target_resolution_pct, 1, 100, NULL),
    P("target_start",   K_DOUBLE, target_start, 1, 1000000000, NULL),
    P("target_max_rate", K_DOUBLE, target_max_rate, 1, 1000000000, NULL),
    P("target_max_probes", K_INT, target_max_probes, 1, ORCH_CAP_MAX_PROBES, NULL),
    P("prepare",        K_STR,    prepare, 0, 0, "auto|yes|no"),
    P("extra",          K_STR,    extra, 0, 0, NULL),
    /* the database's expected size after load (issue 20), compared with
     * what each VM's server reports; not [run] db_size, the volume */
    P("expect_database_size", K_SIZE, expect_database_size, 0, 0, NULL),
    { NULL, K_STR, 0, 0, 0, NULL }
};

/* [engine]: the server's own files (plan_files.c checks them) */
static const key_spec engine_keys[] = {
    P("data_size",      K_SIZE,   data_size, 0, 0, NULL),
    P("log_size",       K_SIZE,   log_size, 0, 0, NULL),
    P("data_growth",    K_SIZE,   data_growth, 0, 0, NULL),
    P("log_growth",     K_SIZE,   log_growth, 0, 0, NULL),
    { NULL, K_STR, 0, 0, 0, NULL }
};

static const key_spec drive_keys[] = {
    D("path",           K_STR,    path, 0, 0, NULL),
    D("pool",           K_STR,    pool, 0, 0, NULL),
    D("uri",            K_STR,    uri, 0, 0, NULL),
    D("vms",            K_INT,    vms, 1, 64, NULL),
    D("image_pool",     K_STR,    image_pool, 0, 0, NULL),
    D("image_pool_path", K_STR,   image_pool_path, 0, 0, NULL),
    { NULL, K_STR, 0, 0, 0, NULL }
};

char *plan_trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

int plan_text_ok(const char *s)
{
    return res_utf8_bad_at(s, strlen(s), true) < 0;
}

/* Index of v among choices "a|b|c" (v is one of them: checked before). */
static int choice_index(const char *choices, const char *v)
{
    size_t n = strlen(v);
    int i = 0;
    for (const char *c = choices; *c; i++) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, v, n) == 0)
            return i;
        if (!bar)
            break;
        c = bar + 1;
    }
    return 0;
}

/* The i-th of choices "a|b|c" as a new string, or NULL when out of memory. */
static char *choice_at(const char *choices, int i)
{
    const char *c = choices, *bar;
    for (; i > 0 && (bar = strchr(c, '|')); i--)
        c = bar + 1;
    bar = strchr(c, '|');
    return strndup(c, bar ? (size_t)(bar - c) : strlen(c));
}

char *orch_plan_choice(const char *section, const char *key, int value)
{
    const key_spec *keys = plan_section_keys(section);
    const key_spec *k = keys ? plan_key_find(keys, key) : NULL;
    if (!k || k->type != K_ENUM)
        return NULL;
    return choice_at(k->choices, value);
}

int plan_key_store(const key_spec *k, void *base, const char *v, char *err, size_t errlen)
{
    char *field = (char *)base + k->off;
    char *end;
    long long n;
    double d;
    int secs;
    uint64_t bytes;

    if (!plan_text_ok(v)) {
        snprintf(err, errlen, "the value is not UTF-8 text (or holds a control character)");
        return -1;
    }
    if (k->choices && (k->type == K_INT || k->type == K_DUR) && strcmp(v, k->choices) == 0) {
        *(int *)(void *)field = ORCH_PLAN_WORD;     /* plan_check resolves it */
        return 0;
    }
    if (k->choices && k->type != K_INT && k->type != K_DUR && !orch_name_in(k->choices, v)) {
        snprintf(err, errlen, "'%s' is not one of %s", v, k->choices);
        return -1;
    }
    switch (k->type) {
    case K_STR: {
        char **dst = (char **)(void *)field;
        if (*v == '\0') {
            snprintf(err, errlen, "empty value");
            return -1;
        }
        free(*dst);
        *dst = strdup(v);
        return 0;
    }
    case K_ENUM:        /* an enum whose values are the choices' indexes */
        *(int *)(void *)field = choice_index(k->choices, v);
        return 0;
    case K_BOOL:
        *(int *)(void *)field = strcmp(v, "yes") == 0;
        return 0;
    case K_INT:
    case K_INT64:
        errno = 0;
        n = strtoll(v, &end, 10);
        if (errno || end == v || *end) {
            snprintf(err, errlen, "'%s' is not a whole number%s%s", v,
                     k->choices ? " or " : "", k->choices ? k->choices : "");
            return -1;
        }
        if (n < k->min || n > k->max) {
            snprintf(err, errlen, "%lld is out of range %lld..%lld", n, k->min, k->max);
            return -1;
        }
        if (k->type == K_INT)
            *(int *)(void *)field = (int)n;
        else
            *(int64_t *)(void *)field = n;
        return 0;
    case K_DOUBLE:
        errno = 0;
        d = strtod(v, &end);
        if (errno || end == v || *end || d < (double)k->min || d > (double)k->max) {
            snprintf(err, errlen, "'%s' is not a number in %lld..%lld", v, k->min, k->max);
            return -1;
        }
        *(double *)(void *)field = d;
        return 0;
    case K_DUR:
        if (orch_parse_duration(v, &secs) < 0 || secs < k->min || secs > k->max) {
            snprintf(err, errlen, "'%s' is not a duration like 2h, 30m, 10s (%lld..%lld s)%s%s",
                     v, k->min, k->max, k->choices ? " or " : "", k->choices ? k->choices : "");
            return -1;
        }
        *(int *)(void *)field = secs;
        return 0;
    case K_SIZE:
        if (orch_parse_size(v, &bytes) < 0 || bytes == 0) {
            snprintf(err, errlen, "'%s' is not a size like 4G, 512M", v);
            return -1;
        }
        *(uint64_t *)(void *)field = bytes;
        return 0;
    }
    snprintf(err, errlen, "key of unknown type");
    return -1;
}

int plan_drive_section(const char *section, char *name, size_t len)
{
    char buf[256];
    if (strncmp(section, "drive", 5) != 0 || !isspace((unsigned char)section[5]))
        return 0;
    snprintf(buf, sizeof buf, "%s", section + 5);
    snprintf(name, len, "%s", plan_trim(buf));
    return 1;
}

/* Every section a plan may have and its keys ("drive NAME": one per drive) */
static const struct { const char *name; const key_spec *keys; } sections[] = {
    { "run", run_keys }, { "workload", workload_keys }, { "engine", engine_keys },
    { "drive NAME", drive_keys },
};

const key_spec *plan_section_keys(const char *section)
{
    char name[256];
    for (size_t i = 0; i + 1 < sizeof sections / sizeof sections[0]; i++)
        if (strcmp(section, sections[i].name) == 0)
            return sections[i].keys;
    return plan_drive_section(section, name, sizeof name) ? drive_keys : NULL;
}

void orch_plan_keys_list(FILE *out)
{
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        for (const key_spec *k = sections[i].keys; k->key; k++)
            fprintf(out, "[%s] %s\n", sections[i].name, k->key);
}

const key_spec *plan_key_find(const key_spec *keys, const char *key)
{
    for (; keys->key; keys++)
        if (strcmp(keys->key, key) == 0)
            return keys;
    return NULL;
}

/* The default size of run key k's disk in p's profile: boot_size, db_size
 * and seed_size left at 0 take the template's (and seed_size is 0 when
 * the profile has no seed disk: the run makes none). */
static int profile_disk_size(const orch_plan *p, const key_spec *k, uint64_t *bytes, char *err,
                             size_t errlen)
{
    static const struct { const char *key, *serial; } disks[] = {
        { "boot_size", "bootdisk" }, { "db_size", "dbdisk" }, { "seed_size", "seeddisk" },
    };
    orch_template *t;
    const char *serial = NULL;
    for (size_t i = 0; i < sizeof disks / sizeof disks[0]; i++)
        if (strcmp(disks[i].key, k->key) == 0)
            serial = disks[i].serial;
    if (!serial)
        return 0;                       /* memory: the template decides */
    t = orch_template_load(p->template_path, err, errlen);
    if (!t)
        return -1;
    if (!orch_template_disk_size(t, serial))
        *bytes = 0;
    else if (!*bytes)
        *bytes = orch_template_disk_size(t, serial);
    orch_template_free(t);
    return 0;
}

char *orch_plan_get(const orch_plan *p, const char *section, const char *key, char *err,
                    size_t errlen)
{
    const key_spec *k;
    const char *base = (const char *)p;
    const orch_drive *d = NULL;
    const void *field;
    char name[256];
    uint64_t bytes;
    long long n;

    k = plan_section_keys(section);
    if (!k) {
        snprintf(err, errlen, "plans have no section [%s] (only run, workload, "
                 "engine, drive NAME)", section);
        return NULL;
    }
    if (plan_drive_section(section, name, sizeof name)) {
        for (int i = 0; i < p->ndrives && !d; i++)
            if (strcmp(p->drives[i].name, name) == 0)
                d = &p->drives[i];
        if (!d) {
            snprintf(err, errlen, "%s has no section [drive %s]", p->file, name);
            return NULL;
        }
        base = (const char *)d;
    }
    k = plan_key_find(k, key);
    if (!k) {
        snprintf(err, errlen, "[%s] has no key '%s' (plans/README.md lists them)", section, key);
        return NULL;
    }
    field = base + k->off;
    snprintf(err, errlen, "out of memory");
    if (d && strcmp(key, "uri") == 0)
        return strdup(orch_plan_drive_uri(p, d));
    if (d && strcmp(key, "vms") == 0)
        return orch_strfmt("%d", orch_plan_drive_vms(p, d));
    if (!d && strcmp(key, "threads") == 0)        /* oltp's --threads=1 */
        return orch_strfmt("%d", p->threads ? p->threads : 1);
    /* the word given instead of a number (plan_check resolved the field) */
    if (!d && ((strcmp(key, "precondition") == 0 && p->precondition_steady)
               || (strcmp(key, "repetitions") == 0 && p->repetitions_auto)))
        return strdup(k->choices);
    switch (k->type) {
    case K_STR:
        return strdup(*(char *const *)field ? *(char *const *)field : "");
    case K_ENUM:
        return choice_at(k->choices, *(const int *)field);
    case K_BOOL:
        return strdup(*(const int *)field ? "yes" : "no");
    case K_INT:
    case K_INT64:
        n = k->type == K_INT ? *(const int *)field : *(const int64_t *)field;
        /* below the key's range (0, or tls_security_level's -1): not
         * set, and no default */
        return n < k->min || (n == 0 && k->min > 0) ? strdup("") : orch_strfmt("%lld", n);
    case K_DUR:
        return orch_strfmt("%d", *(const int *)field);
    case K_DOUBLE:
        return orch_strfmt("%g", *(const double *)field);
    case K_SIZE:
        bytes = *(const uint64_t *)field;
        if (profile_disk_size(p, k, &bytes, err, errlen) < 0)
            return NULL;
        snprintf(err, errlen, "out of memory");
        return bytes ? orch_strfmt("%llu", (unsigned long long)bytes) : strdup("");
    }
    return NULL;
}

