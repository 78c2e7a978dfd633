/*
 * workload_list.c — the workloads oltp knows (workload_list.h). A new
 * workload is a file or a folder exporting one const struct workload,
 * added here. On top of oltp/: it names every workload, sysbench's
 * (workloads/) and TPC-C (tpcc/), which no folder may.
 */
#include <string.h>

#include "workload_list.h"

extern const workload wl_sysbench[8];
extern const workload wl_tpcc;

static const workload *const all[] = {
    &wl_sysbench[0], &wl_sysbench[1], &wl_sysbench[2], &wl_sysbench[3],
    &wl_sysbench[4], &wl_sysbench[5], &wl_sysbench[6], &wl_sysbench[7],
    &wl_tpcc,
};

const workload *workload_find(const char *name)
{
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (!strcmp(all[i]->name, name))
            return all[i];
    return NULL;
}

const workload *workload_find_test(const char *arg)
{
    const char *base = strrchr(arg, '/');
    char name[64];
    size_t len;

    base = base ? base + 1 : arg;
    len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".lua"))
        len -= 4;
    if (len >= sizeof name)
        return NULL;
    memcpy(name, base, len);
    name[len] = 0;
    return workload_find(name);
}

bool workload_is_sysbench(const workload *wl)
{
    for (size_t i = 0; i < sizeof wl_sysbench / sizeof wl_sysbench[0]; i++)
        if (wl == &wl_sysbench[i])
            return true;
    return false;
}

void workload_list(FILE *out)
{
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        fprintf(out, "  %-24s %s\n", all[i]->name, all[i]->summary);
}
