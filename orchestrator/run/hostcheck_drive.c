/* hostcheck_drive.c — the host check of each drive (hostcheck_state.h):
 * the device under its folder, its mount, the device's identity, cache,
 * temperature and health. Calls hostcheck_findings.c, never hostcheck.c. */
#include "run/hostcheck.h"
#include "run/hostcheck_state.h"
#include "attributes.h"
#include "telemetry/telemetry.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* a drive this close to its temperature limit may throttle in the run */
#define HC_TEMP_MARGIN_C 5.0

/* The device number of path, or of its nearest existing parent (a run
 * makes the drive's folder). 0, or -1. */
static int devno_of(const hc *h, const char *path, char *where, size_t len, unsigned *maj,
                    unsigned *min)
{
    snprintf(where, len, "%s", path);
    for (;;) {
        struct stat st;
        char *slash;
        if (h->o->devno ? h->o->devno(h->o->devno_ctx, where, maj, min) == 0
                        : stat(where, &st) == 0) {
            if (!h->o->devno) {
                *maj = major(st.st_dev);
                *min = minor(st.st_dev);
            }
            return 0;
        }
        if (errno != ENOENT || !(slash = strrchr(where, '/')))
            return -1;
        if (slash == where) {
            if (!where[1])
                return -1;
            where[1] = '\0';
        } else {
            *slash = '\0';
        }
    }
}

/* One /proc/self/mountinfo line of the file system maj:min holding
 * path: the mount point, type, source and both option lists. */
typedef struct mount_line {
    char point[512], type[64], source[256], opts[512], super[1024];
} mount_line;

/* The mount of maj:min whose mount point is the longest prefix of path
 * (bind mounts of one device). 0, or -1 when none. */
static int find_mount(const hc *h, unsigned maj, unsigned min, const char *path, mount_line *m)
{
    char *text = orch_hc_read_all(h, "/proc/self/mountinfo"), want[32], *save = NULL;
    size_t best = 0;
    int found = -1;
    if (!text)
        return -1;
    snprintf(want, sizeof want, "%u:%u", maj, min);
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        mount_line x;
        char id[32], parent[32], dev[32], rootp[512];
        const char *dash = strstr(l, " - ");
        size_t pl;
        if (!dash
            || sscanf(l, "%31s %31s %31s %511s %511s %511s", id, parent, dev, rootp, x.point,
                      x.opts) != 6
            || strcmp(dev, want) != 0
            || sscanf(dash + 3, "%63s %255s %1023s", x.type, x.source, x.super) != 3)
            continue;
        pl = strlen(x.point);
        if (strncmp(path, x.point, pl) != 0 && strcmp(x.point, "/") != 0)
            continue;
        if (found < 0 || pl > best) {
            *m = x;
            best = pl;
            found = 0;
        }
    }
    free(text);
    return found;
}

