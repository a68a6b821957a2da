package io.numacube.engine.ingest;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.engine.storage.Dictionary;
import io.numacube.engine.storage.DictionaryBuilder;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.GrowingDictionary;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.storage.PartitionWriter;
import io.numacube.engine.storage.PlacementTarget;
import io.numacube.engine.storage.TableBuilder;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;

/**
 * Appends the rows of a {@link TableStaging} to a table as its next version ({@link FactTable#successor}): the table's
 * partitions stay as they are, each dimension's dictionary grows (new values take the next codes, so placed rows keep
 * theirs), and the new rows are cut into one partition per data node (fewer for a batch of fewer rows), each placed on
 * the node with the fewest bytes of the table so far and filled by that node's workers (by the calling thread where
 * the pool has one node and the batch is small, so that it does not wait behind queries); where a dictionary grows past
 * its code width (256 or 65,536 values) the partitions placed before are rewritten at the new width
 * ({@link io.numacube.engine.storage.TableCompactor#widen}). Nothing of the table changes:
 * on failure the new partitions are freed and the caller drops the growing dictionaries. Stateless; call it from one
 * writer thread per table, never from one of the pool's workers.
 */
public final class StagedAppender {

    private StagedAppender() {}

    /**
     * The next version of {@code table} with the rows of {@code batch} after its own, or {@code table} itself when the
     * batch has no row. {@code growing[c]} is the growing dictionary of dimension column {@code c}, created here from
     * the table's dictionary when null and kept by the caller for the next append.
     *
     * @throws NumacubeException INVALID_INPUT when the batch's columns are not the table's (a BIGINT column of the batch
     *     may be one the table stores with a dictionary, as INT)
     */
    public static FactTable append(
            FactTable table, TableStaging batch, GrowingDictionary[] growing, String label, PlacementTarget target) {
        return append(table, batch, null, growing, label, target);
    }

    /**
     * As {@link #append(FactTable, TableStaging, GrowingDictionary[], String, PlacementTarget)}, with only {@code rows} of the
     * batch (ascending; null for all): an upsert's last row of each key.
     */
    public static FactTable append(
            FactTable table,
            TableStaging batch,
            int[] rows,
            GrowingDictionary[] growing,
            String label,
            PlacementTarget target) {
        requireSameColumns(table.schema(), batch.schema());
        int count = rows == null ? batch.rows() : rows.length;
        if (count == 0) {
            return table;
        }
        TableSchema schema = table.schema();
        int n = schema.size();
        Dictionary[] dictionaries = new Dictionary[n];
        int[][] remaps = new int[n][];
        int[][] batchCodes = new int[n][];
        boolean[] nullBits = new boolean[n];
        for (int c = 0; c < n; c++) {
            if (schema.column(c).isDimension()) {
                if (growing[c] == null) {
                    growing[c] = new GrowingDictionary(table.dictionaries()[c]);
                }
                DictionaryBuilder batchDictionary;
                if (batch.schema().column(c).type() == ColumnType.LONG) {
                    batchDictionary = new DictionaryBuilder(ColumnType.INT);
                    batchCodes[c] = code(batch, c, batchDictionary);
                } else {
                    batchDictionary = batch.dictionary(c);
                    batchCodes[c] = batch.codes(c);
                }
                remaps[c] = growing[c].add(batchDictionary);
                dictionaries[c] = growing[c].snapshot();
            } else {
                nullBits[c] = (table.nullBits() != null && table.nullBits()[c]) || batch.nulls(c) != null;
            }
        }
        List<TableBuilder.PartitionSpec> specs =
                specs(count, target.layout().dataNodes().size(), label);
        List<Partition> added = TableBuilder.buildPartitions(
                schema,
                dictionaries,
                nullBits,
                specs,
                leastLoaded(table, specs, target.layout()),
                table.maxPartitionId() + 1,
                target,
                (i, w) -> copy(schema, batch, rows, batchCodes, remaps, startOf(specs, i), w));
        List<Partition> all = new ArrayList<>(table.partitions());
        all.addAll(added);
        FactTable next = table.successor(dictionaries, nullBits, all);
        FactTable widened;
        try {
            widened = io.numacube.engine.storage.TableCompactor.widen(next, target);
        } catch (RuntimeException | Error e) {
            next.close();
            throw e;
        }
        if (widened != next) {
            next.close();
        }
        return widened;
    }

