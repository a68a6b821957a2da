package io.numacube.engine;

import io.numacube.engine.storage.TableBuilder;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.FollowPlan;
import io.numacube.numa.MemoryRoom;
import io.numacube.numa.NumaRuntime;
import io.numacube.numa.base.NumacubeException;
import java.time.Instant;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;

/**
 * How a cube follows the machine it runs on ({@link Cube#followMachine}): on a change of the process's bindings it
 * reshapes the workers, makes the new plan's data nodes the layout of new data and moves the partitions off the nodes
 * no longer allowed ({@link PartitionMoves}); on a reading of the nodes' available memory it sends new data of a node
 * short of memory elsewhere ({@link MemoryRoom}) and spreads the tables back onto a node that has room again. Each
 * change is one {@link PlacementChange}, logged, kept in {@link #history()} and recorded as a JFR event.
 *
 * <p>Invariants: the layout is replaced only under the cube's write lock and before any partition moves, so new data
 * never lands on a node the moves are emptying; the history keeps the last {@link Cube#HISTORY} changes, oldest
 * first; there is at most one watcher, started by {@link #follow} and stopped by {@link #stop()}; data is never moved
 * off a node short of memory (only new data avoids it).
 *
 * <p>Thread-safety: changes are followed on the watcher's thread (tests call {@link #applyLayout} and {@link
 * #followMemory} on theirs); {@link #history()}, {@link #follows()} and {@link #stop()} may be called from any thread.
 */
final class MachineFollower {

    private static final System.Logger LOG = System.getLogger(MachineFollower.class.getName());

    /** The NUMA runtime the cube was opened with; null for a simulated cube. */
    private final NumaRuntime runtime;

    private final WorkerPool pool;
    private final int simulatedNodes;
    private final PartitionMoves moves;
    private final Supplier<TableBuilder.NodeLayout> layout;
    private final Consumer<TableBuilder.NodeLayout> layOut;
    private final Runnable checkOpen;

    /** Watches the bindings once {@link #follow} was called (set and read under {@link #history}'s lock). */
    private AutoCloseable watcher;

    private volatile FollowOptions followOptions;
    /** Which data nodes are short of memory now (replaced on the watcher's thread; tests call followMemory). */
    private volatile MemoryRoom room = MemoryRoom.of(MemoryRoom.DEFAULT_LOW_BYTES, MemoryRoom.DEFAULT_HIGH_BYTES);
    /** The nodes' available bytes at the last reading. */
    private volatile Map<Integer, Long> lastAvailable = Map.of();

    private final Deque<PlacementChange> history = new ConcurrentLinkedDeque<>();

    /**
     * @param runtime        the runtime the cube was opened with, null for a simulated cube
     * @param pool           the cube's workers, reshaped for new bindings
     * @param simulatedNodes the cube's simulated nodes (0 on a real machine), for the error a simulated cube gives
     * @param moves          how partitions move
     * @param layout         the cube's layout of new data now
     * @param layOut         replaces the cube's layout of new data, under its write lock
     * @param checkOpen      throws when the cube is closed
     */
    MachineFollower(
            NumaRuntime runtime,
            WorkerPool pool,
            int simulatedNodes,
            PartitionMoves moves,
            Supplier<TableBuilder.NodeLayout> layout,
            Consumer<TableBuilder.NodeLayout> layOut,
            Runnable checkOpen) {
        this.runtime = runtime;
        this.pool = pool;
        this.simulatedNodes = simulatedNodes;
        this.moves = moves;
        this.layout = layout;
        this.layOut = layOut;
        this.checkOpen = checkOpen;
    }

