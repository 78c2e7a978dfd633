# tests/lib/tpcc_roundtrip.sh — TPC-C on one more server, for the driver tests.
#
# tpcc_roundtrip LABEL SQLFN OLTP-COMMAND...
#   prepare 1 warehouse, exact row counts, `check`, a 6-s run whose committed
#   New-Orders and Payments the server holds, `check` again, cleanup.
#   SQLFN runs one SQL statement on the server and prints the value; $T is a
#   scratch directory; assertions come from tests/lib/check.sh. When the
#   caller defines tpcc_run_mark and tpcc_run_check LABEL JSON, they run
#   before and after the run; tpcc_prepare_check LABEL, after prepare's row
#   counts (prepare's output in $T/tpcc).
tpcc_roundtrip() {
  local label=$1 sqlfn=$2 rows t no rb pay orders pays
  shift 2
  "$@" --threads=2 tpcc prepare >"$T/tpcc" 2>&1
  check_eq "$label: tpcc prepare exits 0" 0 $?
  rows=$(for t in warehouse district customer history orders new_order item stock; do $sqlfn "SELECT COUNT(*) FROM $t"; done | tr '\n' ' ')
  check_eq "$label: tpcc rows of warehouse .. stock" "1 10 30000 30000 30000 9000 100000 100000 " "$rows"
  check_eq "$label: order lines = sum of O_OL_CNT" "$($sqlfn 'SELECT SUM(o_ol_cnt) FROM orders')" "$($sqlfn 'SELECT COUNT(*) FROM order_line')"
  if type tpcc_prepare_check >/dev/null 2>&1; then tpcc_prepare_check "$label"; fi
  "$@" tpcc check >"$T/tpcc" 2>&1
  check_eq "$label: tpcc check after prepare exits 0" 0 $?
  # optional hooks of the caller around the run (the server's counters)
  if type tpcc_run_mark >/dev/null 2>&1; then tpcc_run_mark; fi
  "$@" --threads=4 --time=6 --json="$T/tpcc.json" tpcc run >"$T/tpcc" 2>&1
  check_eq "$label: tpcc run exits 0" 0 $?
  if type tpcc_run_check >/dev/null 2>&1; then tpcc_run_check "$label" "$T/tpcc.json"; fi
  read -r no rb pay late after lost <<<"$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["phases"][-1]; ty = {t["name"]: t for t in p["transaction_types"]}
a = p["after_end"]
print(ty["New-Order"]["count"], ty["New-Order"]["rollbacks"], ty["Payment"]["count"],
      p["tpcc"].get("server_count_late", -1), a["committed"], a["abandoned"])' "$T/tpcc.json")"
  orders=$($sqlfn "SELECT COUNT(*) FROM orders WHERE o_id > 3000")
  pays=$(( $($sqlfn "SELECT COUNT(*) FROM history") - 30000 ))
  # the server also holds what committed after the measurement closed:
  # New-Orders exactly (server_count_late), Payments among the other
  # transactions committed after the end; a transaction abandoned in
  # flight (no answer came) may have committed or not
  check_eq "$label: new orders on the server = committed New-Orders, after the end too ($orders, $no - $rb + $late, $lost abandoned)" 1 \
    "$(( late >= 0 && orders - (no - rb + late) >= 0 && orders - (no - rb + late) <= lost ))"
  check_eq "$label: payments on the server = Payments, after the end too ($pays, $pay + at most $((after - late)) + $lost)" 1 \
    "$(( pays >= pay && pays - pay <= after - late + lost ))"
  "$@" tpcc check >"$T/tpcc" 2>&1
  check_eq "$label: tpcc check after the run exits 0" 0 $?
  check_contains "$label: all consistency conditions hold" "All consistency conditions hold" "$(cat "$T/tpcc")"
  "$@" tpcc cleanup >"$T/tpcc" 2>&1
  check_eq "$label: tpcc cleanup exits 0" 0 $?
}

# tpcc_keys_after_load [CLUSTERED]: after a prepare with
# --tpcc-keys-after-load=on (its output in $T/tpcc), "8 1" when the 8
# primary keys were added (with that word: T-SQL's), the first after the
# load began.
tpcc_keys_after_load() {
  echo "$(grep -c "^Adding the primary key: ALTER TABLE [a-z_]* ADD CONSTRAINT [a-z_]*_pkey PRIMARY KEY ${1:+$1 }(" "$T/tpcc") $(( $(grep -n '^Adding the primary key' "$T/tpcc" | head -1 | cut -d: -f1) > $(grep -n '^Loading 1 warehouse' "$T/tpcc" | cut -d: -f1) ))"
}

# Every index of TPC-C's tables as PostgreSQL's catalog has them (tables
# in schema $1), "table:pk(cols)" or "table:ix(cols)": what
# tpcc_pg_index_sql's query prints after prepare.
TPCC_PG_INDEXES="customer:pk(c_w_id,c_d_id,c_id) customer:ix(c_w_id,c_d_id,c_last,c_first) district:pk(d_w_id,d_id) item:pk(i_id) new_order:pk(no_w_id,no_d_id,no_o_id) order_line:pk(ol_w_id,ol_d_id,ol_o_id,ol_number) orders:pk(o_w_id,o_d_id,o_id) orders:ix(o_w_id,o_d_id,o_c_id,o_id) stock:pk(s_w_id,s_i_id) warehouse:pk(w_id)"
tpcc_pg_index_sql() {
  echo "SELECT string_agg(c.relname || ':' || CASE WHEN x.indisprimary THEN 'pk' ELSE 'ix' END || '(' ||
    (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum) || ')', ' ' ORDER BY c.relname, NOT x.indisprimary)
    FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_namespace s ON s.oid = c.relnamespace
    WHERE s.nspname = '$1'"
}
