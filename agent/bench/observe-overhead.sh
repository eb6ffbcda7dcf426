#!/usr/bin/env bash
# What observing real pauses costs a server (docs/pauses.md, docs/benchmarks.md): overhead.sh with the
# agent in every run, observe=off as the baseline, observe=always (observing, nothing armed) and armed-idle
# (armed between stalls, observing as the default observe=armed does) against it.
# The goal is a throughput ratio of at least 0.99; only a quiet, pinned machine can show it.
#
#   agent/bench/observe-overhead.sh [--server jetty12|...|jdkhttp|springmvc] [--out DIR]
#
# Environment: as overhead.sh (PAIRS, WARMUP_S, MEASURE_S, CONNECTIONS, SERVER_CPUS, WRK_CPUS, ...).
# A smoke run: PAIRS=1 WARMUP_S=1 MEASURE_S=1 agent/bench/observe-overhead.sh --server jdkhttp
set -uo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { sed -n '2,10p' "$0"; exit 0; }
export STATES="off observing armed-idle"
exec "$(dirname "$0")/overhead.sh" --out "${OUT:-/tmp/loadsmith-observe-overhead}" "$@"
