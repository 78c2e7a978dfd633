/*
 * odbc_bcp.c — the bcp functions of the connection's ODBC driver (see
 * odbc_bcp.h): Microsoft's exported ones, or FreeTDS's connection
 * attributes behind functions of the same signatures.
 */
#include "drivers/odbc_bcp.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* FreeTDS's bcp attributes and their argument blocks (FreeTDS
 * include/odbcss.h; the same numbers and layouts since 0.91) */
#define TDSODBC_INFO_TDS_VERSION 1300    /* SQL_INFO_FREETDS_TDS_VERSION */
#define TDSODBC_BCP_INITA        1500
#define TDSODBC_BCP_SENDROW      1503
#define TDSODBC_BCP_BATCH        1504
#define TDSODBC_BCP_DONE         1505
#define TDSODBC_BCP_BIND         1506

struct tds_init_args { const void *table, *file, *errfile; int direction; };
struct tds_rows_args { int rows; };
struct tds_bind_args {
    const unsigned char *data;
    int prefix, len;
    const unsigned char *term;
    int termlen, type, column;
};

static RETCODE tds_call(SQLHDBC h, SQLINTEGER attr, void *args)
{
    return SQL_SUCCEEDED(SQLSetConnectAttr(h, attr, args, SQL_IS_POINTER)) ? ODBC_BCP_SUCCEED : 0;
}

static RETCODE tds_init(SQLHDBC h, const char *table, const char *file, const char *errfile, int direction)
{
    struct tds_init_args a = { table, file, errfile, direction };
    return tds_call(h, TDSODBC_BCP_INITA, &a);
}

static RETCODE tds_bind(SQLHDBC h, const unsigned char *data, int prefix, int len,
                        const unsigned char *term, int termlen, int type, int column)
{
    struct tds_bind_args a = { data, prefix, len, term, termlen, type, column };
    return tds_call(h, TDSODBC_BCP_BIND, &a);
}

static RETCODE tds_sendrow(SQLHDBC h) { return tds_call(h, TDSODBC_BCP_SENDROW, NULL); }

static int tds_batch(SQLHDBC h)
{
    struct tds_rows_args a = { -1 };
    return tds_call(h, TDSODBC_BCP_BATCH, &a) ? a.rows : -1;
}

static int tds_done(SQLHDBC h)
{
    struct tds_rows_args a = { -1 };
    return tds_call(h, TDSODBC_BCP_DONE, &a) ? a.rows : -1;
}

/* dl_iterate_phdr: the path of the loaded object whose file name is the
 * driver's SQL_DRIVER_NAME */
typedef struct lib_search { const char *name; char path[PATH_MAX]; } lib_search;

static int lib_by_name(struct dl_phdr_info *info, size_t size, void *data)
{
    lib_search *ls = data;
    const char *base = strrchr(info->dlpi_name, '/');

    base = base ? base + 1 : info->dlpi_name;
    if (!*ls->name || strcmp(base, ls->name))
        return 0;
    snprintf(ls->path, sizeof ls->path, "%s", info->dlpi_name);
    return 1;
}

int odbc_bcp_find(SQLHDBC dbc, odbc_bcp *out, char *why, size_t whylen)
{
    SQLCHAR name[128] = "";
    SQLSMALLINT len = 0;
    SQLUINTEGER tdsver = 0;
    SQLLEN hdbc = 0;
    lib_search ls = { .name = (const char *)name };
    void *lib = NULL;

    /* SQL_DRIVER_HLIB is of no use here: unixODBC answers it with its
     * libltdl handle, not dlopen's; the driver manager's own reference
     * keeps the library loaded while the connection lasts */
    SQLGetInfo(dbc, SQL_DRIVER_NAME, name, sizeof name, &len);
    if (dl_iterate_phdr(lib_by_name, &ls) == 1 && (lib = dlopen(ls.path, RTLD_LAZY | RTLD_NOLOAD)) &&
        SQL_SUCCEEDED(SQLGetInfo(dbc, SQL_DRIVER_HDBC, &hdbc, sizeof hdbc, NULL)) && hdbc) {
        *out = (odbc_bcp){
            .how = "the ODBC driver's exported bcp functions", .h = (SQLHDBC)(intptr_t)hdbc,
            .init = (RETCODE (*)(SQLHDBC, const char *, const char *, const char *, int))dlsym(lib, "bcp_initA"),
            .bind = (RETCODE (*)(SQLHDBC, const unsigned char *, int, int, const unsigned char *, int, int,
                                 int))dlsym(lib, "bcp_bind"),
            .sendrow = (RETCODE (*)(SQLHDBC))dlsym(lib, "bcp_sendrow"),
            .batch = (int (*)(SQLHDBC))dlsym(lib, "bcp_batch"),
            .done = (int (*)(SQLHDBC))dlsym(lib, "bcp_done"),
        };
    }
    if (lib) {
        dlclose(lib);
        if (out->init && out->bind && out->sendrow && out->batch && out->done)
            return 0;
    }
    if (SQL_SUCCEEDED(SQLGetInfo(dbc, TDSODBC_INFO_TDS_VERSION, &tdsver, sizeof tdsver, NULL)) && tdsver) {
        *out = (odbc_bcp){ .how = "FreeTDS's bcp connection attributes", .h = dbc, .init = tds_init,
                           .bind = tds_bind, .sendrow = tds_sendrow, .batch = tds_batch, .done = tds_done };
        return 0;
    }
    snprintf(why, whylen, "the ODBC driver %s has no bulk copy: its library exports no bcp_initA, "
             "bcp_bind, bcp_sendrow, bcp_batch, bcp_done (Microsoft's ODBC Driver 17/18 do) and it is "
             "not FreeTDS (whose bcp goes through connection attributes); load with --bulk=on "
             "(parameter arrays) or --bulk=off (INSERTs)", len ? (char *)name : "(unnamed)");
    return -1;
}
