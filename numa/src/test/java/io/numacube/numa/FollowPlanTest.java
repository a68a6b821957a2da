package io.numacube.numa;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.numacube.numa.binding.BindingChange;
import io.numacube.numa.binding.BindingState;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.testing.Machines;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What a binding change means for a pool of workers: where each group runs, which data nodes it can fill. */
class FollowPlanTest {

    private static final PolicySupport ALL = new PolicySupport(true, true, true, true, true, true, Map.of());

    /** The two-node server fixture (node 0: CPUs 0-7,16-23; node 1: 8-15,24-31), all allowed. */
    private static NumaRuntime server() {
        return NumaRuntime.fromSnapshot(Machines.machine("two-node-server"), ALL);
    }

    private static BindingChange narrowedTo(NumaRuntime rt, String cpus, String mems) {
        BindingState before = new BindingState(
                rt.binding().allowedCpus(), rt.binding().allowedMems(), Optional.empty(), new TreeMap<>());
        BindingState after =
                new BindingState(CpuSet.parse(cpus), NodeSet.parse(mems), Optional.empty(), new TreeMap<>());
        return new BindingChange(before, after, Instant.EPOCH);
    }

    @Test
    void aGroupWhoseNodeLostItsCpusRunsOnTheNearestNodeAndItsDataMovesThere() {
        NumaRuntime rt = server();
        FollowPlan p = FollowPlan.of(narrowedTo(rt, "8-15,24-31", "1"), rt, List.of(0, 1));
        assertEquals(List.of(1), p.dataNodes());
        assertEquals(Map.of(1, 1), p.fillerGroup());
        assertEquals(Map.of(0, "8-15,24-31", 1, "8-15,24-31"), p.workerCpuLists());
        assertEquals(java.util.Set.of(0), p.borrowing());
        assertEquals("cpus 0-31 -> 8-15,24-31, mems 0-1 -> 1", p.change());
        assertEquals(List.of(1), p.plannedDataNodes());
    }

    @Test
    void aPoolStartedOnNode0AloneGrowsAGroupOnNode1WhenMovedThereAndNode0sGroupBorrowsItsCpus() {
        NumaRuntime rt = server();
        FollowPlan p = FollowPlan.of(narrowedTo(rt, "8-11", "1"), rt, List.of(0));
        assertEquals(List.of(1), p.dataNodes());
        assertEquals(Map.of(1, 1), p.fillerGroup());
        assertEquals(Map.of(0, "8-11", 1, "8-11"), p.workerCpuLists());
        assertEquals(java.util.Set.of(0), p.borrowing());
        assertEquals(List.of(0, 1), p.groupsAfter(List.of(0)));
    }

    @Test
    void aNodeThePoolHasNoWorkersForGetsAGroupOfItsOwnAndItsData() {
        NumaRuntime rt = server();
        // a pool started on node 1 only; the machine gives both nodes: node 0 gets a group of its own
        FollowPlan p = FollowPlan.of(narrowedTo(rt, "0-31", "0-1"), rt, List.of(1));
        assertEquals(List.of(0, 1), p.plannedDataNodes());
        assertEquals(List.of(0, 1), p.dataNodes());
        assertEquals(Map.of(0, 0, 1, 1), p.fillerGroup());
        assertEquals(Map.of(0, "0-7,16-23", 1, "8-15,24-31"), p.workerCpuLists());
        assertEquals(java.util.Set.of(), p.borrowing());
    }

    @Test
    void eachPlanIsMadeFromTheLastOnesRuntime() {
        NumaRuntime rt = server();
        FollowPlan narrowed = FollowPlan.of(narrowedTo(rt, "8-15,24-31", "1"), rt, List.of(0, 1));
        assertEquals("8-15,24-31", narrowed.runtime().binding().allowedCpus().toList());
        FollowPlan back =
                FollowPlan.of(narrowedTo(narrowed.runtime(), "0-31", "0-1"), narrowed.runtime(), List.of(0, 1));
        assertEquals(List.of(0, 1), back.dataNodes());
        assertEquals(Map.of(0, 0, 1, 1), back.fillerGroup());
        assertEquals(Map.of(0, "0-7,16-23", 1, "8-15,24-31"), back.workerCpuLists());
    }
}
