#!/usr/bin/env bash
# Integration tests of bin/oltp --db-driver=odbc through unixODBC's real
# driver manager, configured by private ODBCSYSINI/ODBCINI files: MariaDB
# (odbc-mariadb) and PostgreSQL (odbc-postgresql) servers started here, the
# dialect learnt from SQL_DBMS_NAME, prepare/run/cleanup with exact statement
# counts from each server, concurrent runs, reconnects, TPC-C prepare/run/
# check, 200 connections (one thread each), and FreeTDS loaded with no SQL
# Server to answer.
#
# Transactions are ODBC's own (autocommit off, SQLEndTran): MariaDB counts
# no BEGIN (Com_begin = 0) and a COMMIT per transaction; psqlODBC sends its
# own BEGIN before the first statement of each; PostgreSQL's log has a COMMIT
# per transaction and pg_stat_database a rollback per retry. Retries of
# real deadlocks on hot rows are counted by both sides, and a connection
# whose first connect is refused (max_user_connections) joins the run later.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/postgres.sh         # also brings tests/lib/mariadb.sh
. tests/lib/odbc.sh
. tests/lib/check.sh
. tests/lib/tpcc_roundtrip.sh

T=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; rm -rf "$T"' EXIT
mariadb_start >"$T/mariadb.log" 2>&1 || { cat "$T/mariadb.log"; exit 1; }
PGSQL_LOG_STATEMENT=all postgres_start || exit 1
odbc_setup "$T/odbc"
odbc_add_dsn sb_maria MariaDB Server=127.0.0.1 Port="$MARIADB_PORT" Database=sbtest
# Protocol=7.4-0: psqlODBC leaves rollback after an error to oltp (its default
# issues its own ROLLBACK, or SAVEPOINTs, besides oltp's)
odbc_add_dsn sb_pg PostgreSQL Servername=127.0.0.1 Port="$PGSQL_PORT" Database=sbtest Protocol=7.4-0
export OLTP_ODBC_PASSWORD=sbtest
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
OLTP="$OLTP_BIN --db-driver=odbc --odbc-user=sbtest"
field() {  # field NAME FILE: the number after "NAME:" in an oltp report
  sed -n "s/^ *$1: *\([0-9]*\).*/\1/p" "$2" | head -1
}
# Statement counts on MariaDB, named like postgres_count_statements' output.
maria_counters() {
  mariadb_sql "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_begin','Com_commit','Com_delete',
    'Com_insert','Com_rollback','Com_select','Com_update')" | awk '{sub("Com_", "", $1); print toupper($1), $2}'
}
maria_delta() {  # maria_delta "BEFORE" "AFTER"
  join <(echo "$1") <(echo "$2") | awk '{printf "%s%s=%d", (NR > 1 ? " " : ""), $1, $3 - $2}'
}
# "COMMIT=N ROLLBACK=N" of database sbtest in pg_stat_database, once no
# sbtest session is left (a session reports its counts as it ends); asked
# in database postgres, and with autovacuum off (below), so that only
# oltp's sessions move them
pg_xacts() {
  local prev= cur
  for _ in $(seq 1 50); do
    cur=$(postgres_sql "SELECT (SELECT COUNT(*) FROM pg_stat_activity WHERE usename = 'sbtest'),
      'COMMIT=' || xact_commit || ' ROLLBACK=' || xact_rollback FROM pg_stat_database WHERE datname = 'sbtest'" \
      postgres | tr '|\t' '  ')
    [ "${cur%% *}" = 0 ] && [ "$cur" = "$prev" ] && break
    prev=$cur; sleep 0.2
  done
  echo "${cur#* }" | sed 's/^ *//'
}
pg_xact_delta() {  # pg_xact_delta "BEFORE" "AFTER"
  echo "$1 $2" | tr '=' ' ' | awk '{printf "COMMIT=%d ROLLBACK=%d", $6 - $2, $8 - $4}'
}

# --- options -------------------------------------------------------------------
$OLTP_BIN --db-driver=odbc --tables=1 oltp_read_write run >"$T/out" 2>"$T/err"
check_eq "odbc without a data source exits 2" 2 $?
check_eq "odbc without a data source: the message" \
  "oltp: --db-driver=odbc needs one of --odbc-dsn=NAME or --odbc-connect='Driver=...;...'" "$(cat "$T/err")"
$OLTP --odbc-dsn=sb_maria --odbc-dialect=db2 --tables=1 oltp_read_write run >"$T/out" 2>"$T/err"
check_eq "unknown --odbc-dialect exits 2" 2 $?
check_eq "unknown --odbc-dialect: the message" "oltp: --odbc-dialect=db2: expected mssql, mysql or pgsql" "$(cat "$T/err")"
$OLTP --odbc-dsn=nosuch --tables=1 oltp_read_write run >"$T/out" 2>"$T/err"
check_eq "unknown DSN exits 2" 2 $?
check_eq "unknown DSN: the driver manager's message, one line" \
  "oltp: cannot connect to the ODBC data source nosuch: error 0: [unixODBC][Driver Manager]Data source name not found and no default driver specified" \
  "$(cat "$T/err")"

# --- FreeTDS through the driver manager, no SQL Server listening ------------------
port=$(free_port)
for dialect in "" "--odbc-dialect=mssql"; do
  $OLTP --odbc-connect="Driver=FreeTDS;Server=127.0.0.1;Port=$port;TDS_Version=7.4;Database=sbtest" \
    --odbc-user=sa --connect-timeout=5 $dialect --tables=1 oltp_read_write run >"$T/out" 2>"$T/err"
  check_eq "FreeTDS, nobody on port ${dialect:-(dialect from the server)}: exit 2" 2 $?
  check_eq "FreeTDS, nobody on port ${dialect:-(dialect from the server)}: one clear line" \
    "oltp: cannot connect to the ODBC data source of --odbc-connect: error 20009: [FreeTDS][SQL Server]Unable to connect: Adaptive Server is unavailable or does not exist" \
    "$(cat "$T/err")"
done
# the other paths to SQL Server fail as cleanly: ping (exit 3, retry), a
# prepare through parameter arrays, procedures through {CALL}
FREETDS="--odbc-connect=Driver=FreeTDS;Server=127.0.0.1;Port=$port;TDS_Version=7.4;Database=sbtest"
$OLTP "$FREETDS" --odbc-user=sa --connect-timeout=5 ping >"$T/out" 2>"$T/err"
check_eq "FreeTDS, nobody on port: ping exits 3 (not answering yet)" 3 $?
check_contains "FreeTDS, nobody on port: ping names the error" "error 20009" "$(cat "$T/err")"
for cmd in "--odbc-dialect=mssql --bulk=on --tables=1 oltp_read_write prepare" \
           "--odbc-dialect=mssql --tpcc-procedures=on tpcc run"; do
  $OLTP "$FREETDS" --odbc-user=sa --connect-timeout=5 $cmd >"$T/out" 2>"$T/err"
  check_eq "FreeTDS, nobody on port: $cmd: exit 2" 2 $?
  check_eq "FreeTDS, nobody on port: $cmd: one line" 1 "$(wc -l <"$T/err")"
done

# --- each server: prepare, exact statement counts, concurrency, reconnect, cleanup --
for target in maria pg; do
  DSN="--odbc-dsn=sb_$target"
  if [ $target = maria ]; then
    sql() { mariadb_sql "USE sbtest; $1"; }
    mark() { maria_counters; }
    counts() { maria_delta "$1" "$(maria_counters)"; }
    id_kind="auto_increment"
    id_probe="SELECT extra FROM information_schema.columns WHERE table_schema='sbtest' AND table_name='sbtest1' AND column_name='id'"
    sessions="SELECT id FROM information_schema.processlist WHERE user='sbtest'"
    kill_all() { local n=0; for id in $(mariadb_sql "$sessions"); do mariadb_sql "KILL CONNECTION $id" && n=$((n+1)); done; echo $n; }
  else
    sql() { postgres_sql "$1"; }
    mark() { postgres_log_size; }
    counts() { postgres_count_statements "$1"; }
    id_kind="nextval('sbtest1_id_seq'::regclass)"
    id_probe="SELECT column_default FROM information_schema.columns WHERE table_name='sbtest1' AND column_name='id'"
    kill_all() { postgres_sql "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename='sbtest'"; }
  fi

  $OLTP $DSN --tables=2 --table-size=1000 --threads=2 oltp_read_write prepare >"$T/out" 2>&1
  check_eq "$target: prepare exits 0" 0 $?
  check_eq "$target: sbtest1 rows, ids 1..1000" "1000 1 1000" "$(sql 'SELECT COUNT(*), MIN(id), MAX(id) FROM sbtest1' | tr '|\t' '  ')"
  check_eq "$target: sbtest2 rows" 1000 "$(sql 'SELECT COUNT(*) FROM sbtest2')"
  check_eq "$target: the dialect came from SQL_DBMS_NAME (generated id)" "$id_kind" "$(sql "$id_probe")"

  # MariaDB: no BEGIN reaches the server (autocommit off, then SQLEndTran's
  # COMMIT); psqlODBC begins each transaction itself
  begins=50; [ $target = maria ] && begins=0
  if [ $target = pg ]; then
    postgres_sql "ALTER SYSTEM SET autovacuum = off" postgres && postgres_sql "SELECT pg_reload_conf()" postgres >/dev/null
  fi
  pgx=
  for w in oltp_read_write:"BEGIN=$begins COMMIT=50 DELETE=50 INSERT=50 ROLLBACK=0 SELECT=700 UPDATE=100" \
           oltp_point_select:"BEGIN=0 COMMIT=0 DELETE=0 INSERT=0 ROLLBACK=0 SELECT=50 UPDATE=0" \
           oltp_insert:"BEGIN=0 COMMIT=0 DELETE=0 INSERT=50 ROLLBACK=0 SELECT=0 UPDATE=0"; do
    b=$(mark)
    [ $target = pg ] && x=$(pg_xacts)
    $OLTP $DSN --tables=2 --table-size=1000 --threads=1 --events=50 --time=0 ${w%%:*} run >"$T/ol" 2>&1
    check_eq "$target: ${w%%:*} runs" 0 $?
    check_eq "$target: ${w%%:*}: the server's statement counts for 50 transactions" "${w#*:}" "$(counts "$b")"
    [ $target = pg ] && pgx="$pgx$(pg_xact_delta "$x" "$(pg_xacts)");"
  done
  if [ $target = pg ]; then
    # pg_stat_database counts each autocommitted statement of the sessions'
    # set-up too (psqlODBC's own queries at connect and prepare, which vary
    # by workload: measured 17, 29 and 11 here), so the exact count of
    # COMMITs is the server log's above; here: at least the 50, no rollback
    IFS=';' read -r rw ps ins <<<"$pgx"
    for r in "oltp_read_write:$rw" "oltp_point_select:$ps" "oltp_insert:$ins"; do
      v=${r#*:}; n=${v#COMMIT=}; n=${n%% *}
      check_eq "pg: pg_stat_database: ${r%%:*}: the 50 transactions committed" yes \
        "$([ "${n:-0}" -ge 50 ] && echo yes || echo "no ($v)")"
      check_eq "pg: pg_stat_database: ${r%%:*}: no rollback" "ROLLBACK=0" "${v#* }"
    done
  fi

  b=$(mark)
  $OLTP $DSN --tables=2 --table-size=1000 --threads=8 --events=300 --time=0 oltp_read_write run >"$T/ol" 2>&1
  check_eq "$target: 8 connections exit 0" 0 $?
  c=$(counts "$b"); trx=$(field transactions "$T/ol"); retries=$(field "ignored errors" "$T/ol")
  check_eq "$target: 8 connections: COMMITs = transactions reported" "COMMIT=$trx" "$(echo "$c" | grep -o 'COMMIT=[0-9]*')"
  check_eq "$target: 8 connections: ROLLBACKs = retries reported" "ROLLBACK=$retries" "$(echo "$c" | grep -o 'ROLLBACK=[0-9]*')"

  # deadlocks on 4 hot rows: each is rolled back (SQLEndTran), retried and
  # counted, on both sides
  b=$(mark)
  [ $target = pg ] && x=$(pg_xacts)
  $OLTP $DSN --tables=1 --table-size=4 --threads=8 --events=300 --time=0 oltp_read_write run >"$T/ol" 2>&1
  check_eq "$target: hot rows: exit 0" 0 $?
  c=$(counts "$b"); trx=$(field transactions "$T/ol"); retries=$(field "ignored errors" "$T/ol")
  check_eq "$target: hot rows: deadlocks were retried" yes "$([ "${retries:-0}" -gt 0 ] && echo yes || echo "no ($retries)")"
  check_eq "$target: hot rows: ROLLBACKs = retries reported" "ROLLBACK=$retries" "$(echo "$c" | grep -o 'ROLLBACK=[0-9]*')"
  check_eq "$target: hot rows: COMMITs = transactions" "COMMIT=$trx" "$(echo "$c" | grep -o 'COMMIT=[0-9]*')"
  [ $target = maria ] && check_eq "maria: hot rows: no BEGIN" "BEGIN=0" "$(echo "$c" | grep -o 'BEGIN=[0-9]*')"
  [ $target = pg ] && check_eq "pg: hot rows: pg_stat_database rollbacks = retries" "ROLLBACK=$retries" \
    "$(pg_xact_delta "$x" "$(pg_xacts)" | grep -o 'ROLLBACK=[0-9]*')"

  $OLTP $DSN --tables=2 --table-size=1000 --threads=3 --time=6 oltp_read_write run >"$T/ol" 2>&1 &
  pid=$!
  sleep 3
  killed=$(kill_all)
  wait $pid
  check_eq "$target: a run through killed sessions exits 0" 0 $?
  check_eq "$target: 3 sessions killed" 3 "$killed"
  check_eq "$target: each killed session reconnected once" 3 "$(field reconnects "$T/ol")"

  # the rows of a load through parameter arrays = the rows of multi-row INSERTs
  if [ $target = maria ]; then
    rowhash="SELECT MD5(GROUP_CONCAT(CONCAT_WS(',', id, k, c, pad) ORDER BY id SEPARATOR ';')) FROM sbtest2"
  else
    rowhash="SELECT md5(string_agg(id || ',' || k || ',' || c || ',' || pad, ';' ORDER BY id)) FROM sbtest2"
  fi
  hashes=
  for v in "--bulk=on --threads=2" "--bulk=off --threads=1"; do
    $OLTP $DSN --tables=2 oltp_read_write cleanup >/dev/null 2>&1
    $OLTP $DSN --tables=2 --table-size=1000 --rand-seed=3 $v oltp_read_write prepare >"$T/out" 2>&1
    check_eq "$target: prepare $v exits 0" 0 $?
    hashes="$hashes $(sql "$rowhash")"
  done
  set -- $hashes
  check_eq "$target: parameter arrays load the rows INSERTs load" "$1" "${2:-none}"
  check_eq "$target: after parameter arrays, 1000 rows" 1000 "$(sql 'SELECT COUNT(*) FROM sbtest1')"

  $OLTP $DSN --tables=2 oltp_read_write cleanup >"$T/out" 2>&1
  check_eq "$target: cleanup exits 0" 0 $?

  # TPC-C's transactions end by SQLEndTran too: the server's COMMITs and
  # ROLLBACKs are oltp's committed transactions and its rollbacks (the
  # spec's 1 %) plus retries, with those that ended after the measurement
  # (after_end), exactly; a transaction abandoned at the end (after_end.
  # abandoned: no answer came) may have reached the server either way
  tpcc_run_mark() { tb=$(mark); }
  tpcc_run_check() {
    local c want_c want_r ab got_c got_r
    c=$(counts "$tb")
    read -r want_c want_r ab <<<"$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["phases"][-1]
rb = sum(t["rollbacks"] for t in p["transaction_types"])
a = p["after_end"]
print(p["transactions"] - rb + a["committed"], rb + p["errors"] + a["rolled_back"] + a["errors"], a["abandoned"])' "$2")"
    got_c=$(echo "$c" | sed -n 's/.*COMMIT=\([0-9]*\).*/\1/p'); got_r=$(echo "$c" | sed -n 's/.*ROLLBACK=\([0-9]*\).*/\1/p')
    check_eq "$1: tpcc: COMMITs = committed transactions, after the end too ($got_c, $want_c, $ab abandoned)" 1 \
      "$(( got_c >= want_c && got_c - want_c <= ab ))"
    check_eq "$1: tpcc: ROLLBACKs = rollbacks + retries, after the end too ($got_r, $want_r, $ab abandoned)" 1 \
      "$(( got_r >= want_r && got_c + got_r - want_c - want_r <= ab ))"
    [ "$target" = maria ] && check_eq "maria: tpcc: no BEGIN" "BEGIN=0" "$(echo "$c" | grep -o 'BEGIN=[0-9]*')"
  }
  tpcc_roundtrip "$target" sql $OLTP $DSN
  unset -f tpcc_run_mark tpcc_run_check
done
check_eq "maria: no sbtest table left" 0 "$(mariadb_sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_name LIKE 'sbtest%'")"
check_eq "pg: no sbtest table left" 0 "$(postgres_sql "SELECT COUNT(*) FROM pg_tables WHERE tablename LIKE 'sbtest%'")"

# --- a first connect refused during the run joins later -------------------------
# sbtest may hold 2 sessions and a sleeper holds one for 4 s: of the run's 2
# connections one is refused (1226) at first, retries like a lost one, and
# gets in when the sleeper leaves
mariadb_sql "ALTER USER 'sbtest'@'127.0.0.1' WITH MAX_USER_CONNECTIONS 2"
$OLTP --odbc-dsn=sb_maria --tables=1 --table-size=1000 oltp_point_select prepare >"$T/out" 2>&1
mariadb --no-defaults -usbtest -psbtest -h127.0.0.1 -P"$MARIADB_PORT" -e "SELECT SLEEP(4)" >/dev/null 2>&1 &
sleeper=$!
# (until the sleeper is in and prepare's session is gone: the server may
# list a closed session for a moment)
maria_sessions() {
  mariadb_sql "SELECT COUNT(*), COALESCE(SUM(info LIKE 'SELECT SLEEP%'), 0) FROM information_schema.processlist
    WHERE user = 'sbtest'" | tr '\t' ' '
}
for _ in $(seq 1 100); do [ "$(maria_sessions)" = "1 1" ] && break; sleep 0.1; done
check_eq "first connect refused: the sleeper holds one session, no other" "1 1" "$(maria_sessions)"
$OLTP --odbc-dsn=sb_maria --tables=1 --table-size=1000 --threads=2 --time=8 --json="$T/late.json" \
  oltp_point_select run >"$T/ol" 2>&1
rc=$?
wait $sleeper
check_eq "first connect refused: the run exits 0" 0 $rc
check_eq "first connect refused: no error ended it" "" "$(grep 'cannot connect' "$T/ol")"
read -r rec late <<<"$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["phases"][-1]
print(p["reconnects"], "yes" if p.get("unavailable_s", 0) > 0 else "no")' "$T/late.json")"
check_eq "first connect refused: its retries are counted as reconnects" yes "$([ "${rec:-0}" -ge 1 ] && echo yes || echo "no ($rec)")"
check_eq "first connect refused: its wait is counted as unavailable time" yes "$late"

# --- setup connections wait out a session limit for up to 3 s --------------------
# sbtest may hold 1 session and a sleeper holds it: for 1 s, the run's
# setup connections (the dialect probe, then the run's own) wait and the
# run goes on; for 6 s, the run ends after 3 s with one line naming the limit
mariadb_sql "ALTER USER 'sbtest'@'127.0.0.1' WITH MAX_USER_CONNECTIONS 1"
hold_session() {  # hold_session SECONDS: a sleeper in sbtest's one session
  mariadb --no-defaults -usbtest -psbtest -h127.0.0.1 -P"$MARIADB_PORT" -e "SELECT SLEEP($1)" >/dev/null 2>&1 &
  sleeper=$!
  for _ in $(seq 1 100); do [ "$(maria_sessions)" = "1 1" ] && break; sleep 0.1; done
}
hold_session 1
$OLTP --odbc-dsn=sb_maria --tables=1 --threads=1 --time=2 oltp_point_select run >"$T/ol" 2>&1
rc=$?
wait $sleeper
check_eq "a session limit for 1 s: the run exits 0" 0 $rc
check_eq "a session limit for 1 s: no connect error" "" "$(grep 'cannot connect' "$T/ol")"
hold_session 6
t0=$(date +%s%N)
$OLTP --odbc-dsn=sb_maria --tables=1 --threads=1 --time=2 oltp_point_select run >"$T/ol" 2>&1
rc=$?
t1=$(date +%s%N)
wait $sleeper
check_eq "a session limit for 6 s: the run exits 2" 2 $rc
check_eq "a session limit for 6 s: one line naming the limit (driver version as ma-V)" \
  "oltp: cannot connect to the ODBC data source sb_maria: error 1226: [unixODBC][ma-V]User 'sbtest' has exceeded the 'max_user_connections' resource (current value: 1) (the server stayed at its session limit for 3 s)" \
  "$(sed 's/\[ma-[0-9.]*\]/[ma-V]/' "$T/ol")"
check_eq "a session limit for 6 s: it gave up after 3 s, not at once" yes \
  "$([ $(( (t1 - t0) / 1000000 )) -ge 3000 ] && echo yes || echo "no ($(( (t1 - t0) / 1000000 )) ms)")"
mariadb_sql "ALTER USER 'sbtest'@'127.0.0.1' WITH MAX_USER_CONNECTIONS 0"
$OLTP --odbc-dsn=sb_maria --tables=1 oltp_point_select cleanup >/dev/null 2>&1

# --- a connection string, and 200 connections with a thread each ---------------
$OLTP "--odbc-connect=Driver=MariaDB;Server=127.0.0.1;Port=$MARIADB_PORT;Database=sbtest" --tables=1 --table-size=1000 \
  oltp_point_select prepare >"$T/out" 2>&1
check_eq "--odbc-connect: prepare exits 0" 0 $?
# the DSN-less string drivebench builds for PostgreSQL: psqlODBC takes UID
# as given (a braced UID={sbtest} reached the server as "{sbtest}")
$OLTP "--odbc-connect=Driver={PostgreSQL};Server=127.0.0.1;Port=$PGSQL_PORT;Database=sbtest" \
  --connect-timeout=5 ping >"$T/out" 2>&1
check_eq "--odbc-connect to PostgreSQL (psqlODBC): ping exits 0" 0 $?
$OLTP "--odbc-connect=Driver=MariaDB;Server=127.0.0.1;Port=$MARIADB_PORT;Database=sbtest" --tables=1 --table-size=1000 \
  --threads=200 --time=4 oltp_point_select run >"$T/ol" 2>&1 &
pid=$!
for _ in $(seq 1 40); do
  n=$(mariadb_sql "SELECT COUNT(*) FROM information_schema.processlist WHERE user='sbtest'")
  [ "$n" -ge 200 ] && break; sleep 0.1
done
threads=$(awk '/^Threads:/ {print $2}' /proc/$pid/status 2>/dev/null)
wait $pid
check_eq "200 ODBC connections: exit 0" 0 $?
check_eq "200 ODBC connections: 200 sessions on the server" 200 "$n"
check_eq "200 ODBC connections: at least one thread per connection" yes "$([ "${threads:-0}" -ge 201 ] && echo yes || echo "no ($threads)")"
check_eq "200 ODBC connections: fairness line present, no error" 0 "$(field "ignored errors" "$T/ol")"

check_summary
