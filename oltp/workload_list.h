/*
 * workload_list.h — the workloads oltp knows, by name (workload_list.c,
 * on top of oltp/: it names sysbench's and TPC-C's, which no folder may).
 */
#ifndef OLTP_WORKLOAD_LIST_H
#define OLTP_WORKLOAD_LIST_H

#include <stdio.h>

#include "workloads/workload.h"

/* The workload named name, or NULL. */
const workload *workload_find(const char *name);
/* One line a workload: its name and summary. */
void workload_list(FILE *out);

#endif
