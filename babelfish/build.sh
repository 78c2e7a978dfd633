#!/usr/bin/env bash
# babelfish/build.sh — build Babelfish for PostgreSQL (the SQL Server path's
# integration server: TDS + T-SQL), or reuse the tree a previous build
# installed.
#
#   babelfish/build.sh            # prints the installed tree's path (its bin/ has postgres, initdb, ...)
#   BABELFISH_SRC=DIR             # the sources (default: ../shared/babelfish beside the checkout)
#   DRIVEBENCH_CACHE=DIR          # where installed trees are kept (default /var/cache/drivebench)
#   BABELFISH_SOURCES=FILE        # the sources' pinned tree hashes and addresses (default
#                                 # babelfish/sources.txt; tests/babelfish/build_env.sh's stand-ins)
#
# The sources are found, downloaded when missing and checked by their
# content by babelfish/sources.sh (BABELFISH_SRC, else ../shared/babelfish,
# else $DRIVEBENCH_CACHE/babelfish-sources from their upstream addresses;
# one line and exit 3 when none holds them and the download fails), and
# unpacked by it: the build sees only the files whose tree hash is pinned.
#
# The installed tree lives outside the checkout, in
# $DRIVEBENCH_CACHE/babelfish-KEY, KEY being the hash of the sources' pins
# (FILE TREE PATHS of sources.txt) and of this script: a new source or a
# new recipe builds anew, the same ones reuse it (~0 s, no sources
# needed), wherever the sources were found (sources.sh and the addresses
# are not in KEY). A tree is used only once its build
# finished (.complete); a partial one is removed and built again. Building
# takes ~40 min of CPU (babelfish/README.md); its log is babelfish-KEY.log
# beside the tree. Its makes start with make's environment cleared: one
# started from inside `make test` would otherwise take the top Makefile's
# flags (--no-builtin-rules: PostgreSQL's make stops at once, "No rule to
# make target 'archive.o'"; its command-line variables too).
set -euo pipefail
unset MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS MAKEOVERRIDES
here=$(cd "$(dirname "$0")" && pwd)
cache=${DRIVEBENCH_CACHE:-/var/cache/drivebench}
sources=${BABELFISH_SOURCES:-$here/sources.txt}

die() { echo "babelfish/build.sh: $*" >&2; exit 1; }
[ -f "$sources" ] || die "$sources is missing"
key=$({ awk '!/^#/ && NF == 4 { print $1, $2, $3 }' "$sources"; cat "$here/build.sh"; } |
      sha256sum | cut -c1-16)
prefix=$cache/babelfish-$key
if [ -f "$prefix/.complete" ]; then echo "$prefix"; exit 0; fi
# it said why (exit 1: a BABELFISH_SRC without them; 3: none found)
src=$("$here/sources.sh")

mkdir -p "$cache"
log=$cache/babelfish-$key.log
work=$cache/babelfish-$key.build
rm -rf "$prefix" "$work"
mkdir -p "$work"
echo "babelfish/build.sh: building Babelfish into $prefix (log: $log; ~40 min of CPU)" >&2
jobs=$(nproc)
step() { echo "[$(date +%T)] $*" >>"$log"; echo "babelfish/build.sh: $*" >&2; }
run() { "$@" >>"$log" 2>&1 || { tail -40 "$log" >&2; die "failed: $* (log: $log)"; }; }
: >"$log"

step "unpacking"
"$here/sources.sh" unpack "$src" "$work" 2>>"$log" || { tail -5 "$log" >&2; die "unpacking the sources failed (log: $log)"; }
pg=$(ls -d "$work"/postgresql*/ | head -1); pg=${pg%/}
ext=$(ls -d "$work"/babelfish_extensions*/ | head -1); ext=${ext%/}
antlr=$(find "$work" -maxdepth 3 -type d -path '*runtime/Cpp' | head -1)
[ -n "$antlr" ] || antlr=$(find "$work" -maxdepth 2 -name CMakeLists.txt -path '*antlr*' -printf '%h\n' | head -1)
[ -n "$antlr" ] || die "the ANTLR runtime's CMakeLists.txt is not in the archive"

