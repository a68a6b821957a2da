package io.numacube.engine.fuzz;

import io.numacube.engine.CubeOptions;
import io.numacube.engine.storage.Partitioning;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The parameters of one generated data set: row count, dimension cardinalities and skew, per-column NULL fraction,
 * which fact column keys the lookup table, and the cube options it is queried under. Printed with every mismatch, so a
 * reader sees the data's shape without replaying. Immutable.
 *
 * @param index          the data set's index in the run
 * @param seed           the seed its rows are drawn from
 * @param rows           fact rows
 * @param cardinality    distinct values per fact dimension, in {@link FactColumns#DIMENSIONS} order
 * @param skew           exponent of the skewed draw of dimension values (1 = uniform, larger = more skewed)
 * @param nullFraction   per fact column ({@link FactColumns#ALL} order), the probability of a NULL (0 without NULLs)
 * @param lookupKey      the fact dimension the lookup table is keyed by ({@code s0} or {@code i0})
 * @param lookup2Key     the fact dimension the second lookup table {@code e} is keyed by (any other)
 * @param options        the cube options the data is queried under
 */
public record DataShape(
        int index,
        long seed,
        int rows,
        int[] cardinality,
        double skew,
        double[] nullFraction,
        String lookupKey,
        String lookup2Key,
        CubeOptions options) {

    private static final int[] ROW_COUNTS = {1_000, 2_000, 4_000, 8_000, 15_000};

    private static final int[] TINY_ROW_COUNTS = {0, 1, 37};

    private static final int[] MAX_CARDINALITY = {60, 3000, 100, 5000, 400, 2};

    /** A random shape for data set {@code index}; NULL fractions up to 30 % when {@code nulls}, else none. */
    public static DataShape random(int index, long seed, boolean nulls) {
        Random rnd = new Random(seed);
        // the first data set of a run is a large one, so every run has one with many morsels; 50,000-row sets and
        // tiny ones are drawn now and then (a run's time is mostly spent on rows)
        int rows = index == 0 ? 20_000 : ROW_COUNTS[rnd.nextInt(ROW_COUNTS.length)];
        int size = rnd.nextInt(16);
        if (index > 0 && size == 0) {
            rows = TINY_ROW_COUNTS[rnd.nextInt(TINY_ROW_COUNTS.length)];
        } else if (index > 0 && size == 1) {
            rows = 50_000;
        }
        int[] card = new int[FactColumns.DIMENSIONS.size()];
        for (int d = 0; d < card.length; d++) {
            card[d] = Math.min(
                    MAX_CARDINALITY[d], rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(3) : 1 + rnd.nextInt(MAX_CARDINALITY[d]));
        }
        double[] nullFraction = new double[FactColumns.ALL.size()];
        for (int c = 0; nulls && c < nullFraction.length; c++) {
            nullFraction[c] = rnd.nextInt(4) == 0 ? 0 : rnd.nextDouble() * 0.3;
        }
        String lookupKey = rnd.nextBoolean() ? "s0" : "i0";
        List<String> others = new ArrayList<>(FactColumns.DIMENSIONS);
        others.remove(lookupKey);
        // a boolean key leaves no value for the key that matches no fact row (SqlLiterals.missing)
        others.remove("b0");
        String lookup2Key = others.get(rnd.nextInt(others.size()));
        return new DataShape(
                index, seed, rows, card, 1 + rnd.nextDouble() * 3, nullFraction, lookupKey, lookup2Key, options(rnd));
    }

    private static CubeOptions options(Random rnd) {
        int sim = rnd.nextInt(3);
        CubeOptions o = CubeOptions.defaults().withSimulatedNodes(sim);
        if (sim > 0) {
            o = o.withThreadsPerNode(1 + rnd.nextInt(2));
        }
        Partitioning part = switch (rnd.nextInt(4)) {
            case 0 -> Partitioning.rowRanges(1 + rnd.nextInt(5));
            case 1 -> Partitioning.rowsPerPartition(500 + rnd.nextInt(20_000));
            case 2 ->
                Partitioning.byDimension(
                        FactColumns.DIMENSIONS.get(rnd.nextInt(FactColumns.DIMENSIONS.size())), 1 + rnd.nextInt(4));
            default -> Partitioning.AUTO;
        };
        int[] morsels = {256, 1000, 4096, 65_536};
        return o.withPartitioning(part)
                .withMorselRows(morsels[rnd.nextInt(morsels.length)])
                .withWorkStealing(rnd.nextBoolean());
    }

    @Override
    public String toString() {
        StringBuilder nulls = new StringBuilder();
        for (int c = 0; c < nullFraction.length; c++) {
            if (nullFraction[c] > 0) {
                nulls.append(nulls.isEmpty() ? "" : ",")
                        .append(FactColumns.ALL.get(c))
                        .append('=')
                        .append(String.format(java.util.Locale.ROOT, "%.2f", nullFraction[c]));
            }
        }
        return "dataset=" + index + " seed=" + seed + " rows=" + rows + " cardinality="
                + java.util.Arrays.toString(cardinality) + " skew="
                + String.format(java.util.Locale.ROOT, "%.2f", skew) + " nulls={" + nulls + "} lookupKey=" + lookupKey
                + " lookup2Key=" + lookup2Key + " options=" + options;
    }
}
