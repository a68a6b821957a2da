package io.numacube.numa;

import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.binding.ProcessBinding;
import io.numacube.numa.binding.ProcessBindingReader;
import io.numacube.numa.exec.NodeWorkerPool;
import io.numacube.numa.kernel.NumaKernel;
import io.numacube.numa.kernel.NumaKernels;
import io.numacube.numa.memory.NodeMemory;
import io.numacube.numa.memory.PolicyProbe;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.plan.PlacementPlan;
import io.numacube.numa.plan.PlacementPlanner;
import io.numacube.numa.topology.SystemRoot;
import io.numacube.numa.topology.Topology;
import io.numacube.numa.topology.TopologyReader;
import java.util.Optional;

/**
 * Everything numacube knows about where it runs, read once: the topology, this process's bindings, which NUMA calls
 * work here, and the placement plan that follows. The entry point of the runtime: {@code NumaRuntime.detect()}.
 *
 * <p>Immutable facts; thread-safe. It owns no memory itself: open a {@link NodeMemory} from it for placed memory.
 * A runtime read from a snapshot ({@link #fromSnapshot}) describes another machine: it has no kernel access and its
 * plan is what numacube would do there.
 */
public final class NumaRuntime {

    private final SystemRoot root;
    private final Optional<NumaKernel> kernel;
    private final Topology topology;
    private final ProcessBinding binding;
    private final PolicySupport policySupport;
    private final PlacementPlan plan;
    private final boolean live;

    private NumaRuntime(
            SystemRoot root,
            Optional<NumaKernel> kernel,
            Topology topology,
            ProcessBinding binding,
            PolicySupport policySupport,
            PlacementPlan plan,
            boolean live) {
        this.root = root;
        this.kernel = kernel;
        this.topology = topology;
        this.binding = binding;
        this.policySupport = policySupport;
        this.plan = plan;
        this.live = live;
    }

    /** Reads the live machine and probes which NUMA calls work in this process. */
    public static NumaRuntime detect() {
        Optional<NumaKernel> kernel = NumaKernels.load();
        SystemRoot root = SystemRoot.live();
        Topology topology = TopologyReader.read(root);
        ProcessBinding binding = ProcessBindingReader.read(root, kernel);
        PolicySupport support = kernel.isPresent()
                ? PolicyProbe.probe(kernel)
                : PolicySupport.none(NumaKernels.unavailableReason().orElse("no native access"));
        return new NumaRuntime(
                root, kernel, topology, binding, support, PlacementPlanner.plan(topology, binding, support), true);
    }

    /**
     * Reads a saved snapshot of another machine (or a fixture tree). No kernel calls are made; the plan assumes
     * {@code support} (for example what that machine's doctor reported, or full support).
     */
    public static NumaRuntime fromSnapshot(SystemRoot snapshot, PolicySupport support) {
        Topology topology = TopologyReader.read(snapshot);
        ProcessBinding binding = ProcessBindingReader.read(snapshot, Optional.empty());
        return new NumaRuntime(
                snapshot,
                Optional.empty(),
                topology,
                binding,
                support,
                PlacementPlanner.plan(topology, binding, support),
                false);
    }

    /**
     * This runtime after the bindings changed to {@code state} (a {@link io.numacube.numa.binding.BindingWatcher}'s
     * reading): the same topology, kernel and policy support, the binding's allowed CPUs, memory nodes and cpuset
     * replaced (memory policy and balancing kept as first read), and the plan made again by the same rules as at start
     * ({@link PlacementPlanner}, which {@code doctor} prints).
     */
    public NumaRuntime withBindings(io.numacube.numa.binding.BindingState state) {
        java.util.List<String> notes = new java.util.ArrayList<>(binding.notes());
        notes.add("bindings re-read: cpus=" + state.allowedCpus() + " mems=" + state.allowedMems());
        ProcessBinding b = new ProcessBinding(
                state.allowedCpus(), state.allowedMems(), binding.policy(), state.cpuset(), binding.balancing(), notes);
        return new NumaRuntime(
                root, kernel, topology, b, policySupport, PlacementPlanner.plan(topology, b, policySupport), live);
    }

