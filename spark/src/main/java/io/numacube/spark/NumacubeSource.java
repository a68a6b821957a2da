package io.numacube.spark;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code format("numacube")}: a table served by the shards of {@code numacube serve --shard I/N} (or by one unsharded
 * server), read and appended to through Spark's DataSource V2 API. Options: {@link ReadOptions}. The schema is the
 * shards' own (a user-given schema is refused, as for JDBC). Stateless; Spark makes one per use.
 */
public final class NumacubeSource implements TableProvider, DataSourceRegister {

    @Override
    public String shortName() {
        return "numacube";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return ReadOptions.of(options).describe().schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        ReadOptions options = ReadOptions.of(properties);
        return new NumacubeTable(options, options.describe());
    }
}
