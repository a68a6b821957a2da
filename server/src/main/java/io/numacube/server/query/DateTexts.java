package io.numacube.server.query;

import java.time.LocalDate;

/**
 * The ISO text of a date ({@code 2025-01-02}) by its epoch day, as {@link LocalDate#toString()} writes it, from a
 * small cache: an answer holds few distinct dates (a year of trading days) in many rows, and formatting one costs as
 * much as formatting a double. The cache is direct-mapped by the day's low bits; a miss formats and replaces.
 *
 * <p>Thread-safe without locks: an entry is an immutable record published by one reference write, so a reader sees
 * either an older entry or the new one, whole.
 */
public final class DateTexts {

    private static final int SLOTS = 4096;

    private record Entry(long epochDay, String text, byte[] utf8) {}

    private static final Entry[] CACHE = new Entry[SLOTS];

    private DateTexts() {}

    /** {@code LocalDate.ofEpochDay(epochDay).toString()}. */
    public static String iso(long epochDay) {
        return entry(epochDay).text();
    }

    /** {@link #iso} in UTF-8 (ASCII); the caller must not change the array. */
    public static byte[] isoUtf8(long epochDay) {
        return entry(epochDay).utf8();
    }

    private static Entry entry(long epochDay) {
        int slot = (int) (epochDay & (SLOTS - 1));
        Entry e = CACHE[slot];
        if (e != null && e.epochDay() == epochDay) {
            return e;
        }
        String text = LocalDate.ofEpochDay(epochDay).toString();
        e = new Entry(epochDay, text, text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        CACHE[slot] = e;
        return e;
    }
}
