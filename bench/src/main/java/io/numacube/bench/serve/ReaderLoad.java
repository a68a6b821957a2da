package io.numacube.bench.serve;

import io.numacube.bench.probe.ThreadTeam;
import io.numacube.bench.report.ServeReport.ReaderPhase;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * Reader threads looping the P&amp;L queries over HTTP for a while, each timing every query from sending it to having
 * its whole answer (an {@link HdrHistogram} of microseconds per reader, added up at the end), optionally beside one
 * more task on its own thread until the same deadline (the writer).
 *
 * <p>Not thread-safe: one phase at a time.
 */
final class ReaderLoad {

    /** Work that runs beside the readers until their deadline. */
    @FunctionalInterface
    interface Alongside {
        /** Runs until {@link System#nanoTime()} passes {@code deadlineNanos}. */
        void runUntil(long deadlineNanos);
    }

    /** The longest latency recorded: a minute, in microseconds. */
    static final long MAX_MICROS = 60_000_000L;

    private final HttpSqlClient http;
    private final List<String> queries;
    private final int readers;
    private final LongSupplier tradesRows;

    /**
     * @param queries    the SQL the readers loop over; reader {@code i} starts at query {@code i}
     * @param tradesRows the trades table's rows now
     */
    ReaderLoad(HttpSqlClient http, List<String> queries, int readers, LongSupplier tradesRows) {
        this.http = http;
        this.queries = List.copyOf(queries);
        this.readers = readers;
        this.tradesRows = tradesRows;
    }

    /** Runs the readers for {@code seconds}, with {@code alongside} on one more thread unless it is null. */
    ReaderPhase run(String name, double seconds, Alongside alongside) {
        Histogram all = new Histogram(MAX_MICROS, 3);
        AtomicLong errors = new AtomicLong();
        long rowsAtStart = tradesRows.getAsLong();
        long start = System.nanoTime();
        long deadline = start + (long) (seconds * 1e9);
        int threads = readers + (alongside == null ? 0 : 1);
        ThreadTeam.unpinned().run(threads, i -> {
            if (i == readers) {
                alongside.runUntil(deadline);
                return;
            }
            Histogram mine = loop(i, deadline, errors);
            synchronized (all) {
                all.add(mine);
            }
        });
        double wall = (System.nanoTime() - start) / 1e9;
        return new ReaderPhase(
                name,
                wall,
                all.getTotalCount(),
                all.getTotalCount() / wall,
                millis(all, 50),
                millis(all, 99),
                all.getTotalCount() == 0 ? Double.NaN : all.getMaxValue() / 1e3,
                rowsAtStart,
                tradesRows.getAsLong(),
                errors.get());
    }

    private Histogram loop(int reader, long deadline, AtomicLong errors) {
        Histogram h = new Histogram(MAX_MICROS, 3);
        for (int q = reader; System.nanoTime() < deadline; q++) {
            long t0 = System.nanoTime();
            try {
                http.query(queries.get(q % queries.size()));
                h.recordValue(Math.min(MAX_MICROS, Math.max(1, (System.nanoTime() - t0) / 1000)));
            } catch (RuntimeException e) {
                errors.incrementAndGet();
            }
        }
        return h;
    }

    /** The {@code percentile} of {@code h} in milliseconds; NaN when it is empty. */
    static double millis(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e3;
    }
}
