/* live_text.c — the live view as OpenMetrics text (live.h lists the
 * families; docs/campaigns.md, "Live view", their meaning and units). */
#include "live/live_state.h"
#include "live/openmetrics.h"

#include <math.h>
#include <stdio.h>

/* The per-VM figures, each one family labelled drive and vm. */
typedef enum {
    VM_TPS, VM_QPS, VM_ERRORS, VM_RECONNECTS, VM_INTERVAL_END,
    VM_RD_IOPS, VM_WR_IOPS, VM_FL_IOPS, VM_RD_BYTES, VM_WR_BYTES, VM_RD_LAT, VM_WR_LAT,
    VM_NFIGURES
} vm_figure;

typedef struct family {
    const char *name, *unit, *help;
} family;

static const family vm_families[VM_NFIGURES] = {
    [VM_TPS] = { "drivebench_vm_tps", NULL,
                 "Transactions per second in the VM's latest oltp interval" },
    [VM_QPS] = { "drivebench_vm_qps", NULL,
                 "Queries per second in the VM's latest oltp interval" },
    [VM_ERRORS] = { "drivebench_vm_errors_per_second", NULL,
                    "Retried errors (deadlocks, lock waits) per second in that interval" },
    [VM_RECONNECTS] = { "drivebench_vm_reconnects_per_second", NULL,
                        "Reconnects per second in that interval" },
    [VM_INTERVAL_END] = { "drivebench_vm_interval_end_seconds", "seconds",
                          "End of that interval, seconds since the VM's oltp began its run "
                          "(warm-up included)" },
    [VM_RD_IOPS] = { "drivebench_vm_disk_read_iops", NULL,
                     "Reads per second on the VM's database disk (hypervisor view), latest "
                     "sample interval" },
    [VM_WR_IOPS] = { "drivebench_vm_disk_write_iops", NULL,
                     "Writes per second on the VM's database disk, latest sample interval" },
    [VM_FL_IOPS] = { "drivebench_vm_disk_flush_iops", NULL,
                     "Flushes per second on the VM's database disk, latest sample interval" },
    [VM_RD_BYTES] = { "drivebench_vm_disk_read_bytes_per_second", NULL,
                      "Bytes read per second from the VM's database disk, latest sample "
                      "interval" },
    [VM_WR_BYTES] = { "drivebench_vm_disk_write_bytes_per_second", NULL,
                      "Bytes written per second to the VM's database disk, latest sample "
                      "interval" },
    [VM_RD_LAT] = { "drivebench_vm_disk_read_latency_seconds", "seconds",
                    "Mean read latency on the VM's database disk, latest sample interval" },
    [VM_WR_LAT] = { "drivebench_vm_disk_write_latency_seconds", "seconds",
                    "Mean write latency on the VM's database disk, latest sample interval" },
};

/* Bytes per second of increment field f of a block interval; NAN when
 * absent. */
static double blk_rate(const orch_blk_delta *d, orch_blk_field f)
{
    return ORCH_BLK_HAS(d->have, f) && d->dt > 0 ? (double)d->d[f] / d->dt : NAN;
}

/* VM v's figure k; NAN: nothing measured. */
static double vm_value(const live_vm *v, vm_figure k)
{
    const orch_interval *iv = v->has_iv ? &v->iv : NULL;
    const orch_blk_delta *db = v->has_db ? &v->db : NULL;
    switch (k) {
    case VM_TPS: return iv ? iv->tps : NAN;
    case VM_QPS: return iv ? iv->qps : NAN;
    case VM_ERRORS: return iv ? iv->errors_ps : NAN;
    case VM_RECONNECTS: return iv ? iv->reconnects_ps : NAN;
    case VM_INTERVAL_END: return iv ? iv->t : NAN;
    case VM_RD_IOPS: return db ? db->rd_iops : NAN;
    case VM_WR_IOPS: return db ? db->wr_iops : NAN;
    case VM_FL_IOPS: return db ? db->fl_iops : NAN;
    case VM_RD_BYTES: return db ? blk_rate(db, ORCH_BLK_RD_BYTES) : NAN;
    case VM_WR_BYTES: return db ? blk_rate(db, ORCH_BLK_WR_BYTES) : NAN;
    case VM_RD_LAT: return db ? db->rd_lat_ms / 1000.0 : NAN;
    case VM_WR_LAT: return db ? db->wr_lat_ms / 1000.0 : NAN;
    case VM_NFIGURES: break;
    }
    return NAN;
}

/* The per-drive figures of its device (host view), labelled drive. */
typedef enum {
    DR_RD_IOPS, DR_WR_IOPS, DR_FL_IOPS, DR_RD_BYTES, DR_WR_BYTES, DR_RD_AWAIT, DR_WR_AWAIT,
    DR_QUEUE, DR_UTIL, DR_NFIGURES
} drive_figure;

