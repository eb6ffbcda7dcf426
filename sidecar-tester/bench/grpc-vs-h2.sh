#!/usr/bin/env bash
# The tester's own CPU a gRPC call beside the same call sent on its plain HTTP/2 path (docs/benchmarks.md, "gRPC
# beside HTTP/2"). One server for both: io.loadsmith.tester.bench.GrpcBenchServer (grpc-java 1.85 on
# grpc-netty-shaded, from the test class path), whose scoring.Scorer/Score answers customer 42's ScoreReply
# on the transport's thread, cheap enough that the 2-core box answers 10,000 calls a second beside the tester
# (the reference scoring service, with its model behind every call, saturates near 5,000/s here). Both
# scenarios send the same bytes to it, an open loop of constant arrivals on the jetty transport over h2c
# (prior knowledge):
#   grpc: a grpc:// target, `GRPC scoring.Scorer/Score` with body {"customer_id": 42} (encoded once, from the
#         descriptor set), its answer's grpc-status read from the trailers and checked (OK), and its score
#         (check.json: the answer decoded and printed as JSON);
#   h2:   an http:// target with target.http: 2, `POST /scoring.Scorer/Score` with the same five-byte-prefixed
#         message written out in the body ("\0\0\0\0\x02\x08\x2a"), content-type application/grpc and
#         te: trailers; checked for status 2xx and the score's text in the answer's bytes (body_contains).
# So the server's work is the same, every answer is checked to be customer 42's score, and the difference is
# the tester's gRPC layer (the call's headers, the trailers, the status, the message decoded for its check).
# At each rate it runs PAIRS alternating pairs, one after the other (a pair's first scenario alternates), and
# prints the medians over pairs (each pair's value in brackets) of the runs' own figures in results.json:
# cost.cpu_ns_per_request (the tester's process CPU over the counted run, per request),
# cost.cpu_ms_per_second, send_lateness_ms p50 and p99 and achieved_rate. A run with an error, or one that
# sent less than 97 % of rate x duration, stops the script: nothing is measured against a server that did not
# answer, or a tester that did not send its load. Then grpc ÷ h2 of
# CPU a call, per pair. Also in OUT/table.md; each run in OUT/<rate>-p<pair>-<scenario>/, commands in
# OUT/commands.txt.
#
#   sidecar-tester/bench/grpc-vs-h2.sh [--rates "1000 10000"] [--duration 30s] [--pairs 3] [--out DIR]
#
# Environment: SKIP_BUILD=1 (use what is already built), WARMUP=5s. Loopback only; every run is bounded by its
# duration. Run it on a quiet box (`uptime` load under 0.5): the table's first line gives the load average
# before and after.
set -uo pipefail
cd "$(dirname "$0")/../.."
source sidecar-tester/bench/lib.sh

RATES="1000 10000"; DURATION=30s; PAIRS=3; OUT=/tmp/loadsmith-grpc-vs-h2
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rates|--duration|--pairs|--out)
      [[ $# -ge 2 && -n $2 ]] || { echo "grpc-vs-h2.sh: $1 needs a value (see the head of this file)" >&2; exit 2; }
      case "$1" in --rates) RATES=$2 ;; --duration) DURATION=$2 ;; --pairs) PAIRS=$2 ;; --out) OUT=$2 ;; esac
      shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "grpc-vs-h2.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $PAIRS =~ ^[1-9][0-9]*$ ]] || { echo "grpc-vs-h2.sh: --pairs must be a whole number >= 1 (got $PAIRS)" >&2; exit 2; }
for r in $RATES; do
  [[ $r =~ ^[1-9][0-9]*$ ]] || { echo "grpc-vs-h2.sh: --rates must be whole numbers > 0 (got $r)" >&2; exit 2; }
done
[[ $DURATION =~ ^[1-9][0-9]*s$ ]] || { echo "grpc-vs-h2.sh: --duration must be seconds, e.g. 30s (got $DURATION)" >&2; exit 2; }

bench_out grpc-vs-h2.sh

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building loadsmith.jar and the test classes (./mvnw package -DskipTests; log: $OUT/build.log)" >&2
  logged ./mvnw -B -q -pl sidecar-tester -am -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >"$OUT/build.log" 2>&1 \
    || { echo "grpc-vs-h2.sh: the build failed (see $OUT/build.log)" >&2; exit 2; }
fi
for f in sidecar-tester/target/loadsmith.jar sidecar-tester/target/bench.classpath \
    sidecar-tester/target/test-classes/io/loadsmith/tester/bench/GrpcBenchServer.class; do
  [[ -f $f ]] || { echo "grpc-vs-h2.sh: $f is missing (run without SKIP_BUILD=1)" >&2; exit 2; }
done
CP="sidecar-tester/target/test-classes:sidecar-tester/target/classes:$(cat sidecar-tester/target/bench.classpath)"

