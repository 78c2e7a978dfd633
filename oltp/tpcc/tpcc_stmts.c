/*
 * tpcc_stmts.c — the statements of TPC-C's five transactions (clauses
 * 2.4.2-2.8.2), numbered by tpcc.h's S_* names: standard SQL with ?
 * placeholders, what a dialect writes otherwise (`stmt_variants`), and
 * the CALLs of --tpcc-procedures (tpcc_proc.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tpcc/tpcc.h"

#define CUST_COLS "c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, " \
                  "c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance"
/* a statement of the table: its text, parameters and kind (designated:
 * the fields after them stay zero, as clang's -Wextra wants said) */
#define STMT(text, n, k) { .sql = (text), .nparams = (n), .kind = (k) }
#define STOCK_SEL(d, dd) [S_NO_STOCK + d - 1] = STMT("SELECT s_quantity, s_data, s_dist_" dd " FROM stock " \
                     "WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE", 2, DB_Q_READ)

static const db_stmt_def stmt_defs[NSTMTS] = {
    /* texts from the dialect (tpcc_stmts_build); ODBC ends transactions
     * with its own calls instead (db.h, db_trx) */
    [S_BEGIN]    = { .kind = DB_Q_OTHER, .trx = DB_TRX_BEGIN },
    [S_COMMIT]   = { .kind = DB_Q_OTHER, .trx = DB_TRX_COMMIT },
    [S_ROLLBACK] = { .kind = DB_Q_OTHER, .trx = DB_TRX_ROLLBACK },

    [S_NO_WH]       = STMT("SELECT w_tax FROM warehouse WHERE w_id = ?", 1, DB_Q_READ),
    [S_NO_DIST]     = STMT("SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE",
                        2, DB_Q_READ),
    [S_NO_DIST_UPD] = STMT("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?",
                        2, DB_Q_WRITE),
    [S_NO_CUST]     = STMT("SELECT c_discount, c_last, c_credit FROM customer "
                        "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", 3, DB_Q_READ),
    [S_NO_ORD_INS]  = STMT("INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, "
                        "o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)", 7, DB_Q_WRITE),
    [S_NO_NEW_INS]  = STMT("INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)", 3, DB_Q_WRITE),
    [S_NO_ITEM]     = STMT("SELECT i_price, i_name, i_data FROM item WHERE i_id = ?", 1, DB_Q_READ),
    STOCK_SEL(1, "01"), STOCK_SEL(2, "02"), STOCK_SEL(3, "03"), STOCK_SEL(4, "04"), STOCK_SEL(5, "05"),
    STOCK_SEL(6, "06"), STOCK_SEL(7, "07"), STOCK_SEL(8, "08"), STOCK_SEL(9, "09"), STOCK_SEL(10, "10"),
    [S_NO_STOCK_UPD] = STMT("UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, "
                         "s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?", 5, DB_Q_WRITE),
    [S_NO_OL_INS]   = STMT("INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, "
                        "ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) "
                        "VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)", 9, DB_Q_WRITE),

    [S_PY_WH_UPD]   = STMT("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?", 2, DB_Q_WRITE),
    [S_PY_WH]       = STMT("SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name "
                        "FROM warehouse WHERE w_id = ?", 1, DB_Q_READ),
    [S_PY_DIST_UPD] = STMT("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?", 3, DB_Q_WRITE),
    [S_PY_DIST]     = STMT("SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name "
                        "FROM district WHERE d_w_id = ? AND d_id = ?", 2, DB_Q_READ),
    [S_PY_CUST_NAME] = STMT("SELECT c_id, " CUST_COLS " FROM customer WHERE c_w_id = ? AND c_d_id = ? "
                         "AND c_last = ? ORDER BY c_first FOR UPDATE", 3, DB_Q_READ),
    [S_PY_CUST_ID]  = STMT("SELECT c_id, " CUST_COLS " FROM customer WHERE c_w_id = ? AND c_d_id = ? "
                        "AND c_id = ? FOR UPDATE", 3, DB_Q_READ),
    [S_PY_CDATA]    = STMT("SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
                        3, DB_Q_READ),
    [S_PY_CUST_UPD_BC] = STMT("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, "
                           "c_payment_cnt = c_payment_cnt + 1, c_data = ? "
                           "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", 6, DB_Q_WRITE),
    [S_PY_CUST_UPD] = STMT("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, "
                        "c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
                        5, DB_Q_WRITE),
    [S_PY_HIST]     = STMT("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, "
                        "h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", 8, DB_Q_WRITE),

    [S_OS_CUST_NAME] = STMT("SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer "
                         "WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first", 3, DB_Q_READ),
    [S_OS_CUST_ID]  = STMT("SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer "
                        "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", 3, DB_Q_READ),
    [S_OS_ORDER]    = STMT("SELECT o_id, o_entry_d, o_carrier_id FROM orders "
                        "WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC "
                        "FETCH FIRST 1 ROWS ONLY", 3, DB_Q_READ),
    [S_OS_LINES]    = STMT("SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d "
                        "FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?", 3, DB_Q_READ),

    /* the oldest undelivered order, locked: a concurrent Delivery of the
     * same district waits here, then sees the next one */
    [S_DL_MIN]      = STMT("SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? "
                        "ORDER BY no_o_id FETCH FIRST 1 ROWS ONLY FOR UPDATE", 2, DB_Q_READ),
    [S_DL_DEL]      = STMT("DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?",
                        3, DB_Q_WRITE),
    [S_DL_ORDER]    = STMT("SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?",
                        3, DB_Q_READ),
    [S_DL_ORDER_UPD] = STMT("UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?",
                         4, DB_Q_WRITE),
    [S_DL_LINES_UPD] = STMT("UPDATE order_line SET ol_delivery_d = ? "
                         "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?", 4, DB_Q_WRITE),
    [S_DL_SUM]      = STMT("SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? "
                        "AND ol_o_id = ?", 3, DB_Q_READ),
    [S_DL_CUST_UPD] = STMT("UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 "
                        "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", 4, DB_Q_WRITE),

    [S_NO_DIST_INC] = STMT(NULL, 2, DB_Q_WRITE),  /* none: S_NO_DIST_UPD after the read */

    [S_SL_DIST]     = STMT("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?", 2, DB_Q_READ),
    [S_SL_COUNT]    = STMT("SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock "
                        "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? "
                        "AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?", 6, DB_Q_READ),
};

