/* plan_parse.c — reading a plan file (plan.h): inih feeds every line to
 * plan_reader (syntax, sections) and every key to plan_handler, which
 * stores it through the key table (plan_keys.h); then defaults, then
 * plan_check (plan_check.c). Every problem is kept with its line and
 * printed in file order. */
#include "plan/plan_parse.h"
#include "attributes.h"
#include "plan/plan_keys.h"
#include "results_base.h"
#include "util/util.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Note a section header: same text inih will pass as the section name. */
static void note_section(parse_state *st, char *text)
{
    char *end = strchr(text + 1, ']');
    seen_section *s;
    if (!end) {
        plan_error(st, st->line, "section header has no closing ']'");
        return;
    }
    *end = '\0';
    for (int i = 0; i < st->nsects; i++)
        if (strcmp(st->sects[i].name, text + 1) == 0) {
            plan_error(st, st->line, "section [%s] appears twice (first at line %d)",
                       text + 1, st->sects[i].line);
            return;
        }
    s = realloc(st->sects, sizeof *s * (size_t)(st->nsects + 1));
    if (!s)
        return;
    st->sects = s;
    s[st->nsects].name = strdup(text + 1);
    s[st->nsects].line = st->line;
    s[st->nsects].reported = 0;
    if (s[st->nsects].name)
        st->nsects++;
}

/* Keep byte c of the plan: the text the plan was parsed from (p->text). */
static bool keep_byte(parse_state *st, char c)
{
    if ((size_t)st->bytes + 1 > st->text_cap) {
        size_t cap = st->text_cap ? st->text_cap * 2 : 4096;
        char *t = malloc(cap);
        if (!t)
            return false;
        if (st->text) {
            memcpy(t, st->text, (size_t)st->bytes - 1);
            explicit_bzero(st->text, st->text_cap);     /* it may hold a password */
            free(st->text);
        }
        st->text = t;
        st->text_cap = cap;
    }
    st->text[st->bytes - 1] = c;
    st->text[st->bytes] = '\0';
    return true;
}

/* One byte of the plan, counted against PLAN_MAX_BYTES: EOF at the end
 * or past the bound (st->stop set and the refusal recorded), kept
 * in st->text. */
static int plan_getc(parse_state *st)
{
    int c;
    if (st->stop)
        return EOF;
    if ((c = getc(st->in)) != EOF && ++st->bytes > PLAN_MAX_BYTES) {
        plan_error(st, st->line, "the plan is larger than %d KiB: not a plan file",
                   PLAN_MAX_BYTES / 1024);
        st->stop = true;
        return EOF;
    }
    if (c != EOF && !keep_byte(st, (char)c)) {
        plan_error(st, st->line, "out of memory while reading the plan");
        st->stop = true;
        return EOF;
    }
    return c;
}

/* Whether the line at str (len bytes, nul: a NUL among them or in the
 * rest of a long line cut at len) is text a plan may hold: else the
 * reason is recorded. */
static bool plan_is_text(parse_state *st, const char *str, size_t len, bool nul,
                         bool long_line)
{
    long bad = res_utf8_bad_at(str, len, false);
    if (nul)
        plan_error(st, st->line, "a NUL byte: not a text file");
    else if (st->line == 1 && strncmp(str, "\xef\xbb\xbf", 3) == 0)
        plan_error(st, st->line, "the plan begins with a UTF-8 byte order mark (EF BB BF): "
                   "save it without one");
    else if (bad >= 0 && (!long_line || bad + 4 < (long)len))  /* not a character cut */
        plan_error(st, st->line, "not UTF-8 (byte 0x%02X at column %ld)",
                   (unsigned char)str[bad], bad + 1);
    else
        return true;
    return false;
}

/* inih line reader: a line of at most num - 1 bytes, with line
 * counting, section bookkeeping, and the syntax errors inih would only
 * report once (a line the plan cannot hold is recorded and passed on
 * empty). NULL at the end, or past PLAN_MAX_BYTES. */
