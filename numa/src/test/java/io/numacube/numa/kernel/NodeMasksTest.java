package io.numacube.numa.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeMasksTest {

    private static final String MEMS_1024 =
            String.join(",", java.util.Collections.nCopies(31, "00000000")) + ",00000001";

    @Test
    void sizesTheMaskFromTheWidthOfMemsAllowedNotItsValue() {
        assertEquals(16, NodeMasks.longsForMemsAllowed(MEMS_1024));
        assertEquals(1, NodeMasks.longsForMemsAllowed("00000001"));
        assertEquals(1, NodeMasks.longsForMemsAllowed("00000000,00000003"));
        assertEquals(2, NodeMasks.longsForMemsAllowed("00000001,00000000,00000000"));
        assertEquals(1, NodeMasks.longsForMemsAllowed(""));
    }

    @Test
    void maxnodeIsOneMoreThanTheMaskBits() {
        assertEquals(65, NodeMasks.maxnode(1));
        assertEquals(1025, NodeMasks.maxnode(16));
    }

    @Test
    void getMempolicyNeverWritesMoreThanTheBuffer() {
        for (int longs = 1; longs <= NodeMasks.MAX_NODE_MASK_LONGS; longs++) {
            assertEquals(8L * longs, NodeMasks.getMempolicyWriteBytes(NodeMasks.maxnode(longs)), "longs=" + longs);
        }
    }

    @Test
    void oversizedMaxnodeWouldOverrunTheBuffer() {
        // the failure the rule prevents: one long of buffer with maxnode 1025 is 128 bytes written
        assertEquals(128, NodeMasks.getMempolicyWriteBytes(1025));
    }

    @Test
    void cpuMasksCoverAtLeast1024Cpus() {
        assertEquals(16, NodeMasks.cpuMaskLongs(1));
        assertEquals(16, NodeMasks.cpuMaskLongs(1023));
        assertEquals(17, NodeMasks.cpuMaskLongs(1024));
        assertEquals(NodeMasks.MAX_CPU_MASK_LONGS, NodeMasks.cpuMaskLongs(1 << 20));
    }

    @Test
    void readsWidthsFromFiles(@TempDir Path dir) throws Exception {
        Path status = dir.resolve("status");
        Files.writeString(status, "Name:\tjava\nMems_allowed:\t" + MEMS_1024 + "\nMems_allowed_list:\t0\n");
        assertEquals(16, NodeMasks.readNodeMaskLongs(status));
        Files.writeString(status, "Name:\tjava\n");
        assertEquals(NodeMasks.DEFAULT_NODE_MASK_LONGS, NodeMasks.readNodeMaskLongs(status));
        Path possible = dir.resolve("possible");
        Files.writeString(possible, "0-2047\n");
        assertEquals(32, NodeMasks.readCpuMaskLongs(possible));
    }

    @Test
    void encodesAndDecodesBitsLittleEndianByLong() {
        BitSet bits = new BitSet();
        bits.set(0);
        bits.set(65);
        bits.set(127);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(java.lang.foreign.ValueLayout.JAVA_LONG, 2);
            NodeMasks.write(mask, bits, 2);
            assertEquals(1L, mask.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
            assertEquals((1L << 1) | (1L << 63), mask.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 1));
            assertEquals(bits, NodeMasks.read(mask, 2));
        }
    }
}
