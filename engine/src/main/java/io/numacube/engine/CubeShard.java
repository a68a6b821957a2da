package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which shard of tables split across processes a cube holds ({@link Shard}), and the rows of other shards it left out
 * of each table staged once it knew its shard ({@link Cube#loadShard}); {@link Cube#keepShard} deletes them from the
 * tables placed before ({@link ShardRows}).
 *
 * <p>Invariants: no shard (every row given is held) until {@link #load} or {@link #keep} sets one; {@link #keep}
 * refuses a shard other than the one set. {@link #droppedAtLoad} lists, by table key, exactly the tables staged under
 * the shard that have its key column, each with the rows left out at its last load.
 *
 * <p>Thread-safety: the shard is volatile, so a load reads one shard throughout; {@link #retain} is called under the
 * cube's load lock (writers are serialised), its map is concurrent for {@link #keep}, which takes no lock: it is called
 * once, after loading, and its deletes are writes that take the load lock one by one.
 */
final class CubeShard {

    /** The shard whose rows the cube holds, or null: every row it is given. */
    private volatile Shard shard;

    /** Per table staged under {@link #shard} (by key), the rows of other shards left out when it was loaded. */
    private final Map<String, Long> droppedAtLoad = new ConcurrentHashMap<>();

    /** {@code staging}'s rows of the shard (all of them while there is none), recording the rows left out. */
    TableStaging retain(TableStaging staging) {
        Shard keep = shard;
        TableStaging held = keep == null ? staging : keep.retain(staging);
        if (keep != null && keep.keyIndex(staging.schema()) >= 0) {
            droppedAtLoad.put(CubeTables.key(staging.schema().name()), (long) staging.rows() - held.rows());
        }
        return held;
    }

    /** As {@link Cube#keepShard}: {@code keep} becomes the shard and the rows of others leave {@code cube}'s tables. */
    Map<String, Long> keep(Cube cube, Shard keep) {
        Objects.requireNonNull(keep, "shard must not be null");
        if (shard != null && !shard.equals(keep)) {
            throw new IllegalStateException(
                    "this cube holds shard " + shard + " of " + shard.column() + ", not " + keep);
        }
        Map<String, Long> deleted = ShardRows.keep(cube, keep, droppedAtLoad.keySet());
        this.shard = keep;
        Map<String, Long> dropped = new LinkedHashMap<>();
        for (String table : cube.tables()) {
            Long atLoad = droppedAtLoad.get(CubeTables.key(table));
            Long now = deleted.get(table);
            if (atLoad != null || now != null) {
                dropped.put(table, (atLoad == null ? 0 : atLoad) + (now == null ? 0 : now));
            }
        }
        return dropped;
    }

    /** As {@link Cube#loadShard}: tables staged from now on are placed with {@code keep}'s rows only. */
    void load(Shard keep) {
        this.shard = Objects.requireNonNull(keep, "shard must not be null");
    }

    /** The shard held, empty when every row given is held. */
    Optional<Shard> current() {
        return Optional.ofNullable(shard);
    }
}
