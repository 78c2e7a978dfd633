/*
 * agent.h — the QEMU guest agent, as every layer that talks to a guest
 * uses it (clients/client_guest.c runs oltp through it, telemetry/
 * guest_view.c reads the guest's disk statistics): one command sent
 * through a transport that tests replace, its "return" member, and the
 * base64 text guest-exec and guest-file-read return data in.
 */
#ifndef ORCH_AGENT_H
#define ORCH_AGENT_H

#include "attributes.h"

#include <stddef.h>
#include <json-c/json.h>
#include <libvirt/libvirt.h>

/* Send one guest agent command (JSON text) to dom; returns the reply
 * (caller frees) or NULL on error. The default is
 * virDomainQemuAgentCommand; tests put a stand-in here. */
typedef char *(*orch_agent_fn)(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s);

/* The default transport (virDomainQemuAgentCommand). */
char *orch_agent_libvirt(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s);

/* Send {"execute":name,"arguments":args} to dom through fn (takes args,
 * which may be NULL) and wait up to timeout_s; who names the guest in
 * messages. Returns the reply's "return" member (new reference), or NULL
 * with "WHO: guest agent NAME failed: why" (or "unexpected reply") in err. */
json_object *orch_agent_call(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                             const char *name, json_object *args, int timeout_s,
                             char *err, size_t errlen);

/* Start argv in dom's guest (guest-exec, output captured) with env
 * ("NAME=VALUE", NULL-terminated; NULL: the agent's own). Returns the
 * guest's pid, or -1 with err. */
long orch_agent_exec_start(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                           const char *const *argv, const char *const *env, int timeout_s,
                           char *err, size_t errlen) DB_MUST_CHECK;

/* Poll a guest process started by orch_agent_exec_start. 1 when it
 * ended: *status is its exit code, or 128 + N when signal N ended it (a
 * shell's rule, the one for every guest process), -1 when the agent says
 * neither; *out and *errout (either may be NULL) its decoded output, new
 * strings or NULL. 0 while it runs; -1 with err. */
int orch_agent_exec_status(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                           long pid, int timeout_s, int *status, char **out, char **errout,
                           char *err, size_t errlen) DB_MUST_CHECK;

/* Run script with /bin/sh -c in dom's guest (guest-exec, output
 * captured) and wait up to wait_ms for it to end, polling every 100 ms.
 * Returns its standard output (new string, "" when none) and its exit
 * status in *exitcode (orch_agent_exec_status's rule), or NULL with err (no agent, no shell, not ended). */
#define ORCH_AGENT_SH_TIMEOUT_S 10
char *orch_agent_sh(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                    const char *script, int wait_ms, int *exitcode, char *err, size_t errlen);

/* Decode base64 text; returns a new NUL-terminated buffer (caller frees)
 * and its length in *len, or NULL on bad input or out of memory. */
char *orch_b64_decode(const char *in, size_t *len);

/* Encode n bytes of data as base64 text (new string, caller frees), or
 * NULL when out of memory. */
char *orch_b64_encode(const char *data, size_t n);

#endif
