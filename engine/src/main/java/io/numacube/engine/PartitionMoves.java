package io.numacube.engine;

import io.numacube.engine.storage.ColumnMemory;
import io.numacube.engine.storage.FactTable;
import io.numacube.engine.storage.Partition;
import io.numacube.engine.storage.PartitionMover;
import io.numacube.engine.storage.TableBuilder;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntBinaryOperator;
import java.util.function.LongConsumer;

/**
 * Moves partitions of a cube's current tables to other nodes and swaps them in, the one way a partition changes node:
 * each is copied into a block allocated, placed and written for its target node, or, when the follower asks for it
 * ({@link FollowOptions#moveInPlace}), moved in place where the kernel allows it (its pages migrated by mbind
 * MPOL_MF_MOVE, the same memory under a new partition object; {@link PartitionMover#move}; the bench's {@link
 * #moveEvery} always copies), at most a given number of bytes a second, then
 * every table holding an original is republished with the moved partition in its place under the same version number (the rows are the same; partition ids, and so deleted rows, carry over). Queries under way finish on
 * the originals, which are freed after the last of them.
 *
 * <p>Invariants: every copy made is either published in the tables or closed, never both and never leaked; a move that
 * fails publishes nothing of its round and frees its copies, so the tables stay where they were; copies are published
 * under the cube's write lock, so a move never undoes a concurrent write, and a copy of a partition that a write merged
 * or dropped meanwhile is freed. After {@link #stop()} a move under way fails at its next chunk.
 *
 * <p>Thread-safe: the bindings' watcher's thread and the bench's caller may move at once (the write lock orders their
 * publishing). Owned by its {@link Cube}, which closes the tables and the memory.
 */
final class PartitionMoves {

    private static final System.Logger LOG = System.getLogger(PartitionMoves.class.getName());

    private final CubeTables tables;
    private final ReentrantLock writeLock;
    private final ColumnMemory memory;
    private final boolean censusPages;
    private final Runnable checkOpen;

    /** Set by {@link #stop()}: a move under way stops between two chunks. */
    private volatile boolean stopping;

    /**
     * @param tables      the cube's tables, read and republished
     * @param writeLock   the cube's lock serialising writers, held while copies are published
     * @param memory      the cube's column memory, where the copies are allocated
     * @param censusPages whether {@code memory} can tell where a block's pages are (false for simulated nodes)
     * @param checkOpen   throws when the cube is closed
     */
    PartitionMoves(
            CubeTables tables, ReentrantLock writeLock, ColumnMemory memory, boolean censusPages, Runnable checkOpen) {
        this.tables = tables;
        this.writeLock = writeLock;
        this.memory = memory;
        this.censusPages = censusPages;
        this.checkOpen = checkOpen;
    }

    /** Makes every move under way, and every later one, fail at its next chunk (the cube is closing). */
    void stop() {
        stopping = true;
    }

    /**
     * Copies and swaps the partitions that are not on a data node of {@code next}, and spreads each table onto the
     * nodes of {@code spreadOnto} ({@link MovePlan}), in a few rounds (a write may add partitions on a node no longer
     * allowed meanwhile); the tally's outcome says whether it failed, and then the tables stay where they were.
     *
     * @param budgetBytes for some nodes of {@code spreadOnto}, the bytes they may take at most
     * @param startNanos  when the change began, the start of the pacing
     */
    Tally moveOff(
            TableBuilder.NodeLayout next,
            Set<Integer> spreadOnto,
            Map<Integer, Long> budgetBytes,
            IntBinaryOperator distance,
            long startNanos,
            long bytesPerSecond,
            boolean inPlace) {
        Tally moves = new Tally();
        Pace pace = new Pace(startNanos, bytesPerSecond);
        Map<Integer, Long> budget = new HashMap<>(budgetBytes);
        try {
            // spreading onto gained nodes reaches its balance in the first round; later rounds find nothing to do
            for (int round = 0; round < 3; round++) {
                long t0 = System.nanoTime();
                Map<Partition, Partition> copies = copyOff(next, spreadOnto, budget, distance, pace, inPlace, moves);
                long t1 = System.nanoTime();
                moves.copyNanos += t1 - t0;
                if (copies.isEmpty()) {
                    break;
                }
                List<Partition> published = swapCopies(copies);
                moves.publishNanos += System.nanoTime() - t1;
                for (Partition c : published) {
                    moves.add(c);
                    budget.computeIfPresent(c.memoryNode(), (k, v) -> v - c.byteSize());
                }
            }
        } catch (RuntimeException | Error e) {
            moves.outcome = "failed: " + e.getMessage() + " (tables stay where they were)";
            LOG.log(System.Logger.Level.WARNING, "moving partitions failed", e);
        }
        return moves;
    }

