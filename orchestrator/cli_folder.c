/* cli_folder.c — the commands on a run folder or a bundle (cli.h):
 * `drivebench resume RUN-ID` (run/resume.h), `bundle RUN-ID` and `verify
 * BUNDLE` (bundle/bundle.h), `summarize RUN_DIR` (run/replay.h). */
#include "cli.h"

#include "bundle/bundle.h"
#include "plan/plan.h"
#include "run/run.h"
#include "util/util.h"

#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The run folder of RUN-ID under --results (default "results") into
 * *run_dir (new string). 0, or EXIT_BAD_INPUT after a message. */
static int run_folder(const cli_opts *o, char **run_dir)
{
    if (!orch_runid_valid(o->arg))
        return cli_bad_input("'%s' is not a run id (see `drivebench list`)", o->arg);
    *run_dir = orch_strfmt("%s/%s", o->results ? o->results : "results", o->arg);
    if (!*run_dir) {
        fputs("drivebench: out of memory\n", stderr);
        return 1;
    }
    return 0;
}

/* `resume RUN-ID`: go on with a run that stopped without its summary
 * (run/resume.h) with its plan (the run folder's copy, or --plan when the
 * copy hides secrets). */
int cli_resume(int argc, char **argv)
{
    cli_opts o;
    orch_plan *p = NULL;
    orch_run_opts ro;
    orch_resume r = { .lock_fd = -1 };
    char err[2048], *run_dir = NULL, *copy = NULL, *text = NULL, *results = NULL;
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_RESUME, 2, &o);
    if (rc || (rc = run_folder(&o, &run_dir)))
        return rc;
    copy = orch_strfmt("%s/plan.ini", run_dir);
    if (!o.plan && copy && access(copy, R_OK) < 0) {
        rc = cli_bad_input("no run folder %s with its plan.ini (see --results)", run_dir);
        goto cleanup;
    }
    /* the copy shows secrets as ORCH_REDACTED: the run needs the plan itself */
    text = !o.plan && copy ? orch_file_read(copy, 1 << 20) : NULL;
    if (text && strstr(text, ORCH_REDACTED)) {
        rc = cli_bad_input("%s hides the plan's secrets (%s): give the plan with --plan=PLAN",
                       copy, ORCH_REDACTED);
        goto cleanup;
    }
    if (!(p = orch_plan_load(o.plan ? o.plan : copy, stderr))) {
        rc = EXIT_BAD_INPUT;
        goto cleanup;
    }
    if ((rc = cli_can_run(p)))
        goto cleanup;
    /* the run folder is where it was, whatever the plan's results_dir */
    results = strdup(o.results ? o.results : "results");
    if (!results) {
        rc = 1;
        goto cleanup;
    }
    free(p->results_dir);
    p->results_dir = results;
    rc = orch_resume_prepare(p, run_dir, o.arg, &r, stderr, err, sizeof err);
    if (rc != 0) {
        rc = cli_bad_input("%s", err);
        goto cleanup;
    }
    memset(&ro, 0, sizeof ro);
    ro.run_id = o.arg;
    ro.out = stderr;
    ro.resume = &r;
    rc = orch_run(p, &ro);
cleanup:
    orch_resume_clear(&r);
    orch_plan_free(p);
    free(text);
    free(copy);
    free(run_dir);
    return rc;
}

/* `bundle RUN-ID`: the run folder and its manifest in one archive
 * (bundle/bundle.h), RUN-ID.tar.gz here unless --out says where; with
 * --sign=KEY, the manifest signed with that SSH key (bundle/sign.h). */
int cli_bundle(int argc, char **argv)
{
    cli_opts o;
    char err[2048], *run_dir = NULL, *out = NULL;
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_BUNDLE, 2, &o);
    if (rc || (rc = run_folder(&o, &run_dir)))
        return rc;
    out = o.out_dir ? strdup(o.out_dir) : orch_strfmt("%s.tar.gz", o.arg);
    if (!out) {
        fputs("drivebench: out of memory\n", stderr);
        rc = 1;
    } else if ((rc = orch_bundle_write(run_dir, out, o.sign, stdout, err, sizeof err)) < 0) {
        /* an output that cannot be written is no bad input */
        if (rc == ORCH_BUNDLE_EWRITE) {
            fprintf(stderr, "drivebench: %s\n", err);
            rc = 1;
        } else
            rc = cli_bad_input("%s", err);
    }
    free(out);
    free(run_dir);
    return rc;
}

/* `verify BUNDLE [--signers=FILE]`: 0 verified, 1 a mismatch or a
 * signature that fails, 2 no bundle (or a damaged one). */
int cli_verify(int argc, char **argv)
{
    cli_opts o;
    char err[2048];
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_VERIFY, 3, &o);
    if (rc)
        return rc;
    rc = orch_bundle_verify(o.arg, o.signers, stdout, err, sizeof err);
    return rc < 0 ? cli_bad_input("%s", err) : rc;
}

/* `summarize RUN_DIR`: summary.json and summary.csv made again from the
 * run folder's VM results and its summary's plan (run/replay.h
 * orch_summary_rebuild), into RUN_DIR (its lock held: not while a run
 * writes it) or --out=DIR. 0, 1 when they cannot be written, 2 when the
 * folder cannot be summarized. */
int cli_summarize(int argc, char **argv)
{
    cli_opts o;
    char err[2048];
    const char *dir;
    res_summary *s = NULL;
    int rc = cli_parse_opts(argc, argv, CLI_OPTS_SUMMARIZE, 4, &o), lock = -1;
    if (rc)
        return rc;
    dir = o.out_dir ? o.out_dir : o.arg;
    snprintf(err, sizeof err, "%s/summary.json", o.arg);
    if (access(err, R_OK) < 0)      /* not a run folder: said before its lock */
        return cli_bad_input("%s: cannot be summarized: %s: %s", o.arg, err, strerror(errno));
    if (!o.out_dir && (lock = orch_run_lock(o.arg, err, sizeof err)) < 0)
        return cli_bad_input("%s", err);
    if (!(s = orch_summary_rebuild(o.arg, err, sizeof err))) {
        rc = cli_bad_input("%s: cannot be summarized: %s", o.arg, err);
    } else if (o.out_dir && mkdir(dir, 0755) < 0 && errno != EEXIST) {
        fprintf(stderr, "drivebench: cannot create %s: %s\n", dir, strerror(errno));
        rc = 1;
    } else if (res_summary_write_files(s, dir, err, sizeof err) < 0) {
        fprintf(stderr, "drivebench: %s\n", err);
        rc = 1;
    } else {
        printf("summarize %s: %s/summary.json, %s/summary.csv\n", s->run_id, dir, dir);
    }
    orch_summary_free(s);
    if (lock >= 0)
        close(lock);
    return rc;
}
