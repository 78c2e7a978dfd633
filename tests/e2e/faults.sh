#!/usr/bin/env bash
# End-to-end fault matrix: `drivebench run` with real VMs (profile tiny,
# oltp on the host) while the test breaks something mid-measure, then the
# expected exit status, the faults in summary.json, and no leftovers: no
# domain, pool or volume of the run, nothing of it in `drivebench list`,
# no oltp process of it, no file on its drives.
#
# Usage: tests/e2e/faults.sh SCENARIO
#   destroy   2 VMs on one drive; one is `virsh destroy`ed            -> 3
#             (vm1 fault stopped, its measured intervals up to the
#             fault kept, out of the figures, in the report; vm2
#             measured)                                      [make test]
#   panic     2 VMs on one drive; d1-vm1's kernel panics (sysrq "c"
#             through guest-exec): the profile's pvpanic device tells
#             libvirt at once                                       -> 3
#             (vm1 fault crashed, "the guest kernel panicked", its
#             intervals up to the fault kept; vm2 measured)  [make test]
#   boot-panic 1 VM whose kernel panics while booting (its profile's
#             cmdline adds init=/bin/false: it panics before anything
#             loads the pvpanic driver): panic=1 reboots it, on_reboot
#             destroys it, and drivebench says so at once with the
#             console's panic, not after boot_timeout               -> 1
#                                                            [make test]
#   vm        3 VMs, drives d1 (2) and d2 (1): d1-vm1 destroyed, the
#             host-side oltp of d1-vm2 killed with SIGKILL        -> 3
#             (stopped, client; d2-vm1 measured)
#   db-disk   3 VMs, d1 (2) and d2 (1) on a small tmpfs: MariaDB stopped
#             in d1-vm1 through guest-exec (oltp gives up after
#             --reconnect-timeout: fault database); d2 filled, then
#             d2-vm1 writes to its boot disk so its qcow2 overlay grows,
#             QEMU pauses it on ENOSPC (fault disk-full, "drive d2 is
#             full"); d1-vm2 measured                               -> 3
#   sigkill   1 VM; drivebench SIGKILLed mid-measure: its oltp is gone
#             within 5 s (PR_SET_PDEATHSIG), `drivebench list` shows the
#             run, `drivebench teardown RUN-ID` removes everything
#   libvirtd  2 VMs; libvirtd restarted mid-measure                 -> 0
#             and "reconnected"; only when this test started libvirtd
#             itself (libvirt allows one system daemon: another user's
#             would be restarted under them), else it skips (exit 77, which tests/run-all.sh counts as skipped)
# Environment: E2E_RUN_TIMEOUT (default 1200), DRIVEBENCH_VIRT_TYPE.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

scenario=${1:?usage: faults.sh destroy|panic|boot-panic|vm|db-disk|sigkill|libvirtd}
E2E_NAME=faults-$scenario
run_timeout=${E2E_RUN_TIMEOUT:-1200}
drivebench=$E2E_TOP/bin/drivebench
run_id=e2e-fault-$$-$RANDOM
prefix=drivebench-$run_id--
tmpfs_dir= run_pid= filler=

. "$E2E_TOP/tests/lib/leftovers.sh"
leftovers() {
  [ -n "$E2E_WORK" ] || return 0
  leftovers_of -u "$E2E_URI" -n "$prefix" -d "$E2E_WORK/d1" -d "$E2E_WORK/d2" -k '/filler$' \
    -o "$E2E_WORK/results/$run_id" -l "$drivebench" "$E2E_URI" "$E2E_WORK/results" "$run_id"
}

e2e_test_cleanup() {
  [ -n "$run_pid" ] && kill -0 "$run_pid" 2>/dev/null && kill "$run_pid" && wait "$run_pid" 2>/dev/null
  [ -n "$E2E_WORK" ] || return 0
  [ -n "$(leftovers)" ] && "$drivebench" teardown "$run_id" --uri="$E2E_URI" \
    --results="$E2E_WORK/results" >/dev/null 2>&1
  [ -n "$tmpfs_dir" ] && { rm -f "$tmpfs_dir/filler"; umount "$tmpfs_dir" 2>/dev/null; }
  if [ "$1" != 0 ]; then
    [ -s "$E2E_WORK/run.log" ] && { echo "----- drivebench output (last 60 lines) -----" >&2; tail -60 "$E2E_WORK/run.log" >&2; }
    mkdir -p "$E2E_TOP/tests/artifacts"
    [ -d "$E2E_WORK/results/$run_id" ] && cp -r "$E2E_WORK/results/$run_id" "$E2E_TOP/tests/artifacts/" \
      && echo "$E2E_NAME: run folder kept in tests/artifacts/$run_id" >&2
  fi
  return 0
}
e2e_begin virsh jq timeout pgrep