/* 1 when the comma-separated options hold word. */
static int has_opt(const char *opts, const char *word)
{
    size_t n = strlen(word);
    for (const char *s = opts; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
        if (strncmp(s, word, n) == 0 && (s[n] == ',' || s[n] == '\0'))
            return 1;
    return 0;
}

static void check_mount(hc *h, const orch_drive *dr, const char *where, unsigned maj,
                        unsigned min)
{
    mount_line m;
    char value[1100];
    if (find_mount(h, maj, min, where, &m) < 0) {
        orch_hc_add(h, ORCH_HC_DRIVE_MOUNT, dr->name, RES_HC_WARN, "unknown",
            "%s: no mount of device %u:%u in /proc/self/mountinfo", where, maj, min);
        return;
    }
    snprintf(value, sizeof value, "%s %s", m.type, m.super);
    if (has_opt(m.super, "nobarrier") || has_opt(m.super, "barrier=0")
        || has_opt(m.opts, "nobarrier")) {
        orch_hc_add(h, ORCH_HC_DRIVE_MOUNT, dr->name, RES_HC_REFUSE, value,
            "%s (%s on %s) is mounted without write barriers: the file system sends the "
            "drive no flushes, so a commit's fsync measures its cache, not the drive",
            m.point, m.type, m.source);
        orch_hc_fix(h, "mount -o remount,barrier %s", m.point);
        return;
    }
    orch_hc_add(h, ORCH_HC_DRIVE_MOUNT, dr->name, RES_HC_OK, value, "%s on %s at %s: %s; %s", m.type,
        m.source, m.point, m.opts, m.super);
}

/* Identity, write cache and temperature of the disk under the drive. */
static void check_device(hc *h, const orch_drive *dr, const char *where, unsigned maj,
                         unsigned min)
{
    char sysfs[PATH_MAX], err[DB_ERR_LEN], value[256];
    orch_drive_dev dev;
    orch_drive_id id;
    orch_drive_health hl;
    const char *disk, *model, *fw;
    snprintf(sysfs, sizeof sysfs, "%s/sys", h->root);
    if (orch_drive_resolve_devno(sysfs, maj, min, &dev, err, sizeof err) < 0) {
        orch_hc_add(h, ORCH_HC_DRIVE_IDENTITY, dr->name, RES_HC_WARN, "unknown", "%s: %s", where, err);
        return;
    }
    if (dev.kind == ORCH_DEV_NONE) {
        orch_hc_add(h, ORCH_HC_DRIVE_IDENTITY, dr->name, RES_HC_OK, "no block device", "%s: %s", where,
            dev.note);
        return;
    }
    orch_drive_identity(sysfs, &dev, NULL, &id);
    disk = dev.id_disk[0] ? dev.id_disk : dev.disk;
    orch_drive_health_read(h->o->cmd, h->o->cmd_ctx, dev.id_disk, &hl);
    model = id.model[0] ? id.model : hl.model;
    fw = id.firmware[0] ? id.firmware : hl.firmware;
    snprintf(value, sizeof value, "%s, firmware %s", model[0] ? model : "unknown model",
             fw[0] ? fw : "unknown");
    orch_hc_add(h, ORCH_HC_DRIVE_IDENTITY, dr->name, RES_HC_OK, value, "%s on %s: %s", where, disk,
        dev.note);

    if (!id.write_cache[0])
        orch_hc_add(h, ORCH_HC_DRIVE_CACHE, dr->name, RES_HC_OK, "unknown",
            "%s: no queue/write_cache in sysfs", disk);
    else if (strcmp(id.write_cache, "write back") == 0)
        orch_hc_add(h, ORCH_HC_DRIVE_CACHE, dr->name, RES_HC_OK, id.write_cache,
            "%s has a volatile write cache: the kernel sends it flushes, and a commit waits "
            "for them", disk);
    else
        orch_hc_add(h, ORCH_HC_DRIVE_CACHE, dr->name, RES_HC_OK, id.write_cache,
            "%s: write through: the kernel sends no flushes (no volatile cache, or the drive's "
            "cache is protected against power loss)", disk);

    if (!hl.source[0]) {
        int missing = strstr(hl.note, "not installed") != NULL;
        orch_hc_add(h, ORCH_HC_DRIVE_TEMPERATURE, dr->name, RES_HC_WARN, "unavailable",
            "%s: temperature and throttling unknown: %s%s", disk, hl.note,
            missing ? "" : "; watch the drive's temperature by other means");
        if (strstr(hl.note, "smartctl is not installed"))
            orch_hc_fix(h, "apt-get install smartmontools");
        return;
    }
    if (hl.thermal_warning == 1 || (!isnan(hl.temp_limit_c) && hl.temp_c >= hl.temp_limit_c)) {
        snprintf(value, sizeof value, "%.0f C, throttling", hl.temp_c);
        orch_hc_add(h, ORCH_HC_DRIVE_TEMPERATURE, dr->name, RES_HC_REFUSE, value,
            "%s is at %.0f C, over its limit%s (%s): it slows itself down, and a run measures "
            "its cooling", disk, hl.temp_c, hl.thermal_warning == 1 ? " (critical warning)" : "",
            hl.source);
        return;
    }
    if (isnan(hl.temp_c)) {
        orch_hc_add(h, ORCH_HC_DRIVE_TEMPERATURE, dr->name, RES_HC_OK, "not reported",
            "%s: %s reports no temperature", disk, hl.source);
        return;
    }
    snprintf(value, sizeof value, "%.0f C", hl.temp_c);
    if (!isnan(hl.temp_limit_c) && hl.temp_c >= hl.temp_limit_c - HC_TEMP_MARGIN_C) {
        orch_hc_add(h, ORCH_HC_DRIVE_TEMPERATURE, dr->name, RES_HC_WARN, value,
            "%s is at %.0f C, within %.0f C of its limit %.0f C (%s): it may throttle under "
            "the run's load", disk, hl.temp_c, HC_TEMP_MARGIN_C, hl.temp_limit_c, hl.source);
        return;
    }
    if (!isnan(hl.temp_limit_c))
        orch_hc_add(h, ORCH_HC_DRIVE_TEMPERATURE, dr->name, RES_HC_OK, value,
            "%s is at %.0f C, limit %.0f C, not throttling (%s)", disk, hl.temp_c,
            hl.temp_limit_c, hl.source);
    else
        orch_hc_add(h, ORCH_HC_DRIVE_TEMPERATURE, dr->name, RES_HC_OK, value,
            "%s is at %.0f C, not throttling (%s)", disk, hl.temp_c, hl.source);
}

void orch_hc_check_drive(hc *h, const orch_plan *p, const orch_drive *dr)
{
    const char *uri = orch_plan_drive_uri(p, dr);
    char where[PATH_MAX];
    unsigned maj = 0, min = 0;
    if (orch_uri_is_remote(uri)) {
        orch_hc_add(h, ORCH_HC_DRIVE_IDENTITY, dr->name, RES_HC_WARN, "not checked",
            "on %s: drivebench checks this host's drives only; run `drivebench host check` "
            "on that host", uri);
        return;
    }
    if (!dr->path) {
        orch_hc_add(h, ORCH_HC_DRIVE_IDENTITY, dr->name, RES_HC_WARN, "not checked",
            "pool %s: its device is not checked (a `path` drive is)", dr->pool);
        return;
    }
    if (devno_of(h, dr->path, where, sizeof where, &maj, &min) < 0) {
        orch_hc_add(h, ORCH_HC_DRIVE_IDENTITY, dr->name, RES_HC_WARN, "unknown", "cannot stat %s: %s",
            dr->path, strerror(errno));
        return;
    }
    check_device(h, dr, where, maj, min);
    check_mount(h, dr, where, maj, min);
}
