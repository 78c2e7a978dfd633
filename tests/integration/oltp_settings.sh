#!/usr/bin/env bash
# Integration test of `oltp settings` (issue 44): the version, edition and
# settings that move a drive's figures, read from real servers started
# here with known settings (tests/lib: MariaDB with a 256 MiB buffer pool,
# 64 MiB log file, innodb_flush_log_at_trx_commit=2; PostgreSQL with
# shared_buffers=256MB, synchronous_commit=off; Babelfish from its cached
# tree), each value checked in the JSON document drivebench reads; the
# plan's stated settings recorded as "wanted"; what Babelfish lacks named
# "not available on this server" with the SQL Server documentation; a
# bad --server-settings refused with one line and exit 2.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/postgres.sh         # also brings tests/lib/mariadb.sh
. tests/lib/babelfish.sh
. tests/lib/odbc.sh
. tests/lib/check.sh

T=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; babelfish_stop; rm -rf "$T"' EXIT
OLTP=${OLTP_BIN:-./bin/oltp}
mariadb_start >"$T/mariadb.log" 2>&1 || { cat "$T/mariadb.log"; exit 1; }
postgres_start || exit 1

# jq FILTER FILE: one value of the document
j() { jq -r "$1" "$2"; }
setting() { j ".settings[] | select(.name == \"$1\") | ${3:-.value}" "$2"; }

# --- MariaDB ---------------------------------------------------------------
M="--mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest"
$OLTP $M --server-settings='innodb_buffer_pool_size=256M;max_connections=2000' \
  --json="$T/my.json" settings >"$T/out" 2>"$T/err"
check_eq "mariadb: exit status" 0 "$?"
check_eq "mariadb: nothing on stderr" "" "$(cat "$T/err")"
check_eq "mariadb: schema" "drivebench-server-settings/1" "$(j .schema "$T/my.json")"
check_eq "mariadb: version" "$(mariadb_sql 'SELECT VERSION()')" "$(j .version "$T/my.json")"
check_eq "mariadb: edition (version_comment)" "$(mariadb_sql 'SELECT @@version_comment')" \
  "$(j .edition "$T/my.json")"
check_eq "mariadb: buffer pool" 268435456 "$(setting innodb_buffer_pool_size "$T/my.json")"
check_eq "mariadb: buffer pool wanted" 256M "$(setting innodb_buffer_pool_size "$T/my.json" .wanted)"
check_eq "mariadb: log file size" 67108864 "$(setting innodb_log_file_size "$T/my.json")"
check_eq "mariadb: flush method" "$(mariadb_sql 'SELECT @@innodb_flush_method')" \
  "$(setting innodb_flush_method "$T/my.json")"
check_eq "mariadb: flush at commit" 2 "$(setting innodb_flush_log_at_trx_commit "$T/my.json")"
check_eq "mariadb: a stated setting outside the list" "2000 2000" \
  "$(setting max_connections "$T/my.json" '"\(.value) \(.wanted)"')"
check_eq "mariadb: five settings" 5 "$(j '.settings | length' "$T/my.json")"
check_contains "mariadb: a line per setting" "  innodb_buffer_pool_size = 268435456  (the plan: 256M" \
  "$(cat "$T/out")"
$OLTP $M --server-settings='no_such_variable=1' --json="$T/my2.json" settings >/dev/null 2>&1
check_eq "mariadb: an unknown variable: no value" null "$(setting no_such_variable "$T/my2.json")"
check_contains "mariadb: an unknown variable: the server's error" \
  "not available on this server: error 1193" "$(setting no_such_variable "$T/my2.json" .note)"

# --- refusals --------------------------------------------------------------
$OLTP $M --server-settings="a=1;b'c=2" settings >"$T/out" 2>"$T/err"
check_eq "a quote in a name: exit 2" 2 "$?"
check_eq "a quote in a name: one line" \
  "oltp: --server-settings: 'b'c=2': a name or value may hold letters, digits, spaces and _ . - ( ) only" \
  "$(cat "$T/err")"
