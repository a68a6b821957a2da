package io.numacube.spark;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The connector's options, read once: {@code shards} ({@code host:port,...}, required), {@code table} (required),
 * {@code timeoutSeconds} (each HTTP request's limit, default 300) and {@code batchRows} (the most rows of a scan's
 * answer a shard sends, and a task holds, at a time; default {@value #DEFAULT_BATCH_ROWS}). Option names are case-insensitive, as Spark's are.
 * Immutable.
 */
record ReadOptions(List<ShardAddress> shards, String table, Duration timeout, int batchRows) implements Serializable {

    /** Rows per columnar batch a shard sends a scan, unless {@code batchRows} says otherwise. */
    static final int DEFAULT_BATCH_ROWS = 65_536;

    static ReadOptions of(Map<String, String> options) {
        String table = get(options, "table");
        if (table == null || table.isBlank()) {
            throw new IllegalArgumentException(
                    "numacube: the table option is missing — e.g. .option(\"table\", \"trades\")");
        }
        return new ReadOptions(
                ShardAddress.parseList(get(options, "shards")), table.strip(), timeout(options), batchRows(options));
    }

    /** {@code timeoutSeconds}, 300 s when absent. */
    static Duration timeout(Map<String, String> options) {
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
        return Duration.ofSeconds(s);
    }

    /** {@code batchRows}, {@value #DEFAULT_BATCH_ROWS} when absent. */
    static int batchRows(Map<String, String> options) {
        String rows = get(options, "batchRows");
        int n;
        try {
            n = rows == null ? DEFAULT_BATCH_ROWS : Integer.parseInt(rows.strip());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n <= 0) {
            throw new IllegalArgumentException("numacube: batchRows is a positive number: batchRows=" + rows);
        }
        return n;
    }

    static String get(Map<String, String> options, String name) {
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
