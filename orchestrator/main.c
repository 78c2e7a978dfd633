/* main.c — the drivebench command line: validate, render, run, list,
 * teardown, report, seed, plan get and host check; the commands on a run
 * folder or a bundle (resume, bundle, verify) are in cli_folder.c, the
 * options they all parse in cli.c. Exit status: 0 success, 1 failure,
 * 2 bad input, 3 (run) completed with failures, 130 interrupted (stop.h). */
#include "clients/clients.h"
#include "atomic_file.h"
#include "attributes.h"
#include "virt/virt.h"
#include "util/util.h"
#include "plan/plan.h"
#include "report/report.h"
#include "run/run.h"
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("usage: drivebench validate PLAN\n"
          "       drivebench render PLAN [--run-id=ID] [--out=DIR] [--capabilities=FILE]\n"
          "       drivebench run PLAN [--run-id=ID] [--domain-type=kvm|qemu|auto]\n"
          "                          [--ignore-host-check=CHECK]...\n"
          "       drivebench list [--uri=URI]... [--results=DIR]\n"
          "       drivebench teardown RUN-ID [--uri=URI]... [--results=DIR]\n"
          "       drivebench resume RUN-ID [--results=DIR] [--plan=PLAN]\n"
          "       drivebench bundle RUN-ID [--results=DIR] [--out=FILE] [--sign=KEY]\n"
          "       drivebench verify BUNDLE [--signers=FILE]\n"
          "       drivebench summarize RUN_DIR [--out=DIR]\n"
          "       drivebench report RESULTS_DIR... [-o report.html] [--charts] [--png]\n"
          "       drivebench report --rank [--all-runs] [--highlight NAME] [--baseline DRIVE]\n"
          "                         [--png] [-o DIR] RUN_OR_RESULTS_DIR...\n"
          "       drivebench seed PLAN [--force]\n"
          "       drivebench plan get SECTION KEY PLAN\n"
          "       drivebench plan estimate PLAN [--from=RUN_DIR [--effect=PCT%]]\n"
          "       drivebench plan power PLAN --from=RUN_DIR --effect=PCT% [--figure=tps|p]\n"
          "       drivebench host check PLAN [--ignore-host-check=CHECK]...\n"
          "Plans are described in plans/README.md; results in results/SCHEMA.md.\n", f);
}

static int cmd_validate(int argc, char **argv)
{
    cli_opts o;
    orch_plan *p;
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_VALIDATE, 1, &o);
    if (rc)
        return rc;
    p = orch_plan_load(o.arg, stderr);
    if (!p)
        return EXIT_BAD_INPUT;
    printf("%s: ok: %d drive(s), %d VM(s), profile %s, workload %s", o.arg, p->ndrives,
           orch_plan_total_vms(p), p->profile, p->workload);
    if (p->sweep_key) {     /* a sweep: its steps, on the same VMs or one run each */
        char why[256];
        printf("; sweep of [%s] %s:", p->sweep_section, p->sweep_key);
        for (int i = 0; i < p->nsweep; i++) {
            char v[64];
            orch_plan_sweep_value(p, i, v, sizeof v);
            printf("%s %s", i ? "," : "", v);
        }
        if (orch_plan_sweep_same_vms(p, why, sizeof why))
            printf(" (%d steps on the same VMs, provisioned, prepared and preconditioned once)",
                   p->nsweep);
        else
            printf(" (%d runs, each re-provisioned: %s)", p->nsweep, why);
    }
    if (p->target)          /* a capacity search: how it steps */
        printf("; capacity search at %s: from %g/s a drive, doubling, then bisection to %g %%, "
               "at most %d probes up to %.15g/s, on the same VMs", p->target, p->target_start,
               p->target_resolution_pct, p->target_max_probes, p->target_max_rate);
    printf("\n");
    orch_plan_free(p);
    return 0;
}

