package io.numacube.spark;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What a {@link SparkBench} run loads and asks: the {@code serve} options of each shard and of the unsharded server,
 * the tables the queries name, their Parquet copies for Spark alone, and the queries. Implementations are immutable.
 */
interface BenchWorkload {

    /** One line saying what the data is, for the report's header (e.g. {@code 2,000,000 trades}). */
    String describe();

    /** The {@code serve} options that load shard {@code shard} of {@code of} (its share, dimension tables whole). */
    List<String> shardArgs(int shard, int of);

    /** The {@code serve} options that load every row into one server. */
    List<String> wholeArgs();

    /** The tables the queries name, each registered as a Spark view of that name. */
    List<String> tables();

    /** A sharded table whose rows per shard the run prints, and the key it is sharded by, e.g. {@code trades (by desk)}. */
    String shardedTable();

    /** The table {@code shardedTable} names. */
    String shardedTableName();

    /**
     * The Parquet copy of each table for Spark alone (table to path), written first where it does not exist yet;
     * {@code wholeTable} reads a table of the unsharded server through the connector.
     */
    Map<String, String> parquet(Function<String, Dataset<Row>> wholeTable);

    /** The queries, in order; {@code whole} is the unsharded server (for parameters read from the data). */
    List<BenchQuery> queries(ShardAddress whole) throws IOException, InterruptedException;
}
