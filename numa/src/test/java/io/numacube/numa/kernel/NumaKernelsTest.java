package io.numacube.numa.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NumaKernelsTest {

    @Test
    void fallsBackWithAReasonOnOtherOperatingSystems() {
        NumaKernels.Outcome o = NumaKernels.choose("Mac OS X", "aarch64", a -> {
            throw new AssertionError("must not bind");
        });
        assertTrue(o.kernel().isEmpty());
        assertEquals(
                "os.name=Mac OS X: no NUMA calls; pure-Java fallback",
                o.reason().orElseThrow());
    }

    @Test
    void fallsBackOnUnknownArchitectures() {
        NumaKernels.Outcome o = NumaKernels.choose("Linux", "riscv64", a -> {
            throw new AssertionError("must not bind");
        });
        assertTrue(o.reason().orElseThrow().contains("os.arch=riscv64"));
    }

    @Test
    void namesTheFlagWhenNativeAccessIsDenied() {
        NumaKernels.Outcome o = NumaKernels.choose("Linux", "amd64", a -> {
            throw new ExceptionInInitializerError(new IllegalCallerException("Illegal native access"));
        });
        assertTrue(o.kernel().isEmpty());
        assertTrue(
                o.reason().orElseThrow().contains("--enable-native-access=ALL-UNNAMED"),
                o.reason().get());
    }

    @Test
    void picksTheSyscallTableOfTheArchitecture() {
        assertEquals(LinuxKernel.Arch.X86_64, LinuxKernel.Arch.of("amd64"));
        assertEquals(237, LinuxKernel.Arch.of("x86_64").mbind);
        assertEquals(279, LinuxKernel.Arch.X86_64.movePages);
        assertEquals(235, LinuxKernel.Arch.of("aarch64").mbind);
        assertEquals(236, LinuxKernel.Arch.AARCH64.getMempolicy);
        assertEquals(237, LinuxKernel.Arch.AARCH64.setMempolicy);
    }
}