static int cmd_render(int argc, char **argv)
{
    cli_opts o;
    orch_plan *p = NULL;
    orch_template *t = NULL;
    orch_layout *l = NULL;
    char err[DB_ERR_LEN], *run_id = NULL;
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_RENDER, 1, &o);
    orch_conns *conns = NULL;
    if (rc)
        return rc;
    rc = EXIT_BAD_INPUT;
    p = orch_plan_load(o.arg, stderr);
    if (!p)
        goto cleanup;
    t = orch_template_load(p->template_path, err, sizeof err);
    run_id = o.run_id ? strdup(o.run_id) : orch_runid_new(p->name, time(NULL));
    l = t && run_id ? orch_layout_new(p, run_id, orch_layout_has_seed(p, t))
                    : NULL;
    if (!l) {
        fprintf(stderr, "drivebench: %s\n", t ? "out of memory" : err);
        goto cleanup;
    }
    /* the placement on the host described by --capabilities, else asked
     * of each drive's host */
    if (strcmp(p->pinning, "off") != 0
        && (!(conns = orch_conns_new())
            || orch_place_layout(conns, p, l, p->vcpus ? p->vcpus : orch_template_vcpus(t),
                                 o.capabilities, NULL, err, sizeof err) < 0)) {
        fprintf(stderr, "drivebench: %s\n", conns ? err : "out of memory");
        goto cleanup;
    }
    if (o.out_dir && mkdir(o.out_dir, 0755) < 0 && errno != EEXIST) {
        fprintf(stderr, "drivebench: cannot create %s: %s\n", o.out_dir, strerror(errno));
        goto cleanup;
    }
    for (int i = 0; i < l->nvms; i++) {
        char why[DB_ERR_LEN];
        const char *type = strcmp(p->domain_type, "auto") != 0 ? p->domain_type
                           : orch_kvm_measure(NULL, why, sizeof why);
        char *xml = orch_layout_render(l, p, t, &l->vms[i], type, 1,
                                       err, sizeof err);
        if (!xml) {
            fprintf(stderr, "drivebench: %s\n", err);
            goto cleanup;
        }
        if (o.out_dir) {
            char *path = orch_strfmt("%s/%s.xml", o.out_dir, l->vms[i].name);
            char werr[DB_ERR_LEN] = "out of memory";
            if (!path || atomic_file_write(path, xml, strlen(xml), werr, sizeof werr) < 0) {
                fprintf(stderr, "drivebench: %s\n", werr);
                free(path);
                free(xml);
                rc = 1;
                goto cleanup;
            }
            printf("%s\n", path);
            free(path);
        } else {
            printf("%s%s", i ? "\n" : "", xml);
        }
        free(xml);
    }
    rc = 0;
cleanup:
    orch_conns_free(conns);
    orch_layout_free(l);
    orch_template_free(t);
    orch_plan_free(p);
    free(run_id);
    return rc;
}

static int cmd_run(int argc, char **argv)
{
    cli_opts o;
    orch_plan *p;
    orch_run_opts ro;
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_RUN, 1, &o);
    if (rc)
        return rc;
    if (o.domain_type && strcmp(o.domain_type, "kvm") != 0 && strcmp(o.domain_type, "qemu") != 0
        && strcmp(o.domain_type, "auto") != 0)
        return cli_bad_input("--domain-type=%s: expected kvm, qemu or auto", o.domain_type);
    p = orch_plan_load(o.arg, stderr);
    if (!p)
        return EXIT_BAD_INPUT;
    if ((rc = cli_can_run(p))) {
        orch_plan_free(p);
        return rc;
    }
    /* images/make-run.sh probes how fast KVM really is (virt-type.sh) and
     * passes its answer here; the summary's environment records the type */
    if (o.domain_type) {
        char *t = strdup(o.domain_type);
        if (!t) {
            orch_plan_free(p);
            fputs("drivebench: out of memory\n", stderr);
            return 1;
        }
        free(p->domain_type);
        p->domain_type = t;
    }
    memset(&ro, 0, sizeof ro);
    ro.run_id = o.run_id;
    ro.out = stderr;
    ro.ignore_host_check = o.ignore;
    rc = p->sweep_key ? orch_run_sweep(p, &ro) : orch_run(p, &ro);
    orch_plan_free(p);
    return rc;
}

