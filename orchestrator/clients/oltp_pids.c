/* oltp_pids.c — record and end the host-side oltp processes of a run (see
 * oltp_pids.h). */
#include "clients/oltp_pids.h"
#include "atomic_file.h"
#include "nap.h"
#include "util/util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int orch_proc_start_time(pid_t pid, unsigned long long *start)
{
    char path[64], buf[1024], *p;
    size_t n;
    FILE *f;
    int field = 2, rc = -1;

    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    f = fopen(path, "r");
    if (!f)
        return -1;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* the command name (field 2) may hold spaces and parentheses: fields
     * are counted after its last ')' */
    p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
        return -1;              /* a zombie has ended already */
    while (*p) {
        if (*p == ' ' && ++field == 22) {
            rc = sscanf(p + 1, "%llu", start) == 1 ? 0 : -1;
            break;
        }
        p++;
    }
    return rc;
}

/* The device and inode of process pid's executable (/proc/PID/exe) in
 * *dev and *ino. 0, or -1 when it cannot be read. */
static int proc_exe_id(pid_t pid, unsigned long long *dev, unsigned long long *ino)
{
    char path[64];
    struct stat sb;
    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    if (stat(path, &sb) < 0)
        return -1;
    *dev = (unsigned long long)sb.st_dev;
    *ino = (unsigned long long)sb.st_ino;
    return 0;
}

static char *clients_path(const char *run_dir)
{
    return orch_strfmt("%s/clients", run_dir);
}

void orch_client_identify(pid_t pid, orch_client_id *id)
{
    id->pid = pid;
    id->ok = pid > 0 && orch_proc_start_time(pid, &id->start) == 0
             && proc_exe_id(pid, &id->dev, &id->ino) == 0;
}

int orch_clients_record(const char *run_dir, const orch_client_id *ids, const char *const *names,
                        int n, char *err, size_t errlen)
{
    char *path = clients_path(run_dir), *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int rc = -1;

    if (!path || !mem) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < n; i++)
        if (ids[i].ok)
            fprintf(mem, "%d %llu %llu:%llu %s\n", (int)ids[i].pid, ids[i].start, ids[i].dev,
                    ids[i].ino, names[i]);
    fclose(mem);
    mem = NULL;
    rc = atomic_file_write(path, text, len, err, errlen);
cleanup:
    if (mem)
        fclose(mem);
    free(text);
    free(path);
    return rc;
}

void orch_clients_forget(const char *run_dir)
{
    char *path = clients_path(run_dir);
    if (path)
        unlink(path);
    free(path);
}

/* What became of a recorded process. */
typedef enum client_state {
    CLIENT_GONE,            /* ended, or its pid now belongs to a later process */
    CLIENT_OURS,            /* alive: the oltp the run started */
    CLIENT_FOREIGN,         /* alive with the recorded start time, another program */
} client_state;

/* The state of the process of one line of RUN_DIR/clients ("PID
 * STARTTIME DEV:INO VM"): ours only when both its start time and its
 * executable's device and inode are the recorded ones; a line without
 * them (an older drivebench's, or not drivebench's) names no process of
 * ours. Its pid and VM into *pid and vm (256 bytes). */
static client_state client_line(const char *line, pid_t *pid, char *vm)
{
    unsigned long long want, now, dev, ino, is_dev, is_ino;
    int p, n = sscanf(line, "%d %llu %llu:%llu %255s", &p, &want, &dev, &ino, vm);
    if (n < 2 || p <= 1)
        return CLIENT_GONE;
    *pid = p;
    /* "PID STARTTIME VM": no executable to check it against */
    if (n != 5 && sscanf(line, "%*d %*u %255s", vm) != 1)
        strcpy(vm, "?");
    if (orch_proc_start_time(p, &now) < 0 || now != want)
        return CLIENT_GONE;
    if (n != 5)
        return CLIENT_FOREIGN;
    if (proc_exe_id(p, &is_dev, &is_ino) < 0)
        /* ENOENT: it is ending (its memory, and so its exe, let go of) */
        return errno == ENOENT ? CLIENT_GONE : CLIENT_FOREIGN;
    return is_dev == dev && is_ino == ino ? CLIENT_OURS : CLIENT_FOREIGN;
}

/* Call fn for each recorded process alive with its recorded start time
 * and executable (foreign, when set, for the others alive with their
 * recorded start time); the number of the first. */
static int each_alive(const char *run_dir, void (*fn)(void *ctx, pid_t pid, const char *vm),
                      void (*foreign)(void *ctx, pid_t pid, const char *vm), void *ctx)
{
    char *path = clients_path(run_dir), line[512], vm[256];
    FILE *f = path ? fopen(path, "r") : NULL;
    int n = 0;
    free(path);
    while (f && fgets(line, sizeof line, f)) {
        pid_t pid = 0;
        client_state st = client_line(line, &pid, vm);
        if (st == CLIENT_FOREIGN && foreign)
            foreign(ctx, pid, vm);
        if (st != CLIENT_OURS)
            continue;
        n++;
        if (fn)
            fn(ctx, pid, vm);
    }
    if (f)
        fclose(f);
    return n;
}

int orch_clients_alive(const char *run_dir)
{
    return each_alive(run_dir, NULL, NULL, NULL);
}

typedef struct end_ctx {
    FILE *log;
    int   sig;
    int   n;
} end_ctx;

static void end_one(void *ctx, pid_t pid, const char *vm)
{
    end_ctx *c = ctx;
    if (c->log && c->sig == SIGTERM)
        fprintf(c->log, "drivebench: ending oltp (pid %d) of %s, left over from the run\n",
                (int)pid, vm);
    /* its own process group (client_host.c), else the process alone */
    orch_command_signal_pid(pid, c->sig);
    c->n++;
}

static void not_ours(void *ctx, pid_t pid, const char *vm)
{
    end_ctx *c = ctx;
    if (c->log)
        fprintf(c->log, "drivebench: pid %d (recorded for %s) is not the oltp the run "
                "started: its program differs; left alone\n", (int)pid, vm);
}

/* Wait up to tenths/10 s until none is left; the number left. */
static int wait_gone(const char *run_dir, int tenths)
{
    int left = orch_clients_alive(run_dir);
    for (int i = 0; i < tenths && left > 0; i++) {
        nap_ms(100);
        left = orch_clients_alive(run_dir);
    }
    return left;
}

int orch_clients_end(const char *run_dir, FILE *log)
{
    end_ctx term = { .log = log, .sig = SIGTERM }, kill9 = { .log = log, .sig = SIGKILL };
    int left;
    each_alive(run_dir, end_one, not_ours, &term);
    if (wait_gone(run_dir, 50) > 0) {
        each_alive(run_dir, end_one, NULL, &kill9);
        /* still there: not ours to signal (EPERM) */
        if ((left = wait_gone(run_dir, 20)) > 0) {
            if (log)
                fprintf(log, "drivebench: %d oltp process(es) of the run could not be "
                        "ended\n", left);
            return -1;
        }
    }
    orch_clients_forget(run_dir);
    return term.n;
}
