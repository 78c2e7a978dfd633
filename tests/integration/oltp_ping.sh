#!/usr/bin/env bash
# Integration tests of `oltp [driver options] ping`, the readiness probe
# the orchestrator and images/vmlib.sh use, against real servers started
# here: MariaDB (mysql driver), PostgreSQL (pgsql driver), and both through
# unixODBC (MariaDB ODBC and psqlODBC data sources). For each: exit 0 and
# one line on stdout when the database answers; exit 3 and one line on
# stderr for a closed port; exit 4 ("login refused") for a wrong password
# and for an unknown database; exit 3 with SQLSTATE 53300 for a user at
# its session limit. Nothing is printed on the other stream.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/postgres.sh         # also brings tests/lib/mariadb.sh
. tests/lib/odbc.sh
. tests/lib/check.sh

T=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; rm -rf "$T"' EXIT
mariadb_start >"$T/mariadb.log" 2>&1 || { cat "$T/mariadb.log"; exit 1; }
postgres_start || exit 1
CLOSED=$(free_port)             # nothing listens there
odbc_setup "$T/odbc"
odbc_add_dsn maria MariaDB Server=127.0.0.1 Port="$MARIADB_PORT" Database=sbtest
odbc_add_dsn maria_closed MariaDB Server=127.0.0.1 Port="$CLOSED" Database=sbtest
odbc_add_dsn maria_nodb MariaDB Server=127.0.0.1 Port="$MARIADB_PORT" Database=nosuchdb
odbc_add_dsn pg PostgreSQL Servername=127.0.0.1 Port="$PGSQL_PORT" Database=sbtest
odbc_add_dsn pg_closed PostgreSQL Servername=127.0.0.1 Port="$CLOSED" Database=sbtest
odbc_add_dsn pg_ssl PostgreSQL Servername=127.0.0.1 Port="$PGSQL_PORT" Database=sbtest SSLmode=require
odbc_add_dsn pg_nodb PostgreSQL Servername=127.0.0.1 Port="$PGSQL_PORT" Database=nosuchdb
OLTP=${OLTP_BIN:-./bin/oltp}

# ping NAME WANT_RC WANT_STDOUT_PREFIX WANT_STDERR... -- OLTP ARGS: run
# `oltp ARGS ping`, check its exit status, that a successful ping writes one
# line to stdout and nothing to stderr, and a failed one the other way round
# with every WANT_STDERR text in its line.
ping() {
  local name=$1 want=$2 prefix=$3 rc; shift 3
  local needles=()
  while [ "$1" != -- ]; do needles+=("$1"); shift; done
  shift
  "$OLTP" "$@" ping >"$T/out" 2>"$T/err"
  rc=$?
  check_eq "$name: exit status" "$want" "$rc"
  if [ "$want" = 0 ]; then
    check_eq "$name: nothing on stderr" "" "$(cat "$T/err")"
    check_eq "$name: one line on stdout" 1 "$(wc -l <"$T/out")"
    check_contains "$name: stdout" "$prefix" "$(cat "$T/out")"
  else
    check_eq "$name: nothing on stdout" "" "$(cat "$T/out")"
    check_eq "$name: one line on stderr" 1 "$(wc -l <"$T/err")"
    check_contains "$name: stderr" "$prefix" "$(cat "$T/err")"
  fi
  for n in "${needles[@]}"; do check_contains "$name: says '$n'" "$n" "$(cat "$T/err")"; done
}

# --- MariaDB, mysql driver ---------------------------------------------------------
M="--mysql-host=127.0.0.1 --mysql-user=sbtest --mysql-db=sbtest"
ping "mysql answers" 0 "oltp: ping: mysql: 127.0.0.1:$MARIADB_PORT as sbtest: answered in" -- \
  $M --mysql-port="$MARIADB_PORT" --mysql-password=sbtest
OLTP_MYSQL_PASSWORD=sbtest ping "mysql, password from the environment" 0 "answered in" -- \
  $M --mysql-port="$MARIADB_PORT"
