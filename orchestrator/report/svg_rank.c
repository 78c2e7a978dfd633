/* svg_rank.c — the ranking's bar chart with whiskers (svg_rank.h), built
 * as a libxml2 tree with the report's tree helpers (html.h). */
#include "report/svg_rank.h"
#include "report/html.h"
#include "report/svg.h"
#include "report/png.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVG_NS     "http://www.w3.org/2000/svg"
#define W          960.0
#define LABEL_W    260.0
#define RIGHT      170.0        /* the value and N right of the bars */
#define TOP        40.0
#define ROW        28.0
#define BAR_H      18.0
#define AXIS       28.0
#define CAP        5.0          /* half the height of a whisker's cap */
#define TEXT_FILL  "#222"
#define HIGHLIGHT  1            /* palette index of the highlighted drive */
#define OTHERS     0

static void num_attr(xmlNodePtr n, const char *name, double v)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.1f", v);
    html_attr(n, name, buf);
}

static xmlNodePtr text_at(xmlNodePtr parent, double x, double y, const char *cls,
                          const char *anchor, const char *s)
{
    xmlNodePtr t = html_add(parent, "text", s);
    html_attr(t, "class", cls);
    num_attr(t, "x", x);
    num_attr(t, "y", y);
    html_attr(t, "fill", TEXT_FILL);
    if (anchor)
        html_attr(t, "text-anchor", anchor);
    return t;
}

static xmlNodePtr line_at(xmlNodePtr parent, double x1, double y1, double x2, double y2,
                          const char *cls, const char *stroke)
{
    xmlNodePtr l = html_add(parent, "line", NULL);
    html_attr(l, "class", cls);
    num_attr(l, "x1", x1);
    num_attr(l, "y1", y1);
    num_attr(l, "x2", x2);
    num_attr(l, "y2", y2);
    html_attr(l, "stroke", stroke);
    return l;
}

xmlNodePtr svg_rank_chart(xmlNodePtr parent, const char *id, const char *title,
                          const svg_rank_bar *bars, int nbars)
{
    double max = 0, step, plot = W - LABEL_W - RIGHT, bottom = TOP + ROW * nbars;
    xmlNodePtr svg = html_add(parent, "svg", NULL), t;
    char vb[64], tick[48];

    if (!svg)
        return NULL;
    for (int i = 0; i < nbars; i++) {
        max = fmax(max, bars[i].value);
        if (!isnan(bars[i].hi))
            max = fmax(max, bars[i].hi);
    }
    step = svg_nice_step(max, 5);
    max = max > 0 ? ceil(max / step) * step : 1;
    snprintf(vb, sizeof vb, "0 0 %.0f %.0f", W, bottom + AXIS);
    html_attr(svg, "class", "chart rank");
    html_attr(svg, "id", id);
    html_attr(svg, "xmlns", SVG_NS);
    html_attr(svg, "viewBox", vb);
    html_attr(svg, "role", "img");
    html_attr(svg, "aria-label", title);
    html_attr(svg, "font-family", "sans-serif");
    html_attr(svg, "font-size", "12");
    html_add(svg, "title", title);
    html_attr(html_add(svg, "rect", NULL), "class", "background");
    html_attr(svg->last, "width", "100%");
    html_attr(svg->last, "height", "100%");
    html_attr(svg->last, "fill", "#fff");
    t = text_at(svg, 8, 22, "chart-title", NULL, title);
    html_attr(t, "font-size", "15");
    html_attr(t, "font-weight", "bold");
    for (double v = 0; v <= max + step / 2; v += step) {
        double x = LABEL_W + v / max * plot;
        line_at(svg, x, TOP - 6, x, bottom, "grid", "#e3e3e3");
        snprintf(tick, sizeof tick, "%g", v);
        text_at(svg, x, bottom + 16, "tick", "middle", tick);
    }
    for (int i = 0; i < nbars; i++) {
        const svg_rank_bar *b = &bars[i];
        double y = TOP + ROW * i, w = b->value > 0 ? b->value / max * plot : 0, mid = y + BAR_H / 2;
        double end = LABEL_W + w;
        xmlNodePtr g = html_add(svg, "g", NULL), r;
        char n[32], lo[48], hi[48];
        int has = !isnan(b->lo) && !isnan(b->hi);
        if (!g)
            return NULL;
        html_attr(g, "class", b->highlight ? "bar highlight" : "bar");
        html_attr(g, "data-label", b->label);
        html_attr(g, "data-value", b->value_exact);
        snprintf(lo, sizeof lo, "%.6g", b->lo);
        snprintf(hi, sizeof hi, "%.6g", b->hi);
        html_attr(g, "data-lo", has ? lo : "");
        html_attr(g, "data-hi", has ? hi : "");
        snprintf(n, sizeof n, "%d", b->n);
        html_attr(g, "data-n", n);
        t = text_at(g, LABEL_W - 8, y + BAR_H - 4, "label", "end", b->label);
        if (b->highlight)
            html_attr(t, "font-weight", "bold");
        r = html_add(g, "rect", NULL);
        num_attr(r, "x", LABEL_W);
        num_attr(r, "y", y);
        num_attr(r, "width", w);
        num_attr(r, "height", BAR_H);
        html_attr(r, "fill", svg_color(b->highlight ? HIGHLIGHT : OTHERS));
        if (has) {
            double x1 = LABEL_W + fmax(b->lo, 0) / max * plot, x2 = LABEL_W + b->hi / max * plot;
            line_at(g, x1, mid, x2, mid, "whisker", "#222");
            line_at(g, x1, mid - CAP, x1, mid + CAP, "whisker-cap", "#222");
            line_at(g, x2, mid - CAP, x2, mid + CAP, "whisker-cap", "#222");
            end = fmax(end, x2);
        }
        text_at(g, end + 6, y + BAR_H - 4, "value", NULL, b->value_text);
        snprintf(n, sizeof n, "N = %d", b->n);
        text_at(g, W - 8, y + BAR_H - 4, "n", "end", n);
    }
    line_at(svg, LABEL_W, TOP - 6, LABEL_W, bottom, "axis", "#888");
    return svg;
}

