#!/usr/bin/env bash
# Integration tests of bin/oltp against a real MariaDB started here: prepare
# row counts, statement-count parity with sysbench for every workload (from
# the server's own counters), the JSON result, retries on lock waits and
# deadlocks, reconnects after KILL CONNECTION, --rate, --events, cleanup,
# and the error messages of bad input.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/mariadb.sh
. tests/lib/check.sh

mariadb_start || exit 1
trap 'mariadb_stop' EXIT
export OLTP_MYSQL_PASSWORD=sbtest
CONN="--mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest"
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
OLTP="$OLTP_BIN $CONN"
SB="sysbench --db-driver=mysql $CONN --mysql-password=sbtest"
T=$(mktemp -d); trap 'mariadb_stop; rm -rf "$T"' EXIT

counters() {
  mariadb_sql "SHOW GLOBAL STATUS WHERE Variable_name IN
    ('Com_select','Com_update','Com_insert','Com_delete','Com_begin','Com_commit','Com_rollback')" |
    sort | awk '{printf "%s=%s ", $1, $2}'
}
delta() {  # delta "BEFORE" "AFTER" -> "Com_begin=N ..."
  python3 -c 'import sys
b=dict(x.split("=") for x in sys.argv[1].split()); a=dict(x.split("=") for x in sys.argv[2].split())
print(" ".join(f"{k}={int(a[k])-int(b[k])}" for k in sorted(a)))' "$1" "$2"
}
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# --- run before prepare: the missing table is named ---------------------------
$OLTP --tables=2 --table-size=1000 --time=1 oltp_read_write run >"$T/out" 2>"$T/err"
check_eq "run before prepare exits 2" 2 $?
check_eq "run before prepare names the table and the command" \
  'oltp: table sbtest1 is missing: run `oltp oltp_read_write --tables=2 --table-size=1000 prepare` first' "$(cat "$T/err")"

# --- prepare ------------------------------------------------------------------
$OLTP --tables=2 --table-size=1000 --threads=2 oltp_read_write prepare >"$T/out" 2>&1
check_eq "prepare exits 0" 0 $?
check_eq "sbtest1 rows" 1000 "$(mariadb_sql 'SELECT COUNT(*) FROM sbtest.sbtest1')"
check_eq "sbtest2 rows" 1000 "$(mariadb_sql 'SELECT COUNT(*) FROM sbtest.sbtest2')"
check_eq "secondary index k_2 on k" "k_2 k" "$(mariadb_sql "SELECT index_name, column_name FROM information_schema.statistics WHERE table_schema='sbtest' AND table_name='sbtest2' AND index_name<>'PRIMARY'" | tr '\t' ' ')"
check_eq "c is 119 characters of digit groups" 1000 "$(mariadb_sql "SELECT COUNT(*) FROM sbtest.sbtest1 WHERE c REGEXP '^([0-9]{11}-){9}[0-9]{11}\$' AND pad REGEXP '^([0-9]{11}-){4}[0-9]{11}\$'")"
$OLTP --tables=2 --table-size=1000 oltp_read_write prepare >"$T/out" 2>"$T/err"
check_eq "prepare over existing tables exits 2" 2 $?
check_contains "prepare over existing tables says to clean up" 'table sbtest1 already exists: run `oltp oltp_read_write cleanup` first' "$(cat "$T/err")"

# --- statement-count parity with sysbench, per workload -----------------------
# in both personalities (bin/oltp, and bin/oltp run as `sysbench` through a
# link), and with --db-ps-mode=disable (the same statements as text
# queries: no Com_stmt_execute), each against sysbench's own counts
ln -s "$(realpath "$OLTP_BIN")" "$T/sysbench"
counters_ps() {
  mariadb_sql "SHOW GLOBAL STATUS WHERE Variable_name IN
    ('Com_select','Com_update','Com_insert','Com_delete','Com_begin','Com_commit','Com_rollback',
     'Com_stmt_execute')" | sort | awk '{printf "%s=%s ", $1, $2}'
}
declare -A expect=(
  [oltp_read_write]="Com_begin=50 Com_commit=50 Com_delete=50 Com_insert=50 Com_rollback=0 Com_select=700 Com_stmt_execute=1000 Com_update=100"
  [oltp_read_only]="Com_begin=50 Com_commit=50 Com_delete=0 Com_insert=0 Com_rollback=0 Com_select=700 Com_stmt_execute=800 Com_update=0"
  [oltp_write_only]="Com_begin=50 Com_commit=50 Com_delete=50 Com_insert=50 Com_rollback=0 Com_select=0 Com_stmt_execute=300 Com_update=100"
  [oltp_point_select]="Com_begin=0 Com_commit=0 Com_delete=0 Com_insert=0 Com_rollback=0 Com_select=50 Com_stmt_execute=50 Com_update=0"
  [oltp_update_index]="Com_begin=0 Com_commit=0 Com_delete=0 Com_insert=0 Com_rollback=0 Com_select=0 Com_stmt_execute=50 Com_update=50"
  [oltp_update_non_index]="Com_begin=0 Com_commit=0 Com_delete=0 Com_insert=0 Com_rollback=0 Com_select=0 Com_stmt_execute=50 Com_update=50"
  [oltp_insert]="Com_begin=0 Com_commit=0 Com_delete=0 Com_insert=50 Com_rollback=0 Com_select=0 Com_stmt_execute=0 Com_update=0"
  [oltp_delete]="Com_begin=0 Com_commit=0 Com_delete=50 Com_insert=0 Com_rollback=0 Com_select=0 Com_stmt_execute=50 Com_update=0"
)
for w in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index \
         oltp_update_non_index oltp_insert oltp_delete; do
  for ps in auto disable; do
    want=${expect[$w]}
    [ $ps = disable ] && want=$(sed 's/Com_stmt_execute=[0-9]*/Com_stmt_execute=0/' <<<"$want")
    args="--tables=2 --table-size=1000 --threads=1 --events=50 --time=0 --db-ps-mode=$ps $w run"
    b=$(counters_ps); $SB $args >"$T/sb" 2>&1; rc=$?; a=$(counters_ps)
    check_eq "$w, ps-mode $ps: sysbench ran" 0 $rc
    check_eq "$w, ps-mode $ps: sysbench statement counts for 50 transactions" "$want" "$(delta "$b" "$a")"
    for bin in "$OLTP_BIN" "$T/sysbench"; do
      b=$(counters_ps); $bin $CONN $args >"$T/ol" 2>&1; rc=$?; a=$(counters_ps)
      check_eq "$w, ps-mode $ps, as $(basename "$bin"): ran" 0 $rc
      check_eq "$w, ps-mode $ps, as $(basename "$bin"): statement counts equal sysbench's" "$want" "$(delta "$b" "$a")"
    done
  done
