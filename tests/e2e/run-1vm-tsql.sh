#!/usr/bin/env bash
# End-to-end: `drivebench run` of one tiny VM serving SQL Server's TDS
# protocol and T-SQL (engine babelfish: Babelfish for PostgreSQL in
# drivebench's Debian 12 image), the host's oltp reaching the guest's
# 1433 through the loopback port forward, unixODBC and Debian's FreeTDS
# driver, with the mssql dialect oltp learns from SQL_DBMS_NAME: the path
# of plans/sqlserver-tpcc.ini. E2E_TSQL_RUNS picks the runs (default
# "sysbench tpcc"):
#   sysbench  oltp_read_write, 1 table x 1,000 rows, 2 threads, 30 s of
#             warm-up (a new Babelfish session's parser starts cold: its
#             first statements take seconds under TCG), 10 s measured
#   tpcc      plans/quick-tsql.ini's workload: TPC-C, 1 warehouse loaded
#             through prepared INSERTs (--bulk=values), 2 threads, 10 s
#             of preconditioning, warm-up and measured time as the plan
#             has them, then drivebench's `oltp tpcc check`
# Each run must end with exit 0 and a summary whose one drive has TPS > 0
# and no failed VM, whose totals are the sums of the VM's result file
# (e2e_check_totals), whose server version is what Babelfish 4.2.0 tells
# ODBC (SQL_DBMS_VER 12.00.2000, SQL Server 2014's major), whose VM has
# its server read back (`oltp settings`: 12.0.2000.8, Standard Edition,
# the six SQL Server settings, those Babelfish lacks with no value), and whose
# database size is the server's figure: the result file's start figure,
# more than the tables' rows alone, no log figure (Babelfish's WAL is the
# cluster's; oltp/dialect.c); every oltp got the FreeTDS connection
# string, the readiness pings a login time of 90 s, no password on an
# argv or in the results; nothing is left behind (`drivebench list`, the
# drive folder).
#
# Builds (or reuses) Babelfish (babelfish/build.sh: ~40 min of CPU the
# first time) and images/build/babelfish (images/build.sh --engine
# babelfish) unless E2E_IMAGE_DIR names a built Babelfish image folder.
# Starts libvirt if nothing runs it. Bounded by E2E_RUN_TIMEOUT seconds
# per run (default 1200 for sysbench, 5400 for tpcc: the load of one
# warehouse in the TCG guest took over 27 min for 215,000 of its ~600,000
# rows on a machine at load 17-135). On failure prints
# the serial console and the run's output, and keeps the run folder in
# tests/artifacts/. Always tears its runs down.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

runs=${E2E_TSQL_RUNS:-sysbench tpcc}
drivebench=$E2E_TOP/bin/drivebench
tag=e2e-tsql-$$-$RANDOM
current=

e2e_test_cleanup() {
  [ -n "$E2E_WORK" ] || return 0
  for id in "$tag-sysbench" "$tag-tpcc"; do
    "$drivebench" teardown "$id" --uri="$E2E_URI" >/dev/null 2>&1 || true
  done
  [ "$1" != 0 ] && [ -n "$current" ] || return 0
  e2e_run_failed "$E2E_WORK" "$current"
}
e2e_begin virsh jq timeout python3

[ -x "$drivebench" ] || e2e_fail "$drivebench missing: run make first"
[ -x "$E2E_TOP/bin/oltp" ] || e2e_fail "$E2E_TOP/bin/oltp missing: run make first"
odbcinst -q -d 2>/dev/null | grep -qx '\[FreeTDS\]' \
  || e2e_fail "FreeTDS is not registered as an ODBC driver (install tdsodbc)"

e2e_engine_image babelfish
e2e_libvirt_up || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)

# every oltp the orchestrator starts logs its arguments (the real one runs)
e2e_run_work tsql
work=$E2E_WORK

# plan NAME WORKLOAD-LINES: engine babelfish with its defaults (odbc,
# FreeTDS, login drivebench, database sbtest)
plan() {
  e2e_engine_plan "$work/$1.ini" "e2e tsql" babelfish "$type" 20m "" "threads = 2
$2"
}
plan sysbench $'name = oltp_read_write\ntables = 1\ntable_size = 1000\nwarmup = 30s\nmeasure = 10s'
# the workload of plans/quick-tsql.ini, as drivebench reads it
quick() { "$drivebench" plan get workload "$1" "$E2E_TOP/plans/quick-tsql.ini"; }
plan tpcc "name = $(quick name)
warehouses = $(quick warehouses)
extra = $(quick extra)
precondition = $(quick precondition)s
warmup = $(quick warmup)s
measure = $(quick measure)s"

