package io.numacube.server.query;

import io.numacube.engine.result.QueryResult;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;

/**
 * The SQL names clients see for numacube's types, as DuckDB and PostgreSQL spell them: VARCHAR, BIGINT (the engine's
 * INT dimension and LONG measure are both 64-bit), DOUBLE, DATE, TIMESTAMP, BOOLEAN and DECIMAL(p,s). A result's
 * DECIMAL column knows its scale but not its precision, which is then the most the engine holds, 18. Stateless.
 */
public final class SqlTypeNames {

    /** The precision given to a computed DECIMAL result column: the most digits a DECIMAL in 64 bits holds. */
    public static final int RESULT_DECIMAL_PRECISION = ColumnSpec.MAX_DECIMAL_PRECISION;

    private SqlTypeNames() {}

    /** A table column's type. */
    public static String of(ColumnSpec column) {
        return column.isDecimal() ? column.typeName() : of(column.type(), 0);
    }

    /** A result column's type: a DECIMAL with its declared precision where it has one, else {@link #RESULT_DECIMAL_PRECISION}. */
    public static String of(QueryResult result, int column) {
        ColumnType type = result.columnTypes().get(column);
        int precision = result.precision(column);
        return type == ColumnType.DECIMAL && precision > 0
                ? "DECIMAL(" + precision + "," + result.scale(column) + ")"
                : of(type, result.scale(column));
    }

    /** A result column's type; {@code scale} is used for DECIMAL only. */
    public static String of(ColumnType type, int scale) {
        return switch (type) {
            case STRING -> "VARCHAR";
            case INT, LONG -> "BIGINT";
            case DOUBLE -> "DOUBLE";
            case DATE -> "DATE";
            case TIMESTAMP -> "TIMESTAMP";
            case BOOLEAN -> "BOOLEAN";
            case DECIMAL -> "DECIMAL(" + RESULT_DECIMAL_PRECISION + "," + scale + ")";
        };
    }
}