done
# the same with --skip-trx and non-default counts
b=$(counters); $OLTP --tables=2 --table-size=1000 --events=10 --time=0 --skip-trx --point-selects=3 \
  --range-selects=off --delete-inserts=2 oltp_read_write run >/dev/null 2>&1; a=$(counters)
check_eq "--skip-trx --point-selects=3 --range-selects=off --delete-inserts=2" \
  "Com_begin=0 Com_commit=0 Com_delete=20 Com_insert=20 Com_rollback=0 Com_select=30 Com_update=20" "$(delta "$b" "$a")"

# --- the JSON result ----------------------------------------------------------
$OLTP --tables=2 --table-size=1000 --threads=1 --time=4 --warmup-time=1 --report-interval=1 \
  --percentile=50,99.9 --json="$T/r.json" oltp_read_write run >"$T/out" 2>&1
check_eq "timed run with warm-up exits 0" 0 $?
check_eq "schema" "drivebench.oltp/2.1" "$(jq_ "$T/r.json" 'd["schema"]')"
check_eq "phases" "['warmup', 'measure']" "$(jq_ "$T/r.json" '[p["name"] for p in d["phases"]]')"
check_eq "transactions = histogram count" True "$(jq_ "$T/r.json" 'all(p["transactions"]==p["histogram"]["count"]>0 for p in d["phases"])')"
check_eq "20 queries per read/write transaction" True "$(jq_ "$T/r.json" 'all(p["queries"]["total"]==20*p["transactions"] for p in d["phases"])')"
check_eq "latency keys" "['avg', 'max', 'min', 'p50', 'p95', 'p99', 'p99.9']" "$(jq_ "$T/r.json" 'sorted(d["phases"][1]["latency_ms"])')"
check_eq "min <= p50 <= p99 <= p99.9 <= max" True "$(jq_ "$T/r.json" '(lambda l: l["min"]<=l["p50"]<=l["p99"]<=l["p99.9"]<=l["max"])(d["phases"][1]["latency_ms"])')"
check_eq "measure lasts 3 s" True "$(jq_ "$T/r.json" 'abs(d["phases"][1]["duration_s"]-3)<0.2')"
check_eq "3 interval samples in the measure phase" 3 "$(jq_ "$T/r.json" 'len(d["phases"][1]["intervals"])')"
check_eq "tps = transactions / duration" True "$(jq_ "$T/r.json" '(lambda p: abs(p["tps"]-p["transactions"]/p["duration_s"])<1e-6)(d["phases"][1])')"
check_eq "password is not written" False "$(jq_ "$T/r.json" '"mysql_password" in d["options"]')"
check_eq "interval lines printed" 4 "$(grep -c '^\[ [0-9]*s \] thds: 1 tps: ' "$T/out")"
check_contains "final report" "99.9th percentile:" "$(cat "$T/out")"
# time, not index: the phases last what was asked (warm-up 1 s, then 3 s
# measured, --time being both), every interval ends on a boundary k * 1 s
# of its phase and they tile it; each carries its sparse histogram
check_eq "warm-up lasts exactly 1 s, measure exactly 3 s" "1.0 3.0" \
  "$(jq_ "$T/r.json" '" ".join("%.1f" % p["duration_s"] for p in d["phases"]) if all(abs(p["duration_s"]-round(p["duration_s"]))<1e-6 for p in d["phases"]) else d["phases"]')"
check_eq "measure starts 1 s after the warm-up" True \
  "$(jq_ "$T/r.json" 'abs(d["phases"][1]["start_s"]-d["phases"][0]["start_s"]-1)<1e-6 and d["phases"][0]["start_s"]>0')"
check_eq "interval_s is the report interval" "[1.0, 1.0]" "$(jq_ "$T/r.json" '[p["interval_s"] for p in d["phases"]]')"
check_eq "measure intervals end at 1, 2, 3 s and last 1 s each" "[(1.0, 1.0), (2.0, 1.0), (3.0, 1.0)]" \
  "$(jq_ "$T/r.json" '[(round(i["t"],9), round(i["duration_s"],9)) for i in d["phases"][1]["intervals"]]')"
