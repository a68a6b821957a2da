package io.numacube.cli.multinode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.numacube.cli.multinode.VmResults.Config;
import java.util.Optional;
import java.util.SortedSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 13's acceptance test, asserted on what check {@code follow} of the two-node VM wrote ({@code follow.json},
 * from {@code FollowMachineVmMain} run by {@code tools/numa-vm/guest-follow.sh}): a cube in a cgroup v2 allowed nodes
 * 0 and 1 loaded trades on both, answered a query loop, and its cgroup was narrowed to node 1. Within 30 s every
 * partition is recorded on node 1 with at least 99 % of its pages there (the runtime's page census), every worker
 * thread may run on node 1's CPUs only, the loop never failed, its answers never changed, and queries ran while the
 * partitions moved; the change was logged in one line. A missing {@code follow.json} fails.
 */
@Tag("multinode")
@ExtendWith(VerdictLog.class)
class FollowMachineInVmTest {

    static Stream<Arguments> follow() {
        return Stream.of(Arguments.of(VmStageLayout.TWO_NODE, VmStageLayout.FOLLOW_CHECK));
    }

    private static JsonNode result(Config c, String check) {
        Optional<JsonNode> found = c.optionalJson(check + ".json");
        if (found.isEmpty()) {
            fail("the follow check wrote no " + c.dir().resolve(check + ".json") + ": " + c.tail(check + ".err"));
        }
        assertEquals(0, c.check(check).rc(), () -> c.tail(check + ".err"));
        return found.get();
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void dataAndWorkersFollowTheCgroupToNode1Within30Seconds(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        assertTrue(doc.get("narrowed").asBoolean(), () -> "the cgroup was never narrowed: " + c.tail(check + ".err"));
        assertTrue(
                doc.get("converged").asBoolean(),
                () -> "not on node 1 after 60 s: " + doc.get("not_converged_because") + " log=" + doc.get("log"));
        // from the moment the script narrowed the cgroup (its clock, the guest's) to convergence seen by the cube
        long narrowedMillis = Long.parseLong(c.read(check + ".narrowed").strip());
        double seconds = (doc.get("converged_at_ms").asLong() - narrowedMillis) / 1000.0;
        assertTrue(
                seconds > 0 && seconds <= 30.0,
                () -> "converged " + seconds + " s after the narrowing (at most 30 s): " + doc.get("log"));
        assertTrue(
                doc.get("partitions_before").findValues("memory_node").stream().anyMatch(n -> n.asInt() == 0),
                () -> "the load never used node 0, so nothing had to move: " + doc.get("partitions_before"));
        JsonNode partitions = doc.get("partitions");
        assertFalse(partitions.isEmpty(), "no partitions");
        for (JsonNode p : partitions) {
            assertEquals(1, p.get("memory_node").asInt(), () -> "partition not moved: " + p);
            assertTrue(p.get("pages_on_node_pct").asDouble() >= 99.0, () -> "partition's pages off node 1: " + p);
        }
        SortedSet<Integer> node1 = VmResults.parseList(doc.get("node1_cpus").asText());
        JsonNode workers = doc.get("workers");
        assertFalse(workers.isEmpty(), "no numacube worker threads seen");
        for (JsonNode w : workers) {
            assertTrue(
                    node1.containsAll(VmResults.parseList(w.get("cpus").asText())),
                    () -> "worker may run off node 1 (cpus " + node1 + "): " + w);
        }
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void theQueryLoopNeverFailedNorChangedItsAnswers(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        assertEquals(0, doc.get("query_failures").asLong(), () -> "first failure: " + doc.get("first_failure"));
        assertEquals(0, doc.get("answers_changed").asLong(), "answers changed during the move");
        assertTrue(doc.get("queries_during_move").asLong() >= 1, () -> "no query ran during the move: " + doc);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("follow")
    void theChangeWasLoggedInOneLine(String config, String check) {
        Config c = VmResults.config(config);
        JsonNode doc = result(c, check);
        JsonNode log = doc.get("log");
        assertFalse(log.isEmpty(), "no change logged");
        // the script writes cpus, then mems: the watcher may see them in one reading or in two
        String all = log.toString();
        assertTrue(all.contains("cpus 0-1 -> 1"), all);
        String move = null;
        for (JsonNode l : log) {
            if (l.asText().contains("mems 0-1 -> 1")) {
                move = l.asText();
            }
        }
        assertTrue(move != null, () -> "no line for mems 0-1 -> 1: " + all);
        String line = move;
        assertTrue(line.startsWith("bindings changed: "), line);
        assertTrue(line.contains("to node 1 ... done in "), line);
        assertTrue(line.matches(".*, (99\\.\\d|100\\.0)% of pages on node 1"), line);
    }
}
