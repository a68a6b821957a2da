#!/usr/bin/env bash
# guest-checks.sh - runs INSIDE the numa-vm guest (started by tools/numa-vm/stage):
#   tools/numa-vm/guest-checks.sh RESULTS_DIR CHECK...
# Runs each named `numacube doctor --json` check and writes, per CHECK, into RESULTS_DIR:
#   CHECK.json (stdout), CHECK.err (stderr), CHECK.env (the allowed CPUs/nodes and seccomp mode the
#   check's process prefix gives), and one line "CHECK RC SECONDS COMMAND" in checks.tsv.
# Plus, for the record: numactl-H.txt, proc-self-status.txt, numa_balancing.txt, seccomp-selfcheck.txt.
# Exits 0 when every check exited 0 (the JSON is asserted on by the host, not here), 1 otherwise.
# Checks: plain seccomp cpunodebind0_membind01 cpunodebind1 membind1 interleave_all preferred1 taskset1
# Environment: NUMAVM_JAVA_OPTS (JVM options, default -Xmx256m -XX:TieredStopAtLevel=1),
#              NUMAVM_CHECK_TIMEOUT (seconds per check, default 300).
set -uo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cd "$ROOT"
[[ $# -ge 1 ]] || { echo "usage: $0 RESULTS_DIR CHECK..." >&2; exit 2; }
RESULTS=$1; shift
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)
[[ ${NUMA_VM:-} == 1 ]] || echo "guest-checks: warning: not inside numa-vm (NUMA_VM is not 1); results describe this machine" >&2
SECCOMP=$ROOT/build/seccomp-eperm
[[ -x $SECCOMP ]] || { echo "guest-checks: $SECCOMP is missing: the stage compiles it before booting the VM" >&2; exit 2; }

now() { date +%s.%N; }
t_start=$(now)
numactl -H > "$RESULTS/numactl-H.txt" 2>&1
cat /proc/self/status > "$RESULTS/proc-self-status.txt"
cat /proc/sys/kernel/numa_balancing > "$RESULTS/numa_balancing.txt" 2>&1
uname -r > "$RESULTS/uname-r.txt"

# The filter must refuse what Docker's default profile refuses, here on the multi-node kernel too.
{
  echo "# build/seccomp-eperm numactl --membind=0 true  (must fail)"
  "$SECCOMP" numactl --membind=0 true 2>&1; echo "rc=$?"
  echo "# build/seccomp-eperm true  (must succeed)"
  "$SECCOMP" true 2>&1; echo "rc=$?"
  echo "# build/seccomp-eperm grep Seccomp /proc/self/status"
  "$SECCOMP" grep Seccomp /proc/self/status
} > "$RESULTS/seccomp-selfcheck.txt" 2>&1

# The launcher and jars are copied onto the guest's tmpfs: reading the jars over the read-write 9p
# share costs ~7-25 s per JVM under TCG; from tmpfs ~3 s. The copy is the same launcher and build.
RUN=$(mktemp -d /tmp/numacube-run.XXXXXX)
mkdir -p "$RUN/tools" "$RUN/cli/target"
cp numacube "$RUN/" && cp tools/jdk.sh "$RUN/tools/" && cp cli/target/numacube-cli.jar "$RUN/cli/target/" \
  && cp -r cli/target/lib "$RUN/cli/target/" \
  || { echo "guest-checks: cannot copy the launcher and cli/target: is the project built (./numacube --help)?" >&2; exit 2; }
NC=$RUN/numacube
export NUMACUBE_NO_BUILD=1
export NUMACUBE_JAVA_OPTS=${NUMAVM_JAVA_OPTS:--Xmx256m -XX:TieredStopAtLevel=1}
# The JDK's module image is read over 9p once; do it up front so the first check's time is its own.
[[ -n ${JAVA_HOME:-} && -r $JAVA_HOME/lib/modules ]] && cat "$JAVA_HOME/lib/modules" > /dev/null
echo "guest-checks: prepared in $(awk -v a="$t_start" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}') s; NUMACUBE_JAVA_OPTS=$NUMACUBE_JAVA_OPTS"

prefix_of() {   # CHECK -> the process prefix, one word per line
  case $1 in
    plain)                  ;;
    seccomp)                echo "$SECCOMP";;
    cpunodebind0_membind01) printf '%s\n' numactl --cpunodebind=0 --membind=0,1;;
    cpunodebind1)           printf '%s\n' numactl --cpunodebind=1;;
    membind1)               printf '%s\n' numactl --membind=1;;
    interleave_all)         printf '%s\n' numactl --interleave=all;;
    preferred1)             printf '%s\n' numactl --preferred=1;;
    taskset1)               printf '%s\n' taskset -c 1;;
    *) return 1;;
  esac
}
args_of() {     # CHECK -> the doctor arguments, one word per line
  case $1 in
    plain|seccomp)                        printf '%s\n' doctor --json --check-placement --segment-mib 64;;
    cpunodebind1|membind1|taskset1)       printf '%s\n' doctor --json --check-placement --segment-mib 16;;
    cpunodebind0_membind01|interleave_all|preferred1) printf '%s\n' doctor --json;;
    *) return 1;;
  esac
}

failed=0
: > "$RESULTS/checks.tsv"
for name in "$@"; do
  mapfile -t prefix < <(prefix_of "$name") && mapfile -t args < <(args_of "$name") && [[ ${#args[@]} -gt 0 ]] \
    || { echo "guest-checks: unknown check '$name'" >&2; failed=1; continue; }
  "${prefix[@]}" grep -E '^(Cpus_allowed_list|Mems_allowed_list|Seccomp):' /proc/self/status > "$RESULTS/$name.env" 2>&1
  shown="${prefix[*]}${prefix[*]:+ }./numacube ${args[*]}"
  t0=$(now)
  timeout -k 5 "${NUMAVM_CHECK_TIMEOUT:-300}" "${prefix[@]}" "$NC" "${args[@]}" > "$RESULTS/$name.json" 2> "$RESULTS/$name.err"
  rc=$?
  secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
  printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$secs" "$shown" >> "$RESULTS/checks.tsv"
  if [[ $rc == 0 ]]; then
    echo "guest-checks: $name: ok in ${secs}s ($shown)"
  else
    failed=1
    [[ $rc == 124 || $rc == 137 ]] && why="timed out after ${NUMAVM_CHECK_TIMEOUT:-300}s" || why="exit status $rc"
    echo "guest-checks: $name: FAILED ($why) in ${secs}s ($shown); stderr tail:"
    tail -n 15 "$RESULTS/$name.err" | sed 's/^/    /'
  fi
done
rm -rf "$RUN"
echo "guest-checks: done in $(awk -v a="$t_start" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}') s"
exit "$failed"
