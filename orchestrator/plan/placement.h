/*
 * placement.h — where each VM runs on its host ([run] pinning): the
 * host's CPUs and NUMA nodes as libvirt's capabilities describe them
 * (<host><topology><cells>), and each VM's vCPUs, emulator, I/O thread
 * and memory placed on them. Pure: the capabilities come as text
 * (virt/placement_host.c reads them from each host).
 *
 * pinning = auto: each VM takes whole cores of one NUMA node (all of a
 * core's SMT siblings go to the same VM, so no two VMs share a core),
 * vCPU k on the k-th of its logical CPUs; the first core of each node is
 * set apart for the emulator threads and the database disk's I/O thread
 * of that node's VMs; memory is bound to the node (strict). A VM goes to
 * the node with the most free cores (ties: the lowest), so the VMs are
 * balanced across nodes.
 *
 * pinning = an explicit list: one word per VM of the plan, in layout
 * order (drive by drive, vm1 first): CPUS or CPUS/EMULATOR, each a
 * libvirt cpuset ("2-9", "2,4,6-8"); vCPU k on the k-th CPU of CPUS, the
 * emulator and I/O thread on EMULATOR (default CPUS); memory bound to the
 * node of CPUS when the host's topology is known and CPUS lie on one.
 */
#ifndef ORCH_PLACEMENT_H
#define ORCH_PLACEMENT_H

#include "attributes.h"

#include <stddef.h>

/* One logical CPU of a host. */
typedef struct orch_topo_cpu {
    int id;         /* libvirt's cpu id */
    int node;       /* its NUMA cell */
    int core;       /* index of its sibling group, 0..ncores-1 */
} orch_topo_cpu;

/* A host's CPUs, in the capabilities' order (cell by cell). ncpus 0:
 * libvirt describes no NUMA cells (the test driver's custom nodes). */
typedef struct orch_host_topo {
    orch_topo_cpu *cpus;
    int ncpus, ncores, nnodes;
} orch_host_topo;

/* Parse the <topology><cells> of a capabilities document. 0, or -1 with
 * err (not XML, a cpu without id). */
int orch_topo_parse(const char *caps_xml, orch_host_topo *t, char *err, size_t errlen) DB_MUST_CHECK;
void orch_topo_clear(orch_host_topo *t);

/* Where one VM runs. */
#define ORCH_PLACE_SET 256
typedef struct orch_vm_place {
    int  nvcpus;
    int *vcpu_cpu;                  /* host CPU of each vCPU */
    char vcpus[ORCH_PLACE_SET];     /* all of them, as a cpuset */
    char emulator[ORCH_PLACE_SET];  /* the emulator's and I/O thread's cpuset */
    int  node;                      /* NUMA node for its memory, -1: not bound */
} orch_vm_place;

void orch_vm_place_clear(orch_vm_place *pl);

/* pinning = auto: nvms VMs of vcpus vCPUs each on host t, into
 * out[0..nvms) (set whole: what was there is not freed). 0; 1 when they do not fit (err says how many cores they
 * need and the host has); -1 with err when out of memory or the host's
 * topology is unknown. */
int orch_place_auto(const orch_host_topo *t, int nvms, int vcpus, orch_vm_place *out,
                    char *err, size_t errlen) DB_MUST_CHECK;

/* pinning = an explicit list: the words first .. first + nvms - 1 of
 * list (0-based) into out; t may have no CPUs (node then -1). 0, or -1
 * with err (too few words, a bad cpuset, fewer CPUs than vCPUs, a CPU
 * the host lacks). */
int orch_place_explicit(const char *list, int first, int nvms, int vcpus,
                        const orch_host_topo *t, orch_vm_place *out, char *err, size_t errlen) DB_MUST_CHECK;

/* The syntax of an explicit list with nwords words expected: 0, or -1
 * with err. */
int orch_place_check_list(const char *list, int nwords, char *err, size_t errlen) DB_MUST_CHECK;

/* cpuset text of n CPU ids ("0-3,8"), ascending, into buf. */
const char *orch_cpuset_text(const int *ids, int n, char *buf, size_t len);

#endif
