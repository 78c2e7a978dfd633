/* template.c — load VM profile templates and render domain XML (see
 * template.h). */
#include "plan/template.h"
#include "util/names.h"
#include "util/units.h"

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

/* The NIC's slot on the root bus: on pc's pci.0 where the profiles always
 * had it; on q35's pcie.0 clear of libvirt's PCIe root ports (slot 0x01
 * on, eight to a slot) and of the ICH9 functions at 0x1f (seen in
 * `virsh dumpxml` of a started q35 domain with lsisas1068). */
#define ORCH_NIC_SLOT_PC  "0x1e"
#define ORCH_NIC_SLOT_Q35 "0x10"

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

static xmlXPathObjectPtr xpath(xmlDocPtr doc, xmlNodePtr ctx_node, const char *expr)
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
static xmlNodePtr xpath_one(xmlDocPtr doc, xmlNodePtr ctx_node, const char *expr)
{
    xmlXPathObjectPtr r = xpath(doc, ctx_node, expr);
    xmlNodePtr n = r ? r->nodesetval->nodeTab[0] : NULL;
    xmlXPathFreeObject(r);
    return n;
}

/* The -netdev user,... argument of <qemu:commandline>. */
static xmlNodePtr netdev_arg(xmlDocPtr doc)
{
    return xpath_one(doc, NULL, "/domain/qemu:commandline/qemu:arg[@value='-netdev']"
                                "/following-sibling::qemu:arg[1][starts-with(@value,'user,')]");
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

    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (access(path, R_OK) < 0) {
        snprintf(err, errlen, "cannot read template %s: %s", path, strerror(errno));
        goto error;
    }
    t->doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!t->doc) {
        const xmlError *e = xmlGetLastError();
        snprintf(err, errlen, "cannot load template %s: %s", path,
                 e && e->message ? e->message : "not readable XML");
        /* libxml2 messages end with a newline */
        if (strlen(err) && err[strlen(err) - 1] == '\n')
            err[strlen(err) - 1] = '\0';
        goto error;
    }
    prof = xpath_one(t->doc, NULL, "/domain/metadata/db:profile");
    if (!prof) {
        snprintf(err, errlen, "template %s has no <drivebench:profile> in <metadata>", path);
        goto error;
    }
    name = xmlGetProp(prof, BAD_CAST "name");
    t->profile = strdup(name ? (const char *)name : "");
    disks = xpath(t->doc, prof, "db:disk");
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
        if (!xpath_one(t->doc, NULL, expr)) {
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
    if (!netdev_arg(t->doc)) {
        snprintf(err, errlen, "template %s: <qemu:commandline> lacks '-netdev' 'user,...'",
                 path);
        goto error;
    }
    t->memory = memory_bytes(xpath_one(t->doc, NULL, "/domain/memory"));
    vcpu = xpath_one(t->doc, NULL, "/domain/vcpu");
    text = vcpu ? xmlNodeGetContent(vcpu) : NULL;
    t->vcpus = text ? atoi((const char *)text) : 0;
    xmlFree(text);
    cmd = xpath_one(t->doc, NULL, "/domain/os/cmdline");
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
    xmlNodePtr n = xpath_one(doc, NULL, expr);
    if (!n) {
        xmlNodePtr parent = xpath_one(doc, NULL, parent_expr);
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
    disk = xpath_one(doc, NULL, expr);
    if (!disk)
        return -1;
    if (!vol) {                      /* the plan has no such disk: drop it */
        xmlUnlinkNode(disk);
        xmlFreeNode(disk);
        return 0;
    }
    xmlSetProp(disk, BAD_CAST "type", BAD_CAST "volume");
    old = xpath_one(doc, disk, "source");
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
    xmlNodePtr prof = xpath_one(doc, NULL, "/domain/metadata/db:profile");
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
    xmlNodePtr n = xpath_one(doc, NULL, expr);
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
        if (xpath_one(doc, NULL, "/domain/os/boot"))
            return 0;
        os = xpath_one(doc, NULL, "/domain/os");
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
        xmlNodePtr n = xpath_one(doc, NULL, "/domain/os/cmdline");
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
    xmlNodePtr ctl = xpath_one(doc, NULL, "/domain/devices/controller[@type='scsi']");
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
    disks = xpath(doc, NULL, "/domain/devices/disk[serial]");
    for (int i = 0; disks && i < disks->nodesetval->nodeNr; i++) {
        xmlNodePtr disk = disks->nodesetval->nodeTab[i], serial, wwn;
        char hex[15], text[32];
        int k = 0;
        for (const char *c = s->uuid; *c && k < 14; c++)
            if (*c != '-')
                hex[k++] = *c;
        hex[k] = '\0';
        snprintf(text, sizeof text, "0x5%s%x", hex, i & 0xf);
        wwn = xpath_one(doc, disk, "wwn");
        if (wwn) {
            set_text(wwn, text);
            continue;
        }
        serial = xpath_one(doc, disk, "serial");
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

/* A new element name appended to parent as a child at nesting depth
 * depth (its indentation, two spaces a level), the parent's closing tag
 * kept on its own line. NULL when out of memory. */
static xmlNodePtr add_child(xmlNodePtr parent, const char *name, int depth)
{
    char ws[64];
    xmlNodePtr n = xmlNewNode(NULL, BAD_CAST name), last = parent->last;
    if (!n)
        return NULL;
    snprintf(ws, sizeof ws, "\n%*s", depth * 2, "");
    if (last && xmlNodeIsText(last) && xmlIsBlankNode(last)) {
        xmlAddPrevSibling(last, n);
        xmlAddPrevSibling(n, xmlNewText(BAD_CAST ws));
        return n;
    }
    xmlAddChild(parent, xmlNewText(BAD_CAST ws));
    xmlAddChild(parent, n);
    snprintf(ws, sizeof ws, "\n%*s", (depth - 1) * 2, "");
    xmlAddChild(parent, xmlNewText(BAD_CAST ws));
    return n;
}

/* The element /domain/name, or a new one placed after the first of the
 * elements in after[] that exists (NULL-ended), or appended. */
static xmlNodePtr domain_child(xmlDocPtr doc, const char *name, const char *const *after)
{
    char expr[64];
    xmlNodePtr n, prev = NULL;
    snprintf(expr, sizeof expr, "/domain/%s", name);
    if ((n = xpath_one(doc, NULL, expr)))
        return n;
    for (; *after && !prev; after++) {
        snprintf(expr, sizeof expr, "/domain/%s", *after);
        prev = xpath_one(doc, NULL, expr);
    }
    if (!prev)
        return add_child(xmlDocGetRootElement(doc), name, 1);
    if (!(n = xmlNewNode(NULL, BAD_CAST name)))
        return NULL;
    xmlAddNextSibling(prev, n);
    xmlAddPrevSibling(n, xmlNewText(BAD_CAST "\n  "));
    return n;
}

/* The child name of parent, or a new one (add_child at depth). */
static xmlNodePtr child_of(xmlDocPtr doc, xmlNodePtr parent, const char *name, int depth)
{
    xmlNodePtr n = xpath_one(doc, parent, name);
    return n ? n : add_child(parent, name, depth);
}

/* One socket of N cores, N the domain's vCPUs: without a topology QEMU
 * makes every vCPU a socket, and SQL Server 2014 Standard uses at most 4
 * sockets (so 4 of 16 vCPUs). */
static int set_topology(xmlDocPtr doc, const orch_domain_spec *s)
{
    static const char *const after[] = { "features", "os", "vcpu", NULL };
    xmlNodePtr vcpu = xpath_one(doc, NULL, "/domain/vcpu"), cpu, topo;
    xmlChar *text = NULL;
    char cores[32];
    int n = s->vcpus;
    if (n <= 0) {
        text = vcpu ? xmlNodeGetContent(vcpu) : NULL;
        n = text ? atoi((const char *)text) : 0;
        xmlFree(text);
    }
    if (n <= 0)
        return -1;
    if (!(cpu = domain_child(doc, "cpu", after)) || !(topo = child_of(doc, cpu, "topology", 2)))
        return -1;
    snprintf(cores, sizeof cores, "%d", n);
    xmlSetProp(topo, BAD_CAST "sockets", BAD_CAST "1");
    xmlSetProp(topo, BAD_CAST "cores", BAD_CAST cores);
    xmlSetProp(topo, BAD_CAST "threads", BAD_CAST "1");
    return 0;
}

/* UEFI: libvirt's firmware autoselection (<os firmware='efi'>, which picks
 * OVMF from the firmware descriptors of Debian's ovmf package and makes
 * the domain's NVRAM) on a q35 machine, Secure Boot off so that the plain
 * OVMF build without SMM is chosen and any Windows install boots. */
static int set_firmware(xmlDocPtr doc, const orch_domain_spec *s)
{
    xmlNodePtr os = xpath_one(doc, NULL, "/domain/os"), type, fw, feat;
    if (s->firmware != ORCH_FW_EFI)
        return 0;
    type = os ? xpath_one(doc, os, "type") : NULL;
    if (!type)
        return -1;
    xmlSetProp(os, BAD_CAST "firmware", BAD_CAST "efi");
    xmlSetProp(type, BAD_CAST "machine", BAD_CAST "q35");
    if (!(fw = xpath_one(doc, os, "firmware"))) {
        if (!(fw = xmlNewNode(NULL, BAD_CAST "firmware")))
            return -1;
        xmlAddNextSibling(type, fw);
        xmlAddPrevSibling(fw, xmlNewText(BAD_CAST "\n    "));
    }
    feat = xpath_one(doc, fw, "feature[@name='secure-boot']");
    if (!feat && !(feat = add_child(fw, "feature", 3)))
        return -1;
    xmlSetProp(feat, BAD_CAST "enabled", BAD_CAST "no");
    xmlSetProp(feat, BAD_CAST "name", BAD_CAST "secure-boot");
    return 0;
}

/* Hyper-V enlightenments (<features><hyperv>): what Windows needs to
 * behave under a hypervisor that overcommits (relaxed timing: no
 * CLOCK_WATCHDOG_TIMEOUT when a vCPU waits for the host; paravirtual
 * APIC and spinlocks, synthetic interrupts and timers, TLB flush and IPI
 * hypercalls). libvirt 9.0 and QEMU 7.2 know all of them and QEMU
 * implements them with KVM. Under TCG (domain type qemu) QEMU 7.2 refuses
 * vpindex ("kernel doesn't allow setting HyperV VP_INDEX"), and synic,
 * stimer, tlbflush and ipi need it, so TCG domains get the others only
 * (tried here: images/README.md). */
static int set_hyperv(xmlDocPtr doc, const orch_domain_spec *s)
{
    static const char *const after[] = { "os", "vcpu", NULL };
    static const struct { const char *name; int needs_kvm; } on[] = {
        { "relaxed", 0 }, { "vapic", 0 }, { "spinlocks", 0 }, { "vpindex", 1 },
        { "runtime", 0 }, { "synic", 1 }, { "stimer", 1 }, { "reset", 0 },
        { "frequencies", 0 }, { "tlbflush", 1 }, { "ipi", 1 },
    };
    int tcg = strcmp(s->domain_type, "qemu") == 0;
    xmlNodePtr features, hv;
    if (!s->hyperv)
        return 0;
    if (!(features = domain_child(doc, "features", after))
        || !(hv = child_of(doc, features, "hyperv", 2)))
        return -1;
    xmlSetProp(hv, BAD_CAST "mode", BAD_CAST "custom");
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        xmlNodePtr f;
        if (tcg && on[i].needs_kvm)
            continue;
        if (!(f = child_of(doc, hv, on[i].name, 3)))
            return -1;
        xmlSetProp(f, BAD_CAST "state", BAD_CAST "on");
        if (strcmp(on[i].name, "spinlocks") == 0)       /* Hyper-V's own count */
            xmlSetProp(f, BAD_CAST "retries", BAD_CAST "8191");
    }
    return 0;
}

/* <clock>: Windows keeps the RTC in local time and wants the timers of
 * libvirt's Windows guests (RTC ticks caught up, PIT delayed, no HPET);
 * with Hyper-V enlightenments, the hypervclock (Hyper-V's reference
 * time) too. Linux guests without them keep the template's clock. */
static int set_clock(xmlDocPtr doc, const orch_domain_spec *s)
{
    static const char *const after[] = { "cpu", "features", "os", NULL };
    static const struct { const char *name, *attr, *value; int windows; } timers[] = {
        { "rtc", "tickpolicy", "catchup", 1 }, { "pit", "tickpolicy", "delay", 1 },
        { "hpet", "present", "no", 1 }, { "hypervclock", "present", "yes", 0 },
    };
    int windows = s->guest_os == ORCH_OS_WINDOWS;
    xmlNodePtr clock;
    if (!windows && !s->hyperv)
        return 0;
    if (!(clock = domain_child(doc, "clock", after)))
        return -1;
    if (windows)
        xmlSetProp(clock, BAD_CAST "offset", BAD_CAST "localtime");
    else if (!xmlHasProp(clock, BAD_CAST "offset"))
        xmlSetProp(clock, BAD_CAST "offset", BAD_CAST "utc");
    for (size_t i = 0; i < sizeof timers / sizeof timers[0]; i++) {
        char expr[64];
        xmlNodePtr tm;
        if (timers[i].windows ? !windows : !s->hyperv)
            continue;
        snprintf(expr, sizeof expr, "timer[@name='%s']", timers[i].name);
        if (!(tm = xpath_one(doc, clock, expr))) {
            if (!(tm = add_child(clock, "timer", 2)))
                return -1;
            xmlSetProp(tm, BAD_CAST "name", BAD_CAST timers[i].name);
        }
        xmlSetProp(tm, BAD_CAST timers[i].attr, BAD_CAST timers[i].value);
    }
    return 0;
}

/* The user-mode NIC: '-netdev user,...' with restrict=on and the loopback
 * forward (libvirt's own <interface type='user'> has neither without
 * passt, which Debian 12's libvirt lacks), and its '-device': the model
 * (virtio-net-pci, or e1000e, which Windows has an in-box driver for) at
 * a fixed slot of the machine's root bus, pci.0 on pc and pcie.0 on q35
 * (left to QEMU it takes a slot libvirt gave another device). */
static int set_nic(xmlDocPtr doc, const orch_domain_spec *s)
{
    xmlNodePtr netdev = netdev_arg(doc), dev;
    xmlChar *machine = NULL;
    xmlNodePtr type = xpath_one(doc, NULL, "/domain/os/type");
    char text[256];
    int q35;
    if (!netdev)
        return -1;
    snprintf(text, sizeof text, "user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:%d-:%d",
             s->port, s->guest_port);
    xmlSetProp(netdev, BAD_CAST "value", BAD_CAST text);
    machine = type ? xmlGetProp(type, BAD_CAST "machine") : NULL;
    q35 = machine && strstr((const char *)machine, "q35");
    xmlFree(machine);
    snprintf(text, sizeof text, "%s,netdev=net0,bus=%s,addr=%s",
             s->nic == ORCH_NIC_E1000E ? "e1000e" : "virtio-net-pci",
             q35 ? "pcie.0" : "pci.0", q35 ? ORCH_NIC_SLOT_Q35 : ORCH_NIC_SLOT_PC);
    dev = xpath_one(doc, NULL, "/domain/qemu:commandline/qemu:arg[@value='-device']"
                               "/following-sibling::qemu:arg[1][contains(@value,'netdev=net0')]");
    if (!dev) {                 /* a template with the -netdev only */
        xmlNodePtr flag = xmlNewNode(netdev->ns, BAD_CAST "arg");
        dev = xmlNewNode(netdev->ns, BAD_CAST "arg");
        if (!flag || !dev) {
            xmlFreeNode(flag);
            xmlFreeNode(dev);
            return -1;
        }
        xmlSetProp(flag, BAD_CAST "value", BAD_CAST "-device");
        xmlAddNextSibling(netdev, flag);
        xmlAddPrevSibling(flag, xmlNewText(BAD_CAST "\n    "));
        xmlAddNextSibling(flag, dev);
        xmlAddPrevSibling(dev, xmlNewText(BAD_CAST "\n    "));
    }
    xmlSetProp(dev, BAD_CAST "value", BAD_CAST text);
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
    if (!xpath_one(doc, NULL, "/domain/uuid")) {
        xmlNodePtr name = xpath_one(doc, NULL, "/domain/name");
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
            n = xpath_one(doc, NULL, expr);
            if (!n && i == 1)
                continue;
            if (set_element(doc, expr, "/domain", elems[i], text) < 0)
                goto fail;
            xmlSetProp(xpath_one(doc, NULL, expr), BAD_CAST "unit", BAD_CAST "KiB");
        }
    }
    if (set_boot(doc, s) < 0 || set_controller(doc, s) < 0)
        goto fail;
    if (set_disk(doc, "bootdisk", s->pool, s->boot_vol) < 0
        || set_disk(doc, "dbdisk", s->pool, s->db_vol) < 0)
        goto fail;
    if (orch_template_disk_size(t, "seeddisk") && set_disk(doc, "seeddisk", s->pool, s->seed_vol) < 0)
        goto fail;
    n = xpath_one(doc, NULL, "/domain/devices/serial[@type='file']/source");
    if (n)
        xmlSetProp(n, BAD_CAST "path", BAD_CAST s->console_log);
    if (set_firmware(doc, s) < 0 || set_topology(doc, s) < 0 || set_hyperv(doc, s) < 0
        || set_clock(doc, s) < 0 || set_nic(doc, s) < 0)
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
    xmlNodePtr n = xpath_one(doc, NULL, expr);
    xmlChar *text = n ? xmlNodeGetContent(n) : NULL;
    char *out = text ? strdup((const char *)text) : NULL;
    xmlFree(text);
    return out;
}

int orch_template_machine(const orch_template *t, orch_template_machine_info *m)
{
    char *vcpu = node_text(t->doc, "/domain/vcpu"), *mem = node_text(t->doc, "/domain/memory");
    xmlNodePtr n = xpath_one(t->doc, NULL, "/domain/memory");
    xmlChar *unit = n ? xmlGetProp(n, BAD_CAST "unit") : NULL;
    uint64_t f = memory_unit((const char *)unit);
    int rc = 0;

    memset(m, 0, sizeof m[0]);
    m->vcpus = vcpu ? atoi(vcpu) : 0;
    m->memory = mem && f ? strtoull(mem, NULL, 10) * f : 0;
    n = xpath_one(t->doc, NULL, "/domain/devices/controller[@type='scsi']/@model");
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
