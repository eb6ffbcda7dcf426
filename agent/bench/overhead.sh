#!/usr/bin/env bash
# What the agent costs a server, state by state (docs/benchmarks.md, "the agent's overhead"): the same
# test app is started once per state in each round (a fresh JVM for every run; the order of the states
# rotates from one round to the next), warmed up with wrk, then loaded with wrk for the measured window.
# States: none (no agent), disarmed (the agent, nothing armed: with its default observe=armed the pause
# observer does not run), armed-idle (the agent armed, before the warm-up, with a plan whose one stall lies
# after the measured window: the gates armed, the observer running as the default has it), observing (the
# agent with observe=always, nothing armed), off (the agent with observe=off, nothing armed). Each run
# gives the server's CPU per request (utime+stime of the JVM from /proc/PID/stat over the measured window,
# divided by the requests wrk completed in it) and its throughput (wrk's Requests/sec); a state's run
# checks /health first (the observer runs or not, as the state says). Each round gives, for every state
# after the first, a ratio to the first state of the same round; the script prints every round, then per
# state the median ratio of each with two 95% confidence intervals of the median: distribution-free (sign
# test, from the order statistics of the ratios) and bootstrap (percentile, 10,000 seeded resamples).
# Each run also gives the share of the JVM's CPU taken by the agent's own threads and JFR's (per thread,
# from /proc/PID/task/*/schedstat), printed per state with the same two intervals.
#
#   agent/bench/overhead.sh [--server jetty12|jetty94|tomcat|netty|undertow|jdkhttp|springmvc] [--out DIR] [--same-jvm]
#
# --same-jvm: one JVM with the agent for the whole bench, its state switched between disarmed and
# armed-idle by POST /arm and POST /disarm (then waiting, under load, for the observer's grace to end), the
# order flipped every round (D A, A D, D A, ...): each round's ratio compares two adjacent windows of the
# same JIT-compiled server, without a fresh JVM's JIT history (on a virtual machine whose speed drifts it
# narrows nothing: docs/benchmarks.md). It measures what arming costs; it cannot measure none or observing
# (a JVM without the agent, or with observe=always).
#
# Environment: PAIRS=10 (rounds)  WARMUP_S=10  MEASURE_S=10  CONNECTIONS=16  THREADS=1
#   STATES="none disarmed armed-idle observing" (the first is the baseline of the ratios)
#   JAVA=java  JVM_OPTS="-Xmx512m"  AGENT_OPTS="" (every state with the agent adds its own observe= and an
#     admin= on a free port)
#   SERVER_CPUS / WRK_CPUS (taskset CPU lists, e.g. 0 and 1; default: no pinning)  SKIP_BUILD=1
# A smoke run: PAIRS=2 WARMUP_S=1 MEASURE_S=1 agent/bench/overhead.sh
# On a quiet, pinned box (the ratios to none see 1 % only where the machine's speed holds still): PAIRS=20 WARMUP_S=10 MEASURE_S=10 SERVER_CPUS=0 WRK_CPUS=1 agent/bench/overhead.sh
# Read the intervals, not only the medians. Needs wrk, curl and python3.
set -uo pipefail
cd "$(dirname "$0")/../.."

SERVER=jetty12; OUT=/tmp/loadsmith-agent-overhead; SAME_JVM=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --server) SERVER="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --same-jvm) SAME_JVM=1; shift ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "overhead.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
PAIRS=${PAIRS:-10}; WARMUP_S=${WARMUP_S:-10}; MEASURE_S=${MEASURE_S:-10}
CONNECTIONS=${CONNECTIONS:-16}; THREADS=${THREADS:-1}; JAVA=${JAVA:-java}; JVM_OPTS=${JVM_OPTS:--Xmx512m}
AGENT_OPTS=${AGENT_OPTS:-}; SERVER_CPUS=${SERVER_CPUS:-}; WRK_CPUS=${WRK_CPUS:-}
DEFAULT_STATES="none disarmed armed-idle observing"
(( SAME_JVM )) && DEFAULT_STATES="disarmed armed-idle"
read -r -a STATE_LIST <<<"${STATES:-$DEFAULT_STATES}"
for n in PAIRS WARMUP_S MEASURE_S CONNECTIONS THREADS; do
  [[ "${!n}" =~ ^[1-9][0-9]*$ ]] || { echo "overhead.sh: $n must be a whole number > 0 (got '${!n}')" >&2; exit 2; }
