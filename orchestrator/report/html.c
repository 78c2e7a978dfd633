/* html.c — building blocks of the report's HTML tree (html.h). */
#include "report/html.h"

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
