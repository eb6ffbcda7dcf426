#!/usr/bin/env bash
# loadsmith's open loop beside open-model peers on loopback: wrk2 (-R), Gatling 3.13.5 (constantUsersPerSec)
# and loadsmith at the send precisions TOOLS names (by default the default one and `precision: 1ms`). It
# starts its own servers (Debian's nginx with one worker, and HelloServer, a trivial Jetty 12 handler from
# sidecar-tester's test classes), checks that each answers 200, and runs the tools one after the other
# against the same server, ROUNDS rounds: each rate of RATES, then a rate ladder (LADDER) per tool up to the first rung it does not
# hold on schedule, and wrk -t1 -c16 (closed loop, Debian's wrk) as the reference rate. It prints a table
# (CPU per request, corrected p50/p99, send lateness, achieved rate, CPU / wrk2's from the same round), then
# the highest rung each tool held; the exact commands are in OUT/commands.txt. Loopback only.
#
#   sidecar-tester/bench/open-vs-peers.sh [--wrk2 PATH] [--servers "nginx jetty"] [--out DIR]
#
# --wrk2 PATH: the `wrk` binary built from giltene/wrk2, or its source folder (built there with a plain
#   `make` when its binary is missing; nothing is downloaded). Without it the wrk2 rows are skipped.
# --servers: nginx and/or jetty (default both). --out: default /tmp/loadsmith-open-vs-peers.
# Environment (defaults: about 20-30 minutes for both servers; a tool leaves the ladder at its first miss):
#   ROUNDS=1  SECONDS_PER_RUN=20 (each counted run; wrk2 needs >= 20: it counts its CPU in 10 ms ticks and
#   resets its histogram 10 s + 5 ms x connections after its start, so its percentiles are of the rest)
#   RATES="200 1000 10000"  LADDER="10000 20000 30000 40000" (a rung also in RATES is not run again;
#   LADDER="" runs no ladder)
#   CONNECTIONS=64 (wrk2 -c, loadsmith connections; Gatling's shared pool opens what it needs)
#   WARMUP_S=2 (loadsmith's warm-up)  GATLING_WARMUP_S=5 (Gatling: same rate before its counted window)
#   CLOSED_S=SECONDS_PER_RUN (wrk -t1 -c16)  SERVER_WARMUP_S=3 (wrk, once per server, before round 1)
#   TOOLS="wrk2 gatling loadsmith loadsmith-1ms" (a subset runs only those; loadsmith-P runs loadsmith at
#   `precision: P`, e.g. loadsmith-10us loadsmith-100us loadsmith-250us for the precision curve)
#   JAVA_OPTS (loadsmith)  GATLING_JAVA_OPTS=-Xmx1g  SKIP_BUILD=1 (use the jar, test classes and Gatling
#   classes already built; a missing class path is still written)
# On schedule: achieved >= 0.98 x rate, no error, and: loadsmith nothing dropped and send lateness p99
# <= 1 ms; wrk2 corrected p99 <= 2 ms; Gatling p99 <= 2 ms (whole ms, from the actual send).
# Needs wrk, nginx, python3 and /usr/bin/time (installed with apt-get when missing, and it says so), a JDK
# 17+, and for Gatling its jars from Maven Central (the first build fetches them through ./mvnw).
set -uo pipefail
cd "$(dirname "$0")/../.."
source sidecar-tester/bench/lib.sh

SERVERS="nginx jetty"; OUT=/tmp/loadsmith-open-vs-peers; WRK2_ARG=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --wrk2|--servers|--out)
      [[ $# -ge 2 && -n $2 ]] || { echo "open-vs-peers.sh: $1 needs a value (see --help)" >&2; exit 2; }
      case "$1" in --wrk2) WRK2_ARG=$2 ;; --servers) SERVERS=$2 ;; --out) OUT=$2 ;; esac
      shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "open-vs-peers.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for s in $SERVERS; do
  case "$s" in nginx|jetty) ;; *) echo "open-vs-peers.sh: --servers takes nginx and/or jetty (got '$s')" >&2; exit 2 ;; esac
