/*
 * tpcc_proc.c — the five TPC-C transactions as stored procedures
 * (--tpcc-procedures=on): `prepare` creates
 * them, `run` sends one CALL per transaction with the inputs oltp drew
 * (tpcc_txn.c), `cleanup` drops them.
 *
 * One text per dialect: SQL/PSM for MariaDB/MySQL, PL/pgSQL procedures
 * (PostgreSQL 11 or later: they commit and roll back themselves) and
 * T-SQL. Each does what the client-side statements of tpcc_txn.c do, in
 * the same order and with the same locks, inside one transaction it
 * begins and ends itself:
 *
 *   tpcc_neword    New-Order (2.4.2); the order lines arrive in 15 fixed
 *                  slots of (item, supplying warehouse, quantity), i1..q15
 *                  (MariaDB procedures take no arrays); an unused item
 *                  (the spec's 1 %) rolls the transaction back and returns
 *                  normally, any other missing item is an error
 *   tpcc_payment   Payment (2.5.2), customer by last name (the middle row
 *                  by C_FIRST) or by id
 *   tpcc_ostat     Order-Status (2.6.2)
 *   tpcc_delivery  Delivery (2.7.4), the ten districts in one transaction;
 *                  an order another terminal delivered first raises a
 *                  deadlock-class error (MariaDB 1213 / SQLSTATE 40001),
 *                  which the engine retries as it retries a deadlock
 *   tpcc_slev      Stock-Level (2.8.2)
 *
 * tpcc_neword, tpcc_payment and tpcc_delivery take a last parameter,
 * hdb: 1 with --tpcc-compat=hammerdb, where they write what HammerDB's
 * procedures write (tpcc_stmts.c's hdb_variants say what), 0 otherwise.
 *
 * Nothing is returned to the client: the results stay in variables, as a
 * terminal's screen would show them. The texts are constants; the inputs
 * travel as bound parameters of the CALL statement.
 */
#include <stdio.h>
#include <string.h>

#include "tpcc/tpcc.h"

/* Indexed by tpcc_type. */
static const char *const proc_names[TPCC_NTYPES] = {
    [TPCC_NEW_ORDER]    = "tpcc_neword",
    [TPCC_PAYMENT]      = "tpcc_payment",
    [TPCC_ORDER_STATUS] = "tpcc_ostat",
    [TPCC_DELIVERY]     = "tpcc_delivery",
    [TPCC_STOCK_LEVEL]  = "tpcc_slev",
};

/* Parameters of each CALL, in the order tpcc_txn.c binds them. */
static const int proc_nparams[TPCC_NTYPES] = {
    [TPCC_NEW_ORDER]    = TPCC_NO_FIXED_PARAMS + 3 * TPCC_MAX_LINES + 1,
    [TPCC_PAYMENT]      = 10,
    [TPCC_ORDER_STATUS] = 5,
    [TPCC_DELIVERY]     = 4,
    [TPCC_STOCK_LEVEL]  = 3,
};

/* "p1, p2, ..., p15" for a slot prefix p */
#define LIST15(p) p "1, " p "2, " p "3, " p "4, " p "5, " p "6, " p "7, " p "8, " p "9, " p "10, " \
                  p "11, " p "12, " p "13, " p "14, " p "15"
/* The slot parameters: SLOTS(F) = F(1), F(2), ..., F(15) */
#define SLOTS(F) F("1") ", " F("2") ", " F("3") ", " F("4") ", " F("5") ", " F("6") ", " F("7") ", " \
                 F("8") ", " F("9") ", " F("10") ", " F("11") ", " F("12") ", " F("13") ", " F("14") ", " F("15")
/* S_DIST_xx of district d */
#define DIST_OF(d) "CASE " d " WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 " \
                   "WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 " \
                   "WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END"
#define UNUSED_ITEM_TEXT "100001"      /* UNUSED_ITEM, checked below */
_Static_assert(UNUSED_ITEM == 100001, "UNUSED_ITEM_TEXT must spell UNUSED_ITEM");

/* --- MariaDB / MySQL: SQL/PSM ------------------------------------------------ */

#define MY_SLOT(n) "IN i" n " INT, IN s" n " INT, IN q" n " INT"

