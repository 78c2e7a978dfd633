/* plan_check.c — validation of a parsed plan (plan_parse.h): what no
 * single key can tell, such as keys that need or exclude each other, the
 * password's source, the engine against the driver and the image, the
 * profile's template and every drive. Messages carry the line of the key
 * or section they are about. */
#include "plan/plan_parse.h"
#include "attributes.h"
#include "plan/plan_keys.h"
#include "plan/layout.h"
#include "plan/placement.h"
#include "plan/template.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first line of the password file at path into buf (len bytes):
 * -1 with why (len bytes too) when it cannot be read or is empty. */
static int read_secret_file(const char *path, char *buf, size_t len, char *why)
{
    size_t n;
    char *text = orch_file_read_regular(path, 64 * 1024, &n, why, len);
    buf[0] = '\0';
    if (!text)
        return -1;
    text[strcspn(text, "\r\n")] = '\0';
    if (!text[0] || strlen(text) >= len)
        snprintf(why, len, text[0] ? "its first line is longer than %zu bytes"
                 : "the file is empty", len - 1);
    else
        memcpy(buf, text, strlen(text) + 1);
    explicit_bzero(text, n);
    free(text);
    return buf[0] ? 0 : -1;
}

/* db_password comes from at most one of db_password (literal, kept for old
 * plans, with a warning), db_password_env and db_password_file; resolve
 * it into p->db_password. */
static void resolve_password(parse_state *st)
{
    orch_plan *p = st->p;
    static const char *const keys[] = { "db_password", "db_password_env", "db_password_file" };
    int given[3], first = -1;
    char buf[1024], why[1024];

    for (int i = 0; i < 3; i++) {
        given[i] = plan_key_line(st, "workload", keys[i]);
        if (!given[i])
            continue;
        if (first >= 0)
            plan_error(st, given[i], "[workload] %s: the password is already given by %s "
                       "(line %d); keep one", keys[i], keys[first], given[first]);
        else
            first = i;
    }
    if (first == 0) {
        plan_warning(st, given[0], "[workload] db_password is written in the plan; prefer "
                     "db_password_env or db_password_file (plans/README.md)");
    } else if (first == 1 && p->db_password_env) {
        const char *v = getenv(p->db_password_env);
        if (!v || !*v) {
            plan_error(st, given[1], "[workload] db_password_env: environment variable %s is %s",
                       p->db_password_env, v ? "empty" : "not set");
            return;
        }
        free(p->db_password);
        p->db_password = strdup(v);
    } else if (first == 2 && p->db_password_file) {
        if (!plan_secret_file_ok(st, given[2], "db_password_file", p->db_password_file))
            return;
        if (read_secret_file(p->db_password_file, buf, sizeof buf, why) < 0) {
            plan_error(st, given[2], "[workload] db_password_file: cannot read a password from "
                       "%s: %s", p->db_password_file, why);
            return;
        }
        free(p->db_password);
        p->db_password = strdup(buf);
        explicit_bzero(buf, sizeof buf);
    }
}

/* tls_security_level or openssl_conf: one of them; a host client's
 * openssl_conf is a readable file of this host, made absolute (oltp gets
 * it as OPENSSL_CONF), a guest client's an absolute path in the guest. */
static void validate_openssl(parse_state *st)
{
    orch_plan *p = st->p;
    int lvl = plan_key_line(st, "workload", "tls_security_level");
    int conf = plan_key_line(st, "workload", "openssl_conf");
    char *abs;

    if (lvl && conf) {
        plan_error(st, conf, "[workload] openssl_conf: the client's OpenSSL is already set by "
                   "tls_security_level (line %d); keep one", lvl);
        return;
    }
    if (!conf || !p->openssl_conf)
        return;
    if (p->client == ORCH_CLIENT_GUEST) {
        if (p->openssl_conf[0] != '/')
            plan_error(st, conf, "[workload] openssl_conf '%s' must be absolute (a file in the "
                       "guest, where client = guest runs oltp)", p->openssl_conf);
        return;
    }
    if (access(p->openssl_conf, R_OK) < 0 || !(abs = realpath(p->openssl_conf, NULL))) {
        plan_error(st, conf, "[workload] openssl_conf: cannot read %s: %s", p->openssl_conf,
                   strerror(errno));
        return;
    }
    free(p->openssl_conf);
    p->openssl_conf = abs;
}

