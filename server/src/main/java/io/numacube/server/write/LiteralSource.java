package io.numacube.server.write;

import io.numacube.engine.schema.ColumnSpec;
import io.numacube.engine.schema.ColumnType;
import io.numacube.server.query.ClientError;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an INSERT value was written, checked against its column before the value's text is read as the column's type.
 * The text is read as a CSV field is, so a value is taken only where that reading gives what DuckDB stores: a cast (or
 * typed string) only to the column's own type (a DECIMAL of its scale and at least its precision), since a cast to
 * another type would change the value first ({@code CAST(1.26 AS DECIMAL(4,1))} is 1.3, {@code CAST('2024-01-01
 * 10:00' AS DATE)} midnight); a bare number into a text column only in the form DuckDB writes it back ({@code 42},
 * {@code 1.50}, not {@code 1e3}, {@code 007} or {@code -0.0}). Anything else is refused with 0A000. Stateless.
 */
final class LiteralSource {

    /** A bare number's source. */
    static final String NUMBER = "#number";

    /** A TRUE or FALSE keyword's source. */
    static final String BOOLEAN = "#boolean";

    /** Between the cast types of one value. */
    static final String SEPARATOR = "|";

    private static final Pattern DECIMAL =
            Pattern.compile("(?:decimal|numeric)\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");
    private static final Pattern PLAIN_NUMBER = Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?");

    private static final Pattern DAY = Pattern.compile("\\s*\\d{4}-\\d{2}-\\d{2}\\s*");
    private static final Pattern INTEGER = Pattern.compile("\\s*[-+]?\\d{1,10}\\s*");

    private LiteralSource() {}

    private static boolean isInt(String text) {
        if (!INTEGER.matcher(text).matches()) {
            return false;
        }
        long v = Long.parseLong(text.strip().replace("+", ""));
        return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
    }

    /** {@code source} cast to {@code type} as well. */
    static String castTo(String source, String type) {
        String t = type.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return source == null ? t : source + SEPARATOR + t;
    }

    /**
     * Refuses a value whose text, read as {@code column}'s type, would not be what DuckDB stores.
     *
     * @throws io.numacube.numa.base.NumacubeException 0A000 naming the column and the value's form
     */
    static void check(String source, String text, ColumnSpec column) {
        if (source == null || text == null) {
            return;
        }
        if (source.equals(NUMBER)) {
            if (column.type() == ColumnType.STRING && !isPlainNumber(text)) {
                throw refused(
                        column, "the number " + text + " into a text column (write it as a string: '" + text + "')");
            }
            return;
        }
        String[] casts = source.split(Pattern.quote(SEPARATOR));
        if (casts[0].equals(NUMBER) && column.type() == ColumnType.STRING) {
            throw refused(column, "a number cast to text (write it as a string)");
        }
        for (int i = casts[0].startsWith("#") ? 1 : 0; i < casts.length; i++) {
            if (!readsAlike(casts[i], text, column)) {
                throw refused(
                        column,
                        "a cast to " + casts[i].toUpperCase(Locale.ROOT) + " into a column of type "
                                + column.typeName().toUpperCase(Locale.ROOT)
                                + " (write the value as the column's type)");
            }
        }
    }

    private static boolean isPlainNumber(String text) {
        return PLAIN_NUMBER.matcher(text).matches() && !(text.startsWith("-") && text.matches("-[0.]+"));
    }

    /**
     * Whether {@code text} cast to {@code cast} and then to the column's type is the text read as that type: a cast to
     * its own type; an unconstrained NUMERIC (exact, as in PostgreSQL) into a DECIMAL or DOUBLE; an INTEGER whose text
     * is in its range into a BIGINT; a DATE without a time of day into a TIMESTAMP (midnight).
     */
    private static boolean readsAlike(String cast, String text, ColumnSpec column) {
        boolean unconstrained = cast.equals("numeric") || cast.equals("decimal");
        if (column.isDecimal()) {
            Matcher m = DECIMAL.matcher(cast);
            return unconstrained
                    || m.matches()
                            && Integer.parseInt(m.group(2)) == column.scale()
                            && Integer.parseInt(m.group(1)) >= column.precision();
        }
        String base = cast.replaceAll("\\s*\\(.*$", "");
        return switch (column.type()) {
            case STRING -> base.equals("varchar") || base.equals("text") || base.equals("string");
            case INT, LONG ->
                base.equals("bigint")
                        || base.equals("int8")
                        || base.equals("long")
                        || (base.equals("integer") || base.equals("int") || base.equals("int4")) && isInt(text);
            case DOUBLE ->
                base.equals("double") || base.equals("float8") || base.equals("double precision") || unconstrained;
            case DATE -> base.equals("date");
            case TIMESTAMP ->
                base.equals("timestamp")
                        || base.equals("date") && DAY.matcher(text).matches();
            case BOOLEAN -> base.equals("boolean") || base.equals("bool");
            default -> false;
        };
    }

    private static io.numacube.numa.base.NumacubeException refused(ColumnSpec column, String what) {
        return ClientError.of(ClientError.NOT_SUPPORTED, "INSERT cannot take " + what + ": column " + column.name())
                .toException();
    }
}
