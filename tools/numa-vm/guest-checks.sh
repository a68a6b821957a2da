#!/usr/bin/env bash
# guest-checks.sh - runs INSIDE the numa-vm guest (started by tools/numa-vm/stage):
#   tools/numa-vm/guest-checks.sh RESULTS_DIR CHECK...
# Runs each named check and writes, per CHECK, into RESULTS_DIR:
#   CHECK.json (doctor's stdout), CHECK.err (stderr), CHECK.env (Cpus_allowed_list, Mems_allowed_list and Seccomp
#   of a process started with the check's prefix), and one line "CHECK<TAB>RC<TAB>SECONDS<TAB>COMMAND" in checks.tsv.
# Plus, for the record: numactl-H.txt, proc-self-status.txt, numa_balancing.txt, uname-r.txt, seccomp-selfcheck.txt.
# Exits 0 when every check exited 0 (the results are asserted on by the host, not here), 1 otherwise.
#
# Checks (prefix, then what runs):
#   plain                   -                                        doctor --json --check-placement --segment-mib 64
#   seccomp                 build/seccomp-eperm                      doctor --json --check-placement --segment-mib 64
#   cpunodebind0_membind01  numactl --cpunodebind=0 --membind=0,1    doctor --json
#   cpunodebind0_membind1   numactl --cpunodebind=0 --membind=1      doctor --json   (CPUs and memory never meet)
#   cpunodebind1            numactl --cpunodebind=1                  doctor --json --check-placement --segment-mib 16
#   membind1                numactl --membind=1                      doctor --json --check-placement --segment-mib 16
#   membind2                numactl --membind=2                      doctor --json --check-placement --segment-mib 16
#   interleave_all          numactl --interleave=all                 doctor --json
#   preferred1              numactl --preferred=1                    doctor --json
#   taskset1                taskset -c 1                             doctor --json --check-placement --segment-mib 16
#   junit                   -                  the numa module's multinode JUnit tests (not tagged seccomp-eperm)
#   junit_seccomp           build/seccomp-eperm  the numa module's JUnit tests tagged seccomp-eperm
#   demo                    -                                        demo --runs 5 --json RESULTS_DIR/demo.json   (the default 10M rows)
#   follow                  tools/numa-vm/guest-follow.sh            FollowMachineVmMain in a cgroup v2 allowed nodes 0-1,
#                                                                    narrowed to node 1 while it queries, then widened to
#                                                                    nodes 0-1 again (issue 13)
#   follow_seccomp          build/seccomp-eperm                      the same under the EPERM filter: no mbind, no
#                           tools/numa-vm/guest-follow.sh            move_pages, so the copy path places by first touch
#   follow_memonly          tools/numa-vm/guest-follow.sh            the same with a memory-only node: cpuset.mems without
#                                                                    it, then with it again (mem-only configuration)
# JUnit checks write XML reports to RESULTS_DIR/CHECK/ and their console output to CHECK.out.
# Environment: NUMAVM_JAVA_OPTS (JVM options, default -Xmx256m -XX:TieredStopAtLevel=1),
#              NUMAVM_CHECK_TIMEOUT (seconds per check, default 300; NUMAVM_FOLLOW_TIMEOUT for the follow checks,
#              default 600: the kernel migrates the JVM's pages before a write of cpuset.mems returns, which may take
#              minutes under TCG), NUMAVM_NUMA_BALANCING (0|1: set /proc/sys/kernel/numa_balancing first; default:
#              the kernel's), NUMAVM_JUNIT_JAR (the JUnit console
#              launcher, default build/numa-vm-tools/junit-platform-console-standalone.jar).
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
JUNIT_JAR=${NUMAVM_JUNIT_JAR:-$ROOT/build/numa-vm-tools/junit-platform-console-standalone.jar}
JAVA_OPTS=${NUMAVM_JAVA_OPTS:--Xmx256m -XX:TieredStopAtLevel=1}
TIMEOUT=${NUMAVM_CHECK_TIMEOUT:-300}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }
t_start=$(now)
numactl -H > "$RESULTS/numactl-H.txt" 2>&1
cat /proc/self/status > "$RESULTS/proc-self-status.txt"
# Automatic NUMA balancing: the kernel's default unless NUMAVM_NUMA_BALANCING=0|1 (its PROT_NONE hinting makes
# move_pages report first-touched pages as absent on kernels 6.1-6.4: the host tests see that as missing pages).
if [[ -n ${NUMAVM_NUMA_BALANCING:-} ]]; then
  echo "$NUMAVM_NUMA_BALANCING" > /proc/sys/kernel/numa_balancing || echo "guest-checks: cannot set numa_balancing" >&2
