#!/usr/bin/env bash
# tests/run-all.sh itself: the closing counts, exit 77 as skipped, the
# exit status, and the failed tests' last lines shown again before the
# closing line (CI keeps only a log's tail), one by one and with RUN_JOBS.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "test_run_all: FAIL: $*" >&2; exit 1; }
printf '#!/bin/sh\necho ok-one\n' >pass.sh
printf '#!/bin/sh\necho why-skipped; exit 77\n' >skip.sh
printf '#!/bin/sh\necho FAIL - first; for i in 1 2 3 4 5; do echo line$i; done; echo to-stderr >&2; exit 3\n' >fail.sh
chmod +x pass.sh skip.sh fail.sh
want_tail=$(printf '%s\n' '--- fail.sh (exit 3): its first failure lines ---' 'FAIL - first' \
  '--- fail.sh (exit 3): its last 3 lines ---' line4 line5 to-stderr \
  'skipped: skip.sh' 'failed: fail.sh' '1 passed, 1 failed, 1 skipped')
for jobs in 1 3; do
  rc=0; RUN_JOBS=$jobs RUN_FAIL_TAIL=3 "$top/tests/run-all.sh" pass.sh fail.sh skip.sh >out 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "RUN_JOBS=$jobs: exit $rc, want 1"
  got=$(tail -n 9 out)
  [ "$got" = "$want_tail" ] || fail "RUN_JOBS=$jobs: the closing lines:"$'\n'"$got"
  grep -qx '=== fail.sh: FAILED (exit 3) ([0-9]*s)' out || fail "RUN_JOBS=$jobs: no FAILED line: $(cat out)"
  # each test's whole output shown once as it ran, then the tail again
  [ "$(grep -c '^line1$' out)" = 1 ] && [ "$(grep -c '^line5$' out)" = 2 ] \
    || fail "RUN_JOBS=$jobs: output shown: $(cat out)"
done
rc=0; "$top/tests/run-all.sh" pass.sh skip.sh >out 2>&1 || rc=$?
[ "$rc" = 0 ] && [ "$(tail -n 1 out)" = '1 passed, 0 failed, 1 skipped' ] && ! grep -q '^---' out \
  || fail "no failure: exit $rc: $(cat out)"
echo "test_run_all: ok (counts, exit status, the failed test's last lines again at the end)"
