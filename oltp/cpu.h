/*
 * cpu.h — sysbench's `cpu` test (`sysbench cpu run`, `oltp cpu run`): no
 * database; each event finds the primes up to --cpu-max-prime by trial
 * division. --threads threads run events until --time or --events ends
 * the run; --report-interval, --report-checkpoints, --percentile and
 * --histogram work as for the OLTP workloads, and the report is
 * sysbench's for its cpu test (engine/report.h, REPORT_CPU_TEST).
 */
#ifndef OLTP_CPU_H
#define OLTP_CPU_H

#include <stdint.h>

#include "options/options.h"

/* How many primes there are up to max (one event's work): 0 for max < 2,
 * 1229 for 10000. */
int64_t cpu_primes(int64_t max);

/* Run o->command ("run"; "help" lists the test's option) for the cpu
 * test; o->workload is REPORT_CPU_TEST. Returns oltp's exit status (the
 * caller maps bad input to the personality's). */
int cpu_test(const oltp_opts *o);

#endif