SERVER_PID=""
cleanup() { [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM

logcmd java -Xmx256m -cp "\$CP" io.loadsmith.tester.bench.GrpcBenchServer
java -Xmx256m -cp "$CP" io.loadsmith.tester.bench.GrpcBenchServer >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
deadline=$((SECONDS + 60))
until grep -q "^PORT=" "$OUT/server.log"; do
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "grpc-vs-h2.sh: the server exited (see $OUT/server.log)" >&2; exit 2; }
  (( SECONDS < deadline )) || { echo "grpc-vs-h2.sh: the server did not start in 60 s (see $OUT/server.log)" >&2; exit 2; }
  sleep 0.2
done
GRPC_PORT=$(sed -n 's/^PORT=//p' "$OUT/server.log")
echo "# gRPC server on 127.0.0.1:$GRPC_PORT" >&2

S=${DURATION%s}
SCORE=0.221657   # the score GrpcBenchServer answers (customer 42's in data/customers.csv)
write_scenario() { # write_scenario NAME RATE FILE
  local common="load: {model: open, arrivals: constant, rate: $2, duration: ${S}s, warmup: ${WARMUP:-5s}, max_concurrency: 256, grace: 5s, seed: 1}"
  if [[ $1 == grpc ]]; then
    cat >"$3" <<Y
name: grpc-$2
target: {url: "grpc://127.0.0.1:$GRPC_PORT", grpc: {descriptor: "$PWD/examples/scenarios/grpc/scoring.protoset"}}
$common
journeys:
  - name: score
    steps:
      - request: GRPC scoring.Scorer/Score
        body: '{"customer_id": 42}'
        check: {grpc_status: OK, json: {score: "$SCORE"}}
Y
  else
    cat >"$3" <<Y
name: h2-$2
target: {url: "http://127.0.0.1:$GRPC_PORT", transport: jetty, http: 2}
$common
journeys:
  - name: score
    steps:
      - request: POST /scoring.Scorer/Score
        headers: {content-type: application/grpc, te: trailers}
        body: "\\0\\0\\0\\0\\x02\\x08\\x2a"
        check: {body_contains: "$SCORE"}
Y
  fi
}

run_one() { # run_one NAME RATE DIR
  mkdir -p "$3"
  write_scenario "$1" "$2" "$3/scenario.yaml"
  logcmd bin/loadsmith run "$3/scenario.yaml" --progress none --charts off --out "$3/out"
  timeout -k 10 $((S + 120)) bin/loadsmith run "$3/scenario.yaml" --progress none --charts off --out "$3/out" \
    >"$3/stdout.txt" 2>&1
  local rc=$?
  python3 - "$3/out/results.json" "$rc" "$2" "$S" >"$3/figures.tsv" <<'P' || { echo "grpc-vs-h2.sh: $3: $(cat "$3/figures.tsv")" >&2; exit 2; }
import json, sys
path, rc, rate, seconds = sys.argv[1:]
try:
    run = json.load(open(path))["runs"][0]
except (OSError, ValueError, KeyError, IndexError) as e:
    print("no results (exit %s): %s" % (rc, e)); sys.exit(1)
c = run["counts"]
if c["errors"] or not c["completed"]:
    print("%d errors of %d (%s): the server did not answer as expected; nothing measured"
          % (c["errors"], c["sent"], run.get("errors_by_kind", run.get("warnings", "")))); sys.exit(1)
asked = int(rate) * int(seconds)
if c["sent"] < 0.97 * asked:
    print("sent %d of the %d asked (%s/s for %s s): the tester did not send its load; nothing measured"
          % (c["sent"], asked, rate, seconds)); sys.exit(1)
print("cpu_us\t%.1f" % (run["cost"]["cpu_ns_per_request"] / 1000))
print("cpu_ms_s\t%.1f" % run["cost"]["cpu_ms_per_second"])
print("late_p50\t%.3f" % run["send_lateness_ms"]["p50"])
print("late_p99\t%.3f" % run["send_lateness_ms"]["p99"])
print("rate\t%.0f" % run["achieved_rate"])
print("sent\t%d" % c["sent"])
P
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for rate in $RATES; do
  for ((p = 1; p <= PAIRS; p++)); do
    if (( p % 2 )); then order="grpc h2"; else order="h2 grpc"; fi
    for name in $order; do
      echo "# rate $rate, pair $p: $name" >&2
      run_one "$name" "$rate" "$OUT/$rate-p$p-$name"
    done
  done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$OUT" "$RATES" "$PAIRS" "$LOAD_BEFORE" "$LOAD_AFTER" <<'P' | tee "$OUT/table.md"
import os, statistics, sys
out, rates, pairs, before, after = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), sys.argv[4], sys.argv[5]
def fig(rate, p, name):
    return dict(l.rstrip("\n").split("\t") for l in open(os.path.join(out, "%s-p%d-%s" % (rate, p, name), "figures.tsv")))
def cell(values, fmt):
    return (fmt % statistics.median(values)) + " [" + ", ".join(fmt % v for v in values) + "]"
print("load average before %s, after %s; %d pairs a rate, medians [each pair]" % (before, after, pairs))
print()
print("| rate/s | path | CPU µs a call | CPU ms a second | send lateness p50 ms | p99 ms | achieved/s |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for rate in rates:
    for name in ("grpc", "h2"):
        f = [fig(rate, p, name) for p in range(1, pairs + 1)]
        col = lambda k: [float(x[k]) for x in f]
        print("| %s | %s | %s | %s | %s | %s | %s |" % (rate, name, cell(col("cpu_us"), "%.1f"), cell(col("cpu_ms_s"), "%.0f"),
              cell(col("late_p50"), "%.3f"), cell(col("late_p99"), "%.3f"), cell(col("rate"), "%.0f")))
print()
for rate in rates:
    ratios = [float(fig(rate, p, "grpc")["cpu_us"]) / float(fig(rate, p, "h2")["cpu_us"]) for p in range(1, pairs + 1)]
    print("%s/s: gRPC ÷ HTTP/2, CPU a call: %s" % (rate, cell(ratios, "%.2f")))
P
