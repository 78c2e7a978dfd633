/*
 * options.c — sysbench-style `--name=value` options, table-driven.
 */
#include "options/options.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options/option_defs.h"
#include "version.h"

/* --bulk's ODBC paths by name (spelled once: the usage line too is made
 * of these); DB_ODBC_ARRAYS is --bulk=on or off */
static const char *const bulk_names[] = {
    [DB_ODBC_BCP] = BULK_BCP, [DB_ODBC_VALUES] = BULK_VALUES,
};
/* --db-ps-mode's values, likewise */
static const char *const ps_mode_names[] = { [DB_PS_AUTO] = PS_AUTO, [DB_PS_DISABLE] = PS_DISABLE };

const char *opts_bulk_name(const oltp_opts *o)
{
    if (o->db.odbc_bulk != DB_ODBC_ARRAYS)
        return bulk_names[o->db.odbc_bulk];
    return o->bulk ? "on" : "off";
}


static const opt_def *find_def(const char *name, size_t len)
{
    for (size_t i = 0; i < opts_ndefs; i++)
        if (strlen(opts_defs[i].name) == len && !strncmp(opts_defs[i].name, name, len))
            return &opts_defs[i];
    return NULL;
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"))
        *out = true;
    else if (!strcmp(v, "off") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no"))
        *out = false;
    else
        return -1;
    return 0;
}

static int parse_num(const char *v, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(v, &end);
    return (errno || end == v || *end || !isfinite(*out)) ? -1 : 0;
}

static int set_value(oltp_opts *o, const opt_def *d, const char *v, FILE *err)
{
    char *base = (char *)o;
    double n;

    switch (d->type) {
    case O_IGNORED:
        return 0;
    case O_STR:
        *(const char **)(base + d->off) = v;
        return 0;
    case O_BOOL:
        if (parse_bool(v, (bool *)(base + d->off)) < 0)
            goto bad;
        return 0;
    case O_BULK:
        o->db.odbc_bulk = !strcmp(v, bulk_names[DB_ODBC_BCP]) ? DB_ODBC_BCP
                        : !strcmp(v, bulk_names[DB_ODBC_VALUES]) ? DB_ODBC_VALUES : DB_ODBC_ARRAYS;
        if (o->db.odbc_bulk != DB_ODBC_ARRAYS)
            o->bulk = true;
        else if (parse_bool(v, &o->bulk) < 0) {
            fprintf(err, "%s--bulk=%s: expected on, off, bcp or values\n", opts_msg_prefix(o), v);
            return -1;
        }
        return 0;
    case O_PSMODE:
        for (size_t m = 0; m < sizeof ps_mode_names / sizeof ps_mode_names[0]; m++)
            if (!strcmp(v, ps_mode_names[m])) {
                o->db.ps_mode = (db_ps_mode)m;
                return 0;
            }
        fprintf(err, "%s--db-ps-mode=%s: expected " PS_AUTO " or " PS_DISABLE "\n", opts_msg_prefix(o), v);
        return -1;
    case O_RANDTYPE:
        if (rand_type_parse(v, &o->rnd.type) < 0) {
            fprintf(err, "%s--rand-type=%s: expected one of uniform, gaussian, special, pareto, zipfian\n", opts_msg_prefix(o), v);
            return -1;
        }
        return 0;
    case O_PCT: {
        char buf[256], *tok, *save;

        /* strtok_r would skip an empty one: "50,,99" is no list */
        if (strstr(v, ",,") || v[0] == ',' || (v[0] && v[strlen(v) - 1] == ',')) {
            fprintf(err, "oltp: --percentile=%s: an empty item in the list (expected up to %d "
                    "comma-separated numbers in (0, 100])\n", v, OLTP_MAX_PERCENTILES);
            return -1;
        }
        snprintf(buf, sizeof buf, "%s", v);
        o->npercentiles = 0;
        if (parse_num(v, &n) == 0 && n == 0)
            return 0;           /* sysbench's "no percentile" */
        for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (parse_num(tok, &n) < 0 || n <= 0 || n > 100 ||
                o->npercentiles == OLTP_MAX_PERCENTILES) {
                fprintf(err, "%s--percentile=%s: expected up to %d comma-separated numbers in (0, 100]\n", opts_msg_prefix(o),
                        v, OLTP_MAX_PERCENTILES);
                return -1;
            }
            o->percentiles[o->npercentiles++] = n;
        }
        if (!o->npercentiles)
            goto bad;
        return 0;
    }
    case O_INT: case O_INT64: case O_DOUBLE:
        if (parse_num(v, &n) < 0)
            goto bad;
        if (n < d->min || n > d->max) {
            fprintf(err, "%s--%s=%s: out of range [%g, %g]\n", opts_msg_prefix(o), d->name, v, d->min, d->max);
            return -1;
        }
        if (d->type != O_DOUBLE && n != floor(n))
            goto bad;
        if (d->type == O_INT)
            *(int *)(base + d->off) = (int)n;
        else if (d->type == O_INT64)
            *(int64_t *)(base + d->off) = (int64_t)n;
        else
            *(double *)(base + d->off) = n;
        return 0;
    }
bad:
    fprintf(err, "%s--%s=%s: invalid value (%s)\n", opts_msg_prefix(o), d->name, v,
            d->type == O_BOOL ? "expected on or off" :
            d->type == O_DOUBLE ? "expected a number" : "expected a whole number");
    return -1;
}

