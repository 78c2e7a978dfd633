/* resume.c — before `drivebench resume` runs on (resume.h): the lock, the
 * checkpoint, the refusals, the clean-up and the unfinished repetition's
 * files. */
#include "run/resume.h"
#include "run/fingerprint.h"
#include "clients/clients.h"
#include "plan/plan.h"
#include "virt/virt.h"
#include "util/util.h"
#include "results_fingerprint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int orch_run_lock(const char *run_dir, char *err, size_t errlen)
{
    char *path = orch_strfmt("%s/%s", run_dir, ORCH_RUN_LOCK_FILE), pid[32] = "";
    /* close-on-exec: an oltp child that outlives a SIGKILLed drivebench
     * must not hold the lock */
    int fd = path ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644) : -1;
    ssize_t n;
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path ? path : ORCH_RUN_LOCK_FILE,
                 path ? strerror(errno) : "out of memory");
        free(path);
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        if (e == EWOULDBLOCK)
            snprintf(err, errlen, "%s is in use by a drivebench that is still running (pid %s): "
                     "stop it first, or let it finish", run_dir, *pid ? pid : "?");
        else
            snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
        close(fd);
        free(path);
        return -1;
    }
    snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, strlen(pid), 0) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        free(path);
        return -1;
    }
    free(path);
    return fd;
}

/* UTC ISO 8601 of t into buf. */
static void iso_of(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The newest modification time of the run's files (the folder, vm/ and
 * console/; not the lock), into *newest. */
static void newest_in(const char *dir, time_t *newest)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        struct stat sb;
        char *path;
        if (e->d_name[0] == '.' || strcmp(e->d_name, ORCH_RUN_LOCK_FILE) == 0)
            continue;
        path = orch_strfmt("%s/%s", dir, e->d_name);
        if (path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_mtime > *newest)
            *newest = sb.st_mtime;
        free(path);
    }
    if (d)
        closedir(d);
}

static time_t last_sign_of_life(const char *run_dir)
{
    const char *subs[] = { "", "/vm", "/console" };
    time_t newest = 0;
    for (int i = 0; i < 3; i++) {
        char *dir = orch_strfmt("%s%s", run_dir, subs[i]);
        if (dir)
            newest_in(dir, &newest);
        free(dir);
    }
    return newest;
}

/* The repetition a file of vm/ or console/ belongs to ("<vm>.r<N>.json",
 * "<vm>.r<N>.precondition.<round>.json", "<vm>.r<N>.log"), 0: none. */
static int rep_of(const char *name)
{
    for (const char *s = strstr(name, ".r"); s; s = strstr(s + 1, ".r")) {
        char *end;
        long n = strtol(s + 2, &end, 10);
        if (end != s + 2 && *end == '.' && n > 0 && n < 1000000)
            return (int)n;
    }
    return 0;
}

/* Move the files of repetitions from_rep on out of run_dir/sub into
 * run_dir/to/sub. Returns how many, or -1 with err. */
static int move_from(const char *run_dir, const char *sub, const char *to, int from_rep,
                     char *err, size_t errlen)
{
    char *dir = orch_strfmt("%s/%s", run_dir, sub), *dest = orch_strfmt("%s/%s/%s", run_dir, to, sub);
    char *top = orch_strfmt("%s/%s", run_dir, to), *parent = orch_strfmt("%s/interrupted", run_dir);
    DIR *d = dir ? opendir(dir) : NULL;
    struct dirent *e;
    int moved = 0;
    while (d && moved >= 0 && (e = readdir(d))) {
        char *src, *dst;
        if (e->d_name[0] == '.' || rep_of(e->d_name) < from_rep)
            continue;
        if (moved == 0 && (!dest || ((mkdir(parent, 0755) < 0 && errno != EEXIST)
                                     || (mkdir(top, 0755) < 0 && errno != EEXIST)
                                     || (mkdir(dest, 0755) < 0 && errno != EEXIST)))) {
            snprintf(err, errlen, "cannot create %s: %s", dest ? dest : "interrupted/",
                     dest ? strerror(errno) : "out of memory");
            moved = -1;
            break;
        }
        src = orch_strfmt("%s/%s", dir, e->d_name);
        dst = orch_strfmt("%s/%s", dest, e->d_name);
        if (!src || !dst || rename(src, dst) < 0) {
            snprintf(err, errlen, "cannot move %s to %s: %s", src ? src : e->d_name,
                     dest, src && dst ? strerror(errno) : "out of memory");
            moved = -1;
        } else {
            moved++;
        }
        free(src);
        free(dst);
    }
    if (d)
        closedir(d);
    free(dir);
    free(dest);
    free(top);
    free(parent);
    return moved;
}

