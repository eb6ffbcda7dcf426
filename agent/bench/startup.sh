#!/usr/bin/env bash
# What the agent adds to a service's start (docs/agent.md, "What the agent costs its host"): the same test
# app is started without and with -javaagent, alternating (without first in odd pairs), RUNS times each,
# a fresh JVM every time. Each run times, from the launch of the JVM: its first 200 answer to GET /fast
# (polled from the moment the app prints PORT=, i.e. listens), the JVM's CPU time (utime+stime from
# /proc/PID/stat) at that answer, and, with the agent, the agent's "admin API on" (its gates in place).
# It prints every run, then the medians, the difference of the medians, and the median of the pairwise
# differences with its distribution-free interval (sign test: with 7 pairs, the smallest and the largest
# difference, 98.4 % coverage).
#
#   agent/bench/startup.sh [--server jetty12|jetty94|tomcat|netty|undertow|jdkhttp|springmvc] [--out DIR]
#
# Environment: RUNS=7  JAVA=java  JVM_OPTS="-Xmx256m"  AGENT_OPTS="admin=127.0.0.1:0"
#   SERVER_CPUS (a taskset CPU list for the app; default: no pinning)  SKIP_BUILD=1
# A smoke run: RUNS=2 agent/bench/startup.sh
# The aim is at most 150 ms added to the first answer; measure it on a quiet machine. Needs python3.
set -uo pipefail
cd "$(dirname "$0")/../.."

SERVER=jetty12; OUT=/tmp/loadsmith-agent-startup
while [[ $# -gt 0 ]]; do
  case "$1" in
    --server) SERVER="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "startup.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
RUNS=${RUNS:-7}; JAVA=${JAVA:-java}; JVM_OPTS=${JVM_OPTS:--Xmx256m}; AGENT_OPTS=${AGENT_OPTS:-admin=127.0.0.1:0}
SERVER_CPUS=${SERVER_CPUS:-}
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "startup.sh: RUNS must be a whole number > 0 (got '$RUNS')" >&2; exit 2; }
command -v python3 >/dev/null || { echo "startup.sh: python3 is missing" >&2; exit 2; }

source agent/bench/apps.sh
prepare_app startup.sh "$SERVER" "$OUT"
PINNING=""
[[ -n $SERVER_CPUS ]] && PINNING="taskset -c $SERVER_CPUS"

echo "# $SERVER, $RUNS pairs, $JAVA $JVM_OPTS [-javaagent:$AGENT_JAR=$AGENT_OPTS]; logs in $OUT" >&2
exec python3 - "$OUT" "$RUNS" "$JAVA" "$JVM_OPTS" "-javaagent:$AGENT_JAR=$AGENT_OPTS" "$CP" "$MAIN" "$PINNING" <<'PY'
import http.client, math, os, statistics, subprocess, sys, threading, time

out, runs, java, jvm_opts, agent_arg, cp, main, pinning = sys.argv[1:]
runs = int(runs)
ticks = os.sysconf("SC_CLK_TCK")
TIMEOUT_S = 120

def cpu_ms(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / ticks

def first_answer(port, deadline):
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/fast")
            status = conn.getresponse().status
            conn.close()
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.002)
    raise TimeoutError("no 200 answer")

def run(label, agent):
    """Launches the app; returns (ms to first 200 answer, CPU ms at it, ms to 'admin API on' or None)."""
    command = pinning.split() + [java] + jvm_opts.split() + ([agent_arg] if agent else []) + ["-cp", cp, main]
    stderr = open(os.path.join(out, label + ".log"), "w")
    admin = [None]
    start = time.monotonic()
    app = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    def seen(line):
        if admin[0] is None and "admin API on" in line:
            admin[0] = (time.monotonic() - start) * 1000
    def read_stderr():
        for line in app.stderr:
            stderr.write(line)
            seen(line)
    def read_stdout():  # an app that routes java.util.logging to its own logger (Spring Boot) prints the agent's line here
        for line in app.stdout:
            seen(line)
    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    deadline = start + TIMEOUT_S
    try:
        port = None
        for line in app.stdout:
            seen(line)
            if line.startswith("PORT="):
                port = int(line[5:])
                break
        if port is None:
            raise RuntimeError("the app exited before printing PORT=")
        threading.Thread(target=read_stdout, daemon=True).start()
        first_answer(port, deadline)
        answer_ms = (time.monotonic() - start) * 1000
        cpu = cpu_ms(app.pid)
        while agent and admin[0] is None and time.monotonic() < deadline and app.poll() is None:
            time.sleep(0.01)
        if agent and admin[0] is None:
            raise RuntimeError("the agent never logged 'admin API on'")
        return answer_ms, cpu, admin[0]
    except (OSError, RuntimeError) as e:
        sys.exit(f"startup.sh: {label}: {e} (see {stderr.name})")
    finally:
        app.stdin.close()
        try:
            app.wait(30)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()
        reader.join(5)
        stderr.close()

without, with_ = [], []
print("pair  first answer ms without  with   difference | CPU ms without  with | admin API on ms")
for pair in range(1, runs + 1):
    order = (False, True) if pair % 2 == 1 else (True, False)
    results = {agent: run(f"pair{pair}-{'with' if agent else 'without'}", agent) for agent in order}
    without.append(results[False]); with_.append(results[True])
    (a0, c0, _), (a1, c1, admin) = results[False], results[True]
    print(f"{pair:4d}  {a0:23.0f}  {a1:5.0f}  {a1 - a0:+10.0f} | {c0:14.0f}  {c1:4.0f} | {admin:15.0f}", flush=True)

def sign_test_ci(values, level=0.95):
    """Distribution-free interval of the median: order statistics k and n-k+1, with its exact coverage."""
    xs, n = sorted(values), len(values)
    best = None
    for k in range(1, n // 2 + 1):
        coverage = 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n
        if coverage >= level:
            best = (xs[k - 1], xs[n - k], coverage)
    return best

median = statistics.median
m0, m1 = median(r[0] for r in without), median(r[0] for r in with_)
diffs = [w[0] - o[0] for w, o in zip(with_, without)]
ci = sign_test_ci(diffs)
ci_text = f"[{ci[0]:+.0f}, {ci[1]:+.0f}] ms ({ci[2] * 100:.1f} %)" if ci else "none (too few pairs)"
print(f"first answer: median without {m0:.0f} ms, with {m1:.0f} ms, difference {m1 - m0:+.0f} ms; "
      f"median of the pairwise differences {median(diffs):+.0f} ms, sign-test interval {ci_text}")
print(f"CPU at the first answer: median without {median(r[1] for r in without):.0f} ms, "
      f"with {median(r[1] for r in with_):.0f} ms")
print(f"admin API on (gates in place): median {median(r[2] for r in with_):.0f} ms after launch")
PY
