package io.numacube.numa.jvm;

import io.numacube.numa.binding.MemoryPolicy;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * Predicts what HotSpot's {@code -XX:+UseNUMA} does in a process, from the same facts numacube plans with.
 *
 * <p>The JDK 25 decision (os_linux.cpp, JDK-8346834), in order: libnuma cannot start (get_mempolicy fails, as under
 * a default container seccomp profile) → off; the highest node id is 0 → off ("Only a single NUMA node is
 * available"); the memory mask (membind nodes, the interleave nodes under interleave, else all allowed memory nodes)
 * has one node → off ("The process is bound to a single NUMA node"); the memory mask differs from the nodes of the
 * CPUs the process may run on → off ("The process memory and cpu node configuration does not match"); else on.
 * JDK 24 and earlier lack the last rule and the interleave mask: they keep UseNUMA on a mismatch and split eden over
 * every memory node, so the part of eden on nodes without the process's CPUs is never allocated from.
 *
 * <p>UseNUMA is honoured by Parallel, G1 (JDK 14+) and ZGC (which turns it on by default); Serial, Shenandoah and
 * Epsilon ignore it.
 *
 * <p>Stateless and thread-safe.
 */
public final class JvmNumaAdvisor {

    /** The first JDK feature release with the memory/cpu mismatch rule (JDK-8346834). */
    public static final int MISMATCH_RULE_SINCE = 25;

    private static final String OFF_HEAP = "numacube places its own off-heap data on nodes regardless of UseNUMA";

    private JvmNumaAdvisor() {}

    /**
     * Predicts UseNUMA for a JVM of feature version {@code jdkFeatureVersion} (e.g. 25) with garbage collector
     * {@code gcName} (see {@link JvmGc#fromName}) in a process with binding {@code b} on {@code t}.
     */
    public static JvmNumaAdvice predict(
            int jdkFeatureVersion, UseNumaFlag flag, String gcName, Topology t, ProcessBinding b, PolicySupport s) {
        JvmGc gc = JvmGc.fromName(gcName);
        List<String> advice = new ArrayList<>();
        boolean requested = flag == UseNumaFlag.ON || (flag == UseNumaFlag.DEFAULT && gc == JvmGc.Z);
        if (!requested) {
            advice.add(OFF_HEAP);
            String why = flag == UseNumaFlag.OFF
                    ? "-XX:-UseNUMA given"
                    : "UseNUMA not given and " + gcLabel(gc, gcName) + " leaves it off by default";
            return new JvmNumaAdvice(JvmNumaAdvice.Prediction.NOT_REQUESTED, why, advice);
        }
        if (!usesNuma(gc, jdkFeatureVersion)) {
            advice.add("use G1, Parallel or ZGC for a NUMA-aware young generation");
            advice.add(OFF_HEAP);
            return new JvmNumaAdvice(
                    JvmNumaAdvice.Prediction.NO_EFFECT,
                    gcLabel(gc, gcName) + " on JDK " + jdkFeatureVersion + " does not use UseNUMA",
                    advice);
        }
        if (flag == UseNumaFlag.DEFAULT) {
            advice.add("ZGC turns UseNUMA on by default; -XX:-UseNUMA turns it off");
        }
        return predictForProcess(jdkFeatureVersion, gc, t, b, s, advice);
    }

    /** The JVM's own checks, in its order, once UseNUMA is requested of a collector that uses it. */
    private static JvmNumaAdvice predictForProcess(
            int jdkFeatureVersion, JvmGc gc, Topology t, ProcessBinding b, PolicySupport s, List<String> advice) {
        JvmNumaAdvice.Prediction off = JvmNumaAdvice.Prediction.OFF;
        if (!s.getMempolicy()) {
            if (!s.nativeAccess()) {
                advice.add("numacube could not probe get_mempolicy (no native access): if it fails for the JVM too "
                        + "(default container seccomp profile), the JVM turns NUMA off");
            } else {
                advice.add("get_mempolicy is refused here (" + s.refusals().getOrDefault("get_mempolicy", "refused")
                        + "); grant CAP_SYS_NICE or relax the seccomp profile for UseNUMA to work");
                advice.add(OFF_HEAP + " (by first touch where mbind is refused)");
                return new JvmNumaAdvice(off, "Failed to initialize libnuma: get_mempolicy fails", advice);
            }
        }
        if (t.nodeIds().max() < 1) {
            advice.add(OFF_HEAP);
            return new JvmNumaAdvice(
                    off,
                    "Only a single NUMA node is available (highest node id "
                            + Math.max(0, t.nodeIds().max()) + ")",
                    advice);
        }
        NodeSet memMask = memoryMask(b, jdkFeatureVersion);
        NodeSet runMask = t.nodesOf(b.allowedCpus());
        if (b.policy().mode() == MemoryPolicy.Mode.UNKNOWN) {
            advice.add("the process memory policy is unknown: predicted as if it were the default");
        }
        if (memMask.size() == 1) {
            advice.add(OFF_HEAP);
            return new JvmNumaAdvice(
                    off, "The process is bound to a single NUMA node (memory nodes " + memMask + ")", advice);
        }
        boolean mismatch = !memMask.equals(runMask);
        if (mismatch && jdkFeatureVersion >= MISMATCH_RULE_SINCE) {
            advice.add("UseNUMA stays off; numacube instead uses the nodes where CPUs and memory meet: "
                    + runMask.and(memMask));
            advice.add(OFF_HEAP);
            return new JvmNumaAdvice(
                    off,
                    "The process memory and cpu node configuration does not match (memory nodes " + memMask
                            + ", CPU nodes " + runMask + ")",
                    advice);
        }
        return enabled(jdkFeatureVersion, gc, memMask, runMask, advice);
    }

    /** UseNUMA stays on; before JDK 25 also on a memory/CPU node mismatch, which strands part of eden. */
    private static JvmNumaAdvice enabled(
            int jdkFeatureVersion, JvmGc gc, NodeSet memMask, NodeSet runMask, List<String> advice) {
        boolean mismatch = !memMask.equals(runMask);
        if (mismatch) {
            NodeSet unused = memMask.andNot(runMask);
            advice.add("eden is split across memory nodes " + memMask + ", and the part on nodes " + unused
                    + " is never allocated from (no thread runs there): bind memory to the CPU nodes (numactl -m "
                    + runMask + ") or use JDK " + MISMATCH_RULE_SINCE + "+, which turns UseNUMA off here");
        }
        advice.add("with UseNUMA on, the JVM also turns UseNUMAInterleaving on unless it is given");
        advice.add("UseNUMA places only the young generation per node; old-generation (long-lived) data ends up "
                + "anywhere" + (gc == JvmGc.G1 ? " (G1 interleaves old and humongous regions)" : ""));
        advice.add(OFF_HEAP);
        String reason = mismatch
                ? "enabled on JDK " + jdkFeatureVersion + " despite a mismatch: memory nodes " + memMask
                        + ", CPU nodes " + runMask
                : "enabled: memory nodes " + memMask + " match the CPU nodes";
        return new JvmNumaAdvice(JvmNumaAdvice.Prediction.ON, reason, advice);
    }

    /** The mask the JVM compares: membind nodes; under interleave its nodes (JDK 25+); else every allowed node. */
    private static NodeSet memoryMask(ProcessBinding b, int jdk) {
        MemoryPolicy p = b.policy();
        if (p.mode() == MemoryPolicy.Mode.BIND && !p.nodes().isEmpty()) {
            return p.nodes().and(b.allowedMems()).isEmpty()
                    ? p.nodes()
                    : p.nodes().and(b.allowedMems());
        }
        if (jdk >= MISMATCH_RULE_SINCE
                && p.mode() == MemoryPolicy.Mode.INTERLEAVE
                && !p.nodes().isEmpty()) {
            return p.nodes();
        }
        return b.allowedMems();
    }

    private static boolean usesNuma(JvmGc gc, int jdk) {
        return switch (gc) {
            case PARALLEL, Z -> true;
            case G1 -> jdk >= 14;
            case UNKNOWN -> true;
            default -> false;
        };
    }

    private static String gcLabel(JvmGc gc, String name) {
        return gc == JvmGc.UNKNOWN ? "GC " + name : gc + " GC";
    }
}
