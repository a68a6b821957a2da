package io.numacube.engine.sql;

import static io.numacube.engine.sql.BindErrors.bindError;
import static io.numacube.engine.sql.BindErrors.unsupported;

import io.numacube.engine.plan.Expr;
import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.Timestamps;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * {@code d + INTERVAL 'n' unit} and {@code d - INTERVAL 'n' unit} of a DATE or TIMESTAMP, as DuckDB computes them: the
 * result is a TIMESTAMP; YEAR, QUARTER and MONTH move the calendar month and keep the day, clamped to the month's last
 * ({@code DATE '1994-01-31' + INTERVAL '1' MONTH} is {@code 1994-02-28 00:00:00}); WEEK, DAY, HOUR, MINUTE and SECOND
 * add fixed durations. A literal date folds into a TIMESTAMP literal; a column becomes {@code add_interval(d, months,
 * micros)}, evaluated once per distinct value like every function. Intervals alone, of several units, or added to
 * anything else are refused with their position.
 *
 * <p>Stateless; thread-safe.
 */
final class IntervalBinder {

    private IntervalBinder() {}

    /** Whether {@code call} (a + or -) has an interval literal as an operand. */
    static boolean involvesInterval(SqlCall call) {
        return call.operand(0) instanceof SqlIntervalLiteral || call.operand(1) instanceof SqlIntervalLiteral;
    }

    /** {@code x ± interval} ({@code interval + x} too), with {@code x} already bound from the other operand. */
    static Expr bind(SqlCall call, Expr x) {
        boolean minus = call.getKind() == SqlKind.MINUS;
        if (call.operand(0) instanceof SqlIntervalLiteral && (minus || call.operand(1) instanceof SqlIntervalLiteral)) {
            throw unsupported(call, minus ? "an INTERVAL minus a value" : "the sum of two INTERVALs");
        }
        SqlIntervalLiteral lit = (SqlIntervalLiteral)
                (call.operand(0) instanceof SqlIntervalLiteral ? call.operand(0) : call.operand(1));
        if (x.type() != ColumnType.DATE && x.type() != ColumnType.TIMESTAMP) {
            throw bindError(
                    call,
                    "42883",
                    "an INTERVAL is added to a DATE or a TIMESTAMP: " + x.text() + " is "
                            + (x.type() == null
                                    ? "a condition"
                                    : x.type().name().toLowerCase(java.util.Locale.ROOT)));
        }
        long[] monthsAndMicros = amount(lit);
        long months = minus ? -monthsAndMicros[0] : monthsAndMicros[0];
        long micros = minus ? -monthsAndMicros[1] : monthsAndMicros[1];
        if (x instanceof Expr.Literal l) {
            long start = x.type() == ColumnType.DATE ? (Long) l.value() * Timestamps.MICROS_PER_DAY : (Long) l.value();
            return new Expr.Literal(Timestamps.addInterval(start, months, micros), ColumnType.TIMESTAMP);
        }
        return new Expr.Call(
                "add_interval",
                List.of(x, new Expr.Literal(months, ColumnType.LONG), new Expr.Literal(micros, ColumnType.LONG)),
                ColumnType.TIMESTAMP);
    }

    /**
     * {@code a - b} of two DATEs, as DuckDB: the BIGINT number of days from {@code b} to {@code a} (NULL where either
     * is NULL), the difference of their day numbers ({@code date_days}); two literals fold. Null where the call is not
     * of that shape.
     */
    static Expr dateMinusDate(SqlCall call, Expr left, Expr right) {
        if (call.getKind() != SqlKind.MINUS || left.type() != ColumnType.DATE || right.type() != ColumnType.DATE) {
            return null;
        }
        if (left instanceof Expr.Literal a
                && a.value() instanceof Long x
                && right instanceof Expr.Literal b
                && b.value() instanceof Long y) {
            return new Expr.Literal(Math.subtractExact(x, y), ColumnType.LONG);
        }
        return new Expr.Arith('-', days(left), days(right));
    }

    /** A DATE as its day number since 1970-01-01, a BIGINT. */
    private static Expr days(Expr date) {
        return date instanceof Expr.Literal l && l.value() instanceof Long day
                ? new Expr.Literal(day, ColumnType.LONG)
                : new Expr.Call("date_days", List.of(date), ColumnType.LONG);
    }

