#!/usr/bin/env bash
# Integration tests of `oltp tpcc --tpcc-compat=spec|hammerdb` on a real
# MariaDB and a real PostgreSQL started here, 1 warehouse, one terminal
# (no conflicts, so every count is exact):
#
#  - the tables' character set and collation are the pinned ones;
#  - prepare loads 10 % (spec) or 50 % (hammerdb) bad-credit customers;
#  - after a run (client-side statements, or procedures), the writes are
#    the mode's:
#    spec keeps S_YTD, C_PAYMENT_CNT, C_DELIVERY_CNT up to date and
#    subtracts a payment from C_BALANCE; hammerdb leaves them as loaded
#    and adds the payment on MariaDB (subtracts on PostgreSQL), as
#    HammerDB's procedures do; `tpcc check` passes in both modes;
#  - with procedures, the statements a transaction sends: one CALL (spec;
#    hammerdb on PostgreSQL), HammerDB's SET + CALL + SELECT on MariaDB
#    (3, 3, 3, 1, 2 for the five types), counted by the client and by the
#    server's general log;
#  - the report names the mode; a bad mode is refused with one line, exit 2;
#  - a run in another mode than the data was prepared in (spec data,
#    hammerdb run and the reverse; statements and procedures) is refused
#    before it starts: one line naming both modes, the evidence and what
#    to do, exit 2, nothing printed on stdout, no JSON, no transaction on
#    the server; the data's own mode still runs; data whose district 1 has
#    no customers is refused too (the mode cannot be told).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/mariadb.sh
. tests/lib/postgres.sh
. tests/lib/check.sh

T=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; rm -rf "$T"' EXIT
mariadb_start || exit 1
postgres_start || exit 1
export OLTP_MYSQL_PASSWORD=sbtest OLTP_PGSQL_PASSWORD=sbtest
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
MY="$OLTP_BIN --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --warehouses=1 --rand-seed=7"
PG="$OLTP_BIN --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --warehouses=1 --rand-seed=7"
my() { mariadb_sql "USE sbtest; $1" | tr '\t' ' '; }
pg() { postgres_sql "$1" | tr '|' ' '; }
py() { python3 -c "$@"; }
# jcounts FILE: the five types' counts, New-Order rollbacks, then the
# statements the client sent (reads + writes + others) and the retries
jcounts() {
  py 'import json, sys
p = json.load(open(sys.argv[1]))["phases"][-1]; ty = p["transaction_types"]
print(" ".join(str(t["count"]) for t in ty), ty[0]["rollbacks"], p["queries"]["total"],
      sum(t["retries"] for t in ty))' "$1"
}

