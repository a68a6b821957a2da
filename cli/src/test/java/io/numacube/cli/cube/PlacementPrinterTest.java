package io.numacube.cli.cube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.cli.output.Json;
import io.numacube.engine.PartitionInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementPrinterTest {

    private static final List<PartitionInfo> PARTS = List.of(
            new PartitionInfo("trades", 0, "rows 0..4999", 0, 0, 5000, 3 << 20, "BIND", 100.0),
            new PartitionInfo("trades", 1, "rows 5000..9999", 1, 1, 5000, 3 << 20, "FIRST_TOUCH", 99.25),
            new PartitionInfo("fx", 0, "rows 0..19", 0, -1, 20, 4096, "OS_DEFAULT", Double.NaN));

    @Test
    void printsOneAlignedLinePerPartitionWithThePageShare() {
        StringWriter s = new StringWriter();
        PlacementPrinter.print(PARTS, new PrintWriter(s));
        String[] lines = s.toString().split("\n");
        assertEquals(2 + PARTS.size(), lines.length, s.toString());
        assertTrue(lines[0].startsWith("table   part  holds"), lines[0]);
        assertTrue(lines[2].endsWith("BIND                100.0%"), lines[2]);
        assertTrue(lines[3].contains(" 3.0 MiB") && lines[3].endsWith("99.3%"), lines[3]);
        assertTrue(lines[4].contains(" - ") && lines[4].endsWith("n/a"), lines[4]);
    }

    @Test
    void writesTheJsonKeysTheMultiNodeStageReads() throws Exception {
        JsonNode a = new ObjectMapper().readTree(Json.print(PlacementPrinter.json(PARTS)));
        assertEquals(3, a.size());
        assertEquals(1, a.get(1).get("node").asInt());
        assertEquals(5000, a.get(1).get("rows").asLong());
        assertEquals(3 << 20, a.get(1).get("bytes").asLong());
        assertEquals(99.25, a.get(1).get("pages_on_node_pct").asDouble());
        assertEquals(1, a.get(1).get("id").asInt());
        assertTrue(a.get(2).get("pages_on_node_pct").isNull());
    }
}
