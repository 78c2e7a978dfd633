/* template.c — load VM profile templates and render domain XML (see
 * template.h). */
#include "plan/template.h"
#include "plan/template_edit.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#define MAX_DISKS 8
/* a libvirt domain with its profile is a few KiB */
#define TEMPLATE_MAX_BYTES (1024 * 1024)

struct orch_template {
    xmlDocPtr doc;
    char     *profile;
    char     *cmdline;          /* <os><cmdline>, "" if none */
    uint64_t  memory;           /* <memory> in bytes, 0 if none */
    int       vcpus;            /* <vcpu>, 0 if none */
    int       ndisks;
    struct { char serial[32]; uint64_t size; } disks[MAX_DISKS];
};

void orch_template_free(orch_template *t)
{
    if (!t)
        return;
    xmlFreeDoc(t->doc);
    free(t->profile);
    free(t->cmdline);
    free(t);
}

/* Bytes of a libvirt <memory> element: its number in its unit (KiB by
 * default; b, KB, k/KiB, MB, M/MiB, GB, G/GiB, TB, T/TiB as libvirt
 * reads them); 0 for no element or a unit it does not know. */
static uint64_t memory_bytes(xmlNodePtr n)
{
    static const struct { const char *unit; uint64_t bytes; } units[] = {
        { "b", 1 }, { "bytes", 1 }, { "KB", 1000 }, { "k", 1024 }, { "KiB", 1024 },
        { "MB", 1000000 }, { "M", 1ULL << 20 }, { "MiB", 1ULL << 20 },
        { "GB", 1000000000 }, { "G", 1ULL << 30 }, { "GiB", 1ULL << 30 },
        { "TB", 1000000000000ULL }, { "T", 1ULL << 40 }, { "TiB", 1ULL << 40 },
    };
    xmlChar *unit = n ? xmlGetProp(n, BAD_CAST "unit") : NULL;
    xmlChar *text = n ? xmlNodeGetContent(n) : NULL;
    uint64_t scale = unit ? 0 : 1024, bytes = 0;
    for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
        if (strcmp((const char *)unit, units[i].unit) == 0)
            scale = units[i].bytes;
    if (text)
        bytes = strtoull((const char *)text, NULL, 10) * scale;
    xmlFree(unit);
    xmlFree(text);
    return bytes;
}

