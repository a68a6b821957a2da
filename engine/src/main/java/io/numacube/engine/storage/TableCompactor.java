package io.numacube.engine.storage;

import io.numacube.engine.schema.TableSchema;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Merges the small partitions that appends leave (one per data node per batch) into one partition per node, so that a
 * table fed by many small batches keeps few partitions and whole morsels: when a data node holds at least {@link
 * #FAN_IN} partitions of fewer than {@link #SMALL_ROWS} rows, they become one, placed and filled on that node like any
 * partition. Each row is merged about log_8(SMALL_ROWS / batch rows) times. A partition of which more than a quarter
 * of the rows are deleted is rewritten without them, so deleted and replaced rows do not hold memory for long; merging
 * drops deleted rows too. The result is the table's {@link FactTable#successor}; the merged partitions stay in the
 * versions that list them (queries under way read them) and are freed with the last. Stateless.
 */
public final class TableCompactor {

    /** Partitions of fewer rows than this are merged. */
    public static final int SMALL_ROWS = 1 << 20;
    /** How many small partitions on one node start a merge. */
    public static final int FAN_IN = 8;

    private TableCompactor() {}

    /** {@code table} with the small partitions of each data node that has {@link #FAN_IN} of them merged, or itself. */
    public static FactTable compact(FactTable table, PlacementTarget target) {
        TableBuilder.NodeLayout layout = target.layout();
        List<List<Partition>> groups = mergeGroups(table, layout);
        if (groups.isEmpty()) {
            return table;
        }
        List<TableBuilder.PartitionSpec> specs = new ArrayList<>();
        int[] dataNode = new int[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            List<Partition> group = groups.get(g);
            int rows = group.stream().mapToInt(table::liveRows).sum();
            String label = group.size() == 1
                    ? group.get(0).label() + " (deleted rows dropped)"
                    : "merged " + group.size() + " appended partitions";
            specs.add(new TableBuilder.PartitionSpec(label, rows));
            dataNode[g] = layout.dataNodes().get(layout.indexOf(group.get(0)));
        }
        return rebuilt(table, groups, specs, dataNode, target);
    }

    /**
     * {@code table} with every partition whose codes of some dimension are narrower than its grown dictionary needs
     * (an append past 256 or 65,536 values of a column) rewritten at the dictionary's width, on its data node (the
     * first data node when its node is no longer one), deleted rows dropped; or {@code table} itself when none is.
     * Queries read one code width per column, so an append that widens a dictionary must widen the placed rows too.
     */
    public static FactTable widen(FactTable table, PlacementTarget target) {
        List<List<Partition>> groups = new ArrayList<>();
        for (Partition p : table.partitions()) {
            if (narrower(table, p)) {
                groups.add(List.of(p));
            }
        }
        if (groups.isEmpty()) {
            return table;
        }
        TableBuilder.NodeLayout layout = target.layout();
        List<TableBuilder.PartitionSpec> specs = new ArrayList<>();
        int[] dataNode = new int[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            Partition p = groups.get(g).get(0);
            specs.add(new TableBuilder.PartitionSpec(p.label() + " (codes widened)", table.liveRows(p)));
            int d = layout.indexOf(p);
            dataNode[g] = layout.dataNodes().get(Math.max(0, d));
        }
        return rebuilt(table, groups, specs, dataNode, target);
    }

    private static boolean narrower(FactTable table, Partition p) {
        for (int c = 0; c < table.schema().size(); c++) {
            if (table.schema().column(c).isDimension() && p.width(c) != table.dictionaries()[c].width()) {
                return true;
            }
        }
        return false;
    }

    /** {@code table} with each of {@code groups} replaced by one partition of its live rows, per {@code specs}. */
    private static FactTable rebuilt(
            FactTable table,
            List<List<Partition>> groups,
            List<TableBuilder.PartitionSpec> specs,
            int[] dataNode,
            PlacementTarget target) {
        List<Partition> merged = TableBuilder.buildPartitions(
                table.schema(),
                table.dictionaries(),
                table.nullBits(),
                specs,
                dataNode,
                table.maxPartitionId() + 1,
                target,
                (i, w) -> copy(table, groups.get(i), w));
        java.util.Set<Partition> gone = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        groups.forEach(gone::addAll);
        List<Partition> all = new ArrayList<>();
        for (Partition p : table.partitions()) {
            if (!gone.contains(p)) {
                all.add(p);
            }
        }
        all.addAll(merged);
        return table.successor(table.dictionaries(), table.nullBits(), all);
    }

    /** Per data node with at least {@link #FAN_IN} small partitions, those partitions (their rows fit one partition). */
    private static List<List<Partition>> mergeGroups(FactTable table, TableBuilder.NodeLayout layout) {
        List<List<Partition>> byNode = new ArrayList<>();
        for (int i = 0; i < layout.dataNodes().size(); i++) {
            byNode.add(new ArrayList<>());
        }
        for (Partition p : table.partitions()) {
            int d = layout.indexOf(p);
            if (d >= 0 && p.rows() < SMALL_ROWS) {
                byNode.get(d).add(p);
            }
        }
        List<List<Partition>> groups = new ArrayList<>();
        java.util.Set<Partition> grouped = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (List<Partition> small : byNode) {
            if (small.size() >= FAN_IN) {
                groups.add(small);
                grouped.addAll(small);
            }
        }
        for (Partition p : table.partitions()) {
            if (!grouped.contains(p)
                    && layout.indexOf(p) >= 0
                    && table.deleted().count(p.id()) * 4L > p.rows()) {
                groups.add(List.of(p));
            }
        }
        return groups;
    }

    private static void copy(FactTable table, List<Partition> from, PartitionWriter w) {
        TableSchema schema = table.schema();
        int at = 0;
        for (Partition p : from) {
            long[] deleted = table.deleted().of(p.id());
            for (int c = 0; c < schema.size(); c++) {
                if (deleted == null) {
                    copyColumn(schema, c, p, at, w);
                } else {
                    copyLiveRows(schema, c, p, deleted, at, w);
                }
            }
            at += table.liveRows(p);
        }
    }

    /** Column {@code c} of the rows of {@code p} that are not {@code deleted}, from row {@code at} of the writer on. */
    private static void copyLiveRows(
            TableSchema schema, int c, Partition p, long[] deleted, int at, PartitionWriter w) {
        boolean dimension = schema.column(c).isDimension();
        boolean dbl = schema.column(c).type() == io.numacube.engine.schema.ColumnType.DOUBLE;
        int to = at;
        for (int r = 0; r < p.rows(); r++) {
            if (DeletedRows.isSet(deleted, r)) {
                continue;
            }
            if (dimension) {
                w.code(c, to, p.code(c, r));
            } else if (dbl) {
                w.doubleValue(c, to, p.doubleValue(c, r));
            } else {
                w.longValue(c, to, p.longValue(c, r));
            }
            if (!dimension && p.isNull(c, r)) {
                w.setNull(c, to);
            }
            to++;
        }
    }

    private static void copyColumn(TableSchema schema, int c, Partition p, int at, PartitionWriter w) {
        int rows = p.rows();
        if (schema.column(c).isDimension()) {
            if (p.width(c) == w.width(c)) {
                long bytes = w.width(c).bytes();
                MemorySegment.copy(p.column(c), 0, w.column(c), at * bytes, rows * bytes);
            } else {
                for (int r = 0; r < rows; r++) {
                    w.code(c, at + r, p.code(c, r));
                }
            }
            return;
        }
        MemorySegment.copy(p.column(c), 0, w.column(c), at * 8L, rows * 8L);
        if (p.nulls(c) != null) {
            for (int r = 0; r < rows; r++) {
                if (p.isNull(c, r)) {
                    w.setNull(c, at + r);
                }
            }
        }
    }
}
