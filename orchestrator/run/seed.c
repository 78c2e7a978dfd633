/* seed.c — seed mode (run.h seed_out): the plan's one VM provisioned,
 * booted and prepared as in a run, then shut down cleanly and its
 * database volume copied to the seed file, before the usual teardown
 * (see run_state.h). */
#include "run/run_state.h"
#include "attributes.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ACPI shutdown of rv's domain, waiting up to timeout_s for it to power
 * off; a guest still running then is destroyed and the seed refused (its
 * database was not shut down cleanly). 0, or -1 with st->err. */
static int shutdown_clean(run_state *st, run_vm *rv, const char *name, int timeout_s)
{
    time_t end = time(NULL) + timeout_s;
    int state = VIR_DOMAIN_NOSTATE, reason;

    if (run_step(st, ORCH_STEP_SHUTDOWN, name) < 0)
        return -1;
    /* the power-off asked for here is no fault of the VM */
    orch_monitor_clear(st->mon);
    fprintf(st->out, "seed: shutting %s down (ACPI, up to %d s)\n", name, timeout_s);
    fflush(st->out);
    if (virDomainShutdown(rv->dom) < 0) {
        snprintf(st->err, sizeof st->err, "cannot shut %s down: %s", name, orch_virt_error());
        return -1;
    }
    for (;;) {
        if (virDomainGetState(rv->dom, &state, &reason, 0) < 0) {
            snprintf(st->err, sizeof st->err, "cannot read the state of %s: %s", name,
                     orch_virt_error());
            return -1;
        }
        if (state == VIR_DOMAIN_SHUTOFF)
            return 0;
        if (run_stop_requested(st)) {
            snprintf(st->err, sizeof st->err, "interrupted");
            return -1;
        }
        if (time(NULL) >= end)
            break;
        run_nap(st, 1);
    }
    virDomainDestroy(rv->dom);
    snprintf(st->err, sizeof st->err, "%s did not power off within %d s of an ACPI shutdown; "
             "destroyed, no seed kept (images/README.md: the image powers off on an ACPI "
             "shutdown, its databases shut down cleanly)", name, timeout_s);
    return -1;
}

/* The path of vm's database volume when it is a file on this host (the
 * drive's URI local, the file there), else NULL with st->err. New string. */
static char *local_db_file(run_state *st, const orch_vm *vm, run_vm *rv)
{
    virStorageVolPtr vol = virStorageVolLookupByName(st->pools[vm->drive_index], vm->db_vol);
    char *path = vol ? virStorageVolGetPath(vol) : NULL;
    char *uri = virConnectGetURI(rv->conn);
    struct stat sb;

    if (!path)
        snprintf(st->err, sizeof st->err, "cannot find database volume %s: %s", vm->db_vol,
                 orch_virt_error());
    else if (!uri || orch_uri_is_remote(uri) || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        snprintf(st->err, sizeof st->err, "database volume %s (%s) is not a file on this host "
                 "(%s): seed with the plan's first drive on this host", vm->db_vol, path,
                 uri ? uri : "?");
        free(path);
        path = NULL;
    }
    free(uri);
    if (vol)
        virStorageVolFree(vol);
    return path;
}

/* qemu-img convert of src into dst as qcow2, through dst.part renamed
 * when complete (no half seed is ever at dst). 0, or -1 with st->err. */
static int convert_seed(run_state *st, const char *src, const char *dst)
{
    const char *qi = st->o->qemu_img ? st->o->qemu_img : "qemu-img";
    char *part = malloc(strlen(dst) + sizeof ".part");
    const char *argv[] = { qi, "convert", "-O", "qcow2", src, part, NULL };
    orch_command *cmd;
    char *errout = NULL, why[DB_ERR_LEN];
    int status = -1, rc = -1;

    if (!part) {
        snprintf(st->err, sizeof st->err, "out of memory");
        return -1;
    }
    sprintf(part, "%s.part", dst);
    argv[5] = part;
    if (!(cmd = orch_command_new(argv))) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    orch_command_stderr(cmd, ORCH_COMMAND_PIPE);
    if (orch_command_run(cmd, &status, NULL, &errout, why, sizeof why) < 0)
        snprintf(st->err, sizeof st->err, "%s", why);     /* "cannot run QEMU-IMG: why" */
    else if (status != 0)
        snprintf(st->err, sizeof st->err, "qemu-img convert of %s into %s failed (exit %d): %s",
                 src, part, status, errout ? errout : "");
    else if (rename(part, dst) != 0)
        snprintf(st->err, sizeof st->err, "cannot rename %s to %s: %s", part, dst,
                 strerror(errno));
    else
        rc = 0;
    if (rc < 0)
        unlink(part);
cleanup:
    orch_command_free(cmd);
    free(errout);
    free(part);
    return rc;
}

int run_seed(run_state *st)
{
    const orch_vm *vm = &st->l->vms[0];
    run_vm *rv = &st->vms[0];
    int timeout = st->o->seed_shutdown_s > 0 ? st->o->seed_shutdown_s : ORCH_SEED_SHUTDOWN_S;
    char *src;
    int rc;

    if (st->l->nvms != 1) {
        snprintf(st->err, sizeof st->err, "seed: the plan makes %d VMs, not one", st->l->nvms);
        return -1;
    }
    if (run_provision_rep(st, 1) < 0 || run_wait_ready(st, 1) < 0
        || run_phase(st, 1, ORCH_STEP_PREPARE, RES_PHASE_PREPARE, "prepare", 0, 0, 0) < 0
        || shutdown_clean(st, rv, vm->name, timeout) < 0
        || run_step(st, ORCH_STEP_KEEP_SEED, st->o->seed_out) < 0
        || !(src = local_db_file(st, vm, rv)))
        return -1;
    fprintf(st->out, "seed: copying %s into %s\n", vm->db_vol, st->o->seed_out);
    fflush(st->out);
    rc = convert_seed(st, src, st->o->seed_out);
    free(src);
    if (rc == 0)
        fprintf(st->out, "seed: %s\n", st->o->seed_out);
    return rc;
}