/* The oltp driver against the engine, and the ODBC keys against both. */
static void validate_driver(parse_state *st)
{
    orch_plan *p = st->p;
    const char *odbc_keys[] = { "odbc_driver", "encrypt", "trust_server_certificate",
                                "tls_security_level", "openssl_conf" };
    orch_odbc_family fam;

    if (!orch_dbengine_allows(p->engine, p->db_driver)) {
        plan_error(st, plan_where(st, "workload", "db_driver"), "[workload] db_driver %s: "
                   "engine %s is reached through %s", p->db_driver, p->engine->name,
                   p->engine->drivers);
        return;
    }
    if (strcmp(p->db_driver, "odbc") != 0) {
        for (size_t i = 0; i < sizeof odbc_keys / sizeof odbc_keys[0]; i++)
            if (plan_key_line(st, "workload", odbc_keys[i]))
                plan_error(st, plan_where(st, "workload", odbc_keys[i]), "[workload] %s applies to "
                           "db_driver = odbc only (this plan's is %s)", odbc_keys[i],
                           p->db_driver);
        return;
    }
    fam = orch_odbc_family_of(p->odbc_driver ? p->odbc_driver : p->engine->odbc_driver);
    if (fam == ORCH_ODBC_FREETDS && p->encrypt && strcmp(p->encrypt, "strict") == 0)
        plan_error(st, plan_where(st, "workload", "encrypt"), "[workload] encrypt = strict: "
                   "FreeTDS 1.3 has no strict (TDS 8) encryption; use yes, or ODBC Driver 18");
    if (fam == ORCH_ODBC_FREETDS && p->trust_server_certificate
        && strcmp(p->trust_server_certificate, "no") == 0)
        plan_error(st, plan_where(st, "workload", "trust_server_certificate"), "[workload] "
                   "trust_server_certificate = no: FreeTDS checks a certificate only against "
                   "a CA file, which drivebench does not set; use yes, or ODBC Driver 18");
    if (fam == ORCH_ODBC_GENERIC && (p->encrypt || p->trust_server_certificate))
        plan_error(st, plan_where(st, "workload",
                                  p->encrypt ? "encrypt" : "trust_server_certificate"),
                   "[workload] %s: drivebench maps it for ODBC Driver 18 and FreeTDS only "
                   "(odbc_driver is %s)", p->encrypt ? "encrypt" : "trust_server_certificate",
                   p->odbc_driver ? p->odbc_driver : p->engine->odbc_driver);
    if (fam == ORCH_ODBC_MSSQL18 && p->encrypt && strcmp(p->encrypt, "yes") == 0
        && !p->trust_server_certificate)
        plan_error(st, plan_where(st, "workload", "encrypt"), "[workload] encrypt = yes leaves "
                   "the server's certificate undecided: ODBC Driver 18 then verifies it against "
                   "this host's CAs and fails on a self-signed one; add "
                   "'trust_server_certificate = yes' (a fresh SQL Server's own certificate) or "
                   "'trust_server_certificate = no' (a certificate this host's CAs sign)");
    validate_openssl(st);
}

/* The engine against the image, the boot keys, the client and the seed. */
static void validate_engine(parse_state *st)
{
    orch_plan *p = st->p;

    if (!p->engine->image_dir && !p->image)
        plan_error(st, plan_where(st, "run", "engine"), "[run] engine %s: drivebench builds no "
                   "image of it; set [run] image = PATH.qcow2 (images/README.md gives the "
                   "contract)", p->engine->name);
    if (p->initrd && !p->kernel)
        plan_error(st, plan_where(st, "run", "initrd"), "[run] initrd needs kernel (direct boot)");
    if (p->cmdline && !p->kernel)
        plan_error(st, plan_where(st, "run", "cmdline"),
                   "[run] cmdline needs kernel (direct boot)");
    if (p->kernel && !p->image)
        plan_error(st, plan_where(st, "run", "kernel"), "[run] kernel applies to a user's image "
                   "([run] image); drivebench's images boot their own");
    if (p->client == ORCH_CLIENT_GUEST && !p->guest_agent)
        plan_error(st, plan_where(st, "run", "client"), "[run] client = guest runs oltp through "
                   "the guest agent, and guest_agent = no: use client = host");
}

