/* html.c — building blocks of the report's HTML tree (html.h). */
#include "report/html.h"
#include "atomic_file.h"

#include <libxml/HTMLtree.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

xmlNodePtr html_add(xmlNodePtr parent, const char *name, const char *text)
{
    return xmlNewTextChild(parent, NULL, BAD_CAST name, BAD_CAST text);
}

void html_attr(xmlNodePtr n, const char *name, const char *value)
{
    if (n)
        xmlNewProp(n, BAD_CAST name, BAD_CAST value);
}

htmlDocPtr html_page(const char *title, const char *css, xmlNodePtr *body)
{
    htmlDocPtr doc = htmlNewDocNoDtD(NULL, NULL);
    xmlNodePtr html, head;
    if (!doc)
        return NULL;
    xmlCreateIntSubset(doc, BAD_CAST "html", NULL, NULL);
    html = xmlNewDocNode(doc, NULL, BAD_CAST "html", NULL);
    xmlDocSetRootElement(doc, html);
    html_attr(html, "lang", "en");
    head = html_add(html, "head", NULL);
    htmlSetMetaEncoding(doc, BAD_CAST "UTF-8");   /* text as UTF-8, not entities */
    html_add(head, "title", title);
    html_add(head, "style", css);
    *body = html_add(html, "body", NULL);
    html_add(*body, "h1", title);
    return doc;
}

xmlNodePtr html_table(xmlNodePtr parent, const char *id, const char *const *heads)
{
    xmlNodePtr t = html_add(parent, "table", NULL), tr;
    html_attr(t, "id", id);
    tr = html_add(html_add(t, "thead", NULL), "tr", NULL);
    for (; *heads; heads++)
        html_add(tr, "th", *heads);
    return html_add(t, "tbody", NULL);
}

int html_write_mem(const char *path, const xmlChar *mem, int len, char *err, size_t errlen)
{
    return atomic_file_write(path, mem, (size_t)len, err, errlen);
}

int html_write_doc(xmlDocPtr doc, const char *path, char *err, size_t errlen)
{
    xmlChar *mem = NULL;
    int len = 0, rc;

    htmlDocDumpMemoryFormat(doc, &mem, &len, 1);
    if (!mem) {
        snprintf(err, errlen, "out of memory writing %s", path);
        return -1;
    }
    rc = html_write_mem(path, mem, len, err, errlen);
    xmlFree(mem);
    return rc;
}
