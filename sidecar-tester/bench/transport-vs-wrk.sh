#!/usr/bin/env bash
# The tester beside wrk on loopback (docs/benchmarks.md, "cli / transport"): it starts its own servers
# (HelloServer, a trivial Jetty 12 handler, and Debian's nginx with one worker), runs wrk and loadsmith
# one after the other against the same server, ROUNDS rounds, and prints one table of loadsmith/wrk
# ratios from the same round (medians over rounds, each round's value in brackets).
#
#   sidecar-tester/bench/transport-vs-wrk.sh [--transport netty|jetty] [--servers "jetty nginx"] [--out DIR]
#
# --transport adds `--set target.transport=...` to every loadsmith run (without it: the default).
# Environment (the defaults are short: about 10 minutes in all on a quiet machine, longer where JVMs start slowly):
#   ROUNDS=3  CLOSED_S=4 (each closed run, wrk and loadsmith)  OPEN_S=4 (open 1,000/s and 10,000/s)
#   LADDER_S=3 (each rung)  LADDER="0.2 0.4 0.6 0.8" (fractions of wrk's closed-16 rate, same round)
#   WARMUP_S=2 (loadsmith warm-up)  SERVER_WARMUP_S=3 (wrk, once per server, before round 1)
#   OPEN_CONNECTIONS=64  STRACE_N=50000 (requests counted under strace)  STRACE_WRK_S=10 (wrk's -d there:
#   wrk stops its thread after STRACE_N responses but its main thread sleeps out -d)
#   JAVA_OPTS (for loadsmith)  SKIP_BUILD=1 (use the jar and test classes already built)
# Needs wrk, nginx, strace, python3 and /usr/bin/time; wrk, nginx-light and strace are installed with
# apt-get when missing (and the script says so).
set -uo pipefail
cd "$(dirname "$0")/../.."
source sidecar-tester/bench/lib.sh

TRANSPORT=""; SERVERS="jetty nginx"; OUT=/tmp/loadsmith-transport-vs-wrk
while [[ $# -gt 0 ]]; do
  case "$1" in
    --transport) TRANSPORT="$2"; shift 2 ;;
    --servers) SERVERS="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "transport-vs-wrk.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$TRANSPORT" in ""|netty|jetty) ;; *) echo "transport-vs-wrk.sh: --transport must be netty or jetty (got '$TRANSPORT')" >&2; exit 2 ;; esac
ROUNDS=${ROUNDS:-3}; CLOSED_S=${CLOSED_S:-4}; OPEN_S=${OPEN_S:-4}; LADDER_S=${LADDER_S:-3}
LADDER=${LADDER:-"0.2 0.4 0.6 0.8"}; WARMUP_S=${WARMUP_S:-2}; OPEN_CONNECTIONS=${OPEN_CONNECTIONS:-64}
STRACE_N=${STRACE_N:-50000}; STRACE_WRK_S=${STRACE_WRK_S:-10}; SERVER_WARMUP_S=${SERVER_WARMUP_S:-3}
JAVA_OPTS=${JAVA_OPTS:-}

need() { # need COMMAND PACKAGE
  command -v "$1" >/dev/null && return 0
  echo "# $1 is missing: installing Debian's $2 with apt-get" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } >"$OUT/apt-$2.log" 2>&1 \
    || { echo "transport-vs-wrk.sh: cannot install $2 (see $OUT/apt-$2.log)" >&2; exit 2; }
}
rm -rf "$OUT"; mkdir -p "$OUT"
need wrk wrk; need strace strace; need python3 python3
[[ " $SERVERS " == *" nginx "* ]] && { command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need nginx nginx-light; }
[[ -x /usr/bin/time ]] || need /usr/bin/time time
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

JAR=sidecar-tester/target/loadsmith.jar
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building loadsmith.jar and the test classes (./mvnw package -DskipTests)" >&2
  ./mvnw -B -q -pl sidecar-tester -am -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >"$OUT/build.log" 2>&1 \
    || { echo "transport-vs-wrk.sh: the build failed (see $OUT/build.log)" >&2; exit 2; }
fi
CP="sidecar-tester/target/test-classes:sidecar-tester/target/classes:$(cat sidecar-tester/target/bench.classpath)"
[[ -f $JAR ]] || { echo "transport-vs-wrk.sh: $JAR is missing" >&2; exit 2; }

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM


