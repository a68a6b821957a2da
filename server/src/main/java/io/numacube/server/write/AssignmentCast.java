package io.numacube.server.write;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.server.query.ClientError;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * PostgreSQL's assignment cast of an INSERT value into its column, where the value's kind decides it before its text is
 * read as the column's type ({@link LiteralSource#check} then refuses what that reading would store wrongly). A bare
 * number is an exact numeric, as PostgreSQL types {@code 1.5} and {@code 1e3}: into an integer column it is rounded
 * half away from zero ({@code 1.5} is 2, {@code -2.5} is -3; beyond BIGINT 22003), into a text column it is written as
 * PostgreSQL's {@code numeric} writes it ({@code 1e3} is {@code 1000}, {@code 007} is {@code 7}, {@code -0.0} is
 * {@code 0.0}), into a DOUBLE its zero has no sign. A value whose type has no assignment cast to the column's (a number
 * or a DATE into a BOOLEAN, TRUE into a number, a number into a DATE) is 42804, as PostgreSQL refuses it, while a
 * quoted string is read as the column's type whatever it holds. UPDATE's SET applies the same rules
 * ({@code io.numacube.engine.sql.UpdateStatement}). Stateless.
 */
final class AssignmentCast {

    /** The most digits before the point PostgreSQL's numeric holds. */
    private static final int MAX_NUMERIC_DIGITS = 131_072;

    private static final Pattern NUMERIC_TYPE = Pattern.compile(
            "(?:numeric|decimal|int|integer|int2|int4|int8|smallint|bigint|long|real|float|float4|float8|double"
                    + "(?: precision)?)(?:\\s*\\(.*)?");

    private AssignmentCast() {}

    /**
     * The text to store for a value written as {@code source} ({@link InsertStatement#sources}) into {@code column}.
     *
     * @throws io.numacube.numa.base.NumacubeException 42804 for a value of a type the column takes by no assignment
     *     cast, 22003 for a number beyond an integer column's range
     */
    static String assigned(String source, String text, ColumnSpec column) {
        if (source == null || text == null) {
            return text;
        }
        String[] casts = source.split(Pattern.quote(LiteralSource.SEPARATOR));
        String kind = source.equals(LiteralSource.NUMBER) && text.matches("-?[0-9]+")
                ? "integer"
                : kind(casts[casts.length - 1]);
        if (!takes(column, kind)) {
            throw ClientError.of(
                            "42804",
                            "column \"" + column.name() + "\" is of type "
                                    + column.typeName().toLowerCase(Locale.ROOT)
                                    + " but expression is of type " + kind
                                    + " — write the value as the column's type, or as a string")
                    .toException();
        }
        if (!source.equals(LiteralSource.NUMBER)) {
            return text;
        }
        BigDecimal exact;
        try {
            exact = new BigDecimal(text);
        } catch (NumberFormatException e) {
            return text;
        }
        if (exact.precision() - exact.scale() > MAX_NUMERIC_DIGITS) {
            throw ClientError.of("22003", "value overflows numeric format: " + text)
                    .toException();
        }
        return switch (column.isDecimal() ? ColumnType.DECIMAL : column.type()) {
            case INT, LONG -> integer(exact, text);
            case STRING -> exact.setScale(Math.max(0, exact.scale())).toPlainString();
            case DOUBLE -> exact.signum() == 0 ? "0" : text;
            default -> text;
        };
    }

    private static String integer(BigDecimal exact, String text) {
        BigDecimal rounded = exact.setScale(0, RoundingMode.HALF_UP);
        if (rounded.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0
                || rounded.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
            throw ClientError.of("22003", "bigint out of range: value=" + text).toException();
        }
        return rounded.toPlainString();
    }

    /** The type of a value whose outermost cast (or form) is {@code cast}: numeric, boolean, date, timestamp or text. */
    private static String kind(String cast) {
        if (cast.equals(LiteralSource.NUMBER) || NUMERIC_TYPE.matcher(cast).matches()) {
            return "numeric";
        }
        if (cast.equals(LiteralSource.BOOLEAN) || cast.equals("boolean") || cast.equals("bool")) {
            return "boolean";
        }
        if (cast.equals("date")) {
            return "date";
        }
        return cast.startsWith("timestamp") ? "timestamp" : "text";
    }

    private static boolean takes(ColumnSpec column, String kind) {
        if (kind.equals("text") || column.type() == ColumnType.STRING) {
            return true;
        }
        return switch (column.type()) {
            case BOOLEAN -> kind.equals("boolean");
            case DATE, TIMESTAMP -> kind.equals("date") || kind.equals("timestamp");
            default -> kind.equals("numeric") || kind.equals("integer");
        };
    }
}
