#!/usr/bin/env bash
# The tester's footprint in a container, beside wrk2's (docs/benchmarks.md, "The sidecar's footprint"): each
# run is one process in a cgroup of its own (v2, or v1's memory, cpu and cpuacct hierarchies: lib.sh's
# cgroup_create) with a memory limit and a CPU quota, as a Kubernetes sidecar container would be. It starts
# its own nginx (one worker, loopback, outside every group), checks that it answers 200, then at each rate runs
# PAIRS alternating pairs, one after the other: `bin/loadsmith run` of a scenario it writes (an open loop,
# constant or Poisson arrivals, 16 connections, a 2 s warm-up; the launcher's JVM settings as they are, or
# LOADSMITH_JAVA_OPTS) and wrk2 (`-R RATE -c16 -t1 -d DURATION`); a pair's first tool alternates. Per tool and
# rate it prints the medians over pairs (each pair's value in brackets) of:
#   peak RSS: the process's ru_maxrss from /usr/bin/time %M, which is its VmHWM when it exited (the
#     kernel's high-water mark of resident memory); the cgroup's peak beside it (v1 memory.max_usage_in_bytes,
#     v2 memory.peak: page cache the group touched counts there too); loadsmith's own cost.rss_max_mb
#     (results.json) where it writes one;
#   CPU ms a second: the group's CPU time (v1 cpuacct.usage, v2 cpu.stat usage_usec) read at STEADY_FROM
#     (12 s) after the launch and again at DURATION - 3 s, divided by the time between the reads (the issue's
#     "sampled from 12 s to 42 s" for the default 45 s): start-up, JIT warm-up and the report are left out;
#   CPU µs a request: that over the achieved rate (loadsmith's results.json achieved_rate, wrk2's
#     Requests/sec); CPU a second ÷ wrk2's from the same pair (the issue's aims are of CPU a second);
#   killed: runs that exited 137 or whose group counted an OOM kill (v1 memory.oom_control oom_kill, v2
#     memory.events oom_kill); report: runs that left report.html (loadsmith only).
# Also in OUT/table.md; each run's files in OUT/<rate>-p<pair>-<tool>/, the commands in OUT/commands.txt.
#
#   sidecar-tester/bench/footprint.sh --wrk2 PATH [--rates "20 200 1000 2000"] [--duration 45s] [--pairs 3]
#       [--mem-limit 96M] [--cpu-quota 0.5] [--arrivals constant|poisson] [--out DIR]
#   sidecar-tester/bench/footprint.sh --find-limit RATE [--duration 10m] [--cpu-quota 0.5] [--out DIR]
#
# --find-limit RATE: the smallest memory limit, in LIMIT_STEP MiB steps between LIMIT_LO and LIMIT_HI (48, 256,
#   8), at which one loadsmith run at RATE for --duration passes: exit 0, report.html written, no OOM kill. It
#   runs LIMIT_HI first (nothing is found if that fails), then bisects; it prints each limit it tried, with the
#   exit code, OOM kills, peak RSS and whether the report was written. wrk2 is not run (no --wrk2 needed).
# --duration: the counted run (loadsmith) and -d (wrk2): 45s by default (at least 20s for the steady window
#   of the table), in s or m (10m); --find-limit's default is 10m, as in the issue; shorter is a quick look.
# --mem-limit: the group's memory limit, in M or G (MiB, GiB) or bytes: 96M by default (the aim of issue
#   #37). --cpu-quota: cores, a CFS quota over a 100 ms period (0.5 = half a core; 0 = none). --out: default
#   /tmp/loadsmith-footprint (emptied first when it is an earlier output of this script).
# --wrk2 PATH: the `wrk` binary built from giltene/wrk2, or its source folder (built there with `make` when its
#   binary is missing; nothing is downloaded). --arrivals: the tester's arrivals (wrk2 always paces evenly).
# Environment: SKIP_BUILD=1 (use the jar already built)  STEADY_FROM=12 (s after the launch)
#   LIMIT_LO=48 LIMIT_HI=256 LIMIT_STEP=8 (MiB, --find-limit)  RUN_ARGS (added to every `loadsmith run`,
#   e.g. RUN_ARGS="--charts off")  LOADSMITH_JAVA_OPTS (the launcher's: after bin/jvm.options)
# Needs root and a writable cgroup fs (it says why not, and stops), nginx (nginx-light is installed with
# apt-get when missing), python3 and /usr/bin/time. Loopback only. Run it on a quiet box (`uptime` load under
# 0.5): the table's first line gives the load average before and after, and each row the CPU the other
# processes (nginx included) used during the window.
set -uo pipefail
cd "$(dirname "$0")/../.."
source sidecar-tester/bench/lib.sh

