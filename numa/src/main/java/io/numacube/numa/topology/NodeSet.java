package io.numacube.numa.topology;

import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * An immutable set of NUMA node ids (sparse ids allowed, e.g. 4-7), read and printed in the kernel's list format ({@code 0-3,8}).
 * Ids are 0 .. {@value #MAX_NODE_ID}. Thread-safe (immutable). Equality is by members.
 */
public final class NodeSet {

    /** The largest node id accepted (the kernel's MAX_NUMNODES is at most 1024). */
    public static final int MAX_NODE_ID = 4_095;

    private static final NodeSet EMPTY = new NodeSet(new BitSet());

    private final BitSet bits;

    private NodeSet(BitSet bits) {
        this.bits = bits;
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

    public static NodeSet of(int... nodes) {
        BitSet b = new BitSet();
        for (int c : nodes) {
            checkId(c);
            b.set(c);
        }
        return new NodeSet(b);
    }

    public static NodeSet fromBits(BitSet bits) {
        if (bits.length() - 1 > MAX_NODE_ID) {
            checkId(bits.length() - 1);
        }
        return new NodeSet((BitSet) bits.clone());
    }

    private static void checkId(int c) {
        if (c < 0 || c > MAX_NODE_ID) {
            throw new io.numacube.numa.base.NumacubeException(
                    io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                    "node id out of range: id=" + c + " max=" + MAX_NODE_ID);
        }
    }

    public boolean contains(int node) {
        return node >= 0 && bits.get(node);
    }

    public boolean isEmpty() {
        return bits.isEmpty();
    }

    public int size() {
        return bits.cardinality();
    }

    /** The highest member, or -1 when empty. */
    public int max() {
        return bits.length() - 1;
    }

    public IntStream stream() {
        return bits.stream();
    }

    public int[] toArray() {
        return bits.stream().toArray();
    }

    /** A copy of the members as a BitSet (callers may modify it). */
    public BitSet toBits() {
        return (BitSet) bits.clone();
    }

    public NodeSet and(NodeSet other) {
        BitSet b = toBits();
        b.and(other.bits);
        return new NodeSet(b);
    }

    public NodeSet or(NodeSet other) {
        BitSet b = toBits();
        b.or(other.bits);
        return new NodeSet(b);
    }

    public NodeSet andNot(NodeSet other) {
        BitSet b = toBits();
        b.andNot(other.bits);
        return new NodeSet(b);
    }

    public boolean intersects(NodeSet other) {
        return bits.intersects(other.bits);
    }

    public boolean containsAll(NodeSet other) {
        return other.andNot(this).isEmpty();
    }

    /** The kernel list format, e.g. {@code 0-3,8}; empty string for the empty set. */
    public String toList() {
        return IdList.format(bits);
    }

    @Override
    public String toString() {
        return toList();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeSet c && c.bits.equals(bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }
}
