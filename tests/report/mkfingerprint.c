/* mkfingerprint — print the protocol fingerprint of a fixture run folder
 * as `drivebench run` records it in summary.json: the real
 * orch_fingerprint_build() from the plan that made the fixture, its
 * profile and the summary's hosts and VMs. make-fixtures.sh adds it to
 * the fixtures, which were made before summaries had one, leaving every
 * other byte of them as it was. Not used by the tests themselves.
 *
 *   bin/report_mkfingerprint RUN_DIR PLAN [--engine=NAME]
 *
 * --engine relabels the engine only (a fixture edit: the same VM results
 * as a run of another engine, so that a test has two runs whose
 * protocols differ in the engine alone). Exit status 0, 1 on error, 2 on
 * bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "run/run.h"
#include "results_fingerprint.h"
#include "results_json.h"

int main(int argc, char **argv)
{
    const char *engine = NULL;
    json_object *o = NULL;
    char err[1024], path[4096];
    res_summary s;
    orch_plan *p = NULL;
    orch_template *t = NULL;
    int rc = 1;

    memset(&s, 0, sizeof s);
    for (int i = 3; i < argc; i++) {
        if (strncmp(argv[i], "--engine=", 9) == 0)
            engine = argv[i] + 9;
        else
            argc = 0;
    }
    if (argc < 3) {
        fputs("usage: report_mkfingerprint RUN_DIR PLAN [--engine=NAME]\n", stderr);
        return 2;
    }
    snprintf(path, sizeof path, "%s/summary.json", argv[1]);
    if (res_summary_read_file(path, &s, err, sizeof err) != 0) {
        fprintf(stderr, "report_mkfingerprint: %s\n", err);
        return 1;
    }
    if (!(p = orch_plan_load(argv[2], stderr)))
        goto cleanup;
    if (!(t = orch_template_load(p->template_path, err, sizeof err))) {
        fprintf(stderr, "report_mkfingerprint: %s\n", err);
        goto cleanup;
    }
    res_fingerprint_free(s.fp);
    if (!(s.fp = orch_fingerprint_build(p, t, &s)))
        goto cleanup;
    if (engine) {
        free(s.fp->engine);
        s.fp->engine = strdup(engine);
    }
    if (!(o = json_object_new_object()))
        goto cleanup;
    rj_put_fields(o, res_fingerprint_fields, s.fp);
    puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
    rc = 0;
cleanup:
    json_object_put(o);
    orch_template_free(t);
    orch_plan_free(p);
    res_summary_clear(&s);
    return rc;
}
