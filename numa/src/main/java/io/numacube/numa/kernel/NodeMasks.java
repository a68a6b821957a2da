package io.numacube.numa.kernel;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

/**
 * Sizing and encoding of the {@code unsigned long} bit masks the kernel takes for node and CPU sets. Pure functions
 * and stateless.
 *
 * <p>The node-mask rule (see NUMA-FACTS, "maxnode off-by-one"): a buffer of {@code W} longs is always passed with
 * {@code maxnode = 64*W + 1}. The setting calls use {@code maxnode-1 = 64*W} bits, and get_mempolicy writes
 * {@code ALIGN(maxnode-1, 64)/8 = 8*W} bytes: exactly the buffer, never more. {@code W} comes from the width of
 * {@code Mems_allowed:} in /proc/self/status (the kernel's own node-mask width), at least 1, at most
 * {@value #MAX_NODE_MASK_LONGS} (the kernel refuses maxnode beyond PAGE_SIZE*8 bits).
 */
final class NodeMasks {

    static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;
    /** 1024 node ids: MAX_NUMNODES of distribution kernels, used when /proc/self/status cannot be read. */
    static final int DEFAULT_NODE_MASK_LONGS = 16;

    static final int MAX_NODE_MASK_LONGS = 511;
    /** 1024 CPUs at least, as glibc's cpu_set_t. */
    static final int MIN_CPU_MASK_LONGS = 16;
    /** 65536 CPUs: {@link io.numacube.numa.topology.CpuSet#MAX_CPU_ID} + 1. */
    static final int MAX_CPU_MASK_LONGS = 1024;

    private NodeMasks() {}

    /** Longs needed for a node mask as wide as {@code hexMask} ({@code 00000000,00000001}: 32-bit groups). */
    static int longsForMemsAllowed(String hexMask) {
        String s = hexMask.strip();
        int groups = s.isEmpty() ? 0 : s.split(",", -1).length;
        long bits = 32L * groups;
        int longs = (int) Math.min(MAX_NODE_MASK_LONGS, (bits + 63) / 64);
        return Math.max(1, longs);
    }

    /** The {@code maxnode} argument for a buffer of {@code longs} longs. */
    static long maxnode(int longs) {
        return 64L * longs + 1;
    }

    /** Bytes get_mempolicy writes into the node mask for a given {@code maxnode} (the kernel's copy_nodes_to_user). */
    static long getMempolicyWriteBytes(long maxnode) {
        long bits = maxnode - 1;
        return ((bits + 63) / 64 * 64) / 8;
    }

    /** Longs for a CPU mask covering CPU ids up to {@code maxPossibleCpu}, at least {@value #MIN_CPU_MASK_LONGS}. */
    static int cpuMaskLongs(int maxPossibleCpu) {
        long longs = ((long) maxPossibleCpu + 1 + 63) / 64;
        return (int) Math.min(MAX_CPU_MASK_LONGS, Math.max(MIN_CPU_MASK_LONGS, longs));
    }

    /** Node-mask width from the {@code Mems_allowed:} line of a /proc/self/status file. */
    static int readNodeMaskLongs(Path procSelfStatus) {
        try {
            List<String> lines = Files.readAllLines(procSelfStatus);
            for (String line : lines) {
                if (line.startsWith("Mems_allowed:")) {
                    return longsForMemsAllowed(line.substring("Mems_allowed:".length()));
                }
            }
        } catch (IOException | RuntimeException e) {
            return DEFAULT_NODE_MASK_LONGS;
        }
        return DEFAULT_NODE_MASK_LONGS;
    }

    /** CPU-mask width from /sys/devices/system/cpu/possible ({@code 0-127}). */
    static int readCpuMaskLongs(Path possibleCpus) {
        try {
            String s = Files.readString(possibleCpus).strip();
            int max = io.numacube.numa.topology.CpuSet.parse(s).max();
            return cpuMaskLongs(Math.max(max, 0));
        } catch (IOException | RuntimeException e) {
            return MIN_CPU_MASK_LONGS;
        }
    }

    /** Writes {@code bits} into a zeroed mask of {@code longs} longs; bits past the mask are an error of the caller. */
    static void write(MemorySegment mask, BitSet bits, int longs) {
        long[] words = bits.toLongArray();
        if (words.length > longs) {
            throw new IllegalArgumentException("mask too small: bits=" + bits.length() + " maskBits=" + 64L * longs);
        }
        for (int i = 0; i < longs; i++) {
            mask.setAtIndex(WORD, i, i < words.length ? words[i] : 0L);
        }
    }

    static BitSet read(MemorySegment mask, int longs) {
        long[] words = new long[longs];
        for (int i = 0; i < longs; i++) {
            words[i] = mask.getAtIndex(WORD, i);
        }
        return BitSet.valueOf(words);
    }
}
