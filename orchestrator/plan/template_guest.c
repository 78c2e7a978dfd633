/* template_guest.c — what the guest OS asks of a domain: CPU topology,
 * firmware, Hyper-V enlightenments, clock and the NIC (see template.h;
 * orch_template_render calls these on the rendered tree). */
#include "plan/template.h"
#include "plan/template_edit.h"
#include "plan/placement.h"

#include <stdio.h>
#include <string.h>

#include <libxml/tree.h>

/* The NIC's slot on the root bus: on pc's pci.0 where the profiles always
 * had it; on q35's pcie.0 clear of libvirt's PCIe root ports (slot 0x01
 * on, eight to a slot) and of the ICH9 functions at 0x1f (seen in
 * `virsh dumpxml` of a started q35 domain with lsisas1068). */
#define ORCH_NIC_SLOT_PC  "0x1e"
#define ORCH_NIC_SLOT_Q35 "0x10"

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
    if ((n = tpl_xpath_one(doc, NULL, expr)))
        return n;
    for (; *after && !prev; after++) {
        snprintf(expr, sizeof expr, "/domain/%s", *after);
        prev = tpl_xpath_one(doc, NULL, expr);
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
    xmlNodePtr n = tpl_xpath_one(doc, parent, name);
    return n ? n : add_child(parent, name, depth);
}

/* The guest's CPU: the plan's [run] cpu, "auto" host-passthrough (the
 * host's CPU and flags, SSE4.2 and AVX included) except under TCG, where
 * only "max" gives the guest the flags QEMU can emulate; a name other than
 * a libvirt mode is a CPU model, exact, without fallback.  The <model>
 * goes before the <topology>, as the schema orders them. */
static const char *const cpu_modes[] = { "host-passthrough", "host-model", "maximum", NULL };

/* The libvirt mode or CPU model [run] cpu gives under domain_type. */
static const char *cpu_choice(const char *cpu, const char *domain_type)
{
    const char *c = cpu && *cpu && strcmp(cpu, "auto") != 0 ? cpu : NULL;
    if (!c)
        c = strcmp(domain_type, "qemu") == 0 ? "max" : "host-passthrough";
    return strcmp(c, "max") == 0 ? "maximum" : c;
}

const char *orch_cpu_rendered(const char *cpu, const char *domain_type, char *buf, size_t len)
{
    const char *c = cpu_choice(cpu, domain_type);
    for (int i = 0; cpu_modes[i]; i++)
        if (strcmp(c, cpu_modes[i]) == 0) {
            snprintf(buf, len, "%s", c);
            return buf;
        }
    snprintf(buf, len, "custom %s", c);
    return buf;
}

static int tpl_set_cpu_mode(xmlDocPtr doc, xmlNodePtr cpu, const orch_domain_spec *s)
{
    const char *const *modes = cpu_modes;
    const char *c = cpu_choice(s->cpu, s->domain_type);
    xmlNodePtr model = tpl_xpath_one(doc, cpu, "model"), topo;
    for (int i = 0; modes[i]; i++)
        if (strcmp(c, modes[i]) == 0) {
            xmlSetProp(cpu, BAD_CAST "mode", BAD_CAST c);
            xmlUnsetProp(cpu, BAD_CAST "match");
            if (model) {
                xmlUnlinkNode(model);
                xmlFreeNode(model);
            }
            return 0;
        }
    xmlSetProp(cpu, BAD_CAST "mode", BAD_CAST "custom");
    xmlSetProp(cpu, BAD_CAST "match", BAD_CAST "exact");
    if (!model) {
        topo = tpl_xpath_one(doc, cpu, "topology");
        if (!(model = xmlNewNode(NULL, BAD_CAST "model")))
            return -1;
        if (topo) {
            xmlAddPrevSibling(topo, model);
            xmlAddNextSibling(model, xmlNewText(BAD_CAST "\n    "));
        } else
            xmlAddChild(cpu, model);
    }
    xmlSetProp(model, BAD_CAST "fallback", BAD_CAST "forbid");
    xmlNodeSetContent(model, BAD_CAST c);
    return 0;
}

/* One socket of N cores, N the domain's vCPUs: without a topology QEMU
 * makes every vCPU a socket, and SQL Server 2014 Standard uses at most 4
 * sockets (so 4 of 16 vCPUs). */