static int parse_ignore_errors(oltp_opts *o, FILE *err)
{
    char buf[512], *tok, *save;
    const char *v = o->ignore_errors_text;

    o->db.n_ignore_errors = 0;
    o->db.ignore_all = false;
    if (!strcmp(v, "all")) {
        o->db.ignore_all = true;
        return 0;
    }
    if (!strcmp(v, "none") || !*v)
        return 0;
    snprintf(buf, sizeof buf, "%s", v);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *end;
        long code = strtol(tok, &end, 10);
        if (*end || end == tok || code <= 0 || o->db.n_ignore_errors == 32) {
            fprintf(err, "%s--mysql-ignore-errors=%s: expected \"all\", \"none\" or up to 32 error numbers\n",
                    opts_msg_prefix(o), v);
            return -1;
        }
        o->db.ignore_errors[o->db.n_ignore_errors++] = (int)code;
    }
    return 0;
}

/* --report-checkpoints=N,N,...: seconds since the start, ascending,
 * into o->checkpoints. 0, or -1 after printing why. */
static int parse_checkpoints(oltp_opts *o, FILE *err)
{
    char buf[1024], *tok, *save;
    const char *v = o->report_checkpoints_text;

    o->ncheckpoints = 0;
    if (!v || !*v)
        return 0;
    snprintf(buf, sizeof buf, "%s", v);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double n;
        if (parse_num(tok, &n) < 0 || n <= 0 || n > BIG || o->ncheckpoints == OLTP_MAX_CHECKPOINTS
            || (o->ncheckpoints && n <= o->checkpoints[o->ncheckpoints - 1])) {
            fprintf(err, "%s--report-checkpoints=%s: expected up to %d ascending numbers of seconds "
                    "above 0, comma-separated\n", opts_msg_prefix(o), v, OLTP_MAX_CHECKPOINTS);
            return -1;
        }
        o->checkpoints[o->ncheckpoints++] = n;
    }
    return 0;
}

/* Fill o->db from the --pgsql-* or --odbc-* options when --db-driver
 * names those drivers (the --mysql-* options write o->db directly). */
static int driver_options(oltp_opts *o, FILE *err)
{
    db_dialect d;

    if (!strcmp(o->db_driver, "pgsql")) {
        o->db.host = o->pgsql_host;
        o->db.port = o->pgsql_port;
        o->db.socket = NULL;
        o->db.user = o->pgsql_user;
        o->db.database = o->pgsql_db;
        o->db.password = o->pgsql_password ? o->pgsql_password : getenv("OLTP_PGSQL_PASSWORD");
    } else if (!strcmp(o->db_driver, "odbc")) {
        if (!o->odbc_dsn == !o->odbc_connect) {
            fprintf(err, "%s--db-driver=odbc needs one of --odbc-dsn=NAME or --odbc-connect='Driver=...;...'\n", opts_msg_prefix(o));
            return -1;
        }
        if (o->odbc_dialect && dialect_parse(o->odbc_dialect, &d) < 0) {
            fprintf(err, "%s--odbc-dialect=%s: expected mssql, mysql or pgsql\n", opts_msg_prefix(o), o->odbc_dialect);
            return -1;
        }
        o->db.dsn = o->odbc_dsn;
        o->db.conn_str = o->odbc_connect;
        o->db.host = o->db.socket = o->db.database = NULL;
        o->db.user = o->odbc_user;
        o->db.password = o->odbc_password ? o->odbc_password : getenv("OLTP_ODBC_PASSWORD");
    }
    return 0;
}

