/*
 * fuzz_oltp_options.c — oltp's option parser (oltp/options/options.c) on any
 * command line: the input's lines are the arguments after "oltp".
 *
 * opts_parse returns 0, 1 or -1 without crashing; on 0 the options also
 * go through opts_to_json (the result file's "options"), which must never
 * hold a password.
 */
#include "fuzz.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/options.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    char *text = malloc(size + 1), *argv[MAX_ARGS + 2], *save = NULL;
    int argc = 0, rc;
    oltp_opts o;

    if (!text)
        return 0;
    if (!devnull && !(devnull = fopen("/dev/null", "w")))
        fuzz_fail("cannot open /dev/null");
    memcpy(text, data, size);
    text[size] = '\0';
    argv[argc++] = (char *)"oltp";
    for (char *a = strtok_r(text, "\n", &save); a && argc <= MAX_ARGS;
         a = strtok_r(NULL, "\n", &save))
        if (strcmp(a, "--help") && strcmp(a, "-h") && strcmp(a, "--version"))
            argv[argc++] = a;           /* those print on stdout: covered by tests */
    argv[argc] = NULL;
    rc = opts_parse(&o, argc, argv, devnull);
    if (rc != 0 && rc != -1)
        fuzz_fail("opts_parse returned %d", rc);
    if (rc == 0) {
        json_object *j = opts_to_json(&o);
        if (!j || !json_object_to_json_string(j))
            fuzz_fail("opts_to_json gave nothing");
        json_object_object_foreach(j, key, val) {
            (void)val;
            if (strstr(key, "password"))
                fuzz_fail("a password in the options JSON: %s", key);
        }
        json_object_put(j);
    }
    free(text);
    return 0;
}
