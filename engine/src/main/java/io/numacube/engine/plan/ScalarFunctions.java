package io.numacube.engine.plan;

import io.numacube.engine.schema.ColumnType;
import io.numacube.numa.base.NumacubeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.temporal.IsoFields;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The scalar functions numacube evaluates, with DuckDB's semantics: their result types ({@link #resultType}, for the
 * binder) and their values ({@link #apply}, for the evaluator, which runs them per dictionary code or per result row,
 * never per fact row). Values are String (text), Long (integers; dates as days since 1970-01-01) and Double; null is
 * SQL NULL, and a NULL argument gives NULL except in {@code coalesce} and {@code concat}. A TIMESTAMP is a Long of
 * microseconds: {@link #apply(Expr.Call, List)} reads the argument types, so {@code year(ts)} and {@code year(d)} differ
 * ({@link TimestampFunctions}). Stateless.
 *
 * <p>Functions: date parts {@code year quarter month day dayofweek isodow dayofyear week} of a DATE or TIMESTAMP, and
 * {@code hour minute second millisecond microsecond epoch} of a TIMESTAMP, and {@code date_part(part, d)} (= {@code
 * EXTRACT(part FROM d)}), {@code date_trunc(part, d)} (a TIMESTAMP, of a DATE too, as in DuckDB), {@code strftime(d,
 * format)}, {@code dayname monthname make_date}, text {@code upper lower length substring trim ltrim rtrim concat}
 * {@code quote_ident} (PostgreSQL's, for clients' catalog queries) and {@code ||}, {@code abs round},
 * {@code coalesce}, {@code nullif}.
 */
public final class ScalarFunctions {

    private static final String[] DAY_NAMES = {
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"
    };

    private static final String[] MONTH_NAMES = {
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December"
    };

    private static final Set<String> DATE_PARTS =
            Set.of("year", "quarter", "month", "day", "dayofweek", "isodow", "dayofyear", "week");

    private static final Set<String> NAMES = Set.of(
            "date_part",
            "date_trunc",
            "strftime",
            "dayname",
            "monthname",
            "make_date",
            "upper",
            "lower",
            "trim",
            "ltrim",
            "rtrim",
            "quote_ident",
            "length",
            "substring",
            "concat",
            "concat_ws",
            "||",
            "round",
            "%",
            "abs",
            "coalesce",
            "nullif",
            "cast_text",
            "cast_bigint",
            "int_range",
            "cast_double",
            "cast_date",
            "cast_boolean",
            "cast_timestamp",
            "boolean_text",
            "boolean_int",
            "date_days");

    /** The functions that are not NULL for every NULL argument (the others are). */
    private static final Set<String> NULL_AWARE =
            Set.of("coalesce", "concat", "concat_ws", "nullif", "greatest", "least");

    private ScalarFunctions() {}

    /** Whether {@code name} (lower case) is a function this class knows. */
    public static boolean knows(String name) {
        return NAMES.contains(name)
                || NumberFunctions.NAMES.contains(name)
                || TextFunctions.NAMES.contains(name)
                || DATE_PARTS.contains(name)
                || TimestampFunctions.TIME_PARTS.contains(name);
    }

    /**
     * The result type of {@code name(args)}; an {@link IllegalArgumentException} saying what is wrong for an unknown
     * function, a wrong argument count or type.
     */
    public static ColumnType resultType(String name, List<Expr> args) {
        if (DATE_PARTS.contains(name) || TimestampFunctions.TIME_PARTS.contains(name)) {
            boolean time = TimestampFunctions.TIME_PARTS.contains(name);
            expect(
                    name,
                    args,
                    time || TimestampFunctions.timestampAt(args, 0) ? ColumnType.TIMESTAMP : ColumnType.DATE);
            return TimestampFunctions.partType(name);
        }
        if (name.equals("add_interval")) {
            return ColumnType.TIMESTAMP;
        }
        ColumnType t = DecimalFunctions.resultType(name, args);
        t = t != null ? t : NumberFunctions.resultType(name, args);
        t = t != null ? t : TextFunctions.resultType(name, args);
        t = t != null ? t : dateFunctionType(name, args);
        t = t != null ? t : textFunctionType(name, args);
        t = t != null ? t : castType(name, args);
        t = t != null ? t : valueFunctionType(name, args);
        if (t == null) {
            throw new IllegalArgumentException("unknown function " + name);
        }
        return t;
    }

    /** The type of a date function, or null when {@code name} is none. */
    private static ColumnType dateFunctionType(String name, List<Expr> args) {
        return switch (name) {
            case "date_part" -> {
                boolean ts = TimestampFunctions.timestampAt(args, 1);
                expect(name, args, ColumnType.STRING, ts ? ColumnType.TIMESTAMP : ColumnType.DATE);
                yield TimestampFunctions.partType(datePart(partLiteral(name, args.get(0)), ts));
            }
            case "date_trunc" -> {
                boolean ts = TimestampFunctions.timestampAt(args, 1);
                expect(name, args, ColumnType.STRING, ts ? ColumnType.TIMESTAMP : ColumnType.DATE);
                TimestampFunctions.truncate(partLiteral(name, args.get(0)), 0);
                yield ColumnType.TIMESTAMP;
            }
            case "dayname", "monthname" -> {
                expect(name, args, TimestampFunctions.timestampAt(args, 0) ? ColumnType.TIMESTAMP : ColumnType.DATE);
                yield ColumnType.STRING;
            }
            case "strftime" -> {
                expect(
                        name,
                        args,
                        TimestampFunctions.timestampAt(args, 0) ? ColumnType.TIMESTAMP : ColumnType.DATE,
                        ColumnType.STRING);
                TimestampFunctions.strftime(0, partLiteral(name, args.get(1)));
                yield ColumnType.STRING;
            }
            case "make_date" -> {
                arity(name, args, 3);
                for (Expr a : args) {
                    if (!Expr.isInteger(a.type())) {
                        throw new IllegalArgumentException("make_date needs integers: " + a.text());
                    }
                }
                yield ColumnType.DATE;
            }
            default -> null;
        };
    }

    /** The type of a text function, or null when {@code name} is none. */
    private static ColumnType textFunctionType(String name, List<Expr> args) {
        return switch (name) {
            case "upper", "lower", "trim", "ltrim", "rtrim", "quote_ident" -> {
                expect(name, args, ColumnType.STRING);
                yield ColumnType.STRING;
            }
            case "length" -> {
                expect(name, args, ColumnType.STRING);
                yield ColumnType.LONG;
            }
            case "substring" -> substringType(args);
            case "concat", "concat_ws", "||" -> {
                if (args.size() < 1) {
                    throw new IllegalArgumentException(name + " needs at least one argument");
                }
                yield ColumnType.STRING;
            }
            default -> null;
        };
    }

    /** The type of a CAST, or null when {@code name} is none. */
    private static ColumnType castType(String name, List<Expr> args) {
        if (!name.startsWith("cast_")) {
            return null;
        }
        arity(name, args, 1);
        ColumnType from = args.get(0).type();
        return switch (name) {
            case "cast_text" -> {
                if (from == ColumnType.DOUBLE) {
                    throw new IllegalArgumentException("CAST of a DOUBLE to text is not supported yet");
                }
                yield ColumnType.STRING;
            }
            case "cast_timestamp" -> {
                if (from != ColumnType.DATE && from != ColumnType.STRING && from != ColumnType.TIMESTAMP) {
                    throw new IllegalArgumentException("CAST to TIMESTAMP needs a date, a timestamp or text: "
                            + args.get(0).text());
                }
                yield ColumnType.TIMESTAMP;
            }
            case "cast_bigint" -> {
                notDate(name, args.get(0));
                yield ColumnType.LONG;
            }
            case "int_range" -> ColumnType.LONG;
            case "cast_double" -> {
                notDate(name, args.get(0));
                yield ColumnType.DOUBLE;
            }
            case "cast_boolean" -> {
                if (from == ColumnType.DATE || from == ColumnType.TIMESTAMP || from == null) {
                    throw new IllegalArgumentException("CAST to BOOLEAN of " + typeName(from) + ": "
                            + args.get(0).text());
                }
                yield ColumnType.BOOLEAN;
            }
            case "boolean_text" -> {
                expect(name, args, ColumnType.BOOLEAN);
                yield ColumnType.STRING;
            }
            case "boolean_int" -> {
                expect(name, args, ColumnType.BOOLEAN);
                yield ColumnType.LONG;
            }
            case "date_days" -> {
                expect(name, args, ColumnType.DATE);
                yield ColumnType.LONG;
            }
            case "cast_date" -> {
                if (from != ColumnType.DATE && from != ColumnType.STRING && from != ColumnType.TIMESTAMP) {
                    throw new IllegalArgumentException("CAST to DATE needs a date, a timestamp or text: "
                            + args.get(0).text());
                }
                yield ColumnType.DATE;
            }
            default -> null;
        };
    }

    /** The type of a numeric or NULL-handling function, or null when {@code name} is none. */
    private static ColumnType valueFunctionType(String name, List<Expr> args) {
        return switch (name) {
            case "round" -> {
                if (args.size() != 1 && args.size() != 2) {
                    throw new IllegalArgumentException("round takes 1 or 2 arguments");
                }
                if (args.size() == 2 && !Expr.isInteger(args.get(1).type())) {
                    throw new IllegalArgumentException(
                            "round needs an integer precision: " + args.get(1).text());
                }
                yield numeric(name, args.get(0));
            }
            case "%" -> {
                arity(name, args, 2);
                numeric(name, args.get(1));
                yield commonType(name, List.of(args.get(0), args.get(1)), 2) == ColumnType.DOUBLE
                        ? ColumnType.DOUBLE
                        : ColumnType.LONG;
            }
            case "abs" -> {
                arity(name, args, 1);
                yield numeric(name, args.get(0));
            }
            case "coalesce" -> commonType(name, args, 1);
            case "nullif" -> {
                arity(name, args, 2);
                commonType(name, args, 2);
                yield args.get(0).type();
            }
            default -> null;
        };
    }

    /**
     * The value of {@code call} over its argument values (already evaluated): as {@link #apply(String, List)}, except
     * where an argument is a TIMESTAMP or a DATE whose meaning differs from a number's ({@code year(ts)}, {@code
     * CAST(d AS VARCHAR)}, {@code date_trunc('day', d)}).
     */
    public static Object apply(Expr.Call call, List<Object> v) {
        String name = call.name();
        List<Expr> args = call.args();
        boolean ts0 = TimestampFunctions.timestampAt(args, 0);
        boolean ts1 = TimestampFunctions.timestampAt(args, 1);
        boolean date0 = args.size() > 0 && args.get(0).type() == ColumnType.DATE;
        boolean special = ts0
                || ts1
                || name.equals("strftime")
                || name.equals("cast_timestamp")
                || name.equals("add_interval")
                || name.equals("date_trunc")
                || ((name.equals("cast_text") || name.equals("temporal_text")) && date0);
        if (!special
                || name.equals("coalesce")
                || name.equals("nullif")
                || NumberFunctions.skipsNulls(name)
                || name.equals("concat")
                || name.equals("concat_ws")
                || name.equals("||")) {
            return apply(name, v);
        }
        for (Object x : v) {
            if (x == null) {
                return null;
            }
        }
        if (DATE_PARTS.contains(name) || TimestampFunctions.TIME_PARTS.contains(name)) {
            return TimestampFunctions.part(name, (Long) v.get(0));
        }
        return switch (name) {
            case "date_part" -> TimestampFunctions.part(datePart((String) v.get(0), true), (Long) v.get(1));
            case "date_trunc" ->
                TimestampFunctions.truncate(
                        (String) v.get(0),
                        ts1 ? (Long) v.get(1) : (Long) v.get(1) * io.numacube.engine.schema.Timestamps.MICROS_PER_DAY);
            case "strftime" ->
                TimestampFunctions.strftime(
                        ts0 ? (Long) v.get(0) : (Long) v.get(0) * io.numacube.engine.schema.Timestamps.MICROS_PER_DAY,
                        (String) v.get(1));
            case "dayname", "monthname" ->
                apply(name, List.of(io.numacube.engine.schema.Timestamps.epochDay((Long) v.get(0))));
            case "cast_text", "temporal_text" ->
                ts0
                        ? io.numacube.engine.schema.Timestamps.format((Long) v.get(0))
                        : LocalDate.ofEpochDay((Long) v.get(0)).toString();
            case "cast_date" -> io.numacube.engine.schema.Timestamps.epochDay((Long) v.get(0));
            case "cast_timestamp" -> TimestampFunctions.cast(v.get(0), date0);
            case "add_interval" ->
                io.numacube.engine.schema.Timestamps.addInterval(
                        date0 ? (Long) v.get(0) * io.numacube.engine.schema.Timestamps.MICROS_PER_DAY : (Long) v.get(0),
                        (Long) v.get(1),
                        (Long) v.get(2));
            default -> throw new IllegalArgumentException(name + " of a timestamp is not supported");
        };
    }

    /** The value of one of {@link #NULL_AWARE}, each with its own NULL rule. */
    private static Object nullAware(String name, List<Object> v) {
        switch (name) {
            case "coalesce" -> {
                for (Object x : v) {
                    if (x != null) {
                        return x;
                    }
                }
                return null;
            }
            case "concat" -> {
                StringBuilder sb = new StringBuilder();
                v.stream().filter(x -> x != null).forEach(x -> sb.append(text(x)));
                return sb.toString();
            }
            case "concat_ws" -> {
                // PostgreSQL's: a NULL separator gives NULL; NULL values are skipped, separators and all
                return v.get(0) == null
                        ? null
                        : String.join(
                                text(v.get(0)),
                                v.subList(1, v.size()).stream()
                                        .filter(x -> x != null)
                                        .map(ScalarFunctions::text)
                                        .toList());
            }
            case "nullif" -> {
                return nullif(v.get(0), v.get(1));
            }
            case "greatest", "least" -> {
                return NumberFunctions.apply(name, v);
            }
            default -> throw new IllegalStateException("not NULL-aware: " + name);
        }
    }

    /** The value of {@code name} over argument values (already evaluated). */
    public static Object apply(String name, List<Object> v) {
        if (NULL_AWARE.contains(name)) {
            return nullAware(name, v);
        }
        for (Object x : v) {
            if (x == null) {
                return null;
            }
        }
        if (DATE_PARTS.contains(name)) {
            return datePart(name, LocalDate.ofEpochDay((Long) v.get(0)));
        }
        return switch (name) {
            case "date_part" -> datePart(datePart((String) v.get(0)), LocalDate.ofEpochDay((Long) v.get(1)));
            case "dayname" ->
                DAY_NAMES[LocalDate.ofEpochDay((Long) v.get(0)).getDayOfWeek().getValue() - 1];
            case "monthname" ->
                MONTH_NAMES[LocalDate.ofEpochDay((Long) v.get(0)).getMonthValue() - 1];
            case "make_date" -> Casts.makeDate((Long) v.get(0), (Long) v.get(1), (Long) v.get(2));
            case "round" -> round(v.get(0), v.size() > 1 ? (Long) v.get(1) : 0L);
            case "upper" -> mapCodePoints((String) v.get(0), true);
            case "lower" -> mapCodePoints((String) v.get(0), false);
            case "trim" -> strip((String) v.get(0), true, true);
            case "ltrim" -> strip((String) v.get(0), true, false);
            case "rtrim" -> strip((String) v.get(0), false, true);
            case "quote_ident" -> quoteIdent((String) v.get(0));
            case "length" -> (long) ((String) v.get(0)).codePointCount(0, ((String) v.get(0)).length());
            case "substring" -> substring((String) v.get(0), (Long) v.get(1), v.size() > 2 ? (Long) v.get(2) : null);
            case "||" -> text(v.get(0)) + text(v.get(1));
            case "%" -> modulo(v.get(0), v.get(1));
            case "abs" -> v.get(0) instanceof Long l ? (Object) Math.absExact(l) : (Object) Math.abs((Double) v.get(0));
            case "cast_text" -> text(v.get(0));
            case "cast_bigint" -> Casts.toBigint(v.get(0));
            case "int_range" -> Casts.inIntegerRange((Long) v.get(0), ((Long) v.get(1)).intValue());
            case "cast_double" -> Casts.toDouble(v.get(0));
            case "cast_date" -> Casts.toDate(v.get(0));
            case "cast_boolean" -> Casts.toBoolean(v.get(0));
            case "boolean_text" -> (Long) v.get(0) != 0 ? "true" : "false";
            case "boolean_int", "date_days" -> v.get(0);
            default -> familyApply(name, v);
        };
    }

    /** The value of a function of {@link DecimalFunctions}, {@link NumberFunctions} or {@link TextFunctions}. */
    private static Object familyApply(String name, List<Object> v) {
        if (NumberFunctions.NAMES.contains(name)) {
            return NumberFunctions.apply(name, v);
        }
        if (TextFunctions.NAMES.contains(name)) {
            return TextFunctions.apply(name, v);
        }
        if (DecimalFunctions.NAMES.contains(name)) {
            return DecimalFunctions.apply(name, v);
        }
        throw new IllegalStateException("unknown function " + name);
    }

    /**
     * DuckDB's round: {@code round(x * 10^d) / 10^d} (d < 0: {@code round(x / 10^-d) * 10^-d}), half away from zero;
     * where that is no finite number, x itself (d >= 0) or 0 (d < 0: ROUND(1.5, -400) is 0), as DuckDB.
     */
    private static Object round(Object x, long digits) {
        if (x instanceof Long l) {
            if (digits >= 0) {
                return l;
            }
            // longValueExact: round(9223372036854775807, -1) leaves BIGINT (DuckDB's "Overflow in ROUND"), never wraps
            return new java.math.BigDecimal(l)
                    .setScale((int) Math.max(digits, -19), java.math.RoundingMode.HALF_UP)
                    .longValueExact();
        }
        double d = (Double) x;
        double modifier = Math.pow(10, Math.abs(digits));
        if (digits >= 0) {
            double r = halfAway(d * modifier) / modifier;
            return Double.isFinite(r) ? r : d;
        }
        double r = halfAway(d / modifier) * modifier;
        return Double.isFinite(r) ? r : 0.0;
    }

    /** {@code x} rounded to a whole number, halves away from zero (DuckDB's rounding of doubles). */
    static double halfAway(double x) {
        double a = Math.abs(x);
        double f = Math.floor(a);
        return Math.copySign(a - f >= 0.5 ? f + 1 : f, x);
    }

    /**
     * DuckDB's {@code %}: the sign of the dividend; a zero divisor is an error for integers and DECIMALs (DuckDB's
     * "Division by zero"), NaN for doubles (Java's {@code %}, as DuckDB's fmod).
     */
    private static Object modulo(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            if (y == 0) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "22012",
                        "division by zero: an integer or DECIMAL % 0 (as in DuckDB; a DOUBLE % 0 is NaN)",
                        null,
                        null);
            }
            if (y == -1 && x == Long.MIN_VALUE) {
                throw new NumacubeException(
                        NumacubeException.Kind.INVALID_INPUT,
                        "22003",
                        "BIGINT overflow in " + x + " % -1 (as DuckDB's division of it by -1)",
                        null,
                        null);
            }
            return y == -1 ? 0L : x % y;
        }
        return ((Number) a).doubleValue() % ((Number) b).doubleValue();
    }

    private static void notDate(String name, Expr e) {
        if (e.type() == ColumnType.DATE || e.type() == ColumnType.TIMESTAMP || e.type() == null) {
            throw new IllegalArgumentException(name.replace("cast_", "CAST to ").toUpperCase(Locale.ROOT) + " of "
                    + typeName(e.type()) + ": " + e.text());
        }
    }

    /** {@code NULLIF(a, b)}: NULL where {@code a} is NULL or equals {@code b}; {@code NULLIF(a, NULL)} is {@code a}. */
    private static Object nullif(Object a, Object b) {
        return a == null || b == null ? a : same(a, b) ? null : a;
    }

    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y && !(a instanceof Long && b instanceof Long)) {
            return x.doubleValue() == y.doubleValue();
        }
        return a.equals(b);
    }

    /** {@code s} lower-cased code point by code point, as {@code lower(s)} (ILIKE compares these forms, as DuckDB). */
    public static String lowerCodePoints(String s) {
        return mapCodePoints(s, false);
    }

    /**
     * Upper or lower case code point by code point (Unicode's simple case mapping, as DuckDB's utf8proc: one code
     * point to one, so {@code ß} upper-cases to {@code ẞ}, not to {@code SS}).
     */
    private static String mapCodePoints(String s, boolean upper) {
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints()
                .forEach(cp -> sb.appendCodePoint(
                        upper ? (cp == 0xDF ? 0x1E9E : Character.toUpperCase(cp)) : Character.toLowerCase(cp)));
        return sb.toString();
    }

    private static String text(Object x) {
        return x instanceof Double d ? DoubleText.of(d) : String.valueOf(x);
    }

    /**
     * PostgreSQL's {@code quote_ident}: the text as it is where it is a plain identifier (a lower-case letter or
     * underscore, then lower-case letters, digits, underscores or dollars), else in double quotes with each double
     * quote doubled. Unlike PostgreSQL, a keyword that is a plain identifier ({@code select}) is not quoted.
     */
    private static String quoteIdent(String s) {
        if (s.matches("[a-z_][a-z0-9_$]*")) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String strip(String s, boolean left, boolean right) {
        int from = 0;
        int to = s.length();
        while (left && from < to && s.charAt(from) == ' ') {
            from++;
        }
        while (right && to > from && s.charAt(to - 1) == ' ') {
            to--;
        }
        return s.substring(from, to);
    }

    /** DuckDB's substring: 1-based code points; a negative start counts from the end; no length: to the end. */
    private static String substring(String s, long start, Long length) {
        int n = s.codePointCount(0, s.length());
        long from = start < 0 ? n + start + 1 : start;
        long to = length == null ? n + 1L : from + length;
        if (length != null && length < 0) {
            to = from;
            from = from + length;
        }
        long a = Math.max(1, from);
        long b = Math.min(n + 1L, to);
        if (b <= a) {
            return "";
        }
        int begin = s.offsetByCodePoints(0, (int) (a - 1));
        return s.substring(begin, s.offsetByCodePoints(begin, (int) (b - a)));
    }

    private static String datePart(String part) {
        return datePart(part, false);
    }

    /** A date part's canonical name; the parts of the time of day (and epoch) only for a timestamp. */
    private static String datePart(String part, boolean timestamp) {
        String p = part.toLowerCase(Locale.ROOT);
        String name = switch (p) {
            case "dow" -> "dayofweek";
            case "doy" -> "dayofyear";
            case "dayofmonth" -> "day";
            // DuckDB's plurals: years, days, microseconds, ...
            default -> p.endsWith("s") && isPart(p.substring(0, p.length() - 1)) ? p.substring(0, p.length() - 1) : p;
        };
        if (!DATE_PARTS.contains(name) && !(timestamp && TimestampFunctions.TIME_PARTS.contains(name))) {
            throw new IllegalArgumentException("unknown date part '" + part + "' (" + String.join(", ", DATE_PARTS)
                    + ", dow, doy" + (timestamp ? ", " + String.join(", ", TimestampFunctions.TIME_PARTS) : "")
                    + ")");
        }
        return name;
    }

    private static boolean isPart(String name) {
        return DATE_PARTS.contains(name) || TimestampFunctions.TIME_PARTS.contains(name);
    }

    /** A date part of a day (a DATE's, or a TIMESTAMP's day). */
    static long dayPart(String part, LocalDate d) {
        return datePart(part, d);
    }

    static String dayName(DayOfWeek d) {
        return DAY_NAMES[d.getValue() - 1];
    }

    static String monthName(int month) {
        return MONTH_NAMES[month - 1];
    }

    private static long datePart(String part, LocalDate d) {
        return switch (part) {
            case "year" -> d.getYear();
            case "quarter" -> (d.getMonthValue() + 2) / 3;
            case "month" -> d.getMonthValue();
            case "day" -> d.getDayOfMonth();
            case "dayofweek" -> d.getDayOfWeek().getValue() % 7;
            case "isodow" -> d.getDayOfWeek().getValue();
            case "dayofyear" -> d.getDayOfYear();
            case "week" -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            default -> throw new IllegalStateException("date part " + part);
        };
    }

    private static String partLiteral(String name, Expr e) {
        if (e instanceof Expr.Literal l && l.value() instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException(
                name.equals("strftime")
                        ? "strftime needs a text literal as its format, e.g. '%Y-%m-%d %H:%M'"
                        : name + " needs a text literal as its first argument, e.g. 'month'");
    }

    private static ColumnType substringType(List<Expr> args) {
        if (args.size() != 2 && args.size() != 3) {
            throw new IllegalArgumentException("substring takes 2 or 3 arguments");
        }
        if (args.get(0).type() != ColumnType.STRING) {
            throw new IllegalArgumentException(
                    "substring needs text: " + args.get(0).text());
        }
        for (int i = 1; i < args.size(); i++) {
            if (!Expr.isInteger(args.get(i).type())) {
                throw new IllegalArgumentException(
                        "substring needs integer positions: " + args.get(i).text());
            }
        }
        return ColumnType.STRING;
    }

    /** Refuses {@code args} unless they are exactly of {@code types}, one each. */
    static void expectTypes(String name, List<Expr> args, ColumnType... types) {
        expect(name, args, types);
    }

    private static void expect(String name, List<Expr> args, ColumnType... types) {
        arity(name, args, types.length);
        for (int i = 0; i < types.length; i++) {
            if (args.get(i).type() != types[i]) {
                throw new IllegalArgumentException(name + " needs " + typeName(types[i]) + " argument " + (i + 1)
                        + ", not " + typeName(args.get(i).type()) + ": "
                        + args.get(i).text());
            }
        }
    }

    static void arity(String name, List<Expr> args, int n) {
        if (args.size() != n) {
            throw new IllegalArgumentException(name + " takes " + n + " argument" + (n == 1 ? "" : "s"));
        }
    }

    static ColumnType numeric(String name, Expr e) {
        ColumnType t = e.type();
        if (t == ColumnType.DOUBLE || Expr.isInteger(t)) {
            return t == ColumnType.INT ? ColumnType.LONG : t;
        }
        throw new IllegalArgumentException(name + " needs a number: " + e.text());
    }

    /** The one type of the arguments (integers and doubles mix as DOUBLE). */
    static ColumnType commonType(String name, List<Expr> args, int min) {
        if (args.size() < min) {
            throw new IllegalArgumentException(name + " needs at least " + min + " argument(s)");
        }
        ColumnType t = null;
        for (Expr a : args) {
            ColumnType u = a.type() == ColumnType.INT ? ColumnType.LONG : a.type();
            if (u == null) {
                throw new IllegalArgumentException(name + " of a condition: " + a.text());
            }
            if (t == null || t == u) {
                t = u;
            } else if ((t == ColumnType.LONG || t == ColumnType.DOUBLE)
                    && (u == ColumnType.LONG || u == ColumnType.DOUBLE)) {
                t = ColumnType.DOUBLE;
            } else {
                throw new IllegalArgumentException(
                        name + " mixes " + typeName(t) + " and " + typeName(u) + ": " + a.text());
            }
        }
        return t;
    }

    static String typeName(ColumnType t) {
        return t == null
                ? "a condition"
                : switch (t) {
                    case STRING -> "text";
                    case DATE -> "a date";
                    case TIMESTAMP -> "a timestamp";
                    case DOUBLE -> "a DOUBLE";
                    case INT, LONG -> "an integer";
                    case DECIMAL -> "a DECIMAL";
                    case BOOLEAN -> "a boolean";
                };
    }
}
