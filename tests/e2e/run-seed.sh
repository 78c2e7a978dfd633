#!/usr/bin/env bash
# End-to-end: the prebuilt-database path. images/seed.sh builds the seed of
# a small plan, then `drivebench run` with the tiny-seed profile restores it
# onto the drive and measures without preparing. Same checks as run-1vm.sh.
export E2E_SEED=1
exec "$(dirname "$0")/run-1vm.sh" "$@"