# writes LABEL SQLFN MODE SIGN OLTP...: prepare, 600 transactions, the
# mode's writes; SIGN is how a payment moves C_BALANCE in this mode (-1, 1)
writes() {
  local label=$1 sqlfn=$2 mode=$3 sign=$4 bc n c
  shift 4
  "$@" --tpcc-compat="$mode" --threads=2 tpcc prepare >"$T/prep" 2>&1
  check_eq "$label: prepare exits 0" 0 $?
  bc=$($sqlfn "SELECT COUNT(*) FROM customer WHERE c_credit = 'BC'")
  if [ "$mode" = spec ]; then n=3000; else n=15000; fi
  check_eq "$label: bad credit near $n of 30,000 (+-4 sd: $bc)" 1 \
    "$(py "import math; p=$n/30000; print(int(abs($bc - $n) < 4*math.sqrt(30000*p*(1-p))))")"
  "$@" --tpcc-compat="$mode" --threads=1 --time=0 --events=600 --json="$T/w.json" tpcc run >"$T/run" 2>&1
  check_eq "$label: run of 600 transactions exits 0" 0 $?
  check_contains "$label: the report names the mode" "TPC-C access pattern: $mode" "$(cat "$T/run")"
  check_eq "$label: the JSON's options name the mode" "$mode" \
    "$(py "import json; print(json.load(open('$T/w.json'))['options']['tpcc_compat'])")"
  read -r -a c <<<"$(jcounts "$T/w.json")"
  local no=${c[0]} pay=${c[1]} dl=${c[3]} rb=${c[5]}
  check_eq "$label: no retries with one terminal" 0 "${c[7]}"
  if [ "$mode" = spec ]; then
    check_eq "$label: S_YTD = quantities of the new order lines" \
      "$($sqlfn "SELECT SUM(ol_quantity) FROM order_line WHERE ol_o_id > 3000")" "$($sqlfn "SELECT SUM(s_ytd) FROM stock")"
    check_eq "$label: C_PAYMENT_CNT grew by the Payments ($pay)" "$((30000 + pay))" \
      "$($sqlfn "SELECT SUM(c_payment_cnt) FROM customer")"
    check_eq "$label: C_DELIVERY_CNT = orders delivered in the run" \
      "$($sqlfn "SELECT COUNT(*) - 21000 FROM orders WHERE o_carrier_id IS NOT NULL")" \
      "$($sqlfn "SELECT SUM(c_delivery_cnt) FROM customer")"
  else
    check_eq "$label: S_YTD, S_ORDER_CNT, S_REMOTE_CNT as loaded" "0 0 0" \
      "$($sqlfn "SELECT SUM(s_ytd), SUM(s_order_cnt), SUM(s_remote_cnt) FROM stock")"
    check_eq "$label: C_PAYMENT_CNT, C_YTD_PAYMENT, C_DELIVERY_CNT as loaded" "30000 300000.00 0" \
      "$($sqlfn "SELECT SUM(c_payment_cnt), SUM(c_ytd_payment), SUM(c_delivery_cnt) FROM customer")"
  fi
  check_eq "$label: the orders delivered ($dl Deliveries) are some" 1 \
    "$(( $($sqlfn "SELECT COUNT(*) - 21000 FROM orders WHERE o_carrier_id IS NOT NULL") > 0 ))"
  # C_BALANCE: loaded at -10.00 each; + delivered amounts, SIGN x payments
  check_eq "$label: C_BALANCE moved by the deliveries and ${sign} x the payments" 0.00 \
    "$($sqlfn "SELECT (SELECT SUM(c_balance) + 300000 FROM customer)
                      - (SELECT SUM(ol_amount) FROM order_line WHERE ol_delivery_d IS NOT NULL)
                      - ($sign) * (SELECT SUM(h_amount) - 300000 FROM history)")" 
  check_eq "$label: new orders = committed New-Orders ($no - $rb)" "$((no - rb))" \
    "$($sqlfn "SELECT COUNT(*) FROM orders WHERE o_id > 3000")"
  "$@" --tpcc-compat="$mode" tpcc check >"$T/check" 2>&1
  check_eq "$label: check exits 0" 0 $?
  check_contains "$label: all consistency conditions hold" "All consistency conditions hold" "$(cat "$T/check")"
  "$@" tpcc cleanup >/dev/null 2>&1
}

# trips LABEL SQLFN N-NO N-PY N-OS N-DL N-SL MODE OLTP...: statements per
# transaction type with procedures (the client's count)
trips() {
  local label=$1 sqlfn=$2 k=("$3" "$4" "$5" "$6" "$7") mode=$8 c want
  shift 8
  "$@" --tpcc-compat="$mode" --tpcc-procedures=on --threads=2 tpcc prepare >/dev/null 2>&1
  check_eq "$label: prepare with procedures exits 0" 0 $?
  "$@" --tpcc-compat="$mode" --tpcc-procedures=on --threads=1 --time=0 --events=300 --json="$T/p.json" \
    tpcc run >"$T/run" 2>&1
  check_eq "$label: run with procedures exits 0" 0 $?
  read -r -a c <<<"$(jcounts "$T/p.json")"
  want=$(( c[0]*k[0] + c[1]*k[1] + c[2]*k[2] + c[3]*k[3] + c[4]*k[4] ))
  check_eq "$label: statements sent = ${k[*]} per type (${c[*]:0:5})" "$want" "${c[6]}"
  "$@" --tpcc-compat="$mode" tpcc check >"$T/check" 2>&1
  check_eq "$label: check exits 0" 0 $?
  "$@" tpcc cleanup >/dev/null 2>&1
  echo "${c[*]}" >"$T/counts"
}