for kind in $runs; do
  id=$tag-$kind
  run_timeout=${E2E_RUN_TIMEOUT:-$([ "$kind" = tpcc ] && echo 5400 || echo 1200)}
  current=$id
  : >"$work/argv.log"
  e2e_say "drivebench run, Babelfish through FreeTDS, $kind ($type, run id $id)"
  t0=$(date +%s)
  timeout -k 30 "$run_timeout" "$drivebench" run "$work/$kind.ini" --run-id="$id" \
    >"$work/$id.log" 2>&1 || e2e_fail "drivebench run ($kind) failed or took longer than ${run_timeout}s"
  e2e_say "$kind: run finished in $(( $(date +%s) - t0 ))s"
  rdir=$work/results/$id
  sum=$rdir/summary.json
  [ -s "$sum" ] || e2e_fail "$kind: no summary.json"
  jq -e '.drives | length == 1 and all(.tps > 0)' "$sum" >/dev/null \
    || e2e_fail "$kind: a drive without TPS > 0: $(jq -c '.drives' "$sum")"
  [ "$(jq '.run.failed_vms' "$sum")" = 0 ] || e2e_fail "$kind: a VM failed: $(jq -c '.vms' "$sum")"
  e2e_check_totals "$rdir"
  # issue 44: the server read back before the measurement (`oltp
  # settings` in the guest's place), Babelfish 4.2.0's answers: what it
  # has, and what SQL Server has that it lacks named with no value
  jq -e '.vms[0].server | .version == "12.0.2000.8" and .edition == "Standard Edition"
         and ([.settings[].name] == ["max server memory (MB)", "recovery model",
              "read committed snapshot", "target recovery time (s)",
              "instant file initialization", "data and log files"])
         and ([.settings[] | .value] == [null, "FULL", "1", "0", null, null])' "$sum" >/dev/null \
    || e2e_fail "$kind: summary.json: the server settings read back: $(jq -c '.vms[0].server' "$sum")"
  ver=$(jq -r '.vms[0].server_version' "$sum")
  [ "$ver" = 12.00.2000 ] || e2e_fail "$kind: server_version $ver, not Babelfish 4.2.0's 12.00.2000"
  jq -e '.vms[0].tps > 0 and .vms[0].status == "ok"' "$sum" >/dev/null \
    || e2e_fail "$kind: the VM: $(jq -c '.vms[0] | {status, tps, fault, reason}' "$sum")"
  # the size: the server's figure (the start of the VM's first oltp run:
  # the precondition's when there is one), in the summary as the VM's
  # loaded size; no log figure
  out=$(python3 - "$rdir" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
vm = s["vms"][0]
f = sys.argv[1] + "/" + (vm.get("precondition_result") or vm["result"])
start = json.load(open(f))["database_size"]["start"]
loaded = vm["database_size"]["loaded"]
print(start.get("data_bytes"), loaded.get("data_bytes"), "log_bytes" in start, "log_bytes" in loaded)
PY
) || e2e_fail "$kind: reading the database sizes: $out"
  read -r start loaded log1 log2 <<<"$out"
  if [ "$start" != "$loaded" ] || [ "$log1 $log2" != "False False" ]; then
    e2e_fail "$kind: database size: result file start $start, summary loaded $loaded, log figures $log1 $log2 (want equal, none)"
  fi
  # more than the rows' own bytes: 1,000 sysbench rows of ~190 bytes; TPC-C's
  # ~600,000 rows of one warehouse, ~50 MiB in SQL Server's row formula
  min=$([ "$kind" = tpcc ] && echo $((50 * 1048576)) || echo 190000)
  [ "$start" -gt "$min" ] || e2e_fail "$kind: database size $start bytes, not above $min"
  if [ "$kind" = tpcc ]; then
    grep -q 'check on 1 VM' "$work/$id.log" || e2e_fail "tpcc: drivebench ran no TPC-C check"
    grep -q 'tpcc check$' "$work/argv.log" || e2e_fail "tpcc: oltp tpcc check never ran"
    grep -q -- '--bulk=values .*tpcc prepare$' "$work/argv.log" || e2e_fail "tpcc: prepare did not load with --bulk=values"
  fi
  n=$(grep -c . "$work/argv.log")
  [ "$(grep -c -- '--db-driver=odbc --odbc-connect=Driver={FreeTDS};Server=127.0.0.1;Port=[0-9]*;Database=sbtest;TDS_Version=7.4;ClientCharset=UTF-8 --odbc-user=drivebench ' "$work/argv.log")" = "$n" ] \
    || e2e_fail "$kind: not every one of the $n oltp argv has the FreeTDS connection string: $(head -3 "$work/argv.log")"
  grep -q -- '--connect-timeout=90 ping$' "$work/argv.log" || e2e_fail "$kind: readiness never ran oltp ping with a 90 s login"
  ! grep -q -- '-password\|PWD=' "$work/argv.log" || e2e_fail "$kind: a password appeared on an oltp argv"
  ! grep -lq -- '"[a-z_]*password"' "$rdir"/summary.json "$rdir"/vm/*.json \
    || e2e_fail "$kind: a password appeared in a result or summary"
  e2e_say "$kind: $(jq -r '.drives[] | "drive \(.name): \(.tps) TPS, avg \(.latency_ms.avg) ms, p99 \(.latency_ms.p99) ms"' "$sum"), database $start bytes"
  left=$("$drivebench" list --uri="$E2E_URI" 2>/dev/null | grep -F "$id" || true)
  [ -z "$left" ] || e2e_fail "$kind: drivebench list still shows the run: $left"
  [ -z "$(find "$work/drive" -mindepth 1)" ] || e2e_fail "$kind: files left on the drive: $(ls "$work/drive")"
done
current=
e2e_say "PASS (runs: $runs)"
