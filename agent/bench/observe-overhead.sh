#!/usr/bin/env bash
# What observing real pauses costs a server (docs/pauses.md, docs/benchmarks.md): overhead.sh with the
# agent in both runs of every pair, observe=off as the baseline and observe=always (observing from start) as "with".
# The goal is a throughput ratio of at least 0.99; only a quiet, pinned machine can show it.
#
#   agent/bench/observe-overhead.sh [--server jetty12|...|jdkhttp] [--out DIR]
#
# Environment: as overhead.sh (PAIRS, WARMUP_S, MEASURE_S, CONNECTIONS, SERVER_CPUS, WRK_CPUS, ...).
# A smoke run: PAIRS=1 WARMUP_S=1 MEASURE_S=1 agent/bench/observe-overhead.sh --server jdkhttp
set -uo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { sed -n '2,9p' "$0"; exit 0; }
export BASELINE_AGENT_OPTS="admin=127.0.0.1:0,observe=off"
export AGENT_OPTS="admin=127.0.0.1:0,observe=always"
exec "$(dirname "$0")/overhead.sh" --out "${OUT:-/tmp/loadsmith-observe-overhead}" "$@"
