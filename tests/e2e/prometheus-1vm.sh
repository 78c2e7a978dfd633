#!/usr/bin/env bash
# End-to-end, issue 34: the live view read by a real Prometheus.
#
# Starts Debian's `prometheus` on a loopback port of its own, with a
# private data folder and its own configuration scraping drivebench's
# [run] metrics endpoint every second, then runs a tiny plan (profile
# tiny, 1 VM on a fresh folder under /var/tmp, oltp_read_write on 1 table
# x 1,000 rows, 2 threads, 5 s of warm-up and 20 s measured). Afterwards it
# reads every sample Prometheus stored through its HTTP API
# (/api/v1/query of a range selector: the raw samples and their scrape
# times) and checks:
#   - every scrape of the VM's TPS, QPS, errors and latency at oltp's
#     interval percentile (p95) equals, exactly, the interval of the VM's
#     result file that the scrape's interval end names (oltp prints them
#     with 2 decimals: the file's value rounded so), warm-up and measured
#     phase alike; the drive's TPS equals its one VM's;
#   - at least 10 of the 20 measured intervals were scraped, the last one
#     among them, and the phase was "measure" and the repetition 1;
#   - the database disk's write IOPS was scraped above 0;
#   - the run waited for a scrape after its last figures, and the
#     endpoint is gone after the run.
# Bounded: the run is killed after E2E_RUN_TIMEOUT seconds (default 900).
# Prometheus is stopped by its PID, the run torn down and its files
# deleted on any exit; on failure the run's and Prometheus' logs are
# printed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run_timeout=${E2E_RUN_TIMEOUT:-900}
drivebench=$E2E_TOP/bin/drivebench
run_id=e2e-prom-$$-$RANDOM
prom=

e2e_test_cleanup() {
  if [ -n "$prom" ]; then
    kill "$prom" 2>/dev/null || true
    wait "$prom" 2>/dev/null || true
  fi
  [ -n "$E2E_WORK" ] || return 0
  if virsh -c "$E2E_URI" list --all --name 2>/dev/null | grep -qF "drivebench-$run_id--"; then
    "$drivebench" teardown "$run_id" --uri="$E2E_URI" >/dev/null 2>&1 || true
  fi
  [ "$1" != 0 ] || return 0
  for f in run.log prometheus.log; do
    [ -s "$E2E_WORK/$f" ] || continue
    echo "----- $f (last 40 lines) -----" >&2
    tail -40 "$E2E_WORK/$f" >&2
  done
}
e2e_begin virsh prometheus curl python3 timeout

[ -x "$drivebench" ] || e2e_fail "$drivebench missing: run make first"
"$E2E_TOP/images/build.sh"
e2e_libvirt_up || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)

e2e_work prom
work=$E2E_WORK
mkdir -m 0755 "$work/prom"

# two free loopback ports: drivebench's endpoint and Prometheus' own
read -r mport pport < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

cat >"$work/prometheus.yml" <<EOF
# written by tests/e2e/prometheus-1vm.sh
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: drivebench
    static_configs:
      - targets: ['127.0.0.1:$mport']
EOF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prom" \
  --web.listen-address="127.0.0.1:$pport" >"$work/prometheus.log" 2>&1 &
prom=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$pport/-/ready" >/dev/null 2>&1 && break
  kill -0 "$prom" 2>/dev/null || e2e_fail "prometheus exited at start"
  sleep 0.2
done
curl -sf "http://127.0.0.1:$pport/-/ready" >/dev/null || e2e_fail "prometheus not ready after 20 s"
e2e_say "prometheus on 127.0.0.1:$pport (pid $prom) scrapes 127.0.0.1:$mport every second"

e2e_tiny_plan "$work/plan.ini" e2e-prom "$type" "metrics = 127.0.0.1:$mport" \
  "$(printf 'threads = 2\nwarmup = 5s\nmeasure = 20s')"

e2e_say "drivebench run ($type, 1 VM, run id $run_id)"
t0=$(date +%s)
timeout -k 30 "$run_timeout" "$drivebench" run "$work/plan.ini" --run-id="$run_id" \
  >"$work/run.log" 2>&1 || e2e_fail "drivebench run failed or took longer than ${run_timeout}s"
e2e_say "run finished in $(( $(date +%s) - t0 ))s"
grep -qxF "live view: OpenMetrics at http://127.0.0.1:$mport/metrics while the run lasts" "$work/run.log" \
  || e2e_fail "the run did not announce its live view"
# the run waited for a scrape after its last figures (the last measured
# interval would otherwise fall between two scrapes)
grep -qE "^live view: the run's last figures were scraped [0-9.]+ s after it ended\$" "$work/run.log" \
  || e2e_fail "the run did not wait for the scrape after its last figures: $(grep '^live view' "$work/run.log")"
if curl -s "http://127.0.0.1:$mport/metrics" >/dev/null 2>&1; then
  e2e_fail "the endpoint still answers after the run"
fi

