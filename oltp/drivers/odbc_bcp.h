/*
 * odbc_bcp.h — SQL Server's bulk copy (bcp_init, bcp_bind, bcp_sendrow,
 * bcp_batch, bcp_done) found in the ODBC driver a connection uses.
 *
 * The bcp functions are not ODBC: the driver manager neither exports nor
 * forwards them. Two drivers have them, each its own way:
 * - Microsoft's ODBC Driver 17/18 exports bcp_initA, bcp_bind, ... from
 *   its library; they take the driver's own connection handle. Both come
 *   from the driver manager (SQLGetInfo SQL_DRIVER_HLIB and
 *   SQL_DRIVER_HDBC), and SQL_COPT_SS_BCP must be on before connecting.
 * - FreeTDS (tdsodbc, 0.91 and later) exports no bcp symbol; its odbcss.h
 *   makes each call a SQLSetConnectAttr of a FreeTDS attribute (1500 +
 *   n) whose value points at the call's arguments, so the calls travel
 *   through the driver manager like any connection attribute. FreeTDS
 *   answers SQLGetInfo(SQL_INFO_FREETDS_TDS_VERSION), which no other
 *   driver does.
 * The table below hides which one a connection has.
 */
#ifndef OLTP_ODBC_BCP_H
#define OLTP_ODBC_BCP_H

#include "attributes.h"

#include <sql.h>
#include <sqlext.h>
#include <stddef.h>

/* SQL Server's connection attribute: enable bulk copy (before connecting) */
#define ODBC_BCP_COPT_SS_BCP 1219
#define ODBC_BCP_ON          1L

/* bcp_bind: a length read from a prefix; the server's type codes (TDS
 * data types, the same in Microsoft's sqlncli.h and FreeTDS's odbcss.h) */
#define ODBC_BCP_VARLEN      (-10)      /* SQL_VARLEN_DATA */
#define ODBC_BCP_CHAR        0x2f       /* SQLCHARACTER */
#define ODBC_BCP_INT8        0x7f       /* SQLINT8 */
#define ODBC_BCP_FLT8        0x3e       /* SQLFLT8 */
#define ODBC_BCP_IN          1          /* DB_IN */
#define ODBC_BCP_SUCCEED     1

typedef struct odbc_bcp {
    const char *how;        /* "Microsoft ODBC driver's exported bcp functions" or FreeTDS's */
    SQLHDBC     h;          /* the handle the functions take */
    /* Microsoft's signatures (msodbcsql.h): RETCODE is ODBC's short,
     * ODBC_BCP_SUCCEED or 0; DBINT is int */
    RETCODE (*init)(SQLHDBC h, const char *table, const char *file, const char *errfile, int direction);
    RETCODE (*bind)(SQLHDBC h, const unsigned char *data, int prefix, int len,
                    const unsigned char *term, int termlen, int type, int column);
    RETCODE (*sendrow)(SQLHDBC h);
    int     (*batch)(SQLHDBC h);        /* rows committed, -1 on error */
    int     (*done)(SQLHDBC h);         /* rows committed, -1 on error */
} odbc_bcp;

/* Find the bcp functions of the driver connected on dbc (which must be
 * connected). Returns 0 and fills *out, or -1 when the driver has none
 * (then why[] names the driver and what was looked for). Owns nothing:
 * the functions live as long as the connection. */
int odbc_bcp_find(SQLHDBC dbc, odbc_bcp *out, char *why, size_t whylen) DB_MUST_CHECK;

#endif
