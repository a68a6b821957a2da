package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.storage.ProgressListener;
import io.numacube.engine.storage.TableBuilder;
import io.numacube.numa.base.NumacubeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Following the machine ({@link MachineFollower#applyLayout}, the core of {@link Cube#followMachine}) on a simulated two-node
 * cube: node 0 is taken away while queries run; every partition moves to node 1 by copy and swap, no query fails, every
 * answer stays bit for bit what it was, deleted rows stay deleted, and the old copies are freed.
 */
class FollowMachineTest {

    private static final List<String> QUERIES = List.of(
            "SELECT desk, SUM(pnl), COUNT(*), MIN(notional), MAX(notional) FROM trades GROUP BY desk ORDER BY desk",
            "SELECT currency, AVG(pnl) FROM trades WHERE notional > 500000 GROUP BY currency ORDER BY currency",
            "SELECT COUNT(*), SUM(trade_id) FROM trades");

    private Cube cube;

    @BeforeEach
    void open() {
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(4096));
        cube.generateTrades(200_000, 7, ProgressListener.NONE);
    }

    @AfterEach
    void close() {
        cube.close();
        assertEquals(0, cube.liveNativeBytes(), "every block freed after close");
    }

    private List<String> answers() {
        List<String> out = new ArrayList<>();
        for (String q : QUERIES) {
            out.add(cube.query(q).toString());
        }
        return out;
    }

    private PlacementChange takeNode0Away(long bytesPerSecond) {
        return cube.follower()
                .applyLayout(
                        Instant.now(),
                        "mems 0-1 -> 1",
                        new TableBuilder.NodeLayout(List.of(1), Map.of(1, 1)),
                        () -> true,
                        Map.of(),
                        (a, b) -> a == b ? 10 : 20,
                        bytesPerSecond);
    }

    @Test
    void movesEveryPartitionOffANodeTakenAwayWhileQueriesRunAndAnswersNeverChange() throws Exception {
        cube.delete("DELETE FROM trades WHERE trade_id % 7 = 3");
        List<String> expected = answers();
        long versionBefore = cube.version("trades");
        assertTrue(cube.placement().stream().anyMatch(p -> p.memoryNode() == 0), "the load used node 0");

        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger ran = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> loops = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            loops.add(Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    try {
                        List<String> got = answers();
                        if (!got.equals(expected)) {
                            failure.compareAndSet(null, new AssertionError("answer changed: " + got));
                        }
                        ran.incrementAndGet();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }));
        }
        while (ran.get() < 2) {
            Thread.sleep(5);
        }
        // 8 MiB/s: the move takes a while, so queries overlap it
        PlacementChange c = takeNode0Away(8L << 20);
        int ranAtSwap = ran.get();
        while (ran.get() < ranAtSwap + 4) {
            Thread.sleep(5);
        }
        stop.set(true);
        for (Thread t : loops) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a query failed or changed during the move", failure.get());
        }
        assertEquals("done", c.outcome());
        assertTrue(c.partitionsMoved() > 0, c.logLine());
        assertEquals(List.of(1), c.targetNodes());
        assertEquals(List.of(0, 1), c.dataNodesBefore());
        assertEquals(List.of(1), c.dataNodesAfter());
        assertTrue(
                c.logLine()
                        .startsWith("bindings changed: mems 0-1 -> 1; moving " + c.partitionsMoved() + " partitions, "),
                c.logLine());
        for (PartitionInfo p : cube.placement()) {
            assertEquals(1, p.memoryNode(), p.toString());
            assertEquals(1, p.homeNode(), p.toString());
        }
        assertEquals(expected, answers());
        assertEquals(versionBefore, cube.version("trades"), "a move changes no rows: the same version");
        assertEquals(List.of(c), cube.placementHistory());
        // the originals are freed once no query reads them: what is live is what the tables hold
        assertEquals(cube.nativeBytes(), cube.liveNativeBytes());
    }

    @Test
    void aSecondChangeWithNothingToMoveSaysSo() {
        takeNode0Away(0);
        PlacementChange again = takeNode0Away(0);
        assertEquals(0, again.partitionsMoved());
        assertEquals(
                "bindings changed: mems 0-1 -> 1; data nodes [1] -> [1], workers {}; nothing to move ... done",
                again.logLine());
    }

    @Test
    void writesAfterTheMoveGoToTheNewDataNodesAndMerge() {
        takeNode0Away(0);
        long before = cube.rowCount("trades");
        cube.delete("DELETE FROM trades WHERE trade_id % 5 = 1");
        long deleted = before - cube.rowCount("trades");
        assertTrue(deleted > 0);
        String all =
                cube.query("SELECT COUNT(*) FROM trades WHERE trade_id % 5 = 1").toString();
        assertEquals("count_star()\n0\n", all.replace("COUNT(*)", "count_star()"));
        for (PartitionInfo p : cube.placement()) {
            assertEquals(1, p.memoryNode(), p.toString());
        }
    }

    @Test
    void aSimulatedCubeHasNoMachineToFollow() {
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> cube.followMachine(new FollowOptions(Duration.ofSeconds(1), 0), c -> {}));
        assertEquals("a cube with simulated nodes has no machine to follow: simulatedNodes=2", e.getMessage());
    }

    @Test
    void theLogLineSaysWhatTheIssueSays() {
        PlacementChange c = new PlacementChange(
                Instant.EPOCH,
                "cpus 0-3 -> 2-3, mems 0-1 -> 1",
                List.of(0, 1),
                List.of(1),
                Map.of(0, "2-3", 1, "2-3"),
                12,
                (long) (3.1 * (1L << 30)),
                List.of(1),
                4.2,
                99.8,
                "done",
                PlacementChange.Cause.BINDINGS,
                "",
                "",
                "");
        assertEquals(
                "bindings changed: cpus 0-3 -> 2-3, mems 0-1 -> 1; moving 12 partitions, 3.1 GiB, to node 1 ... done"
                        + " in 4.2 s, 99.8% of pages on node 1",
                c.logLine());
    }

    @Test
    void aNodeGivenBackGetsItsShareOfEachTableAgainAndALaterChangeMovesNothing() {
        List<String> expected = answers();
        takeNode0Away(0);
        PlacementChange back = cube.follower()
                .applyLayout(
                        Instant.now(),
                        "mems 1 -> 0-1",
                        new TableBuilder.NodeLayout(List.of(0, 1), Map.of(0, 0, 1, 1)),
                        () -> true,
                        Map.of(),
                        (a, b) -> a == b ? 10 : 20,
                        0);
        assertEquals("done", back.outcome());
        assertEquals(List.of(0), back.targetNodes(), back.logLine());
        assertTrue(back.partitionsMoved() > 0, back.logLine());
        assertTrue(
                back.timings()
                        .matches("copying \\d+\\.\\d s, publishing \\d+\\.\\d s, page census \\d+\\.\\d s,"
                                + " workers re-pinned after \\d+\\.\\d s"),
                back.timings());
        assertTrue(back.logLine().endsWith(" (" + back.timings() + ")"), back.logLine());
        long[] bytes = new long[2];
        long largest = 0;
        for (PartitionInfo p : cube.placement()) {
            if (p.table().equals("trades")) {
                bytes[p.memoryNode()] += p.bytes();
                largest = Math.max(largest, p.bytes());
                assertEquals(p.memoryNode(), p.homeNode(), p.toString());
            }
        }
        assertTrue(Math.abs(bytes[0] - bytes[1]) <= largest, "node 0: " + bytes[0] + " node 1: " + bytes[1]);
        assertEquals(expected, answers());
        PlacementChange again = cube.follower()
                .applyLayout(
                        Instant.now(),
                        "cpus 0-1 -> 0-1",
                        new TableBuilder.NodeLayout(List.of(0, 1), Map.of(0, 0, 1, 1)),
                        () -> true,
                        Map.of(),
                        (a, b) -> a == b ? 10 : 20,
                        0);
        assertEquals(0, again.partitionsMoved(), "no ping-pong: " + again.logLine());
    }

    @Test
    void eachChangeIsAJfrEvent(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("changes.jfr");
        try (jdk.jfr.Recording r = new jdk.jfr.Recording()) {
            r.enable("numacube.PlacementChange");
            r.start();
            takeNode0Away(0);
            r.stop();
            r.dump(file);
        }
        List<jdk.jfr.consumer.RecordedEvent> events = jdk.jfr.consumer.RecordingFile.readAllEvents(file);
        assertEquals(1, events.size(), events::toString);
        jdk.jfr.consumer.RecordedEvent e = events.get(0);
        assertEquals("mems 0-1 -> 1", e.getString("bindings"));
        assertEquals("[1]", e.getString("dataNodesAfter"));
        assertTrue(e.getInt("partitionsMoved") > 0);
        assertTrue(e.getLong("bytesMoved") > 0);
        assertEquals("done", e.getString("outcome"));
    }

    @Test
    void moveEveryPartitionMovesEachToTheNextDataNodeWithTheSameAnswersAndKeepsNoHistory() {
        List<String> before = answers();
        Map<String, Integer> nodeOf = new java.util.HashMap<>();
        cube.placement().forEach(p -> nodeOf.put(p.table() + "/" + p.partitionId(), p.memoryNode()));
        PlacementChange c = cube.moveEveryPartition(0);
        assertEquals(nodeOf.size(), c.partitionsMoved());
        assertEquals(List.of(0, 1), c.targetNodes());
        cube.placement()
                .forEach(p -> assertEquals(
                        (nodeOf.get(p.table() + "/" + p.partitionId()) + 1) % 2, p.memoryNode(), p.toString()));
        assertEquals(before, answers());
        assertEquals(List.of(), cube.placementHistory());
    }
}
