package io.numacube.numa.topology;

import java.util.BitSet;

/**
 * An immutable set of NUMA node ids (sparse ids allowed, e.g. 4-7), read and printed in the kernel's list format ({@code 0-3,8}).
 * Ids are 0 .. {@value #MAX_NODE_ID}. Thread-safe (immutable). Equality is by members.
 */
public final class NodeSet extends IdSet<NodeSet> {

    /** The largest node id accepted (the kernel's MAX_NUMNODES is at most 1024). */
    public static final int MAX_NODE_ID = 4_095;

    private static final NodeSet EMPTY = new NodeSet(new BitSet());

    private NodeSet(BitSet bits) {
        super(bits);
    }

    @Override
    NodeSet make(BitSet members) {
        return new NodeSet(members);
    }

    public static NodeSet empty() {
        return EMPTY;
    }

    /** Parses the kernel list format: {@code ""}, {@code "0"}, {@code "0-3,8"}; surrounding white space is ignored. */
    public static NodeSet parse(String list) {
        return new NodeSet(IdList.parse(list, MAX_NODE_ID, "node"));
    }

    /** Parses a hex mask such as {@code Mems_allowed: 00000000,00000003} in /proc/self/status. */
    public static NodeSet parseHexMask(String mask) {
        return new NodeSet(IdList.parseHexMask(mask, MAX_NODE_ID, "node"));
    }

    public static NodeSet of(int... ids) {
        return new NodeSet(checked(ids, MAX_NODE_ID, "node"));
    }

    public static NodeSet fromBits(BitSet bits) {
        return new NodeSet(checkedCopy(bits, MAX_NODE_ID, "node"));
    }
}
