#!/usr/bin/env bash
# sysbench 1.0.20's own cram tests of its OLTP scripts, run against
# bin/sysbench (oltp in its sysbench personality) on a private MariaDB and
# a private PostgreSQL: the drop-in promise of issue 41, checked by the
# peer's tests rather than ours.
#
# The suite is sysbench's (GPL-2.0) and is never copied into the project:
# it is read from SYSBENCH_TESTS (a sysbench source checkout at 1.0.20:
# tests/t/*.t, tests/include/, src/lua/; default ../shared/sysbench-1.0.20
# beside this checkout), its .t files unchanged. Three adaptations the
# harness needs for MariaDB and PostgreSQL 15, none of them about the tool
# under test (../shared/sysbench-1.0.20/README.md), are made here, in a
# temporary folder: a `mysql` wrapper that runs MariaDB's client with
# --skip-print-query-on-error and quotes a numeric column default as
# MySQL's SHOW CREATE TABLE does (DEFAULT '0'), and a copy of the suite's
# include/ whose pgsql_common.sh lists columns ORDER BY f.attnum.
#
# Without the suite (or without cram3, Debian's python3-cram) the test says
# so in one line and is skipped (exit 77); under CI=true it fails instead.
# SYSBENCH_BIN=/usr/bin/sysbench runs the same tests against the real
# sysbench (12 of 12 pass: the harness is right); with bin/sysbench all
# twelve must pass too, byte for byte as cram compares. SYSBENCH_SUITE_TESTS
# picks a subset by name.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
. tests/lib/mariadb.sh
. tests/lib/postgres.sh

suite=${SYSBENCH_TESTS:-$root/../shared/sysbench-1.0.20}
sb_bin=${SYSBENCH_BIN:-$root/bin/sysbench}

# the tests issue 41 names
tests=(script_oltp_point_select_mysql script_oltp_point_select_pgsql
       script_oltp_insert_mysql script_oltp_insert_pgsql
       script_oltp_delete_mysql script_oltp_delete_pgsql
       script_oltp_read_write_mysql script_oltp_read_write_pgsql
       script_oltp_help drivers opt_report_interval opt_report_checkpoints)
[ -n "${SYSBENCH_SUITE_TESTS:-}" ] && read -r -a tests <<<"$SYSBENCH_SUITE_TESTS"

unavailable() {  # unavailable MESSAGE: skip, or fail under CI
  if [ "${CI:-}" = true ]; then
    echo "sysbench_suite: $1 (CI=true: the suite is required)"
    exit 1
  fi
  echo "sysbench_suite: skipped: $1"
  exit 77
}
[ -r "$suite/tests/t/script_oltp_help.t" ] && [ -d "$suite/src/lua" ] ||
  unavailable "no sysbench 1.0.20 test suite at $suite (set SYSBENCH_TESTS to a sysbench checkout)"
command -v cram3 >/dev/null || unavailable "cram3 is not installed (Debian's python3-cram)"
[ -x "$sb_bin" ] || { echo "sysbench_suite: $sb_bin is not built (make)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/drivebench-sbsuite.XXXXXX")
chmod 755 "$T"
trap 'mariadb_stop; postgres_stop; rm -rf "$T"' EXIT
mariadb_start >"$T/mariadb.log" 2>&1 || { cat "$T/mariadb.log"; exit 1; }
postgres_start >"$T/pgsql.log" 2>&1 || { cat "$T/pgsql.log"; exit 1; }

# PATH: sysbench is the binary under test; mysql is MariaDB's client as
# the suite's MySQL client would answer
mkdir -p "$T/bin" "$T/t" "$T/work"
ln -s "$(cd "$(dirname "$sb_bin")" && pwd)/$(basename "$sb_bin")" "$T/bin/sysbench"
cat >"$T/bin/mysql" <<EOF
#!/usr/bin/env bash
set -o pipefail
mariadb --no-defaults --skip-print-query-on-error --socket='$MARIADB_SOCKET' "\$@" |
  sed -E "s/^(  \\\`[^\\\`]+\\\` .* DEFAULT )(-?[0-9][0-9.]*)(,?)\$/\\1'\\2'\\3/"
EOF
chmod +x "$T/bin/mysql"
cp -r "$suite/tests/include" "$T/include"
sed -i 's/^    AND f.attnum > 0$/&\nORDER BY f.attnum/' "$T/include/pgsql_common.sh"
grep -q 'ORDER BY f.attnum' "$T/include/pgsql_common.sh" ||
  { echo "sysbench_suite: $suite/tests/include/pgsql_common.sh is not 1.0.20's (no 'AND f.attnum > 0' line)"; exit 1; }

export SBTEST_ROOTDIR="$suite/tests" SBTEST_SCRIPTDIR="$suite/src/lua" SBTEST_SUITEDIR="$suite/tests/t"
export SBTEST_INCDIR="$T/include" SBTEST_CONFIG="$T/include/config.sh"
export LUA_PATH="$SBTEST_SCRIPTDIR/?;$SBTEST_SCRIPTDIR/?.lua;$SBTEST_INCDIR/?;$SBTEST_INCDIR/?.lua"
export SBTEST_MYSQL_ARGS="--mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest"
export SBTEST_PGSQL_ARGS="--pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --pgsql-password=sbtest --pgsql-db=sbtest"
export PGHOST="$PGSQL_DIR" PGPORT="$PGSQL_PORT" PGUSER=postgres PSQLRC=/dev/null
export PATH="$T/bin:$PATH"
. "$SBTEST_CONFIG"

# each test starts from an empty database sbtest on both servers
fresh_databases() {
  mariadb_sql "DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest" &&
    postgres_sql "DROP DATABASE IF EXISTS sbtest" postgres >/dev/null &&
    postgres_sql "CREATE DATABASE sbtest OWNER sbtest" postgres >/dev/null
}

echo "sysbench suite: $suite; sysbench: $sb_bin ($("$sb_bin" --version 2>&1 | head -1))"
pass=0; fail=0
passed() { echo "ok   $t"; pass=$((pass+1)); }
failed() {  # failed WHY: the line, then cram's diff
  echo "FAIL $t $1; its diff:"
  head -n "${SYSBENCH_SUITE_DIFF_LINES:-60}" "$T/$t.out" | sed 's/^/     /'
  fail=$((fail+1))
}
for t in "${tests[@]}"; do
  # the .t by a link in a folder of ours: cram writes NAME.t.err beside it
  ln -sf "$SBTEST_SUITEDIR/$t.t" "$T/t/$t.t"
  fresh_databases || { echo "sysbench_suite: cannot reset the sbtest databases"; exit 1; }
  (cd "$T/work" && cram3 --shell=/bin/bash "$T/t/$t.t") >"$T/$t.out" 2>&1
  rc=$?
  # a test that exits 80 is "skipped" and cram exits 0: that is no pass
  grep -q '^# Ran 1 tests, 0 skipped, 0 failed\.$' "$T/$t.out" || [ $rc -ne 0 ] || rc=80
  if [ $rc -eq 0 ]; then passed; else failed "(cram exit $rc)"; fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
