#!/usr/bin/env bash
# Integration tests of `oltp tpcc --tpcc-procedures=on` (the five
# transactions as stored procedures), NOPM and --tpcc-all-warehouses, on a
# real MariaDB and a real PostgreSQL started here, 2 warehouses each:
#
#  - prepare creates the five procedures; a run of exactly N transactions
#    (--events) calls one procedure per transaction: the calls the server
#    counted (MariaDB: Com_call_procedure in total, its general log per
#    procedure; PostgreSQL: pg_stat_user_functions with track_functions =
#    all) equal the transactions of each type the client reported, plus
#    their retries; the server's new orders equal the committed
#    (not rolled back) New-Orders; 1 % of New-Orders roll back;
#  - after the runs, `check` passes and the consistency conditions of
#    clause 3.3.2.1-4 hold when checked by the SQL written here;
#  - NOPM: over a timed run, the server's count of New-Orders (from
#    SUM(D_NEXT_O_ID)) equals the client's committed New-Orders within the
#    transactions in flight, and the orders the server holds after the run;
#  - a missing procedure is named before a run starts; cleanup drops them.
#  - --tpcc-all-warehouses: one terminal's New-Orders land in both
#    warehouses (without it, only in its own).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/mariadb.sh
. tests/lib/postgres.sh
. tests/lib/check.sh

T=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; rm -rf "$T"' EXIT
mariadb_start || exit 1
postgres_start || exit 1
postgres_sql "ALTER SYSTEM SET track_functions = 'all'" postgres >/dev/null
postgres_sql "SELECT pg_reload_conf()" postgres >/dev/null
export OLTP_MYSQL_PASSWORD=sbtest OLTP_PGSQL_PASSWORD=sbtest
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
MY="$OLTP_BIN --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --warehouses=2"
PG="$OLTP_BIN --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --warehouses=2"
PROCS="tpcc_neword tpcc_payment tpcc_ostat tpcc_delivery tpcc_slev"   # in the order of the JSON's types
my() { mariadb_sql "USE sbtest; $1" | tr '\t' ' '; }
pg() { postgres_sql "$1" | tr '|' ' '; }
py() { python3 -c "$@"; }
# jtypes FILE: the counts of the five types in spec order, their retries,
# then committed New-Orders (count - rollbacks), New-Order rollbacks, and
# the New-Order count
jtypes() {
  py 'import json, sys
p = json.load(open(sys.argv[1]))["phases"][-1]
ty = p["transaction_types"]
print(" ".join(str(t["count"]) for t in ty), " ".join(str(t["retries"]) for t in ty),
      ty[0]["count"] - ty[0]["rollbacks"], ty[0]["rollbacks"], ty[0]["count"])' "$1"
}

