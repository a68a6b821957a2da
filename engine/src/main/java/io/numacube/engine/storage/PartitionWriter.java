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

    public void doubleValue(int column, int row, double v) {
        partition.column(column).setAtIndex(Partition.DOUBLE, row, v);
    }

    public void longValue(int column, int row, long v) {
        partition.column(column).setAtIndex(Partition.LONG, row, v);
    }

    /** Raw access for bulk writers. */
    public MemorySegment column(int column) {
        return partition.column(column);
    }

    public CodeWidth width(int column) {
        return partition.width(column);
    }
}
