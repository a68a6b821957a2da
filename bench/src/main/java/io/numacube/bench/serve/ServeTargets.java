package io.numacube.bench.serve;

import io.numacube.bench.report.ServeReport.FrontEndQuery;
import io.numacube.bench.report.ServeReport.ReaderPhase;
import io.numacube.bench.report.ServeReport.Visibility;
import io.numacube.bench.report.ServeReport.WriterFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Issue 11's speed goals for {@code numacube serve}, judged on one run's figures, one line each. Stateless. */
final class ServeTargets {

    /** Sustained durable appends, rows per second. */
    static final double APPEND_ROWS_PER_SECOND = 1e6;
    /** Reader p99 while appending over the idle p99, at most. */
    static final double P99_RATIO = 1.5;
    /** A query through the server may take this much more than embedded, plus {@link #OVERHEAD_MS}. */
    static final double QUERY_RATIO = 1.1;

    static final double OVERHEAD_MS = 1.0;

    private ServeTargets() {}

    static List<String> judge(
            List<FrontEndQuery> queries,
            ReaderPhase idle,
            ReaderPhase appending,
            ReaderPhase idleAfter,
            WriterFigures writer,
            Visibility visibility) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "durable appends >= %.0fM rows/s (one writer, each batch acknowledged before the next): %.2fM rows/s"
                        + " — %s",
                APPEND_ROWS_PER_SECOND / 1e6,
                writer.rowsPerSecond() / 1e6,
                verdict(writer.rowsPerSecond() >= APPEND_ROWS_PER_SECOND)));
        double ratio = appending.p99Ms() / idle.p99Ms();
        lines.add(String.format(
                Locale.ROOT,
                "reader p99 while appending <= %.1fx idle: %.1f ms vs %.1f ms = %.2fx — %s (against the idle p99"
                        + " after the writer, over %,d rows instead of %,d: %.2fx)",
                P99_RATIO,
                appending.p99Ms(),
                idle.p99Ms(),
                ratio,
                verdict(ratio <= P99_RATIO),
                idleAfter.rowsAtStart(),
                idle.rowsAtStart(),
                appending.p99Ms() / idleAfter.p99Ms()));
        lines.add(frontEnd(
                "HTTP (JDK HttpClient)",
                queries,
                FrontEndQuery::httpOverheadMs,
                q -> q.http().median()));
        lines.add(frontEnd(
                "HTTP (plain socket)",
                queries,
                FrontEndQuery::plainOverheadMs,
                q -> q.plain().median()));
        lines.add(frontEnd("pgwire", queries, FrontEndQuery::pgOverheadMs, q -> q.pg().median()));
        lines.add(frontEnd(
                "pgwire binary (prepared)",
                queries,
                FrontEndQuery::pgBinaryOverheadMs,
                q -> q.pgBinary().median()));
        lines.add(String.format(
                Locale.ROOT,
                "every query sent after a write's acknowledgement sees it: %,d polls, %d did not — %s",
                visibility.polls(),
                visibility.missedAfterAck(),
                verdict(visibility.missedAfterAck() == 0)));
        return lines;
    }

    /** The Q1-Q5 goal for one front end: which queries meet it, and by how much the others miss. */
    private static String frontEnd(
            String name,
            List<FrontEndQuery> queries,
            ToDoubleFunction<FrontEndQuery> overheadMs,
            ToDoubleFunction<FrontEndQuery> medianSeconds) {
        List<String> met = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        for (FrontEndQuery q : queries) {
            double allowedMs = (QUERY_RATIO - 1) * q.embedded().median() * 1e3 + OVERHEAD_MS;
            if (overheadMs.applyAsDouble(q) <= allowedMs) {
                met.add(q.id());
            } else {
                missed.add(String.format(
                        Locale.ROOT,
                        "%s +%.1f ms (%.3f s vs %.3f s)",
                        q.id(),
                        overheadMs.applyAsDouble(q),
                        medianSeconds.applyAsDouble(q),
                        q.embedded().median()));
            }
        }
        return String.format(
                Locale.ROOT,
                "Q1-Q5 over %s within %.0f%% of embedded + %.0f ms (medians): %s%s",
                name,
                (QUERY_RATIO - 1) * 100,
                OVERHEAD_MS,
                missed.isEmpty() ? "met" : "NOT met",
                (met.isEmpty() ? "" : "; met by " + String.join(", ", met))
                        + (missed.isEmpty() ? "" : "; missed by " + String.join(", ", missed)));
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }
}
