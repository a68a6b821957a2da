package io.numacube.numa.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.kernel.CpuLocation;
import io.numacube.numa.kernel.Errno;
import io.numacube.numa.kernel.KernelCallException;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.testing.DelegatingKernel;
import io.numacube.numa.testing.ThisProcess;
import io.numacube.numa.topology.CpuSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class ScopedAffinityTest {

    private static NumaKernel real() {
        return NumaKernels.load()
                .orElseThrow(() -> new AssertionError("native path not chosen: "
                        + NumaKernels.unavailableReason().orElse("?")));
    }

    @Test
    void pinsForTheScopeAndRestoresTheFormerAffinity() {
        NumaKernel k = real();
        CpuSet before = k.threadAffinity();
        int last = before.max();
        try (ScopedAffinity pin = ScopedAffinity.pin(Optional.of(k), CpuSet.of(last))) {
            assertTrue(pin.pinned());
            assertEquals(before, pin.previous());
            assertEquals(CpuSet.of(last), k.threadAffinity());
            assertEquals(last, CpuLocator.current(Optional.of(k)).orElseThrow().cpu());
        }
        assertEquals(before, k.threadAffinity());
    }

    @Test
    void closingOnAnotherThreadIsRefusedAndChangesNothing() throws Exception {
        NumaKernel k = real();
        CpuSet before = k.threadAffinity();
        ScopedAffinity pin = ScopedAffinity.pin(Optional.of(k), CpuSet.of(before.max()));
        try {
            CompletableFuture<Throwable> other = new CompletableFuture<>();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    pin.close();
                    other.complete(null);
                } catch (Throwable e) {
                    other.complete(e);
                }
            });
            t.join();
            assertTrue(other.get() instanceof IllegalStateException, String.valueOf(other.get()));
            assertEquals(CpuSet.of(before.max()), k.threadAffinity());
        } finally {
            pin.close();
        }
        assertEquals(before, k.threadAffinity());
    }

    @Test
    void withoutAKernelItIsANoOpWithAReason() {
        try (ScopedAffinity pin = ScopedAffinity.pin(Optional.empty(), CpuSet.of(0))) {
            assertFalse(pin.pinned());
            assertTrue(pin.reason().orElseThrow().contains("no native access"));
            assertTrue(pin.previous().isEmpty());
        }
    }

    @Test
    void aRefusedSetaffinityIsNotPinnedAndNotThrown() {
        NumaKernel k = new DelegatingKernel(real()) {
            @Override
            public void setThreadAffinity(CpuSet cpus) {
                throw new KernelCallException("sched_setaffinity", Errno.EPERM, "(test)");
            }
        };
        try (ScopedAffinity pin = ScopedAffinity.pin(Optional.of(k), CpuSet.of(0))) {
            assertFalse(pin.pinned());
            assertTrue(pin.reason().orElseThrow().contains("EPERM"));
        }
    }

    @Test
    void cpusThatAreNotThereAreAnError() {
        NumaKernel k = real();
        CpuSet before = k.threadAffinity();
        KernelCallException e =
                assertThrows(KernelCallException.class, () -> ScopedAffinity.pin(Optional.of(k), CpuSet.of(4000)));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals(before, k.threadAffinity());
        assertThrows(IllegalArgumentException.class, () -> ScopedAffinity.pin(Optional.of(k), CpuSet.empty()));
    }

    @Test
    void locatorReportsTheNodeOfTheCpuHereAndNothingWithoutAKernel() {
        CpuLocation here = CpuLocator.current(Optional.of(real())).orElseThrow();
        assertEquals(ThisProcess.nodeOfCpu(here.cpu()), here.node(), here::toString);
        assertTrue(CpuLocator.current(Optional.empty()).isEmpty());
    }
}
