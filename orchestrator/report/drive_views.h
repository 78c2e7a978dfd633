/*
 * drive_views.h — the report's per-transaction I/O, the three views of a
 * drive side by side, the device's own latency distribution and the
 * transactions' tail against the device (issue 23), inside the drive I/O
 * section (drive_io.h), from the summaries' res_io fields.
 *
 * Elements the tests and readers rely on, per run r and drive d (1-based):
 *   table#table-io-txn-R (rows data-drive; cells data-key = the per_txn
 *   keys, "no_wr_kib", "no_flushes", "no_dev_busy_ms" per New-Order),
 *   table#table-io-views-R (rows data-drive and data-view = guest |
 *   hypervisor | device), svg#chart-io-views-R-D (write latency of the
 *   three views over time), table#table-devlat-R (rows data-drive and
 *   data-class), p.note.devlat-note (data-drive), svg#chart-tail-R-D
 *   (circle.point per interval), p#tail-r-R-D (data-value: r) and
 *   table#table-tail-R-D (the intervals of highest transaction latency).
 */
#ifndef ORCH_REPORT_VIEWS_H
#define ORCH_REPORT_VIEWS_H

#include "attributes.h"
#include <libxml/tree.h>
#include "report/report.h"

/* Append them for run r to sec. 0, or -1 when out of memory. */
int report_drive_views(xmlNodePtr sec, const report_run *run, int r) DB_MUST_CHECK;

/* A numeric cell: rounded text, the exact figure in data-value, data-key
 * key; empty when v was not measured (NAN). */
void report_io_num(xmlNodePtr tr, const char *key, double v, int decimals);
/* A text cell ("" for NULL). */
void report_io_text(xmlNodePtr tr, const char *t);

#endif
