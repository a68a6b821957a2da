package io.numacube.numa.plan;

import static io.numacube.numa.testing.Machines.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.binding.MemoryPolicy;
import io.numacube.numa.binding.MemoryPolicy.Mode;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.binding.ProcessBindingReader;
import io.numacube.numa.memory.PlacementMode;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.testing.Machine;
import io.numacube.numa.testing.Seed000;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import io.numacube.numa.topology.SystemRoot;
import io.numacube.numa.topology.Topology;
import io.numacube.numa.topology.TopologyReader;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PlacementPlannerTest {

    static List<Seed000> seedRows() {
        return Seed000.rows();
    }

    @ParameterizedTest
    @MethodSource("seedRows")
    void usesNodesWhereCpusAndMemoryMeetForEverySeedRowWithMbind(Seed000 row) {
        PlacementPlan p = PlacementPlanner.plan(row.topology(), row.binding(), Machine.full());
        assertEquals(row.dataNodes(), p.dataNodes(), row.name());
        assertEquals(row.workerNodes(), p.workerNodes(), row.name());
        assertEquals(PlacementMode.BIND, p.mode());
        assertFalse(p.everyAccessRemote());
        assertInvariants(row.topology(), row.binding(), p);
    }

    @ParameterizedTest
    @MethodSource("seedRows")
    void placesByFirstTouchUnlessTheProcessPolicySteersPagesForEverySeedRowWithoutMbind(Seed000 row) {
        PlacementPlan p = PlacementPlanner.plan(row.topology(), row.binding(), Machine.container());
        assertEquals(row.dataNodes(), p.dataNodes(), row.name());
        assertEquals(row.workerNodes(), p.workerNodes(), row.name());
        assertEquals(row.firstTouchMode(), p.mode(), () -> row.name() + ": " + p.reasons());
        if (p.mode() == PlacementMode.OS_DEFAULT) {
            String policy = row.binding().policy().toString();
            assertTrue(
                    p.reasons().stream().anyMatch(r -> r.contains("first touch the process policy " + policy)),
                    p.reasons().toString());
        }
        assertInvariants(row.topology(), row.binding(), p);
    }

    @Test
    void saysInterleaveIsOverriddenByMbindAndDecidesWithoutIt() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0-1", Machine.policy(Mode.INTERLEAVE, "0-1"));
        PlacementPlan withMbind = PlacementPlanner.plan(t, b, Machine.full());
        assertTrue(
                withMbind.reasons().stream().anyMatch(r -> r.contains("interleave:0-1 is overridden per segment")),
                withMbind.reasons().toString());
        PlacementPlan without = PlacementPlanner.plan(t, b, Machine.container());
        assertTrue(
                without.reasons().stream().anyMatch(r -> r.contains("interleaved over nodes 0-1")),
                without.reasons().toString());
    }

    @Test
    void usesIntersectionWhenCpuAndMemoryNodesDiffer() {
        Topology t = Machine.nodes(0, 4);
        ProcessBinding b = Machine.numactl(t, "0-2", Machine.policy(Mode.BIND, "1-3"));
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.parse("1-2"), p.dataNodes());
        assertEquals(NodeSet.parse("0-2"), p.workerNodes());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.contains("CPUs and memory meet on nodes 1-2")),
                p.reasons().toString());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.startsWith("memory nodes 3 left out")),
                p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void spreadsUnboundTwoNodeProcessOverBothNodes() {
        Topology t = TopologyReader.read(machine("two-node-server"));
        ProcessBinding b = ProcessBindingReader.read(machine("two-node-server"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.parse("0-1"), p.dataNodes());
        assertEquals(CpuSet.parse("0-7,16-23"), p.workerCpus().get(0));
        assertEquals(CpuSet.parse("8-15,24-31"), p.workerCpus().get(1));
        assertEquals(Map.of(0, 0, 1, 1), p.fillerNode());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.contains("CPUs and memory meet on nodes 0-1")),
                p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void handlesSparseNodeIds() {
        Topology t = TopologyReader.read(machine("four-node-sparse"));
        ProcessBinding all = ProcessBindingReader.read(machine("four-node-sparse"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, all, Machine.full());
        assertEquals(NodeSet.parse("4-7"), p.dataNodes());
        assertEquals(NodeSet.parse("4-7"), p.workerNodes());
        ProcessBinding two = Machine.binding(CpuSet.parse("4-11"), NodeSet.parse("4-7"), MemoryPolicy.defaultPolicy());
        PlacementPlan q = PlacementPlanner.plan(t, two, Machine.full());
        assertEquals(NodeSet.parse("5-6"), q.workerNodes());
        assertEquals(NodeSet.parse("5-6"), q.dataNodes());
        assertEquals(CpuSet.parse("4-7"), q.workerCpus().get(5));
        assertInvariants(t, two, q);
    }

    @Test
    void fillsMemoryOnlyNodeFromNearestWorkerNodeWhenMbindWorks() {
        Topology t = TopologyReader.read(machine("two-node-memory-only"));
        ProcessBinding b = ProcessBindingReader.read(machine("two-node-memory-only"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.parse("0-2"), p.dataNodes());
        assertEquals(NodeSet.parse("0-1"), p.workerNodes());
        assertEquals(0, p.fillerNode().get(2), "node 0 is at distance 14, node 1 at 24");
        assertInvariants(t, b, p);
    }

    @Test
    void leavesMemoryOnlyNodeOutWithoutMbind() {
        Topology t = TopologyReader.read(machine("two-node-memory-only"));
        ProcessBinding b = ProcessBindingReader.read(machine("two-node-memory-only"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.container());
        assertEquals(NodeSet.parse("0-1"), p.dataNodes());
        assertEquals(PlacementMode.FIRST_TOUCH, p.mode());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.startsWith("memory-only nodes 2 left out") && r.contains("EPERM")),
                p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void carriesOnWithRemoteMemoryWhenCpusAndMemoryNeverMeet() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0", Machine.policy(Mode.BIND, "1"));
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertTrue(p.everyAccessRemote());
        assertEquals(NodeSet.of(1), p.dataNodes());
        assertEquals(NodeSet.of(0), p.workerNodes());
        assertEquals(0, p.fillerNode().get(1));
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.startsWith("every access is remote")),
                p.reasons().toString());
        assertInvariants(t, b, p);

        ProcessBinding cpuset = Machine.binding(CpuSet.parse("0-3"), NodeSet.of(1), MemoryPolicy.unknown());
        PlacementPlan q = PlacementPlanner.plan(t, cpuset, Machine.container());
        assertTrue(q.everyAccessRemote());
        assertEquals(NodeSet.of(1), q.dataNodes());
        assertEquals(PlacementMode.FIRST_TOUCH, q.mode());
        assertInvariants(t, cpuset, q);
    }

    @Test
    void landsFirstTouchOnNearestMemoryNodeWhenRemoteWithoutMbind() {
        Topology t = TopologyReader.read(machine("four-node-sparse"));
        ProcessBinding b = Machine.binding(CpuSet.parse("0-3"), NodeSet.parse("5-7"), MemoryPolicy.defaultPolicy());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.container());
        assertEquals(NodeSet.of(5), p.dataNodes(), "node 5 is at distance 16 from node 4, 6 and 7 at 32");
        assertEquals(4, p.fillerNode().get(5));
        PlacementPlan q = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.parse("5-7"), q.dataNodes());
        assertInvariants(t, b, p);
        assertInvariants(t, b, q);
    }

    @Test
    void runsOnOneNodeWhenTasksetAllowsOneCpu() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.binding(CpuSet.of(5), NodeSet.parse("0-1"), MemoryPolicy.defaultPolicy());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.of(1), p.workerNodes());
        assertEquals(NodeSet.of(1), p.dataNodes());
        assertEquals(Map.of(1, CpuSet.of(5)), p.workerCpus());
        assertTrue(
                p.reasons().get(0).startsWith("bound to node 1 only"),
                p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void fallsBackToOsDefaultWithoutNativeAccess() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0-1", MemoryPolicy.unknown());
        PlacementPlan p = PlacementPlanner.plan(t, b, PolicySupport.none("enable with --enable-native-access"));
        assertEquals(PlacementMode.OS_DEFAULT, p.mode());
        assertEquals(NodeSet.parse("0-1"), p.dataNodes());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.contains("best effort") && r.contains("--enable-native-access")),
                p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void plansOneNodeMachineAsOneNode() {
        Topology t = TopologyReader.read(machine("laptop-one-node"));
        ProcessBinding b = ProcessBindingReader.read(machine("laptop-one-node"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.container());
        assertEquals(NodeSet.of(0), p.dataNodes());
        assertEquals(NodeSet.of(0), p.workerNodes());
        assertEquals(PlacementMode.FIRST_TOUCH, p.mode());
        assertTrue(
                p.reasons().get(0).startsWith("one-node machine"), p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void plansMachineWithoutNumaInSysfs() {
        Topology t = TopologyReader.read(machine("no-numa"));
        ProcessBinding b = ProcessBindingReader.read(machine("no-numa"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.of(0), p.dataNodes());
        assertInvariants(t, b, p);
    }

    @Test
    void keepsCpuOnlyNodeAsWorkerButNotAsDataNode() {
        Topology t = TopologyReader.read(machine("cpu-only-node"));
        ProcessBinding b = ProcessBindingReader.read(machine("cpu-only-node"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.parse("0-1"), p.workerNodes());
        assertEquals(NodeSet.of(0), p.dataNodes());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.startsWith("worker nodes 1 have no memory")),
                p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void followsTheCgroupCpusetOfAContainer() {
        Topology t = TopologyReader.read(machine("cgroup-v2-cpuset"));
        ProcessBinding b = ProcessBindingReader.read(machine("cgroup-v2-cpuset"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.container());
        assertEquals(NodeSet.of(1), p.dataNodes());
        assertEquals(NodeSet.of(1), p.workerNodes());
        assertTrue(
                p.reasons().get(0).startsWith("bound to node 1 only"),
                p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void staysOnTheDockerCpusetNodeAndPlacesByFirstTouch() {
        Topology t = TopologyReader.read(machine("cgroup-v1-docker"));
        ProcessBinding b = ProcessBindingReader.read(machine("cgroup-v1-docker"), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.container());
        assertEquals(NodeSet.of(0), p.dataNodes());
        assertEquals(Map.of(0, CpuSet.parse("0-3")), p.workerCpus());
        assertEquals(PlacementMode.FIRST_TOUCH, p.mode());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.contains("memory policy is unknown")),
                p.reasons().toString());
        assertInvariants(t, b, p);
    }

    @Test
    void ignoresOfflineAllowedCpus() {
        Topology t = TopologyReader.read(machine("offline-cpus"));
        ProcessBinding b = Machine.binding(CpuSet.parse("0-7"), NodeSet.parse("0-1"), MemoryPolicy.defaultPolicy());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(CpuSet.parse("4-5"), p.workerCpus().get(1));
        assertInvariants(t, b, p);
    }

    @Test
    void saysWorkersAreUnpinnedWhenOnlyMbindWorks() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.numactl(t, "0-1", MemoryPolicy.defaultPolicy());
        PolicySupport s = new PolicySupport(
                true, true, true, true, true, false, Map.of("sched_setaffinity", "sched_setaffinity errno=EPERM(1)"));
        PlacementPlan p = PlacementPlanner.plan(t, b, s);
        assertEquals(PlacementMode.BIND, p.mode());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.startsWith("threads cannot be pinned")),
                p.reasons().toString());
    }

    @Test
    void doesNotReadRelativeMembindNodesAsNodeIds() {
        Topology t = Machine.nodes(0, 2);
        MemoryPolicy relative = new MemoryPolicy(Mode.BIND, NodeSet.of(0), false, true);
        ProcessBinding b = Machine.binding(CpuSet.parse("0-7"), NodeSet.parse("0-1"), relative);
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.parse("0-1"), p.dataNodes());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.contains("relative node numbers")),
                p.reasons().toString());
    }

    @Test
    void rejectsBindingFromAnotherMachine() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.binding(CpuSet.parse("64-65"), NodeSet.of(0), MemoryPolicy.defaultPolicy());
        NumacubeException e = assertThrows(NumacubeException.class, () -> PlacementPlanner.plan(t, b, Machine.full()));
        assertEquals(NumacubeException.Kind.INVALID_INPUT, e.kind());
        assertTrue(e.getMessage().contains("allowedCpus=64-65"), e.getMessage());
    }

    @Test
    void survivesAllowedMemsThatMatchNoNode() {
        Topology t = Machine.nodes(0, 2);
        ProcessBinding b = Machine.binding(CpuSet.parse("0-7"), NodeSet.of(9), MemoryPolicy.defaultPolicy());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.full());
        assertEquals(NodeSet.parse("0-1"), p.dataNodes());
        assertTrue(
                p.reasons().stream().anyMatch(r -> r.contains("match no node")),
                p.reasons().toString());
    }

    @Test
    void plansTheLiveMachine() {
        Topology t = TopologyReader.read(SystemRoot.live());
        ProcessBinding b = ProcessBindingReader.read(SystemRoot.live(), Optional.empty());
        PlacementPlan p = PlacementPlanner.plan(t, b, Machine.container());
        assertFalse(p.dataNodes().isEmpty());
        assertInvariants(t, b, p);
    }

    /** The invariants of {@link PlacementPlan}'s javadoc, checked against the inputs. */
    static void assertInvariants(Topology t, ProcessBinding b, PlacementPlan p) {
        assertFalse(p.workerNodes().isEmpty(), "no worker node");
        assertFalse(p.dataNodes().isEmpty(), "no data node");
        assertEquals(
                p.workerNodes(),
                NodeSet.of(p.workerCpus().keySet().stream().mapToInt(i -> i).toArray()));
        p.workerCpus().forEach((node, cpus) -> {
            assertFalse(cpus.isEmpty(), "worker node " + node + " has no CPU");
            assertTrue(b.allowedCpus().containsAll(cpus), "worker CPUs " + cpus + " not allowed " + b.allowedCpus());
            assertTrue(t.node(node).orElseThrow().cpus().containsAll(cpus), "worker CPUs " + cpus + " not on " + node);
        });
        NodeSet allowedMems = b.allowedMems().and(t.nodeIds()).isEmpty() ? t.nodeIds() : b.allowedMems();
        assertTrue(allowedMems.containsAll(p.dataNodes()), "data " + p.dataNodes() + " not allowed " + allowedMems);
        if (b.policy().mode() == Mode.BIND && b.policy().nodes().intersects(allowedMems)) {
            assertTrue(b.policy().nodes().containsAll(p.dataNodes()), "data outside membind " + b.policy());
        }
        assertEquals(
                p.dataNodes(),
                NodeSet.of(p.fillerNode().keySet().stream().mapToInt(i -> i).toArray()));
        p.fillerNode().forEach((data, filler) -> {
            assertTrue(p.workerNodes().contains(filler), "filler " + filler + " is not a worker node");
            if (p.workerNodes().contains(data)) {
                assertEquals(data, filler, "a worker data node fills itself");
            }
        });
        assertFalse(p.reasons().isEmpty());
        p.reasons().forEach(r -> assertFalse(r.contains("\n"), "one line per reason: " + r));
    }
}
