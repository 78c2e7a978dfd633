#!/usr/bin/env bash
# Integration tests of `oltp tpcc` against a real MariaDB started here, at
# 2 warehouses: exact initial population (clause 4.3), the consistency
# check (3.3.2) passing after prepare and after a run and failing on each
# broken condition, a full-speed run's mix, 1 % rollbacks and 1 % remote
# order lines and 15 % remote payments within statistical tolerance
# (counted on the server), NOPM against the client's committed New-Orders,
# and the keying/think cycle of terminals sharing
# fewer connections (--time-scale=0.01).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/mariadb.sh
. tests/lib/check.sh

mariadb_start || exit 1
T=$(mktemp -d); trap 'mariadb_stop; rm -rf "$T"' EXIT
export OLTP_MYSQL_PASSWORD=sbtest
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
OLTP="$OLTP_BIN --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --warehouses=2"
q() { mariadb_sql "USE sbtest; $1"; }
py() { python3 -c "$@"; }

# --- before prepare ---------------------------------------------------------
$OLTP --time=1 tpcc run >"$T/out" 2>"$T/err"
check_eq "run before prepare exits 2" 2 $?
check_contains "run before prepare says to prepare" 'run `oltp tpcc --warehouses=N prepare` first' "$(cat "$T/err")"

$OLTP --rate=10 --time=1 tpcc run >"$T/out" 2>"$T/err"
check_eq "--rate is refused for tpcc (exit 2)" 2 $?
check_contains "--rate: the terminals set the pace" "oltp: --rate does not apply to tpcc" "$(cat "$T/err")"

# --- prepare: exact row counts and population rules ---------------------------
$OLTP --threads=2 tpcc prepare >"$T/prep" 2>&1
check_eq "prepare exits 0" 0 $?
check_contains "prepare prints the loading rate" "rows/s)" "$(grep '^Loaded ' "$T/prep")"
# the size after the load, as information_schema.tables has it once InnoDB's
# statistics are recomputed (data + indexes of the schema; the redo log of
# tests/lib's 64M): right after a load they still count a part of its pages,
# so oltp recomputes them (ANALYZE TABLE) before it reads, and so does this
q "ANALYZE TABLE warehouse, district, customer, history, new_order, orders, order_line, item, stock" >/dev/null
is_bytes=$(q "SELECT SUM(data_length + index_length) FROM information_schema.tables WHERE table_schema='sbtest'")
size_line() {  # size_line WHEN BYTES: oltp's line for BYTES of data and 64 MiB of log
  python3 -c "import sys; d=int(sys.argv[2]); m=1<<20; print('database size (%s): %.1f MiB (data %.1f MiB, log 64.0 MiB)' % (sys.argv[1], (d+64*m)/m, d/m))" "$1" "$2"
}
check_eq "prepare prints the database's size last" "$(size_line "after prepare" "$is_bytes")" "$(tail -1 "$T/prep")"
for tc in warehouse:2 district:20 customer:60000 history:60000 new_order:18000 orders:60000 item:100000 stock:200000; do
  check_eq "${tc%%:*} rows" "${tc#*:}" "$(q "SELECT COUNT(*) FROM ${tc%%:*}")"
done
check_eq "order lines = sum of O_OL_CNT, 5..15 per order" "1 1 1" \
  "$(q "SELECT (SELECT COUNT(*) FROM order_line) = (SELECT SUM(o_ol_cnt) FROM orders), MIN(o_ol_cnt) = 5, MAX(o_ol_cnt) = 15 FROM orders" | tr '\t' ' ')"
check_eq "orders 2101..3000 undelivered (no carrier), the others with carrier 1..10" "18000 0 0" \
  "$(q "SELECT SUM(o_carrier_id IS NULL), SUM(o_carrier_id IS NULL AND o_id < 2101), SUM(o_carrier_id IS NOT NULL AND (o_id >= 2101 OR o_carrier_id NOT BETWEEN 1 AND 10)) FROM orders" | tr '\t' ' ')"
