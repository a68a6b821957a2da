package io.numacube.bench.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.bench.BenchOptions;
import io.numacube.bench.Progress;
import io.numacube.bench.report.ServeReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The serve section end to end on a tiny table: a real durable server, its clients, and what they measured. */
class ServeBenchTest {

    @Test
    void checksEveryAnswerThroughBothFrontEndsAndMeasuresReadersWriterAndVisibility() throws Exception {
        BenchOptions options = new BenchOptions(
                        true,
                        20_000,
                        20_000,
                        42,
                        2,
                        EnumSet.of(BenchOptions.Section.SERVE),
                        null,
                        null,
                        1 << 20,
                        1,
                        2,
                        0.1,
                        1,
                        0.05,
                        1.0)
                .withServe(new BenchOptions.Serve(20_000, 2, 0.4, 500));
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        ServeReport r =
                new ServeBench(options, new Progress(new PrintStream(progress, true, StandardCharsets.UTF_8))).run();

        assertTrue(r.allEqual(), () -> r.queries().toString());
        assertEquals(
                "[Q1, Q2, Q3, Q4, Q5]",
                r.queries().stream().map(q -> q.id()).toList().toString());
        assertEquals(20, r.queries().getFirst().resultRows(), "Q1 has a row per currency");
        assertTrue(r.queries().getFirst().inServerMs() > 0, () -> r.queries().toString());
        assertTrue(
                r.idle().queries() > 0 && r.idle().errors() == 0, () -> r.idle().toString());
        assertTrue(
                r.appending().queries() > 0 && r.appending().errors() == 0,
                () -> r.appending().toString());
        assertTrue(
                r.writer().batches() > 0 && r.writer().errors() == 0,
                () -> r.writer().toString());
        assertEquals(r.writer().batches() * 500, r.writer().rows());
        assertTrue(r.writer().fsyncs() > 0, "the writes were made durable: " + r.writer());
        assertEquals(20_000 + r.writer().rows(), r.idleAfter().rowsAtStart());
        assertTrue(
                r.writerAlone().batches() > 0 && r.writerAlone().errors() == 0,
                () -> r.writerAlone().toString());
        assertTrue(r.writerAlone().fsyncs() > 0, "the writes were made durable: " + r.writerAlone());
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("serve: writer alone: "));
        assertTrue(r.visibility().writes() > 0, () -> r.visibility().toString());
        assertEquals(0, r.visibility().missedAfterAck(), () -> r.visibility().toString());
        assertEquals(7, r.targets().size(), () -> r.targets().toString());
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("serve: Q1 embedded"));
    }

    @Test
    void readsTheEnginesTimeFromTheEndOfAnAnswer() {
        byte[] answer = "{\"rows\":[[1]],\"stats\":{\"ms\":12.5,\"rows_scanned\":3}}".getBytes(StandardCharsets.UTF_8);
        assertEquals(12.5, FrontEndComparison.engineMillis(answer));
    }

    @Test
    void sectionNameParses() {
        assertEquals(BenchOptions.Section.SERVE, BenchOptions.Section.parse(" Serve "));
    }

    @Test
    void refusesServeSettingsWithoutRowsOrReaders() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> new BenchOptions.Serve(20_000, 0, 1, 10_000));
        assertTrue(e.getMessage().contains("readers=0"), e.getMessage());
    }
}
