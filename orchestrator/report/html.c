/* html.c — building blocks of the report's HTML tree (html.h). */
#include "report/html.h"

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

xmlNodePtr html_table(xmlNodePtr parent, const char *id, const char *const *heads)
{
    xmlNodePtr t = html_add(parent, "table", NULL), tr;
    html_attr(t, "id", id);
    tr = html_add(html_add(t, "thead", NULL), "tr", NULL);
    for (; *heads; heads++)
        html_add(tr, "th", *heads);
    return html_add(t, "tbody", NULL);
}

int html_write_doc(xmlDocPtr doc, const char *path, char *err, size_t errlen)
{
    xmlChar *mem = NULL;
    int len = 0, rc = -1;
    FILE *f = NULL;

    htmlDocDumpMemoryFormat(doc, &mem, &len, 1);
    if (!mem) {
        snprintf(err, errlen, "out of memory writing %s", path);
        goto cleanup;
    }
    f = fopen(path, "w");
    if (!f || fwrite(mem, 1, (size_t)len, f) != (size_t)len) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto cleanup;
    }
    rc = fclose(f);
    f = NULL;
    if (rc != 0)
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
cleanup:
    if (f)
        fclose(f);
    xmlFree(mem);
    return rc ? -1 : 0;
}
