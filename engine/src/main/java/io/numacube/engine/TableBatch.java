package io.numacube.engine;

import io.numacube.engine.ingest.TableStaging;

/**
 * Rows to append to one table ({@link Cube#append(java.util.List)}). The staging must not change until the append
 * returns.
 *
 * @param table the table's name (any case)
 * @param rows  the rows, with the table's columns
 */
public record TableBatch(String table, TableStaging rows) implements TableWrite {

    public TableBatch {
        java.util.Objects.requireNonNull(table, "table must not be null");
        java.util.Objects.requireNonNull(rows, "rows must not be null");
    }
}
