package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlNode;

/**
 * The binder's type rules: which bound expressions arithmetic and aggregates accept, which pairs compare, and the one
 * implicit conversions (a string literal compared with a DATE or TIMESTAMP, a DATE compared with a TIMESTAMP). A null {@link ColumnType} is a condition.
 *
 * <p>Stateless; thread-safe.
 */
final class TypeRules {

    private TypeRules() {}

    /** {@code e} itself when its type is a number, else a 42804 error at {@code node}. */
    static Expr numeric(SqlNode node, Expr e) {
        ColumnType t = e.type();
        if (t != ColumnType.DOUBLE && t != ColumnType.LONG && t != ColumnType.INT) {
            throw bindError(
                    node,
                    "42804",
                    "arithmetic and SUM/AVG/MIN/MAX need numbers: " + e.text() + " is "
                            + (t == null ? "a condition" : t.name().toLowerCase(Locale.ROOT)));
        }
        return e;
    }

    /**
     * A string literal compared with a DATE becomes a date literal; a string or integer literal compared with a
     * BOOLEAN becomes a boolean literal ({@code flag = 'true'}, {@code flag = 1}), as DuckDB casts it; a string literal
     * compared with a number becomes a number of its type ({@link QuotedNumbers}); the NULL literal takes {@code
     * other}'s type.
     */
    static Expr coerce(SqlNode node, Expr e, Expr other) {
        if (NullConstant.is(e)) {
            return NullConstant.like(e, other);
        }
        if (e instanceof Expr.Literal lit && lit.type() == ColumnType.STRING && other.type() == ColumnType.DATE) {
            return LiteralBinder.date(node, (String) lit.value());
        }
        if (other.type() == ColumnType.TIMESTAMP) {
            return toTimestamp(node, e);
        }
        if (QuotedNumbers.applies(e, other)) {
            return QuotedNumbers.literal(node, (String) ((Expr.Literal) e).value(), other);
        }
        if (e instanceof Expr.Literal lit
                && (lit.type() == ColumnType.STRING || lit.type() == ColumnType.LONG)
                && other.type() == ColumnType.BOOLEAN) {
            try {
                return new Expr.Literal(
                        io.numacube.engine.plan.ScalarFunctions.apply("cast_boolean", List.of(lit.value())),
                        ColumnType.BOOLEAN);
            } catch (io.numacube.numa.base.NumacubeException notBoolean) {
                throw bindError(node, "22018", notBoolean.getMessage());
            }
        }
        return e;
    }

    /**
     * A text literal compared with a TIMESTAMP as a timestamp literal; a DATE as the TIMESTAMP of its midnight, as
     * DuckDB casts it ({@code ts >= DATE '2013-01-02'}); anything else as it is.
     */
    private static Expr toTimestamp(SqlNode node, Expr e) {
        if (e instanceof Expr.Literal lit && lit.type() == ColumnType.STRING) {
            return LiteralBinder.timestamp(node, (String) lit.value());
        }
        if (e instanceof Expr.Literal lit && lit.type() == ColumnType.DATE) {
            return new Expr.Literal(
                    (Long) lit.value() * io.numacube.engine.schema.Timestamps.MICROS_PER_DAY, ColumnType.TIMESTAMP);
        }
        if (e.type() == ColumnType.DATE) {
            return new Expr.Call("cast_timestamp", List.of(e), ColumnType.TIMESTAMP);
        }
        return e;
    }

    /** Refuses with 42804 at {@code node} unless {@code a} and {@code b} are of one type or both numbers. */
    static void comparable(SqlNode node, Expr a, Expr b) {
        ColumnType ta = a.type();
        ColumnType tb = b.type();
        boolean numA = ta == ColumnType.DOUBLE || ta == ColumnType.LONG || ta == ColumnType.INT;
        boolean numB = tb == ColumnType.DOUBLE || tb == ColumnType.LONG || tb == ColumnType.INT;
        if (ta == null || tb == null || !(ta == tb || (numA && numB))) {
            throw bindError(
                    node,
                    "42804",
                    "cannot compare " + typeName(ta) + " with " + typeName(tb) + ": " + a.text() + " and " + b.text());
        }
    }

    private static String typeName(ColumnType t) {
        return t == null ? "a condition" : t.name().toLowerCase(Locale.ROOT);
    }
}