[ -x "$drivebench" ] && [ -x "$E2E_TOP/bin/oltp" ] || e2e_fail "bin/ missing: run make first"
# `make e2e` builds the image first; the guest's own oltp is not used here
# (host client), so an existing image is used as it is
[ -s "$E2E_TOP/images/build/base.qcow2" ] || "$E2E_TOP/images/build.sh"
ours=1
virsh -c "$E2E_URI" version >/dev/null 2>&1 && ours=0
e2e_libvirt_up >/dev/null || e2e_fail "libvirt did not start"
if [ "$scenario" = libvirtd ] && [ "$ours" = 0 ]; then
  e2e_say "SKIP: libvirtd was already running (someone else's); restarting it would disturb their VMs. Run this test where nothing else uses libvirt."
  exit 77
fi
type=$(e2e_virt_type)
E2E_WORK=$(mktemp -d /var/tmp/drivebench-e2e-fault.XXXXXX)
work=$E2E_WORK
chmod 0755 "$work"
mkdir -m 0755 "$work/d1" "$work/d2"

d1_vms=2 d2= measure=40s db_size=
case $scenario in
  destroy|panic) ;;
  boot-panic) d1_vms=1 ;;
  vm) d2=1 ;;
  db-disk) d2=1 db_size=512M ;;
  sigkill) d1_vms=1 measure=5m ;;
  libvirtd) ;;
  *) e2e_fail "unknown scenario $scenario" ;;
esac
if [ "$scenario" = db-disk ]; then
  # room for d2's volumes (512 MiB database disk, the boot overlay) and
  # drivebench's free-space headroom (1 GiB), no more
  tmpfs_dir=$work/d2
  mount -t tmpfs -o size=1700m,mode=0755 tmpfs "$tmpfs_dir" || e2e_fail "cannot mount a tmpfs"
fi
if [ "$scenario" = boot-panic ]; then
  # the tiny profile, its kernel told to run /bin/false as init
  mkdir "$work/vmconfigs"
  sed 's|<cmdline>\(.*\)</cmdline>|<cmdline>\1 init=/bin/false</cmdline>|' \
    "$E2E_TOP/vmconfigs/tiny.xml" >"$work/vmconfigs/tiny.xml"
  grep -q 'panic=1 init=/bin/false</cmdline>' "$work/vmconfigs/tiny.xml" \
    || e2e_fail "the tiny profile's cmdline has no panic=1"
fi
{
  echo "[run]"
  echo "name = e2e faults"
  echo "uri = $E2E_URI"
  echo "profile = tiny"
  echo "client = host"
  echo "image_dir = $E2E_TOP/images/build"
  echo "results_dir = $work/results"
  echo "domain_type = $type"
  echo "boot_timeout = 15m"
  # ports of its own: other runs on this host pick from 33060 up at the
  # same time (a port taken between the check and QEMU's start fails it)
  echo "port_base = $(( 41000 + RANDOM % 8000 ))"
  [ -n "$db_size" ] && echo "db_size = $db_size"
  [ "$scenario" = boot-panic ] && echo "vmconfigs_dir = $work/vmconfigs"
  echo "[workload]"
  echo "name = oltp_read_write"
  echo "tables = 1"
  echo "table_size = 1000"
  echo "threads = 2"
  echo "measure = $measure"
  echo "[drive d1]"
  echo "path = $work/d1"
  echo "vms = $d1_vms"
  if [ -n "$d2" ]; then
    echo "[drive d2]"
    echo "path = $work/d2"
    echo "vms = $d2"
  fi
} >"$work/plan.ini"

# wait_log PATTERN SECONDS: until the run's output has PATTERN
wait_log() {
  local i
  for i in $(seq "$2"); do
    grep -qE "$1" "$work/run.log" 2>/dev/null && return 0
    kill -0 "$run_pid" 2>/dev/null || return 1
    sleep 1
  done
  return 1
}
dom() { echo "${prefix}$1"; }
oltp_pid_of() {   # the host-side oltp of VM $1, from the run's clients record
  awk -v vm="$(dom "$1")" '$3 == vm { print $1 }' "$work/results/$run_id/clients"
}
agent_exec() {    # agent_exec VM PATH ARG...: run a command in the guest
  local vm=$1 path=$2; shift 2
  local args; args=$(printf '%s\n' "$@" | jq -R . | jq -sc .)
  virsh -c "$E2E_URI" qemu-agent-command "$(dom "$vm")" \
    "{\"execute\":\"guest-exec\",\"arguments\":{\"path\":\"$path\",\"arg\":$args}}" >/dev/null
}

