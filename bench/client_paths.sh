#!/usr/bin/env bash
# What each client-to-database path costs (issue 24, item 3), on one real VM:
#   user   QEMU's user-mode network, restrict=on, hostfwd to 127.0.0.1:PORT
#          (what `client = host` uses today); the client on the host
#   passt  passt (Debian's package) through QEMU 7.2's `-netdev stream`, passt
#          confined to a network namespace of its own that holds only
#          loopback and a veth pair whose two ends are both inside it (so
#          nothing it sends can leave the namespace); its `-t` forward
#          listens on that namespace's 127.0.0.1 and the client runs there
#   guest  the client inside the guest, on TCP 127.0.0.1:3306 there, as
#          `client = guest` connects
# Per round trip: bench/rtt_client.c's `SELECT 1` loop, one connection
# (kind rtt); the network alone: bench/echo_rtt.c, 64 bytes echoed by a
# server in the guest (kind echo; the client speaks first, which Debian
# 12's passt needs: it never acknowledges the guest's SYN-ACK until the host
# side sends, so MariaDB's server-first handshake stalls through it and
# kinds rtt and rw leave passt out after one probe that shows it).
# Per transaction: oltp_read_write, 2 tables x 10,000 rows, 4 threads.
# Host CPU is read from /proc (utime + stime) for QEMU, passt and the host
# client; the guest client's CPU is inside QEMU's (TCG emulates it).
#
# Before measuring, it shows from inside the guest that passt's NIC reaches
# nothing but the forward: TCP to TEST-NET-2 198.51.100.1 (not TEST-NET-1:
# on these machines 192.0.2.0/24 is the host's real network) and to the
# gateway (which passt maps to its own loopback: the namespace's, not the
# host's), UDP and ICMP to 198.51.100.1 all fail,
# while tcpdump on the host (all interfaces) and on the namespace's far veth
# end counts the packets that got out: 0 on the host is the requirement.
#
# Usage: images/with-libvirt.sh bench/client_paths.sh [ROUNDS [SECONDS]]
# (default 3 rounds of 20 s, paths alternating within each round).
# KINDS="echo rtt" measures the round trips only (bench/guest_net.sh); the
# default is "echo rtt rw". The load average (uptime) is printed before and
# after: the machine is shared, note it beside the figures.
# PATHS="user guest" leaves passt's path out of the measurements (its
# isolation probes still run); the default is "user passt guest".
# Needs root (network namespace), passt, tcpdump, virsh, the guest image
# (images/build). Cleans up its VM, namespace and processes on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
. images/vmlib.sh
rounds=${1:-3}
secs=${2:-20}
VM_IMAGES=${DRIVEBENCH_IMAGE_DIR:-$top/images/build}
for c in passt tcpdump virsh qemu-img ip jq; do
  command -v "$c" >/dev/null || { echo "client_paths: $c is missing (apt-get install $c)" >&2; exit 1; }
done
[ -s "$VM_IMAGES/base.qcow2" ] || { echo "client_paths: no guest image in $VM_IMAGES: run make image" >&2; exit 1; }
[ -x bin/oltp ] || { echo "client_paths: bin/oltp missing: run make" >&2; exit 1; }

