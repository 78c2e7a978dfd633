#!/usr/bin/env bash
# drivebench's own cost at a lab's scale (issue 24, item 5): the real
# orchestrator (bin/report_mkfixture: orch_run, as `drivebench run`, on
# libvirt's test driver, where a VM is ready once it runs) over 8 test hosts
# (8 copies of tests/orchestrator/node.xml, one URI each) with one drive of
# 8 VMs each: 64 VMs. Compressed time: every VM's stand-in oltp
# (tests/orchestrator/fake-oltp with FAKE_OLTP_INTERVALS) writes a result of
# 3 h of 10-s intervals (1,080 intervals) at once, and telemetry samples
# every 10 ms instead of every second (MKFIXTURE_TEL_MS, through a stand-in
# for libvirt's block statistics, which the test driver lacks) for as many
# samples as the result has intervals.
#
# Two runs: "base" without telemetry, the measured phase over at once
# (provisioning, aggregation, summary); "sampled" with telemetry over N
# samples per VM disk. A sample's cost is (sampled - base) / N; the plan's
# cost is base + that x the samples of a real run of the plan's length (one
# per second: drivebench samples at oltp's --report-interval=1).
#
# Prints: each run's CPU seconds and peak RSS (the orchestrator process
# alone, getrusage RUSAGE_SELF: its stand-in oltp children are not counted),
# `drivebench report`'s CPU seconds and peak RSS on the sampled run, the
# sizes of its summary.json and report.html, and headless Chromium's time to
# load the report and take a screenshot (median of 3; a blank page's time
# beside it), against the targets: CPU / (VMs x plan hours) < 36 s per
# VM-hour (1 % of one core), peak RSS < 256 MiB, report < 10 MiB, load < 3 s.
#
# Usage: bench/drivebench_scale.sh [INTERVALS [INTERVAL_S]]
# (defaults 1080 10; `10800 1` is a 3-h run at the cadence drivebench really
# records, oltp --report-interval=1, with 10,800 samples). Needs chromium
# (results/deps.txt). Run from anywhere; nothing is left behind unless
# KEEP=DIR, which keeps the sampled run's folder there.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
nint=${1:-1080}
istep=${2:-10}
hosts=8 per_host=8
# buckets of each interval's latency histogram, as a real oltp_read_write
# interval of that length has (results/SCHEMA.md: 726-825 at 10 s,
# 166-426 at 1 s)
buckets=${BUCKETS:-$(python3 -c "print(750 if $istep >= 10 else 300)")}
vms=$(( hosts * per_host ))
plan_h=$(python3 -c "print($nint * $istep / 3600)")
make -s bin/drivebench bin/report_mkfixture
chromium=$(command -v chromium || command -v chromium-browser || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for h in $(seq $hosts); do cp tests/orchestrator/node.xml "$tmp/host$h.xml"; done
# plan NAME MEASURE: 8 drives, one per test host, 8 VMs each
plan() {
  {
    cat <<EOF
[run]
name = $1
uri = test://$tmp/host1.xml
profile = tiny
# small guests: the host check counts 64 x (memory + 100 MiB) against the
# machine's available memory, though test-driver VMs take none
memory = 128M
vmconfigs_dir = vmconfigs
image_dir = /srv/images
results_dir = $tmp/out
oltp = $repo/tests/orchestrator/fake-oltp
domain_type = qemu
port_base = 40000
boot_size = 1G
db_size = 1G
vms_per_drive = $per_host
boot_timeout = 10m

[workload]
name = oltp_read_write
tables = 4
table_size = 10000
threads = 32
prepare = no
measure = $2
EOF
    for h in $(seq $hosts); do
      printf '\n[drive d%d]\npath = /srv/drive-%d\nuri = test://%s/host%d.xml\n' "$h" "$h" "$tmp" "$h"
    done
  } > "$tmp/$1.ini"
}

# run NAME SLEEP_S TEL_MS INTERVAL_S: one run; prints "cpu_s maxrss_kib wall_s"
run() {
  plan "$1" 3h
  local t0 t1
  t0=$(date +%s.%N)
  FAKE_OLTP_INTERVALS=$nint FAKE_OLTP_INTERVAL_S=$4 FAKE_OLTP_BUCKETS=$buckets \
    FAKE_OLTP_SLEEP=$2 FAKE_OLTP_MATCH=--json= \
    MKFIXTURE_TEL_MS=$3 MKFIXTURE_RUSAGE="$tmp/$1.rusage" \
    ${WRAP:-} bin/report_mkfixture "$tmp/$1.ini" "$1" > "$tmp/$1.log" 2>&1 \
    || { echo "drivebench_scale: run $1 failed:" >&2; tail -20 "$tmp/$1.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "$(cat "$tmp/$1.rusage") $(python3 -c "print(f'{$t1 - $t0:.1f}')")"
}

echo "64 VMs (8 hosts x 1 drive x 8 VMs), $nint intervals of $istep s each (plan: $plan_h h), test driver, stand-in oltp"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
# BASE="CPU_S MAXRSS_KIB WALL_S": a base run's figures measured before (the
# base run has no telemetry: a change to it alone need not repeat it)
if [ -n "${BASE:-}" ]; then
  read -r cpu rss wall <<<"$BASE"
  echo "base run (given, not run): drivebench CPU ${cpu} s, peak RSS $(( rss / 1024 )) MiB, wall ${wall} s"
else
  read -r cpu rss wall <<<"$(run base 0 0 "$istep")"
  echo "base run: drivebench CPU ${cpu} s, peak RSS $(( rss / 1024 )) MiB, wall ${wall} s"
fi
# telemetry every 10 ms while the stand-ins sleep through nint samples; their
# intervals are 10 ms too, as the summary aligns samples to TPS intervals
# (its time axes then read in hundredths of the real seconds)
sleep_s=$(python3 -c "print($nint * 0.01 + 1)")
read -r cpu_s rss_s wall_s <<<"$(run sampled "$sleep_s" 10 0.01)"
[ -z "${KEEP:-}" ] || { rm -rf "$KEEP"; cp -r "$tmp/out/sampled" "$KEEP"; cp "$tmp/sampled.log" "$KEEP/"; }
samples=$(python3 -c "import json; s = json.load(open('$tmp/out/sampled/summary.json')); \
print(min(len(v.get('io', {}).get('db', {}).get('series', [])) for v in s['vms']))" 2>/dev/null || echo 0)
echo "sampled run ($samples samples per VM disk at 10 ms): CPU ${cpu_s} s, peak RSS $(( rss_s / 1024 )) MiB, wall ${wall_s} s"
rss=$(( rss > rss_s ? rss : rss_s ))

dir=$tmp/out/sampled
/usr/bin/time -f '%U %S %M' -o "$tmp/report.time" bin/drivebench report "$dir" > /dev/null
read -r ru rs rm < "$tmp/report.time"
summary=$(stat -c %s "$dir/summary.json")
report=$(stat -c %s "$dir/report.html")
vmjson=$(du -sb "$dir/vm" | cut -f1)

load=nan blank=nan
if [ -n "$chromium" ]; then
  shot() {  # URL -> seconds to load and screenshot
    local t0 t1
    t0=$(date +%s.%N)
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
      --user-data-dir="$tmp/chrome" --window-size=1280,2000 --screenshot="$tmp/shot.png" "$1" \
      > /dev/null 2>&1 || { echo "drivebench_scale: chromium failed on $1" >&2; exit 1; }
    t1=$(date +%s.%N)
    python3 -c "print(f'{$t1 - $t0:.2f}')"
  }
  echo '<!doctype html><title>blank</title>' > "$tmp/blank.html"
  shot "file://$tmp/blank.html" > /dev/null   # first start warms the profile
  ls=() bs=()
  for _ in 1 2 3; do
    bs+=("$(shot "file://$tmp/blank.html")")
    ls+=("$(shot "file://$dir/report.html")")
  done
  load=$(printf '%s\n' "${ls[@]}" | sort -n | sed -n 2p)
  blank=$(printf '%s\n' "${bs[@]}" | sort -n | sed -n 2p)
fi

python3 - "$cpu" "$rss" "$cpu_s" "$samples" "$vms" "$plan_h" "$ru" "$rs" "$rm" "$summary" "$report" \
  "$vmjson" "$load" "$blank" <<'PY'
import sys
cpu, rss, cpu_s, samples, vms, plan_h, ru, rs, rm, summary, report, vmjson, load, blank = sys.argv[1:]
cpu, cpu_s, samples, plan_h = float(cpu), float(cpu_s), int(samples), float(plan_h)
vms, rss, rm = int(vms), int(rss), int(rm)
if samples <= 0:
    sys.exit("drivebench_scale: the sampled run recorded no telemetry samples")
per_sample = (cpu_s - cpu) / samples               # CPU of one sampling tick of all 64 VMs
total = cpu + per_sample * plan_h * 3600           # one tick per second of the plan
rep_cpu = float(ru) + float(rs)
mib = 1 << 20
print(f"\ntelemetry: {per_sample * 1000:.2f} ms CPU per sample of all {vms} VMs, {per_sample * 3600:.1f} s per hour at one a second")
print(f"{'figure':<52}{'measured':>14}{'target':>14}")
rows = [
    ("drivebench run CPU s (base + samples of the plan)", f"{total:.1f}", ""),
    ("  per VM-hour: CPU s / (VMs x plan hours)", f"{total / (vms * plan_h):.2f}", "< 36"),
    ("drivebench run peak RSS (MiB)", f"{max(rss, 0) / 1024:.1f}", "< 256"),
    ("drivebench report CPU s / peak RSS (MiB)", f"{rep_cpu:.2f} / {rm / 1024:.1f}", "< 256 MiB"),
    ("vm/*.json (MiB, 64 files)", f"{int(vmjson) / mib:.2f}", ""),
    ("summary.json (MiB)", f"{int(summary) / mib:.2f}", ""),
    ("report.html (MiB)", f"{int(report) / mib:.2f}", "< 10"),
    ("Chromium load + screenshot (s, median of 3)", f"{load}", "< 3"),
    ("  the same for a blank page (s)", f"{blank}", ""),
]
for n, v, t in rows:
    print(f"{n:<52}{v:>14}{t:>14}")
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
