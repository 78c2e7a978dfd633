/* passt.c — a VM's passt in a network namespace of its own (passt.h). */
#include "virt/passt.h"
#include "attributes.h"
#include "plan/plan.h"     /* ORCH_PASST_DIR */
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NETNS_DIR "/run/netns"
/* the user QEMU runs as under Debian's libvirt: passt drops to it, so
 * that QEMU can connect to its socket */
#define PASST_USER "libvirt-qemu"
#define CMD_TIMEOUT_MS 15000

char *orch_passt_netns_path(const char *name)
{
    return orch_strfmt("%s/%s", NETNS_DIR, name);
}

/* The last non-empty line of text (NULL: none) into out. */
static void last_line(const char *text, char *out, size_t outlen)
{
    const char *end = text ? text + strlen(text) : NULL, *start;
    out[0] = '\0';
    while (end && end > text && (end[-1] == '\n' || end[-1] == '\r'))
        end--;
    if (!end || end == text)
        return;
    for (start = end; start > text && start[-1] != '\n'; start--)
        ;
    snprintf(out, outlen, "%.*s", (int)(end - start), start);
}

/* Run argv (in namespace netns unless NULL) to its end. 0 when it exited
 * 0; else -1 with err naming what and its last line of output. The
 * output into *out when out is not NULL (caller frees). */
static int run(const char *const *argv, const char *netns, char **out, char *err, size_t errlen)
{
    orch_command *cmd = orch_command_new(argv);
    char *text = NULL, why[DB_ERR_LEN], last[256];
    int st = -1, rc = -1;
    if (!cmd || orch_command_netns(cmd, netns) < 0) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    orch_command_stdin(cmd, ORCH_COMMAND_NULL);
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_TO_STDOUT);
    orch_command_timeout(cmd, CMD_TIMEOUT_MS);
    if (orch_command_run(cmd, &st, &text, NULL, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s", why);
        goto cleanup;
    }
    if (st != 0) {
        char what[128] = "";
        for (int i = 0; argv[i] && i < 5; i++)      /* enough to name the step */
            snprintf(what + strlen(what), sizeof what - strlen(what), "%s%s", i ? " " : "",
                     argv[i]);
        last_line(text, last, sizeof last);
        snprintf(err, errlen, "`%s ...` failed (exit %d): %s", what, st,
                 last[0] ? last : "no message");
        goto cleanup;
    }
    rc = 0;
    if (out) {
        *out = text;
        text = NULL;
    }
cleanup:
    free(text);
    orch_command_free(cmd);
    return rc;
}

/* The namespace: loopback, and d0 whose veth peer d1 is inside too, with
 * forwarding off (checked: a namespace that forwards would let the
 * guest's packets out). */
static int netns_create(const char *name, const char *path, char *err, size_t errlen)
{
    const char *const steps[][12] = {
        { "ip", "netns", "add", name, NULL },
        { "ip", "-n", name, "link", "set", "lo", "up", NULL },
        { "ip", "-n", name, "link", "add", "d0", "type", "veth", "peer", "name", "d1", NULL },
        { "ip", "-n", name, "addr", "add", "10.0.3.15/24", "dev", "d0", NULL },
        { "ip", "-n", name, "link", "set", "d0", "up", NULL },
        { "ip", "-n", name, "link", "set", "d1", "up", NULL },
        { "ip", "-n", name, "route", "add", "default", "via", "10.0.3.2", "dev", "d0", NULL },
    };
    const char *const fwd[] = { "cat", "/proc/sys/net/ipv4/ip_forward", NULL };
    char *out = NULL;
    int rc = -1;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (run(steps[i], NULL, NULL, err, errlen) < 0)
            return -1;
    if (run(fwd, path, &out, err, errlen) < 0)
        return -1;
    if (strcmp(out, "0\n") != 0)
        snprintf(err, errlen, "network namespace %s forwards packets (ip_forward %.8s): "
                 "refusing to start passt there", name, out);
    else
        rc = 0;
    free(out);
    return rc;
}