e2e_say "drivebench run ($type, scenario $scenario, run id $run_id)"
t0=$(date +%s)
timeout -k 30 "$run_timeout" "$drivebench" run "$work/plan.ini" --run-id="$run_id" >"$work/run.log" 2>&1 &
run_pid=$!
if [ "$scenario" = boot-panic ]; then
  rc=0; wait "$run_pid" || rc=$?; run_pid=
  e2e_say "drivebench exited $rc after $(( $(date +%s) - t0 ))s"
  [ "$rc" = 1 ] || e2e_fail "exit $rc, want 1"
  # the boot wait saw the domain gone (never "did not answer within": the
  # boot timeout), and showed the console with the panic
  grep -qE "$(dom d1-vm1) stopped while booting: the domain is (shut off|shutting down)\$" "$work/run.log" \
    || e2e_fail "no 'stopped while booting' message: $(tail -5 "$work/run.log")"
  grep -q "did not answer" "$work/run.log" && e2e_fail "it waited for the boot timeout"
  grep -q "Kernel panic - not syncing" "$work/run.log" || e2e_fail "the console's panic is not shown"
  left=$(leftovers)
  [ -z "$left" ] || e2e_fail "left behind by the run: $left"
  e2e_say "PASS in $(( $(date +%s) - t0 ))s: $(grep -F 'stopped while booting' "$work/run.log" | head -1)"
  exit 0
fi
wait_log '^repetition 1: measure on' 1100 || e2e_fail "the measured phase never started"
e2e_say "measure started after $(( $(date +%s) - t0 ))s"
t_seen=$(date +%s%N)
sleep 8
case $scenario in
  destroy)
    virsh -c "$E2E_URI" destroy "$(dom d1-vm1)" >/dev/null || e2e_fail "virsh destroy failed" ;;
  panic)
    # the agent's reply never comes: the kernel dies inside the command
    agent_exec d1-vm1 /bin/sh -c 'echo c >/proc/sysrq-trigger' || true ;;
  vm)
    virsh -c "$E2E_URI" destroy "$(dom d1-vm1)" >/dev/null || e2e_fail "virsh destroy failed"
    p=$(oltp_pid_of d1-vm2); [ -n "$p" ] || e2e_fail "no oltp of d1-vm2 in the clients record"
    kill -9 "$p" ;;
  db-disk)
    agent_exec d1-vm1 /bin/systemctl stop mariadb || e2e_fail "guest-exec systemctl stop failed"
    free=$(df -B1 --output=avail "$tmpfs_dir" | tail -1)
    fallocate -l $(( free - 4096 )) "$tmpfs_dir/filler" || e2e_fail "cannot fill the tmpfs"
    agent_exec d2-vm1 /bin/dd if=/dev/urandom of=/var/tmp/grow bs=1M count=400 conv=fsync \
      || e2e_fail "guest-exec dd failed" ;;
  sigkill)
    pids=$(awk '{ print $1 }' "$work/results/$run_id/clients")
    [ -n "$pids" ] || e2e_fail "no clients record"
    db_pid=$(pgrep -P "$run_pid" -x drivebench) || e2e_fail "no drivebench process under timeout"
    kill -9 "$db_pid"; wait "$run_pid" 2>/dev/null || true; run_pid=
    sleep 5
    for p in $pids; do kill -0 "$p" 2>/dev/null && e2e_fail "oltp $p outlived drivebench by 5 s"; done
    e2e_say "oltp ended with drivebench (SIGKILL)"
    "$drivebench" list --uri="$E2E_URI" --results="$work/results" >"$work/list" 2>&1
    grep -qE "^$run_id +$E2E_URI +1 +[1-9][0-9]* +1 +0\$" "$work/list" \
      || e2e_fail "drivebench list does not show the run's 1 domain, volumes and pool: $(cat "$work/list")"
    "$drivebench" teardown "$run_id" --uri="$E2E_URI" --results="$work/results" >"$work/teardown" 2>&1 \
      || e2e_fail "teardown failed: $(cat "$work/teardown")"
    grep -qE "^teardown $run_id: removed 1 domain\(s\), [1-9][0-9]* volume\(s\), 1 pool\(s\)\$" "$work/teardown" \
      || e2e_fail "teardown output: $(cat "$work/teardown")"
    left=$(leftovers); [ -z "$left" ] || e2e_fail "left behind: $left"
    e2e_say "PASS in $(( $(date +%s) - t0 ))s: $(cat "$work/teardown")"
    exit 0 ;;
  libvirtd)
    state=${DRIVEBENCH_LIBVIRT_STATE:-/run/drivebench/libvirt}
    lpid=$(awk '$1 == "libvirtd" { print $2 }' "$state/pids" 2>/dev/null)
    [ -n "$lpid" ] || e2e_fail "no libvirtd PID recorded in $state/pids"
    kill "$lpid"
    for _ in $(seq 30); do kill -0 "$lpid" 2>/dev/null || break; sleep 1; done
    sed -i '/^libvirtd /d' "$state/pids"
    "$E2E_TOP/images/libvirt-up.sh" >/dev/null || e2e_fail "libvirtd did not start again" ;;
