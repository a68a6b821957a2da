package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.workers.NumaWorkerPool;
import io.numacube.engine.workers.WorkerPool;
import io.numacube.numa.exec.NodeWorkerPool;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The workers follow the machine while queries run ({@link WorkerPool#reshape}): a node's workers grow, shrink to the
 * one that drains its queue, and new nodes join the pool, over and over, while two threads query; no query fails and
 * every answer is bit for bit the one before the first reshape.
 */
class WorkersReshapedWhileQueryingTest {

    private static final List<String> QUERIES = List.of(
            "SELECT desk, SUM(pnl), COUNT(*), MIN(notional), MAX(notional) FROM trades GROUP BY desk ORDER BY desk",
            "SELECT currency, AVG(pnl) FROM trades WHERE notional > 500000 GROUP BY currency ORDER BY currency",
            "SELECT COUNT(*), SUM(trade_id) FROM trades");

    private static SortedMap<Integer, CpuSet> cpus(Object... nodeThenCpus) {
        SortedMap<Integer, CpuSet> out = new TreeMap<>();
        for (int i = 0; i < nodeThenCpus.length; i += 2) {
            out.put((Integer) nodeThenCpus[i], CpuSet.parse((String) nodeThenCpus[i + 1]));
        }
        return out;
    }

    @Test
    void queriesNeverFailNorChangeTheirAnswerWhileWorkersAreAddedRemovedAndNodesJoin() throws Exception {
        Topology none = new Topology(List.of(), CpuSet.empty(), CpuSet.empty(), false, List.of());
        NodeWorkerPool nodes = NodeWorkerPool.start(Optional.empty(), cpus(0, "0-1", 1, "0-1"), 0, "rq");
        try (Cube cube = Cube.openSimulated(
                CubeOptions.defaults().withSimulatedNodes(2).withMorselRows(4096), new NumaWorkerPool(nodes, none))) {
            cube.generateTrades(200_000, 11, ProgressListener.NONE);
            List<String> expected = new ArrayList<>();
            for (String q : QUERIES) {
                expected.add(cube.query(q).toString());
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger answered = new AtomicInteger();
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                clients.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        int q = i % QUERIES.size();
                        try {
                            String got = cube.query(QUERIES.get(q)).toString();
                            if (!got.equals(expected.get(q))) {
                                wrong.add("query " + q + " answered " + got);
                            }
                            answered.incrementAndGet();
                        } catch (RuntimeException e) {
                            wrong.add("query " + q + " failed: " + e);
                        }
                    }
                }));
            }
            WorkerPool pool = cube.workers();
            for (int round = 0; round < 40; round++) {
                pool.reshape(cpus(0, "0-3", 1, "0"), Set.of());
                pool.reshape(cpus(0, "1", 1, "0"), Set.of(0));
                pool.reshape(cpus(2 + round, "0"), Set.of());
                pool.reshape(cpus(0, "0-1", 1, "0-1"), Set.of());
                Thread.sleep(5);
            }
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (answered.get() < 60 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            stop.set(true);
            for (Thread t : clients) {
                t.join();
            }
            assertEquals(List.of(), List.copyOf(wrong));
            assertTrue(answered.get() >= 60, "answered=" + answered.get());
            assertEquals(42, pool.nodes().size());
            assertEquals(
                    Map.of(0, 2, 1, 2, 41, 1),
                    Map.of(0, pool.workersOn(0), 1, pool.workersOn(1), 41, pool.workersOn(41)));
            assertTrue(pool.awaitPinned(pool.reshape(cpus(0, "0-1"), Set.of()).generation(), 10_000));
        }
    }
}
