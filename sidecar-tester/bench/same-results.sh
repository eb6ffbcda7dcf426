#!/usr/bin/env bash
# Checks that a restructuring changed no result: builds the tester at REV (in a temporary git worktree) and
# at the working tree, runs the simulated scenarios with each, and compares what they wrote. requests.bin and
# latency.hlog must be byte-identical; results.json too, apart from the tester's own cost (CPU) and the
# commit it was built from. Prints one line per file and exits 1 on any difference.
#
#   sidecar-tester/bench/same-results.sh REV     e.g. the commit before a refactoring
set -uo pipefail
cd "$(dirname "$0")/../.."
REV=${1:?usage: same-results.sh REV (a commit to compare the working tree with)}
git rev-parse --verify -q "$REV^{commit}" >/dev/null || { echo "same-results.sh: no commit $REV" >&2; exit 2; }
SCENARIOS=(examples/scenarios/sim-coordinated-omission.yaml examples/scenarios/sim-open-seeded-stalls.yaml)
work=$(mktemp -d /tmp/same-results.XXXXXX)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/old" "$REV" || exit 2
for tree in "$work/old" .; do
  (cd "$tree" && ./mvnw -B -q package -pl sidecar-tester -am -DskipTests >"$work/build.log" 2>&1) \
    || { echo "same-results.sh: the build of $tree failed, see $work/build.log" >&2; trap - EXIT; exit 2; }
done
differ=0
for scenario in "${SCENARIOS[@]}"; do
  name=$(basename "$scenario" .yaml)
  for side in old new; do
    tree=$([[ $side == old ]] && echo "$work/old" || pwd)
    # a simulated run may fail its SLOs on purpose (exit 1): what it wrote is compared all the same
    (cd "$tree" && java -jar sidecar-tester/target/loadsmith.jar run "$scenario" --out "$work/$side/$name" >/dev/null 2>&1)
    [[ -f $work/$side/$name/results.json ]] || { echo "same-results.sh: $side $name wrote no results.json" >&2; exit 2; }
  done
  for file in requests.bin latency.hlog; do
    if cmp -s "$work/old/$name/$file" "$work/new/$name/$file"; then echo "same   $name/$file"
    else echo "DIFFER $name/$file"; differ=1; fi
  done
  python3 - "$work/old/$name/results.json" "$work/new/$name/results.json" "$name" <<'PY' || differ=1
import json, sys
IGNORED = {"cost", "tester_commit"}  # the tester's own CPU, and the commit it was built from
def strip(o):
    if isinstance(o, dict): return {k: strip(v) for k, v in o.items() if k not in IGNORED}
    if isinstance(o, list): return [strip(v) for v in o]
    return o
old, new = (strip(json.load(open(p))) for p in sys.argv[1:3])
print(("same   " if old == new else "DIFFER ") + sys.argv[3] + "/results.json (apart from cost and tester_commit)")
sys.exit(0 if old == new else 1)
PY
done
exit $differ