int svg_write_standalone(xmlNodePtr svg, const char *css, const char *path, char *err,
                         size_t errlen)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = doc ? xmlDocCopyNode(svg, doc, 1) : NULL, style = NULL;
    xmlChar *mem = NULL;
    int len = 0, rc = -1;
    if (root && css) {
        style = xmlNewDocNode(doc, NULL, BAD_CAST "style", NULL);
        if (!style || !xmlAddChild(style, xmlNewDocText(doc, BAD_CAST css))
            || !(root->children ? xmlAddPrevSibling(root->children, style) : xmlAddChild(root, style))) {
            xmlFreeNode(style);
            xmlFreeNode(root);
            root = NULL;
        }
    }
    if (!root) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    xmlDocSetRootElement(doc, root);
    /* the namespace as a declaration, not the attribute the HTML page
     * carries: children without one are in it */
    xmlUnsetProp(root, BAD_CAST "xmlns");
    /* alone, its own size (inline, the page's width scales it) */
    {
        xmlChar *vb = xmlGetProp(root, BAD_CAST "viewBox");
        double x, y, w = 0, h = 0;
        if (vb && sscanf((const char *)vb, "%lf %lf %lf %lf", &x, &y, &w, &h) == 4) {
            char buf[32];
            snprintf(buf, sizeof buf, "%.0f", w);
            xmlSetProp(root, BAD_CAST "width", BAD_CAST buf);
            snprintf(buf, sizeof buf, "%.0f", h);
            xmlSetProp(root, BAD_CAST "height", BAD_CAST buf);
        }
        xmlFree(vb);
    }
    xmlSetNs(root, xmlNewNs(root, BAD_CAST SVG_NS, NULL));
    /* to memory, then written by us: libxml2's own writer would print its
     * error beside ours */
    xmlDocDumpFormatMemoryEnc(doc, &mem, &len, "UTF-8", 1);
    if (!mem) {
        snprintf(err, errlen, "out of memory writing %s", path);
        goto cleanup;
    }
    rc = html_write_mem(path, mem, len, err, errlen);
cleanup:
    xmlFree(mem);
    xmlFreeDoc(doc);
    return rc;
}

int svg_write_chart_files(xmlNodePtr svg, const char *css, const char *svg_path,
                          double png_scale, int *nsvg, int *npng, char *err, size_t errlen)
{
    char *png;
    int rc;
    if (svg_write_standalone(svg, css, svg_path, err, errlen) < 0)
        return -1;
    ++*nsvg;
    if (png_scale <= 0)
        return 0;
    if (!(png = orch_strfmt("%.*s.png", (int)strlen(svg_path) - 4, svg_path))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    rc = png_from_svg(svg_path, png, png_scale, NULL, NULL, err, errlen);
    free(png);
    if (rc == 0)
        ++*npng;
    return rc;
}
