/* xpath_util.c — see xpath_util.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

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
