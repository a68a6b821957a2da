package io.numacube.engine.exec;

import java.util.Arrays;
import java.util.List;

/**
 * The values one {@link AggregationState} keeps per group slot: the row count and, per {@link Accumulator}, its value,
 * its SUM carries and its NULL count; and how the groups of two such states combine.
 *
 * <p>Invariants: {@code rowCounts}, {@code doubleAccumulators[i]} or {@code longAccumulators[i]} (by the kind of
 * accumulator {@code i}), and every non-null {@code sumCarries[i]} and {@code nullCounts[i]} have {@link #capacity}
 * entries; a group with a zero row count holds no value (a MIN or MAX holds its initial value, a SUM zero). The arrays
 * are replaced as the capacity grows, so read them after {@link #ensureCapacity}, never across it. Not thread-safe:
 * owned as its state is; disjoint slots may be combined by several threads after {@link #prepareSlotCombine}.
 */
final class GroupValues {

    private final Accumulator[] accumulators;
    private int capacity;

    /** Rows per group slot. */
    long[] rowCounts;
    /** Per accumulator of a double kind, its value per group slot (null for the exact kinds). */
    final double[][] doubleAccumulators;
    /** Per accumulator of an exact kind, its value per group slot (null for the double kinds). */
    final long[][] longAccumulators;
    /**
     * Per SUM_LONG accumulator, the multiples of 2^64 its value per group slot lacks: a running sum that leaves
     * BIGINT wraps around and counts here, so the sum is {@code carry * 2^64 + value}, exact in 128 bits as DuckDB's
     * (null until the accumulator first wraps in this state, which real data rarely makes it do).
     */
    final long[][] sumCarries;
    /**
     * Per accumulator whose argument may be NULL, the rows per group slot where it was NULL (skipped): the group's
     * values number {@code rowCounts[g] - nullCounts[i][g]}. Null until the accumulator first meets a NULL.
     */
    final long[][] nullCounts;

    GroupValues(Accumulator[] accumulators, int capacity) {
        this.accumulators = accumulators;
        this.capacity = capacity;
        this.doubleAccumulators = new double[accumulators.length][];
        this.longAccumulators = new long[accumulators.length][];
        this.sumCarries = new long[accumulators.length][];
        this.nullCounts = new long[accumulators.length][];
        this.rowCounts = new long[capacity];
        for (int i = 0; i < accumulators.length; i++) {
            allocate(i, capacity, 0);
        }
    }

    /** The group slots every array holds. */
    int capacity() {
        return capacity;
    }

    private void allocate(int i, int newCapacity, int keep) {
        Accumulator.Kind k = accumulators[i].kind();
        if (!k.exact()) {
            double[] old = doubleAccumulators[i];
            double[] a = old == null ? new double[newCapacity] : Arrays.copyOf(old, newCapacity);
            if (k != Accumulator.Kind.SUM_DOUBLE) {
                Arrays.fill(
                        a, keep, newCapacity, k == Accumulator.Kind.MIN_DOUBLE ? Double.NaN : Double.NEGATIVE_INFINITY);
            }
            doubleAccumulators[i] = a;
        } else {
            long[] old = longAccumulators[i];
            long[] a = old == null ? new long[newCapacity] : Arrays.copyOf(old, newCapacity);
            if (k != Accumulator.Kind.SUM_LONG) {
                Arrays.fill(a, keep, newCapacity, k == Accumulator.Kind.MIN_LONG ? Long.MAX_VALUE : Long.MIN_VALUE);
            }
            longAccumulators[i] = a;
        }
    }

    /** Grows every array to hold at least {@code groups} slots (doubling), the new slots empty. */
    void ensureCapacity(int groups) {
        if (groups <= capacity) {
            return;
        }
        int n = Math.max(groups, capacity * 2);
        rowCounts = Arrays.copyOf(rowCounts, n);
        for (int i = 0; i < accumulators.length; i++) {
            allocate(i, n, capacity);
            if (sumCarries[i] != null) {
                sumCarries[i] = Arrays.copyOf(sumCarries[i], n);
            }
            if (nullCounts[i] != null) {
                nullCounts[i] = Arrays.copyOf(nullCounts[i], n);
            }
        }
        capacity = n;
    }

    /** The SUM carries of accumulator {@code i}, allocated (zero) on first use. */
    long[] carries(int i) {
        if (sumCarries[i] == null) {
            sumCarries[i] = new long[capacity];
        }
        return sumCarries[i];
    }

    /** The NULL counts of accumulator {@code i}, allocated (zero) on first use. */
    long[] nulls(int i) {
        if (nullCounts[i] == null) {
            nullCounts[i] = new long[capacity];
        }
        return nullCounts[i];
    }