orch_template *orch_template_load(const char *path, char *err, size_t errlen)
{
    orch_template *t = calloc(1, sizeof *t);
    xmlXPathObjectPtr disks = NULL;
    xmlNodePtr prof, cmd, vcpu;
    xmlChar *name = NULL, *text;
    char *src, why[256];
    size_t len;

    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* a plan may name any path: only a regular file of a template's size */
    if (!(src = orch_file_read_regular(path, TEMPLATE_MAX_BYTES, &len, why, sizeof why))) {
        snprintf(err, errlen, "cannot read template %s: %s", path, why);
        goto error;
    }
    t->doc = xmlReadMemory(src, (int)len, path, NULL,
                           XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    free(src);
    if (!t->doc) {
        const xmlError *e = xmlGetLastError();
        snprintf(err, errlen, "cannot load template %s: %s", path,
                 e && e->message ? e->message : "not readable XML");
        /* libxml2 messages end with a newline */
        if (strlen(err) && err[strlen(err) - 1] == '\n')
            err[strlen(err) - 1] = '\0';
        goto error;
    }
    prof = tpl_xpath_one(t->doc, NULL, "/domain/metadata/db:profile");
    if (!prof) {
        snprintf(err, errlen, "template %s has no <drivebench:profile> in <metadata>", path);
        goto error;
    }
    name = xmlGetProp(prof, BAD_CAST "name");
    t->profile = strdup(name ? (const char *)name : "");
    disks = tpl_xpath(t->doc, prof, "db:disk");
    for (int i = 0; disks && i < disks->nodesetval->nodeNr && t->ndisks < MAX_DISKS; i++) {
        xmlNodePtr n = disks->nodesetval->nodeTab[i];
        xmlChar *serial = xmlGetProp(n, BAD_CAST "serial");
        xmlChar *size = xmlGetProp(n, BAD_CAST "size");
        uint64_t bytes = 0;
        char expr[128];
        if (!serial || !size || orch_parse_size((const char *)size, &bytes) < 0
            || strlen((const char *)serial) >= sizeof t->disks[0].serial) {
            snprintf(err, errlen, "template %s: profile disk needs serial and a size like 4G",
                     path);
            xmlFree(serial);
            xmlFree(size);
            goto error;
        }
        snprintf(expr, sizeof expr, "/domain/devices/disk[serial='%s']", (const char *)serial);
        if (!tpl_xpath_one(t->doc, NULL, expr)) {
            snprintf(err, errlen, "template %s: profile lists disk %s but no <disk> has "
                     "<serial>%s</serial>", path, (const char *)serial, (const char *)serial);
            xmlFree(serial);
            xmlFree(size);
            goto error;
        }
        snprintf(t->disks[t->ndisks].serial, sizeof t->disks[0].serial, "%s",
                 (const char *)serial);
        t->disks[t->ndisks++].size = bytes;
        xmlFree(serial);
        xmlFree(size);
    }
    if (!orch_template_disk_size(t, "bootdisk") || !orch_template_disk_size(t, "dbdisk")) {
        snprintf(err, errlen, "template %s: profile needs disks bootdisk and dbdisk", path);
        goto error;
    }
    if (!tpl_netdev_arg(t->doc)) {
        snprintf(err, errlen, "template %s: <qemu:commandline> lacks '-netdev' 'user,...'",
                 path);
        goto error;
    }
    t->memory = memory_bytes(tpl_xpath_one(t->doc, NULL, "/domain/memory"));
    vcpu = tpl_xpath_one(t->doc, NULL, "/domain/vcpu");
    text = vcpu ? xmlNodeGetContent(vcpu) : NULL;
    t->vcpus = text ? atoi((const char *)text) : 0;
    xmlFree(text);
    cmd = tpl_xpath_one(t->doc, NULL, "/domain/os/cmdline");
    text = cmd ? xmlNodeGetContent(cmd) : NULL;
    t->cmdline = strdup(text ? (const char *)text : "");
    xmlFree(text);
    if (!t->profile || !t->cmdline) {
        snprintf(err, errlen, "out of memory");
        goto error;
    }
    xmlFree(name);
    xmlXPathFreeObject(disks);
    return t;

error:
    xmlFree(name);
    xmlXPathFreeObject(disks);
    orch_template_free(t);
    return NULL;
}

uint64_t orch_template_disk_size(const orch_template *t, const char *serial)
{
    for (int i = 0; i < t->ndisks; i++)
        if (strcmp(t->disks[i].serial, serial) == 0)
            return t->disks[i].size;
    return 0;
}

uint64_t orch_template_memory(const orch_template *t)
{
    return t->memory;
}

int orch_template_vcpus(const orch_template *t)
{
    return t->vcpus;
}

const char *orch_template_cmdline(const orch_template *t)
{
    return t->cmdline;
}

const char *orch_template_profile(const orch_template *t)
{
    return t->profile;
}

/* Replace the children of n with one text node holding text as it is
 * (xmlNodeSetContent would interpret '&' as an entity reference). */
static void set_text(xmlNodePtr n, const char *text)
{
    xmlNodeSetContent(n, NULL);
    xmlNodeAddContent(n, BAD_CAST text);
}

/* Set the text of the element at expr, creating it under parent_expr when
 * missing (appended, or after the element `after` when given). */
static int set_element(xmlDocPtr doc, const char *expr, const char *parent_expr,
                       const char *elem, const char *text)
{
    xmlNodePtr n = tpl_xpath_one(doc, NULL, expr);
    if (!n) {
        xmlNodePtr parent = tpl_xpath_one(doc, NULL, parent_expr);
        if (!parent)
            return -1;
        n = xmlNewChild(parent, NULL, BAD_CAST elem, NULL);
        if (!n)
            return -1;
    }
    set_text(n, text);
    return 0;
}

static int set_disk(xmlDocPtr doc, const char *serial, const char *pool, const char *vol)
{
    char expr[128];
    xmlNodePtr disk, src, old;
    snprintf(expr, sizeof expr, "/domain/devices/disk[serial='%s']", serial);
    disk = tpl_xpath_one(doc, NULL, expr);
    if (!disk)
        return -1;
    if (!vol) {                      /* the plan has no such disk: drop it */
        xmlUnlinkNode(disk);
        xmlFreeNode(disk);
        return 0;
    }
    xmlSetProp(disk, BAD_CAST "type", BAD_CAST "volume");
    old = tpl_xpath_one(doc, disk, "source");
    src = xmlNewNode(NULL, BAD_CAST "source");
    if (!src)
        return -1;
    xmlSetProp(src, BAD_CAST "pool", BAD_CAST pool);
    xmlSetProp(src, BAD_CAST "volume", BAD_CAST vol);
    if (old) {
        xmlReplaceNode(old, src);
        xmlFreeNode(old);
    } else {
        xmlAddChild(disk, src);
    }
    return 0;
}

static void set_metadata(xmlDocPtr doc, const orch_domain_spec *s)
{
    xmlNodePtr prof = tpl_xpath_one(doc, NULL, "/domain/metadata/db:profile");
    xmlNodePtr vm;
    char num[32];
    if (!prof)
        return;
    xmlAddChild(prof, xmlNewText(BAD_CAST "  "));
    vm = xmlNewChild(prof, prof->ns, BAD_CAST "vm", NULL);
    if (!vm)
        return;
    xmlAddChild(prof, xmlNewText(BAD_CAST "\n    "));
    xmlSetProp(vm, BAD_CAST "run", BAD_CAST s->run_id);
    xmlSetProp(vm, BAD_CAST "drive", BAD_CAST s->drive);
    snprintf(num, sizeof num, "%d", s->vm_index);
    xmlSetProp(vm, BAD_CAST "index", BAD_CAST num);
    snprintf(num, sizeof num, "%d", s->port);
    xmlSetProp(vm, BAD_CAST "port", BAD_CAST num);
}

/* Drop the element at expr, if any, with the indentation before it. */
static void drop_element(xmlDocPtr doc, const char *expr)
{
    xmlNodePtr n = tpl_xpath_one(doc, NULL, expr);
    if (!n)
        return;
    if (n->prev && xmlNodeIsText(n->prev) && xmlIsBlankNode(n->prev)) {
        xmlNodePtr ws = n->prev;
        xmlUnlinkNode(ws);
        xmlFreeNode(ws);
    }
    xmlUnlinkNode(n);
    xmlFreeNode(n);
}

/* Direct kernel boot (kernel, initrd, cmdline) or, without a kernel, boot
 * from the first disk: <os> then holds <boot dev='hd'/> and no kernel. */
static int set_boot(xmlDocPtr doc, const orch_domain_spec *s)
{
    xmlNodePtr os, boot;
    if (!s->kernel) {
        drop_element(doc, "/domain/os/kernel");
        drop_element(doc, "/domain/os/initrd");
        drop_element(doc, "/domain/os/cmdline");
        if (tpl_xpath_one(doc, NULL, "/domain/os/boot"))
            return 0;
        os = tpl_xpath_one(doc, NULL, "/domain/os");
        if (!os)
            return -1;
        xmlAddChild(os, xmlNewText(BAD_CAST "  "));
        boot = xmlNewChild(os, NULL, BAD_CAST "boot", NULL);
        if (!boot)
            return -1;
        xmlSetProp(boot, BAD_CAST "dev", BAD_CAST "hd");
        xmlAddChild(os, xmlNewText(BAD_CAST "\n  "));
        return 0;
    }
    if (set_element(doc, "/domain/os/kernel", "/domain/os", "kernel", s->kernel) < 0)
        return -1;
    if (!s->initrd)
        drop_element(doc, "/domain/os/initrd");
    else if (set_element(doc, "/domain/os/initrd", "/domain/os", "initrd", s->initrd) < 0)
        return -1;
    if (s->cmdline && set_element(doc, "/domain/os/cmdline", "/domain/os", "cmdline",
                                  s->cmdline) < 0)
        return -1;
    if (s->cmdline_extra) {
        xmlNodePtr n = tpl_xpath_one(doc, NULL, "/domain/os/cmdline");
        xmlChar *old = n ? xmlNodeGetContent(n) : NULL;
        char *line = old && *old ? orch_strfmt("%s %s", (const char *)old, s->cmdline_extra)
                                 : strdup(s->cmdline_extra);
        int rc = line ? set_element(doc, "/domain/os/cmdline", "/domain/os", "cmdline", line)
                      : -1;
        xmlFree(old);
        free(line);
        return rc;
    }
    return 0;
}

/* The SCSI controller model, and for lsisas1068 a <wwn> on every disk:
 * QEMU's mptsas reports a disk's WWN as its SAS address and the guest's
 * mptsas driver skips address 0, so without them the guest sees the
 * controller and no disk. NAA 5 names from the VM's UUID, unique per VM
 * and disk (the disk's position is the last digit), as images/vmlib.sh. */
static int set_controller(xmlDocPtr doc, const orch_domain_spec *s)
{
    xmlNodePtr ctl = tpl_xpath_one(doc, NULL, "/domain/devices/controller[@type='scsi']");
    xmlXPathObjectPtr disks;
    xmlChar *model;
    int lsi;

    if (!ctl)
        return s->controller ? -1 : 0;
    if (s->controller)
        xmlSetProp(ctl, BAD_CAST "model", BAD_CAST s->controller);
    model = xmlGetProp(ctl, BAD_CAST "model");
    lsi = model && strcmp((const char *)model, "lsisas1068") == 0;
    xmlFree(model);
    if (!lsi)
        return 0;
    disks = tpl_xpath(doc, NULL, "/domain/devices/disk[serial]");
    for (int i = 0; disks && i < disks->nodesetval->nodeNr; i++) {
        xmlNodePtr disk = disks->nodesetval->nodeTab[i], serial, wwn;
        char hex[15], text[32];
        int k = 0;
        for (const char *c = s->uuid; *c && k < 14; c++)
            if (*c != '-')
                hex[k++] = *c;
        hex[k] = '\0';
        snprintf(text, sizeof text, "0x5%s%x", hex, i & 0xf);
        wwn = tpl_xpath_one(doc, disk, "wwn");
        if (wwn) {
            set_text(wwn, text);
            continue;
        }
        serial = tpl_xpath_one(doc, disk, "serial");
        wwn = xmlNewNode(NULL, BAD_CAST "wwn");
        if (!wwn) {
            xmlXPathFreeObject(disks);
            return -1;
        }
        set_text(wwn, text);
        xmlAddNextSibling(serial, wwn);
        xmlAddPrevSibling(wwn, xmlNewText(BAD_CAST "\n      "));
    }
    xmlXPathFreeObject(disks);
    return 0;
}

char *orch_template_render(const orch_template *t, const orch_domain_spec *s,
                           char *err, size_t errlen)
{
    xmlDocPtr doc = xmlCopyDoc(t->doc, 1);
    xmlNodePtr root, n;
    xmlBufferPtr buf = NULL;
    char *out = NULL;
    char text[256];

    if (!doc) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    root = xmlDocGetRootElement(doc);
    xmlSetProp(root, BAD_CAST "type", BAD_CAST s->domain_type);
    if (set_element(doc, "/domain/name", "/domain", "name", s->name) < 0)
        goto fail;
    if (!tpl_xpath_one(doc, NULL, "/domain/uuid")) {
        xmlNodePtr name = tpl_xpath_one(doc, NULL, "/domain/name");
        xmlNodePtr uuid = xmlNewNode(NULL, BAD_CAST "uuid");
        if (!uuid)
            goto fail;
        xmlAddNextSibling(name, uuid);
        xmlAddPrevSibling(uuid, xmlNewText(BAD_CAST "\n  "));
    }
    set_element(doc, "/domain/uuid", "/domain", "uuid", s->uuid);
    set_metadata(doc, s);
    if (s->vcpus > 0) {
        snprintf(text, sizeof text, "%d", s->vcpus);
        if (set_element(doc, "/domain/vcpu", "/domain", "vcpu", text) < 0)
            goto fail;
    }
    if (s->memory > 0) {
        const char *elems[] = { "memory", "currentMemory" };
        snprintf(text, sizeof text, "%" PRIu64, s->memory / 1024);
        for (int i = 0; i < 2; i++) {
            char expr[64];
            snprintf(expr, sizeof expr, "/domain/%s", elems[i]);
            n = tpl_xpath_one(doc, NULL, expr);
            if (!n && i == 1)
                continue;
            if (set_element(doc, expr, "/domain", elems[i], text) < 0)
                goto fail;
            xmlSetProp(tpl_xpath_one(doc, NULL, expr), BAD_CAST "unit", BAD_CAST "KiB");
        }
    }
    if (set_boot(doc, s) < 0 || set_controller(doc, s) < 0)
        goto fail;
    if (set_disk(doc, "bootdisk", s->pool, s->boot_vol) < 0
        || set_disk(doc, "dbdisk", s->pool, s->db_vol) < 0)
        goto fail;
    if (orch_template_disk_size(t, "seeddisk") && set_disk(doc, "seeddisk", s->pool, s->seed_vol) < 0)
        goto fail;
    n = tpl_xpath_one(doc, NULL, "/domain/devices/serial[@type='file']/source");
    if (n)
        xmlSetProp(n, BAD_CAST "path", BAD_CAST s->console_log);
    if (tpl_set_firmware(doc, s) < 0 || tpl_set_topology(doc, s) < 0 || tpl_set_hyperv(doc, s) < 0
        || tpl_set_clock(doc, s) < 0 || tpl_set_nic(doc, s) < 0 || tpl_set_placement(doc, s) < 0
        || tpl_set_on_reboot(doc, s) < 0)
        goto fail;

    buf = xmlBufferCreate();
    if (!buf || xmlNodeDump(buf, doc, root, 0, 0) < 0)
        goto fail;
    out = orch_strfmt("%s\n", (const char *)xmlBufferContent(buf));
    xmlBufferFree(buf);
    xmlFreeDoc(doc);
    if (!out)
        snprintf(err, errlen, "out of memory");
    return out;

fail:
    snprintf(err, errlen, "template does not have the elements drivebench sets "
             "(name, os, vcpu, disks by serial, -netdev)");
    xmlBufferFree(buf);
    xmlFreeDoc(doc);
    return NULL;
}

/* The unit factor of a libvirt <memory unit=...> (KiB when absent), 0 for
 * a unit this reader does not know. */
static uint64_t memory_unit(const char *unit)
{
    static const struct { const char *name; uint64_t f; } units[] = {
        { "b", 1 }, { "bytes", 1 }, { "KB", 1000 }, { "k", 1024 }, { "KiB", 1024 },
        { "MB", 1000000 }, { "M", 1 << 20 }, { "MiB", 1 << 20 },
        { "GB", 1000000000 }, { "G", 1 << 30 }, { "GiB", 1 << 30 },
    };
    if (!unit)
        return 1024;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(units[i].name, unit) == 0)
            return units[i].f;
    return 0;
}

