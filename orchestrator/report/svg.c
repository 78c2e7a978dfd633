/* svg.c — bar and line charts as SVG elements of a libxml2 tree (see
 * svg.h). Geometry is in user units of a viewBox, so the browser scales a
 * chart to the page width. */
#include "report/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BAR_W        960.0      /* chart width */
#define BAR_LABEL_W  300.0      /* room for labels left of the bars */
#define BAR_RIGHT    110.0      /* room for a value printed past a short bar */
#define BAR_RIGHT_INCOMPLETE 290.0  /* ... and for the note of an incomplete one */
#define SVG_GREY     "#b0b0b0"  /* an incomplete bar */
#define BAR_ROW      26.0
#define BAR_H        18.0
#define BAR_TOP      34.0
#define BAR_AXIS     26.0
#define LABEL_MAX    44         /* bytes of a bar label shown before "..." */
#define LEGEND_MAX   38         /* the same for a legend entry */

#define LINE_W       960.0
#define LINE_PLOT_H  260.0
#define LINE_LEFT    70.0
#define LINE_RIGHT   24.0
#define LINE_TOP     36.0
#define LINE_AXIS    46.0
#define LEGEND_ROW   20.0
#define LEGEND_COLS  3

static const char *const palette[] = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

const char *svg_color(int i)
{
    int n = (int)(sizeof palette / sizeof palette[0]);
    return palette[((i % n) + n) % n];
}

double svg_nice_step(double max, int ticks)
{
    double raw, mag, f;
    if (!(max > 0) || ticks < 1)
        return 1;
    raw = max / ticks;
    mag = pow(10, floor(log10(raw)));
    f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* Set attribute name to a number printed with %.1f (geometry). */
static void set_num(xmlNodePtr n, const char *name, double v)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.1f", v);
    xmlNewProp(n, BAD_CAST name, BAD_CAST buf);
}

static void set_str(xmlNodePtr n, const char *name, const char *v)
{
    xmlNewProp(n, BAD_CAST name, BAD_CAST v);
}

/* An element with the given class (or none), appended to parent. */
static xmlNodePtr elem(xmlNodePtr parent, const char *name, const char *cls)
{
    xmlNodePtr n = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
    if (n && cls)
        set_str(n, "class", cls);
    return n;
}

/* A <text> element at (x, y) holding s as text (escaped on output). */
static xmlNodePtr text_at(xmlNodePtr parent, double x, double y, const char *cls,
                          const char *anchor, const char *s)
{
    xmlNodePtr t = xmlNewTextChild(parent, NULL, BAD_CAST "text", BAD_CAST s);
    if (!t)
        return NULL;
    if (cls)
        set_str(t, "class", cls);
    set_num(t, "x", x);
    set_num(t, "y", y);
    if (anchor)
        set_str(t, "text-anchor", anchor);
    return t;
}

static xmlNodePtr line_at(xmlNodePtr parent, double x1, double y1, double x2, double y2,
                          const char *cls)
{
    xmlNodePtr l = elem(parent, "line", cls);
    if (l) {
        set_num(l, "x1", x1);
        set_num(l, "y1", y1);
        set_num(l, "x2", x2);
        set_num(l, "y2", y2);
    }
    return l;
}

/* A new <svg> of the given size with a <title> and a heading text. */
static xmlNodePtr chart_root(xmlNodePtr parent, const char *id, const char *kind,
                             const char *title, double w, double h)
{
    char vb[96], cls[64];
    xmlNodePtr svg = elem(parent, "svg", NULL);
    if (!svg)
        return NULL;
    snprintf(cls, sizeof cls, "chart %s", kind);
    snprintf(vb, sizeof vb, "0 0 %.0f %.0f", w, h);
    set_str(svg, "class", cls);
    set_str(svg, "id", id);
    set_str(svg, "xmlns", "http://www.w3.org/2000/svg");
    set_str(svg, "viewBox", vb);
    set_str(svg, "role", "img");
    set_str(svg, "aria-label", title);
    text_at(svg, 8, 22, "chart-title", NULL, title);
    return svg;
}

/* Copy of s cut to at most max bytes on a UTF-8 boundary, with "..."
 * when cut. Caller frees. */
