#!/usr/bin/env bash
# The sysbench personality's command line against the real sysbench 1.0.20
# (Debian's), on a private MariaDB and PostgreSQL: the exit status of each
# error a sysbench user meets (unknown driver, no server, wrong password,
# missing table, table exists, a Lua script that is no built-in test) is
# sysbench's, with sysbench's FATAL lines on stdout; as `oltp` the same
# errors keep oltp's status 2. Then prewarm, help and --verbosity.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/mariadb.sh
. tests/lib/postgres.sh
. tests/lib/check.sh

SBX=${SYSBENCH_BIN:-./bin/sysbench}
OLTP=${OLTP_BIN:-./bin/oltp}
T=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; rm -rf "$T"' EXIT
mariadb_start || exit 1
postgres_start || exit 1
M="--mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --mysql-password=sbtest --table-size=100"
P="--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --pgsql-password=sbtest --table-size=100"
S=/usr/share/sysbench/oltp_read_write.lua
BANNER="sysbench 1.0.20-compatible oltp (drivebench $(sed -n 's/.*DRIVEBENCH_VERSION "\(.*\)"/\1/p' common/version.h))"

# same NAME ARGS...: sysbench and bin/sysbench exit alike; bin/sysbench's
# stdout into $T/out, stderr into $T/err; oltp exits 2
same() {
  local name=$1; shift
  sysbench "$@" >"$T/sb" 2>&1; local want=$?
  "$SBX" "$@" >"$T/out" 2>"$T/err"; local got=$?
  check_eq "$name: sysbench exits $want, bin/sysbench the same" "$want" "$got"
  "$OLTP" "$@" >/dev/null 2>&1
  check_eq "$name: oltp exits 2" 2 $?
}

# --- errors, MariaDB ----------------------------------------------------------
same "unknown driver" --db-driver=nonexisting $S cleanup
check_eq "unknown driver: sysbench's lines" "$BANNER

