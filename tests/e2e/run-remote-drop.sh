#!/usr/bin/env bash
# End-to-end: run-remote.sh with the SSH session of the remote connection
# killed mid-run (see E2E_DROP there).
export E2E_DROP=1
exec "$(dirname "$0")/run-remote.sh" "$@"
