#!/usr/bin/env bash
# What each part of the pause observer costs by itself (docs/benchmarks.md, "The pause observer, part by
# part"): for each configuration a fresh JVM starts the observer with those parts, waits WARMUP_S, then
# measures SECONDS: the process's CPU (µs a second), each observer and JFR thread's CPU, and the process's
# voluntary context switches a second (ObserverPartsBench, in stall-service's test classes). ROUNDS rounds,
# the configurations in the same order each round; prints a Markdown table of the medians.
#
#   stall-service/bench/observer-parts.sh                      from the repository's root
#   ROUNDS=3 WARMUP_S=5 SECONDS_PER_RUN=20 CONFIGS="none jfr sleeper1ms" stall-service/bench/observer-parts.sh
#   SKIP_BUILD=1 ...                                           reuses the last build
#   BUSY=1 CONFIGS="sleeper1ms sleeper5ms" ...                 beside a thread that keeps the JVM's one CPU
#                                                              busy (taskset -c BUSY_CPU, default 0): read the
#                                                              threads' column (the process's includes the spinner)
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${ROUNDS:-3}; WARMUP_S=${WARMUP_S:-5}; SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}
CONFIGS=${CONFIGS:-"none jfr jfr+sync1000ms jfr+sync100ms sleeper1ms sleeper2ms sleeper5ms sleeper1ms+jfr+sync100ms sleeper1ms+jfr+sync1000ms sleeper2ms+jfr+sync1000ms"}
for n in ROUNDS WARMUP_S SECONDS_PER_RUN; do
  [[ "${!n}" =~ ^[1-9][0-9]*$ ]] || { echo "observer-parts.sh: $n must be a whole number > 0 (got '${!n}')" >&2; exit 2; }
done
out=stall-service/target/observer-parts-bench
mkdir -p "$out"
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building stall-service's test classes (./mvnw test-compile)" >&2
  ./mvnw -B -q -pl stall-service test-compile >"$out/build.log" 2>&1 \
    || { echo "observer-parts.sh: the build failed (see $out/build.log)" >&2; exit 2; }
fi
busy=false; pin=()
if [[ "${BUSY:-}" == 1 ]]; then
  busy=true; pin=(taskset -c "${BUSY_CPU:-0}")
fi
: >"$out/runs.txt"
for round in $(seq "$ROUNDS"); do
  for config in $CONFIGS; do
    "${pin[@]}" java -Xmx256m -Dloadsmith.bench.busy="$busy" -cp "stall-service/target/test-classes:stall-service/target/classes" \
      io.loadsmith.stall.observe.ObserverPartsBench "$config" "$WARMUP_S" "$SECONDS_PER_RUN" >>"$out/runs.txt" \
      || { echo "observer-parts.sh: the run of $config failed" >&2; exit 3; }
  done
  echo "# round $round done" >&2
done
echo "# $ROUNDS rounds, warm-up $WARMUP_S s, measured $SECONDS_PER_RUN s; load average: $(cut -d' ' -f1-3 /proc/loadavg); raw lines in $out/runs.txt" >&2
python3 - "$out/runs.txt" $CONFIGS <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    parts = line.split()
    config, process, switches = parts[0], float(parts[1]), float(parts[-1])
    threads = dict((k, float(v)) for k, v in (p.split("=") for p in parts[2:-1]))
    rows.setdefault(config, []).append((process, threads, switches))
base = statistics.median(r[0] for r in rows.get("none", [(0, {}, 0)]))
base_sw = statistics.median(r[2] for r in rows.get("none", [(0, {}, 0)]))
print("| configuration | process CPU, µs/s (median) | over `none` | observer threads, µs/s | JFR's threads, µs/s | context switches/s (over `none`) |")
print("| --- | ---: | ---: | --- | ---: | ---: |")
for config in sys.argv[2:]:
    runs = rows[config]
    process = statistics.median(r[0] for r in runs)
    switches = statistics.median(r[2] for r in runs)
    names = sorted({n for r in runs for n in r[1]})
    own = ", ".join(f"{n.replace('loadsmith-pause-', '')} {statistics.median(r[1].get(n, 0) for r in runs):.0f}"
                    for n in names if n.startswith("loadsmith-pause")) or "-"
    jfr = sum(statistics.median(r[1].get(n, 0) for r in runs) for n in names if n.startswith("JFR"))
    print(f"| `{config}` | {process:.0f} | {process - base:+.0f} | {own} | {jfr:.0f} | {switches:.0f} ({switches - base_sw:+.0f}) |")
PY
