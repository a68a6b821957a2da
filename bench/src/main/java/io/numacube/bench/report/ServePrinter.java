package io.numacube.bench.report;

import io.numacube.bench.report.ServeReport.FrontEndQuery;
import io.numacube.bench.report.ServeReport.ReaderPhase;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints a {@link ServeReport} as plain-text tables: the queries through each front end, the reader phases, the
 * writer, visibility, the goals. Stateless.
 */
final class ServePrinter {

    private ServePrinter() {}

    private static void printWriter(String label, ServeReport.WriterFigures w, int batchRows, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "  %s: %,d batches of %,d rows in %.1f s = %,.0f rows/s durable; acknowledged in p50 %.1f ms, p99"
                        + " %.1f ms; %d WAL fsyncs (p50 %.1f ms, %.1f records per commit)%s%n",
                label,
                w.batches(),
                batchRows,
                w.seconds(),
                w.rowsPerSecond(),
                w.ackP50Ms(),
                w.ackP99Ms(),
                w.fsyncs(),
                w.fsyncP50Ms(),
                w.recordsPerCommit(),
                w.errors() == 0 ? "" : "; " + w.errors() + " batches FAILED");
    }

    static void print(ServeReport s, PrintStream out) {
        out.println();
        out.printf(Locale.ROOT, "numacube serve (%,d trades, %d threads; %s):%n", s.rows(), s.threads(), s.how());
        printQueries(s.queries(), out);
        printReaders(s, out);
        printWriter("writer", s.writer(), s.batchRows(), out);
        if (s.writerAlone() != null) {
            printWriter("writer alone", s.writerAlone(), s.batchRows(), out);
        }
        ServeReport.Visibility v = s.visibility();
        out.printf(
                Locale.ROOT,
                "  visibility: %d writes, a poller's COUNT(*) saw each p50 %.2f ms, p99 %.2f ms, max %.2f ms after its"
                        + " acknowledgement (%d before it)%n",
                v.writes(),
                v.p50Ms(),
                v.p99Ms(),
                v.maxMs(),
                v.seenBeforeAck());
        for (String target : s.targets()) {
            out.println("  goal: " + target);
        }
    }

    private static void printQueries(List<FrontEndQuery> queries, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "  %-4s %-26s %7s %10s %9s %10s %7s %8s %10s %8s %10s %7s %8s %10s %8s %5s  %s%n",
                "",
                "",
                "rows",
                "embedded s",
                "in srv s",
                "HTTP s",
                "ratio",
                "+ms",
                "plain s",
                "+ms",
                "pgwire s",
                "ratio",
                "+ms",
                "pg bin s",
                "+ms",
                "runs",
                "check");
        for (FrontEndQuery q : queries) {
            out.printf(
                    Locale.ROOT,
                    "  %-4s %-26s %7d %10.4f %9.4f %10.4f %6.2fx %8.2f %10.4f %8.2f %10.4f %6.2fx %8.2f %10.4f %8.2f %5d  %s%n",
                    q.id(),
                    q.title(),
                    q.resultRows(),
                    q.embedded().median(),
                    q.inServerMs() / 1e3,
                    q.http().median(),
                    q.httpRatio(),
                    q.httpOverheadMs(),
                    q.plain().median(),
                    q.plainOverheadMs(),
                    q.pg().median(),
                    q.pgRatio(),
                    q.pgOverheadMs(),
                    q.pgBinary().median(),
                    q.pgBinaryOverheadMs(),
                    q.embedded().count(),
                    q.check());
        }
        out.println(
                "  (medians of runs in turn; in srv: the engine's own time inside the server, stats.ms; HTTP: the JDK's"
                        + " HttpClient; plain: a blocking socket client; pg bin: pgwire with prepared statements and"
                        + " binary fields; best of the runs:)");
        for (FrontEndQuery q : queries) {
            out.printf(
                    Locale.ROOT,
                    "  %-4s best: embedded %.4f s, HTTP %.4f s, plain %.4f s, pgwire %.4f s, pgwire binary %.4f s%n",
                    q.id(),
                    q.embedded().min(),
                    q.http().min(),
                    q.plain().min(),
                    q.pg().min(),
                    q.pgBinary().min());
        }
    }

    private static void printReaders(ServeReport s, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "  %d readers looping Q1-Q5 over HTTP (JDK HttpClient), %.0f s per phase:%n  %-12s %10s %9s %9s %9s %22s%n",
                s.readers(),
                s.phaseSeconds(),
                "phase",
                "queries/s",
                "p50 ms",
                "p99 ms",
                "max ms",
                "trades rows");
        for (ReaderPhase p : List.of(s.idle(), s.appending(), s.idleAfter())) {
            out.printf(
                    Locale.ROOT,
                    "  %-12s %10.1f %9.1f %9.1f %9.1f %22s%s%n",
                    p.name(),
                    p.queriesPerSecond(),
                    p.p50Ms(),
                    p.p99Ms(),
                    p.maxMs(),
                    String.format(Locale.ROOT, "%,d-%,d", p.rowsAtStart(), p.rowsAtEnd()),
                    p.errors() == 0 ? "" : "  " + p.errors() + " FAILED");
        }
    }
}
