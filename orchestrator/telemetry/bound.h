/*
 * bound.h — what bounded a drive's figures (issue 45 item 4): one
 * verdict per drive over its measured phases, from the figures the
 * telemetry sampled, with the evidence that decided. Pure arithmetic
 * (orch_bound_judge); the telemetry gathers its input (bound.c).
 *
 * The rule, in this order (the first that holds decides; results/
 * SCHEMA.md gives the reasons):
 *   1. TCG                                    -> host cpu
 *   2. host CPU busy >= ORCH_BOUND_HOST_PCT   -> host cpu
 *   3. a VM's QEMU I/O threads >= ORCH_BOUND_THREAD_PCT of one CPU
 *                                             -> host cpu
 *   4. client = host over QEMU's user-mode network and a VM's QEMU main
 *      loop >= ORCH_BOUND_THREAD_PCT of one CPU -> network path
 *   5. a VM's vCPU threads, on average, >= ORCH_BOUND_GUEST_PCT
 *                                             -> guest cpu
 *   6. a VM's oltp >= ORCH_BOUND_CLIENT_PCT of its event threads
 *                                             -> client
 *   7. the device's utilisation >= ORCH_BOUND_UTIL_PCT -> drive
 *   8. otherwise                              -> undetermined
 * A rule whose figure is absent (NAN) does not hold; the evidence of an
 * undetermined verdict names what was missing.
 */
#ifndef ORCH_BOUND_H
#define ORCH_BOUND_H

#include "attributes.h"

#include <stdbool.h>
#include "results_io.h"

#define ORCH_BOUND_HOST_PCT   90.0  /* host CPU busy, all CPUs */
#define ORCH_BOUND_THREAD_PCT 90.0  /* one QEMU thread, percent of one CPU */
#define ORCH_BOUND_GUEST_PCT  90.0  /* a VM's vCPU threads, mean */
#define ORCH_BOUND_CLIENT_PCT 90.0  /* oltp's CPU over its event threads */
#define ORCH_BOUND_UTIL_PCT   90.0  /* the device busy (host view) */

/* One VM of the drive (any repetition). */
typedef struct orch_bound_vm {
    const char        *name;
    const res_io_qemu *qemu;        /* NULL: not sampled */
    double             client_pct;  /* oltp's CPU, percent of its event
                                     * threads' capacity; NAN: unknown */
} orch_bound_vm;

typedef struct orch_bound_in {
    bool   tcg;                     /* the VMs ran under TCG */
    double host_cpu_pct;            /* NAN: not sampled */
    double util_pct, queue_depth;   /* the device; NAN: no host view */
    bool   user_net;                /* client = host over QEMU's user-mode
                                     * network (its main loop carries it) */
    const orch_bound_vm *vms;
    int    nvms;
} orch_bound_in;

/* The verdict on in, with its figures and evidence, into *out (its
 * strings owned by out; any it held are freed). 0, or -1 when out of
 * memory. */
int orch_bound_judge(const orch_bound_in *in, res_io_bound *out) DB_MUST_CHECK;

/* oltp's event threads for conns connections on ncpu CPUs, as oltp picks
 * them without --event-threads (engine_event_threads): one per
 * connection up to the CPUs, or one per 256 when pooled (a rate or
 * TPC-C terminals). */
int orch_bound_client_threads(int conns, bool pooled, int ncpu);

/* The role of a QEMU thread from its comm (the main loop is the thread
 * whose id is the process's). */
typedef enum { ORCH_QT_VCPU, ORCH_QT_IO, ORCH_QT_MAIN, ORCH_QT_OTHER } orch_qemu_role;
orch_qemu_role orch_bound_thread_role(const char *comm, int is_main);

/* User + system CPU of a /proc/<pid>/task/<tid>/stat text, in clock
 * ticks; -1 when unreadable. */
long long orch_bound_stat_ticks(const char *stat);

#endif
