/*
 * placement_host.h — [run] pinning against the plan's hosts: each host's
 * topology from its libvirt capabilities (virConnectGetCapabilities,
 * <topology><cells>), the layout's VMs placed on it (plan/placement.h),
 * the placement map printed, and the refusal of a plan whose vCPUs a
 * host cannot give a CPU each, before anything is created.
 */
#ifndef ORCH_PLACEMENT_HOST_H
#define ORCH_PLACEMENT_HOST_H

#include "attributes.h"

#include <stdio.h>
#include "plan/plan.h"
#include "virt/conns.h"

/* Place the VMs of layout l (vcpus each) per p's [run] pinning, into
 * each VM's place, and print the map on out (may be NULL). The hosts'
 * topology from caps_file, a capabilities document (`virsh capabilities`
 * of the host: drivebench render --capabilities), when not NULL, else
 * from each drive's host through conns. pinning = auto refuses a host
 * that cannot give each vCPU a CPU of its own unless [run] overcommit
 * (the VMs then share them, unpinned); without pinning the same check is
 * orch_memory_check's (capacity.h). 0, or -1 with err. */
int orch_place_layout(orch_conns *conns, const orch_plan *p, orch_layout *l, int vcpus,
                      const char *caps_file, FILE *out, char *err, size_t errlen) DB_MUST_CHECK;

/* The capabilities document of the host behind conn, parsed. 0, or -1
 * with err. */
int orch_host_topology(virConnectPtr conn, orch_host_topo *t, char *err, size_t errlen) DB_MUST_CHECK;

#endif
