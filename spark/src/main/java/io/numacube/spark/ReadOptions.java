package io.numacube.spark;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The connector's options, read once: {@code shards} ({@code host:port,...}, required), {@code table} (required) and
 * {@code timeoutSeconds} (each HTTP request's limit, default 300). Option names are case-insensitive, as Spark's are.
 * Immutable.
 */
record ReadOptions(List<ShardAddress> shards, String table, Duration timeout) implements Serializable {

    static ReadOptions of(Map<String, String> options) {
        String table = get(options, "table");
        if (table == null || table.isBlank()) {
            throw new IllegalArgumentException(
                    "numacube: the table option is missing — e.g. .option(\"table\", \"trades\")");
        }
        String seconds = get(options, "timeoutSeconds");
        long s;
        try {
            s = seconds == null ? 300 : Long.parseLong(seconds.strip());
        } catch (NumberFormatException e) {
            s = -1;
        }
        if (s <= 0) {
            throw new IllegalArgumentException(
                    "numacube: timeoutSeconds is a positive number: timeoutSeconds=" + seconds);
        }
        return new ReadOptions(ShardAddress.parseList(get(options, "shards")), table.strip(), Duration.ofSeconds(s));
    }

    private static String get(Map<String, String> options, String name) {
        for (var e : options.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    TableLayout describe() {
        return TableLayout.describe(table, shards, timeout);
    }
}
