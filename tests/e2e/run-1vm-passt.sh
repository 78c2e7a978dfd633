#!/usr/bin/env bash
# End-to-end: `[run] network = passt` (issue 33, item 4; README, "The guest
# network"). Two parts:
#   1. a MariaDB plan with network = passt is refused before anything is
#      made: exit 2, exactly the plan check's one message, and no domain,
#      volume, namespace, passt PID file or results folder of the run;
#   2. `drivebench run` of one tiny VM serving PostgreSQL with network =
#      passt (oltp_read_write, 1 table x 1,000 rows, 2 threads, 45 s
#      measured, through oltp's pgsql driver): the run exits 0, its
#      summary's transactions equal the VM result file's
#      (e2e_check_totals), plan.client_path is "passt-stream". While it
#      measures, a watcher records the domain's live XML (one '-netdev
#      stream' to /run/drivebench/passt/UUID.sock, no user-mode network),
#      passt's PID and command line (only the database's forward; UDP,
#      ICMP, NDP, DHCPv6, RA off), the namespace (lo, d0, d1; forwarding
#      off), and isolation probes from the guest (TCP to 198.51.100.1:80
#      and to the gateway 10.0.3.2:22, ICMP to 198.51.100.1: all fail,
#      tcpdump -i any sees 0 packets to 198.51.100.1 on the host).
#      Afterwards: passt's PID is gone, the namespace and PID file too,
#      and `drivebench list` shows nothing of the run.
# About 3-4 minutes under TCG (boot, the load, 45 s). Builds (or reuses)
# images/build/postgresql unless E2E_IMAGE_DIR names one. Always tears
# its runs down.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

drivebench=$E2E_TOP/bin/drivebench
tag=e2e-passt-$$-$RANDOM
id=$tag-pg
bad=$tag-maria
name=drivebench-$id--e2e-vm1
watcher=''

e2e_test_cleanup() {
  [ -z "$watcher" ] || kill "$watcher" 2>/dev/null || true
  [ -n "$E2E_WORK" ] || return 0
  for r in "$id" "$bad"; do
    "$drivebench" teardown "$r" --uri="$E2E_URI" >/dev/null 2>&1 || true
  done
  [ "$1" != 0 ] || return 0
  e2e_run_failed "$E2E_WORK" "$id"
}
e2e_begin virsh jq timeout passt ip tcpdump

[ -x "$drivebench" ] || e2e_fail "$drivebench missing: run make first"
[ -x "$E2E_TOP/bin/oltp" ] || e2e_fail "$E2E_TOP/bin/oltp missing: run make first"
e2e_engine_image postgresql
e2e_libvirt_up || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)
e2e_run_work passt
work=$E2E_WORK

# --- 1. MariaDB with network = passt: refused, nothing made ---
e2e_engine_plan "$work/maria.ini" "e2e passt maria" mariadb "$type" 10m "network = passt" \
  $'name = oltp_read_write\ntables = 1\ntable_size = 1000\nmeasure = 10s'
rc=0
"$drivebench" run "$work/maria.ini" --run-id="$bad" >"$work/maria.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || e2e_fail "the MariaDB plan with network = passt exited $rc, not 2: $(cat "$work/maria.out")"
want="$work/maria.ini:13: [run] network = passt cannot serve engine mariadb: its server speaks first on a new connection, and Debian 12's passt (0.0~git20230309) never completes such a handshake (the guest's SYN-ACK is not acknowledged until the client sends data); use network = user (README, the guest network)"
[ "$(cat "$work/maria.out")" = "$want" ] \
  || e2e_fail "the refusal said: $(cat "$work/maria.out")"
[ ! -e "$work/results/$bad" ] || e2e_fail "the refused run made $work/results/$bad"
[ -z "$(find "$work/drive" -mindepth 1)" ] || e2e_fail "the refused run left files on the drive"
e2e_passt_nothing_left "$bad" "refused MariaDB plan"
e2e_say "MariaDB with network = passt: refused (exit 2, the plan check's message), nothing made"

# --- 2. PostgreSQL through passt ---
e2e_engine_plan "$work/pg.ini" "e2e passt" postgresql "$type" 10m "network = passt" \
  $'db_driver = pgsql\nname = oltp_read_write\ntables = 1\ntable_size = 1000\nthreads = 2\nmeasure = 45s'

# the watcher: once oltp's measured run starts, what the VM's network is
watch_run() {
  local w=$work/watch pid
  mkdir -p "$w"
  until grep -q ' run$' "$work/argv.log" 2>/dev/null; do sleep 1; done
  virsh -c "$E2E_URI" dumpxml "$name" >"$w/dom.xml" 2>&1
  pid=$(cat "/run/drivebench/passt/$name.pid")
  echo "$pid" >"$w/passt.pid"
  tr '\0' ' ' <"/proc/$pid/cmdline" >"$w/passt.cmdline"
  ip -n "$name" -o link | awk -F': ' '{print $2}' | sed 's/@.*//' | sort | tr '\n' ' ' >"$w/links"
  ip netns exec "$name" cat /proc/sys/net/ipv4/ip_forward >"$w/ip_forward"
  tcpdump -i any -nn -U -w "$w/host.pcap" 'host 198.51.100.1' 2>/dev/null &
  local dump=$!
  sleep 2
  for p in "tcp-out:timeout 8 bash -c 'exec 3<>/dev/tcp/198.51.100.1/80'" \
           "tcp-gateway:timeout 8 bash -c 'exec 3<>/dev/tcp/10.0.3.2/22'" \
           "icmp-out:ping -c 2 -W 2 198.51.100.1"; do
    if VM_URI=$E2E_URI vm_guest_sh "$name" "${p#*:}" >/dev/null 2>&1; then
      echo "${p%%:*} succeeded"
    else
      echo "${p%%:*} failed"
    fi
  done >"$w/probes"
  sleep 2
  kill -INT "$dump" 2>/dev/null || true
  wait "$dump" 2>/dev/null || true
  tcpdump -nn -r "$w/host.pcap" 2>/dev/null | wc -l >"$w/host_packets"
  echo finished >"$w/done"
}
# shellcheck source=../../images/vmlib.sh
. "$E2E_TOP/images/vmlib.sh"
watch_run &
watcher=$!

