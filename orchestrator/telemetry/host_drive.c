/* host_drive.c — the host's view of a drive: device, stat, identity, SMART (see host_drive.h; its sampling over a phase is disk_sampler.c). */
#include "telemetry/host_drive.h"
#include "attributes.h"
#include "util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <json-c/json.h>

/* snprintf that says whether it fit: 0, or -1 when out was truncated
 * (paths and notes here are bounded; a truncated one reads as absent). */
__attribute__((format(printf, 3, 4)))
static int fmt(char *out, size_t len, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(out, len, f, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

const char *orch_dev_kind_name(orch_dev_kind k)
{
    static const char *const names[] = { "none", "disk", "partition", "dm", "md" };
    return k <= ORCH_DEV_MD ? names[k] : "?";
}

/* First line of the file at path into buf, trailing space removed; 0, or
 * -1 (buf "") when it cannot be read. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    if (!f)
        return -1;
    if (!fgets(buf, (int)len, f))
        buf[0] = '\0';
    fclose(f);
    size_t n = strlen(buf);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = '\0';
    return 0;
}

static int exists(const char *dir, const char *name)
{
    char p[PATH_MAX];
    fmt(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

static void base_of(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    fmt(out, len, "%s", b ? b + 1 : path);
}

/* The whole disk of the block device directory dir: its parent's name for
 * a partition, else its own. */
static void whole_disk(const char *dir, char *out, size_t len)
{
    char parent[PATH_MAX];
    if (exists(dir, "partition")) {
        fmt(parent, sizeof parent, "%s", dir);
        char *slash = strrchr(parent, '/');
        if (slash)
            *slash = '\0';
        base_of(parent, out, len);
    } else {
        base_of(dir, out, len);
    }
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Add the whole disks under device directory dir (through its slaves,
 * depth-first, stacked dm/md included) to out. */
static void collect_slaves(const char *dir, orch_drive_dev *out, int depth)
{
    char sd[PATH_MAX];
    fmt(sd, sizeof sd, "%s/slaves", dir);
    DIR *d = opendir(sd);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char link[PATH_MAX], real[PATH_MAX], sub[PATH_MAX], name[64];
        if (e->d_name[0] == '.')
            continue;
        fmt(link, sizeof link, "%s/%s", sd, e->d_name);
        if (!realpath(link, real))
            continue;
        fmt(sub, sizeof sub, "%s/slaves", real);
        DIR *deeper = depth < 4 ? opendir(sub) : NULL;
        int stacked = 0;
        if (deeper) {
            struct dirent *x;
            while ((x = readdir(deeper)))
                if (x->d_name[0] != '.')
                    stacked = 1;
            closedir(deeper);
        }
        if (stacked) {
            collect_slaves(real, out, depth + 1);
            continue;
        }
        whole_disk(real, name, sizeof name);
        int dup = 0;
        for (int i = 0; i < out->nslaves; i++)
            dup |= strcmp(out->slaves[i], name) == 0;
        if (!dup && out->nslaves < ORCH_DRIVE_MAX_SLAVES)
            fmt(out->slaves[out->nslaves++], sizeof out->slaves[0], "%s", name);
    }
    closedir(d);
}

int orch_drive_resolve_devno(const char *sysfs, unsigned major, unsigned minor,
                             orch_drive_dev *out, char *err, size_t errlen)
{
    char link[PATH_MAX], dir[PATH_MAX], top[PATH_MAX];
    memset(out, 0, sizeof *out);
    out->major = major;
    out->minor = minor;
    if (major == 0) {
        fmt(out->note, sizeof out->note,
                 "no block device (device %u:%u is anonymous: tmpfs, overlay, NFS, ...); "
                 "no host I/O statistics, identity or SMART", major, minor);
        return 0;
    }
    fmt(top, sizeof top, "%s/dev/block", sysfs);
    if (access(top, R_OK) != 0) {
        fmt(err, errlen, "cannot read %s: %s", top, strerror(errno));
        return -1;
    }
    fmt(link, sizeof link, "%s/%u:%u", top, major, minor);
    if (!realpath(link, dir)) {
        fmt(out->note, sizeof out->note,
                 "no block device: %s does not exist (a file system without its own "
                 "device, e.g. btrfs subvolumes or ZFS); no host I/O statistics", link);
        return 0;
    }
    base_of(dir, out->node, sizeof out->node);
    if (exists(dir, "partition")) {
        out->kind = ORCH_DEV_PARTITION;
        whole_disk(dir, out->disk, sizeof out->disk);
        fmt(out->id_disk, sizeof out->id_disk, "%s", out->disk);
        fmt(out->note, sizeof out->note,
                 "partition %s of %s: the whole disk is sampled (other partitions' I/O "
                 "included)", out->node, out->disk);
    } else if (exists(dir, "dm") || exists(dir, "md")) {
        int dm = exists(dir, "dm");
        char p[PATH_MAX], level[32] = "";
        out->kind = dm ? ORCH_DEV_DM : ORCH_DEV_MD;
        fmt(out->disk, sizeof out->disk, "%s", out->node);
        if (dm) {
            fmt(p, sizeof p, "%s/dm/name", dir);
            read_line(p, out->dm_name, sizeof out->dm_name);
        } else {
            fmt(p, sizeof p, "%s/md/level", dir);
            read_line(p, level, sizeof level);
            fmt(out->dm_name, sizeof out->dm_name, "%s%s%s", out->node,
                     level[0] ? " " : "", level);
        }
        collect_slaves(dir, out, 0);
        qsort(out->slaves, (size_t)out->nslaves, sizeof out->slaves[0], cmp_name);
        if (out->nslaves == 1)
            fmt(out->id_disk, sizeof out->id_disk, "%s", out->slaves[0]);
        fmt(out->note, sizeof out->note,
                 "%s device %s (%s) on %d disk(s): %s itself is sampled (what the file "
                 "system sees); %s", dm ? "device-mapper" : "md", out->node, out->dm_name,
                 out->nslaves, out->node,
                 out->nslaves == 1 ? "identity and SMART are its disk's"
                                   : "identity and SMART are per disk, not read here");
    } else {
        out->kind = ORCH_DEV_DISK;
        fmt(out->disk, sizeof out->disk, "%s", out->node);
        fmt(out->id_disk, sizeof out->id_disk, "%s", out->node);
        fmt(out->note, sizeof out->note, "whole disk %s", out->node);
    }
    return 0;
}

int orch_drive_resolve(const char *sysfs, const char *path, orch_drive_dev *out,
                       char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fmt(err, errlen, "cannot stat drive path %s: %s", path, strerror(errno));
        return -1;
    }
    return orch_drive_resolve_devno(sysfs, major(st.st_dev), minor(st.st_dev), out, err,
                                    errlen);
}

int orch_diskstat_parse(const char *text, orch_diskstat *s)
{
    const char *p = text;
    int n = 0;
    memset(s->v, 0, sizeof s->v);
    while (n < ORCH_DS_NFIELDS) {
        char *end;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p < '0' || *p > '9')
            break;
        s->v[n++] = strtoull(p, &end, 10);
        p = end;
    }
    s->nfields = n;
    return n >= 11 ? 0 : -1;
}

