package io.numacube.engine.ingest.parquet;

import dev.hardwood.metadata.ColumnChunk;
import dev.hardwood.metadata.RowGroup;
import io.numacube.numa.base.NumacubeException;
import java.util.List;

/**
 * Where a Parquet file's rows are, from its footer: its columns, and per row group its first row, its row count and
 * the byte position hardwood selects it by (the midpoint of its column chunks, as
 * {@link dev.hardwood.reader.RowGroupPredicate#byteRange} matches it). Immutable; shared by the workers that decode the
 * row groups.
 *
 * @param file      the file's name in messages
 * @param columns   the file's columns, in order
 * @param firstRows the first row (0-based) of each row group
 * @param rows      the row count of each row group
 * @param midpoints each row group's first column chunk's offset plus half of its compressed size
 */
record ParquetLayout(String file, List<ParquetColumn> columns, long[] firstRows, int[] rows, long[] midpoints) {

    /**
     * @throws NumacubeException INVALID_INPUT for a row group of more rows than a block holds, or two row groups at
     *                           the same position (a corrupt footer)
     */
    static ParquetLayout of(String file, List<ParquetColumn> columns, List<RowGroup> groups) {
        int n = groups.size();
        long[] firstRows = new long[n];
        int[] rows = new int[n];
        long[] midpoints = new long[n];
        long row = 0;
        for (int g = 0; g < n; g++) {
            RowGroup group = groups.get(g);
            firstRows[g] = row;
            if (group.numRows() < 0 || group.numRows() > Integer.MAX_VALUE - 8) {
                throw invalid(file + ": row group " + g + " has " + group.numRows() + " rows in the footer; numacube"
                        + " reads row groups of up to " + (Integer.MAX_VALUE - 8) + " rows — rewrite the file with"
                        + " smaller row groups");
            }
            rows[g] = (int) group.numRows();
            row += rows[g];
            midpoints[g] = midpoint(group);
        }
        checkDistinct(file, rows, midpoints);
        return new ParquetLayout(file, List.copyOf(columns), firstRows, rows, midpoints);
    }

    /** Refuses two row groups with rows at one position: a row group filter could not tell them apart. */
    private static void checkDistinct(String file, int[] rows, long[] midpoints) {
        long[] sorted = java.util.stream.IntStream.range(0, midpoints.length)
                .filter(g -> rows[g] > 0)
                .mapToLong(g -> midpoints[g])
                .sorted()
                .toArray();
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw invalid(file + ": not a readable Parquet file (truncated or corrupt?): two row groups have their"
                        + " column chunks at the same offset (" + sorted[i] + ")");
            }
        }
    }

    /** The midpoint hardwood matches a row group's byte range by. */
    private static long midpoint(RowGroup group) {
        List<ColumnChunk> chunks = group.columns();
        long compressed = 0;
        for (ColumnChunk c : chunks) {
            compressed += c.metaData().totalCompressedSize();
        }
        return chunks.isEmpty() ? 0 : chunks.getFirst().chunkStartOffset() + compressed / 2;
    }

    int groups() {
        return rows.length;
    }

    long firstRowOf(int group) {
        return firstRows[group];
    }

    int rowsOf(int group) {
        return rows[group];
    }

    long midpointOf(int group) {
        return midpoints[group];
    }

    long totalRows() {
        return rows.length == 0 ? 0 : firstRows[rows.length - 1] + rows[rows.length - 1];
    }

    /** A row group whose pages hold another row count than the footer says: a corrupt file. */
    NumacubeException rowCountMismatch(int group, long rowsRead) {
        return invalid(file + ": not a readable Parquet file (truncated or corrupt?): row group " + group + " has "
                + rows[group] + " rows in the footer, " + (rowsRead > rows[group] ? "more than " : "")
                + rowsRead + " in its pages");
    }

    private static NumacubeException invalid(String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, message);
    }
}
