package io.numacube.engine.storage;

import io.numacube.numa.memory.PlacementRequest;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.LongConsumer;

/**
 * Moves a partition to another node by copy, on a platform thread of its own ({@code numacube-move-n<node>}) pinned
 * to the CPUs that fill the target node ({@link ColumnMemory#pinCurrentThreadNear}), never as a task queued behind
 * the query morsels of the node's workers: a new block is allocated and its pages faulted in there, placed as the
 * request asks (mbind, or first touch where mbind is refused, as a load places it), the bytes are copied in chunks of
 * {@value #CHUNK_BYTES} bytes, and the copy becomes a new {@link Partition} with the same id, rows and zone maps.
 * Works wherever loads work, a container's default seccomp profile included (no move_pages or MPOL_MF_MOVE). The
 * original is left as it is: the caller publishes the copy in the table's next version and the original is freed
 * with the last version holding it. Stateless.
 */
public final class PartitionMover {

    private static final System.Logger LOG = System.getLogger(PartitionMover.class.getName());

    /** Bytes copied between two calls of the pacing callback. */
    public static final long CHUNK_BYTES = 4L << 20;

    private PartitionMover() {}

    /**
     * A copy of {@code p} on {@code memoryNode}, read first by {@code homeNode}'s workers; returns once the copy is
     * made (the caller waits, interrupts included, for the mover thread).
     *
     * @param pace called on the mover thread with the bytes of each chunk copied; may sleep to rate-limit, or throw to
     *             stop the move (the copy is then freed and the exception rethrown here)
     */
    public static Partition copy(Partition p, int homeNode, int memoryNode, ColumnMemory memory, LongConsumer pace) {
        FutureTask<Partition> move = new FutureTask<>(() -> {
            memory.pinCurrentThreadNear(memoryNode)
                    .ifPresent(why -> LOG.log(System.Logger.Level.DEBUG, "partition move not pinned: {0}", why));
            return copyHere(p, homeNode, memoryNode, memory, pace);
        });
        Thread.ofPlatform().daemon().name("numacube-move-n" + memoryNode).start(move);
        try {
            return io.numacube.numa.base.Uninterruptibly.await(move::get);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("partition move failed: " + e.getCause(), e.getCause());
        }
    }

    private static Partition copyHere(
            Partition p, int homeNode, int memoryNode, ColumnMemory memory, LongConsumer pace) {
        long bytes = p.byteSize();
        // bound to the target like a load's NODE_LOCAL partition (first touch by this pinned thread where mbind is
        // refused)
        NativeBlock block = memory.allocate(bytes, PlacementRequest.bind(memoryNode));
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
