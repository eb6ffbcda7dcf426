#!/usr/bin/env bash
# The soak: the scoring service with the loadsmith agent, 100 ms stalls about every 2 s (a seeded plan:
# mean interval 2 s, min gap 500 ms, kind block) and an open loop at 2,000 requests/s (a `loadsmith run` of
# a scenario with a `stalls:` block) for 30 minutes. Every SAMPLE_S it runs a full GC in both JVMs
# (jcmd PID GC.run, which itself pauses the JVM) and records the heap after it, as that full GC's own line
# in the JVM's GC log says (-Xlog:gc: "Pause Full (Diagnostic Command) 120M->35M(512M)": 35M; reading jstat after
# jcmd instead caught what 2,000 requests/s allocate in the second jstat takes to start), their thread counts and the agent's stall records (/metrics: windows ended, records dropped).
# At the end it prints a table:
#   - heap after GC of the service and of the tester, the lowest sample in the BASELINE_S after BASELINE_S
#     vs the lowest in the last BASELINE_S (what is in flight only adds to the floor), and the growth
#     (aim <= 10 %);
#   - request threads held after the last window (a thread dump of the service: threads in the stall gate);
#   - stall records kept by the agent (ended - dropped; bounded by 100,000);
#   - every window counted: the run's stalls in results.json vs GET /stalls?run_id= of that run;
#   - the counts identities of results.json (scheduled = sent + dropped + skipped, sent = completed + errors).
# Exit 0 when every check holds, 1 when one does not, 2 on bad settings or a failed build or start.
#
#   examples/scoring-service/bench/soak.sh                         30 minutes; from the repository's root
#   DURATION_S=120 examples/scoring-service/bench/soak.sh          a smoke run
# Settings (environment): DURATION_S (1800), RATE (2000), SAMPLE_S (30), BASELINE_S (300, or a quarter of
# DURATION_S when shorter), THREADS (the service's Jetty threads, 8), OUT (target/soak-<time>), SKIP_BUILD=1
# (reuse the jars). Samples go to OUT/samples.tsv, the run to OUT/results, logs and the thread dump to OUT.
set -euo pipefail
cd "$(dirname "$0")/../../.."

duration_s=${DURATION_S:-1800}
rate=${RATE:-2000}
sample_s=${SAMPLE_S:-30}
threads=${THREADS:-8}
for setting in duration_s rate sample_s threads; do
  [[ ${!setting} =~ ^[1-9][0-9]*$ ]] || { echo "soak.sh: ${setting^^} must be an integer > 0 (got '${!setting}')" >&2; exit 2; }
done
baseline_s=${BASELINE_S:-$(( duration_s / 4 < 300 ? duration_s / 4 : 300 ))}
out=${OUT:-target/soak-$(date -u +%Y%m%d-%H%M%S)}
agent_jar=agent/target/loadsmith-agent.jar
service_jar=examples/scoring-service/target/scoring-service.jar
tester_jar=sidecar-tester/target/loadsmith.jar
mkdir -p "$out"

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building the agent, the tester and the scoring service (./mvnw package -DskipTests)" >&2
  ./mvnw -B -q -DskipTests package >"$out/build.log" 2>&1 || { echo "soak.sh: the build failed (see $out/build.log)" >&2; exit 2; }
fi
for jar in "$agent_jar" "$service_jar" "$tester_jar"; do
  [[ -f $jar ]] || { echo "soak.sh: $jar is missing (run without SKIP_BUILD=1)" >&2; exit 2; }
done

service_pid=
tester_pid=
stop() {
  [[ -n $tester_pid ]] && kill "$tester_pid" 2>/dev/null || true
  [[ -n $service_pid ]] && kill "$service_pid" 2>/dev/null || true
}
trap stop EXIT

# ---- the service, with the agent ------------------------------------------------------------------------
java -Xmx512m -Xlog:gc:file="$out/service-gc.log" -javaagent:"$agent_jar"=admin=127.0.0.1:0 -jar "$service_jar" \
  --port 0 --threads "$threads" \
  >"$out/service.out" 2>"$out/service.err" &
service_pid=$!
for _ in $(seq 1 600); do
  grep -q 'listening on' "$out/service.out" 2>/dev/null && grep -q 'admin API on' "$out/service.err" 2>/dev/null && break
  kill -0 "$service_pid" 2>/dev/null || { echo "soak.sh: the service exited (see $out/service.err)" >&2; exit 2; }
  sleep 0.2
