/* xpath_util.c — see xpath_util.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include <libxml/xpathInternals.h>

#include "xpath_util.h"

xmlXPathObjectPtr rt_nodes(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr c = xmlXPathNewContext(doc);
    xmlXPathObjectPtr o;
    assert_non_null(c);
    xmlXPathRegisterNs(c, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
    o = xmlXPathEvalExpression(BAD_CAST expr, c);
    xmlXPathFreeContext(c);
    assert_non_null(o);
    return o;
}

int rt_count(xmlDocPtr doc, const char *expr)
{
    xmlXPathObjectPtr o = rt_nodes(doc, expr);
    int n = o->nodesetval ? o->nodesetval->nodeNr : 0;
    xmlXPathFreeObject(o);
    return n;
}

unsigned rt_pixel(cairo_surface_t *img, int x, int y)
{
    const unsigned char *row = cairo_image_surface_get_data(img)
                               + (size_t)y * (size_t)cairo_image_surface_get_stride(img);
    uint32_t argb;
    memcpy(&argb, row + 4 * x, 4);
    return argb & 0xffffff;
}
