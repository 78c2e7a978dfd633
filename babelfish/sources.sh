#!/usr/bin/env bash
# babelfish/sources.sh — find, fetch and check the Babelfish sources that
# babelfish/build.sh builds from, by their content.
#
#   babelfish/sources.sh                  prints the folder holding every source, checked
#   babelfish/sources.sh unpack SRC DIR   unpacks each source from folder SRC into DIR
#                                         (its files that count only, checked again)
#   babelfish/sources.sh tree FILE PATHS  prints the tree hash of archive FILE (below)
#
# sources.txt (BABELFISH_SOURCES) names each source: the FILE it is kept
# as, its TREE hash, the PATHS that count, and the URL it comes from. The
# sources are found in BABELFISH_SRC when set, else in ../shared/babelfish
# beside the checkout, else in $DRIVEBENCH_CACHE/babelfish-sources (default
# /var/cache/drivebench), where the ones missing are downloaded first
# (one attempt each; curl gives up on a connection after 5 s). When none
# holds them and a download fails or is not the pinned source, one line
# says what to fetch and where, exit 3 (tests skip on it, CI fails); a
# BABELFISH_SRC that does not hold them: one line, exit 1.
#
# A tree hash is the content the build uses, whatever the archive's
# packing (tar.gz or zip, its top folder's name, its timestamps, the files
# it holds that do not count): the archive is unpacked, its one top folder
# is the root, and of the regular files below it those whose path matches
# PATHS count; each gives a line "SHA256 X PATH" (X: x when its owner may
# execute it, else -), the lines sorted by PATH (bytes, LC_ALL=C), and the
# tree hash is the SHA-256 of those lines. PATHS is a comma-separated list:
# `*` every file, `DIR/` every file below DIR, `NAME` that file, `!DIR/` or
# `!NAME` none of those (exclusions win). So a trimmed repack (the shared
# copies) and the upstream archive it was made from give the same hash.
#
# This script is not part of build.sh's cache key (the pinned hashes and
# build.sh are): where sources are found changes no installed tree.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
cache=${DRIVEBENCH_CACHE:-/var/cache/drivebench}
sources=${BABELFISH_SOURCES:-$here/sources.txt}
me="babelfish/sources.sh"

die() { echo "$me: $*" >&2; exit 1; }
[ -f "$sources" ] || die "$sources is missing"
sources=$(cd "$(dirname "$sources")" && pwd)/$(basename "$sources")

# the sources: "FILE TREE PATHS URL" lines
entries() { awk '!/^#/ && NF == 4' "$sources"; }

# unpack_counted ARCHIVE PATHS DIR: unpack into the empty folder DIR, keep
# the files that count (and the folders holding them, or empty in the
# archive); prints the top folder's path. 1 after saying why
# on stderr (no message on a failed unpack: tar's or unzip's own).
unpack_counted() {
  local archive=$1 paths=$2 dir=$3 tops
  mkdir -p "$dir"
  if [ "$(head -c 2 "$archive")" = PK ]; then
    unzip -q -d "$dir" "$archive" >/dev/null || return 1
  else
    tar -C "$dir" -xzf "$archive" || return 1
  fi
  tops=$(find "$dir" -mindepth 1 -maxdepth 1 -printf '%f\n')
  if [ "$(wc -l <<<"$tops")" != 1 ] || [ ! -d "$dir/$tops" ]; then
    echo "$me: $archive does not hold one top folder" >&2
    return 1
  fi
  (cd "$dir/$tops" && find . -type f -printf '%P\n' | awk -v rule="$paths" '
     function counted(p,   n, i, it, inc) {
       n = split(rule, item, ","); inc = 0
       for (i = 1; i <= n; i++) {
         it = item[i]
         if (substr(it, 1, 1) == "!") {
           it = substr(it, 2)
           if (p == it || (it ~ /\/$/ && index(p, it) == 1)) return 0
         } else if (it == "*" || p == it || (it ~ /\/$/ && index(p, it) == 1))
           inc = 1
       }
       return inc
     }
     !counted($0) { print }' >"$dir.pruned"
   xargs -r -d '\n' -a "$dir.pruned" rm -f --
   # and the folders that held nothing else (none that was empty before)
   sed -n 's|/[^/]*$||p' "$dir.pruned" | LC_ALL=C sort -ru |
     xargs -r -d '\n' rmdir -p --ignore-fail-on-non-empty -- 2>/dev/null || true)
  rm -f "$dir.pruned"
  echo "$dir/$tops"
}

