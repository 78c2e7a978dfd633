/* argv_scrub.c — passwords overwritten in oltp's own argv (argv_scrub.h). */
#include "options/argv_scrub.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* 1 when the option name (without "--", up to len) ends in "-password"
 * ('_' read as '-', as the parser does). */
static int password_option(const char *name, size_t len)
{
    static const char tail[] = "-password";
    size_t n = sizeof tail - 1;
    if (len < n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[len - n + i];
        if ((c == '_' ? '-' : c) != tail[i])
            return 0;
    }
    return 1;
}

/* Mark the bytes [from, from + n) of the argument arg as a secret in
 * mask. */
static void mark(char *mask, size_t from, size_t n)
{
    memset(mask + from, 1, n);
}

/* The PWD= and Password= values of the ODBC connection string s (the
 * argument's bytes from offset at) into mask: attributes are KEY=VALUE
 * separated by ';', a VALUE in braces may hold ';' ('}}' is a '}'). */
static int mark_odbc(const char *s, size_t at, char *mask)
{
    int found = 0;
    const char *p = s + at;
    while (*p) {
        const char *key, *eq, *v, *end;
        size_t klen;
        while (*p == ' ' || *p == ';')
            p++;
        key = p;
        eq = strchr(p, '=');
        if (!eq)
            break;
        klen = (size_t)(eq - key);
        while (klen && key[klen - 1] == ' ')
            klen--;
        v = eq + 1;
        if (*v == '{') {
            for (end = v + 1; *end; end++)
                if (*end == '}') {
                    if (end[1] != '}') {
                        end++;
                        break;
                    }
                    end++;
                }
        } else {
            end = v + strcspn(v, ";");
        }
        if ((klen == 3 && strncasecmp(key, "pwd", 3) == 0)
            || (klen == 8 && strncasecmp(key, "password", 8) == 0)) {
            mark(mask, (size_t)(v - s), (size_t)(end - v));
            found++;
        }
        p = end;
        if (*p && *p != ';')
            p += strcspn(p, ";");
    }
    return found;
}

/* Scrub the bytes mask marks in argv[i], first moving it to a copy. The
 * number scrubbed, or -1 when out of memory. */
static int scrub(char **argv, int i, const char *mask, size_t len)
{
    char *copy = strdup(argv[i]);
    if (!copy)
        return -1;
    for (size_t k = 0; k < len; k++)
        if (mask[k])
            argv[i][k] = 'x';
    argv[i] = copy;
    return 1;
}

int opts_scrub_argv(int argc, char **argv)
{
    int n = 0, next_is_secret = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i], *eq, *mask;
        size_t len = strlen(a), nlen;
        int found = 0, r;
        if (!len)
            continue;
        if (!(mask = calloc(len, 1)))
            return -1;
        if (next_is_secret) {
            /* "--mysql-password VALUE", should a parser take that form */
            mark(mask, 0, len);
            found = 1;
        } else if (strncmp(a, "--", 2) == 0) {
            eq = strchr(a + 2, '=');
            nlen = eq ? (size_t)(eq - a - 2) : len - 2;
            if (password_option(a + 2, nlen) && eq) {
                mark(mask, (size_t)(eq + 1 - a), strlen(eq + 1));
                found = 1;
            } else if (eq && nlen == 12 && strncmp(a + 2, "odbc", 4) == 0
                       && (a[6] == '-' || a[6] == '_') && strncmp(a + 7, "connect", 7) == 0) {
                found = mark_odbc(a, (size_t)(eq + 1 - a), mask);
            }
        }
        next_is_secret = !next_is_secret && strncmp(a, "--", 2) == 0 && !strchr(a, '=')
                         && password_option(a + 2, len - 2);
        r = found ? scrub(argv, i, mask, len) : 0;
        free(mask);
        if (r < 0)
            return -1;
        n += found;
    }
    return n;
}
