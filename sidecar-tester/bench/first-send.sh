#!/usr/bin/env bash
# Time from launching `bin/loadsmith run` to its first request reaching the target (docs/benchmarks.md,
# "Sizing a sidecar"): a loopback HTTP server of python3's standard library notes the wall-clock time of the
# first request it gets, the script the time just before it launches the tester (an open loop at 50/s for
# 2 s, no warm-up, --charts off, --progress none), and prints the difference, ROUNDS times for each of:
#   jdk17:     JAVA17 (the machine's JDK 17), bin/jvm.options as they are;
#   jdk25:     JAVA25 (a JDK 25), the same;
#   jdk25-aot: JAVA25 with -XX:AOTCache=OUT/loadsmith.aot, the ahead-of-time cache (JEP 483/514/515: the
#              classes loaded and linked, and method profiles) that one training run of the same scenario
#              wrote first with -XX:AOTCacheOutput.
# Then the medians. Each run's output in OUT/<case>-<round>.log, the commands in OUT/commands.txt.
#
#   sidecar-tester/bench/first-send.sh [--rounds 3] [--out DIR]
#
# Environment: JAVA17 (default /usr/lib/jvm/java-17-openjdk-amd64/bin/java), JAVA25 (default
# /usr/lib/jvm/temurin-25-jdk-amd64/bin/java); a missing one's cases are left out, said so. SKIP_BUILD=1: use
# the jar already built. Loopback only. Run it on a quiet box.
set -uo pipefail
cd "$(dirname "$0")/../.."
source sidecar-tester/bench/lib.sh

ROUNDS=3; OUT=/tmp/loadsmith-first-send
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds|--out)
      [[ $# -ge 2 && -n $2 ]] || { echo "first-send.sh: $1 needs a value (see the head of this file)" >&2; exit 2; }
      case "$1" in --rounds) ROUNDS=$2 ;; --out) OUT=$2 ;; esac
      shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "first-send.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "first-send.sh: --rounds must be a whole number >= 1 (got $ROUNDS)" >&2; exit 2; }
bench_out first-send.sh

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building loadsmith.jar (./mvnw package -DskipTests; log: $OUT/build.log)" >&2
  logcmd ./mvnw -B -q -pl sidecar-tester -am -DskipTests package
  ./mvnw -B -q -pl sidecar-tester -am -DskipTests package >"$OUT/build.log" 2>&1 \
    || { echo "first-send.sh: the build failed (see $OUT/build.log)" >&2; exit 2; }
fi
[[ -f sidecar-tester/target/loadsmith.jar ]] || { echo "first-send.sh: sidecar-tester/target/loadsmith.jar is missing" >&2; exit 2; }
JAVA17=${JAVA17:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
JAVA25=${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
CASES=()
if [[ -x $JAVA17 ]]; then CASES+=(jdk17); else echo "# no JDK 17 at $JAVA17: its case left out" >&2; fi
if [[ -x $JAVA25 ]]; then CASES+=(jdk25 jdk25-aot); else echo "# no JDK 25 at $JAVA25: its cases left out" >&2; fi
[[ ${#CASES[@]} -gt 0 ]] || { echo "first-send.sh: no JDK to run" >&2; exit 2; }

PORT=$(free_port)
printf 'name: first-send\ntarget: {url: "http://127.0.0.1:%s/"}\nload: {model: open, arrivals: constant, rate: 50, duration: 2s, connections: 2, grace: 2s, seed: 1}\n' \
  "$PORT" >"$OUT/scenario.yaml"
cat >"$OUT/server.py" <<'P'
import http.server, sys, time
noted = []
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        if not noted:
            noted.append(time.time())
            with open(sys.argv[2], "w") as f:
                f.write("%.6f\n" % noted[0])
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
P

SERVER_PID=""
stop_server() { [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null; SERVER_PID=""; }
trap stop_server EXIT
trap 'exit 130' INT TERM

# run_once NAME JAVA OPTS: one tester run against a fresh server; prints the seconds to its first request
run_once() {
  local name=$1 java=$2 opts=$3 t0 t1
  rm -f "$OUT/first.t"
  python3 "$OUT/server.py" "$PORT" "$OUT/first.t" & SERVER_PID=$!
  wait_port "$PORT" || { echo "first-send.sh: the server did not start" >&2; exit 2; }
  logcmd env JAVA="$java" LOADSMITH_JAVA_OPTS="$opts" bin/loadsmith run "$OUT/scenario.yaml" --progress none --charts off --out "$OUT/$name"
  t0=$(date +%s.%N)
  JAVA=$java LOADSMITH_JAVA_OPTS=$opts bin/loadsmith run "$OUT/scenario.yaml" --progress none --charts off \
    --out "$OUT/$name" >"$OUT/$name.log" 2>&1 || { echo "first-send.sh: $name failed (see $OUT/$name.log)" >&2; exit 2; }
  stop_server
  [[ -f $OUT/first.t ]] || { echo "first-send.sh: $name: no request reached the server" >&2; exit 2; }
  t1=$(cat "$OUT/first.t")
  python3 -c "print('%.3f' % ($t1 - $t0))"
}

if [[ " ${CASES[*]} " == *" jdk25-aot "* ]]; then
  echo "# training run: $JAVA25 -XX:AOTCacheOutput=$OUT/loadsmith.aot" >&2
  run_once train "$JAVA25" "-XX:AOTCacheOutput=$OUT/loadsmith.aot" >/dev/null
  [[ -f $OUT/loadsmith.aot ]] || { echo "first-send.sh: the training run wrote no cache (see $OUT/train.log)" >&2; exit 2; }
fi
for ((r = 1; r <= ROUNDS; r++)); do
  for c in "${CASES[@]}"; do
    case $c in
      jdk17) s=$(run_once "$c-$r" "$JAVA17" "") ;;
      jdk25) s=$(run_once "$c-$r" "$JAVA25" "") ;;
      jdk25-aot) s=$(run_once "$c-$r" "$JAVA25" "-XX:AOTCache=$OUT/loadsmith.aot") ;;
    esac
    printf '%s\t%s\n' "$c" "$s" >>"$OUT/seconds.tsv"
    echo "# $c round $r: $s s" >&2
  done
done
python3 - "$OUT/seconds.tsv" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'P' | tee "$OUT/table.md"
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().split("\n") if l]
print("load average at the end %s" % sys.argv[2])
print()
print("| case | seconds from launch to the first send: median | each round |")
print("| --- | ---: | --- |")
for case in dict.fromkeys(r[0] for r in rows):
    values = [float(r[1]) for r in rows if r[0] == case]
    print("| %s | %.3f | %s |" % (case, statistics.median(values), ", ".join("%.3f" % v for v in values)))
P
