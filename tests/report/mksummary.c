/* mksummary — (re)write a fixture run folder's summary.json and
 * summary.csv from the VM results already in it, through the real
 * aggregation (orch_summary_build) and results module, optionally marking
 * VMs failed. Used by tests/report/make-fixtures.sh for the folders whose
 * VMs cannot be produced by a test-driver run: a VM that failed (its
 * console tail, fault and time as the monitor records them) and TPC-C
 * results from real `oltp tpcc run`. Not used by the tests themselves.
 *
 *   bin/report_mksummary RUN_DIR RUN_ID [!]DRIVE=vm/VM.rN.json ...
 *
 * A leading "!" marks that VM failed in the measured phase: its drive
 * filled up (fault disk-full) at 2026-12-01T00:00:05Z, with a console tail
 * holding text that must be escaped. The plan, environment and times come
 * from RUN_DIR/summary.json when there is one. Exit status 0, 1 on error,
 * 2 on bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"

#define MAX_VMS 64

static const char console_tail[] =
    "[   12.345678] EXT4-fs error (device vdb): ext4_journal_check_start: Detected aborted journal\n"
    "[   12.345999] <db> mariadbd: Disk is full writing './ibdata1' (Errcode: 28 \"No space left on device\") & waiting\n";

int main(int argc, char **argv)
{
    orch_vm_result vms[MAX_VMS];
    char *names[MAX_VMS], *drive_names[MAX_VMS], err[1024], path[4096];
    const char *drives[MAX_VMS];
    int nvms = 0, ndrives = 0, reps = 1, rc = 1;
    res_summary old, *s = NULL;
    orch_summary_input in;
    int have_old;

    if (argc < 4 || argc - 3 > MAX_VMS) {
        fputs("usage: report_mksummary RUN_DIR RUN_ID [!]DRIVE=vm/VM.rN.json ...\n", stderr);
        return 2;
    }
    memset(vms, 0, sizeof vms);
    for (int i = 3; i < argc; i++) {
        char *arg = strdup(argv[i]), *eq = strchr(arg, '='), *base, *dot;
        orch_vm_result *v = &vms[nvms];
        int failed = arg[0] == '!', d;
        if (!eq) {
            fprintf(stderr, "report_mksummary: %s: not DRIVE=RESULT\n", argv[i]);
            return 2;
        }
        *eq = '\0';
        drive_names[nvms] = arg + failed;
        for (d = 0; d < ndrives && strcmp(drives[d], drive_names[nvms]) != 0; d++)
            ;
        if (d == ndrives)
            drives[ndrives++] = drive_names[nvms];
        v->drive = drive_names[nvms];
        v->result = eq + 1;
        base = strrchr(eq + 1, '/');
        names[nvms] = strdup(base ? base + 1 : eq + 1);
        dot = strstr(names[nvms], ".r");
        if (dot) {
            v->repetition = atoi(dot + 2);
            *dot = '\0';
        }
        reps = v->repetition > reps ? v->repetition : reps;
        v->vm = names[nvms];
        if (failed) {
            v->failed_in = "measure";
            v->health.fault = ORCH_FAULT_DISK_FULL;
            v->health.at = 1796083205;              /* 2026-12-01T00:00:05Z */
            snprintf(v->health.reason, sizeof v->health.reason, "drive %s is full", v->drive);
            v->console_tail = (char *)console_tail;
        }
        nvms++;
    }
    snprintf(path, sizeof path, "%s/summary.json", argv[1]);
    have_old = res_summary_read_file(path, &old, err, sizeof err) == 0;
    memset(&in, 0, sizeof in);
    in.run_id = argv[2];
    in.run_dir = argv[1];
    in.started_at = have_old ? old.started_at : "2026-12-01T00:00:00Z";
    in.finished_at = have_old ? old.finished_at : "2026-12-01T00:00:20Z";
    in.plan = have_old ? &old.plan : NULL;
    in.env = have_old ? &old.env : NULL;
    in.drives = drives;
    in.ndrives = ndrives;
    in.vms = vms;
    in.nvms = nvms;
    in.repetitions = reps;
    s = orch_summary_build(&in, err, sizeof err);
    if (!s || orch_summary_write(argv[1], s, err, sizeof err) < 0)
        fprintf(stderr, "report_mksummary: %s\n", err);
    else
        rc = 0;
    orch_summary_free(s);
    if (have_old)
        res_summary_clear(&old);
    for (int i = 0; i < nvms; i++) {
        free(names[i]);
        free(drive_names[i] - (argv[3 + i][0] == '!'));
    }
    return rc;
}
