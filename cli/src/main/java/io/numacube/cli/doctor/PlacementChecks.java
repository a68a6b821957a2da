package io.numacube.cli.doctor;

import io.numacube.numa.NumaRuntime;
import io.numacube.numa.exec.CpuLocator;
import io.numacube.numa.exec.NodeWorkerPool;
import io.numacube.numa.exec.ScopedAffinity;
import io.numacube.numa.kernel.CpuLocation;
import io.numacube.numa.memory.NodeMemory;
import io.numacube.numa.memory.PageCensus;
import io.numacube.numa.memory.PlacedSegment;
import io.numacube.numa.memory.PlacementMode;
import io.numacube.numa.memory.PlacementRequest;
import io.numacube.numa.plan.PlacementPlan;
import io.numacube.numa.topology.CpuSet;
import io.numacube.numa.topology.NodeSet;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The checks behind {@code doctor --check-placement}: does placement really work in this process? For every data
 * node of the plan it places a segment in each mode that can work here, has the node's filler workers write it, and
 * counts where its pages landed; it asks every pinned worker where it runs; and it pins the calling thread to each
 * worker node in turn and checks that its previous affinity comes back. Not thread-safe: run once.
 */
public final class PlacementChecks {

    /** One placed segment, counted. {@code node} is -1 for the interleaved segment. */
    public record SegmentResult(
            int node,
            PlacementMode requested,
            PlacementMode applied,
            Optional<String> fallbackReason,
            long bytes,
            PageCensus census) {}

    /** Where the workers of one node ran. */
    public record WorkerResult(int node, int workers, CpuSet cpusSeen, NodeSet nodesSeen, boolean pinned) {
        public boolean allOnNode() {
            return nodesSeen.equals(NodeSet.of(node));
        }
    }

    /** The calling thread pinned to one node's CPUs, then restored. */
    public record AffinityResult(
            int node, boolean pinned, CpuSet before, CpuSet during, NodeSet nodesSeen, CpuSet after) {
        public boolean restored() {
            return before.equals(after);
        }
    }

    /** All results of one run; {@code notes} say which checks were left out and why. */
    public record Results(
            List<SegmentResult> segments,
            List<WorkerResult> workers,
            List<AffinityResult> affinity,
            List<String> notes) {}

    private static final int GETCPU_SAMPLES = 50;

    private final NumaRuntime runtime;
    private final long segmentBytes;

    public PlacementChecks(NumaRuntime runtime, long segmentBytes) {
        this.runtime = runtime;
        this.segmentBytes = segmentBytes;
    }

    public Results run() {
        PlacementPlan plan = runtime.plan();
        try (NodeWorkerPool pool = NodeWorkerPool.start(runtime.kernel(), plan.workerCpus(), 0, "doctor");
                NodeMemory memory = runtime.openMemory()) {
            List<SegmentResult> segments = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (int node : plan.dataNodes().toArray()) {
                int filler = plan.fillerNode().get(node);
                for (PlacementMode mode : modesToCheck()) {
                    if (mode == PlacementMode.FIRST_TOUCH && filler != node) {
                        notes.add("first touch not checked on node " + node + ": this process has no CPU there, so "
                                + "first-touched pages land where the filling thread (node " + filler + ") or the "
                                + "process's own memory policy puts them; mbind places data on node " + node);
                        continue;
                    }
                    PlacementRequest request = new PlacementRequest(mode, NodeSet.of(node), false);
                    segments.add(checkSegment(memory, pool, request, filler));
                }
            }
            if (plan.dataNodes().size() > 1 && runtime.policySupport().mbind()) {
                segments.add(checkSegment(memory, pool, PlacementRequest.interleave(plan.dataNodes()), -1));
            }
            return new Results(segments, checkWorkers(pool), checkAffinity(plan), notes);
        }
    }

