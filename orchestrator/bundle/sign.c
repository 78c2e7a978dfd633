/* sign.c — a bundle's manifest signed and checked with ssh-keygen -Y
 * (sign.h). */
#include "bundle/sign.h"
#include "bundle/bundle.h"
#include "clients/clients.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ssh-keygen's answers are a few lines; a signature a few hundred bytes */
#define KEYGEN_TIMEOUT_MS 30000
#define SIG_MAX           (64 * 1024)

char *orch_sign_stamp(const char *text)
{
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return orch_strfmt("%s%s\n%s", ORCH_SIGNED_AT, now, text);
}

/* Run ssh-keygen with argv (stdin from in_path, or this process's: a
 * key's passphrase is asked on the terminal), stdout and stderr together
 * into *out. Its exit status, or -1 with err when it cannot run. */
static int keygen(const char *const *argv, const char *in_path, int timeout_ms, char **out,
                  char *err, size_t errlen)
{
    orch_command *cmd = orch_command_new(argv);
    char why[1024];
    int status = -1;
    *out = NULL;
    if (!cmd || (in_path && orch_command_stdin_file(cmd, in_path) < 0)) {
        snprintf(err, errlen, "out of memory");
        orch_command_free(cmd);
        return -1;
    }
    orch_command_stdout(cmd, ORCH_COMMAND_PIPE);
    orch_command_stderr(cmd, ORCH_COMMAND_TO_STDOUT);
    orch_command_timeout(cmd, timeout_ms);
    if (orch_command_run(cmd, &status, out, NULL, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s (OpenSSH's ssh-keygen: apt-get install openssh-client)", why);
        status = -1;
    }
    orch_command_free(cmd);
    return status;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

int orch_sign_text(const char *key, const char *text, char **sig, char *err, size_t errlen)
{
    char tmp[] = "/tmp/drivebench-sign-XXXXXX", why[512], *msg = NULL, *sigpath = NULL;
    char *out = NULL;
    int rc = -1, st;

    *sig = NULL;
    if (!mkdtemp(tmp)) {
        snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    msg = orch_strfmt("%s/%s", tmp, ORCH_MANIFEST);
    sigpath = orch_strfmt("%s/%s", tmp, ORCH_SIGNATURE);
    if (!msg || !sigpath) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (write_text(msg, text) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", msg, strerror(errno));
        goto cleanup;
    }
    {
        const char *argv[] = { "ssh-keygen", "-Y", "sign", "-f", key, "-n",
                               ORCH_SIGN_NAMESPACE, msg, NULL };
        /* no time limit: a key's passphrase may be typed */
        if ((st = keygen(argv, NULL, 0, &out, err, errlen)) < 0)
            goto cleanup;
        if (st != 0 || !(*sig = orch_file_read(sigpath, SIG_MAX))) {
            orch_last_line(out, why, sizeof why);
            snprintf(err, errlen, "cannot sign with %s: %s", key,
                     *why ? why : "ssh-keygen wrote no signature");
            goto cleanup;
        }
    }
    rc = 0;
cleanup:
    if (msg)
        unlink(msg);
    if (sigpath)
        unlink(sigpath);
    rmdir(tmp);
    free(out);
    free(msg);
    free(sigpath);
    return rc;
}

/* The signing time of the manifest text ("# signed-at: TIME" on its
 * first line) into at, and as ssh-keygen's verify-time (YYYYMMDDHHMMSSZ)
 * into vt; both "" when it records none. */
static void signed_at(const char *text, char *at, size_t atlen, char *vt, size_t vtlen)
{
    size_t n = strlen(ORCH_SIGNED_AT), len;
    int y, mo, d, h, mi, s;
    *at = *vt = '\0';
    if (strncmp(text, ORCH_SIGNED_AT, n) != 0)
        return;
    len = strcspn(text + n, "\n");
    snprintf(at, atlen, "%.*s", (int)len, text + n);
    if (sscanf(at, "%4d-%2d-%2dT%2d:%2d:%2dZ", &y, &mo, &d, &h, &mi, &s) == 6)
        snprintf(vt, vtlen, "verify-time=%04d%02d%02d%02d%02d%02dZ", y, mo, d, h, mi, s);
}

int orch_sign_check(const char *dir, const char *text, const char *signers, char *origin,
                    size_t originlen, char *err, size_t errlen)
{
    char *sigpath = orch_strfmt("%s/%s", dir, ORCH_SIGNATURE);
    char *mpath = orch_strfmt("%s/%s", dir, ORCH_MANIFEST);
    char at[64], vt[64], why[512], principal[512] = "", *out = NULL;
    int rc = -1, st, is_signed;

    if (!sigpath || !mpath) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    is_signed = access(sigpath, F_OK) == 0;
    signed_at(text, at, sizeof at, vt, sizeof vt);
    if (!signers) {
        snprintf(origin, originlen, "%s", is_signed
                 ? "signed, signer not checked (--signers=FILE checks it against an "
                   "allowed-signers file)"
                 : "consistent, unsigned (nothing in the bundle says who made it)");
        rc = 0;
        goto cleanup;
    }
    if (access(signers, R_OK) < 0) {
        snprintf(err, errlen, "cannot read %s: %s", signers, strerror(errno));
        goto cleanup;
    }
    rc = 1;
    if (!is_signed) {
        snprintf(origin, originlen, "unsigned: no %s, and --signers asks who signed it",
                 ORCH_SIGNATURE);
        goto cleanup;
    }
    {
        /* whose key signed it, among those signers allows */
        const char *argv[] = { "ssh-keygen", "-Y", "find-principals", "-s", sigpath, "-f",
                               signers, *vt ? "-O" : NULL, vt, NULL };
        if ((st = keygen(argv, NULL, KEYGEN_TIMEOUT_MS, &out, err, errlen)) < 0) {
            rc = -1;
            goto cleanup;
        }
        if (st != 0) {
            orch_last_line(out, why, sizeof why);
            snprintf(origin, originlen, "signed by a key that %s does not allow (ssh-keygen: "
                     "%s)", signers, *why ? why : "no principal matched");
            goto cleanup;
        }
        snprintf(principal, sizeof principal, "%.*s", (int)strcspn(out, ",\n"), out);
        free(out);
        out = NULL;
    }
    {
        const char *argv[] = { "ssh-keygen", "-Y", "verify", "-f", signers, "-I", principal,
                               "-n", ORCH_SIGN_NAMESPACE, "-s", sigpath, *vt ? "-O" : NULL,
                               vt, NULL };
        if ((st = keygen(argv, mpath, KEYGEN_TIMEOUT_MS, &out, err, errlen)) < 0) {
            rc = -1;
            goto cleanup;
        }
        orch_last_line(out, why, sizeof why);
        if (st != 0) {
            snprintf(origin, originlen, "the signature does not match %s: it was changed "
                     "after signing, or forged (ssh-keygen: %s)", ORCH_MANIFEST,
                     *why ? why : "verification failed");
            goto cleanup;
        }
    }
    {
        /* "Good "drivebench" signature for P with ED25519 key SHA256:..." */
        const char *with = strstr(why, " with ");
        snprintf(origin, originlen, "signed by %s at %s%s%s%s", principal,
                 *at ? at : "an unrecorded time", with ? " (" : "", with ? with + 6 : "",
                 with ? ")" : "");
    }
    rc = 0;
cleanup:
    free(out);
    free(sigpath);
    free(mpath);
    return rc;
}