static const char *default_uri(void)
{
    const char *u = getenv("LIBVIRT_DEFAULT_URI");
    return u && *u ? u : "qemu:///system";
}

typedef struct list_row {
    char *run_id;
    const char *uri;            /* NULL: a run with only oltp processes left */
    int n[3];
    int clients;                /* its host-side oltp processes still alive */
} list_row;

typedef struct list_ctx {
    const char *uri;
    list_row   *rows;
    int         nrows;
} list_ctx;

static void list_one(void *ctx, orch_obj_kind kind, const char *name, const char *pool)
{
    list_ctx *c = ctx;
    char *id = orch_object_runid(name);
    list_row *r;
    (void)pool;
    if (!id)
        return;
    for (int i = 0; i < c->nrows; i++)
        if (strcmp(c->rows[i].run_id, id) == 0 && c->rows[i].uri == c->uri) {
            c->rows[i].n[kind]++;
            free(id);
            return;
        }
    r = realloc(c->rows, sizeof *r * (size_t)(c->nrows + 1));
    if (!r) {
        free(id);
        return;
    }
    c->rows = r;
    r = &c->rows[c->nrows++];
    memset(r, 0, sizeof *r);
    r->run_id = id;
    r->uri = c->uri;
    r->n[kind]++;
}

/* Runs in results_dir whose host-side oltp processes outlived them
 * (clients/oltp_pids.h): counted on the run's first row, or on a row of their own. */
static void list_clients(list_ctx *c, const char *results_dir)
{
    DIR *d = opendir(results_dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char *dir;
        int n, found = 0;
        list_row *r;
        if (!orch_runid_valid(e->d_name) || !(dir = orch_strfmt("%s/%s", results_dir, e->d_name)))
            continue;
        n = orch_clients_alive(dir);
        free(dir);
        if (n == 0)
            continue;
        for (int i = 0; i < c->nrows && !found; i++)
            if (strcmp(c->rows[i].run_id, e->d_name) == 0) {
                c->rows[i].clients = n;
                found = 1;
            }
        if (found || !(r = realloc(c->rows, sizeof *r * (size_t)(c->nrows + 1))))
            continue;
        c->rows = r;
        r = &c->rows[c->nrows];
        memset(r, 0, sizeof *r);
        if (!(r->run_id = strdup(e->d_name)))
            continue;
        r->clients = n;
        c->nrows++;
    }
    if (d)
        closedir(d);
}

static int cmd_list(int argc, char **argv)
{
    cli_opts o;
    list_ctx c;
    orch_conns *conns;
    char err[DB_ERR_LEN];
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_LIST, 0, &o), failed = 0;
    if (rc)
        return rc;
    if (!o.nuris)
        o.uris[o.nuris++] = default_uri();
    memset(&c, 0, sizeof c);
    conns = orch_conns_new();
    for (int i = 0; conns && i < o.nuris; i++) {
        virConnectPtr conn = orch_conns_open(conns, o.uris[i], err, sizeof err);
        c.uri = o.uris[i];
        if (!conn || orch_list_objects(conn, list_one, &c, err, sizeof err) < 0) {
            fprintf(stderr, "drivebench: %s\n", err);
            failed = 1;
        }
    }
    list_clients(&c, o.results ? o.results : "results");
    printf("%-40s %-24s %7s %7s %5s %7s\n", "RUN-ID", "URI", "DOMAINS", "VOLUMES", "POOLS",
           "CLIENTS");
    for (int i = 0; i < c.nrows; i++) {
        printf("%-40s %-24s %7d %7d %5d %7d\n", c.rows[i].run_id,
               c.rows[i].uri ? c.rows[i].uri : "-", c.rows[i].n[ORCH_OBJ_DOMAIN],
               c.rows[i].n[ORCH_OBJ_VOLUME], c.rows[i].n[ORCH_OBJ_POOL], c.rows[i].clients);
        free(c.rows[i].run_id);
    }
    free(c.rows);
    orch_conns_free(conns);
    return failed;
}

