package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.cli.multinode.VmResults.CheckLine;
import io.numacube.cli.multinode.VmResults.Config;
import io.numacube.cli.multinode.VmResults.GuestTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The VM of each configuration was what the stage asked for, its seccomp launcher refuses, and every check ran. */
@Tag("multinode")
@ExtendWith(VerdictLog.class)
class GuestEnvironmentTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.numacube.cli.multinode.VmStageLayout#configs")
    void guestKernelSawTheConfiguredNodes(String config) {
        GuestTopology t = VmResults.config(config).topology();
        assertEquals(Set.of(0), t.cpusByNode().get(0), t::toString);
        assertEquals(Set.of(1), t.cpusByNode().get(1), t::toString);
        if (config.equals(VmStageLayout.MEM_ONLY)) {
            assertEquals(3, t.cpusByNode().size(), t::toString);
            assertEquals(Set.of(2), t.memoryOnlyNodes(), t::toString);
        } else {
            assertEquals(2, t.cpusByNode().size(), t::toString);
        }
        t.cpusByNode()
                .keySet()
                .forEach(n -> assertTrue(
                        t.sizeMb().getOrDefault(n, 0L) > 500, () -> "node " + n + " has (almost) no memory: " + t));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.numacube.cli.multinode.VmStageLayout#configs")
    void seccompLauncherRefusesMemoryPoliciesAndAllowsTheRest(String config) {
        String self = VmResults.config(config).read("seccomp-selfcheck.txt");
        String[] blocks = self.split("(?m)^# ");
        assertEquals(4, blocks.length, self);
        assertTrue(
                blocks[1].contains("Operation not permitted") && blocks[1].contains("rc=1"),
                () -> "numactl --membind under the filter must fail with EPERM: " + self);
        assertTrue(blocks[2].strip().endsWith("rc=0"), () -> "true under the filter must succeed: " + self);
        assertTrue(
                Pattern.compile("(?m)^Seccomp:\\s+2$").matcher(blocks[3]).find(),
                () -> "the filter must show as Seccomp: 2 (filter mode): " + self);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.numacube.cli.multinode.VmStageLayout#configs")
    void everyCheckRanAndExitedZero(String config) {
        Config c = VmResults.config(config);
        Map<String, CheckLine> ran = c.checks();
        List<String> expected = new ArrayList<>(VmStageLayout.doctorChecks(config));
        expected.addAll(VmStageLayout.junitChecks(config));
        List<String> bad = new ArrayList<>();
        for (String check : expected) {
            CheckLine line = ran.get(check);
            if (line == null) {
                bad.add(check + ": did not run");
            } else if (line.rc() != 0) {
                bad.add(check + ": exit " + line.rc() + " ("
                        + c.tail(check + ".err").strip() + ")");
            }
        }
        assertTrue(bad.isEmpty(), () -> "config " + config + ": " + String.join("; ", bad));
    }
}
