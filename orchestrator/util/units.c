/* units.c — durations and sizes as plans and templates write them, sizes
 * as messages print them (see units.h). */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

const char *orch_format_duration(int seconds, char *buf, size_t len)
{
    int h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60;
    size_t n = 0;
    buf[0] = '\0';
    if (h && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%dh", h);
    if (m && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%dm", m);
    if ((s || !n) && n < len)
        snprintf(buf + n, len - n, "%ds", s);
    return buf;
}

int orch_parse_duration(const char *s, int *seconds)
{
    long long total = 0;
    int any = 0;
    while (*s) {
        char *end;
        long long v;
        if (!isdigit((unsigned char)*s))
            return -1;
        errno = 0;
        v = strtoll(s, &end, 10);
        if (errno || v > INT_MAX)
            return -1;
        switch (*end) {
        case 'h': v *= 3600; end++; break;
        case 'm': v *= 60; end++; break;
        case 's': end++; break;
        case '\0': if (any) return -1; break;
        default: return -1;
        }
        total += v;
        if (total > INT_MAX)
            return -1;
        any = 1;
        s = end;
    }
    if (!any)
        return -1;
    *seconds = (int)total;
    return 0;
}

int orch_parse_size(const char *s, uint64_t *bytes)
{
    char *end;
    unsigned long long v;
    int shift = 0;
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    switch (*end) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && strcmp(end, "iB") == 0)
        end += 2;
    if (*end != '\0' || v > (UINT64_MAX >> shift))
        return -1;
    *bytes = (uint64_t)v << shift;
    return 0;
}

const char *orch_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    if (u == 0 || v >= 100 || v == (double)(uint64_t)v)
        snprintf(buf, len, "%.0f %s", v, units[u]);
    else
        snprintf(buf, len, "%.1f %s", v, units[u]);
    return buf;
}

double orch_mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