/* The pid in file path, or 0. */
static pid_t read_pid(const char *path)
{
    char *text = orch_file_read(path, 64);
    long n = text ? strtol(text, NULL, 10) : 0;
    free(text);
    return n > 1 ? (pid_t)n : 0;
}

/* 1 while pid is a running passt (its comm "passt" or "passt.avx2"); a
 * zombie or another program is not. */
static int is_passt(pid_t pid)
{
    char path[64], *stat;
    const char *open_paren, *close_paren;
    int yes = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (!(stat = orch_file_read(path, 4096)))
        return 0;
    open_paren = strchr(stat, '(');
    close_paren = strrchr(stat, ')');
    if (open_paren && close_paren && close_paren > open_paren
        && strncmp(open_paren + 1, "passt", 5) == 0 && close_paren[1] == ' '
        && close_paren[2] != 'Z')
        yes = 1;
    free(stat);
    return yes;
}

/* End passt pid: SIGTERM, SIGKILL after 5 s; reaped when it was ours
 * (drivebench is its subreaper). 0, or -1 when it still runs. */
static int end_passt(pid_t pid)
{
    struct timespec nap = { 0, 50 * 1000 * 1000 };
    orch_command_signal_pid(pid, SIGTERM);
    for (int i = 0; i < 200; i++) {
        waitpid(pid, NULL, WNOHANG);
        if (!is_passt(pid)) {
            waitpid(pid, NULL, WNOHANG);
            return 0;
        }
        if (i == 100)
            orch_command_signal_pid(pid, SIGKILL);
        nanosleep(&nap, NULL);
    }
    return -1;
}

int orch_passt_stop(const char *name, FILE *log)
{
    char *pidfile = orch_strfmt("%s/%s.pid", ORCH_PASST_DIR, name);
    char *ns = orch_passt_netns_path(name), uuid[37], *sock;
    const char *const del[] = { "ip", "netns", "del", name, NULL };
    char err[DB_ERR_LEN];
    int rc = 0;
    pid_t pid;
    orch_uuid_from_name(name, uuid);    /* the socket is named by it (layout.h) */
    sock = orch_strfmt("%s/%s.sock", ORCH_PASST_DIR, uuid);
    if (!pidfile || !ns || !sock) {
        rc = -1;
        goto cleanup;
    }
    if ((pid = read_pid(pidfile)) > 0 && is_passt(pid)) {
        if (end_passt(pid) < 0) {
            if (log)
                fprintf(log, "teardown: passt %d of %s does not end\n", (int)pid, name);
            rc = -1;
            goto cleanup;
        }
        rc = 1;
    }
    if (unlink(pidfile) == 0)
        rc = rc ? rc : 1;
    if (unlink(sock) == 0)
        rc = rc ? rc : 1;
    if (access(ns, F_OK) == 0) {
        if (run(del, NULL, NULL, err, sizeof err) < 0) {
            if (log)
                fprintf(log, "teardown: cannot delete network namespace %s: %s\n", name, err);
            rc = -1;
        } else {
            rc = rc ? rc : 1;
        }
    }
cleanup:
    free(pidfile);
    free(ns);
    free(sock);
    return rc;
}

/* ORCH_PASST_DIR, writable by the user passt drops to (uid, or -1 for
 * none). 0, or -1 with err. */
static int state_dir(uid_t uid, gid_t gid, char *err, size_t errlen)
{
    if ((mkdir("/run/drivebench", 0755) < 0 && errno != EEXIST)
        || (mkdir(ORCH_PASST_DIR, 0755) < 0 && errno != EEXIST)
        || (uid != (uid_t)-1 && chown(ORCH_PASST_DIR, uid, gid) < 0)) {
        snprintf(err, errlen, "cannot make %s for passt: %s", ORCH_PASST_DIR, strerror(errno));
        return -1;
    }
    return 0;
}

