package io.numacube.spark;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;

/**
 * Spark's filters as numacube SQL conditions, where the meaning is the same on both sides: comparisons, IN, IS
 * [NOT] NULL, AND, OR and NOT over a column and a literal that is a string, an integer, a finite double, a decimal,
 * a boolean, a date or a timestamp without time zone ({@code TIMESTAMP_NTZ}, Spark's type of a numacube TIMESTAMP: a
 * {@link LocalDateTime}, sent with all six fractional digits, which both sides keep). Dates and timestamps are pushed
 * only in numacube's years 0001 to 9999 (outside them its literal would be an error, not a comparison). Anything else
 * is left to Spark: an instant ({@code TIMESTAMP}, with the session's time zone: numacube has none), a fraction finer
 * than microseconds, string functions, NaN. Stateless.
 */
final class SqlFilters {

    /** The last year of numacube's DATEs and TIMESTAMPs (the first is 1). */
    static final int MAX_YEAR = 9999;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

    private SqlFilters() {}

    /** The condition for {@code f}, or empty when it is left to Spark. */
    static Optional<String> sql(Filter f) {
        return Optional.ofNullable(condition(f));
    }

    private static String condition(Filter f) {
        return switch (f) {
            case EqualTo e -> compare(e.attribute(), "=", e.value());
            case GreaterThan g -> compare(g.attribute(), ">", g.value());
            case GreaterThanOrEqual g -> compare(g.attribute(), ">=", g.value());
            case LessThan l -> compare(l.attribute(), "<", l.value());
            case LessThanOrEqual l -> compare(l.attribute(), "<=", l.value());
            case IsNull n -> n.attribute().contains(".") ? null : column(n.attribute()) + " IS NULL";
            case IsNotNull n -> n.attribute().contains(".") ? null : column(n.attribute()) + " IS NOT NULL";
            case In in -> in(in);
            case And a -> both(condition(a.left()), " AND ", condition(a.right()));
            case Or o -> both(condition(o.left()), " OR ", condition(o.right()));
            case Not n -> {
                String inner = condition(n.child());
                yield inner == null ? null : "NOT (" + inner + ")";
            }
            default -> null;
        };
    }

    private static String both(String left, String op, String right) {
        return left == null || right == null ? null : "(" + left + ")" + op + "(" + right + ")";
    }

    private static String compare(String attribute, String op, Object value) {
        String literal = literal(value);
        return literal == null || attribute.contains(".") ? null : column(attribute) + " " + op + " " + literal;
    }

    private static String in(In in) {
        if (in.values().length == 0 || in.attribute().contains(".")) {
            return null;
        }
        List<String> literals = new ArrayList<>();
        for (Object v : in.values()) {
            String l = literal(v);
            if (l == null) {
                return null;
            }
            literals.add(l);
        }
        return column(in.attribute()) + " IN (" + String.join(", ", literals) + ")";
    }

    /** A column name from Spark (unquoted, one part) as a quoted SQL identifier. */
    static String column(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** A Spark filter value as a numacube SQL literal of the same value, or null where there is none. */
    static String literal(Object v) {
        return switch (v) {
            case String s -> "'" + s.replace("'", "''") + "'";
            case Long l -> l.toString();
            case Integer i -> i.toString();
            case Short s -> s.toString();
            case Byte b -> b.toString();
            case Double d when Double.isFinite(d) -> BigDecimal.valueOf(d).toPlainString();
            case BigDecimal d -> d.toPlainString();
            case Boolean b -> b ? "TRUE" : "FALSE";
            case LocalDate d -> date(d);
            case java.sql.Date d -> date(d.toLocalDate());
            case LocalDateTime t -> timestamp(t);
            case null, default -> null;
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
