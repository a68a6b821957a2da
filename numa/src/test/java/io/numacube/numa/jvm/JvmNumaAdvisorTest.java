package io.numacube.numa.jvm;

import static io.numacube.numa.testing.Machines.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.binding.MemoryPolicy;
import io.numacube.numa.binding.MemoryPolicy.Mode;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.binding.ProcessBindingReader;
import io.numacube.numa.jvm.JvmNumaAdvice.Prediction;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.testing.Machine;
import io.numacube.numa.testing.Seed000;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.Topology;
import io.numacube.numa.topology.TopologyReader;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class JvmNumaAdvisorTest {

    static List<Seed000> seedRows() {
        return Seed000.rows();
    }

    @ParameterizedTest
    @MethodSource("seedRows")
    void predictsJdk25AfterPatchColumnForEverySeedRow(Seed000 row) {
        JvmNumaAdvice a =
                JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "Parallel", row.topology(), row.binding(), Machine.full());
        assertEquals(row.jdk25(), a.prediction(), () -> row.name() + ": " + a.reason());
    }

    @ParameterizedTest
    @MethodSource("seedRows")
    void predictsJdk24BeforePatchColumnForEverySeedRow(Seed000 row) {
        JvmNumaAdvice a =
                JvmNumaAdvisor.predict(24, UseNumaFlag.ON, "G1", row.topology(), row.binding(), Machine.full());
        assertEquals(row.jdk24(), a.prediction(), () -> row.name() + ": " + a.reason());
    }

    @Test
    void turnsOffOnJdk25WhenMemoryAndCpuNodesDoNotMatch() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0", Machine.policy(Mode.LOCAL, ""));
        JvmNumaAdvice a = JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "G1", t, b, Machine.full());
        assertEquals(Prediction.OFF, a.prediction());
        assertTrue(a.reason().startsWith("The process memory and cpu node configuration does not match"), a.reason());
        assertTrue(
                a.advice().stream().anyMatch(s -> s.contains("CPUs and memory meet: 0")),
                a.advice().toString());
    }

    @Test
    void warnsThatJdk24SplitsEdenOverUnusedNodesOnMismatch() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0", Machine.policy(Mode.LOCAL, ""));
        JvmNumaAdvice a = JvmNumaAdvisor.predict(21, UseNumaFlag.ON, "Parallel", t, b, Machine.full());
        assertEquals(Prediction.ON, a.prediction());
        assertTrue(
                a.advice().stream()
                        .anyMatch(s -> s.startsWith("eden is split across memory nodes 0-1")
                                && s.contains("part on nodes 1 is never allocated from")),
                a.advice().toString());
    }

    @Test
    void turnsOffWhenGetMempolicyIsRefused() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0-1", MemoryPolicy.unknown());
        JvmNumaAdvice a = JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "G1", t, b, Machine.container());
        assertEquals(Prediction.OFF, a.prediction());
        assertTrue(a.reason().startsWith("Failed to initialize libnuma"), a.reason());
        assertTrue(
                a.advice().stream().anyMatch(s -> s.contains("EPERM")),
                a.advice().toString());
    }

    @Test
    void turnsOffOnOneNodeMachine() {
        Topology t = TopologyReader.read(machine("laptop-one-node"));
        ProcessBinding b = ProcessBindingReader.read(machine("laptop-one-node"), Optional.empty());
        JvmNumaAdvice a = JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "G1", t, b, Machine.full());
        assertEquals(Prediction.OFF, a.prediction());
        assertTrue(a.reason().startsWith("Only a single NUMA node is available"), a.reason());
    }

    @Test
    void turnsOffOnSingleSparseNodeThroughTheMemoryMaskRule() {
        Topology t = Machine.nodes(4, 1);
        ProcessBinding b = Machine.binding(CpuSet.parse("0-3"), NodeSet.of(4), MemoryPolicy.defaultPolicy());
        JvmNumaAdvice a = JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "G1", t, b, Machine.full());
        assertEquals(Prediction.OFF, a.prediction());
        assertTrue(a.reason().startsWith("The process is bound to a single NUMA node"), a.reason());
    }

    @Test
    void turnsOffOnJdk25WhenAMemoryOnlyNodeIsAllowed() {
        Topology t = TopologyReader.read(machine("two-node-memory-only"));
        ProcessBinding b = ProcessBindingReader.read(machine("two-node-memory-only"), Optional.empty());
        JvmNumaAdvice a = JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "G1", t, b, Machine.full());
        assertEquals(Prediction.OFF, a.prediction());
        assertTrue(a.reason().contains("memory nodes 0-2, CPU nodes 0-1"), a.reason());
    }

    @Test
    void staysOnForSparseFourNodeMachine() {
        Topology t = TopologyReader.read(machine("four-node-sparse"));
        ProcessBinding b = ProcessBindingReader.read(machine("four-node-sparse"), Optional.empty());
        JvmNumaAdvice a = JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "Z", t, b, Machine.full());
        assertEquals(Prediction.ON, a.prediction());
        assertTrue(
                a.advice().stream().anyMatch(s -> s.startsWith("UseNUMA places only the young generation")),
                a.advice().toString());
    }

    @Test
    void isNotRequestedWhenFlagIsOffOrTheGcLeavesItOff() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0-1", MemoryPolicy.defaultPolicy());
        JvmNumaAdvice off = JvmNumaAdvisor.predict(25, UseNumaFlag.OFF, "Z", t, b, Machine.full());
        assertEquals(Prediction.NOT_REQUESTED, off.prediction());
        assertTrue(off.reason().contains("-XX:-UseNUMA"), off.reason());
        JvmNumaAdvice g1 = JvmNumaAdvisor.predict(25, UseNumaFlag.DEFAULT, "G1", t, b, Machine.full());
        assertEquals(Prediction.NOT_REQUESTED, g1.prediction());
        assertTrue(
                g1.advice().stream().anyMatch(s -> s.startsWith("numacube places its own off-heap data")),
                g1.advice().toString());
    }

    @Test
    void zgcTurnsUseNumaOnByDefault() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0-1", MemoryPolicy.defaultPolicy());
        JvmNumaAdvice a = JvmNumaAdvisor.predict(25, UseNumaFlag.DEFAULT, "ZGC", t, b, Machine.full());
        assertEquals(Prediction.ON, a.prediction());
        assertTrue(
                a.advice().stream().anyMatch(s -> s.startsWith("ZGC turns UseNUMA on by default")),
                a.advice().toString());
    }

    @Test
    void hasNoEffectWithCollectorsThatIgnoreIt() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0-1", MemoryPolicy.defaultPolicy());
        assertEquals(
                Prediction.NO_EFFECT,
                JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "Serial", t, b, Machine.full())
                        .prediction());
        assertEquals(
                Prediction.NO_EFFECT,
                JvmNumaAdvisor.predict(11, UseNumaFlag.ON, "G1", t, b, Machine.full())
                        .prediction());
        assertEquals(
                Prediction.ON,
                JvmNumaAdvisor.predict(17, UseNumaFlag.ON, "G1", t, b, Machine.full())
                        .prediction());
    }

    @Test
    void saysWhenGetMempolicyCouldNotBeProbed() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0-1", MemoryPolicy.unknown());
        JvmNumaAdvice a = JvmNumaAdvisor.predict(25, UseNumaFlag.ON, "G1", t, b, PolicySupport.none("no FFM"));
        assertEquals(Prediction.ON, a.prediction());
        assertTrue(
                a.advice().stream().anyMatch(s -> s.contains("could not probe get_mempolicy")),
                a.advice().toString());
        assertTrue(
                a.advice().stream().anyMatch(s -> s.contains("memory policy is unknown")),
                a.advice().toString());
    }

    @ParameterizedTest
    @CsvSource({
        "G1,G1",
        "G1 Young Generation,G1",
        "-XX:+UseG1GC,G1",
        "Parallel,PARALLEL",
        "PS Scavenge,PARALLEL",
        "ZGC Cycles,Z",
        "Z,Z",
        "Shenandoah Pauses,SHENANDOAH",
        "Copy,SERIAL",
        "MarkSweepCompact,SERIAL",
        "UseSerialGC,SERIAL",
        "Epsilon,EPSILON",
        "whatever,UNKNOWN"
    })
    void recognisesGcNames(String name, JvmGc gc) {
        assertEquals(gc, JvmGc.fromName(name));
    }
}
