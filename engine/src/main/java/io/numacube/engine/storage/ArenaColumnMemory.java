package io.numacube.engine.storage;

import io.numacube.numa.memory.PlacementRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.OptionalDouble;

/**
 * Plain-Java column memory: one shared {@link Arena} per block, ignoring the placement request (the pages land on the
 * node of the thread that zero-fills them, i.e. the allocating worker). Thread-safe.
 */
public final class ArenaColumnMemory implements ColumnMemory {

    private final java.util.concurrent.atomic.AtomicLong live = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public NativeBlock allocate(long bytes, PlacementRequest request) {
        Arena arena = Arena.ofShared();
        MemorySegment seg;
        try {
            seg = arena.allocate(Math.max(bytes, 1), 64);
        } catch (OutOfMemoryError e) {
            arena.close();
            throw new io.numacube.numa.base.NumacubeException(
                    io.numacube.numa.base.NumacubeException.Kind.OUT_OF_MEMORY,
                    "off-heap allocation failed: bytes=" + bytes + " — load fewer rows",
                    e);
        }
        live.addAndGet(seg.byteSize());
        return new ArenaBlock(arena, seg, seg.byteSize(), live);
    }

    @Override
    public OptionalDouble fractionOnNode(NativeBlock block, int node) {
        return OptionalDouble.empty();
    }

    @Override
    public long liveBytes() {
        return live.get();
    }

    @Override
    public String describe() {
        return "memory=arena (plain Java, pages placed by first touch of the allocating worker)";
    }

    @Override
    public void close() {}

    private record ArenaBlock(
            Arena arena, MemorySegment segment, long byteSize, java.util.concurrent.atomic.AtomicLong live)
            implements NativeBlock {
        @Override
        public String placementApplied() {
            return "arena";
        }

        @Override
        public void close() {
            if (arena.scope().isAlive()) {
                arena.close();
                live.addAndGet(-byteSize);
            }
        }
    }
}