/* `teardown RUN-ID`: every object of the run, on the hosts given with
 * --uri, else on the hosts the run recorded (RESULTS/RUN-ID/hosts), else
 * the default URI; retried with backoff per host (hosts.h). RUN-ID is a
 * name, never a path: its folder is always RESULTS/RUN-ID. */
static int cmd_teardown(int argc, char **argv)
{
    cli_opts o;
    orch_counts removed = { 0 };
    char err[DB_ERR_LEN], *prefix = NULL, *hosts = NULL, *run_dir;
    const char *id;
    char **recorded = NULL;
    const char *uris[MAX_URIS + 1];
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_TEARDOWN, 2, &o), failed = 0, ended = 0;
    if (rc)
        return rc;
    if (strchr(o.arg, '/'))
        return cli_bad_input("'%s' is not a run id: give the run id, and the folder that "
                             "holds its run folder with --results=DIR", o.arg);
    id = o.arg;
    if (!orch_runid_valid(id))
        return cli_bad_input("'%s' is not a run id (see `drivebench list`)", o.arg);
    run_dir = orch_strfmt("%s/%s", o.results ? o.results : "results", id);
    /* its oltp processes first: they load the forwarded ports */
    if (run_dir && (ended = orch_clients_end(run_dir, stderr)) < 0) {
        failed++;
        ended = 0;
    }
    if (!o.nuris) {
        hosts = run_dir ? orch_strfmt("%s/hosts", run_dir) : NULL;
        recorded = hosts ? orch_hosts_read(hosts, err, sizeof err) : NULL;
        if (!recorded && errno != ENOENT)
            fprintf(stderr, "drivebench: %s; using %s\n", err, default_uri());
        for (int i = 0; recorded && recorded[i] && o.nuris < MAX_URIS; i++)
            o.uris[o.nuris++] = recorded[i];
        if (!o.nuris)
            o.uris[o.nuris++] = default_uri();
    }
    free(run_dir);
    for (int i = 0; i < o.nuris; i++)
        uris[i] = o.uris[i];
    uris[o.nuris] = NULL;
    prefix = orch_object_prefix(id);
    if (prefix)
        failed += orch_hosts_teardown(uris, prefix, ORCH_TEARDOWN_ATTEMPTS,
                                      ORCH_TEARDOWN_DELAY_MS, stderr, &removed);
    printf("teardown %s: ", id);
    orch_teardown_print_counts(stdout, &removed);
    if (ended)
        printf("; ended %d oltp process(es)", ended);
    printf("%s\n", failed ? "; objects remain on some hosts (see above)" : "");
    orch_hosts_free(recorded);
    free(hosts);
    free(prefix);
    return failed || !prefix ? 1 : 0;
}

/* `seed PLAN` of a user's image ([run] image) whose contract says it
 * attaches the databases on its dbdisk: the plan's first VM through the
 * run machinery in seed mode (run.h), keeping its database volume as
 * IMAGE_DIR/seed.qcow2. Takes p. */
