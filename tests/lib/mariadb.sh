# tests/lib/mariadb.sh — start and stop a private MariaDB server for tests.
#
# Source it, then:
#   mariadb_start            # sets MARIADB_PORT, MARIADB_SOCKET, MARIADB_DIR, MARIADB_PID
#   mariadb_sql "SQL"        # run SQL as root over the socket
#   mariadb_stop             # stop the server this shell started (by PID)
#   mariadb_dump_rows TABLE COLS FILE   # TABLE's COLS, ordered by id, as LOAD DATA's text
#   mariadb_load_rows TABLE COLS FILE [SQL]  # the mariadb client's LOAD DATA LOCAL INFILE
# Never touches the system service: a data directory under $TMPDIR, a free
# loopback port, its own socket. Users: root over the socket, and
# sbtest/sbtest@127.0.0.1 with all privileges on database sbtest.

free_port() {
  python3 - <<'PY'
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}

mariadb_start() {
  local base=${1:-}
  MARIADB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/drivebench-mariadb.XXXXXX")
  MARIADB_PORT=$(free_port)
  MARIADB_SOCKET="$MARIADB_DIR/mysqld.sock"
  chmod 755 "$MARIADB_DIR"
  mariadb-install-db --no-defaults --datadir="$MARIADB_DIR/data" --user="$(id -un)" \
    --auth-root-authentication-method=normal --skip-test-db >"$MARIADB_DIR/install.log" 2>&1 \
    || { cat "$MARIADB_DIR/install.log"; return 1; }
  mariadbd --no-defaults --datadir="$MARIADB_DIR/data" --user="$(id -un)" \
    --bind-address=127.0.0.1 --port="$MARIADB_PORT" --socket="$MARIADB_SOCKET" \
    --pid-file="$MARIADB_DIR/mysqld.pid" --log-error="$MARIADB_DIR/error.log" \
    --innodb-buffer-pool-size=${MARIADB_BUFFER_POOL:-256M} --innodb-log-file-size=64M \
    --innodb-flush-log-at-trx-commit=2 --max-connections=2000 \
    --max-prepared-stmt-count=100000 --skip-name-resolve $base &
  MARIADB_PID=$!
  for _ in $(seq 1 300); do
    if mariadb --no-defaults -uroot --socket="$MARIADB_SOCKET" -e 'select 1' >/dev/null 2>&1; then
      mariadb_sql "CREATE DATABASE IF NOT EXISTS sbtest;
        CREATE USER IF NOT EXISTS 'sbtest'@'127.0.0.1' IDENTIFIED BY 'sbtest';
        CREATE USER IF NOT EXISTS 'sbtest'@'localhost' IDENTIFIED BY 'sbtest';
        GRANT ALL ON *.* TO 'sbtest'@'127.0.0.1'; GRANT ALL ON *.* TO 'sbtest'@'localhost';"
      export MARIADB_PORT MARIADB_SOCKET MARIADB_DIR MARIADB_PID
      return 0
    fi
    kill -0 "$MARIADB_PID" 2>/dev/null || break
    sleep 0.2
  done
  echo "MariaDB did not start; its log:" >&2
  cat "$MARIADB_DIR/error.log" >&2
  return 1
}

mariadb_sql() {
  mariadb --no-defaults -uroot --socket="$MARIADB_SOCKET" -N -B -e "$1"
}

# The rows of sbtest.TABLE (columns COLS, "k, c, pad"), ordered by id, into
# FILE in LOAD DATA's default text (tab-separated, backslash escapes: what
# the client's batch mode prints).
mariadb_dump_rows() {
  mariadb_sql "SELECT $2 FROM sbtest.$1 ORDER BY id" >"$3"
}

# FILE into sbtest.TABLE (columns COLS) through the mariadb client's LOAD
# DATA LOCAL INFILE over TCP as sbtest, the statement oltp's bulk path
# sends (drv_mysql.c: CHARACTER SET binary, tab, backslash, newline), then
# SQL if given, in the same session. The server's own fast path, for
# comparisons with oltp's in-memory file.
mariadb_load_rows() {
  mariadb --no-defaults --local-infile=1 -h127.0.0.1 -P"$MARIADB_PORT" -usbtest -psbtest sbtest -e \
    "LOAD DATA LOCAL INFILE '$3' INTO TABLE $1 CHARACTER SET binary FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' ($2); ${4:-}"
}

mariadb_stop() {
  if [ -n "${MARIADB_PID:-}" ] && kill -0 "$MARIADB_PID" 2>/dev/null; then
    kill "$MARIADB_PID"
    for _ in $(seq 1 150); do kill -0 "$MARIADB_PID" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$MARIADB_PID" 2>/dev/null || true
  fi
  [ -n "${MARIADB_DIR:-}" ] && rm -rf "$MARIADB_DIR"
  MARIADB_PID=
}
