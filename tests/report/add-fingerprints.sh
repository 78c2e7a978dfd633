#!/usr/bin/env bash
# Add the protocol fingerprint (issue 22) to the report fixtures, made
# before summaries recorded one, and make report-8vm-pg: report-8vm's VM
# results as a run whose protocol differs from the others in the engine
# alone (a fixture edit: the fingerprint's engine relabelled
# "postgresql"), for the test that runs of different engines are ranked
# apart with no scaling ratio between them. Every other byte of the
# summaries stays as make-fixtures.sh / make-tpcc-fixtures.sh wrote it:
# the fingerprint comes from bin/report_mkfingerprint (the real
# orch_fingerprint_build) and is inserted as the summary's last key.
# make-fixtures.sh and make-tpcc-fixtures.sh call this at their end.
set -euo pipefail
cd "$(dirname "$0")/../.."
make -s bin/report_mkfingerprint
F=results/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the TPC-C fixture's plan names no profile (its oltp ran on the host):
# the tiny profile, as the other fixtures
sed 's|^\[run\]$|[run]\nprofile = tiny\nuri = test:///default\nimage_dir = /srv/images|' \
  tests/report/tpcc-plan.ini > "$tmp/tpcc.ini"

# insert DIR RUN_ID FINGERPRINT_JSON: the summary of DIR with run_id and
# the fingerprint set, the rest as it was
insert() {
  python3 - "$1/summary.json" "$2" "$3" <<'PY'
import json, re, sys
path, run_id, fp = sys.argv[1], sys.argv[2], json.loads(open(sys.argv[3]).read())
raw = open(path).read()
raw = re.sub(r',\n  "fingerprint":\{.*\n  \}(?=\n\}$)', '', raw, flags=re.S)  # again: replaced
raw = re.sub(r'^  "run_id":"[^"]*"', '  "run_id":' + json.dumps(run_id), raw, count=1, flags=re.M)
body = json.dumps(fp, indent=2, separators=(",", ":"), ensure_ascii=False).replace("\n", "\n  ")
assert raw.rstrip().endswith("}")
raw = raw.rstrip()[:-1].rstrip() + ',\n  "fingerprint":' + body + "\n}"
json.loads(raw)
open(path, "w").write(raw)
PY
}

rm -rf $F/report-8vm-pg
cp -r $F/report-8vm $F/report-8vm-pg
{ echo "# fixture: report-8vm's VM results as a run of another engine (tests/report/add-fingerprints.sh)"
  sed 's/^name = report-8vm$/name = report-8vm-pg\nengine = postgresql/' $F/report-8vm/plan.ini; } > $F/report-8vm-pg/plan.ini
sed -i 's/^report-8vm,/report-8vm-pg,/' $F/report-8vm-pg/summary.csv
for f in report-4vm report-8vm report-8vm-pg report-reps report-failed tpcc; do
  plan=$F/$f/plan.ini engine=
  [ $f = tpcc ] && plan=$tmp/tpcc.ini
  # the pg copy: report-8vm's own plan, only the engine relabelled
  [ $f = report-8vm-pg ] && engine=--engine=postgresql plan=$F/report-8vm/plan.ini
  bin/report_mkfingerprint $F/$f "$plan" $engine > "$tmp/fp.json"
  run_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' $F/$f/summary.json)
  [ $f = report-8vm-pg ] && run_id=report-8vm-pg
  insert $F/$f "$run_id" "$tmp/fp.json"
  echo "$F/$f: fingerprint$([ -n "$engine" ] && echo " (${engine#--})")"
done
