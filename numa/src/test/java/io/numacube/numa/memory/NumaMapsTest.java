package io.numacube.numa.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.lang.foreign.MemorySegment;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class NumaMapsTest {

    private static Path fixture(String name) {
        try {
            return Path.of(NumaMapsTest.class
                    .getResource("/machines/two-node-policies/proc/self/" + name)
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static NumaMaps fixtureMaps() {
        return NumaMaps.read(fixture("numa_maps"), fixture("maps"));
    }

    private static NumaMaps.Mapping at(NumaMaps maps, long start) {
        return maps.mappings().stream()
                .filter(m -> m.start() == start)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void readsEveryPolicySpelling() {
        NumaMaps maps = fixtureMaps();
        assertEquals(
                List.of(
                        "default",
                        "bind:0",
                        "prefer (many):0-1",
                        "weighted interleave:0-1",
                        "bind=static:1",
                        "interleave:0-1",
                        "default",
                        "prefer:1",
                        "local",
                        "default"),
                maps.mappings().stream().map(NumaMaps.Mapping::policy).toList());
    }

    @Test
    void readsPagesPerNodeAndPageSize() {
        NumaMaps maps = fixtureMaps();
        NumaMaps.Mapping bind = at(maps, 0x7efec03ee000L);
        assertEquals(new TreeMap<>(Map.of(0, 64L)), bind.pagesByNode());
        assertEquals(4, bind.kernelPageSizeKb());
        assertEquals(0x7efec03fe000L, bind.end());
        NumaMaps.Mapping many = at(maps, 0x7efec0400000L);
        assertEquals(new TreeMap<>(Map.of(0, 4L, 1, 6L)), many.pagesByNode());
        NumaMaps.Mapping huge = at(maps, 0x7efec0800000L);
        assertEquals(2048, huge.kernelPageSizeKb());
        assertEquals(2, huge.presentPages());
        assertTrue(at(maps, 0x7efec0c00000L).pagesByNode().isEmpty());
    }

    @Test
    void aFileNameWithEscapedSpacesStaysOneField() {
        NumaMaps.Mapping m = at(fixtureMaps(), 0x7efec0800000L);
        assertEquals("default", m.policy());
        assertEquals(Map.of(1, 2L), m.pagesByNode());
    }

    @Test
    void findsMappingsByContainedAddress() {
        NumaMaps maps = fixtureMaps();
        assertTrue(maps.hasMappingAt(0x7efec03ee000L));
        assertTrue(maps.hasMappingAt(0x7efec03fdfffL));
        assertFalse(maps.hasMappingAt(0x7efec03fe000L));
        assertFalse(maps.hasMappingAt(0x1000L));
    }

    @Test
    void withoutMapsOnlyStartAddressesCount() {
        NumaMaps maps = NumaMaps.read(fixture("numa_maps"));
        assertTrue(maps.hasMappingAt(0x7efec03ee000L));
        assertFalse(maps.hasMappingAt(0x7efec03ee008L));
        assertEquals(-1, maps.mappings().get(0).end());
    }

    @Test
    void censusSumsTheLinesThatMbindSplitAMappingInto() {
        NumaMaps maps = fixtureMaps();
        MemorySegment range = MemorySegment.ofAddress(0x7efec0400000L).reinterpret(0x200000L);
        PageCensus c = PageLocator.byNumaMaps(maps, range, 4096, 512);
        assertEquals(PageCensus.Method.NUMA_MAPS, c.method());
        assertEquals(new TreeMap<>(Map.of(0, 8L, 1, 10L)), c.pagesByNode());
        assertEquals(512 - 18, c.notPresent());
        assertEquals(10.0 / 18, c.fractionOn(1), 1e-12);
    }

    @Test
    void censusScalesHugetlbPagesToBasePages() {
        MemorySegment range = MemorySegment.ofAddress(0x7efec0800000L).reinterpret(0x400000L);
        PageCensus c = PageLocator.byNumaMaps(fixtureMaps(), range, 4096, 1024);
        assertEquals(Map.of(1, 1024L), c.pagesByNode());
        assertEquals(0, c.notPresent());
    }

    @Test
    void aBadAddressIsASyntaxErrorWithTheLineNumber() {
        NumacubeException e = assertThrows(
                NumacubeException.class,
                () -> NumaMaps.parse(List.of("7efec03ee000 default N0=1", "zz12 bind:0 N0=1"), "numa_maps"));
        assertEquals(NumacubeException.Kind.SYNTAX, e.kind());
        assertTrue(e.getMessage().startsWith("numa_maps:2: \"zz12\" is not a hex address"), e.getMessage());
    }

    @Test
    void thisProcessHasItsOwnMappingsAndNotAnUnmappedPage() {
        NumaMaps self = NumaMaps.ofThisProcess();
        assertFalse(self.mappings().isEmpty());
        assertTrue(self.mappings().stream().allMatch(m -> m.end() > m.start() || m.end() < 0));
        assertFalse(self.hasMappingAt(0L));
    }
}