name=drivebench-bench-paths-$$
ns=drivebench-paths-$$
work=$(mktemp -d /var/tmp/drivebench-paths.XXXXXX)
defined=0 passt_pid='' dumps=()
cleanup() {
  [ "$defined" = 0 ] || vm_remove "$name"
  if [ -n "$passt_pid" ] && kill "$passt_pid" 2>/dev/null; then
    # gone before this script ends: a test checks its PID right after
    for _ in $(seq 50); do kill -0 "$passt_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$passt_pid" 2>/dev/null || true
  fi
  for p in "${dumps[@]}"; do kill "$p" 2>/dev/null || true; done
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p build/bench
cc -std=gnu11 -O2 -Wall -Wextra -I/usr/include/mariadb bench/rtt_client.c -o build/bench/rtt_client -lmariadb
cc -std=gnu11 -O2 -Wall -Wextra bench/echo_rtt.c -o build/bench/echo_rtt

# The namespace: loopback, and d0 (10.0.3.15/24, default route via
# 10.0.3.2) whose veth peer d1 is in the same namespace with no address and
# forwarding off, so a packet routed out of d0 dies at d1. passt needs a
# routable interface to copy its guest-side address from: that is d0.
ip netns add "$ns"
ip -n "$ns" link set lo up
ip -n "$ns" link add d0 type veth peer name d1
ip -n "$ns" addr add 10.0.3.15/24 dev d0
ip -n "$ns" link set d0 up
ip -n "$ns" link set d1 up
ip -n "$ns" route add default via 10.0.3.2 dev d0
[ "$(ip netns exec "$ns" sysctl -n net.ipv4.ip_forward)" = 0 ] \
  || { echo "client_paths: forwarding is on in the new namespace" >&2; exit 1; }

chmod 0755 "$work"
mkdir "$work/passt" && chown libvirt-qemu "$work/passt"
pport=$(vm_free_port)
peport=$(vm_free_port)    # passt's forward to the guest's echo server (7777)
ueport=$(vm_free_port)    # the user-mode forward to it
sock=$work/passt/passt.sock
ip netns exec "$ns" passt -f -q -4 --runas libvirt-qemu \
  --no-udp --no-icmp --no-ndp --no-dhcpv6 --no-ra --no-dhcp-dns --no-dhcp-search \
  -t "127.0.0.1/$pport:3306" -t "127.0.0.1/$peport:7777" -s "$sock" -P "$work/passt/pid" 2>"$work/passt.log" &
passt_pid=$!
# $! is passt itself (ip netns exec execs it, and -f keeps it in the
# foreground); its PID file is written after its socket exists: wait for
# both, so the PID read is never empty (an empty one would leave passt
# running on exit)
for _ in $(seq 100); do [ -S "$sock" ] && [ -s "$work/passt/pid" ] && break; sleep 0.1; done
{ [ -S "$sock" ] && [ -s "$work/passt/pid" ]; } \
  || { echo "client_paths: passt did not start:" >&2; cat "$work/passt.log" >&2; exit 1; }
[ "$(cat "$work/passt/pid")" = "$passt_pid" ] \
  || { echo "client_paths: passt's PID file says $(cat "$work/passt/pid"), not $passt_pid" >&2; exit 1; }
echo "passt: pid $passt_pid, namespace $ns"

qemu-img create -q -f qcow2 -F qcow2 -b "$VM_IMAGES/base.qcow2" "$work/boot.qcow2" 4G
truncate -s 1G "$work/db.img"
# shellcheck disable=SC2034  # read by vm_boot (images/vmlib.sh)
VM_HOSTFWD_EXTRA="tcp:127.0.0.1:$ueport-:7777"
# shellcheck disable=SC2034
VM_QEMU_EXTRA="-netdev
stream,id=net1,server=off,addr.type=unix,addr.path=$sock
-device
virtio-net-pci,netdev=net1,bus=pci.0,addr=0x1d,mac=52:54:00:00:03:15"
VM_TYPE=$(DRIVEBENCH_IMAGE_DIR=$VM_IMAGES images/virt-type.sh)
defined=1
vm_boot "$name" "$work"
echo "booting $name ($VM_TYPE): user-mode forward 127.0.0.1:$VM_PORT, passt forward 127.0.0.1:$pport in $ns"
vm_wait_ready "$name" $(( VM_T0 + 600 ))
echo "ready after ${VM_T_DB}s"
qpid=$(cat "/run/libvirt/qemu/$name.pid")

# The guest's passt NIC, by its MAC; wait for its DHCP lease from passt.
nic=''
for _ in $(seq 30); do
  nic=$(vm_guest_sh "$name" "ip -o link | awk -F': ' '/52:54:00:00:03:15/ {print \$2}'" || true)
  [ -n "$nic" ] && vm_guest_sh "$name" "ip -4 -o addr show dev $nic | grep -q 10.0.3.15" && break
  sleep 2
done
[ -n "$nic" ] || { echo "client_paths: the guest has no passt NIC" >&2; exit 1; }
echo "guest: passt NIC $nic: $(vm_guest_sh "$name" "ip -4 -o addr show dev $nic | awk '{print \$4}'")"

# --- isolation: nothing but the forward, and nothing leaves ---
tcpdump -i any -nn -U -w "$work/host.pcap" 'host 198.51.100.1 or net 10.0.3.0/24' 2>/dev/null &
dumps+=($!)
ip netns exec "$ns" tcpdump -i d1 -nn -U -w "$work/d1.pcap" 2>/dev/null &
dumps+=($!)
sleep 2
probe() {  # what, guest command; the command must fail
  if vm_guest_sh "$name" "$2" >/dev/null 2>&1; then
    echo "client_paths: ISOLATION BROKEN: $1 succeeded from the guest" >&2; exit 1
  fi
  echo "  $1: refused or timed out (good)"
}
echo "isolation probes from the guest, each through the passt NIC ($nic), then the user-mode NIC:"
vm_guest_sh "$name" "ip route replace 198.51.100.1/32 via 10.0.3.2 dev $nic" >/dev/null
probe "TCP 198.51.100.1:80 via passt" "timeout 8 bash -c 'exec 3<>/dev/tcp/198.51.100.1/80'"
probe "TCP 10.0.3.2:22 (the gateway) via passt" "timeout 8 bash -c 'exec 3<>/dev/tcp/10.0.3.2/22'"
probe "TCP 10.0.3.2:$VM_PORT (the gateway, which passt maps to the namespace's loopback: the host's user-mode forward is not there)" \
  "timeout 8 bash -c 'exec 3<>/dev/tcp/10.0.3.2/$VM_PORT'"
probe "ICMP echo 198.51.100.1 via passt" "ping -c 2 -W 2 198.51.100.1"
vm_guest_sh "$name" "bash -c 'echo x > /dev/udp/198.51.100.1/53'" >/dev/null 2>&1 || true
vm_guest_sh "$name" "ip route replace 198.51.100.1/32 via 10.0.2.2" >/dev/null
probe "TCP 198.51.100.1:80 via user-mode (restrict=on)" "timeout 8 bash -c 'exec 3<>/dev/tcp/198.51.100.1/80'"
vm_guest_sh "$name" "ip route del 198.51.100.1/32" >/dev/null || true
sleep 4
for p in "${dumps[@]}"; do kill -INT "$p" 2>/dev/null || true; done
sleep 1
dumps=()
host_pkts=$(tcpdump -nn -r "$work/host.pcap" 2>/dev/null | wc -l)
d1_pkts=$(tcpdump -nn -r "$work/d1.pcap" 2>/dev/null | wc -l)
echo "  packets seen on the host's interfaces to 198.51.100.1 or 10.0.3.0/24: $host_pkts"
tcpdump -nn -r "$work/host.pcap" 2>/dev/null | sed 's/^/    host: /' | head -5
echo "  packets that reached the namespace's dead end d1 (dropped there): $d1_pkts"
tcpdump -nn -r "$work/d1.pcap" 2>/dev/null | sed 's/^/    d1: /' | head -5
[ "$host_pkts" = 0 ] || { echo "client_paths: ISOLATION BROKEN: packets on the host" >&2; exit 1; }
echo "  the namespace's interfaces: $(ip -n "$ns" -o link | awk -F': ' '{print $2}' | tr '\n' ' ')"

# --- measurements ---
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
# upload a program into the guest's /usr/local/bin through the agent (guest-file-*)
guest_upload() {
  local b64 fh
  b64=$(base64 -w0 "build/bench/$1")
  fh=$(vm_agent "$name" "$(jq -cn --arg p "/usr/local/bin/$1" '{execute:"guest-file-open",arguments:{path:$p,mode:"w"}}')" | jq -r .return)
  vm_agent "$name" "$(jq -cn --argjson h "$fh" --arg b "$b64" '{execute:"guest-file-write",arguments:{handle:$h,"buf-b64":$b}}')" >/dev/null
  vm_agent "$name" "$(jq -cn --argjson h "$fh" '{execute:"guest-file-close",arguments:{handle:$h}}')" >/dev/null
  vm_guest_sh "$name" "chmod 0755 /usr/local/bin/$1"
}
guest_upload rtt_client
guest_upload echo_rtt
vm_guest_sh "$name" "setsid /usr/local/bin/echo_rtt server 7777 </dev/null >/dev/null 2>&1 &" \
  || { echo "client_paths: echo_rtt does not start in the guest" >&2; exit 1; }
# the server answers once its socket listens: ask from inside the guest
# first (a connect before that through the user-mode forward is accepted
# by QEMU and then dropped: "connection lost", seen in CI under TCG)
for _ in $(seq 60); do
  vm_guest_sh "$name" "/usr/local/bin/echo_rtt client 127.0.0.1 7777 0.1" >/dev/null 2>&1 && break
  sleep 0.5
done
for p in user passt guest; do
  case $p in
    user) c="build/bench/echo_rtt client 127.0.0.1 $ueport 0.5" ;;
    passt) c="ip netns exec $ns build/bench/echo_rtt client 127.0.0.1 $peport 0.5" ;;
    guest) c="vm_guest_sh $name '/usr/local/bin/echo_rtt client 127.0.0.1 7777 0.5'" ;;
  esac
  eval "$c" >/dev/null || { echo "client_paths: no echo through the $p path" >&2; exit 1; }