ping "mysql, closed port" 3 "oltp: ping: mysql: 127.0.0.1:$CLOSED as sbtest: no connection: error 2002 (SQLSTATE 08001)" \
  "Can't connect to server on '127.0.0.1' (111)" -- $M --mysql-port="$CLOSED" --mysql-password=sbtest
ping "mysql, wrong password" 4 "oltp: ping: mysql: 127.0.0.1:$MARIADB_PORT as sbtest: login refused: error 1045 (SQLSTATE 28000)" \
  "Access denied for user 'sbtest'@'127.0.0.1'" -- $M --mysql-port="$MARIADB_PORT" --mysql-password=wrong
ping "mysql, unknown database" 4 "login refused: error 1049 (SQLSTATE 3D000)" "Unknown database 'nosuchdb'" -- \
  --mysql-host=127.0.0.1 --mysql-user=sbtest --mysql-db=nosuchdb --mysql-port="$MARIADB_PORT" --mysql-password=sbtest

# --- PostgreSQL, pgsql driver -------------------------------------------------------
P="--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-user=sbtest --pgsql-db=sbtest"
ping "pgsql answers" 0 "oltp: ping: pgsql: 127.0.0.1:$PGSQL_PORT as sbtest: answered in" -- \
  $P --pgsql-port="$PGSQL_PORT" --pgsql-password=sbtest
ping "pgsql, closed port" 3 "oltp: ping: pgsql: 127.0.0.1:$CLOSED as sbtest: no connection: error 0 (SQLSTATE 08001)" \
  "Connection refused" -- $P --pgsql-port="$CLOSED" --pgsql-password=sbtest
ping "pgsql, wrong password" 4 "oltp: ping: pgsql: 127.0.0.1:$PGSQL_PORT as sbtest: login refused: error 0 (SQLSTATE 28000)" \
  'password authentication failed for user "sbtest"' -- $P --pgsql-port="$PGSQL_PORT" --pgsql-password=wrong
( unset OLTP_PGSQL_PASSWORD
  ping "pgsql, no password" 4 "login refused" "no password supplied" -- $P --pgsql-port="$PGSQL_PORT"
  exit $CHECK_FAIL ) || CHECK_FAIL=$((CHECK_FAIL + 1))
ping "pgsql, unknown database" 4 "login refused: error 0 (SQLSTATE 3D000)" 'database "nosuchdb" does not exist' -- \
  --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-user=sbtest --pgsql-db=nosuchdb \
  --pgsql-port="$PGSQL_PORT" --pgsql-password=sbtest

# --- ODBC: MariaDB ODBC and psqlODBC -----------------------------------------------
O="--db-driver=odbc --odbc-user=sbtest"
ping "odbc maria answers" 0 "oltp: ping: odbc: data source maria as sbtest: answered in" -- \
  $O --odbc-dsn=maria --odbc-password=sbtest
ping "odbc maria, closed port" 3 "oltp: ping: odbc: data source maria_closed as sbtest: no connection" \
  -- $O --odbc-dsn=maria_closed --odbc-password=sbtest
ping "odbc maria, wrong password" 4 "oltp: ping: odbc: data source maria as sbtest: login refused: error 1045 (SQLSTATE 28000)" \
  "Access denied" -- $O --odbc-dsn=maria --odbc-password=wrong
ping "odbc maria, unknown database" 4 "login refused: error 1049 (SQLSTATE 3D000)" "Unknown database" \
  -- $O --odbc-dsn=maria_nodb --odbc-password=sbtest
ping "odbc pg answers" 0 "oltp: ping: odbc: data source pg as sbtest: answered in" -- \
  $O --odbc-dsn=pg --odbc-password=sbtest
ping "odbc pg, closed port" 3 "oltp: ping: odbc: data source pg_closed as sbtest: no connection" \
  "Connection refused" -- $O --odbc-dsn=pg_closed --odbc-password=sbtest
ping "odbc pg, wrong password" 4 "oltp: ping: odbc: data source pg as sbtest: login refused" \
  'password authentication failed for user "sbtest"' -- $O --odbc-dsn=pg --odbc-password=wrong
