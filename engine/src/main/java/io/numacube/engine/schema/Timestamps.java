package io.numacube.engine.schema;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * TIMESTAMP values as DuckDB has them: microseconds since 1970-01-01 00:00:00, no time zone. Parses DuckDB's text
 * forms ({@code 2013-01-01 05:00:00}, {@code T} for the space, {@code 5:00}, seconds optional, up to nine fractional
 * digits (microseconds kept), or a date alone for its midnight) and writes DuckDB's ({@code 2013-01-01 05:00:00}, the fraction only when
 * it is not zero, without trailing zeros: {@code 05:00:00.25}). Years 0001 to 9999. Stateless; thread-safe.
 */
public final class Timestamps {

    /** What {@link #parse} returns for text that is no timestamp (no timestamp of years 1-9999 has this value). */
    public static final long INVALID = Long.MIN_VALUE;

    /** Microseconds in a day. */
    public static final long MICROS_PER_DAY = 86_400_000_000L;

    /** 0001-01-01 00:00:00 and 9999-12-31 23:59:59.999999, the first and last TIMESTAMP. */
    private static final long FIRST = LocalDate.of(1, 1, 1).toEpochDay() * MICROS_PER_DAY;

    private static final long LAST = (LocalDate.of(9999, 12, 31).toEpochDay() + 1) * MICROS_PER_DAY - 1;

    private Timestamps() {}

    /**
     * Whether a DATE of {@code epochDay} lies in years 0001 to 9999, the DATEs numacube holds (those are the years
     * DuckDB writes as {@code yyyy-MM-dd}; it writes a year before 1 as {@code 0002-01-01 (BC)}, which numacube
     * does not).
     */
    public static boolean dayInRange(long epochDay) {
        return epochDay >= Math.floorDiv(FIRST, MICROS_PER_DAY) && epochDay <= Math.floorDiv(LAST, MICROS_PER_DAY);
    }

    /** Whether {@code micros} since 1970 lies in 0001-01-01 00:00:00..9999-12-31 23:59:59.999999, the TIMESTAMPs held. */
    public static boolean inRange(long micros) {
        return micros >= FIRST && micros <= LAST;
    }

    /** {@code text} (no surrounding blanks) as microseconds, or {@link #INVALID}. */
    public static long parse(String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        return parse(b, 0, b.length);
    }