/* --db-ps-mode=disable with what cannot send text: 0, or -1 after saying why. */
static int ps_mode_check(const oltp_opts *o, FILE *err)
{
    if (o->db.ps_mode != DB_PS_DISABLE)
        return 0;
    if (o->db.pipeline) {
        fprintf(err, "%s--db-ps-mode=" PS_DISABLE " and --pipeline=on: the simple query protocol "
                "cannot be pipelined (libpq); choose one\n", opts_msg_prefix(o));
        return -1;
    }
    if (!strcmp(o->db_driver, "odbc")) {
        fprintf(err, "%s--db-ps-mode=" PS_DISABLE " is not available with --db-driver=odbc: only the "
                "mysql and pgsql drivers send statements as text\n", opts_msg_prefix(o));
        return -1;
    }
    return 0;
}

bool opts_notice(const oltp_opts *o)
{
    return o->verbosity >= 3;
}

/* What a message starts with: sysbench's "FATAL: " or "oltp: ". */
const char *opts_msg_prefix(const oltp_opts *o)
{
    return o->sysbench_personality ? "FATAL: " : "oltp: ";
}

FILE *opts_msg_file(const oltp_opts *o)
{
    return o->sysbench_personality ? stdout : stderr;
}

void opts_usage(FILE *out, const oltp_opts *o)
{
    if (o->sysbench_personality)
        fprintf(out,
                "Usage:\n  sysbench [options]... [testname] [command]\n\n"
                "This is oltp (drivebench %s) run as sysbench: sysbench 1.0.20's OLTP tests, built in (no Lua).\n"
                "A test is named as sysbench names it: oltp_read_write, or a path to its script\n"
                "(/usr/share/sysbench/oltp_read_write.lua).\n\n"
                "Commands: prepare prewarm run cleanup check help\n\n"
                "Options:\n", DRIVEBENCH_VERSION);
    else
        fprintf(out,
                "Usage: oltp [options] WORKLOAD prepare|prewarm|run|cleanup|check|help\n"
                "       oltp [driver options] ping   (exit 0 answers, 3 no connection, 4 login refused,\n"
                "                                     5 SELECT 1 failed; bounded by --connect-timeout)\n"
                "       oltp [driver options] [--server-settings=...] [--json=FILE] settings\n"
                "                                    (the server's version, edition and settings)\n\n"
                "A sysbench-compatible OLTP and TPC-C load generator (drivebench %s).\n\n"
                "Options:\n", DRIVEBENCH_VERSION);
    /* the drivers and workloads follow, printed by main */
    for (size_t i = 0; i < opts_ndefs; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s=%s", opts_defs[i].name,
                 opts_defs[i].type == O_BOOL ? "on|off" : opts_defs[i].type == O_BULK ? "on|off|" BULK_BCP "|" BULK_VALUES
                 : opts_defs[i].type == O_PSMODE ? PS_AUTO "|" PS_DISABLE
                 : opts_defs[i].type == O_STR || opts_defs[i].type == O_IGNORED ? "STRING" : "N");
        fprintf(out, "  %-32s %s", left, opts_defs[i].help);
        if (opts_defs[i].def)
            fprintf(out, " [%s]", opts_defs[i].def);
        fputc('\n', out);
    }
}

/* The options of sysbench's OLTP scripts, in the order its `help` lists
 * them (by name). */
static const char *const script_opts[] = {
    "auto-inc", "create-secondary", "delete-inserts", "distinct-ranges", "index-updates",
    "mysql-storage-engine", "non-index-updates", "order-ranges", "pgsql-variant",
    "point-selects", "range-selects", "range-size", "secondary", "simple-ranges",
    "skip-trx", "sum-ranges", "table-size", "tables",
};
#define NSCRIPT_OPTS (sizeof script_opts / sizeof script_opts[0])