static const char *const my_create[TPCC_NTYPES] = {
    [TPCC_NEW_ORDER] =
    "CREATE PROCEDURE tpcc_neword(IN p_w INT, IN p_d INT, IN p_c INT, IN p_ol_cnt INT, IN p_all_local INT, "
    "IN p_date DATETIME, " SLOTS(MY_SLOT) ", IN p_hdb INT)\n"
    "proc: BEGIN\n"
    "  DECLARE v_w_tax, v_d_tax, v_disc DECIMAL(4,4);\n"
    "  DECLARE v_o_id, v_line, v_i, v_s, v_q, v_sq INT;\n"
    "  DECLARE v_last VARCHAR(16);\n"
    "  DECLARE v_credit CHAR(2);\n"
    "  DECLARE v_price DECIMAL(5,2);\n"
    "  DECLARE v_name VARCHAR(24);\n"
    "  DECLARE v_idata, v_sdata VARCHAR(50);\n"
    "  DECLARE v_dist CHAR(24);\n"
    "  DECLARE v_found INT DEFAULT 1;\n"
    "  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;\n"
    "  START TRANSACTION;\n"
    "  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w;\n"
    "  SELECT d_tax, d_next_o_id INTO v_d_tax, v_o_id FROM district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;\n"
    "  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT c_discount, c_last, c_credit INTO v_disc, v_last, v_credit FROM customer\n"
    "    WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;\n"
    "  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)\n"
    "    VALUES (v_o_id, p_d, p_w, p_c, p_date, NULL, p_ol_cnt, p_all_local);\n"
    "  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d, p_w);\n"
    "  SET v_line = 1;\n"
    "  WHILE v_line <= p_ol_cnt DO\n"
    "    SET v_i = ELT(v_line, " LIST15("i") "),\n"
    "        v_s = ELT(v_line, " LIST15("s") "),\n"
    "        v_q = ELT(v_line, " LIST15("q") ");\n"
    "    SELECT i_price, i_name, i_data INTO v_price, v_name, v_idata FROM item WHERE i_id = v_i;\n"
    "    IF v_found = 0 THEN\n"
    "      ROLLBACK;\n"
    "      IF v_i <> " UNUSED_ITEM_TEXT " THEN\n"
    "        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'New-Order: an item is missing: the ITEM table is incomplete';\n"
    "      END IF;\n"
    "      LEAVE proc;\n"
    "    END IF;\n"
    "    SELECT s_quantity, s_data, " DIST_OF("p_d") " INTO v_sq, v_sdata, v_dist FROM stock\n"
    "      WHERE s_i_id = v_i AND s_w_id = v_s FOR UPDATE;\n"
    "    IF v_found = 0 THEN\n"
    "      ROLLBACK;\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'New-Order: a STOCK row is missing';\n"
    "    END IF;\n"
    "    UPDATE stock SET s_quantity = IF(v_sq >= v_q + 10 - 9 * p_hdb, v_sq - v_q, v_sq - v_q + 91),\n"
    "      s_ytd = s_ytd + v_q * (1 - p_hdb), s_order_cnt = s_order_cnt + 1 - p_hdb,\n"
    "      s_remote_cnt = s_remote_cnt + (v_s <> p_w) * (1 - p_hdb)\n"
    "      WHERE s_i_id = v_i AND s_w_id = v_s;\n"
    "    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,\n"
    "      ol_quantity, ol_amount, ol_dist_info) VALUES (v_o_id, p_d, p_w, v_line, v_i, v_s, NULL, v_q, v_q * v_price, v_dist);\n"
    "    SET v_line = v_line + 1;\n"
    "  END WHILE;\n"
    "  COMMIT;\n"
    "END proc",

    [TPCC_PAYMENT] =
    "CREATE PROCEDURE tpcc_payment(IN p_w INT, IN p_d INT, IN p_c_w INT, IN p_c_d INT, IN p_by_name INT, "
    "IN p_c_id INT, IN p_c_last VARCHAR(16), IN p_amount DECIMAL(6,2), IN p_date DATETIME, IN p_hdb INT)\n"
    "BEGIN\n"
    "  DECLARE v_c_id INT DEFAULT p_c_id;\n"
    "  DECLARE v_n INT;\n"
    "  DECLARE v_w_name, v_d_name VARCHAR(10);\n"
    "  DECLARE v_street_1, v_street_2, v_city VARCHAR(20);\n"
    "  DECLARE v_state, v_middle, v_credit CHAR(2);\n"
    "  DECLARE v_zip CHAR(9);\n"
    "  DECLARE v_first, v_last VARCHAR(16);\n"
    "  DECLARE v_phone CHAR(16);\n"
    "  DECLARE v_since DATETIME;\n"
    "  DECLARE v_lim, v_bal DECIMAL(12,2);\n"
    "  DECLARE v_disc DECIMAL(4,4);\n"
    "  DECLARE v_data VARCHAR(500);\n"
    "  DECLARE v_found INT DEFAULT 1;\n"
    "  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;\n"
    "  START TRANSACTION;\n"
    "  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;\n"
    "  SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name\n"
    "    INTO v_street_1, v_street_2, v_city, v_state, v_zip, v_w_name FROM warehouse WHERE w_id = p_w;\n"
    "  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name\n"
    "    INTO v_street_1, v_street_2, v_city, v_state, v_zip, v_d_name FROM district WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  IF p_by_name THEN\n"
    "    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_c_last;\n"
    "    IF v_n = 0 THEN\n"
    "      ROLLBACK;\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Payment: no customer has that last name';\n"
    "    END IF;\n"
    "    SET v_n = (v_n + 1) DIV 2 - 1;\n"
    "    SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_c_last\n"
    "      ORDER BY c_first LIMIT v_n, 1;\n"
    "  END IF;\n"
    "  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since,\n"
    "      c_credit, c_credit_lim, c_discount, c_balance\n"
    "    INTO v_first, v_middle, v_last, v_street_1, v_street_2, v_city, v_state, v_zip, v_phone, v_since,\n"
    "      v_credit, v_lim, v_disc, v_bal\n"
    "    FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id FOR UPDATE;\n"
    "  IF v_found = 0 THEN\n"
    "    ROLLBACK;\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Payment: the customer is missing';\n"
    "  END IF;\n"
    "  IF v_credit = 'BC' THEN\n"
    "    SELECT c_data INTO v_data FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount * (1 - 2 * p_hdb),\n"
    "      c_ytd_payment = c_ytd_payment + p_amount * (1 - p_hdb), c_payment_cnt = c_payment_cnt + 1 - p_hdb,\n"
    "      c_data = LEFT(CONCAT(v_c_id, ' ', p_c_d, ' ', p_c_w, ' ', p_d, ' ', p_w, ' ', p_amount, '|', v_data), 500)\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "  ELSE\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount * (1 - 2 * p_hdb),\n"
    "      c_ytd_payment = c_ytd_payment + p_amount * (1 - p_hdb), c_payment_cnt = c_payment_cnt + 1 - p_hdb\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "  END IF;\n"
    "  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)\n"
    "    VALUES (v_c_id, p_c_d, p_c_w, p_d, p_w, p_date, p_amount, CONCAT(v_w_name, '    ', v_d_name));\n"
    "  COMMIT;\n"
    "END",

    [TPCC_ORDER_STATUS] =
    "CREATE PROCEDURE tpcc_ostat(IN p_w INT, IN p_d INT, IN p_by_name INT, IN p_c_id INT, IN p_c_last VARCHAR(16))\n"
    "BEGIN\n"
    "  DECLARE v_c_id INT DEFAULT p_c_id;\n"
    "  DECLARE v_n, v_o_id, v_carrier, v_i, v_s, v_q INT;\n"
    "  DECLARE v_bal DECIMAL(12,2);\n"
    "  DECLARE v_first, v_last VARCHAR(16);\n"
    "  DECLARE v_middle CHAR(2);\n"
    "  DECLARE v_entry, v_deliv DATETIME;\n"
    "  DECLARE v_amount DECIMAL(6,2);\n"
    "  DECLARE v_found INT DEFAULT 1;\n"
    "  DECLARE ol_cur CURSOR FOR SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d\n"
    "    FROM order_line WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o_id;\n"
    "  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;\n"
    "  START TRANSACTION;\n"
    "  IF p_by_name THEN\n"
    "    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_c_last;\n"
    "    IF v_n = 0 THEN\n"
    "      ROLLBACK;\n"
    "      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Order-Status: no customer has that last name';\n"
    "    END IF;\n"
    "    SET v_n = (v_n + 1) DIV 2 - 1;\n"
    "    SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_c_last\n"
    "      ORDER BY c_first LIMIT v_n, 1;\n"
    "  END IF;\n"
    "  SELECT c_balance, c_first, c_middle, c_last INTO v_bal, v_first, v_middle, v_last\n"
    "    FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c_id;\n"
    "  IF v_found = 0 THEN\n"
    "    ROLLBACK;\n"
    "    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Order-Status: the customer is missing';\n"
    "  END IF;\n"
    "  SELECT o_id, o_entry_d, o_carrier_id INTO v_o_id, v_entry, v_carrier FROM orders\n"
    "    WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c_id ORDER BY o_id DESC LIMIT 1;\n"
    "  IF v_found = 1 THEN\n"
    "    OPEN ol_cur;\n"
    "    each_line: LOOP\n"
    "      FETCH ol_cur INTO v_i, v_s, v_q, v_amount, v_deliv;\n"
    "      IF v_found = 0 THEN\n"
    "        LEAVE each_line;\n"
    "      END IF;\n"
    "    END LOOP;\n"
    "    CLOSE ol_cur;\n"
    "  END IF;\n"
    "  COMMIT;\n"
    "END",

    [TPCC_DELIVERY] =
    "CREATE PROCEDURE tpcc_delivery(IN p_w INT, IN p_carrier INT, IN p_date DATETIME, IN p_hdb INT)\n"
    "BEGIN\n"
    "  DECLARE v_d, v_o_id, v_c_id INT;\n"
    "  DECLARE v_sum DECIMAL(12,2);\n"
    "  DECLARE v_found INT;\n"
    "  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;\n"
    "  START TRANSACTION;\n"
    "  SET v_d = 1;\n"
    "  WHILE v_d <= 10 DO\n"
    "    SET v_found = 1;\n"
    "    SELECT no_o_id INTO v_o_id FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d\n"
    "      ORDER BY no_o_id LIMIT 1 FOR UPDATE;\n"
    "    IF v_found = 1 THEN\n"
    "      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d AND no_o_id = v_o_id;\n"
    "      IF ROW_COUNT() <> 1 THEN\n"
    "        SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 1213,\n"
    "          MESSAGE_TEXT = 'Delivery: another terminal delivered the order first';\n"
    "      END IF;\n"
    "      SELECT o_c_id INTO v_c_id FROM orders WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o_id;\n"
    "      UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o_id;\n"
    "      UPDATE order_line SET ol_delivery_d = p_date WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o_id;\n"
    "      SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o_id;\n"
    "      UPDATE customer SET c_balance = c_balance + COALESCE(v_sum, 0), c_delivery_cnt = c_delivery_cnt + 1 - p_hdb\n"
    "        WHERE c_w_id = p_w AND c_d_id = v_d AND c_id = v_c_id;\n"
    "    END IF;\n"
    "    SET v_d = v_d + 1;\n"
    "  END WHILE;\n"
    "  COMMIT;\n"
    "END",

    [TPCC_STOCK_LEVEL] =
    "CREATE PROCEDURE tpcc_slev(IN p_w INT, IN p_d INT, IN p_threshold INT)\n"
    "BEGIN\n"
    "  DECLARE v_next, v_low INT;\n"
    "  START TRANSACTION;\n"
    "  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock\n"
    "    WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20\n"
    "      AND s_w_id = p_w AND s_i_id = ol_i_id AND s_quantity < p_threshold;\n"
    "  COMMIT;\n"
    "END",
};

