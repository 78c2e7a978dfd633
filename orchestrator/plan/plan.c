/* plan.c — plan file parsing and validation (see plan.h). */
#include "plan/plan.h"
#include "util/names.h"
#include "plan/template.h"
#include "util/units.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { K_STR, K_INT, K_INT64, K_DUR, K_SIZE, K_DOUBLE, K_ENUM, K_BOOL } key_type;

typedef struct key_spec {
    const char *key;
    key_type    type;
    size_t      off;        /* into orch_plan, or orch_drive for [drive] */
    long long   min, max;
    const char *choices;    /* K_ENUM: "a|b|c" */
} key_spec;

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
    P("uri",            K_STR,    uri, 0, 0, NULL),
    P("profile",        K_STR,    profile, 0, 0, NULL),
    P("vmconfigs_dir",  K_STR,    vmconfigs_dir, 0, 0, NULL),
    P("vms_per_drive",  K_INT,    vms_per_drive, 1, 64, NULL),
    P("client",         K_ENUM,   client, 0, 0, "host|guest"),
    P("repetitions",    K_INT,    repetitions, 1, 100, NULL),
    P("image_dir",      K_STR,    image_dir, 0, 0, NULL),
    P("results_dir",    K_STR,    results_dir, 0, 0, NULL),
    P("oltp",           K_STR,    oltp, 0, 0, NULL),
    P("guest_oltp",     K_STR,    guest_oltp, 0, 0, NULL),
    P("domain_type",    K_STR,    domain_type, 0, 0, "auto|kvm|qemu"),
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
    P("tables",         K_INT,    tables, 1, 100000, NULL),
    P("table_size",     K_INT64,  table_size, 1, 100000000000LL, NULL),
    P("threads",        K_INT,    threads, 1, 1000000, NULL),
    P("warehouses",     K_INT,    warehouses, 1, 1000000, NULL),
    P("precondition",   K_DUR,    precondition_s, 0, 7 * 24 * 3600, NULL),
    P("warmup",         K_DUR,    warmup_s, 0, 24 * 3600, NULL),
    P("measure",        K_DUR,    measure_s, 1, 7 * 24 * 3600, NULL),
    P("rate",           K_DOUBLE, rate, 0, 1000000000, NULL),
    P("prepare",        K_STR,    prepare, 0, 0, "auto|yes|no"),
    P("extra",          K_STR,    extra, 0, 0, NULL),
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

typedef struct seen_key {
    char *section;
    const char *key;            /* points into a spec table */
    int   line;
} seen_key;

typedef struct seen_section {
    char *name;
    int   line;
    int   reported;             /* unknown section already reported */
} seen_section;

typedef struct plan_msg {
    int   line;
    int   seq;                  /* keeps discovery order within a line */
    int   warning;              /* printed, but does not fail the load */
    char *text;
} plan_msg;

typedef struct parse_state {
    orch_plan    *p;
    plan_msg     *msgs;         /* printed sorted by line at the end */
    FILE         *in;
    FILE         *errs;
    int           nerr;         /* messages, warnings included */
    int           nwarn;
    int           line;
    seen_key     *keys;
    int           nkeys;
    seen_section *sects;
    int           nsects;
} parse_state;

static void plan_msg_add(parse_state *st, int line, int warning, const char *fmt, va_list ap)
{
    plan_msg *m = realloc(st->msgs, sizeof *m * (size_t)(st->nerr + 1));
    if (!m)
        return;
    st->msgs = m;
    m[st->nerr].line = line;
    m[st->nerr].seq = st->nerr;
    m[st->nerr].warning = warning;
    if (vasprintf(&m[st->nerr].text, fmt, ap) < 0)
        m[st->nerr].text = NULL;
    st->nerr++;
    st->nwarn += warning;
}

