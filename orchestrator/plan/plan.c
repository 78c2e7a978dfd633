/* plan.c — a loaded plan (plan.h): freeing it, the values that follow
 * from it (VMs, URIs, the database target, a sweep step's value) and its
 * redacted copy (which writes the step's value). Reading
 * is in plan_parse.c, validation in plan_check.c, keys in plan_keys.c. */
#include "plan/plan.h"
#include "atomic_file.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void drive_clear(orch_drive *d)
{
    free(d->name);
    free(d->id);
    free(d->path);
    free(d->pool);
    free(d->uri);
    free(d->image_pool);
    free(d->image_pool_path);
}

void orch_plan_free(orch_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->ndrives; i++)
        drive_clear(&p->drives[i]);
    free(p->drives);
    for (int i = 0; i < p->nsettings; i++) {
        free(p->settings[i].name);
        free(p->settings[i].value);
    }
    free(p->settings);
    free(p->file); free(p->name); free(p->uri); free(p->profile);
    free(p->engine_name); free(p->image); free(p->kernel); free(p->initrd);
    free(p->cmdline); free(p->controller); free(p->odbc_driver); free(p->encrypt);
    free(p->trust_server_certificate); free(p->openssl_conf);
    free(p->template_path); free(p->vmconfigs_dir); free(p->image_dir);
    free(p->results_dir); free(p->oltp); free(p->passt); free(p->guest_oltp); free(p->domain_type); free(p->cpu);
    free(p->pinning); free(p->metrics); free(p->sweep_values);
    free(p->workload); free(p->db_driver); free(p->db_user);
    free(p->db_password); free(p->db_password_env); free(p->db_password_file);
    free(p->db_name); free(p->prepare); free(p->extra); free(p->db_settings);
    free(p->target);
    if (p->text)
        explicit_bzero(p->text, p->text_len);   /* it may hold a password */
    free(p->text);
    free(p);
}

int orch_plan_seed_view(orch_plan *p, char *err, size_t errlen)
{
    char *yes = strdup("yes");
    if (!yes) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    free(p->prepare);
    p->prepare = yes;
    for (int i = 1; i < p->ndrives; i++)
        drive_clear(&p->drives[i]);
    if (p->ndrives > 1)
        p->ndrives = 1;
    if (p->ndrives == 1)
        p->drives[0].vms = 1;
    p->vms_per_drive = 1;
    p->repetitions = p->repetitions_min = p->repetitions_max = 1;
    p->repetitions_auto = 0;
    p->precondition_s = p->precondition_max_s = 0;
    p->precondition_steady = 0;
    return 0;
}

int orch_plan_drive_vms(const orch_plan *p, const orch_drive *d)
{
    return d->vms ? d->vms : p->vms_per_drive;
}

int orch_plan_total_vms(const orch_plan *p)
{
    int n = 0;
    for (int i = 0; i < p->ndrives; i++)
        n += orch_plan_drive_vms(p, &p->drives[i]);
    return n;
}

orch_db_target orch_plan_db_target(const orch_plan *p)
{
    orch_db_target t = {
        .engine = p->engine, .driver = p->db_driver, .user = p->db_user,
        .database = p->db_name, .odbc_driver = p->odbc_driver, .encrypt = p->encrypt,
        .trust_cert = p->trust_server_certificate,
    };
    return t;
}

char *orch_plan_openssl_conf_text(const orch_plan *p, int *oom)
{
    char *s;
    *oom = 0;
    if (p->tls_security_level < 0)
        return NULL;
    s = orch_strfmt("# drivebench: [workload] tls_security_level = %d (OPENSSL_CONF of oltp)\n"
                    "openssl_conf = openssl_init\n\n"
                    "[openssl_init]\n"
                    "ssl_conf = ssl_sect\n\n"
                    "[ssl_sect]\n"
                    "system_default = system_default_sect\n\n"
                    "[system_default_sect]\n"
                    "CipherString = DEFAULT@SECLEVEL=%d\n%s",
                    p->tls_security_level, p->tls_security_level,
                    p->tls_security_level == 0 ? "MinProtocol = TLSv1\n" : "");
    *oom = !s;
    return s;
}

char *orch_plan_openssl_conf_path(const orch_plan *p, const char *run_dir, int in_guest,
                                  int *oom)
{
    char *s = NULL;
    if (p->openssl_conf)
        s = strdup(p->openssl_conf);
    else if (p->tls_security_level >= 0 && in_guest)
        s = strdup(ORCH_OPENSSL_CONF_GUEST);
    else if (p->tls_security_level >= 0)
        s = orch_strfmt("%s/%s", run_dir ? run_dir : ".", ORCH_OPENSSL_CONF_FILE);
    else {
        *oom = 0;
        return NULL;
    }
    *oom = !s;
    return s;
}