static int seed_user_image(orch_plan *p, bool force)
{
    orch_run_opts ro;
    char err[DB_ERR_LEN], *out = NULL;
    struct stat sb;
    int rc = EXIT_BAD_INPUT;

    if (!p->image_attaches_databases) {
        fprintf(stderr, "drivebench: seed of a user's image needs an image that attaches the "
                "databases it finds on its database disk: set [run] image_attaches_databases "
                "= yes when its contract says so (images/README.md)\n");
        goto out;
    }
    if (!p->image_dir || stat(p->image_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)
        || access(p->image_dir, W_OK) != 0) {
        fprintf(stderr, "drivebench: seed: image_dir %s is not a folder this user can write "
                "(create it first)\n", p->image_dir ? p->image_dir : "(unset)");
        goto out;
    }
    if (!(out = orch_strfmt("%s/seed.qcow2", p->image_dir))) {
        fputs("drivebench: out of memory\n", stderr);
        rc = 1;
        goto out;
    }
    if (!force && access(out, F_OK) == 0) {
        fprintf(stderr, "drivebench: %s exists; --force makes it again\n", out);
        goto out;
    }
    if (orch_plan_seed_view(p, err, sizeof err) < 0) {
        fprintf(stderr, "drivebench: %s\n", err);
        rc = 1;
        goto out;
    }
    memset(&ro, 0, sizeof ro);
    ro.out = stderr;
    ro.seed_out = out;
    rc = orch_run(p, &ro);
out:
    free(out);
    orch_plan_free(p);
    return rc;
}

/* `seed PLAN`: boot one VM, run the plan's prepare and keep its database
 * disk as IMAGE_DIR/seed.qcow2: images/seed.sh (run while libvirt is up)
 * for drivebench's own images, seed_user_image for a user's. */
static int cmd_seed(int argc, char **argv)
{
    cli_opts o;
    orch_plan *p;
    char *with = orch_tree_path("images/with-libvirt.sh");
    char *seed = orch_tree_path("images/seed.sh");
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_SEED, 1, &o);
    if (rc)
        goto out;
    rc = EXIT_BAD_INPUT;
    if (!(p = orch_plan_load(o.arg, stderr)))
        goto out;
    if (p->image) {
        /* the plan's own domain (firmware, NIC, controller) and login */
        rc = seed_user_image(p, o.force);
        goto out;
    }
    orch_plan_free(p);
    if (access(seed, X_OK) != 0) {
        fprintf(stderr, "drivebench: %s is missing: seed needs the source tree drivebench was built in\n", seed);
        goto out;
    }
    {
        const char *seed_argv[] = { with, seed, o.arg, o.force ? "--force" : NULL, NULL };
        char err[DB_ERR_LEN];
        orch_command *cmd = orch_command_new(seed_argv);
        if (cmd && orch_command_exec(cmd, err, sizeof err) < 0)
            fprintf(stderr, "drivebench: %s\n", err);
        orch_command_free(cmd);
    }
out:
    free(with);
    free(seed);
    return rc;
}

/* The options of `plan power` and `plan estimate` (power_parse reads
 * them; --list-options names them) */
#define PLAN_POWER_OPTS "from effect figure"

/* The options of `plan power` and `plan estimate`. */
typedef struct power_opts {
    const char       *from;     /* the pilot run folder, or NULL */
    double            effect;   /* percent */
    orch_power_figure fig;
} power_opts;

/* argv[0..argc) into *o. 0, or EXIT_BAD_INPUT with one message. */
static int power_parse(int argc, char **argv, int need, power_opts *o)
{
    int effect = 0;
    *o = (power_opts){ .effect = 5.0, .fig = ORCH_POWER_ALL };
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--from=", 7) == 0 && a[7])
            o->from = a + 7;
        else if (strncmp(a, "--effect=", 9) == 0) {
            effect = 1;
            if (orch_power_parse_effect(a + 9, &o->effect) < 0)
                return cli_bad_input("--effect: '%s' is not a difference in percent over 0 "
                                     "and at most 100 (e.g. --effect=5%%)", a + 9);
        } else if (strcmp(a, "--figure=tps") == 0)
            o->fig = ORCH_POWER_TPS;
        else if (strcmp(a, "--figure=p") == 0)
            o->fig = ORCH_POWER_P;
        else
            return cli_bad_input("unknown option %s (see drivebench --help)", a);
    }
    if (need && !o->from)
        return cli_bad_input("plan power: missing --from=RUN_DIR (a pilot run's folder)");
    if (need && !effect)
        return cli_bad_input("plan power: missing --effect=PCT%% (the difference to find)");
    if (!o->from && (effect || o->fig != ORCH_POWER_ALL))
        return cli_bad_input("plan estimate: --effect and --figure go with --from=RUN_DIR");
    return 0;
}