static void plan_error(parse_state *st, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void plan_warning(parse_state *st, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void plan_error(parse_state *st, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    plan_msg_add(st, line, 0, fmt, ap);
    va_end(ap);
}

static void plan_warning(parse_state *st, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    plan_msg_add(st, line, 1, fmt, ap);
    va_end(ap);
}

static int msg_cmp(const void *a, const void *b)
{
    const plan_msg *x = a, *y = b;
    return x->line != y->line ? (x->line > y->line) - (x->line < y->line)
                              : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Print every problem, in file order, and free them. */
static void flush_errors(parse_state *st)
{
    if (st->nerr == 0)
        return;
    qsort(st->msgs, (size_t)st->nerr, sizeof *st->msgs, msg_cmp);
    for (int i = 0; i < st->nerr; i++) {
        if (st->errs)
            fprintf(st->errs, "%s:%d: %s%s\n", st->p->file, st->msgs[i].line,
                    st->msgs[i].warning ? "warning: " : "",
                    st->msgs[i].text ? st->msgs[i].text : "out of memory");
        free(st->msgs[i].text);
    }
    free(st->msgs);
    st->msgs = NULL;
}

static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

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

/* inih line reader: fgets plus line counting, section bookkeeping, and
 * the syntax errors inih would only report once. */
static char *plan_reader(char *str, int num, void *stream)
{
    parse_state *st = stream;
    char copy[512], *t;
    size_t len;
    if (!fgets(str, num, st->in))
        return NULL;
    st->line++;
    len = strlen(str);
    if (len > 0 && str[len - 1] != '\n' && !feof(st->in)) {
        int c;
        while ((c = fgetc(st->in)) != EOF && c != '\n')
            ;
        plan_error(st, st->line, "line longer than %d characters", num - 3);
        str[0] = '\0';
        return str;
    }
    snprintf(copy, sizeof copy, "%s", str);
    t = trim(copy);
    if (*t == '\0' || *t == ';' || *t == '#')
        return str;
    if (*t == '[')
        note_section(st, t);
    else if (!strchr(t, '=') && !strchr(t, ':'))
        plan_error(st, st->line, "expected 'key = value', got '%s'", t);
    return str;
}

static int key_line(const parse_state *st, const char *section, const char *key)
{
    for (int i = 0; i < st->nkeys; i++)
        if (strcmp(st->keys[i].section, section) == 0 && strcmp(st->keys[i].key, key) == 0)
            return st->keys[i].line;
    return 0;
}

static int section_line(const parse_state *st, const char *section)
{
    for (int i = 0; i < st->nsects; i++)
        if (strcmp(st->sects[i].name, section) == 0)
            return st->sects[i].line;
    return 0;
}

/* Line of a key if given, else of its section, else 1. */
static int where(const parse_state *st, const char *section, const char *key)
{
    int l = key ? key_line(st, section, key) : 0;
    if (!l)
        l = section_line(st, section);
    return l ? l : 1;
}

static int choice_ok(const char *choices, const char *v)
{
    size_t n = strlen(v);
    const char *c = choices;
    while (c && *c) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, v, n) == 0)
            return 1;
        c = bar ? bar + 1 : NULL;
    }
    return 0;
}

/* 1 when s is text every file we write can carry: valid UTF-8 (no
 * overlong forms, surrogates or code points past U+10FFFF), no control
 * character but tab, no U+FFFE/U+FFFF. XML 1.0 cannot represent the
 * others, so a name holding one would not come back from domain XML. */