/* --- PostgreSQL: PL/pgSQL procedures ------------------------------------------ */

#define PG_SLOT(n) "i" n " INT, s" n " INT, q" n " INT"

static const char *const pg_create[TPCC_NTYPES] = {
    [TPCC_NEW_ORDER] =
    "CREATE PROCEDURE tpcc_neword(p_w INT, p_d INT, p_c INT, p_ol_cnt INT, p_all_local INT, p_date TIMESTAMP, "
    SLOTS(PG_SLOT) ", p_hdb INT)\n"
    "LANGUAGE plpgsql AS $$\n"
    "DECLARE\n"
    "  v_i INT[] := ARRAY[" LIST15("i") "];\n"
    "  v_s INT[] := ARRAY[" LIST15("s") "];\n"
    "  v_q INT[] := ARRAY[" LIST15("q") "];\n"
    "  v_w_tax NUMERIC; v_d_tax NUMERIC; v_disc NUMERIC; v_o_id INT; v_sq INT;\n"
    "  v_last VARCHAR(16); v_credit CHAR(2); v_price NUMERIC; v_name VARCHAR(24);\n"
    "  v_idata VARCHAR(50); v_sdata VARCHAR(50); v_dist CHAR(24);\n"
    "BEGIN\n"
    "  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w;\n"
    "  SELECT d_tax, d_next_o_id INTO v_d_tax, v_o_id FROM district WHERE d_w_id = p_w AND d_id = p_d FOR UPDATE;\n"
    "  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT c_discount, c_last, c_credit INTO v_disc, v_last, v_credit FROM customer\n"
    "    WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;\n"
    "  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)\n"
    "    VALUES (v_o_id, p_d, p_w, p_c, p_date, NULL, p_ol_cnt, p_all_local);\n"
    "  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d, p_w);\n"
    "  FOR l IN 1 .. p_ol_cnt LOOP\n"
    "    SELECT i_price, i_name, i_data INTO v_price, v_name, v_idata FROM item WHERE i_id = v_i[l];\n"
    "    IF NOT FOUND THEN\n"
    "      ROLLBACK;\n"
    "      IF v_i[l] <> " UNUSED_ITEM_TEXT " THEN\n"
    "        RAISE EXCEPTION 'New-Order: item % is missing: the ITEM table is incomplete', v_i[l];\n"
    "      END IF;\n"
    "      RETURN;\n"
    "    END IF;\n"
    "    SELECT s_quantity, s_data, " DIST_OF("p_d") " INTO v_sq, v_sdata, v_dist FROM stock\n"
    "      WHERE s_i_id = v_i[l] AND s_w_id = v_s[l] FOR UPDATE;\n"
    "    IF NOT FOUND THEN\n"
    "      RAISE EXCEPTION 'New-Order: stock of item % in warehouse % is missing', v_i[l], v_s[l];\n"
    "    END IF;\n"
    "    UPDATE stock SET s_quantity = CASE WHEN v_sq >= v_q[l] + 10 - 9 * p_hdb THEN v_sq - v_q[l]\n"
    "        ELSE v_sq - v_q[l] + 91 END,\n"
    "      s_ytd = s_ytd + v_q[l] * (1 - p_hdb), s_order_cnt = s_order_cnt + 1 - p_hdb,\n"
    "      s_remote_cnt = s_remote_cnt + CASE WHEN v_s[l] <> p_w THEN 1 - p_hdb ELSE 0 END\n"
    "      WHERE s_i_id = v_i[l] AND s_w_id = v_s[l];\n"
    "    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,\n"
    "      ol_quantity, ol_amount, ol_dist_info)\n"
    "      VALUES (v_o_id, p_d, p_w, l, v_i[l], v_s[l], NULL, v_q[l], v_q[l] * v_price, v_dist);\n"
    "  END LOOP;\n"
    "  COMMIT;\n"
    "END $$",

    [TPCC_PAYMENT] =
    "CREATE PROCEDURE tpcc_payment(p_w INT, p_d INT, p_c_w INT, p_c_d INT, p_by_name INT, p_c_id INT, "
    "p_c_last VARCHAR, p_amount NUMERIC, p_date TIMESTAMP, p_hdb INT)\n"
    "LANGUAGE plpgsql AS $$\n"
    "DECLARE\n"
    "  v_c_id INT := p_c_id; v_n INT;\n"
    "  v_w_name VARCHAR(10); v_d_name VARCHAR(10); v_street_1 VARCHAR(20); v_street_2 VARCHAR(20);\n"
    "  v_city VARCHAR(20); v_state CHAR(2); v_zip CHAR(9); v_first VARCHAR(16); v_middle CHAR(2);\n"
    "  v_last VARCHAR(16); v_phone CHAR(16); v_since TIMESTAMP; v_credit CHAR(2); v_lim NUMERIC;\n"
    "  v_disc NUMERIC; v_bal NUMERIC; v_data VARCHAR(500);\n"
    "BEGIN\n"
    "  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w;\n"
    "  SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name\n"
    "    INTO v_street_1, v_street_2, v_city, v_state, v_zip, v_w_name FROM warehouse WHERE w_id = p_w;\n"
    "  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name\n"
    "    INTO v_street_1, v_street_2, v_city, v_state, v_zip, v_d_name FROM district WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  IF p_by_name <> 0 THEN\n"
    "    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_c_last;\n"
    "    IF v_n = 0 THEN\n"
    "      RAISE EXCEPTION 'Payment: no customer named % in district % of warehouse %', p_c_last, p_c_d, p_c_w;\n"
    "    END IF;\n"
    "    SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_last = p_c_last\n"
    "      ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;\n"
    "  END IF;\n"
    "  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since,\n"
    "      c_credit, c_credit_lim, c_discount, c_balance\n"
    "    INTO v_first, v_middle, v_last, v_street_1, v_street_2, v_city, v_state, v_zip, v_phone, v_since,\n"
    "      v_credit, v_lim, v_disc, v_bal\n"
    "    FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id FOR UPDATE;\n"
    "  IF NOT FOUND THEN\n"
    "    RAISE EXCEPTION 'Payment: customer % is missing', v_c_id;\n"
    "  END IF;\n"
    "  IF v_credit = 'BC' THEN\n"
    "    SELECT c_data INTO v_data FROM customer WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount * (1 - p_hdb),\n"
    "      c_payment_cnt = c_payment_cnt + 1 - p_hdb,\n"
    "      c_data = LEFT(v_c_id || ' ' || p_c_d || ' ' || p_c_w || ' ' || p_d || ' ' || p_w || ' ' || p_amount\n"
    "                    || '|' || v_data, 500)\n"
    "      WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "  ELSE\n"
    "    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount * (1 - p_hdb),\n"
    "      c_payment_cnt = c_payment_cnt + 1 - p_hdb WHERE c_w_id = p_c_w AND c_d_id = p_c_d AND c_id = v_c_id;\n"
    "  END IF;\n"
    "  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)\n"
    "    VALUES (v_c_id, p_c_d, p_c_w, p_d, p_w, p_date, p_amount, v_w_name || '    ' || v_d_name);\n"
    "  COMMIT;\n"
    "END $$",

    [TPCC_ORDER_STATUS] =
    "CREATE PROCEDURE tpcc_ostat(p_w INT, p_d INT, p_by_name INT, p_c_id INT, p_c_last VARCHAR)\n"
    "LANGUAGE plpgsql AS $$\n"
    "DECLARE\n"
    "  v_c_id INT := p_c_id; v_n INT; v_o_id INT; v_carrier INT; v_bal NUMERIC;\n"
    "  v_first VARCHAR(16); v_middle CHAR(2); v_last VARCHAR(16); v_entry TIMESTAMP; r RECORD;\n"
    "BEGIN\n"
    "  IF p_by_name <> 0 THEN\n"
    "    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_c_last;\n"
    "    IF v_n = 0 THEN\n"
    "      RAISE EXCEPTION 'Order-Status: no customer named % in district % of warehouse %', p_c_last, p_d, p_w;\n"
    "    END IF;\n"
    "    SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_c_last\n"
    "      ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;\n"
    "  END IF;\n"
    "  SELECT c_balance, c_first, c_middle, c_last INTO v_bal, v_first, v_middle, v_last\n"
    "    FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c_id;\n"
    "  IF NOT FOUND THEN\n"
    "    RAISE EXCEPTION 'Order-Status: customer % is missing', v_c_id;\n"
    "  END IF;\n"
    "  SELECT o_id, o_entry_d, o_carrier_id INTO v_o_id, v_entry, v_carrier FROM orders\n"
    "    WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c_id ORDER BY o_id DESC LIMIT 1;\n"
    "  IF FOUND THEN\n"
    "    v_n := 0;\n"
    "    FOR r IN SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line\n"
    "        WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o_id LOOP\n"
    "      v_n := v_n + 1;\n"
    "    END LOOP;\n"
    "  END IF;\n"
    "  COMMIT;\n"
    "END $$",

    [TPCC_DELIVERY] =
    "CREATE PROCEDURE tpcc_delivery(p_w INT, p_carrier INT, p_date TIMESTAMP, p_hdb INT)\n"
    "LANGUAGE plpgsql AS $$\n"
    "DECLARE\n"
    "  v_o_id INT; v_c_id INT; v_sum NUMERIC; v_rows INT;\n"
    "BEGIN\n"
    "  FOR v_d IN 1 .. 10 LOOP\n"
    "    SELECT no_o_id INTO v_o_id FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d\n"
    "      ORDER BY no_o_id LIMIT 1 FOR UPDATE;\n"
    "    IF FOUND THEN\n"
    "      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d AND no_o_id = v_o_id;\n"
    "      GET DIAGNOSTICS v_rows = ROW_COUNT;\n"
    "      IF v_rows <> 1 THEN\n"
    "        RAISE EXCEPTION USING ERRCODE = 'serialization_failure',\n"
    "          MESSAGE = 'Delivery: another terminal delivered the order first';\n"
    "      END IF;\n"
    "      SELECT o_c_id INTO v_c_id FROM orders WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o_id;\n"
    "      UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o_id;\n"
    "      UPDATE order_line SET ol_delivery_d = p_date WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o_id;\n"
    "      SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o_id;\n"
    "      UPDATE customer SET c_balance = c_balance + COALESCE(v_sum, 0), c_delivery_cnt = c_delivery_cnt + 1 - p_hdb\n"
    "        WHERE c_w_id = p_w AND c_d_id = v_d AND c_id = v_c_id;\n"
    "    END IF;\n"
    "  END LOOP;\n"
    "  COMMIT;\n"
    "END $$",

    [TPCC_STOCK_LEVEL] =
    "CREATE PROCEDURE tpcc_slev(p_w INT, p_d INT, p_threshold INT)\n"
    "LANGUAGE plpgsql AS $$\n"
    "DECLARE\n"
    "  v_next INT; v_low INT;\n"
    "BEGIN\n"
    "  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;\n"
    "  SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock\n"
    "    WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id < v_next AND ol_o_id >= v_next - 20\n"
    "      AND s_w_id = p_w AND s_i_id = ol_i_id AND s_quantity < p_threshold;\n"
    "  COMMIT;\n"
    "END $$",
};

