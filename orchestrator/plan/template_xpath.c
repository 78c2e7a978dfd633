/* template_xpath.c — XPath lookups in a domain template (template_edit.h),
 * with the qemu: and db: namespaces registered; used by template.c and
 * template_guest.c, calling neither. */
#include "plan/template_edit.h"

#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

xmlXPathObjectPtr tpl_xpath(xmlDocPtr doc, xmlNodePtr ctx_node, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathObjectPtr r = NULL;
    if (!ctx)
        return NULL;
    xmlXPathRegisterNs(ctx, BAD_CAST "qemu", BAD_CAST ORCH_QEMU_NS);
    xmlXPathRegisterNs(ctx, BAD_CAST "db", BAD_CAST ORCH_PROFILE_NS);
    if (ctx_node)
        ctx->node = ctx_node;
    r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    xmlXPathFreeContext(ctx);
    if (r && (!r->nodesetval || r->nodesetval->nodeNr == 0)) {
        xmlXPathFreeObject(r);
        r = NULL;
    }
    return r;
}

/* First node matching expr, or NULL. */
xmlNodePtr tpl_xpath_one(xmlDocPtr doc, xmlNodePtr ctx_node, const char *expr)
{
    xmlXPathObjectPtr r = tpl_xpath(doc, ctx_node, expr);
    xmlNodePtr n = r ? r->nodesetval->nodeTab[0] : NULL;
    xmlXPathFreeObject(r);
    return n;
}

/* The -netdev user,... argument of <qemu:commandline>. */
xmlNodePtr tpl_netdev_arg(xmlDocPtr doc)
{
    return tpl_xpath_one(doc, NULL, "/domain/qemu:commandline/qemu:arg[@value='-netdev']"
                                "/following-sibling::qemu:arg[1][starts-with(@value,'user,')]");
}
