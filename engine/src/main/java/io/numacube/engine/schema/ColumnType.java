package io.numacube.engine.schema;

/**
 * The value types a column may have. Dimensions are STRING, INT, DATE or BOOLEAN (dictionary-encoded); DOUBLE, LONG
 * and TIMESTAMP are stored plain (8 bytes a row, coded at query time when a query groups by them). Immutable.
 */
public enum ColumnType {
    /** Text, dictionary-encoded. */
    STRING(true),
    /** A 64-bit integer used as a dimension, dictionary-encoded. */
    INT(true),
    /** A calendar date (days since 1970-01-01), dictionary-encoded. */
    DATE(true),
    /**
     * SQL BOOLEAN, dictionary-encoded as DuckDB orders it: false (value 0) before true (value 1), NULL last. Its values
     * are {@code Long} 0 and 1 wherever expressions are evaluated.
     */
    BOOLEAN(true),
    /** A 64-bit IEEE double measure; must be finite. */
    DOUBLE(false),
    /** A 64-bit integer measure. */
    LONG(false),
    /**
     * DuckDB's TIMESTAMP: microseconds since 1970-01-01 00:00:00, no time zone, stored plain as a {@code long} (its
     * values are {@code Long} microseconds wherever expressions are evaluated). Not a number: no arithmetic, SUM or AVG.
     */
    TIMESTAMP(false),
    /**
     * A DECIMAL result column ({@code QueryResult} only): the value times 10^scale in a {@code long}, the scale given
     * by the result. Tables and bound expressions keep a DECIMAL as LONG or INT with its precision and scale beside
     * ({@link ColumnSpec#isDecimal()}, {@code Expr.scale()}), so the executor never meets this type.
     */
    DECIMAL(false);

    private final boolean dimension;

    ColumnType(boolean dimension) {
        this.dimension = dimension;
    }

    /** True for the dictionary-encoded types (STRING, INT, DATE, BOOLEAN). */
    public boolean isDimension() {
        return dimension;
    }

    /** Parses a type name as written in a schema declaration ({@code string}, {@code int}, {@code date}, ...). */
    public static ColumnType parse(String name) {
        return switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "string", "varchar", "text" -> STRING;
            case "int", "integer", "bigint" -> INT;
            case "date" -> DATE;
            case "boolean", "bool", "logical" -> BOOLEAN;
            case "double", "float", "real" -> DOUBLE;
            case "long" -> LONG;
            case "timestamp", "datetime" -> TIMESTAMP;
            default ->
                throw new io.numacube.numa.base.NumacubeException(
                        io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                        "unknown column type: type=" + name
                                + " — use string, int, date, boolean, double, long or timestamp");
        };
    }
}