/* 1 when prog (a path, or a name looked up in PATH) can be executed. */
static int program_found(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", prog);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* [run] network = passt: client = host only (drives on another host are
 * refused by validate_drive), an engine whose client speaks first, and
 * the passt program. One message each. */
static void validate_network(parse_state *st)
{
    const orch_plan *p = st->p;
    int line = plan_where(st, "run", "network");
    if (p->network != ORCH_NET_PASST) {
        if (plan_key_line(st, "run", "passt"))
            plan_error(st, plan_where(st, "run", "passt"), "[run] passt applies to "
                       "network = passt only");
        return;
    }
    if (p->client == ORCH_CLIENT_GUEST)
        plan_error(st, line, "[run] network = passt is how client = host reaches the VMs; "
                   "client = guest runs oltp inside each guest and uses no host network: "
                   "leave network out");
    else if (p->engine && p->engine->server_first)
        plan_error(st, line, "[run] network = passt cannot serve engine %s: its server "
                   "speaks first on a new connection, and Debian 12's passt "
                   "(0.0~git20230309) never completes such a handshake (the guest's SYN-ACK "
                   "is not acknowledged until the client sends data); use network = user "
                   "(README, the guest network)", p->engine->name);
    else if (!program_found(p->passt))
        plan_error(st, plan_where(st, "run", p->passt && plan_key_line(st, "run", "passt")
                                  ? "passt" : "network"),
                   "[run] network = passt needs the passt program, and '%s' is not found "
                   "or not executable (apt-get install passt)", p->passt);
}

/* The longest kernel command line (x86's COMMAND_LINE_SIZE is 2048 with
 * its terminating NUL): a longer one is cut by the boot loader, silently. */
#define CMDLINE_MAX 2047

/* 1 when c may stand in a setting's name (the guest's drivebench-dbdisk
 * takes the same set), or, with value set, in its value: no space, quote
 * or backslash, since the kernel command line that carries the setting
 * has no quoting a guest can trust. */
static int setting_char_ok(char c, int value)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return 1;
    return strchr(value ? "_.-,:/%+" : "_.-", c) != NULL && c != '\0';
}

/* [settings] (issue 44): for an engine whose image reads its settings
 * from the kernel command line, each line's characters as db_settings
 * takes them, and the line appended to db_settings (validate_settings
 * then checks the command line's length); for the others (a user's
 * image: applied by sp_configure on SQL Server, else read back only),
 * what oltp settings quotes: letters, digits, space, '_', '.', '-', '(',
 * ')'. One message per line refused. */
static void validate_stated(parse_state *st)
{
    orch_plan *p = st->p;
    int cmdline = p->engine->cmdline_prefix && !p->image;
    for (int i = 0; i < p->nsettings; i++) {
        const orch_setting *s = &p->settings[i];
        size_t n = strlen(s->name);
        int ok = 1;
        char *more;
        for (const char *c = s->name; ok && *c; c++)
            ok = cmdline ? setting_char_ok(*c, 0) : isalnum((unsigned char)*c) || strchr(" _.-()", *c);
        for (const char *c = s->value; ok && *c; c++)
            ok = cmdline ? setting_char_ok(*c, 1) : isalnum((unsigned char)*c) || strchr(" _.-()", *c);
        if (!ok) {
            plan_error(st, s->line, cmdline
                       ? "[settings] %s = %s: a NAME of letters, digits, '_', '.', '-' and a VALUE of "
                         "those and ',', ':', '/', '%%', '+' (the kernel command line that carries "
                         "it to the guest has no quoting)"
                       : "[settings] %s = %s: a NAME and VALUE of letters, digits, spaces, '_', "
                         "'.', '-', '(' and ')'", s->name, s->value);
            continue;
        }
        if (!cmdline)
            continue;
        /* the same name in [run] db_settings (settings_line refused an
         * empty name, which would find itself here for ever) */
        for (const char *w = p->db_settings; n && w && (w = strstr(w, s->name)); w += n)
            if ((w == p->db_settings || w[-1] == ' ' || w[-1] == '\t') && w[n] == '=') {
                plan_error(st, s->line, "[settings] %s is also in [run] db_settings: give it once",
                           s->name);
                ok = 0;
                break;
            }
        if (!ok)
            continue;
        more = p->db_settings ? orch_strfmt("%s %s=%s", p->db_settings, s->name, s->value)
                              : orch_strfmt("%s=%s", s->name, s->value);
        if (!more) {
            plan_error(st, s->line, "out of memory");
            return;
        }
        free(p->db_settings);
        p->db_settings = more;
    }
}

