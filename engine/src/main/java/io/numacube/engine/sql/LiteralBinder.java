package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.util.DateString;

/**
 * Binds literals and the one supported CAST into {@link Expr.Literal}s: exact integers to LONG (refusing those beyond
 * 64 bits), exact numbers with a point ({@code 1.50}) to the DECIMAL they spell (a LONG of scale 2, as DuckDB types
 * them DECIMAL(3,2)) when they have at most 18 digits, other numbers (with an exponent, or longer: those of 19 to 38
 * digits only as a comparison's operand) to DOUBLE, strings to STRING, {@code DATE 'yyyy-mm-dd'} and
 * {@code CAST('yyyy-mm-dd' AS DATE)} to DATE as days since the epoch, {@code TIMESTAMP 'yyyy-mm-dd hh:mm:ss'} to
 * TIMESTAMP as microseconds since the epoch.
 *
 * <p>Stateless; thread-safe.
 */
final class LiteralBinder {

    private LiteralBinder() {}

    /**
     * A whole-number literal as a 1-based ordinal (GROUP BY 2, ORDER BY 1); one beyond an int is {@link
     * Integer#MAX_VALUE} or {@link Integer#MIN_VALUE}, out of any select list's range, never Calcite's exception.
     */
    static int ordinal(SqlNumericLiteral lit) {
        BigDecimal v = lit.bigDecimalValue();
        if (v == null || v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            return Integer.MAX_VALUE;
        }
        return v.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) < 0 ? Integer.MIN_VALUE : v.intValueExact();
    }

    /**
     * {@code lit} bound; an exact number of 19 to 38 digits (DuckDB's DECIMAL(p,s) with p over 18, which a DOUBLE
     * would round) is taken only where {@code compared} (a comparison's operand, decided exactly there), else refused.
     */
    static Expr literal(SqlLiteral lit, boolean compared) {
        if (!compared && lit instanceof SqlNumericLiteral num && num.isExact()) {
            BigDecimal v = num.bigDecimalValue();
            int digits = Math.max(v.precision(), v.scale());
            if (v.scale() > 0 && digits > io.numacube.engine.schema.ColumnSpec.MAX_DECIMAL_PRECISION && digits <= 38) {
                throw unsupported(
                        lit,
                        "a number literal of " + digits + " digits outside a comparison (numacube's DECIMAL holds 18;"
                                + " a DOUBLE would round it) — write it with at most 18 digits, or as a DOUBLE"
                                + " (1.5e0)");
            }
        }
        if (lit instanceof SqlNumericLiteral num) {
            BigDecimal v = num.bigDecimalValue();
            if (num.isExact() && v.scale() <= 0) {
                try {
                    return new Expr.Literal(v.longValueExact(), ColumnType.LONG);
                } catch (ArithmeticException e) {
                    throw unsupported(lit, "an integer literal beyond 64 bits");
                }
            }
            if (num.isExact()
                    && v.precision() <= io.numacube.engine.schema.ColumnSpec.MAX_DECIMAL_PRECISION
                    && v.scale() <= io.numacube.engine.schema.ColumnSpec.MAX_DECIMAL_PRECISION) {
                // 1.50 is DECIMAL(3,2) in DuckDB; 1.5e0 (approximate) a DOUBLE
                return new Expr.Literal(v.unscaledValue().longValueExact(), ColumnType.LONG, v.scale());
            }
            return new Expr.Literal(v.doubleValue(), ColumnType.DOUBLE);
        }
        if (lit.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN) {
            return new Expr.Literal(lit.booleanValue() ? 1L : 0L, ColumnType.BOOLEAN);
        }
        if (lit instanceof SqlCharStringLiteral) {
            String text = lit.getValueAs(String.class);
            Expr marker = ParameterMarkers.bound(text);
            return marker != null ? marker : new Expr.Literal(text, ColumnType.STRING);
        }
        if (lit instanceof SqlUnknownLiteral u && u.tag.equalsIgnoreCase("DATE")) {
            return date(lit, u.getValue());
        }
        if (lit instanceof SqlUnknownLiteral u && u.tag.equalsIgnoreCase("TIMESTAMP")) {
            return timestamp(lit, u.getValue());
        }
        if (lit instanceof org.apache.calcite.sql.SqlTimestampLiteral) {
            return timestamp(
                    lit,
                    lit.getValueAs(org.apache.calcite.util.TimestampString.class)
                            .toString());
        }
        if (lit instanceof SqlUnknownLiteral u) {
            throw unsupported(lit, u.tag + " literal");
        }
        if (lit instanceof SqlDateLiteral) {
            return new Expr.Literal((long) lit.getValueAs(DateString.class).getDaysSinceEpoch(), ColumnType.DATE);
        }
        if (lit.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            return NullConstant.untyped();
        }
        throw unsupported(lit, "literal of type " + lit.getTypeName());
    }

    static Expr cast(SqlCall call) {
        SqlNode v = call.operand(0);
        SqlDataTypeSpec type = (SqlDataTypeSpec) call.operand(1);
        String t = type.getTypeName().getSimple().toUpperCase(Locale.ROOT);
        if (t.equals("DATE") && v instanceof SqlCharStringLiteral s) {
            return date(v, s.getValueAs(String.class));
        }
        throw unsupported(call, "CAST other than CAST('yyyy-mm-dd' AS DATE)");
    }

    /**
     * {@code text} as a TIMESTAMP literal (microseconds), or a 22007 error at {@code node} when it is no {@code
     * yyyy-mm-dd[ hh:mm[:ss[.ffffff]]]} timestamp.
     */
    static Expr.Literal timestamp(SqlNode node, String text) {
        long micros = io.numacube.engine.schema.Timestamps.parse(
                io.numacube.engine.plan.DateTexts.canonical(text).strip());
        if (micros == io.numacube.engine.schema.Timestamps.INVALID) {
            throw bindError(node, "22007", "not a timestamp (yyyy-mm-dd hh:mm:ss[.ffffff]): value=" + text);
        }
        return new Expr.Literal(micros, ColumnType.TIMESTAMP);
    }

    /**
     * {@code text} as a DATE literal, or a 22007 error at {@code node} when it is no yyyy-mm-dd date (22008 for one
     * outside years 0001 to 9999).
     */
    static Expr.Literal date(SqlNode node, String text) {
        long day;
        try {
            day = LocalDate.parse(io.numacube.engine.plan.DateTexts.canonicalDate(text))
                    .toEpochDay();
        } catch (DateTimeParseException e) {
            throw bindError(node, "22007", "not a date (yyyy-mm-dd): value=" + text);
        }
        if (!io.numacube.engine.schema.Timestamps.dayInRange(day)) {
            throw bindError(node, "22008", "DATE out of range (years 0001 to 9999): value=" + text);
        }
        return new Expr.Literal(day, ColumnType.DATE);
    }
}
