#!/usr/bin/env bash
# What the agent, loaded and disarmed, costs a server (docs/benchmarks.md, "the agent's overhead"): the
# same test app is started without and with the agent in alternating rounds (a fresh JVM for every run;
# the order within a pair alternates), warmed up with wrk, then loaded with wrk for the measured window.
# Each run gives the server's CPU per request (utime+stime of the JVM from /proc/PID/stat over the
# measured window, divided by the requests wrk completed in it) and its throughput (wrk's Requests/sec).
# Each pair gives a ratio (with agent / without) of both; the script prints every pair, then the median
# ratio of each with two 95% confidence intervals of the median: distribution-free (sign test, from the
# order statistics of the ratios) and bootstrap (percentile, 10,000 seeded resamples).
#
#   agent/bench/overhead.sh [--server jetty12|jetty94|tomcat|netty|undertow|jdkhttp] [--out DIR]
#
# Environment: PAIRS=10  WARMUP_S=10  MEASURE_S=10  CONNECTIONS=16  THREADS=1
#   JAVA=java  JVM_OPTS="-Xmx512m"  AGENT_OPTS="admin=127.0.0.1:0"
#   BASELINE_AGENT_OPTS (unset: the baseline runs without the agent; set: with the agent and these options,
#     e.g. observe=off against AGENT_OPTS with observe=on: agent/bench/observe-overhead.sh)
#   SERVER_CPUS / WRK_CPUS (taskset CPU lists, e.g. 0 and 1; default: no pinning)  SKIP_BUILD=1
# A smoke run: PAIRS=2 WARMUP_S=1 MEASURE_S=1 agent/bench/overhead.sh
# Seeing 1% needs a quiet machine, pinning, and more pairs than the default; read the intervals, not
# only the medians. Needs wrk, curl and python3.
set -uo pipefail
cd "$(dirname "$0")/../.."