/* [run] db_settings: NAME=VALUE words for an engine whose image reads
 * them from the kernel command line (dbengine.h cmdline_prefix), each
 * name once; t's (or the plan's) command line with them must fit. One
 * message for the first problem. */
static void validate_settings(parse_state *st, const orch_template *t)
{
    orch_plan *p = st->p;
    int line = plan_key_line(st, "run", "db_settings") || !p->nsettings
               ? plan_where(st, "run", "db_settings") : p->settings[0].line;
    char *copy, *word, *save = NULL, *cmd;
    const char *base;
    int nwords = 0;

    if (!p->db_settings)
        return;
    if (!p->engine->cmdline_prefix || p->image) {
        plan_error(st, line, "[run] db_settings: %s takes its server settings from the image "
                   "itself, not from drivebench: bake them into the image (images/README.md, "
                   "\"Server settings\")", !p->engine->cmdline_prefix ? p->engine->label
                                                    : "a user's image ([run] image)");
        return;
    }
    copy = strdup(p->db_settings);
    for (word = copy ? strtok_r(copy, " \t", &save) : NULL; word;
         word = strtok_r(NULL, " \t", &save), nwords++) {
        const char *eq = strchr(word, '='), *c;
        int ok = eq && eq > word && eq[1];
        for (c = word; ok && *c; c++)
            ok = c == eq || setting_char_ok(*c, c > eq);
        if (!ok) {
            plan_error(st, line, "[run] db_settings: '%s' is not NAME=VALUE (settings are "
                       "separated by spaces; NAME of letters, digits, '_', '.', '-'; VALUE of those and ',', ':', '/', '%%', '+'): "
                       "the kernel command line that carries it has no quoting", word);
            free(copy);
            return;
        }
        /* a name given twice: the words before this one, in place */
        for (const char *prev = copy; prev < word; prev += strlen(prev) + 1) {
            while (prev < word && (*prev == '\0' || *prev == ' ' || *prev == '\t'))
                prev++;
            if (prev < word && strncmp(prev, word, (size_t)(eq - word) + 1) == 0) {
                plan_error(st, line, "[run] db_settings: %.*s is given twice", (int)(eq - word),
                           word);
                free(copy);
                return;
            }
        }
    }
    free(copy);
    if (nwords == 0)
        plan_error(st, line, "[run] db_settings holds no NAME=VALUE");
    cmd = nwords ? orch_plan_settings_cmdline(p, NULL) : NULL;
    base = p->cmdline ? p->cmdline : t ? orch_template_cmdline(t) : NULL;
    if (cmd && base && strlen(base) + 1 + strlen(cmd) > CMDLINE_MAX)
        plan_error(st, line, "[run] db_settings: the kernel command line would be %zu "
                   "characters, more than the %d a kernel takes", strlen(base) + 1 + strlen(cmd),
                   CMDLINE_MAX);
    free(cmd);
}

/* The guest's OS against the image, the boot and the client: drivebench
 * builds Linux images that boot their kernel directly and run its oltp. */
static void validate_guest(parse_state *st)
{
    orch_plan *p = st->p;
    if (p->guest_os != ORCH_OS_WINDOWS)
        return;
    if (!p->image)
        plan_error(st, plan_where(st, "run", "guest_os"), "[run] guest_os = windows needs the "
                   "user's own image ([run] image = PATH.qcow2): drivebench builds Linux images "
                   "only (images/README.md gives the Windows contract)");
    if (p->kernel)
        plan_error(st, plan_where(st, "run", "kernel"), "[run] kernel: a Windows guest boots "
                   "from its own disk; drop kernel, initrd and cmdline");
    if (p->client == ORCH_CLIENT_GUEST)
        plan_error(st, plan_where(st, "run", "client"), "[run] client = guest runs drivebench's "
                   "Linux oltp inside the guest; a Windows guest needs client = host");
}

