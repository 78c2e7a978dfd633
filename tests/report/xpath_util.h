/*
 * xpath_util.h — XPath over a report's parsed HTML, and the pixels of its
 * charts' PNGs, for the report tests (test_report.c, test_rank.c). The SVG
 * namespace is registered as "s". Failing a cmocka assertion when libxml2
 * cannot evaluate an expression.
 */
#ifndef TESTS_REPORT_XPATH_UTIL_H
#define TESTS_REPORT_XPATH_UTIL_H
#include <cairo.h>
#include <libxml/xpath.h>

/* The result of expr on doc (caller frees it with xmlXPathFreeObject). */
xmlXPathObjectPtr rt_nodes(xmlDocPtr doc, const char *expr);
/* How many nodes expr matches. */
int rt_count(xmlDocPtr doc, const char *expr);
/* The RGB of pixel (x, y) of an RGB24 or ARGB32 image, 0xRRGGBB. */
unsigned rt_pixel(cairo_surface_t *img, int x, int y);

#endif
