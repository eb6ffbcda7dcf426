# Sourced by the bench scripts of this folder, from the repository's root: loopback ports, and a
# private nginx answering 200 "hello" (Debian's nginx, one worker).

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_port() { # wait_port PORT: polls until something accepts on 127.0.0.1:PORT, 20 s at most
  python3 - "$1" <<'P'
import socket, sys, time
deadline = time.time() + 20
while time.time() < deadline:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.5).close(); sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
P
}

# nginx_conf DIR PORT ERROR_LOG: writes DIR/nginx.conf, one worker answering 200 "hello" on 127.0.0.1:PORT, no
# access log, keep-alive without limit. nginx's worker runs as nobody: DIR must be readable by it (a 0700
# folder from mktemp -d makes every answer a 403).
nginx_conf() {
  local dir=$1 port=$2 error_log=$3
  cat >"$dir/nginx.conf" <<C
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $error_log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  client_body_temp_path $dir/body; proxy_temp_path $dir/proxy; fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi; scgi_temp_path $dir/scgi;
  server {
    listen 127.0.0.1:$port;
    default_type text/plain;
    location / { return 200 "hello"; }
  }
}
C
}

# A cgroup as a container: a memory limit and a CPU quota, on cgroup v2 (/sys/fs/cgroup/cgroup.controllers) or
# v1 (the memory, cpu and cpuacct hierarchies, wherever /proc/mounts has them). Needs root. The group is made
# inside the one this shell is in (so whatever accounts for this shell still counts it), or at the root where
# v2 forbids that (a v2 group with processes cannot hand controllers to children).
#
#   cgroup_create NAME MEM_BYTES CPU_CORES   # CPU_CORES 0.5 = half a core (cfs quota over a 100 ms period); 0: none
#   cgroup_exec COMMAND...                   # runs COMMAND inside the group (a sh joins it, then execs COMMAND)
#   cgroup_cpu_ns; cgroup_peak_bytes; cgroup_oom_kills; cgroup_failcnt   # print one number (n/a when unknown)
#   cgroup_remove                            # kills what is left in it, then removes it
#
# cgroup_create sets CG_VERSION (1 or 2) and CG_MEM, CG_CPU, CG_ACCT (the group's folder per hierarchy; one and
# the same on v2). Peak memory: v1 memory.max_usage_in_bytes, v2 memory.peak (kernel 5.19+), both counting
# page cache the group touched, not only resident memory. OOM kills: v1 memory.oom_control's oom_kill (kernel
# 4.13+), v2 memory.events' oom_kill. CPU: v1 cpuacct.usage (ns), v2 cpu.stat usage_usec. cgroup_why says why
# no group can be made here (empty when one can).
CG_VERSION=""; CG_MEM=""; CG_CPU=""; CG_ACCT=""
cgroup_mount() { # cgroup_mount CONTROLLER: the v1 mount point of CONTROLLER's hierarchy
  awk -v c="$1" '$3 == "cgroup" { n = split($4, o, ","); for (i = 1; i <= n; i++) if (o[i] == c) { print $2; exit } }' /proc/mounts
}
cgroup_own() { # cgroup_own CONTROLLER (v1) or "" (v2): this shell's group path inside the hierarchy
  awk -F: -v c="$1" '{ n = split($2, o, ","); if (c == "" && $1 == "0") { print $3; exit }
                       for (i = 1; i <= n; i++) if (c != "" && o[i] == c) { print $3; exit } }' /proc/self/cgroup
}
cgroup_why() {
  [[ $(id -u) == 0 ]] || { echo "not root (a cgroup needs root)"; return; }
  if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
    grep -qw memory /sys/fs/cgroup/cgroup.controllers || { echo "cgroup v2 without the memory controller"; return; }
    [[ -w /sys/fs/cgroup ]] || echo "/sys/fs/cgroup is not writable (a container's read-only cgroup fs?)"
    return
  fi
  local m; m=$(cgroup_mount memory)
  [[ -n $m ]] || { echo "no cgroup fs: neither v2 at /sys/fs/cgroup nor v1's memory hierarchy is mounted"; return; }
  [[ -w $m ]] || echo "$m is not writable (a container's read-only cgroup fs?)"
}
cgroup_create() {
  local name=$1 bytes=$2 cores=${3:-0} why; why=$(cgroup_why)
  [[ -z $why ]] || { echo "cgroup_create: $why" >&2; return 1; }
  local quota=-1; [[ $cores != 0 ]] && quota=$(awk -v c="$cores" 'BEGIN { printf "%d", c * 100000 }')
  if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
    CG_VERSION=2
    local parent=/sys/fs/cgroup$(cgroup_own "")
    if [[ $parent == /sys/fs/cgroup/ || $parent == /sys/fs/cgroup ]] || ! grep -qw memory "$parent/cgroup.subtree_control" 2>/dev/null \
        || ! grep -qw cpu "$parent/cgroup.subtree_control" 2>/dev/null; then
      parent=/sys/fs/cgroup
      echo "+memory +cpu" >"$parent/cgroup.subtree_control" 2>/dev/null
    fi
    CG_MEM=$parent/$name; CG_CPU=$CG_MEM; CG_ACCT=$CG_MEM
    mkdir "$CG_MEM" || return 1
    echo "$bytes" >"$CG_MEM/memory.max" || { cgroup_remove; return 1; }
    [[ -f $CG_MEM/memory.swap.max ]] && echo 0 >"$CG_MEM/memory.swap.max"
    if [[ $quota -gt 0 ]]; then echo "$quota 100000" >"$CG_CPU/cpu.max" || { cgroup_remove; return 1; }; fi
  else
    CG_VERSION=1
    local m c a; m=$(cgroup_mount memory); c=$(cgroup_mount cpu); a=$(cgroup_mount cpuacct)
    [[ -n $c && -n $a ]] || { echo "cgroup_create: cgroup v1 without the cpu or cpuacct hierarchy" >&2; return 1; }
    CG_MEM=$m$(cgroup_own memory)/$name; CG_MEM=${CG_MEM//\/\///}
    CG_CPU=$c$(cgroup_own cpu)/$name; CG_CPU=${CG_CPU//\/\///}
    CG_ACCT=$a$(cgroup_own cpuacct)/$name; CG_ACCT=${CG_ACCT//\/\///}
    mkdir "$CG_MEM" || return 1
    [[ -d $CG_CPU ]] || mkdir "$CG_CPU" || { cgroup_remove; return 1; }
    [[ -d $CG_ACCT ]] || mkdir "$CG_ACCT" || { cgroup_remove; return 1; }
    echo "$bytes" >"$CG_MEM/memory.limit_in_bytes" || { cgroup_remove; return 1; }
    [[ -f $CG_MEM/memory.memsw.limit_in_bytes ]] && echo "$bytes" >"$CG_MEM/memory.memsw.limit_in_bytes" 2>/dev/null
    echo 100000 >"$CG_CPU/cpu.cfs_period_us" && echo "$quota" >"$CG_CPU/cpu.cfs_quota_us" || { cgroup_remove; return 1; }
  fi
}
cgroup_exec() {
  local procs=tasks; [[ $CG_VERSION == 2 ]] && procs=cgroup.procs
  # one sh joins every hierarchy of the group, then becomes COMMAND: nothing runs in it before the join
  CG_JOIN="$CG_MEM/$procs $CG_CPU/$procs $CG_ACCT/$procs" sh -c \
    'for f in $CG_JOIN; do echo $$ >"$f" || exit 125; done; unset CG_JOIN; exec "$@"' cgroup_exec "$@"
}
cgroup_cpu_ns() {
  if [[ $CG_VERSION == 2 ]]; then awk '$1 == "usage_usec" { printf "%d\n", $2 * 1000 }' "$CG_ACCT/cpu.stat"
  else cat "$CG_ACCT/cpuacct.usage"; fi
}
cgroup_peak_bytes() {
  if [[ $CG_VERSION == 2 ]]; then cat "$CG_MEM/memory.peak" 2>/dev/null || echo n/a
  else cat "$CG_MEM/memory.max_usage_in_bytes"; fi
}
cgroup_oom_kills() {
  if [[ $CG_VERSION == 2 ]]; then awk '$1 == "oom_kill" { print $2 }' "$CG_MEM/memory.events"
  else awk '$1 == "oom_kill" { k = $2 } END { print (k == "" ? "n/a" : k) }' "$CG_MEM/memory.oom_control"; fi
}
cgroup_failcnt() { # times the group hit its limit (v1 memory.failcnt; v2 memory.events' max)
  if [[ $CG_VERSION == 2 ]]; then awk '$1 == "max" { print $2 }' "$CG_MEM/memory.events"
  else cat "$CG_MEM/memory.failcnt"; fi
}
cgroup_remove() {
  local d p procs=tasks; [[ $CG_VERSION == 2 ]] && procs=cgroup.procs
  for d in "$CG_MEM" "$CG_CPU" "$CG_ACCT"; do
    [[ -n $d && -d $d ]] || continue
    for p in $(cat "$d/$procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
    for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$d" 2>/dev/null && break; sleep 0.2; done
  done
  CG_MEM=""; CG_CPU=""; CG_ACCT=""
}

# bench_out SCRIPT: makes $OUT the script's output folder and starts its commands.txt. OUT is emptied first,
# only when it is empty or an earlier output of a bench script (it has commands.txt); anything else stops the
# script (exit 2) untouched. Sets OUT to its absolute path and CMDS to OUT/commands.txt, whose first line says
# which script ran the commands, from where.
bench_out() {
  local script=$1
  if [[ -e $OUT ]]; then
    [[ -d $OUT && ( -f $OUT/commands.txt || -z $(ls -A "$OUT") ) ]] \
      || { echo "$script: --out $OUT exists and is not an earlier output of this script: not touching it" >&2; exit 2; }
    rm -rf "$OUT"
  fi
  mkdir -p "$OUT" || { echo "$script: cannot make $OUT" >&2; exit 2; }
  OUT=$(cd "$OUT" && pwd)
  CMDS=$OUT/commands.txt
  printf '# commands run by sidecar-tester/bench/%s, in order, from %s (output redirections left out)\n' "$script" "$PWD" >"$CMDS"
}
logcmd() { { printf '%q ' "$@"; echo; } >>"$CMDS"; } # logcmd COMMAND...: writes it to commands.txt
logged() { logcmd "$@"; "$@"; }                        # logged COMMAND...: writes it, then runs it
