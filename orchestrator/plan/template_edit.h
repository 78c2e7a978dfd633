/*
 * template_edit.h — private to plan/template*.c: the XPath lookups both
 * files use (template_xpath.c) and the guest-OS edits of a rendered domain
 * (template_guest.c). Each edit returns 0, or -1 when out of memory.
 */
#ifndef ORCH_TEMPLATE_EDIT_H
#define ORCH_TEMPLATE_EDIT_H

#include <libxml/tree.h>
#include <libxml/xpath.h>

#include "plan/template.h"

/* The nodes matching expr (the qemu: and db: namespaces registered), or
 * NULL for none; free with xmlXPathFreeObject (template_xpath.c, as the
 * two below). */
xmlXPathObjectPtr tpl_xpath(xmlDocPtr doc, xmlNodePtr ctx_node, const char *expr);
/* First node matching expr, or NULL. */
xmlNodePtr tpl_xpath_one(xmlDocPtr doc, xmlNodePtr ctx_node, const char *expr);
/* The -netdev user,... argument of <qemu:commandline>, or NULL. */
xmlNodePtr tpl_netdev_arg(xmlDocPtr doc);

int tpl_set_topology(xmlDocPtr doc, const orch_domain_spec *s);
int tpl_set_firmware(xmlDocPtr doc, const orch_domain_spec *s);
int tpl_set_hyperv(xmlDocPtr doc, const orch_domain_spec *s);
int tpl_set_clock(xmlDocPtr doc, const orch_domain_spec *s);
int tpl_set_nic(xmlDocPtr doc, const orch_domain_spec *s);
int tpl_set_placement(xmlDocPtr doc, const orch_domain_spec *s);
int tpl_set_on_reboot(xmlDocPtr doc, const orch_domain_spec *s);

#endif
