/*
 * capacity.h — what a plan needs of its hosts, against what they have,
 * known before anything is created: disk space per drive (the VMs'
 * volumes) and memory and CPUs per host (the VMs themselves). `run`
 * checks both first (orch_space_check, orch_memory_check); `plan
 * estimate` prints them (run/estimate.h).
 */
#ifndef ORCH_VIRT_CAPACITY_H
#define ORCH_VIRT_CAPACITY_H

#include "attributes.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "virt/conns.h"

/* Room for a run, checked before anything is created.
 *
 * What one repetition allocates on a drive at once: every VM's raw
 * database volume at its full capacity (a copy of the seed or a fresh
 * disk the database fills). qcow2 overlays (boot, seed) start nearly
 * empty and count as 0 here; their growth is left to the headroom. Each
 * drive must have that plus ORCH_SPACE_HEADROOM_PCT percent of it, and at
 * least ORCH_SPACE_HEADROOM_MIN bytes, free: `path` drives on this host
 * as statvfs() of the path (or its nearest existing parent) reports, pool
 * drives as virStoragePoolGetInfo()'s available bytes after a refresh.
 * Drives on one file system (or in one pool) are checked together.
 * `path` drives on another host are not checked (their file system is
 * only known once the pool exists), nor pools that do not exist yet
 * (provisioning reports them). */
#define ORCH_SPACE_HEADROOM_PCT 5
#define ORCH_SPACE_HEADROOM_MIN (1ULL << 30)

struct orch_plan;
struct orch_template;

/* One place space is taken from: a file system (by device) or a pool,
 * with the drives on it. Strings borrowed from the plan. */
typedef struct orch_space_group {
    const char *uri;
    const char *where;          /* the first drive's path, or its pool's name */
    const char *pool;           /* pool drives: the pool; NULL for path drives */
    dev_t       dev;            /* path drives on this host */
    int         known;          /* 0: free space not known before the run
                                 * (a path on another host, a missing pool) */
    uint64_t    need;           /* the database volumes */
    uint64_t    headroom;
    uint64_t    avail;          /* free bytes, when known */
    char        names[512];     /* "d1" or "d1, d2" */
} orch_space_group;

/* The space groups of plan p (volume sizes from the plan, else from
 * template t), in drive order, into *groups (caller frees) and their
 * count into *n. 0, or -1 with err (free space that cannot be read). */
int orch_space_groups(orch_conns *conns, const struct orch_plan *p,
                      const struct orch_template *t, orch_space_group **groups, int *n,
                      char *err, size_t errlen) DB_MUST_CHECK;

/* Check every drive of plan p. For each drive that is short, prints one
 * line on out:
 *   drivebench: drive NAME (WHERE, FREE free) is SHORT short: its volumes
 *   need NEED plus HEADROOM headroom
 * Returns 0 when every drive has room, else -1 with a message in err
 * (also when free space cannot be read). */
int orch_space_check(orch_conns *conns, const struct orch_plan *p,
                     const struct orch_template *t, FILE *out, char *err, size_t errlen) DB_MUST_CHECK;

/* What each QEMU process takes beside its guest's memory (measured:
 * about 100 MiB, /work/shared/VM-NOTES.md), counted in a host's need. */
#define ORCH_VM_MEM_OVERHEAD (100ULL << 20)

/* One host (libvirt URI) of a plan: its VMs' needs and what it has.
 * Strings borrowed from the plan. */
typedef struct orch_host_cap {
    const char *uri;
    int         vms, vcpus;     /* the plan's VMs on it, their vCPUs */
    uint64_t    vm_memory;      /* one VM's guest memory */
    uint64_t    need;           /* vms x (vm_memory + ORCH_VM_MEM_OVERHEAD) */
    /* the host, as its libvirt tells (virNodeGetInfo; memory from
     * virNodeGetMemoryStats where supported: /proc/meminfo's total) */
    int         cpus;
    uint64_t    memory;         /* total bytes */
    uint64_t    free;           /* free + buffers + cached
                                 * (virNodeGetMemoryStats), else
                                 * virNodeGetFreeMemory; 0: not known */
} orch_host_cap;

/* The hosts of plan p in drive order (VM memory and vCPUs from the plan,
 * else template t) into *hosts (caller frees), their count into *n.
 * 0, or -1 with err (a host that does not answer). */
int orch_host_caps(orch_conns *conns, const struct orch_plan *p, const struct orch_template *t,
                   orch_host_cap **hosts, int *n, char *err, size_t errlen) DB_MUST_CHECK;

/* Refuse hosts whose VMs need more memory than they have, or have more
 * vCPUs than the host has CPUs (issue 31). For each short of CPUs, prints
 *   drivebench: host URI has N CPU(s) and its M VM(s) have V vCPU(s)
 * and for each short of memory,
 * prints on out:
 *   drivebench: host URI has HAVE of memory and its N VM(s) need NEED
 *   (N x MEM + 100 MiB for QEMU each)
 * followed, with [run] overcommit = yes, by "; overcommit = yes: running
 * them anyway" (and 0 is returned). Returns 0 when every host has room,
 * else -1 with a message in err naming what to do. */
int orch_memory_check(const struct orch_plan *p, const orch_host_cap *hosts, int n, FILE *out,
                      char *err, size_t errlen) DB_MUST_CHECK;

#endif