static char *short_label(const char *s, size_t max)
{
    size_t n = strlen(s);
    char *out;
    if (n <= max)
        return strdup(s);
    n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    out = malloc(n + 4);
    if (out) {
        memcpy(out, s, n);
        memcpy(out + n, "...", 4);
    }
    return out;
}

/* Bars sorted by value: qsort with the index as tie-break (stable). */
typedef struct bar_ref {
    const svg_bar *b;
    int            idx;
    int            desc;
} bar_ref;

static int bar_cmp(const void *pa, const void *pb)
{
    const bar_ref *a = pa, *b = pb;
    if (a->b->value != b->b->value)
        return (a->b->value < b->b->value) == !a->desc ? -1 : 1;
    return a->idx - b->idx;
}

/* The hatching of flagged bars, a pattern in svg's <defs> named after
 * the chart id; its url(#...) into fill. */
static void hatch_pattern(xmlNodePtr svg, const char *id, char *fill, size_t len)
{
    xmlNodePtr defs = elem(svg, "defs", NULL), pat = elem(defs, "pattern", NULL);
    char hatch[96];
    snprintf(hatch, sizeof hatch, "%s-hatch", id);
    snprintf(fill, len, "url(#%s)", hatch);
    set_str(pat, "id", hatch);
    set_str(pat, "patternUnits", "userSpaceOnUse");
    set_str(pat, "width", "6");
    set_str(pat, "height", "6");
    set_str(pat, "patternTransform", "rotate(45)");
    line_at(pat, 0, 0, 0, 6, "hatch");
}

/* Bar b's 95 % interval: a line across the bar's middle (row at y) with
 * end caps, its ends as data-lo and data-hi. */
static void bar_whisker(xmlNodePtr g, const svg_bar *b, double y, double max, double plot_w)
{
    double x0 = BAR_LABEL_W + (b->lo > 0 ? b->lo : 0) / max * plot_w;
    double x1 = BAR_LABEL_W + b->hi / max * plot_w, ym = y + BAR_H / 2;
    xmlNodePtr wl = line_at(g, x0, ym, x1, ym, "whisker");
    char lohi[64];
    snprintf(lohi, sizeof lohi, "%.6g", b->lo);
    set_str(wl, "data-lo", lohi);
    snprintf(lohi, sizeof lohi, "%.6g", b->hi);
    set_str(wl, "data-hi", lohi);
    line_at(g, x0, ym - 4, x0, ym + 4, "whisker");
    line_at(g, x1, ym - 4, x1, ym + 4, "whisker");
}