    /**
     * Moves every placed partition of every table to the next data node of {@code now} in order (on one data node, to
     * the node it is on), for the bench's migration throughput; see {@link Cube#moveEveryPartition}.
     */
    PlacementChange moveEvery(TableBuilder.NodeLayout now, long bytesPerSecond) {
        long start = System.nanoTime();
        List<Integer> nodes = now.dataNodes();
        Pace pace = new Pace(start, bytesPerSecond);
        Map<Partition, Partition> copies = new IdentityHashMap<>();
        try (CubeTables.Snapshot s = snapshot()) {
            for (CubeTables.Version v : s.versions()) {
                for (Partition p : v.table().partitions()) {
                    int at = nodes.indexOf(p.memoryNode());
                    if (p.memoryNode() < 0 || copies.containsKey(p)) {
                        continue;
                    }
                    int target = nodes.get((at + 1) % nodes.size());
                    copies.put(p, PartitionMover.copy(p, now.fillerNode().get(target), target, memory, pace));
                }
            }
        } catch (RuntimeException | Error e) {
            copies.values().forEach(Partition::close);
            throw e;
        }
        Tally moves = new Tally();
        swapCopies(copies).forEach(moves::add);
        return new PlacementChange(
                java.time.Instant.now(),
                "every partition to the next data node (bench)",
                nodes,
                nodes,
                Map.of(),
                moves.count,
                moves.bytes,
                List.copyOf(moves.targets),
                (System.nanoTime() - start) / 1e9,
                moves.percentOnTarget(),
                moves.outcome,
                PlacementChange.Cause.BINDINGS,
                "",
                moves.count == 0 ? "" : "copied (the bench's copy path)",
                moves.timings());
    }

    /** The current snapshot of the tables; the cube must be open. */
    private CubeTables.Snapshot snapshot() {
        checkOpen.run();
        return tables.acquire();
    }

    /**
     * Every partition of the current tables whose memory node is not a data node of {@code next}, moved to the nearest
     * data node (with {@code inPlace}, in place where the kernel allows it, else copied: {@link PartitionMover#move};
     * without, copied), keyed by the original; {@code tally} notes how each moved. On failure none is kept (a copy is freed; pages moved in place
     * stay where they went, the same bytes, and the original keeps its node in the tables).
     */
    private Map<Partition, Partition> copyOff(
            TableBuilder.NodeLayout next,
            Set<Integer> gained,
            Map<Integer, Long> budget,
            IntBinaryOperator distance,
            LongConsumer pace,
            boolean inPlace,
            Tally tally) {
        Map<Partition, Partition> copies = new IdentityHashMap<>();
        try (CubeTables.Snapshot s = snapshot()) {
            List<FactTable> current =
                    s.versions().stream().map(CubeTables.Version::table).toList();
            Map<Partition, Integer> targets = MovePlan.targets(current, next.dataNodes(), gained, budget, distance);
            for (FactTable t : current) {
                for (Partition p : t.partitions()) {
                    Integer target = targets.get(p);
                    if (target == null || copies.containsKey(p)) {
                        continue;
                    }
                    int home = next.fillerNode().get(target);
                    copies.put(
                            p,
                            inPlace
                                    ? tally.note(PartitionMover.move(p, home, target, memory, pace))
                                    : PartitionMover.copy(p, home, target, memory, pace));
                }
            }
        } catch (RuntimeException | Error e) {
            copies.values().forEach(Partition::close);
            throw e;
        }
        return copies;
    }

