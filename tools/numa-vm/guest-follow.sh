#!/usr/bin/env bash
# guest-follow.sh - runs INSIDE the numa-vm guest (check 'follow' of guest-checks.sh; issue 13's acceptance test):
#   tools/numa-vm/guest-follow.sh RESULTS_DIR COMMAND...
# Makes a cgroup v2 /sys/fs/cgroup/numacube-follow with the cpuset controller, allowed CPUs 0-1 and memory nodes 0-1,
# starts COMMAND in it (io.numacube.engine.FollowMachineVmMain RESULTS_DIR), waits for COMMAND to write
# RESULTS_DIR/follow.ready (data loaded, query loop running), then narrows the cgroup to node 1 (cpuset.cpus 1, then
# cpuset.mems 1) and writes the time of it (epoch milliseconds) to RESULTS_DIR/follow.narrowed. Exits with COMMAND's
# status (2 when the cgroup cannot be made, 3 when COMMAND never got ready). COMMAND's stdout is this script's.
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 RESULTS_DIR COMMAND..." >&2; exit 2; }
RESULTS=$1; shift
CG=/sys/fs/cgroup/numacube-follow
NODE1_CPUS=$(cat /sys/devices/system/node/node1/cpulist 2>/dev/null) || { echo "guest-follow: no node 1" >&2; exit 2; }
grep -qw cpuset /sys/fs/cgroup/cgroup.subtree_control \
  || echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control \
  || { echo "guest-follow: cannot enable the cgroup v2 cpuset controller" >&2; exit 2; }
mkdir -p "$CG" || { echo "guest-follow: cannot create $CG" >&2; exit 2; }
ALL_CPUS=$(cat /sys/devices/system/cpu/online)
echo "$ALL_CPUS" > "$CG/cpuset.cpus" && echo 0-1 > "$CG/cpuset.mems" \
  || { echo "guest-follow: cannot set $CG's cpuset" >&2; exit 2; }
rm -f "$RESULTS/follow.ready" "$RESULTS/follow.narrowed"
( echo "$BASHPID" > "$CG/cgroup.procs" && exec "$@" ) &
pid=$!
for _ in $(seq 1 1200); do
  [[ -e $RESULTS/follow.ready ]] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.25
done
if [[ ! -e $RESULTS/follow.ready ]]; then
  echo "guest-follow: the command never wrote $RESULTS/follow.ready" >&2
  kill "$pid" 2>/dev/null; wait "$pid"; exit 3
fi
echo "guest-follow: narrowing $CG: cpus $(cat "$CG/cpuset.cpus.effective") -> $NODE1_CPUS, mems $(cat "$CG/cpuset.mems.effective") -> 1" >&2
date +%s%3N > "$RESULTS/follow.narrowed.tmp"
echo "$NODE1_CPUS" > "$CG/cpuset.cpus" && echo 1 > "$CG/cpuset.mems" \
  || echo "guest-follow: narrowing $CG failed" >&2
mv "$RESULTS/follow.narrowed.tmp" "$RESULTS/follow.narrowed"
wait "$pid"
rc=$?
echo "guest-follow: $CG cpus=$(cat "$CG/cpuset.cpus.effective") mems=$(cat "$CG/cpuset.mems.effective"); exit $rc" >&2
exit "$rc"