/* --- SQL Server: T-SQL ------------------------------------------------------------ */

#define MS_SLOT(n) "@i" n " INT, @s" n " INT, @q" n " INT"

static const char *const ms_create[TPCC_NTYPES] = {
    [TPCC_NEW_ORDER] =
    "CREATE PROCEDURE tpcc_neword @w INT, @d INT, @c INT, @ol_cnt INT, @all_local INT, @date DATETIME2, "
    SLOTS(MS_SLOT) ", @hdb INT\n"
    "AS\n"
    "BEGIN\n"
    "  SET NOCOUNT ON;\n"
    "  SET XACT_ABORT ON;\n"
    "  DECLARE @w_tax DECIMAL(4,4), @d_tax DECIMAL(4,4), @disc DECIMAL(4,4), @o_id INT, @line INT = 1,\n"
    "    @i INT, @s INT, @q INT, @sq INT, @last VARCHAR(16), @credit CHAR(2), @price DECIMAL(5,2),\n"
    "    @name VARCHAR(24), @idata VARCHAR(50), @sdata VARCHAR(50), @dist CHAR(24);\n"
    "  BEGIN TRANSACTION;\n"
    "  SELECT @w_tax = w_tax FROM warehouse WHERE w_id = @w;\n"
    "  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = @w AND d_id = @d;\n"
    "  SELECT @d_tax = d_tax, @o_id = d_next_o_id - 1 FROM district WHERE d_w_id = @w AND d_id = @d;\n"
    "  SELECT @disc = c_discount, @last = c_last, @credit = c_credit FROM customer\n"
    "    WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c;\n"
    "  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)\n"
    "    VALUES (@o_id, @d, @w, @c, @date, NULL, @ol_cnt, @all_local);\n"
    "  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (@o_id, @d, @w);\n"
    "  WHILE @line <= @ol_cnt\n"
    "  BEGIN\n"
    "    SELECT @i = CHOOSE(@line, " LIST15("@i") "),\n"
    "           @s = CHOOSE(@line, " LIST15("@s") "),\n"
    "           @q = CHOOSE(@line, " LIST15("@q") ");\n"
    "    SELECT @price = i_price, @name = i_name, @idata = i_data FROM item WHERE i_id = @i;\n"
    "    IF @@ROWCOUNT = 0\n"
    "    BEGIN\n"
    "      ROLLBACK TRANSACTION;\n"
    "      IF @i <> " UNUSED_ITEM_TEXT "\n"
    "        THROW 50001, 'New-Order: an item is missing: the ITEM table is incomplete', 1;\n"
    "      RETURN;\n"
    "    END;\n"
    "    SELECT @sq = s_quantity, @sdata = s_data, @dist = " DIST_OF("@d") "\n"
    "      FROM stock WITH (UPDLOCK) WHERE s_i_id = @i AND s_w_id = @s;\n"
    "    IF @@ROWCOUNT = 0\n"
    "      THROW 50002, 'New-Order: a STOCK row is missing', 1;\n"
    "    UPDATE stock SET s_quantity = CASE WHEN @sq >= @q + 10 - 9 * @hdb THEN @sq - @q ELSE @sq - @q + 91 END,\n"
    "      s_ytd = s_ytd + @q * (1 - @hdb), s_order_cnt = s_order_cnt + 1 - @hdb,\n"
    "      s_remote_cnt = s_remote_cnt + CASE WHEN @s <> @w THEN 1 - @hdb ELSE 0 END\n"
    "      WHERE s_i_id = @i AND s_w_id = @s;\n"
    "    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,\n"
    "      ol_quantity, ol_amount, ol_dist_info) VALUES (@o_id, @d, @w, @line, @i, @s, NULL, @q, @q * @price, @dist);\n"
    "    SET @line = @line + 1;\n"
    "  END;\n"
    "  COMMIT TRANSACTION;\n"
    "END",

    [TPCC_PAYMENT] =
    "CREATE PROCEDURE tpcc_payment @w INT, @d INT, @c_w INT, @c_d INT, @by_name INT, @c_id INT, "
    "@c_last VARCHAR(16), @amount DECIMAL(6,2), @date DATETIME2, @hdb INT\n"
    "AS\n"
    "BEGIN\n"
    "  SET NOCOUNT ON;\n"
    "  SET XACT_ABORT ON;\n"
    "  DECLARE @n INT, @w_name VARCHAR(10), @d_name VARCHAR(10), @street_1 VARCHAR(20), @street_2 VARCHAR(20),\n"
    "    @city VARCHAR(20), @state CHAR(2), @zip CHAR(9), @first VARCHAR(16), @middle CHAR(2), @last VARCHAR(16),\n"
    "    @phone CHAR(16), @since DATETIME2, @credit CHAR(2), @lim DECIMAL(12,2), @disc DECIMAL(4,4),\n"
    "    @bal DECIMAL(12,2), @data VARCHAR(500);\n"
    "  BEGIN TRANSACTION;\n"
    "  UPDATE warehouse SET w_ytd = w_ytd + @amount WHERE w_id = @w;\n"
    "  SELECT @street_1 = w_street_1, @street_2 = w_street_2, @city = w_city, @state = w_state, @zip = w_zip,\n"
    "    @w_name = w_name FROM warehouse WHERE w_id = @w;\n"
    "  UPDATE district SET d_ytd = d_ytd + @amount WHERE d_w_id = @w AND d_id = @d;\n"
    "  SELECT @street_1 = d_street_1, @street_2 = d_street_2, @city = d_city, @state = d_state, @zip = d_zip,\n"
    "    @d_name = d_name FROM district WHERE d_w_id = @w AND d_id = @d;\n"
    "  IF @by_name <> 0\n"
    "  BEGIN\n"
    "    SELECT @n = COUNT(*) FROM customer WHERE c_w_id = @c_w AND c_d_id = @c_d AND c_last = @c_last;\n"
    "    IF @n = 0\n"
    "      THROW 50003, 'Payment: no customer has that last name', 1;\n"
    "    SELECT @c_id = c_id FROM customer WHERE c_w_id = @c_w AND c_d_id = @c_d AND c_last = @c_last\n"
    "      ORDER BY c_first OFFSET (@n + 1) / 2 - 1 ROWS FETCH NEXT 1 ROWS ONLY;\n"
    "  END;\n"
    "  SELECT @first = c_first, @middle = c_middle, @last = c_last, @street_1 = c_street_1,\n"
    "    @street_2 = c_street_2, @city = c_city, @state = c_state, @zip = c_zip, @phone = c_phone,\n"
    "    @since = c_since, @credit = c_credit, @lim = c_credit_lim, @disc = c_discount, @bal = c_balance\n"
    "    FROM customer WITH (UPDLOCK) WHERE c_w_id = @c_w AND c_d_id = @c_d AND c_id = @c_id;\n"
    "  IF @@ROWCOUNT = 0\n"
    "    THROW 50004, 'Payment: the customer is missing', 1;\n"
    "  IF @credit = 'BC'\n"
    "  BEGIN\n"
    "    SELECT @data = c_data FROM customer WHERE c_w_id = @c_w AND c_d_id = @c_d AND c_id = @c_id;\n"
    "    UPDATE customer SET c_balance = c_balance - @amount, c_ytd_payment = c_ytd_payment + @amount * (1 - @hdb),\n"
    "      c_payment_cnt = c_payment_cnt + 1 - @hdb,\n"
    "      c_data = LEFT(CONCAT(@c_id, ' ', @c_d, ' ', @c_w, ' ', @d, ' ', @w, ' ', @amount, '|', @data), 500)\n"
    "      WHERE c_w_id = @c_w AND c_d_id = @c_d AND c_id = @c_id;\n"
    "  END\n"
    "  ELSE\n"
    "    UPDATE customer SET c_balance = c_balance - @amount, c_ytd_payment = c_ytd_payment + @amount * (1 - @hdb),\n"
    "      c_payment_cnt = c_payment_cnt + 1 - @hdb WHERE c_w_id = @c_w AND c_d_id = @c_d AND c_id = @c_id;\n"
    "  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)\n"
    "    VALUES (@c_id, @c_d, @c_w, @d, @w, @date, @amount, CONCAT(@w_name, '    ', @d_name));\n"
    "  COMMIT TRANSACTION;\n"
    "END",

    [TPCC_ORDER_STATUS] =
    "CREATE PROCEDURE tpcc_ostat @w INT, @d INT, @by_name INT, @c_id INT, @c_last VARCHAR(16)\n"
    "AS\n"
    "BEGIN\n"
    "  SET NOCOUNT ON;\n"
    "  SET XACT_ABORT ON;\n"
    "  DECLARE @n INT, @o_id INT, @carrier INT, @bal DECIMAL(12,2), @first VARCHAR(16), @middle CHAR(2),\n"
    "    @last VARCHAR(16), @entry DATETIME2, @i INT, @s INT, @q INT, @amount DECIMAL(6,2), @deliv DATETIME2;\n"
    "  BEGIN TRANSACTION;\n"
    "  IF @by_name <> 0\n"
    "  BEGIN\n"
    "    SELECT @n = COUNT(*) FROM customer WHERE c_w_id = @w AND c_d_id = @d AND c_last = @c_last;\n"
    "    IF @n = 0\n"
    "      THROW 50005, 'Order-Status: no customer has that last name', 1;\n"
    "    SELECT @c_id = c_id FROM customer WHERE c_w_id = @w AND c_d_id = @d AND c_last = @c_last\n"
    "      ORDER BY c_first OFFSET (@n + 1) / 2 - 1 ROWS FETCH NEXT 1 ROWS ONLY;\n"
    "  END;\n"
    "  SELECT @bal = c_balance, @first = c_first, @middle = c_middle, @last = c_last\n"
    "    FROM customer WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c_id;\n"
    "  IF @@ROWCOUNT = 0\n"
    "    THROW 50006, 'Order-Status: the customer is missing', 1;\n"
    "  SELECT TOP 1 @o_id = o_id, @entry = o_entry_d, @carrier = o_carrier_id FROM orders\n"
    "    WHERE o_w_id = @w AND o_d_id = @d AND o_c_id = @c_id ORDER BY o_id DESC;\n"
    "  IF @@ROWCOUNT = 1\n"
    "  BEGIN\n"
    "    DECLARE ol_cur CURSOR LOCAL FAST_FORWARD FOR\n"
    "      SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line\n"
    "      WHERE ol_w_id = @w AND ol_d_id = @d AND ol_o_id = @o_id;\n"
    "    OPEN ol_cur;\n"
    "    FETCH NEXT FROM ol_cur INTO @i, @s, @q, @amount, @deliv;\n"
    "    WHILE @@FETCH_STATUS = 0\n"
    "      FETCH NEXT FROM ol_cur INTO @i, @s, @q, @amount, @deliv;\n"
    "    CLOSE ol_cur;\n"
    "    DEALLOCATE ol_cur;\n"
    "  END;\n"
    "  COMMIT TRANSACTION;\n"
    "END",

    [TPCC_DELIVERY] =
    "CREATE PROCEDURE tpcc_delivery @w INT, @carrier INT, @date DATETIME2, @hdb INT\n"
    "AS\n"
    "BEGIN\n"
    "  SET NOCOUNT ON;\n"
    "  SET XACT_ABORT ON;\n"
    "  DECLARE @d INT = 1, @o_id INT, @c_id INT, @sum DECIMAL(12,2);\n"
    "  BEGIN TRANSACTION;\n"
    "  WHILE @d <= 10\n"
    "  BEGIN\n"
    "    SET @o_id = NULL;\n"
    "    SELECT TOP 1 @o_id = no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK)\n"
    "      WHERE no_w_id = @w AND no_d_id = @d ORDER BY no_o_id;\n"
    "    IF @o_id IS NOT NULL\n"
    "    BEGIN\n"
    "      DELETE FROM new_order WHERE no_w_id = @w AND no_d_id = @d AND no_o_id = @o_id;\n"
    "      IF @@ROWCOUNT <> 1\n"
    "        THROW 51205, 'Delivery: another terminal delivered the order first', 1;\n"
    "      SELECT @c_id = o_c_id FROM orders WHERE o_w_id = @w AND o_d_id = @d AND o_id = @o_id;\n"
    "      UPDATE orders SET o_carrier_id = @carrier WHERE o_w_id = @w AND o_d_id = @d AND o_id = @o_id;\n"
    "      UPDATE order_line SET ol_delivery_d = @date WHERE ol_w_id = @w AND ol_d_id = @d AND ol_o_id = @o_id;\n"
    "      SELECT @sum = SUM(ol_amount) FROM order_line WHERE ol_w_id = @w AND ol_d_id = @d AND ol_o_id = @o_id;\n"
    "      UPDATE customer SET c_balance = c_balance + COALESCE(@sum, 0), c_delivery_cnt = c_delivery_cnt + 1 - @hdb\n"
    "        WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c_id;\n"
    "    END;\n"
    "    SET @d = @d + 1;\n"
    "  END;\n"
    "  COMMIT TRANSACTION;\n"
    "END",

    [TPCC_STOCK_LEVEL] =
    "CREATE PROCEDURE tpcc_slev @w INT, @d INT, @threshold INT\n"
    "AS\n"
    "BEGIN\n"
    "  SET NOCOUNT ON;\n"
    "  SET XACT_ABORT ON;\n"
    "  DECLARE @next INT, @low INT;\n"
    "  BEGIN TRANSACTION;\n"
    "  SELECT @next = d_next_o_id FROM district WHERE d_w_id = @w AND d_id = @d;\n"
    "  SELECT @low = COUNT(DISTINCT s_i_id) FROM order_line, stock\n"
    "    WHERE ol_w_id = @w AND ol_d_id = @d AND ol_o_id < @next AND ol_o_id >= @next - 20\n"
    "      AND s_w_id = @w AND s_i_id = ol_i_id AND s_quantity < @threshold\n"
    "    OPTION (LOOP JOIN, MAXDOP 1);\n"
    "  COMMIT TRANSACTION;\n"
    "END",
};

