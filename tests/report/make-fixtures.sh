#!/usr/bin/env bash
# Regenerate the report fixtures results/fixtures/report-{4vm,8vm,reps}:
# real run folders written by the orchestrator (orch_run on libvirt's test
# driver, nothing boots) with real oltp results (bin/oltp against a private
# MariaDB, tests/lib/mariadb.sh). Not run by `make test`: the tests read
# the committed folders, whose numbers they check exactly. Run from
# anywhere; takes about a minute.
#   report-4vm   2 drives x 4 VMs ("nvme-a" and a drive named
#                <script>alert(1)</script>), 1 repetition
#   report-8vm   "nvme-a" with 8 VMs: the 4-vs-8 comparison with report-4vm
#   report-reps  "nvme-a" and "sata-b", 1 VM each, 3 repetitions; sata-b's
#                target rate changes per repetition so its CV is high
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
. tests/lib/mariadb.sh
make -s bin/oltp bin/report_mkfixture
tmp=$(mktemp -d)
cleanup() { mariadb_stop; rm -rf "$tmp"; }
trap cleanup EXIT
mariadb_start
export REPORT_DB_PORT=$MARIADB_PORT
bin/oltp --mysql-host=127.0.0.1 --mysql-port="$MARIADB_PORT" --mysql-user=sbtest \
  --mysql-password=sbtest --tables=4 --table-size=2000 oltp_read_write prepare >/dev/null

# plan NAME RUN_EXTRA DRIVES: a plan for the test driver and oltp-local.
plan() {
  cat > "$tmp/$1.ini" <<EOF
[run]
name = $1
uri = test://$repo/tests/orchestrator/node.xml
profile = tiny
vmconfigs_dir = vmconfigs
image_dir = /srv/images
results_dir = $tmp/out
oltp = $repo/tests/report/oltp-local
domain_type = qemu
port_base = 47300
boot_size = 1G
db_size = 1G
$2

[workload]
name = oltp_read_write
tables = 4
table_size = 2000
threads = 2
prepare = no
measure = 5s

$3
EOF
}

plan report-4vm "vms_per_drive = 4" "[drive nvme-a]
path = /srv/drive-a

[drive <script>alert(1)</script>]
path = /srv/drive-b"
plan report-8vm "vms_per_drive = 8" "[drive nvme-a]
path = /srv/drive-a"
plan report-reps "repetitions = 3
cv_threshold = 5" "[drive nvme-a]
path = /srv/drive-a

[drive sata-b]
path = /srv/drive-b"

for f in report-4vm report-8vm report-reps; do
  rates=
  [ $f = report-reps ] && rates="*--nvme-a-vm1.r?.json=40 *--sata-b-vm1.r1.json=20 *--sata-b-vm1.r2.json=40 *--sata-b-vm1.r3.json=60"
  REPORT_RATES=$rates bin/report_mkfixture "$tmp/$f.ini" "$f"
  rm -rf "results/fixtures/$f"
  mkdir -p "results/fixtures/$f"
  cp -r "$tmp/out/$f/plan.ini" "$tmp/out/$f/summary.json" "$tmp/out/$f/summary.csv" \
    "$tmp/out/$f/vm" "results/fixtures/$f/"
  # oltp pretty-prints; the fixtures keep the same data in compact form
  python3 - results/fixtures/$f/vm/*.json <<'PY'
import json, sys
for p in sys.argv[1:]:
    with open(p) as f:
        d = json.load(f)
    with open(p, "w") as f:
        json.dump(d, f, separators=(",", ":"))
        f.write("\n")
PY
  echo "results/fixtures/$f: $(ls "results/fixtures/$f/vm" | wc -l) VM result(s)"
done

# report-failed: report-4vm's VM results with nvme-a's vm2 failed (its
# drive full, mid-measure): the summary rebuilt by the real aggregation
# (bin/report_mksummary), so the drive is incomplete and the run
# completed_with_failures.
make -s bin/report_mksummary
F=results/fixtures
rm -rf $F/report-failed
mkdir -p $F/report-failed
cp -r $F/report-4vm/plan.ini $F/report-4vm/summary.json $F/report-4vm/vm $F/report-failed/
args=()
for f in $F/report-failed/vm/*.json; do
  n=$(basename "$f")
  case $n in *nvme-a-vm*) d=nvme-a ;; *) d='<script>alert(1)</script>' ;; esac
  [ "$n" = drivebench-report-4vm--nvme-a-vm2.r1.json ] && d="!$d"
  args+=("$d=vm/$n")
done
# vm2's oltp stopped at the error, 5 s into its measured phase, when the
# monitor saw the fault (report_mksummary: 2026-12-01T00:00:05Z): its result
# says so and is kept, in no figure, shown with the fault
python3 - $F/report-failed/vm/drivebench-report-4vm--nvme-a-vm2.r1.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["started_at"] = "2026-12-01T00:00:00Z"
d["ended"] = "error"
d["ended_reason"] = "error 1114 (SQLSTATE HY000): The table 'sbtest1' is full"
json.dump(d, open(sys.argv[1], "w"), separators=(",", ":"))
PY
bin/report_mksummary $F/report-failed report-failed "${args[@]}"
echo "results/fixtures/report-failed: nvme-a vm2 failed"
tests/report/add-fingerprints.sh