int tpl_set_topology(xmlDocPtr doc, const orch_domain_spec *s)
{
    static const char *const after[] = { "features", "os", "vcpu", NULL };
    xmlNodePtr vcpu = tpl_xpath_one(doc, NULL, "/domain/vcpu"), cpu, topo;
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
    return tpl_set_cpu_mode(doc, cpu, s);
}

/* UEFI: libvirt's firmware autoselection (<os firmware='efi'>, which picks
 * OVMF from the firmware descriptors of Debian's ovmf package and makes
 * the domain's NVRAM) on a q35 machine, Secure Boot off so that the plain
 * OVMF build without SMM is chosen and any Windows install boots. */
int tpl_set_firmware(xmlDocPtr doc, const orch_domain_spec *s)
{
    xmlNodePtr os = tpl_xpath_one(doc, NULL, "/domain/os"), type, fw, feat;
    if (s->firmware != ORCH_FW_EFI)
        return 0;
    type = os ? tpl_xpath_one(doc, os, "type") : NULL;
    if (!type)
        return -1;
    xmlSetProp(os, BAD_CAST "firmware", BAD_CAST "efi");
    xmlSetProp(type, BAD_CAST "machine", BAD_CAST "q35");
    if (!(fw = tpl_xpath_one(doc, os, "firmware"))) {
        if (!(fw = xmlNewNode(NULL, BAD_CAST "firmware")))
            return -1;
        xmlAddNextSibling(type, fw);
        xmlAddPrevSibling(fw, xmlNewText(BAD_CAST "\n    "));
    }
    feat = tpl_xpath_one(doc, fw, "feature[@name='secure-boot']");
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
int tpl_set_hyperv(xmlDocPtr doc, const orch_domain_spec *s)
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
int tpl_set_clock(xmlDocPtr doc, const orch_domain_spec *s)
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
        if (!(tm = tpl_xpath_one(doc, clock, expr))) {
            if (!(tm = add_child(clock, "timer", 2)))
                return -1;
            xmlSetProp(tm, BAD_CAST "name", BAD_CAST timers[i].name);
        }
        xmlSetProp(tm, BAD_CAST timers[i].attr, BAD_CAST timers[i].value);
    }
    return 0;
}

/* <on_reboot>: a Windows guest restarts (specialize, feature and update
 * installs reboot it while it boots; the monitor counts those until its
 * database answers and fails it for a reboot after); a Linux guest keeps
 * the template's destroy, which turns a panic=1 reboot while booting into
 * a stop seen at once. */
int tpl_set_on_reboot(xmlDocPtr doc, const orch_domain_spec *s)
{
    static const char *const after[] = { "on_poweroff", "clock", "features", "os", NULL };
    xmlNodePtr n;
    if (s->guest_os != ORCH_OS_WINDOWS)
        return 0;
    if (!(n = domain_child(doc, "on_reboot", after)))
        return -1;
    xmlNodeSetContent(n, BAD_CAST "restart");
    return 0;
}

/* The user-mode NIC: '-netdev user,...' with restrict=on and the loopback
 * forward (libvirt's own <interface type='user'> has neither without
 * passt, which Debian 12's libvirt lacks), and its '-device': the model
 * (virtio-net-pci, or e1000e, which Windows has an in-box driver for) at
 * a fixed slot of the machine's root bus, pci.0 on pc and pcie.0 on q35
 * (left to QEMU it takes a slot libvirt gave another device). With
 * network = passt the netdev is a stream to passt's socket instead
 * (QEMU 7.2's -netdev stream; passt forwards the port). */
