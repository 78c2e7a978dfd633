#!/usr/bin/env bash
# End-to-end, issues 34 and 45: a sweep of three thread counts on one real
# tiny VM, on the same VM.
#
# Runs a plan whose [workload] threads = 1,2,4 (profile tiny, 1 VM on a
# fresh folder under /var/tmp, oltp_read_write on 1 table x 1,000 rows, a
# 5 s precondition, 5 s measured per step after a 2 s step_warmup), then
# checks:
#   - validate says the steps run on the same VMs;
#   - the VM booted once, was prepared once and preconditioned once (one
#     round), and measured three times, threads 1, 2, 4 in that order;
#   - three steps, each a run folder of its own with a complete summary
#     whose drive TPS is what sweep.json says for that step and equals its
#     oltp result file's measured TPS, and each step's oltp ran with its
#     own --threads (the VM result's options);
#   - the drive's knee in sweep.json is the first step at 95 % of its
#     highest TPS;
#   - the sweep's page has the drive's TPS and p99 curves through both
#     steps with the knee marked, and headless Chromium renders it: the
#     screenshot (tests/artifacts/sweep-1vm.png) holds the curve's colour
#     and the knee mark's red;
#   - nothing of either step is left in libvirt or on the drive.
# Bounded: the run is killed after E2E_RUN_TIMEOUT seconds (default 1200).
# The steps are torn down (drivebench teardown) and their files deleted on
# any exit. Needs Debian's chromium (results/deps.txt).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib/png.sh"

run_timeout=${E2E_RUN_TIMEOUT:-1200}
drivebench=$E2E_TOP/bin/drivebench
run_id=e2e-sweep-$$-$RANDOM

e2e_test_cleanup() {
  [ -n "$E2E_WORK" ] || return 0
  for s in 1 2 3; do
    if virsh -c "$E2E_URI" list --all --name 2>/dev/null | grep -qF "drivebench-$run_id-s$s--"; then
      "$drivebench" teardown "$run_id-s$s" --uri="$E2E_URI" >/dev/null 2>&1 || true
    fi
  done
  [ "$1" != 0 ] || return 0
  [ -s "$E2E_WORK/run.log" ] && { echo "----- run.log (last 40 lines) -----" >&2; tail -40 "$E2E_WORK/run.log" >&2; }
}
e2e_begin virsh jq python3 timeout chromium

[ -x "$drivebench" ] || e2e_fail "$drivebench missing: run make first"
"$E2E_TOP/images/build.sh"
e2e_libvirt_up || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)

e2e_work sweep
work=$E2E_WORK
e2e_tiny_plan "$work/plan.ini" e2e-sweep "$type" "" \
  "$(printf 'threads = 1,2,4\nprecondition = 5s\nmeasure = 5s\nstep_warmup = 2s')"
out=$("$drivebench" validate "$work/plan.ini")
[ "$out" = "$work/plan.ini: ok: 1 drive(s), 1 VM(s), profile tiny, workload oltp_read_write; sweep of [workload] threads: 1, 2, 4 (3 steps on the same VMs, provisioned, prepared and preconditioned once)" ] \
  || e2e_fail "validate: $out"

e2e_say "drivebench run ($type, 1 VM, threads 1, 2, 4 on the same VM, run id $run_id)"
t0=$(date +%s)
timeout -k 30 "$run_timeout" "$drivebench" run "$work/plan.ini" --run-id="$run_id" \
  >"$work/run.log" 2>&1 || e2e_fail "drivebench run failed or took longer than ${run_timeout}s"
e2e_say "sweep finished in $(( $(date +%s) - t0 ))s"
# one boot, one prepare, one precondition round, three measures in order
log=$work/run.log
n() { grep -c -e "$1" "$log" || true; }
[ "$(n '^waiting for 1 VM(s) to boot')" = 1 ] || e2e_fail "booted $(n '^waiting for 1 VM(s) to boot') times"
[ "$(n '^repetition 1: prepare on 1 VM(s)')" = 1 ] || e2e_fail "prepared $(n '^repetition 1: prepare on') times"
[ "$(n '^repetition 1: precondition round')" = 1 ] || e2e_fail "preconditioned in $(n '^repetition 1: precondition round') rounds"
[ "$(n '^repetition 1: measure on 1 VM(s)')" = 3 ] || e2e_fail "measured $(n '^repetition 1: measure on') times"
order=$(grep -o -e '^sweep step [123] of 3: \[workload\] threads = [124]' "$log" | tr '\n' ';')
[ "$order" = "sweep step 1 of 3: [workload] threads = 1;sweep step 2 of 3: [workload] threads = 2;sweep step 3 of 3: [workload] threads = 4;" ] \
  || e2e_fail "steps out of order: $order"
[ "$(n '^teardown: removed 1 domain(s)')" = 1 ] || e2e_fail "not torn down once"
e2e_say "one boot, one prepare, one precondition round, three steps in order"

dir=$work/results/$run_id
out=$(python3 - "$dir" "$run_id" <<'PY'
import json, os, sys
d, rid = sys.argv[1], sys.argv[2]
w = json.load(open(os.path.join(d, "sweep.json")))
values = [1, 2, 4]
assert w["key"] == "threads" and [s["value"] for s in w["steps"]] == values, w["steps"]
tps = []
for i, s in enumerate(w["steps"]):
    sid = "%s-s%d" % (rid, i + 1)
    assert s["run_id"] == sid and s["status"] == "complete", s
    summ = json.load(open(os.path.join(d, sid, "summary.json")))
    dr = summ["drives"][0]
    assert s["drives"][0]["tps"] == dr["tps"] and dr["tps"] > 0, (s["drives"][0], dr["tps"])
    assert s["drives"][0]["lat_p99_ms"] == dr["latency_ms"]["p99"], s["drives"][0]
    vm = [v for v in summ["vms"]][0]
    res = json.load(open(os.path.join(d, sid, vm["result"])))
    assert res["options"]["threads"] == values[i], res["options"].get("threads")
    # the step's figures are its oltp result file's
    m = [ph for ph in res["phases"] if ph["name"] == "measure"][0]
    assert abs(m["tps"] - dr["tps"]) <= 1e-9 * dr["tps"], (m["tps"], dr["tps"])
    assert summ["run_id"] == sid, summ["run_id"]
    tps.append(dr["tps"])
k = next(i for i, t in enumerate(tps) if t >= 0.95 * max(tps))
assert w["knees"] == [{"drive": "e2e", "step": k + 1, "value": values[k], "tps": tps[k]}], w["knees"]
print("TPS at 1, 2 and 4 threads: %s; knee at %d thread(s)" % (tps, values[k]))
PY
) || e2e_fail "sweep.json against the steps' summaries: $out"
e2e_say "$out"
html=$dir/report.html
for c in tps p99; do
  grep -q "<svg class=\"chart line\" id=\"sweep-$c-0\"" "$html" || e2e_fail "report.html: no $c curve"
done
[ "$(grep -o '<g class="mark" data-x="[124]" data-label="knee: threads [124]"' "$html" | wc -l)" = 2 ] \
  || e2e_fail "report.html: the knee is not marked on both curves"
e2e_page_shot "file://$html" sweep-1vm.png "the curve's blue and the knee's red" 4e79a7 cc0000
e2e_nothing_left "$run_id"
e2e_say "PASS"
