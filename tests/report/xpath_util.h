/*
 * xpath_util.h — XPath over a report's parsed HTML, for the report tests
 * (test_report.c, test_rank.c). The SVG namespace is registered as "s".
 * Failing a cmocka assertion when libxml2 cannot evaluate an expression.
 */
#ifndef TESTS_REPORT_XPATH_UTIL_H
#define TESTS_REPORT_XPATH_UTIL_H
#include <libxml/xpath.h>

/* The result of expr on doc (caller frees it with xmlXPathFreeObject). */
xmlXPathObjectPtr rt_nodes(xmlDocPtr doc, const char *expr);
/* How many nodes expr matches. */
int rt_count(xmlDocPtr doc, const char *expr);

#endif