/* Text of the node matching expr as a new string, or NULL. */
static char *node_text(xmlDocPtr doc, const char *expr)
{
    xmlNodePtr n = tpl_xpath_one(doc, NULL, expr);
    xmlChar *text = n ? xmlNodeGetContent(n) : NULL;
    char *out = text ? strdup((const char *)text) : NULL;
    xmlFree(text);
    return out;
}

int orch_template_machine(const orch_template *t, orch_template_machine_info *m)
{
    char *vcpu = node_text(t->doc, "/domain/vcpu"), *mem = node_text(t->doc, "/domain/memory");
    xmlNodePtr n = tpl_xpath_one(t->doc, NULL, "/domain/memory");
    xmlChar *unit = n ? xmlGetProp(n, BAD_CAST "unit") : NULL;
    uint64_t f = memory_unit((const char *)unit);
    int rc = 0;

    memset(m, 0, sizeof m[0]);
    m->vcpus = vcpu ? atoi(vcpu) : 0;
    m->memory = mem && f ? strtoull(mem, NULL, 10) * f : 0;
    n = tpl_xpath_one(t->doc, NULL, "/domain/devices/controller[@type='scsi']/@model");
    if (n) {
        xmlChar *model = xmlNodeGetContent(n);
        m->controller = model ? strdup((const char *)model) : NULL;
        rc |= !m->controller ? -1 : 0;
        xmlFree(model);
    }
    m->cmdline = node_text(t->doc, "/domain/os/cmdline");
    xmlFree(unit);
    free(vcpu);
    free(mem);
    return rc;
}

void orch_template_machine_clear(orch_template_machine_info *m)
{
    free(m->controller);
    free(m->cmdline);
    memset(m, 0, sizeof m[0]);
}
