package io.numacube.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The P&amp;L workload: {@code serve --generate ROWS} trades and fx on every server, trades sharded by desk (fx held
 * whole), the queries of {@link BenchQuery#all}, and a Parquet copy written from the unsharded server. Immutable.
 *
 * @param rows rows of trades
 * @param seed the generator's seed
 * @param dir  where the Parquet copy is written (replaced)
 */
record TradesWorkload(long rows, long seed, Path dir) implements BenchWorkload {

    @Override
    public String describe() {
        return String.format(java.util.Locale.ROOT, "%,d trades", rows);
    }

    @Override
    public List<String> shardArgs(int shard, int of) {
        return List.of(
                "--generate",
                Long.toString(rows),
                "--seed",
                Long.toString(seed),
                "--shard",
                shard + "/" + of,
                "--shard-key",
                "desk");
    }

    @Override
    public List<String> wholeArgs() {
        return List.of("--generate", Long.toString(rows), "--seed", Long.toString(seed));
    }

    @Override
    public List<String> tables() {
        return List.of("trades", "fx");
    }

    @Override
    public String shardedTable() {
        return "trades (by desk)";
    }

    @Override
    public String shardedTableName() {
        return "trades";
    }

    /** Writes trades in 2 files so that Spark reads it on 2 cores. */
    @Override
    public Map<String, String> parquet(Function<String, Dataset<Row>> wholeTable) {
        String root = dir.toAbsolutePath().toString();
        wholeTable.apply("trades").repartition(2).write().mode("overwrite").parquet(root + "/trades");
        wholeTable.apply("fx").write().mode("overwrite").parquet(root + "/fx");
        return Map.of("trades", root + "/trades", "fx", root + "/fx");
    }

    /** Q3's dates are business days 100 and 149 of the data as the unsharded server holds it. */
    @Override
    public List<BenchQuery> queries(ShardAddress whole) throws IOException, InterruptedException {
        BenchAnswer days = ServerAnswers.answer(
                whole, "SELECT trade_date FROM trades GROUP BY trade_date ORDER BY trade_date", true);
        if (days.rows().size() < 150) {
            throw new IllegalStateException("Q3 needs at least 150 trade dates; the data has "
                    + days.rows().size() + " — generate more rows (--rows)");
        }
        return BenchQuery.all(
                days.rows().get(100).getFirst().toString(),
                days.rows().get(149).getFirst().toString());
    }
}