    /** Starts the watcher: {@link Cube#followMachine}. */
    void follow(FollowOptions options, Consumer<PlacementChange> listener) {
        java.util.Objects.requireNonNull(options, "options must not be null");
        java.util.Objects.requireNonNull(listener, "listener must not be null");
        checkOpen.run();
        NumaRuntime rt = runtime;
        if (rt == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a cube with simulated nodes has no machine to follow: simulatedNodes=" + simulatedNodes);
        }
        synchronized (history) {
            if (watcher != null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "the cube follows the machine already: period="
                                + followOptions.period().toMillis() + "ms");
            }
            followOptions = options;
            Map<Integer, Long> totals = new HashMap<>();
            rt.topology().nodes().forEach(n -> totals.put(n.id(), n.memTotalBytes()));
            room = MemoryRoom.of(options.shortBelowBytes(), options.roomAgainBytes())
                    .withNodeTotals(totals);
            watcher = rt.follow(options.period(), pool.nodes(), plan -> listener.accept(follow(plan)), state -> {
                PlacementChange c = followMemory(Instant.now(), state.availableBytesByNode(), rt.topology()::distance);
                if (c != null) {
                    listener.accept(c);
                }
            });
        }
    }

    /** Whether {@link #follow} was called. */
    boolean follows() {
        synchronized (history) {
            return watcher != null;
        }
    }

    /** The changes followed so far, oldest first (the last {@link Cube#HISTORY} kept). */
    List<PlacementChange> history() {
        return List.copyOf(history);
    }

    /**
     * Stops following (the cube is closing): a move under way stops at its next chunk, and the watcher is closed,
     * which waits for that move. A watcher that fails to close is logged, not thrown.
     */
    void stop() {
        moves.stop();
        AutoCloseable w;
        synchronized (history) {
            w = watcher;
        }
        if (w != null) {
            try {
                w.close(); // waits for a move under way, which stops at its next chunk
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "stopping the bindings' watcher: {0}", e.getMessage());
            }
        }
    }

    /**
     * Follows a change of the bindings ({@link FollowPlan}): re-pins and resizes the workers (a node that gained CPUs
     * gets workers of its own before new data may go there), re-lays out, moves.
     */
    private PlacementChange follow(FollowPlan plan) {
        WorkerPool.Reshaped shape = pool.reshape(plan.workerCpus(), plan.borrowing());
        if (!shape.workers().isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "workers resized for the new bindings: " + shape.workers());
        }
        TableBuilder.NodeLayout now = layout.get();
        if (plan.dataNodes().isEmpty()) {
            return record(new PlacementChange(
                    plan.seenAt(),
                    plan.change(),
                    now.dataNodes(),
                    now.dataNodes(),
                    plan.workerCpuLists(),
                    0,
                    0,
                    List.of(),
                    0,
                    Double.NaN,
                    "failed: no planned data node " + plan.plannedDataNodes() + " has workers of this cube"
                            + " (workers on " + pool.nodes() + "): data left where it is",
                    PlacementChange.Cause.BINDINGS,
                    shape.workers(),
                    "",
                    ""));
        }
        TableBuilder.NodeLayout next = new TableBuilder.NodeLayout(plan.dataNodes(), plan.fillerGroup())
                .withRedirects(room.redirects(plan.dataNodes(), plan::distance, lastAvailable));
        return applyLayout(
                new Step(
                        plan.seenAt(),
                        plan.change(),
                        PlacementChange.Cause.BINDINGS,
                        next,
                        gainedBy(next),
                        Map.of(),
                        shape.workers()),
                within -> pool.awaitPinned(shape.generation(), within),
                plan.workerCpuLists(),
                plan::distance,
                followOptions.bytesPerSecond());
    }

    /**
     * {@link PartitionMoves.Tally#timings()} and when the workers had re-pinned, counted from the change's start (said
     * when something moved or the re-pinning took a second or more): at once, or, for a worker that had to re-pin
     * itself after its task, by when the change looked again after its moves ({@code late}: an upper bound).
     */
    private static String timings(PartitionMoves.Tally moved, long repinNanos, boolean late) {
        String moves = moved.timings();
        if (moves.isEmpty() && repinNanos < 1_000_000_000L) {
            return "";
        }
        String repin = String.format(
                java.util.Locale.ROOT, "workers re-pinned %s %.1f s", late ? "within" : "after", repinNanos / 1e9);
        return moves.isEmpty() ? repin : moves + ", " + repin;
    }

    /** Sets the memory marks of {@link #followMemory} (no node short), as {@link #follow} does; for tests. */
    void memoryMarks(long shortBelowBytes, long roomAgainBytes) {
        room = MemoryRoom.of(shortBelowBytes, roomAgainBytes);
    }

    /**
     * Follows a reading of the nodes' available memory ({@link MemoryRoom}): new data of a data node that became short
     * goes to the nearest data node with room (a warning, and an entry in {@link #history()}); a node that has room
     * again gets its share of each table back, at most the bytes that keep it above the short mark. Nothing happens
     * (null) while no node crosses a mark.
     */
    PlacementChange followMemory(Instant seenAt, Map<Integer, Long> available, IntBinaryOperator distance) {
        MemoryRoom before = room;
        MemoryRoom now = before.next(available);
        room = now;
        lastAvailable = Map.copyOf(available);
        SortedSet<Integer> shortNow = now.becameShortSince(before);
        SortedSet<Integer> back = now.hasRoomAgainSince(before);
        if (shortNow.isEmpty() && back.isEmpty()) {
            return null;
        }
        TableBuilder.NodeLayout current = layout.get();
        Map<Integer, Integer> redirects = now.redirects(current.dataNodes(), distance, available);
        TableBuilder.NodeLayout next = current.withRedirects(redirects);
        Map<Integer, Long> budget = new HashMap<>();
        Set<Integer> spread = new TreeSet<>();
        for (int n : back) {
            if (next.dataNodes().contains(n)) {
                spread.add(n);
                budget.put(n, Math.max(0, available.getOrDefault(n, 0L) - now.lowFor(n)));
            }
        }
        String what = PlacementChange.describeMemory(shortNow, back, available, now, redirects);
        LOG.log(shortNow.isEmpty() ? System.Logger.Level.INFO : System.Logger.Level.WARNING, "memory: " + what);
        return applyLayout(
                new Step(seenAt, what, PlacementChange.Cause.MEMORY, next, spread, budget, ""),
                within -> true,
                Map.of(),
                distance,
                followOptions == null ? 0 : followOptions.bytesPerSecond());
    }

    private PlacementChange record(PlacementChange c) {
        history.addLast(c);
        while (history.size() > Cube.HISTORY) {
            history.pollFirst();
        }
        LOG.log(System.Logger.Level.INFO, c.logLine());
        return c;
    }

    /**
     * Follows a new layout: re-pins the workers ({@code repin}, which answers whether all did in time), makes {@code
     * next} the layout of new data, copies every partition whose memory node is not one of {@code next}'s data nodes
     * to the nearest data node (by {@code distance}) and spreads each table onto data nodes it did not have before
     * ({@link MovePlan}), publishing each table with the copies in place of the originals. Called by the watcher's
     * thread (and by tests on a simulated cube).
     */
    PlacementChange applyLayout(
            Instant seenAt,
            String bindings,
            TableBuilder.NodeLayout next,
            BooleanSupplier repin,
            Map<Integer, String> workerCpus,
            IntBinaryOperator distance,
            long bytesPerSecond) {
        return applyLayout(
                new Step(seenAt, bindings, PlacementChange.Cause.BINDINGS, next, gainedBy(next), Map.of(), ""),
                within -> repin.getAsBoolean(),
                workerCpus,
                distance,
                bytesPerSecond);
    }

    /** The data nodes of {@code next} that are not data nodes now. */
    private Set<Integer> gainedBy(TableBuilder.NodeLayout next) {
        Set<Integer> gained = new TreeSet<>(next.dataNodes());
        gained.removeAll(layout.get().dataNodes());
        return gained;
    }

    /**
     * One change of the machine to follow.
     *
     * @param seenAt         when it was seen
     * @param what           what changed, in words
     * @param cause          bindings or memory
     * @param next           the layout of new data from now on
     * @param spreadOnto     the data nodes each table spreads onto ({@link MovePlan}'s rule 2)
     * @param budgetBytes    for some of them, the bytes they may take at most
     * @param workersResized the worker counts changed, in words
     */
    private record Step(
            Instant seenAt,
            String what,
            PlacementChange.Cause cause,
            TableBuilder.NodeLayout next,
            Set<Integer> spreadOnto,
            Map<Integer, Long> budgetBytes,
            String workersResized) {}

    /**
     * {@link #applyLayout} for one {@link Step}; {@code pinnedWithin} answers whether every worker has re-pinned,
     * waiting up to the milliseconds it is given.
     */
    private PlacementChange applyLayout(
            Step step,
            java.util.function.LongPredicate pinnedWithin,
            Map<Integer, String> workerCpus,
            IntBinaryOperator distance,
            long bytesPerSecond) {
        long start = System.nanoTime();
        PlacementChangeEvent event = new PlacementChangeEvent();
        event.begin();
        List<Integer> before = layout.get().dataNodes();
        TableBuilder.NodeLayout next = step.next();
        // the pool pins its workers from outside at once; one it could not re-pins itself between two tasks: wait for
        // that after the moves, on this thread (a thread started for it waited 8 s to be created while the kernel
        // migrated the process's memory for the same cpuset change, in the VM)
        long repinnedAt = pinnedWithin.test(0) ? System.nanoTime() : 0;
        boolean late = repinnedAt == 0;
        layOut.accept(next);
        PartitionMoves.Tally moved = moves.moveOff(
                next,
                step.spreadOnto(),
                step.budgetBytes(),
                distance,
                start,
                bytesPerSecond,
                followOptions != null && followOptions.moveInPlace());
        String outcome = moved.outcome;
        if (repinnedAt == 0) {
            long waited = (System.nanoTime() - start) / 1_000_000;
            boolean all = pinnedWithin.test(Math.max(0, 30_000 - waited));
            repinnedAt = System.nanoTime();
            if (!all) {
                outcome += " (some workers had not re-pinned after 30 s)";
            }
        }
        PlacementChange change = record(new PlacementChange(
                step.seenAt(),
                step.what(),
                before,
                next.dataNodes(),
                workerCpus,
                moved.count,
                moved.bytes,
                List.copyOf(moved.targets),
                (System.nanoTime() - start) / 1e9,
                moved.percentOnTarget(),
                outcome,
                step.cause(),
                step.workersResized(),
                moved.how(),
                timings(moved, repinnedAt - start, late)));
        event.commit(change);
        return change;
    }
}
