# tests/lib/check.sh — assertions for shell tests. Source it; each check
# prints "ok"/"FAIL" with its name; check_summary prints the count line and
# returns non-zero when any check failed.
CHECK_PASS=0
CHECK_FAIL=0

check_eq() {  # check_eq NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    CHECK_PASS=$((CHECK_PASS+1)); echo "ok   $1"
  else
    CHECK_FAIL=$((CHECK_FAIL+1)); echo "FAIL $1"; echo "     expected: $2"; echo "     actual:   $3"
  fi
}

check_contains() {  # check_contains NAME NEEDLE HAYSTACK
  case "$3" in
    *"$2"*) CHECK_PASS=$((CHECK_PASS+1)); echo "ok   $1" ;;
    *) CHECK_FAIL=$((CHECK_FAIL+1)); echo "FAIL $1"; echo "     expected to contain: $2"; echo "     actual: $3" ;;
  esac
}

check_summary() {
  echo "$CHECK_PASS passed, $CHECK_FAIL failed"
  [ "$CHECK_FAIL" -eq 0 ]
}
