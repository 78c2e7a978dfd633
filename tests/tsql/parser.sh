#!/usr/bin/env bash
# The T-SQL parser of tests/tsql/check.sh (grammars-v4's TSqlParser from
# the npm packages pinned by package-lock.json), kept out of the tree in
# a cache so that make check never reaches the network:
#
#   tests/tsql/parser.sh dir       print the node_modules folder check.sh uses
#   tests/tsql/parser.sh install   install it there unless it is (npm ci:
#                                  the registry once; .ci/run and make run
#                                  call this at setup time)
#
# The folder is keyed by the lock file's hash, so a new lock installs anew:
# $DRIVEBENCH_CACHE (default /var/cache/drivebench when it is writable, else
# ~/.cache/drivebench)/tsql-parser-HASH/node_modules.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${DRIVEBENCH_CACHE:-}
if [ -z "$cache" ]; then
  if [ -w /var/cache/drivebench ] || { [ ! -e /var/cache/drivebench ] && [ -w /var/cache ]; }; then
    cache=/var/cache/drivebench
  else
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/drivebench
  fi
fi
hash=$(sha256sum <"$here/package-lock.json" | cut -c1-16)
dir=$cache/tsql-parser-$hash
case ${1:-} in
  dir) echo "$dir/node_modules" ;;
  install)
    if [ -f "$dir/node_modules/.complete" ]; then
      echo "tsql parser: already in $dir/node_modules"; exit 0
    fi
    command -v npm >/dev/null || { echo "tsql parser: npm is missing (Debian: npm, or NodeSource's nodejs)" >&2; exit 1; }
    mkdir -p "$cache"
    tmp=$(mktemp -d "$cache/tsql-parser-tmp.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    cp "$here/package.json" "$here/package-lock.json" "$tmp/"
    (cd "$tmp" && npm ci --no-audit --no-fund --loglevel=error)
    touch "$tmp/node_modules/.complete"
    rm -rf "$dir"; mv "$tmp" "$dir"; trap - EXIT
    echo "tsql parser: installed in $dir/node_modules" ;;
  *) echo "usage: tests/tsql/parser.sh dir|install" >&2; exit 2 ;;
esac
