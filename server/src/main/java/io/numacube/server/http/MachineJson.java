package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.numacube.engine.MachineNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The {@code machine} section of {@code GET /v1/placement}: every NUMA node of the machine, whether the cube uses it
 * or not, so that a node left empty or a memory-only node shows.
 *
 * <pre>
 * "machine": {"simulated": false, "nodes": [{"node": 0, "cpus": "0-7", "cpus_allowed": "0-7",
 *   "memory_total_bytes": N, "memory_free_bytes": N, "memory_allowed": true, "distances": {"0": 10, "1": 21},
 *   "data": true, "worker_threads": 8}]}
 * </pre>
 *
 * {@code simulated} is true for a cube with simulated nodes: its nodes are none of the machine's, so no machine node
 * has data or workers. When sysfs could not be read (a file garbled mid-write), {@code nodes} is empty and {@code error}
 * says why; the rest of the placement is answered all the same. Stateless.
 */
final class MachineJson {

    private MachineJson() {}

    static void write(List<MachineNode> nodes, boolean simulated, String error, JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("machine");
        g.writeBooleanField("simulated", simulated);
        if (error != null) {
            g.writeStringField("error", error);
        }
        g.writeArrayFieldStart("nodes");
        for (MachineNode n : nodes) {
            node(n, g);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void node(MachineNode n, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("node", n.node());
        g.writeStringField("cpus", n.cpus());
        g.writeStringField("cpus_allowed", n.allowedCpus());
        g.writeNumberField("memory_total_bytes", n.memTotalBytes());
        g.writeNumberField("memory_free_bytes", n.memFreeBytes());
        g.writeBooleanField("memory_allowed", n.memoryAllowed());
        g.writeObjectFieldStart("distances");
        for (Map.Entry<Integer, Integer> d : n.distances().entrySet()) {
            g.writeNumberField(String.valueOf(d.getKey()), d.getValue());
        }
        g.writeEndObject();
        g.writeBooleanField("data", n.holdsData());
        g.writeNumberField("worker_threads", n.workerThreads());
        g.writeEndObject();
    }
}
