/* results_capacity.c — a drive's capacity at a latency target in the
 * summary (results_capacity.h res_capacity, results/SCHEMA.md "Capacity at a
 * latency target"; issue 45): the search's result and its probes, nested
 * in drives[] through the same table for writing, reading and copying. */
#include "results_capacity.h"
#include "results_json.h"

#include <stddef.h>

#define F RJ_F

static const rj_field cap_probe_fields[] = {
    F("offered",      RJ_NUM,     res_cap_probe, offered, .flags = RJ_NONNEG),
    F("achieved_tps", RJ_NUM,     res_cap_probe, achieved, .flags = RJ_NONNEG),
    F("queue_ms",     RJ_NUM_OPT, res_cap_probe, queue_ms, .flags = RJ_NONNEG),
    F("percentile_ms", RJ_NUM_OPT, res_cap_probe, pct_ms, .flags = RJ_NONNEG),
    F("percentile_lo_ms", RJ_NUM_OPT, res_cap_probe, pct_lo_ms, .flags = RJ_NONNEG),
    F("percentile_hi_ms", RJ_NUM_OPT, res_cap_probe, pct_hi_ms, .flags = RJ_NONNEG),
    F("transactions", RJ_I64,     res_cap_probe, transactions, .flags = RJ_COUNT),
    F("verdict",      RJ_STR,     res_cap_probe, verdict, .flags = RJ_NONEMPTY),
    F("why",          RJ_STR,     res_cap_probe, why, .flags = RJ_NONEMPTY),
    F("run_id",       RJ_STR_OPT, res_cap_probe, run_id),
    RJ_TABLE_END,
};

const rj_field res_capacity_fields[] = {
    F("target",       RJ_STR,     res_capacity, target, .flags = RJ_NONEMPTY),
    F("capacity",     RJ_NUM_OPT, res_capacity, capacity, .flags = RJ_NONNEG),
    F("interval_lo",  RJ_NUM_OPT, res_capacity, lo, .flags = RJ_NONNEG),
    F("interval_hi",  RJ_NUM_OPT, res_capacity, hi, .flags = RJ_NONNEG),
    F("end",          RJ_STR,     res_capacity, end, .flags = RJ_NONEMPTY),
    F("breaking_probe", RJ_INT_POS, res_capacity, breaking),
    F("probes",       RJ_ARRAY,   res_capacity, probes, .sub = cap_probe_fields,
      .size = sizeof(res_cap_probe), .n_off = offsetof(res_capacity, nprobes),
      .max = RES_MAX_CAP_PROBES),
    RJ_TABLE_END,
};