RATES="20 200 1000 2000"; DURATION=""; PAIRS=3; MEM_LIMIT=96M; CPU_QUOTA=0.5; WRK2_ARG=""
OUT=/tmp/loadsmith-footprint; FIND_LIMIT=""; ARRIVALS=constant
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rates|--duration|--pairs|--mem-limit|--cpu-quota|--wrk2|--out|--find-limit|--arrivals)
      [[ $# -ge 2 && -n $2 ]] || { echo "footprint.sh: $1 needs a value (see --help)" >&2; exit 2; }
      case "$1" in
        --rates) RATES=$2 ;; --duration) DURATION=$2 ;; --pairs) PAIRS=$2 ;; --mem-limit) MEM_LIMIT=$2 ;;
        --cpu-quota) CPU_QUOTA=$2 ;; --wrk2) WRK2_ARG=$2 ;; --out) OUT=$2 ;; --find-limit) FIND_LIMIT=$2 ;;
        --arrivals) ARRIVALS=$2 ;;
      esac
      shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "footprint.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
STEADY_FROM=${STEADY_FROM:-12}; LIMIT_LO=${LIMIT_LO:-48}; LIMIT_HI=${LIMIT_HI:-256}; LIMIT_STEP=${LIMIT_STEP:-8}
[[ -n $DURATION ]] || { if [[ -n $FIND_LIMIT ]]; then DURATION=10m; else DURATION=45s; fi; }

seconds() { # seconds 45s|45|10m: whole seconds, or nothing
  case "$1" in
    *m) [[ ${1%m} =~ ^[0-9]+$ ]] && echo $(( ${1%m} * 60 )) ;;
    *s) [[ ${1%s} =~ ^[0-9]+$ ]] && echo "${1%s}" ;;
    *) [[ $1 =~ ^[0-9]+$ ]] && echo "$1" ;;
  esac
}
bytes() { # bytes 96M|1G|100663296: bytes, or nothing
  case "$1" in
    *[Mm]) [[ ${1%?} =~ ^[0-9]+$ ]] && echo $(( ${1%?} << 20 )) ;;
    *[Gg]) [[ ${1%?} =~ ^[0-9]+$ ]] && echo $(( ${1%?} << 30 )) ;;
    *) [[ $1 =~ ^[0-9]+$ ]] && echo "$1" ;;
  esac
}
S=$(seconds "$DURATION"); MEM_BYTES=$(bytes "$MEM_LIMIT")
[[ -n $S && $S -ge 1 ]] || { echo "footprint.sh: --duration takes whole seconds or minutes: 45s, 10m (got '$DURATION')" >&2; exit 2; }
[[ -n $MEM_BYTES && $MEM_BYTES -ge $((8 << 20)) ]] || { echo "footprint.sh: --mem-limit takes 96M, 1G or bytes, at least 8M (got '$MEM_LIMIT')" >&2; exit 2; }
[[ $CPU_QUOTA =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "footprint.sh: --cpu-quota takes cores, e.g. 0.5 (got '$CPU_QUOTA')" >&2; exit 2; }
[[ $PAIRS =~ ^[1-9][0-9]*$ ]] || { echo "footprint.sh: --pairs takes a whole number >= 1 (got '$PAIRS')" >&2; exit 2; }
[[ $ARRIVALS == constant || $ARRIVALS == poisson ]] || { echo "footprint.sh: --arrivals takes constant or poisson (got '$ARRIVALS')" >&2; exit 2; }
for n in STEADY_FROM LIMIT_LO LIMIT_HI LIMIT_STEP; do
  [[ ${!n} =~ ^[1-9][0-9]*$ ]] || { echo "footprint.sh: $n must be a whole number >= 1 (got '${!n}')" >&2; exit 2; }
done
if [[ -n $FIND_LIMIT ]]; then
  [[ $FIND_LIMIT =~ ^[1-9][0-9]*$ ]] || { echo "footprint.sh: --find-limit takes a whole rate a second (got '$FIND_LIMIT')" >&2; exit 2; }
  [[ $LIMIT_LO -lt $LIMIT_HI ]] || { echo "footprint.sh: LIMIT_LO must be below LIMIT_HI" >&2; exit 2; }
else
  for r in $RATES; do
    [[ $r =~ ^[1-9][0-9]*$ ]] || { echo "footprint.sh: --rates takes whole rates a second (got '$r')" >&2; exit 2; }
  done
  [[ $S -ge $((STEADY_FROM + 8)) ]] || { echo "footprint.sh: --duration must be at least $((STEADY_FROM + 8))s: the CPU window runs from ${STEADY_FROM}s to 3 s before the end" >&2; exit 2; }
  [[ -n $WRK2_ARG ]] || { echo "footprint.sh: --wrk2 PATH is needed for the table (the giltene/wrk2 binary or source folder; see --help)" >&2; exit 2; }
fi
WHY=$(cgroup_why)
[[ -z $WHY ]] || { echo "footprint.sh: no cgroup can be made here: $WHY" >&2; exit 2; }

bench_out footprint.sh

need() { # need COMMAND PACKAGE
  command -v "$1" >/dev/null && return 0
  echo "# $1 is missing: installing Debian's $2 with apt-get" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } >"$OUT/apt-$2.log" 2>&1 \
    || { echo "footprint.sh: cannot install $2 (see $OUT/apt-$2.log)" >&2; exit 2; }
}
need python3 python3
[[ -x /usr/bin/time ]] || need /usr/bin/time time
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need nginx nginx-light
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

