/*
 * workload_list.h — the workloads oltp knows, by name (workload_list.c,
 * on top of oltp/: it names sysbench's and TPC-C's, which no folder may).
 */
#ifndef OLTP_WORKLOAD_LIST_H
#define OLTP_WORKLOAD_LIST_H

#include <stdbool.h>
#include <stdio.h>

#include "workloads/workload.h"

/* The workload named name, or NULL. */
const workload *workload_find(const char *name);
/* The workload a sysbench test argument names: a workload's name, or a
 * path whose base name, with or without ".lua", is one
 * (/usr/share/sysbench/oltp_read_write.lua); NULL when none. */
const workload *workload_find_test(const char *arg);
/* True for sysbench's OLTP family (their `help` is sysbench's). */
bool workload_is_sysbench(const workload *wl);
/* One line a workload: its name and summary. */
void workload_list(FILE *out);

#endif
