/* results_server.c — the server settings a VM's database reported before
 * the measurement (results_server.h, results/SCHEMA.md
 * "Server settings"): `oltp settings` writes the document, drivebench
 * reads it and nests it per VM in the summary through the same table. */
#include "results_server.h"
#include "results_json.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define F RJ_F
#define SERVER_SCHEMA_NAME "drivebench-server-settings/"

static const rj_field setting_fields[] = {
    F("name",   RJ_STR,     res_setting, name, .flags = RJ_NONEMPTY),
    F("value",  RJ_STR,     res_setting, value),
    F("wanted", RJ_STR_OPT, res_setting, wanted),
    F("note",   RJ_STR_OPT, res_setting, note),
    RJ_TABLE_END,
};

const rj_field res_server_fields[] = {
    F("version",  RJ_STR_OPT, res_server, version),
    F("edition",  RJ_STR_OPT, res_server, edition),
    F("settings", RJ_ARRAY,   res_server, settings, .sub = setting_fields,
      .size = sizeof(res_setting), .n_off = offsetof(res_server, nsettings),
      .max = RES_MAX_SETTINGS, .label = "settings"),
    RJ_TABLE_END,
};

/* the file: the schema, then the members */
static const rj_field server_doc_fields[] = {
    RJ_HERE(RK_SCHEMA, RJ_CONST, .dflt = RES_SERVER_SCHEMA),
    RJ_HERE(NULL,      RJ_EMBED, .sub = res_server_fields),
    RJ_TABLE_END,
};

void res_server_clear(res_server *s)
{
    if (!s)
        return;
    rj_free_fields(res_server_fields, s);
    memset(s, 0, sizeof *s);
}

res_setting *res_server_find(const res_server *s, const char *name)
{
    for (int i = 0; s && i < s->nsettings; i++)
        if (s->settings[i].name && strcasecmp(s->settings[i].name, name) == 0)
            return &s->settings[i];
    return NULL;
}

int res_server_add(res_server *s, const char *name, const char *value, const char *note)
{
    res_setting *v, *n;
    if (s->nsettings >= RES_MAX_SETTINGS)
        return -1;
    v = realloc(s->settings, sizeof *v * (size_t)(s->nsettings + 1));
    if (!v)
        return -1;
    s->settings = v;
    n = &v[s->nsettings];
    memset(n, 0, sizeof *n);
    n->name = strdup(name);
    n->value = value ? strdup(value) : NULL;
    n->note = note ? strdup(note) : NULL;
    s->nsettings++;     /* counted first: res_server_clear frees what was copied */
    return n->name && (!value || n->value) && (!note || n->note) ? 0 : -1;
}

int res_server_write_file(const res_server *s, const char *path, char *err, size_t errlen)
{
    return rj_write_fields(path, server_doc_fields, s, err, errlen);
}

static int server_from_json(json_object *doc, void *dst, char *err, size_t errlen)
{
    json_object *schema = rj_get(doc, RK_SCHEMA);
    const char *name = schema ? json_object_get_string(schema) : NULL;
    rj_ctx c = { .err = err, .errlen = errlen };
    res_server *s = dst;
    if (rj_schema_major(name, SERVER_SCHEMA_NAME) != 1) {
        snprintf(err, errlen, "not a %s1 document", SERVER_SCHEMA_NAME);
        return -1;
    }
    if (rj_get_fields(doc, res_server_fields, s, &c) < 0)
        return -1;
    for (int i = 0; i < s->nsettings; i++)
        if (!s->settings[i].name || !s->settings[i].name[0]) {
            snprintf(err, errlen, "settings[%d] has no name", i);
            return -1;
        }
    return 0;
}

static void server_clear(void *s)
{
    res_server_clear(s);
}

int res_server_read_file(const char *path, res_server *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    return rj_read_doc(path, "", server_from_json, server_clear, s, err, errlen);
}

/* s as bytes when it is digits with an optional unit (1 on success). */
static int as_bytes(const char *s, long double *out)
{
    static const char units[] = "KMGT";
    char *end;
    long double v;
    const char *u;
    if (!s || !(*s >= '0' && *s <= '9'))
        return 0;
    v = strtold(s, &end);
    if (*end == '\0') {
        *out = v;
        return 1;
    }
    if (!(u = strchr(units, end[0] & ~0x20)) || !*u)
        return 0;
    if (end[1] && !((end[1] == 'B' || end[1] == 'b') && end[2] == '\0'))
        return 0;
    for (const char *k = units; k <= u; k++)
        v *= 1024;
    *out = v;
    return 1;
}

/* s as a truth: 1 true, 0 false, -1 neither; digits only when word is 0 */
static int as_truth(const char *s, int digits)
{
    static const char *const yes[] = { "on", "true", "yes" }, *const no[] = { "off", "false", "no" };
    for (int i = 0; i < 3; i++) {
        if (strcasecmp(s, yes[i]) == 0)
            return 1;
        if (strcasecmp(s, no[i]) == 0)
            return 0;
    }
    if (digits && (strcmp(s, "1") == 0 || strcmp(s, "0") == 0))
        return s[0] == '1';
    return -1;
}

bool res_setting_same(const char *a, const char *b)
{
    long double x, y;
    int ta, tb;
    if (!a || !b)
        return !a && !b;
    if (strcasecmp(a, b) == 0)
        return true;
    if (as_bytes(a, &x) && as_bytes(b, &y))
        return x == y;
    ta = as_truth(a, 0);
    tb = as_truth(b, 0);
    if (ta < 0 && tb < 0)
        return false;
    return (ta < 0 ? as_truth(a, 1) : ta) == (tb < 0 ? as_truth(b, 1) : tb);
}

const char *res_server_differs(const res_server *a, const res_server *b, const char **va,
                               const char **vb)
{
    if (!a || !b)
        return NULL;
    *va = a->version;
    *vb = b->version;
    if (!res_setting_same(a->version, b->version))
        return "version";
    *va = a->edition;
    *vb = b->edition;
    if (!res_setting_same(a->edition, b->edition))
        return "edition";
    for (int i = 0; i < a->nsettings; i++) {
        const res_setting *o = res_server_find(b, a->settings[i].name);
        *va = a->settings[i].value;
        *vb = o ? o->value : NULL;
        if (!o || !res_setting_same(*va, *vb))
            return a->settings[i].name;
    }
    for (int i = 0; i < b->nsettings; i++)
        if (!res_server_find(a, b->settings[i].name)) {
            *va = NULL;
            *vb = b->settings[i].value;
            return b->settings[i].name;
        }
    return NULL;
}
