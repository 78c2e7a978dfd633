/* plan_files.c — [engine] data_size, log_size, data_growth, log_growth:
 * SQL Server's database files as the reference SQL Server plan has them,
 * sized by TPC-C's prepare before the load (oltp --tpcc-data-size, ...:
 * ALTER DATABASE ... MODIFY FILE, oltp/tpcc/tpcc_prep.c), so that no
 * autogrowth falls inside the measurement. */
#include "plan/plan_parse.h"
#include "plan/dbengine.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define MIB (1024ULL * 1024)

static const struct {
    const char *key, *option;
    size_t      off;
} files[] = {
    { "data_size",   "tpcc-data-size",   offsetof(orch_plan, data_size) },
    { "log_size",    "tpcc-log-size",    offsetof(orch_plan, log_size) },
    { "data_growth", "tpcc-data-growth", offsetof(orch_plan, data_growth) },
    { "log_growth",  "tpcc-log-growth",  offsetof(orch_plan, log_growth) },
};
#define NFILES (sizeof files / sizeof files[0])

static uint64_t file_bytes(const orch_plan *p, size_t i)
{
    return *(const uint64_t *)(const void *)((const char *)p + files[i].off);
}

void plan_files_check(parse_state *st)
{
    const orch_plan *p = st->p;
    const char *engine = p->engine_name ? p->engine_name : ORCH_DBENGINE_DEFAULT;

    for (size_t i = 0; i < NFILES; i++) {
        int line = plan_key_line(st, "engine", files[i].key);
        uint64_t b = file_bytes(p, i);
        if (!line || !b)
            continue;
        if (!p->workload || strcmp(p->workload, "tpcc") != 0)
            plan_error(st, line, "[engine] %s: the files are sized by TPC-C's prepare: it applies to "
                       "workload tpcc only", files[i].key);
        else if (!orch_name_in("sqlserver|babelfish", engine))
            plan_error(st, line, "[engine] %s sizes SQL Server's database files (ALTER DATABASE ... "
                       "MODIFY FILE): engine %s has none", files[i].key, engine);
        else if (b % MIB || b / MIB > 1000000000)
            plan_error(st, line, "[engine] %s: SQL Server sizes files in whole MiB: give a multiple of "
                       "1M up to 1000000000M", files[i].key);
    }
}

void orch_plan_file_args(const orch_plan *p, void (*add)(void *ctx, char *arg), void *ctx)
{
    for (size_t i = 0; i < NFILES; i++)
        if (file_bytes(p, i))
            add(ctx, orch_strfmt("--%s=%llu", files[i].option, (unsigned long long)(file_bytes(p, i) / MIB)));
}
