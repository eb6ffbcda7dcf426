#!/usr/bin/env bash
# Where the tester's CPU goes, thread by thread (docs/benchmarks.md, "The tester's threads"): it starts its
# own nginx (one worker, loopback), runs `loadsmith run` open loops (constant arrivals, 16 connections,
# --progress none) at each rate in turn, ROUNDS rounds, and samples the tester every INTERVAL seconds,
# stamped on CLOCK_MONOTONIC (System.nanoTime()'s clock on Linux): /proc/PID/task/TID/stat (utime + stime,
# fields 14 and 15) and, where the kernel has it, /proc/PID/task/TID/sched (se.sum_exec_runtime, the same
# CPU in ns; nr_voluntary_switches, the thread's wake-ups). Per run it takes the first sample at or after
# the counted run's start_ns and the last at or before its end_ns (results.json) and divides each thread's
# figures between them by the time between them. It prints three tables, a row per thread (its Java name,
# digits as N: `GC Thread#N`) and a column per rate, each cell the median over rounds with each round's
# value in brackets: CPU ms per second of the run from utime + stime (with the whole process, the threads
# that exited inside the window, the CPU per request of the window and of results.json, the send lateness
# p99 and how busy the other processes kept the box), the same from se.sum_exec_runtime, and wake-ups per
# second. Also in OUT/table.md.
#
#   sidecar-tester/bench/tester-threads.sh [--rates "20 200 2000"] [--out DIR] [--set KEY=VALUE ...]
#
# --set is passed to every loadsmith run (e.g. --set load.tester_pauses=off).
# Environment: ROUNDS=3  DURATION_S=20  WARMUP_S=2  CONNECTIONS=16  INTERVAL=0.5 (seconds between samples)
#   JAVA_OPTS (for loadsmith)  SKIP_BUILD=1 (use the jar already built)  JAR=PATH (another jar; no build)
#   MIN_MS=0.05 (rows under it at every rate are summed into "(other threads)")
# The Java names come from one `jcmd PID Thread.print` taken in the warm-up (/proc's comm keeps 15
# characters: loadsmith-pause-jfr and loadsmith-pause-sync are both `loadsmith-pause` there); threads born
# after it keep their comm. utime + stime are whole ticks (CLK_TCK, 100 a second here): over a 20 s window a
# row moves in steps of 0.5 ms/s, which is why the second table is there. Needs nginx and python3 (jcmd
# for the names; nginx-light is installed with apt-get when missing). Run it on a quiet box: other work
# moves every figure.
set -uo pipefail
cd "$(dirname "$0")/../.."
source sidecar-tester/bench/lib.sh

RATES="20 200 2000"; OUT=/tmp/loadsmith-tester-threads; SETS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rates) RATES="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --set) SETS+=(--set "$2"); shift 2 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "tester-threads.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
ROUNDS=${ROUNDS:-3}; DURATION_S=${DURATION_S:-20}; WARMUP_S=${WARMUP_S:-2}; CONNECTIONS=${CONNECTIONS:-16}
INTERVAL=${INTERVAL:-0.5}; JAVA_OPTS=${JAVA_OPTS:-}; MIN_MS=${MIN_MS:-0.05}

rm -rf "$OUT"; mkdir -p "$OUT"
need() { # need COMMAND PACKAGE
  command -v "$1" >/dev/null && return 0
  echo "# $1 is missing: installing Debian's $2 with apt-get" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } >"$OUT/apt-$2.log" 2>&1 \
    || { echo "tester-threads.sh: cannot install $2 (see $OUT/apt-$2.log)" >&2; exit 2; }
}
need python3 python3
command -v jcmd >/dev/null || echo "# jcmd is missing: threads are named by their comm (15 characters)" >&2
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need nginx nginx-light
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

[[ -n ${JAR:-} ]] && SKIP_BUILD=1
JAR=${JAR:-sidecar-tester/target/loadsmith.jar}
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building loadsmith.jar (./mvnw package -DskipTests)" >&2
  ./mvnw -B -q -pl sidecar-tester -am -DskipTests package >"$OUT/build.log" 2>&1 \
    || { echo "tester-threads.sh: the build failed (see $OUT/build.log)" >&2; exit 2; }
