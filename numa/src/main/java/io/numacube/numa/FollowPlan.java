package io.numacube.numa;

import io.numacube.numa.binding.BindingChange;
import io.numacube.numa.plan.PlacementPlan;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.Topology;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a change of the process's bindings means for a running pool of workers started on some nodes (its groups):
 * the plan made again by {@link io.numacube.numa.plan.PlacementPlanner} for the new bindings, where each group's
 * workers now run, and the data nodes with the group that fills each. Immutable.
 *
 * <p>Rules: a group whose node still has allowed CPUs runs on them; a planned worker node the pool has no group for
 * gets one of its own (the pool grows onto it); a group whose node lost its CPUs runs on the CPUs of the nearest
 * planned worker node ({@link #borrowing()}: keeping its queue, so work submitted to it still runs, with one worker).
 * A planned data node is kept when its planned filler node is a group running on its own node, or some group (the
 * lowest) now runs there; otherwise it is left out, and {@link #dataNodes()} may end up empty (no node has CPUs).
 *
 * @param seenAt      when the change was read
 * @param change      what changed, in words ({@link BindingChange#describe()})
 * @param runtime     the runtime with the new bindings and plan
 * @param dataNodes   the data nodes a cube may use now, ascending
 * @param fillerGroup for each of them, the group whose workers fill and read it
 * @param workerCpus  for each group that has somewhere to run, the CPUs to pin its workers to (the groups given and
 *                    the new ones)
 * @param borrowing   the groups that run on another node's CPUs (their own node has none allowed now)
 */
public record FollowPlan(
        Instant seenAt,
        String change,
        NumaRuntime runtime,
        List<Integer> dataNodes,
        Map<Integer, Integer> fillerGroup,
        SortedMap<Integer, CpuSet> workerCpus,
        java.util.Set<Integer> borrowing) {

    public FollowPlan {
        borrowing = java.util.Set.copyOf(borrowing);
        dataNodes = List.copyOf(dataNodes);
        fillerGroup = Map.copyOf(fillerGroup);
        workerCpus = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(workerCpus));
    }

    /**
     * The plan for {@code change}, made from {@code before} (the runtime in force until now), for a pool whose worker
     * groups are {@code groups} now (each planned worker node not among them becomes a group of its own).
     */
    public static FollowPlan of(BindingChange change, NumaRuntime before, List<Integer> groups) {
        NumaRuntime next = before.withBindings(change.after());
        PlacementPlan plan = next.plan();
        Topology topo = next.topology();
        SortedMap<Integer, CpuSet> pins = new TreeMap<>();
        Map<Integer, Integer> groupOn = new HashMap<>();
        java.util.SortedSet<Integer> all = new java.util.TreeSet<>(groups);
        all.addAll(plan.workerCpus().keySet());
        for (int g : all) {
            int on = plan.workerCpus().containsKey(g)
                    ? g
                    : topo.nearest(g, plan.workerNodes()).orElse(-1);
            if (on >= 0 && plan.workerCpus().containsKey(on)) {
                pins.put(g, plan.workerCpus().get(on));
                groupOn.put(g, on);
            }
        }
        List<Integer> data = new ArrayList<>();
        Map<Integer, Integer> filler = new HashMap<>();
        for (int d : plan.dataNodes().toArray()) {
            Integer f = plan.fillerNode().get(d);
            Integer group = f != null && f.equals(groupOn.get(f))
                    ? f
                    : groupOn.entrySet().stream()
                            .filter(e -> e.getValue().equals(f))
                            .map(Map.Entry::getKey)
                            .min(Integer::compare)
                            .orElse(null);
            if (group != null) {
                data.add(d);
                filler.put(d, group);
            }
        }
        java.util.Set<Integer> borrowing = new java.util.TreeSet<>();
        groupOn.forEach((g, on) -> {
            if (!g.equals(on)) {
                borrowing.add(g);
            }
        });
        return new FollowPlan(change.seenAt(), change.describe(), next, data, filler, pins, borrowing);
    }

    /** The pool's groups once this plan is followed: {@code groups} and the ones it adds, ascending. */
    public List<Integer> groupsAfter(List<Integer> groups) {
        java.util.SortedSet<Integer> all = new java.util.TreeSet<>(groups);
        all.addAll(workerCpus.keySet());
        return List.copyOf(all);
    }

    /** Each group's CPUs as a kernel list ({@code 8-15}), for logs. */
    public Map<Integer, String> workerCpuLists() {
        Map<Integer, String> out = new TreeMap<>();
        workerCpus.forEach((g, c) -> out.put(g, c.toList()));
        return out;
    }

    /** The planned data nodes, whether or not this pool can use them. */
    public List<Integer> plannedDataNodes() {
        return runtime.plan().dataNodes().stream().boxed().toList();
    }

    /** The distance between two nodes in the topology (10 for the same node, 20 where unknown). */
    public int distance(int a, int b) {
        return runtime.topology().distance(a, b);
    }
}
