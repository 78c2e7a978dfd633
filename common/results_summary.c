/* results_summary.c — the run summary (drivebench.summary/2) <-> res_summary:
 * summary.json and summary.csv (see results_summary.h; the format is in
 * results/SCHEMA.md). */
#include "results_server.h"
#include "results_capacity.h"
#include "results_fingerprint.h"
#include "results_summary.h"
#include "results_io.h"
#include "results_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_SCHEMA      "drivebench.summary/2.3"
#define SUMMARY_SCHEMA_NAME "drivebench.summary/"
#define SUMMARY_MAJOR       2

/* ------------------------------------------------------------------ */
/* summary                                                             */

void res_plan_init(res_plan *p)
{
    memset(p, 0, sizeof *p);
    p->vms_per_drive = p->repetitions = RES_UNSET;
    p->cv_threshold = NAN;
    p->tables = p->table_size = p->warehouses = p->threads = RES_UNSET;
    p->precondition_s = p->warmup_s = p->measure_s = RES_UNSET;
    p->expect_database_bytes = RES_UNSET;
    p->repetitions_min = p->repetitions_max = RES_UNSET;
    p->rate = NAN;
}

const char *res_latency_note(const res_plan *p)
{
    return p->rate == 0 ? RES_CLOSED_LOOP_NOTE : NULL;
}

void res_env_init(res_env *e)
{
    memset(e, 0, sizeof *e);
    e->cpus = e->memory_bytes = RES_UNSET;
}

/* ------------------------------------------------------------------ */
/* field tables                                                        */

#define F   RJ_F
#define HAS RJ_HAS

