/*
 * drv_odbc_bulk.c — the ODBC driver's bulk loads (drv_odbc.h), on the
 * connection's thread.
 *
 * Bulk loads (prepare) bind arrays of BULK_ROWS rows, column-wise, to one
 * prepared INSERT (SQL_ATTR_PARAMSET_SIZE), a transaction per array. How
 * an array travels is the ODBC driver's choice: MariaDB Connector/ODBC
 * sends it as one bulk command, psqlODBC and FreeTDS execute it row by row
 * within the one transaction. --bulk=bcp takes SQL Server's own bulk path
 * instead (bulk copy, the TDS bulk load; outside ODBC's API, found in the
 * driver by odbc_bcp.c): rows sent with bcp_sendrow, committed every
 * BCP_BATCH_ROWS by bcp_batch.
 *
 */
#include "drivers/drv_odbc.h"

/* Column-wise parameter arrays of a bulk load. */
typedef struct od_array {
    void       *data;               /* BULK_ROWS values (strings: width + 1 bytes each) */
    SQLLEN     *ind;
    size_t      slot;               /* bytes per value */
} od_array;

/* 0 when v (not NULL) fits column i of b, else -1 (then p->err says which). */
static int bulk_fits(db_conn *c, const db_bulk *b, int i, const db_value *v)
{
    const db_bulk_col *col = &b->cols[i];
    od_priv *p = c->priv;

    if (v->type == col->type && (col->type != DB_T_STRING || v->len <= col->width))
        return 0;
    p->err = (db_error){ .sqlstate = "22001", .cls = DB_ERR_FATAL };
    snprintf(p->err.msg, sizeof p->err.msg, "%s.%s: a value does not fit the column", b->table, col->name);
    return -1;
}

/* Copy row into slot k of the arrays; -1 when a value does not fit its
 * column (then p->err says which). */
static int bulk_fill(db_conn *c, const db_bulk *b, od_array *a, const db_value *row, int k)
{
    for (int i = 0; i < b->ncols; i++) {
        const db_bulk_col *col = &b->cols[i];
        char *slot = (char *)a[i].data + (size_t)k * a[i].slot;
        if (row[i].type == DB_T_NULL) {
            a[i].ind[k] = SQL_NULL_DATA;
            continue;
        }
        if (bulk_fits(c, b, i, &row[i]) < 0)
            return -1;
        switch (col->type) {
        case DB_T_INT:
            if (od_int_param(c, row[i].i, (SQLINTEGER *)(void *)slot) < 0)
                return -1;
            a[i].ind[k] = 0;
            break;
        case DB_T_DOUBLE: memcpy(slot, &row[i].d, sizeof(double)); a[i].ind[k] = 0; break;
        default:
            memcpy(slot, row[i].s, row[i].len);
            a[i].ind[k] = (SQLLEN)row[i].len;
            break;
        }
    }
    return 0;
}

/* The producer of b's rows gave up (it said why): DB_ERROR. */
static int bulk_no_rows(db_conn *c, const db_bulk *b)
{
    od_priv *p = c->priv;
    p->err = (db_error){ .sqlstate = "HY000", .cls = DB_ERR_FATAL };
    snprintf(p->err.msg, sizeof p->err.msg, "the rows for %s could not be made", b->table);
    return DB_ERROR;
}

/* The 1-based position in b->table of each of b's columns, into col[]:
 * bcp_bind takes the table's column numbers. The statement is its own
 * and freed, so that FreeTDS files the server's messages during the copy
 * on the connection, not on a statement. */