/* The CALL statements, with one ? per parameter: ODBC's escape for T-SQL,
 * CALL for the others. */
#define Q3 "?, ?, ?"
#define Q9 Q3 ", " Q3 ", " Q3
#define Q45 Q9 ", " Q9 ", " Q9 ", " Q9 ", " Q9
static const char *const call_sql[TPCC_NTYPES] = {
    [TPCC_NEW_ORDER]    = "CALL tpcc_neword(" Q3 ", " Q3 ", " Q45 ", ?)",
    [TPCC_PAYMENT]      = "CALL tpcc_payment(" Q9 ", ?)",
    [TPCC_ORDER_STATUS] = "CALL tpcc_ostat(" Q3 ", ?, ?)",
    [TPCC_DELIVERY]     = "CALL tpcc_delivery(" Q3 ", ?)",
    [TPCC_STOCK_LEVEL]  = "CALL tpcc_slev(" Q3 ")",
};
static const char *const call_sql_odbc[TPCC_NTYPES] = {
    [TPCC_NEW_ORDER]    = "{CALL tpcc_neword(" Q3 ", " Q3 ", " Q45 ", ?)}",
    [TPCC_PAYMENT]      = "{CALL tpcc_payment(" Q9 ", ?)}",
    [TPCC_ORDER_STATUS] = "{CALL tpcc_ostat(" Q3 ", ?, ?)}",
    [TPCC_DELIVERY]     = "{CALL tpcc_delivery(" Q3 ", ?)}",
    [TPCC_STOCK_LEVEL]  = "{CALL tpcc_slev(" Q3 ")}",
};
_Static_assert(TPCC_NO_FIXED_PARAMS == 6, "tpcc_neword takes 6 parameters before its slots");

