package io.numacube.engine.storage;

import io.numacube.numa.memory.PlacementRequest;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Where the engine gets off-heap memory for partitions. Two implementations: {@link ArenaColumnMemory} (plain Java,
 * pages land where the allocating thread first writes them) and {@link NumaColumnMemory} (placed memory from the runtime).
 *
 * <p>{@link #allocate} is called on a thread running near the block's node (the worker that fills it, or a thread
 * {@link #pinCurrentThreadNear pinned there}), so first-touch placement is right even without mbind. Implementations
 * are thread-safe.
 */
public interface ColumnMemory extends AutoCloseable {

    /**
     * Allocates {@code bytes} (≥ 1) placed as {@code request} asks; contents are unspecified (callers write every byte
     * they read).
     */
    NativeBlock allocate(long bytes, PlacementRequest request);

    /**
     * The fraction of the block's resident pages that are on {@code node}, measured from the kernel, or empty when this
     * implementation cannot tell.
     */
    OptionalDouble fractionOnNode(NativeBlock block, int node);

    /**
     * Pins the calling thread, for good, to the CPUs that first-touch memory on {@code node}: for a thread of its own
     * that writes blocks there (a partition moved to the node). Empty when pinned, else why not (this
     * implementation places nothing, no native access, the kernel refused).
     */
    default Optional<String> pinCurrentThreadNear(int node) {
        return Optional.of(describe() + ": thread not pinned");
    }

    /**
     * Moves {@code block}'s pages to {@code node} where they are, {@code chunkBytes} at a time, calling {@code pace}
     * with the bytes of each chunk moved (it may sleep to rate-limit, or throw to stop). Readers of the block meanwhile
     * read the same bytes at the same addresses.
     *
     * @return the same memory as a block to hand to the partition that now says it is on {@code node} (closing either
     *     block frees the memory: the caller closes only one), or empty with why not (this implementation places
     *     nothing, mbind refused as in a default container, the kernel failed): nothing is lost then, the caller copies
     */
    default Moved moveInPlace(NativeBlock block, int node, long chunkBytes, java.util.function.LongConsumer pace) {
        return Moved.refused(describe() + ": no move in place");
    }

    /**
     * The outcome of {@link #moveInPlace}: the moved block, or why the memory could not be moved where it is.
     *
     * @param block   the same memory, said to be on the new node; null when refused
     * @param refusal why not; null when moved
     */
    record Moved(NativeBlock block, String refusal) {

        public static Moved refused(String why) {
            return new Moved(null, why);
        }

        public boolean done() {
            return block != null;
        }
    }

    /** Bytes allocated and not yet freed (0 once every block is closed). */
    long liveBytes();

    /** One line saying which path is active, e.g. {@code memory=arena (no NUMA placement)}. */
    String describe();

    /** Frees nothing that a block still owns; blocks are closed by their owners first. */
    @Override
    void close();
}
