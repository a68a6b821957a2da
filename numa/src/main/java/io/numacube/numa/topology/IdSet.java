package io.numacube.numa.topology;

import io.numacube.numa.base.NumacubeException;
import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * An immutable set of small non-negative ids (CPUs, NUMA nodes), printed in the kernel's list format ({@code 0-3,8}).
 * The members never change after construction and no member exceeds the subtype's largest id. Set operations combine
 * two sets of the same kind only, so a CPU set and a node set cannot be mixed up. Thread-safe (immutable). Equality is
 * by kind and members.
 *
 * @param <S> the concrete kind, which operations return
 */
public abstract sealed class IdSet<S extends IdSet<S>> permits CpuSet, NodeSet {

    private final BitSet bits;

    IdSet(BitSet bits) {
        this.bits = bits;
    }

    /** A set of this kind holding {@code members}, which this set's caller no longer modifies. */
    abstract S make(BitSet members);

    static BitSet checked(int[] ids, int maxId, String what) {
        BitSet b = new BitSet();
        for (int id : ids) {
            check(id, maxId, what);
            b.set(id);
        }
        return b;
    }

    static BitSet checkedCopy(BitSet bits, int maxId, String what) {
        if (bits.length() - 1 > maxId) {
            check(bits.length() - 1, maxId, what);
        }
        return (BitSet) bits.clone();
    }

    private static void check(int id, int maxId, String what) {
        if (id < 0 || id > maxId) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, what + " id out of range: id=" + id + " max=" + maxId);
        }
    }

    public boolean contains(int id) {
        return id >= 0 && bits.get(id);
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

    public S and(S other) {
        BitSet b = toBits();
        b.and(((IdSet<S>) other).bits);
        return make(b);
    }

    public S or(S other) {
        BitSet b = toBits();
        b.or(((IdSet<S>) other).bits);
        return make(b);
    }

    public S andNot(S other) {
        BitSet b = toBits();
        b.andNot(((IdSet<S>) other).bits);
        return make(b);
    }

    public boolean intersects(S other) {
        return bits.intersects(((IdSet<S>) other).bits);
    }

    public boolean containsAll(S other) {
        return other.andNot(self()).isEmpty();
    }

    @SuppressWarnings("unchecked")
    private S self() {
        return (S) this;
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
        return o instanceof IdSet<?> s && s.getClass() == getClass() && s.bits.equals(bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }
}
