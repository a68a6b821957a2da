package io.numacube.numa.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.numa.testing.FakeNumaKernel;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which count {@link PageLocator} believes when move_pages and numa_maps disagree. */
class PageLocatorTest {

    private static final long START = 0x7f0000100000L;
    private static final int PAGES = 8;
    private static final int ENOENT = -2;

    @TempDir
    Path dir;

    private final FakeNumaKernel kernel = new FakeNumaKernel();
    private final MemorySegment segment = MemorySegment.ofAddress(START).reinterpret(PAGES * 4096L);

    @BeforeEach
    void allPresentOnNodeOne() {
        kernel.pageNodes = new int[] {1, 1, 1, 1, 1, 1, 1, 1};
    }

    private PageLocator locator(String numaMapsLine, String mapsLine) throws IOException {
        Path numaMaps = Files.writeString(dir.resolve("numa_maps"), numaMapsLine + "\n");
        Path maps = Files.writeString(dir.resolve("maps"), mapsLine + "\n");
        PolicySupport support = new PolicySupport(true, true, true, true, true, true, Map.of());
        return new PageLocator(Optional.of(kernel), support, numaMaps, maps);
    }

    private static String mapsLine(long start, long end) {
        return Long.toHexString(start) + "-" + Long.toHexString(end) + " rw-p 00000000 00:00 0";
    }

    @Test
    void aCompleteMovePagesCountIsTheAnswer() throws IOException {
        PageCensus c = locator(Long.toHexString(START) + " default anon=8 N0=8", mapsLine(START, START + PAGES * 4096L))
                .census(segment);
        assertEquals(PageCensus.Method.MOVE_PAGES, c.method());
        assertEquals(Map.of(1, 8L), c.pagesByNode());
    }

    @Test
    void pagesThatBalancingHidFromMovePagesAreCountedFromTheSegmentsOwnNumaMapsLine() throws IOException {
        kernel.pageNodes = new int[] {1, ENOENT, ENOENT, 1, ENOENT, 1, 1, ENOENT};
        PageCensus c = locator(Long.toHexString(START) + " default anon=8 N1=8", mapsLine(START, START + PAGES * 4096L))
                .census(segment);
        assertEquals(PageCensus.Method.NUMA_MAPS, c.method());
        assertEquals(Map.of(1, 8L), c.pagesByNode());
        assertEquals(0, c.notPresent());
    }

    @Test
    void aNumaMapsLineThatAlsoCoversANeighbourIsNotBelieved() throws IOException {
        kernel.pageNodes = new int[] {1, ENOENT, 1, 1, 1, 1, 1, 1};
        PageCensus c = locator(
                        Long.toHexString(START - 4096) + " default anon=9 N0=9",
                        mapsLine(START - 4096, START + PAGES * 4096L))
                .census(segment);
        assertEquals(PageCensus.Method.MOVE_PAGES, c.method());
        assertEquals(Map.of(1, 7L), c.pagesByNode());
        assertEquals(1, c.notPresent());
    }

    @Test
    void pagesReallyAbsentStayAbsent() throws IOException {
        kernel.pageNodes = new int[] {1, 1, ENOENT, ENOENT, ENOENT, ENOENT, ENOENT, ENOENT};
        PageCensus c = locator(Long.toHexString(START) + " default anon=2 N1=2", mapsLine(START, START + PAGES * 4096L))
                .census(segment);
        assertEquals(PageCensus.Method.MOVE_PAGES, c.method());
        assertEquals(6, c.notPresent());
    }

    @Test
    void withoutMovePagesNumaMapsAnswers() throws IOException {
        kernel.refuse.put("move_pages", 1);
        PageCensus c = locator(Long.toHexString(START) + " default anon=3 N0=3", mapsLine(START, START + PAGES * 4096L))
                .census(segment);
        assertEquals(PageCensus.Method.NUMA_MAPS, c.method());
        assertEquals(Map.of(0, 3L), c.pagesByNode());
        assertEquals(5, c.notPresent());
    }
}
