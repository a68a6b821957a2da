package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.numacube.cli.multinode.VmResults.Config;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine on the multi-node kernel (issue 3): {@code numacube demo --runs 5 --json demo.json} (the default 10M rows)
 * in the two-node VM; every partition's {@code pages_on_node_pct} is at least 99, and morsels run on their partition's
 * home node: in the median query's least disturbed run at least 90 % of them, and over all runs of all queries at
 * least 85 %. An emulated vCPU that stalls during a run lets the other node's worker steal that run's morsels, as work
 * stealing should: under QEMU's software emulation on a loaded host whole queries have run 83-100 % at home over their
 * four measured runs (three of five below 90 % in one CI run), so the median is taken of each query's best run
 * ({@code best_run_morsels_home_pct}, the run with the fewest stalls), while a runtime that does not run morsels at
 * home (about half of them on two nodes) fails every run. Older demo files without that field are judged by their
 * totals.
 * And the placement is really spread: the cube ran on both nodes with pinned workers, the trades partitions sit on
 * both nodes with their memory on their own node, and both nodes ran morsels (so a runtime that fell back to one node
 * cannot pass by putting everything on node 0). A missing {@code demo.json} fails.
 */
@Tag("multinode")
@ExtendWith(VerdictLog.class)
class DemoInVmTest {

    static Stream<Arguments> demo() {
        return Stream.of(Arguments.of(VmStageLayout.TWO_NODE, "demo"));
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("demo")
    void partitionsAreOnTheirNodeAndMorselsRunAtHome(String config, String check) {
        Config c = VmResults.config(config);
        Optional<JsonNode> found = c.optionalJson("demo.json");
        if (found.isEmpty()) {
            fail("the demo wrote no " + c.dir().resolve("demo.json") + ": " + c.tail("demo.err"));
        }
        JsonNode doc = found.get();
        assertEquals(0, c.check(check).rc(), () -> c.tail("demo.err"));
        List<JsonNode> partitions = new ArrayList<>();
        List<JsonNode> morsels = new ArrayList<>();
        collect(doc, partitions, morsels);
        assertFalse(partitions.isEmpty(), () -> "no partitions[] with pages_on_node_pct in demo.json: " + doc);
        assertFalse(morsels.isEmpty(), () -> "no object with morsels and morsels_home in demo.json: " + doc);
        for (JsonNode p : partitions) {
            assertTrue(p.get("pages_on_node_pct").asDouble() >= 99.0, () -> "partition off its node: " + p);
        }
        long all = morsels.stream().mapToLong(m -> m.get("morsels").asLong()).sum();
        long home =
                morsels.stream().mapToLong(m -> m.get("morsels_home").asLong()).sum();
        assertTrue(all > 0, () -> "no morsels ran: " + morsels);
        List<Double> shares = morsels.stream()
                .filter(m -> m.get("morsels").asLong() > 0)
                .map(m -> m.has("best_run_morsels_home_pct")
                        ? m.get("best_run_morsels_home_pct").asDouble() / 100
                        : m.get("morsels_home").asDouble() / m.get("morsels").asLong())
                .sorted()
                .toList();
        double median = shares.get(shares.size() / 2);
        String detail = morsels.stream()
                .map(m ->
                        m.path("name").asText("?") + " " + m.get("morsels_home").asLong() + "/"
                                + m.get("morsels").asLong() + " stolen="
                                + m.path("morsels_stolen").asText("?") + " best run "
                                + m.path("best_run_morsels_home_pct").asText("?") + " %")
                .collect(java.util.stream.Collectors.joining(", "));
        assertTrue(
                median >= 0.90,
                () -> "the median query's best run ran " + 100 * median + " % of its morsels at home (need 90 %): "
                        + detail);
        assertTrue(
                home >= 0.85 * all,
                () -> "morsels at home " + home + " of " + all + " (need 85 % over all queries): "
                        + morsels.stream()
                                .map(m -> m.path("name").asText("?") + " "
                                        + m.get("morsels_home").asLong() + "/"
                                        + m.get("morsels").asLong() + " stolen="
                                        + m.path("morsels_stolen").asText("?"))
                                .collect(java.util.stream.Collectors.joining(", ")));
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("demo")
    void theCubeSpreadsOverBothNodesWithPinnedWorkers(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = c.optionalJson("demo.json")
                .orElseGet(() -> fail("the demo wrote no " + c.dir().resolve("demo.json") + ": " + c.tail("demo.err")));
        String runtime = doc.path("runtime").asText();
        assertTrue(
                runtime.contains("numa=native")
                        && runtime.contains("data_nodes=0-1")
                        && runtime.contains("workers_on=0-1"),
                () -> "the demo did not plan data and workers on nodes 0-1: " + runtime);
        String cube = doc.path("cube").asText();
        assertTrue(
                cube.contains("workers=pinned") && cube.contains("pinned=2"),
                () -> "the demo's workers were not pinned, one per node: " + cube);
        Set<Integer> nodes = new TreeSet<>();
        for (JsonNode p : doc.path("partitions")) {
            if (p.path("table").asText().equals("trades")) {
                nodes.add(p.get("node").asInt());
                assertEquals(
                        p.get("node").asInt(),
                        p.get("memory_node").asInt(),
                        () -> "a trades partition's memory is not on its node: " + p);
            }
        }
        assertEquals(Set.of(0, 1), nodes, () -> "trades partitions on nodes " + nodes + ": " + doc.path("partitions"));
        long[] ran = new long[2];
        for (JsonNode q : doc.path("queries")) {
            q.path("morsels_run_by_node").properties().forEach(e -> {
                int node = Integer.parseInt(e.getKey());
                assertTrue(node == 0 || node == 1, () -> "morsels ran on node " + node + " of a 2-node VM: " + q);
                ran[node] += e.getValue().asLong();
            });
        }
        assertTrue(ran[0] > 0 && ran[1] > 0, () -> "morsels run by node 0: " + ran[0] + ", by node 1: " + ran[1]);
    }

    /** Objects inside any {@code partitions} array that carry {@code pages_on_node_pct}; objects with both morsel
     *  counts, wherever they are (per query, per worker, or per partition). */
    private static void collect(JsonNode n, List<JsonNode> partitions, List<JsonNode> morsels) {
        if (n.isObject()) {
            if (n.has("morsels") && n.has("morsels_home")) {
                morsels.add(n);
            }
            n.properties().forEach(e -> {
                if (e.getKey().equals("partitions") && e.getValue().isArray()) {
                    e.getValue().forEach(p -> {
                        if (p.has("pages_on_node_pct")) {
                            partitions.add(p);
                        }
                    });
                }
                collect(e.getValue(), partitions, morsels);
            });
        } else if (n.isArray()) {
            n.forEach(e -> collect(e, partitions, morsels));
        }
    }
}
