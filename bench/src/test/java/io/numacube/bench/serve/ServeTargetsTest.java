package io.numacube.bench.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.report.ServeReport.FrontEndQuery;
import io.numacube.bench.report.ServeReport.ReaderPhase;
import io.numacube.bench.report.ServeReport.Visibility;
import io.numacube.bench.report.ServeReport.WriterFigures;
import io.numacube.bench.stats.Summary;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServeTargetsTest {

    private static FrontEndQuery query(String id, double embedded, double http) {
        return new FrontEndQuery(
                id,
                "t",
                1,
                Summary.of(embedded),
                Summary.of(http),
                Summary.of(embedded),
                Summary.of(embedded),
                Summary.of(embedded),
                embedded * 1e3,
                http / embedded,
                1,
                1,
                (http - embedded) * 1e3,
                0,
                0,
                0,
                "OK");
    }

    private static ReaderPhase phase(double p99Ms) {
        return new ReaderPhase("p", 1, 10, 10, 1, p99Ms, p99Ms, 1000, 1000, 0);
    }

    @Test
    void allowsTenPercentPlusOneMillisecondPerQueryAndNamesTheMisses() {
        List<String> lines = ServeTargets.judge(
                List.of(query("Q1", 0.010, 0.0119), query("Q4", 0.050, 0.080)),
                phase(10),
                phase(16),
                phase(12),
                new WriterFigures(10, 1_000_000, 1, 1_000_000, 1, 2, 10, 1, 1, 0),
                new Visibility(10, 100, 1, 2, 3, 0, 0));

        assertEquals(
                "durable appends >= 1M rows/s (one writer, each batch acknowledged before the next): 1.00M rows/s"
                        + " — met",
                lines.get(0));
        assertTrue(lines.get(1).contains("16.0 ms vs 10.0 ms = 1.60x — NOT met"), lines.get(1));
        assertTrue(lines.get(1).endsWith("1.33x)"), lines.get(1));
        assertEquals(
                "Q1-Q5 over HTTP (JDK HttpClient) within 10% of embedded + 1 ms (medians): NOT met; met by Q1; missed by"
                        + " Q4 +30.0 ms"
                        + " (0.080 s vs 0.050 s)",
                lines.get(2));
        assertTrue(
                lines.get(3).startsWith("Q1-Q5 over HTTP (plain socket) within 10% of embedded + 1 ms (medians): met"));
        assertTrue(lines.get(4).startsWith("Q1-Q5 over pgwire within 10% of embedded + 1 ms (medians): met"));
        assertTrue(lines.get(5)
                .startsWith("Q1-Q5 over pgwire binary (prepared) within 10% of embedded + 1 ms (medians): met"));
        assertTrue(lines.get(6).endsWith("100 polls, 0 did not — met"), lines.get(6));
    }
}