done
ROUNDS=${ROUNDS:-1}; SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}; RATES=${RATES:-"200 1000 10000"}
LADDER=${LADDER-"10000 20000 30000 40000"}; CONNECTIONS=${CONNECTIONS:-64}; WARMUP_S=${WARMUP_S:-2}
GATLING_WARMUP_S=${GATLING_WARMUP_S:-5}; CLOSED_S=${CLOSED_S:-$SECONDS_PER_RUN}; SERVER_WARMUP_S=${SERVER_WARMUP_S:-3}
TOOLS=${TOOLS:-"wrk2 gatling loadsmith loadsmith-1ms"}; JAVA_OPTS=${JAVA_OPTS:-}; GATLING_JAVA_OPTS=${GATLING_JAVA_OPTS:--Xmx1g}
S=$SECONDS_PER_RUN
for n in ROUNDS SECONDS_PER_RUN CONNECTIONS WARMUP_S GATLING_WARMUP_S CLOSED_S SERVER_WARMUP_S; do
  [[ ${!n} =~ ^[0-9]+$ ]] || { echo "open-vs-peers.sh: $n must be a whole number (got '${!n}')" >&2; exit 2; }
done
[[ $S -ge 1 && $CLOSED_S -ge 1 ]] || { echo "open-vs-peers.sh: SECONDS_PER_RUN and CLOSED_S must be at least 1" >&2; exit 2; }
for r in $RATES $LADDER; do
  [[ $r =~ ^[1-9][0-9]*$ ]] || { echo "open-vs-peers.sh: RATES and LADDER take whole rates a second (got '$r')" >&2; exit 2; }
done
has_tool() { [[ " $TOOLS " == *" $1 "* ]]; }

bench_out open-vs-peers.sh