check_eq "new_order holds orders 2101..3000 of each district" "2101 3000 18000" \
  "$(q "SELECT MIN(no_o_id), MAX(no_o_id), COUNT(*) FROM new_order" | tr '\t' ' ')"
check_eq "delivered lines have a date and amount 0, undelivered ones neither" "0 0" \
  "$(q "SELECT SUM(ol_o_id < 2101 AND (ol_delivery_d IS NULL OR ol_amount <> 0)), SUM(ol_o_id >= 2101 AND (ol_delivery_d IS NOT NULL OR ol_amount < 0.01)) FROM order_line" | tr '\t' ' ')"
check_eq "I_PRICE in [1.00, 100.00], OL_AMOUNT of undelivered lines in [0.01, 9999.99]" "1 1" \
  "$(q "SELECT (SELECT MIN(i_price) >= 1 AND MAX(i_price) <= 100 FROM item), (SELECT MIN(ol_amount) >= 0.01 AND MAX(ol_amount) <= 9999.99 FROM order_line WHERE ol_o_id >= 2101)" | tr '\t' ' ')"
check_eq "customers 1..1000 take last names 0..999 in order" "20 20 20" \
  "$(q "SELECT SUM(c_id = 1 AND c_last = 'BARBARBAR'), SUM(c_id = 372 AND c_last = 'PRICALLYOUGHT'), SUM(c_id = 1000 AND c_last = 'EINGEINGEING') FROM customer" | tr '\t' ' ')"
check_eq "each O_C_ID once per district (a permutation)" "60000" \
  "$(q "SELECT COUNT(*) FROM (SELECT DISTINCT o_w_id, o_d_id, o_c_id FROM orders) x")"
check_eq "initial money: W_YTD 300000, D_YTD 30000, D_NEXT_O_ID 3001, C_BALANCE -10" "2 20 20 60000" \
  "$(q "SELECT (SELECT SUM(w_ytd = 300000) FROM warehouse), (SELECT SUM(d_ytd = 30000) FROM district), (SELECT SUM(d_next_o_id = 3001) FROM district), (SELECT SUM(c_balance = -10) FROM customer)" | tr '\t' ' ')"
# 10 % of 100,000 items and 200,000 stock rows carry ORIGINAL; 10 % of customers have bad credit
stats=$(q "SELECT (SELECT SUM(i_data LIKE '%ORIGINAL%') FROM item), (SELECT SUM(s_data LIKE '%ORIGINAL%') FROM stock), (SELECT SUM(c_credit = 'BC') FROM customer)")
read -r orig_i orig_s bc <<<"$stats"
check_eq "10% ORIGINAL in I_DATA (+-5 sd)" 1 "$(py "print(int(abs($orig_i - 10000) < 5 * 94.9))")"
check_eq "10% ORIGINAL in S_DATA (+-5 sd)" 1 "$(py "print(int(abs($orig_s - 20000) < 5 * 134.2))")"
check_eq "10% bad credit (+-5 sd)" 1 "$(py "print(int(abs($bc - 6000) < 5 * 73.5))")"
check_eq "customer last-name index" "c_w_id c_d_id c_last c_first" \
  "$(q "SELECT column_name FROM information_schema.statistics WHERE table_schema = 'sbtest' AND index_name = 'idx_customer_name' ORDER BY seq_in_index" | tr '\n' ' ' | sed 's/ $//')"
$OLTP tpcc prepare >"$T/out" 2>"$T/err"
check_eq "prepare over existing tables exits 2" 2 $?
check_contains "prepare over existing tables says to clean up" 'table warehouse already exists: run `oltp tpcc cleanup` first' "$(cat "$T/err")"

