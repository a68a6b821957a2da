package io.numacube.server.pgwire;

import io.numacube.server.query.ClientError;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code TimeZone} setting read as PostgreSQL 15 reads it, in this order:
 *
 * <ol>
 *   <li>a name of the time zone database, in any case ({@code us/eastern} is kept as {@code US/Eastern}, and {@code
 *       EST5EDT} is one);
 *   <li>a number, hours EAST of Greenwich ({@code SET TIME ZONE 2}, {@code '-3.5'}), kept as the POSIX
 *       specification PostgreSQL makes of it: {@code <+02>-02}, {@code <-03:30>+03:30};
 *   <li>a POSIX specification ({@link PosixZone}): a name ({@code UTC}, {@code FOO}, none, or {@code <+02>}) and an
 *       offset {@code [+-]hh[:mm[:ss]]} WEST of Greenwich, the reverse of ISO's sign: {@code UTC+2} and {@code
 *       '+02:00'} are two hours behind UTC, {@code <+02>-02} two ahead; with daylight-saving rules ({@code
 *       CET-1CEST,M3.5.0,M10.5.0/3}, {@code EST5EDT4}); kept in upper case as PostgreSQL shows it.
 * </ol>
 *
 * <p>{@code SET TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE} is hours east, as a number ({@link #ofInterval}). What
 * {@link PosixZone} does not read and anything else are kept as written: the clock is refused under them ({@link
 * #zone} is empty). Stateless.
 */
final class TimeZoneSetting {

    private static final Map<String, String> ZONES = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    /**
     * The database's zones without daylight saving that Java does not list ({@code EST}, {@code MST}, {@code HST}: five,
     * seven and ten hours west all year, as now in PostgreSQL 15).
     */
    private static final Map<String, String> FIXED = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    static {
        ZoneId.getAvailableZoneIds().forEach(id -> ZONES.put(id, id));
        Map.of("EST", "-05:00", "MST", "-07:00", "HST", "-10:00").forEach((id, offset) -> {
            if (!ZONES.containsKey(id)) {
                FIXED.put(id, offset);
            }
        });
    }

    /** What C's strtod reads whole, as PostgreSQL tries a TimeZone first (hex and infinities aside). */
    private static final Pattern NUMBER = Pattern.compile("\\s*[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");

    /** A POSIX name ({@code <...>} or characters other than digits, comma, plus and minus), then an offset, then any. */
    private static final Pattern POSIX = Pattern.compile(
            "(<[^>]*>|[^0-9,+\\-<]*)([+-]?)(\\d{1,3})(?::(\\d{1,2}))?(?::(\\d{1,2}))?(.*)", Pattern.DOTALL);

    /** An INTERVAL's text as SET TIME ZONE takes it: {@code [+-]h[:mm[:ss]]}, or hours and minutes in words. */
    private static final Pattern CLOCK = Pattern.compile("\\s*([+-]?)(\\d+)(?::(\\d+))?(?::(\\d+))?\\s*");

    private static final Pattern WORDS = Pattern.compile(
            "\\s*(?:([+-]?\\d+)\\s*(?:hours?|h))?\\s*(?:([+-]?\\d+)\\s*(?:minutes?|mins?|m))?\\s*",
            Pattern.CASE_INSENSITIVE);

    private TimeZoneSetting() {}

    /**
     * The setting PostgreSQL keeps and SHOW prints for {@code value}: a database name in its own case, a number as
     * {@code <+hh[:mm]>-hh[:mm]}, a POSIX specification in upper case, anything else as written.
     */
    static String canonical(String value) {
        String id = ZONES.get(value.strip());
        if (id != null) {
            return id;
        }
        if (FIXED.containsKey(value.strip())) {
            return value.strip().toUpperCase(Locale.ROOT);
        }
        if (NUMBER.matcher(value).matches()) {
            BigDecimal hours = new BigDecimal(value.strip());
            return hours.abs().compareTo(BigDecimal.valueOf(1000)) > 0
                    ? value
                    : ofSecondsEast(hours.multiply(BigDecimal.valueOf(3600)).longValue());
        }
        return POSIX.matcher(value).matches() ? value.toUpperCase(Locale.ROOT) : value;
    }

    /** The rules of the zone {@code setting} ({@link #canonical}) names, or empty for one that is not read. */
    static Optional<ZoneRules> zone(String setting) {
        String id = ZONES.get(setting.strip());
        if (id != null) {
            return Optional.of(ZoneId.of(id).getRules());
        }
        if (FIXED.containsKey(setting.strip())) {
            return Optional.of(ZoneId.of(FIXED.get(setting.strip())).getRules());
        }
        return PosixZone.rules(setting);
    }

    /**
     * The setting {@code SET TIME ZONE INTERVAL 'text' [HOUR [TO MINUTE]]} makes: the interval is hours east of
     * Greenwich, kept as {@code <+02>-02} as PostgreSQL keeps it.
     *
     * @throws PgProtocolException 22023 for an interval with days (PostgreSQL's refusal), 0A000 for a form not read
     */
    static String ofInterval(String text) {
        if (text.toLowerCase(Locale.ROOT).matches(".*\\d\\s*(days?|d|mons?|months?|years?|y)\\b.*")) {
            throw new PgProtocolException(
                    "22023",
                    "invalid value for parameter \"TimeZone\": \"INTERVAL '" + text + "'\" — cannot specify days"
                            + " (or months) in time zone interval");
        }
        Matcher c = CLOCK.matcher(text);
        if (c.matches()) {
            long seconds = Long.parseLong(c.group(2)) * 3600
                    + (c.group(3) == null ? 0 : Long.parseLong(c.group(3)) * 60)
                    + (c.group(4) == null ? 0 : Long.parseLong(c.group(4)));
            return ofSecondsEast(c.group(1).equals("-") ? -seconds : seconds);
        }
        Matcher w = WORDS.matcher(text);
        if (w.matches() && (w.group(1) != null || w.group(2) != null)) {
            long hours = w.group(1) == null ? 0 : Long.parseLong(w.group(1));
            long minutes = w.group(2) == null ? 0 : Long.parseLong(w.group(2));
            return ofSecondsEast(hours * 3600 + minutes * 60);
        }
        throw new PgProtocolException(
                ClientError.NOT_SUPPORTED,
                "SET TIME ZONE INTERVAL '" + text + "': numacube reads an interval of hours and minutes only"
                        + " ('+02:00', '-05:30', '2 hours') — or write the hours east: SET TIME ZONE 2");
    }

    /** PostgreSQL's {@code pg_tzset_offset}: {@code <+02>-02} for two hours east, {@code <-03:30>+03:30} west. */
    private static String ofSecondsEast(long east) {
        long abs = Math.abs(east);
        StringBuilder offset = new StringBuilder(String.format(Locale.ROOT, "%02d", abs / 3600));
        if (abs % 3600 != 0) {
            offset.append(String.format(Locale.ROOT, ":%02d", abs / 60 % 60));
            if (abs % 60 != 0) {
                offset.append(String.format(Locale.ROOT, ":%02d", abs % 60));
            }
        }
        return east < 0 ? "<-" + offset + ">+" + offset : "<+" + offset + ">-" + offset;
    }
}
