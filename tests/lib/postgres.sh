# tests/lib/postgres.sh — start and stop a private PostgreSQL server for tests.
#
# Source it, then:
#   postgres_start           # sets PGSQL_PORT, PGSQL_DIR (also the socket directory), PGSQL_PID
#   postgres_sql "SQL" [DB]  # run SQL as the superuser over the socket; prints rows as a|b
#   postgres_stop            # stop the server this shell started
# Never touches a system cluster: a data directory under $TMPDIR owned by the
# `postgres` user (initdb refuses to run as root), a free loopback port, its
# socket in that directory. pg_stat_statements is loaded, so tests can count
# statements exactly. Users: postgres over the socket (trust), and
# sbtest/sbtest over TCP (scram-sha-256), owner of database sbtest.

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
     -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_utility=on \
     -c max_connections=${PGSQL_MAX_CONNECTIONS:-300} -c shared_buffers=${PGSQL_SHARED_BUFFERS:-256MB} \
     -c synchronous_commit=off -c fsync=${PGSQL_FSYNC:-off}" >/dev/null 2>&1 \
    || { echo "PostgreSQL did not start; its log:" >&2; cat "$PGSQL_DIR/server.log" >&2; return 1; }
  PGSQL_PID=$(head -1 "$PGSQL_DIR/data/postmaster.pid")
  postgres_sql "CREATE ROLE sbtest LOGIN PASSWORD 'sbtest' IN ROLE pg_read_all_stats" postgres >/dev/null || return 1
  postgres_sql "CREATE DATABASE sbtest OWNER sbtest" postgres >/dev/null || return 1
  postgres_sql "CREATE EXTENSION pg_stat_statements;" >/dev/null || return 1
  export PGSQL_PORT PGSQL_DIR PGSQL_PID
}

postgres_sql() {
  pg_as psql -X -q -A -t -v ON_ERROR_STOP=1 -h "$PGSQL_DIR" -p "$PGSQL_PORT" -U postgres \
    -d "${2:-sbtest}" -c "$1"
}

postgres_stop() {
  if [ -n "${PGSQL_PID:-}" ] && kill -0 "$PGSQL_PID" 2>/dev/null; then
    pg_as pg_ctl -D "$PGSQL_DIR/data" -m fast -w -t 30 stop >/dev/null 2>&1 || kill -9 "$PGSQL_PID" 2>/dev/null
  fi
  [ -n "${PGSQL_DIR:-}" ] && rm -rf "$PGSQL_DIR"
  PGSQL_PID=
}
