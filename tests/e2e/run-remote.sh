#!/usr/bin/env bash
# End-to-end: a run across two libvirt connections, one of them a real
# remote transport (qemu+ssh) — the two-host setup of plans/README.md on
# one machine.
#
# Starts its own sshd on a free loopback port (throwaway host key and
# client key in the test's folder, stopped by its PID file), then runs a
# plan with drive `here` on qemu:///system and drive `there` behind
# qemu+ssh://root@127.0.0.1:PORT/system (same libvirtd, another transport
# and connection), client = guest, `there` with its own image folder
# (image_pool_path), so the guest image is uploaded through libvirt.
# Checks:
#   - the upload happened (base.qcow2, vmlinuz, initrd.img with progress
#     lines), the files and their .sha256 are in the remote image folder,
#     and their checksums are the local files';
#   - summary.json has both drives with transactions, each VM names its
#     host, and both hosts are described (cpus, memory, libvirt version);
#   - the run folder's hosts file lists both URIs;
#   - a second run on the same image folder skips the upload by checksum
#     (it is cut short by a 1 s boot timeout, which also makes it tear down
#     through both connections);
#   - afterwards no domain, pool or volume of either run remains on either
#     connection, the drive folders are empty, no image pool is left.
#
# With E2E_DROP=1 (tests/e2e/run-remote-drop.sh) the SSH session carrying
# the remote connection is killed once the measured phase starts (sshd
# itself stays up). Then: the run ends (with failures or failed, not hung),
# its output names the lost connection, drive `here` keeps its
# measurement in the summary, the run either reconnected to the remote
# libvirt before its teardown or retried the teardown by name on new
# connections (hosts.h), and nothing is left on either connection. The
# second run is skipped.
# Environment: E2E_RUN_TIMEOUT (default 900), DRIVEBENCH_VIRT_TYPE.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run_timeout=${E2E_RUN_TIMEOUT:-900}
drop=${E2E_DROP:-0}
[ "$drop" = 1 ] && E2E_NAME=run-remote-drop
drivebench=$E2E_TOP/bin/drivebench
run_id=e2e-remote-$$-$RANDOM
run_id2=$run_id-again
port=
remote=
known_hosts_had=0

. "$E2E_TOP/tests/lib/leftovers.sh"
leftovers() {
  [ -n "$E2E_WORK" ] || return 0
  leftovers_of -u "$E2E_URI" -u "$remote" -n "drivebench-($run_id|$run_id2)--|drivebench\.images-" \
    -d "$E2E_WORK/drive-here" -d "$E2E_WORK/drive-there"
}

e2e_test_cleanup() {
  [ -n "$E2E_WORK" ] || return 0
  if [ -n "$(leftovers)" ]; then
    for r in "$run_id" "$run_id2"; do
      [ -d "$E2E_WORK/results/$r" ] && "$drivebench" teardown "$r" --results="$E2E_WORK/results" >/dev/null 2>&1
    done
  fi
  # the image pool is transient; its folder is the test's
  virsh -c "$E2E_URI" pool-list --name 2>/dev/null | grep '^drivebench\.images-' \
    | while read -r p; do
        [ "$(virsh -c "$E2E_URI" pool-dumpxml "$p" | grep -c "$E2E_WORK")" = 0 ] \
          || virsh -c "$E2E_URI" pool-destroy "$p" >/dev/null 2>&1 || true
      done
  if [ -s "$E2E_WORK/ssh/sshd.pid" ]; then
    kill "$(cat "$E2E_WORK/ssh/sshd.pid")" 2>/dev/null || true
  fi
  [ -n "$port" ] && [ "$known_hosts_had" = 0 ] \
    && ssh-keygen -R "[127.0.0.1]:$port" >/dev/null 2>&1 || true
  [ "$1" != 0 ] || return 0
  for f in run.log run2.log ssh/sshd.log; do
    [ -s "$E2E_WORK/$f" ] || continue
    echo "----- $f (last 60 lines) -----" >&2
    tail -60 "$E2E_WORK/$f" >&2
  done
  mkdir -p "$E2E_TOP/tests/artifacts"
  [ -d "$E2E_WORK/results/$run_id" ] \
    && cp -r "$E2E_WORK/results/$run_id" "$E2E_TOP/tests/artifacts/" \
    && echo "$E2E_NAME: run folder kept in tests/artifacts/$run_id" >&2
}
e2e_begin virsh jq timeout sha256sum ssh ssh-keygen /usr/sbin/sshd

[ -x "$drivebench" ] || e2e_fail "$drivebench missing: run make first"
# an image that is there is used as it is (`make e2e` builds it first; a
# worktree sharing another's images/build must not rebuild it)
for f in base.qcow2 vmlinuz initrd.img; do
  [ -s "$E2E_TOP/images/build/$f" ] || { "$E2E_TOP/images/build.sh"; break; }
