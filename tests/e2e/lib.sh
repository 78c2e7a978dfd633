# shellcheck shell=bash disable=SC2034  # sourced: variables are used by the caller
# Helpers shared by the end-to-end tests (sourced, not run).
#
# e2e_libvirt_up      make qemu:///system answer (images/libvirt-up.sh) and
#                     hold a shared lock as one of its users
# e2e_libvirt_down    drop the lock; stop the daemons libvirt-up.sh started
#                     unless another drivebench process still uses them
# e2e_virt_type       "kvm" or "qemu" (TCG), from images/virt-type.sh
# e2e_vm_disks DIR    a VM's disks for images/vmlib.sh's vm_boot in DIR
# e2e_db_grew DIR     fail unless the database went onto DIR/db.img
# e2e_vm_console NAME STATUS LINES ARTIFACT
#                     on failure, the tail of a VM's serial console
# e2e_tiny_plan FILE NAME TYPE RUN_KEYS WORKLOAD_KEYS
#                     a plan of one tiny VM of domain type TYPE on
#                     $E2E_WORK/drive (1 table x 1,000 rows), with more
#                     [run] and [workload] lines
# e2e_engine_plan FILE NAME ENGINE TYPE BOOT_TIMEOUT RUN_KEYS WORKLOAD_KEYS
#                     a plan of one tiny VM of ENGINE's image ($E2E_IMAGES)
#                     on $E2E_WORK/drive, through $E2E_WORK/oltp (the logger)
# e2e_check_totals RUN_DIR
#                     fail unless summary.json's run and drive transactions
#                     equal the sums of the VMs' own result files
#                     and what bounded each drive (e2e_check_bound)
# e2e_check_bound RUN_DIR
#                     fail unless every drive with a measured VM has its
#                     verdict with evidence in summary.json (under TCG:
#                     "host cpu", the TCG evidence with host_cpu's figure)
#                     and a measured VM of this host per drive its QEMU threads
# e2e_engine_image ENGINE
#                     set E2E_IMAGES to ENGINE's image folder: E2E_IMAGE_DIR,
#                     else images/build.sh --engine ENGINE's (built or reused);
#                     fail unless its image.info names ENGINE
# e2e_work NAME       set E2E_WORK to a new folder /var/tmp/drivebench-e2e-NAME.*
#                     with drive/, both reachable by QEMU
# e2e_run_work NAME   the same with an oltp that logs its arguments
#                     (e2e_oltp_logger), all reachable by QEMU
# e2e_oltp_logger DIR make DIR/oltp, which appends its arguments to
#                     DIR/argv.log and runs bin/oltp (a plan's [run] oltp)
# e2e_run_failed DIR ID
#                     for a test's e2e_test_cleanup: the serial consoles and
#                     output (DIR/ID.log) of drivebench run ID, whose results
#                     are in DIR/results, kept in tests/artifacts/
# e2e_nothing_left RUN_ID
#                     fail unless no domain of run RUN_ID is in libvirt and
#                     $E2E_WORK/drive is empty
# e2e_page_shot URL PNG WHAT RRGGBB...
#                     headless Chromium's screenshot of URL into
#                     tests/artifacts/PNG; fail unless it holds every colour
#                     (WHAT says which; the caller sources tests/lib/png.sh)
# e2e_passt_nothing_left RUN_ID WHAT
#                     fail (saying WHAT) unless nothing of run RUN_ID is on
#                     this host: no domain, volume or pool (drivebench
#                     list), no network namespace, no passt PID file

E2E_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
E2E_URI=qemu:///system
E2E_LIBVIRT_USED=0

e2e_libvirt_up() {
  local state=${DRIVEBENCH_LIBVIRT_STATE:-/run/drivebench/libvirt}
  mkdir -p "$state"
  exec {E2E_USERS_FD}>>"$state/users.lock"
  flock -s "$E2E_USERS_FD"
  E2E_LIBVIRT_USED=1
  "$E2E_TOP/images/libvirt-up.sh"
}

e2e_libvirt_down() {
  [ "$E2E_LIBVIRT_USED" = 1 ] || return 0
  flock -u "$E2E_USERS_FD"
  exec {E2E_USERS_FD}>&-
  E2E_LIBVIRT_USED=0
  "$E2E_TOP/images/libvirt-down.sh" --if-unused || true
}