need() { # need COMMAND PACKAGE
  command -v "$1" >/dev/null && return 0
  echo "# $1 is missing: installing Debian's $2 with apt-get" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } >"$OUT/apt-$2.log" 2>&1 \
    || { echo "open-vs-peers.sh: cannot install $2 (see $OUT/apt-$2.log)" >&2; exit 2; }
}
need wrk wrk; need python3 python3
[[ " $SERVERS " == *" nginx "* ]] && { command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need nginx nginx-light; }
[[ -x /usr/bin/time ]] || need /usr/bin/time time
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# wrk2: a binary, or its source folder (built with make when the binary is missing)
WRK2=""
if has_tool wrk2 && [[ -n $WRK2_ARG ]]; then
  if [[ -d $WRK2_ARG ]]; then
    if [[ ! -x $WRK2_ARG/wrk ]]; then
      echo "# wrk2: building $WRK2_ARG/wrk with make (log: $OUT/wrk2-build.log)" >&2
      logged make -C "$WRK2_ARG" >"$OUT/wrk2-build.log" 2>&1 \
        || { echo "open-vs-peers.sh: make in $WRK2_ARG failed (see $OUT/wrk2-build.log)" >&2; exit 2; }
    fi
    WRK2=$WRK2_ARG/wrk
  elif [[ $WRK2_ARG != */* ]] && command -v "$WRK2_ARG" >/dev/null; then
    WRK2=$(command -v "$WRK2_ARG")
  else
    WRK2=$WRK2_ARG
  fi
  [[ -x $WRK2 ]] || { echo "open-vs-peers.sh: --wrk2 $WRK2_ARG: $WRK2 is not an executable" >&2; exit 2; }
  [[ $("$WRK2" -h 2>&1) == *--rate* ]] \
    || { echo "open-vs-peers.sh: $WRK2 is not wrk2 (its usage has no -R/--rate; Debian's wrk is wrk 4, not wrk2)" >&2; exit 2; }
  WRK2=$(cd "$(dirname "$WRK2")" && pwd)/$(basename "$WRK2")
  [[ $S -ge 20 ]] || echo "# wrk2: SECONDS_PER_RUN=$S is under 20 s: wrk2's CPU is counted in 10 ms ticks, and its percentiles cover the time after its calibration at 10.3 s, or the whole run (its start included) when shorter: rough figures" >&2
fi

# builds: loadsmith.jar and test classes (HelloServer), the Gatling simulation and class paths
JAR=sidecar-tester/target/loadsmith.jar; TEST_CP_FILE=sidecar-tester/target/bench.classpath
GATLING_POM=sidecar-tester/bench/gatling/pom.xml; GATLING_DIR=sidecar-tester/bench/gatling
GATLING_CP_FILE=$GATLING_DIR/target/gatling.classpath
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building loadsmith.jar and the test classes (./mvnw package -DskipTests; log: $OUT/build.log)" >&2
  logged ./mvnw -B -q -pl sidecar-tester -am -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >"$OUT/build.log" 2>&1 \
    || { echo "open-vs-peers.sh: the build failed (see $OUT/build.log)" >&2; exit 2; }
elif [[ ! -f $TEST_CP_FILE && " $SERVERS " == *" jetty "* ]]; then
  echo "# writing $TEST_CP_FILE (HelloServer's class path; log: $OUT/build.log)" >&2
  logged ./mvnw -B -q -pl sidecar-tester -am dependency:build-classpath \
      -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >"$OUT/build.log" 2>&1 \
    || { echo "open-vs-peers.sh: writing the class path failed (see $OUT/build.log)" >&2; exit 2; }
fi
[[ -f $JAR ]] || { echo "open-vs-peers.sh: $JAR is missing (run without SKIP_BUILD=1)" >&2; exit 2; }
if has_tool gatling && { [[ "${SKIP_BUILD:-}" != 1 ]] || [[ ! -f $GATLING_CP_FILE ]] || [[ ! -d $GATLING_DIR/target/classes/io ]]; }; then
  echo "# building the Gatling simulation ($GATLING_POM; the first build fetches Gatling from Maven Central; log: $OUT/gatling-build.log)" >&2
  logged ./mvnw -B -q -f "$GATLING_POM" compile dependency:build-classpath -Dmdep.outputFile=target/gatling.classpath \
      >"$OUT/gatling-build.log" 2>&1 \
    || { echo "open-vs-peers.sh: the Gatling build failed (see $OUT/gatling-build.log)" >&2; exit 2; }
fi
# the class paths go in argument files (java @FILE), kept in OUT, so that commands.txt stays readable
has_tool gatling && printf -- '-cp %s\n' "$GATLING_DIR/target/classes:$(cat "$GATLING_CP_FILE")" >"$OUT/gatling-cp.args"

PIDS=(); NGINX_DIR=""
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null
  [[ -n $NGINX_DIR && -d $NGINX_DIR ]] && rm -rf "$NGINX_DIR"
  PIDS=(); NGINX_DIR=""
}
trap cleanup EXIT
trap 'exit 130' INT TERM


start_jetty() {
  local port; port=$(free_port)
  printf -- '-cp %s\n' "sidecar-tester/target/test-classes:sidecar-tester/target/classes:$(cat "$TEST_CP_FILE")" >"$OUT/hello-cp.args"
  # started here, not through logged: $! must be the server itself, which cleanup stops
  logcmd java -Xmx1g @"$OUT/hello-cp.args" io.loadsmith.tester.client.jetty.HelloServer "$port"
  java -Xmx1g @"$OUT/hello-cp.args" io.loadsmith.tester.client.jetty.HelloServer "$port" >"$OUT/hello-server.log" 2>&1 &
  PIDS+=($!)
  wait_port "$port" || { echo "open-vs-peers.sh: HelloServer did not start (see $OUT/hello-server.log)" >&2; exit 2; }
  URL="http://127.0.0.1:$port/"; SERVER_LOG=$OUT/hello-server.log
}

start_nginx() {
  # nginx's worker runs as nobody: a private prefix it can read (a 0700 folder makes every answer a 403)
  local port; port=$(free_port)
  NGINX_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loadsmith-nginx.XXXXXX") && chmod 755 "$NGINX_DIR" \
    || { echo "open-vs-peers.sh: cannot make nginx's prefix folder" >&2; exit 2; }
  local dir=$NGINX_DIR
  nginx_conf "$dir" "$port" "$OUT/nginx-error.log"
  cp "$dir/nginx.conf" "$OUT/nginx.conf"
  logcmd "$NGINX" -p "$dir" -e "$OUT/nginx-error.log" -c "$dir/nginx.conf"
  "$NGINX" -p "$dir" -e "$OUT/nginx-error.log" -c "$dir/nginx.conf" >"$OUT/nginx-stdout.log" 2>&1 &
  PIDS+=($!)
  wait_port "$port" || { echo "open-vs-peers.sh: nginx did not start (see $OUT/nginx-error.log)" >&2; exit 2; }
  URL="http://127.0.0.1:$port/"; SERVER_LOG=$OUT/nginx-error.log
}

check_200() { # check_200: the server must answer GET URL with 200 before anything is measured
  local code
  if command -v curl >/dev/null; then
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$URL")
  else
    code=$(python3 -c '
import sys, urllib.request, urllib.error
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=5).status)
except urllib.error.HTTPError as e:
    print(e.code)
except Exception:
    print("no answer")' "$URL")
  fi
  [[ $code == 200 ]] \
    || { echo "open-vs-peers.sh: the $SERVER server on $URL answered '$code', not 200: nothing measured (see $SERVER_LOG)" >&2; exit 2; }
  echo "# $SERVER server on $URL answers 200" >&2
}

# figures.py: reads each tool's own output into key<TAB>value lines, tells whether a run held its
# schedule, and prints the tables
cat >"$OUT/figures.py" <<'P'
import json, math, os, re, statistics, sys
from collections import defaultdict

def out(d):
    for k, v in d.items():
        print('%s\t%s' % (k, 'n/a' if v is None else v))

def kv(path):
    d = {}
    try:
        for line in open(path):
            if '=' in line:
                k, v = line.rstrip('\n').split('=', 1); d[k] = v
    except OSError:
        pass
    return d

def wrk_time(s):  # wrk/wrk2 durations: 845.00us, 1.16ms, 2.00s, 1.00m, 1.00h
    m = re.fullmatch(r'([\d.]+)(us|ms|s|m|h)', s)
    if not m:
        return None
    return float(m.group(1)) * {'us': 1e-3, 'ms': 1, 's': 1e3, 'm': 6e4, 'h': 3.6e6}[m.group(2)]  # in ms

def cpu_s(time_file):
    try:
        u, s = open(time_file).read().split()[:2]; return float(u) + float(s)
    except (OSError, ValueError):
        return None

def wrk2(txt, time_file, connections):
    t = open(txt).read()
    def block(title):
        m = re.search(r'Latency Distribution \(HdrHistogram - ' + title + r'.*?\n((?:[ \t]*[\d.]+%[ \t]+\S+[ \t]*\n)+)', t)
        if not m:
            return {}
        return {float(p): wrk_time(v) for p, v in re.findall(r'([\d.]+)%\s+(\S+)', m.group(1))}
    rec, unc = block('Recorded Latency'), block('Uncorrected Latency')
    req = re.search(r'(\d+) requests in (\S+),', t)
    rps = re.search(r'Requests/sec:\s*([\d.]+)', t)
    count = re.search(r'Recorded Latency.*?Total count\s*=\s*(\d+)', t, re.S)
    errors = sum(int(x) for x in re.findall(r'(?:connect|read|write|timeout) (\d+)', ''.join(re.findall(r'Socket errors:.*', t))))
    non2xx = re.search(r'Non-2xx or 3xx responses:\s*(\d+)', t)
    errors += int(non2xx.group(1)) if non2xx else 0
    cpu = cpu_s(time_file)
    requests = int(req.group(1)) if req else None
    runtime_s = wrk_time(req.group(2)) / 1e3 if req else None
    # the percentiles and the histogram's count are of the time after wrk2's calibration (10 s + 5 ms a
    # connection after its thread started), when it resets its histograms; achieved is of that window too
    calib_s = 10 + 0.005 * int(connections)
    achieved = None
    if count and runtime_s:
        n = int(count.group(1))
        achieved = n / (runtime_s - calib_s) if runtime_s > calib_s + 1 else n / runtime_s
    out({'achieved': '%.1f' % achieved if achieved is not None else None,
         'achieved_printed': rps.group(1) if rps else None,
         'requests': requests, 'errors': errors,
         'cpu_us': '%.2f' % (cpu * 1e6 / requests) if cpu is not None and requests else None,
         'p50_ms': rec.get(50.0), 'p99_ms': rec.get(99.0), 'max_ms': rec.get(100.0),
         'uncorrected_p50_ms': unc.get(50.0), 'uncorrected_p99_ms': unc.get(99.0)})

def gatling(window_file, results_dir, simlog_dir):
    sys.path.insert(0, simlog_dir)
    import simlog
    w = kv(window_file)
    runs = [os.path.join(results_dir, d) for d in os.listdir(results_dir)] if os.path.isdir(results_dir) else []
    log = next((os.path.join(d, 'simulation.log') for d in runs if os.path.isfile(os.path.join(d, 'simulation.log'))), None)
    if not w or not log:
        return out({'achieved': None})
    t0, t1 = int(w['start_epoch_ms']), int(w['end_epoch_ms'])
    _, requests = simlog.read(log)
    inside = sorted(q[1] for q in requests if t0 <= q[0] < t1)
    ko = sum(1 for q in requests if t0 <= q[0] < t1 and not q[2])
    def pct(p):
        return inside[max(0, math.ceil(p / 100 * len(inside)) - 1)] if inside else None
    cpu_ns = int(w['end_cpu_ns']) - int(w['start_cpu_ns'])
    report = {}
    stats = os.path.join(os.path.dirname(log), 'js', 'stats.js')
    if os.path.isfile(stats):  # Gatling's own report, the whole run (warm-up included)
        s = open(stats).read()
        for key, name in (('percentiles1', 'report_p50_ms'), ('percentiles4', 'report_p99_ms')):
            m = re.search(r'"%s":\s*\{\s*"total":\s*"([^"]*)"' % key, s)
            report[name] = m.group(1) if m else None
    out(dict({'achieved': '%.1f' % (len(inside) * 1000 / (t1 - t0)), 'requests': len(inside), 'errors': ko,
              'cpu_us': '%.2f' % (cpu_ns / 1000 / len(inside)) if inside else None,
              'p50_ms': pct(50), 'p99_ms': pct(99), 'max_ms': inside[-1] if inside else None,
              'window_s': '%.3f' % ((t1 - t0) / 1000), 'all_requests': len(requests)}, **report))

def loadsmith(results):
    d = json.load(open(results))['runs'][0]
    c, lat = d['counts'], d['latency_ms']
    out({'achieved': d['achieved_rate'], 'dropped': c['dropped'], 'errors': c['errors'],
         'cpu_us': '%.2f' % (d['cost']['cpu_ns_per_request'] / 1000),
         'p50_ms': lat['corrected']['p50'], 'p99_ms': lat['corrected']['p99'], 'max_ms': lat['corrected']['max'],
         'service_p50_ms': lat['service']['p50'], 'service_p99_ms': lat['service']['p99'],
         'lateness_p99_ms': d['send_lateness_ms']['p99'], 'lateness_max_ms': d['send_lateness_ms']['max']})

def num(d, k):
    try:
        return float(d[k])
    except (KeyError, ValueError):
        return None

def verdict(tool, rate, fig):
    """1, or 0<TAB>why, or n/a<TAB>why: on schedule by the rules in the script's head."""
    d = {}
    for line in open(fig):
        k, v = line.rstrip('\n').split('\t', 1); d[k] = v
    rate = float(rate)
    achieved = num(d, 'achieved')
    if achieved is None:
        print('n/a\tno figures'); return
    why = []
    if achieved < 0.98 * rate:
        why.append('achieved %.0f/s' % achieved)
    if (num(d, 'errors') or 0) > 0:
        why.append('%d errors' % num(d, 'errors'))
    if tool.startswith('loadsmith'):
        if (num(d, 'dropped') or 0) > 0:
            why.append('%d dropped' % num(d, 'dropped'))
        lp99 = num(d, 'lateness_p99_ms')
        if lp99 is None or lp99 > 1.0:
            why.append('send lateness p99 %s ms' % d.get('lateness_p99_ms'))
    else:
        p99 = num(d, 'p99_ms')
        if p99 is None or p99 > 2.0:
            why.append('p99 %s ms' % d.get('p99_ms'))
    print('1' if not why else '0\t' + ', '.join(why))

NAMES = {'wrk2': 'wrk2 -t1 -c%s -R', 'gatling': 'Gatling 3.13.5', 'loadsmith': 'loadsmith (default precision)'}

def name(tool):  # loadsmith-P: loadsmith at precision P
    return NAMES.get(tool) or 'loadsmith (precision: %s)' % tool[len('loadsmith-'):]

def table(raw, servers, rates, tools, rounds, connections, ladder):
    v = defaultdict(dict)      # (server, rate, tool, key) -> {round: value}
    for line in open(raw):
        server, rnd, rate, tool, key, value = line.rstrip('\n').split('\t', 5)
        v[(server, rate, tool, key)][int(rnd)] = value
    servers, rates, tools, rounds = servers.split(), rates.split(), tools.split(), int(rounds)
    def f(x):
        try:
            return float(x)
        except (TypeError, ValueError):
            return None
    def cell(values, fmt):
        got = [x for x in values if x is not None]
        if not got:
            return 'n/a'
        s = fmt(statistics.median(got))
        return s if rounds == 1 else s + ' (' + ', '.join(fmt(x) if x is not None else 'n/a' for x in values) + ')'
    def per_round(server, rate, tool, key):
        return [f(v[(server, rate, tool, key)].get(r)) for r in range(1, rounds + 1)]
    def ratio(server, rate, tool):
        out = []
        for r in range(1, rounds + 1):
            a, b = f(v[(server, rate, tool, 'cpu_us')].get(r)), f(v[(server, rate, 'wrk2', 'cpu_us')].get(r))
            out.append(a / b if a is not None and b else None)
        return out
    g = lambda x: '%.3g' % x if x < 100 else '%.0f' % x
    ms = lambda x: ('%.3f' % x).rstrip('0').rstrip('.') if x < 10 else '%.1f' % x
    print('| server | rate/s | tool | CPU µs/request | CPU / wrk2\'s | p50 ms | p99 ms | send lateness p99 ms | send lateness max ms | achieved /s |')
    print('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for s in servers:
        for rate in rates:
            for t in tools:
                lat = t.startswith('loadsmith')
                print('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                    s, '{:,}'.format(int(rate)), name(t).replace('%s', connections),
                    cell(per_round(s, rate, t, 'cpu_us'), g), cell(ratio(s, rate, t), lambda x: '%.2f' % x),
                    cell(per_round(s, rate, t, 'p50_ms'), ms), cell(per_round(s, rate, t, 'p99_ms'), ms),
                    cell(per_round(s, rate, t, 'lateness_p99_ms'), ms) if lat else 'n/a',
                    cell(per_round(s, rate, t, 'lateness_max_ms'), ms) if lat else 'n/a',
                    cell(per_round(s, rate, t, 'achieved'), lambda x: '{:,.0f}'.format(x))))
    print()
    for s in servers:
        closed = [f(v[(s, '-', 'wrk', 'closed_rps')].get(r)) for r in range(1, rounds + 1)]
        print('Closed-loop reference, %s: wrk -t1 -c16 %s/s' % (s, cell(closed, lambda x: '{:,.0f}'.format(x))))
    print()
    if not ladder.split():
        print('No ladder (LADDER was empty).')
        return
    print('Highest rate held on schedule (ladder %s/s; each tool stops at its first miss):' % ', '.join('{:,}'.format(int(x)) for x in ladder.split()))
    print()
    print('| server | tool | highest rung on schedule /s | ÷ wrk -t1 -c16 closed rate | first rung missed: why |')
    print('| --- | --- | ---: | ---: | --- |')
    for s in servers:
        for t in tools:
            best = [v[(s, '-', t, 'ladder_best')].get(r) for r in range(1, rounds + 1)]
            closed = [f(v[(s, '-', 'wrk', 'closed_rps')].get(r)) for r in range(1, rounds + 1)]
            fr = [f(b) / c if f(b) is not None and c else None for b, c in zip(best, closed)]
            miss = [v[(s, '-', t, 'ladder_miss')].get(r) for r in range(1, rounds + 1)]
            print('| %s | %s | %s | %s | %s |' % (s, name(t).replace('%s', connections),
                  cell([f(b) for b in best], lambda x: '{:,.0f}'.format(x)), cell(fr, lambda x: '%.2f' % x),
                  '; '.join(m or '-' for m in miss)))

cmd = sys.argv[1]
if cmd == 'wrk2':
    wrk2(*sys.argv[2:5])
elif cmd == 'gatling':
    gatling(*sys.argv[2:5])
elif cmd == 'loadsmith':
    loadsmith(sys.argv[2])
elif cmd == 'verdict':
    verdict(*sys.argv[2:5])
elif cmd == 'table':
    table(*sys.argv[2:9])
P
figures() { python3 "$OUT/figures.py" "$@"; }

# record RATE TOOL FIGURES-FILE: appends a run's figures to raw.tsv
record() {
  while IFS=$'\t' read -r k v; do
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$SERVER" "$ROUND" "$1" "$2" "$k" "$v" >>"$OUT/raw.tsv"
  done <"$3"
}
record1() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$SERVER" "$ROUND" - "$1" "$2" "$3" >>"$OUT/raw.tsv"; }

# Each run_TOOL RATE DIR writes DIR/figures.tsv (achieved n/a when the run gave nothing).
run_wrk2() {
  local rate=$1 dir=$2
  logged /usr/bin/time -f "%U %S" -o "$dir/time.txt" timeout -k 5 $((S + 60)) \
      "$WRK2" -t1 -c"$CONNECTIONS" -R"$rate" -d"${S}s" --latency -U "$URL" >"$dir/wrk2.txt" 2>&1
  figures wrk2 "$dir/wrk2.txt" "$dir/time.txt" "$CONNECTIONS" >"$dir/figures.tsv" 2>"$dir/figures.err" \
    || printf 'achieved\tn/a\n' >"$dir/figures.tsv"
}

run_gatling() {
  local rate=$1 dir=$2 opts
  read -r -a opts <<<"$GATLING_JAVA_OPTS"
  logged timeout -k 10 $((S * 6 + GATLING_WARMUP_S + 120)) java "${opts[@]}" \
      --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
      -Durl="$URL" -Drate="$rate" -Dwarmup="$GATLING_WARMUP_S" -Dseconds="$S" -Dwindow="$dir/window.txt" \
      @"$OUT/gatling-cp.args" io.gatling.app.Gatling -s io.loadsmith.bench.gatling.OpenSimulation -rf "$dir/results" \
      </dev/null >"$dir/gatling.log" 2>&1 \
    || echo "# gatling $SERVER $rate/s: exit $? (see $dir/gatling.log)" >&2
  figures gatling "$dir/window.txt" "$dir/results" "$GATLING_DIR" >"$dir/figures.tsv" 2>"$dir/figures.err" \
    || printf 'achieved\tn/a\n' >"$dir/figures.tsv"
}

LS_PRECISION_UNSUPPORTED=""
run_loadsmith() { # run_loadsmith RATE DIR [PRECISION]
  local rate=$1 dir=$2 precision=${3:-} opts rc
  if [[ -n $precision && -n $LS_PRECISION_UNSUPPORTED ]]; then
    printf 'achieved\tn/a\n' >"$dir/figures.tsv"; return
  fi
  read -r -a opts <<<"$JAVA_OPTS"
  printf 'name: open-%s\ntarget: {url: "%s"}\nload: {model: open, arrivals: constant, rate: %s, duration: %ss, warmup: %ss, connections: %s, grace: 5s, seed: 1%s}\n' \
    "$rate" "$URL" "$rate" "$S" "$WARMUP_S" "$CONNECTIONS" "${precision:+, precision: $precision}" >"$dir/scenario.yaml"
  logged timeout -k 10 $((S + WARMUP_S + 120)) java "${opts[@]}" -jar "$JAR" run "$dir/scenario.yaml" \
      --progress none --out "$dir/out" >"$dir/loadsmith.log" 2>&1
  rc=$?
  if [[ -f $dir/out/results.json ]] && figures loadsmith "$dir/out/results.json" >"$dir/figures.tsv" 2>"$dir/figures.err"; then
    return
  fi
  printf 'achieved\tn/a\n' >"$dir/figures.tsv"
  if [[ -n $precision && $rc == 2 ]] && grep -q 'precision' "$dir/loadsmith.log"; then # bad input: the key
    LS_PRECISION_UNSUPPORTED=$(grep -m1 'precision' "$dir/loadsmith.log" | sed -e 's/^loadsmith: [^ ]*: //' -e 's/ (known keys.*//')
    echo "# loadsmith precision: $precision: n/a, this loadsmith refuses the key (exit $rc): $LS_PRECISION_UNSUPPORTED" >&2
  else
    echo "# loadsmith $SERVER $rate/s${precision:+ precision $precision}: no figures, exit $rc: $(tail -n 1 "$dir/loadsmith.log")" >&2
  fi
}

# ensure_server: a tool may have brought the server down (Gatling's connections at 10,000/s filled
# HelloServer's heap once): then it is started again, and said so, before the next tool runs
ensure_server() {
  command -v curl >/dev/null || return # without curl, check_200 at the start is the only check
  [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$URL") == 200 ]] && return
  echo "# the $SERVER server no longer answers 200 (see $SERVER_LOG): starting it again" >&2
  echo "$SERVER server restarted before $SERVER-r$ROUND (it did not answer after the previous run)" >>"$OUT/restarts.txt"
  cp "$SERVER_LOG" "$SERVER_LOG.before-restart-$(date +%s)" 2>/dev/null
  case "$SERVER" in
    jetty) start_jetty ;;
    nginx) start_nginx ;;
  esac
  check_200
}

