/*
 * virt_error.h — libvirt's errors, reported by us once, where they happen
 * and with their context: libvirt's own default handler, which prints
 * every error to stderr, is silenced, and a message reads the last error
 * through orch_virt_error().
 */
#ifndef ORCH_VIRT_ERROR_H
#define ORCH_VIRT_ERROR_H

/* Last libvirt error message of this thread, copied into this thread's
 * buffer (valid until its next call in the thread). */
const char *orch_virt_error(void);

/* Replace libvirt's default error handler by a silent one, once per
 * process and safely from any thread. Every entry point that opens a
 * connection calls it (orch_conns_new, orch_hosts_teardown). */
void orch_virt_error_init(void);

#endif
