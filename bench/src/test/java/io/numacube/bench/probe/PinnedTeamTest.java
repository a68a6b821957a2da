package io.numacube.bench.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.exec.NodeWorkerPool;
import io.numacube.numa.topology.CpuSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PinnedTeamTest {

    private NodeWorkerPool pool;

    @BeforeEach
    void start() {
        TreeMap<Integer, CpuSet> cpus = new TreeMap<>();
        cpus.put(0, CpuSet.of(0));
        cpus.put(1, CpuSet.of(0));
        pool = NodeWorkerPool.start(Optional.empty(), cpus, 2, "team-test");
    }

    @AfterEach
    void stop() {
        pool.close();
    }

    @Test
    void runsEveryBodyOnceOnItsOwnWorkerAllAtTheSameTime() throws Exception {
        PinnedTeam team = new PinnedTeam(pool);
        AtomicIntegerArray calls = new AtomicIntegerArray(3);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CyclicBarrier together = new CyclicBarrier(3);
        team.run(3, i -> {
            calls.incrementAndGet(i);
            threads.add(Thread.currentThread().getName());
            try {
                together.await(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("bodies did not run at the same time", e);
            }
        });
        for (int i = 0; i < 3; i++) {
            assertEquals(1, calls.get(i), "body " + i);
        }
        assertEquals(3, threads.size());
    }

    @Test
    void refusesMoreBodiesThanWorkers() {
        PinnedTeam team = new PinnedTeam(pool);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> team.run(5, i -> {}));
        assertEquals(4, team.size());
        assertEquals(true, e.getMessage().contains("workers=4"), e.getMessage());
    }
}
