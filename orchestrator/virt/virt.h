/*
 * virt.h — the front header of virt/: libvirt connections and errors,
 * provisioning (pools, volumes, domains) and its ledger, teardown and
 * listing by name, uploads, the seed restore, the capacity check, the
 * guest agent, the monitor.
 *
 * What the folder offers to the others: a file outside virt/ includes
 * this header only (tests/lint/fronts.sh); the headers below are the
 * folder's own and stay private to it otherwise. ledger_priv.h and
 * teardown_priv.h are not here: they are for virt/'s own files only.
 */
#ifndef ORCH_VIRT_FRONT_H
#define ORCH_VIRT_FRONT_H

#include "virt/agent.h"
#include "virt/capacity.h"
#include "virt/conns.h"
#include "virt/domain.h"
#include "virt/hosts.h"
#include "virt/kvm.h"
#include "virt/ledger.h"
#include "virt/list.h"
#include "virt/monitor.h"
#include "virt/passt.h"
#include "virt/placement_host.h"
#include "virt/pool.h"
#include "virt/restore.h"
#include "virt/teardown.h"
#include "virt/upload.h"
#include "virt/virt_error.h"
#include "virt/vol.h"

#endif