/* The power report (run/power.h) of plan p with o. 0, EXIT_BAD_INPUT
 * for a folder that is no pilot, 1 when out of memory. */
static int power_report(const orch_plan *p, const char *path, const power_opts *o)
{
    char err[2048];
    int rc = orch_power_plan(p, path, o->from, o->effect, o->fig, stdout, err, sizeof err);
    if (rc == -1)
        return cli_bad_input("%s", err);
    if (rc < 0)
        fprintf(stderr, "drivebench: %s\n", err);
    return rc < 0 ? 1 : 0;
}

/* `plan power PLAN --from=RUN_DIR --effect=PCT%`: how long to measure
 * (run/power.h). 0; 2 for bad input. */
static int plan_power(const char *path, int argc, char **argv)
{
    power_opts o;
    orch_plan *p;
    int rc = power_parse(argc, argv, 1, &o);
    if (rc)
        return rc;
    if (!(p = orch_plan_load(path, stderr)))
        return EXIT_BAD_INPUT;
    rc = power_report(p, path, &o);
    orch_plan_free(p);
    return rc;
}

/* `plan estimate PLAN [--from=RUN_DIR]`: disk, memory, CPUs and duration
 * of the plan against its hosts, as `run` prints them first
 * (run/estimate.h), and with a pilot how long to measure (plan power).
 * 0; 1 when a host does not answer or `run` would refuse the plan; 2 for
 * a plan that does not validate or a folder that is no pilot. */
static int plan_estimate(const char *path, int argc, char **argv)
{
    power_opts po;
    orch_plan *p = NULL;
    orch_template *t = NULL;
    orch_conns *conns = NULL;
    orch_layout *l = NULL;
    char err[DB_ERR_LEN];
    int rc = power_parse(argc, argv, 0, &po);

    if (rc)
        return rc;
    if (!(p = orch_plan_load(path, stderr)))
        return EXIT_BAD_INPUT;
    rc = EXIT_BAD_INPUT;
    t = orch_template_load(p->template_path, err, sizeof err);
    conns = t ? orch_conns_new() : NULL;
    l = conns ? orch_layout_new(p, "estimate", 0) : NULL;
    if (!l) {
        fprintf(stderr, "drivebench: %s\n", t ? "out of memory" : err);
        goto cleanup;
    }
    rc = 0;
    if (orch_estimate(conns, p, t, stdout, err, sizeof err) < 0
        || orch_place_layout(conns, p, l, p->vcpus ? p->vcpus : orch_template_vcpus(t), NULL,
                             stdout, err, sizeof err) < 0) {
        fflush(stdout);
        fprintf(stderr, "drivebench: %s\n", err);
        rc = 1;
    } else if (po.from) {
        rc = power_report(p, path, &po);
    }
cleanup:
    orch_layout_free(l);
    orch_conns_free(conns);
    orch_template_free(t);
    orch_plan_free(p);
    return rc;
}

/* `plan get SECTION KEY PLAN`: one value of a validated plan as a run
 * uses it (orch_plan_get), for scripts that must not parse plans
 * themselves. */
static int cmd_plan(int argc, char **argv)
{
    orch_plan *p;
    char err[DB_ERR_LEN], *value;
    if (argc >= 2 && strcmp(argv[0], "estimate") == 0)
        return plan_estimate(argv[1], argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[0], "power") == 0)
        return plan_power(argv[1], argc - 2, argv + 2);
    if (argc != 4 || strcmp(argv[0], "get") != 0) {
        fputs("usage: drivebench plan get SECTION KEY PLAN\n"
              "       drivebench plan estimate PLAN [--from=RUN_DIR [--effect=PCT%]]\n"
              "       drivebench plan power PLAN --from=RUN_DIR --effect=PCT% [--figure=tps|p]\n",
              stderr);
        return EXIT_BAD_INPUT;
    }
    p = orch_plan_load(argv[3], stderr);
    if (!p)
        return EXIT_BAD_INPUT;
    value = orch_plan_get(p, argv[1], argv[2], err, sizeof err);
    orch_plan_free(p);
    if (!value)
        return cli_bad_input("plan get: %s", err);
    printf("%s\n", value);
    free(value);
    return 0;
}