# --- check: holds after load, fails on each broken condition ----------------------
$OLTP tpcc check >"$T/out" 2>&1
check_eq "check after prepare exits 0" 0 $?
check_contains "check after prepare: all hold" "All consistency conditions hold" "$(cat "$T/out")"
check_eq "check prints the database's size" "$(size_line check "$is_bytes")" "$(grep '^database size' "$T/out")"
broken() {  # broken N "BREAK SQL" "REPAIR SQL"
  q "$2"
  $OLTP tpcc check >"$T/out" 2>&1
  check_eq "check exits 1 when condition $1 is broken" 1 $?
  check_eq "check names condition $1 alone as failed" "$1:" "$(grep FAILED "$T/out" | grep -v 'check FAILED' | awk '{print $1}' | tr '\n' ' ' | sed 's/ $//')"
  q "$3"
}
broken 1 "UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 2" "UPDATE warehouse SET w_ytd = w_ytd - 1 WHERE w_id = 2"
broken 2 "UPDATE district SET d_next_o_id = 3002 WHERE d_w_id = 1 AND d_id = 4" "UPDATE district SET d_next_o_id = 3001 WHERE d_w_id = 1 AND d_id = 4"
broken 3 "DELETE FROM new_order WHERE no_w_id = 2 AND no_d_id = 7 AND no_o_id = 2500" "INSERT INTO new_order VALUES (2500, 7, 2)"
broken 4 "UPDATE orders SET o_ol_cnt = o_ol_cnt + 1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 10" "UPDATE orders SET o_ol_cnt = o_ol_cnt - 1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 10"
$OLTP tpcc check >"$T/out" 2>&1
check_eq "check after the repairs exits 0" 0 $?

# --- full-speed run: mix, rollbacks, remote lines and payments -------------------
# the server's general log shows every executed statement with its values
mariadb_sql "SET GLOBAL general_log_file = '$MARIADB_DIR/general.log'; SET GLOBAL general_log = ON"
$OLTP --threads=4 --time=20 --json="$T/run.json" tpcc run >"$T/run" 2>&1
check_eq "full-speed run exits 0" 0 $?
mariadb_sql "SET GLOBAL general_log = OFF"
glog() { grep -c "$1" "$MARIADB_DIR/general.log"; }
# Payment selects its customer FOR UPDATE, Order-Status without
py_name=$(glog "Execute.*AND c_last = '[A-Z]*' ORDER BY c_first FOR UPDATE")
py_id=$(glog "Execute.*AND c_id = [0-9]* FOR UPDATE")
os_name=$(glog "Execute.*c_balance, c_first, c_middle, c_last FROM customer .*AND c_last = '[A-Z]*' ORDER BY c_first\s*$")
os_id=$(glog "Execute.*c_balance, c_first, c_middle, c_last FROM customer .*AND c_id = [0-9]*\s*$")
check_eq "60% of Payments select the customer by last name (+-4 sd, $py_name of $((py_name + py_id)))" 1 \
  "$(py "import math; n=$py_name + $py_id; print(int(n > 500 and abs($py_name - n*0.6) < 4*math.sqrt(n*0.6*0.4)))")"
check_eq "60% of Order-Status by last name (+-4 sd, $os_name of $((os_name + os_id)))" 1 \
  "$(py "import math; n=$os_name + $os_id; print(int(n > 50 and abs($os_name - n*0.6) < 4*math.sqrt(n*0.6*0.4)))")"
