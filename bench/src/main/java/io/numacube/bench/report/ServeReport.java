package io.numacube.bench.report;

import io.numacube.bench.stats.Summary;
import java.util.List;

/**
 * The serve section's figures (issue 11): a real {@code numacube serve} server, durable, answering the P&amp;L queries
 * over HTTP and the PostgreSQL protocol while a writer appends. Immutable.
 *
 * <p>Units: seconds in the summaries, milliseconds where a name says {@code Ms}, rows/s and queries/s; a ratio is the
 * server's figure over the embedded engine's (or the busy figure over the idle one): above 1 means slower.
 *
 * @param rows          trades rows the server held at its start
 * @param threads       the engine's workers
 * @param readers       reader threads of the reader phases
 * @param phaseSeconds  how long each reader phase ran
 * @param batchRows     rows per batch the writer posted
 * @param how           how the server ran and how the clients reached it, one line
 * @param queries       Q1-Q5 embedded, over HTTP and over pgwire, timed in turn
 * @param idle          readers alone, before the writer
 * @param appending     readers beside the writer
 * @param idleAfter     readers alone again, after the writer (the table is larger by then)
 * @param writer        the writer of the appending phase
 * @param writerAlone   the writer again, with no reader (half a phase, after the idle-after phase)
 * @param visibility    the time from a write's acknowledgement until a query saw it
 * @param targets       the goals, one line each, "met" / "NOT met" with the figures
 */
public record ServeReport(
        long rows,
        int threads,
        int readers,
        double phaseSeconds,
        int batchRows,
        String how,
        List<FrontEndQuery> queries,
        ReaderPhase idle,
        ReaderPhase appending,
        ReaderPhase idleAfter,
        WriterFigures writer,
        WriterFigures writerAlone,
        Visibility visibility,
        List<String> targets) {

    public ServeReport {
        queries = List.copyOf(queries);
        targets = List.copyOf(targets);
    }

    /** Whether every answer over HTTP and pgwire equalled the embedded engine's. */
    public boolean allEqual() {
        return queries.stream().allMatch(q -> q.check().equals("OK"));
    }

    /**
     * One query embedded ({@code Cube.query} in the server's process) and through each front end, run by run in turn.
     *
     * @param id             Q1..Q5
     * @param title          what it computes
     * @param resultRows     rows of its answer
     * @param embedded       seconds of the embedded runs
     * @param http           seconds over HTTP with the JDK's HttpClient: the request sent and the whole body
     *                       received (not parsed)
     * @param plain          the same with a plain blocking socket client, whose own cost is next to nothing
     * @param pg             seconds over pgwire: the query sent and every row read ({@code ResultSet.next})
     * @param pgBinary       the same as one prepared statement per query, every field in binary (pgjdbc's
     *                       {@code prepareThreshold=-1}), as a JDBC application that prepares its statements gets after
     *                       a few runs
     * @param inServerMs     median of the engine's own wall time for the query inside the server ({@code stats.ms} of
     *                       the plain client's answers), milliseconds: plain - inServerMs is what HTTP and JSON cost
     * @param httpRatio      http median / embedded median
     * @param plainRatio     plain median / embedded median
     * @param pgRatio        pg median / embedded median
     * @param httpOverheadMs http median - embedded median, milliseconds
     * @param plainOverheadMs plain median - embedded median, milliseconds
     * @param pgOverheadMs   pg median - embedded median, milliseconds
     * @param pgBinaryOverheadMs pgBinary median - embedded median, milliseconds
     * @param check          "OK" when every front end's answers equal the embedded one, else what differs
     */
    public record FrontEndQuery(
            String id,
            String title,
            int resultRows,
            Summary embedded,
            Summary http,
            Summary plain,
            Summary pg,
            Summary pgBinary,
            double inServerMs,
            double httpRatio,
            double plainRatio,
            double pgRatio,
            double httpOverheadMs,
            double plainOverheadMs,
            double pgOverheadMs,
            double pgBinaryOverheadMs,
            String check) {}

    /**
     * Reader threads looping Q1-Q5 over HTTP for a while.
     *
     * @param name             idle, appending or idle after
     * @param seconds          wall time of the phase
     * @param queries          queries answered
     * @param queriesPerSecond queries / seconds
     * @param p50Ms            median latency of a query, milliseconds
     * @param p99Ms            99th percentile
     * @param maxMs            the slowest
     * @param rowsAtStart      trades rows when the phase began
     * @param rowsAtEnd        trades rows when it ended
     * @param errors           queries that failed
     */
    public record ReaderPhase(
            String name,
            double seconds,
            long queries,
            double queriesPerSecond,
            double p50Ms,
            double p99Ms,
            double maxMs,
            long rowsAtStart,
            long rowsAtEnd,
            long errors) {}

    /**
     * The writer: CSV batches posted over HTTP one after the other, each acknowledged once durable.
     *
     * @param batches          batches acknowledged
     * @param rows             rows acknowledged
     * @param seconds          wall time of the phase
     * @param rowsPerSecond    rows / seconds
     * @param ackP50Ms         median time from sending a batch to its acknowledgement, milliseconds
     * @param ackP99Ms         99th percentile
     * @param fsyncs           WAL fsyncs meanwhile
     * @param fsyncP50Ms       their median, milliseconds
     * @param recordsPerCommit WAL records per group commit meanwhile
     * @param errors           batches refused
     */
    public record WriterFigures(
            long batches,
            long rows,
            double seconds,
            double rowsPerSecond,
            double ackP50Ms,
            double ackP99Ms,
            long fsyncs,
            double fsyncP50Ms,
            double recordsPerCommit,
            long errors) {}

    /**
     * The time from a write's acknowledgement until a poller's {@code SELECT COUNT(*)} over HTTP answered with the
     * write's table version or a later one (the answer's {@code stats.version}).
     *
     * @param writes         acknowledged writes measured
     * @param polls          polls answered
     * @param p50Ms          median, milliseconds (negative: seen before its acknowledgement arrived)
     * @param p99Ms          99th percentile
     * @param maxMs          the longest
     * @param seenBeforeAck  writes a poll saw before their acknowledgement reached the writer
     * @param missedAfterAck polls started after an acknowledgement that did not see its write: the server's promise
     *                       (visible to every query that starts after the answer) broken; must be 0
     */
    public record Visibility(
            long writes,
            long polls,
            double p50Ms,
            double p99Ms,
            double maxMs,
            long seenBeforeAck,
            long missedAfterAck) {}
}
