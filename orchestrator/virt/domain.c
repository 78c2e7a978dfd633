/* domain.c — the domains of a run and what their XML or their host's
 * says of them (see domain.h). */
#include "virt/domain.h"
#include "virt/ledger_priv.h"
#include "virt/teardown_priv.h"
#include "virt/virt_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

virDomainPtr orch_domain_start(virConnectPtr conn, orch_ledger *l, const char *xml,
                               char *err, size_t errlen)
{
    virDomainPtr dom = virDomainDefineXML(conn, xml);
    if (!dom) {
        snprintf(err, errlen, "cannot define domain: %s", orch_virt_error());
        return NULL;
    }
    if (orch_ledger_add(l, ORCH_OBJ_DOMAIN, conn, NULL, virDomainGetName(dom)) < 0) {
        orch_teardown_domain(dom, NULL);
        virDomainFree(dom);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (virDomainCreate(dom) < 0) {
        const char *why = orch_virt_error();
        snprintf(err, errlen, "cannot start domain %s: %s", virDomainGetName(dom), why);
        virDomainFree(dom);
        return NULL;
    }
    return dom;
}

int orch_domain_restarts_on_reboot(virDomainPtr dom)
{
    char *xml = virDomainGetXMLDesc(dom, 0);
    xmlDocPtr doc;
    xmlXPathContextPtr ctx = NULL;
    xmlXPathObjectPtr v = NULL;
    int rc = -1;

    if (!xml)
        return -1;
    doc = xmlReadMemory(xml, (int)strlen(xml), "domain.xml", NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    free(xml);
    if (doc && (ctx = xmlXPathNewContext(doc)))
        v = xmlXPathEvalExpression(BAD_CAST "string(/domain/on_reboot)", ctx);
    if (v && v->type == XPATH_STRING)
        /* libvirt's default, when the element is absent, is restart */
        rc = !*v->stringval || !strcmp((const char *)v->stringval, "restart");
    xmlXPathFreeObject(v);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return rc;
}

const char *orch_domain_type_for(virConnectPtr conn, char *err, size_t errlen)
{
    char *caps = virConnectGetCapabilities(conn);
    const char *type = "qemu";
    xmlDocPtr doc;
    xmlXPathContextPtr ctx = NULL;
    xmlXPathObjectPtr kvm = NULL;

    if (!caps) {
        snprintf(err, errlen, "cannot read host capabilities: %s", orch_virt_error());
        return NULL;
    }
    doc = xmlReadMemory(caps, (int)strlen(caps), "capabilities.xml", NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    free(caps);
    if (doc && (ctx = xmlXPathNewContext(doc)))
        kvm = xmlXPathEvalExpression(BAD_CAST "/capabilities/guest[os_type='hvm']"
                                     "/arch[@name='x86_64']/domain[@type='kvm']", ctx);
    if (kvm && kvm->nodesetval && kvm->nodesetval->nodeNr > 0)
        type = "kvm";
    xmlXPathFreeObject(kvm);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return type;
}
