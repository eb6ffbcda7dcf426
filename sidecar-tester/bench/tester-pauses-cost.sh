#!/usr/bin/env bash
# What observing the tester's own pauses costs the tester (docs/pauses.md, "The tester's own pauses"):
# PAIRS alternating runs of `loadsmith run` against HelloServer (another JVM, loopback), one with
# load.tester_pauses on, one off, in turn (which goes first alternates). Per run it prints the tester's CPU
# per request over the counted run (results.json cost.cpu_ns_per_request: the JFR stream's thread and the
# sync thread included) and the whole tester process's CPU (user + system, JVM start, warm-up, JFR start
# and the wait for JFR's delivery included), then the medians of each side.
#   sidecar-tester/bench/tester-pauses-cost.sh [PAIRS [DURATION [RATE]]]     # default 5 pairs, 20s, 1000/s
# Needs the built jar (bin/loadsmith builds it; ./mvnw -B -q -DskipTests package), python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
pairs=${1:-5}
duration=${2:-20s}
rate=${3:-1000}
jar=sidecar-tester/target/loadsmith.jar
[[ -f $jar ]] || { echo "tester-pauses-cost.sh: $jar is missing: build it first (./mvnw -B -q -DskipTests package)" >&2; exit 2; }
./mvnw -B -q -pl sidecar-tester -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >/dev/null
cp="sidecar-tester/target/test-classes:sidecar-tester/target/classes:$(cat sidecar-tester/target/bench.classpath)"
work=$(mktemp -d)
java -Xmx256m -cp "$cp" io.loadsmith.tester.client.jetty.HelloServer 0 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
url=
for _ in $(seq 200); do   # up to 20 s for the server's line
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/server.log" || true)
    [[ -n $url ]] && break
    kill -0 $server 2>/dev/null || { cat "$work/server.log" >&2; exit 2; }
    sleep 0.1
done
[[ -n $url ]] || { echo "tester-pauses-cost.sh: HelloServer did not start" >&2; exit 2; }
cat >"$work/cost.yaml" <<EOF
name: tester-pauses-cost
target: {url: '$url'}
load: {model: open, rate: $rate, duration: $duration, warmup: 2000, grace: 5s, seed: 12}
EOF
echo "loadsmith tester-pauses cost: $pairs pairs, open $rate/s for $duration against $url ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-4s %-4s %16s %16s %8s %s\n' pair mode cpu_ns_per_req process_cpu_ms pauses warnings
python3 - "$jar" "$work" "$pairs" <<'PY'
import json, os, resource, statistics, subprocess, sys
jar, work, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
per_request, process = {"on": [], "off": []}, {"on": [], "off": []}
for pair in range(pairs):
    for mode in (["on", "off"] if pair % 2 == 0 else ["off", "on"]):
        out = os.path.join(work, f"p{pair}-{mode}")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["java", "-jar", jar, "run", os.path.join(work, "cost.yaml"), "--out", out, "--progress", "none",
                        "--set", f"load.tester_pauses={mode}"], check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_ms = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
        run = json.load(open(os.path.join(out, "results.json")))["runs"][0]
        ns = run["cost"]["cpu_ns_per_request"]
        per_request[mode].append(ns)
        process[mode].append(cpu_ms)
        pauses = run.get("tester_pauses")
        warned = [w for w in run.get("warnings", []) if "tester" in w]
        print(f"{pair:<4} {mode:<4} {ns:16.0f} {cpu_ms:16.0f} {'-' if pauses is None else len(pauses):>8} {'; '.join(warned)}")
for mode in ("on", "off"):
    print(f"median {mode:<3}: {statistics.median(per_request[mode]):.0f} ns CPU a request (counted run), "
          f"{statistics.median(process[mode]):.0f} ms CPU a tester process")
print(f"on/off: {statistics.median(per_request['on']) / statistics.median(per_request['off']):.3f}x a request, "
      f"{statistics.median(process['on']) / statistics.median(process['off']):.3f}x a process")
PY