done
e2e_libvirt_up || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)

E2E_WORK=$(mktemp -d /var/tmp/drivebench-e2e-remote.XXXXXX)
work=$E2E_WORK
chmod 0755 "$work"
mkdir -m 0755 "$work/drive-here" "$work/drive-there" "$work/ssh"

# --- an sshd of our own on a free loopback port --------------------------
for _ in $(seq 50); do
  p=$((22200 + RANDOM % 2000))
  ss -Hltn "sport = :$p" | grep -q . || { port=$p; break; }
done
[ -n "$port" ] || e2e_fail "no free loopback port for sshd"
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/id"
cp "$work/ssh/id.pub" "$work/ssh/authorized_keys"
ssh-keygen -F "[127.0.0.1]:$port" >/dev/null 2>&1 && known_hosts_had=1
cat >"$work/ssh/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $work/ssh/host_key
AuthorizedKeysFile $work/ssh/authorized_keys
PidFile $work/ssh/sshd.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel VERBOSE
EOF
mkdir -p /run/sshd
/usr/sbin/sshd -f "$work/ssh/sshd_config" -E "$work/ssh/sshd.log" || e2e_fail "sshd did not start"
for _ in $(seq 600); do [ -s "$work/ssh/sshd.pid" ] && break; sleep 0.1; done
remote="qemu+ssh://root@127.0.0.1:$port/system?keyfile=$work/ssh/id&no_verify=1&no_tty=1"
virsh -c "$remote" uri >/dev/null 2>"$work/virsh.err" \
  || e2e_fail "libvirt through ssh does not answer: $(cat "$work/virsh.err")"
e2e_say "sshd on 127.0.0.1:$port (pid $(cat "$work/ssh/sshd.pid")), libvirt answers through it"

write_plan() {   # write_plan FILE BOOT_TIMEOUT
  cat >"$1" <<EOF
; written by tests/e2e/run-remote.sh
[run]
name = e2e-remote
uri = $E2E_URI
profile = tiny
client = guest
image_dir = $E2E_TOP/images/build
results_dir = $work/results
domain_type = $type
boot_timeout = $2
; client = guest still forwards a port per VM: keep clear of other runs
port_base = $port_base

[workload]
name = oltp_read_write
tables = 1
table_size = 1000
threads = 2
measure = 10s

[drive here]
path = $work/drive-here

[drive there]
uri = $remote
path = $work/drive-there
image_pool_path = $work/there-images
EOF
}
port_base=$((40000 + RANDOM % 20000))
write_plan "$work/plan.ini" 10m
"$drivebench" validate "$work/plan.ini" >/dev/null || e2e_fail "the plan does not validate"

e2e_say "drivebench run ($type, drive here on $E2E_URI, drive there through ssh, run id $run_id)"
t0=$(date +%s)
if [ "$drop" = 1 ]; then
  timeout -k 30 "$run_timeout" "$drivebench" run "$work/plan.ini" --run-id="$run_id" \
    >"$work/run.log" 2>&1 &
  runner=$!
  until grep -q 'measure on' "$work/run.log" 2>/dev/null; do
    kill -0 "$runner" 2>/dev/null || break
    sleep 1
  done
  kill -0 "$runner" 2>/dev/null || e2e_fail "the run ended before its measured phase"
  sleep 3
  # the sessions of our own sshd: drivebench's connection is the only
  # long-lived one
  sessions=$(pgrep -P "$(cat "$work/ssh/sshd.pid")" || true)
  [ -n "$sessions" ] || e2e_fail "no SSH session to kill"
  e2e_say "killing the SSH session(s) $sessions at $(( $(date +%s) - t0 ))s"
  kill $sessions
  st=0
  wait "$runner" || st=$?
  e2e_say "run ended with status $st after $(( $(date +%s) - t0 ))s"
  [ "$st" != 124 ] && [ "$st" != 137 ] || e2e_fail "the run hung after the connection dropped"
  grep -iE 'connection|closed|lost' "$work/run.log" | grep -v '^upload' | head -5 \
    | sed "s/^/$E2E_NAME: run said: /"
  grep -qiE 'qemu\+ssh.*(closed|lost)|(closed|lost).*qemu\+ssh|connection' "$work/run.log" \
    || e2e_fail "the run's output does not mention the lost connection"
  rdir=$work/results/$run_id
  if [ -s "$rdir/summary.json" ]; then
    e2e_say "summary: $(jq -c '{status, vms: [.vms[] | {drive, status, fault, tps}]}' "$rdir/summary.json")"
    jq -e '[.vms[] | select(.drive == "here" and .status == "ok" and .transactions > 0)] | length == 1' \
      "$rdir/summary.json" >/dev/null || e2e_fail "drive here lost its measurement"
  else
    e2e_say "no summary.json (the run failed as a whole)"
  fi
  # Either the run reconnected to the remote libvirt (issue 12: within 60 s,
  # the usual case, as the new session finds the VM still running) and tore
  # down through the new connection, or its teardown failed on the dead one
  # and was retried by name on every host.
  if grep -q '^drivebench: reconnected to libvirt at qemu+ssh://.*; 1 of 1 VM(s) still running$' "$work/run.log"; then
    e2e_say "reconnected before teardown: $(grep '^teardown: removed' "$work/run.log" | tr '\n' ' ')"
  elif grep -q '^teardown: retrying by name on every host of the run$' "$work/run.log"; then
    e2e_say "teardown retried: $(grep -A1 '^teardown: retrying by name' "$work/run.log" | tail -1)"
  else
    e2e_fail "the run neither reconnected to the remote libvirt nor retried its teardown after the connection dropped"
  fi
  left=$(leftovers)
  [ -z "$left" ] || e2e_fail "left behind after the dropped connection: $left"
  e2e_say "PASS (connection dropped mid-run; nothing left on $E2E_URI or through ssh)"
  exit 0
