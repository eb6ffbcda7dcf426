#!/usr/bin/env bash
# The same stalled service measured by wrk and by loadsmith's closed, paced and open loops, one after the
# other, each meeting 100 ms stalls about every 2 s (seed 7); prints one markdown table (docs/peers.md).
#
#   examples/peers/peers.sh            # 15 s per tester, about 2-3 minutes in all
#   examples/peers/peers.sh 10         # 10 s per tester
#
# Loopback only: the reference scored service with the agent on two free ports of 127.0.0.1, stopped at
# the end. Needs wrk (Debian's package) and a JDK 17+; runs from the source tree or an unpacked archive.
set -euo pipefail

seconds=${1:-15}
rate=200
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
home=$(cd "$here/../.." && pwd)
loadsmith=$home/bin/loadsmith
out=${OUT:-results/peers-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
cp /proc/loadavg "$out/loadavg-start" 2>/dev/null || true   # the load before the run, for the table's first line
out=$(cd "$out" && pwd)

command -v wrk >/dev/null || { echo "peers.sh: needs wrk (apt-get install wrk)" >&2; exit 3; }
"$loadsmith" --version >/dev/null   # builds the source tree on its first run
if [[ -f "$home/lib/loadsmith.jar" ]]; then
  jar=$home/lib/loadsmith.jar agent=$home/agent/loadsmith-agent.jar service=$home/service/scoring-service.jar
else
  jar=$home/sidecar-tester/target/loadsmith.jar agent=$home/agent/target/loadsmith-agent.jar
  service=$home/examples/scoring-service/target/scoring-service.jar
fi
java=${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}

free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  echo "peers.sh: no free port found" >&2; exit 3
}

port=$(free_port) admin_port=$(free_port)
url=http://127.0.0.1:$port
admin=http://127.0.0.1:$admin_port
"$java" -javaagent:"$agent"=admin=127.0.0.1:$admin_port -jar "$service" --port "$port" --threads 4 \
  > "$out/service.log" 2>&1 &
service_pid=$!
trap 'kill "$service_pid" 2>/dev/null || true; wait "$service_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  if grep -q "listening on" "$out/service.log" && "$loadsmith" clock --admin "$admin" --probes 1 >/dev/null 2>&1; then
    break
  fi
  kill -0 "$service_pid" 2>/dev/null || { cat "$out/service.log" >&2; exit 3; }
  sleep 0.5
done
grep -q "listening on" "$out/service.log" || { echo "peers.sh: the service did not start (see $out/service.log)" >&2; exit 3; }

plan=(--seed 7 --mean-interval 2s --duration 100ms --min-gap 500ms)
echo "peers.sh: warming the service up (5 s of wrk, not counted)" >&2
wrk -t1 -c1 -d5s "$url/score/1" > /dev/null

echo "peers.sh: wrk -t1 -c1 -d${seconds}s --latency, stalls armed" >&2
"$loadsmith" arm --admin "$admin" "${plan[@]}" --horizon "${seconds}s" > "$out/wrk-arm.txt"
wrk -t1 -c1 -d"${seconds}s" --latency "$url/score/1" > "$out/wrk.txt"
"$loadsmith" stalls --admin "$admin" --json > "$out/wrk-stalls.json"
"$loadsmith" disarm --admin "$admin" > /dev/null

# name, then the load: block of the scenario
loops=(
  "closed-1|{model: closed, connections: 1}"
  "paced-4|{model: paced, connections: 4, pace: 20ms}"
  "open-$rate|{model: open, arrivals: poisson, rate: $rate, max_concurrency: 256}"
)
for loop in "${loops[@]}"; do
  name=${loop%%|*} load=${loop#*|}
  cat > "$out/$name.yaml" <<YAML
# yaml-language-server: \$schema=$home/docs/schemas/scenario.schema.json
name: $name
target: {url: $url}
stalls: {admin: $admin, seed: 7, mean_interval: 2s, duration: 100ms, min_gap: 500ms}
load: $load
objective: 10ms
journeys:
  - name: score
    steps:
      - request: GET /score/1
        check: {status: 200}
YAML
  echo "peers.sh: loadsmith $name, ${seconds} s" >&2
  "$loadsmith" run "$out/$name.yaml" --set load.duration="${seconds}s" --set load.warmup=400 --set load.grace=3s \
    --out "$out/$name" --progress none > "$out/$name.txt"
done

"$java" -cp "$jar" "$here/PeersTable.java" "$out" "${loops[@]%%|*}"