check_eq "interval histograms: 2 digits, counts = tps * duration" True \
  "$(jq_ "$T/r.json" 'all(i["histogram"]["significant_digits"]==2 and i["histogram"]["count"]==round(i["tps"]*i["duration_s"]) for p in d["phases"] for i in p["intervals"])')"
check_eq "interval histograms add up to the phase's transactions" True \
  "$(jq_ "$T/r.json" 'all(sum(i["histogram"]["count"] for i in p["intervals"])==p["transactions"] for p in d["phases"])')"
check_eq "interval histograms' buckets: one VALUE:COUNT string, values ascending, counts = count (oltp/2)" True \
  "$(jq_ "$T/r.json" 'all(isinstance(i["histogram"]["buckets"], str) and (lambda b: [v for v, c in b] == sorted(set(v for v, c in b)) and sum(c for v, c in b) == i["histogram"]["count"])([tuple(map(int, x.split(":"))) for x in i["histogram"]["buckets"].split(" ")]) for p in d["phases"] for i in p["intervals"])')"

# a stalled tick: oltp stopped for 2.5 s; the interval the main thread
# closes when it wakes ends on the last boundary it reached and is longer,
# never a tiny one; the intervals still tile the phase
$OLTP --tables=2 --table-size=1000 --threads=1 --time=8 --report-interval=1 \
  --json="$T/st.json" oltp_read_only run >"$T/out" 2>&1 &
pid=$!
sleep 2.3; kill -STOP $pid; sleep 2.5; kill -CONT $pid
wait $pid
check_eq "stopped and continued run exits 0" 0 $?
check_eq "stalled run: every interval ends on a whole second" True \
  "$(jq_ "$T/st.json" 'all(abs(i["t"]-round(i["t"]))<1e-6 for i in d["phases"][0]["intervals"])')"
check_eq "stalled run: one interval of 3 s (or 2 s), none shorter than 1 s" True \
  "$(jq_ "$T/st.json" '(lambda ds: sorted(ds)[-1] in (2.0, 3.0) and sorted(ds)[-2]==1.0 and min(ds)==1.0)([round(i["duration_s"],6) for i in d["phases"][0]["intervals"]])')"
check_eq "stalled run: the intervals tile the 8 s" True \
  "$(jq_ "$T/st.json" 'abs(sum(i["duration_s"] for i in d["phases"][0]["intervals"])-8)<1e-6 and abs(d["phases"][0]["duration_s"]-8)<1e-6')"

# --- the database's size, as the server reports it -----------------------------
# a read-only run changes no table, so the sizes oltp read before and after it
# are the server's now: information_schema.tables' data + index bytes of the
# schema, once InnoDB's statistics are recomputed as oltp has them recomputed,
# and the redo log file (--innodb-log-file-size=64M in tests/lib)
mariadb_sql "ANALYZE TABLE sbtest.sbtest1, sbtest.sbtest2" >/dev/null
is_bytes=$(mariadb_sql "SELECT SUM(data_length + index_length) FROM information_schema.tables WHERE table_schema='sbtest'")
$OLTP --tables=2 --table-size=1000 --threads=1 --events=20 --time=0 --json="$T/size.json" oltp_read_only run >"$T/out" 2>&1
check_eq "size: read-only run exits 0" 0 $?
check_eq "size: the JSON's data bytes before and after = information_schema.tables" "$is_bytes $is_bytes" \
  "$(jq_ "$T/size.json" 'd["database_size"]["start"]["data_bytes"], d["database_size"]["end"]["data_bytes"]' | tr -d '(),')"
check_eq "size: the JSON's log bytes = innodb_log_file_size" "67108864 67108864" \
  "$(jq_ "$T/size.json" 'd["database_size"]["start"]["log_bytes"], d["database_size"]["end"]["log_bytes"]' | tr -d '(),')"
check_eq "size: the same bytes in the text report" \
  "$(python3 -c "import sys; d=int(sys.argv[1]); m=1<<20; print('database size (after the run): %.1f MiB (data %.1f MiB, log 64.0 MiB)' % ((d+64*m)/m, d/m))" "$is_bytes")" \
  "$(grep '^database size (after the run)' "$T/out")"
check_eq "size: the server has the same figure after the run" "$is_bytes" \
  "$(mariadb_sql "SELECT SUM(data_length + index_length) FROM information_schema.tables WHERE table_schema='sbtest'")"

# --- --events is exact; --rate is open loop -----------------------------------
$OLTP --tables=2 --table-size=1000 --threads=3 --events=101 --time=0 --json="$T/e.json" oltp_point_select run >/dev/null 2>&1
check_eq "--events=101 runs exactly 101 transactions" 101 "$(jq_ "$T/e.json" 'd["phases"][-1]["transactions"]')"
timeout 30 $OLTP --tables=2 --table-size=1000 --threads=4 --events=50 --time=0 --rate=100 \
  --json="$T/er.json" oltp_point_select run >/dev/null 2>&1