SERVER=jetty12; OUT=/tmp/loadsmith-agent-overhead
while [[ $# -gt 0 ]]; do
  case "$1" in
    --server) SERVER="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "overhead.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
PAIRS=${PAIRS:-10}; WARMUP_S=${WARMUP_S:-10}; MEASURE_S=${MEASURE_S:-10}
CONNECTIONS=${CONNECTIONS:-16}; THREADS=${THREADS:-1}; JAVA=${JAVA:-java}; JVM_OPTS=${JVM_OPTS:--Xmx512m}
AGENT_OPTS=${AGENT_OPTS:-admin=127.0.0.1:0}; BASELINE_AGENT_OPTS=${BASELINE_AGENT_OPTS:-}; SERVER_CPUS=${SERVER_CPUS:-}; WRK_CPUS=${WRK_CPUS:-}
for n in PAIRS WARMUP_S MEASURE_S CONNECTIONS THREADS; do
  [[ "${!n}" =~ ^[1-9][0-9]*$ ]] || { echo "overhead.sh: $n must be a whole number > 0 (got '${!n}')" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "overhead.sh: wrk is missing (apt-get install wrk)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "overhead.sh: python3 is missing" >&2; exit 2; }
command -v curl >/dev/null || { echo "overhead.sh: curl is missing" >&2; exit 2; }

source agent/bench/apps.sh
prepare_app overhead.sh "$SERVER" "$OUT"
TICKS=$(getconf CLK_TCK)
pin() { # pin CPUS COMMAND...
  local cpus=$1; shift
  if [[ -n $cpus ]]; then taskset -c "$cpus" "$@"; else "$@"; fi
}

SERVER_PID=""
stop_server() {
  [[ -n $SERVER_PID ]] || return 0
  exec 3>&-
  for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null
  SERVER_PID=""
}
trap stop_server EXIT

# start_server LABEL AGENT(0|1): starts the app (it exits when its standard input, fd 3 here, closes)
start_server() {
  local log="$OUT/$1.log" fifo="$OUT/stdin.fifo" args=($JVM_OPTS -Dsun.net.httpserver.nodelay=true)
  [[ $2 == 1 ]] && args+=("-javaagent:$AGENT_JAR=$AGENT_OPTS")
  [[ $2 == 0 && -n $BASELINE_AGENT_OPTS ]] && args+=("-javaagent:$AGENT_JAR=$BASELINE_AGENT_OPTS")
  rm -f "$fifo"; mkfifo "$fifo"
  local pinning=()
  [[ -n $SERVER_CPUS ]] && pinning=(taskset -c "$SERVER_CPUS")
  : >"$log"
  # a simple command, so that $! is the JVM itself (taskset execs it)
  "${pinning[@]}" "$JAVA" "${args[@]}" -cp "$CP" "$MAIN" <"$fifo" >"$log" 2>&1 &
  SERVER_PID=$!
  exec 3>"$fifo"
  local deadline=$((SECONDS + 60))
  until grep -q '^PORT=' "$log" && { [[ $2 == 0 && -z $BASELINE_AGENT_OPTS ]] || grep -q 'admin API on' "$log"; }; do
    if (( SECONDS > deadline )) || ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "overhead.sh: the $SERVER app did not start (see $log)" >&2; exit 3
    fi
    sleep 0.1
  done
  PORT=$(grep -m1 '^PORT=' "$log" | cut -d= -f2)
  # its first answer, before wrk's warm-up (a cold server on a busy machine can take seconds)
  until [[ $(curl -s -o /dev/null -m 10 -w '%{http_code}' "http://127.0.0.1:$PORT/fast") == 200 ]]; do
    if (( SECONDS > deadline )); then
      echo "overhead.sh: the $SERVER app never answered GET /fast with 200 (see $log)" >&2; exit 3
    fi
    sleep 0.1
  done
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# run LABEL AGENT: one run; appends "LABEL cpu_us_per_request requests_per_second" to $OUT/runs.txt
run() {
  start_server "$1" "$2"
  local url="http://127.0.0.1:$PORT/fast"
  pin "$WRK_CPUS" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP_S}s" "$url" >"$OUT/$1.warmup.txt" 2>&1
  local before after
  before=$(cpu_ticks "$SERVER_PID")
  pin "$WRK_CPUS" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${MEASURE_S}s" "$url" >"$OUT/$1.wrk.txt" 2>&1
  after=$(cpu_ticks "$SERVER_PID")
  stop_server
  local requests rate
  requests=$(grep -oE '^ *[0-9]+ requests in' "$OUT/$1.wrk.txt" | grep -oE '[0-9]+' | head -1)
  rate=$(grep -oE 'Requests/sec: *[0-9.]+' "$OUT/$1.wrk.txt" | grep -oE '[0-9.]+$')
  [[ -n $requests && $requests -gt 0 && -n $rate ]] || { echo "overhead.sh: no requests counted by wrk (see $OUT/$1.wrk.txt)" >&2; exit 3; }
  echo "$1 $(python3 -c "print(($after - $before) / $TICKS / $requests * 1e6)") $rate" >>"$OUT/runs.txt"
}

if [[ -n $BASELINE_AGENT_OPTS ]]; then BASELINE="the agent with $BASELINE_AGENT_OPTS"; else BASELINE="no agent"; fi
echo "# baseline: $BASELINE; with: the agent with $AGENT_OPTS" >&2
echo "# $SERVER, $PAIRS pairs, warm-up ${WARMUP_S} s, measured ${MEASURE_S} s, wrk -t$THREADS -c$CONNECTIONS; raw files in $OUT" >&2
for pair in $(seq "$PAIRS"); do
  if (( pair % 2 == 1 )); then order="0 1"; else order="1 0"; fi
  for agent in $order; do
    if [[ $agent == 1 ]]; then run "pair$pair-with" 1; else run "pair$pair-without" 0; fi
  done
  echo "# pair $pair done" >&2
done

python3 - "$OUT/runs.txt" "$PAIRS" <<'PY'
import math, random, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, cpu, rate = line.split()
    runs[label] = (float(cpu), float(rate))
pairs = int(sys.argv[2])
cpu_ratio, rate_ratio = [], []
print("pair  cpu_us/req without  with    ratio  | req/s without  with      ratio")
for p in range(1, pairs + 1):
    (c0, r0), (c1, r1) = runs[f"pair{p}-without"], runs[f"pair{p}-with"]
    cpu_ratio.append(c1 / c0); rate_ratio.append(r1 / r0)
    print(f"{p:4d}  {c0:16.2f}  {c1:6.2f}  {c1 / c0:6.3f} | {r0:13.0f}  {r1:8.0f}  {r1 / r0:6.3f}")

def sign_test_ci(values, level=0.95):
    """Distribution-free interval of the median: order statistics k and n-k+1, with its exact coverage."""
    xs, n = sorted(values), len(values)
    best = None
    for k in range(1, n // 2 + 1):
        tail = sum(math.comb(n, i) for i in range(k)) / 2 ** n
        coverage = 1 - 2 * tail
        if coverage >= level:
            best = (xs[k - 1], xs[n - k], coverage)
    return best

def bootstrap_ci(values, level=0.95, resamples=10000, seed=17):
    rng = random.Random(seed)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    return medians[int((1 - level) / 2 * resamples)], medians[int((1 + level) / 2 * resamples) - 1]

for name, ratios in (("CPU per request", cpu_ratio), ("throughput", rate_ratio)):
    median = statistics.median(ratios)
    sign = sign_test_ci(ratios)
    boot = bootstrap_ci(ratios)
    sign_text = f"[{sign[0]:.3f}, {sign[1]:.3f}] ({sign[2] * 100:.1f}%)" if sign else "none (too few pairs)"
    print(f"{name}: median ratio with/without {median:.3f}; sign-test interval {sign_text}; "
          f"bootstrap 95% [{boot[0]:.3f}, {boot[1]:.3f}]")
PY
