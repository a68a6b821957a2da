package io.numacube.engine.storage;

import io.numacube.numa.memory.PlacementRequest;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.LongConsumer;

/**
 * Moves a partition to another node, on a platform thread of its own ({@code numacube-move-n<node>}) pinned to the
 * CPUs that fill the target node ({@link ColumnMemory#pinCurrentThreadNear}), never as a task queued behind the query
 * morsels of the node's workers. {@link #move} moves the pages where they are when the kernel allows it
 * (mbind with MPOL_MF_MOVE, {@link ColumnMemory#moveInPlace}: no second copy of the partition in memory, the same
 * addresses, so queries under way read on); where it does not (a container's default seccomp profile, memory that
 * places nothing), and always for {@link #copy}, a new block is allocated and its pages faulted in there, placed as
 * the request asks (mbind, or first touch where mbind is refused, as a load places it), and the bytes are copied.
 * Either way the work goes in chunks of {@value #CHUNK_BYTES} bytes, each reported to the pacing callback, and the
 * result is a new {@link Partition} with the same id, rows and zone maps, which the caller publishes in the table's
 * next version; the original is freed with the last version holding it. Stateless.
 */
public final class PartitionMover {

    private static final System.Logger LOG = System.getLogger(PartitionMover.class.getName());

    /** Bytes moved or copied between two calls of the pacing callback. */
    public static final long CHUNK_BYTES = 4L << 20;

    private PartitionMover() {}

    /** How a partition got to its new node. */
    public enum How {
        /** Its pages were moved where they are (mbind MPOL_MF_MOVE). */
        IN_PLACE,
        /** Copied into a new block placed on the node. */
        COPIED
    }

    /**
     * A partition moved to {@code memoryNode}, and how.
     *
     * @param partition the partition on its new node
     * @param how       in place or by copy
     * @param refusal   why the move was not in place (null when it was)
     */
    public record Moved(Partition partition, How how, String refusal) {}

    /**
     * {@code p} on {@code memoryNode}, read first by {@code homeNode}'s workers: moved in place where the kernel allows
     * it, else copied ({@link #copy}); returns once it is there (the caller waits, interrupts included, for the mover
     * thread).
     *
     * @param pace called on the mover thread with the bytes of each chunk moved or copied; may sleep to rate-limit, or
     *             throw to stop the move (a copy is then freed; pages moved in place stay where they went, the same
     *             bytes) and the exception is rethrown here
     */
    public static Moved move(Partition p, int homeNode, int memoryNode, ColumnMemory memory, LongConsumer pace) {
        return onMoverThread(memoryNode, memory, () -> {
            ColumnMemory.Moved inPlace = memory.moveInPlace(p.block(), memoryNode, CHUNK_BYTES, pace);
            if (inPlace.done()) {
                return new Moved(p.movedInPlace(inPlace.block(), homeNode, memoryNode), How.IN_PLACE, null);
            }
            return new Moved(copyHere(p, homeNode, memoryNode, memory, pace), How.COPIED, inPlace.refusal());
        });
    }

    /**
     * A copy of {@code p} on {@code memoryNode}, read first by {@code homeNode}'s workers; returns once the copy is
     * made (the caller waits, interrupts included, for the mover thread).
     *
     * @param pace called on the mover thread with the bytes of each chunk copied; may sleep to rate-limit, or throw to
     *             stop the move (the copy is then freed and the exception rethrown here)
     */
    public static Partition copy(Partition p, int homeNode, int memoryNode, ColumnMemory memory, LongConsumer pace) {
        return onMoverThread(memoryNode, memory, () -> copyHere(p, homeNode, memoryNode, memory, pace));
    }

    private static <T> T onMoverThread(int memoryNode, ColumnMemory memory, java.util.concurrent.Callable<T> work) {
        FutureTask<T> move = new FutureTask<>(() -> {
            memory.pinCurrentThreadNear(memoryNode)
                    .ifPresent(why -> LOG.log(System.Logger.Level.DEBUG, "partition move not pinned: {0}", why));
            return work.call();
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