start_jetty() {
  local port; port=$(free_port)
  java -Xmx256m -cp "$CP" io.loadsmith.tester.client.jetty.HelloServer "$port" >"$OUT/hello-server.log" 2>&1 &
  PIDS+=($!)
  wait_port "$port" || { echo "transport-vs-wrk.sh: HelloServer did not start (see $OUT/hello-server.log)" >&2; exit 2; }
  URL="http://127.0.0.1:$port/"
}

start_nginx() {
  local dir=$OUT/nginx port; port=$(free_port); mkdir -p "$dir"
  nginx_conf "$dir" "$port" "$dir/error.log"
  "$NGINX" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" >"$dir/stdout.log" 2>&1 &
  PIDS+=($!)
  wait_port "$port" || { echo "transport-vs-wrk.sh: nginx did not start (see $dir/error.log)" >&2; exit 2; }
  URL="http://127.0.0.1:$port/"
}

record() { printf '%s\t%s\t%s\t%s\n' "$SERVER" "$ROUND" "$1" "$2" >>"$OUT/raw.tsv"; }

# loadsmith NAME MODEL-LINE: one run; its results.json is in $OUT/NAME; prints nothing
loadsmith() {
  local name=$1 load=$2 dir=$OUT/$SERVER-$1
  printf 'name: %s\ntarget: {url: "%s"}\nload: {%s}\n' "$name" "$URL" "$load" >"$dir.yaml"
  local set=(); [[ -n $TRANSPORT ]] && set=(--set "target.transport=$TRANSPORT")
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar "$JAR" run "$dir.yaml" "${set[@]}" --progress none --out "$dir" >"$dir.log" 2>&1 \
    || echo "# loadsmith run $SERVER-$name failed (its figures are n/a): $(tail -n 1 "$dir.log")" >&2
}

# field DIR EXPR: a value from DIR/results.json's first run (d), or n/a
field() {
  python3 - "$1/results.json" "$2" <<'P' 2>/dev/null || echo n/a
import json, sys
d = json.load(open(sys.argv[1]))['runs'][0]
print(eval(sys.argv[2]))
P
}

wrk_closed() { # wrk_closed CONNECTIONS: records wrk's rate and CPU per request
  local c=$1 f=$OUT/$SERVER-wrk-c$1-r$ROUND
  /usr/bin/time -f "%U %S" -o "$f.time" wrk -t1 -c"$c" -d"${CLOSED_S}s" "$URL" >"$f.txt" 2>&1
  local req rps; req=$(grep -oP '^\s*\K\d+(?= requests in)' "$f.txt"); rps=$(grep -oP 'Requests/sec:\s*\K[\d.]+' "$f.txt")
  record "wrk_c${c}_rps" "${rps:-n/a}"
  record "wrk_c${c}_cpu_us" "$(awk -v r="${req:-0}" '{ if (r > 0) printf "%.2f", ($1 + $2) * 1e6 / r; else print "n/a" }' "$f.time")"
  WRK_RPS=${rps:-0}
}

ls_closed() { # ls_closed CONNECTIONS
  local c=$1 name=closed-c$1-r$ROUND
  loadsmith "$name" "model: closed, connections: $c, duration: ${CLOSED_S}s, warmup: ${WARMUP_S}s, grace: 5s, seed: 1"
  record "ls_c${c}_rps" "$(field "$OUT/$SERVER-$name" "d['achieved_rate']")"
  record "ls_c${c}_cpu_us" "$(field "$OUT/$SERVER-$name" "d['cost']['cpu_ns_per_request'] / 1000")"
}

ls_open() { # ls_open RATE SECONDS NAME: one open Poisson run
  loadsmith "$3" "model: open, arrivals: poisson, rate: $1, duration: ${2}s, warmup: ${WARMUP_S}s, connections: $OPEN_CONNECTIONS, grace: 5s, seed: 1"
}

on_schedule() { # on_schedule DIR RATE: achieved >= 0.98 rate, nothing dropped, send lateness p99 < 1 ms
  [[ $(field "$1" "int(d['achieved_rate'] >= 0.98 * $2 and d['counts']['dropped'] == 0 and d['send_lateness_ms']['p99'] < 1.0)") == 1 ]]
}

syscalls() { # syscalls STRACE-FILE: the calls of the total line of strace -c
  awk '$NF == "total" { print $4 }' "$1" 2>/dev/null
}

