#!/usr/bin/env bash
# The admin API's fuzz campaign: REQUESTS seeded hostile calls (mutated POST /arm bodies, methods, paths,
# query strings, headers, raw garbage; the generator of AdminFuzzIT) against an admin server with a token
# and an app beside it on the same stall gate, one call after the other, each on a fresh connection.
# Prints a Markdown table of the answers by family and status (closed: closed without an answer; reset:
# reset without one), the slowest answer and every violation (a 5xx, a call neither answered nor closed
# within 15 s, a plan armed by a call that may not arm, the API or the app unwell after a batch of 1,000),
# then two crowd lines: the time of each admin call among connections that stopped inside a request (the
# aim: each within 100 ms; docs/benchmarks.md says what each crowd sends).
# Exit 0 without a violation, 1 with one, 2 on bad arguments or a failed build.
#
#   stall-service/bench/fuzz.sh [REQUESTS [SEED]]     100000 and 14 by default; from the repository's root
#   SKIP_BUILD=1 stall-service/bench/fuzz.sh 5000     reuses the last build
set -euo pipefail
cd "$(dirname "$0")/../.."

requests=${1:-100000}
seed=${2:-14}
[[ $requests =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: REQUESTS must be an integer > 0 (got '$requests')" >&2; exit 2; }
[[ $seed =~ ^-?[0-9]+$ ]] || { echo "fuzz.sh: SEED must be an integer (got '$seed')" >&2; exit 2; }

out=stall-service/target/fuzz-bench
mkdir -p "$out"
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building stall-service's test classes (./mvnw test-compile)" >&2
  ./mvnw -B -q -pl stall-service test-compile dependency:build-classpath \
      -Dmdep.outputFile=target/fuzz-bench/classpath -Dmdep.includeScope=test >"$out/build.log" 2>&1 \
    || { echo "fuzz.sh: the build failed (see $out/build.log)" >&2; exit 2; }
fi
[[ -f $out/classpath ]] || { echo "fuzz.sh: $out/classpath is missing (run without SKIP_BUILD=1)" >&2; exit 2; }

exec java -Xmx512m -cp "stall-service/target/test-classes:stall-service/target/classes:$(cat "$out/classpath")" \
  io.loadsmith.stall.admin.AdminFuzzBench "$requests" "$seed"
