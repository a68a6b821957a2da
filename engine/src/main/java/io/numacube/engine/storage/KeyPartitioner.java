package io.numacube.engine.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Spreads the values of a partitioning dimension over partitions, balancing rows: most frequent value first, each to
 * the partition with the fewest rows so far (ties: lowest id). Every row of one value lands in one partition, so a
 * value with most of the rows makes one big partition (skew), which is the honest outcome of partitioning by a
 * business key. Stateless; thread-safe.
 */
public final class KeyPartitioner {

    private KeyPartitioner() {}

    /**
     * The outcome.
     *
     * @param partitionOfCode for each dictionary code, its partition, or -1 when the code has no rows
     * @param rows            rows per partition
     * @param labels          per partition, {@code column=v1,v2,...} (values in code order, shortened when long)
     */
    public record Assignment(int[] partitionOfCode, int[] rows, List<String> labels) {
        public int partitions() {
            return rows.length;
        }
    }

    /**
     * @param rowsPerCode rows of each code
     * @param partitions  wanted partitions (fewer when fewer codes have rows; at least one)
     */
    public static Assignment assign(String column, Dictionary dict, long[] rowsPerCode, int partitions) {
        int distinct = 0;
        for (long r : rowsPerCode) {
            distinct += r > 0 ? 1 : 0;
        }
        int k = Math.max(1, Math.min(partitions, distinct));
        Integer[] order = new Integer[rowsPerCode.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(
                order,
                Comparator.comparingLong((Integer c) -> rowsPerCode[c])
                        .reversed()
                        .thenComparingInt(c -> c));
        long[] load = new long[k];
        int[] part = new int[rowsPerCode.length];
        Arrays.fill(part, -1);
        for (int c : order) {
            if (rowsPerCode[c] == 0) {
                continue;
            }
            int best = 0;
            for (int p = 1; p < k; p++) {
                if (load[p] < load[best]) {
                    best = p;
                }
            }
            part[c] = best;
            load[best] += rowsPerCode[c];
        }
        int[] rows = new int[k];
        List<StringBuilder> labels = new ArrayList<>();
        int[] listed = new int[k];
        for (int p = 0; p < k; p++) {
            labels.add(new StringBuilder(column).append('='));
            if (load[p] > Integer.MAX_VALUE - 64) {
                throw new io.numacube.numa.base.NumacubeException(
                        io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                        "a partition holds at most 2^31 rows: column=" + column + " partition=" + p + " rows=" + load[p]
                                + " — partition by a dimension with more values, or by row ranges");
            }
            rows[p] = (int) load[p];
        }
        for (int c = 0; c < part.length; c++) {
            int p = part[c];
            if (p < 0) {
                continue;
            }
            if (listed[p] < 4) {
                labels.get(p).append(listed[p] == 0 ? "" : ",").append(dict.value(c));
            } else if (listed[p] == 4) {
                labels.get(p).append(",…");
            }
            listed[p]++;
        }
        return new Assignment(
                part, rows, labels.stream().map(StringBuilder::toString).toList());
    }
}
