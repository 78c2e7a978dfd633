/* cli.h — what drivebench's commands share (main.c on top): their
 * options, parsed once (cli.c), the bad-input message and exit status,
 * and the commands on a run folder or a bundle (cli_folder.c). */
#ifndef ORCH_CLI_H
#define ORCH_CLI_H

#include "run/run.h"

#include <stdbool.h>

#define EXIT_BAD_INPUT 2
#define MAX_URIS 32

typedef struct cli_opts {
    const char *run_id;
    const char *out_dir;
    const char *results;        /* --results: the plans' results_dir */
    const char *uris[MAX_URIS];
    int         nuris;
    const char *arg;            /* the one positional argument */
    bool        force;          /* --force (seed) */
    const char *domain_type;    /* --domain-type (run): overrides the plan's */
    const char *ignore[ORCH_HC_COUNT + 1];  /* --ignore-host-check (run, host
                                             * check), NULL-terminated */
    int         nignore;
    const char *capabilities;   /* --capabilities=FILE (render): the host's */
    const char *plan;           /* --plan=PLAN (resume) */
    const char *sign;           /* --sign=KEY (bundle) */
    const char *signers;        /* --signers=FILE (verify) */
} cli_opts;


/* The options each command takes (cli_parse_opts's `allowed`), named
 * once: the command parses with them and `drivebench --list-options`
 * prints them (tests/man/man.sh holds the man pages to that list). */
#define CLI_OPTS_VALIDATE   ""
#define CLI_OPTS_RENDER     "run-id out capabilities"
#define CLI_OPTS_RUN        "run-id domain-type ignore-host-check"
#define CLI_OPTS_LIST       "uri results"
#define CLI_OPTS_TEARDOWN   "uri results"
#define CLI_OPTS_SEED       "force"
#define CLI_OPTS_HOST_CHECK "ignore-host-check"
#define CLI_OPTS_RESUME     "results plan"
#define CLI_OPTS_BUNDLE     "results out sign"
#define CLI_OPTS_VERIFY     "signers"
#define CLI_OPTS_SUMMARIZE  "out"

/* One line "drivebench: MESSAGE" on stderr; EXIT_BAD_INPUT. */
__attribute__((format(printf, 1, 2)))
int cli_bad_input(const char *fmt, ...);

/* Refuse, before anything is made, what this user cannot run: network =
 * passt makes a network namespace for each VM and enters it (setns),
 * which needs root. 0, or EXIT_BAD_INPUT after a message. */
int cli_can_run(const orch_plan *p);

/* Parse "--run-id=", "--out=", "--uri=" (as allowed by `allowed`) and one
 * positional argument (need_arg: 1 a PLAN, 2 a RUN-ID, 3 a BUNDLE, 4 a
 * RUN_DIR).
 * 0, or EXIT_BAD_INPUT after a message. */
int cli_parse_opts(int argc, char **argv, const char *allowed, int need_arg, cli_opts *o);

/* cli_folder.c: `drivebench resume RUN-ID`, `bundle RUN-ID`, `verify
 * BUNDLE`, `summarize RUN_DIR` (argv after the command). Their exit
 * status. */
int cli_resume(int argc, char **argv);
int cli_summarize(int argc, char **argv);
int cli_bundle(int argc, char **argv);
int cli_verify(int argc, char **argv);

#endif
