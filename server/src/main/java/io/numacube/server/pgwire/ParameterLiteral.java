package io.numacube.server.pgwire;

import io.numacube.server.pgwire.types.PgType;
import io.numacube.server.query.ClientError;
import io.numacube.server.query.SqlLiteral;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the SQL literal that stands for a parameter value sent as text in the statement's text. Every value is
 * checked against its declared type and rewritten ({@link SqlLiteral}), so the text a client sends can never become
 * SQL: an integer must be digits, a number a number, a date a date; text becomes a quoted string. A value whose type the client left unspecified is text, except that a trailing UTC offset on a date or
 * timestamp (pgjdbc's {@code setDate} and {@code setTimestamp} add one) is dropped, as PostgreSQL drops it for a
 * {@code timestamp without time zone}. Stateless.
 */
final class ParameterLiteral {

    private static final Pattern INTEGER = Pattern.compile("\\s*[+-]?\\d+\\s*");
    private static final Pattern DECIMAL = Pattern.compile("\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d{1,4})?\\s*");
    private static final Pattern SPECIAL_FLOAT =
            Pattern.compile("\\s*([+-]?)(nan|inf|infinity)\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern DATE_TIME =
            Pattern.compile("\\s*(\\d{4}-\\d{2}-\\d{2})(?:[ T](\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?))?"
                    + "\\s*(Z|[+-]\\d{2}(?::?\\d{2}(?::?\\d{2})?)?)?\\s*");
    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder()
            .appendPattern("H:mm")
            .optionalStart()
            .appendPattern(":ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .toFormatter(Locale.ROOT);

    private ParameterLiteral() {}

    /**
     * The literal for a parameter sent as text.
     *
     * @param oid the type the client declared, or {@link PgType#UNSPECIFIED}
     * @throws PgProtocolException 22P02 (or 22007, 22008, 22003) for a value that does not fit its type, 0A000
     *                             for a type numacube does not take
     */
    static String ofText(int oid, String text) {
        if (oid == PgType.UNSPECIFIED) {
            return unspecified(text);
        }
        PgType type = PgType.byOid(oid).orElseThrow(() -> unsupported(oid));
        return switch (type) {
            case INT2, INT4, INT8, OID -> integer(type, text);
            case FLOAT4, FLOAT8 -> float8(type, text);
            case NUMERIC -> numeric(text);
            case BOOL -> bool(text);
            case DATE -> SqlLiteral.of(dateTime(type, text, false).toLocalDate());
            case TIMESTAMP -> SqlLiteral.of(dateTime(type, text, false));
            case TIMESTAMPTZ -> SqlLiteral.of(dateTime(type, text, true));
            case TEXT, VARCHAR, BPCHAR, NAME, UNKNOWN, CHAR -> SqlLiteral.string(text);
            default -> throw unsupported(oid);
        };
    }

    /**
     * A stand-in value of the declared type, for describing a statement's result before its parameters are bound:
     * one (not zero, which a statement may divide by: {@code k % $1}), false, the empty string, 2000-01-01; for an
     * unspecified type the text {@code '2000-01-01'}, which reads as text, a date and a timestamp (pgjdbc leaves dates
     * and timestamps unspecified).
     */
    static String placeholder(int oid) {
        PgType type = PgType.byOid(oid).orElse(PgType.UNKNOWN);
        return switch (type) {
            case INT2, INT4, INT8, OID, NUMERIC -> "1";
            case FLOAT4, FLOAT8 -> "1E0";
            case BOOL -> "FALSE";
            case DATE -> "DATE '2000-01-01'";
            case TIMESTAMP, TIMESTAMPTZ -> "TIMESTAMP '2000-01-01 00:00:00'";
            case TEXT, VARCHAR, BPCHAR, NAME, CHAR -> "''";
            default -> "'2000-01-01'";
        };
    }

    private static String unspecified(String text) {
        Matcher m = DATE_TIME.matcher(text);
        if (m.matches() && m.group(3) != null) {
            return SqlLiteral.string(m.group(1) + (m.group(2) == null ? "" : " " + m.group(2)));
        }
        return SqlLiteral.string(text);
    }

    private static String integer(PgType type, String text) {
        if (!INTEGER.matcher(text).matches()) {
            throw invalid(type, text);
        }
        long v;
        try {
            v = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw outOfRange(type, text);
        }
        boolean fits = switch (type) {
            case INT2 -> v == (short) v;
            case INT4 -> v == (int) v;
            case OID -> v >= 0 && v <= 0xFFFF_FFFFL;
            default -> true;
        };
        if (!fits) {
            throw outOfRange(type, text);
        }
        return SqlLiteral.of(v);
    }

    private static String float8(PgType type, String text) {
        Matcher special = SPECIAL_FLOAT.matcher(text);
        if (special.matches()) {
            boolean nan = special.group(2).equalsIgnoreCase("nan");
            return nan ? "CAST('NaN' AS DOUBLE)" : "CAST('" + special.group(1) + "Infinity' AS DOUBLE)";
        }
        if (!DECIMAL.matcher(text).matches()) {
            throw invalid(type, text);
        }
        double d = Double.parseDouble(text.strip());
        if (Double.isInfinite(d)) {
            throw outOfRange(type, text);
        }
        return SqlLiteral.of(d);
    }

    private static String numeric(String text) {
        if (SPECIAL_FLOAT.matcher(text).matches()) {
            throw new PgProtocolException(ClientError.NOT_SUPPORTED, "numeric " + text.strip() + " is not supported");
        }
        if (!DECIMAL.matcher(text).matches()) {
            throw invalid(PgType.NUMERIC, text);
        }
        BigDecimal d = new BigDecimal(text.strip());
        if (d.precision() - d.scale() > 1000 || d.scale() > 1000) {
            throw outOfRange(PgType.NUMERIC, text);
        }
        return SqlLiteral.of(d);
    }

    private static String bool(String text) {
        return switch (io.numacube.engine.schema.BooleanText.parse(text)) {
            case 1 -> "TRUE";
            case 0 -> "FALSE";
            default -> throw invalid(PgType.BOOL, text);
        };
    }

    private static LocalDateTime dateTime(PgType type, String text, boolean toUtc) {
        Matcher m = DATE_TIME.matcher(text);
        if (!m.matches()) {
            throw new PgProtocolException(
                    "22007", "invalid input syntax for type " + type.typeName() + ": \"" + text + "\"");
        }
        try {
            LocalDate date = LocalDate.parse(m.group(1));
            LocalDateTime t = m.group(2) == null ? date.atStartOfDay() : atTime(date, m.group(2));
            if (toUtc && m.group(3) != null) {
                ZoneOffset offset = ZoneOffset.of(m.group(3).length() == 3 ? m.group(3) + ":00" : m.group(3));
                t = OffsetDateTime.of(t, offset)
                        .withOffsetSameInstant(ZoneOffset.UTC)
                        .toLocalDateTime();
            }
            return t;
        } catch (java.time.DateTimeException e) {
            throw new PgProtocolException(
                    "22008", "date/time field value out of range: \"" + text + "\" (" + type.typeName() + ")");
        }
    }

    /** {@code date} at {@code time}, where 24:00:00 is the next day's midnight, as PostgreSQL and DuckDB read it. */
    private static LocalDateTime atTime(LocalDate date, String time) {
        java.time.temporal.TemporalAccessor parsed = TIME.parse(time);
        LocalDateTime t = date.atTime(java.time.LocalTime.from(parsed));
        return parsed.query(DateTimeFormatter.parsedExcessDays()).isZero() ? t : t.plusDays(1);
    }

    private static PgProtocolException invalid(PgType type, String text) {
        return new PgProtocolException(
                "22P02", "invalid input syntax for type " + type.typeName() + ": \"" + text + "\"");
    }

    private static PgProtocolException outOfRange(PgType type, String text) {
        return new PgProtocolException(
                "22003", "value \"" + text.strip() + "\" is out of range for type " + type.typeName());
    }

    private static PgProtocolException unsupported(int oid) {
        return new PgProtocolException(
                ClientError.NOT_SUPPORTED,
                "parameters of type oid=" + oid + " are not supported — send it as text, a number, a date or a "
                        + "timestamp");
    }
}
