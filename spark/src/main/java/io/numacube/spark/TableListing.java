package io.numacube.spark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The tables a set of shards holds, from each one's {@code GET /v1/tables}, checked to agree: every shard lists the
 * same table names (compared case-insensitively, as numacube's SQL names are), else the listing fails naming the shard
 * that differs from the first and the tables each lists. Immutable.
 *
 * @param names the tables, as the first shard spells and orders them
 */
record TableListing(List<String> names) {

    static TableListing of(List<ShardAddress> shards, Duration timeout) {
        List<String> first = null;
        ShardTable firstShard = null;
        ShardAddress firstAddress = null;
        for (ShardAddress a : shards) {
            List<ShardTable> tables = new ShardClient(a, timeout).tables();
            List<String> names = tables.stream().map(ShardTable::name).toList();
            if (first == null) {
                first = names;
                firstShard = tables.isEmpty() ? null : tables.getFirst();
                firstAddress = a;
            } else if (!folded(names).equals(folded(first))) {
                throw new ShardException("numacube: the shards do not hold the same tables: shard "
                        + where(a, tables.isEmpty() ? null : tables.getFirst()) + " lists " + names + ", shard "
                        + where(firstAddress, firstShard) + " lists " + first
                        + " — start every shard on the same data");
            }
        }
        return new TableListing(first);
    }

    /** The table named {@code name} (in any case), as the shards spell it. */
    Optional<String> find(String name) {
        return names.stream().filter(name::equalsIgnoreCase).findFirst();
    }

    private static List<String> folded(List<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            out.add(n.toLowerCase(Locale.ROOT));
        }
        out.sort(null);
        return out;
    }

    private static String where(ShardAddress a, ShardTable any) {
        return any == null ? a.toString() : any.where();
    }
}
