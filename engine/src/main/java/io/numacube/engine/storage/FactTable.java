package io.numacube.engine.storage;

import io.numacube.engine.schema.TableSchema;
import java.util.List;

/**
 * A loaded fact table, or one version of it: schema, one dictionary per dimension column (null for measures), and
 * partitions. Immutable and safe to read from many threads. Rows appended to a table make its {@link #successor}: the
 * same partitions (shared, each {@link Partition#retain retained}) plus new ones, with dictionaries grown from these
 * (old codes unchanged). {@link #close()} gives back this version's partitions (a partition is freed when no version
 * holds it) and frees its query-time codes; it must only be called when no query reads this version any more (the
 * {@code Cube} guarantees that).
 *
 * @param schema       the columns
 * @param dictionaries per column, the dictionary of a dimension, null for a measure
 * @param partitions   the partitions, ids unique and ascending (dense from 0 when loaded; gaps after compaction)
 * @param partitioning how rows were cut, e.g. {@code by desk} or {@code by rows}
 * @param placement    the placement mode the partitions were placed with
 * @param memory       the memory the blocks came from (for page verification)
 * @param nullBits     per column, whether a measure column has null bits (may hold NULL); null when none has
 * @param coded        the query-time dictionaries of plain columns, built on first use: column index {@code
 *                     schema.size() + c} stands for the codes of plain column {@code c} ({@link #codedIndex}), and
 *                     index {@code 2 * schema.size() + k} for composite {@code k} ({@link #compositeIndex})
 * @param deleted      the rows of the partitions that this version no longer holds (a DELETE, an upsert's replaced
 *                     rows): every scan skips them
 */
public record FactTable(
        TableSchema schema,
        Dictionary[] dictionaries,
        List<Partition> partitions,
        String partitioning,
        Placement placement,
        ColumnMemory memory,
        boolean[] nullBits,
        CodedColumns coded,
        DeletedRows deleted)
        implements AutoCloseable {

    public FactTable {
        partitions = List.copyOf(partitions);
    }

    /** Whether column {@code c} may hold NULL: a dimension with a NULL code, a measure with null bits. */
    public boolean mayBeNull(int c) {
        if (schema.column(c).isDimension()) {
            return dictionaries[c].nullCode() >= 0;
        }
        return nullBits != null && nullBits[c];
    }

    /**
     * The next version of this table: {@code partitions} (those of this table among them are retained, the others are
     * handed over), grown {@code dictionaries} (each extends this table's) and null bits; new query-time codes.
     */
    public FactTable successor(Dictionary[] dictionaries, boolean[] nullBits, List<Partition> partitions) {
        java.util.Set<Integer> ids = new java.util.HashSet<>();
        partitions.forEach(p -> ids.add(p.id()));
        return successor(dictionaries, nullBits, partitions, deleted.retain(ids));
    }

    /** The next version of this table: the same partitions and dictionaries, with {@code deleted} rows gone. */
    public FactTable withDeleted(DeletedRows deleted) {
        return successor(dictionaries, nullBits, partitions, deleted);
    }

    private FactTable successor(
            Dictionary[] dictionaries, boolean[] nullBits, List<Partition> partitions, DeletedRows deleted) {
        java.util.Set<Partition> mine = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        mine.addAll(this.partitions);
        for (Partition p : partitions) {
            if (mine.contains(p)) {
                p.retain();
            }
        }
        return new FactTable(
                schema,
                dictionaries,
                partitions,
                partitioning,
                placement,
                memory,
                nullBits,
                new CodedColumns(),
                deleted);
    }

    /** Rows of {@code p} this version holds: its rows but the deleted ones. */
    public int liveRows(Partition p) {
        return p.rows() - deleted.count(p.id());
    }

    /** The largest partition id, -1 when there is none. */
    public int maxPartitionId() {
        int max = -1;
        for (Partition p : partitions) {
            max = Math.max(max, p.id());
        }
        return max;
    }

    /** Rows this version holds (deleted rows not counted). */
    public long rowCount() {
        long n = 0;
        for (Partition p : partitions) {
            n += p.rows();
        }
        return n - deleted.total();
    }

    /** Bytes of the partitions' blocks and of the query-time codes built so far. */
    public long byteSize() {
        long n = coded.byteSize();
        for (Partition p : partitions) {
            n += p.byteSize();
        }
        return n;
    }

    /** The dictionary of a dimension, null for a measure; for a {@link #codedIndex}, the plain column's codes'. */
    public Dictionary dictionary(int column) {
        int n = schema.size();
        return column < n ? dictionaries[column] : coded.of(this, column - n).dictionary();
    }

    /** The code of row {@code row} of {@code p} in dimension {@code column} or {@link #codedIndex} (slow path). */
    public int code(Partition p, int column, int row) {
        int n = schema.size();
        return column < n ? p.code(column, row) : coded.of(this, column - n).code(p.id(), row);
    }

    /** The column index that stands for the codes of plain column {@code column} (coded on first use). */
    public int codedIndex(int column) {
        return schema.size() + column;
    }

    /** Whether {@code index} stands for codes built at query time: a {@link #codedIndex} or a {@link #compositeIndex}. */
    public boolean isCodedIndex(int index) {
        return index >= schema.size();
    }

    /**
     * The column index that stands for the pairs of codes of slots {@code first} and {@code second} (a dimension, a
     * {@link #codedIndex} or another composite index), coded on first use ({@link CodedColumns.Composite}): a join on
     * a two-column key hangs from it as a one-column join hangs from a column. Numbered on first asking, the same for
     * every later query.
     */
    public int compositeIndex(int first, int second) {
        return 2 * schema.size() + coded.composite(first, second);
    }

    /** The two slots composite index {@code index} combines, or null when it is no {@link #compositeIndex}. */
    public CodedColumns.Composite compositeParts(int index) {
        int c = index - 2 * schema.size();
        return c < 0 ? null : coded.composite(c);
    }

    /**
     * For code {@code code} of composite index {@code index}, the code of its first ({@code part == 0}) or second
     * ({@code part == 1}) slot.
     */
    public int partCode(int index, int code, int part) {
        CodedColumns.Composite parts = compositeParts(index);
        long radix = Math.max(1, dictionary(parts.second()).size());
        long value = dictionary(index).longValue(code);
        return (int) (part == 0 ? value / radix : value % radix);
    }

    /**
     * The column indexes a plan may use: the columns, their {@link #codedIndex}es, then the {@link #compositeIndex}es
     * given so far (their number only grows, so an array of this size stays large enough for indexes given before).
     */
    public int columnSlots() {
        return 2 * schema.size() + coded.composites();
    }

    /** A column slot's name for plans: the column's, a plain column's marked as coded, a composite's parts'. */
    public String slotName(int index) {
        int n = schema.size();
        if (index < n) {
            return schema.column(index).name();
        }
        if (index < 2 * n) {
            return schema.column(index - n).name() + " (coded at query time)";
        }
        CodedColumns.Composite parts = compositeParts(index);
        return "(" + slotName(parts.first()) + ", " + slotName(parts.second()) + ")";
    }

    /** Largest partition's rows divided by the mean (1.0 = perfectly even; 0 for an empty table). */
    public double skew() {
        long total = rowCount();
        if (total == 0 || partitions.isEmpty()) {
            return 0;
        }
        long max = 0;
        for (Partition p : partitions) {
            max = Math.max(max, p.rows());
        }
        return max / ((double) total / partitions.size());
    }

    @Override
    public void close() {
        coded.close();
        for (Partition p : partitions) {
            p.close();
        }
    }
}
