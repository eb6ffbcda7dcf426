#!/usr/bin/env bash
# What serving live metrics costs the send loop (docs/watching.md, "What it costs the run"): PAIRS alternating
# runs of `loadsmith run` at RATE/s constant against HelloServer (another JVM, loopback), one with
# `--metrics` and Debian's prometheus scraping it every second, one without (which goes first alternates).
# Per run it prints the send lateness (results.json send_lateness_ms p50, p99, max), the tester's CPU per
# request over the counted run, and the scrapes Prometheus made of it; then the medians of each side.
#   sidecar-tester/bench/live-metrics.sh [PAIRS [DURATION [RATE]]]     # default 5 pairs, 20s, 10000/s
# Needs the built jar (./mvnw -B -q -DskipTests package), python3 and prometheus (bash .ci/install-tools).
set -euo pipefail
cd "$(dirname "$0")/../.."
source sidecar-tester/bench/lib.sh
pairs=${1:-5}
duration=${2:-20s}
rate=${3:-10000}
jar=sidecar-tester/target/loadsmith.jar
[[ -f $jar ]] || { echo "live-metrics.sh: $jar is missing: build it first (./mvnw -B -q -DskipTests package)" >&2; exit 2; }
command -v prometheus >/dev/null || { echo "live-metrics.sh: prometheus is missing (bash .ci/install-tools)" >&2; exit 2; }
./mvnw -B -q -pl sidecar-tester -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >/dev/null
cp="sidecar-tester/target/test-classes:sidecar-tester/target/classes:$(cat sidecar-tester/target/bench.classpath)"
work=$(mktemp -d)
server_port=$(free_port)
java -Xmx256m -cp "$cp" io.loadsmith.tester.client.jetty.HelloServer "$server_port" >"$work/server.log" 2>&1 &
server=$!
metrics_port=$(free_port)
prometheus_port=$(free_port)
cat >"$work/prometheus.yml" <<EOF
global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
  - job_name: loadsmith-tester
    static_configs: [{targets: ['127.0.0.1:$metrics_port']}]
EOF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address=127.0.0.1:$prometheus_port >"$work/prometheus.log" 2>&1 &
prom=$!
trap 'kill $server $prom 2>/dev/null; rm -rf "$work"' EXIT
wait_port "$server_port" || { echo "live-metrics.sh: HelloServer did not start" >&2; cat "$work/server.log" >&2; exit 2; }
wait_port "$prometheus_port" || { echo "live-metrics.sh: prometheus did not start" >&2; cat "$work/prometheus.log" >&2; exit 2; }
url="http://127.0.0.1:$server_port/"
cat >"$work/cost.yaml" <<EOF
name: live-metrics-cost
target: {url: '$url'}
load: {model: open, arrivals: constant, rate: $rate, duration: $duration, warmup: 5s, grace: 5s, seed: 12}
EOF
echo "loadsmith live metrics cost: $pairs pairs, open constant $rate/s for $duration against $url, Prometheus scraping every 1 s ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-4s %-8s %10s %10s %10s %14s %8s\n' pair metrics late_p50 late_p99 late_max cpu_ns_per_req scrapes
python3 - "$jar" "$work" "$pairs" "$metrics_port" "$prometheus_port" <<'PY'
import json, os, statistics, subprocess, sys, urllib.parse, urllib.request
jar, work, pairs, metrics_port, prometheus_port = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
figures = {"on": [], "off": []}
def scrapes(run_id):
    query = urllib.parse.quote(f'count_over_time(loadsmith_tester_phase{{run_id="{run_id}",phase="done"}}[1h])')
    answer = json.load(urllib.request.urlopen(f"http://127.0.0.1:{prometheus_port}/api/v1/query?query={query}"))
    result = answer["data"]["result"]
    return int(float(result[0]["value"][1])) if result else 0
for pair in range(pairs):
    for mode in (["on", "off"] if pair % 2 == 0 else ["off", "on"]):
        name = f"p{pair}-{mode}"
        out = os.path.join(work, name)
        args = ["java", "-jar", jar, "run", os.path.join(work, "cost.yaml"), "--out", out, "--progress", "none"]
        if mode == "on":
            args += ["--metrics", f"127.0.0.1:{metrics_port}", "--set", "metrics.linger=2s"]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        run = json.load(open(os.path.join(out, "results.json")))["runs"][0]
        late = run["send_lateness_ms"]
        ns = run["cost"]["cpu_ns_per_request"]
        figures[mode].append((late["p50"], late["p99"], late["max"], ns))
        seen = scrapes(name) if mode == "on" else 0
        print(f"{pair:<4} {mode:<8} {late['p50']:10.3f} {late['p99']:10.3f} {late['max']:10.3f} {ns:14.0f} {seen if mode == 'on' else '-':>8}")
for mode in ("on", "off"):
    rows = figures[mode]
    med = [statistics.median(r[i] for r in rows) for i in range(4)]
    print(f"median {mode:<3}: send lateness p50 {med[0]:.3f} ms, p99 {med[1]:.3f} ms, max {med[2]:.3f} ms; {med[3]:.0f} ns CPU a request")
PY