static const rj_field workload_fields[] = {
    F(RK_NAME,          RJ_STR_OPT, res_plan, workload),
    F("db_driver",      RJ_STR_OPT, res_plan, db_driver),
    F("tables",         RJ_I64_OPT, res_plan, tables),
    F("table_size",     RJ_I64_OPT, res_plan, table_size),
    F("warehouses",     RJ_I64_OPT, res_plan, warehouses),
    F("threads",        RJ_I64_OPT, res_plan, threads),
    F("precondition_s", RJ_I64_OPT, res_plan, precondition_s),
    F("warmup_s",       RJ_I64_OPT, res_plan, warmup_s),
    F("measure_s",      RJ_I64_OPT, res_plan, measure_s),
    F("expect_database_bytes", RJ_I64_OPT, res_plan, expect_database_bytes),
    F("precondition_rule", RJ_STR_OPT, res_plan, precondition_rule),
    F("rate",           RJ_NUM_OPT, res_plan, rate, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field plan_fields[] = {
    F(RK_NAME,         RJ_STR_OPT, res_plan, name),
    F("profile",       RJ_STR_OPT, res_plan, profile),
    F("vms_per_drive", RJ_I64_OPT, res_plan, vms_per_drive),
    F("client",        RJ_STR_OPT, res_plan, client),
    F("client_path",   RJ_STR_OPT, res_plan, client_path),
    F("repetitions",   RJ_I64_OPT, res_plan, repetitions),
    F("cv_threshold",  RJ_NUM_OPT, res_plan, cv_threshold),
    F("repetitions_rule", RJ_STR_OPT, res_plan, repetitions_rule),
    F("repetitions_min", RJ_I64_OPT, res_plan, repetitions_min),
    F("repetitions_max", RJ_I64_OPT, res_plan, repetitions_max),
    F("pinning",       RJ_STR_OPT, res_plan, pinning),
    F("hugepages",     RJ_STR_OPT, res_plan, hugepages),
    RJ_HERE("workload", RJ_OBJ, .sub = workload_fields),
    RJ_TABLE_END,
};

static const rj_field env_host_fields[] = {
    F("hostname",     RJ_STR_OPT, res_env, hostname),
    F("kernel",       RJ_STR_OPT, res_env, kernel),
    F("cpu_model",    RJ_STR_OPT, res_env, cpu_model),
    F("cpus",         RJ_I64_OPT, res_env, cpus),
    F("memory_bytes", RJ_I64_OPT, res_env, memory_bytes),
    RJ_TABLE_END,
};

/* cpus, cpu_mhz, memory_bytes: 0 is "not recorded" too */
static const rj_field hypervisor_fields[] = {
    F("uri",                RJ_STR,     res_hypervisor, uri),
    F("hostname",           RJ_STR,     res_hypervisor, hostname),
    F("libvirt_version",    RJ_STR,     res_hypervisor, libvirt_version),
    F("hypervisor",         RJ_STR,     res_hypervisor, hypervisor),
    F("hypervisor_version", RJ_STR,     res_hypervisor, hypervisor_version),
    F("domain_type",        RJ_STR,     res_hypervisor, domain_type),
    F("cpu_model",          RJ_STR_OPT, res_hypervisor, cpu_model),
    F("arch",               RJ_STR_OPT, res_hypervisor, arch),
    F("kernel",             RJ_STR_OPT, res_hypervisor, kernel),
    F("cpus",               RJ_I64_OPT, res_hypervisor, cpus, .flags = RJ_ZERO_UNSET),
    F("cpu_mhz",            RJ_I64_OPT, res_hypervisor, cpu_mhz, .flags = RJ_ZERO_UNSET),
    F("memory_bytes",       RJ_I64_OPT, res_hypervisor, memory_bytes, .flags = RJ_ZERO_UNSET),
    F("guest_cpu",          RJ_STR_OPT, res_hypervisor, guest_cpu),
    F("domain_type_reason", RJ_STR_OPT, res_hypervisor, domain_type_reason),
    F("cpu_flags",          RJ_STR_OPT, res_hypervisor, cpu_flags),
    RJ_TABLE_END,
};

const char *res_hc_status_name(res_hc_status s)
{
    static const char *const names[] = { "ok", "warn", "refuse" };
    return s >= 0 && s < RES_HC_STATUS_COUNT ? names[s] : "?";
}

static const char *hc_status_name_of(int s)
{
    return res_hc_status_name((res_hc_status)s);
}

/* issue 31: a word the reader does not know is "ok" (0) */
static const rj_field hc_finding_fields[] = {
    F("check",   RJ_STR,     res_hc_finding, check, .flags = RJ_NONEMPTY),
    F("drive",   RJ_STR_OPT, res_hc_finding, drive),
    F("status",  RJ_ENUM,    res_hc_finding, status, .name = hc_status_name_of,
      .n = RES_HC_STATUS_COUNT),
    F("value",   RJ_STR_OPT, res_hc_finding, value),
    F("message", RJ_STR_OPT, res_hc_finding, message),
    F("fix",     RJ_STR_OPT, res_hc_finding, fix),
    F("ignored", RJ_BOOL,    res_hc_finding, ignored),
    RJ_TABLE_END,
};

static const rj_field env_fields[] = {
    RJ_HERE("host",  RJ_OBJ, .sub = env_host_fields),
    F("hypervisors", RJ_ARRAY, res_env, hypervisors, .sub = hypervisor_fields,
      .size = sizeof(res_hypervisor), .n_off = offsetof(res_env, nhypervisors),
      .max = RES_MAX_DRIVES, .label = "drives or hypervisors"),
    F("host_check",  RJ_ARRAY, res_env, host_check, .sub = hc_finding_fields,
      .size = sizeof(res_hc_finding), .n_off = offsetof(res_env, nhost_check),
      .max = RES_MAX_HOST_CHECK, .flags = RJ_OMIT_EMPTY),
    RJ_TABLE_END,
};

static const rj_field tpcc_latency_fields[] = {
    F(RK_AVG, RJ_NUM_OPT, res_tpcc_type, lat_avg_ms, .flags = RJ_NONNEG),
    F("p90",  RJ_NUM_OPT, res_tpcc_type, lat_p90_ms, .flags = RJ_NONNEG),
    F("p99",  RJ_NUM_OPT, res_tpcc_type, lat_p99_ms, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field tpcc_type_fields[] = {
    F(RK_NAME,        RJ_STR,  res_tpcc_type, name, .flags = RJ_NONEMPTY),
    F("count",        RJ_I64,  res_tpcc_type, count, .flags = RJ_COUNT),
    F("rollbacks",    RJ_I64,  res_tpcc_type, rollbacks, .flags = RJ_COUNT),
    RJ_HERE(RK_LATENCY_MS, RJ_OBJ, .sub = tpcc_latency_fields),
    F("p90_limit_ms", RJ_NUM,  res_tpcc_type, p90_limit_ms),
    F("p90_met",      RJ_BOOL, res_tpcc_type, p90_met),
    RJ_TABLE_END,
};

static const rj_field tpcc_figures_fields[] = {
    F(RK_TPMC,            RJ_NUM,   res_tpcc_figures, tpmc, .flags = RJ_NONNEG),
    F(RK_NOPM,            RJ_NUM,   res_tpcc_figures, nopm, .flags = RJ_SETS_HAS | RJ_NONNEG,
      HAS(res_tpcc_figures, has_nopm)),
    F("rollbacks",        RJ_I64,   res_tpcc_figures, rollbacks, .flags = RJ_COUNT),
    F("p90_limits_met",   RJ_BOOL,  res_tpcc_figures, p90_limits_met),
    F("transaction_types", RJ_ARRAY, res_tpcc_figures, types, .sub = tpcc_type_fields,
      .size = sizeof(res_tpcc_type), .n_off = offsetof(res_tpcc_figures, ntypes),
      .max = RES_MAX_TYPES),
    RJ_TABLE_END,
};

static const rj_field figures_latency_fields[] = {
    F(RK_AVG,            RJ_NUM_OPT, res_figures, lat_avg_ms, .flags = RJ_NONNEG),
    F("p99",             RJ_NUM_OPT, res_figures, lat_p99_ms, .flags = RJ_NONNEG),
    F("p99_mean_of_vms", RJ_NUM_OPT, res_figures, lat_p99_mean_of_vms_ms, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

/* tps_per_vm: summaries before vm_runs lack it; per VM as they computed it */
static void tps_per_vm_put(json_object *o, const rj_field *f, const void *base)
{
    rj_put(o, f->key, res_json_number(((const res_figures *)base)->tps_per_vm));
}

static int tps_per_vm_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    res_figures *x = base;
    if (rj_refuse_number(rj_get(o, f->key), f->key, RJ_NONNEG, c) < 0)
        return -1;
    x->tps_per_vm = rj_get(o, f->key) ? rj_get_d(o, f->key)
                    : x->vms ? x->tps / x->vms : 0;
    return 0;
}

static const rj_ops tps_per_vm_ops = { tps_per_vm_put, tps_per_vm_get, NULL, NULL };

/* database sizes: after load and at the end (a VM's, or the mean of a
 * drive's, a repetition's, the run's VMs) */
static const rj_field figures_db_fields[] = {
    F("loaded", RJ_OBJ, res_figures, db_loaded, .sub = res_db_size_fields,
      .flags = RJ_OMIT_EMPTY),
    F("end",    RJ_OBJ, res_figures, db_end, .sub = res_db_size_fields, .flags = RJ_OMIT_EMPTY),
    RJ_TABLE_END,
};

static bool vm_db_compared(const void *base)
{
    return isfinite(((const res_vm *)base)->db_deviation_pct);
}

static const rj_field vm_db_fields[] = {
    F("loaded", RJ_OBJ, res_vm, db_loaded, .sub = res_db_size_fields, .flags = RJ_OMIT_EMPTY),
    F("end",    RJ_OBJ, res_vm, db_end, .sub = res_db_size_fields, .flags = RJ_OMIT_EMPTY),
    F("deviation_pct",    RJ_NUM_OPT, res_vm, db_deviation_pct),
    F("beyond_tolerance", RJ_BOOL,    res_vm, db_size_warning, .when = vm_db_compared),
    RJ_TABLE_END,
};

/* latency_ms is required of figures that measured transactions: a
 * summary without it would show "nan" (issue 43); read after both */
static int latency_need_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    const res_figures *g = base;
    char where[256];
    if (g->transactions <= 0 || rj_get(o, RK_LATENCY_MS))
        return 0;
    rj_ctx_where(c, RK_LATENCY_MS, where, sizeof where);
    snprintf(c->err, c->errlen, "%s: expected an object of numbers (avg, p99), got nothing "
             "(%" PRId64 " transactions were measured)", where, g->transactions);
    return -1;
}

static const rj_ops latency_need_ops = { NULL, latency_need_get, NULL, NULL };

/* a drive, a repetition of it, the run (vms and tps read before
 * tps_per_vm, which may be computed from them) */
static const rj_field figures_fields[] = {
    F(RK_VMS,                 RJ_INT,    res_figures, vms, .flags = RJ_COUNT),
    F("vm_runs",              RJ_INT,    res_figures, vm_runs, .flags = RJ_COUNT),
    F("measured_repetitions", RJ_INT,    res_figures, repetitions, .flags = RJ_COUNT,
      .max = RES_MAX_REPETITIONS),
    F("failed_vms",           RJ_INT,    res_figures, failed_vms, .flags = RJ_COUNT),
    F(RK_TPS,                 RJ_NUM,    res_figures, tps, .flags = RJ_NONNEG),
    RJ_HERE("tps_per_vm",     RJ_CUSTOM, .ops = &tps_per_vm_ops),
    F("transactions",         RJ_I64,    res_figures, transactions, .flags = RJ_COUNT),
    RJ_HERE(RK_LATENCY_MS, RJ_OBJ, .sub = figures_latency_fields),
    RJ_HERE(NULL,          RJ_CUSTOM, .ops = &latency_need_ops),
    F("tpcc",       RJ_PTR, res_figures, tpcc, .sub = tpcc_figures_fields,
      .size = sizeof(res_tpcc_figures)),
    RJ_HERE("database_size", RJ_OBJ, .sub = figures_db_fields, .flags = RJ_OMIT_EMPTY),
    RJ_TABLE_END,
};

/* a res_io pointer: its keys beside the owner's (results_drive_io.c) */
static void io_put(json_object *o, const rj_field *f, const void *base)
{
    res_io_put(o, *(res_io *const *)((const char *)base + f->off));
}

static int io_get(json_object *o, const rj_field *f, void *base, rj_ctx *c)
{
    return rj_io_get(o, (res_io **)((char *)base + f->off), c);
}

static void io_free(const rj_field *f, void *base)
{
    res_io **io = (res_io **)((char *)base + f->off);
    res_io_free(*io);
    *io = NULL;
}

static const rj_ops io_ops = { io_put, io_get, NULL, io_free };

/* MB = 10^6 bytes, as drives are sold (written only) */
static void mb_s_put(json_object *o, const rj_field *f, const void *base)
{
    const res_restore *r = base;
    rj_put(o, f->key, res_json_number(r->seconds > 0 ? (double)r->bytes / 1e6 / r->seconds : 0));
}

static const rj_ops mb_s_ops = { mb_s_put, NULL, NULL, NULL };

static const rj_field restore_fields[] = {
    F("bytes",   RJ_I64, res_restore, bytes, .flags = RJ_COUNT),
    F("seconds", RJ_NUM, res_restore, seconds, .flags = RJ_NONNEG),
    RJ_HERE("mb_s", RJ_CUSTOM, .ops = &mb_s_ops),
    RJ_TABLE_END,
};

static bool restore_recorded(const void *base)
{
    return ((const res_drive *)base)->restore.bytes > 0;
}

/* a drive's status (written only): res_figures_status */
static void drive_status_put(json_object *o, const rj_field *f, const void *base)
{
    rj_put(o, f->key, json_object_new_string(res_figures_status(&((const res_drive *)base)->f)));
}

static const rj_ops drive_status_ops = { drive_status_put, NULL, NULL, NULL };

/* a precondition's rounds and steady state (issue 21) */
static const rj_field round_fields[] = {
    F("round",   RJ_INT,     res_round, round, .flags = RJ_COUNT),
    F("seconds", RJ_NUM,     res_round, seconds, .flags = RJ_NONNEG),
    F(RK_TPS,    RJ_NUM_OPT, res_round, tps, .flags = RJ_NONNEG),
    F("p99_ms",  RJ_NUM_OPT, res_round, p99_ms, .flags = RJ_NONNEG),
    F("read_iops",  RJ_NUM_OPT, res_round, rd_iops, .flags = RJ_NONNEG),
    F("write_iops", RJ_NUM_OPT, res_round, wr_iops, .flags = RJ_NONNEG),
    F("read_mb_s",  RJ_NUM_OPT, res_round, rd_mbps, .flags = RJ_NONNEG),
    F("write_mb_s", RJ_NUM_OPT, res_round, wr_mbps, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field steady_fields[] = {
    F("repetition",       RJ_INT,     res_steady, repetition),
    F("track",            RJ_STR,     res_steady, track),
    F("until_steady",     RJ_BOOL,    res_steady, until_steady),
    F("window",           RJ_INT,     res_steady, window),
    F("round_s",          RJ_INT,     res_steady, round_s),
    F("range_limit_pct",  RJ_NUM,     res_steady, range_limit_pct),
    F("slope_limit_pct",  RJ_NUM,     res_steady, slope_limit_pct),
    F("attained_round",   RJ_INT,     res_steady, attained_round),
    F("verdict",          RJ_STR,     res_steady, verdict),
    F("window_mean",      RJ_NUM_OPT, res_steady, window_mean),
    F("window_range_pct", RJ_NUM_OPT, res_steady, window_range_pct),
    F("window_excursion_pct", RJ_NUM_OPT, res_steady, window_excursion_pct),
    F("rounds",           RJ_ARRAY,   res_steady, rounds, .sub = round_fields,
      .size = sizeof(res_round), .n_off = offsetof(res_steady, nrounds),
      .max = RES_MAX_INTERVALS),
    RJ_TABLE_END,
};

void res_steady_free(res_steady *s)
{
    if (!s)
        return;
    rj_free_fields(steady_fields, s);
    free(s);
}

int res_steady_copy(res_steady *dst, const res_steady *src)
{
    *dst = *src;
    return rj_copy_fields(steady_fields, dst, src);
}

static const rj_field repetition_fields[] = {
    F(NULL,          RJ_EMBED, res_repetition, f, .sub = figures_fields),
    F("repetition",  RJ_INT,   res_repetition, repetition, .flags = RJ_COUNT),
    RJ_TABLE_END,
};

/* a repetition that measured fewer VMs than the drive's figures count */
static const rj_field rep_vms_fields[] = {
    F("repetition", RJ_INT, res_rep_vms, repetition, .flags = RJ_COUNT),
    F(RK_VMS,       RJ_INT, res_rep_vms, vms, .flags = RJ_COUNT),
    RJ_TABLE_END,
};

static const rj_field drive_fields[] = {
    F(NULL,          RJ_EMBED,  res_drive, f, .sub = figures_fields),
    F(RK_NAME,       RJ_STR,    res_drive, name, .flags = RJ_NONEMPTY),
    F("restore",     RJ_OBJ,    res_drive, restore, .sub = restore_fields,
      .when = restore_recorded),
    RJ_HERE("status", RJ_CUSTOM, .ops = &drive_status_ops),
    F("repetitions", RJ_ARRAY,  res_drive, reps, .sub = repetition_fields,
      .size = sizeof(res_repetition), .n_off = offsetof(res_drive, nreps),
      .max = RES_MAX_REPETITIONS),
    F("repetitions_other_vms", RJ_ARRAY, res_drive, other_reps, .sub = rep_vms_fields,
      .size = sizeof(res_rep_vms), .n_off = offsetof(res_drive, nother_reps),
      .max = RES_MAX_REPETITIONS, .flags = RJ_OMIT_EMPTY),
    F(NULL,          RJ_CUSTOM, res_drive, io, .ops = &io_ops),
    F("precondition_steady", RJ_ARRAY, res_drive, pre, .sub = steady_fields,
      .size = sizeof(res_steady), .n_off = offsetof(res_drive, npre),
      .max = RES_MAX_REPETITIONS, .flags = RJ_OMIT_EMPTY),
    F("capacity",    RJ_PTR,    res_drive, capacity, .sub = res_capacity_fields,
      .size = sizeof(res_capacity)),
    RJ_TABLE_END,
};

static const rj_field vm_latency_fields[] = {
    F(RK_AVG, RJ_NUM_OPT, res_vm, lat_avg_ms, .flags = RJ_NONNEG),
    F("p99",  RJ_NUM_OPT, res_vm, lat_p99_ms, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

/* the failure's details only for a failed VM, the measured figures only
 * when known (a failed VM may have none) */
static const rj_field vm_fields[] = {
    F(RK_NAME,               RJ_STR,     res_vm, name, .flags = RJ_NONEMPTY),
    F("drive",               RJ_STR,     res_vm, drive, .flags = RJ_NONEMPTY),
    F("host",                RJ_STR_OPT, res_vm, host),
    F("cpu_flags",           RJ_STR_OPT, res_vm, cpu_flags),
    F("cpus",                RJ_STR,     res_vm, cpus, .flags = RJ_SETS_HAS, HAS(res_vm, pinned)),
    F("emulator_cpus",       RJ_STR,     res_vm, emulator_cpus, HAS(res_vm, pinned)),
    F("numa_node",           RJ_INT_OPT, res_vm, numa_node, HAS(res_vm, pinned)),
    F("repetition",          RJ_INT,     res_vm, repetition, .flags = RJ_COUNT),
    F("status",              RJ_WORDS,   res_vm, failed, .words = { "ok", "failed" }),
    F("fault",               RJ_STR,     res_vm, fault, HAS(res_vm, failed)),
    F("reason",              RJ_STR,     res_vm, reason, HAS(res_vm, failed)),
    F("failed_at",           RJ_STR,     res_vm, failed_at, HAS(res_vm, failed)),
    F("failed_in",           RJ_STR,     res_vm, failed_in, HAS(res_vm, failed)),
    F("console_tail",        RJ_STR,     res_vm, console_tail, HAS(res_vm, failed)),
    F("failed_at_s",         RJ_NUM_OPT, res_vm, failed_at_s, HAS(res_vm, failed)),
    F("result_ended",        RJ_STR_OPT, res_vm, result_ended, HAS(res_vm, failed)),
    F("boot_reboots",        RJ_I64_OPT, res_vm, boot_reboots, .flags = RJ_ZERO_UNSET),
    F("result",              RJ_STR,     res_vm, result),
    F("precondition_result", RJ_STR,     res_vm, precondition_result),
    F(RK_TPS,                RJ_NUM,     res_vm, tps, .flags = RJ_SETS_HAS | RJ_NONNEG,
      HAS(res_vm, measured)),
    F("transactions",        RJ_I64,     res_vm, transactions, HAS(res_vm, measured), .flags = RJ_COUNT),
    RJ_HERE(RK_LATENCY_MS,   RJ_OBJ,     .sub = vm_latency_fields, HAS(res_vm, measured)),
    F("server_version",      RJ_STR_OPT, res_vm, server_version, HAS(res_vm, measured)),
    F("server",              RJ_PTR,     res_vm, server, .sub = res_server_fields,
      .size = sizeof(res_server)),
    F("errors",              RJ_I64_OPT, res_vm, errors, HAS(res_vm, measured), .flags = RJ_COUNT),
    F("reconnects",          RJ_I64_OPT, res_vm, reconnects, HAS(res_vm, measured), .flags = RJ_COUNT),
    F("tps_series",          RJ_CUSTOM,  res_vm, series, .ops = &res_points_ops,
      .n_off = offsetof(res_vm, npoints), .max = RES_MAX_INTERVALS,
      .label = "tps_series points"),
    F(NULL,                  RJ_CUSTOM,  res_vm, io, .ops = &io_ops),
    F("precondition_steady", RJ_PTR,     res_vm, pre, .sub = steady_fields,
      .size = sizeof(res_steady)),
    /* time bins (issue 21) */
    F("interval_s",          RJ_NUM_OPT, res_vm, interval_s, HAS(res_vm, measured), .flags = RJ_NONNEG),
    RJ_HERE("database_size", RJ_OBJ,     .sub = vm_db_fields, .flags = RJ_OMIT_EMPTY),
    RJ_TABLE_END,
};

/* run.latency_note: written from plan.workload.rate (a reader takes the
 * rate) */
static void latency_note_put(json_object *o, const rj_field *f, const void *base)
{
    const char *note = res_latency_note(&((const res_summary *)base)->plan);
    if (note)
        rj_put(o, f->key, json_object_new_string(note));
}

static const rj_ops latency_note_ops = { latency_note_put, NULL, NULL, NULL };

static const rj_field run_fields[] = {
    F(NULL,     RJ_EMBED, res_summary, run, .sub = figures_fields),
    F(RK_DRIVES, RJ_INT,  res_summary, run_drives, .flags = RJ_COUNT),
    F("repetitions_stop", RJ_STR_OPT, res_summary, repetitions_stop),
    RJ_HERE("latency_note", RJ_CUSTOM, .ops = &latency_note_ops),
    RJ_TABLE_END,
};

/* issue 34: the interruptions a resume went on after */
static const rj_field interruption_fields[] = {
    F("at",               RJ_STR_OPT, res_interruption, at),
    F("resumed_at",       RJ_STR,     res_interruption, resumed_at),
    F("repetition",       RJ_INT,     res_interruption, repetition, .flags = RJ_COUNT),
    F("kept_repetitions", RJ_INT,     res_interruption, kept_repetitions, .flags = RJ_COUNT),
    F("lost",             RJ_STR,     res_interruption, lost),
    F("moved_to",         RJ_STR_OPT, res_interruption, moved_to),
    RJ_TABLE_END,
};

int res_interruption_copy(res_interruption *dst, const res_interruption *src)
{
    *dst = *src;
    return rj_copy_fields(interruption_fields, dst, src);
}

void res_interruption_clear(res_interruption *i)
{
    rj_free_fields(interruption_fields, i);
}

static const char *run_status_name_of(int st)
{
    return res_run_status_name((res_run_status)st);
}

static const rj_field summary_fields[] = {
    RJ_HERE(RK_SCHEMA,  RJ_CONST, .dflt = SUMMARY_SCHEMA),
    F("run_id",         RJ_STR,   res_summary, run_id, .flags = RJ_NONEMPTY),
    F("status",         RJ_ENUM,  res_summary, status, .name = run_status_name_of,
      .n = RES_RUN_PARTIAL + 1),
    F("started_at",     RJ_STR,   res_summary, started_at),
    F("finished_at",    RJ_STR,   res_summary, finished_at),
    F("plan_file",      RJ_STR,   res_summary, plan_file, .dflt = "plan.ini"),
    F("plan",           RJ_OBJ,   res_summary, plan, .sub = plan_fields),
    F("environment",    RJ_OBJ,   res_summary, env, .sub = env_fields),
    F("repetitions",    RJ_INT,   res_summary, repetitions, .flags = RJ_COUNT,
      .max = RES_MAX_REPETITIONS),
    /* issue 34: a resume's checkpoint and the interruptions it went on after */
    F("completed_repetitions", RJ_INT_OPT, res_summary, completed_reps),
    F("interruptions",  RJ_ARRAY, res_summary, interruptions, .sub = interruption_fields,
      .size = sizeof(res_interruption), .n_off = offsetof(res_summary, ninterruptions),
      .max = RES_MAX_REPETITIONS, .flags = RJ_OMIT_EMPTY),
    F(RK_DRIVES,        RJ_ARRAY, res_summary, drives, .sub = drive_fields,
      .size = sizeof(res_drive), .n_off = offsetof(res_summary, ndrives),
      .max = RES_MAX_DRIVES, .label = "drives or hypervisors"),
    F(RK_VMS,           RJ_ARRAY, res_summary, vms, .sub = vm_fields,
      .size = sizeof(res_vm), .n_off = offsetof(res_summary, nvms), .max = RES_MAX_VMS),
    RJ_HERE("run",      RJ_OBJ,   .sub = run_fields),
    F(NULL,             RJ_CUSTOM, res_summary, io, .ops = &io_ops),
    /* issue 22: the protocol; absent in summaries written before it */
    F("fingerprint",    RJ_PTR,   res_summary, fp, .sub = res_fingerprint_fields,
      .size = sizeof(res_fingerprint)),
    RJ_TABLE_END,
};

/* ------------------------------------------------------------------ */
/* summary                                                             */

void res_plan_clear(res_plan *p)
{
    rj_free_fields(plan_fields, p);
}

void res_env_clear(res_env *e)
{
    rj_free_fields(env_fields, e);
}

int res_plan_copy(res_plan *dst, const res_plan *src)
{
    *dst = *src;
    return rj_copy_fields(plan_fields, dst, src);
}

int res_env_copy(res_env *dst, const res_env *src)
{
    *dst = *src;
    return rj_copy_fields(env_fields, dst, src);
}

static const char *const run_status_names[] = {
    [RES_RUN_COMPLETE] = "complete",
    [RES_RUN_DEGRADED] = "completed_with_failures",
    [RES_RUN_PARTIAL] = "partial",
};

const char *res_run_status_name(res_run_status st)
{
    return (unsigned)st <= RES_RUN_PARTIAL ? run_status_names[st] : "?";
}

void res_tpcc_figures_free(res_tpcc_figures *t)
{
    if (!t)
        return;
    rj_free_fields(tpcc_figures_fields, t);
    free(t);
}

void res_summary_clear(res_summary *s)
{
    if (!s)
        return;
    rj_free_fields(summary_fields, s);
    memset(s, 0, sizeof *s);
}

json_object *res_summary_to_json(const res_summary *s)
{
    json_object *out = json_object_new_object();
    rj_put_fields(out, summary_fields, s);
    return out;
}

/* rj_each's call as a res_vm_each_fn's */
typedef struct vm_each { res_vm_each_fn fn; void *ctx; } vm_each;
static int vm_each_call(void *ctx, void *elem, int before)
{
    const vm_each *e = ctx;
    return e->fn(e->ctx, elem, before);
}

int res_summary_write_files(const res_summary *s, const char *dir, char *err, size_t errlen)
{
    return res_summary_write_files_vm(s, dir, NULL, NULL, err, errlen);
}

int res_summary_write_files_vm(const res_summary *s, const char *dir, res_vm_each_fn fn,
                               void *ctx, char *err, size_t errlen)
{
    vm_each e = { fn, ctx };
    rj_each each = { RK_VMS, vm_each_call, &e };
    size_t n = strlen(dir) + sizeof "/summary.json";
    char *jpath = malloc(n), *cpath = malloc(n);
    int rc = -1;

    if (!jpath || !cpath) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    snprintf(jpath, n, "%s/summary.json", dir);
    snprintf(cpath, n, "%s/summary.csv", dir);
    /* streamed: a 64-VM run of 3 h is hundreds of MiB as one json-c tree */
    if (rj_write_fields_each(jpath, summary_fields, s, fn ? &each : NULL, err, errlen) < 0
        || res_summary_write_csv(s, cpath, err, errlen) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    free(jpath);
    free(cpath);
    return rc;
}

static int summary_from_json_trim(json_object *doc, void *dst,
                                  void (*trim)(json_object *, const char *), char *err,
                                  size_t errlen)
{
    res_summary *s = dst;
    json_object *schema = rj_get(doc, RK_SCHEMA), *drives = rj_get(doc, RK_DRIVES);
    json_object *vms = rj_get(doc, RK_VMS);
    const char *name = schema ? json_object_get_string(schema) : NULL;
    int major = rj_schema_major(name, SUMMARY_SCHEMA_NAME);
    rj_ctx c = { .err = err, .errlen = errlen, .trim = trim };

    if (major == 1) {
        snprintf(err, errlen, "%s was written by an older drivebench, whose summaries lack "
                 "the per-VM figures this report reads; run the plan again", name);
        return -1;
    }
    if (major != SUMMARY_MAJOR) {
        snprintf(err, errlen, "not a %s%d document", SUMMARY_SCHEMA_NAME, SUMMARY_MAJOR);
        return -1;
    }
    if (!drives || !json_object_is_type(drives, json_type_array)
        || !vms || !json_object_is_type(vms, json_type_array)) {
        snprintf(err, errlen, "no %s or %s array", RK_DRIVES, RK_VMS);
        return -1;
    }
    return rj_get_fields(doc, summary_fields, s, &c);
}

static int summary_from_json(json_object *doc, void *dst, char *err, size_t errlen)
{
    return summary_from_json_trim(doc, dst, NULL, err, errlen);
}

/* The series member of obj.key deleted (obj.key absent: nothing). */
static void del_series(json_object *obj, const char *key)
{
    json_object *o = rj_get(obj, key);
    if (o && json_object_is_type(o, json_type_object))
        json_object_object_del(o, "series");
}

/* A VM's rows the report does not read: its disks' series (each view),
 * its per-transaction and p-latency series (its tps_series stays). */
static void trim_vm_rows(json_object *elem, const char *array_key)
{
    json_object *io;
    if (strcmp(array_key, RK_VMS) != 0 || !json_object_is_type(elem, json_type_object))
        return;
    if ((io = rj_get(elem, "io")) && json_object_is_type(io, json_type_object)) {
        del_series(io, "db");
        del_series(io, "boot");
        del_series(io, "guest");
    }
    del_series(elem, "per_txn");
    del_series(elem, "p_latency_series");
}

static int summary_figures_from_json(json_object *doc, void *dst, char *err, size_t errlen)
{
    return summary_from_json_trim(doc, dst, trim_vm_rows, err, errlen);
}

static void summary_clear(void *s)
{
    res_summary_clear(s);
}

int res_summary_read_file(const char *path, res_summary *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    res_plan_init(&s->plan);
    res_env_init(&s->env);
    /* a long run's drives and VMs, one element's tree at a time */
    static const char *const lazy[] = { RK_DRIVES, RK_VMS, NULL };
    return rj_read_doc_lazy(path, "", lazy, summary_from_json, summary_clear, s, err, errlen);
}

int res_summary_read_figures(const char *path, res_summary *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    res_plan_init(&s->plan);
    res_env_init(&s->env);
    static const char *const lazy[] = { RK_DRIVES, RK_VMS, NULL };
    return rj_read_doc_lazy(path, "", lazy, summary_figures_from_json, summary_clear, s, err,
                            errlen);
}
