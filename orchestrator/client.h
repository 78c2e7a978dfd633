/*
 * client.h — where `oltp` runs, as one table of operations per place:
 * orch_client_host (client_host.c) runs it on this host against each VM's
 * forwarded loopback port; orch_client_guest (client_guest.c) runs it
 * inside each guest through the QEMU guest agent, which also reaches VMs
 * on other hosts. Only run.c dispatches through these tables.
 */
#ifndef ORCH_CLIENT_H
#define ORCH_CLIENT_H

#include <stdio.h>
#include <libvirt/libvirt.h>
#include "layout.h"
#include "plan.h"

/* Send one guest agent command (JSON text) to dom; returns the reply
 * (caller frees) or NULL on error. The default is
 * virDomainQemuAgentCommand; tests put a stand-in here. */
typedef char *(*orch_agent_fn)(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s);

typedef struct orch_client {
    const orch_plan *plan;
    orch_agent_fn    agent;
    void            *agent_ctx;
    FILE            *out;               /* progress and messages */
    int              progress_every;    /* seconds */
} orch_client;

typedef struct orch_client_ops {
    const char *name;
    int in_guest;       /* 1: argv paths and port are the guest's view */
    /* Wait until vm's database accepts a login. 0, or -1 with err. */
    int (*wait_ready)(const orch_client *c, orch_vm *vm, int timeout_s, char *err,
                      size_t errlen);
    /* Run argvs[i] for vms[i], all at once, until all end; the result JSON
     * of VM i must end up at results[i] on this host (NULL for commands
     * without one). Returns 0, -1 (reported on c->out), or
     * ORCH_RUN_INTERRUPTED on a stop request. */
    int (*run_phase)(const orch_client *c, orch_vm *vms, int nvms, char ***argvs,
                     char **guest_results, char **results, const char *phase, int expected_s);
} orch_client_ops;

extern const orch_client_ops orch_client_host;
extern const orch_client_ops orch_client_guest;

/* "[ 10s ] thds: 8 tps: 123.45 qps: ..." -> 123.45. 0, or -1 when the line
 * is not an interval report. */
int orch_parse_tps(const char *line, double *tps);

/* One progress line: "[phase 12s/60s] d1-vm1 10.2 ... | total 20.4 tps". */
void orch_progress(FILE *out, const orch_vm *vms, int nvms, const char *phase, int elapsed,
                   int expected);

/* The default agent transport (virDomainQemuAgentCommand). */
char *orch_agent_libvirt(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s);

#endif
