package io.numacube.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.numacube.engine.Cube;
import io.numacube.engine.MachineNode;
import io.numacube.engine.PartitionInfo;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.TableNames;
import io.numacube.engine.schema.TableSchema;
import io.numacube.server.query.ServerMetrics;
import java.io.IOException;
import java.util.List;

/**
 * The read-only views of the cube: {@code GET /v1/tables} (every table), {@code GET /v1/tables/NAME} (one, matched
 * case-insensitively as SQL names are; 404 with SQLSTATE 42P01 when there is none) and {@code GET /v1/placement}
 * (data nodes, worker threads per node, every partition with its node and the share of its pages verified on
 * that node, as {@code numacube query} prints them, the morsels each node's workers ran since the start and how many
 * of them at home ({@code activity}, from {@link ServerMetrics#nodeActivity}), every node of the machine with its CPUs,
 * memory, distances and what this process may use of it ({@code machine}: {@link MachineJson}), and the history of
 * changes of the machine followed). A table is
 * {@code {"name", "rows", "version", "partitioning", "columns": [{"name", "type"}]}} (the version counts from 1 at
 * load, one more for each write); a server started with {@code --shard I/N} adds {@code "shard": "I/N"} and {@code
 * "shard_key"} (the key column, or null for a table held whole on every shard). Thread-safe: the cube is.
 */
final class CatalogEndpoints {

    private final Cube cube;
    private final ServerMetrics metrics;

    CatalogEndpoints(Cube cube, ServerMetrics metrics) {
        this.cube = cube;
        this.metrics = metrics;
    }

    Reply tables() {
        List<String> names = cube.tables();
        return Reply.ok(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("tables");
            for (String name : names) {
                table(name, g);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** {@code GET /v1/tables/NAME}: NAME in any case, qualified or not ({@code public.trades}: {@link TableNames}). */
    Reply table(String requested) {
        String resolved;
        try {
            resolved = TableNames.resolve(requested);
        } catch (io.numacube.numa.base.NumacubeException e) {
            throw new HttpError(404, e.code(), e.detail());
        }
        String name = cube.tables().stream()
                .filter(resolved::equalsIgnoreCase)
                .findFirst()
                .orElseThrow(() ->
                        new HttpError(404, "42P01", "no such table: table=" + requested + " tables=" + cube.tables()));
        return Reply.ok(g -> table(name, g));
    }

    private void table(String name, JsonGenerator g) throws IOException {
        TableSchema schema = cube.schema(name);
        g.writeStartObject();
        g.writeStringField("name", schema.name());
        g.writeNumberField("rows", cube.rowCount(name));
        g.writeNumberField("version", cube.version(name));
        g.writeStringField("partitioning", cube.partitioning(name));
        shard(schema, g);
        g.writeArrayFieldStart("columns");
        for (ColumnSpec c : schema.columns()) {
            g.writeStartObject();
            g.writeStringField("name", c.name());
            g.writeStringField("type", io.numacube.server.query.SqlTypeNames.of(c));
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * A sharded server's {@code "shard": "I/N"}, and the table's {@code "shard_key"}: its key column, or null when the
     * table is held whole on every shard. Nothing when the server holds every row.
     */
    private void shard(TableSchema schema, JsonGenerator g) throws IOException {
        var shard = cube.shard();
        if (shard.isEmpty()) {
            return;
        }
        g.writeStringField("shard", shard.get().toString());
        int key = shard.get().keyIndex(schema);
        if (key < 0) {
            g.writeNullField("shard_key");
        } else {
            g.writeStringField("shard_key", schema.columns().get(key).name());
        }
    }

    Reply placement() {
        List<PartitionInfo> partitions = cube.placement();
        List<MachineNode> machine = List.of();
        String machineError = null;
        try {
            machine = cube.machine();
        } catch (io.numacube.numa.base.NumacubeException e) {
            machineError = e.getMessage();
        }
        List<MachineNode> nodes = machine;
        String error = machineError;
        return Reply.ok(g -> {
            g.writeStartObject();
            g.writeStringField("describe", cube.describe());
            g.writeArrayFieldStart("data_nodes");
            for (int n : cube.dataNodes()) {
                g.writeNumber(n);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("workers");
            for (int n : cube.workers().nodes()) {
                g.writeStartObject();
                g.writeNumberField("node", n);
                g.writeNumberField("threads", cube.workers().workersOn(n));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("partitions");
            for (PartitionInfo p : partitions) {
                partition(p, g);
            }
            g.writeEndArray();
            activity(g);
            MachineJson.write(nodes, cube.simulatesNodes(), error, g);
            g.writeBooleanField("follows_machine", cube.followsMachine());
            g.writeArrayFieldStart("changes");
            for (io.numacube.engine.PlacementChange c : cube.placementHistory()) {
                change(c, g);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** {@code "activity": [{"node", "morsels", "morsels_home"}]}, one entry per worker node that ran a morsel. */
    private void activity(JsonGenerator g) throws IOException {
        g.writeArrayFieldStart("activity");
        for (ServerMetrics.NodeActivity a : metrics.nodeActivity()) {
            g.writeStartObject();
            g.writeNumberField("node", a.node());
            g.writeNumberField("morsels", a.morsels());
            g.writeNumberField("morsels_home", a.morselsHome());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** One change of the machine followed, oldest first in {@code changes}. */
    private static void change(io.numacube.engine.PlacementChange c, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("seen_at", c.seenAt().toString());
        g.writeStringField("cause", c.cause().name().toLowerCase(java.util.Locale.ROOT));
        g.writeStringField("bindings", c.bindings());
        g.writeStringField("workers_resized", c.workersResized());
        g.writeArrayFieldStart("data_nodes_before");
        for (int n : c.dataNodesBefore()) {
            g.writeNumber(n);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("data_nodes_after");
        for (int n : c.dataNodesAfter()) {
            g.writeNumber(n);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("worker_cpus");
        for (var e : c.workerCpus().entrySet()) {
            g.writeStringField(String.valueOf(e.getKey()), e.getValue());
        }
        g.writeEndObject();
        g.writeNumberField("partitions_moved", c.partitionsMoved());
        g.writeNumberField("bytes_moved", c.bytesMoved());
        g.writeNumberField("seconds", Math.round(c.seconds() * 1000) / 1000.0);
        g.writeFieldName("pages_on_target_pct");
        if (Double.isNaN(c.percentOnTarget())) {
            g.writeNull();
        } else {
            g.writeNumber(Math.round(c.percentOnTarget() * 10) / 10.0);
        }
        g.writeStringField("outcome", c.outcome());
        g.writeStringField("how", c.how());
        g.writeStringField("timings", c.timings());
        g.writeStringField("log", c.logLine());
        g.writeEndObject();
    }

    private static void partition(PartitionInfo p, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("table", p.table());
        g.writeNumberField("id", p.partitionId());
        g.writeStringField("label", p.label());
        g.writeNumberField("node", p.homeNode());
        g.writeNumberField("memory_node", p.memoryNode());
        g.writeNumberField("rows", p.rows());
        g.writeNumberField("bytes", p.bytes());
        g.writeStringField("placement", p.placementApplied());
        g.writeFieldName("pages_on_node_pct");
        if (Double.isNaN(p.pagesOnNodePct())) {
            g.writeNull();
        } else {
            g.writeNumber(Math.round(p.pagesOnNodePct() * 10) / 10.0);
        }
        g.writeEndObject();
    }
}
