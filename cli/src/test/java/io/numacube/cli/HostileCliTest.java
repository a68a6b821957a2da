package io.numacube.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hostile queries at the command line: one line on stderr and a fitting exit code, never a stack trace. */
class HostileCliTest {

    private static void oneLine(CliRun run, int exit, String contains) {
        assertEquals(exit, run.exitCode(), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
        assertEquals(
                1, run.err().lines().filter(l -> l.startsWith("numacube: ")).count(), run.err());
        assertTrue(run.err().contains(contains), run.err());
    }

    @Test
    void deepNestingOverflowAndHugeLimitsAreOneLineUsageErrors() {
        oneLine(
                CliRun.of(
                        "query",
                        "--generate",
                        "2000",
                        "SELECT SUM(" + "(".repeat(5000) + "pnl" + ")".repeat(5000) + ") FROM trades"),
                ErrorReporter.USAGE_ERROR,
                "more than 1000 levels at line 1:");
        oneLine(
                CliRun.of("query", "--generate", "2000", "SELECT SUM(trade_id * 9223372036854775807) FROM trades"),
                ErrorReporter.USAGE_ERROR,
                "BIGINT overflow in trade_id * 9223372036854775807");
        oneLine(
                CliRun.of("query", "--generate", "2000", "SELECT COUNT(*) FROM trades LIMIT 99999999999999999999"),
                ErrorReporter.USAGE_ERROR,
                "LIMIT is too large");
        CliRun ok = CliRun.of(
                "query",
                "--generate",
                "2000",
                "--format",
                "csv",
                "SELECT COUNT(*) FROM trades LIMIT 9223372036854775807 OFFSET 9223372036854775807");
        assertEquals(0, ok.exitCode(), ok.err());
    }

    @Test
    void aQueryWithoutDataAnswersConstantsAndNamesTheMissingTable() {
        CliRun constants = CliRun.of("query", "--format", "csv", "SELECT 1 + 1 AS two, 'a' || 'b' AS ab");
        assertEquals(0, constants.exitCode(), constants.err());
        assertEquals(List.of("two,ab", "2,ab"), constants.out().lines().toList());
        oneLine(
                CliRun.of("query", "SELECT COUNT(*) FROM trades"),
                ErrorReporter.USAGE_ERROR,
                "no such table: table=trades (no table is loaded: give --table NAME=FILE, repeatable, or --generate"
                        + " ROWS) at line 1:22");
    }

    @Test
    void nanAndInfiniteResultsPrintInEveryFormat() {
        for (String format : new String[] {"csv", "json", "table"}) {
            CliRun run = CliRun.of(
                    "query",
                    "--generate",
                    "2000",
                    "--format",
                    format,
                    "SELECT SUM(pnl * 1e400), MAX(pnl * 1e400), MIN(pnl * 1e400), COUNT(*) FROM trades");
            assertEquals(0, run.exitCode(), format + ": " + run.err());
            // CSV spells them as DuckDB's CSV writer does; table and JSON as Java and JSON readers expect
            String nan = format.equals("csv") ? "nan" : "NaN";
            String negInf = format.equals("csv") ? "-inf" : "-Infinity";
            assertTrue(run.out().contains(nan) && run.out().contains(negInf), format + ": " + run.out());
        }
    }

    @Test
    void anErrorIsOneInternalErrorLineWithoutAStackTrace() {
        StringWriter err = new StringWriter();
        int code = ErrorReporter.reportUnexpected(new StackOverflowError(), new PrintWriter(err, true));
        assertEquals(ErrorReporter.INTERNAL_ERROR, code);
        assertTrue(err.toString().startsWith("numacube: internal error: "), err.toString());
        assertFalse(err.toString().contains("\tat "), err.toString());
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    // without the check, the first table blocks on a FIFO that has no writer
    void twoTablesReadingOneStreamAreAnErrorNamingBoth() throws Exception {
        java.nio.file.Path fifo =
                java.nio.file.Files.createTempDirectory("nc-fifo").resolve("t.csv");
        new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor();
        CliRun run = CliRun.of("query", "--table", "a=" + fifo, "--table", "b=" + fifo, "SELECT COUNT(*) FROM a");
        assertEquals(ErrorReporter.USAGE_ERROR, run.exitCode(), run.err());
        assertTrue(run.err().contains("tables a and b both read " + fifo), run.err());
    }
}
