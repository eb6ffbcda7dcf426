#!/usr/bin/env bash
# How precise a freeze window's edges are (docs/replaying-pauses.md, "What freeze does"), for the two designs
# the agent could take, one after the other on the same service (the reference scoring service, 4 threads,
# the agent with observe=off, warmed with 500 requests):
#   timer  - the agent's own: two CLOCK_MONOTONIC timers, SIGSTOP at the start and SIGCONT at the end, both
#            set 20 ms ahead. Each window's start lateness (real start - planned start), length error (end -
#            start - planned length) and end uncertainty (how long after the timer's expiry the freezing thread
#            ran) from GET /stalls.
#   helper - a process outside the service that sends SIGSTOP at the start and SIGCONT at the end (this
#            script's python, parked then spinning to each edge): the lateness of its kill calls against the
#            edges it aimed at. Its weakness is not measured here: a helper killed mid-window leaves the
#            service stopped, which the timer cannot.
# Both run the same plan: WINDOWS windows of 10, 20, 50 and 100 ms in turn, 150 ms apart. Medians, p99 and
# max in µs. Run it on a quiet machine: a busy one measures the scheduler, not the design.
#
#   agent/bench/freeze-edges.sh      Environment: WINDOWS=40  JAVA=java  SKIP_BUILD=1
set -uo pipefail
cd "$(dirname "$0")/../.."
WINDOWS=${WINDOWS:-40}; JAVA=${JAVA:-java}
[[ "$WINDOWS" =~ ^[1-9][0-9]*$ ]] || { echo "freeze-edges.sh: WINDOWS must be a whole number > 0 (got '$WINDOWS')" >&2; exit 2; }
command -v python3 >/dev/null || { echo "freeze-edges.sh: python3 is missing" >&2; exit 2; }
AGENT_JAR=agent/target/loadsmith-agent.jar; SERVICE_JAR=examples/scoring-service/target/scoring-service.jar
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  ./mvnw -B -q -pl agent,examples/scoring-service -am package -DskipTests >/tmp/freeze-edges-build.log 2>&1 \
    || { echo "freeze-edges.sh: the build failed, see /tmp/freeze-edges-build.log" >&2; exit 2; }
fi
[[ -f $AGENT_JAR && -f $SERVICE_JAR ]] || { echo "freeze-edges.sh: $AGENT_JAR or $SERVICE_JAR is missing (run without SKIP_BUILD=1)" >&2; exit 2; }
source sidecar-tester/bench/lib.sh   # free_port
APP_PORT=$(free_port); ADMIN_PORT=$(free_port)
LOG=$(mktemp /tmp/freeze-edges-service.XXXXXX.log)
"$JAVA" -Xmx256m -javaagent:$AGENT_JAR=admin=127.0.0.1:$ADMIN_PORT,observe=off -jar $SERVICE_JAR --port "$APP_PORT" \
  --threads 4 >"$LOG" 2>&1 &
PID=$!
trap 'kill -CONT $PID 2>/dev/null; kill $PID 2>/dev/null; wait $PID 2>/dev/null' EXIT
exec 3>&-
python3 - "$PID" "$APP_PORT" "$ADMIN_PORT" "$WINDOWS" "$LOG" <<'PY'
import json, os, signal, statistics, sys, time, urllib.request
pid, app, admin, windows, log = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
base = f"http://127.0.0.1:{admin}"
def get(url, body=None):
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"} if body else {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)
deadline = time.time() + 60
while True:
    try:
        get(base + "/health"); urllib.request.urlopen(f"http://127.0.0.1:{app}/score/1000", timeout=10).read(); break
    except Exception:
        if time.time() > deadline: sys.exit(f"freeze-edges.sh: the service did not start, see {log}")
        time.sleep(0.1)
for i in range(500):
    urllib.request.urlopen(f"http://127.0.0.1:{app}/score/{1000 + i % 50}", timeout=10).read()
lengths = [10, 20, 50, 100]
plan = [(200 + 150 * i, lengths[i % 4]) for i in range(windows)]
def mono(): return time.clock_gettime_ns(time.CLOCK_MONOTONIC)
def until(t):
    while t - mono() > 300_000: time.sleep((t - mono() - 300_000) / 1e9)
    while mono() < t: pass

armed = get(base + "/arm", json.dumps({"kind": "freeze", "stalls": [{"offset_ms": o, "duration_ms": d} for o, d in plan]}).encode())
until(armed["armed_at_ns"] + (plan[-1][0] + plan[-1][1] + 300) * 1_000_000)
rows = []
while len(rows) < windows:
    rows = get(base + "/stalls?run_id=" + armed["run_id"])["stalls"]
    time.sleep(0.05)
timer = {"start lateness": [(r["start_ns"] - r["planned_start_ns"]) / 1e3 for r in rows],
         "length error": [(r["end_ns"] - r["start_ns"] - d * 1_000_000) / 1e3 for r, (_, d) in zip(rows, plan)],
         "end uncertainty": [r["end_uncertainty_ns"] / 1e3 for r in rows],
         "start uncertainty": [r["start_uncertainty_ns"] / 1e3 for r in rows]}

helper = {"stop lateness": [], "continue lateness": []}
origin = mono() + 200_000_000
for offset, duration in plan:
    start = origin + offset * 1_000_000; end = start + duration * 1_000_000
    until(start); os.kill(pid, signal.SIGSTOP); helper["stop lateness"].append((mono() - start) / 1e3)
    until(end); os.kill(pid, signal.SIGCONT); helper["continue lateness"].append((mono() - end) / 1e3)

def p99(v): s = sorted(v); return s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))]
print(f"# freeze edges, {windows} windows of {lengths} ms, 150 ms apart; the scoring service with the agent (pid {pid})")
print("| design | figure (µs) | median | p99 | max |")
print("| --- | --- | --- | --- | --- |")
for design, figures in (("timer (the agent's)", timer), ("helper process", helper)):
    for name, v in figures.items():
        print(f"| {design} | {name} | {statistics.median(v):.1f} | {p99(v):.1f} | {max(v):.1f} |")
PY
