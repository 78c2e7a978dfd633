/*
 * provision.h — libvirt objects of a run: connections, storage pools,
 * volumes, domains, and their teardown.
 *
 * Every object a run creates is recorded in a ledger the moment it exists;
 * orch_ledger_teardown() removes them in reverse order whatever happened.
 * orch_teardown_prefix() finds a crashed run's leftovers by name instead:
 * only objects whose names start with "drivebench-<runid>--" are touched.
 */
#ifndef ORCH_PROVISION_H
#define ORCH_PROVISION_H

#include "attributes.h"

#include <stdint.h>
#include <stdio.h>
#include <libvirt/libvirt.h>

/* ORCH_OBJ_NET: a VM's passt and its network namespace (passt.h) */
typedef enum { ORCH_OBJ_POOL, ORCH_OBJ_VOLUME, ORCH_OBJ_DOMAIN, ORCH_OBJ_NET } orch_obj_kind;

typedef struct orch_counts {
    int domains, volumes, pools;
    int nets;                   /* passt networks (passt.h) */
} orch_counts;

/* Open connections, one per URI, shared by everything in a run. */
typedef struct orch_conns orch_conns;
orch_conns *orch_conns_new(void);
/* The connection to uri, opened on first use. Borrowed: valid until
 * orch_conns_free. NULL with a message in err when it cannot be opened. */
virConnectPtr orch_conns_open(orch_conns *c, const char *uri, char *err, size_t errlen);
void orch_conns_free(orch_conns *c);          /* closes all; accepts NULL */
/* After old closed (libvirtd restarted): conn, a new connection to the
 * same URI, takes its place, so later opens of that URI return conn. c
 * takes over the caller's reference to conn and drops its own to old.
 * 0, or -1 when old is not one of c's. */
int orch_conns_replace(orch_conns *c, virConnectPtr old, virConnectPtr conn) DB_MUST_CHECK;

/* Objects are recorded safely from several threads at once (restore.c);
 * teardown and free are for one thread, after those are done. */
typedef struct orch_ledger orch_ledger;
orch_ledger *orch_ledger_new(void);
void orch_ledger_free(orch_ledger *l);        /* does not tear down; accepts NULL */
int  orch_ledger_count(const orch_ledger *l);
/* Objects recorded on old are from now on looked up (by name) on conn:
 * after a reconnect, teardown goes through the connection that answers. */
void orch_ledger_rebind(orch_ledger *l, virConnectPtr old, virConnectPtr conn);

/* Remove every recorded object, newest first, and empty the ledger.
 * Problems are printed on log (may be NULL). Adds what was removed to
 * *removed (may be NULL). Returns the number of objects that could not be
 * removed (0 = clean). */
int orch_ledger_teardown(orch_ledger *l, FILE *log, orch_counts *removed);

/* Record the passt network of domain name (passt.h) before it is
 * created: teardown stops its passt and deletes its namespace. conn is
 * the domain's. 0, or -1 when out of memory. */
int orch_ledger_add_net(orch_ledger *l, virConnectPtr conn, const char *name) DB_MUST_CHECK;

/* Start a transient directory pool `name` on path (the drive under test).
 * Returns the pool (caller virStoragePoolFree) or NULL with err. */
virStoragePoolPtr orch_pool_create_dir(virConnectPtr conn, orch_ledger *l, const char *name,
                                       const char *path, char *err, size_t errlen);
/* An existing, active pool by name (not recorded: the run does not own it). */
virStoragePoolPtr orch_pool_lookup(virConnectPtr conn, const char *name,
                                   char *err, size_t errlen);

/* The <volume> XML of orch_vol_create; with mode (e.g. "0644") the volume
 * gets those permissions and starts empty, as the target of an upload.
 * Caller frees; NULL when out of memory. */
char *orch_vol_xml(const char *name, const char *format, uint64_t capacity, const char *backing,
                   const char *mode);

/* Create volume `name` in pool: format "raw" or "qcow2", capacity in
 * bytes; with backing (a path) it is a qcow2 overlay on that qcow2 file;
 * with from it is a copy of that volume. Returns the volume (caller
 * virStorageVolFree) or NULL with err. */
virStorageVolPtr orch_vol_create(virStoragePoolPtr pool, orch_ledger *l, const char *name,
                                 const char *format, uint64_t capacity, const char *backing,
                                 virStorageVolPtr from, char *err, size_t errlen);

/* Define the domain from xml and start it. Returns the domain (caller
 * virDomainFree) or NULL with err; a defined domain is recorded even when
 * starting it fails. */
virDomainPtr orch_domain_start(virConnectPtr conn, orch_ledger *l, const char *xml,
                               char *err, size_t errlen);

/* 1 when dom restarts on a guest reboot (its on_reboot is restart, or
 * absent: libvirt's default), 0 when it does not (destroy, ...), -1 when
 * its XML cannot be read. */
int orch_domain_restarts_on_reboot(virDomainPtr dom) DB_MUST_CHECK;

/* Remove every domain, volume and pool on conn whose name starts with
 * prefix, then this host's passt networks of those names (passt.h).
 * Returns the number that could not be removed. */
int orch_teardown_prefix(virConnectPtr conn, const char *prefix, FILE *log,
                         orch_counts *removed);

/* "removed D domain(s), V volume(s), P pool(s)" to out, and "; stopped N
 * passt network(s)" when N > 0: every teardown line's counts. */
void orch_teardown_print_counts(FILE *out, const orch_counts *c);

/* Call fn for every drivebench object on conn (any run): kind, name, and
 * the pool for volumes. Returns 0 or -1 with err. */
typedef void (*orch_list_fn)(void *ctx, orch_obj_kind kind, const char *name,
                             const char *pool);
int orch_list_objects(virConnectPtr conn, orch_list_fn fn, void *ctx, char *err, size_t errlen) DB_MUST_CHECK;

/* "kvm" when the host behind conn offers KVM for x86_64, else "qemu";
 * NULL with err when capabilities cannot be read. Static string. */
const char *orch_domain_type_for(virConnectPtr conn, char *err, size_t errlen);

/* Last libvirt error message of this thread, copied into this thread's
 * buffer (valid until its next call in the thread). */
const char *orch_virt_error(void);

/* libvirt's errors are reported by us, once, where they happen and with
 * their context (orch_virt_error): its default handler, which prints
 * every error to stderr, is replaced by a silent one, once per process
 * and safely from any thread. Every entry point that opens a connection
 * calls it (orch_conns_new, orch_hosts_teardown). */
void orch_virt_errors_init(void);

#endif
