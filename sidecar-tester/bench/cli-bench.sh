#!/usr/bin/env bash
# The tester beside wrk (docs/benchmarks.md, "cli / transport"): three rounds of, in this order,
# wrk -t1 -cN then loadsmith closed with N = 1 and 16 connections, then open Poisson loops at
# 1,000, 5,000 and 20,000/s; one line a run on stdout (and in OUT/results.txt).
#   sidecar-tester/bench/cli-bench.sh [JAR] [PORT] [OUT]
# Needs wrk, python3, and HelloServer (or any trivial server) listening on 127.0.0.1:PORT.
set -uo pipefail
JAR=${1:-sidecar-tester/target/loadsmith.jar}; PORT=${2:-18080}; OUT=${3:-/tmp/loadsmith-cli-bench}
mkdir -p "$OUT"; R=$OUT/results.txt
cat > "$OUT/closed.yaml" <<Y
name: bench-closed
target: {url: "http://127.0.0.1:$PORT/"}
load: {model: closed, connections: 16, duration: 15s, warmup: 5s, grace: 5s, seed: 1}
Y
cat > "$OUT/open.yaml" <<Y
name: bench-open
target: {url: "http://127.0.0.1:$PORT/"}
load: {model: open, arrivals: poisson, rate: 1000, duration: 20s, warmup: 5s, connections: 64, grace: 5s, seed: 1}
Y
for i in 1 2 3; do
  for c in 1 16; do
    /usr/bin/time -f "%U %S" -o "$OUT/wrk-$c-$i.time" wrk -t1 -c$c -d15s "http://127.0.0.1:$PORT/" > "$OUT/wrk-$c-$i.txt" 2>&1
    req=$(grep -oP '^\s*\K\d+(?= requests in)' "$OUT/wrk-$c-$i.txt"); rps=$(grep -oP 'Requests/sec:\s*\K[\d.]+' "$OUT/wrk-$c-$i.txt")
    cpu=$(awk -v r="$req" '{printf "%.1f", ($1+$2)*1e6/r}' "$OUT/wrk-$c-$i.time")
    rm -rf "$OUT/closed-$c-$i"
    java -jar "$JAR" run "$OUT/closed.yaml" --set load.connections=$c --progress none --out "$OUT/closed-$c-$i" > "$OUT/closed-$c-$i.log" 2>&1
    ls=$(python3 -c "import json; d=json.load(open('$OUT/closed-$c-$i/results.json'))['runs'][0]; print('%.0f/s %.1fus' % (d['achieved_rate'], d['cost']['cpu_ns_per_request'] / 1000))")
    echo "round $i closed c=$c wrk $rps/s ${cpu}us | loadsmith $ls" | tee -a "$R"
  done
  for rate in 1000 5000 20000; do
    rm -rf "$OUT/open-$rate-$i"
    java -jar "$JAR" run "$OUT/open.yaml" --set load.rate=$rate --progress none --out "$OUT/open-$rate-$i" > "$OUT/open-$rate-$i.log" 2>&1
    python3 - "$OUT/open-$rate-$i/results.json" "round $i open rate=$rate" <<'P' | tee -a "$R"
import json, sys
d = json.load(open(sys.argv[1]))['runs'][0]
s, c = d['send_lateness_ms'], d['cost']
print(sys.argv[2], 'achieved %.0f/s cpu %.1fus send lateness ms p50 %s p99 %s max %s' % (d['achieved_rate'],
      c['cpu_ns_per_request'] / 1000, s['p50'], s['p99'], s['max']), 'counts', d['counts'],
      'dispatch lateness ms', d['dispatch_lateness_ms'])
P
  done
done
