package io.numacube.cli.cube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBarTest {

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final StringWriter text = new StringWriter();

    private ProgressBar bar(ProgressBar.Style style) {
        return new ProgressBar("loading x.csv", new PrintWriter(text, true), style, now::get);
    }

    private void advanceMillis(long ms) {
        now.addAndGet(ms * 1_000_000L);
    }

    @Test
    void drawsInPlaceOnlyWhenStandardErrorIsATerminal() {
        assertTrue(ProgressBar.isTerminalDevice("/dev/pts/3"));
        assertTrue(ProgressBar.isTerminalDevice("/dev/tty1"));
        assertFalse(ProgressBar.isTerminalDevice("pipe:[48213]"));
        assertFalse(ProgressBar.isTerminalDevice("/home/me/load.log"));
        assertFalse(ProgressBar.isTerminalDevice("/dev/null"));
    }

    @Test
    void staysQuietForOperationsShorterThanASecond() {
        ProgressBar b = bar(ProgressBar.Style.TERMINAL);
        b.progress(10, 100);
        advanceMillis(900);
        b.progress(100, 100);
        b.close();
        assertEquals("", text.toString());
        assertFalse(b.shown());
    }

    @Test
    void redrawsOneTerminalLineInPlaceWithRateShareAndTimeLeft() {
        ProgressBar b = bar(ProgressBar.Style.TERMINAL);
        advanceMillis(2_000);
        b.progress(1_000_000, 4_000_000);
        advanceMillis(50);
        b.progress(1_100_000, 4_000_000);
        advanceMillis(50);
        b.progress(1_200_000, 4_000_000);
        String s = text.toString();
        assertEquals(2, s.chars().filter(c -> c == '\r').count(), s);
        assertFalse(s.contains("\n"), s);
        assertTrue(s.startsWith("\rloading x.csv  1,000,000 rows  500,000 rows/s  25%  ETA 0:06"), s);
        b.close();
        assertTrue(text.toString().endsWith("done in 2.1 s\n"), text.toString());
    }

    @Test
    void padsAShorterRedrawSoNoOldCharactersRemain() {
        ProgressBar b = bar(ProgressBar.Style.TERMINAL);
        advanceMillis(1_000);
        b.report(999_999, 0.99);
        advanceMillis(200);
        b.report(1_000_000, -1);
        String[] draws = text.toString().split("\r");
        assertEquals(draws[1].length(), draws[2].length(), text.toString());
    }

    @Test
    void printsPlainLinesOnlyEveryFewSecondsWhenNotOnATerminal() {
        ProgressBar b = bar(ProgressBar.Style.PLAIN);
        for (int i = 1; i <= 120; i++) {
            advanceMillis(100);
            b.progress(i * 1000L, 120_000);
        }
        b.close();
        String[] lines = text.toString().split("\n");
        // first line at 1 s, then every 5 s (at 6 s and 11 s), then the final one at 12 s
        assertEquals(4, lines.length, text.toString());
        assertFalse(text.toString().contains("\r"));
        assertTrue(lines[0].startsWith("loading x.csv  10,000 rows"), lines[0]);
        assertTrue(lines[3].contains("120,000 rows") && lines[3].contains("done in 12.0 s"), lines[3]);
    }

    @Test
    void showsNoShareOrTimeLeftWhenTheTotalIsUnknown() {
        ProgressBar b = bar(ProgressBar.Style.PLAIN);
        advanceMillis(1_000);
        b.update(500, 10, -1);
        assertEquals("loading x.csv  500 rows  500 rows/s\n", text.toString());
    }

    @Test
    void usesTheByteShareForCsvReads() {
        ProgressBar b = bar(ProgressBar.Style.PLAIN);
        advanceMillis(1_000);
        b.update(500, 750, 1000);
        assertTrue(text.toString().contains("  75%  ETA 0:00"), text.toString());
    }

    @Test
    void abandonEndsAnOpenTerminalLineWithoutAFinalCount() {
        ProgressBar b = bar(ProgressBar.Style.TERMINAL);
        advanceMillis(1_500);
        b.progress(10, 100);
        b.abandon();
        b.close();
        String s = text.toString();
        assertTrue(s.endsWith("\n"), s);
        assertFalse(s.contains("done"), s);
    }

    @Test
    void offShowsNothing() {
        ProgressBar b = bar(ProgressBar.Style.OFF);
        advanceMillis(10_000);
        b.progress(10, 100);
        b.close();
        assertEquals("", text.toString());
    }

    @Test
    void formatsTimeLeftAsClockTime() {
        assertEquals("0:07", ProgressBar.clockTime(7.2));
        assertEquals("12:30", ProgressBar.clockTime(750));
        assertEquals("1:02:03", ProgressBar.clockTime(3723));
    }
}