# e2e_tiny_plan FILE NAME TYPE RUN_KEYS WORKLOAD_KEYS: the plan of one tiny
# VM of domain type TYPE (host client, drivebench's MariaDB image, results in $E2E_WORK/results,
# oltp_read_write on 1 table x 1,000 rows) on the drive $E2E_WORK/drive,
# with the lines RUN_KEYS in [run] and WORKLOAD_KEYS in [workload] (each
# "key = value" lines; threads and measure are the caller's).
e2e_tiny_plan() {
  cat >"$1" <<EOF
; written by $(basename "$0")
[run]
name = $2
uri = $E2E_URI
profile = tiny
vms_per_drive = 1
client = host
image_dir = $E2E_TOP/images/build
results_dir = $E2E_WORK/results
domain_type = $3
boot_timeout = 10m
$4

[workload]
name = oltp_read_write
tables = 1
table_size = 1000
$5

[drive e2e]
path = $E2E_WORK/drive
EOF
}

# e2e_engine_plan FILE NAME ENGINE TYPE BOOT_TIMEOUT RUN_KEYS WORKLOAD_KEYS:
# the plan of one tiny VM of domain type TYPE serving ENGINE from the image
# folder $E2E_IMAGES (e2e_engine_image), its oltp the logger of
# e2e_run_work, results in $E2E_WORK/results, on the drive $E2E_WORK/drive;
# RUN_KEYS and WORKLOAD_KEYS are more "key = value" lines (the workload's
# name and size are the caller's).
e2e_engine_plan() {
  cat >"$1" <<EOF
; written by $(basename "$0")
[run]
name = $2
engine = $3
uri = $E2E_URI
profile = tiny
client = host
image_dir = $E2E_IMAGES
oltp = $E2E_WORK/oltp
results_dir = $E2E_WORK/results
domain_type = $4
boot_timeout = $5
$6

[workload]
$7

[drive e2e]
path = $E2E_WORK/drive
EOF
}

# The domain type: images/virt-type.sh (kvm only when KVM really runs the
# guest fast; DRIVEBENCH_VIRT_TYPE overrides).
e2e_virt_type() { "$E2E_TOP/images/virt-type.sh"; }

# An overlay boot.qcow2 on $VM_IMAGES/base.qcow2 and an empty (sparse)
# 1 GiB db.img in DIR, which QEMU (user libvirt-qemu) must reach; db_before
# is what db.img holds now, in KiB.
e2e_vm_disks() {
  chmod 0755 "$1"
  qemu-img create -q -f qcow2 -F qcow2 -b "$VM_IMAGES/base.qcow2" "$1/boot.qcow2" 4G
  truncate -s 1G "$1/db.img"
  db_before=$(du -k "$1/db.img" | cut -f1)
}

# The database disk holds the database: DIR/db.img grew by over 10 MiB
# since e2e_vm_disks.
e2e_db_grew() {
  local db_after
  db_after=$(du -k "$1/db.img" | cut -f1)
  [ "$db_after" -gt $(( db_before + 10240 )) ] \
    || e2e_fail "db.img did not grow (${db_before} KiB -> ${db_after} KiB): the database is not on it"
  e2e_say "db.img grew from ${db_before} KiB to ${db_after} KiB"
}

