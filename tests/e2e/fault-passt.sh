#!/usr/bin/env bash
# network = passt on the exit paths that are not a normal end (issue 33,
# item 4): one tiny VM serving PostgreSQL through passt, twice.
#   1. SIGTERM (the stop request a ^C makes; a background job of a script
#      starts with SIGINT ignored, which drivebench keeps) to drivebench
#      while it measures: it exits 130, its own
#      teardown says "stopped 1 passt network(s)", and passt's PID, PID
#      file and socket, the namespace, the domain and volumes are gone.
#   2. SIGKILL to drivebench while it measures: passt and the namespace
#      outlive it (nothing ran drivebench's teardown); `drivebench
#      teardown RUN` then stops passt by its PID file and deletes the
#      namespace ("stopped 1 passt network(s)"), and nothing is left.
# About 4-5 minutes under TCG (two boots). Run by `make e2e`.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

drivebench=$E2E_TOP/bin/drivebench
tag=e2e-passtf-$$-$RANDOM
run_pid=''

e2e_test_cleanup() {
  [ -z "$run_pid" ] || kill -9 "$run_pid" 2>/dev/null || true
  [ -n "$E2E_WORK" ] || return 0
  for r in "$tag-int" "$tag-kill"; do
    "$drivebench" teardown "$r" --uri="$E2E_URI" >/dev/null 2>&1 || true
  done
}
e2e_begin virsh jq timeout passt ip

[ -x "$drivebench" ] || e2e_fail "$drivebench missing: run make first"
e2e_engine_image postgresql
e2e_libvirt_up || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)
e2e_run_work passtf
work=$E2E_WORK
e2e_engine_plan "$work/pg.ini" "e2e passt faults" postgresql "$type" 10m "network = passt" \
  $'db_driver = pgsql\nname = oltp_read_write\ntables = 1\ntable_size = 1000\nthreads = 2\nmeasure = 10m'

# 0 when passt $1 no longer runs (gone, or a zombie not yet reaped by init)
passt_ended() {
  [ ! -e "/proc/$1" ] || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# start run $1 in the background; wait until it measures; passt's PID
start_measuring() {
  : >"$work/argv.log"
  "$drivebench" run "$work/pg.ini" --run-id="$1" >"$work/$1.log" 2>&1 &
  run_pid=$!
  until grep -q ' run$' "$work/argv.log" 2>/dev/null; do
    kill -0 "$run_pid" 2>/dev/null || e2e_fail "$1: drivebench ended before measuring: $(tail -5 "$work/$1.log")"
    sleep 2
  done
  sleep 5
  pid=$(cat "/run/drivebench/passt/drivebench-$1--e2e-vm1.pid")
  [ -e "/proc/$pid" ] || e2e_fail "$1: passt $pid is not running while it measures"
}

# --- 1. the stop request ---
id=$tag-int
start_measuring "$id"
kill -TERM "$run_pid"
rc=0; wait "$run_pid" || rc=$?; run_pid=''
[ "$rc" = 130 ] || e2e_fail "stop request: drivebench exited $rc, not 130: $(tail -5 "$work/$id.log")"
grep -q "teardown: removed 1 domain(s), .*; stopped 1 passt network(s)" "$work/$id.log" \
  || e2e_fail "stop request: no teardown of the passt network: $(grep teardown: "$work/$id.log")"
passt_ended "$pid" || e2e_fail "stop request: passt $pid still runs"
e2e_passt_nothing_left "$id" "stop request"
e2e_say "stop request: exit 130, passt $pid stopped, namespace and domain gone"

# --- 2. SIGKILL, then drivebench teardown ---
id=$tag-kill
start_measuring "$id"
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null || true; run_pid=''
[ -e "/proc/$pid" ] || e2e_fail "SIGKILL: passt $pid ended with drivebench (expected it to be left for teardown)"
[ -e "/run/netns/drivebench-$id--e2e-vm1" ] || e2e_fail "SIGKILL: the namespace went with drivebench"
"$drivebench" teardown "$id" --uri="$E2E_URI" --results="$work/results" >"$work/teardown" 2>&1 \
  || e2e_fail "teardown failed: $(cat "$work/teardown")"
grep -q "^teardown $id: removed 1 domain(s), .*; stopped 1 passt network(s)" "$work/teardown" \
  || e2e_fail "teardown did not stop the passt network: $(cat "$work/teardown")"
passt_ended "$pid" || e2e_fail "SIGKILL: passt $pid still runs after teardown"
e2e_passt_nothing_left "$id" "SIGKILL + teardown"
e2e_say "SIGKILL: passt $pid and the namespace left, then removed by drivebench teardown"
e2e_say "PASS"
