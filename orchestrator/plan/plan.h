/*
 * plan.h — the plan file: what to run, on which drives, how.
 *
 * A plan is an INI file (parsed with inih) with a [run] section, a
 * [workload] section and one [drive NAME] section per drive under test.
 * Every key is documented in plans/README.md. orch_plan_load() parses and
 * validates in one pass and reports every problem as "FILE:LINE: message".
 */
#ifndef ORCH_PLAN_H
#define ORCH_PLAN_H

#include "attributes.h"

#include <stdint.h>
#include <stdio.h>
#include "plan/dbengine.h"  /* the database engine the VMs serve */
#include "plan/template.h"  /* the guest's OS, NIC and firmware choices */
#include "util/util.h"     /* durations and sizes of plan values */

typedef enum { ORCH_CLIENT_HOST, ORCH_CLIENT_GUEST } orch_client_kind;
/* How client = host reaches each VM's database (plan key network, choices
 * in this order): QEMU's user-mode network with a loopback hostfwd, or
 * passt in a network namespace of the VM's own (virt/passt.h). */
typedef enum { ORCH_NET_USER, ORCH_NET_PASST } orch_network;
/* What a precondition's steady state is judged on (plan key steady_track,
 * choices in this order). */
typedef enum { ORCH_TRACK_TPS, ORCH_TRACK_P99 } orch_steady_track;

/* A K_INT or K_DUR key that takes a word instead of a number (precondition
 * = until-steady, repetitions = auto) holds this until plan_check. */
#define ORCH_PLAN_WORD (-1)

/* [run] device_latency: trace the drive's own request latencies
 * (telemetry/devlat.h). auto: where the host allows it, one line when
 * not; on: the same, and a drive that cannot be traced is an error line;
 * off: never. */
typedef enum { ORCH_DEVLAT_AUTO, ORCH_DEVLAT_ON, ORCH_DEVLAT_OFF } orch_devlat_mode;

/* [run] settings_mismatch: a read-back server setting that differs from
 * the plan's [settings] refuses the run before measuring, or warns. */
typedef enum { ORCH_MISMATCH_REFUSE, ORCH_MISMATCH_WARN } orch_mismatch_mode;

/* One line of [settings]: a server setting the plan states, in the
 * engine's own name (issue 44; plans/README.md "Server settings"). */
typedef struct orch_setting {
    char *name, *value;
    int   line;
} orch_setting;

typedef struct orch_drive {
    char *name;          /* as written in the plan */
    char *id;            /* sanitized name, used in object names */
    char *path;          /* directory for a run-owned dir pool, or NULL */
    char *pool;          /* existing storage pool to use, or NULL */
    char *uri;           /* libvirt URI, or NULL for the run's */
    int   vms;           /* VMs on this drive; 0 = [run] vms_per_drive */
    double rate;         /* a capacity probe's open-loop rate for each of
                          * its VMs (not a plan key); 0: [workload] rate */
    /* where the guest image lives on the drive's host (upload.h): an
     * existing pool, or a folder the run makes a pool of; both NULL = the
     * plan's image_dir, at the same path on that host */
    char *image_pool;
    char *image_pool_path;
    int   line;          /* line of the section header */
} orch_drive;