    /**
     * The bytes {@code b[from, to)} as microseconds, or {@link #INVALID}: {@code yyyy-MM-dd}, optionally followed by
     * {@code ' '} or {@code 'T'}, {@code H[H]:mm}, optionally {@code :ss} and then {@code .f} of 1 to 9 digits (those past the sixth dropped, as DuckDB does).
     */
    public static long parse(byte[] b, int from, int to) {
        if (to - from < 10 || b[from + 4] != '-' || b[from + 7] != '-') {
            return INVALID;
        }
        int year = digits(b, from, 4);
        int month = digits(b, from + 5, 2);
        int day = digits(b, from + 8, 2);
        if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
            return INVALID;
        }
        long micros = epochDay(year, month, day) * MICROS_PER_DAY;
        int i = from + 10;
        if (i == to) {
            return micros;
        }
        if (b[i] != ' ' && b[i] != 'T') {
            return INVALID;
        }
        i++;
        int hourDigits = i + 1 < to && b[i + 1] == ':' ? 1 : 2;
        int hour = i + hourDigits <= to ? digits(b, i, hourDigits) : -1;
        i += hourDigits;
        if (hour < 0 || hour > 23 || i + 3 > to || b[i] != ':') {
            return INVALID;
        }
        int minute = digits(b, i + 1, 2);
        i += 3;
        int second = 0;
        if (i < to) {
            second = i + 3 <= to && b[i] == ':' ? digits(b, i + 1, 2) : -1;
            i += 3;
        }
        if (minute < 0 || minute > 59 || second < 0 || second > 59) {
            return INVALID;
        }
        long fraction = 0;
        if (i < to) {
            int n = to - i - 1;
            if (b[i] != '.' || n < 1 || n > 9) {
                return INVALID;
            }
            int f = digits(b, i + 1, n);
            if (f < 0) {
                return INVALID;
            }
            // DuckDB keeps microseconds: digits past the sixth are dropped, not rounded
            fraction = n <= 6 ? f * POW10[6 - n] : f / POW10[n - 6];
        }
        return micros + ((hour * 60L + minute) * 60 + second) * 1_000_000L + fraction;
    }

    private static final int[] POW10 = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

    /** The days of {@code month} (1-12) of {@code year}, proleptic Gregorian. */
    public static int daysInMonth(int year, int month) {
        boolean leap = (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
        return switch (month) {
            case 2 -> leap ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days from 1970-01-01 of a valid day (proleptic Gregorian, as {@link LocalDate#toEpochDay()}), without allocating. */
    public static long epochDay(int year, int month, int day) {
        long y = year;
        long total = 365 * y + (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400 + (367L * month - 362) / 12 + day - 1;
        if (month > 2) {
            total -= daysInMonth(year, 2) == 29 ? 1 : 2;
        }
        return total - 719_528;
    }

    /** The decimal number of {@code b[from, from + count)}, or -1 when one of those bytes is not a digit. */
    public static int digits(byte[] b, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** DuckDB's text of a timestamp: {@code yyyy-MM-dd HH:mm:ss}, then {@code .} and the fraction without trailing 0s. */
    /**
     * {@code micros} plus {@code months} calendar months (the day kept, clamped to the month's last, as DuckDB adds a
     * month interval) and then {@code plus} microseconds.
     */
    public static long addInterval(long micros, long months, long plus) {
        long day = Math.floorDiv(micros, MICROS_PER_DAY);
        long inDay = Math.floorMod(micros, MICROS_PER_DAY);
        try {
            if (months != 0) {
                java.time.LocalDate d = java.time.LocalDate.ofEpochDay(day).plusMonths(months);
                day = d.toEpochDay();
            }
            long sum = Math.addExact(Math.addExact(Math.multiplyExact(day, MICROS_PER_DAY), inDay), plus);
            if (sum < FIRST || sum > LAST) {
                throw new ArithmeticException();
            }
            return sum;
        } catch (ArithmeticException | java.time.DateTimeException e) {
            throw new io.numacube.numa.base.NumacubeException(
                    io.numacube.numa.base.NumacubeException.Kind.INVALID_INPUT,
                    "22008",
                    "date or timestamp out of range (years 0001 to 9999): " + format(micros) + " plus " + months
                            + " months and " + plus + " microseconds",
                    null,
                    null);
        }
    }

    public static String format(long micros) {
        long day = Math.floorDiv(micros, MICROS_PER_DAY);
        long inDay = Math.floorMod(micros, MICROS_PER_DAY);
        StringBuilder sb =
                new StringBuilder(26).append(LocalDate.ofEpochDay(day)).append(' ');
        long seconds = inDay / 1_000_000;
        two(sb, seconds / 3600).append(':');
        two(sb, seconds / 60 % 60).append(':');
        two(sb, seconds % 60);
        long fraction = inDay % 1_000_000;
        if (fraction != 0) {
            String f = String.valueOf(1_000_000 + fraction).substring(1);
            int end = f.length();
            while (f.charAt(end - 1) == '0') {
                end--;
            }
            sb.append('.').append(f, 0, end);
        }
        return sb.toString();
    }

    private static StringBuilder two(StringBuilder sb, long v) {
        return sb.append(v < 10 ? "0" : "").append(v);
    }

    /** The timestamp as a {@link LocalDateTime}. */
    public static LocalDateTime toLocalDateTime(long micros) {
        return LocalDateTime.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L), (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
    }

    /** The microseconds of a {@link LocalDateTime} (its nanoseconds truncated to microseconds). */
    public static long ofLocalDateTime(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1000;
    }

    /** The day of a timestamp, as days since 1970-01-01 (DuckDB's CAST to DATE). */
    public static long epochDay(long micros) {
        return Math.floorDiv(micros, MICROS_PER_DAY);
    }
}
