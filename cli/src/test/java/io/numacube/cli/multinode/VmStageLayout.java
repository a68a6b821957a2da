package io.numacube.cli.multinode;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * What the VM stage must have run: its configurations and, per configuration, its checks. Kept in step with
 * {@code config_checks} in {@code tools/numa-vm/stage}; a check the stage forgets fails here. Stateless.
 */
final class VmStageLayout {

    /** 2 nodes with 1 CPU each. */
    static final String TWO_NODE = "two-node";
    /** 2 CPU nodes and node 2 with memory and no CPUs. */
    static final String MEM_ONLY = "mem-only";

    static final List<String> CONFIGS = List.of(TWO_NODE, MEM_ONLY);

    private static final List<String> TWO_NODE_DOCTOR = List.of(
            "plain",
            "seccomp",
            "cpunodebind0_membind01",
            "cpunodebind0_membind1",
            "cpunodebind1",
            "membind1",
            "interleave_all",
            "preferred1",
            "taskset1");
    private static final List<String> MEM_ONLY_DOCTOR = List.of("plain", "seccomp", "membind2");
    private static final Set<String> WITH_PLACEMENT =
            Set.of("plain", "seccomp", "cpunodebind1", "membind1", "membind2", "taskset1");
    static final List<String> JUNIT_CHECKS = List.of("junit", "junit_seccomp");
    /** The engine's multinode JUnit tests (MultiNodeCubeTest), run in the two-node VM only. */
    static final String ENGINE_JUNIT_CHECK = "junit_engine";

    /**
     * Issue 13: a cube following a cgroup v2 narrowed from nodes 0-1 to node 1, then widened to nodes 0-1 again, while
     * it queries (two-node only).
     */
    static final String FOLLOW_CHECK = "follow";

    /** {@link #FOLLOW_CHECK} under build/seccomp-eperm: no mbind, no move_pages; the copy path places by first touch. */
    static final String FOLLOW_SECCOMP_CHECK = "follow_seccomp";

    /**
     * Issue 13 with a memory-only node (mem-only only): cpuset.mems without node 2, then with it again, while the cube
     * queries.
     */
    static final String FOLLOW_MEMONLY_CHECK = "follow_memonly";

    private VmStageLayout() {}

    static List<String> doctorChecks(String config) {
        return switch (config) {
            case TWO_NODE -> TWO_NODE_DOCTOR;
            case MEM_ONLY -> MEM_ONLY_DOCTOR;
            default -> throw new IllegalArgumentException("unknown VM configuration: config=" + config);
        };
    }

    /** The JUnit checks of a configuration: the numa module's, plain and under seccomp, and the engine's on two nodes. */
    static List<String> junitChecks(String config) {
        return config.equals(TWO_NODE) ? List.of("junit", "junit_seccomp", ENGINE_JUNIT_CHECK) : JUNIT_CHECKS;
    }

    /** Whether the check ran {@code doctor --check-placement}. */
    static boolean withPlacement(String check) {
        return WITH_PLACEMENT.contains(check);
    }

    /** The {@code --segment-mib} the check passed. */
    static int segmentMib(String check) {
        return check.equals("plain") || check.equals("seccomp") ? 64 : 16;
    }

    /** Whether the check ran under build/seccomp-eperm. */
    static boolean underSeccomp(String check) {
        return check.equals("seccomp") || check.equals("junit_seccomp") || check.equals(FOLLOW_SECCOMP_CHECK);
    }

    /** The nodes of the check's {@code numactl --membind}, empty when it sets no BIND policy. */
    static Set<Integer> membind(String check) {
        return switch (check) {
            case "cpunodebind0_membind01" -> Set.of(0, 1);
            case "cpunodebind0_membind1", "membind1" -> Set.of(1);
            case "membind2" -> Set.of(2);
            default -> Set.of();
        };
    }

    static Stream<Arguments> configs() {
        return CONFIGS.stream().map(Arguments::of);
    }

    static Stream<Arguments> doctorChecks() {
        return CONFIGS.stream().flatMap(c -> doctorChecks(c).stream().map(k -> Arguments.of(c, k)));
    }

    static Stream<Arguments> placementChecks() {
        return doctorChecks().filter(a -> withPlacement((String) a.get()[1]));
    }

    static Stream<Arguments> junitChecks() {
        return CONFIGS.stream().flatMap(c -> JUNIT_CHECKS.stream().map(k -> Arguments.of(c, k)));
    }
}