# measure TOOL RATE: runs TOOL at RATE once per server and round (a ladder rung also in RATES reuses it)
measure() {
  local tool=$1 rate=$2 dir=$OUT/$SERVER-r$ROUND-$1-$2
  [[ -f $dir/figures.tsv ]] && return
  mkdir -p "$dir"
  [[ $tool == loadsmith-* && -n $LS_PRECISION_UNSUPPORTED ]] || echo "# $SERVER round $ROUND: $tool at $rate/s for ${S}s" >&2
  ensure_server
  case "$tool" in
    wrk2) run_wrk2 "$rate" "$dir" ;;
    gatling) run_gatling "$rate" "$dir" ;;
    loadsmith) run_loadsmith "$rate" "$dir" ;;
    loadsmith-*) run_loadsmith "$rate" "$dir" "${tool#loadsmith-}" ;;
  esac
  record "$rate" "$tool" "$dir/figures.tsv"
  figures verdict "$tool" "$rate" "$dir/figures.tsv" >"$dir/verdict.txt" 2>/dev/null || echo 'n/a' >"$dir/verdict.txt"
}

: >"$OUT/raw.tsv"
ACTIVE=""
for t in $TOOLS; do
  case "$t" in
    wrk2) if [[ -n $WRK2 ]]; then ACTIVE+=" wrk2"; else echo "# wrk2: skipped (no --wrk2 PATH given)" >&2; fi ;;
    gatling|loadsmith) ACTIVE+=" $t" ;;
    loadsmith-*) [[ ${t#loadsmith-} =~ ^[0-9]+(us|ms)$ ]] || { echo "open-vs-peers.sh: TOOLS: $t: a precision is a number and us or ms (loadsmith-100us)" >&2; exit 2; }
                 ACTIVE+=" $t" ;;
    *) echo "open-vs-peers.sh: TOOLS takes wrk2, gatling, loadsmith and loadsmith-PRECISION such as loadsmith-1ms (got '$t')" >&2; exit 2 ;;
  esac
done
[[ -n $ACTIVE ]] || { echo "open-vs-peers.sh: no tool to run" >&2; exit 2; }
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg); STARTED=$(date +%s)
for SERVER in $SERVERS; do
  case "$SERVER" in
    jetty) start_jetty ;;
    nginx) start_nginx ;;
  esac
  check_200
  echo "# $SERVER: warming it up with wrk -t1 -c16 for ${SERVER_WARMUP_S}s" >&2
  logged timeout -k 5 $((SERVER_WARMUP_S + 30)) wrk -t1 -c16 -d"${SERVER_WARMUP_S}s" "$URL" >"$OUT/$SERVER-warmup.txt" 2>&1
  for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
    echo "# $SERVER round $ROUND: closed-loop reference, wrk -t1 -c16 for ${CLOSED_S}s" >&2
    f=$OUT/$SERVER-r$ROUND-wrk-c16.txt
    logged timeout -k 5 $((CLOSED_S + 30)) wrk -t1 -c16 -d"${CLOSED_S}s" "$URL" >"$f" 2>&1
    record1 wrk closed_rps "$(grep -oP 'Requests/sec:\s*\K[\d.]+' "$f" || echo n/a)"
    for rate in $RATES; do
      for t in $ACTIVE; do measure "$t" "$rate"; done
    done
    [[ -n ${LADDER// } ]] && echo "# $SERVER round $ROUND: ladder $LADDER" >&2
    climbing=" $ACTIVE "; declare -A best=() miss=()
    for t in $ACTIVE; do best[$t]=0; miss[$t]=""; done
    for rung in $LADDER; do
      for t in $ACTIVE; do
        [[ $climbing == *" $t "* ]] || continue
        measure "$t" "$rung"
        IFS=$'\t' read -r ok why <"$OUT/$SERVER-r$ROUND-$t-$rung/verdict.txt"
        case "$ok" in
          1) best[$t]=$rung ;;
          0) miss[$t]="$rung/s: $why"; climbing=${climbing/ $t / } ;;
          *) best[$t]=n/a; miss[$t]="$rung/s: no figures"; climbing=${climbing/ $t / }
             [[ $t == loadsmith-* && -n $LS_PRECISION_UNSUPPORTED ]] && miss[$t]="n/a: $LS_PRECISION_UNSUPPORTED" ;;
        esac
      done
    done
    for t in $ACTIVE; do
      record1 "$t" ladder_best "${best[$t]}"; record1 "$t" ladder_miss "${miss[$t]:-none (held every rung)}"
    done
    unset best miss
  done
  cleanup
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