check_eq "--events with --rate and no --time ends by itself" 0 $?
check_eq "--events=50 --rate=100 runs exactly 50" 50 "$(jq_ "$T/er.json" 'd["phases"][-1]["transactions"]')"
$OLTP --tables=2 --table-size=1000 --threads=2 --time=4 --rate=40 --json="$T/rate.json" oltp_read_only run >/dev/null 2>&1
check_eq "--rate=40 gives 40 tps within 30 %" True "$(jq_ "$T/rate.json" '28<=d["phases"][-1]["tps"]<=52')"
check_eq "--rate reports queue time" True "$(jq_ "$T/rate.json" '"queue_ms" in d["phases"][-1] and d["phases"][-1]["queue_ms"]["max"]>=0')"

# --- a stalled server shows in open-loop latency (no coordinated omission) ---
# Both connections block for 2 s behind a lock; arrivals keep coming at 50/s
# and queue, so ~100 transactions see up to 2 s of delay, not just the two
# that were on the server.
mariadb --no-defaults -uroot --socket="$MARIADB_SOCKET" sbtest -e \
  "DO SLEEP(1.5); BEGIN; SELECT COUNT(*) FROM sbtest1 FOR UPDATE; DO SLEEP(2); COMMIT;" >/dev/null &
locker=$!
$OLTP --tables=1 --table-size=1000 --threads=2 --time=6 --rate=50 --percentile=90 \
  --json="$T/stall.json" oltp_update_index run >/dev/null 2>&1
check_eq "stalled open-loop run exits 0" 0 $?
wait $locker
check_eq "the stall reaches the 90th percentile of latency (>= 1 s)" True "$(jq_ "$T/stall.json" 'd["phases"][-1]["latency_ms"]["p90"]>=1000')"
check_eq "queue time shows it too (p90 >= 0.5 s)" True "$(jq_ "$T/stall.json" 'd["phases"][-1]["queue_ms"]["p90"]>=500')"
check_eq "the arrivals were served after the stall" True "$(jq_ "$T/stall.json" 'd["phases"][-1]["transactions"]>=200')"
check_eq "no arrival left unserved when the stall ended before the run" 0 "$(jq_ "$T/stall.json" 'd["phases"][-1]["unserved"]')"
# a stall that lasts past the end: the arrivals still queued (50/s for
# about 3 s) get their latency so far, end - arrival (up to ~3 s), in the
# histogram beside the committed transactions
mariadb --no-defaults -uroot --socket="$MARIADB_SOCKET" sbtest -e \
  "DO SLEEP(1); BEGIN; SELECT COUNT(*) FROM sbtest1 FOR UPDATE; DO SLEEP(5); COMMIT;" >/dev/null &
locker=$!
$OLTP --tables=1 --table-size=1000 --threads=2 --time=4 --rate=50 \
  --json="$T/unserved.json" oltp_update_index run >/dev/null 2>&1
check_eq "run ending inside a stall exits 0" 0 $?
wait $locker
check_eq "unserved arrivals counted (about 150)" True "$(jq_ "$T/unserved.json" '100<=d["phases"][-1]["unserved"]<=200')"
check_eq "histogram = transactions + unserved" True \
  "$(jq_ "$T/unserved.json" '(lambda p: p["histogram"]["count"]==p["transactions"]+p["unserved"])(d["phases"][-1])')"
check_eq "their latency so far reaches the p99 (>= 2 s, <= 3.2 s)" True \
  "$(jq_ "$T/unserved.json" '2000<=d["phases"][-1]["latency_ms"]["p99"]<=3200')"

# --- lock wait timeouts are rolled back and retried ---------------------------
mariadb_sql "SET GLOBAL innodb_lock_wait_timeout=1"
b=$(counters)
mariadb --no-defaults -uroot --socket="$MARIADB_SOCKET" sbtest -e \
  "BEGIN; SELECT COUNT(*) FROM sbtest1 FOR UPDATE; DO SLEEP(3); COMMIT;" >/dev/null &
locker=$!
sleep 0.5
$OLTP --tables=1 --table-size=1000 --threads=2 --time=5 --verbose --json="$T/lw.json" oltp_update_index run >"$T/out" 2>"$T/err"
rc=$?; wait $locker; a=$(counters)
check_eq "run with lock waits exits 0" 0 $rc
errors=$(jq_ "$T/lw.json" 'd["phases"][-1]["errors"]')
check_eq "lock wait timeouts were retried" True "$( [ "$errors" -ge 2 ] && echo True || echo False)"
check_contains "error 1205 reported as retried" "retrying after error 1205" "$(cat "$T/err")"
check_eq "one ROLLBACK per retried transaction" "Com_rollback=$errors" "$(delta "$b" "$a" | grep -o 'Com_rollback=[0-9]*')"
mariadb_sql "SET GLOBAL innodb_lock_wait_timeout=50"

# --- deadlocks: 4 connections on a 2-row table --------------------------------
mariadb_sql "CREATE DATABASE sbsmall"
$OLTP --mysql-db=sbsmall --tables=1 --table-size=2 oltp_write_only prepare >/dev/null 2>&1
b=$(counters)
$OLTP --mysql-db=sbsmall --tables=1 --table-size=2 --range-size=2 --threads=4 --time=4 --verbose \
  --json="$T/dl.json" oltp_write_only run >"$T/out" 2>"$T/err"
