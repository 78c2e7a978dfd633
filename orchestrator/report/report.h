/*
 * report.h — `drivebench report`: one or more run folders to one
 * self-contained HTML page and one CSV (results/SCHEMA.md, "report").
 *
 * The model of the report: a run folder is read through its summary.json
 * (the summary of common/results_summary.h) and its plan.ini; no per-VM
 * file is opened. The figures are the summary's own; what the report adds
 * is computed here: the spread over repetitions (mean, min, max,
 * coefficient of variation) with a flag above the plan's cv_threshold,
 * and, for a drive present in several runs, the scaling ratio against the
 * run where it had the fewest VMs. The page is written by report_html.h,
 * which reads this model only.
 */
#ifndef ORCH_REPORT_H
#define ORCH_REPORT_H

#include "attributes.h"

#include <stddef.h>
#include <stdint.h>

#include "results_summary.h"

#define REPORT_CV_DEFAULT     5.0       /* percent, when the plan has none */

/* Spread of one figure over repetitions. cv is the sample standard
 * deviation (n - 1) over the mean, in percent; NAN when n < 2 (one
 * repetition has no CV: shown blank) or when it cannot be computed (mean
 * 0, a NaN value: report_cv_unknown, flagged). */
typedef struct report_spread {
    int    n;
    double mean, min, max, cv;
    double sd;                  /* sample standard deviation; NAN when n < 2 */
} report_spread;

/* The 95 % interval of a scaling ratio from the repetitions (issue 29):
 * [lo, hi], or none saying why there is none. */
typedef struct report_ratio_ci {
    double      lo, hi, df;
    const char *none;           /* NULL: an interval */
} report_ratio_ci;

#define REPORT_CI_ONE_REP  "one repetition: no interval"
#define REPORT_CI_NO_VAR   "no variance: no interval"
#define REPORT_CI_BASE     "the base"

typedef struct report_drive {
    const res_drive *d;             /* the summary's drive (borrowed) */
    const char      *name;          /* d->name */
    int              vms;           /* per repetition */
    double           tps;           /* mean over repetitions */
    report_spread    tps_spread;    /* of the per-repetition tps, complete
                                     * repetitions only (no VM failed) */
    report_spread    p99_spread;    /* of the per-repetition p99, ms, idem */
    int              flagged;       /* a CV above the run's threshold, or
                                     * cv_unknown */
    int              cv_unknown;    /* a CV over 2 or more repetitions that
                                     * cannot be computed (report_cv_unknown) */
    int              incomplete;    /* a VM failed: its figures are not
                                     * comparable (no scaling ratio) */
    int              failed_vms;    /* d->f.failed_vms */
} report_drive;

typedef struct report_run {
    char         *dir;              /* the run folder as given */
    res_summary   sum;              /* owned: its summary.json */
    char         *plan_text;        /* plan.ini as copied by the run, or NULL */
    const char   *run_id;           /* sum.run_id */
    char          label[16];        /* "A", "B", ...: the run in charts */
    int           repetitions;
    double        cv_threshold;     /* percent */
    report_drive *drives;
    int           ndrives;
    const res_vm *vms;              /* sum.vms: errors/reconnects RES_UNSET
                                     * when not recorded */
    int           nvms;
    int           group;            /* its protocol: index into the set's
                                     * groups (fingerprint.c) */
    report_spread tps_spread;       /* of the run's tps per repetition (its
                                     * drives' summed) over the repetitions
                                     * in which every drive is complete */
} report_run;

typedef struct report_set {
    report_run *runs;
    int         nruns;
    int         ngroups;            /* protocols: runs with equal fingerprints
                                     * share one; a run without one (older)
                                     * is a group of its own */
} report_set;

/* Protocols (fingerprint.c). Runs of different groups are never ranked
 * or scaled together. */

/* Give each run of s its group (report_load does). */
void report_group_runs(report_set *s);
/* "P1", "P2", ... : group g's label into buf. Returns buf. */
const char *report_group_label(int g, char *buf, size_t len);
/* The first run of group g (its representative), or -1. */
int report_group_first(const report_set *s, int g) DB_MUST_CHECK;
/* The fingerprint keys in which runs a and b differ, ", "-separated, into
 * buf: returns how many; -1 with "no fingerprint (older run)" when either
 * has none (such runs are never compared). */
int report_fp_diff(const report_run *a, const report_run *b, char *buf, size_t len) DB_MUST_CHECK;
#define REPORT_NO_FP "no fingerprint (older run)"
/* Whether dir holds run folders (a subfolder with summary.json): a
 * results directory, which `report --rank` takes. */
int report_is_results_dir(const char *dir);
/* "2 drives × 4 VMs" (or "8 VMs on 2 drives" when drives differ) of a
 * run into buf: the layout, not in the fingerprint. Returns buf. */
const char *report_layout(const report_run *run, char *buf, size_t len);

/* Read the run folders dirs[0..ndirs-1]. Returns a new set (free with
 * report_set_free) or NULL with a message in err naming the file at
 * fault. */
