#!/usr/bin/env bash
# End-to-end `drivebench resume` (issue 34) with a real VM: a tiny plan of
# three repetitions (1 VM, profile tiny, oltp on the host); drivebench is
# SIGKILLed in repetition 2's measured phase; `drivebench resume RUN-ID`
# cleans up what it left (domain, volumes, pool), runs repetitions 2 and 3
# and writes the summary: repetition 1's files hash the same before and
# after, the summary has three repetitions, three VM runs and one
# interruption (repetition 2), the report says so, nothing is left behind,
# and the run's bundle verifies.
# Environment: E2E_RUN_TIMEOUT (default 1500), DRIVEBENCH_VIRT_TYPE.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
run_timeout=${E2E_RUN_TIMEOUT:-1500}
drivebench=$E2E_TOP/bin/drivebench
run_id=e2e-resume-$$-$RANDOM
prefix=drivebench-$run_id--
run_pid=
. "$E2E_TOP/tests/lib/leftovers.sh"
leftovers() {
  [ -n "$E2E_WORK" ] || return 0
  leftovers_of -u "$E2E_URI" -n "$prefix" -d "$E2E_WORK/d1" -o "$E2E_WORK/results/$run_id"
}
e2e_test_cleanup() {
  [ -n "$run_pid" ] && kill -0 "$run_pid" 2>/dev/null && kill "$run_pid" && wait "$run_pid" 2>/dev/null
  [ -n "$E2E_WORK" ] || return 0
  [ -n "$(leftovers)" ] && "$drivebench" teardown "$run_id" --uri="$E2E_URI" \
    --results="$E2E_WORK/results" >/dev/null 2>&1
  if [ "$1" != 0 ]; then
    for f in run.log resume.log; do
      [ -s "$E2E_WORK/$f" ] && { echo "----- $f (last 40 lines) -----" >&2; tail -40 "$E2E_WORK/$f" >&2; }
    done
    mkdir -p "$E2E_TOP/tests/artifacts"
    [ -d "$E2E_WORK/results/$run_id" ] && cp -r "$E2E_WORK/results/$run_id" "$E2E_TOP/tests/artifacts/" \
      && echo "$E2E_NAME: run folder kept in tests/artifacts/$run_id" >&2
  fi
  return 0
}
e2e_begin virsh jq timeout pgrep sha256sum
[ -x "$drivebench" ] && [ -x "$E2E_TOP/bin/oltp" ] || e2e_fail "bin/ missing: run make first"
[ -s "$E2E_TOP/images/build/base.qcow2" ] || "$E2E_TOP/images/build.sh"
e2e_libvirt_up >/dev/null || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)
E2E_WORK=$(mktemp -d /var/tmp/drivebench-e2e-resume.XXXXXX)
work=$E2E_WORK
chmod 0755 "$work"
mkdir -m 0755 "$work/d1"
cat >"$work/plan.ini" <<PLAN
[run]
name = e2e resume
uri = $E2E_URI
profile = tiny
client = host
image_dir = $E2E_TOP/images/build
results_dir = $work/results
domain_type = $type
boot_timeout = 15m
repetitions = 3
port_base = $(( 41000 + RANDOM % 8000 ))
[workload]
name = oltp_read_write
tables = 1
table_size = 1000
threads = 2
measure = 20s
[drive d1]
path = $work/d1
vms = 1
PLAN
t0=$(date +%s)
rdir=$work/results/$run_id
timeout "$run_timeout" "$drivebench" run "$work/plan.ini" --run-id="$run_id" >"$work/run.log" 2>&1 &
run_pid=$!
for _ in $(seq "$run_timeout"); do
  grep -q "^repetition 2: measure" "$work/run.log" 2>/dev/null && [ -s "$rdir/clients" ] && break
  kill -0 "$run_pid" 2>/dev/null || e2e_fail "the run ended before repetition 2 measured"
  sleep 1