strace_both() { # syscalls per request, wrk and loadsmith, closed loop with 16 connections
  local f=$OUT/$SERVER-strace
  printf 'local n = 0\nfunction response()\n  n = n + 1\n  if n >= %d then wrk.thread:stop() end\nend\n' "$STRACE_N" >"$f-stop.lua"
  if strace -c -f -o "$f-wrk.txt" wrk -t1 -c16 -d"${STRACE_WRK_S}s" -s "$f-stop.lua" "$URL" >"$f-wrk.log" 2>&1 && [[ -n $(syscalls "$f-wrk.txt") ]]; then
    local req; req=$(grep -oP '^\s*\K\d+(?= requests in)' "$f-wrk.log")
    record wrk_syscalls_per_req "$(awk -v s="$(syscalls "$f-wrk.txt")" -v r="${req:-0}" 'BEGIN { if (r > 0) printf "%.2f", s / r; else print "n/a" }')"
  else
    record wrk_syscalls_per_req n/a
  fi
  # loadsmith: two runs with warm-ups of STRACE_N/10 and STRACE_N requests; the difference cancels the JVM's
  # start and most of its background calls (a small difference drowns in them: keep STRACE_N large)
  local counts=() calls=() n
  for n in "$((STRACE_N / 10))" "$STRACE_N"; do
    local dir=$OUT/$SERVER-strace-ls-$n set=()
    [[ -n $TRANSPORT ]] && set=(--set "target.transport=$TRANSPORT")
    printf 'name: strace\ntarget: {url: "%s"}\nload: {model: closed, connections: 16, duration: 1s, warmup: %d, grace: 5s, seed: 1}\n' \
      "$URL" "$n" >"$dir.yaml"
    # shellcheck disable=SC2086
    strace -c -f -o "$dir.strace" java $JAVA_OPTS -jar "$JAR" run "$dir.yaml" "${set[@]}" --progress none --out "$dir" >"$dir.log" 2>&1
    calls+=("$(syscalls "$dir.strace")"); counts+=("$(field "$dir" "$n + d['counts']['sent']")")
  done
  record ls_syscalls_per_req "$(python3 -c '
import sys
try:
    s1, s2, n1, n2 = map(float, sys.argv[1:5]); print("%.2f" % ((s2 - s1) / (n2 - n1)))
except (ValueError, ZeroDivisionError):
    print("n/a")' "${calls[0]:-x}" "${calls[1]:-x}" "${counts[0]:-x}" "${counts[1]:-x}")"
}

: >"$OUT/raw.tsv"
for SERVER in $SERVERS; do
  case "$SERVER" in
    jetty) start_jetty ;;
    nginx) start_nginx ;;
    *) echo "transport-vs-wrk.sh: --servers takes jetty and/or nginx (got '$SERVER')" >&2; exit 2 ;;
  esac
  echo "# $SERVER server on $URL; warming it up with wrk for ${SERVER_WARMUP_S}s" >&2
  wrk -t1 -c16 -d"${SERVER_WARMUP_S}s" "$URL" >"$OUT/$SERVER-warmup.txt" 2>&1
  for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
    echo "# $SERVER round $ROUND: closed 1 and 16 connections, wrk then loadsmith" >&2
    wrk_closed 1; ls_closed 1
    wrk_closed 16; WRK16=$WRK_RPS; ls_closed 16
    echo "# $SERVER round $ROUND: open 1,000/s and 10,000/s" >&2
    ls_open 1000 "$OPEN_S" "open-1000-r$ROUND"
    record ls_open1k_cpu_us "$(field "$OUT/$SERVER-open-1000-r$ROUND" "d['cost']['cpu_ns_per_request'] / 1000")"
    ls_open 10000 "$OPEN_S" "open-10000-r$ROUND"
    d=$OUT/$SERVER-open-10000-r$ROUND
    for p in p50 p99 max; do record "ls_open10k_lateness_$p" "$(field "$d" "d['send_lateness_ms']['$p']")"; done
    record ls_open10k_achieved "$(field "$d" "d['achieved_rate']")"
    record ls_open10k_dropped "$(field "$d" "d['counts']['dropped']")"
    echo "# $SERVER round $ROUND: rate ladder ($LADDER of wrk's closed-16 ${WRK16}/s)" >&2
    best=0
    for frac in $LADDER; do
      rate=$(awk -v w="$WRK16" -v f="$frac" 'BEGIN { printf "%d", w * f }')
      [[ $rate -gt 0 ]] || break
      ls_open "$rate" "$LADDER_S" "ladder-$frac-r$ROUND"
      [[ -f $OUT/$SERVER-ladder-$frac-r$ROUND/results.json ]] || { best=n/a; break; }
      on_schedule "$OUT/$SERVER-ladder-$frac-r$ROUND" "$rate" || break
      best=$frac
    done
    record ladder_fraction "$best"
  done
  echo "# $SERVER: syscalls per request under strace -c -f ($STRACE_N requests)" >&2
  ROUND=1; strace_both
  cleanup; PIDS=()
