/*
 * results_server.h — a database server's settings (drivebench-server-
 * settings/1, results_server.c): what `oltp settings` writes of a
 * server, and what the summary keeps per VM (res_vm.server).
 */
#ifndef DB_RESULTS_SERVER_H
#define DB_RESULTS_SERVER_H

#include "results_base.h"

/* ------------------------------------------------------------------ */
/* server settings (results_server.c; issue 44): what a VM's database   */
/* server said of itself before the measurement, written by `oltp       */
/* settings` (its own document) and kept per VM in the summary          */
/* (results/SCHEMA.md, "Server settings").                              */

#define RES_SERVER_SCHEMA   "drivebench-server-settings/1"
#define RES_MAX_SETTINGS    256

typedef struct res_setting {
    char *name;         /* as the engine names it ("innodb_buffer_pool_size",
                         * "max server memory (MB)", "recovery model") */
    char *value;        /* as the server reports it; NULL: not available */
    char *wanted;       /* what the plan states, or NULL: nothing stated */
    char *note;         /* when value is NULL: why ("not available on this
                         * server (SQL Server: ...)"); else NULL */
} res_setting;

typedef struct res_server {
    char        *version;       /* as the server reports it, or NULL */
    char        *edition;       /* SQL Server's SERVERPROPERTY('Edition'),
                                 * or NULL: the engine has none */
    res_setting *settings;
    int          nsettings;
} res_server;

/* path's document (written by oltp settings) into *s. 0, or -1 with "PATH:
 * why" (not JSON, another schema, a setting without a name). */
int  res_server_read_file(const char *path, res_server *s, char *err, size_t errlen);
/* s as its document at path, atomically. 0, or -1 with "cannot write PATH: why". */
int  res_server_write_file(const res_server *s, const char *path, char *err, size_t errlen);
void res_server_clear(res_server *s);       /* frees members; accepts NULL */
/* The setting named name (ASCII case ignored), or NULL. */
res_setting *res_server_find(const res_server *s, const char *name);
/* Whether a value the plan states and one a server reports say the same:
 * equal ignoring ASCII case; or both sizes (digits with an optional K, M,
 * G, T, KB, MB, GB or TB, any case, powers of 1024) of the same bytes; or
 * both truths (on/off, true/false, yes/no, and 1/0 against one of those)
 * of the same. NULL equals only NULL. */
bool res_setting_same(const char *a, const char *b);
/* The first difference between two servers' read-backs (the version, the
 * edition, then each setting of a by name, then those only b has; a
 * value NULL reads "not available"): its name, with a's and b's values
 * in *va and *vb (borrowed; NULL: not available or not read); NULL when
 * they agree or either is NULL (not read: nothing to compare). */
const char *res_server_differs(const res_server *a, const res_server *b, const char **va,
                               const char **vb);
/* A new setting at the end of s (its strings copied; value, note may be
 * NULL). 0, or -1 when out of memory. */
int  res_server_add(res_server *s, const char *name, const char *value, const char *note);

#endif