static int bcp_columns(db_conn *c, const db_bulk *b, int *col)
{
    od_priv *p = c->priv;
    char sql[128], name[128];
    SQLSMALLINT n = 0, len;
    SQLHSTMT h = NULL;
    int st = DB_ERROR;

    snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE 1 = 0", b->table);
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &h))) {
        h = NULL;
        od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
        goto cleanup;
    }
    if (!SQL_SUCCEEDED(SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS)) ||
        !SQL_SUCCEEDED(SQLNumResultCols(h, &n))) {
        od_fail(c, SQL_HANDLE_STMT, h, sql);
        goto cleanup;
    }
    for (int i = 0; i < b->ncols; i++)
        col[i] = 0;
    for (SQLSMALLINT k = 1; k <= n; k++) {
        if (!SQL_SUCCEEDED(SQLDescribeCol(h, (SQLUSMALLINT)k, (SQLCHAR *)name, sizeof name, &len,
                                          NULL, NULL, NULL, NULL))) {
            od_fail(c, SQL_HANDLE_STMT, h, "SQLDescribeCol");
            goto cleanup;
        }
        for (int i = 0; i < b->ncols; i++)
            if (!strcasecmp(name, b->cols[i].name))
                col[i] = k;
    }
    for (int i = 0; i < b->ncols; i++)
        if (!col[i]) {
            p->err = (db_error){ .sqlstate = "42S22", .cls = DB_ERR_FATAL };
            snprintf(p->err.msg, sizeof p->err.msg, "%s has no column %s", b->table, b->cols[i].name);
            goto cleanup;
        }
    st = DB_DONE;
cleanup:
    if (h)
        SQLFreeHandle(SQL_HANDLE_STMT, h);
    return st;
}

/* Copy v into a bcp column buffer: a 4-byte length prefix (SQL_NULL_DATA
 * for NULL), then the value as bound (INT8, FLT8 or CHAR). */
static void bcp_fill(unsigned char *buf, const db_value *v)
{
    int32_t len = SQL_NULL_DATA;
    switch (v->type) {
    case DB_T_INT:    len = 8; memcpy(buf + 4, &v->i, 8); break;
    case DB_T_DOUBLE: len = 8; memcpy(buf + 4, &v->d, 8); break;
    case DB_T_STRING: len = (int32_t)v->len; memcpy(buf + 4, v->s, v->len); break;
    default:          break;
    }
    memcpy(buf, &len, 4);
}

/* Bulk copy every row of p->bulk (--bulk=bcp), committing every
 * BCP_BATCH_ROWS; b->rows counts the rows the server says it committed. */
static int do_bcp(db_conn *c)
{
    od_priv *p = c->priv;
    const odbc_bcp *f = &p->bcp;
    db_bulk *b = p->bulk;
    int *col = calloc((size_t)b->ncols, sizeof(int));
    unsigned char **buf = calloc((size_t)b->ncols, sizeof(unsigned char *));
    db_value *row = calloc((size_t)b->ncols, sizeof(db_value));
    bool open = false;
    int st = DB_ERROR, more, r;
    int64_t sent = 0;

    if (!col || !buf || !row) {
        od_oom(c);
        goto cleanup;
    }
    for (int i = 0; i < b->ncols; i++)
        if (!(buf[i] = malloc(4 + (b->cols[i].type == DB_T_STRING ? b->cols[i].width : 8)))) {
            od_oom(c);
            goto cleanup;
        }
    if (bcp_columns(c, b, col) != DB_DONE)
        goto cleanup;
    if (f->init(f->h, b->table, NULL, NULL, ODBC_BCP_IN) != ODBC_BCP_SUCCEED) {
        od_bcp_fail(c, "bcp_init");
        goto cleanup;
    }
    open = true;
    for (int i = 0; i < b->ncols; i++) {
        int type = b->cols[i].type == DB_T_INT ? ODBC_BCP_INT8
                 : b->cols[i].type == DB_T_DOUBLE ? ODBC_BCP_FLT8 : ODBC_BCP_CHAR;
        if (f->bind(f->h, buf[i], 4, ODBC_BCP_VARLEN, NULL, 0, type, col[i]) != ODBC_BCP_SUCCEED) {
            od_bcp_fail(c, "bcp_bind");
            goto cleanup;
        }
    }
    while ((more = b->next(b->ctx, row)) > 0) {
        for (int i = 0; i < b->ncols; i++) {
            if (row[i].type != DB_T_NULL && bulk_fits(c, b, i, &row[i]) < 0)
                goto cleanup;
            bcp_fill(buf[i], &row[i]);
        }
        if (f->sendrow(f->h) != ODBC_BCP_SUCCEED) {
            od_bcp_fail(c, "bcp_sendrow");
            goto cleanup;
        }
        if (++sent % BCP_BATCH_ROWS == 0) {
            if ((r = f->batch(f->h)) < 0) {
                od_bcp_fail(c, "bcp_batch");
                goto cleanup;
            }
            b->rows += r;
        }
    }
    if (more < 0) {
        bulk_no_rows(c, b);
        goto cleanup;
    }
    open = false;
    if ((r = f->done(f->h)) < 0) {
        od_bcp_fail(c, "bcp_done");
        goto cleanup;
    }
    b->rows += r;
    st = DB_DONE;
cleanup:
    if (open)
        f->done(f->h);      /* ends the copy; the error above is the one reported */
    for (int i = 0; buf && i < b->ncols; i++)
        free(buf[i]);
    free(buf);
    free(col);
    free(row);
    return st;
}

