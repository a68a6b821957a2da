package io.numacube.spark;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One table as its shards describe it, checked to fit together: every listed shard answers, they all say the same
 * shard count N, cover 0..N-1 once each, and give the table the same columns and the same shard key. Sorted by shard
 * index. A single server that holds every row is a layout of one. Immutable; the versions are those seen when it
 * was made (a scan pins them: {@link ShardPartition}).
 *
 * @param table  the table's name as the shards spell it
 * @param shards each shard's description, by shard index
 */
record TableLayout(String table, List<ShardTable> shards) implements Serializable {

    /** Asks every shard in {@code addresses} for {@code table} and checks that their answers fit together. */
    static TableLayout describe(String table, List<ShardAddress> addresses, Duration timeout) {
        List<ShardTable> shards = new ArrayList<>();
        for (ShardAddress a : addresses) {
            shards.add(new ShardClient(a, timeout).table(table));
        }
        shards.sort(Comparator.comparingInt(ShardTable::shardIndex));
        check(shards);
        return new TableLayout(shards.getFirst().name(), List.copyOf(shards));
    }

    private static void check(List<ShardTable> shards) {
        ShardTable first = shards.getFirst();
        int n = shards.size();
        for (int i = 0; i < n; i++) {
            ShardTable s = shards.get(i);
            boolean unsharded = n == 1 && s.shardIndex() < 0;
            if (!unsharded && (s.shardCount() != n || s.shardIndex() != i)) {
                throw new ShardException("numacube: the shards do not fit together: " + n + " listed, and "
                        + s.where() + " — list every shard of one --shard I/N set once, N=" + s.shardCount()
                        + "; listed: " + shards.stream().map(ShardTable::where).toList());
            }
            if (!s.columns().equals(first.columns()) || !java.util.Objects.equals(s.shardKey(), first.shardKey())) {
                throw new ShardException("numacube: shard " + s.where() + " serves another version of table "
                        + first.name() + " than shard " + first.where() + ": columns=" + s.columns() + " key="
                        + s.shardKey() + " vs columns=" + first.columns() + " key=" + first.shardKey()
                        + " — start every shard on the same data");
            }
        }
    }

    /** Whether the rows are spread over the shards; false when each shard holds the whole table. */
    boolean sharded() {
        return shards.getFirst().sharded();
    }

    String shardKey() {
        return shards.getFirst().shardKey();
    }

    int count() {
        return shards.size();
    }

    StructType schema() {
        List<StructField> fields = new ArrayList<>();
        for (ShardTable.Column c : shards.getFirst().columns()) {
            fields.add(DataTypes.createStructField(c.name(), SparkVectors.typeOf(c.type()), true));
        }
        return DataTypes.createStructType(fields);
    }
}