/* A test's options as sysbench's `TEST help` lists them, under "TITLE options:" (nnames
 * of them, at most NSCRIPT_OPTS); lua: spelt table_size as its scripts do, else table-size. */
static void test_help(FILE *out, const char *title, const char *const *names, size_t nnames, bool lua)
{
    char left[NSCRIPT_OPTS][64];
    int width = 0;

    for (size_t i = 0; i < nnames; i++) {
        const opt_def *d = find_def(names[i], strlen(names[i]));
        int n = snprintf(left[i], sizeof left[i], "--%s%s", d->name,
                         d->type == O_BOOL ? "[=on|off]" : d->type == O_STR || d->type == O_IGNORED ? "=STRING" : "=N");
        for (char *c = left[i]; *c; c++)
            if (lua && *c == '-' && c > left[i] + 1)
                *c = '_';                   /* sysbench spells them table_size */
        if (n > width)
            width = n;
    }
    fprintf(out, "%s options:\n", title);
    for (size_t i = 0; i < nnames; i++) {
        const opt_def *d = find_def(names[i], strlen(names[i]));
        fprintf(out, "  %-*s %s", width, left[i], d->help);
        if (d->def)
            fprintf(out, " [%s]", d->def);
        fputc('\n', out);
    }
    fputc('\n', out);
}

/* a script's options (sysbench's `SCRIPT help`), and the cpu test's */
void opts_script_help(FILE *out, const char *title) { test_help(out, title, script_opts, NSCRIPT_OPTS, true); }
void opts_cpu_help(FILE *out) { test_help(out, "cpu", (const char *const[]){ "cpu-max-prime" }, 1, false); }

static const char *const commands[] = { "prepare", "prewarm", "run", "cleanup", "check", "help" };

/* sysbench's deprecated spellings, still in many scripts */
static const struct { const char *alias, *name; } aliases[] = {
    { "num-threads", "threads" }, { "max-requests", "events" },
    { "max-time", "time" }, { "tx-rate", "rate" },
};

void opts_list(FILE *out)
{
    static const char *const plain[] = { "help", "version", "config-file", "test" };
    const size_t nplain = sizeof plain / sizeof plain[0];

    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "command %s\n", commands[i]);
    fputs("command ping\ncommand settings\n", out);
    for (size_t i = 0; i < opts_ndefs + nplain + sizeof aliases / sizeof aliases[0]; i++)
        fprintf(out, "option --%s\n", i < opts_ndefs ? opts_defs[i].name : i < opts_ndefs + nplain ? plain[i - opts_ndefs]
                : aliases[i - opts_ndefs - nplain].alias);
}

/* One long option (a is "--name[=value]"): 0, or -1 after one message. */
static int parse_long(oltp_opts *o, const char *a, FILE *err)
{
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    char norm[64];
    const opt_def *d = NULL;

    /* accept both --table-size and --table_size */
    if (len < sizeof norm) {
        for (size_t k = 0; k < len; k++)
            norm[k] = name[k] == '_' ? '-' : name[k];
        norm[len] = 0;
        d = find_def(norm, len);
        for (size_t k = 0; !d && k < sizeof aliases / sizeof aliases[0]; k++)
            if (!strcmp(norm, aliases[k].alias))
                d = find_def(aliases[k].name, strlen(aliases[k].name));
    }
    if (!d) {
        if (o->sysbench_personality)
            fprintf(err, "invalid option: %s\n", a);
        else
            fprintf(err, "oltp: unknown option '--%.*s' (see oltp --help)\n", (int)len, name);
        return -1;
    }
    if (!eq && d->type != O_BOOL && d->type != O_BULK) {
        fprintf(err, "%soption '--%s' needs a value: --%s=VALUE\n", opts_msg_prefix(o), d->name, d->name);
        return -1;
    }
    return set_value(o, d, eq ? eq + 1 : "on", err);
}

/* --config-file=FILE, sysbench's: an option a line, NAME=VALUE without
 * the dashes; blank lines and lines starting with # are skipped. Each is
 * kept as a "--NAME=VALUE" string for the life of the process (the
 * options point into them). 0, or -1 after one message. */
#define CONFIG_MAX_BYTES (1024 * 1024)
static char **config_opts;
static size_t nconfig_opts;

