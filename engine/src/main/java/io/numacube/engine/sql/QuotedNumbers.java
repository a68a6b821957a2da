package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlNode;

/**
 * A quoted number compared with a number ({@code i = '7'}, {@code x > '2.5'}, {@code d IN ('1.50')}) read as a number
 * of the other side's type, as PostgreSQL reads an unknown-typed literal: an integer's text must be a whole number
 * (22P02 {@code invalid input syntax for type bigint: "7.5"}, as PostgreSQL; DuckDB answers false), a DOUBLE's any
 * number or NaN/Infinity, a DECIMAL's (a DECIMAL(p,0) column's too: {@code d = '1.5'} is false) any number (kept exact: at most 18 digits as a DECIMAL literal, more as a DOUBLE
 * that {@link IntegerComparisons} decides exactly). Blanks around the number are allowed, as in both. Stateless.
 */
final class QuotedNumbers {

    private static final Pattern WHOLE = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern SPECIAL = Pattern.compile("[+-]?(nan|inf|infinity)");

    private QuotedNumbers() {}

    /** Whether {@code e} is a text literal and {@code other} a number, so that {@link #literal} applies. */
    static boolean applies(Expr e, Expr other) {
        ColumnType t = other.type();
        return e instanceof Expr.Literal lit
                && lit.type() == ColumnType.STRING
                && (t == ColumnType.LONG || t == ColumnType.INT || t == ColumnType.DOUBLE);
    }

    /** {@code text} as a literal of {@code other}'s type, or a 22P02/22003 error at {@code node}. */
    static Expr literal(SqlNode node, String text, Expr other) {
        String t = text.strip();
        if (other.type() == ColumnType.DOUBLE) {
            if (SPECIAL.matcher(t.toLowerCase(Locale.ROOT)).matches()) {
                String lower = t.toLowerCase(Locale.ROOT);
                double v = lower.endsWith("nan")
                        ? Double.NaN
                        : lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                return new Expr.Literal(v, ColumnType.DOUBLE);
            }
            if (!NUMBER.matcher(t).matches()) {
                throw invalid(node, "double precision", text);
            }
            double v = Double.parseDouble(t);
            if (Double.isInfinite(v)) {
                throw bindError(node, "22003", "\"" + text + "\" is out of range for type double precision");
            }
            return new Expr.Literal(v, ColumnType.DOUBLE);
        }
        if (other.scale() > 0 || other instanceof Expr.Column c && c.decimal()) {
            if (!NUMBER.matcher(t).matches()) {
                throw invalid(node, "numeric", text);
            }
            BigDecimal v = new BigDecimal(t);
            if (v.scale() < 0) {
                v = v.setScale(0);
            }
            if (v.precision() <= ColumnSpec.MAX_DECIMAL_PRECISION && v.scale() <= ColumnSpec.MAX_DECIMAL_PRECISION) {
                return new Expr.Literal(v.unscaledValue().longValueExact(), ColumnType.LONG, v.scale());
            }
            return new Expr.Literal(v.doubleValue(), ColumnType.DOUBLE);
        }
        // numacube's integers are 64-bit whatever their storage (INT is a dictionary-coded column)
        String type = "bigint";
        if (!WHOLE.matcher(t).matches()) {
            throw invalid(node, type, text);
        }
        try {
            return new Expr.Literal(Long.parseLong(t), ColumnType.LONG);
        } catch (NumberFormatException e) {
            throw bindError(node, "22003", "value \"" + text + "\" is out of range for type " + type);
        }
    }

    private static RuntimeException invalid(SqlNode node, String type, String text) {
        return bindError(node, "22P02", "invalid input syntax for type " + type + ": \"" + text + "\"");
    }
}
