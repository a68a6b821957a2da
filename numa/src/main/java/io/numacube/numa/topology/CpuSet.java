package io.numacube.numa.topology;

import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * An immutable set of CPU ids, read and printed in the kernel's list format ({@code 0-3,8}).
 * Ids are 0 .. {@value #MAX_CPU_ID}. Thread-safe (immutable). Equality is by members.
 */
public final class CpuSet {

    /** The largest CPU id accepted; the kernel's NR_CPUS is at most 8192 in distribution kernels. */
    public static final int MAX_CPU_ID = 65_535;

    private static final CpuSet EMPTY = new CpuSet(new BitSet());

    private final BitSet bits;

    private CpuSet(BitSet bits) {
        this.bits = bits;
    }

    public static CpuSet empty() {
        return EMPTY;
    }

    /** Parses the kernel list format: {@code ""}, {@code "0"}, {@code "0-3,8"}; surrounding white space is ignored. */
    public static CpuSet parse(String list) {
        return new CpuSet(IdList.parse(list, MAX_CPU_ID, "cpu"));
    }

    /** Parses a hex mask such as {@code Cpus_allowed: ff,ffffffff} in /proc/self/status. */
    public static CpuSet parseHexMask(String mask) {
        return new CpuSet(IdList.parseHexMask(mask, MAX_CPU_ID, "cpu"));
    }

    public static CpuSet of(int... cpus) {
        BitSet b = new BitSet();
        for (int c : cpus) {
            checkId(c);
            b.set(c);
        }
        return new CpuSet(b);
    }

    public static CpuSet fromBits(BitSet bits) {
        if (bits.length() - 1 > MAX_CPU_ID) {
            checkId(bits.length() - 1);
        }
        return new CpuSet((BitSet) bits.clone());
    }

    private static void checkId(int c) {
        if (c < 0 || c > MAX_CPU_ID) {
            throw new io.numacube.numa.base.NumacubeException(
                    io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                    "cpu id out of range: id=" + c + " max=" + MAX_CPU_ID);
        }
    }

    public boolean contains(int cpu) {
        return cpu >= 0 && bits.get(cpu);
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

    public CpuSet and(CpuSet other) {
        BitSet b = toBits();
        b.and(other.bits);
        return new CpuSet(b);
    }

    public CpuSet or(CpuSet other) {
        BitSet b = toBits();
        b.or(other.bits);
        return new CpuSet(b);
    }

    public CpuSet andNot(CpuSet other) {
        BitSet b = toBits();
        b.andNot(other.bits);
        return new CpuSet(b);
    }

    public boolean intersects(CpuSet other) {
        return bits.intersects(other.bits);
    }

    public boolean containsAll(CpuSet other) {
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
        return o instanceof CpuSet c && c.bits.equals(bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }
}