# --- character set and collation ---------------------------------------------------
$MY --threads=2 tpcc prepare >"$T/prep" 2>&1
check_eq "MariaDB: prepare exits 0" 0 $?
check_contains "MariaDB: prepare names the character set" "Tables' character set: utf8mb4, collation utf8mb4_bin" "$(cat "$T/prep")"
check_eq "MariaDB: every table utf8mb4_bin (9 of 9)" 9 \
  "$(my "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'sbtest' AND table_collation = 'utf8mb4_bin'")"
check_eq "MariaDB: every text column utf8mb4_bin" 0 \
  "$(my "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = 'sbtest' AND collation_name IS NOT NULL AND collation_name <> 'utf8mb4_bin'")"
$MY tpcc cleanup >/dev/null 2>&1
$PG --threads=2 tpcc prepare >"$T/prep" 2>&1
check_eq "PostgreSQL: prepare exits 0" 0 $?
check_eq "PostgreSQL: every CHAR/VARCHAR column collates \"C\" (38 of 38)" "38 38" \
  "$(pg "SELECT COUNT(*), COUNT(*) FILTER (WHERE collation_name = 'C') FROM information_schema.columns
         WHERE table_schema = 'public' AND data_type IN ('character', 'character varying')")"
$PG tpcc cleanup >/dev/null 2>&1

# --- a bad mode -----------------------------------------------------------------------
$MY --tpcc-compat=tpcc-mysql tpcc check >"$T/out" 2>"$T/err"
check_eq "bad mode: exits 2" 2 $?
check_eq "bad mode: one line" "oltp: --tpcc-compat=tpcc-mysql: give spec or hammerdb" "$(cat "$T/err")"

# --- a run in another mode than the data's -------------------------------------------
# refused LABEL SQLFN DATA RUN OLTP...: prepare in mode DATA; a run in mode
# RUN is refused before it starts; a run in mode DATA runs
refused() {
  local label=$1 sqlfn=$2 data=$3 run=$4 n bad cmp
  shift 4
  "$@" --tpcc-compat="$data" --threads=2 tpcc prepare >/dev/null 2>&1
  check_eq "$label: prepare with --tpcc-compat=$data exits 0" 0 $?
  read -r n bad <<<"$($sqlfn "SELECT COUNT(*), SUM(CASE WHEN c_credit = 'BC' THEN 1 ELSE 0 END)
                             FROM customer WHERE c_w_id = 1 AND c_d_id = 1")"
  check_eq "$label: district 1 of warehouse 1 holds 3000 customers" 3000 "$n"
  if [ "$data" = spec ]; then cmp=under; else cmp="at least"; fi
  rm -f "$T/r.json"
  "$@" --tpcc-compat="$run" --threads=1 --time=0 --events=100 --json="$T/r.json" tpcc run >"$T/out" 2>"$T/err"
  check_eq "$label: a run with --tpcc-compat=$run exits 2" 2 $?
  check_eq "$label: ... with one line naming both modes, the evidence and what to do" \
    "oltp: the database was prepared with --tpcc-compat=$data (bad credit: $bad of the 3000 customers of warehouse 1, district 1, $cmp 30 %), not --tpcc-compat=$run: run with --tpcc-compat=$data, or \`oltp tpcc cleanup\` and prepare again with --tpcc-compat=$run" \
    "$(cat "$T/err")"
  check_eq "$label: ... nothing on stdout" "" "$(cat "$T/out")"
  check_eq "$label: ... no JSON" no "$([ -e "$T/r.json" ] && echo yes || echo no)"
  check_eq "$label: ... no transaction on the server (orders, history as loaded)" "30000 30000" \
    "$($sqlfn "SELECT (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM history)")"
  "$@" --tpcc-compat="$data" --threads=1 --time=0 --events=100 tpcc run >"$T/out" 2>&1
  check_eq "$label: a run with --tpcc-compat=$data exits 0" 0 $?
  check_contains "$label: ... and reports its mode" "TPC-C access pattern: $data" "$(cat "$T/out")"
}
refused "MariaDB spec data" my spec hammerdb $MY
# no customers in district 1: nothing to judge the mode by
my "DELETE FROM customer WHERE c_w_id = 1 AND c_d_id = 1" >/dev/null
$MY --threads=1 --time=0 --events=100 tpcc run >"$T/out" 2>"$T/err"
check_eq "MariaDB no customers: a run exits 2" 2 $?
check_eq "MariaDB no customers: ... with one line" \
  "oltp: district 1 of warehouse 1 holds no customers, so the mode the data was prepared in (--tpcc-compat) cannot be told: run \`oltp tpcc cleanup\`, then prepare again" \
  "$(cat "$T/err")"