typedef struct orch_plan {
    char *file;                 /* path the plan was read from */
    char *text;                 /* the bytes that were parsed (the run's copy and a
                                   sweep's steps come from these, not the file again) */
    size_t text_len;
    /* [run] */
    char *name;
    char *engine_name;          /* [run] engine (dbengine.h) */
    const orch_dbengine *engine;/* resolved from engine_name (never NULL
                                 * in a loaded plan) */
    int   guest_agent;          /* 1: the image runs the QEMU guest agent */
    char *image;                /* the user's own boot image (absolute), or
                                 * NULL: image_dir's base.qcow2 */
    char *kernel, *initrd, *cmdline;    /* direct boot of a user's image;
                                 * no kernel: it boots from its disk */
    char *controller;           /* SCSI controller model, NULL: profile's
                                 * (windows: lsisas1068 unless set) */
    /* The guest's OS and what follows from it, each also its own key;
     * unset keys take guest_os's defaults (plan_parse.c guest_defaults) */
    orch_guest_os guest_os;     /* linux (default) | windows */
    orch_nic    nic;            /* virtio (linux) | e1000e (windows) */
    orch_firmware firmware;     /* bios (default) | efi */
    int   hyperv;               /* 1: Hyper-V enlightenments (windows) */
    int   image_attaches_databases;     /* 1: the user's image attaches
                                 * the databases it finds on its dbdisk,
                                 * so a seed can be restored onto it */
    char *uri;                  /* default qemu:///system */
    char *profile;              /* "tiny", "sysbench", ... or a .xml path */
    char *template_path;        /* resolved profile template */
    char *vmconfigs_dir;
    int   vms_per_drive;
    orch_client_kind client;
    orch_network network;       /* user (default) | passt */
    char *passt;                /* the passt program, default "passt" (PATH) */
    int   repetitions;
    char *image_dir;            /* absolute; default from the engine (NULL
                                 * for an engine drivebench builds no image of) */
    char *results_dir;
    char *oltp;                 /* oltp binary on the host */
    char *guest_oltp;           /* oltp binary inside the guest */
    char *domain_type;          /* "auto", "kvm", "qemu" */
    char *cpu;                  /* guest CPU: "auto" (host-passthrough on
                                 * KVM, max under TCG), a libvirt mode or
                                 * a CPU model name */
    int   vcpus;                /* 0 = the template's */
    uint64_t memory;            /* bytes, 0 = the template's */
    uint64_t boot_size, db_size, seed_size;   /* bytes, 0 = the template's */
    int   boot_timeout_s;
    int   max_outage_s;         /* a measured phase whose database did not
                                 * answer this long fails its VM; 0: off */
    int   libvirt_reconnect_s;  /* how long to try to reconnect to a lost
                                 * libvirt connection before stopping */
    int   port_base;
    double cv_threshold;        /* percent; the report flags drives above it,
                                 * and repetitions = auto repeats until
                                 * every drive's TPS CV is below it */
    /* repetitions = auto (issue 21): repeat until every drive's TPS CV
     * over its complete repetitions is under cv_threshold, at least
     * repetitions_min and at most repetitions_max times; repetitions is
     * then repetitions_max (it sizes the summary's arrays) */
    int   repetitions_auto;
    int   repetitions_min, repetitions_max;
    char *db_settings;          /* server settings "NAME=VALUE ...", or NULL:
                                 * each reaches the guest's kernel command
                                 * line as the engine's cmdline_prefix +
                                 * NAME=VALUE (orch_plan_settings_cmdline) */
    int   overcommit;           /* 1: VMs may need more memory than a host has */
    char *pinning;              /* "off" (default), "auto" or an explicit list
                                 * of cpusets, one per VM (placement.h) */
    int   hugepages;            /* 1: guest memory on huge pages */
    orch_devlat_mode device_latency;
    /* [settings] (issue 44): the server's settings, applied where
     * drivebench can and read back per VM before the measurement */
    orch_setting *settings;
    int   nsettings;
    orch_mismatch_mode settings_mismatch;
    /* the live view (issue 34, live/live.h): "ADDRESS:PORT" to serve
     * OpenMetrics on while the run lasts, or NULL; an address beyond
     * loopback needs metrics_remote = yes */
    char *metrics;
    int   metrics_remote;
    /* a sweep (issue 34, plan/sweep.c): one numeric key given as a list
     * ("threads = 8,16,32,64"), run as one step per value in order; the
     * key's field holds the first value (orch_plan_sweep_step sets
     * another's). sweep_key NULL: no sweep. */
    const char *sweep_key;      /* "threads" (the key table's string) */
    const char *sweep_section;  /* "run" or "workload" */
    double     *sweep_values;   /* [nsweep], increasing */
    int         nsweep;
    int         sweep_line;
    int         sweep_step;     /* the step (1-based) orch_plan_sweep_step
                                 * set: a step's plan; 0: the sweep's own */
    /* a sweep on the same VMs (issue 45, orch_plan_sweep_same_vms): each
     * step's warm-up before its measure, seconds (-1: [workload] warmup),
     * and whether the steps restore the database between them (which
     * makes each step a run of its own, re-provisioned) */
    int         step_warmup_s;
    int         restore_between_steps;
    /* [workload] */
    char *workload;             /* oltp_read_write, ..., tpcc */
    char *db_driver;            /* default from the engine */
    char *db_user, *db_name;
    char *db_password;          /* resolved: literal, from the environment or a file */
    char *db_password_env;      /* name of the variable it came from, or NULL */
    char *db_password_file;     /* path of the file it came from, or NULL */
    char *odbc_driver;          /* odbcinst.ini name or driver path */
    char *encrypt;              /* "yes", "no", "strict" or NULL */
    char *trust_server_certificate;     /* "yes", "no" or NULL */
    /* the client's OpenSSL, handed to oltp only as OPENSSL_CONF in its
     * environment (issue 30; orch_plan_openssl_conf): a security level
     * 0..5 for a configuration drivebench writes, or the user's file;
     * -1 and NULL when unset */
    int   tls_security_level;
    char *openssl_conf;
    int   tables;
    int64_t table_size;
    int   threads;
    int   warehouses;
    int   precondition_s, warmup_s, measure_s;
    /* The precondition runs in rounds of steady_round (issue 21). With
     * precondition = until-steady it stops at the first round whose last
     * steady_window rounds are steady by SNIA's rule (stats.h) for every
     * drive, or at precondition_max; precondition_s is then that maximum
     * (the protocols' 2 h, 2 h 30 min for tpcc, unless set). A fixed
     * precondition runs all its rounds and gets the same verdict. */
    int   precondition_steady;  /* 1: precondition = until-steady */
    int   precondition_max_s;
    int   steady_round_s, steady_window;
    double steady_range_pct, steady_slope_pct;
    orch_steady_track steady_track;
    double rate;
    /* a capacity search (issue 45, run/capacity_search.c): the latency target
     * as written ("p99 <= 10ms"; NULL: none), the resolution in % of the
     * rate, the first probe's and the highest rate per drive
     * (transactions per second, the drive's VMs together) and the most
     * probes per drive */
    char *target;
    double target_resolution_pct, target_start, target_max_rate;
    int   target_max_probes;
    char *prepare;              /* "auto", "yes", "no" */
    char *extra;                /* more oltp options, split on spaces */
    uint64_t expect_database_size;  /* bytes of data the database should hold
                                 * after load (a VM beyond ±20 % is warned
                                 * about); 0: no expectation. Not db_size,
                                 * the volume */
    /* [engine]: SQL Server's database files, sized by TPC-C's prepare
     * before the load (oltp --tpcc-data-size ...; plan_files.c), bytes;
     * 0: as the server has them */
    uint64_t data_size, log_size, data_growth, log_growth;
    /* [drive NAME] ... */
    orch_drive *drives;
    int   ndrives;
} orch_plan;

