#!/usr/bin/env bash
# `drivebench report` end to end: the command line (exit codes, printed
# paths, default output), then headless Chromium renders the report of the
# fixture runs (4 VMs vs 8 VMs, and repetitions) from a file:// URL. Checks
# the page rendered with no console or script errors and with all its
# charts, and that the screenshot is not blank (decoded with python3's
# zlib: the bar colours are there). The screenshot stays in
# tests/artifacts/report.png. Runs from the repository root; needs
# Debian's chromium (results/deps.txt).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/check.sh
. tests/lib/png.sh
DB=bin/drivebench
ART=tests/artifacts
F=results/fixtures
mkdir -p "$ART"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- command line ---
out=$($DB report 2>&1); rc=$?
check_eq "no folder: exit 2" 2 "$rc"
check_eq "no folder: message" "drivebench: missing RESULTS_DIR argument (usage: drivebench report RESULTS_DIR... [-o report.html] [--charts] [--png])" "$out"
out=$($DB report "$tmp/none" 2>&1); rc=$?
check_eq "missing folder: exit 2" 2 "$rc"
check_eq "missing folder: message" "drivebench: $tmp/none/summary.json: cannot read the run's summary (is $tmp/none a run folder of \`drivebench run\`?)" "$out"
out=$($DB report --frob $F/report-4vm 2>&1); rc=$?
check_eq "unknown option: exit 2" 2 "$rc"
cp -r $F/report-4vm "$tmp/"
out=$($DB report "$tmp/report-4vm"); rc=$?
check_eq "one folder: exit 0" 0 "$rc"
check_eq "one folder: report.html in the folder" "report: $tmp/report-4vm/report.html
csv: $tmp/report-4vm/report.csv" "$out"
check_eq "one folder: CSV rows" 3 "$(wc -l < "$tmp/report-4vm/report.csv")"
# --charts: each chart of the page as a standalone SVG beside it; --png:
# and as a PNG (their content: tests/report/test_report.c test_chart_files)
out=$($DB report --charts "$tmp/report-4vm"); rc=$?
check_eq "--charts: exit 0, the SVGs' folder" "0 report: $tmp/report-4vm/report.html
csv: $tmp/report-4vm/report.csv
svg: 6 file(s) in $tmp/report-4vm/charts" "$rc $out"
check_eq "--charts: one SVG per chart of the page, no PNG" "6 6 0" \
  "$(grep -o '<svg class="chart' "$tmp/report-4vm/report.html" | wc -l) $(ls "$tmp/report-4vm/charts"/*.svg | wc -l) $(ls "$tmp/report-4vm/charts" | grep -c '\.png$')"
out=$($DB report --png $F/report-4vm $F/report-failed -o "$tmp/two/r.html" 2>&1); rc=$?
check_eq "--png into a folder that does not exist: exit 1, one line" "1 drivebench: cannot write $tmp/two/r.html: No such file or directory" "$rc $out"
mkdir "$tmp/two"
out=$($DB report --png $F/report-4vm $F/report-failed -o "$tmp/two/r.html"); rc=$?
check_eq "--png: exit 0, SVGs and PNGs of the page's 9 charts" "0 9 svg: 9 file(s) in $tmp/two/charts
png: 9 file(s) in $tmp/two/charts (twice the charts' size)" "$rc $(grep -o '<svg class="chart' "$tmp/two/r.html" | wc -l) $(echo "$out" | tail -2)"
check_eq "--png: a PNG of each SVG" "$(cd "$tmp/two/charts" && ls *.svg | sed 's/svg$/png/')" "$(cd "$tmp/two/charts" && ls *.png)"
rm -rf "$tmp/file" && mkdir "$tmp/file" && : >"$tmp/file/charts"
out=$($DB report --charts $F/report-4vm -o "$tmp/file/r.html" 2>&1); rc=$?
check_eq "--charts where a file is in the way: exit 1, one line" "1 drivebench: cannot write $tmp/file/charts/chart-tps.svg: Not a directory" "$rc $out"
out=$($DB report $F/report-4vm $F/report-8vm $F/report-reps -o "$ART/report.html"); rc=$?
check_eq "three folders: exit 0" 0 "$rc"
check_eq "three folders: paths" "report: $ART/report.html
csv: $ART/report.csv" "$out"
check_eq "three folders: CSV rows (one per drive per run)" 6 "$(wc -l < "$ART/report.csv")"


# --- the browser ---
if ! command -v chromium >/dev/null; then
  check_eq "chromium installed (apt-get install chromium)" yes no
  check_summary; exit
fi
url="file://$PWD/$ART/report.html"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --enable-logging=stderr --v=0 --window-size=1280,2000)
# dump_dom URL NAME: the rendered DOM in $tmp/NAME.html, the log in
# $tmp/NAME.log; shot URL PNG NAME: a screenshot. Each with its own profile.
dump_dom() {
  timeout 120 chromium "${flags[@]}" --user-data-dir="$tmp/profile-$2" --dump-dom "$1" \
    > "$tmp/$2.html" 2> "$tmp/$2.log"
}
shot() {
  rm -f "$2"
  timeout 120 chromium "${flags[@]}" --user-data-dir="$tmp/profile-$3" \
    --screenshot="$2" "$1" > "$tmp/$3.log" 2>&1
}
dump_dom "$url" dom
check_eq "dump-dom: exit 0" 0 "$?"
dom=$(cat "$tmp/dom.html")
check_contains "rendered: title" "<h1>drivebench report: 3 runs</h1>" "$dom"
check_eq "rendered: 3 bar charts" 3 "$(grep -o '<svg class="chart bar"' "$tmp/dom.html" | wc -l)"
# one drive time chart, one per-VM time chart per drive and run (2+1+2)
check_eq "rendered: 6 time charts" 6 "$(grep -o '<svg class="chart line"' "$tmp/dom.html" | wc -l)"
check_eq "rendered: no script element" 0 "$(grep -c '<script' "$tmp/dom.html")"
check_contains "rendered: the drive named like markup is text" \
  '<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>' "$dom"