/* `host check PLAN`: this host's state for plan p (run/hostcheck.h). */
static int cmd_host(int argc, char **argv)
{
    cli_opts o;
    orch_plan *p;
    int rc;
    if (argc < 1 || strcmp(argv[0], "check") != 0)
        return cli_bad_input("usage: drivebench host check PLAN [--ignore-host-check=CHECK]...");
    if ((rc = cli_parse_opts(argc - 1, argv + 1, CLI_OPTS_HOST_CHECK, 1, &o)))
        return rc;
    if (!(p = orch_plan_load(o.arg, stderr)))
        return EXIT_BAD_INPUT;
    rc = orch_host_check_cmd(p, o.ignore, stdout);
    orch_plan_free(p);
    return rc;
}

/* The commands: name, function (argv after the name) and, for
 * `--list-options`, the options it takes: cli_parse_opts's, or report's
 * own parser's (report_cmd.c, rank_cmd.c; -o is --output there). */
static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *opts;
} cmds[] = {
    { "validate", cmd_validate, CLI_OPTS_VALIDATE }, { "render", cmd_render, CLI_OPTS_RENDER },
    { "run", cmd_run, CLI_OPTS_RUN }, { "list", cmd_list, CLI_OPTS_LIST },
    { "teardown", cmd_teardown, CLI_OPTS_TEARDOWN },
    { "report", report_main, "output charts png rank all-runs highlight baseline" },
    { "seed", cmd_seed, CLI_OPTS_SEED }, { "plan", cmd_plan, "" },
    { "host", cmd_host, "" }, { "resume", cli_resume, CLI_OPTS_RESUME },
    { "bundle", cli_bundle, CLI_OPTS_BUNDLE }, { "verify", cli_verify, CLI_OPTS_VERIFY },
    { "summarize", cli_summarize, CLI_OPTS_SUMMARIZE },
};

/* `drivebench --list-options` (hidden; tests/man/man.sh reads it):
 * "command NAME" for each command and subcommand, "option NAME --OPT"
 * for each option a command takes, "option --help". */
static void list_options(void)
{
    static const struct { const char *name, *opts; } subs[] = {
        { "plan get", "" }, { "plan estimate", PLAN_POWER_OPTS }, { "plan power", PLAN_POWER_OPTS },
        { "host check", CLI_OPTS_HOST_CHECK },
    };
    puts("option --help");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0] + sizeof subs / sizeof subs[0]; i++) {
        size_t s = i - sizeof cmds / sizeof cmds[0];
        const char *name = i < sizeof cmds / sizeof cmds[0] ? cmds[i].name : subs[s].name;
        const char *opts = i < sizeof cmds / sizeof cmds[0] ? cmds[i].opts : subs[s].opts;
        printf("command %s\n", name);
        for (const char *w = opts; *w;) {
            size_t n = strcspn(w, " ");
            printf("option %s --%.*s\n", name, (int)n, w);
            w += n + (w[n] == ' ');
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--list-options") == 0) {
        list_options();
        return 0;
    }
    if (strcmp(argv[1], "--list-plan-keys") == 0) {
        orch_plan_keys_list(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0)
            return cmds[i].fn(argc - 2, argv + 2);
    return cli_bad_input("unknown command '%s' (validate, render, run, list, teardown, report, seed, "
                     "plan, host, resume, bundle, verify, summarize)", argv[1]);
}
