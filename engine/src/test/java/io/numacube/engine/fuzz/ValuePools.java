package io.numacube.engine.fuzz;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Draws the distinct values of dimensions and the values of measures. Strings mix the empty string, a quote, case
 * pairs, digits with leading zeros and non-ASCII text (Latin-1, CJK, a character outside the BMP whose UTF-16 order
 * differs from its code point order), so text comparisons and sorting are exercised. Stateless; thread-safe.
 */
final class ValuePools {

    /** Strings every larger pool starts with: edge cases of ordering and quoting. */
    private static final List<String> SPECIAL_STRINGS = List.of(
            "", "a", "A", "o'k", "é", "日本", "\uD83D\uDE00", "\uFF5E", "Zebra", "zebra", "007", "7", " lead", "x y");

    private static final long DATE_MIN = LocalDate.of(1900, 1, 1).toEpochDay();
    private static final long DATE_MAX = LocalDate.of(2100, 12, 31).toEpochDay();

    private ValuePools() {}

    /** {@code n} distinct values of fact dimension or lookup attribute {@code column}. */
    static List<Object> distinct(String column, int n, Random rnd) {
        Set<Object> out = new LinkedHashSet<>();
        while (out.size() < n) {
            out.add(value(column, out.size(), rnd));
        }
        return new ArrayList<>(out);
    }

    private static Object value(String column, int i, Random rnd) {
        return switch (column) {
            case "s0", "region", "grade", "zone" ->
                i < SPECIAL_STRINGS.size() && rnd.nextInt(3) > 0 ? SPECIAL_STRINGS.get(i) : word(rnd);
            case "s1" -> rnd.nextInt(50) == 0 ? SPECIAL_STRINGS.get(rnd.nextInt(SPECIAL_STRINGS.size())) : word(rnd);
            case "i0", "tier", "lvl", "zrank" -> (long) rnd.nextInt(2001) - 1000;
            case "i1" -> rnd.nextInt(4) == 0 ? (long) rnd.nextInt(201) - 100 : rnd.nextLong() >> 13;
            case "b0" -> (long) rnd.nextInt(2);
            case "dt0", "opened" -> DATE_MIN + (long) rnd.nextInt((int) (DATE_MAX - DATE_MIN + 1));
            default -> throw new IllegalArgumentException("not a dimension: " + column);
        };
    }

    private static String word(Random rnd) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCZéß日本\uD83D\uDE00 _-'";
        int len = 1 + rnd.nextInt(8);
        StringBuilder sb = new StringBuilder();
        while (sb.codePointCount(0, sb.length()) < len) {
            int at = rnd.nextInt(alphabet.length());
            if (Character.isHighSurrogate(alphabet.charAt(at))) {
                sb.append(alphabet, at, at + 2);
            } else if (!Character.isLowSurrogate(alphabet.charAt(at))) {
                sb.append(alphabet.charAt(at));
            }
        }
        return sb.toString();
    }

    /** A value of DOUBLE measure {@code column}: finite, with zeros and negatives. */
    static double doubleValue(String column, Random rnd) {
        if (column.equals("m0")) {
            return rnd.nextInt(10) == 0 ? 0.0 : (rnd.nextInt(16_383) - 8191) / 8.0;
        }
        int pick = rnd.nextInt(20);
        if (pick == 0) {
            return 0.0;
        }
        if (pick == 1) {
            return -0.0;
        }
        double magnitude = Math.pow(10, -6 + rnd.nextDouble() * 21);
        return rnd.nextBoolean() ? magnitude : -magnitude;
    }

    /** A value of LONG measure {@code column}: {@code l0} within ±10^6, {@code l1} ±2^40 and now and then near ±2^62. */
    static long longValue(String column, Random rnd) {
        if (column.equals("ts0")) {
            return timestamp(rnd);
        }
        if (column.equals("l0")) {
            return rnd.nextInt(2_000_001) - 1_000_000;
        }
        if (column.equals("n0")) {
            return rnd.nextInt(10) == 0
                    ? 0
                    : rnd.nextInt(4) == 0
                            ? (rnd.nextInt(2001) - 1000) * 100L
                            : rnd.nextLong(-1_000_000_000L, 1_000_000_000L);
        }
        if (column.equals("n1")) {
            return (rnd.nextInt(41) - 20) * 125L;
        }
        if (rnd.nextInt(500) == 0) {
            long near = (1L << 62) - rnd.nextInt(1000);
            return rnd.nextBoolean() ? near : -near;
        }
        return rnd.nextLong() >> 23;
    }

    /**
     * A TIMESTAMP of {@code ts0}, in microseconds: one of 400 hours from 2012-12-31 (so values repeat and groups
     * form), a quarter with a fraction of a second, one in 20 before 1970.
     */
    static long timestamp(Random rnd) {
        long hour = 3_600_000_000L;
        long base = rnd.nextInt(20) == 0 ? -200 * hour : 15_705L * 86_400_000_000L;
        long micros = base + rnd.nextInt(400) * hour;
        return rnd.nextInt(4) == 0 ? micros + rnd.nextInt(1_000_000) : micros;
    }

    /** A value of lookup attribute {@code rate}: eighths from -3 to 5, zero now and then. */
    static double rate(Random rnd) {
        return (rnd.nextInt(65) - 24) / 8.0;
    }
}
