/* results_sweep.c — sweep.json, a sweep's steps and knees (results_sweep.h,
 * results/SCHEMA.md "Sweep"): one field table each, for the writer and
 * the reader. */
#include "results_sweep.h"
#include "results_json.h"

#include <stdlib.h>
#include <string.h>

#define F RJ_F
#define SWEEP_SCHEMA_NAME "drivebench.sweep/"
#define SWEEP_SCHEMA      SWEEP_SCHEMA_NAME "1"

static const rj_field drive_fields[] = {
    F(RK_NAME,      RJ_STR,     res_sweep_drive, name, .flags = RJ_NONEMPTY),
    F("complete",   RJ_BOOL,    res_sweep_drive, complete),
    F("vms",        RJ_INT,     res_sweep_drive, vms, .flags = RJ_COUNT),
    F(RK_TPS,       RJ_NUM_OPT, res_sweep_drive, tps, .flags = RJ_NONNEG),
    F("lat_avg_ms", RJ_NUM_OPT, res_sweep_drive, lat_avg_ms, .flags = RJ_NONNEG),
    F("lat_p99_ms", RJ_NUM_OPT, res_sweep_drive, lat_p99_ms, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field step_fields[] = {
    F("value",      RJ_NUM,     res_sweep_step, value),
    F("run_id",     RJ_STR,     res_sweep_step, run_id, .flags = RJ_NONEMPTY),
    F("status",     RJ_STR,     res_sweep_step, status, .flags = RJ_NONEMPTY),
    F(RK_DRIVES,    RJ_ARRAY,   res_sweep_step, drives, .sub = drive_fields,
      .size = sizeof(res_sweep_drive), .n_off = offsetof(res_sweep_step, ndrives)),
    RJ_TABLE_END,
};

static const rj_field knee_fields[] = {
    F("drive",      RJ_STR,     res_sweep_knee, drive, .flags = RJ_NONEMPTY),
    F("step",       RJ_INT,     res_sweep_knee, step, .flags = RJ_COUNT),
    F("value",      RJ_NUM,     res_sweep_knee, value),
    F(RK_TPS,       RJ_NUM,     res_sweep_knee, tps, .flags = RJ_NONNEG),
    RJ_TABLE_END,
};

static const rj_field sweep_fields[] = {
    RJ_HERE(RK_SCHEMA, RJ_CONST, .dflt = SWEEP_SCHEMA),
    F("run_id",      RJ_STR,     res_sweep, run_id, .flags = RJ_NONEMPTY),
    F("plan",        RJ_STR,     res_sweep, plan_name),
    F("section",     RJ_STR,     res_sweep, section, .flags = RJ_NONEMPTY),
    F("key",         RJ_STR,     res_sweep, key, .flags = RJ_NONEMPTY),
    F("started_at",  RJ_STR_OPT, res_sweep, started_at),
    F("finished_at", RJ_STR_OPT, res_sweep, finished_at),
    F("steps",       RJ_ARRAY,   res_sweep, steps, .sub = step_fields,
      .size = sizeof(res_sweep_step), .n_off = offsetof(res_sweep, nsteps), .max = 1024),
    F("knees",       RJ_ARRAY,   res_sweep, knees, .sub = knee_fields,
      .size = sizeof(res_sweep_knee), .n_off = offsetof(res_sweep, nknees), .max = 1024),
    RJ_TABLE_END,
};

void res_sweep_clear(res_sweep *s)
{
    if (!s)
        return;
    rj_free_fields(sweep_fields, s);
    memset(s, 0, sizeof *s);
}

int res_sweep_write_file(const res_sweep *s, const char *dir, char *err, size_t errlen)
{
    size_t n = strlen(dir) + sizeof "/sweep.json";
    char *path = malloc(n);
    int rc;
    if (!path) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(path, n, "%s/sweep.json", dir);
    rc = rj_write_fields(path, sweep_fields, s, err, errlen);
    free(path);
    return rc;
}

static int sweep_from_json(json_object *doc, void *dst, char *err, size_t errlen)
{
    json_object *schema = rj_get(doc, RK_SCHEMA);
    const char *name = schema ? json_object_get_string(schema) : NULL;
    rj_ctx c = { .err = err, .errlen = errlen };
    if (rj_schema_major(name, SWEEP_SCHEMA_NAME) != 1) {
        snprintf(err, errlen, "not a %s1 document", SWEEP_SCHEMA_NAME);
        return -1;
    }
    return rj_get_fields(doc, sweep_fields, dst, &c);
}

static void sweep_clear(void *s)
{
    res_sweep_clear(s);
}

int res_sweep_read_file(const char *path, res_sweep *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    return rj_read_doc(path, "", sweep_from_json, sweep_clear, s, err, errlen);
}