static int parse_config_file(oltp_opts *o, const char *path, FILE *err)
{
    FILE *f = fopen(path, "r");
    char *text = NULL, *opt, **grown;
    size_t n = 0;
    int rc = 0;

    /* read whole, within a bound: a pipe is fine (--config-file=<(...)),
     * a device that never ends (/dev/zero) is refused, not read forever */
    if (f && (text = malloc(CONFIG_MAX_BYTES + 1)))
        n = fread(text, 1, CONFIG_MAX_BYTES + 1, f);
    if (!f || !text || ferror(f) || n > CONFIG_MAX_BYTES) {
        fprintf(err, "%s--config-file=%s: %s\n", opts_msg_prefix(o), path,
                f && text && !ferror(f) ? "larger than 1024 KiB: not a config file"
                : strerror(f && !text ? ENOMEM : errno));
        free(text);
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    text[n] = '\0';
    for (char *line = text, *next; rc == 0 && line < text + n; line = next) {
        char *b = line, *e = memchr(line, '\n', (size_t)(text + n - line));
        next = e ? e + 1 : text + n;
        if (!e)
            e = text + n;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (b == e || *b == '#')
            continue;
        grown = realloc(config_opts, (nconfig_opts + 1) * sizeof *config_opts);
        if (!grown || asprintf(&opt, "--%.*s", (int)(e - b), b) < 0) {
            if (grown)
                config_opts = grown;
            fprintf(err, "%sout of memory\n", opts_msg_prefix(o));
            rc = -1;
            break;
        }
        config_opts = grown;
        config_opts[nconfig_opts++] = opt;
        rc = parse_long(o, opt, err);
    }
    free(text);
    return rc;
}

/* The positional arguments: WORKLOAD COMMAND, or `ping` alone. */
static int parse_positional(oltp_opts *o, const char *const *pos, int npos, FILE *err)
{
    if (npos == 1 && (!strcmp(pos[0], "ping") || !strcmp(pos[0], "settings"))) {
        o->command = pos[0];        /* `oltp [driver options] ping|settings`: no workload */
        return 0;
    }
    if (npos < 2) {
        if (o->sysbench_personality && npos)
            fprintf(err, "FATAL: Command is required. Supported commands: prepare, prewarm, run, cleanup, help\n");
        else if (o->sysbench_personality)
            fprintf(err, "FATAL: no test given (usage: sysbench [options]... testname command; see sysbench --help)\n");
        else
            fprintf(err, "oltp: %s (usage: oltp [options] WORKLOAD prepare|run|cleanup|check; see oltp --help)\n",
                    npos ? "missing command" : "missing workload and command");
        return -1;
    }
    o->workload = pos[0];
    o->command = pos[1];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(o->command, commands[i]))
            return 0;
    if (o->sysbench_personality)
        fprintf(err, "Unknown command: %s\n", o->command);
    else
        fprintf(err, "oltp: unknown command '%s': expected prepare, prewarm, run, cleanup, check or help\n",
                o->command);
    return -1;
}

