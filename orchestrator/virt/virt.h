/*
 * virt.h — the front header of virt/: libvirt connections, provisioning and its ledger, uploads, the seed restore, the capacity check, the guest agent, the monitor.
 *
 * What the folder offers to the others: a file outside virt/ includes
 * this header only (tests/lint/fronts.sh); the headers below are the
 * folder's own and stay private to it otherwise.
 */
#ifndef ORCH_VIRT_FRONT_H
#define ORCH_VIRT_FRONT_H

#include "virt/agent.h"
#include "virt/capacity.h"
#include "virt/hosts.h"
#include "virt/kvm.h"
#include "virt/monitor.h"
#include "virt/passt.h"
#include "virt/placement_host.h"
#include "virt/provision.h"
#include "virt/restore.h"
#include "virt/upload.h"

#endif
