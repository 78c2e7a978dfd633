/*
 * kvm.h — the domain type by measurement (issue 31 item 3): the rule of
 * images/virt-type.sh. A usable KVM needs the CPU's hardware
 * virtualisation flag (vmx or svm in /proc/cpuinfo) and a /dev/kvm on
 * which KVM_CREATE_VM works; a nested /dev/kvm without the flag runs
 * guests slower than TCG (measured: the guest kernel had not left its
 * decompressor after 70 s), and libvirt's capabilities still offer kvm
 * there. Only this machine can be measured: a host behind a remote URI
 * keeps its capabilities' answer.
 */
#ifndef ORCH_KVM_H
#define ORCH_KVM_H

#include <stddef.h>
#include <libvirt/libvirt.h>

/* What the measurement reads, injectable for tests: the cpuinfo file,
 * the KVM device, and the ioctl (NULL: ioctl(fd, KVM_CREATE_VM, 0),
 * returning a VM fd or -1 with errno). */
typedef struct orch_kvm_probe {
    const char *cpuinfo;        /* "/proc/cpuinfo" */
    const char *dev;            /* "/dev/kvm" */
    int (*create_vm)(int kvm_fd);
} orch_kvm_probe;

/* "kvm" or "qemu" (static) by the rule above, with the reason in why:
 * "vmx flag and a working KVM_CREATE_VM on /dev/kvm", "the CPU has no vmx
 * or svm flag (/proc/cpuinfo)", "/dev/kvm: No such file or directory",
 * "KVM_CREATE_VM on /dev/kvm failed: ...". pr NULL: this machine's. */
const char *orch_kvm_measure(const orch_kvm_probe *pr, char *why, size_t len);

/* The domain type of [run] domain_type = auto for the host behind conn
 * (opened as uri): measured (orch_kvm_measure) for a qemu:/// URI on this
 * machine, and kvm only where the capabilities also offer it; else the
 * capabilities' (orch_domain_type_for). why: the reason, for the run's
 * output and summary.json. NULL with err when the capabilities cannot be
 * read. */
const char *orch_kvm_domain_type(virConnectPtr conn, const char *uri, const orch_kvm_probe *pr,
                                 char *why, size_t whylen, char *err, size_t errlen);

#endif
