#!/usr/bin/env bash
# What the agent adds to a service's resident memory (docs/agent.md, "What the agent costs its host"): the
# same test app is started once per state in each round (a fresh JVM for every run, the order of the states
# rotating from one round to the next), warmed up with wrk, put in its state, then loaded with wrk for the
# measured window while its VmRSS (/proc/PID/status) is read every half second. States: none (no agent),
# loaded (the agent, no admin call yet: JFR has not started), disarmed (the agent, nothing armed, after one
# GET /health: the pause observer has started and stopped JFR once, as it does at a tester's first call, and
# JFR keeps its buffers from then on), observing (the agent armed with a long seeded plan, its pause
# observer running: the sleeper and the JFR stream). Each run gives the median of its VmRSS samples, its
# VmHWM at the end (the peak since launch), the JVM's native memory by part (jcmd VM.native_memory summary,
# committed) and the classes loaded; the script prints every run, then per state the medians over the
# rounds, and the difference of each to none.
#
#   agent/bench/memory.sh [--server jdkhttp|jetty12|jetty94|tomcat|netty|undertow|springmvc] [--out DIR]
#
# Environment: ROUNDS=3  WARMUP_S=5  MEASURE_S=20  CONNECTIONS=4  THREADS=1  STATES="none loaded disarmed observing"
#   JAVA=java  JVM_OPTS="-Xmx256m -Dsun.net.httpserver.nodelay=true"  NMT=summary (NMT=off: RSS only; NMT's own
#   bookkeeping adds about 1 MB with it on)  AGENT_OPTS="" (added after admin=127.0.0.1:0)  SKIP_BUILD=1
# A smoke run: ROUNDS=1 WARMUP_S=1 MEASURE_S=3 agent/bench/memory.sh
# With -Xmx256m alone, how much of the heap G1 has touched varies by 5-10 MiB from run to run under load, which
# hides a few MiB of the agent's; to see only what it adds outside the heap, keep the whole heap resident in
# every state: JVM_OPTS="-Xmx256m -Xms256m -XX:+AlwaysPreTouch -Dsun.net.httpserver.nodelay=true" agent/bench/memory.sh
# The aim: at most 10 MiB added while observing, 5 MiB while disarmed. Needs wrk, curl, jcmd and python3.
set -uo pipefail
cd "$(dirname "$0")/../.."

SERVER=jdkhttp; OUT=/tmp/loadsmith-agent-memory
while [[ $# -gt 0 ]]; do
  case "$1" in
    --server) SERVER="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "memory.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
ROUNDS=${ROUNDS:-3}; WARMUP_S=${WARMUP_S:-5}; MEASURE_S=${MEASURE_S:-20}; CONNECTIONS=${CONNECTIONS:-4}
THREADS=${THREADS:-1}; JAVA=${JAVA:-java}; JVM_OPTS=${JVM_OPTS:--Xmx256m -Dsun.net.httpserver.nodelay=true}
NMT=${NMT:-summary}; AGENT_OPTS=${AGENT_OPTS:-}
read -r -a STATE_LIST <<<"${STATES:-none loaded disarmed observing}"
for n in ROUNDS WARMUP_S MEASURE_S CONNECTIONS THREADS; do
  [[ "${!n}" =~ ^[1-9][0-9]*$ ]] || { echo "memory.sh: $n must be a whole number > 0 (got '${!n}')" >&2; exit 2; }
done
for state in "${STATE_LIST[@]}"; do
  case "$state" in
    none|loaded|disarmed|observing) ;;
    *) echo "memory.sh: unknown state '$state' in STATES (none, loaded, disarmed, observing)" >&2; exit 2 ;;
  esac
done
[[ $NMT == summary || $NMT == off ]] || { echo "memory.sh: NMT must be summary or off (got '$NMT')" >&2; exit 2; }
for tool in wrk curl python3 jcmd; do
  command -v $tool >/dev/null || { echo "memory.sh: $tool is missing" >&2; exit 2; }
done

source agent/bench/apps.sh
prepare_app memory.sh "$SERVER" "$OUT"
[[ $NMT == summary ]] && JVM_OPTS="$JVM_OPTS -XX:NativeMemoryTracking=summary"
AGENT_ARG="-javaagent:$AGENT_JAR=admin=127.0.0.1:0${AGENT_OPTS:+,$AGENT_OPTS}"

