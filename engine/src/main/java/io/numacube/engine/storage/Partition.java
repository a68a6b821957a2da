package io.numacube.engine.storage;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One partition of a fact table: {@code rows} rows of every column in one off-heap {@link NativeBlock}, column after
 * column, each column starting on a 64-byte boundary:
 *
 * <pre>
 *  block: | col 0: rows × width(0) | pad | col 1: rows × width(1) | pad | ...
 *  dimension columns: unsigned codes of {@link CodeWidth} bytes; measures: 8-byte double or long
 *  then, for each measure column that may hold NULL: | null bits: ceil(rows / 64) longs | pad |
 * </pre>
 *
 * A dimension's NULL is a dictionary code; a measure's NULL is a set bit (bit {@code r & 63} of long {@code r >>> 6})
 * and a 0 in the column. Also holds per-morsel zone maps (min and max code of every dimension per {@code morselRows}
 * rows) and, per measure column, which morsels hold a NULL: a partition or morsel without NULLs in a column reports
 * none ({@link #nulls} is null, {@link #morselHasNulls} false), so kernels for null-free data stay as they are.
 *
 * <p>Life cycle: created and filled by one worker (the writer), then published to readers by the table builder
 * (happens-before via the future that completes the fill); read-only afterwards. Held by every version of its table
 * that lists it: created with one reference (its first table's), {@link #retain retained} by each later version that
 * keeps it (rows appended to a table leave its partitions as they are); each {@link #close} gives one back and the
 * last frees the block. A partition {@link #movedInPlace moved in place} and the one it was made from are two views of
 * one block and share one reference count.
 */
public final class Partition implements AutoCloseable {

    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private final int id;
    private final String label;
    private final int homeNode;
    private final int memoryNode;
    private final int rows;
    private final int morselRows;
    private final NativeBlock block;
    private final MemorySegment[] columns;
    private final CodeWidth[] widths;
    private final int[][] zoneMin;
    private final int[][] zoneMax;
    private final long[][] presentCodes;
    private final MemorySegment[] nullBits;
    private final boolean[][] morselNulls;
    private final java.util.concurrent.atomic.AtomicInteger references;

    Partition(
            int id,
            String label,
            int homeNode,
            int memoryNode,
            int rows,
            int morselRows,
            TableSchema schema,
            CodeWidth[] widths,
            boolean[] nullable,
            NativeBlock block) {
        this.id = id;
        this.label = label;
        this.homeNode = homeNode;
        this.memoryNode = memoryNode;
        this.rows = rows;
        this.morselRows = morselRows;
        this.block = block;
        this.references = new java.util.concurrent.atomic.AtomicInteger(1);
        this.widths = widths;
        this.columns = new MemorySegment[schema.size()];
        this.nullBits = new MemorySegment[schema.size()];
        this.morselNulls = new boolean[schema.size()][];
        long offset = 0;
        for (int c = 0; c < schema.size(); c++) {
            long bytes = (long) rows * columnWidth(schema.column(c).type(), widths[c]);
            columns[c] = block.segment().asSlice(offset, bytes);
            offset = align64(offset + bytes);
        }
        for (int c = 0; c < schema.size(); c++) {
            if (hasNullBits(schema, nullable, c)) {
                nullBits[c] = block.segment().asSlice(offset, nullBitBytes(rows));
                nullBits[c].fill((byte) 0);
                offset = align64(offset + nullBitBytes(rows));
            }
        }
        int morsels = morselCount();
        this.zoneMin = new int[schema.size()][];
        this.zoneMax = new int[schema.size()][];
        this.presentCodes = new long[schema.size()][];
        for (int c = 0; c < schema.size(); c++) {
            if (schema.column(c).isDimension()) {
                zoneMin[c] = new int[morsels];
                zoneMax[c] = new int[morsels];
                if (widths[c] != CodeWidth.INT) {
                    presentCodes[c] = new long[widths[c] == CodeWidth.BYTE ? 4 : 1024];
                }
            }
        }
    }

    /**
     * The same partition in another block: {@code block} holds a byte-for-byte copy of {@code from}'s block (the
     * caller copied it), so the columns and null bits are slices at the same offsets; zone maps, present codes and
     * NULL flags are shared (never modified after the fill). Same id, label, rows and morsels: scans and deleted rows
     * (keyed by id) see the same rows, and a query's answer does not depend on which copy it read.
     */
    private Partition(Partition from, int homeNode, int memoryNode, NativeBlock block) {
        this(from, homeNode, memoryNode, block, new java.util.concurrent.atomic.AtomicInteger(1));
    }

    private Partition(
            Partition from,
            int homeNode,
            int memoryNode,
            NativeBlock block,
            java.util.concurrent.atomic.AtomicInteger references) {
        this.references = references;
        this.id = from.id;
        this.label = from.label;
        this.homeNode = homeNode;
        this.memoryNode = memoryNode;
        this.rows = from.rows;
        this.morselRows = from.morselRows;
        this.block = block;
        this.widths = from.widths;
        this.columns = new MemorySegment[from.columns.length];
        this.nullBits = new MemorySegment[from.nullBits.length];
        long base = from.block.segment().address();
        for (int c = 0; c < columns.length; c++) {
            columns[c] = block.segment().asSlice(from.columns[c].address() - base, from.columns[c].byteSize());
            if (from.nullBits[c] != null) {
                nullBits[c] = block.segment().asSlice(from.nullBits[c].address() - base, from.nullBits[c].byteSize());
            }
        }
        this.zoneMin = from.zoneMin;
        this.zoneMax = from.zoneMax;
        this.presentCodes = from.presentCodes;
        this.morselNulls = from.morselNulls;
    }

    /**
     * This partition in {@code block}, which must hold a copy of this block's bytes (at least as many), with a new
     * home and memory node; the new partition owns {@code block} and has one reference. This partition is unchanged.
     */
    Partition copiedTo(NativeBlock block, int homeNode, int memoryNode) {
        if (block.byteSize() < this.block.byteSize()) {
            throw new IllegalArgumentException("the copy's block is smaller than the partition's: partition=" + label
                    + " bytes=" + this.block.byteSize() + " copyBytes=" + block.byteSize());
        }
        return new Partition(this, homeNode, memoryNode, block);
    }

    /**
     * This partition said to be on {@code memoryNode}, read first by {@code homeNode}'s workers, once its memory was
     * moved there in place: {@code sameMemory} is this block's memory (as {@link ColumnMemory#moveInPlace} returned
     * it), so the columns are the same bytes at the same addresses. The two partitions share one reference count:
     * the new one adds a reference for the version that will hold it, and the memory is freed when the last holder of
     * either gives its reference back (by closing {@code sameMemory} or this block: one frees both). This partition is
     * unchanged and stays readable while any version holds it.
     */
    Partition movedInPlace(NativeBlock sameMemory, int homeNode, int memoryNode) {
        if (sameMemory.address() != block.address() || sameMemory.byteSize() != block.byteSize()) {
            throw new IllegalArgumentException("not this partition's memory: partition=" + label + " address="
                    + block.address() + " bytes=" + block.byteSize() + " other=" + sameMemory.address() + "/"
                    + sameMemory.byteSize());
        }
        retain();
        return new Partition(this, homeNode, memoryNode, sameMemory, references);
    }

    static int columnWidth(ColumnType type, CodeWidth width) {
        return type.isDimension() ? width.bytes() : 8;
    }

    static boolean hasNullBits(TableSchema schema, boolean[] nullable, int c) {
        return nullable != null && nullable[c] && !schema.column(c).isDimension();
    }

    static long nullBitBytes(int rows) {
        return ((rows + 63L) >>> 6) * 8;
    }

    static long align64(long x) {
        return (x + 63) & ~63L;
    }

    /** The bytes a partition of this many rows needs. */
    static long blockBytes(TableSchema schema, CodeWidth[] widths, boolean[] nullable, int rows) {
        long offset = 0;
        for (int c = 0; c < schema.size(); c++) {
            offset = align64(offset + (long) rows * columnWidth(schema.column(c).type(), widths[c]));
        }
        for (int c = 0; c < schema.size(); c++) {
            if (hasNullBits(schema, nullable, c)) {
                offset = align64(offset + nullBitBytes(rows));
            }
        }
        return Math.max(offset, 64);
    }

    public int id() {
        return id;
    }

    /** What the partition holds, e.g. {@code desk=DESK-07} or {@code rows 0..999999}. */
    public String label() {
        return label;
    }

    /** The node whose workers process this partition's morsels first. */
    public int homeNode() {
        return homeNode;
    }

    /** The node its memory was asked on, or -1 (interleaved or OS default). */
    public int memoryNode() {
        return memoryNode;
    }

    public int rows() {
        return rows;
    }

    public int morselRows() {
        return morselRows;
    }

    public int morselCount() {
        return (rows + morselRows - 1) / morselRows;
    }

    public long byteSize() {
        return block.byteSize();
    }

    public NativeBlock block() {
        return block;
    }

    /** The whole column (all rows); dimension codes are unsigned of {@link #width(int)} bytes. */
    public MemorySegment column(int c) {
        return columns[c];
    }

    public CodeWidth width(int c) {
        return widths[c];
    }

    public int zoneMin(int column, int morsel) {
        return zoneMin[column][morsel];
    }

    /**
     * The codes of a BYTE or SHORT dimension column that occur in this partition, as a bit set ({@code code >>> 6}
     * selects the word); null for INT-width columns and measures. Lets a query skip a whole partition (partition
     * pruning, e.g. a partition by desk holds only its desks). Do not modify.
     */
    public long[] presentCodes(int column) {
        return presentCodes[column];
    }

    public int zoneMax(int column, int morsel) {
        return zoneMax[column][morsel];
    }

    /** Reads one code (slow path for tests and tools; kernels read segments directly). */
    public int code(int c, int row) {
        return switch (widths[c]) {
            case BYTE -> columns[c].getAtIndex(BYTE, row) & 0xFF;
            case SHORT -> columns[c].getAtIndex(SHORT, row) & 0xFFFF;
            case INT -> columns[c].getAtIndex(INT, row);
        };
    }

    /**
     * The null bits of measure column {@code c} (bit {@code r & 63} of long {@code r >>> 6} set for a NULL in row r),
     * or null when no row of this partition holds NULL in it. Do not modify.
     */
    public MemorySegment nulls(int c) {
        return nullBits[c] != null && morselNulls[c] != null ? nullBits[c] : null;
    }

    /** Whether morsel {@code m} holds a NULL in measure column {@code c}. */
    public boolean morselHasNulls(int c, int m) {
        return morselNulls[c] != null && morselNulls[c][m];
    }

    /** Whether measure column {@code c} is NULL in {@code row} (slow path; dimensions use their NULL code). */
    public boolean isNull(int c, int row) {
        return nullBits[c] != null && isSet(nullBits[c], row);
    }

    /** Bit {@code row} of a null-bit segment. */
    public static boolean isSet(MemorySegment bits, long row) {
        return (bits.getAtIndex(LONG, row >>> 6) & (1L << row)) != 0;
    }

    /** The writer's access to the null bits of measure column {@code c}, or null when it cannot hold NULL. */
    MemorySegment nullBitsForWriting(int c) {
        return nullBits[c];
    }

    public double doubleValue(int c, int row) {
        return columns[c].getAtIndex(DOUBLE, row);
    }

    public long longValue(int c, int row) {
        return columns[c].getAtIndex(LONG, row);
    }

    void computeZoneMaps() {
        computeMorselNulls();
        int[] codes = new int[Math.min(rows, morselRows)];
        for (int c = 0; c < columns.length; c++) {
            if (zoneMin[c] == null) {
                continue;
            }
            long[] bits = presentCodes[c];
            for (int m = 0; m < zoneMin[c].length; m++) {
                int from = m * morselRows;
                int n = Math.min(rows, from + morselRows) - from;
                readCodes(c, from, n, codes);
                int min = Integer.MAX_VALUE;
                int max = Integer.MIN_VALUE;
                for (int i = 0; i < n; i++) {
                    min = Math.min(min, codes[i]);
                    max = Math.max(max, codes[i]);
                }
                zoneMin[c][m] = min;
                zoneMax[c][m] = max;
                if (bits != null) {
                    for (int i = 0; i < n; i++) {
                        bits[codes[i] >>> 6] |= 1L << codes[i];
                    }
                }
            }
        }
    }

    /**
     * Copies the codes of rows {@code [from, from + n)} of dimension {@code c} into {@code out}, unsigned: one bulk
     * copy out of the block, then plain array loops (faster than reading the segment code by code).
     */
    private void readCodes(int c, int from, int n, int[] out) {
        MemorySegment col = columns[c];
        switch (widths[c]) {
            case BYTE -> {
                byte[] b = new byte[n];
                MemorySegment.copy(col, BYTE, from, b, 0, n);
                for (int i = 0; i < n; i++) {
                    out[i] = b[i] & 0xFF;
                }
            }
            case SHORT -> {
                short[] s = new short[n];
                MemorySegment.copy(col, SHORT, (long) from * 2, s, 0, n);
                for (int i = 0; i < n; i++) {
                    out[i] = s[i] & 0xFFFF;
                }
            }
            case INT -> MemorySegment.copy(col, INT, (long) from * 4, out, 0, n);
        }
    }

    /** Marks the morsels with a NULL per nullable measure column; a column without any keeps none. */
    private void computeMorselNulls() {
        for (int c = 0; c < columns.length; c++) {
            if (nullBits[c] == null) {
                continue;
            }
            boolean[] flags = new boolean[morselCount()];
            boolean any = false;
            long words = nullBitBytes(rows) / 8;
            for (long w = 0; w < words; w++) {
                if (nullBits[c].getAtIndex(LONG, w) != 0) {
                    long firstRow = w << 6;
                    long bits = nullBits[c].getAtIndex(LONG, w);
                    while (bits != 0) {
                        flags[(int) ((firstRow + Long.numberOfTrailingZeros(bits)) / morselRows)] = true;
                        bits &= bits - 1;
                    }
                    any = true;
                }
            }
            morselNulls[c] = any ? flags : null;
        }
    }

    /** Adds a holder: a new version of the table that keeps this partition. */
    public void retain() {
        if (references.getAndIncrement() <= 0) {
            throw new IllegalStateException("partition already freed: " + label);
        }
    }

    /** Gives back one holder's reference; the last frees the block. */
    @Override
    public void close() {
        if (references.decrementAndGet() == 0) {
            block.close();
        }
    }
}
