package io.numacube.spark;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * One shard's description of a table, from {@code GET /v1/tables/NAME}. Immutable.
 *
 * @param address    the shard that described it
 * @param name       the table's name as the shard spells it
 * @param version    the table's version on that shard (1 at load, one more per write)
 * @param shardIndex the shard's I of {@code --shard I/N}, or -1 for a server that holds every row
 * @param shardCount the shard's N, or 1 for a server that holds every row
 * @param shardKey   the table's shard key column, or null when the table is held whole on every shard
 * @param columns    the columns, in order
 */
record ShardTable(
        ShardAddress address,
        String name,
        long version,
        int shardIndex,
        int shardCount,
        String shardKey,
        List<Column> columns)
        implements Serializable {

    /** A column's name and SQL type name ({@code BIGINT}, {@code VARCHAR}, {@code DECIMAL(18,2)}, ...). */
    record Column(String name, String type) implements Serializable {}

    static ShardTable of(ShardAddress address, JsonNode t) {
        List<Column> columns = new ArrayList<>();
        for (JsonNode c : t.get("columns")) {
            columns.add(new Column(c.get("name").asText(), c.get("type").asText()));
        }
        JsonNode shard = t.get("shard");
        int index = -1;
        int count = 1;
        if (shard != null && !shard.isNull()) {
            String[] in = shard.asText().split("/");
            index = Integer.parseInt(in[0]);
            count = Integer.parseInt(in[1]);
        }
        JsonNode key = t.get("shard_key");
        return new ShardTable(
                address,
                t.get("name").asText(),
                t.get("version").asLong(),
                index,
                count,
                key == null || key.isNull() ? null : key.asText(),
                List.copyOf(columns));
    }

    /** Whether this table's rows are spread over the shards (rather than held whole by each). */
    boolean sharded() {
        return shardKey != null;
    }

    /** {@code host:port (shard I/N)}, for messages. */
    String where() {
        return address + (shardIndex < 0 ? " (unsharded)" : " (shard " + shardIndex + "/" + shardCount + ")");
    }
}
