package io.numacube.numa.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.kernel.Errno;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.MemPolicyConstants;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.kernel.RawMemoryPolicy;
import io.numacube.numa.testing.ContainerKernel;
import io.numacube.numa.testing.DelegatingKernel;
import io.numacube.numa.testing.ThisMachine;
import io.numacube.numa.testing.ThisProcess;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.NumaNode;
import io.numacube.numa.topology.Topology;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The allocator's contract on this machine, for every placement mode: memory goes to {@link ThisProcess#homeNode()};
 * where mbind is refused (a container's seccomp filter), the promised first-touch fallback takes it there.
 */
@EnabledOnOs(OS.LINUX)
class NodeMemoryTest {

    private static final long EIGHT_MIB = 8L << 20;
    private static final int HOME = ThisProcess.homeNode();

    private static NumaKernel real() {
        return NumaKernels.load()
                .orElseThrow(() -> new AssertionError("native path not chosen: "
                        + NumaKernels.unavailableReason().orElse("?")));
    }

    private static NodeMemory nodeMemory(NumaKernel kernel) {
        return new NodeMemory(
                Optional.of(kernel),
                PolicyProbe.probe(Optional.of(kernel)),
                ThisMachine.topology(),
                kernel.threadAffinity());
    }

    /** The probe's answer with mbind said to work: tests of mbind failing at the call reach the call on any host. */
    private static PolicySupport claimingMbind(NumaKernel kernel) {
        PolicySupport p = PolicyProbe.probe(Optional.of(kernel));
        return new PolicySupport(true, true, p.setMempolicy(), p.getMempolicy(), p.movePages(), p.affinity(), Map.of());
    }

    static PlacementRequest requestFor(PlacementMode mode) {
        return switch (mode) {
            case BIND -> PlacementRequest.bind(HOME);
            case PREFERRED -> PlacementRequest.preferred(HOME);
            case INTERLEAVE -> PlacementRequest.interleave(NodeSet.of(HOME));
            case FIRST_TOUCH -> PlacementRequest.firstTouch(HOME);
            case OS_DEFAULT -> PlacementRequest.osDefault();
        };
    }

    /** The mode the allocator promises here: a mode done by mbind falls back to first touch where mbind is refused. */
    private static PlacementMode appliedHere(PlacementMode mode) {
        boolean byMbind =
                mode == PlacementMode.BIND || mode == PlacementMode.PREFERRED || mode == PlacementMode.INTERLEAVE;
        return byMbind && !ThisProcess.support().mbind() ? PlacementMode.FIRST_TOUCH : mode;
    }

    @ParameterizedTest
    @EnumSource(PlacementMode.class)
    void placesTouchesCountsAndFreesEveryMode(PlacementMode mode) {
        try (NodeMemory memory = nodeMemory(real())) {
            PlacedSegment seg = memory.allocateTouched(EIGHT_MIB, requestFor(mode));
            long address = seg.address();
            assertEquals(EIGHT_MIB, seg.segment().byteSize());
            PlacementMode applied = appliedHere(mode);
            assertEquals(applied, seg.appliedMode());
            if (applied == mode) {
                assertTrue(
                        seg.fallbackReason().isEmpty(),
                        () -> seg.fallbackReason().get());
            } else {
                String reason = seg.fallbackReason().orElseThrow();
                assertTrue(reason.contains("mbind") && reason.contains("EPERM"), reason);
            }
            assertEquals(1, memory.liveSegmentCount());
            assertEquals(EIGHT_MIB, memory.liveBytes());

            PageCensus census = memory.census(seg);
            if (!ThisProcess.support().movePages()) {
                assertEquals(PageCensus.Method.NUMA_MAPS, census.method());
            } else if (applied == PlacementMode.FIRST_TOUCH || applied == PlacementMode.OS_DEFAULT) {
                // move_pages, except where automatic NUMA balancing hid default-policy pages from it and the
                // segment's own numa_maps line counted them
                assertTrue(
                        census.method() == PageCensus.Method.MOVE_PAGES
                                || census.method() == PageCensus.Method.NUMA_MAPS,
                        census::toString);
            } else {
                assertEquals(PageCensus.Method.MOVE_PAGES, census.method());
            }
            assertEquals(EIGHT_MIB / real().pageSizeBytes(), census.totalPages());
            assertEquals(0, census.notPresent(), census::toString);
            if (mode != PlacementMode.OS_DEFAULT) {
                assertEquals(HOME, seg.targetNode());
                assertTrue(census.fractionOn(HOME) >= 0.99, census::toString);
            }
            assertTrue(NumaMaps.mappedInThisProcess(address));

            MemorySegment kept = seg.segment();
            seg.close();
            assertTrue(seg.isClosed());
            assertFalse(
                    NumaMaps.mappedInThisProcess(address), "still mapped after close: 0x" + Long.toHexString(address));
            assertEquals(0, memory.liveSegmentCount());
            assertEquals(0, memory.liveBytes());
            assertThrows(IllegalStateException.class, seg::segment);
            assertThrows(IllegalStateException.class, () -> kept.get(ValueLayout.JAVA_BYTE, 0));
            seg.close();
        }
    }

    @ParameterizedTest
    @EnumSource(PlacementMode.class)
    void numaMapsCensusAgreesWhereMovePagesIsRefused(PlacementMode mode) {
        NumaKernel k = new ContainerKernel(real());
        try (NodeMemory memory = nodeMemory(k)) {
            PlacedSegment seg = memory.allocateTouched(EIGHT_MIB, requestFor(mode));
            PageCensus census = memory.census(seg);
            assertEquals(PageCensus.Method.NUMA_MAPS, census.method());
            assertTrue(census.presentPages() >= census.totalPages(), census::toString);
            if (mode != PlacementMode.OS_DEFAULT) {
                assertTrue(census.fractionOn(HOME) >= 0.99, census::toString);
            }
            seg.close();
        }
    }

    @Test
    void fallsBackToFirstTouchWhenTheProbeFoundMbindRefused() {
        NumaKernel k = new ContainerKernel(real());
        try (NodeMemory memory = nodeMemory(k)) {
            PlacedSegment seg = memory.allocateTouched(EIGHT_MIB, PlacementRequest.bind(HOME));
            assertEquals(PlacementMode.FIRST_TOUCH, seg.appliedMode());
            String reason = seg.fallbackReason().orElseThrow();
            assertTrue(reason.contains("mbind") && reason.contains("EPERM"), reason);
            assertEquals(HOME, seg.targetNode());
            assertTrue(PageLocator.forThisProcess(Optional.of(real()), PolicyProbe.probe(Optional.of(real())))
                            .census(seg.segment())
                            .fractionOn(HOME)
                    >= 0.99);
            seg.close();
        }
    }

    @Test
    void fallsBackToFirstTouchWhenMbindIsRefusedAtTheCall() {
        NumaKernel real = real();
        NumaKernel k = new DelegatingKernel(real) {
            @Override
            public void mbind(MemorySegment segment, int mode, NodeSet nodes, int flags) {
                throw new KernelCallException("mbind", Errno.EPERM, "(test)");
            }
        };
        try (NodeMemory memory =
                new NodeMemory(Optional.of(k), claimingMbind(real), ThisMachine.topology(), real.threadAffinity())) {
            PlacedSegment seg = memory.allocateTouched(EIGHT_MIB, PlacementRequest.preferred(HOME));
            assertEquals(PlacementMode.FIRST_TOUCH, seg.appliedMode());
            String reason = seg.fallbackReason().orElseThrow();
            assertTrue(reason.contains("mbind") && reason.contains("EPERM"), reason);
            seg.close();
        }
    }

    @Test
    void anInvalidMbindIsAnErrorAndLeavesNothingMapped() {
        NumaKernel real = real();
        long[] mapped = new long[1];
        NumaKernel k = new DelegatingKernel(real) {
            @Override
            public MemorySegment mmapAnonymous(long byteSize) {
                MemorySegment s = super.mmapAnonymous(byteSize);
                mapped[0] = s.address();
                return s;
            }

            @Override
            public void mbind(MemorySegment segment, int mode, NodeSet nodes, int flags) {
                throw new KernelCallException("mbind", Errno.EINVAL, "(test)");
            }
        };
        try (NodeMemory memory =
                new NodeMemory(Optional.of(k), claimingMbind(real), ThisMachine.topology(), real.threadAffinity())) {
            KernelCallException e = assertThrows(
                    KernelCallException.class, () -> memory.allocate(EIGHT_MIB, PlacementRequest.bind(HOME)));
            assertEquals(Errno.EINVAL, e.errno());
            assertEquals(0, memory.liveSegmentCount());
            assertFalse(NumaMaps.mappedInThisProcess(mapped[0]));
        }
    }

    @Test
    void firstTouchOfAMemoryOnlyNodeUsesTheNearestNodeWithCpus() {
        NumaKernel k = real();
        Topology mine = ThisMachine.topology();
        NumaNode home = mine.node(HOME).orElseThrow();
        Topology withExpander = new Topology(
                List.of(
                        new NumaNode(0, home.cpus(), home.memTotalBytes(), 0, Map.of(0, 10, 3, 30, 5, 20)),
                        new NumaNode(3, CpuSet.empty(), 1L << 30, 0, Map.of(0, 30, 3, 10, 5, 40)),
                        new NumaNode(5, CpuSet.of(4095), 1L << 30, 0, Map.of(0, 20, 3, 40, 5, 10))),
                mine.onlineCpus(),
                CpuSet.empty(),
                true,
                List.of());
        try (NodeMemory memory =
                new NodeMemory(Optional.of(k), PolicyProbe.probe(Optional.of(k)), withExpander, k.threadAffinity())) {
            assertEquals(home.cpus().and(k.threadAffinity()), memory.fillerCpus(3));
            PlacedSegment seg = memory.allocateTouched(1 << 20, PlacementRequest.firstTouch(3));
            assertEquals(PlacementMode.FIRST_TOUCH, seg.appliedMode());
            assertEquals(0, seg.targetNode());
            String reason = seg.fallbackReason().orElseThrow();
            assertTrue(reason.contains("node 3") && reason.contains("nearest node 0"), reason);
            seg.close();
        }
    }

    @Test
    void touchKeepsDataAndRestoresTheCallersAffinity() {
        NumaKernel k = real();
        CpuSet before = k.threadAffinity();
        try (NodeMemory memory = nodeMemory(k);
                PlacedSegment seg = memory.allocate(3 * k.pageSizeBytes() + 5, PlacementRequest.firstTouch(HOME))) {
            MemorySegment s = seg.segment();
            s.set(ValueLayout.JAVA_LONG, 0, 0x1234_5678_9abcL);
            s.set(ValueLayout.JAVA_BYTE, s.byteSize() - 1, (byte) 9);
            memory.touch(seg);
            assertEquals(0x1234_5678_9abcL, s.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(9, s.get(ValueLayout.JAVA_BYTE, s.byteSize() - 1));
            assertEquals(before, k.threadAffinity());
        }
    }

    @Test
    void pagesAreFaultedInByOnePopulateCallAndByWritesWhereTheKernelHasNone() {
        java.util.concurrent.atomic.AtomicInteger populates = new java.util.concurrent.atomic.AtomicInteger();
        NumaKernel withPopulate = new DelegatingKernel(real()) {
            @Override
            public void madvise(MemorySegment segment, int advice) {
                if (advice == MemPolicyConstants.MADV_POPULATE_WRITE) {
                    populates.incrementAndGet();
                }
                super.madvise(segment, advice);
            }
        };
        assertEveryPagePresentOnHome(withPopulate);
        assertEquals(2, populates.get(), "one madvise(MADV_POPULATE_WRITE) per segment");

        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        NumaKernel older = new DelegatingKernel(real()) {
            @Override
            public void madvise(MemorySegment segment, int advice) {
                if (advice == MemPolicyConstants.MADV_POPULATE_WRITE) {
                    refused.incrementAndGet();
                    throw new KernelCallException("madvise", Errno.EINVAL, "(test: a kernel before 5.14)");
                }
                super.madvise(segment, advice);
            }
        };
        assertEveryPagePresentOnHome(older);
        assertEquals(1, refused.get(), "tried once, then pages written one by one");
    }

    private static void assertEveryPagePresentOnHome(NumaKernel k) {
        try (NodeMemory memory = nodeMemory(k)) {
            for (int i = 0; i < 2; i++) {
                try (PlacedSegment seg = memory.allocate(EIGHT_MIB + 5, requestFor(PlacementMode.BIND))) {
                    seg.segment().set(ValueLayout.JAVA_LONG, 8, 42L);
                    memory.touch(seg);
                    assertEquals(42L, seg.segment().get(ValueLayout.JAVA_LONG, 8));
                    PageCensus census = memory.census(seg);
                    assertEquals(0, census.notPresent(), census::toString);
                    assertTrue(census.fractionOn(HOME) >= 0.99, census::toString);
                }
            }
        }
    }

    @Test
    void aRefusedHugePageAdviceIsANoteNotAFailure() {
        NumaKernel k = new DelegatingKernel(real()) {
            @Override
            public void madvise(MemorySegment segment, int advice) {
                throw new KernelCallException("madvise", Errno.EINVAL, "(test: no THP)");
            }
        };
        try (NodeMemory memory = nodeMemory(k);
                PlacedSegment seg = memory.allocateTouched(
                        EIGHT_MIB, PlacementRequest.bind(HOME).withHugePages(true))) {
            assertEquals(appliedHere(PlacementMode.BIND), seg.appliedMode());
            assertTrue(
                    seg.notes().stream().anyMatch(n -> n.contains("MADV_HUGEPAGE") && n.contains("EINVAL")),
                    seg.notes()::toString);
        }
    }

    @Test
    void hugePagesOnThisMachineDoNotBreakPlacement() {
        try (NodeMemory memory = nodeMemory(real());
                PlacedSegment seg = memory.allocateTouched(
                        EIGHT_MIB, PlacementRequest.bind(HOME).withHugePages(true))) {
            assertTrue(
                    memory.census(seg).fractionOn(HOME) >= 0.99,
                    () -> memory.census(seg).toString());
        }
    }

    @Test
    void withoutAKernelMemoryComesFromAnArenaAndSaysSo() {
        Topology t = ThisMachine.topology();
        try (NodeMemory memory =
                new NodeMemory(Optional.empty(), PolicySupport.none("test: no FFM"), t, t.onlineCpus())) {
            PlacedSegment seg = memory.allocateTouched(EIGHT_MIB, PlacementRequest.bind(HOME));
            assertFalse(seg.isMapped());
            assertEquals(PlacementMode.OS_DEFAULT, seg.appliedMode());
            assertTrue(seg.fallbackReason().orElseThrow().contains("no native access"));
            assertEquals(EIGHT_MIB, seg.segment().byteSize());
            assertEquals(EIGHT_MIB, memory.liveBytes());
            MemorySegment kept = seg.segment();
            seg.close();
            assertThrows(IllegalStateException.class, () -> kept.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(0, memory.liveBytes());
        }
    }

    @Test
    void closingTheAllocatorFreesWhatIsStillLive() {
        NodeMemory memory = nodeMemory(real());
        PlacedSegment a = memory.allocateTouched(1 << 20, PlacementRequest.bind(HOME));
        PlacedSegment b = memory.allocate(1 << 20, PlacementRequest.osDefault());
        memory.close();
        assertTrue(a.isClosed() && b.isClosed());
        assertEquals(0, memory.liveSegmentCount());
        assertFalse(NumaMaps.mappedInThisProcess(a.address()));
        assertThrows(IllegalStateException.class, () -> memory.allocate(1, PlacementRequest.osDefault()));
        memory.close();
    }

    @Test
    void rejectsRequestsThatNameTheWrongNodes() {
        try (NodeMemory memory = nodeMemory(real())) {
            NumacubeException two = assertThrows(
                    NumacubeException.class,
                    () -> memory.allocate(4096, new PlacementRequest(PlacementMode.BIND, NodeSet.of(0, 1), false)));
            assertTrue(two.getMessage().contains("exactly one node"), two.getMessage());
            int absent = ThisMachine.topology().nodeIds().max() + 1;
            NumacubeException unknown =
                    assertThrows(NumacubeException.class, () -> memory.allocate(4096, PlacementRequest.bind(absent)));
            assertTrue(unknown.getMessage().contains("unknown=" + absent), unknown.getMessage());
            NumacubeException size =
                    assertThrows(NumacubeException.class, () -> memory.allocate(0, PlacementRequest.osDefault()));
            assertEquals(NumacubeException.Kind.INVALID_INPUT, size.kind());
            assertEquals(0, memory.liveSegmentCount());
        }
    }

    @Test
    void boundPagesReallyCarryTheBindPolicy() {
        ThisProcess.assumeAllowed("mbind", "get_mempolicy");
        NumaKernel k = real();
        RawMemoryPolicy threadPolicy = k.getMempolicy();
        try (NodeMemory memory = nodeMemory(k);
                PlacedSegment seg = memory.allocateTouched(EIGHT_MIB, PlacementRequest.bind(HOME))) {
            NumaMaps.Mapping m = NumaMaps.ofThisProcess().mappings().stream()
                    .filter(x -> x.contains(seg.address()))
                    .findFirst()
                    .orElseThrow();
            assertEquals("bind=static:" + HOME, m.policy(), "the nodes asked for stay when a cpuset's mems change");
            assertEquals(threadPolicy, k.getMempolicy());
        }
    }

    @Test
    void movesInPlaceChunkByChunkKeepingTheBytesAndBindingTheWholeMapping() {
        ThisProcess.assumeAllowed("mbind");
        NumaKernel k = real();
        long chunk = 1L << 20;
        try (NodeMemory memory = nodeMemory(k);
                PlacedSegment seg = memory.allocateTouched(EIGHT_MIB + 5, PlacementRequest.firstTouch(HOME))) {
            MemorySegment s = seg.segment();
            for (long at = 0; at + Long.BYTES <= s.byteSize(); at += Long.BYTES) {
                s.set(ValueLayout.JAVA_LONG_UNALIGNED, at, at * 31 + 7);
            }
            List<Long> paced = new java.util.ArrayList<>();
            assertEquals(Optional.empty(), memory.moveInPlace(seg, HOME, chunk, paced::add));
            assertEquals(9, paced.size());
            assertEquals(s.byteSize(), paced.stream().mapToLong(Long::longValue).sum());
            for (long at = 0; at + Long.BYTES <= s.byteSize(); at += Long.BYTES) {
                assertEquals(at * 31 + 7, s.get(ValueLayout.JAVA_LONG_UNALIGNED, at), "byte " + at);
            }
            assertTrue(memory.census(seg).fractionOn(HOME) >= 0.99);
            List<NumaMaps.Mapping> lines = NumaMaps.ofThisProcess().overlapping(seg.address(), seg.byteSize());
            assertFalse(lines.isEmpty());
            for (NumaMaps.Mapping m : lines) {
                assertEquals("bind=static:" + HOME, m.policy(), m.toString());
            }
        }
    }

    @Test
    void aRefusedMoveInPlaceIsAReasonAndLeavesTheBytes() {
        NumaKernel real = real();
        NumaKernel k = new DelegatingKernel(real) {
            @Override
            public void mbind(MemorySegment segment, int mode, NodeSet nodes, int flags) {
                if ((flags & io.numacube.numa.kernel.MemPolicyConstants.MPOL_MF_MOVE) != 0) {
                    throw new KernelCallException("mbind", Errno.EPERM, "(test: seccomp)");
                }
                super.mbind(segment, mode, nodes, flags);
            }
        };
        try (NodeMemory memory = new NodeMemory(
                        Optional.of(k), claimingMbind(real), ThisMachine.topology(), real.threadAffinity());
                PlacedSegment seg = memory.allocateTouched(EIGHT_MIB, PlacementRequest.firstTouch(HOME))) {
            seg.segment().set(ValueLayout.JAVA_LONG, 4096, 42L);
            List<Long> paced = new java.util.ArrayList<>();
            String why = memory.moveInPlace(seg, HOME, 1L << 20, paced::add).orElseThrow();
            assertTrue(why.contains("EPERM") && why.contains("node " + HOME), why);
            assertTrue(paced.isEmpty());
            assertEquals(42L, seg.segment().get(ValueLayout.JAVA_LONG, 4096));
        }
    }

    @Test
    void noMoveInPlaceWhereMbindIsNotUsable() {
        NumaKernel real = real();
        PolicySupport p = PolicyProbe.probe(Optional.of(real));
        PolicySupport noMbind = new PolicySupport(
                true, false, p.setMempolicy(), p.getMempolicy(), p.movePages(), p.affinity(), Map.of("mbind", "EPERM"));
        try (NodeMemory memory =
                        new NodeMemory(Optional.of(real), noMbind, ThisMachine.topology(), real.threadAffinity());
                PlacedSegment seg = memory.allocateTouched(EIGHT_MIB, PlacementRequest.firstTouch(HOME))) {
            String why = memory.moveInPlace(seg, HOME, 1L << 20, n -> {
                        throw new AssertionError("paced a move that cannot happen");
                    })
                    .orElseThrow();
            assertTrue(why.contains("mbind not usable"), why);
        }
    }
}
