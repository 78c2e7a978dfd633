/*
 * report_html.h — the report page: one self-contained HTML document from
 * the report's model (report.h), which is all it reads.
 */
#ifndef ORCH_REPORT_HTML_H
#define ORCH_REPORT_HTML_H

#include <stddef.h>

#include "report/report.h"

/* Write the HTML page of s at path. 0, or -1 with err. */
int report_write_html(const report_set *s, const char *path, char *err, size_t errlen);

#endif
