package io.numacube.numa.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.kernel.MemPolicyConstants;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.testing.ContainerKernel;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class PolicyProbeTest {

    private static NumaKernel real() {
        return NumaKernels.load().orElseThrow(() -> new AssertionError("native path not chosen: "
                + NumaKernels.unavailableReason().orElse("?")));
    }

    @Test
    void everyCallWorksOnThisMachine() {
        PolicySupport s = PolicyProbe.probe(Optional.of(real()));
        assertEquals(new PolicySupport(true, true, true, true, true, true, java.util.Map.of()), s);
    }

    @Test
    void probingLeavesTheThreadPolicyAsItWas() {
        NumaKernel k = real();
        k.setMempolicy(MemPolicyConstants.MPOL_PREFERRED, io.numacube.numa.topology.NodeSet.of(0));
        try {
            PolicyProbe.probe(Optional.of(k));
            assertEquals(MemPolicyConstants.MPOL_PREFERRED, k.getMempolicy().mode());
        } finally {
            k.setMempolicy(MemPolicyConstants.MPOL_DEFAULT, io.numacube.numa.topology.NodeSet.empty());
        }
    }

    @Test
    void recordsEpermRefusalsAsInADefaultContainer() {
        PolicySupport s = PolicyProbe.probe(Optional.of(new ContainerKernel(real())));
        assertTrue(s.nativeAccess());
        assertFalse(s.mbind());
        assertFalse(s.getMempolicy());
        assertFalse(s.setMempolicy());
        assertFalse(s.movePages());
        assertTrue(s.affinity());
        String mbind = s.refusals().get("mbind");
        assertTrue(mbind.startsWith("mbind: errno=EPERM(1)"), mbind);
        assertTrue(mbind.contains("CAP_SYS_NICE") && mbind.contains("first touch"), mbind);
        assertTrue(s.refusals().get("move_pages").contains("numa_maps"), s.refusals().get("move_pages"));
        assertFalse(s.refusals().containsKey("sched_setaffinity"));
    }

    @Test
    void withoutAKernelNothingIsSupported() {
        PolicySupport s = PolicyProbe.probe(Optional.empty());
        assertFalse(s.nativeAccess() || s.mbind() || s.affinity() || s.movePages());
        assertTrue(s.refusals().containsKey("native"));
    }

    @Test
    void theCachedAnswerIsThatOfThisProcess() {
        assertEquals(PolicyProbe.probe(Optional.of(real())), PolicyProbe.current());
    }
}
