/* qemu_threads.c — the VMs' QEMU threads by role during the measured
 * phases (bound.h): /proc/<pid>/task/<tid>/stat and comm at every tick,
 * the figures over each VM's measured window, and in the summary the
 * verdict on what bounded each drive. */
#include "telemetry/telemetry_state.h"
#include "telemetry/bound.h"
#include "util/util.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define PROC_SMALL 4096

/* Whether the NUL-separated cmdline (len bytes) names guest `name`: libvirt
 * starts QEMU with "-name guest=NAME,debug-threads=on". */
static int cmdline_names(const char *cmd, size_t len, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i < len; i += strlen(cmd + i) + 1)
        if (strncmp(cmd + i, "guest=", 6) == 0 && strncmp(cmd + i + 6, name, nl) == 0
            && (cmd[i + 6 + nl] == ',' || cmd[i + 6 + nl] == '\0')
            && i >= 6 && strcmp(cmd + i - 6, "-name") == 0)
            return 1;
    return 0;
}

int tel_qemu_domain(virDomainPtr dom)
{
    const char *type = dom ? virConnectGetType(virDomainGetConnect(dom)) : "QEMU";
    return type && strcasecmp(type, "QEMU") == 0;
}

void tel_qemu_add_vm(orch_telemetry *t, int vi)
{
    DIR *d = opendir(t->seams.proc);
    struct dirent *e;
    char path[1024], cmd[PROC_SMALL];
    int pid = 0;

    while (d && !pid && (e = readdir(d))) {
        FILE *f;
        size_t n;
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "%s/%s/cmdline", t->seams.proc, e->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        n = fread(cmd, 1, sizeof cmd - 1, f);
        fclose(f);
        cmd[n] = '\0';
        pthread_mutex_lock(&t->mu);
        if (cmdline_names(cmd, n, t->vms[vi].name))
            pid = atoi(e->d_name);
        pthread_mutex_unlock(&t->mu);
    }
    if (d)
        closedir(d);
    pthread_mutex_lock(&t->mu);
    t->vms[vi].qpid = pid;
    pthread_mutex_unlock(&t->mu);
}

/* One row of VM v's threads at now into its samples; nothing when its
 * process is gone or the row does not fit the phase's vCPU count. */
static void sample_vm(orch_telemetry *t, tel_vm *v, double now)
{
    double row[TEL_QS_VCPU + 256] = { now };
    int nv = 0, bad = 0;
    char path[1024];
    DIR *d;
    struct dirent *e;

    snprintf(path, sizeof path, "%s/%d/task", t->seams.proc, v->qpid);
    if (!(d = opendir(path)))
        return;
    while ((e = readdir(d)) && !bad) {
        char *stat, *comm;
        long long ticks;
        int k;
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "%s/%d/task/%s/stat", t->seams.proc, v->qpid, e->d_name);
        stat = orch_file_read(path, PROC_SMALL);
        snprintf(path, sizeof path, "%s/%d/task/%s/comm", t->seams.proc, v->qpid, e->d_name);
        comm = orch_file_read(path, PROC_SMALL);
        ticks = orch_bound_stat_ticks(stat);
        if (ticks >= 0 && comm) {
            comm[strcspn(comm, "\n")] = '\0';
            switch (orch_bound_thread_role(comm, atoi(e->d_name) == v->qpid)) {
            case ORCH_QT_MAIN:  row[1] += (double)ticks; break;
            case ORCH_QT_IO:    row[2] += (double)ticks; break;
            case ORCH_QT_OTHER: row[3] += (double)ticks; break;
            case ORCH_QT_VCPU:
                /* by its index ("CPU 3/KVM"), so rows pair thread by thread */
                if (sscanf(comm, "CPU %d/", &k) != 1)
                    k = 0;
                if (k < 0 || k >= 256)
                    bad = 1;
                else {
                    row[TEL_QS_VCPU + k] = (double)ticks;
                    nv = k + 1 > nv ? k + 1 : nv;
                }
                break;
            }
        }
        free(stat);
        free(comm);
    }
    closedir(d);
    if (bad || nv == 0 || (v->nqs > 0 && nv != v->nvcpu))
        return;
    v->nvcpu = nv;
    if (v->nqs == v->qscap) {
        int ncap = v->qscap ? 2 * v->qscap : 64;
        double *n = realloc(v->qs, (size_t)ncap * (size_t)(TEL_QS_VCPU + nv) * sizeof *n);
        if (!n)
            return;
        v->qs = n;
        v->qscap = ncap;
    }
    memcpy(v->qs + (size_t)v->nqs++ * (size_t)(TEL_QS_VCPU + nv), row,
           (size_t)(TEL_QS_VCPU + nv) * sizeof *row);
}