int orch_passt_start(const char *passt, const char *name, const char *sock, int port,
                     int guest_port, char *err, size_t errlen)
{
    const struct passwd *pw = getpwnam(PASST_USER);
    char *pidfile = orch_strfmt("%s/%s.pid", ORCH_PASST_DIR, name);
    char *ns = orch_passt_netns_path(name), *fwd = orch_strfmt("127.0.0.1/%d:%d", port,
                                                                guest_port);
    const char *argv[24];
    int n = 0, rc = -1;
    pid_t pid;
    if (!pidfile || !ns || !fwd) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (orch_passt_stop(name, NULL) < 0) {
        snprintf(err, errlen, "network of %s: a previous one is still there and cannot be "
                 "removed", name);
        goto cleanup;
    }
    /* passt daemonizes: drivebench, its subreaper, reaps it when stopped */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (state_dir(pw ? pw->pw_uid : (uid_t)-1, pw ? pw->pw_gid : (gid_t)-1, err, errlen) < 0
        || netns_create(name, ns, err, errlen) < 0)
        goto cleanup;
    argv[n++] = passt;
    argv[n++] = "-q";
    argv[n++] = "-4";
    if (pw) {
        argv[n++] = "--runas";
        argv[n++] = PASST_USER;
    }
    argv[n++] = "--no-udp";
    argv[n++] = "--no-icmp";
    argv[n++] = "--no-ndp";
    argv[n++] = "--no-dhcpv6";
    argv[n++] = "--no-ra";
    argv[n++] = "--no-dhcp-dns";
    argv[n++] = "--no-dhcp-search";
    argv[n++] = "-t";
    argv[n++] = fwd;
    argv[n++] = "-s";
    argv[n++] = sock;
    argv[n++] = "-P";
    argv[n++] = pidfile;
    argv[n] = NULL;
    if (run(argv, ns, NULL, err, errlen) < 0)
        goto cleanup;
    if ((pid = read_pid(pidfile)) <= 0 || !is_passt(pid)) {
        snprintf(err, errlen, "passt of %s started but is not running (PID file %s)", name,
                 pidfile);
        goto cleanup;
    }
    rc = 0;
cleanup:
    free(pidfile);
    free(ns);
    free(fwd);
    return rc;
}

/* Names starting with prefix among dir's entries, with suffix cut (NULL:
 * whole names), into *names (NULL-terminated, caller frees). Count, or -1
 * when out of memory; a missing dir has none. */
static int names_in(const char *dir, const char *prefix, const char *suffix, char ***names)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    int n = 0;
    *names = calloc(1, sizeof **names);
    if (!*names) {
        if (d)
            closedir(d);
        return -1;
    }
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name), sl = suffix ? strlen(suffix) : 0;
        char **grown;
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0
            || (suffix && (len < sl || strcmp(e->d_name + len - sl, suffix) != 0)))
            continue;
        if (!(grown = realloc(*names, sizeof *grown * (size_t)(n + 2)))) {
            closedir(d);
            return -1;
        }
        *names = grown;
        if (!(grown[n] = strndup(e->d_name, len - sl))) {
            closedir(d);
            return -1;
        }
        grown[++n] = NULL;
    }
    if (d)
        closedir(d);
    return n;
}

int orch_passt_teardown_prefix(const char *prefix, FILE *log, int *removed)
{
    static const char *const where[][2] = {
        { ORCH_PASST_DIR, ".pid" },     /* passt first, then its namespace */
        { NETNS_DIR, NULL },
    };
    int failed = 0;
    for (size_t w = 0; w < sizeof where / sizeof where[0]; w++) {
        char **names = NULL;
        int n = names_in(where[w][0], prefix, where[w][1], &names);
        if (n < 0) {
            if (log)
                fprintf(log, "teardown: out of memory listing %s\n", where[w][0]);
            failed++;
        }
        for (int i = 0; i < n; i++) {
            int rc = orch_passt_stop(names[i], log);
            failed += rc < 0;
            if (rc > 0 && removed)
                (*removed)++;
        }
        for (int i = 0; names && names[i]; i++)
            free(names[i]);
        free(names);
    }
    return failed;
}
