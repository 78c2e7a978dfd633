/*
 * template.h — VM profile templates (vmconfigs/<profile>.xml) and the
 * domain XML rendered from them.
 *
 * A template is a libvirt domain XML that `virsh define` accepts as it is.
 * Its <metadata> holds a <drivebench:profile> element listing the disks by
 * serial with their default sizes. Rendering edits a copy of the DOM with
 * libxml2 (never string substitution), so no name or path can inject XML.
 */
#ifndef ORCH_TEMPLATE_H
#define ORCH_TEMPLATE_H

#include "attributes.h"

#include <stddef.h>
#include <stdint.h>

#define ORCH_PROFILE_NS   "https://drivebench.dev/xmlns/profile/1"
#define ORCH_QEMU_NS      "http://libvirt.org/schemas/domain/qemu/1.0"

typedef struct orch_template orch_template;

/* The guest's operating system and the devices that follow from it (plan
 * keys [run] guest_os, nic, firmware; plans/README.md). Values are the
 * indexes of the keys' choices in plan_keys.c. */
typedef enum { ORCH_OS_LINUX, ORCH_OS_WINDOWS } orch_guest_os;
typedef enum { ORCH_NIC_VIRTIO, ORCH_NIC_E1000E } orch_nic;
typedef enum { ORCH_FW_BIOS, ORCH_FW_EFI } orch_firmware;

/* What the renderer sets in one domain. Strings are borrowed. */
typedef struct orch_domain_spec {
    const char *name;           /* domain name */
    const char *uuid;           /* 36-character UUID text */
    const char *domain_type;    /* "kvm" or "qemu" ("test" in unit tests) */
    const char *cpu;            /* the plan's [run] cpu; NULL or "auto":
                                 * host-passthrough, max under TCG */
    const struct orch_vm_place *place;  /* where it runs on its host
                                 * (placement.h), or NULL: not pinned */
    int         hugepages;      /* 1: <memoryBacking><hugepages/> */
    const char *run_id;
    const char *drive;          /* drive name as written in the plan */
    int         vm_index;       /* 1-based within the drive */
    int         vcpus;          /* 0 = keep the template's */
    uint64_t    memory;         /* bytes, 0 = keep the template's */
    const char *kernel, *initrd;/* kernel NULL: boot from the boot disk
                                 * (firmware and bootloader); initrd NULL:
                                 * none */
    const char *cmdline;        /* NULL = keep the template's */
    const char *cmdline_extra;  /* words appended to that command line (the
                                 * engine's server settings), or NULL;
                                 * ignored without a kernel */
    const char *controller;     /* SCSI model, NULL = keep the template's;
                                 * lsisas1068 gives every disk a <wwn> */
    const char *pool;           /* storage pool of the volumes */
    const char *boot_vol, *db_vol, *seed_vol;   /* seed_vol NULL if none */
    const char *console_log;    /* serial console file */
    orch_guest_os guest_os;     /* windows: the RTC in local time, the
                                 * timers Windows expects */
    orch_nic    nic;            /* the -device of the user-mode NIC */
    orch_firmware firmware;     /* efi: <os firmware='efi'> (libvirt picks
                                 * OVMF, Secure Boot off) and a q35 machine */
    int         hyperv;         /* 1: Hyper-V enlightenments and the
                                 * hypervclock timer */
    int         port;           /* host loopback port ... */
    int         guest_port;     /* ... forwarded to this port in the guest */
    const char *passt_socket;   /* network = passt: the NIC is '-netdev
                                 * stream' to this passt socket (which
                                 * forwards port itself), not the user-mode
                                 * network; NULL: user-mode */
} orch_domain_spec;

/* The guest CPU [run] cpu gives under domain_type, as the domain
 * carries it: "host-passthrough", "host-model", "maximum" (auto under
 * qemu, and max) or "custom MODEL". Into buf, returned. */
const char *orch_cpu_rendered(const char *cpu, const char *domain_type, char *buf, size_t len);

/* Load and check a template. Returns NULL with a message in err when the
 * file is missing, not XML, or lacks a bootdisk/dbdisk disk, the profile
 * metadata, or the user-mode -netdev argument. Free with
 * orch_template_free (accepts NULL). */
orch_template *orch_template_load(const char *path, char *err, size_t errlen);
void orch_template_free(orch_template *t);

/* Default size in bytes of the disk with this serial ("bootdisk",
 * "dbdisk", "seeddisk"), or 0 when the profile has no such disk. */
uint64_t orch_template_disk_size(const orch_template *t, const char *serial);

/* The template's guest memory in bytes (<memory>, with its unit) and
 * vCPUs (<vcpu>); 0 when it states none. */
uint64_t orch_template_memory(const orch_template *t);
int orch_template_vcpus(const orch_template *t);

/* The template's kernel command line (<os><cmdline>), "" when it has
 * none (borrowed). */
const char *orch_template_cmdline(const orch_template *t);

/* Profile name from the metadata (borrowed). */
const char *orch_template_profile(const orch_template *t);

/* What a domain of the template gets unless a plan key says otherwise:
 * vCPUs, memory (bytes), the SCSI controller's model and the kernel
 * command line (NULL: none; 0: not in the template). Strings owned. */
typedef struct orch_template_machine_info {
    int      vcpus;
    uint64_t memory;
    char    *controller, *cmdline;
} orch_template_machine_info;

/* Fill *m from t. 0, or -1 when out of memory (clear *m either way). */
int orch_template_machine(const orch_template *t, orch_template_machine_info *m) DB_MUST_CHECK;
void orch_template_machine_clear(orch_template_machine_info *m);

/* Domain XML for spec, as a new string (caller frees), or NULL with a
 * message in err. Besides the spec's values, every domain gets one
 * socket of N cores (<cpu><topology sockets='1' cores='N' threads='1'/>,
 * N the vCPUs): SQL Server 2014 Standard uses at most 4 sockets. */
char *orch_template_render(const orch_template *t, const orch_domain_spec *spec,
                           char *err, size_t errlen);

#endif
