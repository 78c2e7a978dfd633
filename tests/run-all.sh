#!/usr/bin/env bash
# Run each test program or script given on the command line, in order, and
# print one closing line "N passed, N failed, N skipped". Exit non-zero if
# any failed. A test is an executable: a cmocka binary or a shell script; it
# passes when it exits 0 and is skipped when it exits 77 (Automake's
# convention: it could not run here, and says why); any other status fails.
# Its output is shown as it runs.
set -u
pass=0; fail=0; skip=0; failed=(); skipped=()
for t in "$@"; do
  echo "=== $t"
  start=$(date +%s)
  "./$t"; rc=$?
  case $rc in
    0)  pass=$((pass+1)); r=ok ;;
    77) skip=$((skip+1)); skipped+=("$t"); r=SKIPPED ;;
    *)  fail=$((fail+1)); failed+=("$t"); r="FAILED (exit $rc)" ;;
  esac
  echo "=== $t: $r ($(( $(date +%s) - start ))s)"
done
[ ${#skipped[@]} -gt 0 ] && printf 'skipped: %s\n' "${skipped[@]}"
[ ${#failed[@]} -gt 0 ] && printf 'failed: %s\n' "${failed[@]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