int tpl_set_nic(xmlDocPtr doc, const orch_domain_spec *s)
{
    xmlNodePtr netdev = tpl_netdev_arg(doc), dev;
    xmlChar *machine = NULL;
    xmlNodePtr type = tpl_xpath_one(doc, NULL, "/domain/os/type");
    char text[256];
    int q35;
    if (!netdev)
        return -1;
    if (s->passt_socket)
        snprintf(text, sizeof text, "stream,id=net0,server=off,addr.type=unix,addr.path=%s",
                 s->passt_socket);
    else
        snprintf(text, sizeof text, "user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:%d-:%d",
                 s->port, s->guest_port);
    xmlSetProp(netdev, BAD_CAST "value", BAD_CAST text);
    machine = type ? xmlGetProp(type, BAD_CAST "machine") : NULL;
    q35 = machine && strstr((const char *)machine, "q35");
    xmlFree(machine);
    snprintf(text, sizeof text, "%s,netdev=net0,bus=%s,addr=%s",
             s->nic == ORCH_NIC_E1000E ? "e1000e" : "virtio-net-pci",
             q35 ? "pcie.0" : "pci.0", q35 ? ORCH_NIC_SLOT_Q35 : ORCH_NIC_SLOT_PC);
    dev = tpl_xpath_one(doc, NULL, "/domain/qemu:commandline/qemu:arg[@value='-device']"
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

/* The database disk's I/O thread: on its own <driver> for a virtio-blk
 * disk, on the virtio-scsi controller's for a SCSI one (QEMU gives an
 * I/O thread to a virtio device, not to one disk of a SCSI bus); NULL
 * for a controller QEMU emulates in its main loop (lsisas1068), whose
 * I/O then runs on the emulator's CPUs. */
static xmlNodePtr iothread_holder(xmlDocPtr doc)
{
    xmlNodePtr bus = tpl_xpath_one(doc, NULL, "/domain/devices/disk[serial='dbdisk']/target");
    xmlChar *b = bus ? xmlGetProp(bus, BAD_CAST "bus") : NULL;
    xmlNodePtr n = NULL;
    if (b && xmlStrcmp(b, BAD_CAST "virtio") == 0)
        n = tpl_xpath_one(doc, NULL, "/domain/devices/disk[serial='dbdisk']/driver");
    else if (b && xmlStrcmp(b, BAD_CAST "scsi") == 0
             && (n = tpl_xpath_one(doc, NULL, "/domain/devices/controller[@type='scsi'"
                                   " and @model='virtio-scsi']")))
        n = child_of(doc, n, "driver", 3);
    xmlFree(b);
    return n;
}

/* [run] pinning and hugepages (placement.h): <iothreads> and the
 * database disk's I/O thread, <cputune> (each vCPU on its host CPU, the
 * emulator and the I/O thread on the CPUs set apart), <numatune> (memory
 * on the vCPUs' node), <memoryBacking><hugepages/>. */
int tpl_set_placement(xmlDocPtr doc, const orch_domain_spec *s)
{
    static const char *const after_vcpu[] = { "vcpu", NULL };
    static const char *const after_tune[] = { "cputune", "iothreads", "vcpu", NULL };
    static const char *const after_mem[] = { "currentMemory", "memory", NULL };
    const orch_vm_place *pl = s->place;
    xmlNodePtr io = NULL, tune, n;
    char num[32];

    if (s->hugepages) {
        if (!(n = domain_child(doc, "memoryBacking", after_mem)) || !child_of(doc, n, "hugepages", 2))
            return -1;
    }
    if (!pl)
        return 0;
    if ((io = iothread_holder(doc))) {
        xmlSetProp(io, BAD_CAST "iothread", BAD_CAST "1");
        if (!(n = domain_child(doc, "iothreads", after_vcpu)))
            return -1;
        xmlNodeSetContent(n, BAD_CAST "1");
    }
    if (!(tune = domain_child(doc, "cputune", (const char *const[]){ "iothreads", "vcpu", NULL })))
        return -1;
    for (int k = 0; k < pl->nvcpus; k++) {
        if (!(n = add_child(tune, "vcpupin", 2)))
            return -1;
        snprintf(num, sizeof num, "%d", k);
        xmlSetProp(n, BAD_CAST "vcpu", BAD_CAST num);
        snprintf(num, sizeof num, "%d", pl->vcpu_cpu[k]);
        xmlSetProp(n, BAD_CAST "cpuset", BAD_CAST num);
    }
    if (!(n = add_child(tune, "emulatorpin", 2)))
        return -1;
    xmlSetProp(n, BAD_CAST "cpuset", BAD_CAST pl->emulator);
    if (io) {
        if (!(n = add_child(tune, "iothreadpin", 2)))
            return -1;
        xmlSetProp(n, BAD_CAST "iothread", BAD_CAST "1");
        xmlSetProp(n, BAD_CAST "cpuset", BAD_CAST pl->emulator);
    }
    if (pl->node >= 0) {
        if (!(tune = domain_child(doc, "numatune", after_tune)) || !(n = add_child(tune, "memory", 2)))
            return -1;
        snprintf(num, sizeof num, "%d", pl->node);
        xmlSetProp(n, BAD_CAST "mode", BAD_CAST "strict");
        xmlSetProp(n, BAD_CAST "nodeset", BAD_CAST num);
    }
    return 0;
}
