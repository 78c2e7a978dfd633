#!/usr/bin/env bash
# The live view under misbehaving local clients (issue 43): a real
# `drivebench run` on libvirt's test driver with [run] metrics (it serves
# while it sits in its boot wait, which never ends there), and while it
# serves:
#   - 16 clients that trickle one header line every 4 s, never ending
#     their request (8 lines at most);
#   - 16 clients that trickle one every second for as long as the scrapes
#     last (they outlast any idle timeout: only enough connections let
#     the scraper in beside them);
#   - 500 connects that close at once, in a burst;
#   - a scraper, curl, 10 scrapes of /metrics one after the other.
# Asserts outcomes, not times: every scrape answered 200 with the whole
# OpenMetrics text (curl's bound, 20 s each, is only there so that a
# starved scraper fails rather than hangs), the server closed each of the
# 4-s clients (idle longer than its timeout), all 500 connects were taken.
# On main (16 connections, 10 s idle timeout) the first scrape starves.
# Then the run is stopped by SIGTERM (exit 130, torn down). Run from the
# repository root; loopback only.
set -u
DB=${DRIVEBENCH:-bin/drivebench}
NODE="test://$PWD/tests/orchestrator/node.xml"
tmp=$(mktemp -d /tmp/orch-live-slow-XXXXXX)
run= clients=
cleanup() {
  [ -z "$clients" ] || { kill "$clients" 2>/dev/null; wait "$clients" 2>/dev/null; }
  [ -z "$run" ] || { kill -TERM "$run" 2>/dev/null; wait "$run" 2>/dev/null; }
  rm -rf "$tmp"
}
trap cleanup EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); echo "ok   - $1"; }
bad() { fail=$((fail+1)); echo "FAIL - $1"; }
for t in curl python3; do
  command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$tmp/run.ini" <<PLAN
[run]
name = live slow clients
uri = $NODE
profile = tiny
vmconfigs_dir = vmconfigs
image_dir = /srv/images
results_dir = $tmp/results
oltp = $PWD/tests/orchestrator/fake-oltp
domain_type = qemu
port_base = 47300
boot_timeout = 10m
metrics = 127.0.0.1:$port
[workload]
name = oltp_read_write
tables = 1
table_size = 10
measure = 1s
[drive d1]
path = /srv/d1
PLAN
$DB run "$tmp/run.ini" --run-id=live-slow-20261206-000000 >"$tmp/out" 2>"$tmp/err" &
run=$!
for _ in $(seq 600); do grep -q "waiting for 1 VM" "$tmp/err" && break; sleep 0.1; done
grep -qF "live view: OpenMetrics at http://127.0.0.1:$port/metrics while the run lasts" "$tmp/out" "$tmp/err" \
  && ok "the run serves its live view" || { bad "no live view"; cat "$tmp/out" "$tmp/err"; exit 1; }

# the clients; "ready" once all 32 slow ones have sent their first line,
# then the burst of connects; "result DROPPED CONNECTS" at the end
python3 - "$port" "$tmp/stop" >"$tmp/clients" 2>&1 <<'PY' &
import os, socket, sys, threading, time
port, stop = int(sys.argv[1]), sys.argv[2]
req = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
dropped, connected, lock = [0], [0], threading.Lock()
started = threading.Barrier(33)

def slow(every, lines):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(req)
    started.wait()
    for i in range(lines):
        if os.path.exists(stop):
            break
        s.settimeout(every)
        try:
            if s.recv(1) == b"":
                raise ConnectionError
        except socket.timeout:
            pass
        except OSError:
            with lock:
                dropped[0] += 1
            return
        try:
            s.sendall(b"X-Slow-%d: %d\r\n" % (i, i))
        except OSError:
            with lock:
                dropped[0] += 1
            return

def holder():
    # one line a second while the scrapes last; a new connection if closed
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(req)
    started.wait()
    i = 0
    while not os.path.exists(stop):
        time.sleep(1)
        i += 1
        try:
            s.sendall(b"X-Hold-%d: %d\r\n" % (i, i))
        except OSError:
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(req)

slows = [threading.Thread(target=slow, args=(4, 8)) for _ in range(16)]
holders = [threading.Thread(target=holder, daemon=True) for _ in range(16)]
for t in slows + holders:
    t.start()
started.wait()
print("ready", flush=True)
for _ in range(500):
    try:
        socket.create_connection(("127.0.0.1", port)).close()
        connected[0] += 1
    except OSError as e:
        print("connect:", e, flush=True)
for t in slows:
    t.join()
print("result", dropped[0], connected[0], flush=True)
PY
clients=$!
for _ in $(seq 600); do grep -q "^ready" "$tmp/clients" && break; sleep 0.1; done
grep -q "^ready" "$tmp/clients" && ok "32 slow clients connected and trickling" \
  || { bad "the slow clients did not start"; cat "$tmp/clients"; }

answered=0
for i in $(seq 10); do
  code=$(curl -sS --max-time 20 -o "$tmp/scrape" -w '%{http_code}' "http://127.0.0.1:$port/metrics" 2>"$tmp/curl")
  if [ "$code" = 200 ] && [ "$(tail -n 1 "$tmp/scrape")" = "# EOF" ]; then
    answered=$((answered + 1))
  else
    echo "scrape $i: HTTP ${code:-none}: $(cat "$tmp/curl")"
    break
  fi
done
[ "$answered" = 10 ] && ok "10 of 10 scrapes answered whole beside the slow clients" \
  || bad "$answered of 10 scrapes answered"
touch "$tmp/stop"
wait "$clients"; clients=
read -r _ dropped connects < <(grep "^result" "$tmp/clients")
[ "${dropped:-}" = 16 ] && ok "the server closed each of the 16 clients idle for 4 s" \
  || { bad "the server closed ${dropped:-?} of the 16 clients idle for 4 s"; cat "$tmp/clients"; }
[ "${connects:-}" = 500 ] && ok "500 of 500 connects taken" \
  || { bad "${connects:-?} of 500 connects taken"; cat "$tmp/clients"; }

kill -TERM "$run"; wait "$run"; st=$?; run=
[ $st -eq 130 ] && grep -qF "teardown: removed 1 domain(s)" "$tmp/err" \
  && ok "the run stops on SIGTERM and tears down" || { bad "SIGTERM: exit $st"; tail -5 "$tmp/err"; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