rc=$?; a=$(counters)
check_eq "run with deadlocks exits 0" 0 $rc
errors=$(jq_ "$T/dl.json" 'd["phases"][-1]["errors"]')
check_contains "deadlocks (1213) were retried" "retrying after error 1213" "$(cat "$T/err")"
# one ROLLBACK per retry, those after the measured phase's end too
# (after_end.errors); a transaction abandoned at the end may have had one
rb=$(delta "$b" "$a" | grep -o 'Com_rollback=[0-9]*' | cut -d= -f2)
after=$(jq_ "$T/dl.json" 'd["phases"][-1]["after_end"]["errors"] + d["phases"][-1]["after_end"]["rolled_back"]')
ab=$(jq_ "$T/dl.json" 'd["phases"][-1]["after_end"]["abandoned"]')
check_eq "one ROLLBACK per retried transaction, $after after the end ($rb rollbacks, $errors errors, $ab abandoned)" True \
  "$( [ "$rb" -ge $((errors+after)) ] && [ "$rb" -le $((errors+after+ab)) ] && echo True || echo False)"
cm=$(delta "$b" "$a" | grep -o 'Com_commit=[0-9]*' | cut -d= -f2)
trx=$(jq_ "$T/dl.json" 'd["phases"][-1]["transactions"] + d["phases"][-1]["after_end"]["committed"]')
check_eq "one COMMIT per transaction, after the end too ($cm commits, $trx transactions, $ab abandoned)" True \
  "$( [ "$cm" -ge "$trx" ] && [ $((cm - trx + rb - errors - after)) -le "$ab" ] && echo True || echo False)"
check_eq "transactions committed despite deadlocks" True "$(jq_ "$T/dl.json" 'd["phases"][-1]["transactions"]>10')"
# --events counts committed transactions: one that deadlocks after the last
# event has started is still retried to its end
$OLTP --mysql-db=sbsmall --tables=1 --table-size=2 --range-size=2 --threads=8 --events=400 --time=0 \
  --json="$T/dle.json" oltp_write_only run >/dev/null 2>&1
check_eq "--events=400 with deadlocks commits exactly 400" 400 "$(jq_ "$T/dle.json" 'd["phases"][-1]["transactions"]')"
check_eq "and retried some" True "$(jq_ "$T/dle.json" 'd["phases"][-1]["errors"]>0')"
$OLTP --mysql-db=sbsmall --tables=1 --table-size=2 --threads=4 --time=2 --mysql-ignore-errors=none \
  oltp_write_only run >"$T/out" 2>"$T/err"
rc=$?
check_eq "with --mysql-ignore-errors=none a deadlock stops the run with exit 1" 1 $rc
check_contains "and says which statement failed" "oltp: error 1213 (SQLSTATE 40001) in" "$(cat "$T/err")"

# --- reconnect after KILL CONNECTION ------------------------------------------
$OLTP --tables=2 --table-size=1000 --threads=2 --time=6 --report-interval=1 --json="$T/k.json" \
  oltp_read_only run >"$T/out" 2>"$T/err" &
pid=$!
sleep 2.5
ids=$(mariadb_sql "SELECT id FROM information_schema.processlist WHERE user='sbtest' AND db='sbtest'")
for id in $ids; do mariadb_sql "KILL CONNECTION $id" || true; done
wait $pid
check_eq "run survives KILL CONNECTION" 0 $?
check_eq "two connections killed" 2 "$(echo $ids | wc -w)"
check_eq "each reconnected once" 2 "$(jq_ "$T/k.json" 'd["phases"][-1]["reconnects"]')"
check_eq "transactions continue after the kill" True "$(jq_ "$T/k.json" 'all(i["tps"]>0 for i in d["phases"][-1]["intervals"][-2:])')"
check_eq "the transaction each kill broke is counted as an error" 2 "$(jq_ "$T/k.json" 'd["phases"][-1]["errors"]')"
check_eq "the outage is counted: 0 < unavailable_s < 1" True "$(jq_ "$T/k.json" '0<d["phases"][-1]["unavailable_s"]<1')"
check_eq "longest outage per connection: 2 connections, each 0 < s < 1" True \
  "$(jq_ "$T/k.json" '(lambda l: len(l)==2 and all(0<x<1 for x in l))(d["phases"][-1]["longest_outage_s"])')"
$OLTP --tables=2 --table-size=1000 --threads=2 --events=20 --time=0 --json="$T/nk.json" oltp_read_only run >/dev/null 2>&1
check_eq "no outage, none counted" "0 [0, 0]" \
  "$(jq_ "$T/nk.json" '"%g %s" % (d["phases"][-1]["unavailable_s"], [int(x) for x in d["phases"][-1]["longest_outage_s"]])')"

# --- output paths: checked before the run, written atomically --------------
# An hour of measuring must not end in "cannot write": the path is tried
# before any transaction runs (server counters unchanged, no report).
b=$(counters)
$OLTP --tables=2 --table-size=1000 --time=5 --json="$T/no-such-dir/r.json" oltp_read_write run \
  >"$T/out" 2>"$T/err"
rc=$?; a=$(counters)
check_eq "unwritable --json: exit 2" 2 $rc
check_eq "unwritable --json: one line naming the path" \
  "oltp: --json: cannot write $T/no-such-dir/r.json: No such file or directory" "$(cat "$T/err")"
check_eq "unwritable --json: no transaction ran" "Com_begin=0 Com_commit=0" \
  "$(delta "$b" "$a" | grep -o 'Com_begin=[0-9]* Com_commit=[0-9]*')"
