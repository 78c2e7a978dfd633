/*
 * openmetrics.h — the OpenMetrics 1.0 text format, written once here
 * (no C library for it is packaged): metric family headers, samples with
 * escaped label values, numbers as the shortest text that reads back to
 * the same double, and the closing "# EOF". The live view (live.h) is its
 * only user; what the families mean is said there.
 *
 *   om_family(f, "drivebench_vm_tps", OM_GAUGE, NULL, "TPS of ...");
 *   om_sample(f, "drivebench_vm_tps", 12.5, "drive", "d1", "vm", "d1-vm1", NULL);
 *   om_eof(f);
 */
#ifndef ORCH_OPENMETRICS_H
#define ORCH_OPENMETRICS_H

#include <stdio.h>

typedef enum { OM_GAUGE, OM_COUNTER, OM_INFO, OM_STATESET } om_type;

/* "# TYPE name type", "# UNIT name unit" when unit is not NULL (name
 * must then end in _unit), "# HELP name help" (help escaped). */
void om_family(FILE *f, const char *name, om_type type, const char *unit, const char *help);

/* One sample: name{k1="v1",...} value, the labels given as NULL-ended
 * pairs of key and value (values escaped: \\, \", \n). */
void om_sample(FILE *f, const char *name, double value, ...) __attribute__((sentinel));

/* The number as OpenMetrics writes it: the shortest of %.15g, %.16g and
 * %.17g that reads back as v, "NaN", "+Inf", "-Inf". buf of 32 or more. */
void om_number(char *buf, size_t len, double v);

/* The closing line: "# EOF". */
void om_eof(FILE *f);

#endif
