package io.numacube.spark;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;

/**
 * Spark's V2 predicates as numacube SQL conditions, where the meaning is the same on both sides: {@code = <> < <= >
 * >=} between a column and a literal or between two columns (Spark compares only columns of one type, casting
 * otherwise, and a cast stays with Spark), IN, IS [NOT] NULL, AND, OR and NOT. A literal is pushed as the value Spark
 * holds: a string (of Spark's binary collation), an integer, a finite double, a decimal, a boolean, a DATE (days since
 * 1970-01-01) or a TIMESTAMP_NTZ (microseconds since 1970-01-01 00:00, no time zone: Spark's type of a numacube
 * TIMESTAMP, sent with all six fractional digits, which both sides keep). A TIMESTAMP with time zone compared with such
 * a column has been converted by Spark to the session time zone's wall time before it arrives; a TIMESTAMP instant
 * literal itself is never pushed (numacube has no time zones). Dates and timestamps are pushed only in numacube's
 * years 0001 to 9999 (outside them its literal would be an error, not a comparison). Anything else is left to Spark:
 * string functions, arithmetic, casts, NaN. Stateless.
 */
final class SqlFilters {

    /** The last year of numacube's DATEs and TIMESTAMPs (the first is 1). */
    static final int MAX_YEAR = 9999;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

    private SqlFilters() {}

    /** The condition for {@code p}, or empty when it is left to Spark. */
    static Optional<String> sql(Predicate p) {
        return Optional.ofNullable(condition(p));
    }

    private static String condition(Expression e) {
        if (!(e instanceof Predicate p)) {
            return null;
        }
        Expression[] c = p.children();
        return switch (p.name()) {
            case "=", "<>", "<", "<=", ">", ">=" -> compare(c[0], p.name(), c[1]);
            case "IS_NULL" -> column(c[0]) == null ? null : column(c[0]) + " IS NULL";
            case "IS_NOT_NULL" -> column(c[0]) == null ? null : column(c[0]) + " IS NOT NULL";
            case "IN" -> in(c);
            case "AND" -> both(condition(c[0]), " AND ", condition(c[1]));
            case "OR" -> both(condition(c[0]), " OR ", condition(c[1]));
            case "NOT" -> {
                String inner = condition(c[0]);
                yield inner == null ? null : "NOT (" + inner + ")";
            }
            default -> null;
        };
    }

    private static String both(String left, String op, String right) {
        return left == null || right == null ? null : "(" + left + ")" + op + "(" + right + ")";
    }

    /** A comparison with a column on at least one side, and a column or a literal on the other. */
    private static String compare(Expression left, String op, Expression right) {
        String l = operand(left);
        String r = operand(right);
        boolean column = left instanceof NamedReference || right instanceof NamedReference;
        return l == null || r == null || !column ? null : l + " " + op + " " + r;
    }

    private static String operand(Expression e) {
        return e instanceof Literal<?> l ? literal(l.value(), l.dataType()) : column(e);
    }

    private static String in(Expression[] c) {
        String column = column(c[0]);
        if (column == null || c.length < 2) {
            return null;
        }
        List<String> literals = new ArrayList<>();
        for (int i = 1; i < c.length; i++) {
            String l = c[i] instanceof Literal<?> v ? literal(v.value(), v.dataType()) : null;
            if (l == null) {
                return null;
            }
            literals.add(l);
        }
        return column + " IN (" + String.join(", ", literals) + ")";
    }

    /** The quoted name of a top-level column, or null for anything else (a nested field, an expression). */
    private static String column(Expression e) {
        return e instanceof NamedReference r && r.fieldNames().length == 1 ? column(r.fieldNames()[0]) : null;
    }

    /** A column name from Spark (unquoted, one part) as a quoted SQL identifier. */
    static String column(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /**
     * The SQL literal of a V2 literal's value as Spark holds it ({@code UTF8String}, {@code Decimal}, days as an int,
     * microseconds as a long), or null where numacube has no literal of the same value.
     */
    static String literal(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        if (DataTypes.StringType.equals(type)) {
            return "'" + v.toString().replace("'", "''") + "'";
        }
        if (type == DataTypes.LongType
                || type == DataTypes.IntegerType
                || type == DataTypes.ShortType
                || type == DataTypes.ByteType) {
            return v.toString();
        }
        if (type == DataTypes.DoubleType) {
            double d = (Double) v;
            return Double.isFinite(d) ? BigDecimal.valueOf(d).toPlainString() : null;
        }
        if (type instanceof DecimalType) {
            return ((Decimal) v).toJavaBigDecimal().toPlainString();
        }
        if (type == DataTypes.BooleanType) {
            return (Boolean) v ? "TRUE" : "FALSE";
        }
        if (type == DataTypes.DateType) {
            return literal(LocalDate.ofEpochDay((Integer) v));
        }
        if (type == DataTypes.TimestampNTZType) {
            long micros = (Long) v;
            return literal(LocalDateTime.ofEpochSecond(
                    Math.floorDiv(micros, 1_000_000L),
                    (int) Math.floorMod(micros, 1_000_000L) * 1_000,
                    ZoneOffset.UTC));
        }
        return null;
    }

    /** A DATE or TIMESTAMP literal of every digit down to the microsecond, or null outside numacube's years. */
    static String literal(java.time.temporal.Temporal t) {
        return switch (t) {
            case LocalDate d -> date(d);
            case LocalDateTime d -> timestamp(d);
            default -> null;
        };
    }

    private static String date(LocalDate d) {
        return inYears(d.getYear()) ? "DATE '" + d + "'" : null;
    }

    /** A TIMESTAMP literal of every digit down to the microsecond, or null for what numacube cannot hold exactly. */
    private static String timestamp(LocalDateTime t) {
        if (!inYears(t.getYear()) || t.getNano() % 1_000 != 0) {
            return null;
        }
        return "TIMESTAMP '" + t.toLocalDate() + " " + TIME.format(t) + "'";
    }

    private static boolean inYears(int year) {
        return year >= 1 && year <= MAX_YEAR;
    }
}
