#!/usr/bin/env bash
# How far apart the pause observer's clock samples may be (docs/pauses.md, "From JFR ticks to
# System.nanoTime()"): commits three loadsmith.ClockSync events every 100 ms for SECONDS, as the sleeper
# does, reads them back through a JFR stream, then maps the ticks of the samples midway between every
# k-th commit from those commits alone (k: 200 ms, 500 ms, 1 s, 2 s apart) and prints a Markdown table of
# the errors against the samples' own midpoints (TickSpacingBench, in stall-service's test classes).
#
#   stall-service/bench/tick-spacing.sh [SECONDS]     120 by default; from the repository's root
#   SKIP_BUILD=1 stall-service/bench/tick-spacing.sh   reuses the last build
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-120}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "tick-spacing.sh: SECONDS must be an integer > 0 (got '$seconds')" >&2; exit 2; }
out=stall-service/target/tick-spacing-bench
mkdir -p "$out"
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building stall-service's test classes (./mvnw test-compile)" >&2
  ./mvnw -B -q -pl stall-service test-compile >"$out/build.log" 2>&1 \
    || { echo "tick-spacing.sh: the build failed (see $out/build.log)" >&2; exit 2; }
fi
exec java -cp "stall-service/target/test-classes:stall-service/target/classes" \
  io.loadsmith.stall.observe.TickSpacingBench "$seconds"
