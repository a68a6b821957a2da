package io.numacube.numa.binding;

import io.numacube.numa.topology.NodeSet;

/**
 * A thread's or mapping's memory policy: mode and nodes, printed as numa_maps does ({@code bind:0-1},
 * {@code interleave:0-3}, {@code prefer:1}, {@code local}, {@code default}). Immutable.
 */
public record MemoryPolicy(Mode mode, NodeSet nodes, boolean staticNodes, boolean relativeNodes) {

    /** The kernel's policy modes, with their numbers; UNKNOWN where the policy could not be read. */
    public enum Mode {
        DEFAULT(0, "default"),
        PREFERRED(1, "prefer"),
        BIND(2, "bind"),
        INTERLEAVE(3, "interleave"),
        LOCAL(4, "local"),
        PREFERRED_MANY(5, "prefer (many)"),
        WEIGHTED_INTERLEAVE(6, "weighted interleave"),
        UNKNOWN(-1, "unknown");

        private final int kernelNumber;
        private final String label;

        Mode(int kernelNumber, String label) {
            this.kernelNumber = kernelNumber;
            this.label = label;
        }

        public int kernelNumber() {
            return kernelNumber;
        }

        public String label() {
            return label;
        }

        public static Mode ofKernelNumber(int n) {
            for (Mode m : values()) {
                if (m.kernelNumber == n) {
                    return m;
                }
            }
            return UNKNOWN;
        }
    }

    public static MemoryPolicy defaultPolicy() {
        return new MemoryPolicy(Mode.DEFAULT, NodeSet.empty(), false, false);
    }

    public static MemoryPolicy unknown() {
        return new MemoryPolicy(Mode.UNKNOWN, NodeSet.empty(), false, false);
    }

    /** True when the policy restricts or steers allocation to particular nodes (BIND, PREFERRED*, INTERLEAVE*). */
    public boolean namesNodes() {
        return switch (mode) {
            case BIND, PREFERRED, PREFERRED_MANY, INTERLEAVE, WEIGHTED_INTERLEAVE -> !nodes.isEmpty();
            default -> false;
        };
    }

    @Override
    public String toString() {
        String flags = staticNodes ? "=static" : relativeNodes ? "=relative" : "";
        return switch (mode) {
            case DEFAULT, LOCAL, UNKNOWN -> mode.label();
            default -> mode.label() + flags + ":" + nodes.toList();
        };
    }
}
