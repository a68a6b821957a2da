package io.numacube.cli;

import io.numacube.cli.cube.TimeSpan;
import io.numacube.cli.doctor.DoctorJson;
import io.numacube.cli.doctor.DoctorReport;
import io.numacube.cli.doctor.DoctorText;
import io.numacube.cli.doctor.JvmFacts;
import io.numacube.cli.doctor.PlacementChecks;
import io.numacube.cli.output.Json;
import io.numacube.numa.NumaRuntime;
import io.numacube.numa.base.NumacubeException;
import io.numacube.numa.jvm.JvmNumaAdvice;
import io.numacube.numa.jvm.JvmNumaAdvisor;
import io.numacube.numa.jvm.UseNumaFlag;
import io.numacube.numa.memory.PolicySupport;
import io.numacube.numa.topology.SnapshotWriter;
import io.numacube.numa.topology.SystemRoot;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code numacube doctor}: where this process's data and threads can live, and why. */
@Command(
        name = "doctor",
        mixinStandardHelpOptions = true,
        description = {
            "Shows the NUMA topology, this process's CPU and memory bindings and cgroup cpuset, whether mbind "
                    + "works here or first touch is used (and why), automatic balancing, the placement plan with its reasons, "
                    + "and what -XX:+UseNUMA would do on this JVM.",
            "With --check-placement it also places a segment on every planned node in each mode that works here and "
                    + "counts where its pages really landed."
        })