/* Statements whose standard text a dialect does not take: T-SQL has no
 * SELECT ... FOR UPDATE (a lock hint instead) and no FETCH FIRST without
 * OFFSET. New-Order's order id is incremented first and read back after:
 * the UPDATE's exclusive row lock, held to the end of the transaction,
 * keeps every other terminal away from the district in between, whatever
 * locks a read takes. The read WITH (UPDLOCK) then UPDATE relied on the
 * hint, which Babelfish does not honour (two terminals took the same id:
 * error 2627); UPDATE ... OUTPUT deleted.d_next_o_id (or inserted.*) is
 * atomic on SQL Server, but Babelfish's OUTPUT returns the row as it was
 * before a concurrent writer's commit (the same 2627; docs/odbc-sqlserver.md,
 * "Babelfish deviations"). (Run against Babelfish, not against SQL Server:
 * none on the development machines.) */
static const struct { db_dialect d; int stmt; const char *sql; db_qkind kind; } stmt_variants[] = {
    { DB_DIALECT_MSSQL, S_NO_DIST_INC, "UPDATE district SET d_next_o_id = d_next_o_id + 1 "
                                       "WHERE d_w_id = ? AND d_id = ?", DB_Q_WRITE },
    { DB_DIALECT_MSSQL, S_NO_DIST, "SELECT d_tax, d_next_o_id - 1 FROM district WHERE d_w_id = ? AND d_id = ?",
      DB_Q_READ },
    { DB_DIALECT_MSSQL, S_NO_DIST_UPD, NULL, DB_Q_WRITE },
    { DB_DIALECT_MSSQL, S_PY_CUST_NAME, "SELECT c_id, " CUST_COLS " FROM customer WITH (UPDLOCK) "
                                        "WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first",
      DB_Q_READ },
    { DB_DIALECT_MSSQL, S_PY_CUST_ID, "SELECT c_id, " CUST_COLS " FROM customer WITH (UPDLOCK) "
                                      "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
      DB_Q_READ },
    { DB_DIALECT_MSSQL, S_OS_ORDER, "SELECT TOP 1 o_id, o_entry_d, o_carrier_id FROM orders "
                                    "WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC",
      DB_Q_READ },
    /* HammerDB's hints: a nested-loop plan on one thread (a parallel plan
     * costs more than the query and can deadlock its own threads, 8650) */
    { DB_DIALECT_MSSQL, S_SL_COUNT, "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock "
                                    "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? "
                                    "AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ? "
                                    "OPTION (LOOP JOIN, MAXDOP 1)", DB_Q_READ },
    { DB_DIALECT_MSSQL, S_DL_MIN, "SELECT TOP 1 no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK) "
                                  "WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id",
      DB_Q_READ },
#define STOCK_MSSQL(d, dd) { DB_DIALECT_MSSQL, S_NO_STOCK + d - 1, "SELECT s_quantity, s_data, s_dist_" dd \
                             " FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?", DB_Q_READ }
    STOCK_MSSQL(1, "01"), STOCK_MSSQL(2, "02"), STOCK_MSSQL(3, "03"), STOCK_MSSQL(4, "04"),
    STOCK_MSSQL(5, "05"), STOCK_MSSQL(6, "06"), STOCK_MSSQL(7, "07"), STOCK_MSSQL(8, "08"),
    STOCK_MSSQL(9, "09"), STOCK_MSSQL(10, "10"),
};