WRK2=""
if [[ -z $FIND_LIMIT ]]; then
  if [[ -d $WRK2_ARG ]]; then
    if [[ ! -x $WRK2_ARG/wrk ]]; then
      echo "# wrk2: building $WRK2_ARG/wrk with make (log: $OUT/wrk2-build.log)" >&2
      logged make -C "$WRK2_ARG" >"$OUT/wrk2-build.log" 2>&1 \
        || { echo "footprint.sh: make in $WRK2_ARG failed (see $OUT/wrk2-build.log)" >&2; exit 2; }
    fi
    WRK2=$WRK2_ARG/wrk
  else
    WRK2=$WRK2_ARG
  fi
  [[ -x $WRK2 ]] || { echo "footprint.sh: --wrk2 $WRK2_ARG: $WRK2 is not an executable" >&2; exit 2; }
  [[ $("$WRK2" -h 2>&1) == *--rate* ]] \
    || { echo "footprint.sh: $WRK2 is not wrk2 (its usage has no -R/--rate; Debian's wrk is wrk 4, not wrk2)" >&2; exit 2; }
  WRK2=$(cd "$(dirname "$WRK2")" && pwd)/$(basename "$WRK2")
fi

JAR=sidecar-tester/target/loadsmith.jar
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "# building loadsmith.jar (./mvnw package -DskipTests; log: $OUT/build.log)" >&2
  logged ./mvnw -B -q -pl sidecar-tester -am -DskipTests package >"$OUT/build.log" 2>&1 \
    || { echo "footprint.sh: the build failed (see $OUT/build.log)" >&2; exit 2; }
fi
[[ -f $JAR ]] || { echo "footprint.sh: $JAR is missing (run without SKIP_BUILD=1)" >&2; exit 2; }
LAUNCHER=$PWD/bin/loadsmith

PIDS=(); NGINX_DIR=""
cleanup() {
  cgroup_remove
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null
  [[ -n $NGINX_DIR && -d $NGINX_DIR ]] && rm -rf "$NGINX_DIR"
  PIDS=(); NGINX_DIR=""
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_nginx() {
  # nginx's worker runs as nobody: a private prefix it can read (a 0700 folder makes every answer a 403)
  local port; port=$(free_port)
  NGINX_DIR=$(mktemp -d "${TMPDIR:-/tmp}/loadsmith-nginx.XXXXXX") && chmod 755 "$NGINX_DIR" \
    || { echo "footprint.sh: cannot make nginx's prefix folder" >&2; exit 2; }
  nginx_conf "$NGINX_DIR" "$port" "$OUT/nginx-error.log"
  cp "$NGINX_DIR/nginx.conf" "$OUT/nginx.conf"
  logcmd "$NGINX" -p "$NGINX_DIR" -e "$OUT/nginx-error.log" -c "$NGINX_DIR/nginx.conf"
  "$NGINX" -p "$NGINX_DIR" -e "$OUT/nginx-error.log" -c "$NGINX_DIR/nginx.conf" >"$OUT/nginx-stdout.log" 2>&1 &
  PIDS+=($!)
  wait_port "$port" || { echo "footprint.sh: nginx did not start (see $OUT/nginx-error.log)" >&2; exit 2; }
  URL="http://127.0.0.1:$port/"
  local code; code=$(python3 -c '
import sys, urllib.request, urllib.error
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=5).status)
except urllib.error.HTTPError as e:
    print(e.code)
except Exception:
    print("no answer")' "$URL")
  [[ $code == 200 ]] || { echo "footprint.sh: nginx on $URL answered '$code', not 200: nothing measured (see $OUT/nginx-error.log)" >&2; exit 2; }
  echo "# nginx on $URL answers 200" >&2
}

