package io.numacube.numa.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.kernel.CpuLocation;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.testing.ThisProcess;
import io.numacube.numa.topology.CpuSet;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class NodeWorkerPoolTest {

    private static NumaKernel real() {
        return NumaKernels.load()
                .orElseThrow(() -> new AssertionError("native path not chosen: "
                        + NumaKernels.unavailableReason().orElse("?")));
    }

    private static final int HOME = ThisProcess.homeNode();

    private static SortedMap<Integer, CpuSet> home() {
        return new TreeMap<>(Map.of(HOME, ThisProcess.homeCpus()));
    }

    @Test
    void startsOnePinnedWorkerPerCpuOfTheNode() {
        CpuSet cpus = ThisProcess.homeCpus();
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(real()), home(), 0, "t")) {
            assertEquals(cpus.size(), pool.workerCount());
            assertEquals(cpus.size(), pool.workersOn(HOME));
            assertEquals(0, pool.workersOn(HOME + 1));
            assertEquals(String.valueOf(HOME), pool.nodes().toList());
            for (NodeWorkerPool.WorkerReport r : pool.workerReports()) {
                assertTrue(r.pinned(), r.pinFailure()::toString);
                assertEquals(cpus, r.cpus());
                assertEquals("t-n" + HOME + "-w" + r.context().indexOnNode(), r.threadName());
            }
        }
    }

    @Test
    void runsTheBodyExactlyOnceOnEveryWorkerOnItsNode() {
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(real()), home(), 3, "every")) {
            Map<Integer, AtomicInteger> runs = new ConcurrentHashMap<>();
            Map<Integer, CpuLocation> where = new ConcurrentHashMap<>();
            Map<Integer, CpuSet> affinity = new ConcurrentHashMap<>();
            pool.runOnEveryWorker(ctx -> {
                assertEquals(ctx, NodeWorkerPool.currentWorker().orElseThrow());
                assertTrue(Thread.currentThread().isDaemon());
                assertEquals(
                        "every-n" + HOME + "-w" + ctx.indexOnNode(),
                        Thread.currentThread().getName());
                runs.computeIfAbsent(ctx.workerId(), i -> new AtomicInteger()).incrementAndGet();
                where.put(
                        ctx.workerId(), CpuLocator.current(Optional.of(real())).orElseThrow());
                affinity.put(ctx.workerId(), real().threadAffinity());
            });
            assertEquals(3, runs.size());
            runs.values().forEach(c -> assertEquals(1, c.get()));
            where.values().forEach(loc -> assertEquals(HOME, loc.node(), loc::toString));
            affinity.values().forEach(a -> assertEquals(ThisProcess.homeCpus(), a));
            assertTrue(NodeWorkerPool.currentWorker().isEmpty());
        }
    }

    @Test
    void rethrowsTheFirstFailureWithTheOthersSuppressed() {
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(real()), home(), 2, "fail")) {
            IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> pool.runOnEveryWorker(ctx -> {
                        throw new IllegalStateException("worker " + ctx.workerId());
                    }));
            assertTrue(e.getMessage().startsWith("worker "));
            assertEquals(1, e.getSuppressed().length);
            CompletionException checked = assertThrows(
                    CompletionException.class,
                    () -> pool.runOnEveryWorker(ctx -> {
                        if (ctx.workerId() == 1) {
                            throw new IOException("disk");
                        }
                    }));
            assertTrue(checked.getCause() instanceof IOException);
            AtomicInteger after = new AtomicInteger();
            pool.runOnEveryWorker(ctx -> after.incrementAndGet());
            assertEquals(2, after.get());
        }
    }

    @Test
    void submitRunsOnAWorkerOfTheNodeAndCarriesFailures() throws Exception {
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(real()), home(), 2, "sub")) {
            String name =
                    pool.submit(HOME, () -> Thread.currentThread().getName()).get();
            assertTrue(name.startsWith("sub-n" + HOME + "-w"), name);
            assertEquals(
                    HOME,
                    pool.submit(
                                    HOME,
                                    () -> NodeWorkerPool.currentWorker()
                                            .orElseThrow()
                                            .node())
                            .get());
            ExecutionException failed = assertThrows(
                    ExecutionException.class,
                    () -> pool.submit(HOME, () -> {
                                throw new IOException("boom");
                            })
                            .get());
            assertTrue(failed.getCause() instanceof IOException);
            ExecutionException nested = assertThrows(
                    ExecutionException.class,
                    () -> pool.submit(HOME, () -> {
                                pool.runOnEveryWorker(ctx -> {});
                                return null;
                            })
                            .get());
            assertTrue(nested.getCause() instanceof IllegalStateException);
        }
    }

    @Test
    void submittingToAnUnknownNodeIsAClearError() {
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(real()), home(), 1, "unk")) {
            NumacubeException e = assertThrows(NumacubeException.class, () -> pool.submit(HOME + 7, () -> 1));
            assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
            assertTrue(
                    e.getMessage().contains("node=" + (HOME + 7))
                            && e.getMessage().contains("poolNodes=" + HOME),
                    e.getMessage());
        }
    }

    @Test
    void closeFinishesQueuedTasksStopsWorkersAndRejectsNewOnes() throws Exception {
        NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(real()), home(), 2, "close");
        var last = pool.submit(HOME, () -> "done");
        List<Thread> workers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("close-n" + HOME + "-"))
                .toList();
        assertEquals(2, workers.size());
        pool.close();
        assertEquals("done", last.get());
        workers.forEach(t -> assertFalse(t.isAlive()));
        assertThrows(IllegalStateException.class, () -> pool.submit(HOME, () -> 1));
        assertThrows(IllegalStateException.class, () -> pool.runOnEveryWorker(ctx -> {}));
        pool.close();
    }

    @Test
    void withoutAKernelWorkersRunUnpinnedAndSaySo() {
        SortedMap<Integer, CpuSet> nodes = new TreeMap<>(Map.of(0, CpuSet.of(0, 1)));
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.empty(), nodes, 0, "nok")) {
            assertEquals(2, pool.workerCount());
            pool.workerReports().forEach(r -> {
                assertFalse(r.pinned());
                assertTrue(r.pinFailure().orElseThrow().contains("no native access"));
            });
            AtomicInteger n = new AtomicInteger();
            pool.runOnEveryWorker(ctx -> n.incrementAndGet());
            assertEquals(2, n.get());
        }
    }

    @Test
    void aNodeWithoutCpusIsRefusedAtStart() {
        SortedMap<Integer, CpuSet> nodes = new TreeMap<>(Map.of(0, CpuSet.of(0), 3, CpuSet.empty()));
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> NodeWorkerPool.start(Optional.empty(), nodes, 1, "x"));
        assertTrue(e.getMessage().contains("node=3"), e.getMessage());
    }

    @Test
    void theCurrentWorkerIsTheSameObjectAcrossCalls() {
        try (NodeWorkerPool pool =
                NodeWorkerPool.start(Optional.empty(), new TreeMap<>(Map.of(0, CpuSet.of(0))), 1, "same")) {
            pool.runOnEveryWorker(
                    ctx -> assertSame(ctx, NodeWorkerPool.currentWorker().orElseThrow()));
        }
    }

    @Test
    void repinMovesIdleWorkersOfANodeOntoOtherCpusAndTheyStillRunItsTasks() throws Exception {
        io.numacube.numa.testing.FakeNumaKernel fake = new io.numacube.numa.testing.FakeNumaKernel();
        SortedMap<Integer, CpuSet> start = new TreeMap<>(Map.of(0, CpuSet.of(0), 1, CpuSet.of(1)));
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(fake), start, 2, "r")) {
            // node 0's CPUs were taken away: its workers run on node 1's CPU, and keep serving node 0's queue
            assertTrue(pool.repin(new TreeMap<>(Map.of(0, CpuSet.of(1))), 10_000));
            for (NodeWorkerPool.WorkerReport r : pool.workerReports()) {
                assertEquals(CpuSet.of(1), r.cpus(), r.threadName());
                assertTrue(r.pinned(), r.threadName());
            }
            assertEquals(2, pool.workersOn(0));
            assertEquals("ran", pool.submit(0, () -> "ran").get());
        }
    }

    @Test
    void repinPinsABusyWorkerAtOnceFromOutside() throws Exception {
        CpuSet cpus = ThisProcess.homeCpus();
        CpuSet one = CpuSet.of(cpus.stream().max().getAsInt());
        NumaKernel kernel = real();
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(kernel), home(), 1, "busy")) {
            java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.Future<CpuSet> task = pool.submit(HOME, () -> {
                running.countDown();
                release.await();
                return kernel.threadAffinity();
            });
            running.await();
            boolean repinned;
            try {
                repinned = pool.repin(new TreeMap<>(Map.of(HOME, one)), 2_000);
            } finally {
                release.countDown();
            }
            assertTrue(repinned, "the busy worker was re-pinned while its task ran");
            assertEquals(one, pool.workerReports().get(0).cpus());
            assertEquals(one, task.get(), "the task's own thread runs on the new CPUs before the task ends");
        }
    }

    @Test
    void repinReportsAWorkerTheKernelRefused() {
        io.numacube.numa.testing.FakeNumaKernel fake = new io.numacube.numa.testing.FakeNumaKernel();
        SortedMap<Integer, CpuSet> start = new TreeMap<>(Map.of(0, CpuSet.of(0)));
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(fake), start, 1, "e")) {
            fake.refuse.put("sched_setaffinity", 22);
            assertTrue(pool.repin(new TreeMap<>(Map.of(0, CpuSet.of(3))), 10_000));
            NodeWorkerPool.WorkerReport r = pool.workerReports().get(0);
            assertFalse(r.pinned());
            assertEquals(CpuSet.of(0), r.cpus(), "a refused repin keeps the CPUs it had");
        }
    }

    private static SortedMap<Integer, CpuSet> cpus(Object... nodeThenCpus) {
        SortedMap<Integer, CpuSet> out = new TreeMap<>();
        for (int i = 0; i < nodeThenCpus.length; i += 2) {
            out.put((Integer) nodeThenCpus[i], CpuSet.parse((String) nodeThenCpus[i + 1]));
        }
        return out;
    }

    private static List<String> liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(n -> n.startsWith(prefix + "-"))
                .sorted()
                .toList();
    }

    @Test
    void reshapeGivesANodeThatGainedCpusWorkersOfItsOwnPinnedThere() throws Exception {
        io.numacube.numa.testing.FakeNumaKernel fake = new io.numacube.numa.testing.FakeNumaKernel();
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(fake), cpus(0, "0-1"), 0, "grow")) {
            NodeWorkerPool.Reshape r = pool.reshape(cpus(0, "0-1", 1, "2-4"), java.util.Set.of());
            assertTrue(pool.awaitPinned(r.generation(), 10_000));
            assertEquals("n1 0->3", r.describe());
            assertEquals("0-1", pool.nodes().toList());
            assertEquals(3, pool.workersOn(1));
            assertEquals(5, pool.workerCount());
            String ran = pool.submit(
                            1,
                            () -> NodeWorkerPool.currentWorker().orElseThrow().node() + " "
                                    + Thread.currentThread().getName())
                    .get();
            assertTrue(ran.startsWith("1 grow-n1-w"), ran);
            List<Integer> ids = pool.workerReports().stream()
                    .map(w -> w.context().workerId())
                    .toList();
            assertEquals(List.of(0, 1, 2, 3, 4), ids);
            for (NodeWorkerPool.WorkerReport w : pool.workerReports()) {
                CpuSet want = w.context().node() == 0 ? CpuSet.parse("0-1") : CpuSet.parse("2-4");
                assertEquals(want, w.cpus(), w.threadName());
                assertTrue(w.pinned(), w.threadName());
            }
        }
    }

    @Test
    void reshapeStopsTheWorkersOfANodeThatLostCpusAndItsQueuedTasksStillRun() throws Exception {
        io.numacube.numa.testing.FakeNumaKernel fake = new io.numacube.numa.testing.FakeNumaKernel();
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(fake), cpus(0, "0-3", 1, "4-7"), 0, "shr")) {
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            // node 0's four workers are busy, and more of its tasks wait in its queue
            List<java.util.concurrent.CompletableFuture<Integer>> busy = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                busy.add(pool.submit(0, () -> {
                    release.await();
                    return 1;
                }));
            }
            List<java.util.concurrent.CompletableFuture<Integer>> queued = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) {
                queued.add(pool.submit(0, () -> 1));
            }
            // node 0's CPUs are taken: it keeps one worker, on node 1's CPUs; node 1 narrows to two CPUs
            NodeWorkerPool.Reshape r = pool.reshape(cpus(0, "4-7", 1, "4-5"), java.util.Set.of(0));
            assertEquals("n0 4->1, n1 4->2", r.describe());
            assertEquals(1, pool.workersOn(0));
            assertEquals(2, pool.workersOn(1));
            release.countDown();
            int sum = 0;
            for (var f : busy) {
                sum += f.get(10, java.util.concurrent.TimeUnit.SECONDS);
            }
            for (var f : queued) {
                sum += f.get(10, java.util.concurrent.TimeUnit.SECONDS);
            }
            assertEquals(24, sum, "every task submitted before the reshape ran");
            assertTrue(pool.awaitPinned(r.generation(), 10_000));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (liveThreads("shr").size() > 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(List.of("shr-n0-w0", "shr-n1-w0", "shr-n1-w1"), liveThreads("shr"));
            assertEquals(CpuSet.parse("4-7"), pool.workerReports().get(0).cpus());
            assertEquals(3, pool.workerReports().size());
            AtomicInteger every = new AtomicInteger();
            pool.runOnEveryWorker(ctx -> every.incrementAndGet());
            assertEquals(3, every.get());
        }
        assertEquals(List.of(), liveThreads("shr"));
    }

    @Test
    void reshapeGrowsAShrunkNodeBackWithTheLowestFreeIds() throws Exception {
        io.numacube.numa.testing.FakeNumaKernel fake = new io.numacube.numa.testing.FakeNumaKernel();
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(fake), cpus(0, "0-1", 1, "2-3"), 0, "back")) {
            pool.reshape(cpus(0, "2-3"), java.util.Set.of(0));
            NodeWorkerPool.Reshape back = pool.reshape(cpus(0, "0-1"), java.util.Set.of());
            assertEquals("n0 1->2", back.describe());
            assertTrue(pool.awaitPinned(back.generation(), 10_000));
            assertEquals(4, pool.workerCount());
            java.util.Set<Integer> ids = new java.util.TreeSet<>();
            pool.workerReports().forEach(w -> ids.add(w.context().workerId()));
            assertEquals(4, ids.size(), "ids unique: " + ids);
            assertTrue(ids.stream().allMatch(i -> i < 5), "ids reused, not growing: " + ids);
            assertEquals("ok", pool.submit(0, () -> "ok").get());
        }
    }

    @Test
    void aFixedThreadsPerNodeIsKeptOnAReshapeAndAnEmptyCpuSetChangesNothing() {
        io.numacube.numa.testing.FakeNumaKernel fake = new io.numacube.numa.testing.FakeNumaKernel();
        try (NodeWorkerPool pool = NodeWorkerPool.start(Optional.of(fake), cpus(0, "0"), 2, "fix")) {
            NodeWorkerPool.Reshape r = pool.reshape(cpus(0, "0-7", 1, "8"), java.util.Set.of());
            assertEquals("n1 0->2", r.describe());
            assertEquals(2, pool.workersOn(0));
            SortedMap<Integer, CpuSet> none = new TreeMap<>(Map.of(1, CpuSet.empty()));
            assertFalse(pool.reshape(none, java.util.Set.of()).resized());
            assertEquals(2, pool.workersOn(1));
        }
    }
}
