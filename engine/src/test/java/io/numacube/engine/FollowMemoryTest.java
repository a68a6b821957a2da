package io.numacube.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntBinaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A data node short of memory ({@link MachineFollower#followMemory} on a simulated two-node cube): its new data goes to the
 * nearest node with room, with an entry in the history; nothing moves while its memory hovers between the marks; when it
 * has room again each table spreads back onto it (no more than keeps it above the short mark), and answers never change.
 */
class FollowMemoryTest {

    private static final long MIB = 1L << 20;
    private static final IntBinaryOperator DISTANCE = (a, b) -> a == b ? 10 : 20;
    private static final TableSchema FACT = new TableSchema(
            "f",
            List.of(
                    ColumnSpec.of("s", ColumnType.STRING),
                    ColumnSpec.of("v", ColumnType.DOUBLE),
                    ColumnSpec.of("id", ColumnType.INT)));
    private static final String QUERY = "SELECT s, COUNT(*), SUM(v), MAX(id) FROM f GROUP BY s ORDER BY s";

    private Cube cube;
    private int nextId;

    @BeforeEach
    void open() {
        cube = Cube.open(CubeOptions.defaults()
                .withSimulatedNodes(2)
                .withThreadsPerNode(1)
                .withMorselRows(256));
        cube.loadTable(CubeAppendTest.stage(FACT, rows(4000)));
    }

    @AfterEach
    void close() {
        cube.close();
    }

    private List<Object[]> rows(int n) {
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++, nextId++) {
            out.add(new Object[] {"s" + (nextId % 7), (double) (nextId % 100) / 4, (long) nextId});
        }
        return out;
    }

    private Set<Integer> partitionsOn(int node) {
        return cube.placement().stream()
                .filter(p -> p.memoryNode() == node)
                .map(PartitionInfo::partitionId)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private long bytesOn(int node) {
        return cube.placement().stream()
                .filter(p -> p.memoryNode() == node)
                .mapToLong(PartitionInfo::bytes)
                .sum();
    }

    @Test
    void newDataOfAShortNodeGoesToTheNearestNodeWithRoomAndSpreadsBackWhenRoomReturns() {
        Set<Integer> onNode1 = partitionsOn(1);
        assertTrue(!onNode1.isEmpty() && !partitionsOn(0).isEmpty(), "loaded on both nodes");
        PlacementChange shortOf =
                cube.follower().followMemory(Instant.EPOCH, Map.of(0, 8192 * MIB, 1, 100 * MIB), DISTANCE);
        assertEquals(PlacementChange.Cause.MEMORY, shortOf.cause());
        assertEquals(
                "node 1 short of memory (100.0 MiB available, below 256.0 MiB): new data for it goes to node 0",
                shortOf.bindings());
        assertEquals(0, shortOf.partitionsMoved());
        assertEquals(shortOf, cube.placementHistory().getLast());
        assertTrue(shortOf.logLine().startsWith("memory: node 1 short of memory"), shortOf.logLine());
        for (int b = 0; b < 6; b++) {
            cube.append("f", CubeAppendTest.stage(FACT, rows(1500)));
        }
        Set<Integer> nowOn1 = partitionsOn(1);
        assertTrue(
                onNode1.containsAll(nowOn1),
                "no new partition on the short node: before " + onNode1 + " now " + nowOn1);
        String answer = cube.query(QUERY).toString();
        // between the marks: still short, nothing happens
        assertNull(cube.follower().followMemory(Instant.EPOCH, Map.of(0, 8192 * MIB, 1, 700 * MIB), DISTANCE));
        long before0 = bytesOn(0);
        long before1 = bytesOn(1);
        PlacementChange back =
                cube.follower().followMemory(Instant.EPOCH, Map.of(0, 8192 * MIB, 1, 2048 * MIB), DISTANCE);
        assertEquals(
                "node 1 has room again (2.0 GiB available, at least 1.0 GiB): data spreads back onto it",
                back.bindings());
        assertTrue(back.partitionsMoved() > 0, back.logLine());
        assertEquals(List.of(1), back.targetNodes());
        assertEquals(before1 + back.bytesMoved(), bytesOn(1));
        assertTrue(bytesOn(0) - bytesOn(1) < before0 - before1, "the gap narrowed");
        assertEquals(answer, cube.query(QUERY).toString());
        // no ping-pong: the same reading, or one between the marks, moves nothing
        assertNull(cube.follower().followMemory(Instant.EPOCH, Map.of(0, 8192 * MIB, 1, 2048 * MIB), DISTANCE));
        assertNull(cube.follower().followMemory(Instant.EPOCH, Map.of(0, 8192 * MIB, 1, 300 * MIB), DISTANCE));
        cube.append("f", CubeAppendTest.stage(FACT, rows(1500)));
        assertTrue(partitionsOn(1).size() > nowOn1.size(), "new data goes to node 1 again");
    }

    @Test
    void whenEveryDataNodeIsShortNewDataStaysOnItsNodeAndTheHistorySaysSo() {
        PlacementChange c = cube.follower().followMemory(Instant.EPOCH, Map.of(0, 10 * MIB, 1, 20 * MIB), DISTANCE);
        assertEquals(
                "node 0 short of memory (10.0 MiB available, below 256.0 MiB): no data node has room, new data stays on"
                        + " it; node 1 short of memory (20.0 MiB available, below 256.0 MiB): no data node has room,"
                        + " new data stays on it",
                c.bindings());
        Set<Integer> on1 = partitionsOn(1);
        cube.append("f", CubeAppendTest.stage(FACT, rows(3000)));
        assertEquals("done", c.outcome());
        assertTrue(partitionsOn(1).size() >= on1.size());
        assertEquals(4000 + 3000, cube.query("SELECT COUNT(*) FROM f").getLong(0, 0));
    }

    @Test
    void aNodeWithRoomAgainTakesBackNoMoreThanKeepsItAboveTheShortMark() {
        cube.follower().memoryMarks(1024, 2048);
        cube.follower().followMemory(Instant.EPOCH, Map.of(0, 8192 * MIB, 1, 0L), DISTANCE);
        for (int b = 0; b < 6; b++) {
            cube.append("f", CubeAppendTest.stage(FACT, rows(1500)));
        }
        // node 0 holds a merged partition of 70 KiB and small ones: the spread alone would move the large one back
        long smallest = cube.placement().stream()
                .filter(p -> p.memoryNode() == 0)
                .mapToLong(PartitionInfo::bytes)
                .min()
                .orElseThrow();
        long available = 1024 + smallest + smallest / 2;
        PlacementChange back =
                cube.follower().followMemory(Instant.EPOCH, Map.of(0, 8192 * MIB, 1, available), DISTANCE);
        assertTrue(back.partitionsMoved() >= 1, back.logLine());
        assertTrue(back.bytesMoved() <= available - 1024, back.bytesMoved() + " > " + (available - 1024));
    }
}
