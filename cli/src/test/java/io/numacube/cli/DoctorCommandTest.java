package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.numa.topology.CpuSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DoctorCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path MACHINES = Path.of("../numa/src/test/resources/machines");

    private static JsonNode json(CliRun run) throws Exception {
        assertEquals(0, run.exitCode(), run::err);
        return JSON.readTree(run.out());
    }

    private static Set<Integer> ints(JsonNode array) {
        Set<Integer> s = new TreeSet<>();
        array.forEach(n -> s.add(n.asInt()));
        return s;
    }

    private static Set<Integer> nodesOfCpus(JsonNode topology, String cpuList) {
        Set<Integer> cpus = new TreeSet<>();
        for (int c : CpuSet.parse(cpuList).toArray()) {
            cpus.add(c);
        }
        Set<Integer> nodes = new TreeSet<>();
        for (JsonNode n : topology.get("nodes")) {
            for (int c : CpuSet.parse(n.get("cpus").asText()).toArray()) {
                if (cpus.contains(c)) {
                    nodes.add(n.get("id").asInt());
                }
            }
        }
        return nodes;
    }

    @Test
    void explainsASparseFourNodeSnapshotWithItsDistances() throws Exception {
        JsonNode d = json(CliRun.of(
                "doctor",
                "--json",
                "--sysfs-root",
                MACHINES.resolve("four-node-sparse").toString()));
        List<Integer> ids = new ArrayList<>();
        for (JsonNode n : d.at("/topology/nodes")) {
            ids.add(n.get("id").asInt());
            assertEquals(d.at("/topology/nodes").size(), n.get("distances").size(), n::toString);
            assertTrue(n.get("memory_bytes").asLong() > 0, n::toString);
        }
        assertEquals(List.copyOf(new TreeSet<>(ids)), ids, "nodes listed in id order");
        assertTrue(ids.stream().allMatch(id -> id >= 4), "sparse ids kept: " + ids);
        assertFalse(d.at("/plan/reasons").isEmpty());
    }

    /** Fixtures that hold only procfs files (for the numa_maps parser), which doctor must refuse as snapshots. */
    private static final Set<String> NOT_SNAPSHOTS = Set.of("two-node-policies");

    @Test
    void everySnapshotPlanStaysInsideWhatTheProcessMayUse() throws Exception {
        try (var dirs = Files.list(MACHINES)) {
            for (Path machine : dirs.filter(Files::isDirectory)
                    .filter(p -> !p.endsWith("broken"))
                    .toList()) {
                CliRun run = CliRun.of("doctor", "--json", "--sysfs-root", machine.toString());
                if (NOT_SNAPSHOTS.contains(machine.getFileName().toString())) {
                    assertEquals(ErrorReporter.USAGE_ERROR, run.exitCode(), machine + ": " + run.err());
                    assertTrue(
                            run.err().startsWith("numacube: ") && run.err().contains("not a snapshot"),
                            machine + ": " + run.err());
                    continue;
                }
                assertEquals(0, run.exitCode(), () -> machine + ": " + run.err());
                JsonNode d = JSON.readTree(run.out());
                Set<Integer> mems = ints(d.at("/binding/mems"));
                Set<Integer> cpuNodes =
                        nodesOfCpus(d.get("topology"), d.at("/binding/cpus").asText());
                assertTrue(mems.containsAll(ints(d.at("/plan/data_nodes"))), machine + ": " + d.get("plan"));
                assertTrue(cpuNodes.containsAll(ints(d.at("/plan/worker_nodes"))), machine + ": " + d.get("plan"));
                assertFalse(d.at("/plan/reasons").isEmpty(), machine.toString());
            }
        }
    }

    @Test
    void aSavedSnapshotReadsBackAsTheSameTopology(@TempDir Path dir) throws Exception {
        Path snapshot = dir.resolve("snap");
        JsonNode live = json(CliRun.of("doctor", "--json", "--save-snapshot", snapshot.toString()));
        JsonNode again = json(CliRun.of("doctor", "--json", "--sysfs-root", snapshot.toString()));
        for (int i = 0; i < live.at("/topology/nodes").size(); i++) {
            JsonNode a = live.at("/topology/nodes").get(i);
            JsonNode b = again.at("/topology/nodes").get(i);
            assertEquals(a.get("id"), b.get("id"));
            assertEquals(a.get("cpus"), b.get("cpus"));
            assertEquals(a.get("memory_bytes"), b.get("memory_bytes"));
            assertEquals(a.get("distances"), b.get("distances"));
        }
        assertEquals(
                live.at("/topology/nodes").size(), again.at("/topology/nodes").size());
        assertEquals(live.at("/binding/cpus"), again.at("/binding/cpus"));
    }

    @Test
    void checkPlacementCountsPagesOnEveryPlannedNodeAndRestoresAffinity() throws Exception {
        JsonNode d = json(CliRun.of("doctor", "--json", "--check-placement", "--segment-mib", "4"));
        Set<Integer> checked = new TreeSet<>();
        for (JsonNode s : d.get("placement_check")) {
            long pages = s.get("pages").asLong();
            assertEquals(4L << 20, s.get("bytes").asLong());
            assertTrue(pages > 0, s::toString);
            long sum = 0;
            for (JsonNode n : s.get("pages_by_node")) {
                sum += n.asLong();
            }
            assertTrue(sum <= pages || "numa_maps".equals(s.get("method").asText()), s::toString);
            if (s.get("node").asInt() >= 0) {
                checked.add(s.get("node").asInt());
                double pct = 100.0 * s.get("pages_on_node").asLong() / pages;
                assertEquals(pct, s.get("pages_on_node_pct").asDouble(), 0.051, s::toString);
            }
        }
        assertEquals(ints(d.at("/plan/data_nodes")), checked);
        for (JsonNode a : d.get("affinity_check")) {
            assertTrue(a.get("restored").asBoolean(), a::toString);
            assertEquals(a.get("before"), a.get("after"), a::toString);
        }
        for (JsonNode w : d.get("worker_check")) {
            assertTrue(ints(d.at("/plan/worker_nodes")).contains(w.get("node").asInt()), w::toString);
        }
    }

    @Test
    void textReportNamesEverySection() {
        CliRun run = CliRun.of("doctor");
        assertEquals(0, run.exitCode(), run::err);
        for (String section : List.of("Machine:", "This process", "Placement:", "Plan", "JVM")) {
            assertTrue(run.out().contains(section), () -> section + " missing in:\n" + run.out());
        }
    }

    @Test
    void aMissingSnapshotDirectoryIsOneClearUsageError() {
        CliRun run = CliRun.of("doctor", "--sysfs-root", "/nonexistent/snapshot");
        assertEquals(ErrorReporter.USAGE_ERROR, run.exitCode());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().contains("/nonexistent/snapshot"), run.err());
    }

    @Test
    void aDirectoryThatIsNoSnapshotIsRefusedNotExplainedAsAnEmptyMachine(@TempDir Path empty) {
        CliRun run = CliRun.of("doctor", "--sysfs-root", empty.toString());
        assertEquals(ErrorReporter.USAGE_ERROR, run.exitCode());
        assertTrue(run.err().contains("not a snapshot"), run.err());
    }

    @Test
    void predictsWhatPlusUseNumaWouldDoWhateverTheFlagOfThisJvm() throws Exception {
        String twoNodes = MACHINES.resolve("two-node-server").toString();
        JsonNode d = json(CliRun.of("doctor", "--json", "--sysfs-root", twoNodes));
        assertEquals(
                "on", d.at("/jvm/use_numa_prediction").asText(), d.at("/jvm").toString());
        CliRun text = CliRun.of("doctor", "--sysfs-root", twoNodes);
        assertTrue(text.out().contains("-XX:+UseNUMA here would turn NUMA on: enabled"), text.out());
        assertTrue(text.out().contains("The process that saved the snapshot"), text.out());
        assertFalse(text.out().contains("snapshot of snapshot"), text.out());
        JsonNode one = json(CliRun.of(
                "doctor",
                "--json",
                "--sysfs-root",
                MACHINES.resolve("laptop-one-node").toString()));
        assertEquals(
                "off",
                one.at("/jvm/use_numa_prediction").asText(),
                one.at("/jvm").toString());
    }

    /** numactl --cpunodebind=0 on two nodes: JDK 25 turns UseNUMA off; JDK 24 and earlier split eden over both. */
    @Test
    void aCpuMemoryMismatchShowsWhatJdk24AndEarlierWouldDo() throws Exception {
        String mismatch = MACHINES.resolve("two-node-cpunodebind0").toString();
        JsonNode d = json(CliRun.of("doctor", "--json", "--sysfs-root", mismatch));
        assertEquals(
                "off", d.at("/jvm/use_numa_prediction").asText(), d.at("/jvm").toString());
        assertTrue(
                d.at("/jvm/use_numa_reason").asText().contains("does not match"),
                d.at("/jvm").toString());
        assertEquals(
                "on",
                d.at("/jvm/use_numa_prediction_jdk24").asText(),
                d.at("/jvm").toString());
        assertTrue(
                d.at("/jvm/advice_jdk24").toString().contains("eden is split across memory nodes 0-1"),
                d.at("/jvm").toString());
        String text = CliRun.of("doctor", "--sysfs-root", mismatch).out();
        assertTrue(
                text.contains("on JDK 24 and earlier it would turn NUMA on: enabled on JDK 24 despite a mismatch"),
                text);
        assertTrue(
                text.contains("advice (JDK 24 and earlier): eden is split across memory nodes 0-1, and the part on "
                        + "nodes 1 is never allocated from"),
                text);

        JsonNode same = json(CliRun.of(
                "doctor",
                "--json",
                "--sysfs-root",
                MACHINES.resolve("two-node-server").toString()));
        assertEquals(
                same.at("/jvm/use_numa_prediction").asText(),
                same.at("/jvm/use_numa_prediction_jdk24").asText());
    }

    @Test
    void snapshotAndPlacementCheckAreRefusedTogether() {
        CliRun run = CliRun.of(
                "doctor",
                "--check-placement",
                "--sysfs-root",
                MACHINES.resolve("two-node-server").toString());
        assertEquals(ErrorReporter.USAGE_ERROR, run.exitCode());
        assertTrue(run.err().contains("--sysfs-root"), run.err());
    }

    @Test
    void anUnknownOptionIsAShortUsageErrorNotAUsageDump() {
        CliRun run = CliRun.of("doctor", "--jsno");
        assertEquals(ErrorReporter.USAGE_ERROR, run.exitCode());
        assertTrue(run.err().contains("--jsno"), run.err());
        assertTrue(run.err().contains("numacube doctor --help"), run.err());
        assertTrue(run.err().lines().count() <= 4, run.err());
    }

    /** A copy of fixture machine {@code name} in {@code dir}, whose files a test may change. */
    private static Path copyMachine(String name, Path dir) throws Exception {
        Path from = MACHINES.resolve(name);
        try (var files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path to = dir.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        return dir;
    }

    @Test
    void watchPrintsEachBindingChangeAndTheNewPlan(@TempDir Path dir) throws Exception {
        Path root = copyMachine("two-node-server", dir);
        Path status = root.resolve("proc/self/status");
        String text = Files.readString(status);
        String node1 = Files.readString(root.resolve("sys/devices/system/node/node1/cpulist"))
                .strip();
        // narrowed to node 1 while doctor watches, as a cgroup or taskset would
        Thread narrow = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(1500);
                Files.writeString(
                        status,
                        text.replaceAll("(?m)^(Cpus_allowed|Mems_allowed):.*\\n", "")
                                .replaceAll("(?m)^Cpus_allowed_list:.*$", "Cpus_allowed_list:\t" + node1)
                                .replaceAll("(?m)^Mems_allowed_list:.*$", "Mems_allowed_list:\t1"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CliRun run;
        try {
            run = CliRun.of(
                    "doctor",
                    "--json",
                    "--sysfs-root",
                    root.toString(),
                    "--watch",
                    "--watch-period",
                    "100ms",
                    "--watch-for",
                    "4s");
        } finally {
            narrow.join();
        }
        assertEquals(0, run.exitCode(), run::err);
        String[] lines = run.out().strip().split("\n");
        JsonNode change = JSON.readTree(lines[lines.length - 1]);
        assertEquals(
                "cpus 0-31 -> " + node1 + ", mems 0-1 -> 1",
                change.get("change").asText());
        assertEquals("[0,1]", change.get("data_nodes_before").toString());
        assertEquals("[1]", change.get("data_nodes").toString());
        assertEquals("[1]", change.get("worker_nodes").toString());
    }
}
