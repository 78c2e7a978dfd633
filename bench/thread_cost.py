#!/usr/bin/env python3
"""What each QEMU thread role and the client cost per transaction and per
round trip in a drivebench run (issue 45, item 5), from its summary.json:
per measured VM, the CPU of its QEMU main loop (the user-mode network's
thread), vCPU threads, I/O threads and the rest (vms[i].qemu_threads, % of
one CPU) and its oltp (cpu_s_per_1000_txn), each divided by the VM's TPS,
and by ROUND_TRIPS per transaction (oltp_read_write with prepared
statements: 18 statements + BEGIN + COMMIT = 20).

Usage: bench/thread_cost.py RUN_DIR [ROUND_TRIPS]    (default 20)
"""
import json
import os
import sys


def die(msg):
    """Bad input: one message, exit status 2 (the project's)."""
    print("thread_cost.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) not in (2, 3):
        die(__doc__.strip().splitlines()[-1])
    rdir = sys.argv[1]
    try:
        rt = float(sys.argv[2]) if len(sys.argv) == 3 else 20.0
    except ValueError:
        rt = 0
    if not rt > 0:
        die("ROUND_TRIPS must be a number above 0, not %r" % sys.argv[2])
    try:
        s = json.load(open(os.path.join(rdir, "summary.json")))
    except (OSError, ValueError) as e:
        die(str(e))
    rows = []
    head = ("| VM | TPS | main loop µs/txn | main loop µs/round trip | vCPU threads µs/txn "
          "| I/O threads µs/txn | other µs/txn | oltp µs/txn | verdict |\n"
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    bound = {d["name"]: d.get("bound", {}).get("verdict", "") for d in s["drives"]}
    for v in s["vms"]:
        q, tps = v.get("qemu_threads"), v.get("tps", 0)
        if v.get("status") == "failed" or not q or not tps:
            continue
        # percent of one CPU / TPS = CPU-seconds per transaction (x 1e4 for µs)
        per = lambda pct: pct * 1e4 / tps
        cli = v.get("cpu_s_per_1000_txn")
        rows.append("| %s | %.1f | %.0f | %.1f | %.0f | %.0f | %.0f | %s | %s |" % (
            v["name"], tps, per(q["main_pct"]), per(q["main_pct"]) / rt,
            per(q["vcpu_pct"]) * q["vcpus"], per(q["io_pct"]), per(q["other_pct"]),
            "%.0f" % (cli * 1000) if cli is not None else "-", bound.get(v["drive"], "")))
    if not rows:
        die("no measured VM with QEMU thread figures in %s" % rdir)
    print(head)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
