#!/usr/bin/env bash
# End-to-end: `drivebench run` against real QEMU on one drive.
#
# Builds (or reuses) the guest image, starts libvirt if nothing runs it,
# writes a small plan (profile tiny, E2E_VMS VMs (default 1) on one drive =
# a fresh folder under /var/tmp, oltp_read_write on 1 table x 1,000 rows,
# 2 threads, 10 s), runs it with a run id of its own, then checks:
#   - one oltp result JSON per VM whose measure phase has transactions > 0
#     and latencies (avg and p99 > 0), and a summary.json whose run has
#     transactions > 0 and the same number of VMs;
#   - (issue 23) KiB written and flushes per transaction > 0 per VM and
#     drive, the guest's view of its database disk present, and the
#     device's latencies or the note why they were not traced;
#   - (issue 31) the guest CPU as rendered (maximum under TCG) in the
#     environment and the fingerprint, and every guest's CPU flags, read at
#     boot through the guest agent, hold sse4_2, popcnt and avx;
#   - the summary shows each VM's database size (data after load and at the
#     end > 0, as the guest's MariaDB reported it), the drive's mean, and
#     summary.csv's columns of it;
#   - the database disk file on the drive was used by the guest: sampled
#     every second while the run goes on (the run deletes it at the end), it
#     carries the guest's database file system (ext4, label dbdisk) and holds
#     more than 10 MiB;
#   - the plan's [run] db_settings reached the server: while the run goes
#     the server is asked over the forwarded port (mariadb client) for each
#     variable of E2E_DB_EXPECT, which must hold exactly that value (by
#     default db_settings = innodb_buffer_pool_size=256M, so MariaDB reports
#     innodb_buffer_pool_size=268435456, not the profile's 50 % of RAM);
#   - the plan's [settings] (innodb_flush_log_at_trx_commit = 2) reached
#     the server and every VM's read-back is in summary.json (issue 44):
#     its version, the four InnoDB settings with flush at commit 2 (wanted
#     2), the buffer pool 268435456 with the default db_settings, and the
#     fingerprint's server_settings;
#   - afterwards no domain, storage pool or volume of the run remains and
#     the drive folder holds no file of the run.
# Bounded: the whole run is killed after E2E_RUN_TIMEOUT seconds (default
# 900: boot under TCG, prepare, 10 s measure, teardown). On failure prints
# the VMs' serial consoles and the run's output. Always tears the run down
# (drivebench teardown), deletes its files and stops the libvirt daemons it
# started, also on Ctrl-C.
#
# With E2E_SEED=1 (tests/e2e/run-seed.sh) the profile is tiny-seed: the
# plan's database is built first by images/seed.sh, and the run must restore
# it onto the drive instead of preparing it.
#
# Environment: E2E_VMS (VMs on the drive; 2 covers multi-VM aggregation),
# E2E_PROFILE (a profile name or template path instead of tiny/tiny-seed),
# E2E_RUN_TIMEOUT, DRIVEBENCH_VIRT_TYPE (kvm or qemu; default from
# images/virt-type.sh), E2E_CONTROLLER ([run] controller, e.g. lsisas1068;
# default the profile's), E2E_DB_SETTINGS ([run] db_settings; empty: none)
# and E2E_DB_EXPECT ("variable=value ..." the server must report; empty:
# not asked).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

vms=${E2E_VMS:-1}
seeded=${E2E_SEED:-0}
run_timeout=${E2E_RUN_TIMEOUT:-900}
db_settings=${E2E_DB_SETTINGS-innodb_buffer_pool_size=256M}
db_expect=${E2E_DB_EXPECT-innodb_buffer_pool_size=268435456}
controller=${E2E_CONTROLLER:-}
drivebench=$E2E_TOP/bin/drivebench
run_id=e2e-run-$$-$RANDOM
E2E_NAME=run-${vms}vm
[ "$seeded" = 1 ] && E2E_NAME=run-seed
sampler=

# Names of the run's libvirt objects (domains, pools) and of files left on
# the drive.
. "$E2E_TOP/tests/lib/leftovers.sh"
leftovers() {
  [ -n "$E2E_WORK" ] || return 0
  leftovers_of -u "$E2E_URI" -n "drivebench-$run_id--" -d "$E2E_WORK/drive"
}