done
echo "echo through all three paths: ok"
# MariaDB through passt: the guest's SYN-ACK is never acknowledged (see the top)
if ip netns exec "$ns" env OLTP_MYSQL_PASSWORD="$ENGINE_PASSWORD" bin/oltp --db-driver=mysql \
     --mysql-host=127.0.0.1 --mysql-port="$pport" --mysql-user="$ENGINE_USER" --connect-timeout=5 ping >/dev/null 2>"$work/ping.err"; then
  passt_db=1; echo "MariaDB through passt: ok"
else
  passt_db=0; echo "MariaDB through passt: fails ($(head -c 200 "$work/ping.err")): kinds rtt and rw leave passt out"
fi
vm_guest_sh "$name" "chmod 0755 /usr/local/bin/rtt_client && /usr/local/bin/rtt_client 127.0.0.1 3306 $ENGINE_USER $ENGINE_PASSWORD 1" >/dev/null \
  || { echo "client_paths: rtt_client does not run in the guest" >&2; exit 1; }

kinds=${KINDS:-echo rtt rw}
case " $kinds " in
  *" rw "*)
    echo "preparing oltp_read_write, 2 tables x 10,000 rows"
    vm_oltp --tables=2 --table-size=10000 oltp_read_write prepare >/dev/null ;;