    /**
     * {@code d + n}, {@code n + d} and {@code d - n} of a DATE {@code d} and an integer literal {@code n}, as DuckDB: the
     * DATE {@code n} days later (earlier); a literal date folds into a DATE literal, a column becomes the date of {@code
     * add_interval(d, 0, n days)}. Null where the call is not of that shape (the caller binds it as arithmetic, which
     * refuses a DATE with its position); {@code n - d} is refused as in DuckDB.
     */
    static Expr dateplusDays(SqlCall call, Expr left, Expr right) {
        boolean minus = call.getKind() == SqlKind.MINUS;
        boolean dateFirst = left.type() == ColumnType.DATE && isIntegerLiteral(right);
        boolean dateSecond = right.type() == ColumnType.DATE && isIntegerLiteral(left);
        if (!dateFirst && !dateSecond) {
            return null;
        }
        if (dateSecond && minus) {
            throw bindError(call, "42883", "an integer minus a DATE: " + left.text() + " - " + right.text());
        }
        Expr date = dateFirst ? left : right;
        long n = (Long) ((Expr.Literal) (dateFirst ? right : left)).value();
        try {
            return datePlus(date, minus ? Math.negateExact(n) : n);
        } catch (ArithmeticException e) {
            // DuckDB: Date out of range
            throw bindError(
                    call, "22008", "DATE out of range: " + left.text() + (minus ? " - " : " + ") + right.text());
        }
    }

    private static final long FIRST_DAY = java.time.LocalDate.of(1, 1, 1).toEpochDay();

    private static final long LAST_DAY = java.time.LocalDate.of(9999, 12, 31).toEpochDay();

    /** {@code date} {@code delta} days later; ArithmeticException where that leaves years 0001 to 9999. */
    private static Expr datePlus(Expr date, long delta) {
        if (date instanceof Expr.Literal d && d.value() instanceof Long day) {
            long later = Math.addExact(day, delta);
            if (later < FIRST_DAY || later > LAST_DAY) {
                throw new ArithmeticException("beyond years 0001 to 9999");
            }
            return new Expr.Literal(later, ColumnType.DATE);
        }
        if (date instanceof Expr.Literal) {
            return date;
        }
        Expr timestamp = new Expr.Call(
                "add_interval",
                List.of(
                        date,
                        new Expr.Literal(0L, ColumnType.LONG),
                        new Expr.Literal(Math.multiplyExact(delta, Timestamps.MICROS_PER_DAY), ColumnType.LONG)),
                ColumnType.TIMESTAMP);
        return new Expr.Call("cast_date", List.of(timestamp), ColumnType.DATE);
    }

    private static boolean isIntegerLiteral(Expr e) {
        return e instanceof Expr.Literal l
                && l.type() == ColumnType.LONG
                && l.scale() == 0
                && l.value() instanceof Long;
    }

    /**
     * {@code node} as an interval literal where it is DuckDB's {@code INTERVAL 30 DAY} (a whole number without quotes,
     * which Calcite parses as a call): {@code INTERVAL '30' DAY}; else {@code node} itself.
     */
    static SqlNode asLiteral(SqlNode node) {
        if (node instanceof SqlCall call
                && call.getKind() == SqlKind.INTERVAL
                && call.operandCount() == 2
                && call.operand(0) instanceof SqlNumericLiteral n
                && n.isInteger()
                && call.operand(1) instanceof SqlIntervalQualifier unit) {
            return SqlLiteral.createInterval(1, n.toValue(), unit, call.getParserPosition());
        }
        return node;
    }

    /** The interval as {months, microseconds}. */
    private static long[] amount(SqlIntervalLiteral lit) {
        SqlIntervalLiteral.IntervalValue v = lit.getValueAs(SqlIntervalLiteral.IntervalValue.class);
        TimeUnit start = v.getIntervalQualifier().getStartUnit();
        TimeUnit end = v.getIntervalQualifier().getEndUnit();
        if (end != null && end != start) {
            throw unsupported(lit, "an INTERVAL of several units (add one unit at a time)");
        }
        long n;
        try {
            n = Long.parseLong(v.getIntervalLiteral().strip()) * v.getSign();
        } catch (NumberFormatException e) {
            throw unsupported(
                    lit, "an INTERVAL other than a whole number of one unit: '" + v.getIntervalLiteral() + "'");
        }
        try {
            return switch (start) {
                case YEAR -> new long[] {Math.multiplyExact(n, 12), 0};
                case QUARTER -> new long[] {Math.multiplyExact(n, 3), 0};
                case MONTH -> new long[] {n, 0};
                case WEEK -> new long[] {0, Math.multiplyExact(n, 7 * Timestamps.MICROS_PER_DAY)};
                case DAY -> new long[] {0, Math.multiplyExact(n, Timestamps.MICROS_PER_DAY)};
                case HOUR -> new long[] {0, Math.multiplyExact(n, 3_600_000_000L)};
                case MINUTE -> new long[] {0, Math.multiplyExact(n, 60_000_000L)};
                case SECOND -> new long[] {0, Math.multiplyExact(n, 1_000_000L)};
                default -> throw unsupported(lit, "an INTERVAL in " + start);
            };
        } catch (ArithmeticException e) {
            throw bindError(lit, "22008", "INTERVAL out of range: " + n + " " + start);
        }
    }
}
