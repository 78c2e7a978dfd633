#!/usr/bin/env bash
# What reading one VM's oltp result costs drivebench (issue 24): a 3-h
# result of INTERVALS intervals (default 1,080 of 10 s; `10800 1` for
# oltp's 1-s intervals), each with an interval histogram of BUCKETS
# buckets (default 750 at 10 s, 300 at 1 s: results/SCHEMA.md measured
# 726-825 and 166-426), written by tests/orchestrator/fake-oltp, read by
# bench/read_result.c through res_oltp_read_file (what drivebench does
# twice per VM: aggregation, then the summary's I/O), as
# drivebench.oltp/2 (buckets one string) and as the same result in
# drivebench.oltp/1 (buckets arrays of pairs). Alternating, 3 rounds,
# medians: peak RSS of the reading process and CPU of the read.
#
# Usage: bench/result_read.sh [INTERVALS [INTERVAL_S [BUCKETS]]]
set -euo pipefail
cd "$(dirname "$0")/.."
nint=${1:-1080}
istep=${2:-10}
buckets=${3:-$(python3 -c "print(750 if $istep >= 10 else 300)")}
make -s build/common/hist.o build/common/results.o >/dev/null 2>&1 || make -s bin/oltp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objs=$(ls build/common/*.o)
cc -std=gnu11 -O2 -Wall -Wextra -Icommon bench/read_result.c $objs -o "$tmp/read_result" \
  $(pkg-config --cflags --libs json-c) -lm
FAKE_OLTP_INTERVALS=$nint FAKE_OLTP_INTERVAL_S=$istep FAKE_OLTP_BUCKETS=$buckets \
  tests/orchestrator/fake-oltp --json="$tmp/v2.json" run > /dev/null
# the same result as drivebench.oltp/1: every interval histogram's buckets
# as [[value, count], ...]
python3 - "$tmp/v2.json" "$tmp/v1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "drivebench.oltp/2.1", d["schema"]
d["schema"] = "drivebench.oltp/1"
for p in d["phases"]:
    for iv in p["intervals"]:
        h = iv.get("histogram")
        if h and isinstance(h["buckets"], str):
            h["buckets"] = [[int(v), int(c)] for v, c in (x.split(":") for x in h["buckets"].split())]
json.dump(d, open(sys.argv[2], "w"))
PY
for r in 1 2 3; do
  for f in v1 v2; do
    echo "$f $("$tmp/read_result" "$tmp/$f.json")" >> "$tmp/runs"
  done
done
python3 - "$tmp/runs" "$(stat -c %s "$tmp/v1.json")" "$(stat -c %s "$tmp/v2.json")" "$nint" "$istep" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
size = {"v1": int(sys.argv[2]), "v2": int(sys.argv[3])}
print(f"one VM's result: {sys.argv[4]} intervals of {sys.argv[5]} s, {rows[0][4]} buckets in all")
print(f"{'format':<38}{'file MiB':>10}{'peak RSS MiB':>14}{'read CPU s':>12}")
med = {}
for f, name in (("v1", "drivebench.oltp/1 (arrays of pairs)"), ("v2", "drivebench.oltp/2 (one string)")):
    rs = [r for r in rows if r[0] == f]
    rss = statistics.median(int(r[1]) for r in rs) / 1024
    cpu = statistics.median(float(r[2]) for r in rs)
    med[f] = (rss, cpu)
    print(f"{name:<38}{size[f] / 2**20:>10.1f}{rss:>14.1f}{cpu:>12.3f}")
print(f"{'ratio oltp/2 : oltp/1':<38}{size['v2'] / size['v1']:>10.2f}{med['v2'][0] / med['v1'][0]:>14.2f}{med['v2'][1] / med['v1'][1]:>12.2f}")
PY
