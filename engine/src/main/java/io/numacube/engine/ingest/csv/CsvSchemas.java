package io.numacube.engine.ingest.csv;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.TableSchema;
import io.numacube.numa.base.NumacubeException;
import java.util.ArrayList;
import java.util.List;

/**
 * Schema declarations as users write them on the command line. Stateless; thread-safe.
 */
public final class CsvSchemas {

    private CsvSchemas() {}

    /**
     * Parses a comma-separated list of columns, each written SQL-style {@code name TYPE} or as
     * {@link TableSchema#parse} does, {@code name:type}; the two may be mixed. Types as {@link ColumnType#parse}
     * (string, int, date, boolean, double, long and their SQL aliases) or {@code DECIMAL(p,s)}, case-insensitive.
     * Example: {@code "trade_id LONG, desk STRING, trade_date DATE, pnl DOUBLE, price DECIMAL(15,2)"}.
     *
     * @throws NumacubeException INVALID_INPUT naming the bad entry
     */
    public static TableSchema parseDeclaration(String tableName, String declaration) {
        if (declaration == null || declaration.isBlank()) {
            throw new NumacubeException(
                    NumacubeException.Kind.INVALID_INPUT,
                    "a schema declaration lists columns: table=" + tableName
                            + " declaration=\"\" — e.g. \"desk STRING, pnl DOUBLE\"");
        }
        List<ColumnSpec> cols = new ArrayList<>();
        for (String raw : declaration.split(",(?![^(]*\\))", -1)) {
            String entry = raw.strip();
            int colon = entry.indexOf(':');
            String name;
            String type;
            if (colon >= 0) {
                name = entry.substring(0, colon).strip();
                type = entry.substring(colon + 1).strip();
            } else {
                String[] words = entry.split("\\s+", 2);
                if (words.length != 2) {
                    throw badEntry(tableName, entry);
                }
                name = words[0];
                type = words[1];
            }
            if (name.isEmpty() || type.isEmpty()) {
                throw badEntry(tableName, entry);
            }
            cols.add(ColumnSpec.parse(name, type));
        }
        return new TableSchema(tableName, cols);
    }

    /** The type names {@link #sqlType} accepts, for messages. */
    public static final String SQL_TYPES =
            "VARCHAR (TEXT), BIGINT (INTEGER, INT), DOUBLE (FLOAT), DECIMAL(p,s) (p at most 18), DATE, TIMESTAMP or"
                    + " BOOLEAN";

    /**
     * A column type named as DuckDB names it in {@code read_csv(types = ...)}, case-insensitive: VARCHAR, TEXT or
     * STRING; BIGINT, INTEGER or INT (a BIGINT column, as inference makes integers); DOUBLE, FLOAT or REAL; DATE;
     * TIMESTAMP (or DATETIME); BOOLEAN or BOOL.
     *
     * @param option what named it, for the message ({@code --types trades.qty=BIGNIT})
     * @throws NumacubeException INVALID_INPUT naming the type and listing the choices
     */
    public static ColumnType sqlType(String name, String option) {
        return switch (name.strip().toUpperCase(java.util.Locale.ROOT)) {
            case "VARCHAR", "TEXT", "STRING" -> ColumnType.STRING;
            case "BIGINT", "INTEGER", "INT" -> ColumnType.LONG;
            case "DOUBLE", "FLOAT", "REAL" -> ColumnType.DOUBLE;
            case "DATE" -> ColumnType.DATE;
            case "TIMESTAMP", "DATETIME" -> ColumnType.TIMESTAMP;
            case "BOOLEAN", "BOOL" -> ColumnType.BOOLEAN;
            default ->
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "unknown column type: type=" + name + " in " + option + " — use " + SQL_TYPES);
        };
    }

    /**
     * Column {@code column} of the type {@code name} names: {@code DECIMAL(p,s)} (or {@code NUMERIC}) with its precision
     * and scale, else as {@link #sqlType}.
     *
     * @throws NumacubeException INVALID_INPUT naming the type and listing the choices
     */
    public static ColumnSpec sqlColumn(String column, String name, String option) {
        String upper = name.strip().toUpperCase(java.util.Locale.ROOT);
        if (upper.startsWith("DECIMAL") || upper.startsWith("NUMERIC")) {
            try {
                return ColumnSpec.parse(column, name);
            } catch (NumacubeException e) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        e.getMessage().replace("column=" + column + " ", "") + " (in " + option + ")");
            }
        }
        return ColumnSpec.of(column, sqlType(name, option));
    }

    /** The SQL-style declaration of a schema, {@code name TYPE, ...}, as {@link #parseDeclaration} reads it. */
    public static String sqlDeclaration(TableSchema schema) {
        StringBuilder sb = new StringBuilder();
        for (ColumnSpec c : schema.columns()) {
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            sb.append(c.name())
                    .append(' ')
                    .append(c.isDecimal() ? c.typeName() : c.type().name());
        }
        return sb.toString();
    }

    private static NumacubeException badEntry(String tableName, String entry) {
        return new NumacubeException(
                NumacubeException.Kind.INVALID_INPUT,
                "each schema entry is a name and a type: table=" + tableName + " entry=\"" + entry
                        + "\" — e.g. \"desk STRING, pnl DOUBLE\" or \"desk:string,pnl:double\"");
    }
}
