#!/usr/bin/env bash
# End-to-end: the guest network's two host -> guest paths on one real tiny
# VM (issue 33, item 4), through bench/guest_net.sh at its shortest (1
# round of 2 s): QEMU's user-mode network (restrict=on, loopback hostfwd:
# what `client = host` uses) and passt (Debian's package, in a network
# namespace of its own, attached through QEMU's -netdev stream). Checks:
#   - 64-byte TCP echoes round-trip through both forwards and over the
#     guest's loopback (bench/echo_rtt.c: each echo compared byte for byte);
#   - isolation: every probe from the guest out through passt and through
#     the user-mode NIC fails, and 0 packets to them reach the host's
#     interfaces;
#   - MariaDB through passt: either it answers, or it fails as Debian 12's
#     passt (2023-03-09) does, on the handshake (README, "The guest
#     network"); the test names which;
#   - the medians table has a row per path: echo through user, passt and
#     guest, SELECT 1 through user and guest, each with round trips > 0;
#   - afterwards passt's process (by its PID) and the namespace are gone.
# About 2-4 minutes under TCG. Needs root, passt, tcpdump.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=
e2e_test_cleanup() {
  [ "$1" = 0 ] || [ -z "$out" ] || [ ! -s "$out" ] || sed 's/^/  | /' "$out" | tail -60 >&2
  [ -z "$out" ] || rm -f "$out"
}
e2e_begin virsh qemu-img passt tcpdump ip jq
"$E2E_TOP/images/build.sh"
e2e_libvirt_up || e2e_fail "libvirt did not start"
out=$(mktemp /tmp/drivebench-e2e-guest-net.XXXXXX)

rc=0
DRIVEBENCH_VIRT_TYPE=$(e2e_virt_type) "$E2E_TOP/bench/guest_net.sh" 1 2 >"$out" 2>&1 || rc=$?
[ "$rc" = 0 ] || e2e_fail "bench/guest_net.sh exited $rc"

want() {  # a line that must be in the output, as a fixed string
  grep -qF -- "$1" "$out" || e2e_fail "no line '$1' in bench/guest_net.sh's output"
}
want "echo through all three paths: ok"
want "packets seen on the host's interfaces to 198.51.100.1 or 10.0.3.0/24: 0"
[ "$(grep -c 'refused or timed out (good)' "$out")" = 5 ] \
  || e2e_fail "want 5 isolation probes refused, got $(grep -c 'refused or timed out (good)' "$out")"
if grep -qF "MariaDB through passt: ok" "$out"; then
  db_passt=ok
else
  want "MariaDB through passt: fails (oltp: ping: mysql: 127.0.0.1:"
  want "handshake: reading initial communication packet"
  db_passt="fails on the handshake (Debian 12's passt)"
fi

# the medians: "per round trip (WHAT)" then a header, then one row per path
rows() {  # KIND-TITLE -> "path round_trips_per_s" lines of that table
  awk -v t="$1" '$0 ~ "^per round trip \\(" t { on = 1; getline; next }
                 on && NF == 0 { on = 0 } on { print $1, $2 }' "$out"
}
echo_rows=$(rows "TCP echo")
sel_rows=$(rows "SELECT 1")
[ "$(awk '{print $1}' <<<"$echo_rows" | tr '\n' ' ')" = "user passt guest " ] \
  || e2e_fail "echo table paths: '$(tr '\n' ' ' <<<"$echo_rows")', want user passt guest"
want_sel="user guest "
[ "$db_passt" != ok ] || want_sel="user passt guest "
[ "$(awk '{print $1}' <<<"$sel_rows" | tr '\n' ' ')" = "$want_sel" ] \
  || e2e_fail "SELECT 1 table paths: '$(tr '\n' ' ' <<<"$sel_rows")', want $want_sel"
awk '$2 + 0 <= 0 { bad = 1 } END { exit bad }' <<<"$echo_rows"$'\n'"$sel_rows" \
  || e2e_fail "a path with no round trips: $(tr '\n' ' ' <<<"$echo_rows $sel_rows")"

pid=$(sed -n 's/^passt: pid \([0-9]*\), .*/\1/p' "$out")
ns=$(sed -n 's/^passt: pid [0-9]*, namespace \(.*\)$/\1/p' "$out")
{ [ -n "$pid" ] && [ -n "$ns" ]; } || e2e_fail "no 'passt: pid N, namespace NS' line"
! kill -0 "$pid" 2>/dev/null || e2e_fail "passt (pid $pid) still runs after the bench"
! ip netns list | grep -qw "$ns" || e2e_fail "namespace $ns left behind"

e2e_say "PASS: echo via user $(awk '$1 == "user" {print $2}' <<<"$echo_rows")/s," \
  "passt $(awk '$1 == "passt" {print $2}' <<<"$echo_rows")/s, guest loopback" \
  "$(awk '$1 == "guest" {print $2}' <<<"$echo_rows")/s; MariaDB through passt: $db_passt;" \
  "passt $pid and $ns gone"
