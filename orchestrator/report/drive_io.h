/*
 * drive_io.h — the report's drive I/O sections (issue 13), from the
 * summaries' res_io fields (results_io.h): what each drive did beside its
 * TPS, its latency spectrum and p99 over time, whether two drives differ,
 * the drive's identity and health, and whether the host was the
 * bottleneck. Runs without those fields add nothing.
 *
 * Elements the tests and readers rely on (svg.h's markers inside):
 *   <section id="io">; per run r (1-based) and drive d (1-based):
 *   svg#chart-io-tps-R-D, #chart-io-iops-R-D, #chart-io-lat-R-D (beside
 *   each other in a div.io-row), #chart-io-flush-R-D; per run:
 *   svg#chart-io-spectrum-R, #chart-io-p99-time-R, table#table-io-R,
 *   table#table-spectrum-R, table#table-drive-id-R; <section
 *   id="comparisons"> with its p.note (REPORT_CMP_NOTE) and
 *   table#table-comparisons (rows data-verdict),
 *   p.warning#host-saturated-R, p.warning.trending (data-drive).
 */
#ifndef ORCH_REPORT_IO_H
#define ORCH_REPORT_IO_H

#include "attributes.h"
#include <libxml/tree.h>
#include "report/report.h"
#include "util/util.h"

/* The comparisons section's note: the rule in force, from stats.h. */
#define REPORT_CMP_NOTE \
    "Paired: the drives ran at the same time, so their per-interval values are compared " \
    "in batches of consecutive intervals inside one repetition (batch means, a t interval " \
    "over the batches; " ORCH_STATS_BATCH_RULE "). Welch: the complete repetitions' " \
    "values (three or more). Holm's correction runs over the whole family: every " \
    "comparison of the run with a verdict, all pairs of drives and all methods together. " \
    "A difference whose 95 % interval spans zero, or whose Holm-adjusted p-value is 0.05 " \
    "or more, is not distinguishable from noise. A pair with an incomplete drive, with " \
    "identical values, or with too few intervals or repetitions gets no verdict."

/* Append the sections to body. 0, or -1 when out of memory. */
int report_drive_io_sections(xmlNodePtr body, const report_set *s) DB_MUST_CHECK;

#endif