e2e_test_cleanup() {
  if [ -n "$sampler" ]; then
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
  fi
  [ -n "$E2E_WORK" ] || return 0
  if [ -n "$(leftovers)" ]; then
    "$drivebench" teardown "$run_id" --uri="$E2E_URI" >/dev/null 2>&1 || true
  fi
  [ "$1" != 0 ] || return 0
  for c in "$E2E_WORK"/results/"$run_id"/console/*.log; do
    [ -s "$c" ] || continue
    echo "----- serial console $(basename "$c") (last 80 lines) -----" >&2
    tail -80 "$c" >&2
  done
  if [ -s "$E2E_WORK/run.log" ]; then
    echo "----- drivebench run output (last 60 lines) -----" >&2
    tail -60 "$E2E_WORK/run.log" >&2
  fi
  mkdir -p "$E2E_TOP/tests/artifacts"
  [ -d "$E2E_WORK/results/$run_id" ] \
    && cp -r "$E2E_WORK/results/$run_id" "$E2E_TOP/tests/artifacts/" \
    && echo "$E2E_NAME: run folder kept in tests/artifacts/$run_id" >&2
}
e2e_begin virsh jq timeout blkid
[ -z "$db_expect" ] || command -v mariadb >/dev/null \
  || e2e_fail "E2E_DB_EXPECT needs the mariadb client (package mariadb-client)"

[ -x "$drivebench" ] || e2e_fail "$drivebench missing: run make first"
[ -x "$E2E_TOP/bin/oltp" ] || e2e_fail "$E2E_TOP/bin/oltp missing: run make first"

"$E2E_TOP/images/build.sh"
e2e_libvirt_up || e2e_fail "libvirt did not start"
type=$(e2e_virt_type)

e2e_work run
work=$E2E_WORK

profile=tiny
[ "$seeded" = 1 ] && profile=tiny-seed
profile=${E2E_PROFILE:-$profile}
case "$profile" in
  */*) ;;
  *) [ -f "$E2E_TOP/vmconfigs/$profile.xml" ] \
       || e2e_fail "vmconfigs/$profile.xml missing (tiny-seed: the tiny profile plus a read-only seed disk, serial seeddisk)" ;;
esac
cat >"$work/plan.ini" <<EOF
; written by tests/e2e/run-1vm.sh
[run]
name = e2e
uri = $E2E_URI
profile = $profile
vms_per_drive = $vms
client = host
image_dir = $E2E_TOP/images/build
results_dir = $work/results
domain_type = $type
boot_timeout = 10m
${db_settings:+db_settings = $db_settings}
${controller:+controller = $controller}

[workload]
name = oltp_read_write
tables = 1
table_size = 1000
threads = 2
measure = 10s

[drive e2e]
path = $work/drive

[settings]
innodb_flush_log_at_trx_commit = 2
EOF