# the source has no doc/ (the shared copy lacks it, and in upstream's
# archive it does not count): psql's help is generated from
# doc/src/sgml/ref, which an empty folder turns into a psql without \h texts
mkdir -p "$pg/doc/src/sgml/ref"
step "PostgreSQL fork: configure"
(cd "$pg" && run ./configure --prefix="$prefix" --without-readline --with-libxml \
   --with-uuid=ossp --with-icu --with-openssl CFLAGS="-O2 -g")
step "PostgreSQL fork: make (-j$jobs)"
run make -C "$pg" -j"$jobs"
run make -C "$pg" install
run make -C "$pg/contrib" -j"$jobs"
run make -C "$pg/contrib" install

step "ANTLR C++ runtime"
jar=$(ls "$ext"/contrib/babelfishpg_tsql/antlr/thirdparty/antlr/antlr-*-complete.jar)
mkdir -p "$antlr/build"
(cd "$antlr/build" && run cmake .. -DANTLR_JAR_LOCATION="$jar" -DCMAKE_BUILD_TYPE=Release \
   -DWITH_DEMO=False -DANTLR_BUILD_CPP_TESTS=OFF)
run make -C "$antlr/build" -j"$jobs" antlr4_shared
inc=$prefix/include/antlr4-runtime
mkdir -p "$inc"
(cd "$antlr/runtime/src" && find . -name '*.h' -exec cp --parents {} "$inc/" \;)
cp -a "$antlr"/dist/libantlr4-runtime.so* "$prefix/lib/"

step "Babelfish extensions"
export PG_CONFIG=$prefix/bin/pg_config PG_SRC=$pg cmake=/usr/bin/cmake ANTLR4_JAVA_BIN=java \
       ANTLR4_RUNTIME_INCLUDE_DIR=$inc ANTLR4_RUNTIME_LIB_DIR=$prefix/lib
# the T-SQL parser's CMakeLists names /usr/local's runtime headers
sed -i "s|^SET (MYDIR .*)|SET (MYDIR $inc/)|" "$ext/contrib/babelfishpg_tsql/antlr/CMakeLists.txt"
c=$ext/contrib
run make -C "$c/babelfishpg_money" -j"$jobs"
run make -C "$c/babelfishpg_money" install
# No PG_CPPFLAGS on make's command line: it would replace the Makefiles'
# own (-I$(PG_SRC), where babelfishpg_common's encoding maps are). And no
# -DENABLE_SPATIAL_TYPES (upstream's CI sets it): with it, CREATE EXTENSION
# needs PostGIS ("could not access file $libdir/postgis-3"), which we do not build
run make -C "$c/babelfishpg_common" -j"$jobs"
run make -C "$c/babelfishpg_common" install
run make -C "$c/babelfishpg_tds" -j"$jobs"
run make -C "$c/babelfishpg_tds" install
# gcc 12: no -Werror (procedures.c warns 'maybe uninitialized'), -fcommon
# (tentative definitions shared between files); the runtime found beside the
# tree wherever it is installed ($ORIGIN is lib/postgresql/). PG_CFLAGS and
# PG_CXXFLAGS replace the Makefile's (its -Werror)
tsql_flags=(
  "PG_CFLAGS=-g -fcommon -fstack-protector-strong"
  "PG_CXXFLAGS=-g -Wno-deprecated -Wno-error=attributes -Wno-register -Wno-undef -I$inc"
  "SHLIB_LINK=-L$prefix/lib -lantlr4-runtime -lcrypto -licuuc -licui18n"' -Wl,-rpath,\$$ORIGIN/..')
# the parser is ~10 MB of C++ (~2.5 GB RSS to compile): one job
run make -C "$c/babelfishpg_tsql" "${tsql_flags[@]}"
run make -C "$c/babelfishpg_tsql" install "${tsql_flags[@]}"

rm -rf "$work"
touch "$prefix/.complete"
step "done: $prefix ($(du -sh "$prefix" | cut -f1))"
echo "$prefix"
