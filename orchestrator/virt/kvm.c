/* kvm.c — the domain type by measurement (kvm.h). */
#include "virt/kvm.h"
#include "virt/domain.h"         /* orch_domain_type_for */
#include "plan/plan.h"          /* orch_uri_is_remote */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/kvm.h>

static int kvm_create_vm(int fd)
{
    return ioctl(fd, KVM_CREATE_VM, 0);
}

/* Whether a "flags" line of cpuinfo holds vmx or svm as a word. */
static int has_virt_flag(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[8192];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        char *save = NULL;
        if (strncmp(line, "flags", 5) != 0 || !strchr(line, ':'))
            continue;
        for (char *w = strtok_r(strchr(line, ':') + 1, " \t\n", &save); w && !found;
             w = strtok_r(NULL, " \t\n", &save))
            found = strcmp(w, "vmx") == 0 || strcmp(w, "svm") == 0;
    }
    if (f)
        fclose(f);
    return found;
}

const char *orch_kvm_measure(const orch_kvm_probe *pr, char *why, size_t len)
{
    static const orch_kvm_probe here = { "/proc/cpuinfo", "/dev/kvm", NULL };
    int fd, vm;
    if (!pr)
        pr = &here;
    if (!has_virt_flag(pr->cpuinfo)) {
        snprintf(why, len, "the CPU has no vmx or svm flag (%s)", pr->cpuinfo);
        return "qemu";
    }
    if ((fd = open(pr->dev, O_RDWR | O_CLOEXEC)) < 0) {
        snprintf(why, len, "%s: %s", pr->dev, strerror(errno));
        return "qemu";
    }
    vm = (pr->create_vm ? pr->create_vm : kvm_create_vm)(fd);
    if (vm < 0) {
        snprintf(why, len, "KVM_CREATE_VM on %s failed: %s", pr->dev, strerror(errno));
        close(fd);
        return "qemu";
    }
    close(vm);
    close(fd);
    snprintf(why, len, "vmx or svm flag and a working KVM_CREATE_VM on %s", pr->dev);
    return "kvm";
}

const char *orch_kvm_domain_type(virConnectPtr conn, const char *uri, const orch_kvm_probe *pr,
                                 char *why, size_t whylen, char *err, size_t errlen)
{
    const char *caps = orch_domain_type_for(conn, err, errlen), *measured;
    char m[200];
    int qemu = strncmp(uri, "qemu", 4) == 0 && (uri[4] == ':' || uri[4] == '+');
    if (!caps)
        return NULL;
    if (!qemu || orch_uri_is_remote(uri)) {
        snprintf(why, whylen, "host capabilities%s", qemu ? " (another host: not measured)" : "");
        return caps;
    }
    measured = orch_kvm_measure(pr, m, sizeof m);
    if (strcmp(measured, "kvm") == 0 && strcmp(caps, "kvm") != 0) {
        snprintf(why, whylen, "measured: %s, but libvirt's capabilities offer no kvm domain", m);
        return "qemu";
    }
    snprintf(why, whylen, "measured: %s", m);
    return measured;
}