{
  cells="1 round"; [[ $ROUNDS -gt 1 ]] && cells="$ROUNDS rounds; each cell: the median over rounds (each round's value in brackets)"
  echo "Measured $(date +%F) on $(hostname): $(nproc) cores, load average $LOAD_BEFORE before, $LOAD_AFTER at the end;" \
       "$(( ($(date +%s) - STARTED) / 60 )) min $(( ($(date +%s) - STARTED) % 60 )) s in all; ${S} s a counted run; $cells."
  echo
  has_tool wrk2 && [[ -z $WRK2 ]] && { echo "# wrk2: skipped (no --wrk2 PATH given)"; echo; }
  figures table "$OUT/raw.tsv" "$SERVERS" "$RATES" "$ACTIVE" "$ROUNDS" "$CONNECTIONS" "$LADDER"
  [[ -n $LS_PRECISION_UNSUPPORTED ]] && { echo; echo "loadsmith (precision: P): n/a, the run was refused: $LS_PRECISION_UNSUPPORTED"; }
  echo
  echo "p50/p99: wrk2 its corrected (Recorded Latency) figures, of the time after its calibration (10 s + 5 ms a connection) in runs longer than that; loadsmith" \
       "latency_ms.corrected (from the intended send); Gatling whole ms from the actual send (service time), of" \
       "the requests sent in its counted window. CPU: wrk2 user+sys over its whole run; loadsmith the counted run" \
       "(cost.cpu_ns_per_request); Gatling its JVM's CPU over the counted window (start-up, warm-up and report left out)."
  echo
} | tee "$OUT/table.md"
echo "# raw figures: $OUT/raw.tsv; each run's output: $OUT/<server>-r<round>-<tool>-<rate>/; commands: $CMDS" >&2
