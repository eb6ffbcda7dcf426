#!/usr/bin/env bash
# The engine's cost per request on the simulator (see docs/benchmarks.md, "engine").
#   sidecar-tester/bench/engine-bench.sh          # 60 s at 50/s, and 1,000,000 requests
#   sidecar-tester/bench/engine-bench.sh soak     # 10 simulated minutes at 20,000/s under -Xmx256m
#   sidecar-tester/bench/engine-bench.sh alloc      # bytes the engine allocates per request (virtual clock)
#   sidecar-tester/bench/engine-bench.sh scheduler  # lateness and thread CPU of SystemScheduler and the event loop
#   sidecar-tester/bench/engine-bench.sh transport-alloc [WINDOW_S [ONLY]]  # bytes a request on the real transport
#       (the engine on NettyTransport against HelloServer, started here in another JVM; JAVA_OPTS for the tester)
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -B -q -pl sidecar-tester -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >/dev/null
cp="sidecar-tester/target/test-classes:sidecar-tester/target/classes:$(cat sidecar-tester/target/bench.classpath)"
if [[ ${1:-} == transport-alloc ]]; then
    log=$(mktemp)
    java -Xmx256m -cp "$cp" io.loadsmith.tester.client.jetty.HelloServer 0 >"$log" 2>&1 &
    server=$!
    trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
    for _ in $(seq 200); do   # up to 20 s for the server's line
        url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" || true)
        [[ -n $url ]] && break
        kill -0 $server 2>/dev/null || { cat "$log" >&2; exit 2; }
        sleep 0.1
    done
    [[ -n $url ]] || { echo "engine-bench.sh: HelloServer did not start" >&2; cat "$log" >&2; exit 2; }
    java -Xmx256m -Xms256m ${JAVA_OPTS:-} -cp "$cp" io.loadsmith.tester.bench.TransportAllocationBench "$url" "${2:-12}" "${3:-}"
    exit
fi
exec java -Xmx256m -Xms256m -cp "$cp" io.loadsmith.tester.bench.EngineBench "${1:-quick}"
