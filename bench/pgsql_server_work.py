#!/usr/bin/env python3
"""bench/pgsql_server_work.py RUNS_FILE: the tables of
bench/pgsql_server_work.sh from its runs (one JSON object a line: client,
trx, tps, server_s, and the server's counters before and after the run).
Every figure is the median over a client's runs."""
import json
import re
import statistics
import sys

runs = [json.loads(line) for line in open(sys.argv[1])]
clients = list(dict.fromkeys(r["client"] for r in runs))


def diff(r, part, key):
    return (r["after"][part] or {}).get(key, 0) - (r["before"][part] or {}).get(key, 0)


def per_run(r):
    """A run's figures, by name."""
    n = r["trx"]
    stmts = r["after"]["stmts"] or {}
    f = {"TPS": r["tps"], "server CPU ms / trx": r["server_s"] * 1000 / n,
         "— of it user": r["server_user_s"] * 1000 / n,
         "— of it kernel": (r["server_s"] - r["server_user_s"]) * 1000 / n,
         "server task-clock ms / trx (perf)": r["perf"].get("task-clock", 0) / n,
         "server context switches / trx": r["perf"].get("context-switches", 0) / n,
         "server CPU migrations / trx": r["perf"].get("cpu-migrations", 0) / n,
         "statements' execution ms / trx": sum(s["exec_ms"] for s in stmts.values()) / n,
         "statements' planning ms / trx": sum(s["plan_ms"] for s in stmts.values()) / n}
    for k in ("xact_commit", "xact_rollback", "deadlocks", "tup_returned", "tup_fetched",
              "tup_inserted", "tup_updated", "tup_deleted", "blks_hit"):
        f[f"{k} / trx"] = diff(r, "db", k) / n
    upd = diff(r, "tables", "upd")
    f["HOT updates / updates"] = diff(r, "tables", "hot_upd") / upd if upd else 0
    f["dead tuples after"] = r["after"]["tables"]["dead"]
    d = r["after"]["data"]
    f["rows with a short c after"] = d["short_c"]
    f["rows with a short pad after"] = d["short_pad"]
    for q, s in stmts.items():
        calls = s["calls"] or 1
        f[("stmt", q)] = (s["calls"] / n, s["rows"] / calls, s["exec_ms"] * 1000 / calls,
                          s["plans"] / calls, s["blks"] / calls)
    return f


figs = {c: [per_run(r) for r in runs if r["client"] == c] for c in clients}


def med(c, key, i=None):
    vals = [f[key] if i is None else f[key][i] for f in figs[c] if key in f]
    return statistics.median(vals) if vals else None


print(f"\nmedians of {min(len(v) for v in figs.values())}+ runs per client\n")
print("| figure | " + " | ".join(clients) + " |")
print("| --- |" + " ---: |" * len(clients))
for key in figs[clients[0]][0]:
    if isinstance(key, tuple):
        continue
    cells = []
    for c in clients:
        v = med(c, key)
        cells.append("—" if v is None else f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3f}")
    print(f"| {key} | " + " | ".join(cells) + " |")

# statements: BEGIN/COMMIT/ROLLBACK and the sbtestN statements, in a fixed order
keys = list(dict.fromkeys(k[1] for c in clients for f in figs[c] for k in f if isinstance(k, tuple)))
order = [r"^BEGIN", r"WHERE id=\$1$", r"SELECT c .*BETWEEN \$1 AND \$2$", r"SUM", r"SELECT c .*ORDER BY c$",
         r"DISTINCT", r"SET k", r"SET c", r"^DELETE", r"^INSERT", r"^COMMIT", r"^ROLLBACK"]


def rank(q):
    for i, o in enumerate(order):
        if re.search(o, q.strip(), re.I):
            return i
    return len(order)


keys.sort(key=rank)
print("\nper statement: calls / trx, rows / call, execution µs / call, plans / call, buffers / call\n")
print("| statement | " + " | ".join(clients) + " |")
print("| --- |" + " --- |" * len(clients))
for q in keys:
    cells = []
    for c in clients:
        if med(c, ("stmt", q), 0) is None:
            cells.append("—")
        else:
            cells.append(" · ".join(f"{med(c, ('stmt', q), i):.{d}f}" for i, d in enumerate((2, 2, 1, 3, 1))))
    print(f"| `{q[:70]}` | " + " | ".join(cells) + " |")

# Server CPU per transaction against throughput, over every run of every
# client: cpu = a + b / TPS (least squares). A client whose transactions
# cost the server more at the same throughput sits above the line (a
# positive mean residual); one whose figure is higher only because its
# TPS is lower sits on it.
X = [r["tps"] for r in runs]
Y = [r["server_s"] * 1000 / r["trx"] for r in runs]
if len(runs) > 2 and len(set(X)) > 1:
    inv = [1 / x for x in X]
    mx, my = statistics.mean(inv), statistics.mean(Y)
    b = sum((x - mx) * (y - my) for x, y in zip(inv, Y)) / sum((x - mx) ** 2 for x in inv)
    a = my - b * mx
    pred = [a + b * x for x in inv]
    ss = sum((y - my) ** 2 for y in Y)
    r2 = 1 - sum((y - p) ** 2 for y, p in zip(Y, pred)) / ss if ss else 1.0
    print(f"\nserver CPU ms / trx = {a:.3f} + {b:.0f} / TPS over all {len(runs)} runs (r² {r2:.2f});"
          " mean residual per client (ms / trx):\n")
    print("| " + " | ".join(clients) + " |")
    print("|" + " ---: |" * len(clients))
    print("| " + " | ".join(f"{statistics.mean(y - p for y, p, r in zip(Y, pred, runs) if r['client'] == c):+.3f}"
                            for c in clients) + " |")