fi
[[ -f $JAR ]] || { echo "tester-threads.sh: $JAR is missing" >&2; exit 2; }

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM


start_nginx() {
  local dir=$OUT/nginx port; port=$(free_port); mkdir -p "$dir"; chmod 755 "$dir"
  nginx_conf "$dir" "$port" "$dir/error.log"
  "$NGINX" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" >"$dir/stdout.log" 2>&1 &
  PIDS+=($!)
  wait_port "$port" || { echo "tester-threads.sh: nginx did not start (see $dir/error.log)" >&2; exit 2; }
  URL="http://127.0.0.1:$port/"
}

# The sampler: SAMPLER PID FILE INTERVAL WAIT_FOR_PAUSE_THREADS; one block per sample until PID is gone:
#   S <monotonic ns> <box busy ticks> <box total ticks>   P <process utime+stime ticks>
#   T <tid> <utime+stime ticks> <se.sum_exec_runtime ns> <nr_voluntary_switches> <comm>  (-1: no /proc/TID/sched)
# and, once in the warm-up, N <tid> <Java name> from one thread dump.
cat >"$OUT/sampler.py" <<'P'
import os, re, subprocess, sys, time
pid, path, interval, want_pause = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4] == "1"
out = open(path, "w")
seen_loop_at = None
dumped = False

def ticks(stat):                       # utime + stime: fields 14 and 15 (after "pid (comm) ")
    rest = stat[stat.rindex(")") + 2:].split()
    return int(rest[11]) + int(rest[12])

def sched(path):                       # se.sum_exec_runtime (ms, ns precision) and nr_voluntary_switches
    run, woke = -1, -1
    try:
        for line in open(path):
            if line.startswith("se.sum_exec_runtime"):
                run = round(float(line.split(":")[1]) * 1e6)
            elif line.startswith("nr_voluntary_switches"):
                woke = int(line.split(":")[1])
    except OSError:                     # no CONFIG_SCHED_DEBUG: only the ticks
        pass
    return run, woke

def box():
    cpu = open("/proc/stat").readline().split()[1:]
    values = [int(v) for v in cpu[:8]]
    return sum(values) - values[3] - values[4], sum(values)   # busy (all but idle and iowait), total

while True:
    t = time.monotonic_ns()
    try:
        lines = []
        busy, total = box()
        lines.append("S %d %d %d" % (t, busy, total))
        lines.append("P %d" % ticks(open("/proc/%s/stat" % pid).read()))
        comms = []
        for tid in os.listdir("/proc/%s/task" % pid):
            try:
                stat = open("/proc/%s/task/%s/stat" % (pid, tid)).read()
                comm = open("/proc/%s/task/%s/comm" % (pid, tid)).read().strip()
            except OSError:
                continue                 # the thread exited between the listing and the read
            run, woke = sched("/proc/%s/task/%s/sched" % (pid, tid))
            comms.append(comm)
            lines.append("T %s %d %d %d %s" % (tid, ticks(stat), run, woke, comm))
    except (OSError, ValueError):
        break
    out.write("\n".join(lines) + "\n"); out.flush()
    if not dumped:
        pause_threads = sum(1 for c in comms if c.startswith("loadsmith-pause"))
        if seen_loop_at is None and any(c.startswith("loadsmith-loop") for c in comms):
            seen_loop_at = t
        # the warm-up: the observer's two threads run (it starts before the warm-up), or without one the loop
        ready = pause_threads >= 2 if want_pause else seen_loop_at is not None and t - seen_loop_at >= 0.5e9
        if ready:
            dumped = True
            try:
                dump = subprocess.run(["jcmd", pid, "Thread.print"], capture_output=True, text=True, timeout=20).stdout
                for m in re.finditer(r'^"(.*)" .*?nid=(0x[0-9a-f]+)', dump, re.M):
                    out.write("N %d %s\n" % (int(m.group(2), 16), m.group(1)))
            except (OSError, subprocess.SubprocessError):
                pass
    time.sleep(interval)
