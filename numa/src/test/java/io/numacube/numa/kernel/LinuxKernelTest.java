package io.numacube.numa.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.testing.ThisProcess;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Round trips through the real kernel of this Linux machine, whichever its nodes and its seccomp filter. */
@EnabledOnOs(OS.LINUX)
class LinuxKernelTest {

    private static NumaKernel kernel;

    @BeforeAll
    static void bind() {
        kernel = NumaKernels.load()
                .orElseThrow(() -> new AssertionError("native path not chosen on Linux: "
                        + NumaKernels.unavailableReason().orElse("?")));
    }

    @Test
    void choosesTheNativePathOnLinux() {
        String arch = System.getProperty("os.arch");
        if (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64")) {
            assertTrue(
                    NumaKernels.load().isPresent(),
                    () -> "native NUMA path was not chosen: "
                            + NumaKernels.unavailableReason().orElse("?"));
            assertTrue(NumaKernels.unavailableReason().isEmpty());
            assertTrue(NumaKernels.load().get() instanceof LinuxKernel);
        }
    }

    @Test
    void pageSizeIsAPowerOfTwo() {
        long ps = kernel.pageSizeBytes();
        assertTrue(ps >= 4096 && Long.bitCount(ps) == 1, "pageSize=" + ps);
    }

    @Test
    void mmapGivesWritableZeroedMemoryAndMunmapReleasesIt() {
        long bytes = 5 * kernel.pageSizeBytes() + 123;
        MemorySegment seg = kernel.mmapAnonymous(bytes);
        assertEquals(bytes, seg.byteSize());
        assertEquals(0, seg.address() % kernel.pageSizeBytes());
        assertEquals(0L, seg.get(ValueLayout.JAVA_LONG, 0));
        seg.set(ValueLayout.JAVA_LONG, bytes - 8 - 3, 42L);
        assertEquals(42L, seg.get(ValueLayout.JAVA_LONG, bytes - 8 - 3));
        assertTrue(mapped(seg.address()));
        kernel.munmap(seg);
        assertFalse(mapped(seg.address()));
    }

    @Test
    void twoMappingsMadeOneAfterTheOtherStayApartInNumaMaps() {
        long ps = kernel.pageSizeBytes();
        MemorySegment a = kernel.mmapAnonymous(4 * ps);
        MemorySegment b = kernel.mmapAnonymous(4 * ps);
        try {
            a.fill((byte) 1);
            b.fill((byte) 2);
            for (MemorySegment s : new MemorySegment[] {a, b}) {
                var covering = io.numacube.numa.memory.NumaMaps.ofThisProcess().overlapping(s.address(), s.byteSize());
                assertEquals(1, covering.size(), covering::toString);
                assertEquals(s.address(), covering.get(0).start(), "merged with the mapping below");
                assertEquals(s.address() + s.byteSize(), covering.get(0).end(), "merged with the mapping above");
                assertEquals(4, covering.get(0).presentPages());
            }
        } finally {
            kernel.munmap(a);
            kernel.munmap(b);
        }
        assertFalse(mapped(a.address() - ps), "the guard page below stays mapped");
        assertFalse(mapped(b.address() + b.byteSize()), "the guard page above stays mapped");
    }

    @Test
    void mbindThenTouchPutsEveryPageOnTheBoundNode() {
        ThisProcess.assumeAllowed("mbind", "move_pages");
        int node = ThisProcess.homeNode();
        int pages = 64;
        MemorySegment seg = kernel.mmapAnonymous(pages * kernel.pageSizeBytes());
        try {
            kernel.mbind(seg, MemPolicyConstants.MPOL_BIND, NodeSet.of(node), 0);
            int[] before = kernel.pageNodes(seg);
            assertEquals(pages, before.length);
            assertTrue(Arrays.stream(before).allMatch(s -> s == -Errno.ENOENT), Arrays.toString(before));
            for (long off = 0; off < seg.byteSize(); off += kernel.pageSizeBytes()) {
                seg.set(ValueLayout.JAVA_BYTE, off, (byte) 1);
            }
            int[] onNode = new int[pages];
            Arrays.fill(onNode, node);
            assertArrayEquals(onNode, kernel.pageNodes(seg));
        } finally {
            kernel.munmap(seg);
        }
    }

    @Test
    void movePagesSaysNotPresentForUntouchedPages() {
        ThisProcess.assumeAllowed("mbind", "move_pages");
        int node = ThisProcess.homeNode();
        MemorySegment seg = kernel.mmapAnonymous(3 * kernel.pageSizeBytes());
        try {
            kernel.mbind(seg, MemPolicyConstants.MPOL_BIND, NodeSet.of(node), 0);
            seg.set(ValueLayout.JAVA_BYTE, kernel.pageSizeBytes(), (byte) 7);
            assertArrayEquals(new int[] {-Errno.ENOENT, node, -Errno.ENOENT}, kernel.pageNodes(seg));
        } finally {
            kernel.munmap(seg);
        }
    }

    @Test
    void mbindToANodeBeyondTheMaskIsAKernelCallException() {
        MemorySegment seg = kernel.mmapAnonymous(kernel.pageSizeBytes());
        try {
            KernelCallException e = assertThrows(
                    KernelCallException.class,
                    () -> kernel.mbind(seg, MemPolicyConstants.MPOL_BIND, NodeSet.of(4095), 0));
            assertEquals("mbind", e.call());
            assertTrue(e.getMessage().contains("node=4095"), e.getMessage());
        } finally {
            kernel.munmap(seg);
        }
    }

