#!/usr/bin/env bash
# The Babelfish engine's files that are no Debian package, for
# images/build.sh (engine.conf: ENGINE_ADD):
#   add.sh key           builds or reuses Babelfish (babelfish/build.sh;
#                        its exit 3, no sources, is this script's too,
#                        under the cache's lock that the tests and .ci/run
#                        take: a build already running is waited for, ~40
#                        min of CPU the first time), then prints what the
#                        image's files come from: the tree's path (its name
#                        holds the hash of the sources and of the recipe)
#                        and the hash of babelfish/init.sh
#   add.sh install ROOT  copies that tree into ROOT/opt/babelfish (bin/, lib/
#                        without static libraries, share/: no headers),
#                        babelfish/init.sh as
#                        ROOT/usr/local/lib/drivebench/babelfish-init.sh, makes the user
#                        postgres (ROOT's sysusers.d) and checks that every
#                        library the server loads is in ROOT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
die() { echo "image: error: $*" >&2; exit 1; }

prefix() {
  local lock=${DRIVEBENCH_CACHE:-/var/cache/drivebench}/babelfish.lock
  mkdir -p "$(dirname "$lock")"
  local rc=0
  flock "$lock" "$top/babelfish/build.sh" || rc=$?
  # 3: no sources anywhere (build.sh said what to fetch): passed on as 3,
  # so that images/build.sh and the tests can tell it from a failed build
  [ "$rc" = 3 ] && exit 3
  [ "$rc" = 0 ] || die "babelfish/build.sh failed (see above)"
}

case "${1:-}" in
  key)
    p=$(prefix)
    echo "$p $(sha256sum <"$top/babelfish/init.sh" | cut -d' ' -f1)"
    ;;
  install)
    if [ $# -ne 2 ] || [ ! -d "$2" ]; then die "usage: $0 install ROOT"; fi
    root=$2
    p=$(prefix)
    mkdir -p "$root/opt/babelfish"
    tar -C "$p" --owner=0 --group=0 --exclude='lib/*.a' -cf - .complete bin lib share \
      | tar -C "$root/opt/babelfish" -xf -
    install -D -m 0755 "$top/babelfish/init.sh" "$root/usr/local/lib/drivebench/babelfish-init.sh"
    chroot "$root" systemd-sysusers /usr/lib/sysusers.d/babelfish.conf
    missing=$(for f in "$root"/opt/babelfish/bin/postgres "$root"/opt/babelfish/lib/postgresql/*.so; do
                chroot "$root" env LD_LIBRARY_PATH=/opt/babelfish/lib ldd "${f#"$root"}" 2>&1
              done | grep 'not found' | sort -u || true)
    [ -z "$missing" ] || die "the Babelfish tree needs libraries the guest lacks; add their packages to images/engines/babelfish/packages.txt:
$missing"
    ;;
  *) die "usage: $0 key | install ROOT" ;;
esac
