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

    @Override
    public Moved moveInPlace(NativeBlock block, int node, long chunkBytes, java.util.function.LongConsumer pace) {
        if (!(block instanceof PlacedBlock pb)) {
            return Moved.refused("not a block of this memory: " + block);
        }
        java.util.Optional<String> refusal = memory.moveInPlace(pb.seg, node, chunkBytes, pace);
        return refusal.map(Moved::refused).orElseGet(() -> new Moved(new PlacedBlock(pb.seg, node), null));
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

    /**
     * A block of placed memory; {@code movedTo} is the node it was moved to in place, or -1 when it is where it was
     * placed.
     */
    private record PlacedBlock(PlacedSegment seg, int movedTo) implements NativeBlock {

        PlacedBlock(PlacedSegment seg) {
            this(seg, -1);
        }

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
            if (movedTo >= 0) {
                return "BIND node=" + movedTo + " (moved in place by mbind MPOL_MF_MOVE)";
            }
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
