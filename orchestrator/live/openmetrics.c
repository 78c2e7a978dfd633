/* openmetrics.c — the OpenMetrics 1.0 text format (openmetrics.h). */
#include "live/openmetrics.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

static const char *type_name(om_type t)
{
    switch (t) {
    case OM_GAUGE: return "gauge";
    case OM_COUNTER: return "counter";
    case OM_INFO: return "info";
    case OM_STATESET: return "stateset";
    }
    return "unknown";
}

/* s with \, " and line feeds escaped (label values; help without quotes
 * escaped too, which the format allows). */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\\\", f);
        else if (*s == '"')
            fputs("\\\"", f);
        else if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
}

void om_family(FILE *f, const char *name, om_type type, const char *unit, const char *help)
{
    fprintf(f, "# TYPE %s %s\n", name, type_name(type));
    if (unit)
        fprintf(f, "# UNIT %s %s\n", name, unit);
    fprintf(f, "# HELP %s ", name);
    put_escaped(f, help);
    fputc('\n', f);
}

void om_number(char *buf, size_t len, double v)
{
    if (isnan(v)) {
        snprintf(buf, len, "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, len, "%s", v > 0 ? "+Inf" : "-Inf");
        return;
    }
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void om_sample(FILE *f, const char *name, double value, ...)
{
    va_list ap;
    const char *k;
    char num[40];
    int n = 0;
    fputs(name, f);
    va_start(ap, value);
    while ((k = va_arg(ap, const char *))) {
        const char *v = va_arg(ap, const char *);
        fprintf(f, "%s%s=\"", n++ ? "," : "{", k);
        put_escaped(f, v ? v : "");
        fputc('"', f);
    }
    va_end(ap);
    if (n)
        fputc('}', f);
    om_number(num, sizeof num, value);
    fprintf(f, " %s\n", num);
}

void om_eof(FILE *f)
{
    fputs("# EOF\n", f);
}
