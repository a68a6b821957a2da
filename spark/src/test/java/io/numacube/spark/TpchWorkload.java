package io.numacube.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The TPC-H workload: the eight tables from {@code NAME.parquet} files in one directory (as {@code numacube bench
 * --sections tpch} caches them, e.g. {@code build/tpch/sf1}), loaded by every server with {@code --table}; lineitem
 * and orders sharded by the order key ({@code --shard-key l_orderkey,o_orderkey}, so an order and its lines are on
 * one shard), the other six held whole by every shard. Spark alone reads the same Parquet files. The queries are the
 * bench module's official texts ({@code bench/src/main/resources/io/numacube/bench/tpch/qNN.sql}, read from the
 * source tree: the spark module depends on no numacube module), each answer compared unordered. Immutable.
 *
 * @param dir     the directory of the Parquet files
 * @param queries the query numbers, 1 to 22
 */
record TpchWorkload(Path dir, List<Integer> queries) implements BenchWorkload {

    /** TPC-H's tables. */
    static final List<String> TABLES =
            List.of("customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier");

    /** Where the bench module keeps the query texts, from the spark module's directory. */
    static final Path TEXTS = Path.of("..", "bench", "src", "main", "resources", "io", "numacube", "bench", "tpch");

    TpchWorkload {
        queries = List.copyOf(queries);
        for (String t : TABLES) {
            if (!Files.isRegularFile(dir.resolve(t + ".parquet"))) {
                throw new IllegalArgumentException("--tpch " + dir + " has no " + t + ".parquet: give a directory that"
                        + " numacube bench --sections tpch --tpch-dir filled (e.g. build/tpch/sf1)");
            }
        }
    }

    @Override
    public String describe() {
        return "TPC-H from " + dir.toAbsolutePath().normalize();
    }

    @Override
    public List<String> shardArgs(int shard, int of) {
        List<String> args = new ArrayList<>(wholeArgs());
        args.addAll(List.of("--shard", shard + "/" + of, "--shard-key", "l_orderkey,o_orderkey"));
        return args;
    }

    @Override
    public List<String> wholeArgs() {
        List<String> args = new ArrayList<>();
        for (String t : TABLES) {
            args.add("--table");
            args.add(t + "=" + file(t));
        }
        return args;
    }

    @Override
    public List<String> tables() {
        return TABLES;
    }

    @Override
    public String shardedTable() {
        return "lineitem (by l_orderkey)";
    }

    @Override
    public String shardedTableName() {
        return "lineitem";
    }

    @Override
    public Map<String, String> parquet(Function<String, Dataset<Row>> wholeTable) {
        Map<String, String> files = new LinkedHashMap<>();
        for (String t : TABLES) {
            files.put(t, file(t));
        }
        return files;
    }

    @Override
    public List<BenchQuery> queries(ShardAddress whole) {
        List<BenchQuery> list = new ArrayList<>();
        for (int q : queries) {
            Path text = TEXTS.resolve(String.format(Locale.ROOT, "q%02d.sql", q));
            try {
                list.add(new BenchQuery("Q" + q, Files.readString(text).strip(), false));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read TPC-H query " + q + ": " + text.toAbsolutePath(), e);
            }
        }
        return list;
    }

    private String file(String table) {
        return dir.resolve(table + ".parquet").toAbsolutePath().normalize().toString();
    }
}
