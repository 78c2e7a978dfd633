#!/usr/bin/env bash
# babelfish/build.sh's own steps, in seconds, on stand-in sources (issue
# 43): three tiny tarballs laid out as the real ones (a "PostgreSQL fork"
# whose configure writes a Makefile that needs make's built-in rules, as
# PostgreSQL's does: archive.o from archive.c; ANTLR's runtime with its
# CMakeLists.txt; the four extensions) with their own pinned tree hashes
# and download addresses (BABELFISH_SOURCES, file:// URLs: no network).
# Checks:
#   - started from inside a make that has --no-builtin-rules and a
#     command-line variable (as `make test WERROR=-Werror`), the build
#     succeeds and its makes saw no MAKEFLAGS (on main: "No rule to make
#     target 'archive.o'");
#   - the sources come from BABELFISH_SRC; a BABELFISH_SRC without them
#     is refused; without either (nor ../shared) they are downloaded into
#     the cache, checked, and built; a download that fails, or a file
#     that is not the pinned one, gives one line naming what to fetch and
#     where, exit 3, and nothing left under the pinned names;
#   - a finished tree is reused without any sources;
#   - the pins are of content (babelfish/sources.sh): a stand-in
#     "upstream" archive made from ../shared/babelfish's ANTLR runtime
#     with another top folder and an extra doc/ file, through file://, is
#     accepted with the tree hash babelfish/sources.txt pins for the
#     shared copy; one with a changed file is refused in one line naming
#     it (skipped without ../shared/babelfish).
# Run from the repository root.
set -u
top=$PWD
tmp=$(mktemp -d /tmp/babelfish-build-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); echo "ok   - $1"; }
bad() { fail=$((fail+1)); echo "FAIL - $1"; }
for t in cmake make cc unzip; do
  command -v $t >/dev/null || { echo "SKIP: $t is not installed (babelfish/deps.txt)"; exit 77; }
done

# --- the stand-in sources --------------------------------------------------------
s=$tmp/stage
mkdir -p "$s/postgresql-fake/contrib" "$s/babelfish_extensions-fake/contrib" "$s/antlr4-fake/runtime/Cpp/runtime/src"
cat > "$s/postgresql-fake/configure" <<'EOF'
#!/bin/sh
for a in "$@"; do case $a in --prefix=*) echo "prefix = ${a#--prefix=}" > Makefile.conf ;; esac; done
EOF
chmod +x "$s/postgresql-fake/configure"
echo 'int pg_archive(void) { return 0; }' > "$s/postgresql-fake/archive.c"
printf '%s\n' 'include Makefile.conf' 'all: libpgcommon.a' \
  'libpgcommon.a: archive.o' '	ar rcs $@ $^' \
  'install: libpgcommon.a' '	mkdir -p $(prefix)/bin $(prefix)/lib' \
  '	cp libpgcommon.a $(prefix)/lib/' "	printf '%s' '\$(MAKEFLAGS)' > \$(prefix)/makeflags" \
  > "$s/postgresql-fake/Makefile"
printf 'all:\ninstall:\n' > "$s/postgresql-fake/contrib/Makefile"
for e in money common tds tsql; do
  mkdir -p "$s/babelfish_extensions-fake/contrib/babelfishpg_$e"
  printf 'all:\ninstall:\n' > "$s/babelfish_extensions-fake/contrib/babelfishpg_$e/Makefile"
done
t=$s/babelfish_extensions-fake/contrib/babelfishpg_tsql/antlr
mkdir -p "$t/thirdparty/antlr"
: > "$t/thirdparty/antlr/antlr-4.9.3-complete.jar"
echo 'SET (MYDIR /usr/local/include/antlr4-runtime/)' > "$t/CMakeLists.txt"
cat > "$s/antlr4-fake/runtime/Cpp/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(fake NONE)
add_custom_target(antlr4_shared
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_SOURCE_DIR}/dist
  COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_SOURCE_DIR}/dist/libantlr4-runtime.so)
EOF
echo '// the runtime' > "$s/antlr4-fake/runtime/Cpp/runtime/src/antlr4-runtime.h"
src=$tmp/src
mkdir -p "$src"
tar -C "$s" -czf "$src/postgresql-BABEL_0__PG_0.tar.gz" postgresql-fake
tar -C "$s" -czf "$src/babelfish_extensions-BABEL_0.tar.gz" babelfish_extensions-fake
tar -C "$s" -czf "$src/antlr4-cpp-runtime-0.tar.gz" antlr4-fake
# the pins: every file of each stand-in counts, but a doc/ the ANTLR one lacks
pin() { echo "$(basename "$1") $("$top/babelfish/sources.sh" tree "$1" "$2") $2 file://$1"; }
{ pin "$src/postgresql-BABEL_0__PG_0.tar.gz" '*,!doc/'
  pin "$src/babelfish_extensions-BABEL_0.tar.gz" 'contrib/'
  pin "$src/antlr4-cpp-runtime-0.tar.gz" 'runtime/Cpp/'; } > "$tmp/sources.txt"