done
(( ${#STATE_LIST[@]} >= 2 )) || { echo "overhead.sh: STATES must name at least two states (got '${STATES:-}')" >&2; exit 2; }
for state in "${STATE_LIST[@]}"; do
  case "$state" in
    none|disarmed|armed-idle|observing|off) ;;
    *) echo "overhead.sh: unknown state '$state' in STATES (none, disarmed, armed-idle, observing, off)" >&2; exit 2 ;;
  esac
done
if (( SAME_JVM )) && [[ ${STATE_LIST[*]} != "disarmed armed-idle" && ${STATE_LIST[*]} != "armed-idle disarmed" ]]; then
  echo "overhead.sh: --same-jvm switches between disarmed and armed-idle only (got STATES='${STATES:-}')" >&2; exit 2
fi
command -v wrk >/dev/null || { echo "overhead.sh: wrk is missing (apt-get install wrk)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "overhead.sh: python3 is missing" >&2; exit 2; }
command -v curl >/dev/null || { echo "overhead.sh: curl is missing" >&2; exit 2; }

source agent/bench/apps.sh
source sidecar-tester/bench/lib.sh   # free_port
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

# agent_options STATE: the -javaagent options of a state (AGENT_OPTS first), or nothing for none
agent_options() {
  local extra=${AGENT_OPTS:+$AGENT_OPTS,}
  case "$1" in
    none) ;;
    disarmed|armed-idle) echo "${extra}observe=armed" ;;
    observing) echo "${extra}observe=always" ;;
    off) echo "${extra}observe=off" ;;
  esac
}