fi
timeout -k 30 "$run_timeout" "$drivebench" run "$work/plan.ini" --run-id="$run_id" \
  >"$work/run.log" 2>&1 || e2e_fail "drivebench run failed or took longer than ${run_timeout}s"
e2e_say "run finished in $(( $(date +%s) - t0 ))s"

rdir=$work/results/$run_id
for f in base.qcow2 vmlinuz initrd.img; do
  grep -qE "^upload $f -> qemu\+ssh://.*: [0-9.]+/[0-9.]+ MB, [0-9.]+ MB/s, done$" "$work/run.log" \
    || e2e_fail "no finished upload of $f in the run's output"
  [ -f "$work/there-images/$f" ] || e2e_fail "$f not in the remote image folder"
  want=$(sha256sum "$E2E_TOP/images/build/$f" | cut -d' ' -f1)
  got=$(sha256sum "$work/there-images/$f" | cut -d' ' -f1)
  [ "$want" = "$got" ] || e2e_fail "$f in the remote image folder differs from the local one"
  [ "$(cat "$work/there-images/$f.sha256")" = "$want" ] || e2e_fail "$f.sha256 is not $want"
done
e2e_say "uploaded: $(grep -E '^upload base.qcow2 .* done$' "$work/run.log" | sed 's/^upload //')"

[ -s "$rdir/summary.json" ] || e2e_fail "no summary.json"
jq -e '[.drives[] | select(.transactions > 0 and .vms == 1)] | length == 2' \
   "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: not both drives measured: $(jq -c '.drives' "$rdir/summary.json")"
e2e_check_totals "$rdir"
jq -e --arg r "$remote" --arg l "$E2E_URI" \
   '([.vms[] | select(.drive == "there" and .host == $r)] | length == 1)
    and ([.vms[] | select(.drive == "here" and .host == $l)] | length == 1)' \
   "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: VMs do not name their hosts: $(jq -c '[.vms[] | {drive, host}]' "$rdir/summary.json")"
jq -e '.environment.hypervisors | length == 2
       and all(.[]; .cpus > 0 and .memory_bytes > 0 and .libvirt_version != null and .cpu_model != null)' \
   "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: both hosts not described: $(jq -c '.environment' "$rdir/summary.json")"
[ "$(cat "$rdir/hosts")" = "$(printf '%s\n%s' "$E2E_URI" "$remote")" ] \
  || e2e_fail "hosts file: $(cat "$rdir/hosts")"
e2e_say "summary: $(jq -c '[.vms[] | {drive, host: (.host | sub("\\?.*"; "")), tps}]' "$rdir/summary.json")"

left=$(leftovers)
[ -z "$left" ] || e2e_fail "left behind by the run: $left"

# --- again: the images are there, nothing is uploaded ---------------------
write_plan "$work/plan2.ini" 1s
t0=$(date +%s)
if timeout -k 30 300 "$drivebench" run "$work/plan2.ini" --run-id="$run_id2" \
     >"$work/run2.log" 2>&1; then
  e2e_fail "the second run should have stopped at its 1 s boot timeout"
fi
for f in base.qcow2 vmlinuz initrd.img; do
  grep -q "^upload $f -> qemu+ssh://.*: identical copy there (sha256 [0-9a-f]*\.\.\.), skipped$" \
    "$work/run2.log" || e2e_fail "second run: $f not skipped by checksum"
done
! grep -q 'MB/s' "$work/run2.log" || e2e_fail "second run uploaded again"
grep -q "^teardown: removed" "$work/run2.log" || e2e_fail "second run did not tear down"
e2e_say "second run: every image skipped by checksum, torn down in $(( $(date +%s) - t0 ))s"

left=$(leftovers)
[ -z "$left" ] || e2e_fail "left behind: $left"
e2e_say "PASS (nothing left on $E2E_URI or through ssh)"
