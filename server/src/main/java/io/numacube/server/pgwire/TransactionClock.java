package io.numacube.server.pgwire;

import io.numacube.server.query.ClientError;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The instants a session's clock functions read and the wall clock they are in its {@code TimeZone}: PostgreSQL's
 * {@code now()} is the instant its transaction began, shown in the session's zone, so {@code CAST(now() AS
 * TIMESTAMP)}, {@code localtimestamp} and {@code current_date} are that zone's wall clock and date. The zone is read
 * as PostgreSQL reads it ({@link TimeZoneSetting}: a time zone database name, hours east, or a POSIX {@code UTC+2},
 * two hours west, with daylight-saving rules); a statement reading the clock under a setting that is not read is
 * refused rather than answered in another zone. Stateless.
 */
final class TransactionClock {

    private TransactionClock() {}

    /** The system clock now, to the microsecond, as PostgreSQL keeps its timestamps. */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /** The zone a {@code TimeZone} setting names, or empty for one numacube does not read. */
    static Optional<java.time.zone.ZoneRules> zone(String setting) {
        return TimeZoneSetting.zone(setting);
    }

    /**
     * {@code instant} in the zone {@code setting} names: its wall clock there, with the zone's offset then.
     *
     * @throws PgProtocolException 0A000 for a setting {@link #zone} does not read
     */
    static OffsetDateTime zoned(Instant instant, String setting) {
        java.time.zone.ZoneRules rules = zone(setting)
                .orElseThrow(() -> new PgProtocolException(
                        ClientError.NOT_SUPPORTED,
                        "the clock functions (now(), current_date, localtimestamp, ...) read the session's TimeZone, "
                                + "and numacube reads the time zone database's names, hours east (SET TIME ZONE 2) "
                                + "and POSIX specifications (UTC+2, CET-1CEST,M3.5.0,M10.5.0/3) there, not a rule "
                                + "in another form (Jn, n), an offset with seconds or beyond 18 hours: TimeZone="
                                + setting + " — SET TimeZone = 'UTC' (or a name such as 'Europe/Berlin')"));
        return OffsetDateTime.ofInstant(instant, rules.getOffset(instant));
    }

    /**
     * The TimeZone a session starts with: the JVM's zone ({@code TZ}, {@code -Duser.timezone}), as PostgreSQL's
     * default is the server's, when it is a name {@link #zone} reads; else UTC.
     */
    static String defaultSetting() {
        String id = ZoneId.systemDefault().getId();
        return zone(id).isPresent() ? TimeZoneSetting.canonical(id) : "UTC";
    }
}
