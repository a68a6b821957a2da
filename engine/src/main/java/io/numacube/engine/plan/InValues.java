package io.numacube.engine.plan;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The values of an IN list, prepared for membership tests in O(log n) instead of one comparison per value (a
 * 10,000-value list over a million rows). Membership follows the engine's comparison rules: a BIGINT operand
 * matches BIGINT values exactly and DOUBLE values as a double; DOUBLE operands compare as doubles, where NaN equals
 * NaN and -0.0 equals 0.0 (as DuckDB); strings (and dates, as epoch days) by equality. Immutable.
 */
public final class InValues {

    private final long[] longs;
    private final double[] doubles;
    private final double[] allAsDoubles;
    private final Set<String> strings;
    /** A key set's name ({@link #ofKeys}), unique in the process; null for the values of an IN list. */
    private final String name;
    /** A key set's bits by value ({@code bits} bit {@code v - lowest}), or null: the sorted {@link #longs} then. */
    private final long[] bits;

    private final long lowest;

    /** A key set's most bits per key: denser than this, {@link #containsLong} tests a bit, else searches. */
    private static final long BITS_PER_KEY = 64;

    /** A key set's bits by value whatever its keys (2 MiB: TPC-H SF 1's six million order keys, say). */
    private static final long MOST_BITS_ANY_KEYS = 1L << 24;

    private static final java.util.concurrent.atomic.AtomicLong KEY_SETS = new java.util.concurrent.atomic.AtomicLong();

    InValues(List<Expr.Literal> values) {
        long[] ls = new long[values.size()];
        double[] ds = new double[values.size()];
        double[] all = new double[values.size()];
        Set<String> ss = new HashSet<>();
        int nl = 0;
        int nd = 0;
        int na = 0;
        for (Expr.Literal v : values) {
            switch (v.value()) {
                case String s -> ss.add(s);
                case Long x -> {
                    ls[nl++] = x;
                    all[na++] = normal(x.doubleValue());
                }
                case Number x -> {
                    ds[nd++] = normal(x.doubleValue());
                    all[na++] = normal(x.doubleValue());
                }
                default -> throw new IllegalArgumentException("IN value: " + v);
            }
        }
        longs = Arrays.copyOf(ls, nl);
        doubles = Arrays.copyOf(ds, nd);
        allAsDoubles = Arrays.copyOf(all, na);
        Arrays.sort(longs);
        Arrays.sort(doubles);
        Arrays.sort(allAsDoubles);
        strings = Set.copyOf(ss);
        name = null;
        bits = null;
        lowest = 0;
    }

    private InValues(long[] sortedKeys, String name) {
        this.longs = sortedKeys;
        this.doubles = new double[0];
        this.strings = Set.of();
        this.name = name;
        long span = sortedKeys.length == 0 ? 0 : sortedKeys[sortedKeys.length - 1] - sortedKeys[0];
        boolean dense = sortedKeys.length > 0
                && span >= 0
                && span < Integer.MAX_VALUE
                && span <= Math.max(MOST_BITS_ANY_KEYS, BITS_PER_KEY * sortedKeys.length);
        this.lowest = sortedKeys.length == 0 ? 0 : sortedKeys[0];
        this.bits = dense ? new long[(int) (span >>> 6) + 1] : null;
        if (dense) {
            for (long k : sortedKeys) {
                long offset = k - lowest;
                bits[(int) (offset >>> 6)] |= 1L << offset;
            }
        }
        // a DOUBLE operand is never compared with a key set (the binder lists the keys for it), so no doubles
        this.allAsDoubles = new double[0];
    }

    /**
     * The distinct integer keys of a semi-join ({@code x IN (SELECT k ...)} of many values, EXISTS by one key) as a
     * set for {@link #containsLong}: a bit per value over the keys' range where that is at most 64 bits a key (or
     * 2^24 bits), else the sorted keys searched. {@code keys} is sorted and distinct (taken, not copied). Its name,
     * {@code __keys} and a number never given twice in the process, stands for it in {@link Expr.In#text} (and so in
     * every cache key), and it equals only itself.
     */
    public static InValues ofKeys(long[] keys) {
        return new InValues(keys, "__keys_" + KEY_SETS.incrementAndGet() + "(" + keys.length + " keys)");
    }

    /** Whether this is a key set ({@link #ofKeys}), not an IN list's values. */
    public boolean isKeySet() {
        return name != null;
    }

    /** A key set's keys, ascending (shared: read only). */
    public long[] keys() {
        return longs;
    }

    @Override
    public String toString() {
        return name != null ? name : "InValues" + Arrays.toString(longs);
    }

    /** -0.0 as 0.0 and every NaN as the one NaN, so that sorted search (Double.compare order) matches SQL equality. */
    public static double normal(double d) {
        return d == 0 ? 0.0 : d != d ? Double.NaN : d;
    }

    /** Whether a BIGINT (or INT, or DATE epoch day) value is in the list. */
    public boolean containsLong(long x) {
        if (bits != null) {
            long offset = x - lowest;
            return offset >= 0 && (offset >>> 6) < bits.length && (bits[(int) (offset >>> 6)] & 1L << offset) != 0;
        }
        return Arrays.binarySearch(longs, x) >= 0
                || doubles.length > 0 && Arrays.binarySearch(doubles, normal((double) x)) >= 0;
    }

    /** Whether a DOUBLE value is in the list. */
    public boolean containsDouble(double x) {
        return Arrays.binarySearch(allAsDoubles, normal(x)) >= 0;
    }

    /** Whether a non-null scalar (String, Long or Double) is in the list. */
    public boolean contains(Object x) {
        return switch (x) {
            case String s -> strings.contains(s);
            case Long l -> containsLong(l);
            case Number d -> containsDouble(d.doubleValue());
            default -> false;
        };
    }

    /** Whether every value is a BIGINT (integer) literal. */
    public boolean onlyLongs() {
        return doubles.length == 0 && strings.isEmpty();
    }

    /** An IN list's values equal any other's (they are derived from the list); a key set only itself. */
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof InValues v && name == null && v.name == null;
    }

    @Override
    public int hashCode() {
        return name == null ? 0 : name.hashCode();
    }
}
