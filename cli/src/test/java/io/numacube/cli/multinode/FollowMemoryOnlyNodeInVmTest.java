package io.numacube.cli.multinode;

import static io.numacube.cli.multinode.FollowCheckResults.convergedWithin30Seconds;
import static io.numacube.cli.multinode.FollowCheckResults.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.numacube.cli.multinode.VmResults.Config;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 13 with a memory-only node, asserted on what check {@code follow_memonly} of the mem-only VM wrote ({@code
 * follow_memonly.json}, from {@code FollowMachineVmMain ... drop-memory-only} run by {@code
 * tools/numa-vm/guest-follow.sh}): a cube in a cgroup v2 allowed every CPU and nodes 0-2 (node 2 memory only) loaded
 * trades with some on node 2 (mbind reaches it) and answered a query loop; cpuset.mems lost node 2, then got it back.
 * <ul>
 *   <li>without node 2: within 30 s no partition is recorded on node 2, every partition is on node 0 or 1 with at
 *       least 99 % of its pages there;</li>
 *   <li>with node 2 again: within 30 s the trades are on node 2 again, every partition on a node with at least 99 %
 *       of its pages there;</li>
 *   <li>the loop never failed, its answers never changed, queries ran during both moves; both moves were logged.</li>
 * </ul>
 * A missing {@code follow_memonly.json} fails.
 */
@Tag("multinode")
@ExtendWith(VerdictLog.class)
class FollowMemoryOnlyNodeInVmTest {

    static Stream<Arguments> follow() {
        return Stream.of(Arguments.of(VmStageLayout.MEM_ONLY, VmStageLayout.FOLLOW_MEMONLY_CHECK));
    }

    private static void everyPartitionOnItsNode(JsonNode partitions, List<Integer> nodes) {
        assertFalse(partitions.isEmpty(), "no partitions");
        for (JsonNode p : partitions) {
            assertTrue(nodes.contains(p.get("memory_node").asInt()), () -> "partition off " + nodes + ": " + p);
            assertTrue(p.get("pages_on_node_pct").asDouble() >= 99.0, () -> "partition's pages off its node: " + p);
        }
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void dataLeavesTheMemoryOnlyNodeWhenMemsNoLongerHasItAndComesBackWithIt(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        assertTrue(
                doc.get("partitions_before").findValues("memory_node").stream().anyMatch(n -> n.asInt() == 2),
                () -> "the load put nothing on memory-only node 2, so nothing had to move: "
                        + doc.get("partitions_before"));
        convergedWithin30Seconds(c, check, "narrowed", doc.get("narrow"), doc);
        everyPartitionOnItsNode(doc.get("narrow").get("partitions"), List.of(0, 1));
        convergedWithin30Seconds(c, check, "widened", doc.get("widen"), doc);
        everyPartitionOnItsNode(doc.get("widen").get("partitions"), List.of(0, 1, 2));
        boolean tradesOn2 = false;
        for (JsonNode p : doc.get("widen").get("partitions")) {
            tradesOn2 |= p.get("table").asText().equals("trades")
                    && p.get("memory_node").asInt() == 2;
        }
        assertTrue(
                tradesOn2,
                () -> "no trades on node 2 once given back: " + doc.get("widen").get("partitions"));
        assertEquals("[0,1,2]", doc.get("data_nodes").toString(), () -> "data nodes at the end: " + doc.get("log"));
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void theQueryLoopNeverFailedNorChangedItsAnswersAndBothMovesWereLogged(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        assertEquals(0, doc.get("query_failures").asLong(), () -> "first failure: " + doc.get("first_failure"));
        assertEquals(0, doc.get("answers_changed").asLong(), "answers changed during the moves");
        for (String phase : List.of("narrow", "widen")) {
            assertTrue(
                    doc.get(phase).get("queries_during_move").asLong() >= 1,
                    () -> "no query ran during the move (" + phase + "): " + doc.get(phase));
        }
        String all = doc.get("log").toString();
        assertTrue(all.matches(".*mems 0-2 -> 0-1[^\"]*moving \\d+ partitions?, [^\"]* \\.\\.\\. done in .*"), all);
        assertTrue(
                all.matches(".*mems 0-1 -> 0-2[^\"]*moving \\d+ partitions?, [^\"]*to node 2 \\.\\.\\. done in .*"),
                all);
    }
}
