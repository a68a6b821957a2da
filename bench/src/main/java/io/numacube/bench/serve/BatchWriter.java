package io.numacube.bench.serve;

import io.numacube.bench.report.ServeReport.WriterFigures;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One writer posting CSV batches of trades over HTTP as fast as the server acknowledges them: the next batch is sent
 * when the previous one is answered (durable, applied, visible). Records when each batch was sent and acknowledged and
 * the table version it made.
 *
 * <p>Not thread-safe: {@link #runUntil} runs on one thread; the other methods are called after it returned.
 */
final class BatchWriter implements ReaderLoad.Alongside {

    /**
     * One acknowledged batch.
     *
     * @param sentNanos when the request was sent ({@link System#nanoTime()})
     * @param ackNanos  when its answer arrived
     * @param version   the trades version that holds its rows
     */
    record Ack(long sentNanos, long ackNanos, long version) {}

    private final HttpApi http;
    private final TradeBatches batches;
    private final List<Ack> acks = new ArrayList<>();
    private final Histogram ackMicros = new Histogram(ReaderLoad.MAX_MICROS, 3);
    private long errors;
    private String firstError;
    private long startNanos;
    private long endNanos;

    BatchWriter(HttpApi http, TradeBatches batches) {
        this.http = http;
        this.batches = batches;
    }

    @Override
    public void runUntil(long deadlineNanos) {
        startNanos = System.nanoTime();
        for (long i = 0; System.nanoTime() < deadlineNanos; i++) {
            long t0 = System.nanoTime();
            try {
                long version = http.appendCsv("trades", batches.body(i));
                long t1 = System.nanoTime();
                acks.add(new Ack(t0, t1, version));
                ackMicros.recordValue(Math.min(ReaderLoad.MAX_MICROS, Math.max(1, (t1 - t0) / 1000)));
            } catch (RuntimeException e) {
                errors++;
                if (firstError == null) {
                    firstError = e.getMessage();
                }
            }
        }
        endNanos = System.nanoTime();
    }

    List<Ack> acks() {
        return List.copyOf(acks);
    }

    /** The first refusal's message, or null when every batch was acknowledged. */
    String firstError() {
        return firstError;
    }

    /**
     * The writer's figures, with the WAL's over the same time.
     *
     * @param fsyncs           WAL fsyncs while it ran
     * @param fsyncP50Ms       their median, milliseconds
     * @param recordsPerCommit WAL records per group commit while it ran
     */
    WriterFigures figures(long fsyncs, double fsyncP50Ms, double recordsPerCommit) {
        double seconds = (endNanos - startNanos) / 1e9;
        long rows = (long) acks.size() * batches.rowsPerBatch();
        return new WriterFigures(
                acks.size(),
                rows,
                seconds,
                seconds > 0 ? rows / seconds : Double.NaN,
                ReaderLoad.millis(ackMicros, 50),
                ReaderLoad.millis(ackMicros, 99),
                fsyncs,
                fsyncP50Ms,
                recordsPerCommit,
                errors);
    }
}