read -r tmin tmax <<<"$(grep "Execute.*s_quantity < " "$MARIADB_DIR/general.log" | sed 's/.*s_quantity < \([0-9]*\).*/\1/' | sort -n | sed -n '1p;$p' | tr '\n' ' ')"
check_eq "Stock-Level thresholds span 10..20" "10 20" "$tmin $tmax"
check_contains "text report has tpmC" "tpmC" "$(cat "$T/run")"
j() { py "import json; d=json.load(open('$T/run.json')); p=d['phases'][-1]; ty={t['name']: t for t in p['transaction_types']}; $1"; }
check_eq "JSON: five types in spec order" "New-Order Payment Order-Status Delivery Stock-Level" "$(j "print(' '.join(ty))")"
check_eq "JSON: tpcc.tpmC = New-Orders per minute" 1 "$(j "print(int(abs(p['tpcc']['tpmC'] - ty['New-Order']['count'] * 60 / p['duration_s']) < 1e-6))")"
check_eq "JSON: limits for five types, p90 in each type's latency" "5 1" "$(j "print(len(p['tpcc']['limits']), int(all('p90' in t['latency_ms'] for t in ty.values())))")"
check_eq "mix: New-Order and Payment 10/23, others 1/23 (+-1%)" 1 \
  "$(j "print(int(all(abs(ty[n]['share'] - w / 23) < 0.01 for n, w in [('New-Order', 10), ('Payment', 10), ('Order-Status', 1), ('Delivery', 1), ('Stock-Level', 1)])))")"
check_eq "mix minimums and p90 limits met" True "$(j "print(p['tpcc']['all_limits_met'])")"
check_eq "only New-Order rolls back" 0 "$(j "print(sum(t['rollbacks'] for n, t in ty.items() if n != 'New-Order'))")"
no=$(j "print(ty['New-Order']['count'])"); rb=$(j "print(ty['New-Order']['rollbacks'])")
# committed New-Orders = new ORDER rows, with those that ended after the
# measurement closed (tpcc.server_count_late), and up to the transactions
# abandoned at the end (committed without their answer reaching oltp)
orders=$(q "SELECT COUNT(*) FROM orders WHERE o_id > 3000")
late=$(j "print(p['tpcc']['server_count_late'])")
ab=$(j "print(p['after_end']['abandoned'])")
check_eq "server's new orders = committed New-Orders + $late after the end (+ up to $ab abandoned)" 1 \
  "$(py "print(int(0 <= $orders - ($no - $rb) - $late <= $ab))")"
# NOPM: New-Orders the server committed during the phase, from SUM(D_NEXT_O_ID)
read -r srv margin <<<"$(j "print(p['tpcc']['server_count'], p['tpcc']['server_count_margin'])")"
check_contains "text report has NOPM beside tpmC" "NOPM (server's count):" "$(cat "$T/run")"
check_eq "JSON: tpcc.NOPM = server_count per minute" 1 "$(j "print(int(abs(p['tpcc']['NOPM'] - $srv * 60 / p['duration_s']) < 1e-6))")"
check_eq "NOPM's count $srv = committed New-Orders $((no - rb)) (within $margin in flight)" "4 1" \
  "$margin $(py "print(int(abs($srv - ($no - $rb)) <= $margin))")"
check_eq "NOPM's count $srv + $late committed after the end = the server's new orders" \
  "$orders" "$((srv + late))"
check_eq "1% of New-Orders roll back (+-4 sd, n=$no, rollbacks=$rb)" 1 "$(py "import math; n=$no; print(int(n > 500 and abs($rb - n*0.01) < 4*math.sqrt(n*0.01*0.99)))")"
read -r lines remote <<<"$(q "SELECT COUNT(*), SUM(ol_supply_w_id <> ol_w_id) FROM order_line WHERE ol_o_id > 3000")"
check_eq "1% of order lines from a remote warehouse (+-4 sd, $remote of $lines)" 1 "$(py "import math; n=$lines; print(int(n > 5000 and abs($remote - n*0.01) < 4*math.sqrt(n*0.01*0.99)))")"
read -r pays rpays <<<"$(q "SELECT COUNT(*), SUM(h_c_w_id <> h_w_id) FROM history WHERE h_date > (SELECT MAX(c_since) FROM customer)")"
# payments committed after the end are among after_end.committed (all types)
read -r after ab <<<"$(j "print(p['after_end']['committed'], p['after_end']['abandoned'])")"
check_eq "server's payments = JSON's (+ at most the $after committed after the end and $ab abandoned)" 1 \
  "$(py "print(int(0 <= $pays - $(j "print(ty['Payment']['count'])") <= $after + $ab))")"