xmlNodePtr svg_bar_chart(xmlNodePtr parent, const char *id, const char *title,
                         const svg_bar *bars, int nbars, int descending)
{
    double plot_w = BAR_W - BAR_LABEL_W - BAR_RIGHT, max = 0, step, h, bottom;
    bar_ref *refs = calloc(nbars > 0 ? (size_t)nbars : 1, sizeof *refs);
    xmlNodePtr svg = NULL;
    char tick[48], fill[112];

    if (!refs)
        return NULL;
    for (int i = 0; i < nbars; i++) {
        refs[i] = (bar_ref){ &bars[i], i, descending };
        if (bars[i].value > max)
            max = bars[i].value;
        if (bars[i].n > 0 && isfinite(bars[i].hi) && bars[i].hi > max)
            max = bars[i].hi;
        if (bars[i].incomplete)
            plot_w = BAR_W - BAR_LABEL_W - BAR_RIGHT_INCOMPLETE;
    }
    qsort(refs, (size_t)nbars, sizeof *refs, bar_cmp);
    step = svg_nice_step(max, 5);
    max = max > 0 ? ceil(max / step) * step : 1;
    bottom = BAR_TOP + BAR_ROW * nbars;
    h = bottom + BAR_AXIS;
    svg = chart_root(parent, id, "bar", title, BAR_W, h);
    if (!svg)
        goto cleanup;
    hatch_pattern(svg, id, fill, sizeof fill);

    for (double v = 0; v <= max + step / 2; v += step) {
        double x = BAR_LABEL_W + v / max * plot_w;
        line_at(svg, x, BAR_TOP - 4, x, bottom, "grid");
        snprintf(tick, sizeof tick, "%g", v);
        text_at(svg, x, bottom + 16, "tick", "middle", tick);
    }
    for (int i = 0; i < nbars; i++) {
        const svg_bar *b = refs[i].b;
        double y = BAR_TOP + BAR_ROW * i, w = b->value > 0 ? b->value / max * plot_w : 0;
        xmlNodePtr g = elem(svg, "g", b->incomplete ? "bar incomplete" : "bar"), r, tip;
        char value[160];
        char *lab = short_label(b->label, LABEL_MAX);
        if (!g || !lab) {
            free(lab);
            svg = NULL;
            goto cleanup;
        }
        set_str(g, "data-label", b->label);
        set_str(g, "data-value", b->value_exact);
        tip = xmlNewTextChild(g, NULL, BAD_CAST "title", NULL);
        xmlNodeAddContent(tip, BAD_CAST b->label);
        if (b->n > 0)
            snprintf(value, sizeof value, "%s (N = %d)%s", b->value_text, b->n,
                     b->incomplete ? " (" SVG_INCOMPLETE ")" : "");
        else
            snprintf(value, sizeof value, "%s%s", b->value_text,
                     b->incomplete ? " (" SVG_INCOMPLETE ")" : "");
        xmlNodeAddContent(tip, BAD_CAST ": ");
        xmlNodeAddContent(tip, BAD_CAST value);
        tip = text_at(g, BAR_LABEL_W - 8, y + BAR_H - 4, b->flagged ? "label flagged" : "label",
                      "end", lab);
        if (tip && b->flagged)
            xmlNodeAddContent(tip, BAD_CAST " (!)");
        free(lab);
        r = elem(g, "rect", NULL);
        set_num(r, "x", BAR_LABEL_W);
        set_num(r, "y", y);
        set_num(r, "width", w);
        set_num(r, "height", BAR_H);
        set_str(r, "fill", b->incomplete ? SVG_GREY : svg_color(b->color));
        if (b->flagged || b->incomplete) {
            r = elem(g, "rect", "flag");
            set_num(r, "x", BAR_LABEL_W);
            set_num(r, "y", y);
            set_num(r, "width", w);
            set_num(r, "height", BAR_H);
            set_str(r, "fill", fill);
        }
        if (b->n > 0 && isfinite(b->lo) && isfinite(b->hi))
            bar_whisker(g, b, y, max, plot_w);
        /* the value inside a long bar, past the end of a short one */
        if (b->incomplete)      /* the note needs room: always after the bar */
            text_at(g, BAR_LABEL_W + w + 6, y + BAR_H - 4, "value incomplete", NULL, value);
        else if (w > 90)
            text_at(g, BAR_LABEL_W + w - 6, y + BAR_H - 4, "value inside", "end", value);
        else
            text_at(g, BAR_LABEL_W + w + 6, y + BAR_H - 4, "value", NULL, value);
    }
    line_at(svg, BAR_LABEL_W, BAR_TOP - 4, BAR_LABEL_W, bottom, "axis");
cleanup:
    free(refs);
    return svg;
}

/* Range of a series' values: max over all series of x or y. */
static double series_max(const svg_series *s, int n, int want_y)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < s[i].n; k++) {
            double v = want_y ? s[i].y[k] : s[i].x[k];
            if (v > m)
                m = v;
        }
    return m;
}

int svg_decimate(const double *x, const double *y, int n, int nbuckets, double *ox, double *oy)
{
    int m = 0;
    if (n <= 2 * nbuckets) {
        for (int i = 0; i < n; i++) {
            ox[i] = x[i];
            oy[i] = y[i];
        }
        return n;
    }
    for (int b = 0; b < nbuckets; b++) {
        int lo = (int)((long long)b * n / nbuckets), hi = (int)((long long)(b + 1) * n / nbuckets);
        int imin = lo, imax = lo;
        for (int i = lo + 1; i < hi; i++) {
            if (y[i] < y[imin])
                imin = i;
            if (y[i] > y[imax])
                imax = i;
        }
        int first = imin < imax ? imin : imax, second = imin < imax ? imax : imin;
        ox[m] = x[first];
        oy[m++] = y[first];
        if (second != first) {
            ox[m] = x[second];
            oy[m++] = y[second];
        }
    }
    return m;
}