/* Column arrays of BULK_ROWS slots for b's columns; NULL when out of
 * memory. Freed by arrays_free(). */
static od_array *arrays_new(const db_bulk *b)
{
    od_array *a = calloc((size_t)b->ncols, sizeof(od_array));
    for (int i = 0; a && i < b->ncols; i++) {
        a[i].slot = b->cols[i].type == DB_T_STRING ? b->cols[i].width + 1
                  : b->cols[i].type == DB_T_INT ? sizeof(SQLINTEGER) : sizeof(double);
        a[i].data = calloc(BULK_ROWS, a[i].slot);
        a[i].ind = calloc(BULK_ROWS, sizeof(SQLLEN));
        if (!a[i].data || !a[i].ind) {
            for (int k = 0; k <= i; k++) {
                free(a[k].data);
                free(a[k].ind);
            }
            free(a);
            return NULL;
        }
    }
    return a;
}

static void arrays_free(od_array *a, const db_bulk *b)
{
    for (int i = 0; a && i < b->ncols; i++) {
        free(a[i].data);
        free(a[i].ind);
    }
    free(a);
}

/* Bind parameter num of h to slot k of column i's array. */
static SQLRETURN bind_slot(SQLHSTMT h, SQLUSMALLINT num, const db_bulk *b, const od_array *a, int i, int k)
{
    const db_bulk_col *col = &b->cols[i];
    void *data = (char *)a[i].data + (size_t)k * a[i].slot;

    if (col->type == DB_T_INT)
        return SQLBindParameter(h, num, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, data, 0, &a[i].ind[k]);
    if (col->type == DB_T_DOUBLE)
        return SQLBindParameter(h, num, SQL_PARAM_INPUT, SQL_C_DOUBLE, SQL_DOUBLE, 0, 0, data, 0, &a[i].ind[k]);
    return SQLBindParameter(h, num, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, col->width ? col->width : 1, 0,
                            data, (SQLLEN)a[i].slot, &a[i].ind[k]);
}

/* Fill the arrays with up to max rows of b; their number into *n. -1
 * when a row does not fit or cannot be made (p->err says which). */
static int arrays_fill(db_conn *c, db_bulk *b, od_array *a, db_value *row, SQLULEN max, SQLULEN *n)
{
    int more = 1;

    *n = 0;
    while (*n < max && (more = b->next(b->ctx, row)) > 0)
        if (bulk_fill(c, b, a, row, (int)(*n)++) < 0)
            return -1;
    return more < 0 ? bulk_no_rows(c, b) : 0;
}

/* A prepared INSERT of `rows` row constructors whose parameters are the
 * arrays' slots 0..rows-1; NULL after p->err was set. */
