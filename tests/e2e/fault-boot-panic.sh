#!/usr/bin/env bash
# The fault matrix's "boot-panic" scenario (tests/e2e/faults.sh says what it does).
exec "$(dirname "$0")/faults.sh" boot-panic "$@"