fi
cat /proc/sys/kernel/numa_balancing > "$RESULTS/numa_balancing.txt" 2>&1
cat /sys/kernel/mm/transparent_hugepage/enabled > "$RESULTS/transparent_hugepage.txt" 2>&1
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

# The launcher, jars and classes are copied onto the guest's tmpfs: reading them over the read-write 9p share
# costs ~7-25 s per JVM under TCG; from tmpfs ~3 s. The copy is the same launcher and build.
RUN=$(mktemp -d /tmp/numacube-run.XXXXXX)
mkdir -p "$RUN/tools" "$RUN/cli/target" "$RUN/numa/target"
cp numacube "$RUN/" && cp tools/jdk.sh "$RUN/tools/" && cp cli/target/numacube-cli.jar "$RUN/cli/target/" \
  && cp -r cli/target/lib "$RUN/cli/target/" \
  || { echo "guest-checks: cannot copy the launcher and cli/target: is the project built (mvn package)?" >&2; exit 2; }
NC=$RUN/numacube
if [[ -d numa/target/test-classes && -d numa/target/classes ]]; then
  cp -r numa/target/classes numa/target/test-classes "$RUN/numa/target/"
fi
if [[ -d engine/target/test-classes ]]; then
  mkdir -p "$RUN/engine/target" && cp -r engine/target/test-classes "$RUN/engine/target/"
  # The engine's test helpers compare with DuckDB, which the numacube command's runtime no longer carries (the
  # bench is a leaf): the test run gets the DuckDB jar from the bench's class path.
  mkdir -p "$RUN/test-lib" && cp bench/target/lib/duckdb_jdbc-*.jar "$RUN/test-lib/" 2>/dev/null || true
fi
[[ -r $JUNIT_JAR ]] && cp "$JUNIT_JAR" "$RUN/junit-console.jar"
export NUMACUBE_NO_BUILD=1
export NUMACUBE_JAVA_OPTS=$JAVA_OPTS
# The JDK's module image is read over 9p once; do it up front so the first check's time is its own.
[[ -n ${JAVA_HOME:-} && -r $JAVA_HOME/lib/modules ]] && cat "$JAVA_HOME/lib/modules" > /dev/null
echo "guest-checks: prepared in $(since "$t_start") s; JVM options: $JAVA_OPTS"

prefix_of() {   # CHECK -> the process prefix, one word per line
  case $1 in
    plain|junit|junit_engine|demo|follow|follow_memonly) ;;
    seccomp|junit_seccomp|follow_seccomp)  echo "$SECCOMP";;
    cpunodebind0_membind01) printf '%s\n' numactl --cpunodebind=0 --membind=0,1;;
    cpunodebind0_membind1)  printf '%s\n' numactl --cpunodebind=0 --membind=1;;
    cpunodebind1)           printf '%s\n' numactl --cpunodebind=1;;
    membind1)               printf '%s\n' numactl --membind=1;;
    membind2)               printf '%s\n' numactl --membind=2;;
    interleave_all)         printf '%s\n' numactl --interleave=all;;
    preferred1)             printf '%s\n' numactl --preferred=1;;
    taskset1)               printf '%s\n' taskset -c 1;;
    *) return 1;;
  esac
}
command_of() {  # CHECK -> the command after the prefix, one word per line
  case $1 in
    plain|seccomp)
      printf '%s\n' "$NC" doctor --json --check-placement --segment-mib 64;;
    cpunodebind1|membind1|membind2|taskset1)
      printf '%s\n' "$NC" doctor --json --check-placement --segment-mib 16;;
    cpunodebind0_membind01|cpunodebind0_membind1|interleave_all|preferred1)
      printf '%s\n' "$NC" doctor --json;;
    demo)
      printf '%s\n' "$NC" demo --runs 5 --json "$RESULTS/demo.json";;
    junit|junit_seccomp)
      [[ -r $RUN/junit-console.jar && -d $RUN/numa/target/test-classes ]] || return 1
      local tags=(--include-tag multinode --exclude-tag seccomp-eperm)
      [[ $1 == junit_seccomp ]] && tags=(--include-tag seccomp-eperm)
      # shellcheck disable=SC2086  # JAVA_OPTS is a list of options
      printf '%s\n' "$JAVA" --enable-native-access=ALL-UNNAMED $JAVA_OPTS -jar "$RUN/junit-console.jar" execute \
        --disable-banner --disable-ansi-colors --details=tree --fail-if-no-tests \
        --class-path "$RUN/numa/target/test-classes:$RUN/numa/target/classes" \
        --scan-class-path "$RUN/numa/target/test-classes" "${tags[@]}" --reports-dir "$RESULTS/$1";;
    junit_engine)
      # The engine's multinode tests (MultiNodeCubeTest) against the jars the numacube command runs on.
      [[ -r $RUN/junit-console.jar && -d $RUN/engine/target/test-classes ]] || return 1
      # shellcheck disable=SC2086  # JAVA_OPTS is a list of options
      printf '%s\n' "$JAVA" --enable-native-access=ALL-UNNAMED $JAVA_OPTS \
        -cp "$RUN/junit-console.jar:$RUN/engine/target/test-classes:$RUN/cli/target/lib/*:$RUN/test-lib/*" \
        org.junit.platform.console.ConsoleLauncher execute --disable-banner --disable-ansi-colors --details=tree \
        --fail-if-no-tests --scan-class-path "$RUN/engine/target/test-classes" --include-tag multinode \
        --reports-dir "$RESULTS/$1";;
    follow|follow_seccomp|follow_memonly)
      # issue 13: the cube follows a cgroup narrowed (to node 1, or without the memory-only node), then widened
      # again, while it answers queries (the engine's test classes)
      [[ -d $RUN/engine/target/test-classes ]] || return 1
      local mode=node1
      [[ $1 == follow_memonly ]] && mode=drop-memory-only
      # shellcheck disable=SC2086  # JAVA_OPTS is a list of options
      printf '%s\n' "$ROOT/tools/numa-vm/guest-follow.sh" "$RESULTS" "$1" "$mode" "$JAVA" \
        --enable-native-access=ALL-UNNAMED $JAVA_OPTS -cp "$RUN/engine/target/test-classes:$RUN/cli/target/lib/*" \
        io.numacube.engine.FollowMachineVmMain "$RESULTS/$1" "$mode";;
    *) return 1;;
  esac
}
if [[ -z ${JAVA:-} ]]; then
  # shellcheck source=../jdk.sh
  source tools/jdk.sh && numacube_find_jdk || { echo "guest-checks: no JDK" >&2; exit 2; }