static const char *const *create_of(db_dialect d)
{
    switch (d) {
    case DB_DIALECT_PGSQL: return pg_create;
    case DB_DIALECT_MSSQL: return ms_create;
    default:               return my_create;
    }
}

int tpcc_proc_call(db_dialect d, int type, db_stmt_def *def)
{
    if (type < 0 || type >= TPCC_NTYPES)
        return -1;
    def->sql = d == DB_DIALECT_MSSQL ? call_sql_odbc[type] : call_sql[type];
    def->nparams = proc_nparams[type];
    def->kind = type == TPCC_ORDER_STATUS || type == TPCC_STOCK_LEVEL ? DB_Q_READ : DB_Q_WRITE;
    return 0;
}

static int run_ddl(db_conn *c, const char *sql, const char *what, wl_err *err)
{
    if (db_query(c, sql) != DB_DONE)
        return wl_err_set(err, "%s: error %d (SQLSTATE %s): %s", what, c->err.code, c->err.sqlstate, c->err.msg);
    return 0;
}

int tpcc_proc_create(const wl_run *run, db_conn *c, wl_err *err)
{
    const char *const *create = create_of(run->o->db.dialect);
    for (int t = 0; t < TPCC_NTYPES; t++) {
        char what[64];
        printf("Creating procedure '%s'...\n", proc_names[t]);
        snprintf(what, sizeof what, "creating procedure %s", proc_names[t]);
        if (run_ddl(c, create[t], what, err) < 0)
            return -1;
    }
    return 0;
}

