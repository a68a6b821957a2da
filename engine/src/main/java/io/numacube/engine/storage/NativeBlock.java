package io.numacube.engine.storage;

import java.lang.foreign.MemorySegment;

/**
 * One off-heap allocation holding a partition's columns. The owner (the {@link Partition}) closes it exactly once;
 * after {@link #close()} the segment must not be touched. {@link #segment()} may be read by any thread once the block
 * has been published by the thread that filled it.
 */
public interface NativeBlock extends AutoCloseable {

    MemorySegment segment();

    long byteSize();

    /** The address of the first byte (readable after close, for checks that the mapping is gone). */
    default long address() {
        return segment().address();
    }

    /** How the block was actually placed, in words (e.g. {@code bind node=1}, {@code first-touch node=0}). */
    String placementApplied();

    @Override
    void close();
}