FATAL: invalid database driver name: 'nonexisting'
FATAL: \`cleanup' function failed: oltp_read_write: failed to initialize the DB driver" "$(cat "$T/out")"
same "no server" --mysql-host=127.0.0.1 --mysql-port=1 $S prepare
# (the errno in brackets is the connector's: sysbench's blocking connect
# says 115, oltp's non-blocking one 111)
check_eq "no server: sysbench's lines" "$BANNER

FATAL: unable to connect to MySQL server on host '127.0.0.1', port 1, aborting...
FATAL: error 2002: Can't connect to server on '127.0.0.1' (111)
FATAL: \`sysbench.cmdline.call_command' function failed: oltp_read_write: connection creation failed" "$(cat "$T/out")"
same "wrong password" $M --mysql-password=bad $S run
check_eq "wrong password: sysbench's lines" "FATAL: unable to connect to MySQL server on host '127.0.0.1', port $MARIADB_PORT, aborting...
FATAL: error 1045: Access denied for user 'sbtest'@'127.0.0.1' (using password: YES)
FATAL: \`thread_init' function failed: oltp_read_write: connection creation failed
FATAL: Thread initialization failed!" "$(grep ^FATAL "$T/out")"
same "missing table" $M $S run
check_eq "missing table: named, with the command that makes it" "FATAL: table sbtest1 is missing: run \`sysbench oltp_read_write --tables=1 --table-size=100 prepare\` first
FATAL: \`thread_init' function failed: oltp_read_write: SQL API error
FATAL: Thread initialization failed!" "$(grep ^FATAL "$T/out")"
"$SBX" $M $S prepare >"$T/out" 2>&1
check_eq "prepare exits 0" 0 $?
same "table exists" $M $S prepare
check_contains "table exists: sysbench's closing line" "FATAL: \`sysbench.cmdline.call_command' function failed: oltp_read_write: SQL error" "$(cat "$T/out")"
echo 'print("mine")' >"$T/custom.lua"
same "a custom Lua script" $M "$T/custom.lua" run
check_eq "a custom Lua script: one line that says so" "FATAL: '$T/custom.lua' is a Lua script that is none of sysbench's OLTP scripts: this sysbench (oltp) runs its built-in OLTP workloads only, no Lua (see sysbench --help)" "$(tail -n +3 "$T/out")"
"$SBX" fileio run >"$T/out" 2>&1
check_eq "a test of sysbench's that is no OLTP test: exit 1" 1 $?
check_contains "a test of sysbench's that is no OLTP test: sysbench's line" "FATAL: Cannot find benchmark 'fileio': no such built-in test, file or module" "$(cat "$T/out")"
same "an unknown option" --bogus=1 $S run
check_eq "an unknown option: sysbench's line on stderr" "invalid option: --bogus=1" "$(cat "$T/err")"

# sysbench's whole output but for its first line and where it names its
# Lua file: the run's header, then the error
like_sysbench() {  # like_sysbench NAME ARGS...: stdout and stderr together
  local name=$1; shift
  diff <("$SBX" "$@" 2>&1) <(sysbench "$@" 2>&1 | sed -e "1s/.*/$BANNER/" \
    -e 's|/usr/share/sysbench/oltp_common.lua:[0-9]*|oltp_read_write|') >"$T/diff"
  check_eq "$name: sysbench's output" "" "$(cat "$T/diff")"
}
like_sysbench "run with an unknown driver" --db-driver=nonexisting $S run
like_sysbench "an unknown option" $M --bogus=1 $S run
like_sysbench "an unknown command" $M $S bogus
like_sysbench "a test that does not exist" $M /no/such/test.lua run

# --- prewarm, help, --verbosity -----------------------------------------------
"$SBX" $M --tables=1 oltp_read_write prewarm >"$T/out" 2>&1
check_eq "prewarm exits 0" 0 $?
check_eq "prewarm: sysbench's lines" "$BANNER

Prewarming table sbtest1" "$(cat "$T/out")"
"$SBX" $M --verbosity=0 $S cleanup >"$T/out" 2>&1
check_eq "--verbosity=0 cleanup: the script's lines, no banner" "Dropping table 'sbtest1'..." "$(cat "$T/out")"
diff <("$SBX" $S help) <(sysbench $S help | sed "1s/.*/$BANNER/") >"$T/diff"
check_eq "help: sysbench's text" "" "$(cat "$T/diff")"

# --- errors, PostgreSQL ---------------------------------------------------------
same "PostgreSQL: wrong password" $P --pgsql-password=bad $S prepare
check_eq "PostgreSQL: wrong password: sysbench's lines (libpq's message without its prefix)" 'FATAL: Connection to database failed: password authentication failed for user "sbtest"
FATAL: `sysbench.cmdline.call_command'"'"' function failed: oltp_read_write: connection creation failed' "$(tail -n +3 "$T/out")"
"$SBX" $P $S prepare >/dev/null 2>&1
same "PostgreSQL: table exists" $P $S prepare
"$SBX" $P $S prewarm >"$T/out" 2>&1
check_eq "PostgreSQL: prewarm exits 1" 1 $?
check_eq "PostgreSQL: prewarm is MySQL only" "FATAL: \`sysbench.cmdline.call_command' function failed: oltp_read_write: prewarm is currently MySQL only" "$(tail -n +3 "$T/out")"
"$SBX" $P $S cleanup >/dev/null 2>&1
# (sysbench 1.0.20 itself crashes here, SIGSEGV after its FATAL lines)
"$SBX" $P --tables=2 $S run >"$T/out" 2>&1
check_eq "PostgreSQL: missing table: exit 1" 1 $?
check_eq "PostgreSQL: missing table: named" "FATAL: table sbtest1 is missing: run \`sysbench oltp_read_write --tables=2 --table-size=100 prepare\` first
FATAL: \`thread_init' function failed: oltp_read_write: SQL API error
FATAL: Thread initialization failed!" "$(grep ^FATAL "$T/out")"

check_summary