int orch_diskstat_read(const char *sysfs, const char *disk, orch_diskstat *s,
                       char *err, size_t errlen)
{
    char path[PATH_MAX], buf[512];
    fmt(path, sizeof path, "%s/block/%s/stat", sysfs, disk);
    if (read_line(path, buf, sizeof buf) < 0) {
        fmt(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    if (orch_diskstat_parse(buf, s) < 0) {
        fmt(err, errlen, "%s: expected at least 11 numbers, got \"%s\"", path, buf);
        return -1;
    }
    return 0;
}

static int is_ticks(int f)
{
    return f == ORCH_DS_RD_TICKS || f == ORCH_DS_WR_TICKS || f == ORCH_DS_IO_TICKS
        || f == ORCH_DS_TIME_IN_QUEUE || f == ORCH_DS_DC_TICKS || f == ORCH_DS_FL_TICKS;
}

static double ratio(double num, double den)
{
    return den > 0 ? num / den : NAN;
}

void orch_diskstat_delta_of(const orch_diskstat *a, const orch_diskstat *b,
                            orch_diskstat_delta *out)
{
    unsigned long long d[ORCH_DS_NFIELDS] = { 0 };
    int n = a->nfields < b->nfields ? a->nfields : b->nfields;
    memset(out, 0, sizeof *out);
    out->t = b->t;
    out->dt = b->t - a->t;
    for (int f = 0; f < n; f++) {
        if (f == ORCH_DS_IN_FLIGHT)
            continue;
        if (b->v[f] >= a->v[f])
            d[f] = b->v[f] - a->v[f];
        else if (is_ticks(f) && a->v[f] <= UINT32_MAX && b->v[f] <= UINT32_MAX)
            d[f] = b->v[f] + (1ULL << 32) - a->v[f];
        else
            out->reset = 1;
    }
    double nan = NAN;
    out->rd_iops = out->rd_mbps = out->rd_await_ms = nan;
    out->wr_iops = out->wr_mbps = out->wr_await_ms = nan;
    out->dc_iops = out->dc_mbps = out->dc_await_ms = nan;
    out->fl_iops = out->fl_await_ms = nan;
    out->await_ms = out->queue_depth = out->util_pct = nan;
    if (out->reset || n < 11 || !(out->dt > 0))
        return;
    double dt = out->dt, ms = dt * 1000.0;
    out->in_flight = b->v[ORCH_DS_IN_FLIGHT];
    out->rd_ios = d[ORCH_DS_RD_IOS];
    out->wr_ios = d[ORCH_DS_WR_IOS];
    out->rd_iops = d[ORCH_DS_RD_IOS] / dt;
    out->rd_mbps = d[ORCH_DS_RD_SECTORS] * 512.0 / 1e6 / dt;
    out->rd_await_ms = ratio((double)d[ORCH_DS_RD_TICKS], (double)d[ORCH_DS_RD_IOS]);
    out->wr_iops = d[ORCH_DS_WR_IOS] / dt;
    out->wr_mbps = d[ORCH_DS_WR_SECTORS] * 512.0 / 1e6 / dt;
    out->wr_await_ms = ratio((double)d[ORCH_DS_WR_TICKS], (double)d[ORCH_DS_WR_IOS]);
    out->queue_depth = d[ORCH_DS_TIME_IN_QUEUE] / ms;
    out->util_pct = d[ORCH_DS_IO_TICKS] / ms * 100.0;
    double ticks = (double)d[ORCH_DS_RD_TICKS] + d[ORCH_DS_WR_TICKS];
    double ios = (double)d[ORCH_DS_RD_IOS] + d[ORCH_DS_WR_IOS];
    if (n >= 15) {
        out->dc_ios = d[ORCH_DS_DC_IOS];
        out->dc_iops = d[ORCH_DS_DC_IOS] / dt;
        out->dc_mbps = d[ORCH_DS_DC_SECTORS] * 512.0 / 1e6 / dt;
        out->dc_await_ms = ratio((double)d[ORCH_DS_DC_TICKS], (double)d[ORCH_DS_DC_IOS]);
        ticks += d[ORCH_DS_DC_TICKS];
        ios += d[ORCH_DS_DC_IOS];
    }
    if (n >= 17) {
        out->fl_ios = d[ORCH_DS_FL_IOS];
        out->fl_iops = d[ORCH_DS_FL_IOS] / dt;
        out->fl_await_ms = ratio((double)d[ORCH_DS_FL_TICKS], (double)d[ORCH_DS_FL_IOS]);
        ticks += d[ORCH_DS_FL_TICKS];
        ios += d[ORCH_DS_FL_IOS];
    }
    out->await_ms = ratio(ticks, ios);
}

/* <sysfs>/block/<disk>/<rel> into buf; "" when absent. */
static void read_attr(const char *sysfs, const char *disk, const char *rel, char *buf,
                      size_t len)
{
    char p[PATH_MAX];
    fmt(p, sizeof p, "%s/block/%s/%s", sysfs, disk, rel);
    read_line(p, buf, len);
}

/* The file system type of device maj:min from /proc/self/mountinfo. */
static void fs_type_of(unsigned maj, unsigned min, char *out, size_t len)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    char line[4096], want[32];
    out[0] = '\0';
    if (!f)
        return;
    fmt(want, sizeof want, " %u:%u ", maj, min);
    while (fgets(line, sizeof line, f)) {
        char *dash = strstr(line, " - ");
        char *hit = strstr(line, want);
        if (!dash || !hit || hit > dash)
            continue;
        fmt(out, len, "%s", dash + 3);
        char *sp = strchr(out, ' ');
        if (sp)
            *sp = '\0';
        break;
    }
    fclose(f);
}

int orch_drive_identity(const char *sysfs, const orch_drive_dev *dev, const char *path,
                        orch_drive_id *id)
{
    char buf[256];
    memset(id, 0, sizeof *id);
    id->rotational = -1;
    id->fs_used_pct = NAN;
    const char *disk = dev->id_disk[0] ? dev->id_disk : dev->disk;
    if (disk[0]) {
        read_attr(sysfs, disk, "device/model", id->model, sizeof id->model);
        read_attr(sysfs, disk, "device/vendor", id->vendor, sizeof id->vendor);
        read_attr(sysfs, disk, "device/serial", id->serial, sizeof id->serial);
        if (!id->serial[0])
            read_attr(sysfs, disk, "serial", id->serial, sizeof id->serial);  /* virtio-blk */
        read_attr(sysfs, disk, "device/firmware_rev", id->firmware, sizeof id->firmware);
        if (!id->firmware[0])
            read_attr(sysfs, disk, "device/rev", id->firmware, sizeof id->firmware);  /* SCSI, ATA */
        read_attr(sysfs, disk, "size", buf, sizeof buf);
        if (buf[0])
            id->size_bytes = strtoull(buf, NULL, 10) * 512ULL;
        read_attr(sysfs, disk, "queue/rotational", buf, sizeof buf);
        if (buf[0])
            id->rotational = atoi(buf) ? 1 : 0;
        read_attr(sysfs, disk, "queue/scheduler", buf, sizeof buf);
        char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;
        if (open && close) {
            *close = '\0';
            fmt(id->scheduler, sizeof id->scheduler, "%s", open + 1);
        } else {
            fmt(id->scheduler, sizeof id->scheduler, "%s", buf);
        }
        read_attr(sysfs, disk, "queue/write_cache", id->write_cache, sizeof id->write_cache);
    }
    if (!path)
        return 0;
    struct statvfs vfs;
    struct stat st;
    if (statvfs(path, &vfs) != 0 || stat(path, &st) != 0)
        return -1;
    fs_type_of(major(st.st_dev), minor(st.st_dev), id->fs_type, sizeof id->fs_type);
    id->fs_size_bytes = (uint64_t)vfs.f_blocks * vfs.f_frsize;
    id->fs_avail_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    if (vfs.f_blocks > 0)
        id->fs_used_pct = (double)(vfs.f_blocks - vfs.f_bfree) / (double)vfs.f_blocks * 100.0;
    return 0;
}

static json_object *path_get(json_object *o, const char *a, const char *b)
{
    json_object *x = NULL, *y = NULL;
    if (!json_object_object_get_ex(o, a, &x))
        return NULL;
    if (!b)
        return x;
    return json_object_object_get_ex(x, b, &y) ? y : NULL;
}

static void copy_str(json_object *o, const char *key, char *out, size_t len)
{
    json_object *x = path_get(o, key, NULL);
    if (x && json_object_is_type(x, json_type_string) && !out[0])
        fmt(out, len, "%s", json_object_get_string(x));
}

static int num(json_object *x, double *v)
{
    if (!x || !(json_object_is_type(x, json_type_int) || json_object_is_type(x, json_type_double)))
        return 0;
    *v = json_object_get_double(x);
    return 1;
}

/* smartctl -j -a output into h. */
static void parse_smartctl(json_object *o, orch_drive_health *h)
{
    double v;
    copy_str(o, "model_name", h->model, sizeof h->model);
    copy_str(o, "serial_number", h->serial, sizeof h->serial);
    copy_str(o, "firmware_version", h->firmware, sizeof h->firmware);
    if (num(path_get(o, "temperature", "current"), &v))
        h->temp_c = v;
    if (num(path_get(o, "temperature", "op_limit_max"), &v)
        || num(path_get(o, "temperature", "drive_trip"), &v))
        h->temp_limit_c = v;
    if (num(path_get(o, "nvme_smart_health_information_log", "critical_warning"), &v))
        h->thermal_warning = ((int)v & 0x2) != 0;
    if (num(path_get(o, "nvme_smart_health_information_log", "percentage_used"), &v)) {
        h->wear_pct = v;
        fmt(h->wear_from, sizeof h->wear_from, "nvme percentage_used");
        return;
    }
    if (num(path_get(o, "scsi_percentage_used_endurance_indicator", NULL), &v)) {
        h->wear_pct = v;
        fmt(h->wear_from, sizeof h->wear_from, "scsi percentage used endurance");
        return;
    }
    if (num(path_get(o, "endurance_used", "current_percent"), &v)) {
        h->wear_pct = v;
        fmt(h->wear_from, sizeof h->wear_from, "endurance_used");
        return;
    }
    /* ATA: vendors name wear differently; the normalized value counts
     * down from 100 on all of these. */
    static const int wear_ids[] = { 177, 231, 233, 202 };
    json_object *table = path_get(o, "ata_smart_attributes", "table");
    if (!table || !json_object_is_type(table, json_type_array))
        return;
    for (size_t w = 0; w < sizeof wear_ids / sizeof wear_ids[0]; w++) {
        for (size_t i = 0; i < json_object_array_length(table); i++) {
            json_object *a = json_object_array_get_idx(table, i);
            double id, val;
            if (!num(path_get(a, "id", NULL), &id) || (int)id != wear_ids[w]
                || !num(path_get(a, "value", NULL), &val))
                continue;
            json_object *name = path_get(a, "name", NULL);
            h->wear_pct = 100.0 - val;
            fmt(h->wear_from, sizeof h->wear_from, "ata %d %s", wear_ids[w],
                     name ? json_object_get_string(name) : "");
            return;
        }
    }
}

/* nvme smart-log -o json: temperature in kelvins (nvme-cli prints the
 * log's raw value), percent_used. */
static void parse_nvme(json_object *o, orch_drive_health *h)
{
    double v;
    if (isnan(h->temp_c) && num(path_get(o, "temperature", NULL), &v))
        h->temp_c = v > 200 ? v - 273 : v;
    if (h->thermal_warning < 0 && num(path_get(o, "critical_warning", NULL), &v))
        h->thermal_warning = ((int)v & 0x2) != 0;
    if (isnan(h->wear_pct) && num(path_get(o, "percent_used", NULL), &v)) {
        h->wear_pct = v;
        fmt(h->wear_from, sizeof h->wear_from, "nvme percent_used");
    }
}

/* The first of smartctl's own messages (smartctl.messages[0].string:
 * "/dev/vda: Unable to detect device type"), or NULL. */
static const char *smartctl_message(json_object *o)
{
    json_object *m = path_get(o, "smartctl", "messages"), *s;
    if (!m || !json_object_is_type(m, json_type_array) || json_object_array_length(m) == 0)
        return NULL;
    s = path_get(json_object_array_get_idx(m, 0), "string", NULL);
    return s && json_object_is_type(s, json_type_string) ? json_object_get_string(s) : NULL;
}

int orch_drive_health_read(orch_cmd_fn fn, void *ctx, const char *disk, orch_drive_health *h)
{
    char dev[96];
    int status, got = 0;
    size_t nl;
    memset(h, 0, sizeof *h);
    h->temp_c = h->wear_pct = h->temp_limit_c = NAN;
    h->thermal_warning = -1;
    if (!fn)
        fn = orch_cmd_run;
    if (!disk || !disk[0]) {
        fmt(h->note, sizeof h->note, "no single disk to ask for SMART data");
        return -1;
    }
    fmt(dev, sizeof dev, "/dev/%s", disk);
    const char *const smart_argv[] = { "smartctl", "-j", "-a", dev, NULL };
    char *out = fn(ctx, smart_argv, &status);
    json_object *o = out ? json_tokener_parse(out) : NULL;
    if (o && !(status & 3)) {
        parse_smartctl(o, h);
        fmt(h->source, sizeof h->source, "smartctl");
        got = 1;
    }
    if (!out)
        fmt(h->note, sizeof h->note, "smartctl is not installed (smartmontools)");
    else if (!got)
        fmt(h->note, sizeof h->note, "smartctl could not read %s (exit status %d%s%s)", dev,
                 status, smartctl_message(o) ? ": " : "", smartctl_message(o) ? smartctl_message(o) : "");
    json_object_put(o);
    free(out);
    if (strncmp(disk, "nvme", 4) == 0 && (isnan(h->temp_c) || isnan(h->wear_pct))) {
        const char *const nvme_argv[] = { "nvme", "smart-log", "-o", "json", dev, NULL };
        out = fn(ctx, nvme_argv, &status);
        o = out && status == 0 ? json_tokener_parse(out) : NULL;
        if (o) {
            parse_nvme(o, h);
            if (!got)
                fmt(h->source, sizeof h->source, "nvme");
            got = 1;
        } else {
            nl = strlen(h->note);
            fmt(h->note + nl, sizeof h->note - nl, "%s%s", nl ? "; " : "",
                     out ? "nvme smart-log failed" : "nvme is not installed (nvme-cli)");
        }
        json_object_put(o);
        free(out);
    }
    if (got && (isnan(h->temp_c) || isnan(h->wear_pct)) && !h->note[0])
        fmt(h->note, sizeof h->note, "%s%s not reported by %s",
                 isnan(h->temp_c) ? "temperature" : "",
                 isnan(h->temp_c) && isnan(h->wear_pct) ? " and wear"
                 : isnan(h->wear_pct) ? "wear" : "", h->source);
    return got ? 0 : -1;
}
