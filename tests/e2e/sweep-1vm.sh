#!/usr/bin/env bash
# End-to-end, issue 34: a sweep of two thread counts on one real tiny VM.
#
# Runs a plan whose [workload] threads = 1,2 (profile tiny, 1 VM on a fresh
# folder under /var/tmp, oltp_read_write on 1 table x 1,000 rows, 10 s
# measured per step), then checks:
#   - two steps, each a run folder of its own with a complete summary whose
#     drive TPS is what sweep.json says for that step, and each step's oltp
#     ran with its own --threads (the VM result's options);
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

run_timeout=${E2E_RUN_TIMEOUT:-1200}
drivebench=$E2E_TOP/bin/drivebench
run_id=e2e-sweep-$$-$RANDOM

e2e_test_cleanup() {
  [ -n "$E2E_WORK" ] || return 0
  for s in 1 2; do
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

E2E_WORK=$(mktemp -d /var/tmp/drivebench-e2e-sweep.XXXXXX)
work=$E2E_WORK
chmod 0755 "$work"
mkdir -m 0755 "$work/drive"
cat >"$work/plan.ini" <<EOF
; written by tests/e2e/sweep-1vm.sh
[run]
name = e2e-sweep
uri = $E2E_URI
profile = tiny
vms_per_drive = 1
client = host
image_dir = $E2E_TOP/images/build
results_dir = $work/results
domain_type = $type
boot_timeout = 10m

[workload]
name = oltp_read_write
tables = 1
table_size = 1000
threads = 1,2
measure = 10s

[drive e2e]
path = $work/drive
EOF
out=$("$drivebench" validate "$work/plan.ini")
[ "$out" = "$work/plan.ini: ok: 1 drive(s), 1 VM(s), profile tiny, workload oltp_read_write; sweep of [workload] threads: 1, 2 (2 runs)" ] \
  || e2e_fail "validate: $out"

e2e_say "drivebench run ($type, 1 VM, threads 1 then 2, run id $run_id)"
t0=$(date +%s)
timeout -k 30 "$run_timeout" "$drivebench" run "$work/plan.ini" --run-id="$run_id" \
  >"$work/run.log" 2>&1 || e2e_fail "drivebench run failed or took longer than ${run_timeout}s"
e2e_say "sweep finished in $(( $(date +%s) - t0 ))s"

dir=$work/results/$run_id
out=$(python3 - "$dir" "$run_id" <<'PY'
import json, os, sys
d, rid = sys.argv[1], sys.argv[2]
w = json.load(open(os.path.join(d, "sweep.json")))
assert w["key"] == "threads" and [s["value"] for s in w["steps"]] == [1, 2], w["steps"]
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
    assert res["options"]["threads"] == i + 1, res["options"].get("threads")
    tps.append(dr["tps"])
k = next(i for i, t in enumerate(tps) if t >= 0.95 * max(tps))
assert w["knees"] == [{"drive": "e2e", "step": k + 1, "value": k + 1, "tps": tps[k]}], w["knees"]
print("TPS at 1 and 2 threads: %s; knee at %d thread(s)" % (tps, k + 1))
PY
) || e2e_fail "sweep.json against the steps' summaries: $out"
e2e_say "$out"
html=$dir/report.html
for c in tps p99; do
  grep -q "<svg class=\"chart line\" id=\"sweep-$c-0\"" "$html" || e2e_fail "report.html: no $c curve"
done
[ "$(grep -o '<g class="mark" data-x="[12]" data-label="knee: threads [12]"' "$html" | wc -l)" = 2 ] \
  || e2e_fail "report.html: the knee is not marked on both curves"
mkdir -p "$E2E_TOP/tests/artifacts"
shot=$E2E_TOP/tests/artifacts/sweep-1vm.png
rm -f "$shot"
timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
  --disable-background-networking --disable-component-update --window-size=1280,1400 \
  --user-data-dir="$work/chromium" --screenshot="$shot" "file://$html" >"$work/chromium.log" 2>&1 \
  || e2e_fail "chromium could not render $html"
colours=$(python3 - "$shot" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", data[pos + 8:pos + 18])
    elif kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
bpp = 3 if ctype == 2 else 4
raw, stride, prev, seen = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + ((a + b) >> 1)) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    seen.update(bytes(line[x:x + 3]) for x in range(0, stride, bpp))
    prev = line
print(" ".join(c for c in ("4e79a7", "cc0000") if bytes.fromhex(c) in seen))
PY
)
[ "$colours" = "4e79a7 cc0000" ] || e2e_fail "the screenshot lacks the curve's blue or the knee's red: '$colours'"
e2e_say "page rendered: $shot (the curve and the knee mark)"
left=$(virsh -c "$E2E_URI" list --all --name 2>/dev/null | grep -F "drivebench-$run_id-" || true)
[ -z "$left" ] || e2e_fail "left behind: $left"
[ -z "$(find "$work/drive" -mindepth 1)" ] || e2e_fail "files left on the drive: $(ls "$work/drive")"
e2e_say "PASS"
