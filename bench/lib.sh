# bench/lib.sh — helpers the client benchmarks share (source it from the
# repository's root): building the floor client, reading one run's report,
# the table of medians and ratios.

# Build bench/floor_client.c into build/bench/floor_client; sets FLOOR_BIN.
bench_build_floor() {
  FLOOR_BIN=build/bench/floor_client
  mkdir -p build/bench
  cc -std=gnu11 -O2 -g -Wall -Wextra -I/usr/include/mariadb -I"$(pg_config --includedir)" \
    bench/floor_client.c -o "$FLOOR_BIN" -lmariadb -lpq -lpthread
}

# CPU ticks of the PostgreSQL server of tests/lib/postgres.sh: the
# postmaster with its reaped children, plus the children alive now
# (checkpointer, walwriter, ... and backends); user + kernel time, or with
# the argument "split" the two as "USER KERNEL".
bench_pg_server_ticks() {
  local u s
  read -r u s < <(awk '{print $14+$16, $15+$17}' "/proc/$PGSQL_PID/stat")
  for c in $(pgrep -P "$PGSQL_PID"); do
    read -r cu cs < <(awk '{print $14, $15}' "/proc/$c/stat" 2>/dev/null || echo 0 0)
    u=$((u + cu)); s=$((s + cs))
  done
  if [ "${1:-}" = split ]; then echo "$u $s"; else echo $((u + s)); fi
}

# The backends of a run end just after its client: wait (up to 5 s) until
# the postmaster has reaped them, so their CPU and statistics are counted.
bench_pg_backends_gone() {
  for _ in $(seq 1 50); do
    [ "$(pgrep -c -P "$PGSQL_PID" -f 'postgres: sbtest')" -eq 0 ] && break; sleep 0.1
  done
}

# bench_figures OUTPUT SERVER_TICKS_BEFORE SERVER_TICKS_AFTER: one run's
# "tps p99_ms client_cpu user sys server_cpu" (CPU in seconds per 1,000
# transactions) from a sysbench-style report passed through cpu_of.py.
bench_figures() {
  python3 - "$1" "$2" "$3" "$(getconf CLK_TCK)" <<'PY'
import re, sys
out, s0, s1, hz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
trx = int(re.search(r"transactions:\s+(\d+)", out).group(1))
tps = float(re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec", out).group(1))
p99 = float(re.search(r"99th percentile:\s+([\d.]+)", out).group(1))
cpu, user, sys_ = (float(re.search(rf"^client_{k}_s=([\d.]+)", out, re.M).group(1)) for k in ("cpu", "user", "sys"))
k = 1000 / trx
print(f"{tps:.2f} {p99:.2f} {cpu * k:.4f} {user * k:.4f} {sys_ * k:.4f} {(s1 - s0) / hz * k:.4f}")
PY
}

# bench_medians RUNS_FILE NRUNS: the medians per client (lines "client
# figures...") beside sysbench's, with the ratios. With BENCH_MEDIANS_OUT
# set, also appends one line per client to that file: "client tps p99 cpu
# user sys server" (the medians; bench/client_sweep.sh reads them).
bench_medians() {
  python3 - "$1" "$2" "${BENCH_MEDIANS_OUT:-}" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
names = ["TPS", "p99 latency (ms)", "client CPU s / 1k trx", "  user", "  kernel",
         "server CPU s / 1k trx"]
med = {}
for c in dict.fromkeys(r[0] for r in rows):
    vals = [list(map(float, r[1:])) for r in rows if r[0] == c]
    med[c] = [statistics.median(v[i] for v in vals) for i in range(len(names))]
others = [c for c in med if c != "sysbench"]
print(f"\nmedians of {sys.argv[2]} alternating runs")
print(f"{'figure':<24}{'sysbench':>12}" + "".join(f"{c:>12}{c + '/sb':>12}" for c in others))
for i, n in enumerate(names):
    base = med["sysbench"][i]
    line = f"{n:<24}{base:>12.3f}"
    for c in others:
        line += f"{med[c][i]:>12.3f}{(med[c][i] / base if base else float('nan')):>12.2f}"
    print(line)
if sys.argv[3]:
    with open(sys.argv[3], "a") as f:
        for c, v in med.items():
            f.write(" ".join([c] + [f"{x:.4f}" for x in v]) + "\n")
PY
}

# The extra oltp clients of OLTP_ET="2 4 ..." (one per event-thread count,
# named oltp-et2, oltp-et4, ...), to compare defaults in the same session.
bench_et_clients() {
  local k
  for k in ${OLTP_ET:-}; do printf ' oltp-et%s' "$k"; done
}
