package io.numacube.engine.storage;

import java.lang.foreign.MemorySegment;

/**
 * Writes the rows of one partition while it is being filled. Owned by the one worker that fills the partition; not
 * thread-safe. Every row of every column must be written.
 */
public final class PartitionWriter {

    private final Partition partition;

    PartitionWriter(Partition partition) {
        this.partition = partition;
    }

    public int rows() {
        return partition.rows();
    }

    public int partitionId() {
        return partition.id();
    }

    public void code(int column, int row, int code) {
        MemorySegment s = partition.column(column);
        switch (partition.width(column)) {
            case BYTE -> s.setAtIndex(Partition.BYTE, row, (byte) code);
            case SHORT -> s.setAtIndex(Partition.SHORT, row, (short) code);
            case INT -> s.setAtIndex(Partition.INT, row, code);
        }
    }

    /**
     * Writes {@code n} codes of dimension {@code column}, {@code codes[0..n)}, into rows {@code [row, row + n)}:
     * narrowed on the heap to the column's width, then one bulk copy into the block.
     */
    public void codes(int column, int row, int[] codes, int n) {
        MemorySegment s = partition.column(column);
        switch (partition.width(column)) {
            case BYTE -> {
                byte[] b = new byte[n];
                for (int i = 0; i < n; i++) {
                    b[i] = (byte) codes[i];
                }
                MemorySegment.copy(b, 0, s, Partition.BYTE, row, n);
            }
            case SHORT -> {
                short[] h = new short[n];
                for (int i = 0; i < n; i++) {
                    h[i] = (short) codes[i];
                }
                MemorySegment.copy(h, 0, s, Partition.SHORT, (long) row * 2, n);
            }
            case INT -> MemorySegment.copy(codes, 0, s, Partition.INT, (long) row * 4, n);
        }
    }

    /** Writes {@code values[from..from + n)} into rows {@code [row, row + n)} of LONG or TIMESTAMP column {@code column}. */
    public void longValues(int column, int row, long[] values, int from, int n) {
        MemorySegment.copy(values, from, partition.column(column), Partition.LONG, (long) row * 8, n);
    }

    /** Writes {@code values[from..from + n)} into rows {@code [row, row + n)} of DOUBLE column {@code column}. */
    public void doubleValues(int column, int row, double[] values, int from, int n) {
        MemorySegment.copy(values, from, partition.column(column), Partition.DOUBLE, (long) row * 8, n);
    }

    public void doubleValue(int column, int row, double v) {
        partition.column(column).setAtIndex(Partition.DOUBLE, row, v);
    }

    public void longValue(int column, int row, long v) {
        partition.column(column).setAtIndex(Partition.LONG, row, v);
    }

    /**
     * Sets measure column {@code column} NULL in {@code row} and its value 0 (the fused sums add it as it is); the table
     * must allow NULL there. Call it after any value written to that row.
     */
    public void setNull(int column, int row) {
        MemorySegment bits = partition.nullBitsForWriting(column);
        if (bits == null) {
            throw new io.numacube.numa.base.NumacubeException(
                    io.numacube.numa.base.NumacubeException.Kind.INTERNAL,
                    "NULL in a column built without null bits: column=" + column);
        }
        long word = row >>> 6;
        bits.setAtIndex(Partition.LONG, word, bits.getAtIndex(Partition.LONG, word) | (1L << row));
        partition.column(column).setAtIndex(Partition.LONG, row, 0L);
    }

    /** The null bits of a nullable measure column, for bulk copies; null when the column cannot hold NULL. */
    public MemorySegment nullBits(int column) {
        return partition.nullBitsForWriting(column);
    }

    /** Raw access for bulk writers. */
    public MemorySegment column(int column) {
        return partition.column(column);
    }

    public CodeWidth width(int column) {
        return partition.width(column);
    }
}
