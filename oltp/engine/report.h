/*
 * report.h — what oltp prints (sysbench's interval lines and final report)
 * and the JSON result document (results/SCHEMA.md).
 */
#ifndef OLTP_REPORT_H
#define OLTP_REPORT_H

#include "attributes.h"

#include <stdio.h>
#include <time.h>

#include "engine/engine.h"

struct interval_sample;
void report_interval_line(FILE *out, const oltp_opts *o, const stats *acc,
                          const interval_sample *s, double t_run);
void report_final(FILE *out, const oltp_opts *o, const workload *wl, const run_result *r);
/* Write the result document (the oltp result of common/results.h);
 * started: when the run began (its "started_at"); origin_ns: when oltp
 * started (uv_hrtime), from which each phase's start_s counts. A run
 * ended early (r->fatal, r->unavailable: "ended" error; r->stopped:
 * signal) says so, with r->why as its reason. 0, or -1 after printing
 * why. */
int  report_json(const char *path, const oltp_opts *o, const workload *wl, const run_result *r,
                 time_t started, uint64_t origin_ns) DB_MUST_CHECK;

#endif