P

# run RATE ROUND: one loadsmith run, sampled; leaves $OUT/r$RATE-$ROUND/ (results.json) and .samples
run() {
  local rate=$1 round=$2 name=o$1-r$2 dir=$OUT/o$1-r$2
  printf 'name: %s\ntarget: {url: "%s"}\nload: {model: open, arrivals: constant, rate: %s, duration: %ss, warmup: %ss, connections: %s, grace: 5s, seed: 1}\n' \
    "$name" "$URL" "$rate" "$DURATION_S" "$WARMUP_S" "$CONNECTIONS" >"$dir.yaml"
  local pauses=1
  [[ " ${SETS[*]:-} " == *"load.tester_pauses=off"* ]] && pauses=0
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar "$JAR" run "$dir.yaml" "${SETS[@]}" --progress none --out "$dir" >"$dir.log" 2>&1 &
  local pid=$!
  python3 "$OUT/sampler.py" "$pid" "$dir.samples" "$INTERVAL" "$pauses" &
  local sampler=$!
  wait "$pid" || echo "# loadsmith run $name failed (its figures are n/a): $(tail -n 1 "$dir.log")" >&2
  wait "$sampler"
  printf '%s\t%s\t%s\n' "$rate" "$round" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/loadavg.tsv"
}

start_nginx
echo "# nginx on $URL; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); rates $RATES, $ROUNDS rounds of ${DURATION_S}s" >&2
: >"$OUT/loadavg.tsv"
for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
  for rate in $RATES; do
    echo "# round $ROUND: open constant $rate/s for ${DURATION_S}s" >&2
    run "$rate" "$ROUND"
  done
done

python3 - "$OUT" "$RATES" "$ROUNDS" "$MIN_MS" "$(getconf CLK_TCK)" "${SETS[*]:-}" <<'P' | tee "$OUT/table.md"
import json, os, re, statistics, sys
from collections import defaultdict
out, rates, rounds, min_ms, hz, sets = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
ms_per_tick = 1000.0 / hz
MEASURES = ("ticks", "exec", "wakes")     # CPU ms/s by utime+stime, CPU ms/s by se.sum_exec_runtime, wake-ups/s

def window(rate, rnd):
    """({measure: {row: value per s of run}}, {figure: value}); None when the run or its samples are missing."""
    base = os.path.join(out, "o%s-r%d" % (rate, rnd))
    try:
        run = json.load(open(os.path.join(base, "results.json")))["runs"][0]
        text = open(base + ".samples").read().splitlines()
    except (OSError, ValueError, KeyError):
        return None
    samples, names, current = [], {}, None
    for line in text:
        kind, _, rest = line.partition(" ")
        if kind == "S":
            t, busy, total = map(int, rest.split())
            current = {"t": t, "busy": busy, "total": total, "threads": {}}
            samples.append(current)
        elif kind == "P":
            current["process"] = int(rest)
        elif kind == "T":
            tid, ticks, run_ns, woke, comm = rest.split(" ", 4)
            current["threads"][tid] = (int(ticks), int(run_ns), int(woke), comm)
        elif kind == "N":
            tid, name = rest.split(" ", 1)
            names[tid] = name
    inside = [s for s in samples if run["start_ns"] <= s["t"] <= run["end_ns"] and "process" in s]
    if len(inside) < 2:
        return None
    a, b = inside[0], inside[-1]
    seconds = (b["t"] - a["t"]) / 1e9
    rows = {m: defaultdict(float) for m in MEASURES}
    live_ticks = 0
    for tid, (ticks, run_ns, woke, comm) in b["threads"].items():
        t0, r0, w0, _ = a["threads"].get(tid, (0, 0, 0, comm))     # born inside the window: from 0
        name = re.sub(r"(?<=[#-])\d+|(?<=[A-Za-z])\d+$", "N", names.get(tid, comm))
        rows["ticks"][name] += (ticks - t0) * ms_per_tick / seconds
        if run_ns >= 0 and r0 >= 0:
            rows["exec"][name] += (run_ns - r0) / 1e6 / seconds
            rows["wakes"][name] += (woke - w0) / seconds
        live_ticks += ticks - t0
    process = (b["process"] - a["process"]) * ms_per_tick
    sent = run["counts"]["sent"] * seconds / (run["duration_ms"] / 1000.0)   # the window's share of the sends
    others = ((b["busy"] - a["busy"]) - (b["process"] - a["process"])) / hz / seconds   # cores, nginx included
    figures = {
        "(exited threads)": (process - live_ticks * ms_per_tick) / seconds,
        "all threads (process)": process / seconds,
        "CPU per request, window (us)": process * 1000.0 / sent if sent else float("nan"),
        "CPU per request, results.json cost (us)": run["cost"]["cpu_ns_per_request"] / 1000.0,
        "send lateness p99 (ms)": run["send_lateness_ms"]["p99"],
        "other processes, nginx included (cores busy)": others,
        "window (s)": seconds,
    }
    return rows, figures