static char *plan_reader(char *str, int num, void *stream)
{
    parse_state *st = stream;
    char copy[512], *t;
    size_t len = 0;
    bool nul = false, long_line;
    int c = EOF;

    while (len + 1 < (size_t)num && (c = plan_getc(st)) != EOF) {
        nul |= c == '\0';
        str[len++] = (char)c;
        if (c == '\n')
            break;
    }
    str[len] = '\0';
    if (len == 0 || st->stop)
        return NULL;
    st->line++;
    long_line = c != '\n' && len + 1 >= (size_t)num;
    while (long_line && !nul && (c = plan_getc(st)) != EOF && c != '\n')
        nul |= c == '\0';
    if (!st->stop && !plan_is_text(st, str, len, nul, long_line))
        st->stop = true;    /* not text: the reading stops at the first such line */
    if (st->stop)
        return NULL;
    if (long_line) {
        plan_error(st, st->line, "line longer than %d characters", num - 3);
        str[0] = '\0';
        return str;
    }
    snprintf(copy, sizeof copy, "%s", str);
    t = plan_trim(copy);
    if (*t == '\0' || *t == ';' || *t == '#')
        return str;
    if (*t == '[')
        note_section(st, t);
    else if (!strchr(t, '=') && !strchr(t, ':'))
        plan_error(st, st->line, "expected 'key = value', got '%s'", t);
    return str;
}

static orch_drive *drive_get(parse_state *st, const char *name)
{
    orch_plan *p = st->p;
    orch_drive *d;
    for (int i = 0; i < p->ndrives; i++)
        if (strcmp(p->drives[i].name, name) == 0)
            return &p->drives[i];
    d = realloc(p->drives, sizeof *d * (size_t)(p->ndrives + 1));
    if (!d)
        return NULL;
    p->drives = d;
    d = &p->drives[p->ndrives];
    memset(d, 0, sizeof *d);
    d->name = strdup(name);
    d->id = orch_sanitize(name, ORCH_ID_MAX);
    /* the handler runs inside this drive's section: its header is the last */
    d->line = st->nsects ? st->sects[st->nsects - 1].line : st->line;
    if (!d->name || !d->id)
        return NULL;
    p->ndrives++;
    return d;
}

/* A line of [settings]: NAME = VALUE in the engine's own words, each
 * name once (plan_check.c checks the characters for the engine). 1 to go
 * on, 0 when out of memory. */
static int settings_line(parse_state *st, const char *name, const char *value)
{
    orch_plan *p = st->p;
    orch_setting *v;
    if (!*name) {       /* inih reads "= VALUE" and ": VALUE" as a key without a name */
        plan_error(st, st->line, "[settings] a setting without a name: give NAME = VALUE");
        return 1;
    }
    for (int i = 0; i < p->nsettings; i++)
        if (strcasecmp(p->settings[i].name, name) == 0) {
            plan_error(st, st->line, "[settings] %s given twice (first at line %d)", name,
                       p->settings[i].line);
            return 1;
        }
    if (!*value) {
        plan_error(st, st->line, "[settings] %s has no value", name);
        return 1;
    }
    v = realloc(p->settings, sizeof *v * (size_t)(p->nsettings + 1));
    if (!v)
        return 0;
    p->settings = v;
    v[p->nsettings] = (orch_setting){ strdup(name), strdup(value), st->line };
    if (!v[p->nsettings].name || !v[p->nsettings].value) {
        free(v[p->nsettings].name);
        free(v[p->nsettings].value);
        return 0;
    }
    p->nsettings++;
    return 1;
}

/* inih key handler: the key looked up in its section's table, refused
 * when unknown or given twice, else recorded with its line and stored.
 * 1 to go on, 0 when out of memory. */
