package io.numacube.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.report.TpchReport.Profile;
import io.numacube.bench.report.TpchReport.QueryFigures;
import io.numacube.bench.stats.Summary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A TPC-H query short of its steady goal is printed with where its time went; one that meets it is not. */
class TpchPrinterTest {

    @Test
    void aQueryShortOfItsGoalSaysWhy() {
        Profile slow = new Profile(0.100, 0.020, 0.010, 0.005, 1_500_000, 30_000_000, "scan orders join ____exists2_2");
        Profile fast = new Profile(0.040, 0.001, 0.038, 0.001, 6_000_000, 120_000_000, "scan lineitem");
        TpchReport report = TpchReport.of(
                1,
                2,
                "build/tpch",
                "v1",
                List.of(),
                List.of(figures("Q4", 0.104, 0.050, slow), figures("Q9", 0.040, 0.38, fast)));

        String text = printed(report);

        assertTrue(
                text.contains("Q4   short of 5x, why: 100.0 ms: subqueries, parse and bind 65%, plan 20%, scan 10%"
                        + " (1,500,000 rows, 30.0 MB at 3.0 GB/s), finish 5%"),
                text);
        assertTrue(text.contains("plan: scan orders join ____exists2_2"), text);
        assertFalse(text.contains("Q9   short of"), "Q9 meets 5x: " + text);
    }

    @Test
    void theShareOutsidePlanScanAndFinishIsTheRest() {
        Profile p = new Profile(0.100, 0.020, 0.010, 0.005, 0, 0, "");
        assertEquals(0.065, p.otherSeconds(), 1e-12);
        assertTrue(Double.isNaN(new Profile(0.1, 0, 0, 0, 0, 0, "").scanGigabytesPerSecond()));
    }

    private static QueryFigures figures(String id, double numacube, double duckdb, Profile profile) {
        return new QueryFigures(
                id,
                "ran",
                null,
                "official",
                "OK",
                Summary.of(numacube),
                Summary.of(duckdb),
                duckdb / numacube,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                profile);
    }

    private static String printed(TpchReport report) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TpchPrinter.print(report, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