check_eq "no console messages or script errors" "" \
  "$(grep -E 'CONSOLE|Uncaught|SyntaxError|Refused to' "$tmp/dom.log")"

shot "$url" "$PWD/$ART/report.png" shot
check_eq "screenshot: exit 0" 0 "$?"
check_eq "screenshot: no console messages or script errors" "" \
  "$(grep -E 'CONSOLE|Uncaught|SyntaxError|Refused to' "$tmp/shot.log")"
png=$(png_colours "$ART/report.png" 4e79a7 f28e2b 59a14f)
check_eq "screenshot: 1280x2000, many colours, the bar colours of runs A, B, C" \
  "1280 2000 many bars" "$png"

# --- a run with a failed VM, and a TPC-C run ---
out=$($DB report $F/report-failed $F/tpcc -o "$ART/report-failures.html"); rc=$?
check_eq "failures + TPC-C: exit 0" 0 "$rc"
check_eq "failures + TPC-C: CSV rows" 5 "$(wc -l < "$ART/report-failures.csv")"
check_eq "failures + TPC-C: report.csv status and failed_vms of the incomplete drive" \
  '"incomplete",1,,' "$(sed -n 2p "$ART/report-failures.csv" | cut -d, -f23-26)"
url="file://$PWD/$ART/report-failures.html"
dump_dom "$url" dom2
check_eq "failures: dump-dom exit 0" 0 "$?"
dom=$(cat "$tmp/dom2.html")
check_contains "failures: the banner" '<div class="banner" data-run="A" data-status="completed_with_failures">Run A (report-failed) completed with failures: 1 VM run(s) failed' "$dom"
check_contains "failures: the failed VM in red" '<tr data-run="A" data-drive="nvme-a" data-vm="drivebench-report-4vm--nvme-a-vm2" class="failed">' "$dom"
check_contains "failures: the console tail, escaped, in a <pre>" \
  '<pre class="console">[   12.345678] EXT4-fs error (device vdb): ext4_journal_check_start: Detected aborted journal
[   12.345999] &lt;db&gt; mariadbd: Disk is full' "$dom"
check_eq "failures: the incomplete drive's bar in each of the 3 drive charts" 3 \
  "$(grep -o '<g class="bar incomplete" data-label="nvme-a \[A\]"' "$tmp/dom2.html" | wc -l)"
check_contains "failures: the note on the bar" '247.76 (incomplete — not comparable)</text>' "$dom"
check_contains "failures: the note in the drive table" '<td data-key="status" data-value="incomplete" class="incomplete">incomplete — not comparable (1 VM run failed)</td>' "$dom"
check_eq "TPC-C: the tpmC chart (protocol P2: the TPC-C run differs from the sysbench one) and one p90 chart per drive" 3 \
  "$(grep -oE '<svg class="chart bar" id="chart-tp(mc-p2|cc-[0-9])"' "$tmp/dom2.html" | wc -l)"
check_contains "TPC-C: nvme-a's tpmC" 'data-key="tpmC" data-value="45480.448493">45480.45</td>' "$dom"
check_eq "failures: no console messages or script errors" "" \
  "$(grep -E 'CONSOLE|Uncaught|SyntaxError|Refused to' "$tmp/dom2.log")"