esac
rw=(--tables=2 --table-size=10000 --threads=4 --time="$secs" --percentile=99)

# one measurement: PATH KIND -> "rate avg_ms p99_ms client_cpu qemu_cpu passt_cpu" (CPU in s)
run_one() {
  local path=$1 kind=$2 q0 p0 q1 p1 out ccpu=0 tf=$work/time
  q0=$(ticks "$qpid"); p0=$(ticks "$passt_pid")
  case $path/$kind in
    user/rtt) out=$(/usr/bin/time -f '%U %S' -o "$tf" build/bench/rtt_client 127.0.0.1 "$VM_PORT" "$ENGINE_USER" "$ENGINE_PASSWORD" "$secs") ;;
    passt/rtt) out=$(ip netns exec "$ns" /usr/bin/time -f '%U %S' -o "$tf" build/bench/rtt_client 127.0.0.1 "$pport" "$ENGINE_USER" "$ENGINE_PASSWORD" "$secs") ;;
    guest/rtt) out=$(vm_guest_sh "$name" "/usr/local/bin/rtt_client 127.0.0.1 3306 $ENGINE_USER $ENGINE_PASSWORD $secs") ;;
    user/echo) out=$(/usr/bin/time -f '%U %S' -o "$tf" build/bench/echo_rtt client 127.0.0.1 "$ueport" "$secs") ;;
    passt/echo) out=$(ip netns exec "$ns" /usr/bin/time -f '%U %S' -o "$tf" build/bench/echo_rtt client 127.0.0.1 "$peport" "$secs") ;;
    guest/echo) out=$(vm_guest_sh "$name" "/usr/local/bin/echo_rtt client 127.0.0.1 7777 $secs") ;;
    user/rw) out=$(/usr/bin/time -f '%U %S' -o "$tf" env OLTP_MYSQL_PASSWORD="$ENGINE_PASSWORD" bin/oltp --mysql-host=127.0.0.1 --mysql-port="$VM_PORT" --mysql-user="$ENGINE_USER" "${rw[@]}" oltp_read_write run) ;;
    passt/rw) out=$(ip netns exec "$ns" /usr/bin/time -f '%U %S' -o "$tf" env OLTP_MYSQL_PASSWORD="$ENGINE_PASSWORD" bin/oltp --mysql-host=127.0.0.1 --mysql-port="$pport" --mysql-user="$ENGINE_USER" "${rw[@]}" oltp_read_write run) ;;
    guest/rw) out=$(vm_guest_sh "$name" "OLTP_MYSQL_PASSWORD=$ENGINE_PASSWORD /usr/local/bin/oltp --mysql-host=127.0.0.1 --mysql-port=3306 --mysql-user=$ENGINE_USER ${rw[*]} oltp_read_write run") ;;
  esac
  q1=$(ticks "$qpid"); p1=$(ticks "$passt_pid")
  [ "$path" = guest ] || ccpu=$(awk '{print $1 + $2}' "$tf")
  python3 -c "$parse" "$kind" "$ccpu" "$(( q1 - q0 ))" "$(( p1 - p0 ))" "$hz" <<<"$out"
}
parse=$(cat <<'PY'
import re, sys
kind, ccpu, dq, dp, hz = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
out = sys.stdin.read()
if kind in ("rtt", "echo"):
    f = dict(kv.split("=") for kv in out.split())
    n, s = int(f["round_trips"]), float(f["seconds"])
    print(f"{n / s:.1f} {float(f['avg_us']) / 1000:.4f} {float(f['p99_us']) / 1000:.4f} {n} {ccpu} {dq / hz} {dp / hz}")
else:
    n = int(re.search(r"transactions:\s+(\d+)", out).group(1))
    tps = float(re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec", out).group(1))
    avg = float(re.search(r"avg:\s+([\d.]+)", out).group(1))
    p99 = float(re.search(r"99th percentile:\s+([\d.]+)", out).group(1))
    print(f"{tps:.2f} {avg:.3f} {p99:.3f} {n} {ccpu} {dq / hz} {dp / hz}")
PY
)

# QEMU's and passt's CPU with no client: what every path pays anyway.
q0=$(ticks "$qpid"); p0=$(ticks "$passt_pid"); sleep "$secs"
idle_q=$(awk -v d=$(( $(ticks "$qpid") - q0 )) -v hz="$hz" -v s="$secs" 'BEGIN {printf "%.4f", d / hz / s}')
idle_p=$(awk -v d=$(( $(ticks "$passt_pid") - p0 )) -v hz="$hz" -v s="$secs" 'BEGIN {printf "%.4f", d / hz / s}')
echo "idle: QEMU ${idle_q} CPU-s/s, passt ${idle_p} CPU-s/s"

runs=$work/runs
echo "load average before: $(uptime | sed 's/.*load average: //')"
for r in $(seq "$rounds"); do
  for kind in $kinds; do
    order="user passt guest"
    [ $(( r % 2 )) = 1 ] || order="guest passt user"
    for path in $order; do
      case " ${PATHS:-user passt guest} " in *" $path "*) ;; *) continue ;; esac
      [ "$path/$passt_db" != passt/0 ] || [ "$kind" = echo ] || continue
      line=$(run_one "$path" "$kind") || { echo "client_paths: $path $kind failed" >&2; exit 1; }
      echo "$kind $path $line" >> "$runs"
      echo "round $r $kind $path: $line"
    done
  done
