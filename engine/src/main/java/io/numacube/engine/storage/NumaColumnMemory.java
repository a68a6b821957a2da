package io.numacube.engine.storage;

import io.numacube.numa.memory.NodeMemory;
import io.numacube.numa.memory.PlacedSegment;
import io.numacube.numa.memory.PlacementRequest;
import java.lang.foreign.MemorySegment;
import java.util.OptionalDouble;

/**
 * Column memory from the NUMA runtime's {@link NodeMemory}: mmap + mbind where allowed, else first touch by the
 * filler CPUs of the target node. {@link #allocate} faults every page in at once ({@link NodeMemory#touch}), so pages
 * land as asked even where padding is never written. Owns the {@link NodeMemory} and closes it on {@link #close()}
 * (freeing anything a caller leaked). Thread-safe.
 */
public final class NumaColumnMemory implements ColumnMemory {

    private final NodeMemory memory;
    private final String status;

    public NumaColumnMemory(NodeMemory memory, String status) {
        this.memory = memory;
        this.status = status;
    }

    @Override
    public NativeBlock allocate(long bytes, PlacementRequest request) {
        PlacedSegment seg = memory.allocate(Math.max(bytes, 1), request);
        try {
            memory.touch(seg);
        } catch (RuntimeException e) {
            seg.close();
            throw e;
        }
        return new PlacedBlock(seg);
    }

    @Override
    public OptionalDouble fractionOnNode(NativeBlock block, int node) {
        if (!(block instanceof PlacedBlock pb) || !pb.seg.isMapped()) {
            return OptionalDouble.empty();
        }
        try {
            var census = memory.census(pb.seg);
            return census.presentPages() == 0 ? OptionalDouble.empty() : OptionalDouble.of(census.fractionOn(node));
        } catch (RuntimeException e) {
            return OptionalDouble.empty();
        }
    }

    @Override
    public java.util.Optional<String> pinCurrentThreadNear(int node) {
        return memory.pinCurrentThreadToFiller(node);
    }

    /** Bytes still allocated from the runtime. */
    @Override
    public long liveBytes() {
        return memory.liveBytes();
    }

    @Override
    public String describe() {
        return "memory=numa (" + status + ")";
    }

    @Override
    public void close() {
        memory.close();
    }

    private record PlacedBlock(PlacedSegment seg) implements NativeBlock {
        @Override
        public MemorySegment segment() {
            return seg.segment();
        }

        @Override
        public long byteSize() {
            return seg.byteSize();
        }

        @Override
        public String placementApplied() {
            String s = seg.appliedMode().name() + (seg.targetNode() >= 0 ? " node=" + seg.targetNode() : "");
            return seg.fallbackReason().map(r -> s + " (fallback: " + r + ")").orElse(s);
        }

        @Override
        public long address() {
            return seg.address();
        }

        @Override
        public void close() {
            seg.close();
        }
    }
}