/* The prebuilt-database seed: a profile's seed disk, or a user's image
 * that attaches the databases it finds (dbdisk restored from the seed,
 * no seed disk attached). prepare = auto needs an engine or image that
 * restores it, and the seed volume needs image_dir's seed.qcow2. */
static void validate_seed(parse_state *st, const orch_template *t)
{
    orch_plan *p = st->p;
    int profile_seed = t && orch_template_disk_size(t, "seeddisk");
    if (p->image_attaches_databases && !p->image)
        plan_error(st, plan_where(st, "run", "image_attaches_databases"), "[run] "
                   "image_attaches_databases applies to a user's image ([run] image); "
                   "drivebench's images restore their seed disk themselves");
    if (!t || !orch_layout_has_seed(p, t))
        return;
    if (profile_seed && strcmp(p->prepare, "auto") == 0 && p->image
        && !p->image_attaches_databases)
        plan_error(st, plan_where(st, "workload", "prepare"), "[workload] prepare = auto: profile "
                   "%s restores a prebuilt database, which a user's image attaches only when "
                   "its contract says so: set [run] image_attaches_databases = yes "
                   "(images/README.md), or prepare = yes, or use a profile without a seed disk",
                   p->profile);
    else if (profile_seed && strcmp(p->prepare, "auto") == 0 && !p->image
             && p->engine->seed == ORCH_SEED_NONE)
        plan_error(st, plan_where(st, "workload", "prepare"), "[workload] prepare = auto: profile "
                   "%s restores a prebuilt database, which %s cannot; set prepare = yes or "
                   "use a profile without a seed disk", p->profile, p->engine->name);
    else if (!p->image_dir && p->image)
        plan_error(st, plan_where(st, "run", profile_seed ? "profile"
                                                          : "image_attaches_databases"),
                   "[run] %s: each database disk is restored from image_dir's seed.qcow2 "
                   "(images/README.md says how to make it); set [run] image_dir to its folder",
                   profile_seed ? "profile with a seed disk" : "image_attaches_databases = yes");
    else if (!p->image_dir)
        plan_error(st, plan_where(st, "run", "profile"), "[run] profile %s has a seed disk, made "
                   "from image_dir's seed.qcow2, and engine %s has no image_dir; use a "
                   "profile without a seed disk", p->profile, p->engine->name);
}

/* [run] name and the [workload] keys that need each other. */
static void validate_workload(parse_state *st)
{
    orch_plan *p = st->p;

    if (!plan_section_line(st, "run"))
        plan_error(st, 1, "no [run] section");
    else if (!p->name)
        plan_error(st, plan_where(st, "run", NULL), "[run] name is missing");
    else {
        char *id = orch_sanitize(p->name, ORCH_ID_MAX);
        if (id && !*id)
            plan_error(st, plan_where(st, "run", "name"),
                       "[run] name '%s' has no letter or digit to build a run id from", p->name);
        free(id);
    }
    if (!plan_section_line(st, "workload")) {
        plan_error(st, 1, "no [workload] section");
        return;
    }
    if (!p->workload && !plan_key_line(st, "workload", "name"))
        plan_error(st, plan_where(st, "workload", NULL), "[workload] name is missing");
    if (!p->measure_s && !plan_key_line(st, "workload", "measure"))
        plan_error(st, plan_where(st, "workload", NULL), "[workload] measure is missing "
                   "(a duration like 1h, 30m, 10s)");
    if (p->workload && strcmp(p->workload, "tpcc") == 0) {
        if (!p->warehouses)
            plan_error(st, plan_where(st, "workload", "name"),
                       "[workload] tpcc needs warehouses");
    } else if (p->workload && (!p->tables || !p->table_size)) {
        plan_error(st, plan_where(st, "workload", "name"),
                   "[workload] %s needs tables and table_size", p->workload);
    }
    if (p->warehouses && p->workload && strcmp(p->workload, "tpcc") != 0)
        plan_error(st, plan_where(st, "workload", "warehouses"),
                   "[workload] warehouses applies to tpcc only");
    resolve_password(st);
    validate_driver(st);
    plan_extra_check(st);
    plan_files_check(st);
}

/* precondition = until-steady and repetitions = auto (issue 21): the
 * words become flags, and the fields the run sizes and times by take the
 * maximum (precondition_max: the protocols' 2 h, 2 h 30 min for tpcc). */