static SQLHSTMT values_prepare(db_conn *c, const db_bulk *b, const od_array *a, int rows)
{
    od_priv *p = c->priv;
    char *sql = db_bulk_insert_rows_sql(b, rows);
    SQLHSTMT h = NULL;
    int num = 0;

    if (!sql) {
        od_oom(c);
        return NULL;
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &h))) {
        od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
        free(sql);
        return NULL;
    }
    if (!SQL_SUCCEEDED(SQLPrepare(h, (SQLCHAR *)sql, SQL_NTS)))
        goto fail;
    for (int k = 0; k < rows; k++)
        for (int i = 0; i < b->ncols; i++)
            if (!SQL_SUCCEEDED(bind_slot(h, (SQLUSMALLINT)++num, b, a, i, k)))
                goto fail;
    free(sql);
    return h;
fail:
    od_fail(c, SQL_HANDLE_STMT, h, "SQLPrepare");
    SQLFreeHandle(SQL_HANDLE_STMT, h);
    free(sql);
    return NULL;
}

/* A load's session: autocommit off, so that each chunk is a transaction
 * (bulk_commit); 0, or -1 after p->err was set. */
static int bulk_manual(db_conn *c)
{
    od_priv *p = c->priv;
    if (SQL_SUCCEEDED(SQLSetConnectAttr(p->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)))
        return 0;
    od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLSetConnectAttr(AUTOCOMMIT)");
    return -1;
}

/* Run a load's prepared INSERT h (cancellable) and drain its results; 0,
 * or -1 after p->err was set. */
static int bulk_execute(db_conn *c, SQLHSTMT h)
{
    od_priv *p = c->priv;
    SQLRETURN rc;
    od_set_active(p, h);
    rc = SQLExecute(h);
    od_set_active(p, NULL);
    if (!SQL_SUCCEEDED(rc)) {
        od_fail(c, SQL_HANDLE_STMT, h, "SQLExecute");
        return -1;
    }
    while (SQL_SUCCEEDED(SQLMoreResults(h)))
        ;
    return 0;
}

/* Commit the chunk h inserted; 0, or -1 after p->err was set. */
static int bulk_commit(db_conn *c, SQLHSTMT h)
{
    od_priv *p = c->priv;
    SQLFreeStmt(h, SQL_CLOSE);
    if (SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, p->dbc, SQL_COMMIT)))
        return 0;
    od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLEndTran(COMMIT)");
    return -1;
}

/* The end of a load whose session bulk_manual() changed: the open
 * transaction rolled back unless st is DB_DONE, autocommit back on (the
 * load leaves it on). Returns st, or DB_ERROR when autocommit could not
 * be restored after a load that succeeded. */
static int bulk_end(db_conn *c, bool manual, int st)
{
    od_priv *p = c->priv;
    if (!manual)
        return st;
    if (st != DB_DONE)
        SQLEndTran(SQL_HANDLE_DBC, p->dbc, SQL_ROLLBACK);
    if (!SQL_SUCCEEDED(SQLSetConnectAttr(p->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0)) &&
        st == DB_DONE)
        st = od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLSetConnectAttr(AUTOCOMMIT)");
    p->manual = false;
    return st;
}

/* --bulk=values: INSERTs of as many row constructors as VALUES_PARAMS
 * parameters allow, at most BULK_ROWS (fewer at the end), their values
 * as parameters, one transaction each. */
static int do_values(db_conn *c)
{
    od_priv *p = c->priv;
    db_bulk *b = p->bulk;
    const int per = VALUES_PARAMS / b->ncols < BULK_ROWS ? VALUES_PARAMS / b->ncols : BULK_ROWS;
    od_array *a = arrays_new(b);
    db_value *row = calloc((size_t)b->ncols, sizeof(db_value));
    SQLHSTMT full = NULL, last = NULL;
    bool manual = false;
    int st = DB_ERROR;

    if (!a || !row) {
        od_oom(c);
        goto cleanup;
    }
    if (!(full = values_prepare(c, b, a, per)))
        goto cleanup;
    if (bulk_manual(c) < 0)
        goto cleanup;
    manual = true;
    for (;;) {
        SQLULEN n;
        SQLHSTMT h = full;
        if (arrays_fill(c, b, a, row, (SQLULEN)per, &n) < 0)
            goto cleanup;
        if (n == 0)
            break;
        if (n < (SQLULEN)per && !(h = last = values_prepare(c, b, a, (int)n)))
            goto cleanup;
        if (bulk_execute(c, h) < 0 || bulk_commit(c, h) < 0)
            goto cleanup;
        b->rows += (int64_t)n;
        if (h == last)
            break;
    }
    st = DB_DONE;
cleanup:
    st = bulk_end(c, manual, st);
    if (full)
        SQLFreeHandle(SQL_HANDLE_STMT, full);
    if (last)
        SQLFreeHandle(SQL_HANDLE_STMT, last);
    arrays_free(a, b);
    free(row);
    return st;
}