e2e_say "drivebench run, PostgreSQL through passt ($type, run id $id)"
t0=$(date +%s)
timeout -k 30 900 "$drivebench" run "$work/pg.ini" --run-id="$id" >"$work/$id.log" 2>&1 \
  || e2e_fail "drivebench run with network = passt failed or took longer than 900 s"
grep -q "teardown: removed 1 domain(s), .*; stopped 1 passt network(s)" "$work/$id.log" \
  || e2e_fail "the run did not say it stopped its passt network: $(grep teardown: "$work/$id.log")"
e2e_say "run finished in $(( $(date +%s) - t0 ))s"
w=$work/watch
[ -s "$w/done" ] || e2e_fail "the watcher did not finish while the run measured"
watcher=''
sum=$work/results/$id/summary.json
[ -s "$sum" ] || e2e_fail "no summary.json"
[ "$(jq -r '.plan.client_path' "$sum")" = passt-stream ] \
  || e2e_fail "summary plan.client_path is $(jq -r '.plan.client_path' "$sum"), not passt-stream"
jq -e '.run.transactions > 0' "$sum" >/dev/null || e2e_fail "no transactions"
e2e_check_totals "$work/results/$id"
! grep -q 'completed with failures' "$work/$id.log" || e2e_fail "a VM failed (see the run output)"

# the domain's NIC: passt's stream, no user-mode network
uuid=$(sed -n 's|.*<uuid>\(.*\)</uuid>.*|\1|p' "$w/dom.xml")
args=$(python3 -c '
import sys, xml.etree.ElementTree as ET
q = "{http://libvirt.org/schemas/domain/qemu/1.0}"
print(" ".join(a.get("value") for a in ET.parse(sys.argv[1]).getroot().iter(q + "arg")))' "$w/dom.xml")
case " $args " in
  *" -netdev stream,id=net0,server=off,addr.type=unix,addr.path=/run/drivebench/passt/$uuid.sock -device virtio-net-pci,netdev=net0,"*) ;;
  *) e2e_fail "the domain has no -netdev stream to its passt socket: $args" ;;
esac
[ "$(grep -o -- '-netdev' <<<"$args" | wc -l)" = 1 ] || e2e_fail "the domain has more than one -netdev: $args"
! grep -q 'hostfwd\|user,' <<<"$args" || e2e_fail "the domain still has a user-mode network: $args"
# passt: only the database's forward, inside the namespace
pid=$(cat "$w/passt.pid")
port=$(sed -n 's/.*--pgsql-port=\([0-9]*\).*/\1/p' "$work/argv.log" | head -1)
# (argv[0] left out: Debian's passt execs passt.avx2 where the CPU has AVX2)
[ "$(cut -d' ' -f2- "$w/passt.cmdline")" = "-q -4 --runas libvirt-qemu --no-udp --no-icmp --no-ndp --no-dhcpv6 --no-ra --no-dhcp-dns --no-dhcp-search -t 127.0.0.1/$port:5432 -s /run/drivebench/passt/$uuid.sock -P /run/drivebench/passt/$name.pid " ] \
  || e2e_fail "passt's command line: $(cat "$w/passt.cmdline")"
[ "$(cat "$w/links")" = "d0 d1 lo " ] || e2e_fail "the namespace's links: $(cat "$w/links")"
[ "$(cat "$w/ip_forward")" = 0 ] || e2e_fail "the namespace forwards packets"
[ "$(cat "$w/probes")" = $'tcp-out failed\ntcp-gateway failed\nicmp-out failed' ] \
  || e2e_fail "isolation probes from the guest: $(tr '\n' ';' <"$w/probes")"
[ "$(cat "$w/host_packets")" = 0 ] || e2e_fail "$(cat "$w/host_packets") packets to 198.51.100.1 on the host"
grep -q -- "--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$port" "$work/argv.log" \
  || e2e_fail "no --pgsql-port=$port on oltp's argv"
grep -q ping "$work/argv.log" || e2e_fail "readiness never ran oltp ping"
# afterwards: passt stopped by its PID, nothing of the run left
[ ! -e "/proc/$pid" ] || e2e_fail "passt (PID $pid) still runs after the run: $(cat "/proc/$pid/comm" 2>/dev/null)"
[ ! -e "/run/drivebench/passt/$uuid.sock" ] || e2e_fail "passt's socket is left"
e2e_passt_nothing_left "$id" "the passt run"
[ -z "$(find "$work/drive" -mindepth 1)" ] || e2e_fail "files left on the drive: $(ls "$work/drive")"
e2e_say "$(jq -r '.drives[] | "drive \(.name): \(.tps) TPS, avg \(.latency_ms.avg) ms, p99 \(.latency_ms.p99) ms"' "$sum")"
e2e_say "PASS (PostgreSQL through passt in its own namespace: stream NIC, isolation probes refused, 0 host packets, passt $pid and namespace gone; MariaDB refused)"