shot "$url" "$PWD/$ART/report-failures.png" shot2
check_eq "failures: screenshot exit 0" 0 "$?"
# the grey of the incomplete bar, the red border of the banner, run A's blue
check_eq "failures: screenshot shows the grey bar, the red banner and the bars" \
  "1280 2000 many bars" "$(png_colours "$ART/report-failures.png" b0b0b0 bb0000 4e79a7)"
# --- a sweep (issue 34): TPS and p99 against threads per drive, the knee marked ---
out=$($DB report $F/sweep-threads -o "$ART/report-sweep.html"); rc=$?
check_eq "sweep: exit 0, the page" "0 report: $ART/report-sweep.html" "$rc $out"
url="file://$PWD/$ART/report-sweep.html"
dump_dom "$url" dom5
check_eq "sweep: dump-dom exit 0" 0 "$?"
check_eq "sweep: a TPS and a p99 curve per drive" 4 \
  "$(grep -oE '<svg class="chart line" id="sweep-(tps|p99)-[01]"' "$tmp/dom5.html" | wc -l)"
check_eq "sweep: the knees marked (nvme-a at 32, sata-b at 16) on both curves" 4 \
  "$(grep -oE '<g class="mark" data-x="(32" data-label="knee: threads 32|16" data-label="knee: threads 16)"' "$tmp/dom5.html" | wc -l)"
check_eq "sweep: no console messages or script errors" "" \
  "$(grep -E 'CONSOLE|Uncaught|SyntaxError|Refused to' "$tmp/dom5.log")"
shot "$url" "$PWD/$ART/report-sweep.png" shot5
check_eq "sweep: screenshot exit 0" 0 "$?"
# the two drives' line colours and the knee marks' red
check_eq "sweep: the screenshot shows both curves and the knee marks" \
  "1280 2000 many bars" "$(png_colours "$ART/report-sweep.png" 4e79a7 f28e2b cc0000)"
# --- the ranking (issue 22): every fixture, one drive highlighted ---
rm -rf "$ART/ranking"
out=$($DB report --rank --highlight nvme-a --baseline sata-b -o "$ART/ranking" $F); rc=$?
check_eq "rank: exit 0" 0 "$rc"
check_eq "rank: what it printed" "P1: 3 drive(s) ranked from 4 run(s)
P2: 1 drive(s) ranked from 1 run(s); differs from P1 in engine
P3: 2 drive(s) ranked from 1 run(s); differs from P1 in workload, tables, table_size, warehouses, warmup_s, measure_s, boot_size_bytes, db_size_bytes, domain_type
ranking: $ART/ranking/rank.html
csv: $ART/ranking/rank.csv
svg: 10 file(s) in $ART/ranking" "$out"
url="file://$PWD/$ART/ranking/rank.html"
dump_dom "$url" dom3
check_eq "rank: dump-dom exit 0" 0 "$?"
check_eq "rank: 10 charts" 10 "$(grep -o '<svg class="chart rank"' "$tmp/dom3.html" | wc -l)"
check_eq "rank: whiskers on the 2 drives with 3 repetitions in P1's 3 charts" 6 \
  "$(grep -o '<line class="whisker"' "$tmp/dom3.html" | wc -l)"
check_eq "rank: the highlighted bar in each chart" 10 \
  "$(grep -o '<g class="bar highlight" data-label="nvme-a"' "$tmp/dom3.html" | wc -l)"
check_eq "rank: no console messages or script errors" "" \
  "$(grep -E 'CONSOLE|Uncaught|SyntaxError|Refused to' "$tmp/dom3.log")"
shot "$url" "$PWD/$ART/ranking.png" shot3
check_eq "rank: screenshot exit 0" 0 "$?"
check_eq "rank: screenshot shows the highlighted and the other bars" \
  "1280 2000 many bars" "$(png_colours "$ART/ranking.png" f28e2b 4e79a7)"
# a standalone chart, as an article would embed it
shot "file://$PWD/$ART/ranking/p1-tps.svg" "$PWD/$ART/ranking-p1-tps.png" shot4
check_eq "rank: standalone SVG screenshot exit 0" 0 "$?"
check_eq "rank: the standalone SVG renders its bars" "1280 2000 many bars" \
  "$(png_colours "$ART/ranking-p1-tps.png" f28e2b 4e79a7)"
check_eq "rank: standalone SVG: no console messages" "" \
  "$(grep -E 'CONSOLE|Uncaught|SyntaxError|Refused to|error on line' "$tmp/shot4.log")"
check_summary