char *orch_plan_settings_cmdline(const orch_plan *p, int *oom)
{
    char *copy, *word, *save = NULL, *out = NULL;
    size_t len = 0;
    int first = 1;
    FILE *f;

    if (oom)
        *oom = 0;
    if (!p->db_settings || !p->engine->cmdline_prefix)
        return NULL;
    copy = strdup(p->db_settings);
    f = copy ? open_memstream(&out, &len) : NULL;
    if (!f) {
        free(copy);
        if (oom)
            *oom = 1;
        return NULL;
    }
    /* plan_check.c let only NAME=VALUE words of safe characters through */
    for (word = strtok_r(copy, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
        fprintf(f, "%s%s%s", first ? "" : " ", p->engine->cmdline_prefix, word);
        first = 0;
    }
    free(copy);
    if (fclose(f) != 0) {
        free(out);
        if (oom)
            *oom = 1;
        return NULL;
    }
    return out;
}

const char *orch_plan_drive_uri(const orch_plan *p, const orch_drive *d)
{
    return d->uri ? d->uri : p->uri;
}

int orch_uri_is_remote(const char *uri)
{
    const char *h = strstr(uri, "://");
    if (!h)
        return 0;
    h += 3;
    if (*h == '/' || *h == '\0')
        return 0;
    return strncmp(h, "localhost", 9) != 0 || (h[9] != '/' && h[9] != ':' && h[9] != '\0');
}

/* Is line (a plan line) "KEY = ..." or "KEY : ..." for a secret key? The
 * offset of its value goes to *value_at. */
static int secret_line(const char *line, size_t *value_at)
{
    static const char *const secrets[] = { "db_password" };
    const char *s = line, *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strcspn(s, "=:");
    if (*e == '\0')
        return 0;
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
        size_t n = strlen(secrets[i]);
        const char *k = s + n;
        if (strncmp(s, secrets[i], n) != 0)
            continue;
        while (k < e && isspace((unsigned char)*k))
            k++;
        if (k == e) {
            *value_at = (size_t)(e - line) + 1;
            return 1;
        }
    }
    return 0;
}

void orch_plan_sweep_value(const orch_plan *p, int i, char *buf, size_t len)
{
    snprintf(buf, len, "%.15g", i >= 0 && i < p->nsweep ? p->sweep_values[i] : NAN);
}

int orch_plan_write_redacted(const orch_plan *p, const char *path, char *err, size_t errlen)
{
    /* the text that was parsed: the file may have changed since, or been a pipe */
    FILE *in = p->text_len ? fmemopen(p->text, p->text_len, "r") : NULL, *out = NULL;
    atomic_file *af = NULL;
    char *line = NULL;
    size_t cap = 0, at;
    ssize_t n;
    int rc = -1, lineno = 0;

    if (!in) {
        snprintf(err, errlen, "cannot copy the plan %s: %s", p->file,
                 p->text_len ? strerror(errno) : "nothing was read");
        goto cleanup;
    }
    if (!(af = atomic_file_open(path, err, errlen)))
        goto cleanup;
    out = atomic_file_stream(af);
    while ((n = getline(&line, &cap, in)) > 0) {
        const char *eq = strchr(line, '=');
        char v[64];
        lineno++;
        if (p->sweep_step > 0 && lineno == p->sweep_line && eq) {
            orch_plan_sweep_value(p, p->sweep_step - 1, v, sizeof v);
            fprintf(out, "%.*s= %s\n", (int)(eq - line), line, v);
        } else if (secret_line(line, &at))
            fprintf(out, "%.*s " ORCH_REDACTED "%s", (int)at, line,
                    line[n - 1] == '\n' ? "\n" : "");
        else
            fwrite(line, 1, (size_t)n, out);
    }
    if (ferror(in)) {
        snprintf(err, errlen, "cannot read the plan %s: %s", p->file, strerror(errno));
        goto cleanup;
    }
    rc = atomic_file_commit(af, err, errlen);     /* nothing left on a full disk */
    af = NULL;
cleanup:
    if (line)
        explicit_bzero(line, cap);
    free(line);
    if (in)
        fclose(in);
    atomic_file_abort(af);
    return rc;
}
