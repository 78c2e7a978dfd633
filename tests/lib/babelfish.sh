# tests/lib/babelfish.sh — start and stop a private Babelfish server (TDS +
# T-SQL on PostgreSQL) for tests.
#
# Source it, then:
#   babelfish_start        # sets BABELFISH_PREFIX, BABELFISH_DIR, BABELFISH_PG_PORT,
#                          # BABELFISH_TDS_PORT, BABELFISH_PID
#   babelfish_psql "SQL"   # SQL on PostgreSQL's side (database babelfish_db), as a|b rows
#   babelfish_odbc DIR     # a private unixODBC setup in DIR with the DSN sb_tds to it
#                          # (FreeTDS, TDS 7.4, database master); exports OLTP_ODBC_PASSWORD
#   babelfish_stop         # stop the server this shell started (by PID)
# babelfish/build.sh builds the tree or reuses its cache (~40 min the first
# time), under the lock file babelfish.lock of its cache directory (a build
# another process started, such as .ci/run's, is waited for). Where it
# finds no sources (exit 3: it said what to fetch and where),
# babelfish_start returns 77, the test's skip, except under CI=true,
# where the server is required: 1;
# babelfish/init.sh makes the cluster: a data directory under $TMPDIR owned
# by the `postgres` user, free loopback ports for PostgreSQL and TDS, the
# T-SQL login sbtest (password BABELFISH_PASSWORD) as sysadmin.

. "$(dirname "${BASH_SOURCE[0]}")/mariadb.sh"     # for free_port
. "$(dirname "${BASH_SOURCE[0]}")/odbc.sh"

BABELFISH_PASSWORD=Sbtest-1433

babelfish_start() {
  local top
  top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  # under the lock .ci/run's early build holds: wait for that build
  # instead of starting a second one in the same tree
  local lock=${DRIVEBENCH_CACHE:-/var/cache/drivebench}/babelfish.lock
  mkdir -p "$(dirname "$lock")" || return 1
  local rc=0
  BABELFISH_PREFIX=$(flock "$lock" "$top/babelfish/build.sh") || rc=$?
  if [ "$rc" = 3 ]; then
    if [ "${CI:-}" = true ]; then
      echo "FAIL: CI=true requires the Babelfish server: its sources are missing (see above)" >&2
      return 1
    fi
    echo "SKIP: no Babelfish sources here (see above)"
    return 77
  fi
  [ "$rc" = 0 ] || return 1
  BABELFISH_DIR=$(mktemp -d "${TMPDIR:-/tmp}/drivebench-babelfish.XXXXXX")
  chmod 755 "$BABELFISH_DIR"; chown postgres: "$BABELFISH_DIR"
  BABELFISH_PG_PORT=$(free_port)
  BABELFISH_TDS_PORT=$(free_port)
  while [ "$BABELFISH_TDS_PORT" = "$BABELFISH_PG_PORT" ]; do BABELFISH_TDS_PORT=$(free_port); done
  BABELFISH_OS_USER=postgres BABELFISH_CONF="fsync = off;synchronous_commit = off;max_connections = 300" \
    "$top/babelfish/init.sh" "$BABELFISH_PREFIX" "$BABELFISH_DIR/data" "$BABELFISH_PG_PORT" \
    "$BABELFISH_TDS_PORT" sbtest "$BABELFISH_PASSWORD" >"$BABELFISH_DIR/init.log" 2>&1 \
    || { cat "$BABELFISH_DIR/init.log" >&2; return 1; }
  BABELFISH_PID=$(head -1 "$BABELFISH_DIR/data/postmaster.pid")
  export BABELFISH_PREFIX BABELFISH_DIR BABELFISH_PG_PORT BABELFISH_TDS_PORT BABELFISH_PID
}

babelfish_psql() {
  runuser -u postgres -- "$BABELFISH_PREFIX/bin/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$BABELFISH_DIR/data" \
    -p "$BABELFISH_PG_PORT" -U postgres -d babelfish_db -c "$1"
}

babelfish_odbc() {
  odbc_setup "$1"
  odbc_add_dsn sb_tds FreeTDS Server=127.0.0.1 Port="$BABELFISH_TDS_PORT" TDS_Version=7.4 \
    Database=master ClientCharset=UTF-8
  export OLTP_ODBC_PASSWORD=$BABELFISH_PASSWORD
}

babelfish_stop() {
  if [ -n "${BABELFISH_PID:-}" ] && kill -0 "$BABELFISH_PID" 2>/dev/null; then
    kill -INT "$BABELFISH_PID"          # PostgreSQL's fast shutdown
    for _ in $(seq 1 150); do kill -0 "$BABELFISH_PID" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$BABELFISH_PID" 2>/dev/null || true
  fi
  [ -n "${BABELFISH_DIR:-}" ] && rm -rf "$BABELFISH_DIR"
  BABELFISH_PID=
}
