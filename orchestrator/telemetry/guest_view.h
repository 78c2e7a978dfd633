/*
 * guest_view.h — the guest's own view of its database disk (issue 23):
 * its /proc/diskstats line, read through the QEMU guest agent while the
 * sampled phases run, on the telemetry's interval, beside the
 * hypervisor's view (blockstats.h) and the host's (host_drive.h).
 *
 * The database disk is the one whose serial is "dbdisk" (vmconfigs/):
 * /dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_dbdisk on virtio-scsi and LSI
 * SAS (or its -S / virtio- / ata- twins, as images/guest's drivebench-dbdisk
 * looks for it), resolved once per VM with `readlink -f` through
 * guest-exec to its kernel name ("sdb"). Only that whole disk's line is
 * used: its partitions and the devices stacked on it (dm, md) are other
 * lines, so nothing is counted twice.
 *
 * The agent is slow under TCG (0.1 s a call or more), so the guest view
 * is sampled by a thread of its own, never on the monitor's timer: a
 * sample's time is the middle of its guest-file-read call (CLOCK_MONOTONIC),
 * and its intervals are matched to the TPS intervals as the host's are
 * (ioagg.h, orch_io_match_host).
 *
 * Only for Linux guests with the agent ([run] guest_agent = yes,
 * guest_os = linux); otherwise, and when the agent does not answer or no
 * such disk exists, the VM's note says why (tel_guest_note).
 */
#ifndef ORCH_GUEST_VIEW_H
#define ORCH_GUEST_VIEW_H

#include "attributes.h"

#include <stdio.h>
#include <libvirt/libvirt.h>

#include "telemetry/host_drive.h"
#include "virt/virt.h"

/* The line of disk `name` in a /proc/diskstats text ("MAJ MIN NAME
 * fields..."), exactly that name (not "sdb1" for "sdb"), into *s
 * (orch_diskstat_parse; s->t left alone). 0, or -1 when there is no such
 * line or it has fewer than 11 numbers. */
int tel_guest_diskstats_line(const char *text, const char *name, orch_diskstat *s) DB_MUST_CHECK;

/* The kernel name of a `readlink -f` output ("/dev/sdb\n" -> "sdb") into
 * out. 0, or -1 when it is not a /dev path of a plain name. */
int tel_guest_disk_name(const char *readlink_out, char *out, size_t outlen) DB_MUST_CHECK;

typedef struct tel_guest tel_guest;

/* A sampler sending agent commands through fn (NULL: orch_agent_libvirt)
 * every interval_ms while a phase runs; messages on out. no_thread: tests
 * sample by hand (tel_guest_sample_at). NULL when out of memory. */
tel_guest *tel_guest_new(orch_agent_fn fn, void *ctx, int interval_ms, int no_thread,
                         FILE *out);
/* Stops and joins the thread; accepts NULL. */
void tel_guest_free(tel_guest *g);
/* VM `name` of repetition rep runs as dom (referenced until freed), or
 * has no guest view for reason `why` (dom NULL). Index, or -1 when out of
 * memory. */
int tel_guest_add(tel_guest *g, virDomainPtr dom, const char *name, int rep, const char *why) DB_MUST_CHECK;
/* A phase of repetition rep starts / ends: the VMs of rep are sampled
 * between the two (their intervals forgotten at the start). */
void tel_guest_phase_start(tel_guest *g, int rep);
void tel_guest_phase_end(tel_guest *g);
/* One round over the VMs being sampled, now (what the thread does), or
 * with the samples' time `at` (tests; at < 0: now). */
void tel_guest_sample_all(tel_guest *g);
void tel_guest_sample_at(tel_guest *g, double at);
/* Copy of VM i's intervals since the phase start (caller frees; NULL when
 * none). Count, or -1 for an unknown index or out of memory. */
int tel_guest_series(tel_guest *g, int i, orch_diskstat_delta **out) DB_MUST_CHECK;
/* Why VM i has no guest view (a copy into buf, "" when it has one). */
void tel_guest_note(tel_guest *g, int i, char *buf, size_t len);

#endif
