package io.numacube.engine.storage;

import io.numacube.numa.base.NumacubeException;

/**
 * How a table's rows are cut into partitions. Immutable.
 * <ul>
 *   <li>by row ranges: {@link #rowRanges(int)} consecutive ranges of equal size, or {@link #rowsPerPartition(int)};</li>
 *   <li>by a dimension (a business key, as ActivePivot partitions by desk or currency): {@link #byDimension}: all rows
 *       with the same value of the dimension go to the same partition; values are spread over the partitions
 *       balancing rows (largest first), so one very frequent value makes one large partition — the skew is
 *       reported. A table without that column is cut by row ranges.</li>
 * </ul>
 * A count of 0 means automatic: two partitions per worker.
 *
 * @param dimension        the dimension to partition by, or null for row ranges
 * @param partitionCount   the number of partitions (0 = automatic); for a dimension, at most its distinct values
 * @param rowsPerPartition for row ranges, the most rows one partition holds (0 = use partitionCount)
 */
public record Partitioning(String dimension, int partitionCount, int rowsPerPartition) {

    public static final Partitioning AUTO = new Partitioning(null, 0, 0);

    public Partitioning {
        if (partitionCount < 0 || rowsPerPartition < 0 || (partitionCount > 0 && rowsPerPartition > 0)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "give a partition count or a partition size, each ≥ 0, not both: partitionCount=" + partitionCount
                            + " rowsPerPartition=" + rowsPerPartition);
        }
        if (dimension != null && (dimension.isBlank() || rowsPerPartition > 0)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "partitioning by a dimension takes a name and a count only: dimension=" + dimension
                            + " rowsPerPartition=" + rowsPerPartition);
        }
    }

    public static Partitioning rowRanges(int partitionCount) {
        return new Partitioning(null, partitionCount, 0);
    }

    public static Partitioning rowsPerPartition(int rows) {
        if (rows < 1) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a partition holds at least one row: rowsPerPartition=" + rows);
        }
        return new Partitioning(null, 0, rows);
    }

    public static Partitioning byDimension(String dimension, int partitionCount) {
        java.util.Objects.requireNonNull(dimension, "dimension must not be null");
        return new Partitioning(dimension, partitionCount, 0);
    }

    /**
     * Parses {@code auto}, {@code rows:N} (N row ranges), {@code rows-each:N} (N rows per partition) or
     * {@code DIMENSION[:N]} (by a dimension, N partitions, automatic when omitted).
     */
    public static Partitioning parse(String text) {
        java.util.Objects.requireNonNull(text, "partitioning text must not be null");
        String s = text.trim();
        int colon = s.indexOf(':');
        String head = colon < 0 ? s : s.substring(0, colon).trim();
        String tail = colon < 0 ? null : s.substring(colon + 1).trim();
        try {
            int n = tail == null ? 0 : Integer.parseInt(tail);
            return switch (head.toLowerCase(java.util.Locale.ROOT)) {
                case "auto" -> AUTO;
                case "rows" -> rowRanges(n);
                case "rows-each" -> rowsPerPartition(n);
                default -> byDimension(head, n);
            };
        } catch (NumberFormatException e) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "partition count must be a number: " + "partitioning=" + text
                            + " — use auto, rows:N, rows-each:N or DIMENSION[:N]");
        }
    }

    @Override
    public String toString() {
        String count = partitionCount > 0
                ? String.valueOf(partitionCount)
                : rowsPerPartition > 0 ? rowsPerPartition + " rows each" : "auto";
        return (dimension == null ? "row ranges" : "by " + dimension) + " (" + count + ")";
    }
}