done
url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$out/service.out" | head -n 1)
admin=$(sed -n 's/.*admin API on \(http:[^ ]*\).*/\1/p' "$out/service.err" | head -n 1)
[[ -n $url && -n $admin ]] || { echo "soak.sh: the service did not say where it listens within 120 s (see $out/service.*)" >&2; exit 2; }
echo "# service pid $service_pid on $url, admin API on $admin" >&2

# ---- the scenario and the tester ------------------------------------------------------------------------
mkdir -p "$out/data"
cp examples/scenarios/data/customers.csv "$out/data/customers.csv"
cat >"$out/soak.yaml" <<YAML
name: soak
target:
  url: $url
stalls:
  admin: $admin
  seed: 7
  mean_interval: 2s
  duration: 100ms
  min_gap: 500ms
  kind: block
load:
  model: open
  arrivals: poisson
  rate: $rate
  duration: ${duration_s}s
  warmup: 2000
  max_concurrency: 1024
  grace: 5s
  seed: 1
journeys:
  - name: score
    weight: 1
    data: data/customers.csv
    steps:
      - request: GET /score/\${customer_id}
        check: {status: 200}
YAML
LOADSMITH_JAVA_OPTS="${LOADSMITH_JAVA_OPTS:-} -Xlog:gc:file=$out/tester-gc.log" \
  bin/loadsmith run "$out/soak.yaml" --out "$out/results" --progress none >"$out/tester.out" 2>"$out/tester.err" &
tester_pid=$!
echo "# tester pid $tester_pid: $rate/s for ${duration_s}s; a sample every ${sample_s}s into $out/samples.tsv" >&2

# ---- samples --------------------------------------------------------------------------------------------
# heap_after_gc_kb PID GC_LOG: runs a full GC and prints the heap after it, from that GC's line in the log
heap_after_gc_kb() {
  jcmd "$1" GC.run >/dev/null 2>&1 || return 1
  grep 'Pause Full (Diagnostic Command)' "$2" | tail -n 1 | sed -n 's/.*->\([0-9]*\)\([KMG]\)(.*/\1 \2/p' \
    | awk '{ printf "%.0f", $1 * ($2 == "G" ? 1048576 : $2 == "M" ? 1024 : 1) }'
}
thread_count() { awk '/^Threads:/ { print $2 }' "/proc/$1/status"; }
metric() { awk -v name="$1" '$1 == name { printf "%.0f", $2 }' "$out/metrics.txt"; }

printf 't_s\tservice_heap_kb\ttester_heap_kb\tservice_threads\ttester_threads\tstalls_ended\trecords_dropped\n' >"$out/samples.tsv"
start=$(date +%s)
next=$start
while kill -0 "$tester_pid" 2>/dev/null; do
  now=$(date +%s)
  if (( now >= next )); then
    next=$(( next + sample_s ))
    service_heap=$(heap_after_gc_kb "$service_pid" "$out/service-gc.log") || break
    tester_heap=$(heap_after_gc_kb "$tester_pid" "$out/tester-gc.log") || break
    curl -s -m 5 "$admin/metrics" >"$out/metrics.txt" || true
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $(( $(date +%s) - start )) "$service_heap" "$tester_heap" "$(thread_count "$service_pid")" \
      "$(thread_count "$tester_pid" 2>/dev/null || echo 0)" "$(metric loadsmith_stalls_total)" "$(metric loadsmith_stall_records_dropped_total)" \
      >>"$out/samples.tsv"
  fi
  sleep 1
done
tester_exit=0
wait "$tester_pid" || tester_exit=$?
tester_pid=

# ---- after the run --------------------------------------------------------------------------------------
sleep 1   # past the last window (100 ms)
jcmd "$service_pid" Thread.print >"$out/service-threads.txt"
held=$(awk -v RS= '/stall\.gate\./ && !/^"loadsmith-/ { n++ } END { print n + 0 }' "$out/service-threads.txt")
curl -s -m 5 "$admin/metrics" >"$out/metrics.txt" || true
results="$out/results/results.json"
[[ -f $results ]] || { echo "soak.sh: the tester wrote no $results (exit $tester_exit; see $out/tester.err)" >&2; exit 1; }
run_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0].get("run_id") or "")' "$results")
curl -s -m 10 "$admin/stalls?run_id=$run_id" >"$out/stalls.json"