check_eq "15% of payments for a remote customer (+-4 sd, $rpays of $pays)" 1 "$(py "import math; n=$pays; print(int(n > 500 and abs($rpays - n*0.15) < 4*math.sqrt(n*0.15*0.85)))")"
$OLTP tpcc check >"$T/out" 2>&1
check_eq "check after the run exits 0" 0 $?
check_contains "check after the run: all hold" "All consistency conditions hold" "$(cat "$T/out")"

# --- keying and think times: 20 terminals on 2 connections ----------------------
$OLTP --keying-thinking --time-scale=0.01 --connections=2 --time=30 --json="$T/kt.json" tpcc run >"$T/kt" 2>&1
check_eq "keying/think run exits 0" 0 $?
check_contains "20 terminals (10 per warehouse) on 2 connections" "20 terminals on 2 connections" "$(cat "$T/kt")"
# per terminal: one transaction per (mean keying + think) x 0.01 + mean
# response time, keying and think (5.2.5) weighted by the mix the run
# completed (a short window holds partly drawn decks)
rate=$(py "import json; p=json.load(open('$T/kt.json'))['phases'][-1]; print(p['tps'] / 20)")
theory=$(py "import json, math
p = json.load(open('$T/kt.json'))['phases'][-1]
mix = [t['share'] for t in p['transaction_types']]
pause = sum(m * (k + th * (1 - math.exp(-10))) for m, k, th in zip(mix, [18, 3, 2, 2, 2], [12, 12, 10, 5, 5])) * 0.01
print(1 / (pause + p['latency_ms']['avg'] / 1000))")
check_eq "one terminal's rate $rate/s within 6% of theory $theory/s" 1 "$(py "print(int(abs($rate/$theory - 1) < 0.06))")"
$OLTP tpcc check >"$T/out" 2>&1
check_eq "check after the keying/think run exits 0" 0 $?

# --- prepare: the same rows whatever the path and --threads ----------------------
# CHECKSUM TABLE of the nine tables of 1 warehouse after a bulk load
# (LOAD DATA LOCAL INFILE) at 1 and 3 threads and a multi-row INSERT load
# at 2; the load date (now) is set to one value first.
tpcc_sums() {
  q "UPDATE customer SET c_since = '2000-01-01'; UPDATE history SET h_date = '2000-01-01';
     UPDATE orders SET o_entry_d = '2000-01-01';
     UPDATE order_line SET ol_delivery_d = '2000-01-01' WHERE ol_delivery_d IS NOT NULL;
     CHECKSUM TABLE warehouse, district, customer, history, new_order, orders, order_line, item, stock" |
    awk '{printf "%s ", $2}'
}
tpcc_load() {
  $OLTP tpcc cleanup >/dev/null 2>&1
  $OLTP --warehouses=1 --rand-seed=11 "$@" tpcc prepare >"$T/out" 2>&1 || { echo "prepare $*: failed: $(tail -3 "$T/out")"; return; }
  tpcc_sums
}
want=$(tpcc_load --bulk=off --threads=2)
check_eq "9 checksums" 9 "$(echo $want | wc -w)"
check_eq "LOAD DATA, 1 thread: the rows of INSERTs" "$want" "$(tpcc_load --bulk=on --threads=1)"
check_eq "LOAD DATA, 3 threads: the same rows" "$want" "$(tpcc_load --bulk=on --threads=3)"
check_contains "the bulk path says so" "(bulk path)" "$(cat "$T/out")"
$OLTP --warehouses=1 tpcc check >"$T/out" 2>&1
check_eq "check after a bulk load exits 0" 0 $?

# --- cleanup -------------------------------------------------------------------
$OLTP tpcc cleanup >"$T/out" 2>&1
check_eq "cleanup exits 0" 0 $?
check_eq "no table left" 0 "$(q "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'sbtest'")"
check_summary