/* Read and validate the plan at path. On success returns the plan (free
 * with orch_plan_free). On any problem prints every one of them to errs as
 * "PATH:LINE: message" and returns NULL. Warnings ("PATH:LINE: warning:
 * ...", e.g. a password written in the plan) are printed too but do not
 * fail the load. */
orch_plan *orch_plan_load(const char *path, FILE *errs);

/* p's plan parsed again from the text it was read from (p->text): the
 * same plan even when the file has changed since, or was a pipe. NULL
 * after printing its messages to errs, as orch_plan_load. */
orch_plan *orch_plan_reload(const orch_plan *p, FILE *errs);
void orch_plan_free(orch_plan *p);           /* accepts NULL */

/* Keys whose values never leave the process: the copy of the plan in the
 * run folder (and so report.html) shows them as ORCH_REDACTED. */
#define ORCH_REDACTED "********"

/* Copy the plan file p was read from to path, with the value of every
 * secret key (db_password) replaced by ORCH_REDACTED and every other byte
 * kept; a sweep step's plan (sweep_step) has its swept key's list replaced
 * by the step's value, so that the step's folder holds the plan it ran. 0, or -1 with a message in err. */
int orch_plan_write_redacted(const orch_plan *p, const char *path, char *err, size_t errlen) DB_MUST_CHECK;

/* VMs on drive d (its own count or the plan's), and in the whole plan. */
int orch_plan_drive_vms(const orch_plan *p, const orch_drive *d);
int orch_plan_total_vms(const orch_plan *p);

/* `drivebench seed` of a user's image: p becomes one VM (the first of its
 * first drive, with that drive's pool or path, host and profile), one
 * repetition, prepare = yes and no precondition, so orch_run in seed mode
 * (run.h seed_out) loads one database with the plan's own VM definition
 * and login. The other drives are freed. 0, or -1 with err (out of
 * memory). */
int orch_plan_seed_view(orch_plan *p, char *err, size_t errlen) DB_MUST_CHECK;

/* What oltp connects to for plan p (borrowed strings). */
orch_db_target orch_plan_db_target(const orch_plan *p);

/* The client's OpenSSL settings (issue 30): oltp gets OPENSSL_CONF=PATH in
 * its environment, nothing on its command line, when the plan sets
 * tls_security_level or openssl_conf.
 * orch_plan_openssl_conf_text: the configuration drivebench writes for
 * tls_security_level (new string), or NULL when the plan sets none (or
 * out of memory, *oom set). Its system_default section, the one OpenSSL
 * applies to every TLS context that libssl users such as ODBC Driver 18
 * create, says "CipherString = DEFAULT@SECLEVEL=N", and at level 0 also
 * "MinProtocol = TLSv1" (OpenSSL 3 allows TLS 1.0 and 1.1 only at level
 * 0; SQL Server 2014 without its TLS 1.2 update speaks no newer).
 * orch_plan_openssl_conf_path: what OPENSSL_CONF says for plan p, or NULL
 * (nothing to set, or out of memory: *oom set): the plan's openssl_conf
 * as written, or, for tls_security_level, ORCH_OPENSSL_CONF_FILE in
 * run_dir (host clients: run_setup_dirs writes it) or
 * ORCH_OPENSSL_CONF_GUEST (guest clients: written through the guest
 * agent before the first ping). New string. */
