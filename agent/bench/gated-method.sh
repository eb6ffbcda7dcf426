#!/usr/bin/env bash
# JMH: a method gated by the agent's advice (disarmed) against the same method plain.
# Usage: agent/bench/gated-method.sh [JMH ARGS...]   (default: GatedMethodBenchmark, 3 forks x 10 s)
#   agent/bench/gated-method.sh -f 1 -wi 1 -i 1 -w 200ms -r 200ms GatedMethodBenchmark   # a smoke run
#   agent/bench/gated-method.sh -jvmArgsAppend "-XX:+UnlockDiagnosticVMOptions -XX:+PrintInlining" GatedMethodBenchmark.entryGated
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cp_file="$(mktemp)"
trap 'rm -f "$cp_file"' EXIT
# test classes compiled by a build without the bench profile lack JMH's generated code, and the compiler
# sees nothing stale: compile them again
[[ -f agent/target/test-classes/META-INF/BenchmarkList ]] || rm -rf agent/target/test-classes
# one reactor run, so that stall-service (never installed) resolves to its classes folder; agent writes the file last
./mvnw -B -q -Pbench -pl agent -am -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile="$cp_file"
classpath="agent/target/test-classes:agent/target/classes:$(cat "$cp_file")"
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(GatedMethodBenchmark)
fi
exec java -cp "$classpath" org.openjdk.jmh.Main "${args[@]}"