# start_server LABEL STATE: starts the app (it exits when its standard input, fd 3 here, closes); sets PORT
# and, with the agent, ADMIN (the admin API's URL, on a free port of this script's choosing: the agent's
# "admin API on" line can be lost when the app sets up its logging at the same moment, as Spring Boot does)
start_server() {
  local log="$OUT/$1.log" fifo="$OUT/stdin.fifo" args=($JVM_OPTS -Dsun.net.httpserver.nodelay=true) options
  options=$(agent_options "$2")
  ADMIN=""
  if [[ -n $options ]]; then
    local admin_port
    admin_port=$(free_port)
    ADMIN="http://127.0.0.1:$admin_port"
    args+=("-javaagent:$AGENT_JAR=$options,admin=127.0.0.1:$admin_port")
  fi
  rm -f "$fifo"; mkfifo "$fifo"
  local pinning=()
  [[ -n $SERVER_CPUS ]] && pinning=(taskset -c "$SERVER_CPUS")
  : >"$log"
  # a simple command, so that $! is the JVM itself (taskset execs it)
  "${pinning[@]}" "$JAVA" "${args[@]}" -cp "$CP" "$MAIN" <"$fifo" >"$log" 2>&1 &
  SERVER_PID=$!
  exec 3>"$fifo"
  local deadline=$((SECONDS + 120))
  # the admin API answers once the gates are in place
  # the agent's own /health: the free port picked for it can be taken by the app's ephemeral port meanwhile
  until grep -q '^PORT=' "$log" && { [[ -z $ADMIN ]] || curl -s -m 5 "$ADMIN/health" | grep -q '"agent":"loadsmith-agent"'; }; do
    if (( SECONDS > deadline )) || ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "overhead.sh: the $SERVER app did not start (see $log)" >&2; exit 3
    fi
    if grep -q 'loadsmith agent: inert' "$log"; then
      echo "overhead.sh: the agent is inert, its admin port $ADMIN taken meanwhile (see $log); run again" >&2; exit 3
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

# enter_state LABEL STATE: arms for armed-idle (one stall after the measured window), then checks that the
# observer runs (armed-idle, observing) or not (disarmed, off) as the state says
enter_state() {
  [[ $2 == none ]] && return 0
  if [[ $2 == armed-idle ]]; then
    local offset_ms=$(( (WARMUP_S + 2 * MEASURE_S + 60) * 1000 )) answer
    answer=$(curl -s -m 10 -H 'Content-Type: application/json' \
      -d "{\"stalls\": [{\"offset_ms\": $offset_ms, \"duration_ms\": 10}], \"kind\": \"block\"}" "$ADMIN/arm")
    [[ $answer == *'"armed_at_ns"'* ]] || { echo "overhead.sh: POST $ADMIN/arm failed: $answer" >&2; exit 3; }
  fi
  local want=false health
  [[ $2 == armed-idle || $2 == observing ]] && want=true
  [[ $2 == off ]] && want=none
  health=$(curl -s -m 10 "$ADMIN/health")
  echo "$health" >"$OUT/$1.health.json"
  if [[ $want == none ]]; then
    [[ $health == *'"pauses":{"observing":false}'* ]] || { echo "overhead.sh: $2: the observer is not off: $health" >&2; exit 3; }
  elif [[ $health != *"\"running\":$want"* ]]; then
    echo "overhead.sh: $2: /health does not say \"running\":$want: $health" >&2; exit 3
  fi
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# thread_cpu PID FILE: one line per thread of the JVM, "TID AGENT NS NAME": NS its CPU time (the scheduler's, from
# /proc/PID/task/TID/schedstat), AGENT 1 for the agent's own threads (loadsmith-*: the pause observer's
# sleeper and JFR reader, the admin API, the stall controller) and JFR's (JFR *, which only the observer
# starts). agent_share BEFORE AFTER: the agent threads' share of the JVM's CPU between two such files (by
# thread: one that began meanwhile counts from 0, one that ended is lost to both sides). That share is the
# agent's direct cost, a ratio within one window: the host's speed, which moves CPU per request by ±10 %
# from one window to the next on a virtual machine, cancels out of it
thread_cpu() {
  python3 - "$1" >"$2" <<'PY'
import glob, os, sys
for task in glob.glob(f"/proc/{sys.argv[1]}/task/*"):
    try:
        comm = open(f"{task}/comm").read().strip()
        ns = int(open(f"{task}/schedstat").read().split()[0])
    except OSError:
        continue  # a thread that ended meanwhile
    print(os.path.basename(task), int(comm.startswith("loadsmith-") or comm.startswith("JFR ")), ns, comm.replace(" ", "_"))
PY
}
agent_share() {
  python3 - "$1" "$2" <<'PY'
import sys
def read(path):
    return {tid: (int(agent), int(ns)) for tid, agent, ns, _ in (line.split() for line in open(path))}
before, after = read(sys.argv[1]), read(sys.argv[2])
agent = total = 0
for tid, (is_agent, ns) in after.items():
    delta = ns - before.get(tid, (0, 0))[1]
    total += delta
    agent += delta if is_agent else 0
print(agent / max(1, total))
PY
}

# load LABEL SECONDS: wrk against the app, unmeasured (a warm-up)
load() {
  pin "$WRK_CPUS" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${2}s" "http://127.0.0.1:$PORT/fast" >"$OUT/$1.txt" 2>&1
}

# run LABEL STATE: one run in a fresh JVM: start, enter the state, warm up, measure, stop
run() {
  start_server "$1" "$2"
  enter_state "$1" "$2"
  load "$1.warmup" "$WARMUP_S"
  measure "$1"
  stop_server
}

# switch_state LABEL STATE (--same-jvm): arms (armed-idle) or disarms and waits, under load, until the
# observer's grace has ended (disarmed); then checks /health and settles under load for a few seconds, so
# that neither the switch nor a first JFR start falls in the measured window
switch_state() {
  if [[ $2 == disarmed ]]; then
    curl -s -m 10 -X POST "$ADMIN/disarm" >/dev/null
    local deadline=$((SECONDS + 120))
    until curl -s -m 10 "$ADMIN/health" | grep -q '"running":false'; do
      (( SECONDS < deadline )) || { echo "overhead.sh: the observer still runs 120 s after the disarm" >&2; exit 3; }
      load "$1.grace" 5
    done
  fi
  enter_state "$1" "$2"
  load "$1.settle" 3
}

# measure LABEL: the measured window; appends "LABEL cpu_us_per_request requests_per_second agent_share" to
# $OUT/runs.txt
measure() {
  local before after
  before=$(cpu_ticks "$SERVER_PID"); thread_cpu "$SERVER_PID" "$OUT/$1.threads-before.txt"
  pin "$WRK_CPUS" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${MEASURE_S}s" "http://127.0.0.1:$PORT/fast" >"$OUT/$1.wrk.txt" 2>&1
  after=$(cpu_ticks "$SERVER_PID"); thread_cpu "$SERVER_PID" "$OUT/$1.threads-after.txt"
  local requests rate
  requests=$(grep -oE '^ *[0-9]+ requests in' "$OUT/$1.wrk.txt" | grep -oE '[0-9]+' | head -1)
  rate=$(grep -oE 'Requests/sec: *[0-9.]+' "$OUT/$1.wrk.txt" | grep -oE '[0-9.]+$')
  [[ -n $requests && $requests -gt 0 && -n $rate ]] || { echo "overhead.sh: no requests counted by wrk (see $OUT/$1.wrk.txt)" >&2; exit 3; }
  echo "$1 $(python3 -c "print(($after - $before) / $TICKS / $requests * 1e6)") $rate \
    $(agent_share "$OUT/$1.threads-before.txt" "$OUT/$1.threads-after.txt")" >>"$OUT/runs.txt"
}

echo "# states: ${STATE_LIST[*]} (ratios to ${STATE_LIST[0]}); the agent with AGENT_OPTS='$AGENT_OPTS' plus each state's options" >&2
echo "# $SERVER$( (( SAME_JVM )) && echo ", one JVM"), $PAIRS rounds, warm-up ${WARMUP_S} s, measured ${MEASURE_S} s, wrk -t$THREADS -c$CONNECTIONS; load average $(cut -d' ' -f1-3 /proc/loadavg); raw files in $OUT" >&2
count=${#STATE_LIST[@]}
if (( SAME_JVM )); then
  # one JVM: D A, A D, D A, ... (the state carries over between rounds, so half the rounds switch once)
  start_server same-jvm disarmed
  current=disarmed
  enter_state same-jvm "$current"
  load same-jvm.warmup "$WARMUP_S"
fi
for round in $(seq "$PAIRS"); do
  for i in $(seq 0 $((count - 1))); do
    state=${STATE_LIST[$(( (i + round - 1) % count ))]}
    if (( SAME_JVM )); then
      [[ $state == "$current" ]] || switch_state "round$round-$state" "$state"
      current=$state
      measure "round$round-$state"
    else
      run "round$round-$state" "$state"
    fi
  done
  echo "# round $round done" >&2
done
stop_server
echo "# load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" >&2

python3 - "$OUT/runs.txt" "$PAIRS" "${STATE_LIST[@]}" <<'PY'
import math, random, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, cpu, rate, share = line.split()
    runs[label] = (float(cpu), float(rate), float(share))
rounds, states = int(sys.argv[2]), sys.argv[3:]
base = states[0]
print("round  " + "  ".join(f"{s:>29}" for s in states) + "   (cpu_us/req, req/s, agent threads' % of the CPU)")
for r in range(1, rounds + 1):
    print(f"{r:5d}  " + "  ".join(f"{runs[f'round{r}-{s}'][0]:10.2f} {runs[f'round{r}-{s}'][1]:11.0f}"
                                  f" {runs[f'round{r}-{s}'][2] * 100:6.2f}" for s in states))

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

def interval(ratios):
    median, sign, boot = statistics.median(ratios), sign_test_ci(ratios), bootstrap_ci(ratios)
    sign_text = f"[{sign[0]:.3f}, {sign[1]:.3f}] ({sign[2] * 100:.1f}%)" if sign else "none (too few rounds)"
    return f"{median:.3f} {sign_text} [{boot[0]:.3f}, {boot[1]:.3f}]"

print(f"\n| state | CPU per request ÷ {base} | throughput ÷ {base} |")
print("| --- | --- | --- |")
for state in states[1:]:
    cpu = [runs[f"round{r}-{state}"][0] / runs[f"round{r}-{base}"][0] for r in range(1, rounds + 1)]
    rate = [runs[f"round{r}-{state}"][1] / runs[f"round{r}-{base}"][1] for r in range(1, rounds + 1)]
    print(f"| {state} | {interval(cpu)} | {interval(rate)} |")
print("(each cell: median ratio, sign-test interval with its coverage, bootstrap 95% interval)")
print("\n| state | the agent's own threads and JFR's, % of the server's CPU |")
print("| --- | --- |")
for state in states:
    share = [runs[f"round{r}-{state}"][2] * 100 for r in range(1, rounds + 1)]
    print(f"| {state} | {interval(share)} |")
print("(each cell: median, sign-test interval with its coverage, bootstrap 95% interval; threads named loadsmith-* and JFR *)")
PY