done

python3 - "$OUT/raw.tsv" "$SERVERS" "${TRANSPORT:-default}" "$ROUNDS" <<'P' | tee "$OUT/table.md"
import statistics, sys
from collections import defaultdict
raw = defaultdict(dict)                      # (server, key) -> {round: value}
for line in open(sys.argv[1]):
    server, rnd, key, value = line.rstrip('\n').split('\t')
    try:
        raw[(server, key)][int(rnd)] = float(value)
    except ValueError:
        pass
servers, rounds = sys.argv[2].split(), int(sys.argv[4])

def per_round(server, f):
    out = []
    for r in range(1, rounds + 1):
        try:
            out.append(f(lambda k: raw[(server, k)][r]))
        except (KeyError, ZeroDivisionError):
            pass
    return out

def cell(server, f, fmt):
    values = per_round(server, f)
    if not values:
        return 'n/a'
    return fmt % statistics.median(values) + ' (' + ', '.join(fmt % v for v in values) + ')'

rows = [
    ('closed, 1 connection: throughput loadsmith/wrk', '>= 0.9', lambda g: g('ls_c1_rps') / g('wrk_c1_rps'), '%.2f'),
    ('closed, 1 connection: CPU per request loadsmith/wrk', '<= 1.25', lambda g: g('ls_c1_cpu_us') / g('wrk_c1_cpu_us'), '%.2f'),
    ('closed, 16 connections: throughput loadsmith/wrk', '>= 0.9', lambda g: g('ls_c16_rps') / g('wrk_c16_rps'), '%.2f'),
    ('closed, 16 connections: CPU per request loadsmith/wrk', '<= 1.25', lambda g: g('ls_c16_cpu_us') / g('wrk_c16_cpu_us'), '%.2f'),
    ('open Poisson 1,000/s: loadsmith CPU per request (us)', '<= 30', lambda g: g('ls_open1k_cpu_us'), '%.1f'),
    ('open Poisson 10,000/s: send lateness p50 (ms)', '', lambda g: g('ls_open10k_lateness_p50'), '%.3f'),
    ('open Poisson 10,000/s: send lateness p99 (ms)', '<= 0.1', lambda g: g('ls_open10k_lateness_p99'), '%.3f'),
    ('open Poisson 10,000/s: send lateness max (ms)', '<= 1', lambda g: g('ls_open10k_lateness_max'), '%.3f'),
    ('open Poisson 10,000/s: achieved rate (/s)', '>= 9,800', lambda g: g('ls_open10k_achieved'), '%.0f'),
    ('open Poisson 10,000/s: dropped', '0', lambda g: g('ls_open10k_dropped'), '%.0f'),
    ('highest open rate on schedule / wrk closed-16 rate', '>= 0.6', lambda g: g('ladder_fraction'), '%.1f'),
    ('syscalls per request: wrk (closed, 16 connections)', '', lambda g: g('wrk_syscalls_per_req'), '%.2f'),
    ('syscalls per request: loadsmith (closed, 16 connections)', '', lambda g: g('ls_syscalls_per_req'), '%.2f'),
    ('syscalls per request: loadsmith/wrk', '<= 1', lambda g: g('ls_syscalls_per_req') / g('wrk_syscalls_per_req'), '%.2f'),
]
print('transport: %s; %d rounds; each cell: the median over rounds (each round\'s value); ratios from the same round' % (sys.argv[3], rounds))
print()
print('| measure | aim | ' + ' | '.join(s + ' server' for s in servers) + ' |')
print('| --- | --- | ' + ' | '.join('---' for _ in servers) + ' |')
for name, aim, f, fmt in rows:
    print('| %s | %s | %s |' % (name, aim, ' | '.join(cell(s, f, fmt) for s in servers)))
P
echo "# raw figures: $OUT/raw.tsv; logs and results.json of every run: $OUT" >&2
