package io.numacube.engine.storage;

import io.numacube.numa.base.NumacubeException;
import java.util.Locale;

/**
 * Where a cube puts each partition's memory. Every mode gives each partition a <em>home</em> data node (partitions are
 * spread over the plan's data nodes balancing bytes); the home node's filler workers write it and its morsels queue
 * there first. The mode decides where the pages go:
 * <ul>
 *   <li>{@link Kind#NODE_LOCAL} (default): bound to the home node;</li>
 *   <li>{@link Kind#INTERLEAVE}: interleaved page by page over all data nodes;</li>
 *   <li>{@link Kind#OS_DEFAULT}: no policy, written by the unpinned loading thread (the OS decides);</li>
 *   <li>{@link Kind#ONE_NODE}: every partition bound to {@link #node()}; homes still spread, so other nodes read
 *       remotely;</li>
 *   <li>{@link Kind#REMOTE}: bound to the next data node after the home (an experiment: every read remote).</li>
 * </ul>
 * Immutable.
 *
 * @param kind the mode
 * @param node the node of ONE_NODE; -1 otherwise
 */
public record Placement(Kind kind, int node) {

    /** The placement modes. */
    public enum Kind {
        NODE_LOCAL,
        INTERLEAVE,
        OS_DEFAULT,
        ONE_NODE,
        REMOTE
    }

    public static final Placement NODE_LOCAL = new Placement(Kind.NODE_LOCAL, -1);
    public static final Placement INTERLEAVE = new Placement(Kind.INTERLEAVE, -1);
    public static final Placement OS_DEFAULT = new Placement(Kind.OS_DEFAULT, -1);
    public static final Placement REMOTE = new Placement(Kind.REMOTE, -1);

    public Placement {
        java.util.Objects.requireNonNull(kind, "placement kind must not be null");
        if (kind == Kind.ONE_NODE ? node < 0 : node != -1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "only one_node takes a node, and it needs one ≥ 0: placement=" + kind + " node=" + node);
        }
    }

    public static Placement oneNode(int node) {
        return new Placement(Kind.ONE_NODE, node);
    }

    /** Parses {@code node_local}, {@code interleave}, {@code os_default}, {@code remote} or {@code one_node:N}. */
    public static Placement parse(String text) {
        java.util.Objects.requireNonNull(text, "placement text must not be null");
        String s = text.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        try {
            if (s.startsWith("one_node")) {
                String n = s.substring("one_node".length());
                if (!n.startsWith(":") && !n.startsWith("=") && !n.startsWith("(")) {
                    throw new IllegalArgumentException();
                }
                return oneNode(Integer.parseInt(n.substring(1).replace(")", "").trim()));
            }
            Kind k = Kind.valueOf(s.toUpperCase(Locale.ROOT));
            return new Placement(k, -1);
        } catch (IllegalArgumentException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "unknown placement: placement=" + text
                            + " — use node_local, interleave, os_default, remote or one_node:N");
        }
    }

    @Override
    public String toString() {
        return kind == Kind.ONE_NODE ? "one_node:" + node : kind.name().toLowerCase(Locale.ROOT);
    }
}
