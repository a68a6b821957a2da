package io.numacube.engine.storage;

import io.numacube.engine.workers.ThreadWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.memory.PlacementRequest;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;

/**
 * Moves a partition to another node by copy: a new block is allocated (and its pages faulted in) by a worker of the
 * target's filler node, placed as the request asks (mbind, or first touch by that pinned worker where mbind is
 * refused, as a load places it), the bytes are copied in chunks of {@value #CHUNK_BYTES} bytes, and the copy becomes
 * a new {@link Partition} with the same id, rows and zone maps. Works wherever loads work, a container's default
 * seccomp profile included (no move_pages or MPOL_MF_MOVE). The original is left as it is: the caller publishes the
 * copy in the table's next version and the original is freed with the last version holding it. Stateless.
 */
public final class PartitionMover {

    /** Bytes copied between two calls of the pacing callback. */
    public static final long CHUNK_BYTES = 4L << 20;

    private PartitionMover() {}

    /**
     * A copy of {@code p} on {@code memoryNode}, read first by {@code homeNode}'s workers.
     *
     * @param fillerNode the worker node that allocates and faults the copy in (the target's filler)
     * @param pace       called on the calling thread with the bytes of each chunk copied; may sleep to rate-limit
     */
    public static Partition copy(
            Partition p,
            int homeNode,
            int memoryNode,
            int fillerNode,
            ColumnMemory memory,
            WorkerPool pool,
            LongConsumer pace) {
        long bytes = p.byteSize();
        // bound to the target like a load's NODE_LOCAL partition (first touch by the filler where mbind is refused)
        PlacementRequest request = PlacementRequest.bind(memoryNode);
        CompletableFuture<NativeBlock> allocated = pool.submit(fillerNode, () -> memory.allocate(bytes, request));
        ThreadWorkerPool.awaitAll(List.of(allocated));
        NativeBlock block = allocated.join();
        try {
            MemorySegment from = p.block().segment();
            MemorySegment to = block.segment();
            for (long at = 0; at < bytes; at += CHUNK_BYTES) {
                long n = Math.min(CHUNK_BYTES, bytes - at);
                MemorySegment.copy(from, at, to, at, n);
                pace.accept(n);
            }
            return p.copiedTo(block, homeNode, memoryNode);
        } catch (RuntimeException | Error e) {
            block.close();
            throw e;
        }
    }
}
