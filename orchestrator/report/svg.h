/*
 * svg.h — charts as inline SVG elements of a libxml2 tree, for the report.
 *
 * Every chart is an <svg> element appended to a parent node (an HTML body
 * or section); text goes into text nodes, so a label holding markup shows
 * as text. Nothing is drawn with scripts, fonts or images from outside.
 *
 * Markers the tests and readers rely on: the <svg> carries class "chart"
 * and the id given; each bar is a <g class="bar"> with data-label and
 * data-value (the exact number), class "bar incomplete" when it is not
 * comparable; each line is a <polyline class="series">
 * with data-label; a mark on a line chart is a <g class="mark"> with
 * data-x and data-label.
 */
#ifndef ORCH_SVG_H
#define ORCH_SVG_H

#include <libxml/tree.h>

/* One bar of a horizontal bar chart. Strings are borrowed. */
typedef struct svg_bar {
    const char *label;          /* shown left of the bar */
    double      value;          /* length of the bar */
    const char *value_text;     /* printed on the bar ("1234.56") */
    const char *value_exact;    /* data-value attribute */
    int         color;          /* palette index (svg_color) */
    int         flagged;        /* 1: drawn hatched, label marked */
    int         incomplete;     /* 1: not comparable (a VM failed): grey,
                                 * hatched, class "bar incomplete", the note
                                 * SVG_INCOMPLETE after the value */
    /* The bar's 95 % interval as a whisker (a <line class="whisker"> with
     * data-lo, data-hi) when lo and hi are finite, and "N = n" after the
     * value when n > 0: n the values it comes from. n 0: neither. */
    double      lo, hi;
    int         n;
} svg_bar;

#define SVG_INCOMPLETE "incomplete \xe2\x80\x94 not comparable"

/* One line of a line chart: n points (x[i], y[i]). Borrowed. */
typedef struct svg_series {
    const char   *label;
    const double *x, *y;
    int           n;
    int           color;
    int           dots;     /* 1: a scatter: one <circle class="point"> per
                             * point (data-x, data-y), no line */
} svg_series;

/* The palette colour i (wraps around), as "#rrggbb". */
const char *svg_color(int i);

/* Append a horizontal bar chart to parent: a title (units included by the
 * caller), one row per bar sorted by value (descending when `descending`,
 * else ascending; ties keep the given order), the value printed on each
 * bar. Returns the <svg> node (owned by parent's document) or NULL when
 * out of memory. */
xmlNodePtr svg_bar_chart(xmlNodePtr parent, const char *id, const char *title,
                         const svg_bar *bars, int nbars, int descending);

/* Append a line chart with axes, ticks, axis labels and a legend. A series
 * of more than 2 x SVG_LINE_BUCKETS points is drawn decimated
 * (svg_decimate): a 3-hour run's 10,800 one-second intervals per VM would
 * otherwise make a report of tens of MiB. The full series stay in
 * summary.json and the CSV. Returns the <svg> node or NULL when out of
 * memory. */
xmlNodePtr svg_line_chart(xmlNodePtr parent, const char *id, const char *title,
                          const char *xlabel, const char *ylabel,
                          const svg_series *series, int nseries);

/* A vertical line across a line chart at x, with a label (borrowed): a
 * <g class="mark"> with data-x (the exact number) and data-label. */
typedef struct svg_mark {
    double      x;
    const char *label;
} svg_mark;

/* svg_line_chart with a mark (NULL: none); the x axis reaches it. */
xmlNodePtr svg_line_chart_mark(xmlNodePtr parent, const char *id, const char *title,
                               const char *xlabel, const char *ylabel,
                               const svg_series *series, int nseries, const svg_mark *mark);

/* svg_line_chart with nmarks vertical marks (their labels one under the
 * other) and a horizontal one at y = level->x (NULL: none; a
 * <g class="level"> with data-y and data-label: a target's bound); the
 * axes reach them all. */
xmlNodePtr svg_line_chart_marks(xmlNodePtr parent, const char *id, const char *title,
                                const char *xlabel, const char *ylabel,
                                const svg_series *series, int nseries, const svg_mark *marks,
                                int nmarks, const svg_mark *level);

/* Buckets of a decimated line: one per ~2 user units of the plot's width,
 * so a bucket's minimum and maximum are both visible. */
#define SVG_LINE_BUCKETS 400

/* Decimate the n points (x[i], y[i]) into at most 2 x nbuckets points in
 * ox[]/oy[] (room for 2 x nbuckets each): the points split into nbuckets
 * runs of consecutive indexes (run b holds [b*n/nbuckets, (b+1)*n/nbuckets)),
 * and of each run the point of smallest y and the point of largest y are
 * kept, in their original order (one point when they are the same; the
 * first of equal values). A spike or a dip of a single interval survives.
 * With n <= 2 x nbuckets the points are copied unchanged. Returns the number
 * of points written. */
int svg_decimate(const double *x, const double *y, int n, int nbuckets, double *ox, double *oy);

/* A "nice" axis step (1, 2 or 5 times a power of ten) so that about
 * `ticks` steps cover 0..max. Exposed for tests. */
double svg_nice_step(double max, int ticks);

#endif
