package io.numacube.bench.serve;

import io.numacube.bench.report.ServeReport.Visibility;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures how soon a write is visible: one poller runs {@code SELECT COUNT(*) FROM trades} over HTTP back to back
 * while a {@link BatchWriter} appends, and each answer's {@code stats.version} (the trades version the query read) is
 * matched afterwards with the versions the writer's acknowledgements named. A write's visibility time is when the
 * first poll that saw it (its version or a later one) was answered, less when the write's acknowledgement arrived; a
 * poll that was sent after an acknowledgement arrived and still read an older version breaks the server's promise.
 *
 * <p>Not thread-safe: {@link #runUntil} on one thread, {@link #against} after it returned.
 */
final class VisibilityProbe implements ReaderLoad.Alongside {

    /** The poll: small, so that its own time adds little to what is measured. */
    static final String POLL = "SELECT COUNT(*) FROM trades";

    /** One poll: sent, answered, and the body (parsed after the run, outside the timed loop). */
    private record Poll(long sentNanos, long answeredNanos, byte[] body) {}

    private final HttpApi http;
    private final List<Poll> polls = new ArrayList<>();

    VisibilityProbe(HttpApi http) {
        this.http = http;
    }

    @Override
    public void runUntil(long deadlineNanos) {
        while (System.nanoTime() < deadlineNanos) {
            long t0 = System.nanoTime();
            byte[] body = http.query(POLL);
            polls.add(new Poll(t0, System.nanoTime(), body));
        }
    }

    /** Matches the polls with {@code acks} (in the order the writer got them). */
    Visibility against(List<BatchWriter.Ack> acks) {
        long[] versions =
                polls.stream().mapToLong(p -> HttpSqlClient.version(p.body())).toArray();
        List<Double> millis = new ArrayList<>();
        long seenBefore = 0;
        int first = 0;
        for (BatchWriter.Ack ack : acks) {
            while (first < polls.size() && versions[first] < ack.version()) {
                first++;
            }
            if (first == polls.size()) {
                break;
            }
            double ms = (polls.get(first).answeredNanos() - ack.ackNanos()) / 1e6;
            millis.add(ms);
            if (ms < 0) {
                seenBefore++;
            }
        }
        double[] sorted =
                millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new Visibility(
                sorted.length,
                polls.size(),
                percentile(sorted, 50),
                percentile(sorted, 99),
                sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1],
                seenBefore,
                missedAfterAck(acks, versions));
    }

    /** Polls sent after an acknowledgement arrived that read a version older than the one it named. */
    private long missedAfterAck(List<BatchWriter.Ack> acks, long[] versions) {
        long missed = 0;
        int last = -1;
        for (int p = 0; p < polls.size(); p++) {
            while (last + 1 < acks.size()
                    && acks.get(last + 1).ackNanos() < polls.get(p).sentNanos()) {
                last++;
            }
            if (last >= 0 && versions[p] < acks.get(last).version()) {
                missed++;
            }
        }
        return missed;
    }

    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
