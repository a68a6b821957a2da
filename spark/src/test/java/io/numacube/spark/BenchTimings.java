package io.numacube.spark;

import java.util.ArrayList;
import java.util.List;

/**
 * The timed runs of one query on one engine, in milliseconds; the best and the median. Not thread-safe.
 */
final class BenchTimings {

    private final List<Double> millis = new ArrayList<>();

    void add(long nanos) {
        millis.add(nanos / 1e6);
    }

    double best() {
        return millis.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /** The median; of an even count, the mean of the two middle runs. */
    double median() {
        if (millis.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = millis.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