ping "odbc pg, unknown database" 4 "login refused" 'database "nosuchdb" does not exist' \
  -- $O --odbc-dsn=pg_nodb --odbc-password=sbtest

# --- TLS refused: the test server has no SSL; a client that requires it
# fails at once (exit 6), not "not answering yet" (issue 30) ---------------------
ping "odbc pg, SSL required of a server without it" 6 \
  "oltp: ping: odbc: data source pg_ssl as sbtest: TLS failed: error" "(SQLSTATE 08001)" \
  "server does not support SSL, but SSL was required" -- $O --odbc-dsn=pg_ssl --odbc-password=sbtest
( export PGSSLMODE=require
  ping "pgsql, SSL required of a server without it" 6 \
    "oltp: ping: pgsql: 127.0.0.1:$PGSQL_PORT as sbtest: TLS failed: error 0 (SQLSTATE 08001)" \
    "server does not support SSL, but SSL was required" -- $P --pgsql-port="$PGSQL_PORT" --pgsql-password=sbtest
  exit $CHECK_FAIL ) || CHECK_FAIL=$((CHECK_FAIL + 1))

# --- a server at its session limit: SQLSTATE 53300 on every driver -----------------
# sbtest may hold one session and a sleeper holds it: ping's connect is
# refused with the standard SQLSTATE oltp's setup connections wait on
# (oltp_odbc.sh tests that wait)
sleeper_wait() {  # sleeper_wait SQL-COUNT: until the sleeper's session is in
  for _ in $(seq 1 100); do [ "$($1)" = 1 ] && return 0; sleep 0.1; done
  return 1
}
maria_sleeping() { mariadb_sql "SELECT COUNT(*) FROM information_schema.processlist WHERE user = 'sbtest' AND info LIKE 'SELECT SLEEP%'"; }
pg_sleeping() { postgres_sql "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = 'sbtest' AND query LIKE 'SELECT pg_sleep%'" postgres; }
mariadb_sql "ALTER USER 'sbtest'@'127.0.0.1' WITH MAX_USER_CONNECTIONS 1"
mariadb --no-defaults -usbtest -psbtest -h127.0.0.1 -P"$MARIADB_PORT" -e "SELECT SLEEP(60)" >/dev/null 2>&1 &
SLEEPER=$!
check_eq "mysql: the sleeper holds sbtest's one session" 0 "$(sleeper_wait maria_sleeping; echo $?)"
ping "mysql, at max_user_connections" 3 "no connection: error 1226 (SQLSTATE 53300)" \
  "User 'sbtest' has exceeded the 'max_user_connections' resource (current value: 1)" -- \
  $M --mysql-port="$MARIADB_PORT" --mysql-password=sbtest
ping "odbc maria, at max_user_connections" 3 "no connection: error 1226 (SQLSTATE 53300)" \
  "'max_user_connections'" -- $O --odbc-dsn=maria --odbc-password=sbtest
mariadb_sql "KILL USER sbtest"; wait "$SLEEPER" 2>/dev/null
mariadb_sql "ALTER USER 'sbtest'@'127.0.0.1' WITH MAX_USER_CONNECTIONS 0"
postgres_sql "ALTER ROLE sbtest CONNECTION LIMIT 1" postgres >/dev/null
PGPASSWORD=sbtest psql -X -q -h 127.0.0.1 -p "$PGSQL_PORT" -U sbtest -d sbtest -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
SLEEPER=$!
check_eq "pgsql: the sleeper holds sbtest's one session" 0 "$(sleeper_wait pg_sleeping; echo $?)"
ping "pgsql, at the role's connection limit" 3 "no connection: error 0 (SQLSTATE 53300)" \
  'too many connections for role "sbtest"' -- $P --pgsql-port="$PGSQL_PORT" --pgsql-password=sbtest
ping "odbc pg, at the role's connection limit" 3 "(SQLSTATE 53300)" \
  'too many connections for role "sbtest"' -- $O --odbc-dsn=pg --odbc-password=sbtest
postgres_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'sbtest'" postgres >/dev/null
wait "$SLEEPER" 2>/dev/null
postgres_sql "ALTER ROLE sbtest CONNECTION LIMIT -1" postgres >/dev/null