data = {(r, n): window(r, n) for r in rates for n in range(1, rounds + 1)}
present = {r: [n for n in range(1, rounds + 1) if data[(r, n)] is not None] for r in rates}

def values(measure, name, rate):           # one value per round that ran (0: the thread was not there)
    return [data[(rate, n)][0][measure].get(name, 0.0) for n in present[rate]]

def cell(vs, fmt="%.1f"):
    if not vs:
        return "n/a"
    return fmt % statistics.median(vs) + " (" + ", ".join(fmt % v for v in vs) + ")"

def table(measure, title, fmt, floor):
    names = set()
    for got in data.values():
        if got is not None:
            names.update(got[0][measure])
    if not names:
        return
    med = lambda n, r: statistics.median(values(measure, n, r)) if present[r] else 0.0
    big = sorted((n for n in names if any(med(n, r) >= floor for r in rates)), key=lambda n: -max(med(n, r) for r in rates))
    print(title)
    print()
    print("| thread | " + " | ".join("%s/s" % r for r in rates) + " |")
    print("| --- | " + " | ".join("---:" for _ in rates) + " |")
    for n in big:
        print("| %s | %s |" % (n, " | ".join(cell(values(measure, n, r), fmt) for r in rates)))
    rest = []
    for r in rates:
        rest.append(cell([sum(data[(r, i)][0][measure].get(n, 0.0) for n in names if n not in big) for i in present[r]], fmt))
    print("| (other threads) | %s |" % " | ".join(rest))
    if measure == "ticks":
        for key, f in [("(exited threads)", "%.1f"), ("all threads (process)", "%.1f"),
                       ("CPU per request, window (us)", "%.0f"), ("CPU per request, results.json cost (us)", "%.0f"),
                       ("send lateness p99 (ms)", "%.3f"),
                       ("other processes, nginx included (cores busy)", "%.2f"), ("window (s)", "%.1f")]:
            print("| %s | %s |" % (key, " | ".join(cell([data[(r, i)][1][key] for i in present[r]], f) for r in rates)))
    print()

head = "open constant arrivals, %d rounds%s; each cell: the median over rounds (each round's value)" % (
    rounds, "; " + sets if sets else "")
print(head)
print()
table("ticks", "CPU ms per second of the counted run, utime + stime (/proc/PID/task/TID/stat, %d ticks/s)" % hz, "%.1f", min_ms)
table("exec", "CPU ms per second of the counted run, se.sum_exec_runtime (/proc/PID/task/TID/sched, ns)", "%.2f", min_ms)
table("wakes", "wake-ups per second of the counted run (nr_voluntary_switches: the thread blocked, then ran again)", "%.0f", 1.0)
P
echo "# load average after each run: $OUT/loadavg.tsv; samples, logs and results.json of every run: $OUT" >&2
