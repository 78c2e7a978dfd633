#!/usr/bin/env bash
# The T-SQL check: every SQL text the mssql dialect of oltp writes (schema,
# loaders, both workloads' statements, TPC-C procedures, the checks before a
# run, the server's count of New-Orders (NOPM), `oltp tpcc check`'s conditions,
# cleanup), taken whole from bin/test_dialect with TSQL_DUMP, is parsed
# by grammars-v4's TSqlParser and linted for what SQL Server 2014 lacks or
# refuses (check.js says which rules), so one text serves 2014 through 2022.
# The lint's self-test runs first: known-bad texts must be reported, each
# by its rule, and known-good ones must pass. counts.txt holds each dump's
# exact number of records (texts) and of T-SQL statements parsed: a text
# the dump lost, or one the parser skipped, fails.
#
# The parser (the npm packages pinned by package-lock.json) is installed
# at setup time into a cache outside the tree (tests/tsql/parser.sh
# install: .ci/run and make run do it), never here: this check needs no
# network. Without node or the parser it is skipped (exit 77), saying why.
set -u
cd "$(dirname "$0")/../.."
here=tests/tsql
bin=${BIN:-bin}

if ! command -v node >/dev/null; then
  echo "tsql check: skipped: node is missing (Debian: nodejs, listed in tests/deps.txt)"
  exit 77
fi
modules=$("$here/parser.sh" dir)
if [ ! -f "$modules/.complete" ]; then
  echo "tsql check: skipped: the T-SQL parser is not installed in $modules: run tests/tsql/parser.sh install (once, with the npm registry)"
  exit 77
fi
export NODE_PATH=$modules
if [ ! -x "$bin/test_dialect" ]; then
  echo "tsql check: $bin/test_dialect is missing: run make first"
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
node "$here/check.js" --self-test "$here/selftest.sql" || rc=1
if ! TSQL_DUMP="$tmp" "./$bin/test_dialect" >"$tmp/dump.log" 2>&1; then
  cat "$tmp/dump.log"
  echo "tsql check: $bin/test_dialect could not write the T-SQL dump"
  exit 1
fi
node "$here/check.js" --counts "$here/counts.txt" "$tmp" || rc=1
exit $rc