check_eq "unwritable --json: no report printed" "" "$(grep 'transactions:' "$T/out")"
$OLTP --tables=2 --table-size=1000 --time=5 --json="$T" oltp_read_write run >"$T/out" 2>"$T/err"
check_eq "--json naming a directory: exit 2" 2 $?
check_eq "--json naming a directory: message" "oltp: --json: cannot write $T: it is a directory" \
  "$(cat "$T/err")"
echo old >"$T/atomic.json"
(umask 022; $OLTP --tables=2 --table-size=1000 --events=5 --time=0 --json="$T/atomic.json" \
  oltp_point_select run >/dev/null 2>&1)
check_eq "--json replaces an existing file with the whole result" 5 \
  "$(jq_ "$T/atomic.json" 'd["phases"][-1]["transactions"]')"
check_eq "no temporary file is left beside it" "" "$(ls -A "$T" | grep '^\.atomic\.json\.')"
check_eq "the result file has mode 0644 under umask 022" 644 "$(stat -c %a "$T/atomic.json")"

# --- bad input: one line, exit 2 -----------------------------------------------
expect_fail() {  # expect_fail NAME EXPECTED_SUBSTRING CMD...
  local name=$1 want=$2; shift 2
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  check_eq "$name: exit 2" 2 $rc
  check_eq "$name: one line on stderr" 1 "$(wc -l <"$T/err")"
  check_contains "$name: message" "$want" "$(cat "$T/err")"
}
OLTP_MYSQL_PASSWORD=wrong expect_fail "wrong password" \
  "oltp: cannot connect to the mysql server at 127.0.0.1:$MARIADB_PORT as 'sbtest': error 1045: Access denied" \
  $OLTP_BIN $CONN --tables=2 oltp_read_write run
closed=$(free_port)
expect_fail "unreachable server" "oltp: cannot connect to the mysql server at 127.0.0.1:$closed as 'sbtest': error 2002" \
  $OLTP_BIN --mysql-host=127.0.0.1 --mysql-port=$closed --mysql-user=sbtest oltp_read_write run
expect_fail "bad option" "oltp: unknown option '--tabels' (see oltp --help)" $OLTP_BIN --tabels=3 oltp_read_write run
expect_fail "unknown driver" "oltp: unknown --db-driver=oracle" $OLTP_BIN --db-driver=oracle oltp_read_write run
expect_fail "--pipeline=on with the mysql driver" \
  "oltp: --pipeline=on is not available with --db-driver=mysql: only the pgsql driver pipelines (libpq's pipeline mode); MariaDB Connector/C reads a prepared statement's answer in the call that sends it (mysql_stmt_execute), so a connection cannot have a second statement in flight" \
  $OLTP_BIN $CONN --tables=2 --pipeline=on oltp_read_write run
$OLTP_BIN oltp_read_wirte run >/dev/null 2>"$T/err"
check_eq "unknown workload: exit 2" 2 $?
check_eq "unknown workload: first line" "oltp: unknown workload 'oltp_read_wirte'; known workloads:" "$(head -1 "$T/err")"
expect_fail "database name full of quotes" "error 1049: Unknown database 'x'\"; DROP TABLE sbtest1; --'" \
  $OLTP_BIN $CONN "--mysql-db=x'\"; DROP TABLE sbtest1; --" oltp_read_write run
check_eq "sbtest1 still there" 1 "$(mariadb_sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema='sbtest' AND table_name='sbtest1'")"

# --- prepare: the same rows whatever the path and --threads -----------------------
# CHECKSUM TABLE of every table after a bulk load (LOAD DATA LOCAL INFILE)
# and a multi-row INSERT load, at several thread counts, and with ids given
# (--auto-inc=off) as well as generated.
sums() { mariadb_sql "CHECKSUM TABLE sbtest.sbtest1, sbtest.sbtest2, sbtest.sbtest3" | awk '{printf "%s ", $2}'; }
load() {  # load OPTIONS...: clean up, prepare 3 x 2,000 rows, print the checksums
  $OLTP --tables=3 oltp_read_write cleanup >/dev/null 2>&1
  $OLTP --tables=3 --table-size=2000 --rand-seed=5 "$@" oltp_read_write prepare >"$T/out" 2>&1 || { echo "prepare $*: failed: $(cat "$T/out")"; return; }
  sums
}
for ai in on off; do
  want=$(load --auto-inc=$ai --bulk=off --threads=1)
  check_eq "auto-inc=$ai: checksums are three numbers" 3 "$(echo $want | wc -w)"
  check_eq "auto-inc=$ai: LOAD DATA, 1 thread: the rows of INSERTs, 1 thread" "$want" "$(load --auto-inc=$ai --bulk=on --threads=1)"
  check_eq "auto-inc=$ai: LOAD DATA, 3 threads: the same rows" "$want" "$(load --auto-inc=$ai --bulk=on --threads=3)"
  check_eq "auto-inc=$ai: INSERTs, 2 threads: the same rows" "$want" "$(load --auto-inc=$ai --bulk=off --threads=2)"
