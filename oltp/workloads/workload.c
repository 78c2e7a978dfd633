/*
 * workload.c — what every workload shares: its error message (wl_err).
 */
#include <stdarg.h>
#include <stdio.h>

#include "workloads/workload.h"

int wl_err_set(wl_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->sysbench_voice = false;
    return -1;
}
