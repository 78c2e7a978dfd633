/*
 * hosts.h — the hosts of a run: what each one is (for the summary), the
 * list of them kept in the run folder, and teardown that reaches all of
 * them.
 *
 * A run's hosts are the distinct libvirt URIs of its drives. They are
 * written to RUN_DIR/hosts (one URI a line, plan order) before anything
 * is created, so `drivebench teardown RUN-ID` finds every host of a run
 * that crashed without being told its URIs.
 */
#ifndef ORCH_HOSTS_H
#define ORCH_HOSTS_H

#include "attributes.h"

#include <stdio.h>
#include <libvirt/libvirt.h>
#include "plan/plan.h"
#include "virt/ledger.h"          /* orch_counts */

struct res_hypervisor;         /* results_env.h */

/* Fill the host fields of h (cpu_model, arch, cpus, cpu_mhz, memory_bytes,
 * kernel) from the host behind conn, opened as uri: virNodeGetInfo, the
 * processor of virConnectGetSysinfo (SMBIOS) or else the CPU model of the
 * capabilities; the kernel release only when uri is on this host (libvirt
 * does not tell another host's). Fields it cannot learn stay NULL / 0.
 * 0, or -1 when out of memory. */
int orch_host_describe(virConnectPtr conn, const char *uri, struct res_hypervisor *h);

/* The first "flags" line of a cpuinfo file (/proc/cpuinfo): its words
 * as one space-separated string (caller frees), or NULL. */
char *orch_cpuinfo_flags(const char *path);

/* Write run_dir/hosts: the distinct URIs of p's drives. 0, or -1 with
 * err. */
int orch_hosts_write(const orch_plan *p, const char *run_dir, char *err, size_t errlen) DB_MUST_CHECK;

/* The URIs in the hosts file at path: a new NULL-terminated array (free
 * with orch_hosts_free), or NULL with err (errno ENOENT when there is no
 * such file). */
char **orch_hosts_read(const char *path, char *err, size_t errlen);
void orch_hosts_free(char **uris);          /* accepts NULL */

/* How often, and from which delay on (doubling), teardown is retried on a
 * host whose objects could not all be removed. */
#define ORCH_TEARDOWN_ATTEMPTS 4
#define ORCH_TEARDOWN_DELAY_MS 500

/* Remove every object named prefix* on each of uris (NULL-terminated),
 * each attempt on a new connection (the run's may be the one that
 * dropped), up to `attempts` times per host with delay_ms, 2*delay_ms, ...
 * in between. Messages on log (may be NULL); what was removed is added to
 * *removed. Returns the number of hosts left with objects, or that could
 * not be reached. */
int orch_hosts_teardown(const char *const *uris, const char *prefix, int attempts,
                        int delay_ms, FILE *log, orch_counts *removed);

/* orch_hosts_teardown of run run_id on the hosts listed in
 * run_dir/hosts, ORCH_TEARDOWN_ATTEMPTS times from ORCH_TEARDOWN_DELAY_MS.
 * Returns the number of hosts left unclean, or -1 with err when the hosts
 * file cannot be read (errno ENOENT: there is none). */
int orch_hosts_teardown_run(const char *run_dir, const char *run_id, FILE *log,
                            orch_counts *removed, char *err, size_t errlen) DB_MUST_CHECK;

#endif