export BABELFISH_SOURCES=$tmp/sources.txt
[ "$(grep -c ' [0-9a-f]\{64\} ' "$tmp/sources.txt")" = 3 ] || { echo "FAIL - sources.sh tree: $(cat "$tmp/sources.txt")"; exit 1; }

# build.sh from inside a make with the top Makefile's flags
cat > "$tmp/Makefile" <<EOF
MAKEFLAGS += --no-builtin-rules
all:
	"$top/babelfish/build.sh" >"$tmp/out" 2>"$tmp/err"
EOF
inside_make() { make -s -f "$tmp/Makefile" WERROR=-Werror >/dev/null 2>&1; }

# --- BABELFISH_SRC, inside make -----------------------------------------------------
DRIVEBENCH_CACHE=$tmp/cache BABELFISH_SRC=$src inside_make; st=$?
prefix=$(cat "$tmp/out")
[ $st = 0 ] && [ -f "$prefix/.complete" ] && [ -f "$prefix/lib/libpgcommon.a" ] \
  && ok "built from BABELFISH_SRC inside make --no-builtin-rules" \
  || { bad "build inside make: exit $st"; tail -5 "$tmp/err"; tail -5 "$tmp/cache"/*.log; }
# (w: make -C's own --print-directory, all that its command line gives)
[ -f "$prefix/makeflags" ] && [ "$(cat "$prefix/makeflags")" = "w" ] \
  && ok "its makes saw none of the outer make's MAKEFLAGS" || bad "its makes saw MAKEFLAGS '$(cat "$prefix/makeflags" 2>/dev/null)'"
[ -f "$prefix/lib/libantlr4-runtime.so" ] && [ -f "$prefix/include/antlr4-runtime/antlr4-runtime.h" ] \
  && ok "the ANTLR runtime installed beside it" || bad "no ANTLR runtime in $prefix"

# a finished tree: reused, no sources needed
DRIVEBENCH_CACHE=$tmp/cache BABELFISH_SRC=$tmp/nowhere "$top/babelfish/build.sh" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 0 ] && [ "$(cat "$tmp/out")" = "$prefix" ] && [ ! -s "$tmp/err" ] \
  && ok "a finished tree is reused at once, without sources" || { bad "reuse: exit $st"; cat "$tmp/err"; }

# a BABELFISH_SRC without them
mkdir -p "$tmp/empty"
DRIVEBENCH_CACHE=$tmp/cache2 BABELFISH_SRC=$tmp/empty "$top/babelfish/build.sh" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 1 ] && [ "$(cat "$tmp/err")" = "babelfish/sources.sh: BABELFISH_SRC=$tmp/empty does not hold the sources $BABELFISH_SOURCES names, with those tree hashes" ] \
  && ok "a BABELFISH_SRC without the sources is refused (exit 1)" || { bad "empty BABELFISH_SRC: exit $st"; cat "$tmp/err"; }

# --- downloaded into the cache ------------------------------------------------------
DRIVEBENCH_CACHE=$tmp/cache3 "$top/babelfish/build.sh" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 0 ] && [ -f "$(cat "$tmp/out")/.complete" ] \
  && cmp -s "$tmp/cache3/babelfish-sources/antlr4-cpp-runtime-0.tar.gz" "$src/antlr4-cpp-runtime-0.tar.gz" \
  && ok "without BABELFISH_SRC nor ../shared: downloaded, checked, built" \
  || { bad "download: exit $st"; tail -5 "$tmp/err"; }

# a download that fails
sed "s|file://$src/antlr|file://$tmp/missing/antlr|" "$tmp/sources.txt" > "$tmp/sources-bad.txt"
DRIVEBENCH_CACHE=$tmp/cache4 BABELFISH_SOURCES=$tmp/sources-bad.txt "$top/babelfish/build.sh" >"$tmp/out" 2>"$tmp/err"; st=$?
urls=$(awk '{ printf "%s%s", s, $4; s = ", " }' "$tmp/sources-bad.txt")
want="babelfish/sources.sh: no Babelfish sources: BABELFISH_SRC is unset, $top/../shared/babelfish does not hold them, and downloading file://$tmp/missing/antlr4-cpp-runtime-0.tar.gz failed (curl: (37) Couldn't open file $tmp/missing/antlr4-cpp-runtime-0.tar.gz); fetch $urls into $tmp/cache4/babelfish-sources under the names of $tmp/sources-bad.txt (or set BABELFISH_SRC to a folder holding them)"
[ $st = 3 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ] \
  && ok "a failed download: one line of what to fetch and where, exit 3" \
  || { bad "failed download: exit $st"; echo "want: $want"; echo "got:  $(cat "$tmp/err")"; }
[ ! -e "$tmp/cache4/babelfish-sources/antlr4-cpp-runtime-0.tar.gz" ] && [ ! -e "$tmp/cache4/babelfish-sources/antlr4-cpp-runtime-0.tar.gz.part" ] \
  && ok "nothing left under its name" || bad "a failed download left a file"

# a file that is not the pinned one
sed "s|file://$src/antlr4-cpp-runtime-0.tar.gz|file://$src/postgresql-BABEL_0__PG_0.tar.gz|" "$tmp/sources.txt" > "$tmp/sources-other.txt"
DRIVEBENCH_CACHE=$tmp/cache5 BABELFISH_SOURCES=$tmp/sources-other.txt "$top/babelfish/build.sh" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 3 ] && grep -qF "and file://$src/postgresql-BABEL_0__PG_0.tar.gz is not the source pinned in $tmp/sources-other.txt (its tree, runtime/Cpp/, hashes to $("$top/babelfish/sources.sh" tree "$src/postgresql-BABEL_0__PG_0.tar.gz" runtime/Cpp/), pinned $(awk '/antlr/ { print $2 }' "$BABELFISH_SOURCES")); fetch " "$tmp/err" \
  && [ "$(wc -l < "$tmp/err")" = 1 ] && [ ! -e "$tmp/cache5/babelfish-sources/antlr4-cpp-runtime-0.tar.gz" ] \
  && ok "a download that is not the pinned file: refused, exit 3, not kept" \
  || { bad "wrong download: exit $st"; cat "$tmp/err"; }
# --- pinned by content: the real ANTLR pin, an "upstream" archive -------------------
shared=$top/../shared/babelfish/antlr4-cpp-runtime-4.9.3.tar.gz
if [ -f "$shared" ]; then
  u=$tmp/upstream
  mkdir -p "$u/x"
  tar -C "$u/x" -xzf "$shared"
  mv "$u/x/antlr4-4.9.3" "$u/x/antlr4-upstream-tag"          # another top folder
  mkdir -p "$u/x/antlr4-upstream-tag/doc"
  echo 'not built' > "$u/x/antlr4-upstream-tag/doc/index.md"  # a file that does not count
  tar -C "$u/x" -czf "$u/4.9.3.tar.gz" antlr4-upstream-tag
  pinned=$(awk '$1 == "antlr4-cpp-runtime-4.9.3.tar.gz" { print $2, $3 }' "$top/babelfish/sources.txt")
  echo "antlr4-upstream.tar.gz $pinned file://$u/4.9.3.tar.gz" > "$u/sources.txt"
  DRIVEBENCH_CACHE=$u/cache BABELFISH_SOURCES=$u/sources.txt "$top/babelfish/sources.sh" >"$tmp/out" 2>"$tmp/err"; st=$?
  [ $st = 0 ] && [ "$(cat "$tmp/out")" = "$u/cache/babelfish-sources" ] && [ ! -s "$tmp/err" ] \
    && cmp -s "$u/cache/babelfish-sources/antlr4-upstream.tar.gz" "$u/4.9.3.tar.gz" \
    && ok "an upstream-shaped archive (other top folder, extra doc/) has the shared copy's pinned tree hash" \
    || { bad "upstream-shaped archive: exit $st"; cat "$tmp/err"; }
  # its unpacked tree: the counted files only, under the archive's own top folder
  mkdir -p "$u/work"
  BABELFISH_SOURCES=$u/sources.txt "$top/babelfish/sources.sh" unpack "$u/cache/babelfish-sources" "$u/work" 2>"$tmp/err"; st=$?
  [ $st = 0 ] && [ "$(ls "$u/work")" = antlr4-upstream-tag ] && [ ! -e "$u/work/antlr4-upstream-tag/doc" ] \
    && [ -f "$u/work/antlr4-upstream-tag/runtime/Cpp/CMakeLists.txt" ] \
    && ok "unpacked: the counted files, no doc/" || { bad "unpack: exit $st"; cat "$tmp/err"; }
  # one changed file
  echo '# changed' >> "$u/x/antlr4-upstream-tag/runtime/Cpp/CMakeLists.txt"
  tar -C "$u/x" -czf "$u/4.9.3.tar.gz" antlr4-upstream-tag
  DRIVEBENCH_CACHE=$u/cache2 BABELFISH_SOURCES=$u/sources.txt "$top/babelfish/sources.sh" >"$tmp/out" 2>"$tmp/err"; st=$?
  [ $st = 3 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] \
    && grep -qF "file://$u/4.9.3.tar.gz is not the source pinned in $u/sources.txt (its tree, LICENSE.txt,runtime/Cpp/, hashes to " "$tmp/err" \
    && [ -z "$(ls -A "$u/cache2/babelfish-sources")" ] \
    && ok "a changed file: refused in one line naming the archive, exit 3, nothing kept" \
    || { bad "changed file: exit $st"; cat "$tmp/err"; }
else
  echo "skip - no $shared: the real pins are not checked"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
