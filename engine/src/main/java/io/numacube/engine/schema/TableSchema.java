package io.numacube.engine.schema;

import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ordered columns of a table. Column names are unique case-insensitively. Immutable.
 *
 * @param name    the table name
 * @param columns the columns in declaration (and CSV) order
 */
public record TableSchema(String name, List<ColumnSpec> columns) {

    public TableSchema {
        columns = List.copyOf(columns);
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            if (seen.put(columns.get(i).name().toLowerCase(Locale.ROOT), i) != null) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "column names must be unique: table=" + name + " column="
                                + columns.get(i).name());
            }
        }
    }

    /** The index of the column with this name (case-insensitive), or -1. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    public ColumnSpec column(int index) {
        return columns.get(index);
    }

    public int size() {
        return columns.size();
    }

    /**
     * Parses a declaration such as {@code desk:string,pnl:double,trade_date:date,price:decimal(15,2)}.
     */
    public static TableSchema parse(String name, String declaration) {
        List<ColumnSpec> cols = new ArrayList<>();
        for (String part : declaration.split(",(?![^(]*\\))")) {
            int colon = part.indexOf(':');
            if (colon < 0) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "schema entries are name:type: entry=" + part.trim() + " — e.g. desk:string,pnl:double");
            }
            cols.add(ColumnSpec.parse(part.substring(0, colon).trim(), part.substring(colon + 1)));
        }
        return new TableSchema(name, cols);
    }

    /** The declaration form accepted by {@link #parse}. */
    public String declaration() {
        StringBuilder sb = new StringBuilder();
        for (ColumnSpec c : columns) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(c.name()).append(':').append(c.typeName().toLowerCase(Locale.ROOT));
        }
        return sb.toString();
    }
}