# busy_ticks: the box's busy CPU ticks (all but idle and iowait) from /proc/stat
busy_ticks() { awk 'NR == 1 { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# run_one TOOL RATE MEM_BYTES DIR [WINDOW]: one run of TOOL (loadsmith or wrk2) in a new group, into DIR:
# DIR/figures.tsv (key<TAB>value). WINDOW=1 samples the group's CPU from STEADY_FROM to 3 s before the end.
RUN_N=0
run_one() {
  local tool=$1 rate=$2 mem=$3 dir=$4 window=${5:-1} cmd pid rc t0 cpu_a="" cpu_b="" busy_a="" busy_b="" t_a="" t_b=""
  mkdir -p "$dir"
  RUN_N=$((RUN_N + 1))
  cgroup_create "loadsmith-footprint-$$-$RUN_N" "$mem" "$CPU_QUOTA" || { echo "footprint.sh: cannot make a cgroup" >&2; exit 2; }
  if [[ $tool == loadsmith ]]; then
    printf 'name: footprint-%s\ntarget: {url: "%s"}\nload: {model: open, arrivals: %s, rate: %s, duration: %ss, warmup: 2s, connections: 16, grace: 5s, seed: 1}\n' \
      "$rate" "$URL" "$ARRIVALS" "$rate" "$S" >"$dir/scenario.yaml"
    local extra; read -r -a extra <<<"${RUN_ARGS:-}"
    cmd=(timeout -k 10 $((S + 300)) "$LAUNCHER" run "$dir/scenario.yaml" --progress none --out "$dir/out" "${extra[@]}")
  else
    cmd=(timeout -k 5 $((S + 60)) "$WRK2" -t1 -c16 -R"$rate" -d"${S}s" --latency "$URL")
  fi
  echo "# in a cgroup v$CG_VERSION of its own: memory limit $mem bytes, CPU quota $CPU_QUOTA cores${LOADSMITH_JAVA_OPTS:+, LOADSMITH_JAVA_OPTS=$LOADSMITH_JAVA_OPTS}" >>"$CMDS"
  logcmd /usr/bin/time -f '%M %U %S %e' -o "$dir/time.txt" "${cmd[@]}"
  t0=$(date +%s.%N)
  cgroup_exec /usr/bin/time -f '%M %U %S %e' -o "$dir/time.txt" "${cmd[@]}" >"$dir/stdout.txt" 2>"$dir/stderr.txt" &
  pid=$!
  if [[ $window == 1 ]]; then
    sleep "$(awk -v a="$t0" -v b="$(date +%s.%N)" -v f="$STEADY_FROM" 'BEGIN { d = f - (b - a); print (d > 0 ? d : 0) }')"
    if kill -0 "$pid" 2>/dev/null; then
      t_a=$(date +%s.%N); cpu_a=$(cgroup_cpu_ns); busy_a=$(busy_ticks)
      sleep "$(awk -v a="$t0" -v b="$(date +%s.%N)" -v e="$((S - 3))" 'BEGIN { d = e - (b - a); print (d > 0 ? d : 0) }')"
      if kill -0 "$pid" 2>/dev/null; then t_b=$(date +%s.%N); cpu_b=$(cgroup_cpu_ns); busy_b=$(busy_ticks); fi
    fi
  fi
  wait "$pid"; rc=$?
  local peak oom fail; peak=$(cgroup_peak_bytes); oom=$(cgroup_oom_kills); fail=$(cgroup_failcnt)
  cgroup_remove
  python3 - "$tool" "$dir" "$rc" "$peak" "$oom" "$fail" "$t_a" "$t_b" "$cpu_a" "$cpu_b" "$busy_a" "$busy_b" \
      "$(getconf CLK_TCK)" >"$dir/figures.tsv" <<'P'
import json, os, re, sys
tool, d, rc, peak, oom, fail, t_a, t_b, cpu_a, cpu_b, busy_a, busy_b, hz = sys.argv[1:]
f = {"exit": rc, "oom_kills": oom, "failcnt": fail}
f["cgroup_peak_mib"] = "%.1f" % (int(peak) / 2**20) if peak.isdigit() else "n/a"
try:
    last = open(os.path.join(d, "time.txt")).read().split("\n")
    maxrss_kb = [l for l in last if re.fullmatch(r"\d+ [\d.]+ [\d.]+ [\d.]+", l.strip())][-1].split()[0]
    f["rss_mib"] = "%.1f" % (int(maxrss_kb) / 1024)
except (OSError, IndexError):
    f["rss_mib"] = "n/a"
f["killed"] = "1" if rc == "137" or (oom.isdigit() and int(oom) > 0) else "0"
achieved = None
if tool == "loadsmith":
    f["report"] = "1" if os.path.isfile(os.path.join(d, "out", "report.html")) else "0"
    f["results"] = "1" if os.path.isfile(os.path.join(d, "out", "results.json")) else "0"
    try:
        run = json.load(open(os.path.join(d, "out", "results.json")))["runs"][0]
        achieved = float(run["achieved_rate"])
        f["own_rss_max_mb"] = run.get("cost", {}).get("rss_max_mb", "n/a")
        f["not_200"] = str(run["counts"]["errors"])
    except (OSError, ValueError, KeyError, IndexError):
        pass
else:
    try:
        text = open(os.path.join(d, "stdout.txt")).read()
        m = re.search(r"Requests/sec:\s*([\d.]+)", text)
        achieved = float(m.group(1)) if m else None
        bad = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", text)
        errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
        f["not_200"] = str((int(bad.group(1)) if bad else 0) + (sum(map(int, errors.groups())) if errors else 0))
    except OSError:
        pass
f["achieved"] = "%.1f" % achieved if achieved else "n/a"
if t_a and t_b:
    seconds = float(t_b) - float(t_a)
    ms_s = (int(cpu_b) - int(cpu_a)) / 1e6 / seconds
    f["window_s"] = "%.1f" % seconds
    f["cpu_ms_s"] = "%.2f" % ms_s
    f["cpu_us_req"] = "%.1f" % (ms_s * 1000 / achieved) if achieved else "n/a"
    box_ms_s = (int(busy_b) - int(busy_a)) * 1000.0 / int(hz) / seconds
    f["others_ms_s"] = "%.0f" % max(0.0, box_ms_s - ms_s)   # every other process, nginx included
for k, v in f.items():
    print("%s\t%s" % (k, v))
P
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg); STARTED=$(date +%s)
start_nginx
echo "# $(nproc) cores, load average $LOAD_BEFORE; cgroups v$( [[ -f /sys/fs/cgroup/cgroup.controllers ]] && echo 2 || echo 1)" >&2

# --find-limit RATE: bisects the memory limit
if [[ -n $FIND_LIMIT ]]; then
  : >"$OUT/limits.tsv"
  passes() { # passes MIB: runs once in a MIB limit; true when exit 0, report.html written, no OOM kill
    local mib=$1 dir=$OUT/limit-${1}M
    echo "# --find-limit: loadsmith at $FIND_LIMIT/s for ${S}s in ${mib} MiB, $CPU_QUOTA cores" >&2
    run_one loadsmith "$FIND_LIMIT" $((mib << 20)) "$dir" 0
    python3 - "$mib" "$dir/figures.tsv" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/limits.tsv" <<'P'
import sys
d = dict(l.rstrip("\n").split("\t", 1) for l in open(sys.argv[2]))
ok = d["exit"] == "0" and d.get("report") == "1" and d["killed"] == "0"
print("\t".join([sys.argv[1], "1" if ok else "0", d["exit"], d["oom_kills"], d.get("results", "0"), d.get("report", "0"),
                 d["rss_mib"], d["cgroup_peak_mib"], str(d.get("own_rss_max_mb", "n/a")), sys.argv[3]]))
P
    [[ $(tail -n 1 "$OUT/limits.tsv" | cut -f2) == 1 ]]
  }
  lo=$(( (LIMIT_LO + LIMIT_STEP - 1) / LIMIT_STEP )); hi=$(( LIMIT_HI / LIMIT_STEP )); found=""
  if passes $((hi * LIMIT_STEP)); then
    found=$((hi * LIMIT_STEP))
    if passes $((lo * LIMIT_STEP)); then found=$((lo * LIMIT_STEP)); else
      while [[ $((hi - lo)) -gt 1 ]]; do      # lo fails, hi passes
        mid=$(( (lo + hi) / 2 ))
        if passes $((mid * LIMIT_STEP)); then hi=$mid; found=$((mid * LIMIT_STEP)); else lo=$mid; fi
      done
    fi
  fi
  LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
  {
    echo "Measured $(date +%F) on $(hostname): $(nproc) cores, load average $LOAD_BEFORE before, $LOAD_AFTER at the end;" \
         "$(( ($(date +%s) - STARTED) / 60 )) min in all; loadsmith open $ARRIVALS $FIND_LIMIT/s, 16 connections, ${S} s counted" \
         "(2 s warm-up), CPU quota $CPU_QUOTA cores${RUN_ARGS:+, run $RUN_ARGS}${LOADSMITH_JAVA_OPTS:+, LOADSMITH_JAVA_OPTS=$LOADSMITH_JAVA_OPTS}."
    echo
    echo "| limit MiB | passes | exit | OOM kills | results.json | report.html | peak RSS MiB | cgroup peak MiB | cost.rss_max_mb | load average after |"
    echo "| ---: | --- | ---: | ---: | --- | --- | ---: | ---: | ---: | --- |"
    sort -n "$OUT/limits.tsv" | awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, ($2 == 1 ? "yes" : "no"), $3, $4, ($5 == 1 ? "yes" : "no"), ($6 == 1 ? "yes" : "no"), $7, $8, $9, $10 }'
    echo
    if [[ -n $found ]]; then
      echo "Smallest limit that passes (exit 0, report.html written, no OOM kill), in ${LIMIT_STEP} MiB steps from ${LIMIT_LO} to ${LIMIT_HI} MiB: **${found} MiB**."
    else
      echo "No limit up to ${LIMIT_HI} MiB passes (exit 0, report.html written, no OOM kill)."
    fi
  } | tee "$OUT/table.md"
  echo "# each run's files: $OUT/limit-<MiB>M/; commands: $CMDS" >&2
  exit 0