static const family drive_families[DR_NFIGURES] = {
    [DR_RD_IOPS] = { "drivebench_drive_read_iops", NULL,
                     "Reads per second completed by the drive's device (host view), latest "
                     "sample interval" },
    [DR_WR_IOPS] = { "drivebench_drive_write_iops", NULL,
                     "Writes per second completed by the drive's device, latest sample "
                     "interval" },
    [DR_FL_IOPS] = { "drivebench_drive_flush_iops", NULL,
                     "Flushes per second completed by the drive's device, latest sample "
                     "interval" },
    [DR_RD_BYTES] = { "drivebench_drive_read_bytes_per_second", NULL,
                      "Bytes read per second by the drive's device, latest sample interval" },
    [DR_WR_BYTES] = { "drivebench_drive_write_bytes_per_second", NULL,
                      "Bytes written per second by the drive's device, latest sample "
                      "interval" },
    [DR_RD_AWAIT] = { "drivebench_drive_read_await_seconds", "seconds",
                      "Mean read wait (queue and service) on the drive's device, latest "
                      "sample interval" },
    [DR_WR_AWAIT] = { "drivebench_drive_write_await_seconds", "seconds",
                      "Mean write wait on the drive's device, latest sample interval" },
    [DR_QUEUE] = { "drivebench_drive_queue_depth", NULL,
                   "Mean requests in the drive's device queue, latest sample interval" },
    [DR_UTIL] = { "drivebench_drive_utilization_ratio", "ratio",
                  "Share of the latest sample interval the drive's device was busy" },
};

static double drive_value(const live_drive *dr, drive_figure k)
{
    const orch_diskstat_delta *x = dr->has_dev ? &dr->dev : NULL;
    if (!x)
        return NAN;
    switch (k) {
    case DR_RD_IOPS: return x->rd_iops;
    case DR_WR_IOPS: return x->wr_iops;
    case DR_FL_IOPS: return x->fl_iops;
    case DR_RD_BYTES: return x->rd_mbps * 1e6;
    case DR_WR_BYTES: return x->wr_mbps * 1e6;
    case DR_RD_AWAIT: return x->rd_await_ms / 1000.0;
    case DR_WR_AWAIT: return x->wr_await_ms / 1000.0;
    case DR_QUEUE: return x->queue_depth;
    case DR_UTIL: return x->util_pct / 100.0;
    case DR_NFIGURES: break;
    }
    return NAN;
}

/* The run: its id, repetition, phase, round and faults. */
static void run_families(orch_live *lv, FILE *f)
{
    static const res_phase_id states[] = { RES_PHASE_NONE, RES_PHASE_PREPARE,
                                           RES_PHASE_PRECONDITION, RES_PHASE_MEASURE,
                                           RES_PHASE_CHECK };
    om_family(f, "drivebench_run", OM_INFO, NULL, "The run: its id, plan and workload");
    om_sample(f, "drivebench_run_info", 1, "run_id", lv->l->run_id, "plan", lv->p->name,
              "workload", lv->p->workload, NULL);
    om_family(f, "drivebench_repetition", OM_GAUGE, NULL,
              "The repetition running (1-based; 0 before the first)");
    om_sample(f, "drivebench_repetition", lv->rep, NULL);
    om_family(f, "drivebench_repetitions", OM_GAUGE, NULL,
              "Repetitions the plan asks for (repetitions = auto: its maximum)");
    om_sample(f, "drivebench_repetitions", lv->p->repetitions, NULL);
    om_family(f, "drivebench_phase", OM_STATESET, NULL,
              "The phase running on the VMs (none: between phases)");
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        om_sample(f, "drivebench_phase", lv->phase == states[i],
                  "drivebench_phase", states[i] == RES_PHASE_NONE ? "none"
                                                                 : res_phase_name(states[i]),
                  NULL);
    om_family(f, "drivebench_precondition_round", OM_GAUGE, NULL,
              "The precondition's round running (while the phase is precondition)");
    if (lv->phase == RES_PHASE_PRECONDITION && lv->round > 0)
        om_sample(f, "drivebench_precondition_round", lv->round, NULL);
    om_family(f, "drivebench_faults", OM_COUNTER, NULL,
              "VMs that failed so far in the run, all repetitions");
    om_sample(f, "drivebench_faults_total", lv->faults, NULL);
}