final class DoctorCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print JSON for machines instead of text.")
    boolean json;

    @Option(
            names = "--check-placement",
            description = "Allocate a segment on every node of the plan, in each mode that "
                    + "works here, and report the share of its pages found on the intended node.")
    boolean checkPlacement;

    @Option(
            names = "--segment-mib",
            paramLabel = "MIB",
            defaultValue = "16",
            description = "Size of each check segment in MiB (default: ${DEFAULT-VALUE}).")
    int segmentMib;

    @Option(
            names = "--sysfs-root",
            paramLabel = "DIR",
            description =
                    "Explain a saved snapshot (from --save-snapshot) or "
                            + "another root directory holding sys/ and proc/, instead of this machine. No placement is attempted.")
    Path sysfsRoot;

    @Option(
            names = "--save-snapshot",
            paramLabel = "DIR",
            description = "Save the sysfs/procfs files doctor reads into DIR "
                    + "(to read later elsewhere with --sysfs-root DIR), then report as usual.")
    Path saveSnapshot;

    @Option(
            names = "--watch",
            description = "After the report, keep reading this process's bindings (allowed CPUs, the cgroup cpuset,"
                    + " memory nodes) every --watch-period and print each change and the plan it leads to, one line"
                    + " each (a JSON object a line with --json), until interrupted.")
    boolean watch;

    @Option(
            names = "--watch-period",
            paramLabel = "DURATION",
            defaultValue = "1s",
            converter = TimeSpan.class,
            description = "How often --watch reads the bindings (default: ${DEFAULT-VALUE}).")
    java.time.Duration watchPeriod;

    @Option(
            names = "--watch-for",
            paramLabel = "DURATION",
            converter = TimeSpan.class,
            description = "Stop watching after this long (default: until interrupted).")
    java.time.Duration watchFor;

    @Override
    public Integer call() {
        checkOptions();
        NumaRuntime runtime = sysfsRoot != null ? snapshotRuntime() : NumaRuntime.detect();
        if (saveSnapshot != null) {
            SnapshotWriter.save(runtime.root(), saveSnapshot);
            spec.commandLine()
                    .getErr()
                    .println("numacube: saved a snapshot of " + runtime.root() + " in " + saveSnapshot
                            + " (read it anywhere with: numacube doctor --sysfs-root " + saveSnapshot + ")");
        }
        DoctorReport report = report(runtime);
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? Json.print(DoctorJson.render(report, Main.VERSION)) : DoctorText.render(report));
        out.flush();
        if (watch) {
            watch(runtime, out);
        }
        return 0;
    }

    /**
     * Prints each change of the bindings and the plan made again for it, on this (unpinned) thread, until {@code
     * --watch-for} passes or the process is interrupted.
     */
    private void watch(NumaRuntime start, PrintWriter out) {
        long end = watchFor == null ? Long.MAX_VALUE : System.nanoTime() + watchFor.toNanos();
        if (!json) {
            out.println("watching the bindings every " + watchPeriod.toMillis() + " ms (Ctrl-C stops)");
            out.flush();
        }
        NumaRuntime[] current = {start};
        try (io.numacube.numa.binding.BindingWatcher w = start.watchBindings(watchPeriod)) {
            w.addListener(change -> {
                NumaRuntime next = current[0].withBindings(change.after());
                var before = current[0].plan();
                var after = next.plan();
                current[0] = next;
                if (json) {
                    Map<String, Object> line = new java.util.LinkedHashMap<>();
                    line.put("seen_at", change.seenAt().toString());
                    line.put("change", change.describe());
                    line.put("cpus", change.after().allowedCpus().toList());
                    line.put("mems", change.after().allowedMems().toList());
                    line.put(
                            "data_nodes_before",
                            before.dataNodes().stream().boxed().toList());
                    line.put("data_nodes", after.dataNodes().stream().boxed().toList());
                    line.put(
                            "worker_nodes_before",
                            before.workerNodes().stream().boxed().toList());
                    line.put(
                            "worker_nodes", after.workerNodes().stream().boxed().toList());
                    line.put("mode", after.mode().name());
                    try {
                        out.println(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(line));
                    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                        throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
                    }
                } else {
                    out.println(change.seenAt() + " bindings changed: " + change.describe() + "; plan: data nodes "
                            + before.dataNodes() + " -> " + after.dataNodes() + ", workers on "
                            + before.workerNodes() + " -> " + after.workerNodes() + ", placement "
                            + after.mode().name().toLowerCase(java.util.Locale.ROOT));
                }
                out.flush();
            });
            while (System.nanoTime() < end) {
                try {
                    Thread.sleep(Math.min(watchPeriod.toMillis(), Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                w.poll();
            }
        }
    }

    private void checkOptions() {
        if (segmentMib < 1 || segmentMib > 65_536) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--segment-mib must be between 1 and 65536: segment-mib=" + segmentMib);
        }
        if (watchPeriod.toMillis() < 10) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--watch-period must be at least 10ms: watch-period=" + watchPeriod.toMillis() + "ms");
        }
        if (sysfsRoot != null && checkPlacement) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--check-placement places memory in this process, so it cannot explain a snapshot: drop one of "
                            + "--check-placement and --sysfs-root");
        }
    }

    private NumaRuntime snapshotRuntime() {
        if (!Files.isDirectory(sysfsRoot)) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT, "--sysfs-root must be a directory: sysfs-root=" + sysfsRoot);
        }
        if (!Files.isDirectory(sysfsRoot.resolve("sys/devices/system/node"))
                && !Files.isDirectory(sysfsRoot.resolve("sys/devices/system/cpu"))) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "--sysfs-root holds no sys/devices/system/node or sys/devices/system/cpu, so it is not a "
                            + "snapshot: sysfs-root=" + sysfsRoot + " — give a directory saved by 'numacube doctor "
                            + "--save-snapshot DIR'");
        }
        return NumaRuntime.fromSnapshot(SystemRoot.at(sysfsRoot), assumedSupport());
    }

    /** Runs the placement checks when asked, and predicts UseNUMA for this JDK (and for JDK 24 from 25 on). */
    private DoctorReport report(NumaRuntime runtime) {
        JvmFacts jvm = JvmFacts.current();
        Optional<PlacementChecks.Results> checks = checkPlacement
                ? Optional.of(new PlacementChecks(runtime, (long) segmentMib << 20).run())
                : Optional.empty();
        Optional<JvmNumaAdvice> before25 = jvm.feature() >= JvmNumaAdvisor.MISMATCH_RULE_SINCE
                ? Optional.of(predictUseNuma(JvmNumaAdvisor.MISMATCH_RULE_SINCE - 1, jvm, runtime))
                : Optional.empty();
        return new DoctorReport(
                runtime, jvm, predictUseNuma(jvm.feature(), jvm, runtime), before25, checks, sysfsRoot != null);
    }

    private static JvmNumaAdvice predictUseNuma(int jdkFeatureVersion, JvmFacts jvm, NumaRuntime runtime) {
        return JvmNumaAdvisor.predict(
                jdkFeatureVersion,
                UseNumaFlag.ON,
                jvm.gc(),
                runtime.topology(),
                runtime.binding(),
                runtime.policySupport());
    }

    /** A snapshot says nothing about seccomp or capabilities: plan as if every call worked, and say so. */
    private static PolicySupport assumedSupport() {
        return new PolicySupport(
                true,
                true,
                true,
                true,
                true,
                true,
                Map.of("assumed", "snapshot: calls not tried; the plan assumes mbind and pinning work there"));
    }
}
