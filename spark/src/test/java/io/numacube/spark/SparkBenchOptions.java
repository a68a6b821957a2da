package io.numacube.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings of a {@link SparkBench} run: the workload (generated trades, or TPC-H from a directory of Parquet
 * files), how many shards, timed runs and warm-up runs per query and engine, the generator's seed, and the directory
 * for the Parquet copy and the shards' logs. Immutable.
 *
 * @param rows     rows of generated trades ({@code serve --generate}), the same on every server; unused by TPC-H
 * @param shards   shard servers ({@code serve --shard I/N}), at least 2
 * @param runs     timed runs per query and engine, taken in turn across the engines
 * @param warmups  untimed runs per query and engine before the timed ones
 * @param seed     the generator's seed
 * @param dir      where the Parquet copy of the trades is written (replaced)
 * @param heap     each server's {@code -Xmx}, e.g. {@code 1g}
 * @param tpchDir  null for the trades; else the directory holding TPC-H's eight tables as {@code NAME.parquet}
 * @param queries  the TPC-H query numbers to run (1-22), in order; empty for the trades
 */
record SparkBenchOptions(
        long rows,
        int shards,
        int runs,
        int warmups,
        long seed,
        Path dir,
        String heap,
        Path tpchDir,
        List<Integer> queries) {

    static final String USAGE = "usage: tools/spark-bench [--rows 2M] [--shards 2] [--runs 3] [--warmups 1]"
            + " [--seed 42] [--dir target/spark-bench] [--server-heap 1g] [--tpch DIR [--queries 1,3,6]]";

    SparkBenchOptions {
        if (rows < 1 || shards < 2 || runs < 1 || warmups < 0) {
            throw new IllegalArgumentException("the bench needs rows >= 1, shards >= 2, runs >= 1, warmups >= 0: rows="
                    + rows + " shards=" + shards + " runs=" + runs + " warmups=" + warmups + " — " + USAGE);
        }
        queries = List.copyOf(queries);
        if (tpchDir == null && !queries.isEmpty()) {
            throw new IllegalArgumentException("--queries picks TPC-H queries: it needs --tpch DIR — " + USAGE);
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
        Path tpch = null;
        List<Integer> queries = List.of();
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
                case "--tpch" -> tpch = Path.of(v);
                case "--queries" -> queries = queryNumbers(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " — " + USAGE);
            }
        }
        if (tpch != null && queries.isEmpty()) {
            queries = queryNumbers("1-22");
        }
        return new SparkBenchOptions(rows, shards, runs, warmups, seed, dir, heap, tpch, queries);
    }

    /** Whether the run is TPC-H's (else the generated trades). */
    boolean tpch() {
        return tpchDir != null;
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

    /** {@code 1,3,6} or {@code 1-22} or a mix ({@code 1-6,9}): TPC-H query numbers, each 1 to 22. */
    static List<Integer> queryNumbers(String text) {
        List<Integer> numbers = new ArrayList<>();
        try {
            for (String part : text.split(",")) {
                String[] range = part.trim().split("-", 2);
                int from = Integer.parseInt(range[0].trim());
                int to = range.length == 2 ? Integer.parseInt(range[1].trim()) : from;
                for (int q = from; q <= to; q++) {
                    numbers.add(q);
                }
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not TPC-H query numbers: \"" + text + "\" (e.g. 1,3,6 or 1-22)", e);
        }
        if (numbers.isEmpty() || numbers.stream().anyMatch(q -> q < 1 || q > 22)) {
            throw new IllegalArgumentException("TPC-H has queries 1 to 22: \"" + text + "\"");
        }
        return numbers;
    }
}