/* --tpcc-compat=hammerdb: the writes of HammerDB's TPROC-C procedures
 * (src/mariadb, src/postgresql, src/mssqlserver) where they differ from
 * the spec's: STOCK keeps only S_QUANTITY up to date (no S_YTD,
 * S_ORDER_CNT, S_REMOTE_CNT; the replenish rule is tpcc_stock_after's),
 * Payment changes only C_BALANCE (and C_DATA on bad credit), adding the
 * amount on MariaDB and subtracting it elsewhere, never C_YTD_PAYMENT or
 * C_PAYMENT_CNT, and Delivery leaves C_DELIVERY_CNT alone. `any` rows
 * hold for every dialect; a dialect's own row follows and wins. */
#define HDB_ANY DB_DIALECT_COUNT
#define CUST_WHERE " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"
#define HDB(d, stmt, text, n, k) { d, stmt, { .sql = text, .nparams = n, .kind = k } }
static const struct { db_dialect d; int stmt; db_stmt_def def; } hdb_variants[] = {
    HDB(HDB_ANY, S_NO_STOCK_UPD, "UPDATE stock SET s_quantity = ? WHERE s_i_id = ? AND s_w_id = ?", 3, DB_Q_WRITE),
    HDB(HDB_ANY, S_PY_CUST_UPD, "UPDATE customer SET c_balance = c_balance - ?" CUST_WHERE, 4, DB_Q_WRITE),
    HDB(HDB_ANY, S_PY_CUST_UPD_BC, "UPDATE customer SET c_balance = c_balance - ?, c_data = ?" CUST_WHERE, 5,
        DB_Q_WRITE),
    HDB(HDB_ANY, S_DL_CUST_UPD, "UPDATE customer SET c_balance = c_balance + ?" CUST_WHERE, 4, DB_Q_WRITE),
    HDB(DB_DIALECT_MYSQL, S_PY_CUST_UPD, "UPDATE customer SET c_balance = c_balance + ?" CUST_WHERE, 4, DB_Q_WRITE),
    HDB(DB_DIALECT_MYSQL, S_PY_CUST_UPD_BC, "UPDATE customer SET c_balance = c_balance + ?, c_data = ?" CUST_WHERE,
        5, DB_Q_WRITE),
    HDB(DB_DIALECT_MYSQL, S_HDB_SET, "SET @tpcc_hdb = 0", 0, DB_Q_OTHER),
    HDB(DB_DIALECT_MYSQL, S_HDB_GET, "SELECT @tpcc_hdb", 0, DB_Q_READ),
};

int tpcc_stmts_build(wl_run *run, const dialect_def *dl, db_dialect d, tpcc_compat compat, wl_err *err)
{
    run->stmts = malloc(sizeof(stmt_defs));
    if (!run->stmts)
        return wl_err_set(err, "out of memory");
    memcpy(run->stmts, stmt_defs, sizeof(stmt_defs));
    run->nstmts = NSTMTS;
    run->stmts[S_BEGIN].sql = dl->begin;
    run->stmts[S_COMMIT].sql = dl->commit;
    run->stmts[S_ROLLBACK].sql = dl->rollback;
    for (size_t i = 0; i < sizeof(stmt_variants) / sizeof(stmt_variants[0]); i++)
        if (stmt_variants[i].d == d) {
            run->stmts[stmt_variants[i].stmt].sql = stmt_variants[i].sql;
            run->stmts[stmt_variants[i].stmt].kind = stmt_variants[i].kind;
        }
    for (size_t i = 0; compat == TPCC_COMPAT_HAMMERDB && i < sizeof(hdb_variants) / sizeof(hdb_variants[0]); i++)
        if (hdb_variants[i].d == HDB_ANY || hdb_variants[i].d == d)
            run->stmts[hdb_variants[i].stmt] = hdb_variants[i].def;
    for (int t = 0; run->o->tpcc_procedures && t < TPCC_NTYPES; t++)
        if (tpcc_proc_call(d, t, &run->stmts[S_CALL + t]) < 0)
            return wl_err_set(err, "no CALL statement for TPC-C transaction type %d", t);
    return 0;
}