    /**
     * Watches this process's bindings every {@code period} (from a thread started now, which inherits the calling
     * thread's affinity: call it from an unpinned thread) and gives {@code listener} a {@link FollowPlan} for each
     * change, for a pool of workers started on {@code groups} (and grown by each plan's new groups,
     * {@link FollowPlan#groupsAfter}); each plan is made from the previous one's runtime.
     * Close the result to stop watching (it waits for a listener under way).
     */
    public AutoCloseable follow(
            java.time.Duration period,
            java.util.List<Integer> groups,
            java.util.function.Consumer<FollowPlan> listener) {
        return follow(period, groups, listener, state -> {});
    }

    /**
     * {@link #follow(java.time.Duration, java.util.List, java.util.function.Consumer)}, and {@code everyReading} gets
     * every reading (free memory per node included), after the plan of a change, on the same thread.
     */
    public AutoCloseable follow(
            java.time.Duration period,
            java.util.List<Integer> groups,
            java.util.function.Consumer<FollowPlan> listener,
            java.util.function.Consumer<io.numacube.numa.binding.BindingState> everyReading) {
        requireLive("follow the machine");
        io.numacube.numa.binding.BindingWatcher w = watchBindings(period);
        w.addReadingListener(everyReading);
        java.util.concurrent.atomic.AtomicReference<NumaRuntime> current =
                new java.util.concurrent.atomic.AtomicReference<>(this);
        java.util.concurrent.atomic.AtomicReference<java.util.List<Integer>> groupList =
                new java.util.concurrent.atomic.AtomicReference<>(java.util.List.copyOf(groups));
        w.addListener(change -> {
            FollowPlan plan = FollowPlan.of(change, current.get(), groupList.get());
            current.set(plan.runtime());
            groupList.set(plan.groupsAfter(groupList.get()));
            listener.accept(plan);
        });
        return w.start();
    }

    /** A watcher of this process's bindings, every {@code period}; not started. The caller owns and closes it. */
    public io.numacube.numa.binding.BindingWatcher watchBindings(java.time.Duration period) {
        return new io.numacube.numa.binding.BindingWatcher(root, kernel, topology, period);
    }

    /**
     * The machine's nodes and this process's bindings as they are now ({@link MachineReading}), read again on each
     * call (free memory changes; so may the bindings). Call it from a thread that is not pinned.
     */
    public MachineReading readMachine() {
        return MachineReading.read(root, kernel);
    }

    public SystemRoot root() {
        return root;
    }

    public Optional<NumaKernel> kernel() {
        return kernel;
    }

    public Topology topology() {
        return topology;
    }

    public ProcessBinding binding() {
        return binding;
    }

    public PolicySupport policySupport() {
        return policySupport;
    }

    public PlacementPlan plan() {
        return plan;
    }

    /**
     * Opens placed memory for this process, following the probed policy support (mbind, or first touch from pinned
     * threads where it is refused). The caller owns the result and must close it.
     *
     * @throws NumacubeException of kind INVALID_INPUT for a runtime read from a snapshot (another machine)
     */
    public NodeMemory openMemory() {
        requireLive("open placed memory");
        return new NodeMemory(kernel, policySupport, topology, binding.allowedCpus());
    }

    /**
     * Starts the plan's workers: one group per worker node, pinned to that node's allowed CPUs. The caller owns the
     * pool and must close it.
     *
     * @param threadsPerNode workers per node; 0 means one per allowed CPU of the node
     */
    public NodeWorkerPool startWorkers(int threadsPerNode, String namePrefix) {
        requireLive("start pinned workers");
        return NodeWorkerPool.start(kernel, plan.workerCpus(), threadsPerNode, namePrefix);
    }

    /** True when this runtime describes the machine it runs on (not a snapshot). */
    public boolean isLive() {
        return live;
    }

    private void requireLive(String what) {
        if (!live) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "cannot " + what + " on a snapshot of another machine: root=" + root);
        }
    }

    /** One line for logs and the CLI: {@code numa=native nodes=2 placement=bind} or {@code numa=fallback reason=...}. */
    public String statusLine() {
        if (!live) {
            return "snapshot " + root.root() + " nodes=" + topology.nodeCount() + " data_nodes=" + plan.dataNodes()
                    + " workers_on=" + plan.workerNodes();
        }
        if (kernel.isEmpty()) {
            return "numa=fallback nodes=" + topology.nodeCount() + " reason="
                    + NumaKernels.unavailableReason().orElse("none");
        }
        return "numa=native nodes=" + topology.nodeCount() + " data_nodes=" + plan.dataNodes() + " workers_on="
                + plan.workerNodes() + " placement=" + plan.mode().name().toLowerCase(java.util.Locale.ROOT);
    }
}