/* The vertical marks (labels one under the other) and the level of a
 * line chart whose axes reach xmax and ymax. */
static void draw_marks(xmlNodePtr svg, const svg_mark *marks, int nmarks, const svg_mark *level,
                       double xmax, double ymax)
{
    double plot_w = LINE_W - LINE_LEFT - LINE_RIGHT, bottom = LINE_TOP + LINE_PLOT_H;
    char buf[48];
    for (int i = 0; i < nmarks; i++) {
        const svg_mark *mark = &marks[i];
        double x = LINE_LEFT + (mark->x > 0 ? mark->x : 0) / xmax * plot_w;
        double ty = LINE_TOP + 12 + 14 * i;
        xmlNodePtr g = elem(svg, "g", "mark");
        snprintf(buf, sizeof buf, "%g", mark->x);
        set_str(g, "data-x", buf);
        set_str(g, "data-label", mark->label);
        line_at(g, x, LINE_TOP, x, bottom, "mark");
        /* right of the line, or left of it in the plot's right half (a
         * sweep's knee at its last step) so that the label stays inside */
        if (x > LINE_LEFT + plot_w / 2)
            text_at(g, x - 4, ty, "mark", "end", mark->label);
        else
            text_at(g, x + 4, ty, "mark", NULL, mark->label);
    }
    if (level) {
        double y = bottom - (level->x > 0 ? level->x : 0) / ymax * LINE_PLOT_H;
        xmlNodePtr g = elem(svg, "g", "level");
        snprintf(buf, sizeof buf, "%g", level->x);
        set_str(g, "data-y", buf);
        set_str(g, "data-label", level->label);
        line_at(g, LINE_LEFT, y, LINE_LEFT + plot_w, y, "mark");
        text_at(g, LINE_LEFT + plot_w - 4, y - 4, "mark", "end", level->label);
    }
}

xmlNodePtr svg_line_chart(xmlNodePtr parent, const char *id, const char *title,
                          const char *xlabel, const char *ylabel,
                          const svg_series *series, int nseries)
{
    return svg_line_chart_mark(parent, id, title, xlabel, ylabel, series, nseries, NULL);
}

xmlNodePtr svg_line_chart_mark(xmlNodePtr parent, const char *id, const char *title,
                               const char *xlabel, const char *ylabel,
                               const svg_series *series, int nseries, const svg_mark *mark)
{
    return svg_line_chart_marks(parent, id, title, xlabel, ylabel, series, nseries, mark,
                                mark ? 1 : 0, NULL);
}

