package io.numacube.bench.serve;

import io.numacube.bench.BenchOptions;
import io.numacube.bench.Progress;
import io.numacube.bench.data.GeneratedTrades;
import io.numacube.bench.peer.ReferenceQuery;
import io.numacube.bench.probe.ThreadTeam;
import io.numacube.bench.report.ServeReport;
import io.numacube.bench.report.ServeReport.FrontEndQuery;
import io.numacube.bench.report.ServeReport.ReaderPhase;
import io.numacube.bench.report.ServeReport.Visibility;
import io.numacube.bench.report.ServeReport.WriterFigures;
import io.numacube.server.wal.WalStats;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The serve section (issue 11): a durable {@code numacube serve} in this process ({@link ServedCube}) over generated
 * trades, measured as its clients see it, in one run:
 *
 * <ol>
 *   <li>Q1-Q5 embedded, over HTTP (the JDK's HttpClient, keep-alive; and a plain socket client, to tell the server's
 *       cost from that client's) and over pgwire (pgjdbc), answers checked equal, then timed in turn
 *       ({@link FrontEndComparison});
 *   <li>K readers looping Q1-Q5 over HTTP (the JDK's HttpClient, as a Java application would), idle; then beside one
 *       writer posting CSV batches as fast as they are acknowledged (over a plain socket, so that the rate is the
 *       server's); then idle again over the grown table ({@link ReaderLoad}, {@link BatchWriter});
 *   <li>the time from a write's acknowledgement to a query seeing it ({@link VisibilityProbe}).
 * </ol>
 *
 * Why in-process rather than the {@code serve} command as a child: the embedded figures then come from the very cube
 * the server answers from, in the same JVM, timed in the same seconds, so their ratio is the server's cost alone; the
 * clients are real network clients on loopback all the same. The price: the clients' threads share the JVM (and
 * its collector) with the server. Not thread-safe: one run.
 */
public final class ServeBench {

    private static final List<ReferenceQuery> MIX = List.copyOf(EnumSet.range(ReferenceQuery.Q1, ReferenceQuery.Q5));

    private final BenchOptions options;
    private final Progress progress;

    public ServeBench(BenchOptions options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    public ServeReport run() throws Exception {
        BenchOptions.Serve s = options.serve();
        progress.line(
                "serve: generating %,d trades, starting a durable server (%d threads)", s.rows(), options.threads());
        try (ServedCube served = ServedCube.start(s.rows(), options.seed(), options.threads());
                HttpSqlClient http = new HttpSqlClient(served.httpUrl());
                PlainHttpClient plain = new PlainHttpClient(served.httpPort());
                PlainHttpClient poller = new PlainHttpClient(served.httpPort());
                PgSqlClient pg = new PgSqlClient(served.pgPort(), false);
                PgSqlClient pgBinary = new PgSqlClient(served.pgPort(), true)) {
            List<String> sqls =
                    MIX.stream().map(q -> q.sql(GeneratedTrades.q3Literals())).toList();
            List<FrontEndQuery> queries = frontEnds(
                    new FrontEndComparison(served.cube(), http, plain, pg, pgBinary, options.quick() ? 0.3 : 2.0),
                    sqls);
            ReaderLoad readers = new ReaderLoad(http, sqls, s.readers(), served::tradesRows);
            ReaderPhase idle = phase(readers, "idle", s.phaseSeconds(), null);
            TradeBatches batches = new TradeBatches(s.batchRows(), options.seed() + 1);
            BatchWriter writer = new BatchWriter(plain, batches);
            WalStats before = served.walStats();
            served.fsyncMicros().reset();
            ReaderPhase appending = phase(readers, "appending", s.phaseSeconds(), writer);
            WriterFigures written = writerFigures("writer", served, writer, before);
            ReaderPhase idleAfter = phase(readers, "idle after", s.phaseSeconds(), null);
            WriterFigures alone = writerAlone(served, new BatchWriter(plain, batches), s.phaseSeconds() / 2);
            Visibility visibility =
                    visibility(new BatchWriter(plain, batches), poller, Math.max(0.5, s.phaseSeconds() / 2));
            return new ServeReport(
                    s.rows(),
                    options.threads(),
                    s.readers(),
                    s.phaseSeconds(),
                    s.batchRows(),
                    "numacube serve in the bench's JVM (NumacubeServer), writes WAL-logged and fsynced in a temporary"
                            + " --data-dir; clients on loopback: JDK HttpClient (HTTP/1.1 keep-alive; the readers), a"
                            + " plain socket HTTP client (the writer, the poller), pgjdbc "
                            + org.postgresql.util.DriverInfo.DRIVER_VERSION,
                    queries,
                    idle,
                    appending,
                    idleAfter,
                    written,
                    alone,
                    visibility,
                    ServeTargets.judge(queries, idle, appending, idleAfter, written, visibility));
        }
    }

    private List<FrontEndQuery> frontEnds(FrontEndComparison cmp, List<String> sqls) {
        List<FrontEndQuery> out = new ArrayList<>();
        for (int i = 0; i < MIX.size(); i++) {
            FrontEndQuery q = cmp.compare(MIX.get(i), sqls.get(i));
            progress.line(
                    "serve: %s embedded %.4f s, HTTP %.4f s (%.2fx, %+.2f ms), plain HTTP %.4f s (%+.2f ms), pgwire"
                            + " %.4f s (%.2fx, %+.2f ms), pgwire binary %.4f s (%+.2f ms), %d runs, answers %s",
                    q.id(),
                    q.embedded().median(),
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
                    q.check().equals("OK") ? "equal" : q.check());
            out.add(q);
        }
        return out;
    }

    private ReaderPhase phase(ReaderLoad readers, String name, double seconds, ReaderLoad.Alongside writer) {
        ReaderPhase p = readers.run(name, seconds, writer);
        progress.line(
                "serve: readers %s: %.1f queries/s, p50 %.1f ms, p99 %.1f ms over %,d-%,d rows%s",
                name,
                p.queriesPerSecond(),
                p.p50Ms(),
                p.p99Ms(),
                p.rowsAtStart(),
                p.rowsAtEnd(),
                p.errors() == 0 ? "" : ", " + p.errors() + " FAILED");
        return p;
    }

    /** The writer with no reader beside it, for {@code seconds}. */
    private WriterFigures writerAlone(ServedCube served, BatchWriter writer, double seconds) {
        WalStats before = served.walStats();
        served.fsyncMicros().reset();
        writer.runUntil(System.nanoTime() + (long) (seconds * 1e9));
        return writerFigures("writer alone", served, writer, before);
    }

    private WriterFigures writerFigures(String label, ServedCube served, BatchWriter writer, WalStats before) {
        WalStats after = served.walStats();
        long commits = after.commitBatches() - before.commitBatches();
        WriterFigures w = writer.figures(
                after.fsyncs() - before.fsyncs(),
                served.fsyncMicros().getTotalCount() == 0
                        ? Double.NaN
                        : served.fsyncMicros().getValueAtPercentile(50) / 1e3,
                commits == 0 ? Double.NaN : (double) (after.records() - before.records()) / commits);
        progress.line(
                "serve: %s: %,d batches, %.0f rows/s, acknowledged in p50 %.1f ms, p99 %.1f ms; %d fsyncs (p50 %.1f"
                        + " ms)%s",
                label,
                w.batches(),
                w.rowsPerSecond(),
                w.ackP50Ms(),
                w.ackP99Ms(),
                w.fsyncs(),
                w.fsyncP50Ms(),
                writer.firstError() == null ? "" : "; FAILED " + w.errors() + ", first: " + writer.firstError());
        return w;
    }

    /** A writer again, beside one poller instead of the readers. */
    private Visibility visibility(BatchWriter writer, HttpApi poller, double seconds) {
        VisibilityProbe probe = new VisibilityProbe(poller);
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        ThreadTeam.unpinned().run(2, i -> (i == 0 ? writer : probe).runUntil(deadline));
        Visibility v = probe.against(writer.acks());
        progress.line(
                "serve: visibility: %d writes, %d polls: acknowledgement to visible p50 %.2f ms, p99 %.2f ms; %d seen"
                        + " before their acknowledgement, %d polls after one missed it",
                v.writes(), v.polls(), v.p50Ms(), v.p99Ms(), v.seenBeforeAck(), v.missedAfterAck());
        return v;
    }
}
