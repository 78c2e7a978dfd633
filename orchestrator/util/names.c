/* names.c — run ids, object names and their sanitizing (see names.h). */
#include "util/names.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *orch_strdup_opt(const char *s, int *ok)
{
    char *d = s && s[0] ? strdup(s) : NULL;
    if (s && s[0] && !d && ok)
        *ok = 0;
    return d;
}

char *orch_strfmt(const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

char *orch_sanitize(const char *s, size_t maxlen)
{
    size_t n = 0;
    int dash = 0;
    char *out = malloc(maxlen + 1);
    if (!out)
        return NULL;
    for (; *s && n < maxlen; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 'A' && c <= 'Z')
            c = (unsigned char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            if (dash && n > 0 && n + 1 < maxlen)
                out[n++] = '-';
            dash = 0;
            out[n++] = (char)c;
        } else {
            dash = 1;
        }
    }
    out[n] = '\0';
    return out;
}

int orch_runid_valid(const char *id)
{
    size_t len = strlen(id);
    if (len == 0 || len > ORCH_ID_MAX + 16 || id[0] == '-' || id[len - 1] == '-')
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return 0;
        if (c == '-' && id[i + 1] == '-')
            return 0;
    }
    return 1;
}

char *orch_runid_new(const char *plan_name, time_t t)
{
    struct tm tm;
    char stamp[32];
    char *base = orch_sanitize(plan_name, ORCH_ID_MAX);
    char *id;
    if (!base)
        return NULL;
    gmtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    id = orch_strfmt("%s%s%s", base[0] ? base : "", base[0] ? "-" : "", stamp);
    free(base);
    return id;
}

char *orch_object_prefix(const char *runid)
{
    return orch_strfmt(ORCH_NAME_PREFIX "%s--", runid);
}

char *orch_object_runid(const char *object_name)
{
    size_t plen = strlen(ORCH_NAME_PREFIX);
    const char *sep;
    char *id;
    if (strncmp(object_name, ORCH_NAME_PREFIX, plen) != 0)
        return NULL;
    sep = strstr(object_name + plen, "--");
    if (!sep)
        return NULL;
    id = strndup(object_name + plen, (size_t)(sep - object_name - (ptrdiff_t)plen));
    if (id && !orch_runid_valid(id)) {
        free(id);
        return NULL;
    }
    return id;
}

/* splitmix64's finalizer: spreads a one-character change over all bits. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Two FNV-1a 64-bit hashes with different offsets, mixed, give 128 bits
 * shaped as a version-4/variant-1 UUID. Not cryptographic: it only has to
 * be stable and distinct for distinct names. */
void orch_uuid_from_name(const char *name, char out[37])
{
    uint64_t h[2] = { 0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL };
    unsigned char b[16];
    for (int k = 0; k < 2; k++)
        for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
            h[k] ^= *p;
            h[k] *= 0x100000001b3ULL;
        }
    h[0] = mix64(h[0]);
    h[1] = mix64(h[1] ^ h[0]);
    for (int i = 0; i < 8; i++) {
        b[i] = (unsigned char)(h[0] >> (8 * i));
        b[8 + i] = (unsigned char)(h[1] >> (8 * i));
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(out, 37,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
             b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

char *orch_tree_path(const char *rel)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;
    if (n <= 0)
        return strdup(rel);
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    return orch_strfmt("%s/../%s", exe, rel);
}

int orch_name_in(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *c = list; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, name, n) == 0)
            return 1;
        c = bar ? bar + 1 : NULL;
    }
    return 0;
}

int orch_cpu_flag(const char *flags, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = flags ? strstr(flags, flag) : NULL; p; p = strstr(p + 1, flag))
        if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}