# --- usage -------------------------------------------------------------------------
ping "unknown driver" 2 "oltp: unknown --db-driver=nosuch" -- --db-driver=nosuch
"$OLTP" oltp_read_write ping >"$T/out" 2>"$T/err"
check_eq "WORKLOAD ping is not a command: exit 2" 2 $?
check_eq "WORKLOAD ping: the message" \
  "oltp: unknown command 'ping': expected prepare, prewarm, run, cleanup, check or help" "$(cat "$T/err")"

# --- a server that accepts TCP and never speaks: bounded by --connect-timeout -----
# (it says "conn" for each connection it accepts, and holds them)
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept()[0]); print("conn", flush=True)' >"$T/mute.out" &
MUTE_PID=$!
for _ in $(seq 600); do [ -s "$T/mute.out" ] && break; sleep 0.1; done
MUTE_PORT=$(head -1 "$T/mute.out")
ping "pgsql, a silent server, --connect-timeout=2" 3 "no connection" -- \
  $P --pgsql-port="$MUTE_PORT" --pgsql-password=sbtest --connect-timeout=2
# ended by its own timeout (no clock: without it the ping waits until the
# server closes after 60 s, or alarm's last resort says otherwise)
check_contains "the silent server's ping ended by --connect-timeout" \
  "no answer within 2 s (--connect-timeout)" "$(cat "$T/err")"

# --- no password in `ps` (issue 43): oltp overwrites it in its own argv at
# start-up, as MySQL's clients do; read while it waits on the silent
# server (it connects only after parsing its options) -------------------------------
# cmdline_while_connected N ARGS...: oltp ARGS ping in the background; once
# the silent server has its Nth connection, its /proc/PID/cmdline (NULs as
# spaces) into $T/cmdline
cmdline_while_connected() {
  local n=$1; shift
  "$OLTP" "$@" ping >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 600); do [ "$(grep -c conn "$T/mute.out")" -ge "$n" ] && break; sleep 0.1; done
  tr '\0' ' ' <"/proc/$pid/cmdline" >"$T/cmdline"
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
}
conns=$(grep -c conn "$T/mute.out")
cmdline_while_connected $((conns + 1)) --mysql-host=127.0.0.1 --mysql-port="$MUTE_PORT" \
  --mysql-password=S3cret-pw --connect-timeout=30
check_eq "mysql: the password scrubbed from /proc/PID/cmdline" \
  "$OLTP --mysql-host=127.0.0.1 --mysql-port=$MUTE_PORT --mysql-password=xxxxxxxxx --connect-timeout=30 ping " \
  "$(cat "$T/cmdline")"
cmdline_while_connected $((conns + 2)) --db-driver=odbc --odbc-user=sbtest --connect-timeout=30 \
  "--odbc-connect=Driver=MariaDB;Server=127.0.0.1;Port=$MUTE_PORT;Pwd={se;c}}ret};Database=sbtest"
check_eq "odbc: the connection string's Pwd scrubbed from /proc/PID/cmdline" \
  "$OLTP --db-driver=odbc --odbc-user=sbtest --connect-timeout=30 --odbc-connect=Driver=MariaDB;Server=127.0.0.1;Port=$MUTE_PORT;Pwd=xxxxxxxxxxx;Database=sbtest ping " \
  "$(cat "$T/cmdline")"
kill "$MUTE_PID" 2>/dev/null; wait "$MUTE_PID" 2>/dev/null
# the copy oltp keeps still logs in: the password of the command line
# reaches the server
ping "mysql, a scrubbed password still logs in" 0 "answered in" -- \
  $M --mysql-port="$MARIADB_PORT" --mysql-password=sbtest
ping "odbc, a scrubbed connection string still logs in" 0 "answered in" -- \
  --db-driver=odbc --odbc-user=sbtest \
  "--odbc-connect=Driver=MariaDB;Server=127.0.0.1;Port=$MARIADB_PORT;PASSWORD=sbtest;Database=sbtest"

check_summary
