/*
 * teardown.h — removing a run's objects by their names, without its
 * ledger: what a crashed run left, found because every object of a run
 * is named "drivebench-<runid>--..." and only those are touched; and the
 * counts every teardown prints.
 */
#ifndef ORCH_TEARDOWN_H
#define ORCH_TEARDOWN_H

#include <stdio.h>
#include <libvirt/libvirt.h>
#include "virt/ledger.h"

/* Remove every domain, volume and pool on conn whose name starts with
 * prefix, then this host's passt networks of those names (passt.h).
 * Returns the number that could not be removed. */
int orch_teardown_prefix(virConnectPtr conn, const char *prefix, FILE *log,
                         orch_counts *removed);

/* "removed D domain(s), V volume(s), P pool(s)" to out, and "; stopped N
 * passt network(s)" when N > 0: every teardown line's counts. */
void orch_teardown_print_counts(FILE *out, const orch_counts *c);

#endif
