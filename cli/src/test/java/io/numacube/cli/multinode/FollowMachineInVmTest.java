package io.numacube.cli.multinode;

import static io.numacube.cli.multinode.FollowCheckResults.convergedWithin30Seconds;
import static io.numacube.cli.multinode.FollowCheckResults.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.numacube.cli.multinode.VmResults.Config;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 13's acceptance test, asserted on what checks {@code follow} and {@code follow_seccomp} of the two-node VM
 * wrote ({@code CHECK.json}, from {@code FollowMachineVmMain} run by {@code tools/numa-vm/guest-follow.sh}, the second
 * under build/seccomp-eperm): a cube in a cgroup v2 allowed nodes 0 and 1 loaded trades on both and answered a query
 * loop; its cgroup was narrowed to node 1, then widened to nodes 0-1 again.
 * <ul>
 *   <li>narrowed: within 30 s every partition is recorded on node 1 with at least 99 % of its pages there (the
 *       runtime's page census), every worker thread may run on node 1's CPUs only;</li>
 *   <li>widened: within 30 s the cube's data nodes are 0 and 1 again, every partition is recorded on one of them with
 *       at least 99 % of its pages there, the trades are on both with their bytes per node apart by at most their
 *       largest partition (the move plan's balance), and every worker may run on its own node's CPUs only;</li>
 *   <li>the loop never failed, its answers never changed, and queries ran while the partitions moved, both ways;</li>
 *   <li>each move was logged in one line; the copies (both ways) were placed by mbind, or under the filter by first
 *       touch (mbind refused).</li>
 * </ul>
 * A missing {@code CHECK.json} fails.
 */
@Tag("multinode")
@ExtendWith(VerdictLog.class)
class FollowMachineInVmTest {

    static Stream<Arguments> follow() {
        return Stream.of(
                Arguments.of(VmStageLayout.TWO_NODE, VmStageLayout.FOLLOW_CHECK),
                Arguments.of(VmStageLayout.TWO_NODE, VmStageLayout.FOLLOW_SECCOMP_CHECK));
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void dataAndWorkersFollowTheCgroupToNode1Within30Seconds(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        JsonNode narrow = doc.get("narrow");
        convergedWithin30Seconds(c, check, "narrowed", narrow, doc);
        assertTrue(
                doc.get("partitions_before").findValues("memory_node").stream().anyMatch(n -> n.asInt() == 0),
                () -> "the load never used node 0, so nothing had to move: " + doc.get("partitions_before"));
        JsonNode partitions = narrow.get("partitions");
        assertFalse(partitions.isEmpty(), "no partitions");
        for (JsonNode p : partitions) {
            assertEquals(1, p.get("memory_node").asInt(), () -> "partition not moved: " + p);
            assertTrue(p.get("pages_on_node_pct").asDouble() >= 99.0, () -> "partition's pages off node 1: " + p);
        }
        SortedSet<Integer> node1 = VmResults.parseList(doc.get("node1_cpus").asText());
        JsonNode workers = narrow.get("workers");
        assertFalse(workers.isEmpty(), "no numacube worker threads seen");
        for (JsonNode w : workers) {
            assertTrue(
                    node1.containsAll(VmResults.parseList(w.get("cpus").asText())),
                    () -> "worker may run off node 1 (cpus " + node1 + "): " + w);
        }
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void dataAndWorkersSpreadOverBothNodesAgainWithin30SecondsOfTheWidening(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        JsonNode widen = doc.get("widen");
        convergedWithin30Seconds(c, check, "widened", widen, doc);
        assertEquals("[0,1]", doc.get("data_nodes").toString(), () -> "data nodes at the end: " + doc.get("log"));
        Map<Integer, Long> tradesBytes = new TreeMap<>();
        long largest = 0;
        for (JsonNode p : widen.get("partitions")) {
            int node = p.get("memory_node").asInt();
            assertTrue(node == 0 || node == 1, () -> "partition on no data node: " + p);
            assertTrue(p.get("pages_on_node_pct").asDouble() >= 99.0, () -> "partition's pages off its node: " + p);
            if (p.get("table").asText().equals("trades")) {
                tradesBytes.merge(node, p.get("bytes").asLong(), Long::sum);
                largest = Math.max(largest, p.get("bytes").asLong());
            }
        }
        long gap = Math.abs(tradesBytes.getOrDefault(0, 0L) - tradesBytes.getOrDefault(1, 0L));
        long maxGap = largest;
        assertTrue(
                tradesBytes.getOrDefault(0, 0L) > 0 && gap <= maxGap,
                () -> "trades not spread over both nodes again (bytes per node " + tradesBytes + ", largest partition "
                        + maxGap + "): " + doc.get("log"));
        Map<Integer, SortedSet<Integer>> nodeCpus = Map.of(
                0, VmResults.parseList(doc.get("node0_cpus").asText()),
                1, VmResults.parseList(doc.get("node1_cpus").asText()));
        List<Integer> workerNodes = new ArrayList<>();
        for (JsonNode w : widen.get("workers")) {
            int node = w.get("node").asInt();
            assertTrue(nodeCpus.containsKey(node), () -> "worker of an unknown node: " + w);
            assertTrue(
                    nodeCpus.get(node)
                            .containsAll(VmResults.parseList(w.get("cpus").asText())),
                    () -> "worker may run off its node (cpus " + nodeCpus.get(node) + "): " + w);
            workerNodes.add(node);
        }
        assertTrue(workerNodes.containsAll(List.of(0, 1)), () -> "workers on both nodes: " + widen.get("workers"));
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void theQueryLoopNeverFailedNorChangedItsAnswers(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        assertEquals(0, doc.get("query_failures").asLong(), () -> "first failure: " + doc.get("first_failure"));
        assertEquals(0, doc.get("answers_changed").asLong(), "answers changed during the moves");
        for (String phase : List.of("narrow", "widen")) {
            assertTrue(
                    doc.get(phase).get("queries_during_move").asLong() >= 1,
                    () -> "no query ran during the move (" + phase + "): " + doc.get(phase));
        }
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void eachMoveWasLoggedInOneLine(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        String all = doc.get("log").toString();
        // the script writes cpus, then mems: the watcher may see them in one reading or in two
        assertTrue(all.contains("cpus 0-1 -> 1"), all);
        assertTrue(all.contains("cpus 1 -> 0-1"), all);
        // the follower copies by default (FollowOptions.moveInPlace off: see its javadoc)
        String how = "; copied";
        assertMoveLine(doc, "mems 0-1 -> 1", "node 1", how);
        assertMoveLine(doc, "mems 1 -> 0-1", "node 0", how);
    }

    /**
     * The change's line that moved the data: the first line that says {@code change}, or a later one that moved the
     * data to {@code to} (the watcher may see one cgroup write through several of its sources in several readings —
     * the cgroup's {@code cpuset.mems.effective}, the thread's allowed nodes, its allowed CPUs — and follow each: in a CI
     * run the widening's mems came one reading before its CPUs, and the data moved with the CPUs' line, since a node's
     * data goes where its workers may run). It says where the partitions went and how many of their pages are there.
     */
    private static void assertMoveLine(JsonNode doc, String change, String to, String how) {
        String line = null;
        boolean seen = false;
        for (JsonNode l : doc.get("log")) {
            String text = l.asText();
            seen |= text.contains(change);
            boolean moved = text.contains("to " + to + " ... done in ");
            if (seen
                    && (line == null || !line.contains(" ... done in ") || moved)
                    && (moved || text.contains(change))) {
                line = text;
            }
        }
        String all = doc.get("log").toString();
        assertTrue(line != null, () -> "no line for " + change + ": " + all);
        String found = line;
        assertTrue(found.startsWith("bindings changed: "), found);
        assertTrue(found.contains("to " + to + " ... done in "), found);
        assertTrue(found.matches(".*, (99\\.\\d|100\\.0)% of pages on " + to + "(; .*)?"), found);
        assertTrue(found.contains(how), () -> "moved otherwise than by '" + how + "': " + found);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void underTheFilterTheCopiesArePlacedByFirstTouchElseByMbind(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        boolean seccomp = VmStageLayout.underSeccomp(check);
        assertEquals(seccomp ? 2 : 0, c.env(check).seccomp(), "Seccomp of the check's prefix");
        String expected = seccomp ? "FIRST_TOUCH" : "BIND";
        List<String> onNode0Before = new ArrayList<>();
        for (JsonNode p : doc.get("partitions_before")) {
            if (p.get("memory_node").asInt() == 0) {
                onNode0Before.add(p.get("table").asText() + "/" + p.get("id").asInt());
            }
        }
        List<JsonNode> copies = new ArrayList<>();
        for (JsonNode p : doc.get("narrow").get("partitions")) {
            if (onNode0Before.contains(
                    p.get("table").asText() + "/" + p.get("id").asInt())) {
                copies.add(p);
            }
        }
        for (JsonNode p : doc.get("widen").get("partitions")) {
            if (p.get("memory_node").asInt() == 0) {
                copies.add(p);
            }
        }
        assertFalse(copies.isEmpty(), "no partition was copied");
        for (JsonNode p : copies) {
            String placement = p.get("placement").asText();
            assertTrue(
                    placement.startsWith(expected), () -> "copy placed " + placement + ", not " + expected + ": " + p);
            assertFalse(placement.contains("moved in place"), () -> "moved in place by default: " + p);
        }
    }

    /**
     * After each move, every partition placed by mbind lies in mappings bound with static nodes to its memory node
     * ({@code bind=static:N} in numa_maps: a later change of the cgroup's mems cannot remap them), and nothing stays
     * bound to a node that holds none of the cube's data (the memory a move left was given back).
     */
    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void afterEachMoveTheDataIsBoundWithStaticNodesToItsNode(String config, String check) {
        JsonNode doc = result(VmResults.config(config), check);
        for (String phase : List.of("narrow", "widen")) {
            JsonNode p = doc.get(phase);
            Map<Integer, Long> placed = new TreeMap<>();
            for (JsonNode part : p.get("partitions")) {
                if (part.get("placement").asText().startsWith("BIND")) {
                    placed.merge(
                            part.get("memory_node").asInt(), part.get("bytes").asLong(), Long::sum);
                }
            }
            JsonNode bound = p.get("bound_bytes");
            if (VmStageLayout.underSeccomp(check)) {
                assertTrue(placed.isEmpty(), () -> phase + ": placed by mbind under the filter: " + p);
                continue;
            }
            assertFalse(placed.isEmpty(), () -> phase + ": no partition placed by mbind: " + p.get("partitions"));
            placed.forEach((node, bytes) -> {
                long b = bound.path("bind=static:" + node).asLong(0);
                assertTrue(
                        b >= bytes,
                        () -> phase + ": " + bytes + " partition bytes on node " + node + " but " + b
                                + " bytes bound static to it: " + bound);
            });
            bound.fieldNames()
                    .forEachRemaining(policy -> assertTrue(
                            policy.startsWith("bind=static:")
                                    && placed.containsKey(Integer.parseInt(policy.substring("bind=static:".length()))),
                            () -> phase + ": memory bound " + policy + " where no partition is: " + bound));
        }
    }
}