void tel_qemu_tick(orch_telemetry *t, double now)
{
    for (int i = 0; i < t->nvms; i++)
        if (t->vms[i].rep == t->blk_rep && t->vms[i].qpid > 0)
            sample_vm(t, &t->vms[i], now);
}

void tel_qemu_phase_start(orch_telemetry *t, double now)
{
    for (int i = 0; i < t->nvms; i++)
        if (t->vms[i].rep == t->blk_rep)
            t->vms[i].nqs = 0;
    tel_qemu_tick(t, now);
}

/* VM v's row nearest time x, or -1. */
static int nearest_row(const tel_vm *v, double x)
{
    int best = -1, w = TEL_QS_VCPU + v->nvcpu;
    for (int i = 0; i < v->nqs; i++)
        if (best < 0 || fabs(v->qs[i * w] - x) < fabs(v->qs[best * w] - x))
            best = i;
    return best;
}

/* The figures between rows a and b (b later) of nvcpu vCPUs into *q. */
static void rows_qemu(const double *a, const double *b, int nvcpu, res_io_qemu *q)
{
    double hz = (double)sysconf(_SC_CLK_TCK), dt = b[0] - a[0], sum = 0, max = 0;
    for (int k = 0; k < nvcpu; k++) {
        double x = (b[TEL_QS_VCPU + k] - a[TEL_QS_VCPU + k]) / hz / dt * 100.0;
        sum += x;
        max = k == 0 || x > max ? x : max;
    }
    *q = (res_io_qemu){ .vcpus = nvcpu, .vcpu_pct = sum / nvcpu, .vcpu_max_pct = max,
                        .main_pct = (b[1] - a[1]) / hz / dt * 100.0,
                        .io_pct = (b[2] - a[2]) / hz / dt * 100.0,
                        .other_pct = (b[3] - a[3]) / hz / dt * 100.0, .seconds = dt };
}

void tel_qemu_phase_end(orch_telemetry *t, int rep, double now)
{
    for (int i = 0; i < t->nvms; i++) {
        tel_vm *v = &t->vms[i];
        double w0, w1;
        int ia, ib, w = TEL_QS_VCPU + v->nvcpu;
        if (v->rep != rep || v->qpid <= 0)
            continue;
        tel_vm_window(t, v, now, &w0, &w1);
        ia = nearest_row(v, w0);
        ib = nearest_row(v, w1);
        if (ia >= 0 && ib > ia && v->qs[(size_t)ib * (size_t)w] > v->qs[(size_t)ia * (size_t)w]) {
            rows_qemu(v->qs + (size_t)ia * (size_t)w, v->qs + (size_t)ib * (size_t)w, v->nvcpu,
                      &v->qemu);
            v->has_qemu = 1;
        }
        free(v->qs);
        v->qs = NULL;
        v->nqs = v->qscap = 0;
    }
}

/* ------------------------------------------------------------------ */
/* the summary                                                         */

/* The host's online CPUs ("cpuN" lines of /proc/stat); 1 when unreadable. */
static int host_cpus(const orch_telemetry *t)
{
    char *text = orch_file_read(t->seams.proc_stat, (size_t)4 << 20);
    int n = 0;
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
        n += strncmp(l, "cpu", 3) == 0 && l[3] >= '0' && l[3] <= '9';
    free(text);
    return n > 0 ? n : 1;
}

/* VM v's oltp: percent of its event threads' CPU; NAN when unknown. */
static double client_pct(const res_summary *sum, const res_vm *v, int ncpu)
{
    int conns = sum->plan.threads > 0 ? (int)sum->plan.threads : 1;
    bool pooled = (isfinite(sum->plan.rate) && sum->plan.rate > 0)
                  || (sum->plan.workload && strcmp(sum->plan.workload, "tpcc") == 0);
    int n;
    if (!v->io || !isfinite(v->io->cpu_s_per_1000_txn) || !isfinite(v->tps))
        return NAN;
    if (sum->plan.client && strcmp(sum->plan.client, "guest") == 0 && v->io->qemu)
        ncpu = v->io->qemu->vcpus;
    n = orch_bound_client_threads(conns, pooled, ncpu);
    return v->io->cpu_s_per_1000_txn * v->tps / 1000.0 / n * 100.0;
}

