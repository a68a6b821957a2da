package io.numacube.server.pgwire;

import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.Month;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransitionRule;
import java.time.zone.ZoneOffsetTransitionRule.TimeDefinition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A POSIX time zone specification as PostgreSQL 15 reads it: {@code STD offset [DST [offset] [,start[/time],end[/time]]]}.
 * A name is {@code <...>} or a run of characters other than digits, comma, plus and minus (PostgreSQL allows it empty
 * or short); an offset is {@code [+-]hh[:mm[:ss]]} WEST of Greenwich ({@code UTC+2} is two hours behind UTC); the
 * daylight-saving offset defaults to an hour ahead of standard time, and the rules to PostgreSQL's US ones ({@code
 * M3.2.0,M11.1.0}); a rule is {@code Mm.w.d} (week 5 the last), at {@code /time} local time, 02:00 by default.
 *
 * <p>Read into {@link ZoneRules} only where they give PostgreSQL's offset: offsets within ±18 hours in whole minutes
 * (PostgreSQL refuses seconds, "leap seconds"), rules in {@code Mm.w.d} form at a time from 00:00 to 24:00, in two
 * different months; else empty (the clock is refused under it). The rules hold from 1900 on. Stateless.
 */
final class PosixZone {

    private static final String NAME = "(<[^>]*>|[^0-9,+\\-<]*)";
    private static final String OFFSET = "([+-]?\\d{1,3}(?::\\d{1,2}){0,2})";
    private static final String RULE = "M(\\d{1,2})\\.(\\d)\\.(\\d)(?:/" + OFFSET + ")?";
    private static final Pattern SPEC = Pattern.compile(
            NAME + OFFSET + "(?:" + NAME + OFFSET + "?(?:," + RULE + "," + RULE + ")?)?", Pattern.DOTALL);

    /** PostgreSQL's rules when a specification names a daylight-saving zone without them. */
    private static final String DEFAULT_RULES = "M3.2.0,M11.1.0";

    private static final int MAX_SECONDS = 18 * 3600;

    private PosixZone() {}

    /** The rules of {@code spec}, or empty when it is not one or not read (see the class). */
    static Optional<ZoneRules> rules(String spec) {
        Matcher m = SPEC.matcher(spec);
        if (!m.matches()) {
            return Optional.empty();
        }
        Optional<ZoneOffset> std = offset(m.group(2));
        if (m.group(3) == null || m.group(3).isEmpty()) {
            return m.group(4) == null && m.group(5) == null ? std.map(ZoneRules::of) : Optional.empty();
        }
        Optional<ZoneOffset> dst = m.group(4) == null
                ? std.map(o -> ZoneOffset.ofTotalSeconds(o.getTotalSeconds() + 3600))
                : offset(m.group(4));
        if (std.isEmpty() || dst.isEmpty()) {
            return Optional.empty();
        }
        return m.group(5) == null ? rules(spec + "," + DEFAULT_RULES) : daylight(std.get(), dst.get(), m);
    }

    private static Optional<ZoneRules> daylight(ZoneOffset std, ZoneOffset dst, Matcher m) {
        Optional<ZoneOffsetTransitionRule> start = rule(m, 5, std, std, dst);
        Optional<ZoneOffsetTransitionRule> end = rule(m, 9, std, dst, std);
        if (start.isEmpty()
                || end.isEmpty()
                || start.get().getMonth() == end.get().getMonth()) {
            return Optional.empty();
        }
        List<ZoneOffsetTransitionRule> year = new ArrayList<>(List.of(start.get(), end.get()));
        year.sort(Comparator.comparing(ZoneOffsetTransitionRule::getMonth));
        ZoneOffsetTransitionRule first = year.getFirst();
        // java.time applies the yearly rules only after a transition: the year's first, in 1900
        return Optional.of(
                ZoneRules.of(std, first.getOffsetBefore(), List.of(), List.of(first.createTransition(1900)), year));
    }

    /** The rule in groups {@code at} (month) to {@code at + 3} (time) of {@code m}, changing {@code from} to {@code to}. */
    private static Optional<ZoneOffsetTransitionRule> rule(
            Matcher m, int at, ZoneOffset std, ZoneOffset from, ZoneOffset to) {
        int month = Integer.parseInt(m.group(at));
        int week = Integer.parseInt(m.group(at + 1));
        int day = Integer.parseInt(m.group(at + 2));
        int time = m.group(at + 3) == null ? 7200 : seconds(m.group(at + 3));
        if (month < 1 || month > 12 || week < 1 || week > 5 || day > 6 || time < 0 || time > 24 * 3600) {
            return Optional.empty();
        }
        boolean endOfDay = time == 24 * 3600;
        return Optional.of(ZoneOffsetTransitionRule.of(
                Month.of(month),
                week == 5 ? -1 : 1 + 7 * (week - 1),
                DayOfWeek.of(day == 0 ? 7 : day),
                endOfDay ? LocalTime.MIDNIGHT : LocalTime.ofSecondOfDay(time),
                endOfDay,
                TimeDefinition.WALL,
                std,
                from,
                to));
    }

    /** A POSIX offset (west) as ISO's (east); empty beyond ±18 hours or with seconds. */
    private static Optional<ZoneOffset> offset(String text) {
        int west = seconds(text);
        if (Math.abs(west) > MAX_SECONDS || west % 60 != 0) {
            return Optional.empty();
        }
        return Optional.of(ZoneOffset.ofTotalSeconds(-west));
    }

    /** {@code [+-]hh[:mm[:ss]]} in seconds; minutes or seconds over 59 make it out of every range. */
    private static int seconds(String text) {
        boolean negative = text.startsWith("-");
        String[] parts = text.replaceFirst("^[+-]", "").split(":");
        int total = 0;
        for (int i = 0; i < parts.length; i++) {
            int v = Integer.parseInt(parts[i]);
            if (i > 0 && v > 59) {
                return Integer.MAX_VALUE;
            }
            total = total * 60 + v;
        }
        for (int i = parts.length; i < 3; i++) {
            total *= 60;
        }
        return negative ? -total : total;
    }
}