/* Append "; " (unless first) and the formatted text to *buf. -1 when out of memory. */
__attribute__((format(printf, 2, 3)))
static int append(char **buf, const char *fmt, ...)
{
    va_list ap;
    char *part, *all;
    int n;
    va_start(ap, fmt);
    n = vasprintf(&part, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    all = *buf ? orch_strfmt("%s; %s", *buf, part) : strdup(part);
    free(part);
    if (!all)
        return -1;
    free(*buf);
    *buf = all;
    return 0;
}

/* The fingerprint's keys that differ between the kept repetitions' and
 * plan p's (on template t), appended to *diff. -1 when out of memory. */
static int fingerprint_diff(const orch_plan *p, const orch_template *t, const res_summary *cp,
                            char **diff)
{
    res_fingerprint *now = orch_fingerprint_build(p, t, cp);
    res_fp_item was[RES_FP_MAX_KEYS], is[RES_FP_MAX_KEYS];
    int nwas, nis, rc = 0;
    if (!now)
        return -1;
    if (!cp->fp) {
        res_fingerprint_free(now);
        return append(diff, "the kept repetitions recorded no protocol fingerprint");
    }
    nwas = res_fingerprint_items(cp->fp, was);
    nis = res_fingerprint_items(now, is);
    for (int i = 0; i < nis && rc == 0; i++) {
        const char *before = "(none)";
        for (int k = 0; k < nwas; k++)
            if (strcmp(was[k].key, is[i].key) == 0)
                before = was[k].value;
        if (strcmp(before, is[i].value) != 0)
            rc = append(diff, "%s was '%s', now '%s'", is[i].key, before, is[i].value);
    }
    res_fingerprint_free(now);
    return rc;
}

/* The layout (drives, VMs, repetitions) of plan p against the kept
 * repetitions', appended to *diff. -1 when out of memory. */
static int layout_diff(const orch_plan *p, const orch_layout *l, const res_summary *cp,
                       char **diff)
{
    int rc = 0;
    bool same_drives = cp->ndrives == p->ndrives;
    for (int d = 0; same_drives && d < p->ndrives; d++)
        same_drives = cp->drives[d].name && strcmp(cp->drives[d].name, p->drives[d].name) == 0;
    if (!same_drives)
        rc = append(diff, "the drives differ (%d then, %d now, or other names)", cp->ndrives,
                    p->ndrives);
    for (int i = 0; rc == 0 && i < cp->nvms; i++) {
        bool found = false;
        if (cp->vms[i].repetition > cp->completed_reps)
            continue;
        for (int k = 0; k < l->nvms && !found; k++)
            found = strcmp(l->vms[k].name, cp->vms[i].name) == 0;
        if (!found)
            rc = append(diff, "VM %s is not in the plan's layout", cp->vms[i].name);
    }
    for (int k = 0; rc == 0 && k < l->nvms; k++) {
        bool found = false;
        for (int i = 0; i < cp->nvms && !found; i++)
            found = cp->vms[i].repetition <= cp->completed_reps
                    && strcmp(l->vms[k].name, cp->vms[i].name) == 0;
        if (!found)
            rc = append(diff, "VM %s of the plan's layout did not run before", l->vms[k].name);
    }
    if (rc == 0 && cp->plan.repetitions != RES_UNSET && cp->plan.repetitions != p->repetitions)
        rc = append(diff, "repetitions was %lld, now %d", (long long)cp->plan.repetitions,
                    p->repetitions);
    if (rc == 0 && (cp->plan.repetitions_rule != NULL) != (p->repetitions_auto != 0))
        rc = append(diff, "repetitions was %s, now %s", cp->plan.repetitions_rule ? "auto" : "fixed",
                    p->repetitions_auto ? "auto" : "fixed");
    return rc;
}

/* Refuse when plan p would not give repetitions comparable with the kept
 * ones. 0, or -1 with err. */
static int check_protocol(orch_plan *p, const char *run_id, orch_resume *r, char *err,
                          size_t errlen)
{
    const res_summary *cp = &r->cp;
    orch_template *t = orch_template_load(p->template_path, err, errlen);
    orch_layout *l = t ? orch_layout_new(p, run_id, orch_layout_has_seed(p, t)) : NULL;
    char *diff = NULL;
    int rc = -1;
    if (!t)
        return -1;
    if (!l || fingerprint_diff(p, t, cp, &diff) < 0 || layout_diff(p, l, cp, &diff) < 0) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (diff) {
        snprintf(err, errlen, "cannot resume %s: the plan differs from the one its %d complete "
                 "repetition(s) ran with: %s; their figures would not compare with new ones "
                 "(run the plan as a new run)", run_id, cp->completed_reps, diff);
        goto cleanup;
    }
    rc = 0;
cleanup:
    free(diff);
    orch_layout_free(l);
    orch_template_free(t);
    return rc;
}

/* domain_type = auto: the type the kept repetitions ran with (a
 * measurement under another load might pick the other). */
static int keep_domain_type(orch_plan *p, const res_summary *cp)
{
    const char *type = NULL;
    char *copy;
    if (strcmp(p->domain_type, "auto") != 0)
        return 0;
    for (int i = 0; i < cp->env.nhypervisors; i++) {
        const char *t = cp->env.hypervisors[i].domain_type;
        if (!t || (type && strcmp(type, t) != 0))
            return 0;
        type = t;
    }
    if (!type)
        return 0;
    if (!(copy = strdup(type)))
        return -1;
    free(p->domain_type);
    p->domain_type = copy;
    return 0;
}

/* The checkpoint: 0 (have_cp set when there is one), 1 when the run
 * completed, -1 with err. */
static int read_checkpoint(const char *run_dir, const char *run_id, orch_resume *r, char *err,
                           size_t errlen)
{
    char *path = orch_strfmt("%s/summary.json", run_dir), why[768];
    int rc = -1;
    if (!path) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (access(path, F_OK) < 0) {
        r->from_rep = 1;    /* stopped in its first repetition */
        free(path);
        return 0;
    }
    if (res_summary_read_file(path, &r->cp, why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot resume %s: %s", run_id, why);
    } else if (r->cp.status != RES_RUN_PARTIAL) {
        snprintf(err, errlen, "run %s completed (summary.json: %s): nothing to resume", run_id,
                 res_run_status_name(r->cp.status));
        rc = 1;
    } else if (r->cp.completed_reps < 0) {
        snprintf(err, errlen, "cannot resume %s: %s records no completed_repetitions (written "
                 "by a drivebench before resume)", run_id, path);
    } else {
        r->from_rep = r->cp.completed_reps + 1;
        rc = 0;
    }
    r->have_cp = true;
    free(path);
    return rc;
}

/* The stopped run's host-side oltp processes, then its objects on every
 * host it recorded. 0, or -1 with err. */
static int clean_up(const char *run_dir, const char *run_id, FILE *out, char *err, size_t errlen)
{
    orch_counts removed = { 0 };
    char why[512];
    int ended = orch_clients_end(run_dir, out), left;
    if (ended < 0) {
        snprintf(err, errlen, "cannot resume %s: oltp processes of the stopped run could not be "
                 "ended (see above)", run_id);
        return -1;
    }
    left = orch_hosts_teardown_run(run_dir, run_id, out, &removed, why, sizeof why);
    if (left < 0 && errno != ENOENT) {
        snprintf(err, errlen, "cannot resume %s: %s", run_id, why);
        return -1;
    }
    if (left > 0) {
        snprintf(err, errlen, "cannot resume %s: objects of the stopped run remain on some hosts "
                 "(see above); `drivebench teardown %s`, then resume again", run_id, run_id);
        return -1;
    }
    fprintf(out, "resume %s: the stopped run left %d oltp process(es), %d domain(s), "
            "%d volume(s), %d pool(s)", run_id, ended, removed.domains, removed.volumes,
            removed.pools);
    if (removed.nets)
        fprintf(out, ", %d passt network(s)", removed.nets);
    fputs(": removed\n", out);
    return 0;
}

/* The interruption's record, after the checkpoint's: when, what was lost,
 * and the unfinished repetition's files moved to interrupted/K/. */
static int record_interruption(const char *run_dir, orch_resume *r, time_t last, char *err,
                               size_t errlen)
{
    int k = r->cp.ninterruptions + 1, moved = 0, kept = r->from_rep - 1;
    char to[32], when[32];
    res_interruption *i;
    struct stat sb;
    r->intr = calloc((size_t)k, sizeof *r->intr);
    if (!r->intr)
        goto oom;
    for (int n = 0; n < r->cp.ninterruptions; n++) {
        if (res_interruption_copy(&r->intr[n], &r->cp.interruptions[n]) < 0)
            goto oom;
        r->nintr++;
    }
    i = &r->intr[r->nintr++];
    /* the first folder not taken (a resume stopped before its checkpoint
     * left one the summary does not list) */
    for (int n = k;; n++) {
        char *path = orch_strfmt("%s/interrupted/%d", run_dir, n);
        int taken = path && stat(path, &sb) == 0;
        free(path);
        snprintf(to, sizeof to, "interrupted/%d", n);
        if (!taken)
            break;
    }
    for (int s = 0; s < 2 && moved >= 0; s++) {
        int n = move_from(run_dir, s ? "console" : "vm", to, r->from_rep, err, errlen);
        moved = n < 0 ? -1 : moved + n;
    }
    if (moved < 0)
        return -1;
    i->repetition = r->from_rep;
    i->kept_repetitions = kept;
    iso_of(time(NULL), when, sizeof when);
    if (!(i->resumed_at = strdup(when)))
        goto oom;
    if (last) {
        iso_of(last, when, sizeof when);
        if (!(i->at = strdup(when)))
            goto oom;
    }
    if (moved && !(i->moved_to = orch_strfmt("%s/", to)))
        goto oom;
    if ((moved ? append(&i->lost, "repetition %d as far as it ran (%d file(s), moved to %s/)",
                        r->from_rep, moved, to)
               : append(&i->lost, "repetition %d had written no file", r->from_rep)) < 0
        || (kept && append(&i->lost, "the drive I/O samples of repetition(s) 1-%d, which a run "
                           "holds in memory: their VMs have no I/O figures and the drives' "
                           "cover repetitions %d on", kept, r->from_rep) < 0))
        goto oom;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

int orch_resume_prepare(orch_plan *p, const char *run_dir, const char *run_id,
                        orch_resume *r, FILE *out, char *err, size_t errlen)
{
    struct stat sb;
    char when[32];
    time_t last;
    int rc;

    memset(r, 0, sizeof *r);
    r->lock_fd = -1;
    if (stat(run_dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, "no run folder %s: %s", run_dir,
                 errno ? strerror(errno) : "not a folder");
        return -1;
    }
    if ((r->lock_fd = orch_run_lock(run_dir, err, errlen)) < 0)
        return -1;
    if ((rc = read_checkpoint(run_dir, run_id, r, err, errlen)) != 0)
        return rc;
    if (r->from_rep > 1 && (check_protocol(p, run_id, r, err, errlen) < 0
                            || keep_domain_type(p, &r->cp) < 0))
        return -1;
    last = last_sign_of_life(run_dir);
    if (r->cp.started_at) {
        r->started_at = strdup(r->cp.started_at);
    } else {
        char *plan = orch_strfmt("%s/plan.ini", run_dir);
        iso_of(plan && stat(plan, &sb) == 0 ? sb.st_mtime : time(NULL), when, sizeof when);
        free(plan);
        r->started_at = strdup(when);
    }
    if (!r->started_at) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (clean_up(run_dir, run_id, out, err, errlen) < 0
        || record_interruption(run_dir, r, last, err, errlen) < 0)
        return -1;
    fprintf(out, "resume %s: %d complete repetition(s) kept; repetition %d runs again from its "
            "start\n", run_id, r->from_rep - 1, r->from_rep);
    return 0;
}

void orch_resume_clear(orch_resume *r)
{
    for (int i = 0; r->intr && i < r->nintr; i++)
        res_interruption_clear(&r->intr[i]);
    free(r->intr);
    free(r->started_at);
    res_summary_clear(&r->cp);
    if (r->lock_fd >= 0)
        close(r->lock_fd);
    memset(r, 0, sizeof *r);
    r->lock_fd = -1;
}