static int plan_handler(void *user, const char *section, const char *name, const char *value)
{
    parse_state *st = user;
    const key_spec *specs;
    void *base = st->p;
    char dname[256], err[DB_ERR_LEN];
    seen_key *sk;
    int first;

    if (strcmp(section, "settings") == 0)
        return settings_line(st, name, value);
    if (plan_drive_section(section, dname, sizeof dname)) {
        if (dname[0] == '\0') {
            plan_error(st, st->line, "[drive] needs a name: [drive NAME]");
            return 1;
        }
        base = drive_get(st, dname);
        if (!base)
            return 0;
    }
    specs = plan_section_keys(section);
    if (!specs) {
        for (int i = 0; i < st->nsects; i++)
            if (strcmp(st->sects[i].name, section) == 0) {
                if (!st->sects[i].reported)
                    plan_error(st, st->sects[i].line, "unknown section [%s] (expected [run], "
                               "[workload], [engine], [settings] or [drive NAME])", section);
                st->sects[i].reported = 1;
            }
        return 1;
    }
    specs = plan_key_find(specs, name);
    if (!specs) {
        plan_error(st, st->line, "[%s] unknown key '%s'", section, name);
        return 1;
    }
    first = plan_key_line(st, section, specs->key);
    if (first) {
        plan_error(st, st->line, "[%s] %s given twice (first at line %d)", section, name, first);
        return 1;
    }
    sk = realloc(st->keys, sizeof *sk * (size_t)(st->nkeys + 1));
    if (!sk)
        return 0;
    st->keys = sk;
    sk[st->nkeys].section = strdup(section);
    sk[st->nkeys].key = specs->key;
    sk[st->nkeys].line = st->line;
    if (sk[st->nkeys].section)
        st->nkeys++;
    if (plan_sweep_value(st, section, specs, base, value))
        return 1;
    if (plan_key_store(specs, base, value, err, sizeof err) < 0)
        plan_error(st, st->line, "[%s] %s: %s", section, specs->key, err);
    return 1;
}

/* path made absolute against the current directory; new string. */
static char *absolute(const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return strdup(path);
    return orch_strfmt("%s/%s", cwd, path);
}

/* *path made absolute in place (NULL stays NULL). */
static void make_absolute(char **path)
{
    char *abs;
    if (!*path)
        return;
    abs = absolute(*path);
    free(*path);
    *path = abs;
}

/* Defaults that follow the plan's engine: driver, login, database and
 * the folder of drivebench's image of it. An unknown engine was reported
 * by plan_key_store; the default engine's defaults let validation go on. */
static void engine_defaults(orch_plan *p)
{
    const orch_dbengine *e = orch_dbengine_find(p->engine_name);
    p->engine = e ? e : orch_dbengine_find(ORCH_DBENGINE_DEFAULT);
    e = p->engine;
    if (!p->db_driver)
        p->db_driver = strdup(orch_dbengine_default_driver(e));
    if (!p->db_user)
        p->db_user = strdup(e->user);
    if (!p->db_name)
        p->db_name = strdup(e->database);
    if (!p->image_dir && e->image_dir)
        p->image_dir = strdup(e->image_dir);
}

/* Defaults that follow [run] guest_os, for the keys the plan leaves out:
 * a Windows guest gets the NIC, controller and clock it has in-box
 * drivers for (e1000e, lsisas1068 for Windows' lsi_sas), Hyper-V
 * enlightenments, and no guest agent (its virtio-serial channel needs
 * the virtio-win drivers). Firmware stays BIOS unless asked. */
static void guest_defaults(parse_state *st)
{
    orch_plan *p = st->p;
    int windows = p->guest_os == ORCH_OS_WINDOWS;
    if (!plan_key_line(st, "run", "nic"))
        p->nic = windows ? ORCH_NIC_E1000E : ORCH_NIC_VIRTIO;
    if (!plan_key_line(st, "run", "hyperv"))
        p->hyperv = windows;
    if (!plan_key_line(st, "run", "guest_agent") && windows)
        p->guest_agent = 0;
    if (!plan_key_line(st, "run", "controller") && windows && !p->controller)
        p->controller = strdup("lsisas1068");
}