# The run deletes its database volumes at the end, so they are looked at
# every second while it runs: their allocation, and whether the guest has
# put its database file system (ext4, label dbdisk) on them. (The volumes
# may be fully allocated from the start, so growth alone proves little.)
(
  set +e +o pipefail
  while :; do
    for f in "$work"/drive/*-db.img; do
      [ -f "$f" ] || continue
      echo "$(du -k "$f" | cut -f1) $(blkid -p -o value -s LABEL "$f" 2>/dev/null)" >>"$work/db-samples"
    done
    # the server's variables, asked once it answers on the forwarded port
    if [ -n "$db_expect" ] && [ ! -s "$work/db-vars" ]; then
      dom=$(virsh -c "$E2E_URI" list --name 2>/dev/null | grep -F -m1 "drivebench-$run_id--")
      port=$([ -n "$dom" ] && virsh -c "$E2E_URI" dumpxml "$dom" 2>/dev/null \
               | grep -o 'hostfwd=tcp:127.0.0.1:[0-9]*' | head -1 | cut -d: -f3)
      if [ -n "$port" ]; then
        for kv in $db_expect; do
          v=$(MYSQL_PWD=drivebench mariadb -h 127.0.0.1 -P "$port" -u drivebench \
                --connect-timeout=2 -N -B -e "SELECT @@${kv%%=*}" 2>/dev/null) || { v=; break; }
          echo "${kv%%=*}=$v"
        done >"$work/db-vars.new"
        [ -n "$v" ] && mv "$work/db-vars.new" "$work/db-vars"
      fi
    fi
    sleep 1
  done
) &
sampler=$!

if [ "$seeded" = 1 ]; then
  "$E2E_TOP/images/seed.sh" "$work/plan.ini" || e2e_fail "images/seed.sh failed"
fi
e2e_say "drivebench run ($type, $vms VM(s), run id $run_id)"
t0=$(date +%s)
if ! timeout -k 30 "$run_timeout" "$drivebench" run "$work/plan.ini" --run-id="$run_id" \
     >"$work/run.log" 2>&1; then
  e2e_fail "drivebench run failed or took longer than ${run_timeout}s"
fi
e2e_say "run finished in $(( $(date +%s) - t0 ))s"
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=

rdir=$work/results/$run_id
if [ "$seeded" = 1 ] && grep -q 'prepare on' "$work/run.log"; then
  e2e_fail "the run prepared its database although the profile restores it from the seed"
fi
[ -s "$rdir/summary.json" ] || e2e_fail "no $rdir/summary.json"
n=0
for j in "$rdir"/vm/*.json; do
  case $j in *.server.json) continue ;; esac   # the settings read back, no result
  [ -s "$j" ] || continue
  m=$(jq -c '.phases[] | select(.name == "measure")' "$j")
  [ -n "$m" ] || e2e_fail "$(basename "$j"): no measure phase"
  jq -e '.transactions > 0 and .latency_ms.avg > 0 and .latency_ms.p99 > 0
         and .latency_ms.p99 >= .latency_ms.p50' <<<"$m" >/dev/null \
    || e2e_fail "$(basename "$j"): measure phase without transactions or latencies: $m"
  e2e_say "$(basename "$j"): $(jq -r '"\(.transactions) transactions, \(.tps) TPS, avg \(.latency_ms.avg) ms, p99 \(.latency_ms.p99) ms"' <<<"$m")"
  n=$((n + 1))
done
[ "$n" = "$vms" ] || e2e_fail "$n VM result(s), want $vms"
jq -e --argjson v "$vms" '.run.transactions > 0 and .run.vms == $v
      and .run.latency_ms.p99 > 0' "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: run without transactions, latencies or $vms VM(s): $(jq -c .run "$rdir/summary.json")"
# issue 31: the guest CPU as rendered (domain_type = qemu: QEMU's max) and
# in the fingerprint, and each guest's /proc/cpuinfo flags as the guest
# agent read them at boot: QEMU 7.2's max under TCG offers SSE4.2, POPCNT
# and AVX (the flags the default qemu64 lacks)
want_cpu=host-passthrough; [ "$type" = qemu ] && want_cpu=maximum
jq -e --arg c "$want_cpu" '.environment.hypervisors[0].guest_cpu == $c and .fingerprint.cpu == $c
      and .environment.hypervisors[0].domain_type_reason == "asked for"
      and .plan.pinning == "off" and .plan.hugepages == "no"' "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: guest CPU not $want_cpu: $(jq -c '{h: .environment.hypervisors[0] | del(.cpu_flags), fp: .fingerprint.cpu}' "$rdir/summary.json")"
jq -e --argjson n "$vms" '[.vms[] | select((.cpu_flags // "") | split(" ")
      | (index(["sse4_2"]) != null) and (index(["popcnt"]) != null) and (index(["avx"]) != null))]
      | length == $n' "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: a guest's CPU flags lack sse4_2, popcnt or avx: $(jq -c '[.vms[].cpu_flags]' "$rdir/summary.json")"
e2e_say "guest CPU $want_cpu: $(jq -r '.vms[0].cpu_flags | split(" ") | length' "$rdir/summary.json") flags, among them $(jq -r '.vms[0].cpu_flags | split(" ") | map(select(test("^(sse4_2|popcnt|avx|avx2|xsave)$"))) | join(" ")' "$rdir/summary.json")"
e2e_check_totals "$rdir"

# What the drive did (issue 13): during the measured phase the hypervisor
# counted writes and flushes on the database disk (a write workload), and
# the summary names the drive the run used (its block device and size).
jq -e '.drives[0].io.db.wr_iops > 0 and .drives[0].io.db.fl_iops > 0
       and .drives[0].io.db.fl_lat_ms > 0 and (.drives[0].io.db.series | length) > 0
       and .vms[0].io.db.wr_iops > 0' "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: no database-disk writes or flushes: $(jq -c '.drives[0].io.db | del(.series)' "$rdir/summary.json")"
jq -e '(.drives[0].host.device.disk // "") != "" and .drives[0].host.identity.size_bytes > 0
       and (.drives[0].host.identity.fs_type // "") != ""' "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: the drive's identity is missing: $(jq -c '.drives[0].host | del(.io)' "$rdir/summary.json")"
grep -q 'db_wr_iops' "$rdir/summary.csv" || e2e_fail "summary.csv: no drive I/O columns"
# issue 23: what each transaction wrote and flushed, and the guest's own
# view of its database disk (through the guest agent); the device's
# latencies where this host lets us trace, else the note saying why
jq -e '.drives[0].per_txn.phase.wr_kib > 0 and .drives[0].per_txn.phase.flushes > 0
       and .vms[0].per_txn.phase.wr_kib > 0 and .vms[0].per_txn.phase.flushes > 0
       and (.drives[0].per_txn.series | length) > 0' "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: no writes or flushes per transaction: $(jq -c '.drives[0].per_txn | del(.series)' "$rdir/summary.json")"
jq -e '.vms[0].io.guest.wr_iops > 0 and .vms[0].io.guest.rq_kib > 0
       and .drives[0].io.guest.wr_iops > 0 and (.vms[0].io.guest.series | length) > 0' \
  "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: no guest view of the database disk: $(jq -c '{vm: (.vms[0].io.guest // .vms[0].io.guest_note), drive: .drives[0].io.guest}' "$rdir/summary.json")"
jq -e '(.drives[0].device_latency.write.count // 0) > 0 or (.drives[0].device_latency_note // "") != ""' \
  "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: neither device latencies nor a note why not"
grep -q 'txn_wr_kib' "$rdir/summary.csv" || e2e_fail "summary.csv: no per-transaction columns"
e2e_say "per transaction: $(jq -r '.drives[0].per_txn.phase | "\(.wr_kib) KiB written, \(.flushes) flushes, device \(.dev_wr_kib // "n/a") KiB, busy \(.dev_busy_ms // "n/a") ms, write amplification \(.write_amp // "n/a")"' "$rdir/summary.json"); guest view: $(jq -r '.vms[0].io.guest | "\(.wr_iops) writes/s, \(.rq_kib) KiB a request, queue \(.queue_depth)"' "$rdir/summary.json"); device latency: $(jq -r '.drives[0] | if .device_latency then "write p99 \((.device_latency.write.percentiles // [] | map(select(.pct == 99)) | .[0].ms) // "n/a") ms over \(.device_latency.write.count) writes" else .device_latency_note end' "$rdir/summary.json")"
e2e_say "drive I/O: $(jq -r '.drives[0] | "database disk \(.io.db.wr_iops) writes/s, \(.io.db.fl_iops) flushes/s (\(.io.db.fl_lat_ms) ms); device \(.host.device.disk) \(.host.identity.model // "?") \(.host.identity.size_bytes) bytes, flush ratio \(.host.flush_ratio // "n/a")"' "$rdir/summary.json")"
# the database's size as the guest's server reported it, per VM and per drive
jq -e --argjson n "$vms" '([.vms[] | select(.database_size.loaded.data_bytes > 0
       and .database_size.end.data_bytes > 0)] | length) == $n
       and .drives[0].database_size.loaded.data_bytes > 0' "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: a VM without its database size: $(jq -c '[.vms[] | .database_size]' "$rdir/summary.json")"
head -1 "$rdir/summary.csv" | grep -q ',database_loaded_data_bytes,' || e2e_fail "summary.csv: no database size columns"
e2e_say "database size: $(jq -r '[.vms[] | "\(.name): \(.database_size.loaded.data_bytes) bytes of data after load, \(.database_size.end.data_bytes) at the end, log \(.database_size.end.log_bytes // "n/a")"] | join("; ")' "$rdir/summary.json")"
if [ "$seeded" = 1 ]; then
  grep -q "^restoring $vms database volume(s) from their seeds" "$work/run.log" \
    || e2e_fail "the run did not restore its database volume from the seed"
  jq -e '.drives[0].restore.bytes > 0 and .drives[0].restore.mb_s > 0' "$rdir/summary.json" >/dev/null \
    || e2e_fail "summary.json: no restore figure for the drive: $(jq -c '.drives[0].restore' "$rdir/summary.json")"
  e2e_say "restore: $(grep -m1 '^restored in' "$work/run.log")"
fi

first_kib=$(head -1 "$work/db-samples" 2>/dev/null | cut -d' ' -f1)
max_kib=$(cut -d' ' -f1 "$work/db-samples" 2>/dev/null | sort -n | tail -1)
grep -q ' dbdisk$' "$work/db-samples" 2>/dev/null \
  || e2e_fail "no database file system (ext4 label dbdisk) ever appeared on the database disk file on the drive"
[ "${max_kib:-0}" -gt 10240 ] \
  || e2e_fail "the database disk file on the drive never held more than 10 MiB (max ${max_kib:-0} KiB)"
e2e_say "database disk file on the drive: the guest's file system on it, ${first_kib} KiB -> ${max_kib} KiB allocated"

for kv in $db_expect; do
  grep -qx -- "$kv" "$work/db-vars" 2>/dev/null \
    || e2e_fail "the server did not report $kv (db_settings = $db_settings): got $(tr '\n' ' ' <"$work/db-vars" 2>/dev/null || echo 'no answer')"
done
[ -z "$db_expect" ] || e2e_say "server settings from db_settings = $db_settings: $(tr '\n' ' ' <"$work/db-vars")"
grep -q "controller = $controller" "$work/plan.ini" && [ -n "$controller" ] \
  && e2e_say "controller $controller: $(grep -c 'attaching ssp device' "$rdir"/console/*.log 2>/dev/null || true) SAS disk(s) attached by the guest's mptsas"

# issue 44: each VM's server read back before the measurement
jq -e --argjson n "$vms" '([.vms[] | select((.server.version // "") != ""
       and ([.server.settings[].name] == ["innodb_buffer_pool_size", "innodb_log_file_size",
            "innodb_flush_method", "innodb_flush_log_at_trx_commit"])
       and (.server.settings[3] | .value == "2" and .wanted == "2"))] | length) == $n
       and (.fingerprint.server_settings | contains("innodb_flush_log_at_trx_commit=2"))' \
  "$rdir/summary.json" >/dev/null \
  || e2e_fail "summary.json: a VM without its server settings read back: $(jq -c '[.vms[].server]' "$rdir/summary.json")"
if [ "$db_settings" = innodb_buffer_pool_size=256M ]; then
  jq -e --argjson n "$vms" '[.vms[] | select(.server.settings[0].value == "268435456")] | length == $n' \
    "$rdir/summary.json" >/dev/null \
    || e2e_fail "summary.json: the buffer pool read back is not 268435456: $(jq -c '[.vms[].server.settings[0]]' "$rdir/summary.json")"
fi
e2e_say "server settings: $(jq -r '.vms[0].server | "\(.version) (\(.edition)): " + ([.settings[] | "\(.name)=\(.value)"] | join(", "))' "$rdir/summary.json")"

left=$(leftovers)
[ -z "$left" ] || e2e_fail "left behind by the run: $left"
# issue 42: the summary made again from the VM results, byte for byte
"$drivebench" summarize "$rdir" --out="$work/summarized" >/dev/null && cmp -s "$rdir/summary.json" "$work/summarized/summary.json" \
  || e2e_fail "drivebench summarize does not reproduce $rdir/summary.json: $(diff "$rdir/summary.json" "$work/summarized/summary.json" 2>&1 | head -5)"

e2e_say "PASS ($(jq -r '"\(.run.transactions) transactions, \(.run.tps) TPS"' "$rdir/summary.json"))"