done

echo "load average after: $(uptime | sed 's/.*load average: //')"
python3 - "$runs" "$rounds" "$idle_q" "$secs" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
idle_q, secs = float(sys.argv[3]), float(sys.argv[4])
print(f"\nmedians of {sys.argv[2]} alternating {secs:g}-s runs; host CPU per unit = (client + QEMU + passt) CPU-seconds / count;")
print(f"'net of idle' subtracts QEMU's idle {idle_q:.4f} CPU-s/s over the run")
for kind, unit, scale in (("echo", "round trip", 1e6), ("rtt", "round trip", 1e6), ("rw", "transaction", 1e3)):
    if not any(r[0] == kind for r in rows):
        continue
    u = "us" if scale == 1e6 else "ms"
    what = {"echo": "TCP echo of 64 bytes, 1 connection", "rtt": "SELECT 1, 1 connection", "rw": "oltp_read_write, 4 threads"}[kind]
    print(f"\nper {unit} ({what})")
    print(f"{'path':<7}{'rate/s':>10}{'avg ms':>9}{'p99 ms':>9}{'client ' + u:>11}{'QEMU ' + u:>10}{'passt ' + u:>10}{'host ' + u:>10}{'net idle':>10}")
    for path in ("user", "passt", "guest"):
        v = [list(map(float, r[2:])) for r in rows if r[0] == kind and r[1] == path]
        if not v:
            continue
        med = lambda i: statistics.median(x[i] for x in v)
        per = lambda i: statistics.median(x[i] / x[3] * scale for x in v)
        tot = statistics.median((x[4] + x[5] + x[6]) / x[3] * scale for x in v)
        net = statistics.median((x[4] + x[5] + x[6] - idle_q * secs) / x[3] * scale for x in v)
        print(f"{path:<7}{med(0):>10.1f}{med(1):>9.3f}{med(2):>9.3f}{per(4):>11.1f}{per(5):>10.1f}{per(6):>10.1f}{tot:>10.1f}{net:>10.1f}")
PY
