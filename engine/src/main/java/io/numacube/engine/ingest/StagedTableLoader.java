package io.numacube.engine.ingest;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.ColumnMemory;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.DictionaryBuilder;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.KeyPartitioner;
import io.numacube.engine.storage.PartitionWriter;
import io.numacube.engine.storage.Partitioning;
import io.numacube.engine.storage.Placement;
import io.numacube.engine.storage.TableBuilder;
import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Places the rows of a {@link TableStaging} as a {@link FactTable}: sorts each dictionary (codes follow value order) on
 * the pool's workers, cuts the rows by row ranges or by a dimension and has each partition's filler workers copy its
 * rows off-heap. The staging is only read (its free text settled first, {@link TableStaging#settle}). Stateless;
 * thread-safe (the staging must not change during the load), to be called from a thread that is not one of the pool's
 * workers.
 */
public final class StagedTableLoader {

    private StagedTableLoader() {}

    /**
     * @param partitions the partition count to use when {@code partitioning} says automatic
     */
    public static FactTable load(
            TableStaging staging,
            Partitioning partitioning,
            int partitions,
            Placement placement,
            TableBuilder.NodeLayout layout,
            int morselRows,
            ColumnMemory memory,
            WorkerPool pool) {
        EncodedColumns encoded = EncodedColumns.of(staging, pool);
        TableSchema schema = encoded.schema();
        int n = schema.size();
        Dictionary[] dicts = new Dictionary[n];
        int[][] remaps = new int[n][];
        int count = partitioning.partitionCount() > 0 ? partitioning.partitionCount() : partitions;
        int keyColumn = partitioning.dimension() == null ? -1 : schema.indexOf(partitioning.dimension());
        sortDictionaries(encoded, staging.rows(), keyColumn, dicts, remaps, pool);
        if (keyColumn >= 0 && !schema.column(keyColumn).isDimension()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "partitioning needs a dimension column: table=" + schema.name() + " column="
                            + schema.column(keyColumn).name() + " type=measure — partition by a dimension or by rows");
        }
        Cut cut = keyColumn >= 0
                ? cutByKey(encoded, staging.rows(), keyColumn, dicts[keyColumn], remaps[keyColumn], count)
                : cutByRowRanges(staging.rows(), count, partitioning);
        boolean[] nullBits = new boolean[n];
        for (int c = 0; c < n; c++) {
            nullBits[c] = !schema.column(c).isDimension() && staging.nulls(c) != null;
        }
        return TableBuilder.build(
                schema,
                dicts,
                nullBits,
                cut.specs(),
                cut.how(),
                placement,
                layout,
                morselRows,
                memory,
                pool,
                (p, w) -> copy(staging, encoded, remaps, cut.order(), cut.offsets()[p], w));
    }

    /**
     * How the staged rows are cut into partitions.
     *
     * @param order   staged row index by placed position, or null when partitions are consecutive row ranges
     * @param offsets first placed position of each partition, then the row count
     * @param how     the partitioning in words
     */
    private record Cut(List<TableBuilder.PartitionSpec> specs, int[] order, int[] offsets, String how) {}

    /**
     * The fewest distinct values of a text column whose dictionary is left in first-seen order: free text (comments,
     * addresses), where nearly every row has a value of its own, is rarely ordered or grouped by, and sorting millions
     * of strings was the largest part of placing such a table.
     */
    public static final int UNSORTED_TEXT_MIN_VALUES = 1 << 18;

    /**
     * Whether a text column keeps its dictionary in first-seen order: at least {@link #UNSORTED_TEXT_MIN_VALUES}
     * distinct values, more than half as many as rows. Queries need no order of its codes: predicates are evaluated per
     * code, MIN and MAX rank the values ({@link Dictionary#sorted()}), ORDER BY sorts the values, as for a table that
     * rows were appended to.
     */
    public static boolean keepsFirstSeenOrder(DictionaryBuilder builder, int rows) {
        return builder.type() == ColumnType.STRING
                && builder.size() >= UNSORTED_TEXT_MIN_VALUES
                && builder.size() > rows / 2;
    }

    /**
     * Sorts each dimension's dictionary into {@code dicts}, with the old-code-to-new-code map in {@code remaps}: one task
     * per dictionary on the pool's workers, the largest first, the nodes taking turns. A free-text column's dictionary
     * ({@link #keepsFirstSeenOrder}, unless it is the partitioning column) stays in first-seen order, its remap null.
     */
    private static void sortDictionaries(
            EncodedColumns encoded, int rows, int keyColumn, Dictionary[] dicts, int[][] remaps, WorkerPool pool) {
        DictionaryBuilder[] builders = encoded.builders();
        List<Integer> columns = new ArrayList<>();
        for (int c = 0; c < builders.length; c++) {
            if (builders[c] != null && c != keyColumn && keepsFirstSeenOrder(builders[c], rows)) {
                dicts[c] = builders[c].snapshot(false);
            } else if (builders[c] != null) {
                columns.add(c);
            }
        }
        columns.sort(Comparator.comparingInt((Integer c) -> builders[c].size()).reversed());
        ThreadWorkerPool.runEach(pool, columns.size(), i -> {
            int c = columns.get(i);
            DictionaryBuilder.Sorted sorted = builders[c].buildSorted();
            dicts[c] = sorted.dictionary();
            remaps[c] = sorted.remap();
        });
    }

    private static Cut cutByKey(
            EncodedColumns encoded, int rows, int keyColumn, Dictionary dict, int[] remap, int count) {
        TableSchema schema = encoded.schema();
        int[] codes = encoded.codes()[keyColumn];
        long[] perCode = new long[dict.size()];
        for (int r = 0; r < rows; r++) {
            perCode[remap[codes[r]]]++;
        }
        KeyPartitioner.Assignment a =
                KeyPartitioner.assign(schema.column(keyColumn).name(), dict, perCode, count);
        List<TableBuilder.PartitionSpec> specs = new ArrayList<>();
        int[] offsets = new int[a.partitions() + 1];
        for (int p = 0; p < a.partitions(); p++) {
            offsets[p + 1] = offsets[p] + a.rows()[p];
            specs.add(new TableBuilder.PartitionSpec(a.labels().get(p), a.rows()[p]));
        }
        int[] order = new int[rows];
        int[] next = offsets.clone();
        for (int r = 0; r < rows; r++) {
            order[next[a.partitionOfCode()[remap[codes[r]]]]++] = r;
        }
        return new Cut(specs, order, offsets, "by " + schema.column(keyColumn).name());
    }

    private static Cut cutByRowRanges(int rows, int count, Partitioning partitioning) {
        List<TableBuilder.PartitionSpec> specs = TableBuilder.rowRanges(rows, count);
        long[] starts = TableBuilder.rowRangeStarts(specs);
        int[] offsets = new int[specs.size() + 1];
        for (int p = 0; p < specs.size(); p++) {
            offsets[p] = (int) starts[p];
        }
        offsets[specs.size()] = rows;
        String how = partitioning.dimension() == null
                ? "row ranges"
                : "row ranges (the table has no column " + partitioning.dimension() + ")";
        return new Cut(specs, null, offsets, how);
    }

    /** Rows gathered on the heap per bulk write into a partition. */
    private static final int COPY_ROWS = 4096;

    private static void copy(
            TableStaging staging, EncodedColumns encoded, int[][] remaps, int[] order, int first, PartitionWriter w) {
        TableSchema schema = encoded.schema();
        int rows = w.rows();
        int[] codes = new int[Math.min(rows, COPY_ROWS)];
        long[] longs = order == null ? null : new long[codes.length];
        double[] doubles = order == null ? null : new double[codes.length];
        for (int c = 0; c < schema.size(); c++) {
            ColumnSpec spec = schema.column(c);
            for (int j = 0; j < rows; j += COPY_ROWS) {
                int n = Math.min(COPY_ROWS, rows - j);
                if (spec.isDimension()) {
                    gatherCodes(encoded.codes()[c], remaps[c], order, first + j, n, codes);
                    w.codes(c, j, codes, n);
                } else if (spec.type() == ColumnType.DOUBLE) {
                    copyDoubles(staging.doubles(c), order, first + j, n, doubles, w, c, j);
                } else {
                    copyLongs(staging.longs(c), order, first + j, n, longs, w, c, j);
                }
            }
            if (!spec.isDimension()) {
                copyNulls(staging.nulls(c), c, order, first, w);
            }
        }
    }

    /** {@code out[k]} = the placed code of staged position {@code from + k}: through {@code order} and {@code remap}. */
    private static void gatherCodes(int[] codes, int[] remap, int[] order, int from, int n, int[] out) {
        for (int k = 0; k < n; k++) {
            int code = codes[order == null ? from + k : order[from + k]];
            out[k] = remap == null ? code : remap[code];
        }
    }

    private static void copyDoubles(
            double[] v, int[] order, int from, int n, double[] scratch, PartitionWriter w, int c, int row) {
        if (order == null) {
            w.doubleValues(c, row, v, from, n);
            return;
        }
        for (int k = 0; k < n; k++) {
            scratch[k] = v[order[from + k]];
        }
        w.doubleValues(c, row, scratch, 0, n);
    }

    private static void copyLongs(
            long[] v, int[] order, int from, int n, long[] scratch, PartitionWriter w, int c, int row) {
        if (order == null) {
            w.longValues(c, row, v, from, n);
            return;
        }
        for (int k = 0; k < n; k++) {
            scratch[k] = v[order[from + k]];
        }
        w.longValues(c, row, scratch, 0, n);
    }

    private static void copyNulls(long[] bits, int c, int[] order, int first, PartitionWriter w) {
        if (bits == null) {
            return;
        }
        for (int j = 0; j < w.rows(); j++) {
            int r = order == null ? first + j : order[first + j];
            if ((bits[r >>> 6] & (1L << r)) != 0) {
                w.setNull(c, j);
            }
        }
    }
}