# The summary's totals are the sums of what the VMs measured: for every VM
# run the summary lists as ok, its result file RUN_DIR/vm/NAME.rREP.json
# has a measure phase, and run.transactions (and each drive's) equals the
# sum of those phases' transactions. Prints the totals it checked.
e2e_check_totals() {
  local out
  out=$(python3 - "$1" 2>&1 <<'PY'
import json, os, sys
rdir = sys.argv[1]
s = json.load(open(os.path.join(rdir, "summary.json")))
sums, n = {}, 0
for v in s["vms"]:
    if v.get("status") == "failed":
        continue
    f = os.path.join(rdir, "vm", "%s.r%d.json" % (v["name"], v["repetition"]))
    try:
        phases = json.load(open(f))["phases"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit("%s: %s" % (os.path.basename(f), e))
    m = [p["transactions"] for p in phases if p.get("name") == "measure"]
    if not m:
        sys.exit("%s: no measure phase" % os.path.basename(f))
    sums[v["drive"]] = sums.get(v["drive"], 0) + m[0]
    n += 1
if n == 0:
    sys.exit("summary.json lists no measured VM")
bad = ["drive %s: %s in summary.json, %s in vm/" % (d["name"], d["transactions"], sums.get(d["name"], 0))
       for d in s["drives"] if d["transactions"] != sums.get(d["name"], 0)]
if s["run"]["transactions"] != sum(sums.values()):
    bad.append("run: %s in summary.json, %s in vm/" % (s["run"]["transactions"], sum(sums.values())))
if bad:
    sys.exit("; ".join(bad))
print("run %d transactions = the sum of %d VM result file(s)" % (s["run"]["transactions"], n))
PY
) || e2e_fail "summary.json totals against the VMs' result files: $out"
  e2e_say "totals: $out"
  e2e_check_bound "$1"
}

e2e_check_bound() {
  local out
  out=$(python3 - "$1" "$(e2e_virt_type)" 2>&1 <<'PY'
import json, os, sys
rdir, virt = sys.argv[1], sys.argv[2]
s = json.load(open(os.path.join(rdir, "summary.json")))
said, bad = [], []
busy = s.get("host_cpu", {}).get("busy_pct")
for d in s["drives"]:
    vms = [v for v in s["vms"] if v["drive"] == d["name"] and v.get("status") != "failed"]
    if not vms:
        continue
    b = d.get("bound")
    if not b or not b.get("evidence"):
        bad.append("drive %s: no verdict with evidence" % d["name"])
        continue
    if virt == "qemu":
        want = ("the VMs ran under TCG: every guest instruction is emulated on the host's "
                "CPUs (host CPU %.1f %% busy)" % busy) if busy is not None else None
        if b["verdict"] != "host cpu" or not b.get("tcg") or b["evidence"] != want \
           or b.get("host_cpu_pct") != busy:
            bad.append("drive %s: %s (%s), want host cpu (%s)" % (d["name"], b["verdict"], b["evidence"], want))
    # a resumed run's kept repetitions were sampled by the run before it:
    # at least one VM of this host per drive has its threads
    local = [v for v in vms if v.get("host", "qemu:///system").startswith("qemu:///")]
    good = [v for v in local if v.get("qemu_threads", {}).get("vcpus", 0) >= 1
            and "main_pct" in v["qemu_threads"] and v["qemu_threads"].get("seconds", 0) > 0]
    if local and not good:
        bad.append("drive %s: no VM with its QEMU threads by role (%s)"
                   % (d["name"], [v.get("qemu_threads") for v in local]))
    said.append("%s: %s (%s)" % (d["name"], b["verdict"], b["evidence"]))
if not said and not bad:
    sys.exit("summary.json has no drive with a measured VM")
if bad:
    sys.exit("; ".join(bad))
print("; ".join(said))
PY
) || e2e_fail "summary.json's verdict on what bounded each drive: $out"
  e2e_say "bounded by: $out"
}

e2e_engine_image() {
  E2E_IMAGES=${E2E_IMAGE_DIR:-}
  if [ -z "$E2E_IMAGES" ]; then
    local rc=0
    "$E2E_TOP/images/build.sh" --engine "$1" || rc=$?
    # 3: the engine's own sources are not on this machine (images/build.sh
    # said what to fetch): a skip, as the integration tests' (exit 77),
    # except where CI must run it
    if [ "$rc" = 3 ]; then
      [ "${CI:-}" = true ] && e2e_fail "CI=true requires the $1 image: its sources are missing (see above)"
      echo "SKIP: no sources for the $1 image here (see above)"
      exit 77
    fi
    [ "$rc" = 0 ] || e2e_fail "images/build.sh --engine $1 failed"
    E2E_IMAGES=$E2E_TOP/images/$(. "$E2E_TOP/images/engines/$1/engine.conf" && echo "$ENGINE_IMAGE_DIR")
  fi
  grep -qx "engine=$1" "$E2E_IMAGES/image.info" 2>/dev/null \
    || e2e_fail "$E2E_IMAGES/image.info does not say engine=$1"
}

e2e_work() {
  E2E_WORK=$(mktemp -d "/var/tmp/drivebench-e2e-$1.XXXXXX")
  chmod 0755 "$E2E_WORK"
  mkdir -m 0755 "$E2E_WORK/drive"
}

e2e_run_work() {
  e2e_work "$1"
  e2e_oltp_logger "$E2E_WORK"
}

e2e_oltp_logger() {
  cat >"$1/oltp" <<SH
#!/bin/sh
echo "\$*" >>"$1/argv.log"
exec "$E2E_TOP/bin/oltp" "\$@"
SH
  chmod 0755 "$1/oltp"
}

e2e_run_failed() {
  local c
  for c in "$1"/results/"$2"/console/*.log; do
    [ -s "$c" ] || continue
    echo "----- serial console $(basename "$c") (last 60 lines) -----" >&2
    tail -60 "$c" >&2
  done
  [ -s "$1/$2.log" ] && { echo "----- drivebench run output -----" >&2; tail -60 "$1/$2.log" >&2; }
  mkdir -p "$E2E_TOP/tests/artifacts"
  [ -d "$1/results/$2" ] && cp -r "$1/results/$2" "$E2E_TOP/tests/artifacts/" || true
}

e2e_nothing_left() {
  local left
  left=$(virsh -c "$E2E_URI" list --all --name 2>/dev/null | grep -F "drivebench-$1-" || true)
  [ -z "$left" ] || e2e_fail "left behind: $left"
  [ -z "$(find "$E2E_WORK/drive" -mindepth 1)" ] || e2e_fail "files left on the drive: $(ls "$E2E_WORK/drive")"
}

e2e_page_shot() {
  local url=$1 shot=$E2E_TOP/tests/artifacts/$2 what=$3 colours
  shift 3
  mkdir -p "$E2E_TOP/tests/artifacts"
  rm -f "$shot"
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
    --disable-background-networking --disable-component-update --window-size=1280,1400 \
    --user-data-dir="$E2E_WORK/chromium" --screenshot="$shot" "$url" >"$E2E_WORK/chromium.log" 2>&1 \
    || e2e_fail "chromium could not render $url"
  colours=$(png_colours "$shot" "$@")
  [ "${colours##* }" = bars ] || e2e_fail "the screenshot lacks $what: '$colours'"
  e2e_say "page rendered: $shot ($what)"
}

e2e_passt_nothing_left() {
  local left
  left=$("$E2E_TOP/bin/drivebench" list --uri="$E2E_URI" 2>/dev/null | grep -F "$1" || true)
  [ -z "$left" ] || e2e_fail "$2: drivebench list still shows the run: $left"
  left=$(compgen -G "/run/netns/drivebench-$1--*" || true)
  [ -z "$left" ] || e2e_fail "$2: a network namespace of the run is left: $left"
  left=$(compgen -G "/run/drivebench/passt/drivebench-$1--*" || true)
  [ -z "$left" ] || e2e_fail "$2: a passt PID file of the run is left: $left"
}

# For a test's e2e_test_cleanup: when STATUS is a failure, the last LINES
# lines of the serial console of VM NAME ($E2E_WORK/console.log), and the
# whole console kept as tests/artifacts/ARTIFACT (none when empty).
e2e_vm_console() {
  [ "$2" != 0 ] && [ -s "$E2E_WORK/console.log" ] || return 0
  echo "----- serial console of $1 (last $3 lines) -----" >&2
  tail -"$3" "$E2E_WORK/console.log" >&2
  echo "----- end of serial console -----" >&2
  [ -n "${4:-}" ] || return 0
  mkdir -p "$E2E_TOP/tests/artifacts"
  cp "$E2E_WORK/console.log" "$E2E_TOP/tests/artifacts/$4" \
    && echo "$E2E_NAME: whole console in tests/artifacts/$4" >&2
}

# Messages: "NAME: ..." on stdout, "NAME: FAIL: ... (host load average)" on
# stderr and exit 1. E2E_NAME defaults to the script's name.
E2E_NAME=$(basename "$0" .sh)
e2e_say() { echo "$E2E_NAME: $*"; }
e2e_fail() {
  echo "$E2E_NAME: FAIL: $* (host load average: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  exit 1
}

# e2e_begin TOOL...: check root and the tools, and arrange that on any exit
# (also Ctrl-C, SIGTERM) the test's own e2e_test_cleanup runs (given the
# exit status; it undoes what the test made), then E2E_WORK is deleted and
# the libvirt daemons are released.
E2E_WORK=
e2e_begin() {
  trap e2e_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  [ "$(id -u)" -eq 0 ] || e2e_fail "needs root (qemu:///system, image build)"
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null || e2e_fail "$t not found: install images/deps.txt"
  done
}
e2e_exit() {
  local rc=$?
  trap - EXIT INT TERM
  if declare -F e2e_test_cleanup >/dev/null; then e2e_test_cleanup "$rc" || true; fi
  [ -n "$E2E_WORK" ] && rm -rf "$E2E_WORK"
  e2e_libvirt_down >/dev/null
  exit "$rc"
}
