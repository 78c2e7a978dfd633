/*
 * svg_rank.h — the ranking's bar chart (rank.h): bars in the order given,
 * each with its 95 % interval as a whisker and its N, one colour for the
 * highlighted drive; and a chart written as a standalone SVG file.
 *
 * Markers the tests and readers rely on: <svg class="chart rank" id=...>;
 * each bar a <g class="bar"> ("bar highlight" for the highlighted one)
 * with data-label, data-value, data-lo, data-hi ("" without an interval)
 * and data-n; its whisker a <line class="whisker">; its N a
 * <text class="n">N = 3</text>. Every colour and font is a presentation
 * attribute (font-family="sans-serif"), so the chart looks the same
 * inline and alone.
 */
#ifndef ORCH_SVG_RANK_H
#define ORCH_SVG_RANK_H

#include "attributes.h"

#include <libxml/tree.h>

/* One bar. Strings are borrowed. */
typedef struct svg_rank_bar {
    const char *label;
    double      value, lo, hi;      /* lo, hi NAN: no interval */
    int         n;
    const char *value_text, *value_exact;
    int         highlight;
} svg_rank_bar;

/* Append the chart to parent. NULL when out of memory. */
xmlNodePtr svg_rank_chart(xmlNodePtr parent, const char *id, const char *title,
                          const svg_rank_bar *bars, int nbars);

/* Write the chart svg (of any document) as a standalone SVG file at path:
 * an XML declaration, the SVG namespace on the root, and css (NULL: none)
 * as its first child's <style>, for a chart that takes its look from the
 * page's style sheet. 0, or -1 with err. */
int svg_write_standalone(xmlNodePtr svg, const char *css, const char *path, char *err,
                         size_t errlen) DB_MUST_CHECK;
/* svg_write_standalone at svg_path (a name ending in .svg), then, when
 * png_scale > 0, that file rendered as the same name in .png at png_scale
 * times its size (png.h). *nsvg and *npng count the files written. 0, or
 * -1 with err. */
int svg_write_chart_files(xmlNodePtr svg, const char *css, const char *svg_path,
                          double png_scale, int *nsvg, int *npng, char *err, size_t errlen) DB_MUST_CHECK;

#endif
