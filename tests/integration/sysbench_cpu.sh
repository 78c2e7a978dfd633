#!/usr/bin/env bash
# sysbench's cpu test in bin/sysbench and bin/oltp (oltp/cpu.c): no
# server, a second or two of CPU. Checks what does not depend on timing:
# the header's lines, exact event counts with --events (the report, the
# threads' average, the histogram's rows, sysbench's "Event limit
# exceeded" at --verbosity=4), the checkpoint and interval lines of a
# timed run by their count and shape, `cpu help`, --verbosity=1's silence,
# and the refusals (a command the test has not, --json, --cpu-max-prime=0)
# with one line each and the personality's exit status. The layout was
# compared with Debian's sysbench 1.0.20 (`sysbench cpu run`).
# Run from the repository root.
set -u
sb=$PWD/bin/sysbench oltp=$PWD/bin/oltp
[ -x "$sb" ] && [ -x "$oltp" ] || { echo "sysbench_cpu: bin/sysbench is not built (make)"; exit 1; }
pass=0; fail=0
ok()  { pass=$((pass+1)); echo "ok   - $1"; }
bad() { fail=$((fail+1)); echo "FAIL - $1"; }
# same WHAT GOT WANT
same() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1"; diff <(echo "$3") <(echo "$2") | sed 's/^/     /'; fi; }

# 300 events on 3 threads, primes up to 500
out=$("$sb" cpu --threads=3 --events=300 --time=0 --cpu-max-prime=500 run); rc=$?
same "events: exit 0" "$rc" 0
same "events: the header" "$(sed -n 1,14p <<<"$out")" "$(printf '%s\n' \
  "sysbench 1.0.20-compatible oltp (drivebench $("$oltp" --version | cut -d' ' -f3))" '' \
  'Running the test with following options:' 'Number of threads: 3' \
  'Initializing random number generator from current time' '' '' \
  'Prime numbers limit: 500' '' 'Initializing worker threads...' '' 'Threads started!' '' 'CPU speed:')"
same "events: the report's sections" "$(grep -v '^    \|^         \|^$' <<<"$out" | tail -n 4)" \
  "$(printf '%s\n' 'CPU speed:' 'General statistics:' 'Latency (ms):' 'Threads fairness:')"
same "events: exactly 300 events" "$(grep 'total number of events:' <<<"$out")" \
  "    total number of events:              300"
same "events: 100 a thread on average" "$(grep -o 'events (avg/stddev): *[0-9.]*' <<<"$out")" \
  "events (avg/stddev):           100.0000"
grep -Eq '^    events per second: +[0-9]+\.[0-9]{2}$' <<<"$out" &&
  ok "events: events per second" || bad "events: events per second: $(grep 'per second' <<<"$out")"
same "events: the 95th percentile line" "$(grep -c '^         95th percentile: ' <<<"$out")" 1

# the histogram's rows hold every event; --percentile=0 says disabled
out=$("$sb" cpu --events=77 --time=0 --cpu-max-prime=300 --histogram=on run)
same "histogram: its rows count 77 events" \
  "$(awk '/^ +[0-9]+\.[0-9]{3} \|/ { n += $NF } END { print n }' <<<"$out")" 77
same "histogram: before CPU speed" \
  "$(grep 'Latency histogram\|^CPU speed' <<<"$out" | tr '\n' ,)" \
  "Latency histogram (values are in milliseconds),CPU speed:,"
out=$("$sb" cpu --events=5 --time=0 --percentile=0 run)
same "percentile=0: disabled" "$(grep 'percentile' <<<"$out")" \
  "         percentile stats:               disabled"

# --verbosity=4: sysbench's end lines, once a thread; 1: nothing at all
out=$("$sb" cpu --threads=2 --events=10 --time=0 --verbosity=4 run)
same "verbosity 4: the test's line" "$(grep -c '^Doing CPU performance benchmark$' <<<"$out")" 1
same "verbosity 4: the end lines" "$(grep -A2 'limit exceeded' <<<"$out")" \
  "$(printf '%s\n' 'Event limit exceeded, exiting...' '(last message repeated 1 times)' 'Done.')"
same "verbosity 1: silent" "$("$sb" cpu --events=10 --time=0 --verbosity=1 run)" ""

# a timed run: an interval line a second, two checkpoints, one final report
out=$("$sb" cpu --threads=2 --time=2 --report-interval=1 --report-checkpoints=1 --cpu-max-prime=2000 run)
same "timed: interval lines" "$(grep -E '^\[ [0-9]+s \] thds' <<<"$out" | sed -E 's/eps: [0-9]+\.[0-9]{2} lat \(ms,95%\): [0-9]+\.[0-9]{2}$/eps: E lat (ms,95%): L/')" \
  "$(printf '%s\n' '[ 1s ] thds: 2 eps: E lat (ms,95%): L' '[ 2s ] thds: 2 eps: E lat (ms,95%): L')"
same "timed: the checkpoint" "$(grep 'Checkpoint report' <<<"$out")" "[ 1s ] Checkpoint report:"
same "timed: two reports" "$(grep -c '^CPU speed:$' <<<"$out")" 2
same "timed: the header's lines" "$(sed -n 4,6p <<<"$out")" "$(printf '%s\n' 'Number of threads: 2' \
  'Report intermediate results every 1 second(s)' 'Report checkpoint(s) at 1 seconds')"

# oltp: its own first line, the same report; the listing names cpu
out=$("$oltp" cpu --events=3 --time=0 run)
same "oltp: its first line" "$(head -n 1 <<<"$out")" "oltp (drivebench) $("$oltp" --version | cut -d' ' -f3), sysbench-compatible"
same "oltp: 3 events" "$(grep 'total number of events:' <<<"$out")" "    total number of events:              3"
same "sysbench --help lists cpu" "$("$sb" --help | grep -c '^  cpu ')" 1

# help, and what the test refuses
same "cpu help" "$("$sb" cpu help)" "$(printf '%s\n' \
  "sysbench 1.0.20-compatible oltp (drivebench $("$oltp" --version | cut -d' ' -f3))" '' 'cpu options:' \
  '  --cpu-max-prime=N cpu test: each event finds the primes up to N by trial division [10000]')"
err=$("$sb" cpu prepare 2>&1 >/dev/null); rc=$?
same "sysbench cpu prepare: refused" "$rc: $err" "1: 'cpu' test does not implement the 'prepare' command."
err=$("$oltp" cpu cleanup 2>&1 >/dev/null); rc=$?
same "oltp cpu cleanup: refused" "$rc: $err" "2: oltp: the cpu test has no 'cleanup' command (it has no data: run it)"
err=$("$oltp" cpu --json=/tmp/x.json --events=1 run 2>&1); rc=$?
same "oltp cpu --json: refused" "$rc: $err" "2: oltp: --json (no result document for it) is not available with the cpu test"
err=$("$sb" cpu --cpu-max-prime=0 run 2>&1); rc=$?
same "--cpu-max-prime=0: refused" "$rc: $(tail -n 1 <<<"$err")" "1: FATAL: --cpu-max-prime=0: out of range [1, 2.14748e+09]"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
