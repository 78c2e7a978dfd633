# tests/lib/check.sh — assertions for shell tests. Source it; each check
# prints "ok"/"FAIL" with its name; check_summary prints the count line and
# returns non-zero when any check failed.
CHECK_PASS=0
CHECK_FAIL=0

# A message has one owner: a line that repeats a part of itself ("cannot
# run x: cannot run x: why") fails whatever check saw it.
CHECK_DOUBLED=$'(^|: |\n)([^:\n]+): \\2: '
check_doubled() {  # check_doubled NAME ACTUAL
  if [[ $2 =~ $CHECK_DOUBLED ]]; then
    CHECK_FAIL=$((CHECK_FAIL+1)); echo "FAIL $1: a message repeats \"${BASH_REMATCH[2]}\""; echo "     actual:   $2"
    return 1
  fi
}

check_eq() {  # check_eq NAME EXPECTED ACTUAL
  check_doubled "$1" "$3" || return 0
  if [ "$2" = "$3" ]; then
    CHECK_PASS=$((CHECK_PASS+1)); echo "ok   $1"
  else
    CHECK_FAIL=$((CHECK_FAIL+1)); echo "FAIL $1"; echo "     expected: $2"; echo "     actual:   $3"
  fi
}

check_contains() {  # check_contains NAME NEEDLE HAYSTACK
  check_doubled "$1" "$3" || return 0
  case "$3" in
    *"$2"*) CHECK_PASS=$((CHECK_PASS+1)); echo "ok   $1" ;;
    *) CHECK_FAIL=$((CHECK_FAIL+1)); echo "FAIL $1"; echo "     expected to contain: $2"; echo "     actual: $3" ;;
  esac
}

check_summary() {
  echo "$CHECK_PASS passed, $CHECK_FAIL failed"
  [ "$CHECK_FAIL" -eq 0 ]
}