/* Per VM: whether it is up, its fault, then every figure measured. */
static void vm_text(orch_live *lv, FILE *f)
{
    double pct = NAN;
    char q[32];
    om_family(f, "drivebench_vm_up", OM_GAUGE, NULL,
              "1 while the VM runs this repetition without a fault, 0 once it failed");
    for (int i = 0; i < lv->l->nvms; i++)
        if (lv->vms[i].running)
            om_sample(f, "drivebench_vm_up", lv->vms[i].fault == ORCH_FAULT_NONE, "drive",
                      lv->l->vms[i].drive->name, "vm", lv->vms[i].label, NULL);
    om_family(f, "drivebench_vm_fault", OM_INFO, NULL,
              "Why a VM failed this repetition (results/SCHEMA.md, fault)");
    for (int i = 0; i < lv->l->nvms; i++)
        if (lv->vms[i].running && lv->vms[i].fault != ORCH_FAULT_NONE)
            om_sample(f, "drivebench_vm_fault_info", 1, "drive", lv->l->vms[i].drive->name,
                      "vm", lv->vms[i].label, "fault", orch_fault_name(lv->vms[i].fault), NULL);
    for (int k = 0; k < VM_NFIGURES; k++) {
        om_family(f, vm_families[k].name, OM_GAUGE, vm_families[k].unit, vm_families[k].help);
        for (int i = 0; i < lv->l->nvms; i++) {
            double v = vm_value(&lv->vms[i], (vm_figure)k);
            if (!isnan(v))
                om_sample(f, vm_families[k].name, v, "drive", lv->l->vms[i].drive->name, "vm",
                          lv->vms[i].label, NULL);
        }
    }
    /* the interval's latency, at the percentile oltp's line gives */
    om_family(f, "drivebench_vm_latency_seconds", OM_GAUGE, "seconds",
              "Transaction latency at a percentile (label quantile) in the VM's latest oltp "
              "interval");
    for (int i = 0; i < lv->l->nvms; i++) {
        if (!lv->vms[i].has_iv)
            continue;
        pct = lv->vms[i].iv.lat_pct / 100.0;
        om_number(q, sizeof q, pct);
        om_sample(f, "drivebench_vm_latency_seconds", lv->vms[i].iv.lat_ms / 1000.0, "drive",
                  lv->l->vms[i].drive->name, "vm", lv->vms[i].label, "quantile", q, NULL);
    }
}

/* Per drive: its VMs' TPS summed, then its device's figures. */
static void drive_text(orch_live *lv, FILE *f)
{
    om_family(f, "drivebench_drive_tps", OM_GAUGE, NULL,
              "Sum of the latest interval TPS of the drive's VMs that are up");
    for (int d = 0; d < lv->p->ndrives; d++) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < lv->l->nvms; i++) {
            const live_vm *v = &lv->vms[i];
            if (lv->l->vms[i].drive_index == d && v->has_iv && v->fault == ORCH_FAULT_NONE) {
                sum += v->iv.tps;
                n++;
            }
        }
        if (n)
            om_sample(f, "drivebench_drive_tps", sum, "drive", lv->p->drives[d].name, NULL);
    }
    for (int k = 0; k < DR_NFIGURES; k++) {
        om_family(f, drive_families[k].name, OM_GAUGE, drive_families[k].unit,
                  drive_families[k].help);
        for (int d = 0; d < lv->p->ndrives; d++) {
            double v = drive_value(&lv->drives[d], (drive_figure)k);
            if (!isnan(v))
                om_sample(f, drive_families[k].name, v, "drive", lv->p->drives[d].name, NULL);
        }
    }
}

/* What bounded the latest interval (issue 45): the host's CPU, each VM's
 * QEMU threads by role, each drive's verdict (a stateset). */
static void bound_text(orch_live *lv, FILE *f)
{
    static const char *const roles[] = { "vcpu", "main", "io", "other" };
    om_family(f, "drivebench_host_cpu_busy_ratio", OM_GAUGE, "ratio",
              "Share of the host's CPUs busy over the latest sample interval");
    if (lv->has_host_cpu)
        om_sample(f, "drivebench_host_cpu_busy_ratio", lv->host_cpu_pct / 100.0, NULL);
    om_family(f, "drivebench_vm_qemu_thread_cpu_ratio", OM_GAUGE, "ratio",
              "CPU of the VM's QEMU threads by role (vcpu: mean of its vCPU threads; main: "
              "the main loop, which carries the user-mode network; io: its I/O threads; "
              "other), in CPUs, latest sample interval");
    for (int i = 0; i < lv->l->nvms; i++) {
        const res_io_qemu *q = &lv->vms[i].qemu;
        const double v[] = { q->vcpu_pct, q->main_pct, q->io_pct, q->other_pct };
        for (int k = 0; lv->vms[i].has_qemu && k < 4; k++)
            om_sample(f, "drivebench_vm_qemu_thread_cpu_ratio", v[k] / 100.0, "drive",
                      lv->l->vms[i].drive->name, "vm", lv->vms[i].label, "role", roles[k],
                      NULL);
    }
    om_family(f, "drivebench_drive_bound", OM_STATESET, NULL,
              "What bounded the drive's latest sample interval (results/SCHEMA.md, bound; "
              "no client verdict: oltp's CPU comes with its result)");
    for (int d = 0; d < lv->p->ndrives; d++)
        for (int k = 0; lv->drives[d].has_bound && k < RES_BOUND_VERDICT_COUNT; k++)
            om_sample(f, "drivebench_drive_bound", lv->drives[d].bound == (res_bound_verdict)k,
                      "drive", lv->p->drives[d].name, "drivebench_drive_bound",
                      res_bound_verdict_name((res_bound_verdict)k), NULL);
}

void live_text(orch_live *lv, FILE *f)
{
    run_families(lv, f);
    vm_text(lv, f);
    drive_text(lv, f);
    bound_text(lv, f);
    om_eof(f);
}