/* INSERT every row of p->bulk in arrays of BULK_ROWS, committing each. */
static int do_arrays(db_conn *c)
{
    od_priv *p = c->priv;
    db_bulk *b = p->bulk;
    char *sql = db_bulk_insert_sql(b);
    od_array *a = arrays_new(b);
    db_value *row = calloc((size_t)b->ncols, sizeof(db_value));
    SQLUSMALLINT *status = calloc(BULK_ROWS, sizeof(SQLUSMALLINT));
    SQLHSTMT h = NULL;
    SQLULEN processed = 0, size = BULK_ROWS;
    bool manual = false;
    int st = DB_ERROR;

    if (!sql || !a || !row || !status) {
        od_oom(c);
        goto cleanup;
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &h))) {
        od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
        h = NULL;
        goto cleanup;
    }
    if (!SQL_SUCCEEDED(SQLPrepare(h, (SQLCHAR *)sql, SQL_NTS)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)SQL_PARAM_BIND_BY_COLUMN, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)size, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAM_STATUS_PTR, status, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0))) {
        od_fail(c, SQL_HANDLE_STMT, h, "SQLPrepare");
        goto cleanup;
    }
    for (int i = 0; i < b->ncols; i++)
        if (!SQL_SUCCEEDED(bind_slot(h, (SQLUSMALLINT)(i + 1), b, a, i, 0))) {
            od_fail(c, SQL_HANDLE_STMT, h, "SQLBindParameter");
            goto cleanup;
        }
    if (bulk_manual(c) < 0)
        goto cleanup;
    manual = true;
    for (;;) {
        SQLULEN n;
        if (arrays_fill(c, b, a, row, BULK_ROWS, &n) < 0)
            goto cleanup;
        if (n == 0)
            break;
        if (n != size) {
            size = n;
            if (!SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)size, 0))) {
                od_fail(c, SQL_HANDLE_STMT, h, "SQLSetStmtAttr(PARAMSET_SIZE)");
                goto cleanup;
            }
        }
        if (bulk_execute(c, h) < 0)
            goto cleanup;
        for (SQLULEN k = 0; k < n; k++)
            if (status[k] == SQL_PARAM_ERROR) {
                od_fail(c, SQL_HANDLE_STMT, h, "SQLExecute");
                goto cleanup;
            }
        if (bulk_commit(c, h) < 0)
            goto cleanup;
        b->rows += (int64_t)n;
    }
    st = DB_DONE;
cleanup:
    /* a failed array keeps the row counts of its other rows pending (SQL
     * Server's driver runs them all: SQLBindParameter's page): without
     * MARS the session refuses the rollback until they are closed */
    if (h && manual && st != DB_DONE)
        SQLFreeStmt(h, SQL_CLOSE);
    st = bulk_end(c, manual, st);
    if (h)
        SQLFreeHandle(SQL_HANDLE_STMT, h);
    arrays_free(a, b);
    free(row);
    free(status);
    free(sql);
    return st;
}

int od_do_bulk(db_conn *c)
{
    return c->cfg->odbc_bulk == DB_ODBC_BCP ? do_bcp(c) : c->cfg->odbc_bulk == DB_ODBC_VALUES ? do_values(c)
         : do_arrays(c);
}