fi

: >"$OUT/raw.tsv"
for rate in $RATES; do
  for ((PAIR = 1; PAIR <= PAIRS; PAIR++)); do
    order="loadsmith wrk2"; (( PAIR % 2 == 0 )) && order="wrk2 loadsmith"
    for tool in $order; do
      dir=$OUT/$rate-p$PAIR-$tool
      echo "# $rate/s, pair $PAIR: $tool for ${S}s in $MEM_LIMIT, $CPU_QUOTA cores" >&2
      run_one "$tool" "$rate" "$MEM_BYTES" "$dir"
      while IFS=$'\t' read -r k v; do printf '%s\t%s\t%s\t%s\t%s\n' "$rate" "$PAIR" "$tool" "$k" "$v" >>"$OUT/raw.tsv"; done <"$dir/figures.tsv"
    done
  done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

{
  echo "Measured $(date +%F) on $(hostname): $(nproc) cores, load average $LOAD_BEFORE before, $LOAD_AFTER at the end;" \
       "$(( ($(date +%s) - STARTED) / 60 )) min in all; each run in a cgroup of its own, memory limit $MEM_LIMIT, CPU quota" \
       "$CPU_QUOTA cores; ${S} s a run, CPU from ${STEADY_FROM} s to $((S - 3)) s after the launch; $PAIRS pairs; open $ARRIVALS" \
       "arrivals, 16 connections${RUN_ARGS:+; run $RUN_ARGS}${LOADSMITH_JAVA_OPTS:+; LOADSMITH_JAVA_OPTS=$LOADSMITH_JAVA_OPTS}. Each cell: the median over pairs (each pair's value)."
  echo
  python3 - "$OUT/raw.tsv" "$RATES" "$PAIRS" <<'P'
import statistics, sys
from collections import defaultdict
raw, rates, pairs = sys.argv[1], sys.argv[2].split(), int(sys.argv[3])
v = defaultdict(dict)
for line in open(raw):
    rate, pair, tool, k, val = line.rstrip("\n").split("\t", 4)
    v[(rate, tool, k)][int(pair)] = val
def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None
def cell(vals, fmt):
    got = [x for x in vals if x is not None]
    if not got:
        return "n/a"
    s = fmt(statistics.median(got))
    return s if pairs == 1 else s + " (" + ", ".join(fmt(x) if x is not None else "n/a" for x in vals) + ")"
def per(rate, tool, k):
    return [num(v[(rate, tool, k)].get(p)) for p in range(1, pairs + 1)]
def count(rate, tool, k):
    got = [v[(rate, tool, k)].get(p) for p in range(1, pairs + 1)]
    return "%d of %d" % (sum(1 for x in got if x == "1"), sum(1 for x in got if x is not None))
g = lambda x: "%.3g" % x if x < 100 else "%.0f" % x
print("| rate/s | tool | peak RSS MiB (VmHWM) | cgroup peak MiB | CPU ms/s | CPU µs/request | CPU ms/s ÷ wrk2's | killed | report.html | achieved /s | others ms/s |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |")
for rate in rates:
    for tool in ("loadsmith", "wrk2"):
        ratio = []
        for p in range(1, pairs + 1):
            a, b = num(v[(rate, tool, "cpu_ms_s")].get(p)), num(v[(rate, "wrk2", "cpu_ms_s")].get(p))
            ratio.append(a / b if a is not None and b else None)
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            "{:,}".format(int(rate)), "loadsmith run" if tool == "loadsmith" else "wrk2 -t1 -c16 -R",
            cell(per(rate, tool, "rss_mib"), lambda x: "%.1f" % x), cell(per(rate, tool, "cgroup_peak_mib"), lambda x: "%.1f" % x),
            cell(per(rate, tool, "cpu_ms_s"), g), cell(per(rate, tool, "cpu_us_req"), g),
            cell(ratio, lambda x: "%.2f" % x) if tool == "loadsmith" else "1",
            count(rate, tool, "killed"), count(rate, tool, "report") if tool == "loadsmith" else "n/a",
            cell(per(rate, tool, "achieved"), lambda x: "{:,.0f}".format(x)), cell(per(rate, tool, "others_ms_s"), lambda x: "%.0f" % x)))
