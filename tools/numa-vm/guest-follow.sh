#!/usr/bin/env bash
# guest-follow.sh - runs INSIDE the numa-vm guest (checks 'follow' and 'follow_seccomp' of guest-checks.sh; issue
# 13's acceptance test):
#   tools/numa-vm/guest-follow.sh RESULTS_DIR CHECK COMMAND...
# Makes a cgroup v2 /sys/fs/cgroup/numacube-CHECK with the cpuset controller, allowed CPUs 0-1 and memory nodes 0-1,
# starts COMMAND in it (io.numacube.engine.FollowMachineVmMain RESULTS_DIR/CHECK), waits for COMMAND to write
# RESULTS_DIR/CHECK.ready (data loaded, query loop running), then narrows the cgroup to node 1 (cpuset.cpus 1, then
# cpuset.mems 1) and writes the time of it (epoch milliseconds) to RESULTS_DIR/CHECK.narrowed; once COMMAND writes
# RESULTS_DIR/CHECK.converged (it followed, or gave up), widens the cgroup to nodes 0-1 again (cpuset.cpus first, so
# node 0's workers are back on node 0 when its memory returns, then cpuset.mems 0-1) and writes the time of that to
# RESULTS_DIR/CHECK.widened. Exits with COMMAND's status (2 when the cgroup cannot be made, 3 when COMMAND never got
# ready or never wrote CHECK.converged). COMMAND's stdout is this script's. Under a prefix (build/seccomp-eperm) the
# filter is this script's and COMMAND's: the cgroup files are written with plain write(2), which it allows.
set -uo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 RESULTS_DIR CHECK COMMAND..." >&2; exit 2; }
RESULTS=$1 CHECK=$2; shift 2
CG=/sys/fs/cgroup/numacube-$CHECK
NODE1_CPUS=$(cat /sys/devices/system/node/node1/cpulist 2>/dev/null) || { echo "guest-follow: no node 1" >&2; exit 2; }
grep -qw cpuset /sys/fs/cgroup/cgroup.subtree_control \
  || echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control \
  || { echo "guest-follow: cannot enable the cgroup v2 cpuset controller" >&2; exit 2; }
mkdir -p "$CG" || { echo "guest-follow: cannot create $CG" >&2; exit 2; }
ALL_CPUS=$(cat /sys/devices/system/cpu/online)
echo "$ALL_CPUS" > "$CG/cpuset.cpus" && echo 0-1 > "$CG/cpuset.mems" \
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
stamp() {   # FILE: the time now, epoch ms, written whole once the cgroup was changed
  mv "$RESULTS/$1.tmp" "$RESULTS/$1"
}
if ! await "$CHECK".ready; then
  echo "guest-follow: the command never wrote $RESULTS/$CHECK.ready" >&2
  kill "$pid" 2>/dev/null; wait "$pid"; exit 3
fi
echo "guest-follow: narrowing $CG: cpus $(cat "$CG/cpuset.cpus.effective") -> $NODE1_CPUS, mems $(cat "$CG/cpuset.mems.effective") -> 1" >&2
date +%s%3N > "$RESULTS/$CHECK.narrowed.tmp"
echo "$NODE1_CPUS" > "$CG/cpuset.cpus" && echo 1 > "$CG/cpuset.mems" \
  || echo "guest-follow: narrowing $CG failed" >&2
stamp "$CHECK".narrowed
if ! await "$CHECK".converged; then
  echo "guest-follow: the command never wrote $RESULTS/$CHECK.converged" >&2
  kill "$pid" 2>/dev/null; wait "$pid"; exit 3
fi
echo "guest-follow: the command says $(cat "$RESULTS/$CHECK.converged"); widening $CG: cpus -> $ALL_CPUS, mems -> 0-1" >&2
date +%s%3N > "$RESULTS/$CHECK.widened.tmp"
echo "$ALL_CPUS" > "$CG/cpuset.cpus" && echo 0-1 > "$CG/cpuset.mems" \
  || echo "guest-follow: widening $CG failed" >&2
stamp "$CHECK".widened
wait "$pid"
rc=$?
echo "guest-follow: $CG cpus=$(cat "$CG/cpuset.cpus.effective") mems=$(cat "$CG/cpuset.mems.effective"); exit $rc" >&2
exit "$rc"
