#!/usr/bin/env python3
"""compile_commands.json for editors (clangd, ccls) from the build's own
rules: `make compile_commands.json` pipes `make -Bn` (every command the
build would run, nothing run) into this script, which keeps each call of
the compiler ($1) on a .c file, in the order make gives. The JSON goes to
standard output."""
import json
import os
import shlex
import sys


def main():
    cc = sys.argv[1]
    top = os.getcwd()
    entries, seen = [], set()
    for line in sys.stdin.read().replace("\\\n", " ").splitlines():
        try:
            args = shlex.split(line)
        except ValueError:
            continue
        if not args or args[0] != cc:
            continue
        sources = [a for a in args[1:] if a.endswith(".c") and os.path.isfile(a)]
        if len(sources) != 1 or sources[0] in seen:
            continue
        seen.add(sources[0])
        entries.append({"directory": top, "file": sources[0], "arguments": args})
    if not entries:
        sys.exit("compile-commands.py: no compiler call on a .c file in make's output")
    json.dump(entries, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