# what each tool was asked, checked: every answer 200 (nginx answers nothing else) and the rate sent
short = []
for rate in rates:
    for tool in ("loadsmith", "wrk2"):
        for p in range(1, pairs + 1):
            got, bad = num(v[(rate, tool, "achieved")].get(p)), num(v[(rate, tool, "not_200")].get(p))
            if got is None or got < 0.97 * int(rate) or bad:
                short.append("%s/s pair %d %s: achieved %s/s, %s answers not 200 or failed" % (
                    rate, p, tool, "n/a" if got is None else "%.1f" % got, "n/a" if bad is None else "%d" % bad))
print()
print("checked: every run sent at least 97 % of its rate and every answer was 200" if not short
      else "NOT AS ASKED (those runs' figures say little):\n  " + "\n  ".join(short))
own = [(r, v[(r, "loadsmith", "own_rss_max_mb")]) for r in rates]
if any(x not in (None, "n/a") for _, d in own for x in d.values()):
    print()
    print("loadsmith's own figure, results.json cost.rss_max_mb: " + "; ".join(
        "%s/s %s" % (r, ", ".join(str(d.get(p, "n/a")) for p in range(1, pairs + 1))) for r, d in own))
P
  echo
  echo "peak RSS: ru_maxrss (/usr/bin/time %M), the process's VmHWM when it exited; cgroup peak: v1 memory.max_usage_in_bytes /" \
       "v2 memory.peak (page cache included, capped at the limit). CPU: the group's CPU time (cpuacct.usage / cpu.stat usage_usec)" \
       "between two reads, ${STEADY_FROM} s and $((S - 3)) s after the launch, over the time between them; µs/request: that over the" \
       "achieved rate. killed: exit 137 or an OOM kill counted by the group. others ms/s: the box's busy CPU in that window less" \
       "the run's (nginx and anything else running)."
} | tee "$OUT/table.md"
echo "# raw figures: $OUT/raw.tsv; each run's files: $OUT/<rate>-p<pair>-<tool>/; commands: $CMDS" >&2