done
check_eq "bulk load: rows, ids 1..2000" "2000 1 2000" "$(mariadb_sql "SELECT COUNT(*), MIN(id), MAX(id) FROM sbtest.sbtest3" | tr '\t' ' ')"
other=$($OLTP --tables=3 oltp_read_write cleanup >/dev/null 2>&1; $OLTP --tables=3 --table-size=2000 --rand-seed=6 oltp_read_write prepare >/dev/null 2>&1; sums)
[ "$other" != "$want" ]; check_eq "another --rand-seed: other rows" 0 $?
check_eq "the index on k is built after the load" 1 "$(mariadb_sql "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema='sbtest' AND table_name='sbtest2' AND index_name='k_2'")"
# the server's own path (bench/prepare_vs_sysbench.sh): oltp's rows dumped
# to files and loaded by the mariadb client's LOAD DATA LOCAL INFILE into
# oltp's empty tables are the same rows, line for line
want=$(load --bulk=on --threads=3)
for t in 1 2 3; do mariadb_dump_rows sbtest$t "k, c, pad" "$T/sbtest$t.tsv"; done
check_eq "the dump of sbtest2: 2,000 lines" 2000 "$(wc -l <"$T/sbtest2.tsv")"
$OLTP --tables=3 oltp_read_write cleanup >/dev/null 2>&1
$OLTP --tables=3 --table-size=0 --create-secondary=off oltp_read_write prepare >/dev/null 2>&1
for t in 1 2 3; do mariadb_load_rows sbtest$t "k, c, pad" "$T/sbtest$t.tsv" "CREATE INDEX k_$t ON sbtest$t(k)"; done
check_eq "the mariadb client's LOAD DATA LOCAL of the dump: oltp's checksums" "$want" "$(sums)"
check_eq "the mariadb client's load: rows, ids 1..2000" "2000 1 2000" "$(mariadb_sql "SELECT COUNT(*), MIN(id), MAX(id) FROM sbtest.sbtest1" | tr '\t' ' ')"
# a server that refuses LOAD DATA LOCAL INFILE: the same rows with sysbench's
# INSERT batches, and one line that says so with the server's reason
# (tests/integration/oltp_sysbench_prepare.sh: a server started so)
mariadb_sql "SET GLOBAL local_infile=0"
want=$(load --bulk=off --threads=1)
check_eq "local_infile=OFF: prepare falls back to INSERTs, the rows of --bulk=off" "$want" "$(load --bulk=on --threads=3)"
check_eq "local_infile=OFF: one line says so, with the server's reason" \
  "oltp: loading sbtest1: the server refuses LOAD DATA LOCAL INFILE (error 4166: The used command is not allowed because the MariaDB server or client has disabled the local infile capability): loading with INSERTs, as sysbench does" \
  "$($OLTP --tables=3 oltp_read_write cleanup >/dev/null 2>&1; $OLTP --tables=1 --table-size=10 oltp_read_write prepare 2>&1 >/dev/null)"
check_eq "local_infile=OFF: the 10 rows" 10 "$(mariadb_sql "SELECT COUNT(*) FROM sbtest.sbtest1")"
mariadb_sql "SET GLOBAL local_infile=1"
$OLTP --tables=3 oltp_read_write cleanup >/dev/null 2>&1
$OLTP --tables=2 --table-size=1000 oltp_read_write prepare >/dev/null 2>&1

# --- SIGTERM / SIGINT mid-measure: what was measured is written ---------------
# The third interval line is the signal to stop: then the result holds the
# whole 1-s intervals oltp printed before the signal (three, or more when the
# signal comes late on a loaded machine) and the part of the next up to the
# signal, printed too: the result's intervals are the printed lines, one for
# one. oltp ends within a second (transactions in flight get 0.5 s) by that
# signal, as it did without a handler (128 + 15 = 143), and the run is
# marked stopped.
stop_at_third() {  # stop_at_third SIGNAL JSON [OPTIONS...]: pid, elapsed ms, status
  sig=$1 json=$2; shift 2
  # a background job starts with SIGINT ignored (and oltp keeps it so)
  env --default-signal=INT $OLTP --tables=2 --table-size=1000 --threads=2 --time=60 --report-interval=1 "$@" \
    --json="$json" oltp_read_only run >"$T/sig.out" 2>"$T/sig.err" &
  spid=$!
  for _ in $(seq 200); do grep -q '^\[ 3s \]' "$T/sig.out" && break; sleep 0.05; done
  t0=$(date +%s%N)
  kill "-$sig" $spid
  wait $spid; src=$?
  echo "$(( ($(date +%s%N) - t0) / 1000000 )) $src $(grep -c '^\[ [0-9]*s \]' "$T/sig.out")"
}
read ms rc lines <<<"$(stop_at_third TERM "$T/term.json")"
check_eq "SIGTERM: oltp ends by SIGTERM (status 143)" 143 "$rc"
check_eq "SIGTERM: within 1.5 s" True "$([ "$ms" -lt 1500 ] && echo True || echo "False ($ms ms)")"
check_eq "SIGTERM: ended signal, reason SIGTERM" "signal SIGTERM" \
  "$(jq_ "$T/term.json" 'd["ended"]+" "+d["ended_reason"]')"
check_eq "SIGTERM: the measure phase only" "['measure']" "$(jq_ "$T/term.json" '[p["name"] for p in d["phases"]]')"
check_eq "SIGTERM: at least 3 whole intervals printed before the signal, and the cut one" True \
  "$([ "$lines" -ge 4 ] && echo True || echo "False ($lines lines)")"
