/*
 * report_html.h — the report page: one self-contained HTML document from
 * the report's model (report.h), which is all it reads.
 */
#ifndef ORCH_REPORT_HTML_H
#define ORCH_REPORT_HTML_H

#include "attributes.h"

#include <stddef.h>

#include "report/report.h"

/* Write the HTML page of s at path. 0, or -1 with err. */
int report_write_html(const report_set *s, const char *path, char *err, size_t errlen) DB_MUST_CHECK;

/* Where the page's charts go as files of their own (--charts). */
typedef struct report_charts {
    char       *dir;            /* created when missing */
    double      png_scale;      /* > 0: each also as ID.png at this times
                                 * its size (report/png.h) */
    int         nsvg, npng;     /* out: how many of each */
} report_charts;

/* report_write_html, then each chart of the page (an <svg> of class
 * "chart ...") as charts->dir/ID.svg, a standalone SVG with the page's
 * chart style as its own (charts NULL: none). 0, or -1 with err. */
int report_write_html_charts(const report_set *s, const char *path, report_charts *charts,
                             char *err, size_t errlen) DB_MUST_CHECK;

#endif