fi

failed=0
: > "$RESULTS/checks.tsv"
for name in "$@"; do
  if ! prefix_of "$name" >/dev/null; then
    echo "guest-checks: unknown check '$name'" >&2; failed=1
    printf '%s\t%s\t%s\t%s\n' "$name" 2 0 "unknown check" >> "$RESULTS/checks.tsv"; continue
  fi
  mapfile -t prefix < <(prefix_of "$name")
  mapfile -t cmd < <(command_of "$name")
  if [[ ${#cmd[@]} -eq 0 ]]; then
    echo "guest-checks: $name: cannot run (JUnit launcher, or numa or engine test classes missing)" >&2; failed=1
    printf '%s\t%s\t%s\t%s\n' "$name" 2 0 "not runnable" >> "$RESULTS/checks.tsv"; continue
  fi
  "${prefix[@]}" grep -E '^(Cpus_allowed_list|Mems_allowed_list|Seccomp):' /proc/self/status > "$RESULTS/$name.env" 2>&1
  out=$RESULTS/$name.json
  [[ $name == junit* || $name == demo ]] && out=$RESULTS/$name.out
  shown="${prefix[*]}${prefix[*]:+ }${cmd[*]}"
  shown=${shown//$RUN\//}
  shown=${shown//$RESULTS\//}
  shown=${shown//$JAVA /java }
  shown=${shown//$ROOT\//}
  limit=$TIMEOUT
  [[ $name == follow* ]] && limit=${NUMAVM_FOLLOW_TIMEOUT:-600}
  t0=$(now)
  timeout -k 5 "$limit" "${prefix[@]}" "${cmd[@]}" > "$out" 2> "$RESULTS/$name.err"
  rc=$?
  secs=$(since "$t0")
  printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$secs" "$shown" >> "$RESULTS/checks.tsv"
  if [[ $rc == 0 ]]; then
    echo "guest-checks: $name: ok in ${secs}s ($shown)"
  else
    failed=1
    [[ $rc == 124 || $rc == 137 ]] && why="timed out after ${limit}s" || why="exit status $rc"
    echo "guest-checks: $name: FAILED ($why) in ${secs}s ($shown); output tail:"
    { tail -n 25 "$out"; tail -n 15 "$RESULTS/$name.err"; } | sed 's/^/    /'
  fi
done
rm -rf "$RUN"
echo "guest-checks: done in $(since "$t_start") s"
exit "$failed"