#define ORCH_OPENSSL_CONF_FILE  "openssl.cnf"
#define ORCH_OPENSSL_CONF_GUEST "/var/tmp/drivebench-openssl.cnf"
char *orch_plan_openssl_conf_text(const orch_plan *p, int *oom);
char *orch_plan_openssl_conf_path(const orch_plan *p, const char *run_dir, int in_guest,
                                  int *oom);

/* Sweeps (plan/sweep.c). The most steps a sweep may have. */
#define ORCH_SWEEP_MAX 32
/* Set p's swept key to the value of step i (0-based) of its sweep, as
 * the plan had given that value alone: p becomes step i's plan, whose
 * copy (orch_plan_write_redacted) gives the key that value. 0, or -1 with
 * err (no sweep, i out of range). */
int orch_plan_sweep_step(orch_plan *p, int i, char *err, size_t errlen) DB_MUST_CHECK;
/* Step i's value as the plan writes it ("16", "0.5"), into buf (plan.c:
 * the redacted copy writes it, and sweep.c stands above plan.c). */
void orch_plan_sweep_value(const orch_plan *p, int i, char *buf, size_t len);
/* Whether p's sweep runs its steps on the same VMs (issue 45): 1 when it
 * sweeps a load key ([workload] threads or rate), has one repetition and
 * does not restore between steps: provisioned, prepared and
 * preconditioned once, then each step measured after its warm-up. 0
 * otherwise (each step a run of its own, re-provisioned), with why (a
 * phrase: "[run] vms_per_drive changes the VMs") in buf. */
int orch_plan_sweep_same_vms(const orch_plan *p, char *why, size_t len);
/* The warm-up of each step of a sweep on the same VMs, seconds. */
int orch_plan_step_warmup(const orch_plan *p);

/* URI of drive d. */
const char *orch_plan_drive_uri(const orch_plan *p, const orch_drive *d);

/* The name of value of [section] key, a choice key ("auto|on|off": 1 is
 * "on"), spelled by the key table as the plan file does: a new string,
 * or NULL when key has no choices (or out of memory). */
char *orch_plan_choice(const char *section, const char *key, int value);

/* `drivebench --list-plan-keys` (hidden; tests/man/man.sh reads
 * it): every key a plan takes, one a line, "[run] KEY", "[workload] KEY",
 * "[drive NAME] KEY", from the tables the parser reads. */
void orch_plan_keys_list(FILE *out);

/* `drivebench plan get`: the value of KEY in [SECTION] ("run", "workload",
 * "engine", "drive NAME") as a run uses it, defaults included: text as resolved
 * (image_dir absolute and the engine's unless set, "" for an engine
 * drivebench builds no image of; db_driver, db_user, db_name the
 * engine's; guest_agent yes or no; a drive's uri and vms filled from
 * [run]), durations
 * in seconds, sizes in bytes (boot_size, db_size, seed_size from the
 * profile when the plan has none; seed_size empty when the profile has no
 * seed disk), "" for a value nobody sets (vcpus and memory: the
 * profile's). New string (caller frees), or NULL with err: no such
 * section or key, out of memory. */
char *orch_plan_get(const orch_plan *p, const char *section, const char *key, char *err,
                    size_t errlen);

/* oltp's options for p's [engine] file sizes (prepare only):
 * "--tpcc-data-size=MIB" and the others the plan sets, each a new string
 * handed to add (NULL when out of memory: add fails the argv). */
void orch_plan_file_args(const orch_plan *p, void (*add)(void *ctx, char *arg), void *ctx);

/* The kernel command line words p's db_settings become for its engine:
 * "drivebench.my.innodb_buffer_pool_size=24G drivebench.my.max_connections=64".
 * New string (caller frees); NULL when the plan has no db_settings, or
 * with *oom set when out of memory (oom may be NULL). */
char *orch_plan_settings_cmdline(const orch_plan *p, int *oom);

/* 1 when uri names another host (qemu+ssh://host/..., ...), else 0. */
int orch_uri_is_remote(const char *uri);

/* The rest of what plan/ offers to the other folders (the front header:
 * a file outside plan/ includes only this one, tests/lint/fronts.sh). */
#include "plan/layout.h"
#include "plan/placement.h"

#endif