done
grep -q "^repetition 2: measure" "$work/run.log" || e2e_fail "repetition 2 never measured"
sleep 3
db_pid=$(pgrep -P "$run_pid" -x drivebench) || e2e_fail "no drivebench process under timeout"
kill -9 "$db_pid"; wait "$run_pid" 2>/dev/null || true; run_pid=
e2e_say "drivebench SIGKILLed in repetition 2 after $(( $(date +%s) - t0 ))s"
[ "$(jq -r '.status + " " + (.completed_repetitions|tostring)' "$rdir/summary.json")" = "partial 1" ] \
  || e2e_fail "no checkpoint after repetition 1: $(jq -c '{status, completed_repetitions}' "$rdir/summary.json")"
sums() { (cd "$rdir" && find vm console -name '*.r1.*' -type f | sort | xargs sha256sum); }
before=$(sums)
[ "$(echo "$before" | wc -l)" -ge 2 ] || e2e_fail "repetition 1 left no files: $before"
doms=$(virsh -c "$E2E_URI" list --all --name)
grep -qF "$prefix" <<<"$doms" || e2e_fail "the SIGKILLed run left no domain to clean up"

# the stopped run's oltp (one VM: one process, recorded in its clients
# file with the start time that tells it from a later process on the same
# pid) either dies by itself at its next interval line (the pipe to the
# killed drivebench is gone) or is ended by resume: 0 or 1 for resume to
# end, and none alive after it
recorded=$(cat "$rdir/clients" 2>/dev/null || true)
[ -n "$recorded" ] || e2e_fail "no oltp recorded in $rdir/clients when drivebench was killed"
still_alive() {
  local n=0 pid start _
  while read -r pid start _; do
    [ -n "$pid" ] || continue
    if [ "$(awk '{print $22}' "/proc/$pid/stat" 2>/dev/null)" = "$start" ]; then n=$((n + 1)); fi
  done <<<"$recorded"
  echo "$n"
}
t1=$(date +%s)
"$drivebench" resume "$run_id" --results="$work/results" >"$work/resume.log" 2>&1 \
  || e2e_fail "resume exited $?"
grep -qE "^resume $run_id: the stopped run left [01] oltp process\(es\), 1 domain\(s\), [1-9][0-9]* volume\(s\), 1 pool\(s\): removed\$" "$work/resume.log" \
  || e2e_fail "resume did not clean up what the run left: $(grep '^resume' "$work/resume.log")"
grep -qxF "resume $run_id: 1 complete repetition(s) kept; repetition 2 runs again from its start" "$work/resume.log" \
  || e2e_fail "resume line missing"
[ "$(still_alive)" = 0 ] || e2e_fail "an oltp of the stopped run is still alive after resume: $recorded"
e2e_say "resumed in $(( $(date +%s) - t1 ))s"
after=$(sums)
[ "$before" = "$after" ] || e2e_fail "repetition 1's files changed: $(diff <(echo "$before") <(echo "$after"))"
e2e_say "repetition 1's $(echo "$after" | wc -l) files hash the same"
got=$(jq -c '{status, repetitions, completed_repetitions, vms: (.vms|length), reps: [.vms[].repetition],
  ok: ([.vms[] | select(.status == "ok")] | length), interruptions: (.interruptions|length),
  rep: .interruptions[0].repetition, kept: .interruptions[0].kept_repetitions,
  measured: .drives[0].measured_repetitions}' "$rdir/summary.json")
want='{"status":"complete","repetitions":3,"completed_repetitions":3,"vms":3,"reps":[1,2,3],"ok":3,"interruptions":1,"rep":2,"kept":1,"measured":3}'
[ "$got" = "$want" ] || e2e_fail "summary: $got, wanted $want"
e2e_check_totals "$rdir"
grep -q 'class="interruption"' "$rdir/report.html" || e2e_fail "the report does not name the interruption"
left=$(leftovers); [ -z "$left" ] || e2e_fail "left behind: $left"
"$drivebench" bundle "$run_id" --results="$work/results" --out="$work/run.tar.gz" >/dev/null \
  || e2e_fail "bundle failed"
"$drivebench" verify "$work/run.tar.gz" >"$work/verify" 2>&1 || e2e_fail "verify: $(cat "$work/verify")"
grep -q "^verified: $run_id: " "$work/verify" || e2e_fail "verify: $(cat "$work/verify")"
e2e_say "PASS in $(( $(date +%s) - t0 ))s: $(cat "$work/verify")"