echo "# $SERVER, $ROUNDS rounds of ${STATE_LIST[*]}, $JAVA $JVM_OPTS [$AGENT_ARG]; warm-up ${WARMUP_S} s, measured ${MEASURE_S} s, wrk -t$THREADS -c$CONNECTIONS; load average $(cut -d' ' -f1-3 /proc/loadavg); raw files in $OUT" >&2
python3 - "$OUT" "$ROUNDS" "$WARMUP_S" "$MEASURE_S" "$THREADS" "$CONNECTIONS" "$JAVA" "$JVM_OPTS" "$AGENT_ARG" \
    "$CP" "$MAIN" "$NMT" "${STATE_LIST[@]}" <<'PY'
import json, os, re, statistics, subprocess, sys, threading, time, urllib.request

out, rounds, warmup_s, measure_s, threads, connections, java, jvm_opts, agent_arg, cp, main, nmt = sys.argv[1:13]
states = sys.argv[13:]
rounds, warmup_s, measure_s = int(rounds), int(warmup_s), int(measure_s)
PLAN = {"seed": 7, "mean_interval_ms": 4000, "duration_ms": 100, "min_gap_ms": 500, "horizon_ms": 600000}
PARTS = ["Total", "Java Heap", "Class", "Metaspace", "Thread", "Code", "GC", "Arena Chunk", "Tracing", "Symbol", "Other parts"]

def fail(message):
    sys.exit(f"memory.sh: {message}")

def status_kb(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    fail(f"no {field} in /proc/{pid}/status")

def http(method, url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())

def wait_health(admin, label, ok, what):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        health = http("GET", admin + "/health")
        if ok(health["pauses"]):
            return health
        time.sleep(0.2)
    fail(f"{label}: {what} not reached in 60 s: {health}")

def wrk(label, seconds, port):
    with open(os.path.join(out, label + ".wrk.txt"), "w") as f:
        subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", f"http://127.0.0.1:{port}/fast"],
                       stdout=f, stderr=subprocess.STDOUT, check=True)

def native_memory(pid, label):
    """Committed KB by NMT part (the parts of PARTS; 'Other parts' is the rest of the total), and the class count."""
    text = subprocess.run(["jcmd", str(pid), "VM.native_memory", "summary"], capture_output=True, text=True).stdout
    open(os.path.join(out, label + ".nmt.txt"), "w").write(text)
    parts = {}
    for name, committed in re.findall(r"^-?\s*([A-Za-z][A-Za-z ]*?) \(reserved=\d+KB, committed=(\d+)KB", text, re.M):
        parts[name.strip()] = int(committed)
    total = re.search(r"Total: reserved=\d+KB, committed=(\d+)KB", text)
    parts["Total"] = int(total.group(1)) if total else 0
    parts["Other parts"] = parts["Total"] - sum(parts.get(p, 0) for p in PARTS if p not in ("Total", "Other parts"))
    classes = re.search(r"\(classes #(\d+)", text)
    return parts, int(classes.group(1)) if classes else None

def loaded_classes(pid):
    text = subprocess.run(["jcmd", str(pid), "PerfCounter.print"], capture_output=True, text=True).stdout
    counters = dict(re.findall(r"^(java\.cls\.\w+)=(\d+)", text, re.M))
    return int(counters.get("java.cls.loadedClasses", 0)) - int(counters.get("java.cls.unloadedClasses", 0))