int tel_bound_fill(const orch_telemetry *t, res_summary *sum)
{
    orch_bound_vm *bv = calloc((size_t)sum->nvms + 1, sizeof *bv);
    int ncpu = host_cpus(t), rc = -1;

    if (!bv)
        return -1;
    for (int i = 0; i < sum->nvms; i++) {
        res_vm *v = &sum->vms[i];
        const tel_vm *rec = tel_vm_record(t, v);
        if (!rec || !rec->has_qemu)
            continue;
        if ((!v->io && !(v->io = res_io_new()))
            || (!v->io->qemu && !(v->io->qemu = malloc(sizeof *v->io->qemu))))
            goto cleanup;
        *v->io->qemu = rec->qemu;
    }
    for (int d = 0; d < sum->ndrives; d++) {
        res_drive *dr = &sum->drives[d];
        const res_io_rates *hr = dr->io && dr->io->host ? dr->io->host->rates : NULL;
        orch_bound_in in = {
            .tcg = tel_env_tcg(&sum->env),
            .host_cpu_pct = sum->io ? sum->io->host_cpu_busy_pct : NAN,
            .util_pct = hr ? hr->total.v[RES_IOH_util_pct] : NAN,
            .queue_depth = hr ? hr->total.v[RES_IOH_queue_depth] : NAN,
            .user_net = sum->plan.client_path
                        && strcmp(sum->plan.client_path, RES_PATH_USER_HOSTFWD) == 0,
            .vms = bv,
        };
        for (int i = 0; i < sum->nvms; i++) {
            res_vm *v = &sum->vms[i];
            if (v->failed || !v->measured || !v->drive || strcmp(v->drive, dr->name) != 0)
                continue;
            bv[in.nvms++] = (orch_bound_vm){ .name = v->name,
                                             .qemu = v->io ? v->io->qemu : NULL,
                                             .client_pct = client_pct(sum, v, ncpu) };
        }
        if (in.nvms == 0)
            continue;
        if ((!dr->io && !(dr->io = res_io_new()))
            || (!dr->io->bound && !(dr->io->bound = calloc(1, sizeof *dr->io->bound)))
            || orch_bound_judge(&in, dr->io->bound) < 0)
            goto cleanup;
    }
    rc = 0;
cleanup:
    free(bv);
    return rc;
}

/* ------------------------------------------------------------------ */
/* the live view                                                       */

int tel_qemu_last(const orch_telemetry *t, const tel_vm *v, double now, res_io_qemu *q)
{
    int w = TEL_QS_VCPU + v->nvcpu;
    const double *b = v->nqs >= 2 ? v->qs + (size_t)(v->nqs - 1) * (size_t)w : NULL;
    (void)t;
    if (!b || b[0] != now || !(b[0] > b[-w]))
        return 0;
    rows_qemu(b - w, b, v->nvcpu, q);
    return 1;
}

void tel_bound_now(const orch_telemetry *t, orch_tel_now *v, orch_tel_drive_now *drives)
{
    orch_bound_vm bv[64];
    const tel_cpu_sample *a = t->ncpu >= 2 ? &t->cpu[t->ncpu - 2] : NULL;
    v->has_host_cpu = a && a[1].t == v->t && a[1].total > a[0].total;
    v->host_cpu_pct = v->has_host_cpu
                      ? (a[1].busy - a[0].busy) / (a[1].total - a[0].total) * 100.0 : NAN;
    for (int d = 0; d < v->ndrives; d++) {
        orch_bound_in in = {
            .tcg = t->p->domain_type && strcmp(t->p->domain_type, "qemu") == 0,
            .host_cpu_pct = v->host_cpu_pct,
            .util_pct = drives[d].has_dev ? drives[d].dev.util_pct : NAN,
            .queue_depth = drives[d].has_dev ? drives[d].dev.queue_depth : NAN,
            .user_net = t->p->client == ORCH_CLIENT_HOST && t->p->network == ORCH_NET_USER,
            .vms = bv,
        };
        res_io_bound b = { 0 };
        for (int i = 0; i < v->nvms && in.nvms < 64; i++)
            if (v->vms[i].drive == d && v->vms[i].has_qemu)
                bv[in.nvms++] = (orch_bound_vm){ .name = "", .qemu = &v->vms[i].qemu,
                                                 .client_pct = NAN };
        if (!isfinite(in.host_cpu_pct) && !drives[d].has_dev && in.nvms == 0)
            continue;
        drives[d].has_bound = orch_bound_judge(&in, &b) == 0;
        drives[d].bound = b.verdict;
        free(b.evidence);
        free(b.vm);
    }
}