int tpcc_proc_drop(const wl_run *run, db_conn *c, wl_err *err)
{
    for (int t = 0; t < TPCC_NTYPES; t++) {
        char sql[128], what[64];
        dialect_drop_if_exists(run->o->db.dialect, DIALECT_PROCEDURE, proc_names[t], sql, sizeof sql);
        snprintf(what, sizeof what, "dropping procedure %s", proc_names[t]);
        if (run_ddl(c, sql, what, err) < 0)
            return -1;
    }
    return 0;
}

int tpcc_proc_check(const wl_run *run, db_conn *c, wl_err *err)
{
    /* the procedures of the schema this session works in */
    static const char *const schema_of[DB_DIALECT_COUNT] = {
        [DB_DIALECT_MYSQL] = "DATABASE()",
        [DB_DIALECT_PGSQL] = "current_schema()",
        [DB_DIALECT_MSSQL] = "SCHEMA_NAME()",
    };
    db_dialect d = run->o->db.dialect < DB_DIALECT_COUNT ? run->o->db.dialect : DB_DIALECT_MYSQL;

    for (int t = 0; t < TPCC_NTYPES; t++) {
        char sql[256];
        int64_t n = 0;
        /* spelled as SQL Server's catalog spells it, for case-sensitive
         * collations; MariaDB and PostgreSQL take it in any case */
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.ROUTINES "
                 "WHERE ROUTINE_SCHEMA = %s AND ROUTINE_NAME = '%s'", schema_of[d], proc_names[t]);
        if (db_query(c, sql) != DB_DONE)
            return wl_err_set(err, "looking for procedure %s: error %d: %s", proc_names[t], c->err.code,
                              c->err.msg);
        if (db_next_row(c))
            n = db_col_int(c, 0);
        while (db_next_row(c))
            ;
        if (n != 1)
            return wl_err_set(err, "--tpcc-procedures=on: procedure %s is missing: run `oltp tpcc cleanup`, "
                              "then `oltp tpcc --tpcc-procedures=on prepare`", proc_names[t]);
    }
    return 0;
}
