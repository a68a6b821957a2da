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
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine on the multi-node kernel (issue 3): {@code numacube demo --json demo.json} (the default 10M rows) in the
 * two-node VM; every partition's {@code pages_on_node_pct} is at least 99 and at least 95 % of the morsels ran on
 * their partition's home node ({@code sum(morsels_home) / sum(morsels)}).
 * A missing {@code demo.json} fails.
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
        long home = morsels.stream().mapToLong(m -> m.get("morsels_home").asLong()).sum();
        assertTrue(all > 0, () -> "no morsels ran: " + morsels);
        assertTrue(home >= 0.95 * all, () -> "morsels at home " + home + " of " + all + " (need 95 %): "
                + morsels.stream().map(m -> m.path("name").asText("?") + " " + m.get("morsels_home").asLong() + "/"
                        + m.get("morsels").asLong() + " stolen=" + m.path("morsels_stolen").asText("?"))
                        .collect(java.util.stream.Collectors.joining(", ")));
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
