#!/usr/bin/env bash
# The engine's cost per request on the simulator (see docs/benchmarks.md, "engine").
#   sidecar-tester/bench/engine-bench.sh          # 60 s at 50/s, and 1,000,000 requests
#   sidecar-tester/bench/engine-bench.sh soak     # 10 simulated minutes at 20,000/s under -Xmx256m
#   sidecar-tester/bench/engine-bench.sh alloc      # bytes the engine allocates per request (virtual clock)
#   sidecar-tester/bench/engine-bench.sh scheduler  # lateness and thread CPU of SystemScheduler and the event loop
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -B -o -q -pl sidecar-tester -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >/dev/null
cp="sidecar-tester/target/test-classes:sidecar-tester/target/classes:$(cat sidecar-tester/target/bench.classpath)"
exec java -Xmx256m -Xms256m -cp "$cp" io.loadsmith.tester.bench.EngineBench "${1:-quick}"
