/* setup.c — the run folder, the engine of the image, forwarded ports and
 * teardown (see run_state.h). */
#include "run/run_state.h"
#include "attributes.h"
#include "virt/virt.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>


int run_mkdir_p(const char *path, mode_t mode)
{
    char *copy = strdup(path);
    int rc = 0;
    if (!copy)
        return -1;
    for (char *s = copy + 1; *s && rc == 0; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(copy, mode) < 0 && errno != EEXIST)
                rc = -1;
            *s = '/';
        }
    if (rc == 0 && mkdir(copy, mode) < 0 && errno != EEXIST)
        rc = -1;
    free(copy);
    return rc;
}

/* A free loopback TCP port >= from, or -1. */
static int free_port(int from)
{
    for (int port = from; port <= 65535; port++) {
        struct sockaddr_in a;
        int fd = socket(AF_INET, SOCK_STREAM, 0), ok;
        if (fd < 0)
            return -1;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_port = htons((uint16_t)port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ok = bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
        close(fd);
        if (ok)
            return port;
    }
    return -1;
}

/* Each VM's forwarded database port: its port from the layout, or the next
 * free one on this host after it (QEMU cannot start a VM whose forward is
 * taken, by another run for instance). A VM on another host (client = guest only) keeps its port from
 * the layout: this host cannot tell what is free there. Where a port other
 * than the layout's is used, one line names every local VM's port. */
int run_assign_ports(run_state *st)
{
    const orch_plan *p = st->p;
    int next = p->port_base, moved = 0;
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        int from = vm->port > next ? vm->port : next, port;
        if (orch_uri_is_remote(orch_plan_drive_uri(p, vm->drive)))
            continue;
        if ((port = free_port(from)) < 0) {
            snprintf(st->err, sizeof st->err, "no free loopback port from %d", from);
            return -1;
        }
        moved |= port != vm->port;
        vm->port = port;
        next = port + 1;
    }
    if (!moved)
        return 0;
    fprintf(st->out, "ports from port_base %d are in use on this host; databases forwarded from "
            "127.0.0.1:", p->port_base);
    for (int i = 0, n = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        if (!orch_uri_is_remote(orch_plan_drive_uri(p, vm->drive)))
            fprintf(st->out, "%s %s-vm%d %d", n++ ? "," : "", vm->drive->id, vm->index, vm->port);
    }
    fputc('\n', st->out);
    return 0;
}


/* drivebench's image of another engine than the plan's would boot and
 * never answer on the engine's port: image_dir/image.info names its
 * engine (images/build.sh writes engine=NAME). A user's image, or an
 * image.info without the line (older builds), is not checked. */
int run_check_image_engine(run_state *st)
{
    const orch_plan *p = st->p;
    char *path, line[256];
    FILE *f;
    int rc = 0;

    if (p->image || !p->image_dir)
        return 0;
    path = orch_strfmt("%s/image.info", p->image_dir);
    f = path ? fopen(path, "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "engine=", 7) == 0 && strcmp(line + 7, p->engine->name) != 0) {
            snprintf(st->err, sizeof st->err, "%s says the image serves %s, and the plan's "
                     "engine is %s: build its image (images/build.sh --engine %s) or set "
                     "image_dir", path, line + 7, p->engine->name, p->engine->name);
            rc = -1;
        }
    }
    if (f)
        fclose(f);
    free(path);
    return rc;
}

/* The OpenSSL configuration of tls_security_level in the run folder,
 * which host clients' oltp reads through OPENSSL_CONF (plan.h). */
static int write_openssl_conf(run_state *st)
{
    int oom;
    char *text = orch_plan_openssl_conf_text(st->p, &oom);
    char *path = text ? orch_strfmt("%s/%s", st->l->run_dir, ORCH_OPENSSL_CONF_FILE) : NULL;
    FILE *f = path ? fopen(path, "w") : NULL;
    int rc = 0;

    if (!text && !oom)
        return 0;
    if (f) {
        int bad = fputs(text, f) < 0;
        rc = fclose(f) != 0 || bad ? -1 : 0;
    }
    if (!f || rc < 0) {
        snprintf(st->err, sizeof st->err, "cannot write %s: %s", path ? path : "openssl.cnf",
                 !text || !path ? "out of memory" : strerror(errno));
        rc = -1;
    }
    free(path);
    free(text);
    return rc;
}

int run_setup_dirs(run_state *st)
{
    const char *subs[] = { "", "/vm", "/console" };
    char *plan_copy;
    for (int i = 0; i < 3; i++) {
        char *d = orch_strfmt("%s%s", st->l->run_dir, subs[i]);
        int rc = d ? run_mkdir_p(d, 0755) : -1;
        if (rc < 0) {
            snprintf(st->err, sizeof st->err, "cannot create %s: %s", d ? d : "results folder",
                     strerror(errno));
            free(d);
            return -1;
        }
        free(d);
    }
    /* a resume keeps the run's copy as it is */
    if (st->o->resume)
        return write_openssl_conf(st);
    /* the copy shows secrets as ******** (it is shared, and report.html shows it) */
    plan_copy = orch_strfmt("%s/plan.ini", st->l->run_dir);
    if (!plan_copy || orch_plan_write_redacted(st->p, plan_copy, st->err, sizeof st->err) < 0) {
        if (!plan_copy)
            snprintf(st->err, sizeof st->err, "out of memory");
        free(plan_copy);
        return -1;
    }
    free(plan_copy);
    return write_openssl_conf(st);
}

int run_teardown(run_state *st, orch_ledger *l)
{
    orch_counts c = { 0 };
    int n = orch_ledger_count(l), failed;
    if (!n)
        return 0;
    failed = orch_ledger_teardown(l, st->out, &c);
    fprintf(st->out, "teardown: ");
    orch_teardown_print_counts(st->out, &c);
    fprintf(st->out, "%s\n", failed ? "; some objects remain (see above)" : "");
    for (int i = 0; st->vms && st->l && i < st->l->nvms; i++)
        if (st->vms[i].dom) {
            virDomainFree(st->vms[i].dom);
            st->vms[i].dom = NULL;
        }
    return failed;
}

/* After a teardown that left objects (a host that did not answer, a
 * dropped connection): the run's objects by name on every host of the
 * run, each attempt on a new connection, with backoff (hosts.h). 0 when
 * every host is clean. */
int run_retry_teardown(run_state *st)
{
    orch_counts c = { 0 };
    char err[DB_ERR_LEN];
    int left;
    if (!st->l)
        return -1;
    fprintf(st->out, "teardown: retrying by name on every host of the run\n");
    left = orch_hosts_teardown_run(st->l->run_dir, st->l->run_id, st->out, &c, err, sizeof err);
    if (left < 0)
        fprintf(st->out, "teardown: %s\n", err);
    else {
        fprintf(st->out, "teardown: ");
        orch_teardown_print_counts(st->out, &c);
        fprintf(st->out, "%s\n", left ? "; some hosts still hold objects" : "");
    }
    return left;
}
