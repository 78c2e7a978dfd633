#!/usr/bin/env bash
# The server's own fast path for prepare_vs_sysbench.sh: the tables of
# `oltp_read_write prepare` loaded from files by the mariadb client, the
# same work as `oltp --bulk=on prepare` with the rows read from disk
# instead of made: oltp creates the empty tables (its own DDL), then
# THREADS mariadb clients at a time each run LOAD DATA LOCAL INFILE of one
# table's file and build its index on k, as oltp's loader threads do.
#
# Usage: OLTP_BIN=... OLTP_CONN="--mysql-host=... --mysql-port=... --mysql-user=..."
#        MARIADB_PORT=... bench/mariadb_load_files.sh DIR TABLES THREADS
# DIR holds sbtestN.tsv (tests/lib/mariadb.sh's mariadb_dump_rows of
# columns k, c, pad).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$1; TABLES=$2; THREADS=$3
. tests/lib/mariadb.sh
# shellcheck disable=SC2086  # OLTP_CONN is a list of options
"$OLTP_BIN" $OLTP_CONN --tables="$TABLES" --table-size=0 --create-secondary=off oltp_read_write prepare >/dev/null
export -f mariadb_load_rows
export DIR
seq 1 "$TABLES" | xargs -P "$THREADS" -I{} bash -c \
  'mariadb_load_rows sbtest{} "k, c, pad" "$DIR/sbtest{}.tsv" "CREATE INDEX k_{} ON sbtest{}(k)"'
