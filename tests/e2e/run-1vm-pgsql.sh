#!/usr/bin/env bash
# End-to-end: `drivebench run` of one VM serving PostgreSQL (engine
# postgresql), twice:
#   1. oltp_read_write (1 table x 1,000 rows, 2 threads, 10 s) through
#      oltp's pgsql driver (libpq);
#   2. TPC-C (1 warehouse, 2 threads, 10 s) through the odbc driver with
#      psqlODBC ("PostgreSQL Unicode", a DSN-less connection string the
#      orchestrator builds): the ODBC path SQL Server takes, with the pgsql
#      dialect that oltp picks from SQL_DBMS_NAME. drivebench runs
#      `oltp tpcc check` after the measured phase.
# Each run must end with a summary whose one drive has TPS > 0 and no
# failed VM (so TPC-C's check passed), the VM's server read back (version
# 15, the four settings, the pgsql plan's [settings] synchronous_commit =
# off applied and stated), the password on no oltp argv or in
# the run folder, and nothing left behind (`drivebench list` shows no
# object of the run, the drive folder is empty).
#
# Builds (or reuses) images/build/postgresql (images/build.sh --engine
# postgresql) unless E2E_IMAGE_DIR names a built PostgreSQL image folder to
# use as it is. Starts libvirt if nothing runs it. E2E_PG_RUNS picks the
# runs (default "pgsql odbc"); E2E_CONTROLLER sets [run] controller (e.g.
# lsisas1068; default the profile's). Bounded by E2E_RUN_TIMEOUT seconds per run
# (default 900 for pgsql, 2400 for odbc: TPC-C's prepare of one warehouse,
# ~500,000 rows, takes the 1-vCPU TCG guest about 15 minutes on a busy
# 2-core machine). On failure prints the serial console and the run's
# output. Always tears its runs down.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

runs=${E2E_PG_RUNS:-pgsql odbc}
controller=${E2E_CONTROLLER:-}
drivebench=$E2E_TOP/bin/drivebench
tag=e2e-pg-$$-$RANDOM
current=

e2e_test_cleanup() {
  [ -n "$E2E_WORK" ] || return 0
  for id in "$tag-pgsql" "$tag-odbc"; do
    "$drivebench" teardown "$id" --uri="$E2E_URI" >/dev/null 2>&1 || true
  done
  [ "$1" != 0 ] && [ -n "$current" ] || return 0
  e2e_run_failed "$E2E_WORK" "$current"
}
e2e_begin virsh jq timeout

[ -x "$drivebench" ] || e2e_fail "$drivebench missing: run make first"
[ -x "$E2E_TOP/bin/oltp" ] || e2e_fail "$E2E_TOP/bin/oltp missing: run make first"
odbcinst -q -d 2>/dev/null | grep -qx '\[PostgreSQL Unicode\]' \
  || e2e_fail "psqlODBC is not registered as 'PostgreSQL Unicode' (install odbc-postgresql)"

e2e_engine_image postgresql
e2e_libvirt_up || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)

# every oltp the orchestrator starts logs its arguments (the real one runs)
e2e_run_work pg
work=$E2E_WORK

# plan NAME DRIVER WORKLOAD-LINES
plan() {
  e2e_engine_plan "$work/$1.ini" "e2e pgsql" postgresql "$type" 10m "${controller:+controller = $controller}" \
    "db_driver = $2
threads = 2
measure = 10s
$3"
}
plan pgsql pgsql $'name = oltp_read_write\ntables = 1\ntable_size = 1000'
# issue 44: a stated setting the image applies at boot and the run reads back
printf '\n[settings]\nsynchronous_commit = off\n' >>"$work/pgsql.ini"
plan odbc odbc $'name = tpcc\nwarehouses = 1'