    private List<PlacementMode> modesToCheck() {
        List<PlacementMode> modes = new ArrayList<>();
        if (runtime.policySupport().mbind()) {
            modes.add(PlacementMode.BIND);
            modes.add(PlacementMode.PREFERRED);
        } else {
            // asked for anyway: the report then shows the automatic fallback to first touch and its reason
            modes.add(PlacementMode.BIND);
        }
        modes.add(PlacementMode.FIRST_TOUCH);
        return modes;
    }

    private SegmentResult checkSegment(
            NodeMemory memory, NodeWorkerPool pool, PlacementRequest request, int fillerNode) {
        try (PlacedSegment segment = memory.allocate(segmentBytes, request)) {
            if (fillerNode >= 0 && pool.nodes().contains(fillerNode)) {
                pool.submit(fillerNode, () -> {
                            memory.touch(segment);
                            return null;
                        })
                        .join();
            } else {
                memory.touch(segment);
            }
            PageCensus census = memory.census(segment);
            return new SegmentResult(
                    request.targetNode(),
                    request.mode(),
                    segment.appliedMode(),
                    segment.fallbackReason(),
                    segment.byteSize(),
                    census);
        }
    }

    private List<WorkerResult> checkWorkers(NodeWorkerPool pool) {
        ConcurrentMap<Integer, BitSet> cpus = new ConcurrentHashMap<>();
        ConcurrentMap<Integer, BitSet> nodes = new ConcurrentHashMap<>();
        ConcurrentMap<Integer, Boolean> pinned = new ConcurrentHashMap<>();
        pool.runOnEveryWorker(ctx -> {
            for (int i = 0; i < GETCPU_SAMPLES; i++) {
                Optional<CpuLocation> where = CpuLocator.current(runtime.kernel());
                where.ifPresent(loc -> {
                    synchronized (cpus) {
                        cpus.computeIfAbsent(ctx.node(), k -> new BitSet()).set(loc.cpu());
                        nodes.computeIfAbsent(ctx.node(), k -> new BitSet()).set(loc.node());
                    }
                });
                Thread.onSpinWait();
            }
        });
        for (NodeWorkerPool.WorkerReport w : pool.workerReports()) {
            pinned.merge(w.context().node(), w.pinned(), Boolean::logicalAnd);
        }
        List<WorkerResult> results = new ArrayList<>();
        for (int node : pool.nodes().toArray()) {
            results.add(new WorkerResult(
                    node,
                    pool.workersOn(node),
                    CpuSet.fromBits(cpus.getOrDefault(node, new BitSet())),
                    NodeSet.fromBits(nodes.getOrDefault(node, new BitSet())),
                    pinned.getOrDefault(node, false)));
        }
        return results;
    }

    private List<AffinityResult> checkAffinity(PlacementPlan plan) {
        List<AffinityResult> results = new ArrayList<>();
        if (runtime.kernel().isEmpty()) {
            return results;
        }
        for (int node : plan.workerNodes().toArray()) {
            CpuSet before = runtime.kernel().get().threadAffinity();
            CpuSet during;
            BitSet seen = new BitSet();
            boolean pinned;
            try (ScopedAffinity scope =
                    ScopedAffinity.pin(runtime.kernel(), plan.workerCpus().get(node))) {
                pinned = scope.pinned();
                during = runtime.kernel().get().threadAffinity();
                for (int i = 0; i < GETCPU_SAMPLES; i++) {
                    CpuLocator.current(runtime.kernel()).ifPresent(loc -> seen.set(loc.node()));
                    Thread.yield();
                }
            }
            CpuSet after = runtime.kernel().get().threadAffinity();
            results.add(new AffinityResult(node, pinned, before, during, NodeSet.fromBits(seen), after));
        }
        return results;
    }

    /** The census method as the JSON and text reports name it. */
    static String label(PageCensus.Method method) {
        return method.name().toLowerCase(java.util.Locale.ROOT);
    }
}
