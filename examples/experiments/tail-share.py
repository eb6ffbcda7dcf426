#!/usr/bin/env python3
# Whose time is a run's tail? For the requests at or above each run's corrected p99 (one arm, one stall
# state, every round of an experiment's results folder): the share of their corrected latency (intended
# send to end) that lay inside the service's observed pauses (service_pauses: its safepoints and the
# sleeper's host-wide gaps), inside the tester's own pauses (tester_pauses: its safepoints and late loop
# windows), inside both, inside neither (queueing and work in the service), and before the actual send.
# It reads requests.bin as docs/engine.md describes it (32-byte header, 41-byte big-endian records).
#   python3 examples/experiments/tail-share.py RESULTS_DIR [ARM] [on|off]      # default: open-546 off
import json, statistics, struct, sys

folder = sys.argv[1]
arm = sys.argv[2] if len(sys.argv) > 2 else "open-546"
stall = len(sys.argv) > 3 and sys.argv[3] == "on"
results = json.load(open(folder + "/results.json"))


def merged(windows):
    out = []
    for start, end in sorted(windows):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return out


def covered(a, b, windows):
    return sum(min(b, end) - max(a, start) for start, end in windows if end > a and start < b)


def requests(run):
    data = open(folder + "/" + run["requests_log"], "rb").read()
    for offset in range(32, len(data) - 40, 41):
        intended, sent, end = struct.unpack(">qqq", data[offset:offset + 24])
        if run["start_ns"] <= intended < run["end_ns"]:
            yield intended, sent, end


rows = []
for run in results["runs"]:
    if run.get("arm") != arm or run.get("stall") != stall:
        continue
    counted = list(requests(run))
    latencies = sorted(end - intended for intended, _, end in counted)
    p99 = latencies[int(0.99 * len(latencies))]
    tail = [r for r in counted if r[2] - r[0] >= p99]
    service = merged((p["start_ns"], p["end_ns"]) for p in run.get("service_pauses", []))
    tester = merged((p["start_ns"], p["end_ns"]) for p in run.get("tester_pauses", []))
    either = merged(service + tester)
    total = sum(end - intended for intended, _, end in tail)
    share = lambda windows: sum(covered(i, e, windows) for i, _, e in tail) / total
    in_service, in_tester, in_either = share(service), share(tester), share(either)
    rows.append({"round": run["round"], "p99": p99 / 1e6, "tail": len(tail), "service": in_service,
                 "tester": in_tester, "both": in_service + in_tester - in_either, "neither": 1 - in_either,
                 "before_send": sum(s - i for i, s, _ in tail) / total,
                 "service_ms": sum(e - s for s, e in service) / 1e6, "tester_ms": sum(e - s for s, e in tester) / 1e6})

if not rows:
    sys.exit("tail-share.py: no run of arm %s with stall %s in %s" % (arm, "on" if stall else "off", folder))
print("| round | p99 corrected (ms) | requests at or above it | in the service's pauses | in the tester's pauses"
      " | in both | in neither | before the actual send | service paused (ms) | tester paused (ms) |")
print("|---|---|---|---|---|---|---|---|---|---|")
pct = lambda x: "%.0f %%" % (100 * x)
for r in rows:
    print("| %d | %.2f | %d | %s | %s | %s | %s | %s | %.0f | %.0f |" % (
        r["round"], r["p99"], r["tail"], pct(r["service"]), pct(r["tester"]), pct(r["both"]), pct(r["neither"]),
        pct(r["before_send"]), r["service_ms"], r["tester_ms"]))
median = lambda key: pct(statistics.median(r[key] for r in rows))
print("median: in the service's pauses %s, the tester's %s, both %s, neither %s, before the actual send %s" % (
    median("service"), median("tester"), median("both"), median("neither"), median("before_send")))
