package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.cli.multinode.VmResults.GuestTopology;
import io.numacube.cli.multinode.VmResults.ProcessEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** The VM stage's result readers (runs in the default build, no VM needed): absent results fail, never skip. */
class VmResultsTest {

    @TempDir
    Path dir;

    private static void withResults(Path root, Executable body) throws Throwable {
        String old = System.getProperty(VmResults.PROPERTY);
        System.setProperty(VmResults.PROPERTY, root.toString());
        try {
            body.execute();
        } finally {
            if (old == null) {
                System.clearProperty(VmResults.PROPERTY);
            } else {
                System.setProperty(VmResults.PROPERTY, old);
            }
        }
    }

    @Test
    void hostAssertionsFailWhenTheResultsDirectoryIsMissing() throws Throwable {
        withResults(dir.resolve("nothing-here"), () -> {
            AssertionError e = assertThrows(
                    AssertionError.class,
                    () -> new PlacementInVmTest().pagesLandOnTheIntendedNode("two-node", "plain"));
            assertTrue(e.getMessage().contains("nothing-here"), e::getMessage);
        });
    }

    @Test
    void hostAssertionsFailWhenACheckLeftNoOutput() throws Throwable {
        Path config = Files.createDirectories(dir.resolve("two-node"));
        Files.writeString(config.resolve("checks.tsv"), "plain\t0\t1.0\tnumacube doctor\n");
        Files.writeString(config.resolve("numactl-H.txt"), "node 0 cpus: 0\nnode 0 size: 900 MB\n");
        withResults(dir, () -> {
            AssertionError e = assertThrows(
                    AssertionError.class,
                    () -> new DoctorPlanInVmTest().planUsesOnlyNodesTheProcessMayUseAndSaysWhy("two-node", "membind1"));
            assertTrue(e.getMessage().contains("membind1"), e::getMessage);
            assertThrows(AssertionError.class, () -> new GuestEnvironmentTest().everyCheckRanAndExitedZero("two-node"));
            assertThrows(
                    AssertionError.class,
                    () -> new GuestJUnitReportsTest().multinodeTestsRanInTheGuestAndPassed("two-node", "junit"));
        });
    }

    @Test
    void doctorOutputThatIsNotJsonFailsWithItsStderr() throws Throwable {
        Path config = Files.createDirectories(dir.resolve("two-node"));
        Files.writeString(config.resolve("plain.json"), "");
        Files.writeString(config.resolve("plain.err"), "Unmatched arguments from index 0: 'doctor'");
        withResults(dir, () -> {
            AssertionError e = assertThrows(
                    AssertionError.class, () -> VmResults.config("two-node").json("plain"));
            assertTrue(e.getMessage().contains("Unmatched arguments"), e::getMessage);
            Files.writeString(config.resolve("plain.json"), "{\"plan\": ");
            assertThrows(
                    AssertionError.class, () -> VmResults.config("two-node").json("plain"));
        });
    }

    @Test
    void numactlHardwareListingGivesCpusPerNodeAndTheMemoryOnlyNode() {
        GuestTopology t = GuestTopology.parseNumactl("test", """
                available: 3 nodes (0-2)
                node 0 cpus: 0
                node 0 size: 962 MB
                node 0 free: 900 MB
                node 1 cpus: 1
                node 1 size: 1007 MB
                node 2 cpus:
                node 2 size: 1008 MB
                node distances:
                node   0   1   2
                  0:  10  20  20
                """);
        assertEquals(Set.of(0, 1, 2), t.cpusByNode().keySet());
        assertEquals(Set.of(), t.cpusByNode().get(2));
        assertEquals(Set.of(2), t.memoryOnlyNodes());
        assertEquals(Set.of(1), t.nodesOf(Set.of(1)));
        assertEquals(1007L, t.sizeMb().get(1));
    }

    @Test
    void processEnvNeedsAllThreeLinesAndParsesLists() {
        ProcessEnv env = ProcessEnv.parse("t", "Seccomp:\t2\nCpus_allowed_list:\t0-1,3\nMems_allowed_list:\t1\n");
        assertEquals(Set.of(0, 1, 3), env.cpus());
        assertEquals(Set.of(1), env.mems());
        assertEquals(2, env.seccomp());
        assertThrows(AssertionError.class, () -> ProcessEnv.parse("t", "Seccomp:\t0\n"));
    }

    @Test
    void processPolicyTextSplitsIntoModeAndNodes() {
        assertEquals(new Doctor.Policy("bind", new java.util.TreeSet<>(Set.of(0, 1))), Doctor.Policy.parse("bind:0-1"));
        assertEquals(
                new Doctor.Policy("bind", new java.util.TreeSet<>(Set.of(2))), Doctor.Policy.parse("bind=static:2"));
        assertEquals(new Doctor.Policy("default", new java.util.TreeSet<>()), Doctor.Policy.parse("default"));
    }

    @Test
    void kernelListFormatParsesRangesAndEmpty() {
        assertEquals(Set.of(0, 1, 2, 5), VmResults.parseList("0-2,5\n"));
        assertEquals(Set.of(), VmResults.parseList(""));
        assertThrows(IllegalArgumentException.class, () -> VmResults.parseList("1-2-3"));
    }
}