esac
# ms from seeing the measured phase to the fault's cause being done
fault_ms=$(( ($(date +%s%N) - t_seen) / 1000000 ))
rc=0; wait "$run_pid" || rc=$?; run_pid=
e2e_say "drivebench exited $rc after $(( $(date +%s) - t0 ))s"
rdir=$work/results/$run_id
fault() { jq -r --arg n "$(dom "$1")" '.vms[] | select(.name == $n) | "\(.status) \(.fault // "-") \(.reason // "-")"' "$rdir/summary.json"; }
want_fault() {   # want_fault VM FAULT [REASON-REGEX]
  local got; got=$(fault "$1")
  [[ "$got" == "failed $2 "* ]] || e2e_fail "$1: want fault $2, got: $got"
  [ -z "${3:-}" ] || [[ "$got" =~ $3 ]] || e2e_fail "$1: reason does not match $3: $got"
  e2e_say "$1: $got"
}
want_ok() {
  local got; got=$(fault "$1")
  [[ "$got" == "ok "* ]] || e2e_fail "$1: want ok, got: $got"
  jq -e --arg n "$(dom "$1")" '.vms[] | select(.name == $n) | .transactions > 0' "$rdir/summary.json" >/dev/null \
    || e2e_fail "$1: measured no transactions"
  e2e_say "$1: ok, $(jq -r --arg n "$(dom "$1")" '.vms[] | select(.name == $n) | "\(.tps) TPS"' "$rdir/summary.json")"
}
# want_kept VM: the failed VM's oltp, stopped by SIGTERM when its VM
# failed 8 s into the measured phase, wrote what it measured up to then;
# the run kept it (vm/), listed it in the summary with the fault's time,
# left it out of its drive's figures and showed it in the report's
# failure section with the fault marked
want_kept() {
  local n f got k; n=$(dom "$1"); f=$rdir/vm/$n.r1.json
  [ -s "$f" ] || e2e_fail "$1: no result file kept ($f)"
  got=$(jq -r '"\(.ended) \(.ended_reason) \([.phases[].name])"' "$f")
  [ "$got" = 'signal SIGTERM ["measure"]' ] || e2e_fail "$1: result ended: $got"
  # (most of the first 6 intervals committed something: a TCG guest on a
  # loaded host may stall for a second)
  jq -e '.phases[0] | (.intervals | length) >= 7 and (.intervals | length) < 40
         and ([.intervals[:6][] | select(.tps > 0)] | length) >= 4
         and (.duration_s - .intervals[-1].t | fabs) < 1e-6' \
    "$f" >/dev/null || e2e_fail "$1: its intervals up to the fault: $(jq -c '[.phases[0].intervals[] | [.t, .tps]]' "$f")"
  # the summary bins the intervals by time: a last sliver under 1 ms
  # (the fault came just after a boundary) makes no bin of its own. The
  # fault's time: at least the 8 s waited (less the clocks' whole seconds),
  # at most the time until its cause was done (plus the log's 1-s poll, the
  # seconds and the monitor's reaction); the kept result, ended by the
  # SIGTERM that followed the fault, measured no less (less the seconds)
  # and at most 4 s more
  k=$(jq '.phases[0] | (.intervals[-1].t - 0.001) / .interval_s | ceil' "$f")
  jq -e --arg n "$n" --argjson k "$k" \
    --argjson kept "$(jq '.phases[0].duration_s' "$f")" --argjson done "$(( fault_ms / 1000 + 5 ))" \
    '.vms[] | select(.name == $n) | .result_ended == "signal" and (.tps_series | length) == $k
     and .failed_at_s >= 5 and .failed_at_s <= $done
     and .failed_at_s - $kept <= 2 and $kept - .failed_at_s <= 4' \
    "$rdir/summary.json" >/dev/null \
    || e2e_fail "$1: summary entry (cause done after $fault_ms ms, kept $(jq '.phases[0].duration_s' "$f") s): $(jq -c --arg n "$n" '.vms[] | select(.name == $n) | del(.console_tail)' "$rdir/summary.json")"
  jq -e --arg n "$(dom d1-vm2)" '.drives[0].tps == (.vms[] | select(.name == $n) | .tps)
         and .drives[0].vms == 1 and .drives[0].failed_vms == 1' "$rdir/summary.json" >/dev/null \
    || e2e_fail "$1: its drive's figures are not d1-vm2's alone"
  # the report counts the summary's bins (k), as its chart draws them: a
  # file of 11 intervals whose last is a 0.3-ms sliver shows 10
  grep -q "<td>$k intervals, up to .* (its oltp result ended: signal)</td>" \
    "$rdir/report.html" || e2e_fail "$1: the report's failure section does not show the $k intervals it measured: $(grep -o '<td>[0-9]* intervals, up to [^<]*' "$rdir/report.html")"
  grep -qE '<g class="mark" data-x="[0-9.]+" data-label="fault at [0-9.]+ s">' "$rdir/report.html" \
    || e2e_fail "$1: the report does not mark the fault"
  e2e_say "$1: kept $(jq '.phases[0].intervals | length' "$f") intervals ($(jq '.phases[0].duration_s' "$f") s) up to the fault at $(jq --arg n "$n" '.vms[] | select(.name == $n) | .failed_at_s' "$rdir/summary.json") s (its cause done $fault_ms ms after the measure was seen)"
}
case $scenario in
  destroy)
    [ "$rc" = 3 ] || e2e_fail "exit $rc, want 3"
    want_fault d1-vm1 stopped 'destroyed'; want_ok d1-vm2
    want_kept d1-vm1 ;;
  panic)
    [ "$rc" = 3 ] || e2e_fail "exit $rc, want 3"
    want_fault d1-vm1 crashed 'the guest kernel panicked'; want_ok d1-vm2
    want_kept d1-vm1 ;;
  vm)
    [ "$rc" = 3 ] || e2e_fail "exit $rc, want 3"
    want_fault d1-vm1 stopped 'destroyed'; want_fault d1-vm2 client 'signal 9'; want_ok d2-vm1 ;;
  db-disk)
    [ "$rc" = 3 ] || e2e_fail "exit $rc, want 3"
    want_fault d1-vm1 database; want_fault d2-vm1 disk-full 'drive d2 is full'; want_ok d1-vm2 ;;
  libvirtd)
    [ "$rc" = 0 ] || e2e_fail "exit $rc, want 0"
    grep -q "reconnected to libvirt at $E2E_URI; 2 of 2 VM(s) still running" "$work/run.log" \
      || e2e_fail "the output does not say it reconnected"
    want_ok d1-vm1; want_ok d1-vm2 ;;
esac
# the healthy VMs' result files add up to the summary's totals (the
# failed VMs' files, kept, are in none)
e2e_check_totals "$rdir"
# no verdict from broken data (issue 21): every comparison of a drive that
# is incomplete says "not comparable"; with two drives there is one
if [ "$(jq '.drives | length' "$rdir/summary.json")" -gt 1 ]; then
  jq -e '[.drives[] | select(.status == "incomplete") | .name] as $inc
         | [.comparisons[] | select(.a as $a | .b as $b | $inc | any(. == $a or . == $b))] as $c
         | ($c | length) > 0 and ($c | all(.verdict == "not comparable" and (.reason | startswith("not comparable: drive "))))' \
    "$rdir/summary.json" >/dev/null \
    || e2e_fail "a comparison with an incomplete drive has a verdict: $(jq -c '[.comparisons[] | {a, b, method, verdict, reason}]' "$rdir/summary.json")"
  e2e_say "comparisons with the incomplete drive: $(jq -r '[.comparisons[] | .verdict] | unique | join(", ")' "$rdir/summary.json")"
fi
left=$(leftovers)
[ -z "$left" ] || e2e_fail "left behind by the run: $left"
e2e_say "PASS in $(( $(date +%s) - t0 ))s"