n=$((lines - 1))
check_eq "SIGTERM: the printed intervals, $n whole and the last cut at the signal" \
  "$lines $(seq -s ', ' 1 $n | sed 's/.*/[&]/') True" \
  "$(jq_ "$T/term.json" '(lambda iv: " ".join([str(len(iv)), str([round(i["t"]) for i in iv[:-1]]), str(len(iv)-1 < iv[-1]["t"] < len(iv))]))(d["phases"][0]["intervals"])')"
check_eq "SIGTERM: the phase ends with its last interval" True \
  "$(jq_ "$T/term.json" '(lambda p: abs(p["duration_s"]-p["intervals"][-1]["t"])<1e-6)(d["phases"][0])')"
check_eq "SIGTERM: the intervals' transactions sum to the phase's, = histogram count" True \
  "$(jq_ "$T/term.json" '(lambda p: (lambda ts: abs(sum(i["tps"]*(i["t"]-a) for i,a in zip(p["intervals"],ts)) - p["transactions"])<1e-6)([0]+[i["t"] for i in p["intervals"][:-1]]) and p["transactions"]==p["histogram"]["count"]>0)(d["phases"][0])')"
check_eq "SIGTERM: the final report is printed" 1 "$(grep -c '^    transactions:' "$T/sig.out")"
read ms rc lines <<<"$(stop_at_third INT "$T/int.json" --warmup-time=1)"
check_eq "SIGINT in the measured phase after a warm-up: status 130" 130 "$rc"
check_eq "SIGINT: ended signal, reason SIGINT, both phases" "signal SIGINT ['warmup', 'measure']" \
  "$(jq_ "$T/int.json" 'd["ended"]+" "+d["ended_reason"]+" "+str([p["name"] for p in d["phases"]])')"
check_eq "SIGINT: 1 warm-up interval, then the $((lines - 1)) measured ones printed (the last cut at the signal)" "1 $((lines - 1))" \
  "$(jq_ "$T/int.json" '" ".join(str(len(p["intervals"])) for p in d["phases"])')"
$OLTP --tables=2 --table-size=1000 --threads=2 --time=3 --json="$T/ign.json" oltp_read_only run >/dev/null 2>&1 &
spid=$!
sleep 1; kill -INT $spid; wait $spid
check_eq "SIGINT ignored from the start (a background job) stays ignored: the run completes" \
  "0 complete" "$? $(jq_ "$T/ign.json" 'd["ended"]')"
$OLTP --tables=2 --table-size=1000 --threads=2 --time=2 --json="$T/full.json" oltp_read_only run >/dev/null 2>&1
check_eq "a run to its end: ended complete, no reason" "complete False" \
  "$(jq_ "$T/full.json" 'd["ended"]+" "+str("ended_reason" in d)')"

# --- cleanup ------------------------------------------------------------------
$OLTP --tables=2 oltp_read_write cleanup >"$T/out" 2>&1
check_eq "cleanup exits 0" 0 $?
check_eq "cleanup drops the tables" 0 "$(mariadb_sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema='sbtest'")"

# --- a server that stays down: exit 3 after --reconnect-timeout ---------------
# Last, because it stops the server. What was measured before is kept.
$OLTP --tables=1 --table-size=1000 oltp_read_only prepare >/dev/null 2>&1
$OLTP --tables=1 --table-size=1000 --threads=2 --time=120 --reconnect-timeout=2 \
  --json="$T/down.json" oltp_read_only run >"$T/out" 2>"$T/err" &
pid=$!
sleep 2
kill "$MARIADB_PID"
wait $pid
check_eq "server down past --reconnect-timeout: exit 3" 3 $?
check_eq "server down: one line naming the connection, its error and the bound" 1 \
  "$(grep -cE '^oltp: connection [01] has been lost for [2-9]\.[0-9] s \(error [0-9]+: .+\), longer than --reconnect-timeout=2: ending the run with what was measured$' "$T/err")"
check_eq "server down: stderr is that one line" 1 "$(wc -l <"$T/err")"
check_eq "server down: the JSON is written with the measure phase" "['measure']" \
  "$(jq_ "$T/down.json" '[p["name"] for p in d["phases"]]')"
check_eq "server down: transactions before the stop are kept" True "$(jq_ "$T/down.json" 'd["phases"][0]["transactions"]>0')"
check_eq "server down: ended early, not at --time=120" True "$(jq_ "$T/down.json" 'd["phases"][0]["duration_s"]<60')"
# The connection the message names was down past the bound; the other one
# lost its connection too, but may have seen the loss later (or reconnected
# once while the server shut down), so only "down at all" holds for it; the
# average over both connections is then at least half the bound.
down_id=$(sed -n 's/^oltp: connection \([01]\) has been lost.*/\1/p' "$T/err")
check_eq "server down: the connection named was down for at least the bound" True \
  "$(jq_ "$T/down.json" "d['phases'][0]['longest_outage_s'][${down_id:-9}]>=2")"
check_eq "server down: both connections saw the outage, the average is at least bound/2" True \
  "$(jq_ "$T/down.json" '(lambda p: p["unavailable_s"]>=1 and len(p["longest_outage_s"])==2 and all(x>0 for x in p["longest_outage_s"]))(d["phases"][0])')"
check_contains "server down: the final report is printed" "transactions:" "$(cat "$T/out")"
check_eq "server down: ended error, the reason is the message without 'oltp: '" \
  "error $(sed -n '1s/^oltp: //p' "$T/err")" "$(jq_ "$T/down.json" 'd["ended"]+" "+d["ended_reason"]')"

check_summary
