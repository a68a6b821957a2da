package io.numacube.spark;

import java.math.BigDecimal;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.GeneralScalarExpression;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * An aggregate's argument as numacube SQL where both engines compute the same value of the same type: a column, or
 * {@code +}, {@code -} and {@code *} over columns and literals whose operands are all DECIMAL (Spark's type: the
 * product's scale is the sum of the scales, the sum's the larger one; precision as Spark's rules give it, refused
 * past 38 digits, where Spark would round) or all BIGINT or all DOUBLE. Anything else (a cast, a division, a
 * function, mixed types) is left to Spark: {@link #of} returns null. Immutable.
 *
 * @param sql  the argument's SQL
 * @param type its Spark type
 */
record PushedArithmetic(String sql, DataType type) {

    /** The most digits a DECIMAL has in Spark. */
    private static final int MAX_PRECISION = 38;

    /** {@code e} translated over {@code schema}'s columns, or null when it stays with Spark. */
    static PushedArithmetic of(Expression e, StructType schema) {
        return switch (e) {
            case NamedReference r when r.fieldNames().length == 1 -> column(r.fieldNames()[0], schema);
            case LiteralValue<?> v -> literal(v);
            case GeneralScalarExpression g
            when g.children().length == 2 && isArithmetic(g.name()) -> {
                PushedArithmetic left = of(g.children()[0], schema);
                PushedArithmetic right = of(g.children()[1], schema);
                yield left == null || right == null ? null : combine(g.name(), left, right);
            }
            default -> null;
        };
    }

    private static boolean isArithmetic(String name) {
        return name.equals("+") || name.equals("-") || name.equals("*");
    }

    private static PushedArithmetic column(String name, StructType schema) {
        for (StructField f : schema.fields()) {
            if (f.name().equals(name) && numeric(f.dataType())) {
                return new PushedArithmetic(SqlFilters.column(name), f.dataType());
            }
        }
        return null;
    }

    private static PushedArithmetic literal(LiteralValue<?> v) {
        return switch (v.value()) {
            case Decimal d
            when v.dataType() instanceof DecimalType ->
                new PushedArithmetic("(" + d.toJavaBigDecimal().toPlainString() + ")", v.dataType());
            case Long l when v.dataType() == DataTypes.LongType -> new PushedArithmetic("(" + l + ")", v.dataType());
            case Double d
            when Double.isFinite(d) && v.dataType() == DataTypes.DoubleType ->
                new PushedArithmetic("CAST(" + BigDecimal.valueOf(d).toPlainString() + " AS DOUBLE)", v.dataType());
            case null, default -> null;
        };
    }

    private static PushedArithmetic combine(String op, PushedArithmetic a, PushedArithmetic b) {
        DataType type;
        if (a.type instanceof DecimalType x && b.type instanceof DecimalType y) {
            type = decimal(op, x, y);
        } else if (a.type.equals(b.type)) {
            type = a.type;
        } else {
            return null;
        }
        return type == null ? null : new PushedArithmetic("(" + a.sql + " " + op + " " + b.sql + ")", type);
    }

    /** Spark's result type of {@code x op y}, or null where it would exceed 38 digits (Spark then rounds). */
    private static DecimalType decimal(String op, DecimalType x, DecimalType y) {
        int scale;
        int precision;
        if (op.equals("*")) {
            scale = x.scale() + y.scale();
            precision = x.precision() + y.precision() + 1;
        } else {
            scale = Math.max(x.scale(), y.scale());
            precision = Math.max(x.precision() - x.scale(), y.precision() - y.scale()) + scale + 1;
        }
        return precision > MAX_PRECISION ? null : DataTypes.createDecimalType(precision, scale);
    }

    private static boolean numeric(DataType t) {
        return t == DataTypes.LongType || t == DataTypes.DoubleType || t instanceof DecimalType;
    }
}
