/* results_text.c — the text of the result formats: UTF-8 checked
 * (res_utf8_bad_at) and made so for JSON (rj_utf8_string), CSV text
 * fields (res_csv_field). See results_base.h and results_json.h. */
#include "results_base.h"
#include "results_json.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long res_utf8_bad_at(const char *s, size_t len, bool controls)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t at = 0; at < len;) {
        unsigned c = u[at], n, cp;
        if (c < 0x80) {
            if (controls && c < 0x20 && c != '\t')
                return (long)at;
            at++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) { n = 1; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { n = 2; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { n = 3; cp = c & 0x07; }
        else return (long)at;
        if (at + n >= len)
            return (long)at;
        for (unsigned i = 1; i <= n; i++) {
            if ((u[at + i] & 0xc0) != 0x80)
                return (long)at;
            cp = (cp << 6) | (u[at + i] & 0x3f);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff))
            || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
            return (long)at;
        at += n + 1;
    }
    return -1;
}

json_object *rj_utf8_string(const char *s)
{
    char *fixed = NULL;
    size_t n = strlen(s), at = 0;
    long bad;
    json_object *o;
    FILE *f;
    if (res_utf8_bad_at(s, n, false) < 0)
        return json_object_new_string(s);
    /* each byte that is not UTF-8 as U+FFFD: a server's message in
     * another encoding must not make the whole result unreadable */
    if (!(f = open_memstream(&fixed, &n)))
        return NULL;
    for (size_t len = strlen(s); at < len; at += (size_t)bad + 1) {
        bad = res_utf8_bad_at(s + at, len - at, false);
        if (bad < 0) {
            fputs(s + at, f);
            break;
        }
        fprintf(f, "%.*s\xef\xbf\xbd", (int)bad, s + at);
    }
    fclose(f);
    o = fixed ? json_object_new_string(fixed) : NULL;
    free(fixed);
    return o;
}

void res_csv_field(FILE *f, const char *s, bool always)
{
    bool formula;
    if (!s)
        s = "";
    /* a spreadsheet runs a cell that begins so as a formula: quoted and
     * led by a single quote, as OWASP's CSV-injection advice says */
    formula = *s && strchr("=+-@\t\r", *s);
    if (!always && !formula && !strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (formula)
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