    private static void requireSameColumns(TableSchema table, TableSchema batch) {
        boolean same = table.size() == batch.size();
        for (int c = 0; same && c < table.size(); c++) {
            ColumnSpec a = table.column(c);
            ColumnSpec b = batch.column(c);
            boolean recoded = a.type() == ColumnType.INT && b.type() == ColumnType.LONG;
            same = a.name().equalsIgnoreCase(b.name()) && (a.type() == b.type() || recoded) && a.scale() == b.scale();
        }
        if (!same) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "appended rows must have the table's columns: table=" + table.name() + " columns="
                            + table.declaration() + " batch=" + batch.declaration());
        }
    }

    /** One row range per data node, at most one per row. */
    private static List<TableBuilder.PartitionSpec> specs(int rows, int nodes, String label) {
        List<TableBuilder.PartitionSpec> specs = new ArrayList<>();
        for (TableBuilder.PartitionSpec s : TableBuilder.rowRanges(rows, nodes)) {
            specs.add(new TableBuilder.PartitionSpec(label + " " + s.label(), s.rows()));
        }
        return specs;
    }

    private static int startOf(List<TableBuilder.PartitionSpec> specs, int i) {
        int start = 0;
        for (int k = 0; k < i; k++) {
            start += specs.get(k).rows();
        }
        return start;
    }

    /** Per spec, the data node holding the fewest rows of the table once the specs before it are counted. */
    static int[] leastLoaded(FactTable table, List<TableBuilder.PartitionSpec> specs, TableBuilder.NodeLayout layout) {
        List<Integer> nodes = layout.dataNodes();
        long[] rows = new long[nodes.size()];
        for (Partition p : table.partitions()) {
            int d = layout.indexOf(p);
            if (d >= 0) {
                rows[d] += p.rows();
            }
        }
        int[] out = new int[specs.size()];
        for (int i = 0; i < specs.size(); i++) {
            int best = 0;
            for (int k = 1; k < rows.length; k++) {
                if (rows[k] < rows[best]) {
                    best = k;
                }
            }
            out[i] = nodes.get(best);
            rows[best] += specs.get(i).rows();
        }
        return out;
    }

    /** The codes of BIGINT column {@code c} of the batch in {@code into} (the table stores it with a dictionary). */
    private static int[] code(TableStaging batch, int c, DictionaryBuilder into) {
        long[] values = batch.longs(c);
        int[] codes = new int[batch.rows()];
        for (int r = 0; r < codes.length; r++) {
            codes[r] = batch.isNull(c, r) ? into.nullCode() : into.codeOf(values[r]);
        }
        return codes;
    }

    /** Writes staged rows {@code first, first + 1, ...} of the appended ones ({@code kept} of the batch, or all). */
    private static void copy(
            TableSchema schema,
            TableStaging batch,
            int[] kept,
            int[][] batchCodes,
            int[][] remaps,
            int first,
            PartitionWriter w) {
        int rows = w.rows();
        int[] at = new int[rows];
        for (int j = 0; j < rows; j++) {
            at[j] = kept == null ? first + j : kept[first + j];
        }
        for (int c = 0; c < schema.size(); c++) {
            ColumnType type = schema.column(c).type();
            if (type.isDimension()) {
                int[] codes = batchCodes[c];
                for (int j = 0; j < rows; j++) {
                    w.code(c, j, remaps[c][codes[at[j]]]);
                }
            } else if (type == ColumnType.DOUBLE) {
                double[] v = batch.doubles(c);
                for (int j = 0; j < rows; j++) {
                    w.doubleValue(c, j, v[at[j]]);
                }
            } else {
                long[] v = batch.longs(c);
                for (int j = 0; j < rows; j++) {
                    w.longValue(c, j, v[at[j]]);
                }
            }
            long[] nulls = batch.nulls(c);
            if (nulls != null && !type.isDimension()) {
                for (int j = 0; j < rows; j++) {
                    int r = at[j];
                    if ((nulls[r >>> 6] & (1L << r)) != 0) {
                        w.setNull(c, j);
                    }
                }
            }
        }
    }
}
