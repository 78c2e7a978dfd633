#!/usr/bin/env bash
# make compile_commands.json (build-aux/compile-commands.py): one entry
# for every C file the build compiles (all but bench/'s, which the build
# does not), each the build's own command, which compiles the file as it
# stands (checked with -fsyntax-only on two of them). Run from the
# repository root.
set -u
tmp=$(mktemp -d /tmp/compile-commands-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/check.sh
# a make of its own, not the jobserver of the make check that runs this
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s compile_commands.json COMPILE_COMMANDS="$tmp/cc.json" \
  >"$tmp/out" 2>&1
check_eq "make compile_commands.json: exit and output" "0 " "$? $(cat "$tmp/out")"
check_eq "one entry a C file of the build" \
  "$(git ls-files '*.c' | grep -v '^bench/' | LC_ALL=C sort)" \
  "$(python3 -c 'import json,sys; [print(e["file"]) for e in json.load(open(sys.argv[1]))]' "$tmp/cc.json" \
     | LC_ALL=C sort)"
check_eq "every entry in this folder, by the build's compiler" "$PWD cc" \
  "$(python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))
print(" ".join(sorted({x["directory"] for x in e})), " ".join(sorted({x["arguments"][0] for x in e})))' "$tmp/cc.json")"
for f in oltp/main.c orchestrator/virt/monitor.c; do
  python3 - "$tmp/cc.json" "$f" >"$tmp/cmd" <<'PY'
import json, sys, shlex
e = [e for e in json.load(open(sys.argv[1])) if e["file"] == sys.argv[2]][0]
a = e["arguments"]
i = a.index("-o")
a = [x for x in a[:i] + a[i + 2:] if x not in ("-MMD", "-MP")]   # no .d file left here
print(shlex.join(a + ["-fsyntax-only"]))
PY
  bash -c "$(cat "$tmp/cmd")" >"$tmp/cc.out" 2>&1
  check_eq "$f: its command compiles it" "0 " "$? $(cat "$tmp/cc.out")"
done
check_summary