# Prometheus commits a scrape's samples together once it has parsed them:
# the run's last scrape may still be on its way in when the run exits.
# Its next scrape of the gone endpoint records up = 0, so once up is 0
# every earlier scrape is stored.
for _ in $(seq 60); do
  up=$(curl -sf "http://127.0.0.1:$pport/api/v1/query" --data-urlencode 'query=up{job="drivebench"}' \
       | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' \
       2>/dev/null || true)
  [ "$up" = 0 ] && break
  sleep 0.5
done
[ "$up" = 0 ] || e2e_fail "Prometheus did not record the endpoint as down within 30 s (up: '$up')"

# every sample Prometheus stored of a series: [[time, "value"], ...]
series() {
  curl -sf "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1[1h]" \
    --data-urlencode "time=$(date +%s)"
}
for m in drivebench_vm_tps drivebench_vm_qps drivebench_vm_errors_per_second \
         drivebench_vm_latency_seconds drivebench_vm_interval_end_seconds drivebench_drive_tps \
         drivebench_repetition drivebench_vm_disk_write_iops; do
  series "$m" >"$work/$m.json" || e2e_fail "Prometheus' API did not answer for $m"
done
series 'drivebench_phase{drivebench_phase="measure"}' >"$work/phase.json" \
  || e2e_fail "Prometheus' API did not answer for drivebench_phase"
# what bounded the drive (issue 45): the verdict's stateset and the QEMU threads
series 'drivebench_drive_bound{drivebench_drive_bound="host cpu"}' >"$work/bound.json" \
  || e2e_fail "Prometheus' API did not answer for drivebench_drive_bound"
series 'drivebench_vm_qemu_thread_cpu_ratio{role="vcpu"}' >"$work/vcpu.json" \
  || e2e_fail "Prometheus' API did not answer for drivebench_vm_qemu_thread_cpu_ratio"

rdir=$work/results/$run_id
e2e_check_bound "$rdir"
out=$(python3 - "$work" "$rdir" "$(e2e_virt_type)" <<'PY'
import glob, json, os, sys
work, rdir, virt = sys.argv[1], sys.argv[2], sys.argv[3]
def samples(name, want_labels=None):
    """{scrape time: value} of the one series of name (labels checked)."""
    d = json.load(open(os.path.join(work, name + ".json")))
    res = d["data"]["result"]
    if len(res) != 1:
        sys.exit("%s: %d series in Prometheus, want 1: %s" % (name, len(res), res))
    for k, v in (want_labels or {}).items():
        if res[0]["metric"].get(k) != v:
            sys.exit("%s: label %s is %r, want %r" % (name, k, res[0]["metric"].get(k), v))
    return {t: float(v) for t, v in res[0]["values"]}
files = glob.glob(os.path.join(rdir, "vm", "*.r1.json"))
if len(files) != 1:
    sys.exit("want 1 VM result, found %s" % files)
doc = json.load(open(files[0]))
# oltp's run clock: each phase's intervals after the phases before it
ivs, t0 = {}, 0.0
for p in doc["phases"]:
    for iv in p["intervals"]:
        ivs[round(t0 + iv["t"])] = (p["name"], iv)
    t0 += p["duration_s"]
measure = [k for k, (ph, _) in ivs.items() if ph == "measure"]
labels = {"drive": "e2e", "vm": "e2e-vm1", "job": "drivebench"}
end = samples("drivebench_vm_interval_end_seconds", labels)
got = {k: samples("drivebench_vm_" + k, labels) for k in ("tps", "qps", "errors_per_second")}
lat = samples("drivebench_vm_latency_seconds", dict(labels, quantile="0.95"))
drive = samples("drivebench_drive_tps", {"drive": "e2e"})
seen, checked = set(), 0
two = lambda x: float("%.2f" % x)
for ts, t in end.items():
    if round(t) not in ivs:
        sys.exit("scrape at %s names interval end %s, which the result file lacks" % (ts, t))
    ph, iv = ivs[round(t)]
    want = {"tps": two(iv["tps"]), "qps": two(iv["qps"]), "errors_per_second": two(iv["errors_ps"])}
    for k, w in want.items():
        if got[k].get(ts) != w:
            sys.exit("scrape at %s (%s interval t=%s): %s is %s, the result file says %s"
                     % (ts, ph, iv["t"], k, got[k].get(ts), w))
    if lat.get(ts) != two(iv["latency_ms"]["p95"]) / 1000:
        sys.exit("scrape at %s: latency p95 %s s, the result file says %s ms"
                 % (ts, lat.get(ts), iv["latency_ms"]["p95"]))
    if drive.get(ts) != want["tps"]:
        sys.exit("scrape at %s: drive TPS %s, its VM's %s" % (ts, drive.get(ts), want["tps"]))
    checked += 1
    if ph == "measure":
        seen.add(round(t))
if len(seen) < 10 or max(measure) not in seen:
    sys.exit("measured intervals scraped: %s of %d (the last, %d, %s)"
             % (sorted(seen), len(measure), max(measure), "seen" if max(measure) in seen else "missed"))
if 1.0 not in samples("phase", {"drivebench_phase": "measure"}).values():
    sys.exit("the phase was never scraped as measure")
if set(samples("drivebench_repetition").values()) - {0.0, 1.0} or 1.0 not in samples("drivebench_repetition").values():
    sys.exit("repetition: %s" % sorted(set(samples("drivebench_repetition").values())))
if not any(v > 0 for v in samples("drivebench_vm_disk_write_iops", labels).values()):
    sys.exit("the database disk's write IOPS was never above 0")
if not any(v > 0 for v in samples("vcpu", labels).values()):
    sys.exit("the VM's vCPU threads were never above 0 in the live view")
if virt == "qemu" and 1.0 not in samples("bound", {"drive": "e2e"}).values():
    sys.exit("the live view never said host cpu bounded the drive under TCG")
print("%d scrapes equal to their intervals, %d of %d measured intervals seen (the last one too)"
      % (checked, len(seen), len(measure)))
PY
) || e2e_fail "Prometheus' series against the run's interval data: $out"
e2e_say "$out"
e2e_say "PASS"
