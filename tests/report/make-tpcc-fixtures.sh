#!/usr/bin/env bash
# Regenerate results/fixtures/tpcc/vm/*.json: real `oltp tpcc run --json`
# results against a private MariaDB (tests/lib/mariadb.sh), as two VMs on
# drive "nvme-a" and one on "sata-b" would leave them (one repetition).
# The two nvme-a VMs run at the same time, each on its own database (as
# each VM has its own server), so they share the disk as on one drive and
# each one's NOPM counts its own New-Orders only.
# Not run by `make test`: tests/orchestrator/test_aggregate.c reads the
# committed files and checks their merged figures exactly. Takes about a
# minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/mariadb.sh
make -s bin/oltp
out=results/fixtures/tpcc/vm
tmp=$(mktemp -d)
cleanup() { mariadb_stop; rm -rf "$tmp"; }
trap cleanup EXIT
mariadb_start
export OLTP_MYSQL_PASSWORD=sbtest
OLTP="bin/oltp --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --warehouses=2"
mariadb_sql "CREATE DATABASE sbtest2"
$OLTP --threads=2 tpcc prepare >/dev/null
$OLTP --threads=2 --mysql-db=sbtest2 tpcc prepare >/dev/null
V=drivebench-tpcc-20261201-000000
# run VM DB: one VM's measured run
run() { $OLTP --mysql-db="$2" --threads=2 --time=8 --warmup-time=2 --report-interval=1 \
          --json="$tmp/$1.json" tpcc run >/dev/null; }
run $V--nvme-a-vm1.r1 sbtest & a=$!
run $V--nvme-a-vm2.r1 sbtest2 & b=$!
wait $a; wait $b
run $V--sata-b-vm1.r1 sbtest
rm -rf "$out"; mkdir -p "$out"
# oltp pretty-prints; the fixtures keep the same data in compact form
python3 - "$tmp" "$out" <<'PY'
import json, os, sys
src, dst = sys.argv[1:]
for n in sorted(os.listdir(src)):
    with open(os.path.join(src, n)) as f:
        d = json.load(f)
    with open(os.path.join(dst, n), "w") as f:
        json.dump(d, f, separators=(",", ":"))
        f.write("\n")
PY
ls "$out"
# the run folder's summary through the real aggregation, for the report
make -s bin/report_mksummary
cp tests/report/tpcc-plan.ini results/fixtures/tpcc/plan.ini
bin/report_mksummary results/fixtures/tpcc tpcc-20261201-000000 \
  "nvme-a=vm/$V--nvme-a-vm1.r1.json" "nvme-a=vm/$V--nvme-a-vm2.r1.json" \
  "sata-b=vm/$V--sata-b-vm1.r1.json"
tests/report/add-fingerprints.sh
