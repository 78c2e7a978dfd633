# tests/lib/postgres.sh — start and stop a private PostgreSQL server for tests.
#
# Source it, then:
#   postgres_start           # sets PGSQL_PORT, PGSQL_DIR (also the socket directory), PGSQL_PID
#   postgres_sql "SQL" [DB]  # run SQL as the superuser over the socket; prints rows as a|b
#   postgres_stop            # stop the server this shell started
# Never touches a system cluster: a data directory under $TMPDIR owned by the
# `postgres` user (initdb refuses to run as root), a free loopback port, its
# socket in that directory. Users: postgres over the socket (trust), and
# sbtest/sbtest over TCP (scram-sha-256), owner of database sbtest.
# PGSQL_LOG_STATEMENT=all logs every statement the server executes to
# $PGSQL_DIR/server.log, which postgres_count_statements counts exactly.
# PGSQL_OPTS adds server options ("-c name=value ...").

. "$(dirname "${BASH_SOURCE[0]}")/mariadb.sh"     # for free_port

PGSQL_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)

pg_as() {  # run a PostgreSQL program as the postgres user
  runuser -u postgres -- "$PGSQL_BIN/$1" "${@:2}"
}

postgres_start() {
  if [ -z "$PGSQL_BIN" ]; then echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; return 1; fi
  PGSQL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/drivebench-pgsql.XXXXXX")
  PGSQL_PORT=$(free_port)
  chown postgres: "$PGSQL_DIR"; chmod 755 "$PGSQL_DIR"
  pg_as initdb -D "$PGSQL_DIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    -E UTF8 --locale=C >"$PGSQL_DIR/initdb.log" 2>&1 || { cat "$PGSQL_DIR/initdb.log" >&2; return 1; }
  pg_as pg_ctl -D "$PGSQL_DIR/data" -l "$PGSQL_DIR/server.log" -w -t 60 start -o \
    "-c listen_addresses=127.0.0.1 -c port=$PGSQL_PORT -c unix_socket_directories=$PGSQL_DIR \
     -c log_statement=${PGSQL_LOG_STATEMENT:-none} \
     -c max_connections=${PGSQL_MAX_CONNECTIONS:-300} -c shared_buffers=${PGSQL_SHARED_BUFFERS:-256MB} \
     -c synchronous_commit=off -c fsync=${PGSQL_FSYNC:-off} ${PGSQL_OPTS:-}" >/dev/null 2>&1 \
    || { echo "PostgreSQL did not start; its log:" >&2; cat "$PGSQL_DIR/server.log" >&2; return 1; }
  PGSQL_PID=$(head -1 "$PGSQL_DIR/data/postmaster.pid")
  postgres_sql "CREATE ROLE sbtest LOGIN PASSWORD 'sbtest' IN ROLE pg_read_all_stats" postgres >/dev/null || return 1
  postgres_sql "CREATE DATABASE sbtest OWNER sbtest" postgres >/dev/null || return 1
  export PGSQL_PORT PGSQL_DIR PGSQL_PID
}

postgres_sql() {
  pg_as psql -X -q -A -t -v ON_ERROR_STOP=1 -h "$PGSQL_DIR" -p "$PGSQL_PORT" -U postgres \
    -d "${2:-sbtest}" -c "$1"
}

postgres_log_size() {
  stat -c %s "$PGSQL_DIR/server.log"
}

# postgres_count_statements OFFSET: statements the server logged after byte
# OFFSET of its log (PGSQL_LOG_STATEMENT=all), by kind, as
# "BEGIN=N COMMIT=N DELETE=N INSERT=N ROLLBACK=N SELECT=N UPDATE=N".
# SELECTs count only those reading sbtest tables without LIMIT (oltp's
# table check before a run is `SELECT id FROM sbtestN LIMIT 1`); both the
# simple ("statement: ...") and the extended protocol ("execute s1: ...").
postgres_count_statements() {
  tail -c +$(( $1 + 1 )) "$PGSQL_DIR/server.log" | python3 -c '
import re, sys
n = dict.fromkeys("BEGIN COMMIT DELETE INSERT ROLLBACK SELECT UPDATE".split(), 0)
for line in sys.stdin:
    m = re.search(r"LOG:  (?:statement|execute [^:]*): (\w+)(.*)", line)
    if not m: continue
    k = m.group(1).upper()
    if k == "SELECT" and (not re.search(r"FROM sbtest\d+", m.group(2)) or "LIMIT" in m.group(2)): continue
    if k in n: n[k] += 1
print(" ".join(f"{k}={v}" for k, v in n.items()))'
}

postgres_stop() {
  if [ -n "${PGSQL_PID:-}" ] && kill -0 "$PGSQL_PID" 2>/dev/null; then
    pg_as pg_ctl -D "$PGSQL_DIR/data" -m fast -w -t 30 stop >/dev/null 2>&1 || kill -9 "$PGSQL_PID" 2>/dev/null
  fi
  [ -n "${PGSQL_DIR:-}" ] && rm -rf "$PGSQL_DIR"
  PGSQL_PID=
}
