/* cli.c — the options of drivebench's commands (cli.h): parsed once,
 * and the one bad-input message. */
#include "cli.h"

#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cli_bad_input(const char *fmt, ...)
{
    va_list ap;
    fputs("drivebench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_BAD_INPUT;
}

int cli_can_run(const orch_plan *p)
{
    if (p->network == ORCH_NET_PASST && geteuid() != 0)
        return cli_bad_input("[run] network = passt makes a network namespace for each VM and "
                             "enters it, which needs root: run drivebench as root, or use "
                             "network = user");
    return 0;
}

/* 1 when word is one of allowed's space-separated words ("sign" is not
 * in "signers"). */
static int allows(const char *allowed, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(allowed, word); p; p = strstr(p + 1, word))
        if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

int cli_parse_opts(int argc, char **argv, const char *allowed, int need_arg, cli_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--run-id=", 9) == 0 && strstr(allowed, "run-id"))
            o->run_id = a + 9;
        else if (strncmp(a, "--out=", 6) == 0 && strstr(allowed, "out"))
            o->out_dir = a + 6;
        else if (strncmp(a, "--uri=", 6) == 0 && strstr(allowed, "uri") && o->nuris < MAX_URIS)
            o->uris[o->nuris++] = a + 6;
        else if (strncmp(a, "--results=", 10) == 0 && strstr(allowed, "results"))
            o->results = a + 10;
        else if (strncmp(a, "--domain-type=", 14) == 0 && strstr(allowed, "domain-type"))
            o->domain_type = a + 14;
        else if (strncmp(a, "--capabilities=", 15) == 0 && strstr(allowed, "capabilities"))
            o->capabilities = a + 15;
        else if (strncmp(a, "--plan=", 7) == 0 && strstr(allowed, "plan"))
            o->plan = a + 7;
        else if (strncmp(a, "--sign=", 7) == 0 && a[7] && allows(allowed, "sign"))
            o->sign = a + 7;
        else if (strncmp(a, "--signers=", 10) == 0 && a[10] && allows(allowed, "signers"))
            o->signers = a + 10;
        else if (strcmp(a, "--force") == 0 && strstr(allowed, "force"))
            o->force = true;
        else if (strncmp(a, "--ignore-host-check=", 20) == 0 && strstr(allowed, "ignore-host-check")) {
            if (!orch_hc_check_known(a + 20))
                return cli_bad_input("--ignore-host-check=%s: no such host check (%s)", a + 20,
                                 orch_hc_check_list());
            if (o->nignore < ORCH_HC_COUNT)
                o->ignore[o->nignore++] = a + 20;
        }
        else if (a[0] == '-' && a[1] == '-')
            return cli_bad_input("unknown option %s (see drivebench --help)", a);
        else if (!o->arg && need_arg)
            o->arg = a;
        else
            return cli_bad_input("unexpected argument '%s' (see drivebench --help)", a);
    }
    if (need_arg && !o->arg)
        return cli_bad_input("%s", need_arg == 1 ? "missing PLAN argument"
                               : need_arg == 2 ? "missing RUN-ID argument"
                               : need_arg == 3 ? "missing BUNDLE argument"
                               : "missing RUN_DIR argument");
    if (o->run_id && !orch_runid_valid(o->run_id))
        return cli_bad_input("run id '%s' is not of the form drivebench makes "
                         "(lowercase letters, digits, single dashes)", o->run_id);
    return 0;
}