static void plan_defaults(orch_plan *p)
{
    p->engine_name = strdup(ORCH_DBENGINE_DEFAULT);
    p->guest_agent = 1;
    p->uri = strdup("qemu:///system");
    p->vms_per_drive = 1;
    p->client = ORCH_CLIENT_HOST;
    p->network = ORCH_NET_USER;
    p->passt = strdup("passt");
    p->repetitions = 1;
    p->results_dir = strdup("results");
    p->oltp = strdup("bin/oltp");
    p->guest_oltp = strdup("/usr/local/bin/oltp");
    p->domain_type = strdup("auto");
    p->cpu = strdup("auto");
    p->pinning = strdup("off");
    p->boot_timeout_s = 600;
    p->max_outage_s = 1;
    p->libvirt_reconnect_s = 60;
    p->port_base = 33060;
    p->cv_threshold = 5.0;
    p->repetitions_min = 3;
    p->repetitions_max = 10;
    p->steady_round_s = 600;
    p->steady_window = 5;
    p->steady_range_pct = 20;
    p->steady_slope_pct = 10;
    p->db_password = strdup("drivebench");
    p->prepare = strdup("auto");
    p->tls_security_level = -1;
    p->step_warmup_s = -1;
    p->target_resolution_pct = 5;
    p->target_start = 10;
    p->target_max_rate = 1000000;
    p->target_max_probes = 16;
}

/* The plan read from in (to its end, within PLAN_MAX_BYTES) and checked;
 * path names it in messages. NULL after printing every problem to errs. */
static orch_plan *plan_parse(const char *path, FILE *in, FILE *errs)
{
    parse_state st;
    orch_plan *p = calloc(1, sizeof *p);
    int rc;

    memset(&st, 0, sizeof st);
    if (!p || !(p->file = strdup(path))) {
        if (errs)
            fprintf(errs, "%s: cannot read plan: out of memory\n", path);
        free(p);
        return NULL;
    }
    plan_defaults(p);
    st.p = p;
    st.errs = errs;
    st.in = in;
    ini_allow_multiline = false;
    rc = ini_parse_stream(plan_reader, &st, plan_handler, &st);
    if (rc < 0 && !st.stop)
        plan_error(&st, st.line, "out of memory while parsing");
    p->text = st.text;          /* freed with the plan, wiped first */
    p->text_len = st.text ? (size_t)st.bytes : 0;
    if (!st.stop) {     /* a plan read whole */
        if (!p->vmconfigs_dir)
            p->vmconfigs_dir = orch_tree_path("vmconfigs");
        engine_defaults(p);
        guest_defaults(&st);
        make_absolute(&p->image_dir);
        make_absolute(&p->image);
        make_absolute(&p->kernel);
        make_absolute(&p->initrd);
        plan_check(&st);
    }
    for (int i = 0; i < st.nkeys; i++)
        free(st.keys[i].section);
    free(st.keys);
    for (int i = 0; i < st.nsects; i++)
        free(st.sects[i].name);
    free(st.sects);
    rc = st.nerr > st.nwarn;
    plan_msgs_flush(&st);
    if (rc) {
        orch_plan_free(p);
        return NULL;
    }
    return p;
}

orch_plan *orch_plan_load(const char *path, FILE *errs)
{
    FILE *in = fopen(path, "r");
    struct stat sb;
    orch_plan *p;

    if (!in || fstat(fileno(in), &sb) < 0) {
        if (errs)
            fprintf(errs, "%s: cannot read plan: %s\n", path, strerror(errno));
        if (in)
            fclose(in);
        return NULL;
    }
    /* refused before reading: a folder, a file the plan's bound cannot
     * hold (a device or a pipe is bounded as it is read: plan_getc) */
    if (S_ISDIR(sb.st_mode) || (S_ISREG(sb.st_mode) && sb.st_size > PLAN_MAX_BYTES)) {
        if (errs)
            fprintf(errs, S_ISDIR(sb.st_mode) ? "%s: cannot read plan: it is a directory\n"
                    : "%s: cannot read plan: larger than %d KiB: not a plan file\n", path,
                    PLAN_MAX_BYTES / 1024);
        fclose(in);
        return NULL;
    }
    p = plan_parse(path, in, errs);
    fclose(in);
    return p;
}

orch_plan *orch_plan_reload(const orch_plan *p, FILE *errs)
{
    FILE *in = p->text_len ? fmemopen(p->text, p->text_len, "r") : NULL;
    orch_plan *q;
    if (!in) {
        if (errs)
            fprintf(errs, "%s: cannot read plan again: %s\n", p->file,
                    p->text_len ? strerror(errno) : "nothing was read");
        return NULL;
    }
    q = plan_parse(p->file, in, errs);
    fclose(in);
    return q;
}

