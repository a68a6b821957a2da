#!/usr/bin/env bash
# guest-follow.sh - runs INSIDE the numa-vm guest (checks follow, follow_seccomp and follow_memonly of
# guest-checks.sh; issue 13's acceptance test):
#   tools/numa-vm/guest-follow.sh RESULTS_DIR CHECK MODE COMMAND...
# Makes a cgroup v2 /sys/fs/cgroup/numacube-CHECK with the cpuset controller, allowed every online CPU and every node
# with memory, starts COMMAND in it (io.numacube.engine.FollowMachineVmMain RESULTS_DIR/CHECK MODE), waits for
# COMMAND to write RESULTS_DIR/CHECK.ready (data loaded, query loop running), then narrows the cgroup as MODE says:
#   node1             cpuset.cpus node 1's CPUs, then cpuset.mems 1
#   drop-memory-only  cpuset.mems the nodes with CPUs only (the memory-only nodes taken out), CPUs unchanged
# and writes the time of it (epoch milliseconds) to RESULTS_DIR/CHECK.narrowed. The write of cpuset.mems returns only
# once the kernel migrated the process's other pages (the JVM's heap and code): 0.4-5 s in the runs that logged it; in
# one earlier run the widening came 150 s late, probably waiting for it. Its time is logged.
# Once COMMAND writes RESULTS_DIR/CHECK.converged (it followed, or gave up), widens the cgroup to what it allowed at
# the start (cpuset.cpus first, so node 0's workers are back on node 0 when its memory returns, then cpuset.mems) and
# writes the time of that to RESULTS_DIR/CHECK.widened. Exits with COMMAND's status (2 when the cgroup cannot be made
# or MODE is unknown, 3 when COMMAND never got ready or never wrote CHECK.converged). COMMAND's stdout is this
# script's. Under a prefix (build/seccomp-eperm) the filter is this script's and COMMAND's: the cgroup files are
# written with plain write(2), which it allows.
set -uo pipefail
[[ $# -ge 4 ]] || { echo "usage: $0 RESULTS_DIR CHECK MODE COMMAND..." >&2; exit 2; }
RESULTS=$1 CHECK=$2 MODE=$3; shift 3
CG=/sys/fs/cgroup/numacube-$CHECK
NODES=/sys/devices/system/node
ALL_CPUS=$(cat /sys/devices/system/cpu/online)
ALL_MEMS=$(cat $NODES/has_memory)
case $MODE in
  node1)
    NARROW_CPUS=$(cat $NODES/node1/cpulist 2>/dev/null) || { echo "guest-follow: no node 1" >&2; exit 2; }
    NARROW_MEMS=1;;
  drop-memory-only)
    NARROW_CPUS=$ALL_CPUS NARROW_MEMS=$(cat $NODES/has_cpu)
    [[ $NARROW_MEMS != "$ALL_MEMS" ]] || { echo "guest-follow: no memory-only node (mems $ALL_MEMS)" >&2; exit 2; };;
  *) echo "guest-follow: unknown MODE '$MODE' (node1, drop-memory-only)" >&2; exit 2;;
esac
grep -qw cpuset /sys/fs/cgroup/cgroup.subtree_control \
  || echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control \
  || { echo "guest-follow: cannot enable the cgroup v2 cpuset controller" >&2; exit 2; }
mkdir -p "$CG" || { echo "guest-follow: cannot create $CG" >&2; exit 2; }
echo "$ALL_CPUS" > "$CG/cpuset.cpus" && echo "$ALL_MEMS" > "$CG/cpuset.mems" \
  || { echo "guest-follow: cannot set $CG's cpuset" >&2; exit 2; }
rm -f "$RESULTS/$CHECK".{ready,narrowed,converged,widened}
( echo "$BASHPID" > "$CG/cgroup.procs" && exec "$@" ) &
pid=$!
await() {   # FILE: waits (5 minutes at most) for COMMAND to write RESULTS_DIR/FILE; false when it never does
  for _ in $(seq 1 1200); do
    [[ -e $RESULTS/$1 ]] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  [[ -e $RESULTS/$1 ]]
}
set_cpuset() {   # STAMP CPUS MEMS: writes the cgroup's cpus, then mems; STAMP gets the time before, whole once done
  local t0
  t0=$(date +%s%3N)
  echo "$t0" > "$RESULTS/$1.tmp"
  echo "guest-follow: $1 $CG: cpus $(cat "$CG/cpuset.cpus.effective") -> $2, mems $(cat "$CG/cpuset.mems.effective") -> $3" >&2
  echo "$2" > "$CG/cpuset.cpus" && echo "$3" > "$CG/cpuset.mems" || echo "guest-follow: $1 $CG failed" >&2
  echo "guest-follow: $1: the writes returned after $(( $(date +%s%3N) - t0 )) ms" >&2
  mv "$RESULTS/$1.tmp" "$RESULTS/$1"
}
if ! await "$CHECK.ready"; then
  echo "guest-follow: the command never wrote $RESULTS/$CHECK.ready" >&2
  kill "$pid" 2>/dev/null; wait "$pid"; exit 3
fi
set_cpuset "$CHECK.narrowed" "$NARROW_CPUS" "$NARROW_MEMS"
if ! await "$CHECK.converged"; then
  echo "guest-follow: the command never wrote $RESULTS/$CHECK.converged" >&2
  kill "$pid" 2>/dev/null; wait "$pid"; exit 3
fi
echo "guest-follow: the command says $(cat "$RESULTS/$CHECK.converged")" >&2
set_cpuset "$CHECK.widened" "$ALL_CPUS" "$ALL_MEMS"
wait "$pid"
rc=$?
echo "guest-follow: $CG cpus=$(cat "$CG/cpuset.cpus.effective") mems=$(cat "$CG/cpuset.mems.effective"); exit $rc" >&2
exit "$rc"
