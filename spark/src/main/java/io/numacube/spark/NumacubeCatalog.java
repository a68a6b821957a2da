package io.numacube.spark;

import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Spark catalog of the tables a set of numacube shards holds, so that {@code spark.sql} reads and appends to them by
 * name with the connector's push-downs:
 *
 * <pre>
 *   spark.sql.catalog.nc=io.numacube.spark.NumacubeCatalog
 *   spark.sql.catalog.nc.shards=h1:8080,h2:8081
 *   SELECT desk, SUM(pnl) FROM nc.trades GROUP BY desk;   SHOW TABLES IN nc;   INSERT INTO nc.trades SELECT ...
 * </pre>
 *
 * Options: {@code shards} (required), {@code timeoutSeconds} and {@code batchRows}, as for {@code format("numacube")}. Tables are
 * listed from every shard's {@code GET /v1/tables} and must agree ({@link TableListing}); one namespace, the empty one
 * (tables are {@code nc.NAME}). Each table is described afresh when Spark resolves it, as {@code
 * spark.read.format("numacube")} does. Tables are made by {@code numacube serve} (its {@code --table} and {@code
 * --generate}): creating, altering, renaming and dropping them is refused. Thread-safe after {@link #initialize}.
 */
public final class NumacubeCatalog implements TableCatalog {

    private volatile String name;
    private volatile List<ShardAddress> shards;
    private volatile Duration timeout;
    private volatile int batchRows;

    @Override
    public void initialize(String catalogName, CaseInsensitiveStringMap options) {
        String list = ReadOptions.get(options, "shards");
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("numacube: the catalog " + catalogName + " needs its shards — e.g."
                    + " spark.sql.catalog." + catalogName + ".shards=h1:8080,h2:8080");
        }
        this.shards = ShardAddress.parseList(list);
        this.timeout = ReadOptions.timeout(options);
        this.batchRows = ReadOptions.batchRows(options);
        this.name = catalogName;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length != 0) {
            throw new NoSuchNamespaceException(namespace);
        }
        return TableListing.of(shards, timeout).names().stream()
                .map(t -> Identifier.of(new String[0], t))
                .toArray(Identifier[]::new);
    }

    @Override
    public Table loadTable(Identifier ident) throws NoSuchTableException {
        if (ident.namespace().length != 0) {
            throw new NoSuchTableException(ident);
        }
        String table =
                TableListing.of(shards, timeout).find(ident.name()).orElseThrow(() -> new NoSuchTableException(ident));
        ReadOptions options = new ReadOptions(shards, table, timeout, batchRows);
        return new NumacubeTable(options, options.describe());
    }

    @Override
    public Table alterTable(Identifier ident, TableChange... changes) {
        throw refused("alter", ident);
    }

    @Override
    public boolean dropTable(Identifier ident) {
        throw refused("drop", ident);
    }

    @Override
    public void renameTable(Identifier oldIdent, Identifier newIdent) {
        throw refused("rename", oldIdent);
    }

    private UnsupportedOperationException refused(String what, Identifier ident) {
        return new UnsupportedOperationException("numacube: the catalog " + name + " cannot " + what + " table " + ident
                + ": its tables are made by numacube serve (--table, --generate) on every shard");
    }
}
