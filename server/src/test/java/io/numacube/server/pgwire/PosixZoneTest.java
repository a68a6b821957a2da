package io.numacube.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * POSIX TimeZone specifications give PostgreSQL 15's offsets: each expected offset is PostgreSQL 15.18's {@code SELECT
 * extract(timezone from 'INSTANT'::timestamptz)} under {@code SET TIME ZONE 'SPEC'}, at instants around the
 * transitions of the rules (the last day of March and October, the second Sunday of March and the first of November,
 * a southern hemisphere's October and April).
 */
class PosixZoneTest {

    private static final String[] INSTANTS = {
        "2026-01-15T12:00:00Z", "2026-03-08T06:59:59Z", "2026-03-08T07:00:00Z", "2026-03-29T00:59:59Z",
        "2026-03-29T01:00:00Z", "2026-04-04T15:59:59Z", "2026-04-04T16:00:00Z", "2026-07-01T12:00:00Z",
        "2026-10-03T15:59:59Z", "2026-10-03T16:00:00Z", "2026-10-25T00:59:59Z", "2026-10-25T01:00:00Z",
        "2026-11-01T05:59:59Z", "2026-11-01T06:00:00Z", "2027-03-14T08:00:00Z", "2030-07-01T00:00:00Z"
    };

    /** Each specification and PostgreSQL's offset (seconds east) at each of {@link #INSTANTS}. */
    private static final Object[][] POSTGRES = {
        {"CET-1CEST,M3.5.0,M10.5.0/3", "3600 3600 3600 3600 7200 7200 7200 7200 7200 7200 7200 3600 3600 3600 3600 7200"
        },
        {
            "EST5EDT4",
            "-18000 -18000 -14400 -14400 -14400 -14400 -14400 -14400 -14400 -14400 -14400 -14400 -14400 -18000"
                    + " -14400 -14400"
        },
        {
            "FOO+3BAR",
            "-10800 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -10800 -10800 -7200" + " -7200"
        },
        {
            "<+11>-11<+12>,M10.1.0,M4.1.0/3",
            "43200 43200 43200 43200 43200 39600 39600 39600 43200 43200 43200 43200" + " 43200 43200 43200 39600"
        },
        {
            "AAA3BBB,M3.2.0/0,M11.1.0/24",
            "-10800 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200" + " -7200 -7200 -7200 -7200"
        },
        {
            "UTC+2.5",
            "-7200 -18000 -18000 -18000 -18000 -18000 -18000 -18000 -18000 -18000 -18000 -18000 -18000 -18000"
                    + " -18000 -18000"
        },
        {
            "XX-5:30YY-6:30,M4.1.6/1:30,M9.5.5/23:59:59",
            "19800 19800 19800 19800 19800 23400 23400 23400 19800 19800" + " 19800 19800 19800 19800 19800 23400"
        },
        {"UTC+2", "-7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200 -7200"},
        {
            "<+05:30>-05:30",
            "19800 19800 19800 19800 19800 19800 19800 19800 19800 19800 19800 19800 19800 19800 19800" + " 19800"
        },
    };

    @Test
    void daylightSavingRulesGivePostgresOffsets() {
        List<String> wrong = new ArrayList<>();
        for (Object[] k : POSTGRES) {
            String spec = (String) k[0];
            ZoneRules rules = PosixZone.rules(spec).orElseThrow(() -> new AssertionError(spec + " not read"));
            String[] want = ((String) k[1]).split(" ");
            for (int i = 0; i < INSTANTS.length; i++) {
                int got = rules.getOffset(Instant.parse(INSTANTS[i])).getTotalSeconds();
                if (got != Integer.parseInt(want[i])) {
                    wrong.add(spec + " at " + INSTANTS[i] + ": " + got + ", PostgreSQL " + want[i]);
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** Rules in forms PostgreSQL reads and numacube does not (Julian days, negative times) are not read at all. */
    @Test
    void rulesInOtherFormsAreNotRead() {
        for (String spec : List.of(
                "EST5EDT,J60,J300",
                "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1",
                "UTC+2:00:45",
                "UTC+19",
                "XYZ",
                "CET-1CEST,M3.5.0,M3.5.6")) {
            assertTrue(PosixZone.rules(spec).isEmpty(), spec);
        }
    }

    /** The clock under such a setting is the instant with PostgreSQL's offset, as now() sends it. */
    @Test
    void theClockReadsTheRulesOffset() {
        Instant summer = Instant.parse("2026-07-01T12:00:00Z");
        assertEquals(
                OffsetDateTime.parse("2026-07-01T14:00:00+02:00"),
                TransactionClock.zoned(summer, TimeZoneSetting.canonical("cet-1cest,m3.5.0,m10.5.0/3")));
    }
}
