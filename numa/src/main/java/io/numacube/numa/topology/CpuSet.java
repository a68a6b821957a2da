package io.numacube.numa.topology;

import java.util.BitSet;

/**
 * An immutable set of CPU ids, read and printed in the kernel's list format ({@code 0-3,8}).
 * Ids are 0 .. {@value #MAX_CPU_ID}. Thread-safe (immutable). Equality is by members.
 */
public final class CpuSet extends IdSet<CpuSet> {

    /** The largest CPU id accepted; the kernel's NR_CPUS is at most 8192 in distribution kernels. */
    public static final int MAX_CPU_ID = 65_535;

    private static final CpuSet EMPTY = new CpuSet(new BitSet());

    private CpuSet(BitSet bits) {
        super(bits);
    }

    @Override
    CpuSet make(BitSet members) {
        return new CpuSet(members);
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

    public static CpuSet of(int... ids) {
        return new CpuSet(checked(ids, MAX_CPU_ID, "cpu"));
    }

    public static CpuSet fromBits(BitSet bits) {
        return new CpuSet(checkedCopy(bits, MAX_CPU_ID, "cpu"));
    }
}