int opts_parse(oltp_opts *o, int argc, char **argv, FILE *err)
{
    const char *pos[3], *test = NULL;
    const char *prog = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
    int npos = 0;

    memset(o, 0, sizeof(*o));
    prog = prog ? prog + 1 : argc > 0 && argv[0] ? argv[0] : "oltp";
    o->sysbench_personality = !strcmp(prog, "sysbench");
    for (size_t i = 0; i < opts_ndefs; i++)
        if (opts_defs[i].def && set_value(o, &opts_defs[i], opts_defs[i].def, err) < 0)
            return -1;
    /* sysbench's default prepare: its INSERT batches (and so its
     * AUTO_INCREMENT), not oltp's bulk load */
    if (o->sysbench_personality)
        o->bulk = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            opts_usage(stdout, o);
            return 1;
        }
        if (!strcmp(a, "--version")) {
            if (o->sysbench_personality)
                printf("%s\n", OPTS_SYSBENCH_BANNER);
            else
                printf("oltp (drivebench) %s\n", DRIVEBENCH_VERSION);
            return 1;
        }
        if (!strncmp(a, "--config-file=", 14)) {
            if (parse_config_file(o, a + 14, err) < 0)
                return -1;
            continue;
        }
        if (!strncmp(a, "--test=", 7)) {
            /* sysbench 0.5's way to name the test, still taken by 1.0 */
            if (o->sysbench_personality)
                fprintf(stderr, "WARNING: the --test option is deprecated. You can pass a script name "
                        "or path on the command line without any options.\n");
            test = a + 7;
            continue;
        }
        if (!strncmp(a, "--", 2)) {
            if (parse_long(o, a, err) < 0)
                return -1;
            continue;
        }
        if (npos == 2) {
            if (o->sysbench_personality)
                fprintf(err, "FATAL: unexpected argument '%s' (usage: sysbench [options]... testname command)\n", a);
            else
                fprintf(err, "oltp: unexpected argument '%s' (usage: oltp [options] WORKLOAD COMMAND)\n", a);
            return -1;
        }
        pos[npos++] = a;
    }
    if (test && npos < 2) {
        memmove(pos + 1, pos, (size_t)npos * sizeof pos[0]);
        pos[0] = test;
        npos++;
    }
    if (parse_positional(o, pos, npos, err) < 0)
        return -1;
    if (ps_mode_check(o, err) < 0 || driver_options(o, err) < 0)
        return -1;
    if (!o->db.password)
        o->db.password = getenv("OLTP_MYSQL_PASSWORD");
    if (!o->db.password)
        o->db.password = "";
    if (parse_ignore_errors(o, err) < 0 || parse_checkpoints(o, err) < 0)
        return -1;
    if (o->histogram && !o->npercentiles) {
        fprintf(err, "%s--histogram cannot be used with --percentile=0\n", opts_msg_prefix(o));
        return -1;
    }
    if (rand_cfg_finish(&o->rnd) < 0) {
        fprintf(err, "%srandom distribution parameters out of range\n", opts_msg_prefix(o));
        return -1;
    }
    if (o->time_s == 0 && o->events == 0 && !strcmp(o->command, "run")) {
        fprintf(err, "%s--time=0 and --events=0: the run would never end; set one of them\n", opts_msg_prefix(o));
        return -1;
    }
    if (o->time_s > 0 && o->warmup_s >= o->time_s) {
        fprintf(err, "%s--warmup-time=%g must be shorter than --time=%g\n", opts_msg_prefix(o), o->warmup_s, o->time_s);
        return -1;
    }
    return 0;
}

json_object *opts_to_json(const oltp_opts *o)
{
    json_object *j = json_object_new_object();
    const char *base = (const char *)o;

    for (size_t i = 0; i < opts_ndefs; i++) {
        const opt_def *d = &opts_defs[i];
        char key[64];
        json_object *v = NULL;
        size_t k;
        if (d->type == O_IGNORED || strstr(d->name, "password") ||
            (!strcmp(d->name, "odbc-connect") && o->odbc_connect && strcasestr(o->odbc_connect, "PWD=")))
            continue;                       /* nothing, and never a password, written to a file */
        for (k = 0; d->name[k] && k < sizeof key - 1; k++)
            key[k] = d->name[k] == '-' ? '_' : d->name[k];
        key[k] = 0;
        switch (d->type) {
        case O_IGNORED: break;
        case O_INT:    v = json_object_new_int(*(const int *)(base + d->off)); break;
        case O_INT64:  v = json_object_new_int64(*(const int64_t *)(base + d->off)); break;
        case O_DOUBLE: v = json_object_new_double(*(const double *)(base + d->off)); break;
        case O_BOOL:   v = json_object_new_boolean(*(const bool *)(base + d->off)); break;
        case O_STR:
            v = *(const char *const *)(base + d->off)
                    ? json_object_new_string(*(const char *const *)(base + d->off)) : NULL;
            break;
        case O_RANDTYPE: v = json_object_new_string(rand_type_name(o->rnd.type)); break;
        case O_BULK:     v = json_object_new_string(opts_bulk_name(o)); break;
        case O_PSMODE:   v = json_object_new_string(ps_mode_names[o->db.ps_mode]); break;
        case O_PCT:
            v = json_object_new_array();
            for (int p = 0; p < o->npercentiles; p++)
                json_object_array_add(v, json_object_new_double(o->percentiles[p]));
            strcpy(key, "percentiles");
            break;
        }
        json_object_object_add(j, key, v);
    }
    return j;
}