check_eq "MariaDB no customers: ... nothing on stdout" "" "$(cat "$T/out")"
$MY tpcc cleanup >/dev/null 2>&1
refused "MariaDB hammerdb data, procedures" my hammerdb spec $MY --tpcc-procedures=on
$MY tpcc cleanup >/dev/null 2>&1
refused "PostgreSQL hammerdb data" pg hammerdb spec $PG
$PG tpcc cleanup >/dev/null 2>&1
refused "PostgreSQL spec data, procedures" pg spec hammerdb $PG --tpcc-procedures=on
$PG tpcc cleanup >/dev/null 2>&1

# --- writes per mode ------------------------------------------------------------------
writes "MariaDB spec" my spec -1 $MY
writes "MariaDB hammerdb" my hammerdb 1 $MY
writes "PostgreSQL spec" pg spec -1 $PG
writes "PostgreSQL hammerdb" pg hammerdb -1 $PG
# the procedures' writes: their last parameter, hdb
writes "MariaDB hammerdb procedures" my hammerdb 1 $MY --tpcc-procedures=on
writes "PostgreSQL hammerdb procedures" pg hammerdb -1 $PG --tpcc-procedures=on
writes "PostgreSQL spec procedures" pg spec -1 $PG --tpcc-procedures=on

# --- round trips with procedures ------------------------------------------------------
mariadb_sql "SET GLOBAL general_log_file = '$MARIADB_DIR/general.log'; SET GLOBAL general_log = ON"
trips "MariaDB spec procedures" my 1 1 1 1 1 spec $MY
# executions only (a connection's Prepare is logged once besides)
hdb_log() { grep -c "Execute.*$1" "$MARIADB_DIR/general.log"; }
s0=$(hdb_log 'SET @tpcc_hdb = 0'); g0=$(hdb_log 'SELECT @tpcc_hdb')
trips "MariaDB hammerdb procedures" my 3 3 3 1 2 hammerdb $MY
read -r -a c <"$T/counts"
check_eq "MariaDB hammerdb procedures: the server logged a SET per New-Order, Payment, Order-Status" \
  "$(( c[0] + c[1] + c[2] ))" "$(( $(hdb_log 'SET @tpcc_hdb = 0') - s0 ))"
check_eq "MariaDB hammerdb procedures: ... and a SELECT per transaction but Delivery" \
  "$(( c[0] + c[1] + c[2] + c[4] ))" "$(( $(hdb_log 'SELECT @tpcc_hdb') - g0 ))"
trips "PostgreSQL hammerdb procedures" pg 1 1 1 1 1 hammerdb $PG

check_summary
