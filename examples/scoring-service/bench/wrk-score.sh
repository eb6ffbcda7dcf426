#!/usr/bin/env bash
# Measures the scoring service with wrk on loopback: throughput, latency and service CPU per request.
#   bench/wrk-score.sh PORT PID [SECONDS] [RUNS]
# PID is the service's JVM (its CPU time is read from /proc/PID/stat). Prints one line per run.
set -euo pipefail
port=$1 pid=$2 seconds=${3:-20} runs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
url="http://127.0.0.1:${port}"
ticks=$(getconf CLK_TCK)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }

wrk -t1 -c4 -d10s -s "$here/score.lua" "$url" > /dev/null   # warm-up: JIT
printf '%-5s %-4s %10s %9s %9s %9s %12s\n' conns run req_per_s p50_ms p99_ms max_ms cpu_us_per_req
for connections in 1 16; do
  threads=$(( connections < 2 ? 1 : 2 ))
  for run in $(seq 1 "$runs"); do
    before=$(cpu_ticks)
    out=$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s "$here/score.lua" "$url")
    after=$(cpu_ticks)
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    rate=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    to_ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) printf "%.3f", v/1000; else if (v ~ /ms$/) printf "%.3f", v+0; else printf "%.3f", v*1000 }'; }
    p50=$(to_ms "$(echo "$out" | awk '$1 == "50%" {print $2}')")
    p99=$(to_ms "$(echo "$out" | awk '$1 == "99%" {print $2}')")
    max=$(to_ms "$(echo "$out" | awk '/Latency/ && !/Distribution/ {print $4; exit}')")
    cpu=$(awk -v t=$((after - before)) -v hz="$ticks" -v n="$requests" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }')
    printf '%-5s %-4s %10s %9s %9s %9s %12s\n' "$connections" "$run" "$rate" "$p50" "$p99" "$max" "$cpu"
  done
done
