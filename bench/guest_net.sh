#!/usr/bin/env bash
# The guest network's cost per round trip (issue 33, item 4), on one real
# tiny VM: host -> guest through QEMU's user-mode hostfwd (SLIRP, what
# `client = host` uses) and through passt, and the guest's own loopback for
# scale; per round trip the latency and the host CPU of the client, QEMU and
# passt. It is bench/client_paths.sh with its round-trip kinds only: `echo`
# (bench/echo_rtt.c, the network alone) and `rtt` (MariaDB's SELECT 1).
#
# Usage: images/with-libvirt.sh bench/guest_net.sh [ROUNDS [SECONDS]]
# (default 3 rounds of 20 s, the paths alternating in each round).
set -euo pipefail
KINDS=${KINDS:-echo rtt} exec "$(dirname "$0")/client_paths.sh" "$@"