check_eq "a quote in a name: nothing on stdout" "" "$(cat "$T/out")"
$OLTP $M --server-settings="novalue" settings >"$T/out" 2>"$T/err"
check_eq "not NAME=VALUE: exit 2" 2 "$?"
check_eq "not NAME=VALUE: one line" "oltp: --server-settings: 'novalue' is not NAME=VALUE" "$(cat "$T/err")"

# --- PostgreSQL ------------------------------------------------------------
P="--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --pgsql-password=sbtest --pgsql-db=sbtest"
$OLTP $P --server-settings='shared_buffers=256MB' --json="$T/pg.json" settings >"$T/out" 2>"$T/err"
check_eq "pgsql: exit status" 0 "$?"
check_eq "pgsql: nothing on stderr" "" "$(cat "$T/err")"
check_eq "pgsql: version" "$(postgres_sql 'SHOW server_version')" "$(j .version "$T/pg.json")"
check_eq "pgsql: no edition" null "$(j .edition "$T/pg.json")"
check_eq "pgsql: shared_buffers" "256MB 256MB" \
  "$(setting shared_buffers "$T/pg.json" '"\(.value) \(.wanted)"')"
check_eq "pgsql: max_wal_size" "$(postgres_sql 'SHOW max_wal_size')" "$(setting max_wal_size "$T/pg.json")"
check_eq "pgsql: synchronous_commit" off "$(setting synchronous_commit "$T/pg.json")"
check_eq "pgsql: full_page_writes" on "$(setting full_page_writes "$T/pg.json")"
check_eq "pgsql: four settings" 4 "$(j '.settings | length' "$T/pg.json")"

# --- Babelfish (T-SQL through FreeTDS) -------------------------------------
babelfish_start
rc=$?
if [ "$rc" = 77 ]; then
  echo "SKIP: Babelfish (no sources here)"
  check_summary
  exit $?
fi
[ "$rc" = 0 ] || exit 1
babelfish_odbc "$T/odbc"
B="--db-driver=odbc --odbc-dsn=sb_tds --odbc-user=sbtest"
$OLTP $B --server-settings='max server memory=49152' --json="$T/bf.json" settings >"$T/out" 2>"$T/err"
check_eq "babelfish: exit status" 0 "$?"
check_eq "babelfish: version" 12.0.2000.8 "$(j .version "$T/bf.json")"
check_eq "babelfish: edition" "Standard Edition" "$(j .edition "$T/bf.json")"
check_eq "babelfish: max server memory: no value" "null 49152" \
  "$(setting 'max server memory (MB)' "$T/bf.json" '"\(.value) \(.wanted)"')"
check_eq "babelfish: max server memory: the documentation" \
  "not available on this server (SQL Server: sys.configurations 'max server memory (MB)', learn.microsoft.com/sql/database-engine/configure-windows/server-memory-server-configuration-options)" \
  "$(setting 'max server memory (MB)' "$T/bf.json" .note)"
check_eq "babelfish: recovery model" FULL "$(setting 'recovery model' "$T/bf.json")"
check_eq "babelfish: RCSI" 1 "$(setting 'read committed snapshot' "$T/bf.json")"
check_eq "babelfish: target recovery time" 0 "$(setting 'target recovery time (s)' "$T/bf.json")"
check_contains "babelfish: IFI not available" \
  "not available on this server (SQL Server: sys.dm_server_services instant_file_initialization_enabled" \
  "$(setting 'instant file initialization' "$T/bf.json" .note)"
check_contains "babelfish: files not available" \
  "not available on this server (SQL Server: sys.database_files size, growth, is_percent_growth" \
  "$(setting 'data and log files' "$T/bf.json" .note)"
check_eq "babelfish: six settings" 6 "$(j '.settings | length' "$T/bf.json")"
check_contains "babelfish: sp_configure's refusal is one warning" "oltp: settings: sp_configure 'max server memory', 49152 refused" \
  "$(cat "$T/err")"
check_summary
