package io.numacube.engine.plan;

import io.numacube.engine.schema.ColumnType;
import io.numacube.engine.schema.Timestamps;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The date functions of a TIMESTAMP argument (microseconds since 1970-01-01 00:00:00), with DuckDB's semantics: the
 * date parts of its day, {@code hour minute second millisecond microsecond epoch}, {@code date_trunc} to a TIMESTAMP
 * (of a DATE too, as DuckDB), {@code strftime}, and the casts between TIMESTAMP, DATE and text. Stateless.
 */
final class TimestampFunctions {

    /** The parts of the time of day (and {@code epoch}), which only a TIMESTAMP has. */
    static final Set<String> TIME_PARTS = Set.of("hour", "minute", "second", "millisecond", "microsecond", "epoch");

    private TimestampFunctions() {}

    /** A part of a timestamp: {@code epoch} as a Double of seconds, the others as Long. */
    static Object part(String part, long micros) {
        long inDay = Math.floorMod(micros, Timestamps.MICROS_PER_DAY);
        return switch (part) {
            case "hour" -> inDay / 3_600_000_000L;
            case "minute" -> inDay / 60_000_000L % 60;
            case "second" -> inDay / 1_000_000L % 60;
            case "millisecond" -> inDay / 1_000L % 60_000;
            case "microsecond" -> inDay % 60_000_000L;
            case "epoch" -> micros / 1e6;
            default -> ScalarFunctions.dayPart(part, LocalDate.ofEpochDay(Timestamps.epochDay(micros)));
        };
    }

    /** The type of {@code date_part(part, ts)}: DOUBLE for {@code epoch}, else BIGINT. */
    static ColumnType partType(String part) {
        return part.equals("epoch") ? ColumnType.DOUBLE : ColumnType.LONG;
    }

    /** {@code date_trunc(part, ts)}: the timestamp at the start of its year, quarter, ..., second. */
    static long truncate(String part, long micros) {
        LocalDateTime t = Timestamps.toLocalDateTime(micros);
        LocalDateTime r = switch (part.toLowerCase(Locale.ROOT)) {
            case "year" -> t.toLocalDate().withDayOfYear(1).atStartOfDay();
            case "quarter" ->
                LocalDate.of(t.getYear(), (t.getMonthValue() - 1) / 3 * 3 + 1, 1)
                        .atStartOfDay();
            case "month" -> t.toLocalDate().withDayOfMonth(1).atStartOfDay();
            case "week" -> t.toLocalDate().with(DayOfWeek.MONDAY).atStartOfDay();
            case "day" -> t.truncatedTo(ChronoUnit.DAYS);
            case "hour" -> t.truncatedTo(ChronoUnit.HOURS);
            case "minute" -> t.truncatedTo(ChronoUnit.MINUTES);
            case "second" -> t.truncatedTo(ChronoUnit.SECONDS);
            default -> throw unknownTruncPart(part);
        };
        return Timestamps.ofLocalDateTime(r);
    }

    static IllegalArgumentException unknownTruncPart(String part) {
        return new IllegalArgumentException(
                "unknown date_trunc part '" + part + "' (year, quarter, month, week, day, hour, minute, second)");
    }

    /** {@code CAST(x AS TIMESTAMP)} of a DATE (epoch day, {@code fromDate}), text or a TIMESTAMP. */
    static Object cast(Object v, boolean fromDate) {
        if (v instanceof Long l) {
            return fromDate ? l * Timestamps.MICROS_PER_DAY : l;
        }
        String s = DateTexts.canonical(((String) v).strip()).strip();
        long micros = Timestamps.parse(s);
        if (micros == Timestamps.INVALID) {
            throw new io.numacube.numa.base.NumacubeException(
                    io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                    "22007",
                    "could not convert '" + v + "' to TIMESTAMP (yyyy-mm-dd hh:mm:ss[.ffffff])",
                    null,
                    null);
        }
        return micros;
    }

    /**
     * DuckDB's {@code strftime(ts, format)}: {@code %Y %y %m %d %H %I %M %S %p %f %j %a %A %b %B %%}; another
     * specifier, or a lone {@code %} at the end, is an {@link IllegalArgumentException} (the binder checks the format
     * literal first).
     */
    static String strftime(long micros, String format) {
        LocalDateTime t = Timestamps.toLocalDateTime(micros);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%') {
                sb.append(c);
                continue;
            }
            if (i + 1 == format.length()) {
                // DuckDB refuses it ("Trailing format character %"); it was printed as a literal %
                throw new IllegalArgumentException(
                        "a strftime format must not end with a lone % (write %% for a percent sign): '" + format + "'");
            }
            char f = format.charAt(++i);
            switch (f) {
                case 'Y' -> pad(sb, t.getYear(), 4);
                case 'y' -> pad(sb, t.getYear() % 100, 2);
                case 'm' -> pad(sb, t.getMonthValue(), 2);
                case 'd' -> pad(sb, t.getDayOfMonth(), 2);
                case 'H' -> pad(sb, t.getHour(), 2);
                case 'I' -> pad(sb, (t.getHour() + 11) % 12 + 1, 2);
                case 'M' -> pad(sb, t.getMinute(), 2);
                case 'S' -> pad(sb, t.getSecond(), 2);
                case 'p' -> sb.append(t.getHour() < 12 ? "AM" : "PM");
                case 'f' -> pad(sb, t.getNano() / 1000, 6);
                case 'j' -> pad(sb, t.getDayOfYear(), 3);
                case 'a' -> sb.append(ScalarFunctions.dayName(t.getDayOfWeek()), 0, 3);
                case 'A' -> sb.append(ScalarFunctions.dayName(t.getDayOfWeek()));
                case 'b' -> sb.append(ScalarFunctions.monthName(t.getMonthValue()), 0, 3);
                case 'B' -> sb.append(ScalarFunctions.monthName(t.getMonthValue()));
                case '%' -> sb.append('%');
                default ->
                    throw new IllegalArgumentException("unsupported strftime specifier %" + f
                            + " (supported: %Y %y %m %d %H %I %M %S %p %f %j %a %A %b %B %%)");
            }
        }
        return sb.toString();
    }

    private static void pad(StringBuilder sb, long v, int width) {
        String s = String.valueOf(v);
        sb.append("0".repeat(Math.max(0, width - s.length()))).append(s);
    }

    /** Whether argument {@code i} of {@code args} is a TIMESTAMP. */
    static boolean timestampAt(List<Expr> args, int i) {
        return args.size() > i && args.get(i).type() == ColumnType.TIMESTAMP;
    }
}
