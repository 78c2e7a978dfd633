/*
 * layout.h — the VMs a plan makes: names, pools, volumes, ports, console
 * logs, and what each runs. Pure: no hypervisor is touched here, so
 * `render` prints exactly what `run` defines. What exists only while a run
 * goes (connections, domains, oltp processes) is kept by run.c and the
 * clients (client.h), not here.
 */
#ifndef ORCH_LAYOUT_H
#define ORCH_LAYOUT_H

#include "plan/plan.h"
#include "plan/template.h"
#include "plan/placement.h"
#include "results_base.h"     /* res_phase_id */

typedef struct orch_vm {
    char *name;                 /* drivebench-<runid>--<drive>-vm<N> */
    const orch_drive *drive;
    int   drive_index;          /* index into plan->drives */
    int   index;                /* 1-based within the drive */
    char  uuid[37];             /* repetition 1's (orch_layout_uuid) */
    char *pool;                 /* pool holding its volumes */
    char *boot_vol, *db_vol, *seed_vol;     /* seed_vol NULL if no seed disk */
    int   port;                 /* host loopback port forwarded to the
                                 * engine's guest port (a run moves it to a
                                 * free one) */
    orch_vm_place place;        /* [run] pinning: where it runs on its host
                                 * (nvcpus 0: not pinned) */
} orch_vm;

typedef struct orch_layout {
    char    *run_id;
    char    *run_dir;           /* absolute results/<run-id> */
    char   **drive_pools;       /* pool name per plan drive */
    orch_vm *vms;
    int      nvms;
} orch_layout;

/* 1 when plan p's VMs have a prebuilt-database seed volume each, their
 * database volumes restored from it: the profile t has a seed disk
 * (attached read-only), or the user's image attaches the databases it
 * finds ([run] image_attaches_databases) and prepare is not "yes" (no
 * seed disk attached: only the database disk is a copy of the seed). */
int orch_layout_has_seed(const orch_plan *p, const orch_template *t);

/* Capacity in bytes of the seed volume: [run] seed_size, else the
 * profile's seed disk, else (a user's image without one) the database
 * disk's: db_size or the profile's. */
uint64_t orch_layout_seed_size(const orch_plan *p, const orch_template *t);

/* Build the layout of plan p for run_id, ports from p->port_base on.
 * Returns NULL when out of memory. Free with orch_layout_free. */
orch_layout *orch_layout_new(const orch_plan *p, const char *run_id, int has_seed);
void orch_layout_free(orch_layout *l);      /* accepts NULL */

/* The UUID of vm's domain in repetition rep: repetition 1's is the
 * name's (vm->uuid), each later one its own, so that an event of the
 * previous repetition's domain, destroyed but still queued, can never be
 * taken for the new one's (the monitor finds VMs by UUID). */
void orch_layout_uuid(const orch_vm *vm, int rep, char out[37]);

/* Domain XML of vm for repetition rep (console log per repetition).
 * New string, or NULL with err. */
char *orch_layout_render(const orch_layout *l, const orch_plan *p, const orch_template *t,
                         const orch_vm *vm, const char *domain_type, int rep,
                         char *err, size_t errlen);

/* network = passt (virt/passt.h): each VM's passt keeps its PID file
 * (NAME.pid, NAME the domain's) and its socket here, and runs in the
 * network namespace NAME; teardown finds a run's by the names' prefix. */
#define ORCH_PASST_DIR "/run/drivebench/passt"

/* The socket of vm's passt, QEMU's -netdev stream: ORCH_PASST_DIR/<its
 * UUID>.sock (a domain name can pass the 108 bytes of a socket's path).
 * New string, NULL when out of memory. */
char *orch_layout_passt_socket(const orch_vm *vm);

/* Paths inside the run folder, relative to it: "vm/<vm>.r<rep>.json",
 * "vm/<vm>.r<rep>.<phase>.json" for other phases (res_phase_name),
 * "console/<vm>.r<rep>.log". */
char *orch_layout_result(const orch_vm *vm, int rep, res_phase_id phase);
/* Round `round` (1-based) of the precondition of repetition rep:
 * "vm/<vm>.r<rep>.precondition.<round>.json". */
char *orch_layout_round_result(const orch_vm *vm, int rep, int round);
char *orch_layout_console(const orch_vm *vm, int rep);

/* oltp's --report-interval for every run phase, s: its intervals, the
 * summary's time bins and the telemetry's sampling. */
#define ORCH_REPORT_INTERVAL_S 1

/* argv for the oltp binary at path `oltp` against the database on
 * 127.0.0.1:port, through the plan's driver with the engine's connection
 * options (dbengine.h; the password never: the client puts it in the
 * driver's environment variable): command "run" (with json_path, time_s
 * and warmup_s) or "prepare". time_s is the measured time (0: until
 * done), warmup_s comes before it: oltp runs --time=time_s + warmup_s.
 * NULL-terminated, free with orch_argv_free. */
/* `oltp ... --server-settings=NAME=VALUE;... --json=JSON_PATH settings`
 * (oltp/settings.h): the server's read-back before the measurement, the
 * plan's [settings] stated. New argv, or NULL when out of memory. */
char **orch_oltp_settings_argv(const orch_plan *p, const char *oltp, int port,
                               const char *json_path);
/* "vm/NAME.rREP.server.json": where a VM's read-back lands, relative to
 * the run folder (new string, NULL when out of memory). */
char *orch_layout_server_result(const orch_vm *vm, int rep);
char **orch_oltp_argv(const orch_plan *p, const char *oltp, int port, const char *command,
                      int time_s, int warmup_s, const char *json_path);
void orch_argv_free(char **argv);

/* argv of `oltp ... --connect-timeout=timeout_s ping` against 127.0.0.1:port
 * (readiness; exit codes in oltp/ping.h). Free with orch_argv_free. */
char **orch_oltp_ping_argv(const orch_plan *p, const char *oltp, int port, int timeout_s);

/* "kvm" when /dev/kvm exists, else "qemu" (test_render; drivebench render
 * and run measure instead: virt/kvm.h). */
const char *orch_local_domain_type(const orch_plan *p);

#endif
