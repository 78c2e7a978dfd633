#!/usr/bin/env bash
# Run each test program or script given on the command line and print one
# closing line "N passed, N failed, N skipped". Exit non-zero if any
# failed. A test is an executable: a cmocka binary or a shell script; it
# passes when it exits 0 and is skipped when it exits 77 (Automake's
# convention: it could not run here, and says why); any other status fails.
#
# RUN_JOBS=N (default 1) runs up to N tests at once (make check: the
# suites are independent, each in temporary folders of its own, and most
# of their time is waiting, not CPU); each test's output is shown whole,
# in the order given, as soon as it and those before it have ended. With
# 1, a test's output is shown as it runs.
#
# Every failed test's first 10 lines with FAIL or ERROR and its last lines
# (RUN_FAIL_TAIL, default 40) are shown again just before the closing
# line: a log read from its end, as CI's is, then shows why a test
# failed, not only that it did.
set -u
tail_n=${RUN_FAIL_TAIL:-40}
jobs=${RUN_JOBS:-1}
pass=0; fail=0; skip=0; failed=(); skipped=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one test: its output in $tmp/I.out, then "STATUS SECONDS" in $tmp/I.rc
run_one() {
  local i=$1 t=$2 start rc
  start=$(date +%s)
  "./$t"; rc=$?
  echo "$rc $(( $(date +%s) - start ))" >"$tmp/$i.rc.part" && mv "$tmp/$i.rc.part" "$tmp/$i.rc"
}

tests=("$@")
report() {
  local i=$1 t=${tests[$1]} rc secs r
  read -r rc secs <"$tmp/$i.rc"
  case $rc in
    0)  pass=$((pass+1)); r=ok ;;
    77) skip=$((skip+1)); skipped+=("$t"); r=SKIPPED ;;
    *)  fail=$((fail+1)); failed+=("$t"); r="FAILED (exit $rc)" ;;
  esac
  echo "=== $t: $r (${secs}s)"
}

if [ "$jobs" -le 1 ]; then
  for i in "${!tests[@]}"; do
    echo "=== ${tests[$i]}"
    # (a process substitution, not a pipe: a daemon a test leaves running
    # with its output would hold a pipe open and the loop with it)
    run_one "$i" "${tests[$i]}" > >(tee "$tmp/$i.out") 2>&1
    report "$i"
  done
else
  next=0; shown=0; running=0
  while [ "$shown" -lt ${#tests[@]} ]; do
    while [ "$running" -lt "$jobs" ] && [ "$next" -lt ${#tests[@]} ]; do
      run_one "$next" "${tests[$next]}" >"$tmp/$next.out" 2>&1 &
      next=$((next+1)); running=$((running+1))
    done
    # show, in order, every test that has ended
    while [ "$shown" -lt "$next" ] && [ -f "$tmp/$shown.rc" ]; do
      echo "=== ${tests[$shown]}"
      cat "$tmp/$shown.out"
      report "$shown"
      shown=$((shown+1))
    done
    [ "$shown" -lt ${#tests[@]} ] || break
    wait -n 2>/dev/null
    running=$(jobs -rp | wc -l)
  done
  wait
fi
for i in "${!tests[@]}"; do
  read -r rc _ <"$tmp/$i.rc"
  case $rc in 0|77) continue ;; esac
  # a suite that goes on after a failure ends with lines that passed:
  # its first failure lines too (cmocka's, the scripts' FAIL, ERROR)
  if grep -qE 'FAIL|ERROR' "$tmp/$i.out"; then
    echo "--- ${tests[$i]} (exit $rc): its first failure lines ---"
    grep -E 'FAIL|ERROR' "$tmp/$i.out" | head -n 10
  fi
  echo "--- ${tests[$i]} (exit $rc): its last $tail_n lines ---"
  tail -n "$tail_n" "$tmp/$i.out"
done
[ ${#skipped[@]} -gt 0 ] && printf 'skipped: %s\n' "${skipped[@]}"
[ ${#failed[@]} -gt 0 ] && printf 'failed: %s\n' "${failed[@]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
