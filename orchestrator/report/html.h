/*
 * html.h — building blocks of the report's HTML tree (libxml2), shared by
 * the report page (report_html.c, page.c and the sections page.h lists)
 * and its drive I/O sections (drive_io.c).
 * Text goes into text nodes, so markup in a drive or VM name shows as text.
 */
#ifndef ORCH_HTML_H
#define ORCH_HTML_H

#include "attributes.h"

#include <stddef.h>

#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

/* A child element `name` of parent holding text (NULL: none). */
xmlNodePtr html_add(xmlNodePtr parent, const char *name, const char *text);

/* Set an attribute; nothing when n is NULL. */
void html_attr(xmlNodePtr n, const char *name, const char *value);

/* A new HTML document (caller frees with xmlFreeDoc): <html lang="en">,
 * its <head> with the UTF-8 meta, <title> and <style> css, and a <body>
 * starting with <h1>title</h1>, into *body. NULL when out of memory. */
htmlDocPtr html_page(const char *title, const char *css, xmlNodePtr *body);

/* A <table id=...> with one header row of heads (NULL-terminated) under
 * parent; returns its <tbody>. */
xmlNodePtr html_table(xmlNodePtr parent, const char *id, const char *const *heads);

/* Write the HTML document doc to path (formatted, UTF-8). 0, or -1 with
 * "cannot write PATH: why" (or out of memory) in err. */
int html_write_doc(xmlDocPtr doc, const char *path, char *err, size_t errlen) DB_MUST_CHECK;
/* len bytes of mem as the file at path; the same errors. */
int html_write_mem(const char *path, const xmlChar *mem, int len, char *err, size_t errlen) DB_MUST_CHECK;

#endif
