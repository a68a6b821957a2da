package io.numacube.spark;

import java.nio.file.Path;

/**
 * The settings of a {@link SparkBench} run: rows of generated trades, how many shards, timed runs and warm-up runs
 * per query and engine, the generator's seed, and the directory for the Parquet copy and the shards' logs. Immutable.
 *
 * @param rows    rows of trades ({@code serve --generate}), the same on every server
 * @param shards  shard servers ({@code serve --shard I/N --shard-key desk}), at least 2
 * @param runs    timed runs per query and engine, taken in turn across the engines
 * @param warmups untimed runs per query and engine before the timed ones
 * @param seed    the generator's seed
 * @param dir     where the Parquet copy is written (replaced)
 * @param heap    each server's {@code -Xmx}, e.g. {@code 1g}
 */
record SparkBenchOptions(long rows, int shards, int runs, int warmups, long seed, Path dir, String heap) {

    static final String USAGE = "usage: tools/spark-bench [--rows 2M] [--shards 2] [--runs 3] [--warmups 1]"
            + " [--seed 42] [--dir target/spark-bench] [--server-heap 1g]";

    SparkBenchOptions {
        if (rows < 1 || shards < 2 || runs < 1 || warmups < 0) {
            throw new IllegalArgumentException("the bench needs rows >= 1, shards >= 2, runs >= 1, warmups >= 0: rows="
                    + rows + " shards=" + shards + " runs=" + runs + " warmups=" + warmups + " — " + USAGE);
        }
    }

    /** The options of {@code args} ({@code --name value} pairs), the defaults for the rest. */
    static SparkBenchOptions parse(String... args) {
        long rows = 2_000_000;
        int shards = 2;
        int runs = 3;
        int warmups = 1;
        long seed = 42;
        Path dir = Path.of("target", "spark-bench");
        String heap = "1g";
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value — " + USAGE);
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--rows" -> rows = count(v);
                case "--shards" -> shards = Integer.parseInt(v);
                case "--runs" -> runs = Integer.parseInt(v);
                case "--warmups" -> warmups = Integer.parseInt(v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--dir" -> dir = Path.of(v);
                case "--server-heap" -> heap = v;
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " — " + USAGE);
            }
        }
        return new SparkBenchOptions(rows, shards, runs, warmups, seed, dir, heap);
    }

    /** {@code 2M}, {@code 500k} or a plain number. */
    static long count(String text) {
        String t = text.trim().toUpperCase(java.util.Locale.ROOT);
        long unit = t.endsWith("M") ? 1_000_000 : t.endsWith("K") ? 1_000 : 1;
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        try {
            return Long.parseLong(digits) * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a row count: \"" + text + "\" (e.g. 2M, 500k, 100000)", e);
        }
    }
}