for kind in $runs; do
  id=$tag-$kind
  run_timeout=${E2E_RUN_TIMEOUT:-$([ "$kind" = odbc ] && echo 2400 || echo 900)}
  current=$id
  e2e_say "drivebench run, PostgreSQL through $kind ($type, run id $id)"
  t0=$(date +%s)
  timeout -k 30 "$run_timeout" "$drivebench" run "$work/$kind.ini" --run-id="$id" \
    >"$work/$id.log" 2>&1 || e2e_fail "drivebench run ($kind) failed or took longer than ${run_timeout}s"
  e2e_say "$kind: run finished in $(( $(date +%s) - t0 ))s"
  sum=$work/results/$id/summary.json
  [ -s "$sum" ] || e2e_fail "$kind: no summary.json"
  jq -e '.drives | length == 1 and all(.tps > 0)' "$sum" >/dev/null \
    || e2e_fail "$kind: a drive without TPS > 0: $(jq -c '.drives' "$sum")"
  jq -e '.run.transactions > 0' "$sum" >/dev/null || e2e_fail "$kind: no transactions"
  e2e_check_totals "$work/results/$id"
  # issue 44: each VM's server read back before the measurement: its
  # version, the four settings, the stated one applied (pgsql's plan)
  if [ "$kind" = pgsql ]; then sc='"off"' wanted='"off"'; else sc='"on"' wanted=null; fi
  jq -e --argjson sc "$sc" --argjson wanted "$wanted" '[.vms[]
         | select(.server.version // "" | startswith("15."))
         | select([.server.settings[].name] == ["shared_buffers", "max_wal_size", "synchronous_commit", "full_page_writes"])
         | select(all(.server.settings[]; (.value // "") != ""))
         | select(.server.settings[2] | .value == $sc and .wanted == $wanted)] | length == 1' "$sum" >/dev/null \
    || e2e_fail "$kind: summary.json: the server settings read back: $(jq -c '[.vms[].server]' "$sum")"
  if [ "$kind" = pgsql ]; then
    jq -e '.fingerprint.server_settings | contains("synchronous_commit=off")' "$sum" >/dev/null \
      || e2e_fail "pgsql: the fingerprint lacks the stated setting: $(jq -c '.fingerprint.server_settings' "$sum")"
  fi
  e2e_say "$kind: server $(jq -r '.vms[0].server | "\(.version): " + ([.settings[] | "\(.name)=\(.value)"] | join(", "))' "$sum")"
  ! grep -q 'completed with failures' "$work/$id.log" \
    || e2e_fail "$kind: a VM failed (see the run output)"
  if [ "$kind" = odbc ]; then
    grep -q 'check on 1 VM' "$work/$id.log" || e2e_fail "odbc: drivebench ran no TPC-C check"
    grep -q -- '--db-driver=odbc --odbc-connect=Driver={PostgreSQL Unicode};Server=127.0.0.1;Port=' "$work/argv.log" \
      || e2e_fail "odbc: no DSN-less psqlODBC connection string on oltp's argv"
    grep -q 'tpcc check$' "$work/argv.log" || e2e_fail "odbc: oltp tpcc check never ran"
  else
    grep -q -- '--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=' "$work/argv.log" \
      || e2e_fail "pgsql: no --pgsql-* options on oltp's argv"
  fi
  e2e_say "$kind: $(jq -r '.drives[] | "drive \(.name): \(.tps) TPS, avg \(.latency_ms.avg) ms, p99 \(.latency_ms.p99) ms"' "$sum")"
  left=$("$drivebench" list --uri="$E2E_URI" 2>/dev/null | grep -F "$id" || true)
  [ -z "$left" ] || e2e_fail "$kind: drivebench list still shows the run: $left"
  [ -z "$(find "$work/drive" -mindepth 1)" ] || e2e_fail "$kind: files left on the drive: $(ls "$work/drive")"
done
grep -q ping "$work/argv.log" || e2e_fail "readiness never ran oltp ping"
! grep -q 'drivebench' <(grep -o -- '-password[^ ]*\|PWD=[^ ;]*' "$work/argv.log") \
  || e2e_fail "a password appeared on an oltp argv"
! grep -lq -- '"[a-z_]*password"' "$work"/results/*/summary.json "$work"/results/*/vm/*.json \
  || e2e_fail "a password field appeared in a result or summary"
current=
e2e_say "PASS (readiness through oltp ping; runs: $runs)"