static void validate_adaptive(parse_state *st)
{
    orch_plan *p = st->p;
    int tpcc = p->workload && strcmp(p->workload, "tpcc") == 0;

    p->precondition_steady = p->precondition_s == ORCH_PLAN_WORD;
    if (!p->precondition_max_s)
        p->precondition_max_s = tpcc ? 9000 : 7200;
    if (p->precondition_steady)
        p->precondition_s = p->precondition_max_s;
    else if (plan_key_line(st, "workload", "precondition_max"))
        plan_error(st, plan_where(st, "workload", "precondition_max"), "[workload] "
                   "precondition_max applies to precondition = until-steady only");
    if (p->precondition_steady && p->precondition_s < p->steady_round_s * p->steady_window)
        plan_error(st, plan_where(st, "workload", "precondition_max"), "[workload] "
                   "precondition_max %d s is shorter than steady_window (%d) rounds of "
                   "steady_round (%d s): steady state could never be seen",
                   p->precondition_s, p->steady_window, p->steady_round_s);
    p->repetitions_auto = p->repetitions == ORCH_PLAN_WORD;
    if (p->repetitions_auto)
        p->repetitions = p->repetitions_max;
    if (p->repetitions_auto && p->repetitions_min > p->repetitions_max)
        plan_error(st, plan_where(st, "run", "repetitions_min"), "[run] repetitions_min %d "
                   "is above repetitions_max %d", p->repetitions_min, p->repetitions_max);
    if (p->repetitions_auto && p->repetitions_min < 2)
        plan_error(st, plan_where(st, "run", "repetitions_min"), "[run] repetitions = auto "
                   "needs repetitions_min of 2 or more (a CV needs two repetitions)");
}

/* [run] profile: its template is found and loads, and its seed disk
 * suits the plan. */
static void validate_profile(parse_state *st)
{
    orch_plan *p = st->p;
    orch_template *t;
    char err[DB_ERR_LEN];

    if (!p->profile) {
        if (plan_section_line(st, "run"))
            plan_error(st, plan_where(st, "run", NULL), "[run] profile is missing (tiny, "
                       "sysbench, sqlserver or a template .xml path)");
        return;
    }
    free(p->template_path);
    if (strchr(p->profile, '/') || strstr(p->profile, ".xml"))
        p->template_path = strdup(p->profile);
    else
        p->template_path = orch_strfmt("%s/%s.xml", p->vmconfigs_dir, p->profile);
    t = p->template_path ? orch_template_load(p->template_path, err, sizeof err) : NULL;
    if (!t)
        plan_error(st, plan_where(st, "run", "profile"), "[run] profile %s: %s", p->profile, err);
    validate_seed(st, t);
    validate_stated(st);
    validate_settings(st, t);
    orch_template_free(t);
}

/* Sections the reader did not report: unknown ones, and [drive NAME]
 * sections without a key. Returns the number of [drive ...] sections. */
static int validate_sections(parse_state *st)
{
    orch_plan *p = st->p;
    int drive_sections = 0;

    for (int i = 0; i < st->nsects; i++) {
        const char *n = st->sects[i].name;
        int known = plan_section_keys(n) != NULL || strcmp(n, "settings") == 0;
        char name[256];
        if (plan_drive_section(n, name, sizeof name)) {
            int found = 0;
            known = 1;
            drive_sections++;
            for (int j = 0; j < p->ndrives; j++)
                found |= strcmp(p->drives[j].name, name) == 0;
            if (!found && *name)
                plan_error(st, st->sects[i].line, "[%s] has no keys: give it path or pool", n);
        }
        if (!known && !st->sects[i].reported)
            plan_error(st, st->sects[i].line, "unknown section [%s] (expected [run], "
                       "[workload], [engine], [settings] or [drive NAME])", n);
    }
    return drive_sections;
}

/* Drive i of the plan: where it is, its name, its image pool and how the
 * client reaches its VMs. */
