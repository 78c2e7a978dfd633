/*
 * passt.h — network = passt (plan key [run] network; README, "The guest
 * network"): each VM's NIC is QEMU's -netdev stream to a passt of its
 * own, and that passt runs in a network namespace of its own, named as
 * the domain, so that nothing the guest sends can leave it:
 *
 *   - the namespace holds its loopback and a veth pair whose two ends
 *     are both inside (d0 10.0.3.15/24 with a default route via
 *     10.0.3.2, d1 without an address), forwarding off: passt copies its
 *     guest-side address from d0, and a packet routed out dies at d1;
 *   - passt forwards only TCP 127.0.0.1:PORT (in the namespace) to the
 *     guest's database port, with UDP, ICMP, NDP, DHCPv6, RA and the
 *     DHCP DNS options off and IPv4 only;
 *   - every host-side connection to the VM's database (oltp's phases,
 *     its ping) is made inside the namespace (util/command.h,
 *     orch_command_netns).
 *
 * passt daemonizes; its PID file NAME.pid and its socket (plan/layout.h:
 * ORCH_PASST_DIR) are how drivebench finds and stops it by PID. A run
 * records the network in its ledger before creating it (ledger.h,
 * orch_ledger_add_net), so teardown stops passt after the domain and
 * deletes the namespace; `drivebench teardown` and `resume` find a
 * killed run's by the names' prefix (orch_passt_teardown_prefix).
 * Needs root (ip netns) and this host: client = host reaches only local
 * VMs.
 */
#ifndef ORCH_PASST_H
#define ORCH_PASST_H

#include "attributes.h"

#include <stdio.h>

/* "/run/netns/NAME", the namespace's file (orch_command_netns). New
 * string, NULL when out of memory. */
char *orch_passt_netns_path(const char *name);

/* Create namespace name and start passt (the program passt, PATH
 * looked up) in it, listening on sock for QEMU and forwarding
 * 127.0.0.1:port in the namespace to guest_port. Whatever was left of a
 * network of the same name goes first. 0, or -1 with err; what was
 * created by then is left for orch_passt_stop (the caller recorded it). */
int orch_passt_start(const char *passt, const char *name, const char *sock, int port,
                     int guest_port, char *err, size_t errlen) DB_MUST_CHECK;

/* Stop name's passt by its PID file (SIGTERM, SIGKILL after 5 s; only
 * a process that is passt), remove its PID file and socket, delete its
 * namespace. 1 when something was removed, 0 when nothing was there, -1
 * when something could not be removed (said on log, which may be NULL). */
int orch_passt_stop(const char *name, FILE *log);

/* orch_passt_stop for every network whose name starts with prefix (a
 * run's "drivebench-<runid>--"). Adds the networks removed to *removed
 * (may be NULL); returns how many could not be removed. */
int orch_passt_teardown_prefix(const char *prefix, FILE *log, int *removed);

#endif