    @Test
    void mbindRefusesAnUnalignedAddressWithEinval() {
        ThisProcess.assumeAllowed("mbind");
        MemorySegment seg = kernel.mmapAnonymous(2 * kernel.pageSizeBytes());
        try {
            KernelCallException e = assertThrows(
                    KernelCallException.class,
                    () -> kernel.mbind(
                            seg.asSlice(8), MemPolicyConstants.MPOL_BIND, NodeSet.of(ThisProcess.homeNode()), 0));
            assertEquals(Errno.EINVAL, e.errno());
            assertTrue(e.getMessage().contains("errno=EINVAL(22)"), e.getMessage());
        } finally {
            kernel.munmap(seg);
        }
    }

    @Test
    void setMempolicyRoundTripsAndRestoresTheThreadPolicy() {
        ThisProcess.assumeAllowed("get_mempolicy", "set_mempolicy");
        int node = ThisProcess.homeNode();
        RawMemoryPolicy before = kernel.getMempolicy();
        try {
            kernel.setMempolicy(MemPolicyConstants.MPOL_BIND, NodeSet.of(node));
            RawMemoryPolicy bound = kernel.getMempolicy();
            assertEquals(MemPolicyConstants.MPOL_BIND, bound.mode());
            assertEquals(NodeSet.of(node), bound.nodes());
            kernel.setMempolicy(MemPolicyConstants.MPOL_DEFAULT, NodeSet.empty());
            RawMemoryPolicy reset = kernel.getMempolicy();
            assertEquals(MemPolicyConstants.MPOL_DEFAULT, reset.mode());
            assertTrue(reset.nodes().isEmpty(), reset::toString);
        } finally {
            kernel.setMempolicy(before.mode() | before.modeFlags(), before.nodes());
        }
        assertEquals(before, kernel.getMempolicy());
    }

    @Test
    void memsAllowedMatchesProcSelfStatus() throws Exception {
        ThisProcess.assumeAllowed("get_mempolicy");
        NodeSet allowed = kernel.memsAllowed();
        assertFalse(allowed.isEmpty());
        String list = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Mems_allowed_list:"))
                .findFirst()
                .orElseThrow()
                .substring("Mems_allowed_list:".length());
        assertEquals(NodeSet.parse(list), allowed);
    }

    @Test
    void affinityCanBeNarrowedAndRestored() {
        CpuSet original = kernel.threadAffinity();
        assertFalse(original.isEmpty());
        int one = original.stream().max().getAsInt();
        try {
            kernel.setThreadAffinity(CpuSet.of(one));
            assertEquals(CpuSet.of(one), kernel.threadAffinity());
            assertEquals(one, kernel.currentCpu().cpu());
        } finally {
            kernel.setThreadAffinity(original);
        }
        assertEquals(original, kernel.threadAffinity());
    }

    @Test
    void anotherThreadIsPinnedByItsThreadId() throws Exception {
        CpuSet original = kernel.threadAffinity();
        int one = original.stream().max().getAsInt();
        java.util.concurrent.CompletableFuture<Integer> tid = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CountDownLatch pinned = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<CpuSet> seen = new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            tid.complete(kernel.threadId());
            try {
                pinned.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            seen.set(kernel.threadAffinity());
        });
        int id = tid.get();
        assertTrue(id > 0 && id != kernel.threadId(), "a thread id of its own: " + id);
        kernel.setThreadAffinity(id, CpuSet.of(one));
        pinned.countDown();
        t.join();
        assertEquals(CpuSet.of(one), seen.get(), "the other thread's affinity, read by itself");
        assertEquals(original, kernel.threadAffinity(), "the calling thread's own is untouched");
        // the kernel reaps a thread a little after Java's join returns
        long deadline = System.nanoTime() + 10_000_000_000L;
        KernelCallException gone = null;
        while (gone == null && System.nanoTime() < deadline) {
            try {
                kernel.setThreadAffinity(id, original);
                Thread.sleep(10);
            } catch (KernelCallException e) {
                gone = e;
            }
        }
        assertTrue(gone != null && gone.errno() == Errno.ESRCH, "a thread that ended: " + gone);
    }

    @Test
    void emptyAffinityIsRefusedBeforeTheCall() {
        KernelCallException e = assertThrows(KernelCallException.class, () -> kernel.setThreadAffinity(CpuSet.empty()));
        assertEquals(Errno.EINVAL, e.errno());
    }

    @Test
    void getcpuReportsTheNodeOfItsCpu() {
        CpuLocation loc = kernel.currentCpu();
        assertEquals(ThisProcess.nodeOfCpu(loc.cpu()), loc.node(), loc::toString);
        assertTrue(kernel.threadAffinity().contains(loc.cpu()), loc.toString());
    }

    @Test
    void heapSegmentsAreRefused() {
        MemorySegment heap = MemorySegment.ofArray(new byte[4096]);
        KernelCallException e = assertThrows(KernelCallException.class, () -> kernel.pageNodes(heap));
        assertEquals("move_pages", e.call());
    }

    private static boolean mapped(long address) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                String[] r = line.substring(0, line.indexOf(' ')).split("-");
                long lo = Long.parseUnsignedLong(r[0], 16);
                long hi = Long.parseUnsignedLong(r[1], 16);
                if (Long.compareUnsigned(address, lo) >= 0 && Long.compareUnsigned(address, hi) < 0) {
                    return true;
                }
            }
            return false;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
