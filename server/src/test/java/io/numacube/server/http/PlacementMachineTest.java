package io.numacube.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.numacube.engine.Cube;
import io.numacube.engine.CubeOptions;
import io.numacube.engine.MachineNode;
import io.numacube.server.NumacubeServer;
import io.numacube.server.ServerOptions;
import io.numacube.server.TestCube;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/placement}'s {@code machine} section: every node of the machine as sysfs lists it (read here
 * directly, not through numacube), with the cube's data and workers on the nodes its other sections name.
 */
class PlacementMachineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path NODES = Path.of("/sys/devices/system/node");

    @Test
    void machineListsEveryNodeOfSysfsWithTheCubesDataAndWorkers() throws Exception {
        try (Cube cube = Cube.open(CubeOptions.defaults().withThreadsPerNode(1));
                NumacubeServer server = NumacubeServer.start(
                        cube, ServerOptions.defaults("test").withPorts(0, 0))) {
            cube.generateTrades(2_000, 7, null);
            JsonNode p =
                    JSON.readTree(HttpFrontEndTest.get(server, "/v1/placement").body());
            JsonNode machine = p.get("machine");
            assertFalse(machine.get("simulated").asBoolean());
            Map<Integer, JsonNode> byNode = new TreeMap<>();
            machine.get("nodes").forEach(n -> byNode.put(n.get("node").asInt(), n));
            if (Files.isDirectory(NODES)) {
                assertEquals(sysfsNodes(), byNode.keySet());
                for (var e : byNode.entrySet()) {
                    String cpulist = Files.readString(NODES.resolve("node" + e.getKey() + "/cpulist"))
                            .strip();
                    assertEquals(cpulist, e.getValue().get("cpus").asText(), "node " + e.getKey());
                }
            }
            List<Integer> data = new ArrayList<>();
            p.get("data_nodes").forEach(n -> data.add(n.asInt()));
            Map<Integer, Integer> workers = new TreeMap<>();
            p.get("workers")
                    .forEach(w ->
                            workers.put(w.get("node").asInt(), w.get("threads").asInt()));
            for (var e : byNode.entrySet()) {
                JsonNode n = e.getValue();
                assertEquals(data.contains(e.getKey()), n.get("data").asBoolean(), n.toString());
                assertEquals(
                        workers.getOrDefault(e.getKey(), 0),
                        n.get("worker_threads").asInt(),
                        n.toString());
                assertTrue(
                        n.get("memory_free_bytes").asLong()
                                <= n.get("memory_total_bytes").asLong(),
                        n.toString());
            }
            assertTrue(byNode.keySet().containsAll(data), () -> "data nodes " + data + " not in " + byNode.keySet());
        }
    }

    @Test
    void aSimulatedCubeShowsTheMachineWithNoDataOnIt() throws Exception {
        try (NumacubeServer server = NumacubeServer.start(
                TestCube.shared(), ServerOptions.defaults("test").withPorts(0, 0))) {
            JsonNode machine = JSON.readTree(
                            HttpFrontEndTest.get(server, "/v1/placement").body())
                    .get("machine");
            assertTrue(machine.get("simulated").asBoolean());
            assertFalse(machine.get("nodes").isEmpty());
            machine.get("nodes").forEach(n -> {
                assertFalse(n.get("data").asBoolean(), n.toString());
                assertEquals(0, n.get("worker_threads").asInt(), n.toString());
            });
        }
    }

    @Test
    void aMemoryOnlyNodeIsWrittenWithNoCpusAndItsDistances() throws Exception {
        List<MachineNode> nodes = List.of(
                new MachineNode(
                        0, "0-3", "0-3", 16L << 30, 8L << 30, true, new TreeMap<>(Map.of(0, 10, 2, 14)), true, 4),
                new MachineNode(2, "", "", 64L << 30, 60L << 30, false, new TreeMap<>(Map.of(0, 14, 2, 10)), false, 0));
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            g.writeStartObject();
            MachineJson.write(nodes, false, null, g);
            g.writeEndObject();
        }
        JsonNode memoryOnly =
                JSON.readTree(out.toString()).get("machine").get("nodes").get(1);
        assertEquals(
                "{\"node\":2,\"cpus\":\"\",\"cpus_allowed\":\"\",\"memory_total_bytes\":68719476736,"
                        + "\"memory_free_bytes\":64424509440,\"memory_allowed\":false,\"distances\":{\"0\":14,\"2\":10},"
                        + "\"data\":false,\"worker_threads\":0}",
                memoryOnly.toString());
    }

    @Test
    void aMachineThatCouldNotBeReadSaysWhyWithNoNodes() throws Exception {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            g.writeStartObject();
            MachineJson.write(List.of(), false, "node1/meminfo: line 3: number too large", g);
            g.writeEndObject();
        }
        assertEquals(
                "{\"machine\":{\"simulated\":false,\"error\":\"node1/meminfo: line 3: number too large\",\"nodes\":[]}}",
                out.toString());
    }

    private static TreeSet<Integer> sysfsNodes() throws Exception {
        TreeSet<Integer> ids = new TreeSet<>();
        try (var dirs = Files.list(NODES)) {
            dirs.map(d -> d.getFileName().toString())
                    .filter(name -> name.matches("node\\d+"))
                    .forEach(name -> ids.add(Integer.parseInt(name.substring(4))));
        }
        return ids;
    }
}
