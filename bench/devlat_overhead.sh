#!/usr/bin/env bash
# bench/devlat_overhead.sh — what tracing the device's request latencies
# ([run] device_latency, orchestrator/telemetry/devlat.h) costs the I/O it
# watches: fio, 4 KiB random writes each followed by fsync (a database's
# commit pattern: a write and a flush per request), queue depth 1, on a
# file in DIR (default /tmp, on this machine's real disk), after one
# uncounted run that lays the file out, RUNS rounds (default 3) of tracing
# off and on, alternating which goes first, SECONDS each (default 15); prints
# each round and the medians of IOPS and fio's p99 completion latency,
# with the ratio on/off. Needs root (tracefs) and fio (tests/deps.txt).
# Run from the repository's root: bench/devlat_overhead.sh [DIR]
set -euo pipefail
dir=${1:-/tmp}
runs=${RUNS:-3}
secs=${SECONDS_EACH:-15}
work=$(mktemp -d "$dir/devlat-bench-XXXXXX")
probe=build/bench/devlat_probe
trap 'rm -rf "$work"' EXIT

mkdir -p build/bench
cc -std=gnu11 -O2 -g -Wall -Wextra -D_GNU_SOURCE -Icommon -Iorchestrator \
  $(pkg-config --cflags json-c) bench/devlat_probe.c orchestrator/telemetry/devlat.c \
  orchestrator/util/units.c common/hist.c -o "$probe" $(pkg-config --libs json-c) -lm -pthread

disk=$(lsblk -no PKNAME "$(findmnt -no SOURCE --target "$work")" 2>/dev/null || true)
[ -n "$disk" ] || disk=$(basename "$(findmnt -no SOURCE --target "$work")")
[ -e "/sys/block/$disk" ] || { echo "devlat_overhead: $work is on no block device ($disk)" >&2; exit 1; }

one() {     # one fio run; prints "iops p99_us"
  fio --name=commit --filename="$work/f" --size=256m --rw=randwrite --bs=4k --iodepth=1 \
      --ioengine=psync --direct=1 --fsync=1 --time_based --runtime="$secs" \
      --output-format=json 2>/dev/null \
  | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]["write"]; print("%.1f %.1f" % (j["iops"], j["clat_ns"]["percentile"]["99.000000"] / 1000))'
}

traced() {  # one fio run with the tracer on around it
  "$probe" "$disk" $((secs + 2)) > "$work/probe.out" &
  local pid=$!
  sleep 1
  one
  wait "$pid"
}

echo "disk $disk, $runs rounds of ${secs} s, fio 4 KiB random write + fsync, QD 1"
one > /dev/null         # a first run lays the file out; not counted
off=() on=()
for r in $(seq "$runs"); do
  if [ $((r % 2)) -eq 1 ]; then a=$(one); b=$(traced); else b=$(traced); a=$(one); fi
  off+=("$a") on+=("$b")
  echo "round $r: off $a  on $b  (traced: $(cat "$work/probe.out"))"
done
python3 - "${off[@]}" -- "${on[@]}" <<'PY'
import statistics, sys
args = sys.argv[1:]
k = args.index("--")
off = [tuple(map(float, a.split())) for a in args[:k]]
on = [tuple(map(float, a.split())) for a in args[k + 1:]]
mi = lambda xs, i: statistics.median(x[i] for x in xs)
print("median IOPS: off %.1f on %.1f (on/off %.3f)" % (mi(off, 0), mi(on, 0), mi(on, 0) / mi(off, 0)))
print("median p99 us: off %.1f on %.1f (on/off %.3f)" % (mi(off, 1), mi(on, 1), mi(on, 1) / mi(off, 1)))
PY
