/* plan_extra.c — [workload] extra may add oltp options, never a secret
 * nor one of the options drivebench sets itself (plan_parse.h). extra
 * comes after drivebench's options on oltp's command line, where the
 * last value wins: `--time=` there would replace the plan's measure
 * without a word, and a password would stand in `ps` for the whole run
 * and in every file that shows the plan (plan.ini, report.html,
 * summary.json's fingerprint, the bundle). */
#include "plan/plan_parse.h"

#include <stdlib.h>
#include <string.h>

#define USE_PASSWORD "use [workload] db_password_file (or db_password_env)"

/* oltp's options that drivebench sets (plan/layout.c orch_oltp_argv,
 * dbengine.c orch_db_conn_args), and what to use instead */
static const struct {
    const char *name;           /* without "--", '-' between words */
    const char *use;
} own_options[] = {
    { "db-driver",       "use [workload] db_driver" },
    { "mysql-host",      "drivebench reaches each VM on 127.0.0.1 ([run] port_base sets "
                         "its ports)" },
    { "pgsql-host",      "drivebench reaches each VM on 127.0.0.1 ([run] port_base sets "
                         "its ports)" },
    { "mysql-port",      "use [run] port_base" },
    { "pgsql-port",      "use [run] port_base" },
    { "mysql-user",      "use [workload] db_user" },
    { "pgsql-user",      "use [workload] db_user" },
    { "odbc-user",       "use [workload] db_user" },
    { "mysql-db",        "use [workload] db_name" },
    { "pgsql-db",        "use [workload] db_name" },
    { "odbc-connect",    "use [workload] odbc_driver, encrypt, trust_server_certificate "
                         "and db_name" },
    { "tables",          "use [workload] tables" },
    { "table-size",      "use [workload] table_size" },
    { "warehouses",      "use [workload] warehouses" },
    { "threads",         "use [workload] threads" },
    { "time",            "use [workload] measure (and warmup)" },
    { "warmup-time",     "use [workload] warmup" },
    { "rate",            "use [workload] rate" },
    { "report-interval", "drivebench reads oltp's interval lines at its own pace (no key)" },
    { "json",            "drivebench keeps each VM's result in the run folder (no key)" },
    { "tpcc-data-size",  "use [engine] data_size" },
    { "tpcc-log-size",   "use [engine] log_size" },
    { "tpcc-data-growth", "use [engine] data_growth" },
    { "tpcc-log-growth", "use [engine] log_growth" },
};

/* 1 when an ODBC connection string holds a password attribute. */
static int odbc_has_password(const char *value)
{
    return strcasestr(value, "pwd=") || strcasestr(value, "password=");
}

/* One word of extra: refused (one message at line) when it carries a
 * secret or sets one of drivebench's own options. */
static void check_word(parse_state *st, int line, const char *word)
{
    const char *eq = strchr(word, '=');
    size_t len = eq ? (size_t)(eq - word - 2) : strlen(word) - 2;
    char name[64];

    if (strncmp(word, "--", 2) != 0 || len == 0 || len >= sizeof name)
        return;                 /* oltp refuses it itself */
    for (size_t i = 0; i < len; i++)        /* oltp reads --table_size too */
        name[i] = word[2 + i] == '_' ? '-' : word[2 + i];
    name[len] = '\0';
    if ((len >= 9 && strcmp(name + len - 9, "-password") == 0)
        || (strcmp(name, "odbc-connect") == 0 && eq && odbc_has_password(eq + 1))) {
        plan_error(st, line, "[workload] extra: --%s carries a password, which would stand in "
                   "`ps` and in every file of the run: %s", name, USE_PASSWORD);
        return;
    }
    for (size_t i = 0; i < sizeof own_options / sizeof own_options[0]; i++)
        if (strcmp(name, own_options[i].name) == 0) {
            plan_error(st, line, "[workload] extra: --%s is set by drivebench, and oltp "
                       "would take extra's instead: %s", name, own_options[i].use);
            return;
        }
}

void plan_extra_check(parse_state *st)
{
    const char *extra = st->p->extra;
    int line = plan_where(st, "workload", "extra");
    char *copy, *save = NULL;

    if (!extra)
        return;
    if (!(copy = strdup(extra))) {
        plan_error(st, line, "out of memory");
        return;
    }
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        check_word(st, line, w);
    free(copy);
}
