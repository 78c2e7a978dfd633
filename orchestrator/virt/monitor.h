/*
 * monitor.h — one watcher for the VMs of a run: libvirt's domain events
 * (lifecycle, I/O errors, watchdog, reboot) and each connection's close,
 * delivered on one event-loop thread, plus periodic timers on that same
 * thread (for samplers such as drive telemetry).
 *
 * A VM that stops, crashes, reboots, pauses (an I/O error, a watchdog, or
 * anyone's suspend) while it is watched is marked failed with a reason and
 * the time; the first failure is kept. A VM may be allowed to reboot
 * while it boots (Windows): counted until its database answers, a fault
 * after. Other parts of the run mark
 * failures they see themselves (oltp's exit status, a database that stops
 * answering) with orch_monitor_fail(), which is also the seam tests use to
 * inject faults that libvirt's test driver cannot produce (I/O errors).
 *
 * Threads: the event callbacks and timers run on the event thread; every
 * other function may be called from any thread. Readers get copies.
 */
#ifndef ORCH_MONITOR_H
#define ORCH_MONITOR_H

#include "attributes.h"

#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <libvirt/libvirt.h>

/* Start libvirt's default event loop on its own thread. Must run before
 * the connections whose events are wanted are opened (remote drivers bind
 * their event delivery at open). Idempotent. 0, or -1 with err. */
int orch_events_start(char *err, size_t errlen) DB_MUST_CHECK;
/* Stop and join the event thread (at exit; optional). */
void orch_events_stop(void);

/* Why a VM failed, as a closed choice; the text says the rest. */
#define ORCH_FAULTS(X) \
    X(NONE, "none") X(STOPPED, "stopped") X(CRASHED, "crashed") X(REBOOTED, "rebooted") \
    X(PAUSED, "paused") X(IO_ERROR, "io-error") X(DISK_FULL, "disk-full") \
    X(WATCHDOG, "watchdog") X(CLIENT, "client") X(DATABASE, "database") \
    X(CONNECTION, "connection") X(NO_TRANSACTIONS, "no-transactions") X(RESULT, "result")
#define ORCH_FAULT_ENUM(id, text) ORCH_FAULT_##id,
typedef enum { ORCH_FAULTS(ORCH_FAULT_ENUM) ORCH_FAULT_COUNT } orch_fault;
#undef ORCH_FAULT_ENUM

/* "stopped", "disk-full", ... (the `fault` of results/SCHEMA.md). */
const char *orch_fault_name(orch_fault f);

typedef struct orch_health {
    orch_fault fault;           /* ORCH_FAULT_NONE: healthy */
    char       reason[256];     /* one line for people */
    time_t     at;              /* when it was seen (UTC seconds) */
    int        boot_reboots;    /* reboots before its database first answered,
                                 * when tolerated (orch_monitor_boot_reboots);
                                 * -1: every reboot is a fault */
} orch_health;

typedef struct orch_monitor orch_monitor;

/* A monitor writing one line per fault to log (may be NULL). NULL when
 * out of memory. */
orch_monitor *orch_monitor_new(FILE *log);
/* Deregisters every callback and timer; accepts NULL. */
void orch_monitor_free(orch_monitor *m);

/* Watch conn's domain events and its closing (uri names it in messages).
 * Several calls for one connection register once. 0, or -1 with err. */
int orch_monitor_watch_conn(orch_monitor *m, virConnectPtr conn, const char *uri,
                            char *err, size_t errlen) DB_MUST_CHECK;
/* Nonzero once conn closed unexpectedly (libvirtd stopped, network lost). */
int orch_monitor_conn_lost(orch_monitor *m, virConnectPtr conn);
/* Forget that conn was lost (after a reconnect replaced it). */
void orch_monitor_conn_reset(orch_monitor *m, virConnectPtr conn);

/* Watch dom as VM `name` on drive `drive` (both copied). Returns the VM's
 * slot (>= 0) for the calls below, or -1 when out of memory. */
int orch_monitor_add(orch_monitor *m, virDomainPtr dom, const char *name, const char *drive) DB_MUST_CHECK;
/* Stop counting events of every VM as faults (before teardown destroys
 * them) and forget them; slots start again at 0. */
void orch_monitor_clear(orch_monitor *m);

/* Let VM `slot` reboot until orch_monitor_ready(): each reboot is counted
 * in its health's boot_reboots, not a fault (Windows restarts while it
 * boots: specialize, updates). For a domain whose on_reboot is restart. */
void orch_monitor_boot_reboots(orch_monitor *m, int slot);
/* VM `slot`'s database answered readiness: from now on a reboot is a
 * fault ("rebooted"), tolerated or not before. */
void orch_monitor_ready(orch_monitor *m, int slot);

/* Mark VM `slot` failed (the first fault is kept; later ones are
 * ignored). printf-style reason. */
void orch_monitor_fail(orch_monitor *m, int slot, orch_fault f, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Copy VM slot's health into *h. Returns 1 when it failed, else 0. */
int orch_monitor_health(orch_monitor *m, int slot, orch_health *h);
/* Failed VMs so far. */
int orch_monitor_failures(orch_monitor *m);

/* Call fn(ctx) every ms milliseconds on the event thread until
 * orch_monitor_free. 0, or -1 when no timer could be added. */
int orch_monitor_every(orch_monitor *m, int ms, void (*fn)(void *ctx), void *ctx) DB_MUST_CHECK;

/* What the monitor does on a libvirt event, exposed so tests can replay
 * events the test driver never sends. */
void orch_monitor_on_lifecycle(orch_monitor *m, virDomainPtr dom, int event, int detail);
void orch_monitor_on_io_error(orch_monitor *m, virDomainPtr dom, const char *src,
                              const char *dev, int action, const char *reason);
void orch_monitor_on_reboot(orch_monitor *m, virDomainPtr dom);
/* conn closed for reason (VIR_CONNECT_CLOSE_REASON_*): marks it lost
 * unless we closed it ourselves (REASON_CLIENT). */
void orch_monitor_on_close(orch_monitor *m, virConnectPtr conn, int reason);

#endif
