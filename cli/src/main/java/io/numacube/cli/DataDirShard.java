package io.numacube.cli;

import io.numacube.engine.Shard;
import io.numacube.numa.base.NumacubeException;
import io.numacube.server.durable.DurableStore;

/**
 * The shard a {@code serve --data-dir} holds: a directory remembers the {@code --shard I/N --shard-key COL} of its
 * first start (its {@code SHARD} file), and a later start recovers that shard, with or without {@code --shard}; a start
 * that names another shard, or names one over a directory holding every row, is refused before anything is recovered:
 * its rows would be the wrong ones, or appends of other shards' rows would be taken. Stateless.
 */
final class DataDirShard {

    private DataDirShard() {}

    /**
     * The shard to serve: {@code given} for a start without a data directory; {@code given}, recorded, for a
     * directory's first start; the recorded one (checked against {@code given}) for a later start.
     *
     * @param store the open data directory, or null without {@code --data-dir}
     * @param given {@code --shard} and {@code --shard-key}, or null without {@code --shard}
     */
    static Shard resolve(DurableStore store, Shard given) {
        if (store == null) {
            return given;
        }
        if (!store.holdsData()) {
            store.recordShard(given);
            return given;
        }
        Shard recorded = store.shard().orElse(null);
        if (given == null) {
            return recorded;
        }
        if (recorded == null) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the data directory holds every row of its tables, not one shard: dir=" + store.path() + " shard="
                            + given + " by " + given.column() + " — start it without --shard, or give an empty"
                            + " --data-dir to load shard " + given);
        }
        if (recorded.index() != given.index()
                || recorded.count() != given.count()
                || !recorded.column().equalsIgnoreCase(given.column())) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "the data directory holds another shard: dir=" + store.path() + " holds=" + recorded + " by "
                            + recorded.column() + " shard=" + given + " by " + given.column() + " — start it with"
                            + " --shard " + recorded + " --shard-key " + recorded.column() + " (or without --shard),"
                            + " or give an empty --data-dir to load shard " + given);
        }
        return recorded;
    }
}