static int text_ok(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        unsigned c = *u, n, cp;
        if (c < 0x80) {
            if (c < 0x20 && c != '\t')
                return 0;
            u++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) { n = 1; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { n = 2; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { n = 3; cp = c & 0x07; }
        else return 0;
        for (unsigned i = 1; i <= n; i++) {
            if ((u[i] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (u[i] & 0x3f);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff))
            || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
            return 0;
        u += n + 1;
    }
    return 1;
}

/* Store value v of key spec k into the struct at base. */
static void store_value(parse_state *st, const char *section, const key_spec *k,
                        void *base, const char *v)
{
    char *field = (char *)base + k->off;
    char *end;
    long long n;
    double d;
    int secs;
    uint64_t bytes;

    if (!text_ok(v)) {
        plan_error(st, st->line, "[%s] %s: the value is not UTF-8 text (or holds a control "
                   "character)", section, k->key);
        return;
    }
    if (k->choices && !choice_ok(k->choices, v)) {
        plan_error(st, st->line, "[%s] %s: '%s' is not one of %s", section, k->key, v, k->choices);
        return;
    }
    switch (k->type) {
    case K_STR: {
        char **dst = (char **)(void *)field;
        if (*v == '\0') {
            plan_error(st, st->line, "[%s] %s: empty value", section, k->key);
            return;
        }
        free(*dst);
        *dst = strdup(v);
        return;
    }
    case K_ENUM:        /* only [run] client */
        *(orch_client_kind *)(void *)field = strcmp(v, "guest") == 0 ? ORCH_CLIENT_GUEST
                                                                   : ORCH_CLIENT_HOST;
        return;
    case K_BOOL:
        *(int *)(void *)field = strcmp(v, "yes") == 0;
        return;
    case K_INT:
    case K_INT64:
        errno = 0;
        n = strtoll(v, &end, 10);
        if (errno || end == v || *end) {
            plan_error(st, st->line, "[%s] %s: '%s' is not a whole number", section, k->key, v);
            return;
        }
        if (n < k->min || n > k->max) {
            plan_error(st, st->line, "[%s] %s: %lld is out of range %lld..%lld",
                       section, k->key, n, k->min, k->max);
            return;
        }
        if (k->type == K_INT)
            *(int *)(void *)field = (int)n;
        else
            *(int64_t *)(void *)field = n;
        return;
    case K_DOUBLE:
        errno = 0;
        d = strtod(v, &end);
        if (errno || end == v || *end || d < (double)k->min || d > (double)k->max) {
            plan_error(st, st->line, "[%s] %s: '%s' is not a number in %lld..%lld",
                       section, k->key, v, k->min, k->max);
            return;
        }
        *(double *)(void *)field = d;
        return;
    case K_DUR:
        if (orch_parse_duration(v, &secs) < 0 || secs < k->min || secs > k->max) {
            plan_error(st, st->line, "[%s] %s: '%s' is not a duration like 2h, 30m, 10s "
                       "(%lld..%lld s)", section, k->key, v, k->min, k->max);
            return;
        }
        *(int *)(void *)field = secs;
        return;
    case K_SIZE:
        if (orch_parse_size(v, &bytes) < 0 || bytes == 0) {
            plan_error(st, st->line, "[%s] %s: '%s' is not a size like 4G, 512M",
                       section, k->key, v);
            return;
        }
        *(uint64_t *)(void *)field = bytes;
        return;
    }
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

static int plan_handler(void *user, const char *section, const char *name, const char *value)
{
    parse_state *st = user;
    const key_spec *specs = NULL;
    void *base = st->p;
    char dname[256];
    seen_key *sk;
    int first;

    if (strcmp(section, "run") == 0) {
        specs = run_keys;
    } else if (strcmp(section, "workload") == 0) {
        specs = workload_keys;
    } else if (strncmp(section, "drive", 5) == 0 && isspace((unsigned char)section[5])) {
        snprintf(dname, sizeof dname, "%s", section + 5);
        if (*trim(dname) == '\0') {
            plan_error(st, st->line, "[drive] needs a name: [drive NAME]");
            return 1;
        }
        base = drive_get(st, trim(dname));
        if (!base)
            return 0;
        specs = drive_keys;
    } else {
        for (int i = 0; i < st->nsects; i++)
            if (strcmp(st->sects[i].name, section) == 0) {
                if (!st->sects[i].reported)
                    plan_error(st, st->sects[i].line, "unknown section [%s] (expected [run], "
                               "[workload] or [drive NAME])", section);
                st->sects[i].reported = 1;
            }
        return 1;
    }
    for (; specs->key; specs++)
        if (strcmp(specs->key, name) == 0)
            break;
    if (!specs->key) {
        plan_error(st, st->line, "[%s] unknown key '%s'", section, name);
        return 1;
    }
    first = key_line(st, section, specs->key);
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
    store_value(st, section, specs, base, value);
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
 * by store_value; the default engine's defaults let validation go on. */
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

static void plan_defaults(orch_plan *p)
{
    p->engine_name = strdup(ORCH_DBENGINE_DEFAULT);
    p->guest_agent = 1;
    p->uri = strdup("qemu:///system");
    p->vms_per_drive = 1;
    p->client = ORCH_CLIENT_HOST;
    p->repetitions = 1;
    p->results_dir = strdup("results");
    p->oltp = strdup("bin/oltp");
    p->guest_oltp = strdup("/usr/local/bin/oltp");
    p->domain_type = strdup("auto");
    p->boot_timeout_s = 600;
    p->max_outage_s = 1;
    p->libvirt_reconnect_s = 60;
    p->port_base = 33060;
    p->cv_threshold = 5.0;
    p->db_password = strdup("drivebench");
    p->prepare = strdup("auto");
}

/* The first line of the file at path, without its line end, in buf.
 * 0, or -1 with errno set (ENODATA when the file is empty). */
static int read_secret_file(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    int rc = -1;
    if (!f)
        return -1;
    if (fgets(buf, (int)len, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        rc = 0;
    }
    if (rc == 0 && buf[0] == '\0')
        rc = -1;
    if (rc < 0 && !ferror(f))
        errno = ENODATA;
    fclose(f);
    return rc;
}

/* db_password comes from at most one of db_password (literal, kept for old
 * plans, with a warning), db_password_env and db_password_file; resolve
 * it into p->db_password. */
static void resolve_password(parse_state *st)
{
    orch_plan *p = st->p;
    static const char *const keys[] = { "db_password", "db_password_env", "db_password_file" };
    int given[3], first = -1;
    char buf[1024];

    for (int i = 0; i < 3; i++) {
        given[i] = key_line(st, "workload", keys[i]);
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
        if (read_secret_file(p->db_password_file, buf, sizeof buf) < 0) {
            plan_error(st, given[2], "[workload] db_password_file: cannot read a password from "
                       "%s: %s", p->db_password_file,
                       errno == ENODATA ? "the file is empty" : strerror(errno));
            return;
        }
        free(p->db_password);
        p->db_password = strdup(buf);
        explicit_bzero(buf, sizeof buf);
    }
}

/* The oltp driver against the engine, and the ODBC keys against both. */
static void validate_driver(parse_state *st)
{
    orch_plan *p = st->p;
    const char *odbc_keys[] = { "odbc_driver", "encrypt", "trust_server_certificate" };
    orch_odbc_family fam;

    if (!orch_dbengine_allows(p->engine, p->db_driver)) {
        plan_error(st, where(st, "workload", "db_driver"), "[workload] db_driver %s: engine %s "
                   "is reached through %s", p->db_driver, p->engine->name, p->engine->drivers);
        return;
    }
    if (strcmp(p->db_driver, "odbc") != 0) {
        for (size_t i = 0; i < sizeof odbc_keys / sizeof odbc_keys[0]; i++)
            if (key_line(st, "workload", odbc_keys[i]))
                plan_error(st, where(st, "workload", odbc_keys[i]), "[workload] %s applies to "
                           "db_driver = odbc only (this plan's is %s)", odbc_keys[i],
                           p->db_driver);
        return;
    }
    fam = orch_odbc_family_of(p->odbc_driver ? p->odbc_driver : p->engine->odbc_driver);
    if (fam == ORCH_ODBC_FREETDS && p->encrypt && strcmp(p->encrypt, "strict") == 0)
        plan_error(st, where(st, "workload", "encrypt"), "[workload] encrypt = strict: FreeTDS "
                   "1.3 has no strict (TDS 8) encryption; use yes, or ODBC Driver 18");
    if (fam == ORCH_ODBC_FREETDS && p->trust_server_certificate
        && strcmp(p->trust_server_certificate, "no") == 0)
        plan_error(st, where(st, "workload", "trust_server_certificate"), "[workload] "
                   "trust_server_certificate = no: FreeTDS checks a certificate only against "
                   "a CA file, which drivebench does not set; use yes, or ODBC Driver 18");
    if (fam == ORCH_ODBC_GENERIC && (p->encrypt || p->trust_server_certificate))
        plan_error(st, where(st, "workload", p->encrypt ? "encrypt" : "trust_server_certificate"),
                   "[workload] %s: drivebench maps it for ODBC Driver 18 and FreeTDS only "
                   "(odbc_driver is %s)", p->encrypt ? "encrypt" : "trust_server_certificate",
                   p->odbc_driver ? p->odbc_driver : p->engine->odbc_driver);
}

/* The engine against the image, the boot keys, the client and the seed. */
static void validate_engine(parse_state *st)
{
    orch_plan *p = st->p;

    if (!p->engine->image_dir && !p->image)
        plan_error(st, where(st, "run", "engine"), "[run] engine %s: drivebench builds no "
                   "image of it; set [run] image = PATH.qcow2 (images/README.md gives the "
                   "contract)", p->engine->name);
    if (p->initrd && !p->kernel)
        plan_error(st, where(st, "run", "initrd"), "[run] initrd needs kernel (direct boot)");
    if (p->cmdline && !p->kernel)
        plan_error(st, where(st, "run", "cmdline"), "[run] cmdline needs kernel (direct boot)");
    if (p->kernel && !p->image)
        plan_error(st, where(st, "run", "kernel"), "[run] kernel applies to a user's image "
                   "([run] image); drivebench's images boot their own");
    if (p->client == ORCH_CLIENT_GUEST && !p->guest_agent)
        plan_error(st, where(st, "run", "client"), "[run] client = guest runs oltp through "
                   "the guest agent, and guest_agent = no: use client = host");
}

/* A profile with a seed disk: prepare = auto needs an engine (and image)
 * that restore it, and the seed volume needs image_dir's seed.qcow2. */
static void validate_seed(parse_state *st, const orch_template *t)
{
    orch_plan *p = st->p;
    if (!t || !orch_template_disk_size(t, "seeddisk"))
        return;
    if (strcmp(p->prepare, "auto") == 0 && (p->engine->seed == ORCH_SEED_NONE || p->image))
        plan_error(st, where(st, "workload", "prepare"), "[workload] prepare = auto: profile "
                   "%s restores a prebuilt database, which %s cannot; set prepare = yes or "
                   "use a profile without a seed disk", p->profile,
                   p->engine->seed == ORCH_SEED_NONE ? p->engine->name : "a user's image");
    else if (!p->image_dir)
        plan_error(st, where(st, "run", "profile"), "[run] profile %s has a seed disk, made "
                   "from image_dir's seed.qcow2, and engine %s has no image_dir; use a "
                   "profile without a seed disk", p->profile, p->engine->name);
}

static void validate(parse_state *st)
{
    orch_plan *p = st->p;
    int total = 0;
    char err[512];

    if (!section_line(st, "run"))
        plan_error(st, 1, "no [run] section");
    else if (!p->name)
        plan_error(st, where(st, "run", NULL), "[run] name is missing");
    else {
        char *id = orch_sanitize(p->name, ORCH_ID_MAX);
        if (id && !*id)
            plan_error(st, where(st, "run", "name"),
                       "[run] name '%s' has no letter or digit to build a run id from", p->name);
        free(id);
    }
    if (!section_line(st, "workload"))
        plan_error(st, 1, "no [workload] section");
    else {
        if (!p->workload && !key_line(st, "workload", "name"))
            plan_error(st, where(st, "workload", NULL), "[workload] name is missing");
        if (!p->measure_s && !key_line(st, "workload", "measure"))
            plan_error(st, where(st, "workload", NULL), "[workload] measure is missing "
                       "(a duration like 1h, 30m, 10s)");
        if (p->workload && strcmp(p->workload, "tpcc") == 0) {
            if (!p->warehouses)
                plan_error(st, where(st, "workload", "name"),
                           "[workload] tpcc needs warehouses");
        } else if (p->workload && (!p->tables || !p->table_size)) {
            plan_error(st, where(st, "workload", "name"),
                       "[workload] %s needs tables and table_size", p->workload);
        }
        if (p->warehouses && p->workload && strcmp(p->workload, "tpcc") != 0)
            plan_error(st, where(st, "workload", "warehouses"),
                       "[workload] warehouses applies to tpcc only");
        resolve_password(st);
        validate_driver(st);
    }
    validate_engine(st);

    if (p->profile) {
        orch_template *t;
        free(p->template_path);
        if (strchr(p->profile, '/') || strstr(p->profile, ".xml"))
            p->template_path = strdup(p->profile);
        else
            p->template_path = orch_strfmt("%s/%s.xml", p->vmconfigs_dir, p->profile);
        t = p->template_path ? orch_template_load(p->template_path, err, sizeof err) : NULL;
        if (!t)
            plan_error(st, where(st, "run", "profile"), "[run] profile %s: %s", p->profile, err);
        validate_seed(st, t);
        orch_template_free(t);
    } else if (section_line(st, "run")) {
        plan_error(st, where(st, "run", NULL), "[run] profile is missing (tiny, sysbench, "
                   "sqlserver or a template .xml path)");
    }

    int drive_sections = 0;
    for (int i = 0; i < st->nsects; i++) {
        const char *n = st->sects[i].name;
        int known = strcmp(n, "run") == 0 || strcmp(n, "workload") == 0;
        if (strncmp(n, "drive", 5) == 0 && isspace((unsigned char)n[5])) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", n + 5);
            known = 1;
            drive_sections++;
            int found = 0;
            for (int j = 0; j < p->ndrives; j++)
                found |= strcmp(p->drives[j].name, trim(buf)) == 0;
            if (!found && *trim(buf))
                plan_error(st, st->sects[i].line, "[%s] has no keys: give it path or pool", n);
        }
        if (!known && !st->sects[i].reported)
            plan_error(st, st->sects[i].line, "unknown section [%s] (expected [run], "
                       "[workload] or [drive NAME])", n);
    }
    if (p->ndrives == 0 && !drive_sections)
        plan_error(st, 1, "no [drive NAME] section: name at least one drive under test");
    for (int i = 0; i < p->ndrives; i++) {
        orch_drive *d = &p->drives[i];
        char sect[300];
        snprintf(sect, sizeof sect, "drive %s", d->name);
        /* a key given with a refused value counts as given (one message) */
        if (!(d->path || key_line(st, sect, "path")) == !(d->pool || key_line(st, sect, "pool")))
            plan_error(st, d->line, "[drive %s] needs exactly one of path (a directory) "
                       "or pool (an existing storage pool)", d->name);
        if (d->path && d->path[0] != '/')
            plan_error(st, where(st, sect, "path"), "[drive %s] path '%s' must be absolute",
                       d->name, d->path);
        if (!text_ok(d->name))
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
            plan_error(st, where(st, sect, "image_pool_path"), "[drive %s] gives both "
                       "image_pool and image_pool_path: keep one", d->name);
        if (d->image_pool_path && d->image_pool_path[0] != '/')
            plan_error(st, where(st, sect, "image_pool_path"), "[drive %s] image_pool_path "
                       "'%s' must be absolute (a folder on the drive's host)", d->name,
                       d->image_pool_path);
        if (p->client == ORCH_CLIENT_HOST && orch_uri_is_remote(orch_plan_drive_uri(p, d)))
            plan_error(st, where(st, sect, d->uri ? "uri" : NULL),
                       "[drive %s] is on another host (%s): client = host reaches VMs only "
                       "through this host's loopback", d->name, orch_plan_drive_uri(p, d));
        total += orch_plan_drive_vms(p, d);
    }
    if (p->port_base + total - 1 > 65535)
        plan_error(st, where(st, "run", "port_base"), "[run] port_base %d leaves no room "
                   "for %d VMs", p->port_base, total);
}

orch_plan *orch_plan_load(const char *path, FILE *errs)
{
    parse_state st;
    orch_plan *p = calloc(1, sizeof *p);
    int rc;

    memset(&st, 0, sizeof st);
    if (!p)
        return NULL;
    plan_defaults(p);
    p->file = strdup(path);
    st.p = p;
    st.errs = errs;
    st.in = fopen(path, "r");
    if (!st.in) {
        if (errs)
            fprintf(errs, "%s: cannot read plan: %s\n", path, strerror(errno));
        orch_plan_free(p);
        return NULL;
    }
    ini_allow_multiline = false;
    rc = ini_parse_stream(plan_reader, &st, plan_handler, &st);
    fclose(st.in);
    if (rc < 0)
        plan_error(&st, st.line, "out of memory while parsing");
    if (!p->vmconfigs_dir)
        p->vmconfigs_dir = orch_tree_path("vmconfigs");
    engine_defaults(p);
    make_absolute(&p->image_dir);
    make_absolute(&p->image);
    make_absolute(&p->kernel);
    make_absolute(&p->initrd);
    validate(&st);
    for (int i = 0; i < st.nkeys; i++)
        free(st.keys[i].section);
    free(st.keys);
    for (int i = 0; i < st.nsects; i++)
        free(st.sects[i].name);
    free(st.sects);
    rc = st.nerr > st.nwarn;
    flush_errors(&st);
    if (rc) {
        orch_plan_free(p);
        return NULL;
    }
    return p;
}

void orch_plan_free(orch_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->ndrives; i++) {
        free(p->drives[i].name);
        free(p->drives[i].id);
        free(p->drives[i].path);
        free(p->drives[i].pool);
        free(p->drives[i].uri);
        free(p->drives[i].image_pool);
        free(p->drives[i].image_pool_path);
    }
    free(p->drives);
    free(p->file); free(p->name); free(p->uri); free(p->profile);
    free(p->engine_name); free(p->image); free(p->kernel); free(p->initrd);
    free(p->cmdline); free(p->controller); free(p->odbc_driver); free(p->encrypt);
    free(p->trust_server_certificate);
    free(p->template_path); free(p->vmconfigs_dir); free(p->image_dir);
    free(p->results_dir); free(p->oltp); free(p->guest_oltp); free(p->domain_type);
    free(p->workload); free(p->db_driver); free(p->db_user);
    free(p->db_password); free(p->db_password_env); free(p->db_password_file);
    free(p->db_name); free(p->prepare); free(p->extra);
    free(p);
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
    const key_spec *k = NULL;
    const char *base = (const char *)p;
    const orch_drive *d = NULL;
    const void *field;
    char name[256];
    uint64_t bytes;
    long long n;

    if (strcmp(section, "run") == 0) {
        k = run_keys;
    } else if (strcmp(section, "workload") == 0) {
        k = workload_keys;
    } else if (strncmp(section, "drive", 5) == 0 && isspace((unsigned char)section[5])) {
        snprintf(name, sizeof name, "%s", section + 5);
        for (int i = 0; i < p->ndrives && !d; i++)
            if (strcmp(p->drives[i].name, trim(name)) == 0)
                d = &p->drives[i];
        if (!d) {
            snprintf(err, errlen, "%s has no section [drive %s]", p->file, trim(name));
            return NULL;
        }
        base = (const char *)d;
        k = drive_keys;
    } else {
        snprintf(err, errlen, "plans have no section [%s] (only run, workload, "
                 "drive NAME)", section);
        return NULL;
    }
    for (; k->key && strcmp(k->key, key) != 0; k++)
        ;
    if (!k->key) {
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
    switch (k->type) {
    case K_STR:
        return strdup(*(char *const *)field ? *(char *const *)field : "");
    case K_ENUM:        /* only [run] client */
        return strdup(*(const orch_client_kind *)field == ORCH_CLIENT_GUEST ? "guest" : "host");
    case K_BOOL:
        return strdup(*(const int *)field ? "yes" : "no");
    case K_INT:
    case K_INT64:
        n = k->type == K_INT ? *(const int *)field : *(const int64_t *)field;
        /* 0 below the key's range: not set, and no default */
        return n == 0 && k->min > 0 ? strdup("") : orch_strfmt("%lld", n);
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

int orch_plan_write_redacted(const orch_plan *p, const char *path, char *err, size_t errlen)
{
    FILE *in = fopen(p->file, "r"), *out = NULL;
    char *line = NULL;
    size_t cap = 0, at;
    ssize_t n;
    int rc = -1;

    if (!in) {
        snprintf(err, errlen, "cannot read the plan %s: %s", p->file, strerror(errno));
        goto cleanup;
    }
    if (!(out = fopen(path, "w"))) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    while ((n = getline(&line, &cap, in)) > 0) {
        if (secret_line(line, &at))
            fprintf(out, "%.*s " ORCH_REDACTED "%s", (int)at, line,
                    line[n - 1] == '\n' ? "\n" : "");
        else
            fwrite(line, 1, (size_t)n, out);
    }
    if (ferror(in)) {
        snprintf(err, errlen, "cannot read the plan %s: %s", p->file, strerror(errno));
        goto cleanup;
    }
    rc = 0;
cleanup:
    if (line)
        explicit_bzero(line, cap);
    free(line);
    if (in)
        fclose(in);
    if (out && fclose(out) != 0 && rc == 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}