report_set *report_load(const char *const *dirs, int ndirs, char *err, size_t errlen);
void report_set_free(report_set *s);      /* accepts NULL */

/* Mean, min, max and CV of v[0..n-1] (see report_spread). */
report_spread report_spread_of(const double *v, int n);
/* The repetitions of d left out of its figures for measuring fewer VMs
 * (d->other_reps): "repetition 2 (3 VMs), ..." (words) or "2:3 ..."
 * (the CSV's); "" when none. Caller frees; NULL when out of memory. */
char *report_other_vms(const res_drive *d, int words);
/* 1 when sp is over 2 or more repetitions and its CV is NAN. */
int report_cv_unknown(const report_spread *sp);

/* Whether run stopped early (summary status "partial"): its figures cover
 * the repetitions it finished, so it has no scaling ratio and is no base. */
int report_run_partial(const report_run *run);

/* Scaling of drive d of run r against the run of the same protocol
 * (group) where the drive of the same
 * name has the fewest VMs (the first such run on ties), incomplete drives
 * and partial runs left out on both sides. Returns the ratio of their tps
 * and sets *base_run / *base_drive; returns 0 with *base_run = -1 when no
 * other run has that drive complete, or when drive d is incomplete or its
 * run partial. */
double report_scaling(const report_set *s, int r, int d, int *base_run, int *base_drive);

/* Scaling of run r as a whole: its tps (the summary's run figures) over
 * that of the run with the fewest VMs (the first on ties) among the runs
 * of its protocol (group) where no VM failed that are not partial, whose
 * index goes to *base_run. 0 when the base has no tps; 0 with *base_run =
 * -1 when run r had failed VMs or is partial, or is the only such run of
 * its protocol. */
double report_run_scaling(const report_set *s, int r, int *base_run);

/* The 95 % interval of ratio, the mean of x over that of y (the drive's
 * or run's repetitions over the base's, independent samples): the delta
 * method on log(mean x / mean y), variance s_x^2 / (n_x mean_x^2) +
 * s_y^2 / (n_y mean_y^2), with Welch-Satterthwaite degrees of freedom,
 * exponentiated: ratio * exp(+-t(0.975, df) * se). none: fewer than 2
 * repetitions on either side (REPORT_CI_ONE_REP), or se 0
 * (REPORT_CI_NO_VAR). results/SCHEMA.md, "Scaling". */
report_ratio_ci report_ratio_interval(double ratio, const report_spread *x,
                                      const report_spread *y);
/* The interval of report_scaling (drive d of run r) and of
 * report_run_scaling (d < 0): none REPORT_CI_BASE for the base itself,
 * "" when there is no ratio. */
report_ratio_ci report_scaling_ci(const report_set *s, int r, int d);

/* A number as summary.json writes it (6 decimals, no trailing zeros) into
 * buf; "" for one not finite (not computed: never "nan"). Returns buf. */
const char *report_num(double v, char *buf, size_t len);

/* Write the CSV (one row per drive per run). 0, or -1 with err. */
int report_write_csv(const report_set *s, const char *path, char *err, size_t errlen) DB_MUST_CHECK;

/* The command (report_cmd.c: the model, the CSV and report_html.h's page
 * together). */

#define REPORT_BAD_INPUT (-2)

/* The whole report of run folders dirs[0..ndirs-1]: the page at html_path
 * (NULL: DIR/report.html for one folder, report.html for several) and the
 * CSV next to it (same name, .csv). What a run calls at its end:
 * report_write(&run_dir, 1, NULL, NULL, NULL, err, len). Returns 0 (with
 * the two paths in *html_out / *csv_out when not NULL; caller frees),
 * REPORT_BAD_INPUT when a folder cannot be read, -1 when a file cannot be
 * written; err says why. */
int report_write(const char *const *dirs, int ndirs, const char *html_path, char **html_out,
                 char **csv_out, char *err, size_t errlen) DB_MUST_CHECK;

/* The page of a sweep's folder dir (its sweep.json; issue 34,
 * report_sweep.c) at html_path (NULL: dir/report.html). Returns 0 (the
 * path in *html_out when not NULL; caller frees), REPORT_BAD_INPUT when
 * sweep.json cannot be read, -1 when the page cannot be written; err
 * says why. */
int report_sweep_write(const char *dir, const char *html_path, char **html_out, char *err,
                       size_t errlen) DB_MUST_CHECK;

/* `drivebench report RESULTS_DIR... [-o report.html]` (argv after the
 * command name). Writes the page and, next to it, the CSV (same name,
 * .csv); prints both paths. Exit status 0, 1 (cannot write) or 2 (bad
 * arguments or unreadable run folder). */
int report_main(int argc, char **argv);

/* The rest of what report/ offers to the other folders (the front header:
 * a file outside report/ includes only this one, tests/lint/fronts.sh). */
#include "report/drive_io.h"
#include "report/rank.h"
#include "report/report_html.h"
#include "report/svg.h"

#endif
