package io.numacube.numa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.numacube.numa.base.NumacubeException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntBinaryOperator;
import org.junit.jupiter.api.Test;

/** When a node is short of memory, when it has room again, and where its new data goes meanwhile. */
class MemoryRoomTest {

    private static final long MIB = 1L << 20;

    /** Four nodes in two sockets: 0-1 near (12), 2-3 near, across sockets 20. */
    private static final IntBinaryOperator TWO_SOCKETS = (a, b) -> a == b ? 10 : (a / 2 == b / 2 ? 12 : 20);

    private static MemoryRoom room() {
        return MemoryRoom.of(256 * MIB, 1024 * MIB);
    }

    @Test
    void aNodeBelowTheLowMarkIsShort() {
        MemoryRoom r = room().next(Map.of(0, 4096 * MIB, 1, 255 * MIB));
        assertEquals(Set.of(1), r.shortNodes());
        assertEquals(Set.of(1), r.becameShortSince(room()));
    }

    @Test
    void exactlyAtTheLowMarkIsNotShortAndExactlyAtTheHighMarkIsRoomAgain() {
        assertEquals(Set.of(), room().next(Map.of(1, 256 * MIB)).shortNodes());
        MemoryRoom shortNow = room().next(Map.of(1, 10 * MIB));
        assertEquals(Set.of(), shortNow.next(Map.of(1, 1024 * MIB)).shortNodes());
    }

    @Test
    void aShortNodeBetweenTheMarksStaysShortSoItDoesNotFlipAtEveryReading() {
        MemoryRoom r = room().next(Map.of(1, 200 * MIB));
        for (long mib : new long[] {300, 250, 700, 1023, 260}) {
            MemoryRoom next = r.next(Map.of(1, mib * MIB));
            assertEquals(Set.of(1), next.shortNodes(), mib + " MiB");
            assertEquals(Set.of(), next.hasRoomAgainSince(r));
            r = next;
        }
        MemoryRoom back = r.next(Map.of(1, 2048 * MIB));
        assertEquals(Set.of(), back.shortNodes());
        assertEquals(Set.of(1), back.hasRoomAgainSince(r));
        // and between the marks again, a node that has room keeps it
        assertEquals(Set.of(), back.next(Map.of(1, 300 * MIB)).shortNodes());
    }

    @Test
    void aNodeMissingFromAReadingAndTheMachineWideEntryChangeNothing() {
        MemoryRoom r = room().next(Map.of(1, 10 * MIB));
        assertEquals(Set.of(1), r.next(Map.of(0, 4096 * MIB)).shortNodes());
        assertEquals(Set.of(), room().next(Map.of(-1, 1 * MIB)).shortNodes());
    }

    @Test
    void newDataOfAShortNodeGoesToTheNearestNodeWithRoom() {
        MemoryRoom r = room().next(Map.of(0, 10 * MIB, 1, 4096 * MIB, 2, 8192 * MIB, 3, 8192 * MIB));
        Map<Integer, Long> available = Map.of(0, 10 * MIB, 1, 4096 * MIB, 2, 8192 * MIB, 3, 8192 * MIB);
        // node 1 is nearer than 2 and 3, though they have more room
        assertEquals(Map.of(0, 1), r.redirects(List.of(0, 1, 2, 3), TWO_SOCKETS, available));
    }

    @Test
    void aTieOfDistanceGoesToTheNodeWithMoreRoomThenTheLowestId() {
        Map<Integer, Long> available = Map.of(0, 4096 * MIB, 1, 4096 * MIB, 2, 10 * MIB, 3, 10 * MIB);
        MemoryRoom r = room().next(available);
        assertEquals(Set.of(2, 3), r.shortNodes());
        // 0 and 1 are both 20 away from 2 and from 3, with the same room: the lowest id
        assertEquals(Map.of(2, 0, 3, 0), r.redirects(List.of(0, 1, 2, 3), TWO_SOCKETS, available));
        Map<Integer, Long> more1 = Map.of(0, 4096 * MIB, 1, 5000 * MIB, 2, 10 * MIB, 3, 10 * MIB);
        assertEquals(Map.of(2, 1, 3, 1), r.redirects(List.of(0, 1, 2, 3), TWO_SOCKETS, more1));
    }

    @Test
    void whenEveryDataNodeIsShortNothingIsRedirectedAndNodesThatAreNotDataNodesAreNoTarget() {
        Map<Integer, Long> available = Map.of(0, 10 * MIB, 1, 10 * MIB, 2, 8192 * MIB);
        MemoryRoom r = room().next(available);
        assertEquals(Map.of(), r.redirects(List.of(0, 1), TWO_SOCKETS, available));
        assertEquals(Map.of(1, 2), r.redirects(List.of(1, 2), TWO_SOCKETS, available));
    }

    @Test
    void marksMustBeOrdered() {
        NumacubeException e = assertThrows(NumacubeException.class, () -> MemoryRoom.of(100, 100));
        assertEquals("a node's memory marks need 0 <= low < high: lowBytes=100 highBytes=100", e.getMessage());
    }

    @Test
    void aSmallNodesMarksScaleWithItsMemorySoItCanHaveRoomAgain() {
        MemoryRoom r = room().withNodeTotals(Map.of(0, 1024 * MIB, 1, 64 * 1024 * MIB));
        assertEquals(64 * MIB, r.lowFor(0));
        assertEquals(256 * MIB, r.highFor(0));
        assertEquals(256 * MIB, r.lowFor(1));
        assertEquals(1024 * MIB, r.highFor(1));
        assertEquals(256 * MIB, r.lowFor(7), "a node of unknown size has the plain marks");
        MemoryRoom shortNow = r.next(Map.of(0, 63 * MIB, 1, 255 * MIB));
        assertEquals(Set.of(0, 1), shortNow.shortNodes());
        assertEquals(
                Set.of(0), shortNow.next(Map.of(0, 255 * MIB, 1, 1024 * MIB)).shortNodes());
        assertEquals(
                Set.of(), shortNow.next(Map.of(0, 256 * MIB, 1, 1024 * MIB)).shortNodes());
    }
}
