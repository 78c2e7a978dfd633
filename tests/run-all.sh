#!/usr/bin/env bash
# Run each test program or script given on the command line, in order, and
# print one closing line "N passed, N failed". Exit non-zero if any failed.
# A test is an executable: a cmocka binary or a shell script; it passes when
# it exits 0. Its output is shown as it runs.
set -u
pass=0; fail=0; failed=()
for t in "$@"; do
  echo "=== $t"
  start=$(date +%s)
  if "./$t"; then pass=$((pass+1)); r=ok; else fail=$((fail+1)); failed+=("$t"); r=FAILED; fi
  echo "=== $t: $r ($(( $(date +%s) - start ))s)"
done
[ ${#failed[@]} -gt 0 ] && printf 'failed: %s\n' "${failed[@]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