python3 - "$out/samples.tsv" "$results" "$out/stalls.json" "$out/metrics.txt" "$baseline_s" "$held" "$tester_exit" <<'PY'
import csv, json, statistics, sys
samples_file, results_file, stalls_file, metrics_file, baseline_s, held, tester_exit = sys.argv[1:]
baseline_s, held, tester_exit = int(baseline_s), int(held), int(tester_exit)
rows = [{k: int(v or 0) for k, v in row.items()} for row in csv.DictReader(open(samples_file), delimiter="\t")]
run = json.load(open(results_file))["runs"][0]
agent = json.load(open(stalls_file))
metrics = {line.split()[0]: float(line.split()[1]) for line in open(metrics_file) if line and not line.startswith("#") and len(line.split()) == 2}
checks = []

def check(name, value, ok, note=""):
    checks.append(ok)
    print(f"| {name} | {value} | {'ok' if ok else 'NOT OK'} | {note} |")

print("| check | value | verdict | note |")
print("| --- | --- | --- | --- |")
# heap after GC moves with what is in flight at the sample (one taken inside a stall finds hundreds of
# requests held), which only ever adds to the live floor: compare the lowest sample of the window after the
# baseline with the lowest of the last window (each BASELINE_S long); a leak raises the floor
last_t = rows[-1]["t_s"] if rows else 0
base_rows = [r for r in rows if baseline_s <= r["t_s"] < 2 * baseline_s]
end_rows = [r for r in rows if r["t_s"] > last_t - baseline_s and r["t_s"] >= 2 * baseline_s]
if base_rows and end_rows:
    span = f"lowest of t={base_rows[0]['t_s']}-{base_rows[-1]['t_s']} s vs t={end_rows[0]['t_s']}-{end_rows[-1]['t_s']} s"
    for jvm in ("service", "tester"):
        base_kb = [r[f"{jvm}_heap_kb"] for r in base_rows]
        end_kb = [r[f"{jvm}_heap_kb"] for r in end_rows]
        b, e = min(base_kb), min(end_kb)
        growth = (e - b) / b * 100 if b else 0.0
        check(f"{jvm} heap after GC, {span}", f"{b} KB -> {e} KB ({growth:+.1f} %)", growth <= 10.0,
              f"aim <= 10 %; medians {statistics.median(base_kb):.0f} -> {statistics.median(end_kb):.0f} KB; "
              f"samples after t={baseline_s} s: {min(base_kb + end_kb)}-{max(r[jvm + '_heap_kb'] for r in rows if r['t_s'] >= baseline_s)} KB")
    for jvm in ("service", "tester"):
        check(f"{jvm} threads, t={base_rows[0]['t_s']} s vs t={last_t} s",
              f"{base_rows[0][jvm + '_threads']} -> {rows[-1][jvm + '_threads']}", True, "for the reader")
else:
    check("heap after GC", f"{len(rows)} samples", False, "too few samples for a baseline window and an end window")
check("request threads held after the last window", held, held == 0, "threads in the stall gate in a thread dump of the service")
ended = int(metrics.get("loadsmith_stalls_total", -1))
dropped = int(metrics.get("loadsmith_stall_records_dropped_total", -1))
check("stall records kept by the agent", f"{ended - dropped} ({ended} ended, {dropped} dropped)", 0 <= ended - dropped <= 100_000, "bounded by 100,000")
tested, served = len(run.get("stalls", [])), len(agent.get("stalls", []))
check("windows: results.json vs GET /stalls of the run", f"{tested} vs {served}", tested == served and served > 0 and not agent.get("more"),
      f"run_id {run.get('run_id')}; missing {len(run.get('stall_summary', {}).get('missing', []))}")
c = run["counts"]
check("scheduled = sent + dropped + skipped", f"{c['scheduled']} = {c['sent']} + {c['dropped']} + {c['skipped']}",
      c["scheduled"] == c["sent"] + c["dropped"] + c["skipped"])
check("sent = completed + errors", f"{c['sent']} = {c['completed']} + {c['errors']}", c["sent"] == c["completed"] + c["errors"])
check("tester exit", tester_exit, tester_exit in (0, 1), "0: SLOs met, 1: an SLO missed (the soak has none)")
print(f"\nsamples: {len(rows)}; achieved rate {run.get('achieved_rate', 0):.0f}/s; errors {c['errors']}; dropped {c['dropped']}")
sys.exit(0 if all(checks) else 1)
PY
