#!/usr/bin/env bash
# tests/lib/leftovers.sh, the end-to-end tests' leftover finder, on
# libvirt's test driver and a folder of its own: exactly the run's
# objects, files not kept, and oltp processes writing into the run folder.
# Run from the repository root.
set -u
tmp=$(mktemp -d /tmp/leftovers-XXXXXX)
sleeper=
trap '[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null; rm -rf "$tmp"' EXIT
. tests/lib/check.sh
. tests/lib/leftovers.sh

cat > "$tmp/node.xml" <<'XML'
<node>
  <domain type='test'><name>drivebench-r1-20261206-120000--d1-vm1</name>
    <memory unit='MiB'>64</memory><vcpu>1</vcpu><os><type>hvm</type></os></domain>
  <domain type='test'><name>drivebench-r2-20261206-120000--d1-vm1</name>
    <memory unit='MiB'>64</memory><vcpu>1</vcpu><os><type>hvm</type></os></domain>
  <pool type='dir'><name>drivebench-r1-20261206-120000--d1</name>
    <target><path>/nonexistent/pool</path></target></pool>
</node>
XML
uri="test://$tmp/node.xml"
mkdir -p "$tmp/d1/sub" "$tmp/d2" "$tmp/empty" "$tmp/results/r1"
touch "$tmp/d1/sub/vm1.qcow2" "$tmp/d2/filler"

check_eq "the run's domain and pool" \
  $'drivebench-r1-20261206-120000--d1-vm1\ndrivebench-r1-20261206-120000--d1' \
  "$(leftovers_of -u "$uri" -u "" -n "drivebench-r1-20261206-120000--")"
check_eq "files left in the drives' folders, the kept one apart" \
  $'drivebench-r2-20261206-120000--d1-vm1\n'"$tmp/d1/sub"$'\n'"$tmp/d1/sub/vm1.qcow2" \
  "$(leftovers_of -u "$uri" -n "drivebench-r2-" -d "$tmp/d1" -d "$tmp/d2" -d "$tmp/empty" -k '/filler$')"
check_eq "a clean run: nothing" "" "$(leftovers_of -u "$uri" -n "drivebench-r3-" -d "$tmp/empty" -o "$tmp/results/r3")"
# an oltp process still writing into the run folder: a stand-in whose
# command line is what pgrep reads; it says "ready" once it is that
# process, then waits on a FIFO nobody writes (killed at the end)
mkfifo "$tmp/ready" "$tmp/never"
bash -c 'exec -a "oltp --json=$0/results/r1/vm1.json run" bash -c "echo ready > \"\$0\"; read -r _ < \"\$1\"" "$1" "$2"' \
  "$tmp" "$tmp/ready" "$tmp/never" &
sleeper=$!
read -r _ < "$tmp/ready"
check_eq "an oltp process of the run" "oltp process $sleeper" \
  "$(leftovers_of -u "$uri" -n "drivebench-r3-" -o "$tmp/results/r1")"
check_eq "drivebench list's line of the run" \
  "drivebench list: r1-20261206-120000                       $uri       1       0     1       0" \
  "$(leftovers_of -n "x" -l "${DRIVEBENCH:-bin/drivebench}" "$uri" "$tmp/results" r1-20261206-120000)"
check_summary