# Clause 3.3.2.1-4, written apart from `oltp tpcc check`: each query counts
# the warehouses (1) or districts (2-4) where the condition holds, so every
# one of them must be counted: "2 20 20 20".
conditions() {  # conditions SQLFN
  local c1 c2 c3 c4
  c1=$($1 "SELECT COUNT(*) FROM warehouse w JOIN (SELECT d_w_id, SUM(d_ytd) AS s FROM district GROUP BY d_w_id) d
            ON d.d_w_id = w.w_id WHERE w.w_ytd = d.s")
  c2=$($1 "SELECT COUNT(*) FROM district d
            JOIN (SELECT o_w_id, o_d_id, MAX(o_id) AS m FROM orders GROUP BY o_w_id, o_d_id) o
              ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
            JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS m FROM new_order GROUP BY no_w_id, no_d_id) n
              ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
            WHERE d.d_next_o_id - 1 = o.m AND o.m = n.m")
  c3=$($1 "SELECT COUNT(*) FROM (SELECT no_w_id, no_d_id FROM new_order GROUP BY no_w_id, no_d_id
            HAVING COUNT(*) = MAX(no_o_id) - MIN(no_o_id) + 1) x")
  c4=$($1 "SELECT COUNT(*) FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS s FROM orders GROUP BY o_w_id, o_d_id) a
            JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS n FROM order_line GROUP BY ol_w_id, ol_d_id) b
              ON a.o_w_id = b.ol_w_id AND a.o_d_id = b.ol_d_id WHERE a.s = b.n")
  echo "$c1 $c2 $c3 $c4"
}

# calls_my / calls_pg: procedure calls the server counted, per procedure in
# $PROCS order, then the total
calls_my() {
  local n total=0 out=""
  for p in $PROCS; do
    n=$(grep -c "Execute.*CALL $p(" "$MARIADB_DIR/general.log")
    out="$out$n "; total=$((total + n))
  done
  echo "$out$(mariadb_sql "SHOW GLOBAL STATUS LIKE 'Com_call_procedure'" | cut -f2)"
}
calls_pg() {
  local out=""
  for p in $PROCS; do
    out="$out$(postgres_sql "SELECT COALESCE(SUM(calls), 0) FROM pg_stat_user_functions WHERE funcname = '$p'") "
  done
  echo "${out% }"
}

# suite LABEL SQLFN CALLSFN FAILED_CALLS OLTP...
#   FAILED_CALLS: 1 when the server counts a call that failed (a deadlock
#   the engine retried): MariaDB counts it as it starts, PostgreSQL only
#   the calls that returned
suite() {
  local label=$1 sqlfn=$2 callsfn=$3 failed_calls=$4 before after orders0 orders1 committed rb count
  local -a types b a procs=($PROCS)
  shift 4
  "$@" --threads=2 --tpcc-procedures=on tpcc prepare >"$T/prep" 2>&1
  check_eq "$label: prepare with procedures exits 0" 0 $?
  check_contains "$label: prepare creates the procedures" "Creating procedure 'tpcc_slev'" "$(cat "$T/prep")"

  # --- exactly 2,000 transactions: calls counted by the server -------------------
  before=$($callsfn)
  orders0=$($sqlfn "SELECT COUNT(*) FROM orders")
  "$@" --tpcc-procedures=on --threads=4 --time=0 --events=2000 --json="$T/ev.json" tpcc run >"$T/ev" 2>&1
  check_eq "$label: run of 2,000 transactions with procedures exits 0" 0 $?
  sleep 1   # PostgreSQL publishes a backend's function counts when it ends
  after=$($callsfn)
  read -r -a types <<<"$(jtypes "$T/ev.json")"
  committed=${types[10]}; rb=${types[11]}; count=${types[12]}
  check_eq "$label: the client ran 2,000 transactions" 2000 \
    "$(py "import json; print(json.load(open('$T/ev.json'))['phases'][-1]['transactions'])")"
  read -r -a b <<<"$before"; read -r -a a <<<"$after"
  for i in 0 1 2 3 4; do
    check_eq "$label: server's calls of ${procs[$i]} = the client's transactions of its type (${types[$i]} + ${types[$((i + 5))]} retried)" \
      "$(( types[i] + failed_calls * types[i + 5] ))" "$(( a[i] - b[i] ))"
  done
  if [ "${#a[@]}" -gt 5 ]; then
    check_eq "$label: Com_call_procedure grew by the transactions run (+ retries)" \
      "$(( types[0] + types[1] + types[2] + types[3] + types[4] + types[5] + types[6] + types[7] + types[8] + types[9] ))" \
      "$(( a[5] - b[5] ))"
  fi
  orders1=$($sqlfn "SELECT COUNT(*) FROM orders")
  check_eq "$label: the server's new orders = committed New-Orders ($count - $rb rolled back)" \
    "$committed" "$((orders1 - orders0))"
  check_eq "$label: 1% of New-Orders roll back (+-4 sd, $rb of $count)" 1 \
    "$(py "import math; n=$count; print(int(n > 500 and abs($rb - n*0.01) < 4*math.sqrt(n*0.01*0.99)))")"
  check_eq "$label: every order line of a rolled back New-Order is gone too" 0 \
    "$($sqlfn "SELECT COUNT(*) FROM order_line l LEFT JOIN orders o ON o.o_w_id = l.ol_w_id AND o.o_d_id = l.ol_d_id AND o.o_id = l.ol_o_id WHERE o.o_id IS NULL")"

  # --- NOPM over a timed run ---------------------------------------------------------
  orders0=$($sqlfn "SELECT COUNT(*) FROM orders")
  "$@" --tpcc-procedures=on --threads=4 --time=6 --json="$T/t.json" tpcc run >"$T/t" 2>&1
  check_eq "$label: timed run with procedures exits 0" 0 $?
  orders1=$($sqlfn "SELECT COUNT(*) FROM orders")
  check_contains "$label: the text report shows NOPM beside tpmC" "NOPM (server's count):" "$(cat "$T/t")"
  check_eq "$label: no warning about the server's count" "" "$(grep 'warning: the server counted' "$T/t")"
  read -r srv margin late nopm dur <<<"$(py "import json; p=json.load(open('$T/t.json'))['phases'][-1]
print(p['tpcc']['server_count'], p['tpcc']['server_count_margin'], p['tpcc']['server_count_late'], p['tpcc']['NOPM'], p['duration_s'])")"
  read -r -a types <<<"$(jtypes "$T/t.json")"
  committed=${types[10]}
  check_eq "$label: JSON NOPM = server_count per minute" 1 "$(py "print(int(abs($nopm - $srv * 60 / $dur) < 1e-6))")"
  check_eq "$label: in-flight margin = 4 connections" 4 "$margin"
  check_eq "$label: NOPM's count $srv = committed New-Orders $committed (within 4 in flight)" 1 \
    "$(( srv - committed <= 4 && committed - srv <= 4 ))"
  check_eq "$label: orders the server added = NOPM's count $srv + $late committed after the end" \
    "$((orders1 - orders0))" "$((srv + late))"

  # --- consistency --------------------------------------------------------------------
  "$@" tpcc check >"$T/check" 2>&1
  check_eq "$label: check after the procedure runs exits 0" 0 $?
  check_eq "$label: clause 3.3.2.1-4 hold (SQL of this test)" "2 20 20 20" "$(conditions "$sqlfn")"

  # --- a missing procedure, cleanup --------------------------------------------------
  $sqlfn "DROP PROCEDURE tpcc_slev" >/dev/null
  "$@" --tpcc-procedures=on --time=1 tpcc run >"$T/out" 2>"$T/err"
  check_eq "$label: run with a procedure missing exits 2" 2 $?
  check_contains "$label: ... and names it" "procedure tpcc_slev is missing" "$(cat "$T/err")"
  "$@" tpcc cleanup >"$T/out" 2>&1
  check_eq "$label: cleanup exits 0" 0 $?
}

# --- MariaDB -------------------------------------------------------------------------
mariadb_sql "SET GLOBAL general_log_file = '$MARIADB_DIR/general.log'; SET GLOBAL general_log = ON"
suite MariaDB my calls_my 1 $MY
check_eq "MariaDB: cleanup drops the procedures" 0 \
  "$(my "SELECT COUNT(*) FROM information_schema.routines WHERE routine_schema = 'sbtest'")"
check_eq "MariaDB: cleanup drops the tables" 0 \
  "$(my "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'sbtest'")"

# --- PostgreSQL ---------------------------------------------------------------------
suite PostgreSQL pg calls_pg 0 $PG
check_eq "PostgreSQL: cleanup drops the procedures" 0 \
  "$(pg "SELECT COUNT(*) FROM pg_proc WHERE proname LIKE 'tpcc%'")"

# --- --tpcc-all-warehouses (client-side statements, MariaDB) ------------------------
$MY --threads=2 tpcc prepare >/dev/null 2>&1
check_eq "all-warehouses: prepare exits 0" 0 $?
$MY --threads=1 --time=0 --events=300 tpcc run >"$T/out" 2>&1
check_eq "one terminal, own warehouse: run exits 0" 0 $?
check_eq "one terminal, own warehouse: its New-Orders all in warehouse 1" 0 \
  "$(my "SELECT COUNT(*) FROM orders WHERE o_id > 3000 AND o_w_id = 2")"
before=$(my "SELECT COUNT(*) FROM orders WHERE o_id > 3000 AND o_w_id = 1")
$MY --threads=1 --time=0 --events=300 --tpcc-all-warehouses=on tpcc run >"$T/out" 2>&1
check_eq "one terminal, all warehouses: run exits 0" 0 $?
read -r w1 w2 <<<"$(my "SELECT SUM(o_w_id = 1) - $before, SUM(o_w_id = 2) FROM orders WHERE o_id > 3000")"
check_eq "one terminal, all warehouses: New-Orders in both, half each (+-4 sd, $w1 and $w2)" 1 \
  "$(py "import math; n=$w1 + $w2; print(int(n > 80 and abs($w1 - n/2) < 4*math.sqrt(n/4)))")"
$MY tpcc check >"$T/out" 2>&1
check_eq "all-warehouses: check exits 0" 0 $?
$MY tpcc cleanup >/dev/null 2>&1

check_summary
