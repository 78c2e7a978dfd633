/*
 * domain.h — the domains of a run: defined and started, recorded in the
 * run's ledger (ledger.h); what a domain's XML says of a guest reboot;
 * and the domain type a host's capabilities offer.
 */
#ifndef ORCH_DOMAIN_H
#define ORCH_DOMAIN_H

#include "attributes.h"

#include <stddef.h>
#include <libvirt/libvirt.h>
#include "virt/ledger.h"

/* Define the domain from xml and start it. Returns the domain (caller
 * virDomainFree) or NULL with err; a defined domain is recorded even when
 * starting it fails. */
virDomainPtr orch_domain_start(virConnectPtr conn, orch_ledger *l, const char *xml,
                               char *err, size_t errlen);

/* 1 when dom restarts on a guest reboot (its on_reboot is restart, or
 * absent: libvirt's default), 0 when it does not (destroy, ...), -1 when
 * its XML cannot be read. */
int orch_domain_restarts_on_reboot(virDomainPtr dom) DB_MUST_CHECK;

/* "kvm" when the host behind conn offers KVM for x86_64, else "qemu";
 * NULL with err when capabilities cannot be read. Static string. */
const char *orch_domain_type_for(virConnectPtr conn, char *err, size_t errlen);

#endif