xmlNodePtr svg_line_chart_marks(xmlNodePtr parent, const char *id, const char *title,
                                const char *xlabel, const char *ylabel,
                                const svg_series *series, int nseries, const svg_mark *marks,
                                int nmarks, const svg_mark *level)
{
    double plot_w = LINE_W - LINE_LEFT - LINE_RIGHT, bottom = LINE_TOP + LINE_PLOT_H;
    double xmax = series_max(series, nseries, 0), ymax = series_max(series, nseries, 1);
    double xstep, ystep;
    int legend_rows = (nseries + LEGEND_COLS - 1) / LEGEND_COLS;
    double h = bottom + LINE_AXIS + LEGEND_ROW * legend_rows + 6;
    xmlNodePtr svg, t;
    char buf[48];

    for (int i = 0; i < nmarks; i++)    /* the marks are on the chart */
        xmax = marks[i].x > xmax ? marks[i].x : xmax;
    if (level && level->x > ymax)
        ymax = level->x;
    xstep = svg_nice_step(xmax, 8);
    ystep = svg_nice_step(ymax, 5);
    xmax = xmax > 0 ? ceil(xmax / xstep) * xstep : 1;
    ymax = ymax > 0 ? ceil(ymax / ystep) * ystep : 1;
    svg = chart_root(parent, id, "line", title, LINE_W, h);
    if (!svg)
        return NULL;
    draw_marks(svg, marks, nmarks, level, xmax, ymax);
    for (double v = 0; v <= ymax + ystep / 2; v += ystep) {
        double y = bottom - v / ymax * LINE_PLOT_H;
        line_at(svg, LINE_LEFT, y, LINE_LEFT + plot_w, y, "grid");
        snprintf(buf, sizeof buf, "%g", v);
        text_at(svg, LINE_LEFT - 6, y + 4, "tick", "end", buf);
    }
    for (double v = 0; v <= xmax + xstep / 2; v += xstep) {
        double x = LINE_LEFT + v / xmax * plot_w;
        line_at(svg, x, bottom, x, bottom + 4, "axis");
        snprintf(buf, sizeof buf, "%g", v);
        text_at(svg, x, bottom + 16, "tick", "middle", buf);
    }
    line_at(svg, LINE_LEFT, LINE_TOP, LINE_LEFT, bottom, "axis");
    line_at(svg, LINE_LEFT, bottom, LINE_LEFT + plot_w, bottom, "axis");
    text_at(svg, LINE_LEFT + plot_w / 2, bottom + 34, "axis-label", "middle", xlabel);
    t = text_at(svg, 16, LINE_TOP + LINE_PLOT_H / 2, "axis-label", "middle", ylabel);
    snprintf(buf, sizeof buf, "rotate(-90 16 %.1f)", LINE_TOP + LINE_PLOT_H / 2);
    if (t)
        set_str(t, "transform", buf);

    for (int i = 0; i < nseries; i++) {
        const svg_series *s = &series[i];
        int np = s->n < 2 * SVG_LINE_BUCKETS ? s->n : 2 * SVG_LINE_BUCKETS;
        size_t cap = (size_t)np * 24 + 1, len = 0;
        char *pts = malloc(cap);
        double *dx = malloc(2 * ((size_t)np + 1) * sizeof *dx), *dy = dx ? dx + np + 1 : NULL;
        double lx = LINE_LEFT + (i % LEGEND_COLS) * (plot_w / LEGEND_COLS);
        double ly = bottom + LINE_AXIS + LEGEND_ROW * (i / LEGEND_COLS) + 10;
        xmlNodePtr pl, tip;
        char *lab = short_label(s->label, LEGEND_MAX);
        if (!pts || !lab || !dx) {
            free(pts);
            free(lab);
            free(dx);
            return NULL;
        }
        pts[0] = '\0';
        for (int k = 0; s->dots && k < s->n; k++) {
            xmlNodePtr c = elem(svg, "circle", "point");
            set_num(c, "cx", LINE_LEFT + s->x[k] / xmax * plot_w);
            set_num(c, "cy", bottom - s->y[k] / ymax * LINE_PLOT_H);
            set_str(c, "r", "3");
            set_str(c, "fill", svg_color(s->color));
            snprintf(buf, sizeof buf, "%.6g", s->x[k]);
            set_str(c, "data-x", buf);
            snprintf(buf, sizeof buf, "%.6g", s->y[k]);
            set_str(c, "data-y", buf);
        }
        np = s->dots ? 0 : svg_decimate(s->x, s->y, s->n, SVG_LINE_BUCKETS, dx, dy);
        for (int k = 0; k < np; k++)
            len += (size_t)snprintf(pts + len, cap - len, "%s%.1f,%.1f", k ? " " : "",
                                    LINE_LEFT + dx[k] / xmax * plot_w,
                                    bottom - dy[k] / ymax * LINE_PLOT_H);
        free(dx);
        pl = elem(svg, "polyline", "series");
        set_str(pl, "data-label", s->label);
        set_str(pl, "points", pts);
        set_str(pl, "stroke", svg_color(s->color));
        free(pts);
        xmlNewTextChild(pl, NULL, BAD_CAST "title", BAD_CAST s->label);
        tip = line_at(svg, lx, ly - 4, lx + 18, ly - 4, "legend-line");
        if (tip)
            set_str(tip, "stroke", svg_color(s->color));
        text_at(svg, lx + 24, ly, "legend", NULL, lab);
        free(lab);
    }
    return svg;
}