static void validate_drive(parse_state *st, int i)
{
    orch_plan *p = st->p;
    orch_drive *d = &p->drives[i];
    char sect[300];

    snprintf(sect, sizeof sect, "drive %s", d->name);
    /* a key given with a refused value counts as given (one message) */
    if (!(d->path || plan_key_line(st, sect, "path"))
        == !(d->pool || plan_key_line(st, sect, "pool")))
        plan_error(st, d->line, "[drive %s] needs exactly one of path (a directory) "
                   "or pool (an existing storage pool)", d->name);
    if (d->path && d->path[0] != '/')
        plan_error(st, plan_where(st, sect, "path"), "[drive %s] path '%s' must be absolute",
                   d->name, d->path);
    if (!plan_text_ok(d->name))
        plan_error(st, d->line, "drive name is not UTF-8 text (or holds a control "
                   "character)");
    else if (!d->id[0])
        plan_error(st, d->line, "[drive %s] name has no letter or digit", d->name);
    for (int j = 0; j < i; j++)
        if (strcmp(p->drives[j].id, d->id) == 0 && d->id[0])
            plan_error(st, d->line, "[drive %s] and [drive %s] (line %d) both become "
                       "'%s' in object names; rename one", d->name, p->drives[j].name,
                       p->drives[j].line, d->id);
    if (d->image_pool && d->image_pool_path)
        plan_error(st, plan_where(st, sect, "image_pool_path"), "[drive %s] gives both "
                   "image_pool and image_pool_path: keep one", d->name);
    if (d->image_pool_path && d->image_pool_path[0] != '/')
        plan_error(st, plan_where(st, sect, "image_pool_path"), "[drive %s] image_pool_path "
                   "'%s' must be absolute (a folder on the drive's host)", d->name,
                   d->image_pool_path);
    if (p->client == ORCH_CLIENT_HOST && orch_uri_is_remote(orch_plan_drive_uri(p, d)))
        plan_error(st, plan_where(st, sect, d->uri ? "uri" : NULL),
                   "[drive %s] is on another host (%s): client = host reaches VMs only "
                   "through this host's loopback", d->name, orch_plan_drive_uri(p, d));
}

/* [run] pinning: auto, off, or one cpuset per VM of the plan. */
static void validate_pinning(parse_state *st, int total)
{
    char err[DB_ERR_LEN];
    const char *pin = st->p->pinning;
    if (!pin || strcmp(pin, "auto") == 0 || strcmp(pin, "off") == 0)
        return;
    if (orch_place_check_list(pin, total, err, sizeof err) < 0)
        plan_error(st, plan_where(st, "run", "pinning"), "[run] %s", err);
}

/* [run] metrics: an address to listen on, on loopback unless
 * metrics_remote = yes says the live view may be read from elsewhere. */
static void validate_metrics(parse_state *st)
{
    const orch_plan *p = st->p;
    orch_listen_addr a;
    char err[256];
    if (!p->metrics) {
        if (plan_key_line(st, "run", "metrics_remote") && !plan_key_line(st, "run", "metrics"))
            plan_error(st, plan_where(st, "run", "metrics_remote"), "[run] metrics_remote "
                       "applies to [run] metrics only");
        return;
    }
    if (orch_listen_parse(p->metrics, &a, err, sizeof err) < 0)
        plan_error(st, plan_where(st, "run", "metrics"), "[run] metrics: %s", err);
    else if (!a.loopback && !p->metrics_remote)
        plan_error(st, plan_where(st, "run", "metrics"), "[run] metrics = %s listens beyond "
                   "loopback: anyone who reaches this host could read the run's figures; use "
                   "127.0.0.1:PORT, or set [run] metrics_remote = yes to allow it", p->metrics);
}

void plan_check(parse_state *st)
{
    orch_plan *p = st->p;
    int total = 0, drive_sections;

    validate_workload(st);
    validate_adaptive(st);
    validate_engine(st);
    validate_network(st);
    validate_guest(st);
    validate_profile(st);
    drive_sections = validate_sections(st);
    if (p->ndrives == 0 && !drive_sections)
        plan_error(st, 1, "no [drive NAME] section: name at least one drive under test");
    for (int i = 0; i < p->ndrives; i++) {
        validate_drive(st, i);
        total += orch_plan_drive_vms(p, &p->drives[i]);
    }
    plan_paths_check(st);
    validate_pinning(st, total);
    validate_metrics(st);
    plan_sweep_check(st);
    plan_target_check(st);
    if (p->port_base + total - 1 > 65535)
        plan_error(st, plan_where(st, "run", "port_base"), "[run] port_base %d leaves no room "
                   "for %d VMs", p->port_base, total);
}
