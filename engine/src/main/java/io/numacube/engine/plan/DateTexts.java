package io.numacube.engine.plan;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Date and timestamp texts in the forms PostgreSQL and DuckDB both read, rewritten to the one form numacube's parsers
 * take ({@code yyyy-mm-dd[ hh:mm:ss[.f]]}): a month, day or hour of one digit ({@code 2024-2-9 3:04}), {@code 24:00:00}
 * (midnight at the end of the day: the next day's 00:00:00) and a zone offset after the time or date ({@code +02},
 * {@code -05:30}, {@code Z}, {@code UTC}), which both ignore for a TIMESTAMP (one without a time zone) and a DATE.
 * Used for SQL literals and casts of text only (CSV and COPY keep their strict form). Stateless; thread-safe.
 */
public final class DateTexts {

    private static final Pattern FORM = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})"
            + "(?:[ T](\\d{1,2}):(\\d{2})(?::(\\d{2})(\\.\\d+)?)?)?"
            + " ?(?:[zZ]|UTC|[+-]\\d{1,2}(?::?\\d{2})?)?");

    private DateTexts() {}

    /**
     * {@code text} (stripped) in the canonical form, or {@code text} itself where it is not of a form above or names
     * no real day (the caller's parser then refuses it with its own message).
     */
    public static String canonical(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            return text;
        }
        LocalDate day;
        try {
            day = LocalDate.of(
                    Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        } catch (DateTimeException e) {
            return text;
        }
        if (m.group(4) == null) {
            return day.toString();
        }
        if (!validTime(m)) {
            return text;
        }
        int hour = Integer.parseInt(m.group(4));
        String minute = m.group(5);
        String second = m.group(6) == null ? "00" : m.group(6);
        String fraction = m.group(7) == null ? "" : m.group(7);
        if (hour == 24) {
            boolean midnight = minute.equals("00") && second.equals("00") && fraction.matches("\\.?0*");
            return midnight ? day.plusDays(1) + " 00:00:00" : text;
        }
        return day + " " + (hour < 10 ? "0" : "") + hour + ":" + minute + ":" + second + fraction;
    }

    /**
     * The day {@code text} names as {@code yyyy-mm-dd} (a timestamp's own day, {@code 24:00} too, as PostgreSQL's
     * {@code ::date}), or {@code text} itself as {@link #canonical} leaves it.
     */
    public static String canonicalDate(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches() || !validTime(m)) {
            return text;
        }
        String c = canonical(m.group(1) + "-" + m.group(2) + "-" + m.group(3));
        return FORM.matcher(c).matches() ? c : text;
    }

    /**
     * Whether the time of {@code m}, if it has one, is a time of day: hours to 24 (24 only as 24:00:00), minutes to
     * 59, seconds to 60 (a leap second, which PostgreSQL reads as the next minute's first).
     */
    private static boolean validTime(Matcher m) {
        if (m.group(4) == null) {
            return true;
        }
        int hour = Integer.parseInt(m.group(4));
        int minute = Integer.parseInt(m.group(5));
        int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
        boolean fractionZero = m.group(7) == null || m.group(7).matches("\\.0*");
        return hour < 24 && minute <= 59 && second <= 60 || hour == 24 && minute == 0 && second == 0 && fractionZero;
    }
}