    /**
     * Publishes, under the write lock, every current table with the copies in place of the partitions they copy (the
     * same version number: the same rows); copies of partitions no longer in any table (merged or dropped by a write
     * meanwhile) are freed. Returns the copies published.
     */
    private List<Partition> swapCopies(Map<Partition, Partition> copies) {
        List<Partition> used = new ArrayList<>();
        writeLock.lock();
        try {
            checkOpen.run();
            try (CubeTables.Snapshot s = tables.acquire()) {
                for (CubeTables.Version v : s.versions()) {
                    FactTable t = v.table();
                    List<Partition> parts = new ArrayList<>(t.partitions());
                    boolean changed = false;
                    for (int i = 0; i < parts.size(); i++) {
                        Partition c = copies.get(parts.get(i));
                        if (c != null) {
                            parts.set(i, c);
                            used.add(c);
                            changed = true;
                        }
                    }
                    if (changed) {
                        tables.republish(t.successor(t.dictionaries(), t.nullBits(), parts), v);
                    }
                }
            }
        } finally {
            writeLock.unlock();
        }
        Set<Partition> published = Collections.newSetFromMap(new IdentityHashMap<>());
        published.addAll(used);
        for (Partition c : copies.values()) {
            if (!published.contains(c)) {
                c.close();
            }
        }
        return used;
    }

    /** Sleeps so that no more than {@code bytesPerSecond} (0: no limit) have been copied since {@code startNanos}. */
    private final class Pace implements LongConsumer {
        private final long startNanos;
        private final long bytesPerSecond;
        private long total;

        Pace(long startNanos, long bytesPerSecond) {
            this.startNanos = startNanos;
            this.bytesPerSecond = bytesPerSecond;
        }

        @Override
        public void accept(long n) {
            if (stopping) {
                throw new NumacubeException(NumacubeException.Kind.INVALID_INPUT, "the cube is closing: move stopped");
            }
            total += n;
            if (bytesPerSecond <= 0) {
                return;
            }
            long dueNanos = startNanos + (long) (total * 1e9 / bytesPerSecond);
            long wait = dueNanos - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }

    /** The partitions moved by one change, and the page census of their copies; {@code outcome} is set on failure. */
    final class Tally {
        int count;
        long bytes;
        String outcome = "done";
        private double weightedOn;
        private long measured;
        final SortedSet<Integer> targets = new TreeSet<>();
        private final Set<Partition> inPlace = Collections.newSetFromMap(new IdentityHashMap<>());
        private int movedInPlace;
        private int copied;
        private String copyReason;
        long copyNanos;
        long publishNanos;
        private long censusNanos;

        /** Remembers how {@code m} moved, for {@link #how}; returns its partition. */
        Partition note(PartitionMover.Moved m) {
            if (m.how() == PartitionMover.How.IN_PLACE) {
                inPlace.add(m.partition());
            } else if (m.refusal() != null) {
                copyReason = m.refusal();
            }
            return m.partition();
        }

        void add(Partition c) {
            if (inPlace.contains(c)) {
                movedInPlace++;
            } else {
                copied++;
            }
            count++;
            bytes += c.byteSize();
            targets.add(c.memoryNode());
            long t0 = System.nanoTime();
            OptionalDouble f = censusPages ? memory.fractionOnNode(c.block(), c.memoryNode()) : OptionalDouble.empty();
            censusNanos += System.nanoTime() - t0;
            if (f.isPresent()) {
                weightedOn += f.getAsDouble() * c.byteSize();
                measured += c.byteSize();
            }
        }

        /**
         * How the partitions published moved: {@code moved in place}, {@code copied (why not in place)}, both with their
         * counts, or empty when none moved.
         */
        String how() {
            String why = copyReason == null ? "" : " (not in place: " + copyReason + ")";
            if (copied == 0) {
                return movedInPlace == 0 ? "" : "moved in place";
            }
            if (movedInPlace == 0) {
                return "copied" + why;
            }
            return movedInPlace + " moved in place, " + copied + " copied" + why;
        }

        /**
         * Where the time of the moves went: {@code copying 0.4 s, publishing 0.0 s, page census 0.1 s} (publishing
         * includes the wait for the write lock); empty when nothing moved.
         */
        String timings() {
            if (count == 0) {
                return "";
            }
            return String.format(
                    java.util.Locale.ROOT,
                    "copying %.1f s, publishing %.1f s, page census %.1f s",
                    copyNanos / 1e9,
                    publishNanos / 1e9,
                    censusNanos / 1e9);
        }

        /** Of the copies' pages, the share on their node, weighted by bytes; NaN when none could be measured. */
        double percentOnTarget() {
            return measured == 0 ? Double.NaN : 100.0 * weightedOn / measured;
        }
    }
}