# tree_of DIR: the tree hash of the files below DIR
tree_of() {
  (cd "$1" && find . -type f -printf '%P\n' | LC_ALL=C sort >"$1.list" &&
   find . -type f -perm -u=x -printf '%P\n' >"$1.exec" &&
   xargs -r -d '\n' -a "$1.list" sha256sum -- |
     awk 'FILENAME == ARGV[1] { x[$0] = 1; next }
          { p = substr($0, 67); print substr($0, 1, 64), (p in x ? "x" : "-"), p }' "$1.exec" - |
     sha256sum | cut -d' ' -f1
   rm -f "$1.list" "$1.exec")
}

# tree FILE PATHS: prints the archive's tree hash
tree() {
  local tmp d rc=0
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/babelfish-tree.XXXXXX")
  d=$(unpack_counted "$1" "$2" "$tmp/u") && tree_of "$d" || rc=1
  rm -rf "$tmp"
  return $rc
}

# check FILE TREE PATHS: whether archive FILE holds the pinned tree
check() {
  [ -f "$1" ] && [ "$(tree "$1" "$3" 2>/dev/null)" = "$2" ]
}

# whether folder $1 holds every source, as pinned
has_sources() {
  local file tree paths url
  [ -d "$1" ] || return 1
  while read -r file tree paths url; do
    check "$1/$file" "$tree" "$paths" || return 1
  done < <(entries)
}

# no sources anywhere: what to fetch and where, in one line; exit 3
no_sources() {
  local urls
  urls=$(entries | awk '{ printf "%s%s", s, $4; s = ", " }')
  echo "$me: no Babelfish sources: BABELFISH_SRC is unset, $top/../shared/babelfish does not hold them, and $1; fetch $urls into $src under the names of $sources (or set BABELFISH_SRC to a folder holding them)" >&2
  exit 3
}

find_sources() {
  if [ -n "${BABELFISH_SRC:-}" ]; then
    src=$BABELFISH_SRC
    has_sources "$src" || die "BABELFISH_SRC=$src does not hold the sources $sources names, with those tree hashes"
  elif has_sources "$top/../shared/babelfish"; then
    src=$top/../shared/babelfish
  else
    # download what is missing into the cache's folder, each archive
    # checked before it takes its name; one attempt: no network fails at once
    src=$cache/babelfish-sources
    mkdir -p "$src" 2>/dev/null || no_sources "$src cannot be created"
    while read -r file tree paths url; do
      check "$src/$file" "$tree" "$paths" && continue
      why=
      if ! out=$(curl -fsSL --connect-timeout 5 --max-time 900 -o "$src/$file.part" "$url" 2>&1); then
        why="downloading $url failed (${out:-curl exit status})"
      elif got=$(tree "$src/$file.part" "$paths" 2>/dev/null) && [ "$got" = "$tree" ]; then
        :
      else
        why="$url is not the source pinned in $sources (its tree, $paths, hashes to ${got:-nothing: it does not unpack}, pinned $tree)"
      fi
      if [ -n "$why" ]; then
        rm -f "$src/$file.part"
        no_sources "$why"
      fi
      mv -f "$src/$file.part" "$src/$file"
    done < <(entries)
  fi
  (cd "$src" && pwd)
}

# unpack SRC DIR: each source, its counted files, checked once more
unpack_all() {
  local file tree paths url d
  while read -r file tree paths url; do
    d=$(mktemp -d "$2/unpack.XXXXXX")
    top_dir=$(unpack_counted "$1/$file" "$paths" "$d") || die "cannot unpack $1/$file"
    [ "$(tree_of "$top_dir")" = "$tree" ] || die "$1/$file changed since it was checked"
    [ ! -e "$2/$(basename "$top_dir")" ] || die "two sources unpack to $(basename "$top_dir")"
    mv "$top_dir" "$2/"
    rmdir "$d"
  done < <(entries)
}

case "${1:-}" in
  '') find_sources ;;
  unpack) [ $# = 3 ] || die "usage: sources.sh unpack SRC DIR"; unpack_all "$2" "$3" ;;
  tree) [ $# = 3 ] || die "usage: sources.sh tree FILE PATHS"; tree "$2" "$3" ;;
  *) die "usage: sources.sh [unpack SRC DIR | tree FILE PATHS]" ;;
esac