    /**
     * {@code a[slot] += v} in 128 bits, {@code a} being accumulator {@code i}'s values: the 64-bit sum wraps around
     * and a wrap counts in {@link #sumCarries} (+1 past the top, -1 past the bottom).
     */
    void addWrapping(int i, long[] a, int slot, long v) {
        long x = a[slot];
        long sum = x + v;
        int carry = AccumulatorKernels.carryOf(x, v, sum);
        if (carry != 0) {
            carries(i)[slot] += carry;
        }
        a[slot] = sum;
    }

    /** The values accumulator {@code i} holds for group slot {@code g}: its rows less those where it was NULL. */
    long valueCount(int i, int g) {
        return rowCounts[g] - (nullCounts[i] == null ? 0 : nullCounts[i][g]);
    }

    /** Whether SUM_LONG accumulator {@code i} wrapped in group slot {@code g}: its carry is not zero. */
    boolean wrapped(int i, int g) {
        return sumCarries[i] != null && sumCarries[i][g] != 0;
    }

    /**
     * Adds group slot {@code go} of {@code other} into slot {@code g}: its row count, NULL counts and accumulators,
     * the accumulators' values taken as they are where {@code copy} (the first state of a combine).
     */
    void combineGroup(int g, GroupValues other, int go, boolean copy) {
        rowCounts[g] += other.rowCounts[go];
        for (int i = 0; i < accumulators.length; i++) {
            if (copy) {
                copyAccumulator(i, g, other, go);
            } else {
                combineAccumulator(i, g, other, go);
            }
            if (other.nullCounts[i] != null) {
                nulls(i)[g] += other.nullCounts[i][go];
            }
        }
    }

    private void copyAccumulator(int i, int g, GroupValues other, int go) {
        if (accumulators[i].kind().exact()) {
            longAccumulators[i][g] = other.longAccumulators[i][go];
            if (other.sumCarries[i] != null && other.sumCarries[i][go] != 0) {
                carries(i)[g] = other.sumCarries[i][go];
            }
        } else {
            doubleAccumulators[i][g] = other.doubleAccumulators[i][go];
        }
    }

    private void combineAccumulator(int i, int g, GroupValues other, int go) {
        double[] d = doubleAccumulators[i];
        long[] l = longAccumulators[i];
        switch (accumulators[i].kind()) {
            case SUM_DOUBLE -> d[g] += other.doubleAccumulators[i][go];
            case MIN_DOUBLE -> d[g] = AccumulatorKernels.minD(d[g], other.doubleAccumulators[i][go]);
            case MAX_DOUBLE -> d[g] = AccumulatorKernels.maxD(d[g], other.doubleAccumulators[i][go]);
            case SUM_LONG -> {
                addWrapping(i, l, g, other.longAccumulators[i][go]);
                if (other.sumCarries[i] != null) {
                    carries(i)[g] += other.sumCarries[i][go];
                }
            }
            case MIN_LONG -> l[g] = Math.min(l[g], other.longAccumulators[i][go]);
            case MAX_LONG -> l[g] = Math.max(l[g], other.longAccumulators[i][go]);
            case COUNT -> {}
        }
    }

    /**
     * Readies these values for {@link #combineGroup} of disjoint slots from several threads at once: the per-slot
     * arrays that combining {@code others} could allocate (NULL counts, SUM carries) are allocated here first, zeroed.
     */
    void prepareSlotCombine(List<GroupValues> others) {
        for (int i = 0; i < accumulators.length; i++) {
            for (GroupValues o : others) {
                if (o.nullCounts[i] != null) {
                    nulls(i);
                }
            }
            if (accumulators[i].kind() == Accumulator.Kind.SUM_LONG) {
                carries(i);
            }
        }
    }

    /** Copies the first {@code groups} slots of {@code from} into slots {@code [at, at + groups)}, as they are. */
    void copyGroups(GroupValues from, int at, int groups) {
        System.arraycopy(from.rowCounts, 0, rowCounts, at, groups);
        for (int i = 0; i < accumulators.length; i++) {
            if (from.doubleAccumulators[i] != null) {
                System.arraycopy(from.doubleAccumulators[i], 0, doubleAccumulators[i], at, groups);
            }
            if (from.longAccumulators[i] != null) {
                System.arraycopy(from.longAccumulators[i], 0, longAccumulators[i], at, groups);
            }
            if (from.sumCarries[i] != null) {
                System.arraycopy(from.sumCarries[i], 0, carries(i), at, groups);
            }
            if (from.nullCounts[i] != null) {
                System.arraycopy(from.nullCounts[i], 0, nulls(i), at, groups);
            }
        }
    }
}