def run(label, state):
    command = [java] + jvm_opts.split() + ([agent_arg] if state != "none" else []) + ["-cp", cp, main]
    log = open(os.path.join(out, label + ".log"), "w")
    app = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    admin = [None]
    def read_stderr():
        for line in app.stderr:
            log.write(line)
            found = re.search(r"admin API on (http://\S+)", line)
            if found and admin[0] is None:
                admin[0] = found.group(1)
    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        port = None
        for line in app.stdout:
            if line.startswith("PORT="):
                port = int(line[5:])
                break
        if port is None:
            fail(f"{label}: the app exited before printing PORT= (see {log.name})")
        threading.Thread(target=lambda: [None for _ in app.stdout], daemon=True).start()
        deadline = time.monotonic() + 60
        while state != "none" and admin[0] is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if state != "none" and admin[0] is None:
            fail(f"{label}: the agent never logged 'admin API on' (see {log.name})")
        wrk(label + ".warmup", warmup_s, port)
        health = None
        if state in ("disarmed", "observing"):
            # a tester's first call: the observer starts and stops JFR once (jfr "preparing", then "idle")
            wait_health(admin[0], label, lambda p: p.get("jfr") == "idle", "jfr idle after the first call")
        if state == "observing":
            http("POST", admin[0] + "/arm", PLAN)
            wait_health(admin[0], label, lambda p: p.get("running") and p.get("jfr") == "on", "observing with jfr on")
            wrk(label + ".settle", 3, port)
        samples = []
        load = threading.Thread(target=wrk, args=(label, measure_s, port))
        load.start()
        while load.is_alive():
            samples.append(status_kb(app.pid, "VmRSS"))
            time.sleep(0.5)
        load.join()
        peak = status_kb(app.pid, "VmHWM")
        if state in ("disarmed", "observing"):
            health = http("GET", admin[0] + "/health")
            json.dump(health, open(os.path.join(out, label + ".health.json"), "w"))
            if (state == "observing") != bool(health["pauses"]["running"]):
                fail(f"{label}: the observer's running is {health['pauses']['running']} in state {state}")
        parts, classes = native_memory(app.pid, label) if nmt == "summary" else ({}, None)
        if classes is None:
            classes = loaded_classes(app.pid)
        return {"rss": statistics.median(samples), "peak": peak, "parts": parts, "classes": classes, "health": health}
    finally:
        app.stdin.close()
        try:
            app.wait(30)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()
        reader.join(5)
        log.close()

def mib(kb):
    return kb / 1024

results = {state: [] for state in states}
print("round  state        RSS median MiB  peak MiB  classes" + ("  NMT committed MiB: total, Tracing" if nmt == "summary" else ""))
for r in range(1, rounds + 1):
    for i in range(len(states)):
        state = states[(i + r - 1) % len(states)]
        result = run(f"round{r}-{state}", state)
        results[state].append(result)
        parts = result["parts"]
        nmt_text = f"  {mib(parts.get('Total', 0)):7.1f} {mib(parts.get('Tracing', 0)):6.1f}" if parts else ""
        print(f"{r:5d}  {state:<11}  {mib(result['rss']):14.1f}  {mib(result['peak']):8.1f}  {result['classes']:7d}{nmt_text}", flush=True)

median = statistics.median
base = states[0]
def med(state, f):
    return median(f(x) for x in results[state])
print(f"\n| state | RSS median MiB | peak (VmHWM) MiB | RSS − {base} | peak − {base} | classes |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for state in states:
    rss, peak = med(state, lambda x: x["rss"]), med(state, lambda x: x["peak"])
    print(f"| {state} | {mib(rss):.1f} | {mib(peak):.1f} | {mib(rss - med(base, lambda x: x['rss'])):+.1f} | "
          f"{mib(peak - med(base, lambda x: x['peak'])):+.1f} | {med(state, lambda x: x['classes']):.0f} |")
print(f"(medians of {rounds} rounds; each run's RSS is the median of its samples over the measured window)")
if nmt == "summary":
    print(f"\n| NMT part, committed MiB | " + " | ".join(states) + " |")
    print("| --- |" + " ---: |" * len(states))
    for part in PARTS:
        cells = []
        for state in states:
            value = med(state, lambda x: x["parts"].get(part, 0))
            delta = value - med(base, lambda x: x["parts"].get(part, 0))
            cells.append(f"{mib(value):.1f}" + ("" if state == base else f" ({mib(delta):+.1f})"))
        print(f"| {part} | " + " | ".join(cells) + " |")
    print(f"(medians of {rounds} rounds, in brackets the difference to {base}; Class: class space and class data; Metaspace: class metadata)")
for state in states:
    health = [x["health"] for x in results[state] if x["health"]]
    if health:
        pauses = health[-1]["pauses"]
        keep = {k: pauses[k] for k in ("records_kept", "records_max", "jfr_memory") if k in pauses}
        if keep:
            print(f"{state}: /health pauses {json.dumps(keep)}")
PY
