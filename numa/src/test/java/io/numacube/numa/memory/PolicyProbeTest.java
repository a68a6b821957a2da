package io.numacube.numa.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.kernel.MemPolicyConstants;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.kernel.RawMemoryPolicy;
import io.numacube.numa.testing.ContainerKernel;
import io.numacube.numa.testing.ThisProcess;
import io.numacube.numa.topology.NodeSet;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class PolicyProbeTest {

    private static NumaKernel real() {
        return NumaKernels.load()
                .orElseThrow(() -> new AssertionError("native path not chosen: "
                        + NumaKernels.unavailableReason().orElse("?")));
    }

    @Test
    void everyCallWorksHereUnlessASeccompFilterRefusesIt() {
        PolicySupport s = PolicyProbe.probe(Optional.of(real()));
        if (!ThisProcess.seccompFiltered()) {
            assertEquals(new PolicySupport(true, true, true, true, true, true, Map.of()), s);
            return;
        }
        assertTrue(s.nativeAccess() && s.affinity(), s::toString);
        Map<String, Boolean> works = Map.of(
                "mbind",
                s.mbind(),
                "set_mempolicy",
                s.setMempolicy(),
                "get_mempolicy",
                s.getMempolicy(),
                "move_pages",
                s.movePages());
        assertTrue(works.keySet().containsAll(s.refusals().keySet()), s::toString);
        works.forEach((call, ok) -> {
            String refusal = s.refusals().get(call);
            assertEquals(ok, refusal == null, s::toString);
            assertTrue(
                    ok || refusal.contains("EPERM") || refusal.startsWith("not tried: get_mempolicy failed"), refusal);
        });
    }

    @Test
    void probingLeavesTheThreadPolicyAsItWas() {
        ThisProcess.assumeAllowed("get_mempolicy", "set_mempolicy");
        NumaKernel k = real();
        RawMemoryPolicy before = k.getMempolicy();
        k.setMempolicy(MemPolicyConstants.MPOL_PREFERRED, NodeSet.of(ThisProcess.homeNode()));
        try {
            PolicyProbe.probe(Optional.of(k));
            assertEquals(
                    new RawMemoryPolicy(MemPolicyConstants.MPOL_PREFERRED, 0, NodeSet.of(ThisProcess.homeNode())),
                    k.getMempolicy());
        } finally {
            k.setMempolicy(before.mode() | before.modeFlags(), before.nodes());
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
        assertTrue(
                s.refusals().get("move_pages").contains("numa_maps"),
                s.refusals().get("move_pages"));
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
