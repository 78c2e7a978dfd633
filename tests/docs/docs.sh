#!/usr/bin/env bash
# tests/docs/docs.sh — the front door's rules (tests/docs/check_docs.py):
# on this checkout, then on a small planted tree where each rule must
# fail with its exact line. No server, no network (make check).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
check=$here/check_docs.py
fails=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

out=$(python3 "$check" "$top" 2>&1) && ok "this checkout: $out" || bad "this checkout: $out"

tmp=$(mktemp -d /tmp/drivebench-docs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# a tree that passes: README -> docs/a.md -> docs/b.md#second-part, a folder, a URL
plant() {
  rm -rf "$tmp/t"; mkdir -p "$tmp/t/docs" "$tmp/t/tests/docs" "$tmp/t/plans"
  cat >"$tmp/t/README.md" <<'MD'
# Tool
See [the manual](docs/a.md) ([b](docs/b.md)), [plans](plans/), [upstream](https://example.org/x.md)
and `[not a link](nowhere.md)`.
MD
  printf '# A\n\nOld intro\n\n[b](b.md#second-part) and [self](#a)\n' >"$tmp/t/docs/a.md"
  printf '# B\n\n## Second part\n\nText.\n' >"$tmp/t/docs/b.md"
  printf '# homes\nOld intro\tdocs/a.md\nSecond part\tdocs/b.md\n' >"$tmp/t/tests/docs/homes.txt"
}
# expect ROOT's check to fail with exactly the line $1
expect_fail() {
  local want=$1 got rc
  got=$(python3 "$check" "$tmp/t" 2>&1); rc=$?
  if [ "$rc" = 1 ] && [ "$got" = "$want" ]; then ok "planted: $want"
  else bad "planted: want exit 1 and '$want', got exit $rc and '$got'"; fi
}
plant
got=$(python3 "$check" "$tmp/t" 2>&1) \
  && [ "$got" = "check_docs: README.md 139 bytes; 3 files reached, 5 links resolved; 2 old sections found in their homes" ] \
  && ok "planted tree passes: $got" || bad "planted tree: $got"

plant; sed -i 's/b.md#second-part/c.md/' "$tmp/t/docs/a.md"
expect_fail "check_docs: docs/a.md: link c.md: no such file"
plant; sed -i 's/#second-part/#third-part/' "$tmp/t/docs/a.md"
expect_fail "check_docs: docs/a.md: link b.md#third-part: no heading #third-part in docs/b.md"
plant; echo 'Fixed in issue 12.' >>"$tmp/t/docs/b.md"
expect_fail 'check_docs: docs/b.md:6: names an issue number ("issue 12"): say what it is instead'
plant; head -c 16400 /dev/zero | tr '\0' 'x' >>"$tmp/t/README.md"
expect_fail "check_docs: README.md: 16539 bytes, more than 16384"
plant; printf 'Lost section\tdocs/b.md\n' >>"$tmp/t/tests/docs/homes.txt"
expect_fail 'check_docs: homes.txt:4: the section "Lost section" is not in docs/b.md'
plant; printf '# Orphan\n' >"$tmp/t/docs/orphan.md"
expect_fail "check_docs: docs/orphan.md: no link from README.md reaches it"
plant; sed -i 's|docs/a.md|../outside.md|' "$tmp/t/README.md"
expect_fail "check_docs: README.md: link ../outside.md leaves the checkout
check_docs: docs/a.md: no link from README.md reaches it
check_docs: homes.txt:2: Old intro: docs/a.md is not reached from README.md"

[ "$fails" = 0 ] && echo "docs: PASS" || { echo "docs: $fails failure(s)"; exit 1; }
